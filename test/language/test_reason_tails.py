"""Reasons, asides and chatter that say why, not where, read by
:mod:`map2route.language.parser.reason_tails` (class I1): a clause with its own subject after a
request (", your wheels keep catching on them", ", the telly on it isn't screwed down", ", the
space is very small and you will hit something", ", I come after with the laundry"), a
person's clause after a spoken request with no comma ("... my husband is napping on it",
"... you dont need to"), "cos ...", and a state said first and joined by "so". Each is context,
never a stage or a constraint, and never the refusal of the whole instruction. A floor for the
class table ``breadth_reason_tails.json``, no silent drops, refusals that name a span, and
tails that carry route content, or that say where, still read or refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_parse, route_summary, score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


def _parse(text: str) -> tuple[list[tuple[str, ...]], list[str]]:
    p = read_parse(text)  # raises on a content word left unread (a silent drop)
    return route_summary(p), p.context


def test_table_floor_and_no_silent_drops() -> None:
    scores = score_set(DATA / "breadth_reason_tails.json")
    s = summary(scores)
    assert s["silent_drops"] == 0, [x.item_id for x in scores if x.silent_drop]
    assert s["right"] >= 41, [(x.item_id, x.problems) for x in scores if not x.right]
    assert all(x.refusal_span for x in scores if x.refused and not x.right)


@pytest.mark.parametrize(("text", "route", "reason"), [
    ("Go to the sofa and give the bed plenty of room, your wheels keep catching on it.",
     [("goal", "sofa"), ("far", "bed", "")], "your wheels keep catching on it"),
    ("Go to the toilet and keep away from the television, the telly on it isn't screwed down.",
     [("goal", "toilet"), ("far", "television", "")], "the telly on it is not screwed down"),
    ("Go to the bed. Don't go between the sofa and the cart, the space is very small and you "
     "will hit something.", [("goal", "bed"), ("avoid", "between", "")],
     "the space is very small and you will hit something"),
    ("Move to the washing machine and stay there please, I come after with the laundry.",
     [("goal", "washing_machine")], "i come after with the laundry"),
    ("go to the tv stand and um keep away from the sofa yeah my husband is napping on it",
     [("goal", "tv_stand"), ("far", "sofa", "")], "yeah my husband is napping on it"),
    ("go to the fridge and dont go near the bin cos it stinks a bit",
     [("goal", "fridge"), ("far", "garbage_can", "")], "cos it stinks a bit"),
    ("The kettle's still hot, so stay away from the kettle and go to the fridge.",
     [("goal", "fridge"), ("far", "kettle", "")], "the kettle 's still hot so"),
    ("go to the plunger lol the toilet's blocked again", [("goal", "plunger")],
     "lol the toilet 's blocked again"),
])
def test_reason_is_context_not_route(text: str, route: list[tuple[str, ...]],
                                     reason: str) -> None:
    got, context = _parse(text)
    assert got == route
    assert reason in context


def test_route_after_a_reason_is_still_read() -> None:
    got, context = _parse("Give the sofa plenty of room, the chairs stick out, and in the "
                          "bedroom don't go near the bed.")
    assert ("far", "bed", "in:bedroom") in got
    assert "the chairs stick out" in context
    got, _ = _parse("Go to the fridge, the milk's in there, and then stop at the sofa.")
    assert got == [("goal", "fridge"), ("goal", "sofa")]


def test_spoken_you_dont_need_to() -> None:
    got, context = _parse("go to the chair and dont go through the bedroom you dont need to")
    assert got[0] == ("goal", "chair")
    assert "you do not need to" in context


@pytest.mark.parametrize("text", [
    # a place said after the copula is a description, not a reason
    "go to the bed, and keep away from the stool, it's in the kitchen",
    "go to the chair, it's the one by the window",
    # a wish for the walker is a request
    "go to the fridge, I want you keeping close to the counter",
    # a thing placed in the subject ("the painting in the kitchen") is not a state
    "Go to the fridge, the painting in the kitchen is nice.",
])
def test_where_and_requests_are_not_taken_for_reasons(text: str) -> None:
    try:
        p = parse_instruction(text)
    except ParseError as err:
        assert err.word
        return
    assert not any(c.startswith(("it is in", "it is the one", "i want you", "the painting"))
                   for c in p.context), p.context


def test_antecedent_of_it_is_kept() -> None:
    got, _ = _parse("The dog is asleep on the dog bed, so keep well away from it. "
                    "I want you at the dresser.")
    assert ("far", "dog_bed", "") in got
