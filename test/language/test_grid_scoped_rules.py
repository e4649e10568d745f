"""Paradigm grid of scoped route rules (``test/language/data/grid_scoped_rules.py``): a floor
of right cells, no wrong cell, no silent drop, and every refusal names a span."""

from __future__ import annotations

from typing import Any

import pytest
from grid_grading import assert_item_grid, load_grid

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route

GRID = load_grid("grid_scoped_rules")
CELLS: list[dict[str, Any]] = GRID.CELLS


#: Scored once before any repair (2026-12-07): right / refused / wrong / drop of 240.
FIRST_CONTACT = {"right": 158, "refused": 77, "wrong": 1, "drop": 4}
#: Floor of right cells after :mod:`~map2route.language.parser.scoped_rule_forms` and the
#: mends of this round (scope_leads keeps a reason after the rule; a leg said after its rule
#: is tied to that rule).
FLOOR = 234


def test_grid_floor_no_wrong_no_drop() -> None:
    assert_item_grid(CELLS, FLOOR)


_TWO = [("goal", "fridge"), ("goal", "bed")]

#: Hand-checked parses of one wording of each repair.
UNIT = [
    # ESL: the copula dropped after the lead's subject, the room without its article
    ("Go to the fridge, then the bed. While you in living room keep away from cart, wheel is "
     "broken.", [*_TWO, ("far", "cart", "in:livingroom")]),
    # a leg by a cardinal after its noun, said before and after the rule
    ("Go to the fridge, then the bed. On leg two keep away from the cart.",
     [*_TWO, ("far", "cart", "until:bed")]),
    ("Go to the fridge, then the bed. Keep away from the cart on the first leg.",
     [*_TWO, ("far", "cart", "until:fridge")]),
    # the scope after the rule with an unpunctuated reason: the rule stays (was a silent drop)
    ("Go to the fridge, then the bed. Keep your distance from the telly while you're in the "
     "bedroom because I just mopped.", [*_TWO, ("far", "television", "in:bedroom")]),
    ("Go to the fridge, then the bed. Keep your distance from the telly when you cut through "
     "the bedroom cause the chairs are pulled out.", [*_TWO, ("far", "television", "in:bedroom")]),
    # "the telly on a stand" names the tv stand; "stay over by" under a lead is a rule
    ("Go to the fridge, then the bed. When you cut through the bedroom with the telly on a "
     "stand, stay over by the sofa.", [*_TWO, ("near", "sofa", "in:bedroom")]),
    ("Go to the fridge, then the bed. In the lounge give big distance to the floor lamp, it "
     "fall down easy.", [*_TWO, ("far", "floor_lamp", "in:livingroom")]),
    # "never" after a lead; a whole-route lead run into its rule
    ("Go to the fridge, then the bed. In living room never pass between the dining table and "
     "the cart.", [*_TWO, ("avoid", "between", "in:livingroom")]),
    ("Go to the fridge, then the bed. At all times keep your distance from the cart.",
     [*_TWO, ("far", "cart", "")]),
    ("Go to the fridge, then the bed. Whatever you do, keep away from the cart.",
     [*_TWO, ("far", "cart", "")]),
    # a spoken reason run on without its comma: context, as after a comma
    ("go to the fridge then the bed and as you cross the kitchen keep your distance from the "
     "cart it fall down easy", [*_TWO, ("far", "cart", "in:kitchen")]),
    ("Go to the fridge and come back. On your way back don't drive over the chairs.",
     [("goal", "fridge"), ("goal", "start"), ("avoid", "chair", "until:start")]),
]


@pytest.mark.parametrize(("text", "want"), UNIT)
def test_unit_cases(text: str, want: list[tuple[str, ...]]) -> None:
    assert read_route(text) == want


#: Left refused by name: "stay over by it" with no lead in its sentence (it may be a stop);
#: "and on your way back <rule>" (read as "on the way back" it exposed set AV's AV04, whose
#: "pop into the kitchen and check whether I've left the coffee machine on" finding_out reads
#: as a stop at the kitchen, to a wrong parse); a clause after a stop that names a thing is
#: no run-on reason (not taken out as one).
GUARDS = ["Go to the sofa and stay over by it.",
          "Go to the fridge and come back, and on your way back don't drive over the chairs.",
          "go to the sofa it is by the window"]


@pytest.mark.parametrize("text", GUARDS)
def test_guards_refused(text: str) -> None:
    with pytest.raises(ParseError) as err:
        read_route(text)
    assert err.value.word
