"""Parses that came out with a wrong structure (worse than a refusal), repaired by
:mod:`map2route.language.parser.stage_repairs`: a fronted description picked up by "that one" /
"it" / "there", terse "X, room." fronting, a room said before a point in it, "through A then B",
a pass said after its goal with a "while going" tail, a fronted "Going through X," scope, "on
the way there" after an out-and-back, a return already said before "on the way back", "this
room" / "in here" after the speaker named their room, and a scene sentence that turns into a
request after ", so". Floors for the class table ``breadth_wrong_parses.json`` and the sets it
was drawn from, no silent drops, refusals that name a span."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route as _route
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


# the floors of this round's sets and table: test_human.py, test_round_sets_floor_and_no_silent_drops


@pytest.mark.parametrize("text", [
    "the armchair closest to the telly - go and stand next to that one",
    "The armchair closest to the telly: go and wait next to it.",
    "armchair nearest the TV, go there pls",
    "The armchair nearest the TV? Yeah, go and wait next to that.",
])
def test_fronted_description_is_one_stage(text: str) -> None:
    assert _route(text) == [("goal", "arm_chair")]


def test_terse_fronting_puts_the_thing_in_the_room() -> None:
    js = parse_instruction("Plunger, small bathroom. Go and stand by it.").to_json()
    assert [s["refs"][0]["head"] for s in js["stages"]] == ["plunger"]
    rooms = [m["refs"][0]["head"] for m in js["stages"][0]["refs"][0]["modifiers"]
             if m["kind"] == "in_room"]
    assert rooms == ["bathroom"]
    assert _route("1) Sink, in whichever room has the most paintings.\n2) The sofa.") == [
        ("goal", "sink"), ("goal", "sofa")]
    # a list of stops that ends in a room keeps the room
    assert _route("Go to the fridge, then the kitchen.") == [("goal", "fridge"),
                                                              ("goal", "kitchen")]


def test_room_before_a_point_locates_it() -> None:
    js = parse_instruction("Wait for me in the kitchen, roughly halfway between the fridge "
                           "and the toaster.").to_json()
    assert [s["refs"][0]["head"] for s in js["stages"]] == ["midpoint"]
    assert [m["refs"][0]["head"] for m in js["stages"][0]["refs"][0]["modifiers"]
            if m["kind"] == "in_room"] == ["kitchen"]
    # a room that is a stop of its own stays one
    assert _route("Go to the kitchen, then to the point halfway between the bed and the "
                  "desk.") == [("goal", "kitchen"), ("goal", "midpoint")]


def test_through_then_and_into_after_it() -> None:
    assert _route("go thru the kitchen then the lounge, into the bedroom after it and stop at "
                  "the dresser") == [("pass", "kitchen"), ("pass", "living_room"),
                                     ("goal", "dresser")]


def test_pass_on_the_way_comes_first() -> None:
    assert _route("Head to the toilet, and swing past the desk as you go through the "
                  "bedroom.") == [("pass", "desk"), ("goal", "toilet")]
    # without a "while going" tail the order said is kept
    assert _route("Go to the toilet and then go past the desk.") == [("goal", "toilet"),
                                                                      ("pass", "desk")]


def test_fronted_gerund_is_a_scope() -> None:
    assert _route("Go to the toilet. Going through the bedroom, stick close to the "
                  "dresser.") == [("goal", "toilet"), ("near", "dresser", "in:bedroom")]
    assert _route("Go to the toilet. Walking through the kitchen, keep well clear of the "
                  "fridge.") == [("goal", "toilet"), ("far", "fridge", "in:kitchen")]


def test_way_there_after_out_and_back_is_the_leg_out() -> None:
    p = parse_instruction("run to the fridge and come straight back. keep away from the stool "
                          "on the way there")
    far = next(c for c in p.clauses if c.kind == "far")
    assert far.during is not None and far.during["until"].head == "fridge"
    p = parse_instruction("Go to the fridge, then back to the sofa, and on the way back keep "
                          "away from the stool.")
    assert [c.refs[0].head for c in p.clauses if c.kind == "goal"] == ["fridge", "sofa"]
    far = next(c for c in p.clauses if c.kind == "far")
    assert far.during is not None and far.during["after"].head == "fridge"


def test_this_room_is_the_speakers_room() -> None:
    p = parse_instruction("I'm sitting in the bedroom with the desk. Go to the fridge, and as "
                          "you leave this room keep away from the dog bed in here.")
    far = next(c for c in p.clauses if c.kind == "far")
    assert far.within is not None and far.within.head == "bedroom"
    p = parse_instruction("I'm on the sofa in the living room. Go to the toilet. Don't go near "
                          "the TV on your way out, the cables are everywhere.")
    far = next(c for c in p.clauses if c.kind == "far")
    assert far.within is not None and far.within.head == "living_room"
    # without a room said by the speaker "this room" stays the start room
    p = parse_instruction("Go to the fridge, and as you leave this room keep away from the dog "
                          "bed.")
    far = next(c for c in p.clauses if c.kind == "far")
    assert far.within is not None and far.within.head == "room"


def test_scene_then_request_keeps_the_request() -> None:
    assert _route("I'm at the desk, and my brother is on the sofa watching the television, so "
                  "whatever you do, don't walk between the sofa and the telly. Go to the "
                  "fridge.") == [("goal", "fridge"), ("avoid", "between", "")]
    # a thing's state before ", so" stays the mention it was
    assert _route("Go to the sofa. The floor lamp is wobbly, so keep your distance from "
                  "it.") == [("goal", "sofa"), ("far", "floor_lamp", "")]


@pytest.mark.parametrize("text", [
    "Plunger, piano room. Go and stand by it.",
    "the armchair closest to the harpsichord - go and stand next to that one",
])
def test_still_refused(text: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert err.value.word
