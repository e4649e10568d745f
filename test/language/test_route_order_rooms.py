"""Rooms and legs told by the route, read by
:mod:`map2route.language.parser.route_order_scopes`: a rule scoped to a room said by where it
falls on the walk ("in the first bedroom u go thru keep away from X", "when you go through
the living room right before that bathroom", "in the first one ... in the second one" after
"you'll go through two bedrooms"), "carry on into the one after that", "the second bedroom,
the one after it", "the chair you passed", "whenever you're in my room", "Going there, ...".

The class table ``breadth_route_order_rooms.json`` (RO001-RO032 written before the fix,
ROB01-ROB10 after it) keeps a floor here, with no silent drop and every refusal naming a
span."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route as _route
from map2route.language.fresh import score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"
TABLE = DATA / "breadth_route_order_rooms.json"


def test_table_floor_no_silent_drops_and_named_refusals() -> None:
    scores = score_set(TABLE)
    s = summary(scores)
    assert s["silent_drops"] == 0
    assert s["right"] >= 34, [x for x in scores if not x.right]
    assert all(x.refusal_span for x in scores if x.refused)


@pytest.mark.parametrize(("text", "want"), [
    # a scope room by its place on the walk, the comma left out, texting spellings
    ("Go to the teddy bear. In the first bedroom u go thru keep away from the basketball.",
     [("goal", "teddy_bear"), ("far", "basket_ball", "in:bedroom")]),
    ("go to the toilet. in the 1st living room u cross hug the sofa",
     [("goal", "toilet"), ("near", "sofa", "in:livingroom")]),
    ("Go to the teddy bear. While you are crossing the first bedroom you come to keep away from "
     "the bed.",
     [("goal", "teddy_bear"), ("far", "bed", "in:bedroom")]),
    # a room placed before or after another: a scope, never a stop at the other room
    ("Go to the sink. In the living room before that bathroom, don't run over the box.",
     [("goal", "sink"), ("avoid", "box", "in:livingroom")]),
    ("Go to the sink. In the bedroom after the bathroom, keep away from the bed.",
     [("goal", "sink"), ("far", "bed", "in:bedroom")]),
    ("Go to the sink. When you go through the living room right before that bathroom don't go "
     "anywhere near the telly.",
     [("goal", "sink"), ("far", "television", "in:livingroom")]),
    ("Go to the teddy bear. In the living room you go through just before the bathroom, keep "
     "away from the TV.",
     [("goal", "teddy_bear"), ("far", "television", "in:livingroom")]),
    # "in the first one / second one" after rooms counted on the way
    ("Go to the teddy bear. You'll go through two bedrooms on the way: in the first one keep "
     "away from the basketball, and in the second one stay close to the dresser.",
     [("goal", "teddy_bear"), ("far", "basket_ball", "in:bedroom"),
      ("near", "dresser", "in:bedroom")]),
    # "the one after that", "the first one" after a route-ordered room
    ("Go through the kitchen into the first bedroom you come to, carry on into the one after "
     "that, and stop by the window in there. Hug the bed as you go through the first one.",
     [("pass", "kitchen"), ("pass", "bedroom"), ("goal", "window"),
      ("near", "bed", "in:bedroom")]),
    # the speaker's room
    ("I'm in the bedroom with the baseball bat. Go to the teddy bear and then the toilet. "
     "Whenever you're in my room, keep away from the dresser.",
     [("goal", "teddy_bear"), ("goal", "toilet"), ("far", "dresser", "in:bedroom")]),
    # "going there": the leg out
    ("I'm at the fridge. Go to the teddy bear and come back to me. Going there, stay away from "
     "the beds.",
     [("goal", "teddy_bear"), ("goal", "fridge"), ("far", "bed", "until:teddybear")]),
    # a thing met on the walk already made
    ("Go to the toilet in the bathroom, then come back to the chair you passed in the living "
     "room.",
     [("goal", "toilet"), ("goal", "chair")]),
])
def test_route_order_rooms(text: str, want: list[tuple[str, ...]]) -> None:
    assert _route(text) == want


def test_the_one_after_it_is_the_next_room() -> None:
    parse = parse_instruction("Go straight through the first bedroom you come to, don't stop in "
                              "it. Then stop at the bed in the second bedroom, the one after it.")
    bed = parse.clauses[-1].refs[0]
    room = next(m for m in bed.modifiers if m.kind == "in_room").refs[0]
    assert room.head == "bedroom"


def test_room_just_before_is_ranked_before() -> None:
    parse = parse_instruction("Go to the sink. In the living room right before that bathroom, "
                              "keep away from the box.")
    rule = next(c for c in parse.clauses if c.kind == "far")
    scope = parse.to_json()["constraints"][0]["spatial_scope"]
    assert scope["head"] == "living_room"
    assert rule.refs[0].head == "box"
    assert any(m["kind"] == "rank" and m.get("rank") == "before" for m in scope["modifiers"])


@pytest.mark.parametrize(("text", "span"), [
    # "before that" with no room: the parser cannot tell which place "that" is
    ("Go to the teddy bear. In the bedroom before that, keep away from the bed.",
     "in the bedroom before that"),
    # an order on a walk already made: reversed on the way back
    ("Go to the teddy bear, then to the alarm clock in the bedroom that you passed first on the "
     "way there.", "that you passed first"),
])
def test_refused_with_a_span(text: str, span: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert span.lower() in str(err.value).lower()


def test_after_that_stays_temporal() -> None:
    # "after that" opening a rule is "then", not a room after another
    got = _route("Do a lap around the dog bed. As you leave the bedroom after that, go into the "
                 "kitchen and stop by the fridge.")
    assert ("goal", "fridge") in got


@pytest.mark.parametrize("text", [
    # a description with its own subject, not a place on the walk: not read as one
    "Go to the teddy bear. In the bedroom you sleep in keep away from the bed.",
    # "came from" is where the walk started, not a thing met on it
    "Go to the kitchen, then come back to the room you came from.",
])
def test_not_a_place_on_the_walk(text: str) -> None:
    try:
        parse = parse_instruction(text)
    except ParseError as err:
        assert err.span  # a refusal names its span
        return
    assert not any(m.kind == "rank" and m.rank == "route"
                   for r in parse.references() for m in r.modifiers)


def test_told_walk_gives_in_there_its_room() -> None:
    got = _route("Head to the watch in the bedroom with the teddy bear; you cross the bathroom "
                 "on the way there, and in there stay away from the toilet.")
    assert got == [("goal", "watch"), ("far", "toilet", "in:bathroom")]
    parse = parse_instruction("Head to the watch. You'll have to go through the kitchen to get "
                              "there - in there, stay away from the bin.")
    assert any("kitchen" in text for text in parse.context)


def test_left_and_heading_is_the_leg_after() -> None:
    got = _route("Go to the armchair, then the stool. Once you've left the armchair and you're "
                 "heading to the stool, give the dog bed a wide berth.")
    assert got == [("goal", "arm_chair"), ("goal", "stool"), ("far", "dog_bed", "after:armchair")]
