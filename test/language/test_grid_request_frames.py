"""Paradigm grid for request frames (light verbs, serial verbs, hedged positions,
announcements, scene-setting with apposition): see ``data/grid_request_frames.py`` for the
axes and the gold.

The test keeps a floor of cells right, no wrong cell, no silent drop, and a named span on every
refusal.
"""

from __future__ import annotations

from grid_grading import assert_grid, by_score, grade, load_grid

from map2route.language.parser import parse_instruction

GRID = load_grid("grid_request_frames")

# first contact (2026-12-07, before any change for this family; 240 cells)
FIRST_CONTACT = {"right": 80, "refused": 159, "wrong": 1, "drops": 0}
FLOOR = 0


def test_grid_floor_no_wrong_cells_no_drops_named_refusals() -> None:
    assert_grid(((c["instruction"], grade(c["instruction"], parse_instruction, by_score(c)))
                 for c in GRID.cells()), FLOOR)
