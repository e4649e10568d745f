"""Paradigm grid for room contents (``test/language/data/grid_room_contents.py``: axes, gold
and the house there): a room or thing picked out by what it holds or what stands there ("the
bathroom where the trolley is", "bathroom where is the dryer", "the bedroom that have no bed",
"whichever bathroom hasn't got a sink in it", "the table that's only got three chairs round
it").

Each cell is a fresh-notation item scored by :func:`map2route.language.fresh.score_item`. The
test keeps a floor of right cells, no wrong cell, no silent drop, and a named span on every
refusal.
"""

from __future__ import annotations

from grid_grading import assert_grid, by_score, grade, load_grid

from map2route.language.parser import parse_instruction

GRID = load_grid("grid_room_contents")

# first contact (2026-12-07, before any change for this family; 260 cells): 62 right,
# 194 refused, 2 wrong, 2 silent drops
FIRST_CONTACT = {"right": 62, "refused": 194, "wrong": 2, "drops": 2}
FLOOR = 0


def test_grid_floor_no_wrong_cells_no_drops_named_refusals() -> None:
    assert_grid(((c["instruction"], grade(c["instruction"], parse_instruction, by_score(c)))
                 for c in GRID.cells()), FLOOR)
