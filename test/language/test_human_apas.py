"""Sets AP-AS (stop 39): written by four helpers who never read the parser, sealed with their
sha256 and scored once at first contact (main 8495085; docs/grounding.md has the table).

Floors at their counts after the first-contact mends, refusals that name a span, and the one
item the scorer calls a silent drop because the set's gold reads "the loo" as the room where
the parse reads the toilet: "Telly in the little lounge, then the loo." (AR22: gold
`bathroom`). Both readings take the robot into the bathroom; the test pins this one, so any
other drop in these sets fails it."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.fresh import score_set, summary

DATA = Path(__file__).parent / "data"
#: item -> the gold reference the parse reads another way (the loo as the room, not the toilet)
_LOO_AS_ROOM = {"AR22": "bathroom"}


@pytest.mark.parametrize(("name", "floor"), [
    ("fresh_human_ap.json", 18), ("fresh_human_aq.json", 8), ("fresh_human_ar.json", 15),
    ("fresh_human_as.json", 13)])
def test_apas_floor_and_no_other_silent_drops(name: str, floor: int) -> None:
    scores = score_set(DATA / name)
    assert summary(scores)["right"] >= floor, [(x.item_id, x.problems) for x in scores
                                               if not x.right]
    for x in scores:
        if x.silent_drop:
            assert x.item_id in _LOO_AS_ROOM, (x.item_id, x.problems)
            assert x.problems[-1] == f"references missing: [{_LOO_AS_ROOM[x.item_id]!r}]"
    assert all(x.refusal_span for x in scores if x.refused)
