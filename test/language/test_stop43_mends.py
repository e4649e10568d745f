"""Mends of stop 43, each on an exact parse (hand-checked)."""

from __future__ import annotations

from typing import Any

import pytest

from map2route.language.fresh import read_route
from map2route.language.parser import parse_instruction


@pytest.mark.parametrize(("text", "want"), [
    # "until" with a gerund, as "after reaching" already reads
    ("Go to the bed. Until reaching the bed, keep near the sofa.",
     [("goal", "bed"), ("near", "sofa", "until:bed")]),
    ("Go to the bed, keep near the sofa until getting to it.",
     [("goal", "bed"), ("near", "sofa", "until:it")]),
    # a room gone "through into" and left for another is crossed (BE19); alone it is the stop
    ("From the front door go through into the other living room, then into the bathroom that "
     "opens off it and wait by the toilet.", [("pass", "living_room"), ("goal", "toilet")]),
    ("Go through into the kitchen, then into the bathroom and wait by the toilet.",
     [("pass", "kitchen"), ("goal", "toilet")]),
    ("Go through into the kitchen.", [("goal", "kitchen")]),
    ("Go through into the kitchen and wait by the fridge.", [("goal", "fridge")]),
])
def test_mends(text: str, want: list[tuple[str, ...]]) -> None:
    assert read_route(text) == want


def _json(text: str) -> dict[str, Any]:
    return parse_instruction(text).to_json()


def test_the_room_you_start_in_stays_the_start_after_a_scene_sentence() -> None:
    # "a bedroom" is one of several: the start room must not become "bedroom"
    got = _json("You are standing in a bedroom. Go to the dresser in the room you start in.")
    room = got["stages"][0]["refs"][0]["modifiers"][0]["refs"][0]
    assert room["head"] == "room" and room["modifiers"][0]["kind"] == "start_room"
    got = _json("You are currently in a bedroom. Go to the bin. While still in the room you start "
                "in, stay close to the sofa.")
    scope = got["constraints"][0]["spatial_scope"]
    assert scope["text"] == "the room you start in"
    # "this room" still names the room the speaker said
    got = _json("I'm in the kitchen. Go to the chair in this room.")
    assert got["stages"][0]["refs"][0]["modifiers"][0]["refs"][0]["head"] == "kitchen"


def test_crossing_the_room_you_start_in_is_a_scope_not_a_stop() -> None:
    got = _json("Head to the couch. While crossing the room you start in, give walls and "
                "furniture a wide berth.")
    assert [s["kind"] for s in got["stages"]] == ["goal"]
    assert got["constraints"][0]["spatial_scope"]["text"] == "the room you start in"
    got = _json("Head to the couch. While going through the kitchen you keep away from the fridge.")
    assert got["constraints"][0]["spatial_scope"]["text"] == "the kitchen"


def test_walls_of_your_starting_room() -> None:
    got = _json("Follow the walls of your starting room.")
    room = got["stages"][0]["refs"][0]
    assert room["text"] == "your starting room" and room["modifiers"][0]["kind"] == "start_room"
    assert _json("Follow the walls of the kitchen.")["stages"][0]["refs"][0]["head"] == "kitchen"
