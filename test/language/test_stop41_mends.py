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
    # leaving a room said of a stop is still no visit to it ("after leaving the kitchen" said
    # of a stop is read as a visit first, as before this stop: left as it was)
    if leave != "after leaving":
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
