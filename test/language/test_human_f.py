"""Human phrasings of fresh set F (issue 19): negated lists of contents, partitives of a
ranked set, and returning to the start. Each class has several phrasings the set did not use."""

from __future__ import annotations

import pytest

from map2route.language.errors import ParseError
from map2route.language.parser import parse_instruction


def _goal(text: str):
    p = parse_instruction(text)
    goals = [c for c in p.clauses if c.kind == "goal"]
    assert len(goals) == 1, [(c.kind, [r.head for r in c.refs]) for c in p.clauses]
    return goals[0].refs[0]


def _negated_contents(text: str) -> tuple[str, list[tuple[str, bool]]]:
    ref = _goal(text)
    return ref.head, [(m.refs[0].head, m.negated) for m in ref.modifiers if m.kind == "with"]


@pytest.mark.parametrize("text", [
    "Go to the bathroom that has no candle and no garbage can.",
    "Go to the bathroom with no candle and no garbage can.",
    "Go to the bathroom with no candle or garbage can.",
    "Go to the bathroom without a candle or a garbage can.",
    "Go to the bathroom without a candle and without a garbage can.",
    "Go to the bathroom that has neither a candle nor a garbage can.",
    "Go to the bathroom that does not have a candle or a garbage can.",
    "Go to the bathroom that doesn't contain a candle or a garbage can.",
    "Go to the bathroom which contains no candle and no garbage can.",
    "Go to the bathroom that lacks a candle and a garbage can.",
    "Walk to a bathroom having no candle or garbage can in it.",
])
def test_a_negated_list_of_contents_negates_every_item_of_one_head(text):
    assert _negated_contents(text) == ("bathroom", [("candle", True), ("garbage_can", True)])


def test_a_negated_list_of_three_and_a_single_lacking():
    assert _negated_contents("Go to the bedroom that has no desk, no lamp and no bed.") == (
        "bedroom", [("desk", True), ("lamp", True), ("bed", True)])
    assert _negated_contents("Go to the bedroom with no desk, lamp or bed.") == (
        "bedroom", [("desk", True), ("lamp", True), ("bed", True)])
    assert _negated_contents("Go to the bedroom that lacks a desk.") == (
        "bedroom", [("desk", True)])


def test_a_negated_list_inside_a_reference_and_a_constraint():
    ref = _goal("Go to the chair in the bedroom with no desk and no lamp.")
    room = ref.modifiers[0].refs[0]
    assert (ref.head, room.head) == ("chair", "bedroom")
    assert [(m.refs[0].head, m.negated) for m in room.modifiers] == [("desk", True),
                                                                     ("lamp", True)]
    p = parse_instruction("Avoid the bedroom that has no desk or lamp and go to the sofa.")
    assert sorted((c.kind, c.refs[0].head) for c in p.clauses) == [("avoid", "bedroom"),
                                                                  ("goal", "sofa")]
    avoid = next(c for c in p.clauses if c.kind == "avoid")
    assert [m.negated for m in avoid.refs[0].modifiers] == [True, True]


def test_a_list_the_negation_does_not_cover_is_not_negated():
    # "no desk and a lamp": the lamp is not negated; the list is left to the other rules
    # (which read the lamp as a stage in the room), never read as "no lamp"
    p = parse_instruction("Go to the bedroom that has no desk and a lamp.")
    withs = []
    stack = [r for c in p.clauses for r in c.refs]
    while stack:
        ref = stack.pop()
        withs += [(m.refs[0].head, m.negated) for m in ref.modifiers if m.kind == "with"]
        stack += [r for m in ref.modifiers for r in m.refs]
    assert withs == [("desk", True)]


def test_an_unread_no_is_a_refusal_naming_it():
    # the lexicon's "no" was read by YAML as False once: an unread "no" went unflagged
    with pytest.raises(ParseError) as err:
        parse_instruction("Go to the bathroom that has a candle and no way out.")
    assert "no" in str(err.value.word).split()


@pytest.mark.parametrize(("text", "head", "rank", "k", "to"), [
    ("Go to the second of the paintings nearest the armchair.", "painting", "nearest", 2,
     "arm_chair"),
    ("Go to the second of the three lamps closest the bed.", "lamp", "nearest", 2, "bed"),
    ("Go to the third of the chairs farthest the sofa.", "chair", "farthest", 3, "sofa"),
    ("Go to the second of the two chairs closest to the fridge.", "chair", "nearest", 2,
     "fridge"),
])
def test_a_partitive_of_a_ranked_set_is_one_goal(text, head, rank, k, to):
    ref = _goal(text)
    (mod,) = ref.modifiers
    assert (ref.head, mod.kind, mod.k, mod.refs[0].head) == (head, "rank", k, to)
    assert mod.rank in ((rank, "closest") if rank == "nearest" else (rank,))


@pytest.mark.parametrize("text", [
    "Go to the apple and come back here afterwards.",
    "Go to the apple, then return here afterwards.",
    "Go to the apple and come back over here afterwards.",
    "Go to the apple. Afterwards, come back here.",
    "Go to the apple, then return to where you started.",
    "Go to the apple and come back to me.",
    "Go to the apple, then back to the start.",
])
def test_coming_back_here_returns_to_the_start(text):
    p = parse_instruction(text)
    assert [(c.kind, c.refs[0].head) for c in p.clauses] == [("goal", "apple"),
                                                            ("goal", "start")]
