"""Legs of the route, passes through rooms and sides, read by
:mod:`map2route.language.parser.leg_phrasings`: both legs of an out-and-back ("both ways",
"neither going nor coming back"), one leg by a word for it ("on that leg", "going in", "on the
return leg", "coming back", "on the way back from X", "till u get to X"), "on the way there"
after a return stop (the way out), the lap of a circle ("while you're going round"), a pass
through a room said with how often or as a gerund ("each time you go through the R", "Going
through the big bathroom, ..."), "X in the R as you pass through", "in the R itself", a side
("keep over on the sink side"), a stop on the way ("but stop on the way at X"), a thing passed
as you go through a room, and "you'll go through two bedrooms ... in the second of those".

The class table ``breadth_legs.json`` (LG001-LG038 written before the fix, LGB01-LGB10 after it)
and the six sets the round worked on keep floors here, with no silent drop."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route as _route
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


# the floors of this round's sets and table: test_human.py, test_round_sets_floor_and_no_silent_drops


@pytest.mark.parametrize(("text", "want"), [
    # both legs: the whole route
    ("Go to the fridge and come back to the sofa. Keep away from the stool both ways.",
     [("goal", "fridge"), ("goal", "sofa"), ("far", "stool", "")]),
    # the walk back, named by a word for it, after a named return stop: no stop at the start
    ("Go to the bed and then return to the fridge. On the return leg stay near the counter.",
     [("goal", "bed"), ("goal", "fridge"), ("near", "counter_top", "after:bed")]),
    ("Go to the fridge and then back to the sofa, and on the way back keep away from the stool.",
     [("goal", "fridge"), ("goal", "sofa"), ("far", "stool", "after:fridge")]),
    # one leg: the stop said last
    ("Go to the sink and then the bed. On that leg keep away from the plunger.",
     [("goal", "sink"), ("goal", "bed"), ("far", "plunger", "until:bed")]),
    ("Go to the counter. Going in, keep your distance from the stool.",
     [("goal", "counter_top"), ("far", "stool", "until:countertop")]),
    # "on the way there" after a return stop: the way out
    ("run to the fridge and come straight back to the front door, and keep away from the stool "
     "on the way there",
     [("goal", "fridge"), ("goal", "doorway"), ("far", "stool", "until:fridge")]),
    # the lap of the circle, not the leg said last
    ("Do a lap round the kitchen table and then go to the fridge. Keep well away from the "
     "chairs while you're going round.",
     [("circle", "dining_table"), ("goal", "fridge"), ("far", "chair", "until:diningtable")]),
    # passes through rooms and sides
    ("Go to the sofa. When you go through the kitchen, keep over on the window side.",
     [("goal", "sofa"), ("near", "window", "in:kitchen")]),
    ("Go to the fridge. Going through the kitchen, stick close to the counter.",
     [("goal", "fridge"), ("near", "counter_top", "in:kitchen")]),
    ("Go to the bed, and keep away from the telly in the lounge as you pass through.",
     [("goal", "bed"), ("far", "television", "in:livingroom")]),
    ("Go to the bed, and in the bedroom itself keep away from the basketball.",
     [("goal", "bed"), ("far", "basket_ball", "in:bedroom")]),
    # stops and passes on the way come before the goal
    ("Go to the toilet, but stop on the way at the dresser.",
     [("goal", "dresser"), ("goal", "toilet")]),
    ("Head to the toilet, and swing past the desk as you go through the bedroom.",
     [("pass", "desk"), ("goal", "toilet")]),
    ("You'll go through two bedrooms on the way to the toilet, and in the second of those keep "
     "well away from the basketball.",
     [("goal", "toilet"), ("far", "basket_ball", "in:bedroom")]),
])
def test_leg_pass_and_side_phrasings(text: str, want: list[tuple[str, ...]]) -> None:
    assert _route(text) == want


def test_this_room_is_the_room_the_speaker_is_in() -> None:
    # "on your way out of this room": the room the scene-setting sentence names
    assert _route("I'm sitting on the couch in the living room. Go to the fridge. On your way "
                  "out of this room don't go near the TV in here.") == [
        ("goal", "fridge"), ("far", "television", "in:livingroom")]
    # no room named: left as the start's room, for the grounder
    assert _route("I'm at the fridge. Go to the sofa, and as you leave this room keep away "
                  "from the stool.") == [("goal", "sofa"), ("far", "stool", "in:room")]


def test_rooms_passed_are_context_and_name_the_ordinal_room() -> None:
    p = parse_instruction("Go to the bedroom with the baseball bat. You'll go through two other "
                          "bedrooms to get there, and in the second of those keep well away "
                          "from the dog bed.")
    assert "you will go through two other bedrooms to get there" in p.context
    far = next(c for c in p.to_json()["constraints"] if c["kind"] == "far")
    assert far["spatial_scope"]["head"] == "bedroom"


@pytest.mark.parametrize(("text", "span"), [
    # a side named by no thing on the map
    ("Go to the sofa and hug the wobbly side.", "hug"),
    ("Go to the fridge, and keep over on the side.", "keep"),
    # "the second of those" with no rooms counted before it
    ("Go to the fridge. In the second of those keep away from the stool.", "second"),
])
def test_still_refused_with_a_span(text: str, span: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert err.value.word == span


def test_both_ways_alone_is_no_route() -> None:
    with pytest.raises(ParseError, match="found no destination"):
        parse_instruction("Keep away from the stool both ways.")
