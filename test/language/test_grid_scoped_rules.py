"""Paradigm grid of scoped route rules (``test/language/data/grid_scoped_rules.py``): a floor
of right cells, no wrong cell, no silent drop, and every refusal names a span."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from map2route.language.errors import ParseError
from map2route.language.fresh import score_item
from map2route.language.parser import parse_instruction

_SPEC = importlib.util.spec_from_file_location(
    "grid_scoped_rules", Path(__file__).parent / "data" / "grid_scoped_rules.py")
assert _SPEC and _SPEC.loader
GRID = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(GRID)
CELLS: list[dict[str, Any]] = GRID.CELLS


def judge(item: dict[str, Any]) -> tuple[str, list[str]]:
    """'right', 'refused', 'wrong' or 'drop' (a parse that leaves expected content out)."""
    try:
        parse = parse_instruction(item["instruction"])
    except ParseError as err:
        assert err.word, f"refusal of {item['instruction']!r} names no span: {err}"
        return "refused", [str(err)]
    score = score_item(item, parse)
    if score.right:
        return "right", []
    return ("drop" if score.silent_drop else "wrong"), score.problems


#: Scored once before any repair (2026-12-07): right / refused / wrong / drop of 240.
FIRST_CONTACT = {"right": 158, "refused": 77, "wrong": 1, "drop": 4}
