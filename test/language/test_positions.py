"""Places told by position (round K, class K3), read by
:mod:`map2route.language.parser.told_positions`: "the back bedroom", "the bedroom right at the
very back of the house", "the middle bedroom", "the living room on the far side of the
kitchen", "the fridge corner of the kitchen", "the corner diagonally across from the sink",
"wait on the dresser side of the room", "hug the counter side of the kitchen", "the middle of
that little bunch", "in between all 4 chairs", "roughly where they'd all meet", "between that
room's two windows". Floor for the class table ``breadth_positions.json``, no silent drops,
refusals that name a span, and the parse of each new construction."""

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
    """Modifier kind -> the modifier (the last of each kind)."""
    return {m["kind"]: m for m in ref.get("modifiers", [])}


def _goal(text: str) -> dict[str, Any]:
    js = _parse(text)
    assert [s["kind"] for s in js["stages"]] == ["goal"], js["stages"]
    return js["stages"][0]["refs"][0]


def _room_of(ref: dict[str, Any]) -> dict[str, Any]:
    return _mods(ref)["in_room"]["refs"][0]


def test_table_floor_no_silent_drops_and_refusals_name_a_span() -> None:
    scores = score_set(DATA / "breadth_positions.json")
    s = summary(scores)
    assert s["silent_drops"] == 0
    assert s["right"] >= 35, [x.problems for x in scores if not x.right]
    assert all(x.refusal_span for x in scores if x.refused)


@pytest.mark.parametrize("text", [
    "Go to the dresser in the back bedroom.",
    "go to the dresser in the far bedroom",
    "Go to the dresser in the end bedroom.",
    "can u go to the bed in the bedroom right at the far end of the house",
    "go to the dresser in the bedroom right at the very back of the house.",
    "Go to the toilet in the bathroom at the other end of the house.",
    "Please go to the bed in the bedroom which is in the most far end of house.",
])
def test_far_end_of_the_house_ranks_the_room_farthest(text: str) -> None:
    room = _room_of(_goal(text))
    assert room["head"] in ("bedroom", "bathroom")
    assert _mods(room)["rank"]["rank"] == "farthest"


def test_far_end_of_the_house_after_a_thing_ranks_the_thing() -> None:
    ref = _goal("the toilet at the opposite end of the house from here, go there pls")
    assert ref["head"] == "toilet"
    assert _mods(ref)["rank"]["rank"] == "farthest"


@pytest.mark.parametrize("text", [
    "Please proceed to the armchair located in the middle bedroom.",
    "go to the box in the bedroom in the middle of the house",
])
def test_middle_room_is_the_one_between_two_of_its_kind(text: str) -> None:
    room = _room_of(_goal(text))
    assert room["head"] == "bedroom"
    adj = _mods(room)["adjacent"]["refs"][0]
    assert adj["head"] == "bedroom" and _mods(adj)["ordered"]  # next to both bedrooms


def test_room_on_the_far_side_of_a_room_is_beyond_it() -> None:
    room = _room_of(_goal("Go to the TV in the living room on the far side of the kitchen."))
    assert room["head"] == "living_room"
    assert _mods(room)["adjacent"]["refs"][0]["head"] == "kitchen"


def test_thing_corner_of_a_room() -> None:
    ref = _goal("wait in the fridge corner of the kitchen")
    assert ref["head"] == "corner"
    mods = _mods(ref)
    assert mods["in_room"]["refs"][0]["head"] == "kitchen"
    assert mods["rank"]["rank"] == "nearest" and mods["rank"]["refs"][0]["head"] == "fridge"


@pytest.mark.parametrize("text", [
    "Go stand in the corner diagonally across from the toilet in the bathroom.",
    "wait in the corner that's directly across from the sink in the bathroom",
    "go to the corner opposite to the toilet in the bathroom",
])
def test_corner_across_from_a_thing_is_the_farthest_from_it(text: str) -> None:
    mods = _mods(_goal(text))
    assert mods["rank"]["rank"] == "farthest"
    assert mods["rank"]["refs"][0]["head"] in ("toilet", "sink")


