"""Human phrasings of fresh sets V and W, read by
:mod:`map2route.language.parser.errand_talk`: "swing past X" (a pass), "cut through / across"
a room, "the corner where the fridge is", "that's where I left my phone", a correction that
rejects one of two ("No wait, not the one with X, the other one"), a
heading that only says which way to count ("Head toward the bedrooms and stop in the first
bedroom you walk into") a list header said with a rough count ("A couple of errands,
please:"); and, read by :mod:`map2route.language.parser.kind_talk`, two held things said loosely
("with the watch and vase on it", "with both a laptop and a vase on it"), "would you mind
waiting", the plain kind ("the ordinary chair") and a set said by what its members hold ("Two of
the beds have a teddy bear on them. Go to the bigger of the two."). The sets' floors are in ``test_human.py``."""

from __future__ import annotations

from pathlib import Path

from map2route.language.fresh import route_summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


def test_reason_with_a_place_adverb_is_context() -> None:
    p = parse_instruction("Go to the sofa. Don't go into the kitchen, people are eating there.")
    assert route_summary(p) == [("goal", "sofa"), ("avoid", "kitchen", "")]
    assert any("people are eating there" in c for c in p.context)
