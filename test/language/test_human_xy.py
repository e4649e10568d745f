"""Human phrasings of fresh sets X and Y: a complement of finding out ("I want to see whether
the light reaches", "need to know if it's blocked again") and a return to the speaker at a
named place ("come back here to me at the table"), an "on the way" scope run straight into its
clause ("on the way to the dog bed stop at the plant"), read by
:mod:`map2route.language.parser.finding_out`; a terse reason for a caution ("keep away from the
walls, paint's still tacky"), read by :mod:`map2route.language.parser.state_reasons`. Floors
for X, Y and the class table ``breadth_xy_classes.json`` (paraphrases of each class written
before the fix), no silent drops, and refusals that name a span."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.fresh import route_summary, score_set, summary
from map2route.language.parser import parse_instruction
from map2route.language.parser.coverage import HARMLESS, IDIOM_HEADS

DATA = Path(__file__).parent / "data"


def _route(text: str) -> list[tuple[str, ...]]:
    p = parse_instruction(text)
    assert not [w for w in p.unknown_words if w not in HARMLESS and w not in IDIOM_HEADS]
    return route_summary(p)


@pytest.mark.parametrize(("name", "floor"), [
    ("fresh_human_x.json", 2), ("fresh_human_y.json", 2), ("breadth_xy_classes.json", 29)])
def test_floor_and_no_silent_drops(name: str, floor: int) -> None:
    scores = score_set(DATA / name)
    s = summary(scores)
    assert s["silent_drops"] == 0
    assert s["right"] >= floor
    for sc in scores:
        if sc.refused and not sc.right:
            assert sc.refusal_span, sc.item_id  # a refusal names what it could not read


@pytest.mark.parametrize(("text", "want", "said"), [
    ("Go to the sofa, I want to check whether the cushions are still there.",
     [("goal", "sofa")], "check whether the cushions"),
    ("Walk to the desk and see whether my keys are on it.", [("goal", "desk")], "see whether"),
    ("go stand by the window, want to see on the cam if it's raining",
     [("goal", "window")], "see on the cam if"),
    ("Go to the toilet, need to know whether it's flushing.", [("goal", "toilet")],
     "know whether"),
])
def test_finding_out_is_context(text: str, want: list[tuple[str, ...]], said: str) -> None:
    p = parse_instruction(text)
    assert route_summary(p) == want
    assert any(said in c for c in p.context)  # reported, never dropped


def test_a_state_check_that_is_the_request_is_left_alone() -> None:
    # "Check whether X is on." opens the sentence: the request itself, not a reason
    assert _route("Check whether the TV is still on.") == [("goal", "television")]


@pytest.mark.parametrize(("text", "want"), [
    ("I'm at the sofa. Go to the fridge and then come back here to me at the sofa.",
     [("goal", "fridge"), ("goal", "sofa")]),
    ("Go to the bed, then come back to me by the desk.", [("goal", "bed"), ("goal", "desk")]),
    ("Go to the bed, then come back to me.", [("goal", "bed"), ("goal", "start")]),
    ("Go to the fridge and come back to the sofa where you are now.",
     [("goal", "fridge"), ("goal", "sofa")]),
    ("Visit the window and then return to the front door where you started.",
     [("goal", "window"), ("goal", "doorway")]),
    ("On the way to the bed stop at the plant, then carry on to the bed.",
     [("goal", "house_plant"), ("goal", "bed")]),
    ("on the way to the fridge stop at the sofa pls", [("goal", "sofa"), ("goal", "fridge")]),
])
def test_return_to_speaker_and_way_scope(text: str, want: list[tuple[str, ...]]) -> None:
    assert _route(text) == want


@pytest.mark.parametrize(("text", "reason"), [
    ("Go to the fridge and keep away from the dining table, paint's still wet.", "paint"),
    ("Head to the sofa and keep away from the window, glass all over the floor there.",
     "glass all over"),
    ("walk to the dresser and keep away from the bed, laundry's piled all over it", "laundry"),
])
def test_terse_state_reason_is_context(text: str, reason: str) -> None:
    p = parse_instruction(text)
    assert route_summary(p)[0][0] == "goal"
    assert route_summary(p)[1][0] == "far"
    assert any(reason in c for c in p.context)


@pytest.mark.parametrize("text", [
    # no caution before it: a description, not a reason (left to the later stages)
    "Go to the sofa, the one that's by the window.",
    # a further request after the comma is never a reason
    "Keep away from the bed, go to the desk.",
])
def test_terse_reason_needs_a_caution_and_no_request(text: str) -> None:
    p = parse_instruction(text)
    assert not any(c.startswith(("the one", "go to")) for c in p.context)


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
