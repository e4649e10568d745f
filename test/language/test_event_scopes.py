"""Rules scoped by an event of the route said with a motion verb or a condition, read by
:mod:`map2route.language.parser.event_scopes` and the scope lexicon: "if you come in through the
living room, don't ...", "as you come back out of the bathroom", "as you come into the
bathroom", "on entering the R", "once you've left the X and you're heading to the Y", "on your
way through the R", "the whole way round", "both directions", "all the time"; "while you're in
there" with no room named before it is refused, not read over the whole route.

The class table ``breadth_event_scopes.json`` (ES001-ES030 written before the fix, ESB01-ESB10
after it) keeps a floor here, with no silent drop and every refusal naming a span."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route as _route
from map2route.language.fresh import score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"
TABLE = DATA / "breadth_event_scopes.json"


def test_table_floor_no_silent_drops_and_named_refusals() -> None:
    scores = score_set(TABLE)
    s = summary(scores)
    assert s["silent_drops"] == 0
    assert s["right"] >= 37, [x for x in scores if not x.right]
    assert all(x.refusal_span for x in scores if x.refused)


@pytest.mark.parametrize(("text", "want"), [
    # passing through a room, said as a condition or an event: the rule holds in that room
    ("Go to the fridge. If you come in through the living room, don't run over the cart.",
     [("goal", "fridge"), ("avoid", "cart", "in:livingroom")]),
    ("fridge pls. if u cut thru the living room dont go near the tv",
     [("goal", "fridge"), ("far", "television", "in:livingroom")]),
    ("Go to the kettle. If you go through the living room, keep away from the laptop.",
     [("goal", "kettle"), ("far", "laptop", "in:livingroom")]),
    ("Go to the kettle. Stay away from the cart on your way through the living room.",
     [("goal", "kettle"), ("far", "cart", "in:livingroom")]),
    # entering a room: the time in it
    ("Go to the teddy bear, then the toilet. As you come into the bathroom, keep away from the "
     "plunger.",
     [("goal", "teddy_bear"), ("goal", "toilet"), ("far", "plunger", "in:bathroom")]),
    ("Proceed to the dresser. On entering the living room, give the cart a wide berth.",
     [("goal", "dresser"), ("far", "cart", "in:livingroom")]),
    # coming back out of a room: after the stop made there (said in it, or only found in it)
    ("Head to the toilet, then the sofa. As you come back out of the bathroom, keep away from "
     "the washing machine.",
     [("goal", "toilet"), ("goal", "sofa"), ("far", "washing_machine", "after:toilet")]),
    ("Go to the box in the bedroom, then the sofa. Once you've come out of the bedroom, stay "
     "away from the cart.",
     [("goal", "box"), ("goal", "sofa"), ("far", "cart", "after:box")]),
    # the speaker's start is no stop made there: the room left, read in that room
    ("You're starting at the toilet. Go to the sofa. As you come out of the bathroom, keep away "
     "from the plunger.",
     [("goal", "sofa"), ("far", "plunger", "in:bathroom")]),
    # leaving a stop on the way to the next (named) one: after that stop
    ("Go to the sofa, then the toilet. Once you've left the sofa and you're heading to the "
     "toilet, give the dog bed a wide berth.",
     [("goal", "sofa"), ("goal", "toilet"), ("far", "dog_bed", "after:sofa")]),
    # the whole route
    ("Go to the fridge, then the bed. Keep away from the cart the whole way round.",
     [("goal", "fridge"), ("goal", "bed"), ("far", "cart", "")]),
    ("Go to the toilet and then back to the sofa. Keep away from the plunger in both directions.",
     [("goal", "toilet"), ("goal", "sofa"), ("far", "plunger", "")]),
])
def test_event_scopes(text: str, want: list[tuple[str, ...]]) -> None:
    assert _route(text) == want


def test_a_condition_with_a_stop_is_not_a_scope() -> None:
    """Only an event followed by a rule is a scope: "if you go through the kitchen, go to the
    fridge" is not turned into a rule's room."""
    try:
        got = _route("If you go through the kitchen, go to the fridge.")
    except ParseError:
        return
    assert all(not (len(c) == 3 and c[2] == "in:kitchen") for c in got), got


@pytest.mark.parametrize("text", [
    # no room named before "in there": the rule's room cannot be placed
    "Go to the laptop in the same room as the basketball. And don't go near the TV stand while "
    "you're in there.",
    "Go to the kettle and while you're in there stay away from the telly",
])
def test_unplaced_room_is_refused_naming_the_span(text: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert err.value.span is not None
    assert "there" in text[err.value.span[0]:err.value.span[1]]


def test_in_there_after_a_room_still_reads() -> None:
    assert _route("Go to the kettle in the kitchen. While you are in there, stay away from the "
                  "telly.") == [("goal", "kettle"), ("far", "television", "in:kitchen")]
