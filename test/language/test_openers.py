"""Openers and headers, read by :mod:`map2route.language.parser.openers`: a header that says
the job's shape ("Two stops for this one.", "Three things, in order.", "Kitchen round, in this
order:", "Laptop sweep, three stops, this order:", "two things pls, ...", "Rules:", "Ticket 7:",
"Okay this one's a bit of a trek."), "do" before a numbered list and the list's marks ("(1)",
bare "1 ... 2 ..."), a start said as an arrival or an apposition ("Coming in from outside
through the kitchen door:", "From where you are now, by the sofa, ..."), vocatives before a
scene ("Now dear, I'm ..."), "come find me, I'm by X", "route it through X", and a header's
count checked against the stops.

The class table ``breadth_openers.json`` (OP001-OP033 written before the fix, OPB01-OPB10
after it) keeps a floor here, with no silent drop."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route as _route
from map2route.language.fresh import score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


def test_table_floor_no_silent_drops_and_refusals_name_a_span() -> None:
    scores = score_set(DATA / "breadth_openers.json")
    s = summary(scores)
    assert s["silent_drops"] == 0
    assert s["right"] >= 39
    for sc in scores:
        if sc.refused:
            assert sc.refusal_span


@pytest.mark.parametrize(("text", "want"), [
    # headers: a count, a topic, an order, with their tails; context, never a stage
    ("Two stops for this one. First the fridge, then the sofa.",
     [("goal", "fridge"), ("goal", "sofa")]),
    ("few stops in this order:\n1. the fridge\n2. the sink",
     [("goal", "fridge"), ("goal", "sink")]),
    ("Kitchen run, two stops. First the kettle, then the fridge.",
     [("goal", "kettle"), ("goal", "fridge")]),
    ("two things pls, fridge first, then the sofa",
     [("goal", "fridge"), ("goal", "sofa")]),
    ("Okay this one's a bit of a trek. Go to the bed.", [("goal", "bed")]),
    ("This is a two-stop job. The fridge, then the toilet.",
     [("goal", "fridge"), ("goal", "toilet")]),
    ("Rules: go to the sink, and keep away from the sofa.",
     [("goal", "sink"), ("far", "sofa", "")]),
    ("Ticket 7: the dresser. Route it through the kitchen.",
     [("pass", "kitchen"), ("goal", "dresser")]),
    # "do" and the marks of a numbered list
    ("do 1 fridge 2 toilet 3 laptop", [("goal", "fridge"), ("goal", "toilet"), ("goal", "laptop")]),
    ("Please visit the following places in order: (1) the kettle, (2) the desk, and (3) the sofa.",
     [("goal", "kettle"), ("goal", "desk"), ("goal", "sofa")]),
    # starts: context
    ("Coming in through the kitchen door: go to the house plant.", [("goal", "house_plant")]),
    ("From where you are now, by the sofa, go to the fridge.", [("goal", "fridge")]),
    ("You're just inside the front door. Go to the toilet.", [("goal", "toilet")]),
    ("right so from the kitchen go over to the armchair", [("goal", "arm_chair")]),
    # the caller's place is the stop; "After" opening a sentence is "then"
    ("Go to the laptop. After come find me, I'm in the kitchen by the kettle.",
     [("goal", "laptop"), ("goal", "kettle")]),
    ("Go to the sofa. After, the fridge.", [("goal", "sofa"), ("goal", "fridge")]),
])
def test_openers(text: str, want: list[tuple[str, ...]]) -> None:
    assert _route(text) == want


def test_header_and_start_are_context() -> None:
    p = parse_instruction("Coming in through the kitchen door: two stops. The fridge, then "
                          "the sofa.")
    assert any("coming in" in c for c in p.context)
    assert any(c.startswith("two stops") for c in p.context)
    assert p.context_refs  # the kitchen door: reported, not a stage


@pytest.mark.parametrize(("text", "span"), [
    # a count the stops contradict: refused, naming the header
    ("Two stops. The fridge, the sofa and the bed.", "Two stops"),
    ("Three stops, in this order: the fridge, then the sofa.", "Three stops, in this order"),
    # still refused: a header word no rule reads, a count of things that are not stops
    ("Kitchen blorp, go to the fridge.", "blorp"),
])
def test_refused_naming_the_span(text: str, span: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert span.lower() in (err.value.word or "").lower()


def test_not_a_list_or_header() -> None:
    # a count of things on the map stays a count; "one" after a correction stays an answer
    with pytest.raises(ParseError):
        parse_instruction("Go to 2 beds, 3 chairs")
    assert _route("Go to the sofa. No, the big one.")[0][0] == "goal"
