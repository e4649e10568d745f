"""Rooms picked by the walk through the house and room-to-room motion (round J, class J5),
read by :mod:`map2route.language.parser.house_walks`: "head on through the house to the first
bedroom you get to", "go right across the house to X", "go through from that bathroom into the
bedroom it opens into", "the bedroom after that one", "- not the one ..., the next one along",
"If you come in from the kitchen side, go to the second one you get to", "the one that hasn't
got anything sitting on it", "the one that has a single chair tucked in under it". Floor for
the class table ``breadth_house_walks.json``, no silent drops, refusals that name a span, the
parse of each new construction, and what must still be refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_parse, read_route, score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


def _parse(text: str) -> dict[str, Any]:
    return read_parse(text).to_json()


def _mods(ref: dict[str, Any]) -> dict[str, Any]:
    return {m["kind"]: m for m in ref.get("modifiers", [])}


def _goal(text: str) -> dict[str, Any]:
    js = _parse(text)
    assert [s["kind"] for s in js["stages"]] == ["goal"], js["stages"]
    return js["stages"][0]["refs"][0]


def _room_of(ref: dict[str, Any]) -> dict[str, Any]:
    return _mods(ref)["in_room"]["refs"][0]


def test_table_floor_no_silent_drops_and_refusals_name_a_span() -> None:
    scores = score_set(DATA / "breadth_house_walks.json")
    s = summary(scores)
    assert s["silent_drops"] == 0
    assert s["right"] >= 34, [x.problems for x in scores if not x.right]
    assert all(x.refusal_span for x in scores if x.refused)


@pytest.mark.parametrize("text", [
    "Head on through the house to the first bedroom you get to and stop at the dresser.",
    "go right across the house to the bedroom with the basketball and stop at the dresser",
    "Walk through the house until you reach the first bedroom you come to and stop at the "
    "dresser.",
    "carry on across the house and stop at the dresser in the first bedroom you get to",
    "go thru the house 2 the first bedroom u come to n stop at the dresser",
    "Proceed through the house to the first bedroom encountered and stop at the dresser.",
])
def test_walk_through_the_house_adds_no_stage(text: str) -> None:
    ref = _goal(text)
    assert ref["head"] == "dresser"
    room = _room_of(ref)
    assert room["head"] == "bedroom"
    js = _parse(text)
    assert not any(s["kind"] == "pass" for s in js["stages"])
    assert not any(r["head"] == "house" for s in js["stages"] for r in s["refs"])


def test_the_route_order_is_kept_after_the_walk() -> None:
    room = _room_of(_goal("head on through the house to the second bedroom you get to and stop "
                          "at the bed"))
    rank = _mods(room)["rank"]
    assert (rank["rank"], rank["k"]) == ("route", 2)


def test_the_last_room_through_the_house_is_the_farthest() -> None:
    room = _room_of(_goal("Just keep going through the house to the last bedroom and go to "
                          "the bed."))
    assert _mods(room)["rank"]["rank"] == "farthest"


def test_keep_going_closing_a_pass_is_context() -> None:
    js = _parse("Starting at the fridge: go through the bedroom with two windows and just keep "
                "going. In the second bedroom you walk into, go up to the dresser.")
    assert [s["kind"] for s in js["stages"]] == ["pass", "goal"]
    assert any("keep going" in c for c in read_parse(
        "Go through the kitchen and just keep going. Stop at the sofa.").context)


def test_room_it_opens_into_is_adjacent_to_the_room_gone_from() -> None:
    js = _parse("Go to the bin in the bathroom first. Then go through from that bathroom into "
                "the bedroom it opens into and go to the bed.")
    assert [(s["kind"], s["refs"][0]["head"]) for s in js["stages"]] == [
        ("goal", "garbage_can"), ("goal", "bed")]
    room = _room_of(js["stages"][1]["refs"][0])
    assert room["head"] == "bedroom"
    assert _mods(room)["adjacent"]["refs"][0]["head"] == "bathroom"


@pytest.mark.parametrize("text", [
    "go to the dresser in the bedroom that opens off the bathroom",
    "go to the dresser in the bedroom u get to thru the bathroom",
    "go to the dresser in the bedroom that the bathroom opens into",
])
def test_room_reached_from_another_is_adjacent_not_a_stage(text: str) -> None:
    room = _room_of(_goal(text))
    assert room["head"] == "bedroom"
    assert _mods(room)["adjacent"]["refs"][0]["head"] == "bathroom"


def test_room_after_that_one_is_the_next_along_the_route() -> None:
    js = _parse("Go to the dresser in the second bedroom you walk into, then carry on to the TV "
                "in the bedroom after that one.")
    assert [s["refs"][0]["head"] for s in js["stages"]] == ["dresser", "television"]
    rank = _mods(_room_of(js["stages"][1]["refs"][0]))["rank"]
    assert (rank["rank"], rank["k"]) == ("route", 1)


def test_restating_correction_after_a_counted_room_is_context() -> None:
    p = read_parse("Go to the sofa in the second living room you walk through - not the one "
                   "you come into from outside, the next one along.")
    assert read_route("Go to the sofa in the second living room you walk through.") == \
        [("goal", "sofa")]
    assert any("next one along" in c for c in p.context)
    rank = _mods(_room_of(p.to_json()["stages"][0]["refs"][0]))["rank"]
    assert rank["k"] == 2


def test_come_in_from_a_room_says_where_the_count_starts() -> None:
    p = read_parse("So there's two armchairs in the living room. If you come in from the "
                   "kitchen side, go to the second one you get to.")
    ref = p.to_json()["stages"][0]["refs"][0]
    assert ref["head"] == "arm_chair"
    assert (_mods(ref)["rank"]["rank"], _mods(ref)["rank"]["k"]) == ("route", 2)
    assert _room_of(ref)["head"] == "living_room"
    assert "from the kitchen" in p.context


def test_nothing_sitting_on_it_is_an_empty_top() -> None:
    ref = _goal("Go to the dining table that hasn't got anything sitting on it.")
    assert ref["head"] == "dining_table"
    assert "empty" in _mods(ref)


def test_a_single_chair_tucked_under_it_is_a_count_of_one() -> None:
    ref = _goal("Go to the dining table that has a single chair tucked in under it.")
    assert (_mods(ref)["with"]["refs"][0]["head"], _mods(ref)["with"]["count"]) == ("chair", 1)


def test_set_of_tables_with_chairs_round_them() -> None:
    ref = _goal("There are two tables in the house with chairs round them, and I want you at "
                "the smaller of the two.")
    assert ref["head"] in ("table", "dining_table")
    assert _mods(ref)["with"]["refs"][0]["head"] == "chair"


@pytest.mark.parametrize("text", [
    # the middle one of rooms: no ranking the grounding checks
    "Go into the living room that leads into a bedroom - the middle one, not the one by the "
    "kitchen.",
    # "the next one along" with no count said before: which one is not said
    "Go to the sofa in the living room - not the one by the kitchen, the next one along.",
    # a room placed after another room of the route: no grounding verb checks it
    "Go to the dresser in the bedroom you come to after the bathroom.",
    # a condition on how the walk comes in, with no count to start
    "Go into the living room and if you come in from the kitchen, stop.",
])
def test_still_refused_and_named(text: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert err.value.span


def test_a_pass_before_keep_going_into_a_room_stays_a_pass() -> None:
    assert read_route("Go into the kitchen and keep going into the living room.") == [
        ("pass", "kitchen"), ("goal", "living_room")]
