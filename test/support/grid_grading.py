"""Grading shared by the paradigm-grid tests (``test_grid_*.py``).

A cell is *right*, *refused* (a :class:`ParseError` naming the span it could not read),
*wrong*, a silent *drop* (a parse that leaves words or expected content unexplained), or
*unnamed* (a refusal that names no span). A grid holds when no cell is wrong, dropped or
unnamed and at least its floor of cells is right.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from map2route.language.errors import ParseError
from map2route.language.fresh import score_item
from map2route.language.parser import parse_instruction

T = TypeVar("T")
#: A verdict and what it rests on (the parse's problems, or what was read), for messages.
Verdict = tuple[str, str]


def grade(text: str, read: Callable[[str], T], judge: Callable[[T], Verdict],
          refused: str = "refused") -> Verdict:
    """Read ``text`` and judge what came back; ``refused`` is the verdict of a named refusal
    (a grid whose cell wants no reading passes "right")."""
    try:
        got = read(text)
    except ParseError as err:
        return (refused if err.span is not None and err.word else "unnamed"), str(err)
    except ValueError as err:  # read_route: words left unread
        return "drop", str(err)
    return judge(got)


def by_score(item: dict[str, Any], alt: str | None = None) -> Callable[[Any], Verdict]:
    """Judge a parse against a fresh-set style item (stages, constraints) with
    :func:`score_item`; ``alt`` names another gold stage list the item may also match."""
    def judge(parse: Any) -> Verdict:
        s = score_item(item, parse)
        if not s.right and alt and alt in item:
            s = score_item({**item, "stages": item[alt]}, parse)
        return ("right" if s.right else "drop" if s.silent_drop else "wrong"), str(s.problems)
    return judge


def by_equality(gold: Any) -> Callable[[Any], Verdict]:
    """Judge a read route by equality with ``gold``."""
    return lambda got: ("right" if got == gold else "wrong", repr(got))


def assert_grid(verdicts: Iterable[tuple[str, Verdict]], floor: int) -> dict[str, int]:
    """No cell wrong, dropped or refused without a named span, and ``floor`` cells right;
    returns the count of each verdict."""
    counts: dict[str, int] = {}
    bad = []
    for text, (kind, detail) in verdicts:
        counts[kind] = counts.get(kind, 0) + 1
        if kind in ("wrong", "drop", "unnamed"):
            bad.append((kind, text, detail))
    assert not bad, f"{len(bad)} bad cells, first ones: {bad[:8]}"
    assert counts.get("right", 0) >= floor, f"{counts.get('right', 0)} right, floor {floor}: {counts}"
    return counts


def assert_item_grid(items: Iterable[dict[str, Any]], floor: int,
                     alt: str | None = None) -> dict[str, int]:
    """:func:`assert_grid` over fresh-notation items (``instruction``, stages, constraints),
    each parsed offline and judged with :func:`by_score`."""
    return assert_grid(((c["instruction"], grade(c["instruction"], parse_instruction,
                                                 by_score(c, alt=alt))) for c in items), floor)


def load_grid(name: str) -> ModuleType:
    """The grid module ``test/language/data/<name>.py`` (data, not a package: loaded by path)."""
    path = Path(__file__).resolve().parents[1] / "language" / "data" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
