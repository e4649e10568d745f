"""Mends after first contact on sets AP-AS (stop 39), each a construction, and the scorer's
reading of a keep-away rule on a thing said to be in a room."""

from __future__ import annotations

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route, score_item
from map2route.language.parser import parse_instruction


@pytest.mark.parametrize(("text", "route"), [
    # a fragment that says where the walk starts (AP14, AQ21)
    ("Starting from the kitchen. Go to the fridge.", [("goal", "fridge")]),
    ("Starting at the sofa. Go to the fridge.", [("goal", "fridge")]),
    # a lone "Go." after a terse request (AQ03)
    ("Telly in the big lounge. Go.", [("goal", "television")]),
    ("Go to the fridge. Go now!", [("goal", "fridge")]),
    # a part of the loo is a part of the bathroom (AR09)
    ("Go wait in the corner of the loo.", [("goal", "corner")]),
])
def test_short_sentences_and_the_loo(text: str, route: list[tuple[str, str]]) -> None:
    assert [r[:2] for r in read_route(text)] == route


def test_a_fragment_start_names_the_start() -> None:
    p = parse_instruction("Starting from the kitchen. Go to the fridge.")
    assert any("kitchen" in c for c in p.context)


def test_the_corner_of_the_loo_is_in_the_bathroom() -> None:
    ref = parse_instruction("Go wait in the corner of the loo.").clauses[0].refs[0]
    assert [m.refs[0].head for m in ref.modifiers if m.kind == "in_room"] == ["bathroom"]


@pytest.mark.parametrize("text", [
    "Go to the bedroom that has no windows but does have an armchair.",
    "Go to the bedroom that has no windows but has an armchair.",
])
def test_contents_denied_then_affirmed(text: str) -> None:
    ref = parse_instruction(text).clauses[0].refs[0]
    assert ref.head == "bedroom"
    assert [(m.refs[0].head, m.negated) for m in ref.modifiers if m.kind == "with"] == [
        ("window", True), ("arm_chair", False)]


@pytest.mark.parametrize("text", [
    "Go.",  # a lone "Go" with nothing before it is no request
    "Starting from the kitchen.",  # a start with no stop
])
def test_what_says_no_stop_is_still_refused(text: str) -> None:
    with pytest.raises(ParseError):
        parse_instruction(text)


@pytest.mark.parametrize("scope", ["global", "in:living_room", None])
def test_scorer_reads_a_keep_away_rule_on_a_thing_in_a_room_either_way(scope):
    """"Stay away from the couch in the living room": away from that room the rule asks
    nothing, so a set's whole-route rule and one scoped to the room are one rule (AQ12);
    another room is not, nor is a stay-close rule, nor the strict scorer."""
    text = "Go to the bed. Stay away from the sofa in the living room."
    item = {"id": "t", "instruction": text, "stages": [["goal", "bed"]],
            "constraints": [{"head": "sofa", "kind": "far", "scope": scope}],
            "refs": ["bed", "sofa", "living_room"]}
    parse = parse_instruction(text)
    assert score_item(item, parse).right
    if scope == "in:living_room":
        assert not score_item(item, parse, strict=True).right
    item["constraints"][0]["scope"] = "in:kitchen"
    assert not score_item(item, parse).right
    near = "Go to the bed. Stay close to the sofa in the living room."
    item.update(instruction=near, constraints=[{"head": "sofa", "kind": "near",
                                                "scope": "in:living_room"}])
    assert not score_item(item, parse_instruction(near)).right


@pytest.mark.parametrize("text", [
    # "both" before "the" was a count of two and the dryer became the stop (AP03)
    "Go into the loo that's got both the washing machine and the dryer in it.",
    "Go to the bathroom that has both the washing machine and the dryer.",
    "Go to the bathroom that has got both a washing machine and a dryer.",
])
def test_a_room_that_has_got_both_things_is_the_stop(text: str) -> None:
    ref = parse_instruction(text).clauses[0].refs[0]
    assert ref.head == "bathroom"
    assert [(m.refs[0].head, m.count) for m in ref.modifiers if m.kind == "with"] == [
        ("washing_machine", None), ("clothes_dryer", None)]


def test_keeping_away_from_both_the_things_is_two_rules() -> None:
    assert [r[:2] for r in read_route("Go to the bed. Avoid both the sofa and the table.")] == [
        ("goal", "bed"), ("avoid", "sofa"), ("avoid", "table")]
