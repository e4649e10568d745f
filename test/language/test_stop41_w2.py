"""Stop 41, helper W2: wrong parses of sets AX-BA mended, each written another way."""

from __future__ import annotations

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route

_TO_TOILET = " After that, go to the bathroom and stop at the toilet. "


@pytest.mark.parametrize("text", [
    "Go into the lounge and stop at the floor lamp." + _TO_TOILET +
    "As you head out of the lounge, keep away from the sofa.",
    "Go into the living room and stop at the floor lamp." + _TO_TOILET +
    "As you come out of the living room, keep away from the sofa.",
    "Head to the lounge, then wait by the floor lamp, then go to the toilet. "
    "When you get out of the lounge, stay away from the sofa.",
    "Walk into the lounge and stop next to the floor lamp." + _TO_TOILET +
    "Once you head out of the lounge, keep clear of the sofa.",
])
def test_leaving_the_room_of_a_stop_is_the_leg_after_it(text: str) -> None:
    # AX22: the stop made on entering the room ("go into the lounge and stop at the floor
    # lamp") is the stop that "head out of the lounge" leaves; it was read in the lounge
    route = read_route(text)
    assert route[:2] == [("goal", "floor_lamp"), ("goal", "toilet")]
    assert route[2][0] == "far" and route[2][1] == "sofa"
    assert route[2][2].replace("_", "") == "after:floorlamp"
