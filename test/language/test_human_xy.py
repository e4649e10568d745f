"""Human phrasings of fresh sets X and Y: a complement of finding out ("I want to see whether
the light reaches", "need to know if it's blocked again") and a return to the speaker at a
named place ("come back here to me at the table"), an "on the way" scope run straight into its
clause ("on the way to the dog bed stop at the plant"), read by
:mod:`map2route.language.parser.finding_out`; a terse reason for a caution ("keep away from the
walls, paint's still tacky"), read by :mod:`map2route.language.parser.state_reasons`. The sets' floors are in ``test_human.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.fresh import read_route as _route
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(("text", "want"), [
    # stepping on / running over / trampling a thing is touching it: avoid
    ("Go to the desk and don't run over the dog bed.", [("goal", "desk"), ("avoid", "dog_bed", "")]),
    ("go to the sofa and dont trample the plant", [("goal", "sofa"), ("avoid", "house_plant", "")]),
    ("Walk to the window, don't step on the dog bed.",
     [("goal", "window"), ("avoid", "dog_bed", "")]),
    # bumping into keeps the project's soft keep-away
    ("Head to the fridge, and don't bump into the stool.", [("goal", "fridge"), ("far", "stool", "")]),
])
def test_negated_contact_verbs(text: str, want: list[tuple[str, ...]]) -> None:
    assert _route(text) == want


def test_a_check_the_route_branches_on_is_not_a_finding_out_aside() -> None:
    # the human split's generator writes this; finding_out took it as an aside at first
    p = parse_instruction("Go to the chair. Next, check whether the bedroom has a bed: if it "
                          "does, go to that bed, if not, go to the refrigerator.")
    assert [c.kind for c in p.clauses] == ["goal", "if"]
