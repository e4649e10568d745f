"""Stop 41 mends (W1): wrong parses of sets AY and BA, each form written another way."""

from __future__ import annotations

import pytest

from map2route.language.fresh import read_route
from map2route.language.parser.parse import parse_instruction


@pytest.mark.parametrize("text", [
    "Go into the bedroom that doesn't have a TV and go to the dresser in there.",
    "Head into the bedroom that does not contain a TV, then go to the dresser in there.",
    "Walk into the bedroom which doesn't have a television and stop at the dresser in there.",
    "Go into the bedroom that has no TV and go to the dresser in there.",
])
def test_a_room_said_without_a_thing_is_where_the_stop_in_there_is(text: str) -> None:
    # AY14: the "not" of "that does not have" was taken for a keep-clear rule, so "in there"
    # became a scope ("while you are in the bedroom") and the room a stage of its own
    assert read_route(text) == [("goal", "dresser")]


@pytest.mark.parametrize("text", [
    "Fridge please. Go to the fridge and wait there.",
    "fridge pls. go to fridge and wait there, I come soon with the shopping bags, heavy heavy",
    "The sofa, please! Head over to the sofa.",
    "Sofa now please. Walk to the sofa and stop there.",
])
def test_a_terse_request_said_again_in_full_is_one_stop(text: str) -> None:
    # BA01: the fragment and the full sentence after it were two stops at one thing
    assert len(read_route(text)) == 1


@pytest.mark.parametrize("text", ["Fridge please. Go to the fridge again.",
                                  "Fridge please. Go back to the fridge."])
def test_a_second_visit_asked_for_after_a_terse_request_is_kept(text: str) -> None:
    assert read_route(text) == [("goal", "fridge"), ("goal", "fridge")]


@pytest.mark.parametrize("text", [
    "Go to the floor lamp next to arm chair, in bedroom that is next door to the bedroom with "
    "only one bed.",
    "Go to the floor lamp in the bedroom next door to the bathroom.",
    "Go to the floor lamp in the bedroom that's next door to the bathroom.",
    "Walk to the floor lamp in the bedroom which is next door to the bathroom.",
])
def test_a_room_next_door_to_a_room_is_where_the_thing_is(text: str) -> None:
    # BA15: "next door" was read as "next to it" and the room after "to" became a second stop
    assert read_route(text) == [("goal", "floor_lamp")]
    lamp = parse_instruction(text).clauses[0].refs[0]
    room = lamp.modifiers[-1].refs[0]
    while room.head != "bedroom":
        room = room.modifiers[-1].refs[0]
    assert [m.kind for m in room.modifiers] == ["adjacent"]


def test_the_room_next_door_alone_is_still_next_to_the_room_before() -> None:
    assert read_route("Go to the kitchen. Then go to the bathroom next door.") == [
        ("goal", "kitchen"), ("goal", "bathroom")]


@pytest.mark.parametrize("text", [
    "Go to the sofa in the big living room, the sofa beside the window.",
    "First kitchen counter, after that the sofa in big living room, the sofa beside the window.",
    "Head to the chair by the desk - the chair in the bedroom.",
    "Stop at the plant in the kitchen, the plant next to the fridge, please.",
])
def test_a_thing_described_again_in_apposition_is_one_stop(text: str) -> None:
    # BA04: "the sofa in X, the sofa beside the window" was two stops at two sofas
    stages = read_route(text)
    assert len({s[1] for s in stages}) == len(stages)
    last = parse_instruction(text).clauses[-1].refs[0]
    assert len(last.modifiers) == 2


@pytest.mark.parametrize("text", ["Go to the cup on the table, the cup on the counter.",
                                  "Go to the sofa in the living room, then the sofa beside the "
                                  "window."])
def test_two_things_of_one_kind_told_apart_stay_two_stops(text: str) -> None:
    assert len(read_route(text)) == 2
