"""Sets BD-BE (stop 43): written by helpers who never read the parser, on scenes no earlier set
used (procthor_00215: a chatty household, older parent and visiting adult child; 00278: crowd
annotators writing Map2Route-style Hard instructions), sealed with their sha256 and scored at
first contact on main 14f4df0 (BD 1, BE 13 of 22), again after the O round (the same), then
opened (docs/grounding.md has the tables).

Floors at their counts after the stop's mends, refusals that name a span, and no silent drop
but BD14's: there "the one the dog sleeps in" is reported as context, and the scorer, which
wants the dog bed named, counts the missing reference as a drop."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.fresh import score_set, summary

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(("name", "floor", "known_drops"), [
    ("fresh_human_bd.json", 1, {"BD14"}), ("fresh_human_be.json", 14, set())])
def test_bdbe_floor_and_no_silent_drops(name: str, floor: int, known_drops: set[str]) -> None:
    scores = score_set(DATA / name)
    assert summary(scores)["right"] >= floor, [(x.item_id, x.problems) for x in scores
                                               if not x.right]
    assert {x.item_id for x in scores if x.silent_drop} <= known_drops
    assert all(x.refusal_span for x in scores if x.refused)
