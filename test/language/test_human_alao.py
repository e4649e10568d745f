"""Sets AL-AO (stop 38): written by four helpers who never read the parser, sealed with their
sha256 and scored once at first contact (main b4d72fd; docs/grounding.md has the table).

Floors at their counts after the first-contact mends, refusals that name a span, and the two
items the scorer calls silent drops because the set's gold lists a room type the instruction
never says: "whatever room has the most chairs" (AN08: gold `living_room`) and "the room with
the two beds" (AN19: gold `bedroom`). The parse reads each room by its description, which is
what the words say, and the map answers which room that is; the test pins that reading, so
any other drop in these sets fails it."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.fresh import score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"
#: item -> the gold reference the words never name (a room type only the map answers)
_ROOM_TYPE_BY_MAP = {"AN08": "living_room", "AN19": "bedroom",
                     # J4: read since "bring urself back to" is; "the room with the two beds"
                     "AN17": "bedroom",
                     # L0 (stop 40): read since a header may run into its list ("3 things pls,
                     # in this order 1) ..."); "the boxes room", a bedroom by the map
                     "AN11": "bedroom"}


@pytest.mark.parametrize(("name", "floor"), [
    ("fresh_human_al.json", 19), ("fresh_human_am.json", 12), ("fresh_human_an.json", 12),
    ("fresh_human_ao.json", 14)])
def test_alao_floor_and_no_other_silent_drops(name: str, floor: int) -> None:
    scores = score_set(DATA / name)
    assert summary(scores)["right"] >= floor, [(x.item_id, x.problems) for x in scores
                                               if not x.right]
    for x in scores:
        if x.silent_drop:
            assert x.item_id in _ROOM_TYPE_BY_MAP, (x.item_id, x.problems)
            assert x.problems[-1] == f"references missing: [{_ROOM_TYPE_BY_MAP[x.item_id]!r}]"
    assert all(x.refusal_span for x in scores if x.refused)


@pytest.mark.parametrize("text", [
    "go to whatever room has the most chairs n wait in the corner closest to the big plant",
    "check the vase in the same room as the couch first, then go thru the room with the two "
    "beds and on to the vase in the same room as the armchair.",
])
def test_a_room_said_by_its_contents_is_read_by_them(text: str) -> None:
    rooms = [r for c in parse_instruction(text).clauses for r in c.refs if r.head == "room"]
    rooms += [m.refs[0] for c in parse_instruction(text).clauses for r in c.refs
              for m in r.modifiers if m.refs and m.refs[0].head == "room"]
    assert rooms and all(r.head_kind == "room" and r.modifiers for r in rooms)
