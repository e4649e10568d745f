"""Mends of stop 40, each a construction: merges of the K round that met (a geometry stop
whose things were placed "in there", in the room just gone to)."""

from __future__ import annotations

import pytest

from map2route.language.fresh import read_route
from map2route.language.parser import parse_instruction


@pytest.mark.parametrize(("text", "route"), [
    # AQ14: the room gone into, then the middle of what a sentence placed in there: one stop
    ("Go into the bedroom. There's a desk and a bed in there. Stop in the middle of those two.",
     [("goal", "midpoint")]),
    ("Go into the living room. There's a sofa, a cart and an armchair in there, and I want you "
     "to stop right in the middle of those three.", [("goal", "centroid")]),
    # a further stop between them keeps the room a stop of its own
    ("Go to the bedroom first. Then stop between the desk and the bed in the kitchen.",
     [("goal", "bedroom"), ("goal", "midpoint")]),
])
def test_a_middle_of_things_placed_in_the_room_is_one_stop(text, route) -> None:
    assert [r[:2] for r in read_route(text)] == route


def test_the_merged_middle_is_in_that_room() -> None:
    [goal] = parse_instruction("Go into the bedroom. There's a desk and a bed in there. Stop in "
                               "the middle of those two.").clauses
    point = goal.refs[0]
    assert [m.refs[0].head for m in point.modifiers if m.kind == "in_room"] == ["bedroom"]
    members = [r for m in point.modifiers if m.kind != "in_room" for r in m.refs]
    assert members and all(any(mm.kind == "in_room" for mm in r.modifiers) for r in members)


@pytest.mark.parametrize(("text", "route"), [
    # AR14: "them" after "two beds" names the beds, not the bedroom that holds them
    ("First stop at the bin in the kitchen, then head for the bedroom with two beds and park "
     "by the bigger of them.", [("goal", "garbage_can"), ("goal", "bed")]),
    ("Go to the bedroom with two beds and park by the smallest of them.", [("goal", "bed")]),
])
def test_a_pick_of_them_names_the_counted_things(text, route) -> None:
    assert [r[:2] for r in read_route(text)] == route


@pytest.mark.parametrize("text", [
    # AW05: the thing the speaker sits on, not one that describes the room or the chair
    "I'm in the bedroom that doesn't have a TV, sitting on the chair nearest the dog bed. "
    "Come over to me.",
    "I'm in the bedroom with the TV, sitting on the chair nearest the dog bed. Come over to me.",
])
def test_the_speakers_place_is_what_they_sit_on(text) -> None:
    assert [r[:2] for r in read_route(text)] == [("goal", "chair")]


def test_the_speakers_place_without_a_posture_is_still_the_first_thing() -> None:
    assert [r[:2] for r in read_route("I'm in the lounge, on the couch. Go to the fridge and "
                                      "come back to me.")] == [("goal", "fridge"), ("goal", "sofa")]


@pytest.mark.parametrize(("text", "route"), [
    # AT13: the arrival at the stop just made, said to time the next step, is no second stop
    ("Begin at the kitchen counter. Proceed to the safe. Once you have reached the safe, "
     "return to the counter.", [("goal", "safe"), ("goal", "counter_top")]),
    ("Go to the chair by the bed. When you get to the chair, go to the fridge.",
     [("goal", "chair"), ("goal", "fridge")]),
    # a later visit of the same thing is still a stop
    ("Go to the safe, then go to the fridge. Once you reach the fridge, go to the safe.",
     [("goal", "safe"), ("goal", "fridge"), ("goal", "safe")]),
    # AV16: "you needn't stop" after a pass denies the stop; it is no stop at the start
    ("First go past the stool in the kitchen - you needn't stop, just have a look whether I "
     "left my cardigan on it - then take a turn right round the dining table in the lounge, "
     "and finally come to a stop in front of the settee in there.",
     [("pass", "stool"), ("circle", "dining_table"), ("goal", "sofa")]),
])
def test_arrivals_and_denied_stops(text, route) -> None:
    assert [r[:2] for r in read_route(text)] == route
