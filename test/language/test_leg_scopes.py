"""Rules scoped to a leg of the route named by its ends, its order or what happens on it, read
by :mod:`map2route.language.parser.leg_scopes`: "on the way back to X", "on that last bit back
to X", "in the second part of the way", "on the leg between A and B", "for the part from dog bed
to fridge", "from X on (to Y)", "after you grab X", "until you've got X", "while you're doing
it" (the whole route), "while you're crossing that one" (a room said before), "..., but on the
way keep ...", and "as you leave the R" where the rule's thing is in another room (the leg).

The class table ``breadth_leg_scopes.json`` (LS001-LS035 written before the fix, LSB01-LSB10
after it) keeps a floor here, with no silent drop and every refusal naming a span."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route as _route
from map2route.language.fresh import score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"
TABLE = DATA / "breadth_leg_scopes.json"


def test_table_floor_no_silent_drops_and_named_refusals() -> None:
    scores = score_set(TABLE)
    s = summary(scores)
    assert s["silent_drops"] == 0
    assert s["right"] >= 44, [x for x in scores if not x.right]
    assert all(x.refusal_span for x in scores if x.refused)


@pytest.mark.parametrize(("text", "want"), [
    # the way back to a stop: the leg that ends there
    ("Go to the fridge, then to the toilet, then come back to the sofa. On the way back to the "
     "sofa keep away from the garbage bag.",
     [("goal", "fridge"), ("goal", "toilet"), ("goal", "sofa"), ("far", "garbage_bag", "until:sofa")]),
    # the way back from a stop: the leg after it ("pls" between the scope and its rule)
    ("take the toilet first then the bed and on the way back from the toilet pls keep near the "
     "window",
     [("goal", "toilet"), ("goal", "bed"), ("near", "window", "after:toilet")]),
    # a leg by its order, with its end said
    ("Go to the fridge, then to the sofa, then to the bed. On that last bit to the bed keep your "
     "distance from the cart.",
     [("goal", "fridge"), ("goal", "sofa"), ("goal", "bed"), ("far", "cart", "until:bed")]),
    ("First go to fridge, after go to bed. In the second part of the way please stay far from "
     "the sofa.",
     [("goal", "fridge"), ("goal", "bed"), ("far", "sofa", "until:bed")]),
    # a leg by its ends, articles left out, a "segment"
    ("Go to the dog bed, then the fridge, then the dresser. For the part from dog bed to fridge "
     "please stay near to the cart.",
     [("goal", "dog_bed"), ("goal", "fridge"), ("goal", "dresser"), ("near", "cart", "until:fridge")]),
    ("Go to the fridge, the toilet and then the bed. On the leg between the fridge and the toilet "
     "stay away from the sofa.",
     [("goal", "fridge"), ("goal", "toilet"), ("goal", "bed"), ("far", "sofa", "until:toilet")]),
    ("Navigate to the statue, subsequently to the toilet. For the segment between the statue and "
     "the toilet, remain far from the sofa.",
     [("goal", "statue"), ("goal", "toilet"), ("far", "sofa", "until:toilet")]),
    # "from X on": after X; "from X on to Y": the leg to Y
    ("Go to the sofa and then the fridge. From the sofa on, stay near the window.",
     [("goal", "sofa"), ("goal", "fridge"), ("near", "window", "after:sofa")]),
    ("Stop at the cart, then go on to the front door; from the cart on to the door keep away from "
     "the dog bed.",
     [("goal", "cart"), ("goal", "doorway"), ("far", "dog_bed", "until:doorway")]),
    # a stop said by what is done there
    ("Go to the remote in the living room, then take it to the bed, and after you grab the remote "
     "stay away from the dog bed.",
     [("goal", "remote_control"), ("goal", "bed"), ("far", "dog_bed", "after:remote_control")]),
    ("Go to the remote and then to the bed; until you've got the remote, keep near the window.",
     [("goal", "remote_control"), ("goal", "bed"), ("near", "window", "until:remote_control")]),
    # the whole route
    ("Go to the bed. Keep away from the dog bed while you're doing it.",
     [("goal", "bed"), ("far", "dog_bed", "")]),
    ("go to the bed and the washing machine and the whole time you are doing that keep away from "
     "the dog bed",
     [("goal", "bed"), ("goal", "washing_machine"), ("far", "dog_bed", "")]),
    # a room said before
    ("Go through the living room, don't stop there, and while you're crossing that one keep away "
     "from the cart. Then stop at the bed.",
     [("pass", "living_room"), ("goal", "bed"), ("far", "cart", "in:living_room")]),
    # "but" opening a scoped rule: the scope is kept (was lost, 'but' left unread)
    ("Go to the sink and then the stool, but on the way don't go near the toilet.",
     [("goal", "sink"), ("goal", "stool"), ("far", "toilet", "until:stool")]),
    ("Go to the sink and then the stool, but until you reach the sink keep your distance from "
     "the toilet.",
     [("goal", "sink"), ("goal", "stool"), ("far", "toilet", "until:sink")]),
    # leaving a room: in it, as the sets write it; the leg where the thing is elsewhere
    ("Go to the fridge in the kitchen, then to the bed. As you leave the kitchen keep away from "
     "the garbage bag.",
     [("goal", "fridge"), ("goal", "bed"), ("far", "garbage_bag", "in:kitchen")]),
    ("Go to the fridge in the kitchen, then to the bed. As you leave the kitchen keep away from "
     "the sofa in the living room.",
     [("goal", "fridge"), ("goal", "bed"), ("far", "sofa", "until:bed")]),
])
def test_leg_scopes(text: str, want: list[tuple[str, ...]]) -> None:
    got = _route(text)
    assert [tuple(x.replace("_", "") for x in g) for g in got] == \
        [tuple(x.replace("_", "") for x in w) for w in want]


@pytest.mark.parametrize("text", [
    # a piece-of-walk noun that is no leg, and an order word no rule reads: still refused
    "Go to the fridge, then the sofa, then the bed. On the middle leg keep away from the cart.",
    "Go to the bed. Keep away from the dog bed while you're doing the dishes.",
])
def test_still_refused(text: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert getattr(err.value, "word", "")


@pytest.mark.parametrize("text", [
    # not scopes: left as they were
    "Go to the sink but after that go to the stool.",
    "Go from the sofa to the fridge.",
])
def test_not_scopes(text: str) -> None:
    p = parse_instruction(text)
    assert all(c.during is None for c in p.clauses)
