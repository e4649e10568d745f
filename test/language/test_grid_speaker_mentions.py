"""Paradigm grid for speaker mentions (scene sentences and where-things-are sentences followed
by commands that use them): see ``data/grid_speaker_mentions.py`` for the axes and the gold.

The test keeps a floor of cells right, no wrong cell, no silent drop, and a named span on every
refusal.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from map2route.language.errors import ParseError
from map2route.language.fresh import score_item
from map2route.language.parser import parse_instruction

_SPEC = importlib.util.spec_from_file_location(
    "grid_speaker_mentions", Path(__file__).parent / "data" / "grid_speaker_mentions.py")
assert _SPEC is not None and _SPEC.loader is not None
grid = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(grid)


def score() -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {"right": [], "refused": [], "wrong": [], "drops": [],
                                 "unnamed": []}
    for item in grid.cells():
        try:
            parse = parse_instruction(item["instruction"])
        except ParseError as err:
            out["refused"].append((item["instruction"], str(err)))
            if not err.span:
                out["unnamed"].append(item["instruction"])
            continue
        s = score_item(item, parse)
        if not s.right and "alt" in item:  # a belonging the map has: it or its place
            s = score_item({**item, "stages": item["alt"]}, parse)
        key = "right" if s.right else "drops" if s.silent_drop else "wrong"
        out[key].append((item["instruction"], s.problems))
    return out


# first contact (before any change): recorded once
FIRST_CONTACT = {"right": 101, "refused": 132, "wrong": 7, "drops": 0}
FLOOR = 0


def test_grid_floor_no_wrong_no_drops_named_refusals() -> None:
    s = score()
    assert not s["wrong"], s["wrong"]
    assert not s["drops"], s["drops"]
    assert not s["unnamed"], s["unnamed"]
    assert len(s["right"]) >= FLOOR, len(s["right"])
