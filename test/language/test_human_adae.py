"""Human phrasings of fresh sets AD and AE, read by
:mod:`map2route.language.parser.finding_out`: a return to the speaker who restates the place
("come straight back here to the counter", "come back to me here at the desk", "back over
here to the sofa") is one stop at that place, not a start stop and another at the place; and a
room scope run into its request by "please" ("while you're still in the kitchen please stay
away from the table"); an "on the way" scope run into a verb of moving ("on the way walk past
the table") or naming the list's stop as "the second one". Floors for AD, AE and the class
table ``breadth_adae_classes.json``, no silent drops, and refusals that name a span."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route as _route
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


# the floors of this round's sets and table: test_human.py, test_round_sets_floor_and_no_silent_drops


@pytest.mark.parametrize("text", [
    "I'm at the fridge. Go to the toilet, then come back here to the fridge.",
    "I'm at the fridge. Go to the toilet, then come straight back to me here at the fridge.",
    "I'm at the fridge. Go to the toilet, then come back over here to the fridge.",
    "I'm at the fridge. Go to the toilet, then come back here to me by the fridge.",
])
def test_return_at_restated_place_is_one_stop(text: str) -> None:
    assert _route(text) == [("goal", "toilet"), ("goal", "fridge")]


def test_plain_returns_keep_their_reading() -> None:
    assert _route("Go to the toilet, then come back here.") == [
        ("goal", "toilet"), ("goal", "start")]
    assert _route("Go to the toilet, then back to the sofa.") == [
        ("goal", "toilet"), ("goal", "sofa")]


def test_return_to_unknown_place_is_still_refused() -> None:
    with pytest.raises(ParseError):
        parse_instruction("Go to the toilet, then come back here to the zorblat.")


@pytest.mark.parametrize("text", [
    "Go to the bed. While you're still in the kitchen please stay away from the table.",
    "Go to the bed, and while you are in the kitchen please keep away from the table.",
    "Go to the bed. When you're going through the kitchen please keep away from the table.",
])
def test_room_scope_run_into_please(text: str) -> None:
    assert _route(text) == [("goal", "bed"), ("far", "table", "in:kitchen")]


def test_please_after_a_clause_without_a_room_is_still_refused() -> None:
    with pytest.raises(ParseError):
        parse_instruction("Go to the bed. While you're bored please keep away from the table.")


def test_on_the_way_run_into_a_move() -> None:
    assert _route("Go to the bed. On the way walk past the fridge.") == [
        ("pass", "fridge"), ("goal", "bed")]


@pytest.mark.parametrize(("text", "scope"), [
    ("Go to the sofa, then the bed. On the way to the second one keep away from the fridge.",
     "until:bed"),
    ("Go to the sofa, then the bed. On the way to the second one, keep away from the fridge.",
     "until:bed"),
])
def test_on_the_way_to_the_ordinal_one(text: str, scope: str) -> None:
    assert _route(text) == [("goal", "sofa"), ("goal", "bed"), ("far", "fridge", scope)]


def test_on_the_way_still_refuses_what_it_cannot_read() -> None:
    with pytest.raises(ParseError):
        parse_instruction("Go to the sofa. On the way to the second one keep away from the "
                          "zorblat.")
