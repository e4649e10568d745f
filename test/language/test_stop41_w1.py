"""Stop 41 mends (W1): wrong parses of sets AY and BA, each form written another way."""

from __future__ import annotations

import pytest

from map2route.language.fresh import read_route


@pytest.mark.parametrize("text", [
    "Go into the bedroom that doesn't have a TV and go to the dresser in there.",
    "Head into the bedroom that does not contain a TV, then go to the dresser in there.",
    "Walk into the bedroom which doesn't have a television and stop at the dresser in there.",
    "Go into the bedroom that has no TV and go to the dresser in there.",
])
def test_a_room_said_without_a_thing_is_where_the_stop_in_there_is(text: str) -> None:
    # AY14: the "not" of "that does not have" was taken for a keep-clear rule, so "in there"
    # became a scope ("while you are in the bedroom") and the room a stage of its own
    assert read_route(text) == [("goal", "dresser")]


@pytest.mark.parametrize("text", [
    "Fridge please. Go to the fridge and wait there.",
    "fridge pls. go to fridge and wait there, I come soon with the shopping bags, heavy heavy",
    "The sofa, please! Head over to the sofa.",
    "Sofa now please. Walk to the sofa and stop there.",
])
def test_a_terse_request_said_again_in_full_is_one_stop(text: str) -> None:
    # BA01: the fragment and the full sentence after it were two stops at one thing
    assert len(read_route(text)) == 1


@pytest.mark.parametrize("text", ["Fridge please. Go to the fridge again.",
                                  "Fridge please. Go back to the fridge."])
def test_a_second_visit_asked_for_after_a_terse_request_is_kept(text: str) -> None:
    assert read_route(text) == [("goal", "fridge"), ("goal", "fridge")]
