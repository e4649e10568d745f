"""Paradigm grid: a speaker correcting or contrasting a reference (round N, corrections_more).

The cells and their axes are in ``data/grid_corrections_more.py`` (written before the parser's
code for the family was read). Every cell must be right or refused by name: never a different
route, never a taken-back modifier kept on the stage, never a silent drop.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path
from typing import Any

from map2route.language.errors import ParseError
from map2route.language.fresh import read_parse, score_item

_SPEC = importlib.util.spec_from_file_location(
    "grid_corrections_more", Path(__file__).parent / "data" / "grid_corrections_more.py")
assert _SPEC is not None and _SPEC.loader is not None
grid = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(grid)

CELLS: list[dict[str, Any]] = grid.cells()


def _plain_mod_heads(ref: dict[str, Any]) -> set[str]:
    """The heads under ``ref``'s modifiers that are not negated (nested ones too)."""
    out: set[str] = set()
    for m in ref.get("modifiers", []):
        if m.get("negated"):
            continue
        for r in m.get("refs", []):
            out.add(r["head"])
            out |= _plain_mod_heads(r)
    return out


def grade(cell: dict[str, Any]) -> str:
    """'right', 'refused' (naming a span), 'wrong' or 'drop' (a silent drop)."""
    try:
        parse = read_parse(cell["instruction"])
    except ParseError as err:
        assert err.span is not None and err.word, f"refusal of {cell['instruction']!r} names no span"
        return "refused"
    except ValueError:
        return "drop"
    got = score_item(cell, parse)
    if got.silent_drop:
        return "drop"
    if not got.right:
        return "wrong"
    for st in parse.to_json()["stages"]:
        for ref in st.get("refs", []):
            if _plain_mod_heads(ref) & set(cell["banned"]):
                return "wrong"
    return "right"


# right, refused, wrong, drops of the 240 cells, scored once before the family's code was read
FIRST_CONTACT = (61, 123, 46, 0)
FLOOR = 0


def test_grid_never_wrong_and_reaches_the_floor() -> None:
    results = Counter(grade(c) for c in CELLS)
    bad = [(c["instruction"], g) for c in CELLS if (g := grade(c)) in ("wrong", "drop")]
    assert bad == []
    assert results["right"] >= FLOOR


if __name__ == "__main__":  # the table a session reads when it changes the family
    counts: Counter[str] = Counter()
    for c in CELLS:
        g = grade(c)
        counts[g] += 1
        print(f"{g:8} {c['id']} {c['instruction']}")
    print(dict(counts), len(CELLS))
