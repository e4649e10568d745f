"""The route-structure breadth table (lists, sequencers, chains, passes, stops on the way,
returns, speech) and the frames of :mod:`map2route.language.parser.route_frames`."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import route_summary, score_set, summary
from map2route.language.parser import parse_instruction
from map2route.language.parser import route_frames as RF
from map2route.language.parser.rewrites import Marks, Rewriter
from map2route.language.tokens import tokenize

_TABLE = Path(__file__).parent / "data" / "breadth_route_structure.json"


def test_table_floor() -> None:
    """First contact 124 of 195; the floor is what the frames reach, with no silent drop."""
    s = summary(score_set(_TABLE))
    assert s["right"] >= 193
    assert s["silent_drops"] == 0


def _frames(text: str) -> str:
    return " ".join(t.text for t in Rewriter(tokenize(text), Marks()).run(RF.EARLY))


@pytest.mark.parametrize(("text", "want"), [
    ("a) the dresser b) the sofa", "the dresser , then the sofa"),
    ("1st the fridge, 2nd the sink", "the fridge , then the sink"),
    ("Stop 1: the fridge. Stop 2: the sofa.", "the fridge . the sofa ."),
    ("go to the fridge, then make your way back", "go to the fridge , then go to start"),
    ("Take the route through the kitchen to the sofa.",
     "go through the kitchen , then go to the sofa ."),
    ("Go past the fridge and the toaster to the sink.",
     "go past the fridge and go past the toaster , then go to the sink ."),
])
def test_frames_rewrite(text: str, want: str) -> None:
    assert _frames(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("Errands: a) the fridge b) the sofa c) back to me",
     [("goal", "fridge"), ("goal", "sofa"), ("goal", "start")]),
    ("Get to the desk by going through the living room.",
     [("pass", "living_room"), ("goal", "desk")]),
    ("Go into the kitchen and keep going into the living room.",
     [("pass", "kitchen"), ("goal", "living_room")]),
    ("Head to the toilet, stopping at the sink along the way.",
     [("goal", "sink"), ("goal", "toilet")]),
    ("Pass by the fridge on your way to the sink.", [("pass", "fridge"), ("goal", "sink")]),
    ("go to the desk after that go to the bed", [("goal", "desk"), ("goal", "bed")]),
    ("Visit, in order, the fridge, the sofa and the bed.",
     [("goal", "fridge"), ("goal", "sofa"), ("goal", "bed")]),
    ("Go to the fridge. Stop there. Then go to the sofa.", [("goal", "fridge"), ("goal", "sofa")]),
    ("Could you run to the fridge, then to the sofa, and then come on back?",
     [("goal", "fridge"), ("goal", "sofa"), ("goal", "start")]),
    ("Go over to the fridge and return to this spot.", [("goal", "fridge"), ("goal", "start")]),
    ("Go to the fridge, then to the sofa, then finish up back here.",
     [("goal", "fridge"), ("goal", "sofa"), ("goal", "start")]),
    ("#1 fridge #2 sofa", [("goal", "fridge"), ("goal", "sofa")]),
    ("Go to the fridge. After the fridge, go to the sofa.", [("goal", "fridge"), ("goal", "sofa")]),
    ("Go to the bathroom, you'll pass through the bedroom.",
     [("pass", "bedroom"), ("goal", "bathroom")]),
    ("Go to the sofa, but before that, stop at the fridge.", [("goal", "fridge"), ("goal", "sofa")]),
    ("Go to the sofa. Before that, stop at the fridge.", [("goal", "fridge"), ("goal", "sofa")]),
    ("Swing past the fridge on your way to the sofa.", [("pass", "fridge"), ("goal", "sofa")]),
    ("Visit the fridge and the sofa, in that order.", [("goal", "fridge"), ("goal", "sofa")]),
    ("Step 1 - fridge. Step 2 - sofa.", [("goal", "fridge"), ("goal", "sofa")]),
    ("Go through both the kitchen and the living room to get to the sofa.",
     [("pass", "kitchen"), ("pass", "living_room"), ("goal", "sofa")]),
    ("Your route is: fridge, sofa, bed.", [("goal", "fridge"), ("goal", "sofa"), ("goal", "bed")]),
    ("Go first to the fridge and second to the sofa.", [("goal", "fridge"), ("goal", "sofa")]),
    ("When you've been to the fridge, head to the sofa.", [("goal", "fridge"), ("goal", "sofa")]),
    # "to start" opening the list is no stop at the start (main read it as one)
    ("So, to start, go to the desk. Then go to the bed.", [("goal", "desk"), ("goal", "bed")]),
    ("Errands for you: a) go to the sofa b) come back to me.",
     [("goal", "sofa"), ("goal", "start")]),
    ("Here's the plan - first the fridge, then the couch, then back here.",
     [("goal", "fridge"), ("goal", "sofa"), ("goal", "start")]),
])
def test_frames_parse(text: str, want: list[tuple[str, str]]) -> None:
    assert route_summary(parse_instruction(text)) == want


def test_header_and_order_words_are_recorded() -> None:
    """Words that only announce the structure are kept as context, not dropped."""
    p = parse_instruction("Do these in order: - the sink - the bed - the sofa")
    assert "list header: do these in order" in p.context
    p = parse_instruction("Go to the fridge first, the sofa second and the bed last.")
    assert route_summary(p) == [("goal", "fridge"), ("goal", "sofa"), ("goal", "bed")]
    assert "said as order: second" in p.context


@pytest.mark.parametrize("text", [
    "Go to the 2nd bedroom.",  # an ordinal inside a reference is no list marker
    "Go to the bed and go back to the sofa.",  # a return to a named thing is that thing
    "Go to the fridge in order to check it.",  # "in order to" is a purpose, not an order
])
def test_frames_leave_references_alone(text: str) -> None:
    got = route_summary(parse_instruction(text))
    assert ("goal", "start") not in got and got[-1][0] == "goal"


def test_back_and_forth_is_not_a_return() -> None:
    with pytest.raises(ParseError):
        parse_instruction("Walk back and forth between the sofa and the TV.")
