"""Destination and motion frames (:mod:`map2route.language.parser.motion_frames`): the breadth
table ``breadth_motion.json`` (every way of saying go to / stop at / come back, scored with the
fresh-set scorer) and hand-checkable cases of each frame."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import route_summary, score_set, summary
from map2route.language.parser import parse_instruction

_TABLE = Path(__file__).parent / "data" / "breadth_motion.json"


def test_breadth_table_floor() -> None:
    got = summary(score_set(_TABLE))
    # 389 of 405 on 2026-12-06; the 16 left are refusals (e.g. BM254 a correction, BM261 a
    # list without articles, BM349 "between the two armchairs", BM382/BM400 a come-back said
    # before its stop) and two readings as two stops (BM244 "go to there the sofa", BM372 a
    # room, then "Stop at ..." in the next sentence)
    assert got["right"] >= 389
    assert got["silent_drops"] == 0


def _frames(text: str) -> list[dict[str, str]]:
    return [m for m in parse_instruction(text).discourse if m["move"] == "frame"]


@pytest.mark.parametrize(("text", "want"), [
    ("Pop on over to the dresser.", [("goal", "dresser")]),
    ("Make a beeline for the fridge.", [("goal", "fridge")]),
    ("Could you possibly make your way over to the sink?", [("goal", "sink")]),
    ("Go and stand in front of the TV.", [("goal", "television")]),
    ("Park yourself across from the sofa.", [("goal", "sofa")]),
    ("Could you be at the sofa, please?", [("goal", "sofa")]),
    ("Stop when you get to the dresser.", [("goal", "dresser")]),
    ("Go to the far side of the dining table.", [("goal", "dining_table")]),
    ("Pass the fridge on the way to the sofa.", [("pass", "fridge"), ("goal", "sofa")]),
    ("Head over to the microwave and then make your way back to me.",
     [("goal", "microwave"), ("goal", "start")]),
    ("To the fridge and back, please.", [("goal", "fridge"), ("goal", "start")]),
    ("Go to the window and stop in front of it.", [("goal", "window")]),
    ("I'd like you over by the window.", [("goal", "window")]),
    ("Would you mind popping over to the dog bed?", [("goal", "dog_bed")]),
    ("Go halfway between the sofa and the TV and stop.", [("goal", "midpoint")]),
    ("Head over to the plant. When you get there, come back to me.",
     [("goal", "house_plant"), ("goal", "start")]),
    ("You're done when you reach the sofa.", [("goal", "sofa")]),
    ("Go to the spot in front of the TV.", [("goal", "television")]),
    ("Wait in the space between the bed and the dresser.", [("goal", "midpoint")]),
    ("Stand in the kitchen corner nearest to the fridge.", [("goal", "corner")]),
    ("Final destination - the bed.", [("goal", "bed")]),
    ("Keep going until you reach the bed.", [("goal", "bed")]),
    ("Visit the TV stand before coming back here.", [("goal", "tv_stand"), ("goal", "start")]),
    ("Make your way across the living room to the window.",
     [("pass", "living_room"), ("goal", "window")]),
    ("go next to sofa", [("goal", "sofa")]),
    ("Stand a bit in front of the sofa.", [("goal", "sofa")]),
    ("Go to the dog bed and then back to where you were.", [("goal", "dog_bed"), ("goal", "start")]),
    ("Pop to the sink, then the toilet, then straight back.",
     [("goal", "sink"), ("goal", "toilet"), ("goal", "start")]),
])
def test_frames_read_as_stages(text: str, want: list[tuple[str, str]]) -> None:
    assert [s for s in route_summary(parse_instruction(text)) if len(s) == 2] == want


def test_position_is_kept_as_a_note() -> None:
    [note] = _frames("Stop opposite the sofa.")
    assert note["text"] == "stop opposite" and "opposite" in note["about"]
    [note] = _frames("Wait just behind the couch.")
    assert "behind" in note["about"]


def test_start_frames_are_context_not_stages() -> None:
    p = parse_instruction("Leave the bathroom and go to the sofa.")
    assert route_summary(p) == [("goal", "sofa")]
    # the sofa is not placed in the bathroom left behind
    assert not p.clauses[0].refs[0].modifiers
    assert p.context == ["the bathroom"]
    p = parse_instruction("Go out of the kitchen into the living room and stop at the sofa.")
    assert route_summary(p) == [("goal", "sofa")] and "the kitchen" in p.context


def test_corner_without_room_is_a_ranked_corner() -> None:
    ref = parse_instruction("Wait in the corner by the window.").clauses[0].refs[0]
    assert ref.head == "corner"
    [rank] = [m for m in ref.modifiers if m.kind == "rank"]
    assert rank.rank == "nearest" and rank.refs[0].head == "window"


@pytest.mark.parametrize("text", [
    "Go to the fridge. Stay near the wall.",          # a keep-near constraint, not a stop
    "Stay close to the wall until you reach the kitchen.",
    "Go to the fridge. I want you near the wall the whole time.",
])
def test_stay_near_stays_a_constraint(text: str) -> None:
    kinds = [s[0] for s in route_summary(parse_instruction(text))]
    assert "near" in kinds and kinds.count("goal") == 1


def test_corner_of_the_room_just_entered() -> None:
    [stage] = parse_instruction("Go into the biggest bedroom and stand in the corner by the "
                                "window.").clauses
    ref = stage.refs[0]
    [room] = [m.refs[0] for m in ref.modifiers if m.kind == "in_room"]
    assert ref.head == "corner" and room.head == "bedroom"
    assert [m.rank for m in room.modifiers] == ["largest"]


def test_how_long_to_stay_is_noted() -> None:
    p = parse_instruction("Could you get yourself over to the armchair nearest the TV? Wait "
                          "there until I say so.")
    assert route_summary(p) == [("goal", "arm_chair")]
    assert any("how long to stay" in m["about"] for m in _frames(p.instruction))


def test_unlisted_verb_in_the_motion_frame() -> None:
    p = parse_instruction("Scurry over to the laundry hamper.")
    assert route_summary(p) == [("goal", "laundry_hamper")]
    assert "scurry" in _frames(p.instruction)[0]["about"]
    # a verb of looking takes the same frame without going there: not read as motion
    with pytest.raises(ParseError):
        parse_instruction("Look over to the window and go to the sofa.")


def test_towards_needs_the_stop_said_after_it() -> None:
    assert route_summary(parse_instruction("Head towards the window and stop when you get to "
                                           "it.")) == [("goal", "window")]
    with pytest.raises(ParseError):
        parse_instruction("Go towards the window.")


def test_a_gap_to_avoid_is_not_a_midpoint() -> None:
    p = parse_instruction("Go to the bed but avoid the area between the sofa and the TV.")
    assert route_summary(p) == [("goal", "bed"), ("avoid", "between", "")]


@pytest.mark.parametrize("text", [
    "Don't stop next to the dog bed.",                 # negated: never a stop
    "Leave the dog bed alone and go to the sofa.",     # not a start frame
])
def test_not_read_as_a_frame(text: str) -> None:
    try:
        p = parse_instruction(text)
    except ParseError:
        return
    assert ("goal", "dog_bed") not in route_summary(p)
    assert all("dog bed" not in c for c in p.context)
