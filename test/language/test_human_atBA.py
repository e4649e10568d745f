"""Sets AT-AW (stop 40), AX-BA (stop 41) and BB-BC (stop 42): written by helpers who never read
the parser, on scenes used by one early set each (00009, 00022, 00152, 00300; 00079, 00084,
00085, 00201) or by none (00213, 00393), sealed with their sha256 and scored once at first
contact (AT-AW on main 83b20a8, after the K round; AX-BA on main baf2a88, after the M
composition round: AX 16, AY 6, AZ 12, BA 2 of 22; BB-BC on main 5ac5c28, after the N round:
BB 1, BC 5 of 22, as before the round; docs/grounding.md has the tables).

Floors at their counts after the first-contact mends and the O round of stop 43 (AW05: the speaker's place is what they
sit on; AT13: "Once you have reached the safe" is no second stop; AV16: "you needn't stop"
denies a stop), 0 silent drops (none at first contact), and refusals that name a span."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.fresh import score_set, summary

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(("name", "floor"), [
    ("fresh_human_at.json", 14), ("fresh_human_au.json", 8), ("fresh_human_av.json", 10),
    ("fresh_human_aw.json", 15), ("fresh_human_ax.json", 18), ("fresh_human_ay.json", 12),
    ("fresh_human_az.json", 18), ("fresh_human_ba.json", 12), ("fresh_human_bb.json", 2),
    ("fresh_human_bc.json", 10)])
def test_atBA_floor_and_no_silent_drops(name: str, floor: int) -> None:
    scores = score_set(DATA / name)
    assert summary(scores)["right"] >= floor, [(x.item_id, x.problems) for x in scores
                                               if not x.right]
    assert summary(scores)["silent_drops"] == 0, [(x.item_id, x.problems) for x in scores
                                                  if x.silent_drop]
    assert all(x.refusal_span for x in scores if x.refused)
