"""Reasons, asides and chatter in OPEN vocabulary, read by
:mod:`map2route.language.parser.open_reasons`: a clause with its own subject and a verb of any
kind after a request ("you scuffed it last week", "they're gross", "its leaves snap off if u
bump it", "the floor by the window got soaked when it rained"), a hedged statement sentence
("Pretty sure I left the door open", "Apparently the picture keeps freezing"), a participle
saying a thing's state ("that baseball bat propped up in there") and looking-about chatter
("and have a look"). Each is context, never a stage or a constraint. A floor for the class
table ``breadth_open_reasons.json``, no silent drops, refusals that name a span, and clauses
that place the target, send the walker, say a rule or say which thing still read or refused."""

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
    scores = score_set(DATA / "breadth_open_reasons.json")
    s = summary(scores)
    assert s["silent_drops"] == 0, [x.item_id for x in scores if x.silent_drop]
    assert s["right"] >= 41, [(x.item_id, x.problems) for x in scores if not x.right]
    assert all(x.refusal_span for x in scores if x.refused and not x.right)


@pytest.mark.parametrize(("text", "route", "reason"), [
    # the walker as the subject of a past or habitual deed
    ("Go to the bed and give the sofa a wide berth, you scuffed it last week.",
     [("goal", "bed"), ("far", "sofa", "")], "you scuffed it last week"),
    # any verb after a chatter mark, with a contracted subject
    ("go to the sink and give the plungers a really wide berth lol they're gross",
     [("goal", "sink"), ("far", "plunger", "")], "lol they're gross"),
    # a noun phrase subject with a place inside it, and a condition of the world in it
    ("stay close to the counter, the floor by the window got soaked when it rained, then go "
     "to the sofa", [("goal", "sofa"), ("near", "counter_top", "")],
     "the floor by the window got soaked when it rained"),
    # a possessive subject and a verb before a particle, with the walker in an "if" clause
    ("go to the sofa and give the plant lots of room tho its leaves snap off if u bump it",
     [("goal", "sofa"), ("far", "house_plant", "")], "tho its leaves snap off if u bump it"),
    # a condition of the world with its own consequence
    ("Go to the bed and keep away from the windows, when the sun's out it messes with your "
     "sensors.", [("goal", "bed"), ("far", "window", "")],
     "when the sun 's out it messes with your sensors"),
])
def test_open_clause_is_context_not_route(text: str, route: list[tuple[str, ...]],
                                          reason: str) -> None:
    got, context = _parse(text)
    assert got == route
    assert reason in context


@pytest.mark.parametrize(("text", "route", "reason"), [
    ("Could you go to the fridge? Pretty sure I left the door open last night.",
     [("goal", "fridge")], "i left the door open last night"),
    ("Stop at the television. Apparently the picture keeps freezing.",
     [("goal", "television")], "apparently the picture keeps freezing"),
    ("Please wait next to the fridge. As far as I know, the milk has gone off.",
     [("goal", "fridge")], "the milk has gone off"),
])
def test_hedged_and_bare_statements_are_context(text: str, route: list[tuple[str, ...]],
                                                reason: str) -> None:
    got, context = _parse(text)
    assert got == route
    assert reason in context


def test_state_participle_and_looking_about() -> None:
    got, context = _parse("Go to the desk, and keep well away from that baseball bat propped "
                          "up in there.")
    assert got == [("goal", "desk"), ("far", "baseball_bat", "")]
    assert "propped up in there" in context
    got, context = _parse("Go to the painting and have a look, I think it's hanging crooked.")
    assert got == [("goal", "painting")]
    assert "and have a look" in context
    got, context = _parse("Walk once round the table and check nothing's fallen on the floor.")
    assert got == [("circle", "table")]
    assert "and check nothing 's fallen on the floor" in context


@pytest.mark.parametrize("text", [
    # a hedge that places the target says where: it stays for the later rules
    "Go to the bin. Pretty sure it's in the kitchen.",
    "Go to the bin. Apparently it's on the bed.",
    # the walker sent somewhere in the clause
    "Go to the sofa, you'll go through the kitchen on the way.",
    # a correction and a wish for the walker are requests
    "Go to the TV, I mean the TV stand.",
    "go to the sofa, I want you at the dining table",
    # a description of which thing
    "go to the chair, it's the one by the window",
    # a list is not a clause
    "go stand in the corner of the living room where the armchair and the floor lamp are",
    # the walker's own manner is not a thing's state
    "go to the window hugging the wall",
])
def test_route_clauses_are_not_taken_for_reasons(text: str) -> None:
    try:
        p = parse_instruction(text)
    except ParseError as err:
        assert err.word
        return
    assert not any(c.startswith(("pretty sure it", "apparently it", "you will go", "i mean", "i want you",
                                 "it is the one", "and the floor lamp", "hugging"))
                   for c in p.context), p.context


def test_antecedent_of_it_is_kept() -> None:
    got, _ = _parse("Please go to the counter. Just so you know, the stool is broken, so "
                    "stay away from it.")
    assert ("far", "stool", "") in got


def test_condition_before_a_request_is_not_a_reason() -> None:
    # "when the dog is asleep, go to the bed": a condition on the route, never context
    try:
        p = parse_instruction("go to the sofa, when the dog is asleep, go to the bed")
    except ParseError as err:
        assert err.word
        return
    assert not any(c.startswith("when the dog") for c in p.context)
