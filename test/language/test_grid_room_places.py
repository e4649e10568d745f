"""Paradigm grid for room places (``test/language/data/grid_room_places.py``: axes, gold and
the house there): corners, middles and halfway points of things, the centre of a room, and
rooms named by the rooms they join ("next door", "that opens straight off the kitchen", "on
the other side of it", "you can only reach through the bedroom with two windows", "come back
out into ...").

Each cell is a fresh-notation item scored by :func:`map2route.language.fresh.score_item`. The
test keeps a floor of right cells, no wrong cell, no silent drop, and a named span on every
refusal.
"""

from __future__ import annotations

import pytest
from grid_grading import assert_item_grid, load_grid

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route
from map2route.language.parser import parse_instruction
from map2route.language.parser.room_places import restated_rooms, room_place_forms
from map2route.language.tokens import tokenize

GRID = load_grid("grid_room_places")


# first contact (2026-12-07, before any change for this family; 240 cells): 92 right,
# 118 refused, 29 wrong, 1 silent drop
FIRST_CONTACT = {"right": 92, "refused": 118, "wrong": 29, "drops": 1}
# after room_places and the mends beside it: 213 right, 27 refused by name (the far end of a
# room: "far" named, as before; a corner between two things), 0 wrong, 0 drops
FLOOR = 213


def test_grid_floor_no_wrong_cells_no_drops_named_refusals() -> None:
    assert_item_grid(GRID.cells(), FLOOR)


def _words(text: str) -> list[str]:
    return [t.text for t in room_place_forms(tokenize(text))]


@pytest.mark.parametrize(("text", "want"), [
    ("come back out into the living room", "come back into the living room"),
    ("go to corner where baseball bat is leaning", "go to the corner where baseball bat is"),
    ("the middle of those three chairs", "the middle of the three chairs"),
    ("the bedroom that opens straight off the kitchen", "the bedroom off the kitchen"),
    ("bedroom that is open from kitchen", "bedroom off kitchen"),
    ("the bedroom where the bathroom with washing machine is open from it",
     "the bedroom off the bathroom with washing machine"),
    ("go through the kitchen into the bedroom on the other side of it .",
     "go through the kitchen to the bedroom on the other side of the kitchen ."),
    ("go through the kitchen into the living room and stop by the window in there",
     "go through the kitchen into the living room and stop by the window in there"),
    ("to middle of four chairs around table", "to the middle of four chairs around the table"),
])
def test_forms(text: str, want: str) -> None:
    assert " ".join(_words(text)) == want


@pytest.mark.parametrize(("text", "want"), [
    ("Then go to the far corner of the kitchen, the one where the bin is.", [("goal", "corner")]),
    ("Go and park yourself roughly in the middle of those three chairs.",
     [("goal", "centroid")]),
    ("Go through the kitchen into the bedroom on the other side of it.",
     [("pass", "kitchen"), ("goal", "bedroom")]),
    ("Go to the toilet in the bathroom you can only reach through the bedroom with two windows.",
     [("goal", "toilet")]),
    ("Go to the fridge. Then come back out into the living room next to it.",
     [("goal", "fridge"), ("goal", "living_room")]),
    ("Go to bedroom where bathroom with washing machine is open from it.", [("goal", "bedroom")]),
    ("Go into the bedroom next door, and after that go to the dog bed.",
     [("goal", "bedroom"), ("goal", "dog_bed")]),
    ("Go and park yourself in the bathroom.", [("goal", "bathroom")]),
])
def test_hand_checked(text: str, want: list[tuple[str, ...]]) -> None:
    assert read_route(text) == want


@pytest.mark.parametrize(("text", "word"), [
    ("Go to the far end of the living room.", "far"),  # no place the grounder has
    ("Head over to the corner between the two windows.", "corner between"),
])
def test_refused_by_name(text: str, word: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert err.value.word == word and err.value.span


def test_those_things_left_to_introductions() -> None:
    assert " ".join(_words("the middle of those three things")) == \
        "the middle of those three things"


def test_room_said_again_by_size_is_one_room() -> None:
    text = ("First go to the clothes dryer in the bathroom. Then come back out into the living "
            "room next to it, the smaller one, and stop exactly halfway between the sofa and "
            "the TV.")
    assert [s[:2] for s in read_route(text)][:2] == [("goal", "clothes_dryer"),
                                                     ("goal", "midpoint")]
    assert restated_rooms([], text) == []