def test_thing_side_of_a_room_as_a_place_to_be() -> None:
    ref = _goal("go and wait on the dresser side of the bedroom with the baseball bat")
    assert ref["head"] == "dresser"
    assert _room_of(ref)["head"] == "bedroom"


def test_hug_the_thing_side_of_a_room() -> None:
    assert read_route("on the way to the fridge hug the counter side of the kitchen") == [
        ("goal", "fridge"), ("near", "counter_top", "in:kitchen")]


@pytest.mark.parametrize("text", [
    "There's a sofa, a TV and a floor lamp in the living room. Go to the middle of that lot.",
    "There's a sofa, a TV and a floor lamp in the living room. Go to the middle of that "
    "little bunch so I can find you.",
    "there's a sofa, a chair and a lamp in the kitchen. stop in between all of them",
    "In the bathroom there's a sink, a toilet and a plunger. Stand roughly where all three "
    "would meet.",
    "In the kitchen there's the fridge, the kettle and the toaster. Go to the spot where "
    "they'd all meet.",
])
def test_point_among_things_said_before(text: str) -> None:
    ref = _goal(text)
    assert ref["head"] == "centroid"
    assert len(_mods(ref)["between"]["refs"]) == 3


def test_in_between_all_counted_things() -> None:
    ref = _goal("go to the spot in between all 4 chairs in the bedroom with the baseball bat")
    assert ref["head"] == "centroid"
    assert _mods(ref)["between"]["refs"][0]["head"] == "chair"


def test_the_point_said_again_is_context() -> None:
    text = ("There's a sofa, a cart and an armchair in the kitchen. Stop right in the middle of "
            "those three, roughly where they'd all meet.")
    assert read_route(text) == [("goal", "centroid")]
    assert any("meet" in c for c in parse_instruction(text).context)


def test_between_a_rooms_own_two_things() -> None:
    ref = _goal("Stop at the point midway between that room's two windows.")
    assert ref["head"] == "midpoint"
    assert _mods(ref)["between"]["refs"][0]["head"] == "window"


@pytest.mark.parametrize("text", [
    "Go to the bed in the bedroom at the far end of the garden.",  # not the house
    "Go to the middle of that little bunch of zorblaxes.",  # no such things
    "Stop in the middle of that bunch.",  # no things said before it
])
def test_still_refused_naming_a_span(text: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert err.value.span is not None


def test_a_group_with_a_plural_member_is_a_centroid_not_a_midpoint() -> None:
    ref = _goal("Go to the middle of the table and the chairs, and wait there.")
    assert ref["head"] == "centroid"
    ref = _goal("In the living room there's a long table with a couple of chairs pulled up to "
                "it. Go to the middle of that little group, table and both chairs, and wait "
                "there.")
    assert ref["head"] == "centroid"
    assert [r["head"] for r in _mods(ref)["between"]["refs"]] == ["table", "chair"]


def test_that_room_after_one_of_two_rooms_is_that_kind_of_room() -> None:
    route = read_route("Go into the smaller of the two living rooms. Stop at the sofa. While "
                       "you're in that room keep away from the windows.")
    assert route[-1][:2] == ("far", "window")
    assert route[-1][2].replace("_", "") == "in:livingroom"


def test_far_end_said_first_places_the_room_introduced() -> None:
    js = _parse("I'm in the kitchen. Right at the far end of the house there's a bedroom with a "
                "rubbish bin in it. Go to the chair in that bedroom.")
    assert [s["refs"][0]["head"] for s in js["stages"]] == ["chair"]
    said = [r for c in js["constraints"] if c["kind"] == "mention" for r in c["refs"]]
    assert any(r["head"] == "bedroom" and _mods(r)["rank"]["rank"] == "farthest" for r in said)
