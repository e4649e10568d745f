"""Introductions of a thing or a set before the pick, read by
:mod:`map2route.language.parser.set_intros` (then :mod:`.set_picks`): "You know the X? Go to
the Y in that same room.", "We've got two of those desk lamps. I want you at the one on the
dresser, not the one on the dining table.", "The bins: there are four of them.", "stop at one
of the lamps on the dresser; there are three of them, I want the one closest to the bed",
"Not the one in X, the one in Y.", "Two of the bathrooms have candles in them.", "the odd one
out, the one in the bedroom". Floor for the class table ``breadth_set_picks.json``, no silent
drops, refusals that name a span, and the parse of each new construction: the pick is one
stage (or one constraint's thing), the introduction is context, never a stage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_parse, score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


def _parse(text: str) -> dict[str, Any]:
    return read_parse(text).to_json()


def _mods(ref: dict[str, Any]) -> dict[str, Any]:
    return {m["kind"]: m for m in ref.get("modifiers", [])}


def _stages(js: dict[str, Any]) -> list[tuple[str, str]]:
    return [(s["kind"], s["refs"][0]["head"]) for s in js["stages"]]


def test_table_floor_and_no_silent_drops() -> None:
    scores = score_set(DATA / "breadth_set_picks.json")
    s = summary(scores)
    assert s["silent_drops"] == 0
    assert s["right"] >= FLOOR
    for sc in scores:
        if sc.refused:
            assert sc.refusal_span, sc


#: The table's count after the fix (first contact 18/35 before it, 32/35 after; with the
#: second batch SPB01-SPB10, 7/10 at first contact: 39/45).
FLOOR = 39


def test_you_know_the_thing_is_context_not_a_stage() -> None:
    js = _parse("You know the dining table that's got a little desk lamp on it? "
                "Go to the dog bed in that same room.")
    assert _stages(js) == [("goal", "dog_bed")]
    assert "you know" in js["context"]
    js = _parse("you know the tv stand in the living room with no window yeah go stand next to it")
    assert [s["kind"] for s in js["stages"]] == ["goal"]
    mention = [c for c in js["constraints"] if c["kind"] == "mention"]
    assert mention and mention[0]["refs"][0]["head"] == "tv_stand"


def test_remember_the_room_then_a_thing_in_it() -> None:
    js = _parse("Remember the bedroom with the safe? Go to the armchair in there.")
    assert _stages(js) == [("goal", "arm_chair")]
    assert _mods(js["stages"][0]["refs"][0])["in_room"]["refs"][0]["head"] == "bedroom"


def test_we_have_got_two_of_those() -> None:
    js = _parse("We've got two of those little desk lamps. I want you at the one sitting on "
                "top of a dresser, not the one on the dining table.")
    assert _stages(js) == [("goal", "desk_lamp")]
    assert "there are two little desk lamps" in js["context"]
    js = _parse("We've got two desk lamps. Go to the one on the dresser, not the one on the "
                "dining table.")
    ref = js["stages"][0]["refs"][0]
    assert ref["head"] == "desk_lamp" and _mods(ref)["on"]["refs"][0]["head"] == "dresser"


def test_there_are_n_of_them_after_a_header_is_one_stage() -> None:
    js = _parse("The bins: there are four of them. I want you at the one in the bedroom.")
    assert _stages(js) == [("goal", "garbage_can")]
    assert _mods(js["stages"][0]["refs"][0])["in_room"]["refs"][0]["head"] == "bedroom"


def test_one_of_the_set_then_n_of_them_then_the_pick() -> None:
    js = _parse("Go out into the bedroom and stop at one of the desk lamps on the dresser; "
                "there are three of them, I want the one closest to the bed. After that, go to "
                "the window.")
    assert _stages(js) == [("goal", "desk_lamp"), ("goal", "window")]
    mods = _mods(js["stages"][0]["refs"][0])
    assert mods["on"]["refs"][0]["head"] == "dresser"
    assert mods["rank"]["rank"] == "nearest" and mods["rank"]["refs"][0]["head"] == "bed"


def test_not_the_one_then_the_one_in_the_same_sentence() -> None:
    js = _parse("Go to the plunger in the bathroom, not the one in the bathroom with the "
                "dresser, the one in the bathroom with two candles.")
    assert _stages(js) == [("goal", "plunger")]
    assert "not the one in the bathroom with the dresser" in js["context"]


def test_from_the_two_and_a_room_that_is_bigger() -> None:
    js = _parse("From the two sinks in this house, go to the one in the bathroom that is "
                "bigger.")
    assert _stages(js) == [("goal", "sink")]
    room = _mods(js["stages"][0]["refs"][0])["in_room"]["refs"][0]
    assert room["head"] == "bathroom" and _mods(room)["rank"]["rank"] == "largest"


def test_room_with_a_counted_set_then_the_bigger_of_the_two() -> None:
    js = _parse("you know the bedroom with the two beds in it go stand by the bigger of the two")
    assert _stages(js) == [("goal", "bed")]
    assert _mods(js["stages"][0]["refs"][0])["rank"]["rank"] == "largest"


def test_two_of_the_rooms_have_and_the_odd_one_out() -> None:
    js = _parse("Two of the living rooms have a dresser. Go to the dresser in the one that has "
                "the armchairs.")
    assert _stages(js) == [("goal", "dresser")]
    js = _parse("Three armchairs in this house. Two of them sit in the living room. Go to the "
                "odd one out, the one in the bedroom.")
    assert _stages(js) == [("goal", "arm_chair")]
    assert "the odd one out" in js["context"]


def test_room_topic_then_in_there_is_not_a_stage() -> None:
    js = _parse("we have 3 bedrooms. the one with no bed in it, go to the window in there")
    assert _stages(js) == [("goal", "window")]
    assert _mods(js["stages"][0]["refs"][0])["in_room"]["refs"][0]["head"] == "bedroom"


def test_not_the_one_with_the_other_one_on_a_constraint() -> None:
    js = _parse("go to the fridge and dont get near the dining table you know not the one with "
                "the lamp on it the other one")
    far = [c for c in js["constraints"] if c["kind"] == "far"]
    assert _stages(js) == [("goal", "fridge")] and len(far) == 1
    ref = far[0]["refs"][0]
    assert ref["head"] == "dining_table" and _mods(ref)["with"]["negated"] is True


@pytest.mark.parametrize("text", [
    # which table "not the one with the lamp" is said of is not clear after a room: refused
    "go to the fridge and dont get near the dining table in the living room with the window "
    "you know not the one with the lamp on it the other one",
    # a pick by what the map cannot check
    "We've got two desk lamps. Go to the prettier one.",
    "You know the sofa? Go to the comfy one.",
])
def test_still_refused_with_a_span(text: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert err.value.word
