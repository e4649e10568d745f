"""Mends of stop 41: forms the rules read, written another way."""

from __future__ import annotations

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route


@pytest.mark.parametrize("arrival", ["Once you have reached", "Once you've reached",
                                     "Once you\u2019ve reached", "Once you reach",
                                     "When you get to"])
def test_an_arrival_said_with_a_contraction_is_no_second_stop(arrival: str) -> None:
    # "you've" is written without a space: the arrival rule read only "you have"
    text = f"Go to the bed. {arrival} the bed, come back to the fridge."
    assert read_route(text) == [("goal", "bed"), ("goal", "fridge")]


@pytest.mark.parametrize("leave", ["after you leave", "after you've left", "after leaving"])
def test_a_rule_said_before_leaving_a_room_holds_after_it(leave: str) -> None:
    # "after you leave the kitchen" after a rule was reported as words about the way and the
    # rule lost its scope (a whole-route rule: wrong, and it looked answered)
    text = f"Go to the sofa. Keep away from the TV {leave} the kitchen."
    assert read_route(text) == [("goal", "sofa"), ("far", "television", "after:kitchen")]
    # leaving a room said of a stop is still no visit to it (stop 42: "after leaving" too)
    assert read_route(f"Go to the fridge {leave} the kitchen.") == [("goal", "fridge")]


def test_a_leg_to_a_stop_the_route_lacks_is_refused_by_name() -> None:
    two = "Go to the sofa, then the bed. "
    with pytest.raises(ParseError) as err:
        read_route(two + "On the way to the third stop, keep away from the TV.")
    assert "stop 3 of a route with 2" in str(err.value)
    assert err.value.word == "keep away from the TV"
    assert read_route(two + "On the way to the second stop, keep away from the TV.")[-1] == (
        "far", "television", "until:bed")


def test_a_lap_counts_as_a_stop_when_legs_are_numbered() -> None:
    # "Do a loop round the table first, then the bed. On that second bit, ...": the lap is the
    # first stop, so the second leg ends at the bed (it was refused once the count checked)
    assert read_route("Circle the table, then go to the bed. On the way to the second stop "
                      "keep away from the TV.")[-1] == ("far", "television", "until:bed")
    assert read_route("Go to the sofa, then circle the table, then go to the bed. On the way "
                      "to the second stop keep away from the TV.")[-1] == (
        "far", "television", "until:table")


@pytest.mark.parametrize(("text", "route"), [
    # a dwell verb the rules' lists lack, as a request: read as "wait"
    ("Go and sit by the sofa, then go to the bed.", [("goal", "sofa"), ("goal", "bed")]),
    ("Sit by the sofa, then go to the bed.", [("goal", "sofa"), ("goal", "bed")]),
    ("Go and sit by the bigger of the two couches for a sec, then head over to the smaller of "
     "the two armchairs.", [("goal", "sofa"), ("goal", "arm_chair")]),
    # particles stacked between a verb of coming and where to
    ("I'm on the couch. Go to the toaster and then come back over to me.",
     [("goal", "toaster"), ("goal", "sofa")]),
    ("I'm on the couch. Go to the toaster and then come back over here to me.",
     [("goal", "toaster"), ("goal", "sofa")]),
    ("Head on over to the desk.", [("goal", "desk")]),
    ("Go to the desk. Keep away from the TV while you're heading over to the desk.",
     [("goal", "desk"), ("far", "television", "until:desk")]),
    # the speaker's own "sitting" is their place, not a request
    ("I'm sitting on the couch. Come back to me.", [("goal", "sofa")]),
])
def test_verb_forms_the_rules_read_under_one_spelling(text: str,
                                                      route: list[tuple[str, ...]]) -> None:
    assert read_route(text) == route


@pytest.mark.parametrize("between", ["Between those two stops", "Between the two stops"])
def test_between_the_two_stops_is_the_leg_that_joins_them(between: str) -> None:
    # was reported as context and the rule held on the whole route (AY11, once "sit" read)
    text = f"Go to the sofa, then go to the armchair. {between}, keep away from the bin."
    assert read_route(text)[-1] == ("far", "garbage_can", "until:armchair")
    with pytest.raises(ParseError):
        read_route(f"Go to the sofa. {between}, keep away from the bin.")
