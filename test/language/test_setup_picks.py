"""Set-up sentences that introduce a set of things, then a pick from it, read by
:mod:`map2route.language.parser.set_picks`: "There are two chairs at the table in the bedroom
with the teddy bear. Go to whichever one is closer to the bed.", "the kitchen table's got a
bunch of chairs round it, go to the one ...", "There are two bedrooms with a window. Go to
whichever of their beds is bigger.", "The X is in one of the rooms, and there's a Y in that
same room. Go to that Y."; and picks by size (floor area). Floors for the class table
``breadth_setup_picks.json`` and the sets it came from, no silent drops, refusals that name a
span, and the parse of each new construction."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_parse
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


def _parse(text: str) -> dict[str, Any]:
    return read_parse(text).to_json()


def _mods(ref: dict[str, Any]) -> dict[str, Any]:
    """Modifier kind -> the modifier (the last of each kind)."""
    return {m["kind"]: m for m in ref.get("modifiers", [])}


# the floors of this round's sets and table: test_human.py, test_round_sets_floor_and_no_silent_drops


def test_whichever_one_takes_the_set_and_its_place() -> None:
    js = _parse("There are two chairs at the table in the bedroom with the teddy bear. "
                "Go to whichever one is closer to the bed.")
    assert [s["kind"] for s in js["stages"]] == ["goal"]
    ref = js["stages"][0]["refs"][0]
    assert ref["head"] == "chair"
    mods = _mods(ref)
    assert mods["next_to"]["refs"][0]["head"] == "table"
    assert mods["rank"]["rank"] == "nearest" and mods["rank"]["refs"][0]["head"] == "bed"
    assert js["context"] == ["there are two chairs at the table in the bedroom with the teddy bear"]


def test_the_one_after_a_counted_set_with_a_tag() -> None:
    js = _parse("ok so there's two tables in this house, right? "
                "Go to the one that hasn't got a plant on it.")
    ref = js["stages"][0]["refs"][0]
    assert ref["head"] == "table"
    assert _mods(ref)["with"]["negated"] is True


def test_a_thing_that_has_the_set() -> None:
    js = _parse("right so the kitchen table's got a bunch of chairs round it, "
                "go to the one that's closest to the front door.")
    ref = js["stages"][0]["refs"][0]
    assert ref["head"] == "chair"
    assert _mods(ref)["next_to"]["refs"][0]["head"] == "dining_table"
    js = _parse("The kitchen contains five chairs. Proceed to the one that is farthest from "
                "the fridge.")
    mods = _mods(js["stages"][0]["refs"][0])
    assert mods["in_room"]["refs"][0]["head"] == "kitchen"
    assert mods["rank"]["rank"] == "farthest"


def test_their_things_and_size() -> None:
    js = _parse("There are two bedrooms with a window. Go and stand beside whichever of their "
                "beds is bigger.")
    ref = js["stages"][0]["refs"][0]
    assert ref["head"] == "bed"
    mods = _mods(ref)
    assert mods["rank"]["rank"] == "largest"
    assert mods["in_room"]["refs"][0]["head"] == "bedroom"
    js = _parse("Now, there are three beds in this house, dear, and I'd like you to go to the "
                "smallest of them.")
    assert _mods(js["stages"][0]["refs"][0])["rank"]["rank"] == "smallest"


def test_set_on_a_thing_said_just_before() -> None:
    js = _parse("There's a table in the bedroom with the armchair, and on that table there are "
                "two lamps. Go to whichever of those two lamps is nearer the bed.")
    ref = js["stages"][0]["refs"][0]
    assert ref["head"] == "lamp"
    assert _mods(ref)["on"]["refs"][0]["head"] == "table"


def test_that_same_room() -> None:
    js = _parse("The baseball bat is in one of the rooms, and there's a dog bed in that same "
                "room. Go to that dog bed please.")
    ref = js["stages"][0]["refs"][0]
    assert ref["head"] == "dog_bed"
    room = _mods(ref)["in_room"]["refs"][0]
    assert _mods(room)["with"]["refs"][0]["head"] == "baseball_bat"


def test_set_up_before_a_named_member_is_context() -> None:
    js = _parse("There are a few tables around the house, so just to be clear: I want you at "
                "the dining table that doesn't have a lamp on it.")
    assert [s["refs"][0]["head"] for s in js["stages"]] == ["dining_table"]
    assert js["context"][0].startswith("there are a few tables")


def test_a_pick_found_then_measured_from() -> None:
    js = _parse("In the bedroom that has two windows there are two beds; find the bigger of the "
                "two, and then go to whichever chair is nearest to it.")
    assert [s["refs"][0]["head"] for s in js["stages"]] == ["chair"]
    near = _mods(js["stages"][0]["refs"][0])["rank"]["refs"][0]
    assert near["head"] == "bed" and _mods(near)["rank"]["rank"] == "largest"


def test_named_member_keeps_the_set_place() -> None:
    js = _parse("There are two chairs in the kitchen. Go to the chair nearest the fridge.")
    mods = _mods(js["stages"][0]["refs"][0])
    assert mods["in_room"]["refs"][0]["head"] == "kitchen"
    assert mods["rank"]["refs"][0]["head"] == "fridge"


def test_several_picks_from_one_set() -> None:
    js = _parse("There are three lamps in the house. Go to the one closest to the front door "
                "first, then the one on the dresser.")
    assert [s["refs"][0]["head"] for s in js["stages"]] == ["lamp", "lamp"]


@pytest.mark.parametrize("text", [
    "There are two chairs in the kitchen. Go to whichever one is comfier.",
    "There are two chairs in the kitchen. Go to the one that is comfier.",
    "There are two floor lamps in the little lounge; go to the prettier one.",
    "There are two floor lamps in the lounge. Go to the taller one.",
    "Go to the taller of the two floor lamps.",
])
def test_still_refused_naming_the_word(text: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert err.value.word


@pytest.mark.parametrize("text", [
    "There are two chairs in the kitchen. Go to that one.",
    "There are two chairs in the kitchen. Go to the chair.",
])
def test_a_pick_that_does_not_single_one_out_is_refused(text: str) -> None:
    with pytest.raises(ParseError):
        parse_instruction(text)


def test_a_set_up_alone_is_no_route() -> None:
    with pytest.raises(ParseError):
        parse_instruction("There are two chairs in the kitchen.")
