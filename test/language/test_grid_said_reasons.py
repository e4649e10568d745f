"""Paradigm grid for said reasons (``test/language/data/grid_said_reasons.py``: axes, gold and
cells there): reasons and asides in words the map does not know, run on to a rule or a stop
("dont bump armchair in there grandma sleeping", "pls dont go inside kitchen, floor still wet",
"Just so Biscuit sees you", "my son play his game there").

Each cell is a fresh-notation item scored by :func:`map2route.language.fresh.score_item`. The
test keeps a floor of right cells, no wrong cell, no silent drop, and a named span on every
refusal; a request cell ("keep away from the TV, because go to the bin") is right when read as
the stop or refused by name.
"""

from __future__ import annotations

import pytest
from grid_grading import assert_grid, by_score, grade, load_grid

from map2route.language.errors import ParseError
from map2route.language.fresh import read_parse, read_route
from map2route.language.parser import parse_instruction
from map2route.language.parser.said_reasons import said_reasons
from map2route.language.tokens import tokenize

GRID = load_grid("grid_said_reasons")

# first contact (2026-12-07, before any change for this family; 256 cells): 167 right,
# 84 refused, 5 wrong (four "because go to the bin" read as a reason, one rule swallowed by a
# reason before it), 0 silent drops
FIRST_CONTACT = {"right": 167, "refused": 84, "wrong": 5, "drops": 0}
# after said_reasons: 239 right, 17 refused by name, 0 wrong, 0 drops. Left to the later
# rules on purpose: "cold air coming" and a bare "window open" (read here, they let BA11 and
# DS129 through to other families' wrong readings), and a map thing's state said as a sentence
# of its own ("The vase's wobbly.", the said-around grid's guard), a last sentence naming a map
# thing ("The cat is sleeping on the bed.": test_human_g), "its" for "it's" (terse reasons).
# 238 since the merge (stop 43): ", it <state>" / ", the X on it <state>" after a rule are left
# to the discourse moves, which record them as statements about the thing and refuse a new
# one (test_discourse_moves); one cell is refused by name for it.
FLOOR = 238


def test_grid_floor_no_wrong_cells_no_drops_named_refusals() -> None:
    assert_grid(((c["instruction"], grade(
        c["instruction"], parse_instruction, by_score(c),
        refused="right" if c["kind"] == "request" else "refused")) for c in GRID.cells()), FLOOR)


def _taken(text: str) -> list[str]:
    return [c for c, _ in said_reasons(tokenize(text), text)[1]]


@pytest.mark.parametrize(("text", "want"), [
    ("pls dont go inside kitchen, floor still wet", ["floor still wet"]),
    ("dont bump armchair in there grandma sleeping", ["grandma sleeping"]),
    ("keep away from TV, my son play his game there", ["my son play his game there"]),
    ("Go past the dog bed. Just so Biscuit sees you.", ["just so biscuit sees you"]),
    ("Keep away from the TV (Milo is napping on the sofa).",
     ["milo is napping on the sofa"]),
    ("Grandma get nervous, so dont bump the armchair.", ["grandma get nervous so"]),
    ("Go to the TV, I mean the TV stand.", []),
    ("Go to the desk, followed by the bed.", []),
    ("Go to the sofa, the dog bed in the lounge.", []),
    ("The dog is asleep on the dog bed, so keep well away from it.", []),
])
def test_taken(text: str, want: list[str]) -> None:
    assert _taken(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("need u at the desk. pls dont go inside kitchen, floor still wet",
     [("goal", "desk"), ("avoid", "kitchen", "")]),
    ("Go past the dog bed so Biscuit sees you, then wait by the toaster.",
     [("pass", "dog_bed"), ("goal", "toaster")]),
    ("Go to the desk Milo nervous, then go to the bin.", [("goal", "desk"),
                                                          ("goal", "garbage_can")]),
])
def test_hand_checked(text: str, want: list[tuple[str, ...]]) -> None:
    assert read_route(text) == want


def test_map_thing_in_reason_is_context() -> None:
    p = read_parse("Go to the fridge. Keep away from the TV, Biscuit is asleep on the sofa.")
    assert [r.head for r in p.context_refs] == ["sofa"]
    assert [c.kind for c in p.clauses if c.kind == "goal"] == ["goal"]


def test_request_after_because_refused_by_name() -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction("Go to the fridge. Keep away from the TV, because go to the bin.")
    assert err.value.word == "because go to the bin" and err.value.span
