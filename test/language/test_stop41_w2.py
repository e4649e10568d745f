"""Stop 41, helper W2: wrong parses of sets AX-BA mended, each written another way."""

from __future__ import annotations

import pytest

from map2route.language.fresh import read_route

_TO_TOILET = " After that, go to the bathroom and stop at the toilet. "


@pytest.mark.parametrize("text", [
    "Go into the lounge and stop at the floor lamp." + _TO_TOILET +
    "As you head out of the lounge, keep away from the sofa.",
    "Go into the living room and stop at the floor lamp." + _TO_TOILET +
    "As you come out of the living room, keep away from the sofa.",
    "Head to the lounge, then wait by the floor lamp, then go to the toilet. "
    "When you get out of the lounge, stay away from the sofa.",
    "Walk into the lounge and stop next to the floor lamp." + _TO_TOILET +
    "Once you head out of the lounge, keep clear of the sofa.",
])
def test_leaving_the_room_of_a_stop_is_the_leg_after_it(text: str) -> None:
    # AX22: the stop made on entering the room ("go into the lounge and stop at the floor
    # lamp") is the stop that "head out of the lounge" leaves; it was read in the lounge
    route = read_route(text)
    assert route[:2] == [("goal", "floor_lamp"), ("goal", "toilet")]
    assert route[2][0] == "far" and route[2][1] == "sofa"
    assert route[2][2].replace("_", "") == "after:floorlamp"


@pytest.mark.parametrize("scope", [
    "In bedroom on the way do not go close to bed.",
    "In the bedroom on the way, keep away from the bed.",
    "In bedroom, on your way, stay away from the bed.",
    "And in the bedroom along the way don't go near the bed.",
])
def test_a_room_scope_said_with_on_the_way_holds_in_that_room(scope: str) -> None:
    # BA21: "In bedroom on the way <rule>" was read as a stop in the bedroom and the rule
    # lost its room
    assert read_route("Go to the sink. " + scope) == [("goal", "sink"), ("far", "bed", "in:bedroom")]


@pytest.mark.parametrize("text", [
    "Go in the bathroom, the small one, no sorry, the big one with the washing machine, and "
    "stand by the sink. In bedroom on the way do not go close to bed, my husband sleep.",
    "Go into the bathroom, the big one - no sorry, the small one with the washing machine - "
    "and stand by the sink. In the bedroom on the way, keep away from the bed.",
    "Go to the bathroom, the small one, no wait, the big one with the washing machine, and "
    "wait by the sink. In bedroom on your way don't go near the bed.",
])
def test_a_corrected_room_then_its_stop_and_a_room_scope(text: str) -> None:
    assert read_route(text) == [("goal", "sink"), ("far", "bed", "in:bedroom")]


@pytest.mark.parametrize(("text", "route"), [
    ("go to the kitchen and get the- no wait, scratch that, just go over to the toaster, and "
     "then over to the armchair", [("goal", "toaster"), ("goal", "arm_chair")]),
    ("Head into the bedroom and grab a- no, forget that, go to the sofa and then over to the "
     "fridge.", [("goal", "sofa"), ("goal", "fridge")]),
    ("go to the sofa, then go to the kitchen and fetch my- actually no, scratch that, walk "
     "over to the toaster.", [("goal", "sofa"), ("goal", "toaster")]),
    ("Go to the bathroom and get the- nope, cancel that, instead go to the bed.",
     [("goal", "bed")]),
])
def test_a_request_broken_off_and_taken_back_is_no_stop(
        text: str, route: list[tuple[str, ...]]) -> None:
    # AZ04: the room of the request broken off on "the-" stayed a stop
    assert read_route(text) == route


@pytest.mark.parametrize("text", [
    "go to whichever room has the most chairs in it and then go stand in the corner of that "
    "room that's nearest the window.",
    "go to the kitchen and then go stand in the corner of that room nearest the window.",
    "Go to the room with the fewest beds and then wait in the corner of that same room "
    "closest to the door.",
    "Head for whichever bedroom has the most pillows and stop in the corner of the same room "
    "that is nearest the wardrobe.",
])
def test_the_corner_of_that_room_is_a_corner_of_the_room_just_reached(text: str) -> None:
    # AZ07: "that room" after "the corner of" was read as a second stop ([room, room])
    assert read_route(text) == [("goal", "corner")]
