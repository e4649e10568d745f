"""Mends of stop 43, each on an exact parse (hand-checked)."""

from __future__ import annotations

import pytest

from map2route.language.fresh import read_route


@pytest.mark.parametrize(("text", "want"), [
    # "until" with a gerund, as "after reaching" already reads
    ("Go to the bed. Until reaching the bed, keep near the sofa.",
     [("goal", "bed"), ("near", "sofa", "until:bed")]),
    ("Go to the bed, keep near the sofa until getting to it.",
     [("goal", "bed"), ("near", "sofa", "until:it")]),
])
def test_mends(text: str, want: list[tuple[str, ...]]) -> None:
    assert read_route(text) == want
