"""Introductions pointed back at (:mod:`map2route.language.parser.introductions`): a thing,
group or spot introduced by a sentence or clause is one stage; the introducing words are
context; "it / that / there / the two of them / those three / that corner / that X" resolve to
what was introduced."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route, score_set, summary
from map2route.language.parser import parse_instruction

TABLE = Path(__file__).parent / "data" / "breadth_introductions.json"


def test_table_floor_and_no_silent_drops() -> None:
    scores = score_set(TABLE)
    got = summary(scores)
    assert got["silent_drops"] == 0
    assert got["right"] >= 37, [s for s in scores if not s.right]


def test_table_refusals_name_a_span() -> None:
    for s in score_set(TABLE):
        if s.refused:
            assert s.refusal_span, s.item_id


@pytest.mark.parametrize(("text", "route"), [
    # a copular introduction: the thing is the one ...
    ("The teddy bear I'm after is the one sitting on the bed in the bedroom with the dog bed. "
     "Go to it.", [("goal", "teddy_bear")]),
    ("The remote I want is the one on the dresser, so go over to that, and then come back to "
     "the sofa.", [("goal", "remote_control"), ("goal", "sofa")]),
    ("the thing i need is the kettle in the kitchen yeah so go to that", [("goal", "kettle")]),
    # where the thing is, then a pointer with a rule scoped to its room
    ("The dog bed is in the bedroom with two armchairs. Go to it and keep away from the TV in "
     "there.", [("goal", "dog_bed"), ("far", "television", "in:bedroom")]),
    # a room, then the thing in it, each said without a verb
    ("bedroom with the telly. basketball on the floor in there. go to it and stop",
     [("goal", "basket_ball")]),
    # there is ... - that's where
    ("In the bathroom with the candle there is a plunger next to the toilet. That's where you "
     "should go.", [("goal", "plunger")]),
    # the room said first, then "there's X ... in there"
    ("The kitchen with the window, there's a toaster on the counter in there. Go to it.",
     [("goal", "toaster")]),
    # a group pointed at with a plural
    ("See the sofa and the armchair in the living room? Go and stand halfway between the two "
     "of them.", [("goal", "midpoint")]),
    ("In the smallest bathroom there's a toilet, a sink and a little side table all fairly "
     "close together. Go to the spot in the middle of those three.", [("goal", "centroid")]),
    # a corner introduced, then "that corner"
    ("in the bedroom with 2 windows theres a corner where both windows meet. go wait in that "
     "corner pls", [("goal", "corner")]),
    ("The kitchen has a corner right by the fridge. Go and wait in that corner.",
     [("goal", "corner")]),
    # the thing's room picked first, the thing named again
    ("Whichever room has the most statues, that's the one with the box. Go to the box.",
     [("goal", "box")]),
    # "find the X ... and wait next to that X"
    ("Find the floor lamp nearest the bed and wait next to that lamp.", [("goal", "floor_lamp")]),
])
def test_introduced_thing_is_one_stage(text: str, route: list[tuple[str, ...]]) -> None:
    assert read_route(text) == route


def test_introducing_words_are_context() -> None:
    parse = parse_instruction("The remote I want is the one on the dresser, so go over to "
                              "that, and then come back to the sofa.")
    assert any("want" in c for c in parse.context)


@pytest.mark.parametrize("text", [
    # what the map cannot check is still refused by name, not dropped
    "The teddy bear I'm after is the one with the fluffiest ears. Go to it.",
    "In the kitchen there's a corner where the cat sleeps. Go wait in that corner.",
])
def test_still_refused(text: str) -> None:
    with pytest.raises(ParseError):
        parse_instruction(text)


def test_counted_set_left_to_set_picks() -> None:
    # "there are two beds ... the bigger of the two": a set then a pick, not a group's centre
    route = read_route("In the bedroom that has two windows there are two beds; go to the "
                       "bigger of the two.")
    assert route == [("goal", "bed")]
