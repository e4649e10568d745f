"""Lists, errand openers and carried things (class L0 of stop 40): headers that run into a
numbered list, word labels of later items, the speaker's place said after a comma, a thing
carried to a place, and the table ``breadth_lists_errands.json`` written before the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route, score_set, summary
from map2route.language.parser import parse_instruction
from map2route.language.parser.speaker_tails import speaker_tails

TABLE = Path(__file__).parent / "data" / "breadth_lists_errands.json"


def test_table_floor_and_no_silent_drops() -> None:
    scores = score_set(TABLE)
    s = summary(scores)
    assert s["silent_drops"] == 0
    assert s["right"] >= 33, [x.item_id for x in scores if not x.right]
    assert all(x.refusal_span for x in scores if x.refused)


@pytest.mark.parametrize(("text", "route"), [
    # a header ended by the list's first mark, not a colon
    ("couple of errands pls 1) coffee machine 2) the desk",
     [("goal", "coffee_machine"), ("goal", "desk")]),
    ("Your jobs for this morning, in order: go and look at the sofa, then the desk.",
     [("goal", "sofa"), ("goal", "desk")]),
    # word labels of later items
    ("First: the statue. Second: the desk. Last: the fridge.",
     [("goal", "statue"), ("goal", "desk"), ("goal", "fridge")]),
    # the speaker's place after a return, with or without "back"
    ("Come back to the counter where I am.", [("goal", "counter_top")]),
    ("Go to the fridge where I'm standing.", [("goal", "fridge")]),
    # the speaker's place behind a comma or a dash is where "me" is
    ("Go to the desk and come back to me, I'm on the sofa.",
     [("goal", "desk"), ("goal", "sofa")]),
    ("Fetch me the watch from the bedroom - I'm by the fridge.",
     [("goal", "watch"), ("goal", "fridge")]),
    # what is carried is no stop; where it goes is
    ("Take this mug to the desk and then come back to me. I'm at the stool.",
     [("goal", "desk"), ("goal", "stool")]),
    ("Take the tray over to the dining table.", [("goal", "dining_table")]),
    ("Go deliver this to the side table.", [("goal", "side_table")]),
    # "either R" in a rule is any of them
    ("Go to the desk. Don't go through either bathroom.", [("goal", "desk"),
                                                          ("avoid", "bathroom")]),
])
def test_lists_and_errands(text: str, route: list[tuple[str, str]]) -> None:
    assert [r[:2] for r in read_route(text)] == route


def test_the_speakers_place_behind_a_comma_is_context_as_its_own_sentence_is() -> None:
    # was kept refused as "a new place in an aside" (test_breadth_spoken); said as a sentence
    # of its own ("Go to the bed. I'm in the kitchen.") it was read as the speaker's place
    p = parse_instruction("Go to the bed, I'm in the kitchen.")
    assert [r[:2] for r in read_route("Go to the bed, I'm in the kitchen.")] == [("goal", "bed")]
    assert any("kitchen" in c for c in p.context)


def test_a_carried_thing_is_context_not_a_stage() -> None:
    p = parse_instruction("Take my cup to the kitchen counter.")
    assert any("cup" in c for c in p.context)
    assert [r[:2] for r in read_route("Take my cup to the kitchen counter.")] == [
        ("goal", "counter_top")]


def test_a_named_thing_with_the_may_be_fetched_first() -> None:
    # "the mug" is a mug of the map: left to the readers that make it a stop
    assert [r[:2] for r in read_route("Take the mug to the desk.")] == [
        ("goal", "mug"), ("goal", "desk")]


@pytest.mark.parametrize(("text", "want"), [
    ("Bring me the vase, I'm on the sofa.", "Bring me the vase. I'm on the sofa."),
    ("Go to the fridge - I'm by the sofa.", "Go to the fridge . I'm by the sofa."),
    # not a closing place: a further clause, a verb of going
    ("Go to the fridge, I'm by the sofa, and then come back",
     "Go to the fridge, I'm by the sofa, and then come back"),
    ("Go to the fridge, I am going to the sofa.", "Go to the fridge, I am going to the sofa."),
])
def test_speaker_tails_keep_length(text: str, want: str) -> None:
    assert speaker_tails(text) == want
    assert len(speaker_tails(text)) == len(text)


@pytest.mark.parametrize("text", [
    "Go to either bathroom or the kitchen.",  # a disjunction, not "any"
    "three stops 1. fridge 2. desk",  # the header's count disagrees with the list
])
def test_still_refused(text: str) -> None:
    with pytest.raises(ParseError):
        parse_instruction(text)
