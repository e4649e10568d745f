"""A room said as where to go, then the thing in it said as the stop (round J, class J2), read
by :mod:`map2route.language.parser.room_then_thing`: "go to the bedroom with the most books and
wait by the window in there", "Go through the kitchen into the living room and check on the
window in there", "the loo off the bedroom ... go to the sink in there", "On the way to the
lamp" after "go to the desk lamp", "Sofas - keep away from them", "the first bedroom u go thru
on the way, stay away from the tv stand". Floor for the class table
``breadth_room_then_thing.json``, no silent drops, refusals that name a span, and the parse of
each construction (and what must stay two stops or a refusal)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_parse, read_route, score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


def _stages(text: str) -> list[dict[str, Any]]:
    return list(read_parse(text).to_json()["stages"])


def _room_of(ref: dict[str, Any]) -> dict[str, Any]:
    return next(m for m in ref["modifiers"] if m["kind"] == "in_room")["refs"][0]


def test_table_floor_no_silent_drops_and_refusals_name_a_span() -> None:
    scores = score_set(DATA / "breadth_room_then_thing.json")
    s = summary(scores)
    assert s["silent_drops"] == 0
    assert s["right"] >= 36, [x.problems for x in scores if not x.right]
    assert all(x.refusal_span for x in scores if x.refused)


@pytest.mark.parametrize("text, thing, room", [
    ("go to the bedroom with the tennis racket and wait by the window in there",
     "window", "bedroom"),
    ("pls go 2 the lounge n check on the dog bed in there", "dog_bed", "living_room"),
    ("go to the living room n then wait next to the shelf in there", "shelf", "living_room"),
    ("go to the bedroom with the basketball and stop by the tv in that room",
     "television", "bedroom"),
    ("go to the bathroom w the dresser - wait no sorry, the loo off the bedroom that hasnt got "
     "a window. go to the sink in there", "sink", "bathroom"),
    ("Go to the loo with the dresser and stop at the toilet.", "toilet", "bathroom"),
])
def test_room_then_thing_is_one_stage_in_the_room(text: str, thing: str, room: str) -> None:
    stages = _stages(text)
    assert [s["kind"] for s in stages] == ["goal"]
    ref = stages[0]["refs"][0]
    assert ref["head"] == thing
    assert _room_of(ref)["head"] == room


def test_through_a_into_b_keeps_a_as_the_pass() -> None:
    stages = _stages("Start at the bed. Go through the kitchen into the living room and check "
                     "on the window in there, then come back to the bed.")
    assert [(s["kind"], s["refs"][0]["head"]) for s in stages] == [
        ("pass", "kitchen"), ("goal", "window"), ("goal", "bed")]
    assert _room_of(stages[1]["refs"][0])["head"] == "living_room"


def test_restated_stage_by_its_group_word_is_that_stage() -> None:
    route = read_route("Go to the sink, then go to the desk lamp in the bedroom. On the way to "
                       "the lamp stay close to the sofa.")
    assert route == [("goal", "sink"), ("goal", "desk_lamp"), ("near", "sofa", "until:desklamp")]


@pytest.mark.parametrize("text, head", [
    ("Go to the toilet. Sofas - keep away from them, both directions.", "sofa"),
    ("Chairs: don't go near them. Go to the window in the kitchen.", "chair"),
])
def test_plural_topic_rule_is_a_rule_not_a_stage(text: str, head: str) -> None:
    route = read_route(text)
    assert [r for r in route if r[0] == "goal" and r[1] == head] == []
    assert ("far", head, "") in route


def test_room_topic_of_a_rule_is_its_scope() -> None:
    js = read_parse("need u at the armchair. the first bedroom u go thru on the way, stay away "
                    "from the tv stand").to_json()
    assert [s["refs"][0]["head"] for s in js["stages"]] == ["arm_chair"]
    far = next(c for c in js["constraints"] if c["kind"] == "far")
    assert far["spatial_scope"]["head"] == "bedroom"


@pytest.mark.parametrize("text, stages", [
    # a bare "then" or a new sentence without "in there" keeps two stops (the sets' reading)
    ("Run to the bathroom then run over to the bed", ["bathroom", "bed"]),
    ("Go to the kitchen. When you get there, go to the toaster.", ["kitchen", "toaster"]),
    # the loo with no room words is the toilet
    ("go to the loo and stop at the sink", ["toilet", "sink"]),
    ("go to the loo next to the sink and then the bed", ["toilet", "bed"]),
])
def test_still_two_stops(text: str, stages: list[str]) -> None:
    assert [s["refs"][0]["head"] for s in _stages(text)] == stages


@pytest.mark.parametrize("text", [
    "go to the bedroom with the glowing lamp and wait by the window in there",
    "Toilets - keep away from both of them. Go to the fridge.",
])
def test_still_refused_with_a_span(text: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert err.value.word


def test_destination_room_said_again_as_the_last_stops_room() -> None:
    route = read_route("Go through to the big bedroom. On the way, stop at the toilet in the first "
                       "bathroom you go through, and finish at the dresser in the big bedroom.")
    assert [r[:2] for r in route] == [("goal", "toilet"), ("goal", "dresser")]
