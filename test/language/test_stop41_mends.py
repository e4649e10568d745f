"""Mends of stop 41: forms the rules read, written another way."""

from __future__ import annotations

import pytest

from map2route.language.fresh import read_route


@pytest.mark.parametrize("arrival", ["Once you have reached", "Once you've reached",
                                     "Once you\u2019ve reached", "Once you reach",
                                     "When you get to"])
def test_an_arrival_said_with_a_contraction_is_no_second_stop(arrival: str) -> None:
    # "you've" is written without a space: the arrival rule read only "you have"
    text = f"Go to the bed. {arrival} the bed, come back to the fridge."
    assert read_route(text) == [("goal", "bed"), ("goal", "fridge")]
