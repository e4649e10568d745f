"""Mends of stop 42: a place that leads a sentence, and leaving a room said after a stop."""

from __future__ import annotations

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_parse, read_route


def test_leaving_a_room_after_a_stop_is_reported_never_a_visit() -> None:
    text = "Go to the fridge after leaving the kitchen."
    assert read_route(text) == [("goal", "fridge")]
    assert any("after leaving the kitchen" in c for c in read_parse(text).context)
    # visiting a thing first is still a stop first
    assert read_route("Go to the desk after visiting the chair.") == [("goal", "chair"),
                                                                      ("goal", "desk")]


def test_a_leading_place_scopes_every_rule_of_its_sentence() -> None:
    # the rule after the pass lost the bedroom and held on the whole route (AY20)
    assert read_route("Go to the toilet. In the kitchen, go past the fridge and keep away "
                      "from the bin.") == [("goal", "toilet"), ("pass", "fridge"),
                                           ("far", "garbage_can", "in:kitchen")]


def test_a_stop_elsewhere_ends_the_leading_place() -> None:
    assert read_route("In the kitchen, go to the fridge, then go to the bed and keep away "
                      "from the sofa.") == [("goal", "fridge"), ("goal", "bed"),
                                            ("far", "sofa", "")]


def test_a_pass_in_a_room_met_on_the_way_comes_before_the_goal() -> None:
    text = ("Go to the toilet. In the bedroom you walk through on the way, go past the alarm "
            "clock, and keep away from the bed.")
    assert read_route(text) == [("pass", "alarm_clock"), ("goal", "toilet"),
                                ("far", "bed", "in:bedroom")]
    # "Then, in ..." goes on from the goal: after it
    assert read_route("Go to the toilet. Then, in the first bedroom you come to, go past the "
                      "lamp.") == [("goal", "toilet"), ("pass", "lamp")]


@pytest.mark.parametrize("text", ["ok so", "now then,", "um", "right so.", "Hi robot.",
                                  "alright, alright", "uh... um", "to", "Go. To"])
def test_an_instruction_of_fillers_alone_is_refused_not_a_crash(text: str) -> None:
    # a sentence of openers only ran scene_sets past its end, and a closing 'to' errand_reach
    # (IndexError, a bare traceback)
    with pytest.raises(ParseError, match="say where to go|did not understand"):
        read_route(text)


@pytest.mark.parametrize(("rule", "head"), [
    ("Keep 40cm from the sofa.", "sofa"),  # a distance typed without its space
    ("Keep 0.5m away from the sofa.", "sofa"),
    ("Keep a good metre away from the sofa.", "sofa"),
    ("Give the dog bed at least half a metre the whole time, she's asleep on it.", "dog_bed"),
    ("Give the sofa 40cm.", "sofa"),
    ("Mind the basketball.", "basket_ball"),  # a caution opening its own sentence
    ("Mind the basketball, it rolls.", "basket_ball")])
def test_kept_distances_and_cautions_said_other_ways(rule: str, head: str) -> None:
    assert read_route(f"Go to the bed. {rule}") == [("goal", "bed"), ("far", head, "")]


def test_mind_you_is_no_caution() -> None:
    assert read_route("Go to the bed. Mind you, the sofa is nice.") == [("goal", "bed")]


def test_glued_units_and_stutters_are_tokenized_apart() -> None:
    from map2route.language.tokens import tokenize

    assert [(t.text, t.start, t.end) for t in tokenize("40cm, 1.5m")] == [
        ("40", 0, 2), ("cm", 2, 4), (",", 4, 5), ("1.5", 6, 9), ("m", 9, 10)]
    assert [t.text for t in tokenize("4m2 room")] == ["4m2", "room"]
    # "the, the": one word spanning both
    assert [(t.text, t.start, t.end) for t in tokenize("in the, the bath")][1] == ("the", 3, 11)


def test_a_full_lap_and_coming_back_out_before_a_request() -> None:
    assert read_route("Go to the bed and do one full lap round the table in there.") == [
        ("goal", "bed"), ("circle", "table")]
    assert read_route("Go to the plunger, then come back out and park yourself next to the "
                      "cart.") == [("goal", "plunger"), ("goal", "cart")]


@pytest.mark.parametrize("lead", ["Oh and, in there,", "And in there,", "Oh, and in there,",
                                  "In there,"])
def test_in_there_after_a_filler_keeps_its_room(lead: str) -> None:
    # "Oh and, in there, ..." lost the room: a whole-house rule, read as answered (BC20)
    assert read_route(f"Go to the desk in the bedroom. {lead} keep away from the TV.") == [
        ("goal", "desk"), ("far", "television", "in:bedroom")]
    assert read_route("Go to the desk in the bedroom, and in there, keep away from the "
                      "TV.") == [("goal", "desk"), ("far", "television", "in:bedroom")]
