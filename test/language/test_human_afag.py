"""Human phrasings of fresh sets AF and AG, read by
:mod:`map2route.language.parser.robot_talk`: a request said about the robot in the third person
("The robot should drive to X", "The robot must not enter X", "Position the robot at X", "I
want the robot to go to X") and "come to a stop"; by
:mod:`map2route.language.parser.same_kind_rooms`, a thing in "the same KIND as" another ("the
plunger in the same bathroom as the candles": one stop, not two); by
:mod:`map2route.language.parser.here_to_me`, the way back said twice over ("bring it back here
to me": one stop); and by :mod:`map2route.language.parser.room_there`, a rule kept in a room
named before ("Give the toilet in there a wide berth", "In there, stay away from X") or opened
after "and" (", and in the second living room you cross, stay close to X"). Floors
for AF, AG and the class table ``breadth_afag_classes.json``, no silent drops, and refusals
that name a span."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route as _route
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


# the floors of this round's sets and table: test_human.py, test_round_sets_floor_and_no_silent_drops


def test_robot_in_the_third_person() -> None:
    assert _route("The robot should drive over to the refrigerator and come to a stop in front "
                  "of it.") == [("goal", "fridge")]
    assert _route("The robot needs to go to the washing machine.") == [
        ("goal", "washing_machine")]
    assert _route("Position the robot at the point halfway between the fridge and the dining "
                  "table.") == [("goal", "midpoint")]
    assert _route("Send the robot to the safe.") == [("goal", "safe")]
    assert _route("I want the robot to go to the sofa.") == [("goal", "sofa")]
    assert _route("Go to the bed. The robot must not enter the kitchen.") == [
        ("goal", "bed"), ("avoid", "kitchen", "")]


def test_robot_said_otherwise_is_still_refused() -> None:
    for text in ("The robot is tired.", "Keep the robot away from the sofa."):
        with pytest.raises(ParseError):
            parse_instruction(text)


def test_same_kind_of_room_as_is_one_stop() -> None:
    assert _route("Go to the plunger in the same bathroom as the washing machine, then the "
                  "toaster.") == [("goal", "plunger"), ("goal", "toaster")]
    js = parse_instruction("Go to the chair in the same bedroom as the baseball bat.").to_json()
    room = js["stages"][0]["refs"][0]["modifiers"][0]["refs"][0]
    assert room["head"] == "bedroom"
    assert [m["refs"][0]["head"] for m in room["modifiers"]] == ["baseball_bat"]
    # "as both X and Y" keeps the "same room" reading, with both things
    p = parse_instruction("Go to the laptop in the same room as both the teddy bear and the desk.")
    room_ref = p.clauses[0].refs[0].modifiers[0].refs[0]
    assert [m.refs[0].head for m in room_ref.modifiers] == ["teddy_bear", "desk"]


def test_here_to_me_is_one_way_back() -> None:
    assert _route("I'm at the desk. Fetch the mug and bring it back here to me.") == [
        ("goal", "mug"), ("goal", "desk")]  # the speaker said where "me" is
    assert _route("Go to the fridge and then come over here to us.") == [
        ("goal", "fridge"), ("goal", "start")]


def test_rule_in_there_is_scoped_to_the_room_named_before() -> None:
    assert _route("Go to the washing machine in the bathroom. Give the toilet in there a wide "
                  "berth.") == [("goal", "washing_machine"), ("far", "toilet", "in:bathroom")]
    assert _route("Go to the toaster in the kitchen. In there, stay away from the stool.") == [
        ("goal", "toaster"), ("far", "stool", "in:kitchen")]
    assert _route("Go and wait by the laundry hamper in the bathroom off the bedroom. Give the "
                  "toilet in there a wide berth please.") == [
        ("goal", "laundry_hamper"), ("far", "toilet", "in:bathroom")]
    # a stop's place stays a description, never a scope
    assert _route("Go to the desk in the bedroom. Then go to the dresser in there.") == [
        ("goal", "desk"), ("goal", "dresser")]


def test_rule_in_there_without_a_room_is_refused() -> None:
    with pytest.raises(ParseError):
        parse_instruction("Give the toilet in there a wide berth.")


def test_room_scope_after_and_opens_a_new_rule() -> None:
    assert _route("Drive to the washing machine, and in the second bedroom you go through, stay "
                  "away from the bed.") == [("goal", "washing_machine"), ("far", "bed", "in:bedroom")]
    assert _route("Head to the safe and in the kitchen keep away from the stool.") == [
        ("goal", "safe"), ("far", "stool", "in:kitchen")]
    # no rule after the room: not rewritten, still refused with its span named
    with pytest.raises(ParseError):
        parse_instruction("Go to the sofa and in the kitchen go to the fridge.")
