"""Rooms picked in everyday words (round I, class I6), read by
:mod:`map2route.language.parser.room_picks`: "the bedroom where is the dog bed", "the room
where is the most remote controls", "the bathroom between the two bedrooms", "the loo the
bedrooms share", "the bedroom at the far end of the house", "the last bedroom you reach from
the front door", "the first bedroom u hit coming out of the kitchen", "the TV of the smaller
living room". Floor for the class table ``breadth_room_picks.json``, no silent drops, refusals
that name a span, the parse of each new construction and the program the writer makes of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_parse, score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


def _parse(text: str) -> dict[str, Any]:
    return read_parse(text).to_json()


def _mods(ref: dict[str, Any]) -> dict[str, Any]:
    """Modifier kind -> the modifier (the last of each kind)."""
    return {m["kind"]: m for m in ref.get("modifiers", [])}


def _goal(text: str) -> dict[str, Any]:
    js = _parse(text)
    assert [s["kind"] for s in js["stages"]] == ["goal"]
    return js["stages"][0]["refs"][0]


def _room_of(ref: dict[str, Any]) -> dict[str, Any]:
    return _mods(ref)["in_room"]["refs"][0]


def test_table_floor_no_silent_drops_and_refusals_name_a_span() -> None:
    scores = score_set(DATA / "breadth_room_picks.json")
    s = summary(scores)
    assert s["silent_drops"] == 0
    assert s["right"] >= 44, [x.problems for x in scores if not x.right]
    assert all(x.refusal_span for x in scores if x.refused)


@pytest.mark.parametrize("text, thing", [
    ("Go to the bedroom where is the dog bed.", "dog_bed"),
    ("go to the bedroom where theres a desk lamp", "desk_lamp"),
    ("go to the bathroom where we keep the plunger", "plunger"),
    ("go to the room where the dog sleeps", "dog_bed"),
])
def test_where_clause_is_what_the_room_has(text: str, thing: str) -> None:
    ref = _goal(text)
    assert ref["head"] in ("bedroom", "bathroom", "room")
    assert _mods(ref)["with"]["refs"][0]["head"] == thing


def test_where_is_the_most_is_a_count() -> None:
    ref = _room_of(_goal("Go to the telly in the room where is the most remote controls."))
    rank = _mods(ref)["rank"]
    assert rank["rank"] == "most" and rank["refs"][0]["head"] == "remote_control"


@pytest.mark.parametrize("text", [
    "go to the toilet in the bathroom between the two bedrooms",
    "go to the sink in the bathroom that's sandwiched between the two bedrooms",
    "go to the sink in the bathroom the two bedrooms share",
    "go to the sink in the bathroom that is shared by both bedrooms",
    "go to the sink in the bathroom that connects the two bedrooms",
])
def test_room_between_or_shared_by_two_rooms(text: str) -> None:
    from map2route.grounding.writer import write_program
    room = _room_of(_goal(text))
    assert room["head"] == "bathroom"
    adj = _mods(room)["adjacent"]
    assert adj["refs"][0]["head"] == "bedroom"
    assert _mods(adj["refs"][0])["ordered"]["count"] == 2
    assert "count(where(" in write_program(parse_instruction(text))  # doors to two of them


def test_room_between_two_rooms_of_other_kinds_touches_both() -> None:
    room = _room_of(_goal("go to the toilet in the bathroom between the kitchen and the bedroom"))
    assert [(m["kind"], m["refs"][0]["head"]) for m in room["modifiers"]] == [
        ("adjacent", "kitchen"), ("adjacent", "bedroom")]


def test_count_after_the_room_of_a_thing_counts_in_the_room() -> None:
    ref = _goal("Go to the telly in the room with the most remote controls.")
    assert "rank" not in _mods(ref)
    assert _mods(_room_of(ref))["rank"]["rank"] == "most"


def test_far_end_of_the_house_is_the_farthest_room() -> None:
    room = _room_of(_goal("Go to the bed in the bedroom at the far end of the house."))
    rank = _mods(room)["rank"]
    assert room["head"] == "bedroom" and rank["rank"] == "farthest" and not rank.get("refs")


def test_last_room_you_reach_from_x_is_the_farthest_from_x() -> None:
    room = _room_of(_goal("Go to the dresser in the last bedroom you reach from the front door."))
    rank = _mods(room)["rank"]
    assert rank["rank"] == "farthest" and rank["refs"][0]["head"] == "doorway"


@pytest.mark.parametrize("text, k, origin", [
    ("go to the window in the first bedroom u hit coming out of the kitchen", 1, "kitchen"),
    ("go to the second bedroom you get to from the kitchen", 2, "kitchen"),
    ("go to the first bedroom you pass leaving the kitchen", 1, "kitchen"),
    ("Go to the window in the bedroom that is second from the front door.", 2, "doorway"),
])
def test_route_order_counted_from_a_room(text: str, k: int, origin: str) -> None:
    from map2route.grounding.writer import write_program
    ref = _goal(text)
    room = _room_of(ref) if ref["head"] != "bedroom" else ref
    mods = _mods(room)
    assert mods["rank"]["rank"] == "route" and mods["rank"]["k"] == k
    assert mods["origin"]["refs"][0]["head"] == origin and "adjacent" not in mods
    prog = write_program(parse_instruction(text))
    line = next(x for x in prog.splitlines() if "kth_along_route(" in x)
    assert "start_place()" not in line


def test_thing_of_a_sized_room_is_in_it() -> None:
    js = _parse("Go to TV of the smaller living room, and after that to the TV in the "
                "biggest bedroom.")
    assert [(s["kind"], s["refs"][0]["head"]) for s in js["stages"]] == [
        ("goal", "television"), ("goal", "television")]
    room = _room_of(js["stages"][0]["refs"][0])
    assert room["head"] == "living_room" and _mods(room)["rank"]["rank"] == "smallest"


def test_would_like_keeps_the_one_as_an_apposition() -> None:
    js = _parse("I'd like you to go to the sofa, the one in the living room with the plant.")
    assert [s["refs"][0]["head"] for s in js["stages"]] == ["sofa"]


@pytest.mark.parametrize("text, span", [
    ("go to the dresser in the bedroom the kitchen and the bathroom share", "share"),
    ("Go to the window in the bedroom that you passed first on the way there.", "passed"),
    ("go to the sofa in the last living room you pass on the way to the bed", "last"),
])
def test_still_refused_with_a_span(text: str, span: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert span in str(err.value.word)


@pytest.mark.parametrize("scene, text, want", [
    ("procthor_00299", "go to the sink in the bathroom the two bedrooms share", "9|0|0"),
    ("procthor_00775", "go to the sink in the bathroom sandwiched between the two bedrooms",
     "7|1|0"),
    ("procthor_00788", "go to the dresser in the bedroom where is the key chain", "8|1"),
])
def test_picks_ground_to_the_room_meant(scene: str, text: str, want: str) -> None:
    from map2route.bench.map2route.grounding_eval import stage_descriptors
    from map2route.grounding.grounder import Executor, OfflineGrounder
    from map2route.paths import maps_dir
    from map2route.semantic_map.io import load_scene

    if not (maps_dir() / scene).is_dir():
        pytest.skip("shipped ProcTHOR scenes are not present")
    g = OfflineGrounder(executor=Executor("inprocess")).ground(
        text, load_scene(maps_dir() / scene), (5.0, 5.0))
    assert stage_descriptors(g.routeir) == [want]
