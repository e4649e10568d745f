"""Human phrasings of fresh sets AH and AK, read by
:mod:`map2route.language.parser.learner_forms`: learner English ("Move until the washing
machine", "next the fridge", "keep far of", "stay away of", "go trough", "she dont like"), a
stop restated ("wait me there", "after it to the X", "just pass it dont stop": one stop, not
two), the space-giving frames ("Give lot of space to X", "leave much free space around X"),
and the openers "Starting from X, I'd like you to ..." and "carry on out to". Floors for AH,
AK and the class table ``breadth_ahak_classes.json``, no silent drops, and refusals that name
a span."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route as _route
from map2route.language.fresh import score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(("name", "floor"), [
    ("fresh_human_ah.json", 8), ("fresh_human_ak.json", 8),
    ("breadth_ahak_classes.json", 17)])
def test_ahak_floor_and_no_silent_drops(name: str, floor: int) -> None:
    scores = score_set(DATA / name)
    s = summary(scores)
    assert s["silent_drops"] == 0, [x.item_id for x in scores if x.silent_drop]
    assert s["right"] >= floor, [(x.item_id, x.problems) for x in scores if not x.right]
    assert all(x.refusal_span for x in scores if x.refused and not x.right)


def test_learner_prepositions() -> None:
    assert _route("Move until the toilet.") == [("goal", "toilet")]
    assert _route("Walk untill the garbage can next the fridge.") == [("goal", "garbage_can")]
    assert _route("I am standing next the fridge. Go to the sofa.") == [("goal", "sofa")]
    assert _route("Go to the bed and keep far of the teddy bear.") == [
        ("goal", "bed"), ("far", "teddy_bear", "")]
    assert _route("Go to the stool and stay away of the counter.") == [
        ("goal", "stool"), ("far", "counter_top", "")]
    assert _route("Drive trough the kitchen to the stool.") == [
        ("pass", "kitchen"), ("goal", "stool")]


def test_ordinal_next_and_other_until_are_left_alone() -> None:
    assert _route("Go to the bed in the next bedroom.") == [("goal", "bed")]
    assert _route("Go to the fridge and then next the sofa.") == [
        ("goal", "fridge"), ("goal", "sofa")]


def test_learner_reason_with_dont_is_not_dropped() -> None:
    assert _route("Go to the stool but stay away of the counter, my mother is cooking and she "
                  "dont like robot near her.") == [("goal", "stool"), ("far", "counter_top", "")]


def test_space_giving_frames() -> None:
    assert _route("Go to the sofa. Give lot of space to the dining table.") == [
        ("goal", "sofa"), ("far", "dining_table", "")]
    assert _route("Go to the stool and leave much free space around the counter.") == [
        ("goal", "stool"), ("far", "counter_top", "")]


def test_openers() -> None:
    assert _route("Starting at the fridge, I'd like you to go to the bed.") == [("goal", "bed")]
    assert _route("Stop at the sofa, then carry on out to the front door.") == [
        ("goal", "sofa"), ("goal", "doorway")]


def test_frames_not_matched_are_still_refused() -> None:
    for text in ("Go to the sofa. Give lot of love to the bed.",
                 "Go to the bed, I want you to stop.",
                 "Go to the sofa and wait until I come."):
        with pytest.raises(ParseError):
            parse_instruction(text)
