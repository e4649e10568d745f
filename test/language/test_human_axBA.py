"""Sets AX-BA (stop 41): written by four helpers who never read the parser, on scenes used by
one early set each (00079, 00084, 00085, 00201), sealed with their sha256 and scored once at
first contact (main baf2a88, after the M composition round; docs/grounding.md has the table):
AX 16, AY 6, AZ 12, BA 2 of 22 (before the round, on 150598d: 15, 6, 12, 1).

Floors at their counts, 0 silent drops (none at first contact), and refusals that name a
span."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.fresh import score_set, summary

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(("name", "floor"), [
    ("fresh_human_ax.json", 16), ("fresh_human_ay.json", 6), ("fresh_human_az.json", 12),
    ("fresh_human_ba.json", 2)])
def test_axBA_floor_and_no_silent_drops(name: str, floor: int) -> None:
    scores = score_set(DATA / name)
    assert summary(scores)["right"] >= floor, [(x.item_id, x.problems) for x in scores
                                               if not x.right]
    assert summary(scores)["silent_drops"] == 0, [(x.item_id, x.problems) for x in scores
                                                  if x.silent_drop]
    assert all(x.refusal_span for x in scores if x.refused)
