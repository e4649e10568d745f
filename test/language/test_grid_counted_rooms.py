"""Paradigm grid for counted rooms (``test/language/data/grid_counted_rooms.py``: axes, gold and
the house there): rooms picked by counting along the route ("You'll go through two bedrooms on
the way; in the second one ...", "in the last one", "when you get to the first bathroom, only
go through it") or from a set said before ("There are two bathrooms ... the small one, then
the other one", "Check the sinks in both bathrooms, first ..., then ...").

Each cell is a fresh-notation item scored by :func:`map2route.language.fresh.score_item`. The
test keeps a floor of right cells, no wrong cell, no silent drop, and a named span on every
refusal (the cells whose count cannot be checked want one).
"""

from __future__ import annotations

import pytest
from grid_grading import assert_item_grid, load_grid

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route
from map2route.language.parser import parse_instruction
from map2route.language.parser.counted_rooms import counted_rooms
from map2route.language.parser.room_set_picks import room_set_picks
from map2route.language.tokens import tokenize

GRID = load_grid("grid_counted_rooms")

# first contact (2026-12-07 23:06 UTC, before any change for this family; 250 cells): 22
# right, 190 refused, 23 wrong, 15 silent drops (the drops: 14 cells whose gold named a room
# kind the text never says, mended in the grid; their parses were wrong as well)
FIRST_CONTACT = {"right": 22, "refused": 190, "wrong": 23, "drops": 15}
# after counted_rooms, room_set_picks and "for moment" in learner_forms: 175 right, 75 refused
# by name (41 picks among rooms counted without their kind, 10 "the last ROOM" with no count;
# of part B, 15 "Start with the small one and look at the sink, then the other one", 6 "the one
# at the back and then the toilet in ..." (no "to" after "at the back": read nowhere yet), 3
# "There are two bathrooms" in ESL or spoken, left to set_picks), 0 wrong, 0 drops
FLOOR = 175


def test_grid_floor_no_wrong_cells_no_drops_named_refusals() -> None:
    assert_item_grid(GRID.cells(), FLOOR)


def _words(text: str) -> str:
    return " ".join(t.text for t in counted_rooms(tokenize(text))[0])


@pytest.mark.parametrize(("text", "want"), [
    ("go to the bed . you'll pass three bedrooms to get there . in the last one , keep away "
     "from the tv .",
     "go to the bed . in the third bedroom you pass through , keep away from the tv ."),
    ("go to the bed . on the way you'll pass through a couple of bathrooms . in that second "
     "bathroom stay away from the bin .",
     "go to the bed . in the second bathroom you pass through , stay away from the bin ."),
    ("go to the bed . you have to cross two bedrooms . once you're in the first of those , "
     "stop at the dresser .",
     "go to the bed . on the way , stop at the dresser in the first bedroom you pass through ."),
    ("go to the bed . when you get to the first bedroom , only go through it , no stop .",
     "go to the bed . on the way , go through the first bedroom you pass through ."),
    ("go to the bed and um you will go through two bedrooms and um in second one , keep away "
     "from the tv", "go to the bed and in the second bedroom you pass through , keep away from "
     "the tv"),
])
def test_counted_forms(text: str, want: str) -> None:
    assert _words(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("go to both bathrooms : sink in small one and then toilet in other one .",
     "go to both bathrooms : sink in the small bathroom and then toilet in the other bathroom ."),
    ("check the sinks in both bathrooms , first the one with the plunger , then the second one .",
     "check the sink in the bathroom with the plunger , then the sink in the other bathroom ."),
])
def test_set_forms(text: str, want: str) -> None:
    assert " ".join(t.text for t in room_set_picks(tokenize(text))) == want


@pytest.mark.parametrize(("text", "want"), [
    ("Head for the plunger in the bathroom. You'll go through two bedrooms on the way; in the "
     "second one stay away from the dog bed. Then stop at the dresser.",
     [("goal", "plunger"), ("goal", "dresser"), ("far", "dog_bed", "in:bedroom")]),
    ("Go to the dog bed. On the way you will pass through a couple of bathrooms; when you reach "
     "the second of those, stop beside the toilet for a moment.",
     [("goal", "toilet"), ("goal", "dog_bed")]),
    ("Check the sinks in both bathrooms, first the small one, then the other one.",
     [("goal", "sink"), ("goal", "sink")]),
])
def test_hand_checked(text: str, want: list[tuple[str, ...]]) -> None:
    assert read_route(text) == want


def test_the_count_ranks_the_scope_room() -> None:
    text = ("Go to the bed. You'll pass three bedrooms to get there. In the last one, keep "
            "away from the TV.")
    scope = parse_instruction(text).to_json()["constraints"][0]["spatial_scope"]
    assert (scope["head"], scope["modifiers"][0]["rank"], scope["modifiers"][0]["k"]) == \
        ("bedroom", "route", 3)


@pytest.mark.parametrize(("text", "word"), [
    ("Go to the bed. You'll pass through three rooms to get there. In the first of those, "
     "keep away from the TV.", "the first of those"),  # rooms of no kind: no route order
    ("Go to the bed. In the last bedroom you go through, keep away from the TV.",
     "the last bedroom"),  # no count said: the route order counts from the start
])
def test_refused_by_name(text: str, word: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert err.value.word == word and err.value.span
