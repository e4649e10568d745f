"""Paradigm grid for route-order references: a room or thing picked by when the robot meets it
on the route ("the second bedroom you come to", "the first bathroom you'll walk through on the
way", "the third bedroom along").

The axes were written as a speaker says them, before the parser's rules for this family were
read; the generator crosses them into whole instructions with their gold route (the
``read_route`` form). ``None`` as gold means the cell must be refused: a room placed after
another room ("the first bedroom you come to after the kitchen") used as a stop or as the place
of a stop is a pick no grounding verb checks, so the parser refuses it (see
``test_house_walks.test_still_refused_and_named``); as the scope of a rule it is just the room.

The product is sampled (seeded, deterministic) to ``SAMPLE`` cells. The test keeps a floor of
cells right, no wrong cell, no silent drop, and a named span on every refusal.
"""

from __future__ import annotations

import itertools
import random

import pytest
from grid_grading import assert_grid, by_equality, grade

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route
from map2route.language.parser import parse_instruction

ORDINALS = ["first", "second", "third", "next", "last"]

# (as said, scope head, a thing in it)
ROOMS = [
    ("bedroom", "bedroom", "bed"),
    ("bathroom", "bathroom", "toilet"),
    ("living room", "livingroom", "sofa"),
    ("lounge", "livingroom", "sofa"),
]

# verb as said after a subject, and its bare participle (None: no natural participle)
VERBS = [
    ("come to", None),
    ("reach", "reached"),
    ("walk into", "walked into"),
    ("enter", "entered"),
    ("go into", None),
    ("pass through", "passed through"),
    ("go through", "gone through"),
    ("get to", None),
    ("hit", None),
    ("cut through", None),
    ("pass", "passed"),
    ("walk through", "walked through"),
    ("along", None),  # "the third bedroom along": no verb, no subject
]

SUBJECTS = ["you", "you'll", "you will", "you'd", "you would", "you're going to", "PARTICIPLE",
            "that you"]

EXTENTS = ["", "on the way", "on your way there", "from here", "after the kitchen",
           "after you leave the kitchen"]

USES = ["stage_room", "stage_thing", "scope", "place"]

# where the ordinal goes: before the head ("the second bedroom you reach"), after the verb as
# an adverb ("the bedroom you reach second"), or with "whichever" ("whichever bedroom you
# reach first")
ORDERS = ["before", "after", "whichever"]

SAMPLE = 400
SEED = 20261207


def _phrase(ordinal: str, room: str, verb: tuple[str, str | None], subject: str,
            extent: str, order: str) -> str | None:
    said, participle = verb
    if said == "along":
        if subject != "you" or order != "before":
            return None
        core = f"the {ordinal} {room} along"
    elif subject == "PARTICIPLE":
        if participle is None:
            return None
        core = f"{room} {participle}"
    else:
        core = f"{room} {subject} {said}"
    if order == "before":
        core = core if said == "along" else f"the {ordinal} {core}"
    elif order == "after":
        core = f"the {core} {ordinal}"
    else:
        core = f"whichever {core} {ordinal}"
    return f"{core} {extent}".strip()


def _cell(ordinal: str, room: tuple[str, str, str], verb: tuple[str, str | None], subject: str,
          extent: str, use: str, order: str
          ) -> tuple[str, list[tuple[str, ...]] | None] | None:
    said, scope, thing = room
    phrase = _phrase(ordinal, said, verb, subject, extent, order)
    if phrase is None or (use != "scope" and extent == "on your way there"):
        return None  # "there" with nothing said before it
    gold: list[tuple[str, ...]] | None
    if use == "stage_room":
        text, gold = f"Go to {phrase}.", [("goal", _goal_head(said))]
    elif use == "stage_thing":
        text, gold = f"Go to {phrase} and stop at the {thing} in it.", [("goal", thing)]
    elif use == "scope":
        other = "dresser" if scope == "bedroom" else "bin" if scope == "bathroom" else "television"
        head = {"dresser": "dresser", "bin": "garbage_can", "television": "television"}[other]
        text = f"Go to the teddy bear. In {phrase}, keep away from the {other}."
        gold = [("goal", "teddy_bear"), ("far", head, f"in:{scope}")]
    else:  # place: the thing in the room so picked
        text, gold = f"Go to the {thing} in {phrase}.", [("goal", thing)]
    if ordinal == "last":
        gold = None  # the route order has no last: refused (test_human)
    return text, gold


def _goal_head(said: str) -> str:
    return "living_room" if said in ("living room", "lounge") else said


def cells() -> list[tuple[str, list[tuple[str, ...]] | None]]:
    seen: dict[str, list[tuple[str, ...]] | None] = {}
    for combo in itertools.product(ORDINALS, ROOMS, VERBS, SUBJECTS, EXTENTS, USES, ORDERS):
        got = _cell(*combo)
        if got is not None and got[0] not in seen:
            seen[got[0]] = got[1]
    items = sorted(seen.items())
    random.Random(SEED).shuffle(items)
    return items[:SAMPLE]


# first contact (before route_order_clauses): recorded once; 75 of the right cells are "last"
# ones refused as they must be
FIRST_CONTACT = {"right": 163, "wrong": 78, "refused": 159}
FLOOR = 400


def test_grid_floor_no_wrong_cells_named_refusals() -> None:
    # a cell with no gold ("the last ...") must be refused by name: that is its right answer
    assert_grid(((t, grade(t, read_route, by_equality(g), "right" if g is None else "refused"))
                 for t, g in cells()), FLOOR)


@pytest.mark.parametrize(("text", "want"), [
    ("Go to the second bedroom you'll walk into and stop at the bed in it.", [("goal", "bed")]),
    ("Go to the toilet in the first bathroom reached on the way.", [("goal", "toilet")]),
    ("Go to the teddy bear. In the first bathroom you're going to cut through, keep away from "
     "the toilet.", [("goal", "teddy_bear"), ("far", "toilet", "in:bathroom")]),
    ("Go to the teddy bear. In the second lounge you would hit on your way there, hug the sofa.",
     [("goal", "teddy_bear"), ("near", "sofa", "in:livingroom")]),
    ("Go to the next bedroom that you get to from here.", [("goal", "bedroom")]),
    ("Go to the second bedroom you'd go into and stop at the bed in it.", [("goal", "bed")]),
    ("Go to the third living room you enter after the kitchen.", [("goal", "living_room")]),
    ("Go to the first chair you'll pass on the way.", [("goal", "chair")]),
    # the ordinal after the verb, "whichever"
    ("Go to the bedroom you'll reach second and stop at the bed in it.", [("goal", "bed")]),
    ("Go to whichever bathroom you come to first.", [("goal", "bathroom")]),
    ("Go to the teddy bear. In the bedroom you're going to walk through next, hug the dresser.",
     [("goal", "teddy_bear"), ("near", "dresser", "in:bedroom")]),
])
def test_hand_checked(text: str, want: list[tuple[str, ...]]) -> None:
    assert read_route(text) == want


def test_after_the_kitchen_counts_from_the_kitchen() -> None:
    ref = parse_instruction("Go to the first bathroom you go through after you leave the kitchen."
                            ).clauses[0].refs[0]
    assert [m.kind for m in ref.modifiers] == ["rank", "origin"] or \
        any(m.refs and m.refs[0].head == "kitchen" for m in ref.modifiers)


@pytest.mark.parametrize("text", [
    "Go to the last bedroom you'll walk through.",  # the route order has no last
    "Go to the teddy bear. In the last bathroom you reach, keep away from the toilet.",
    "Go to the dresser in the bedroom you come to after the bathroom.",  # no count
    "Go to the first bedroom you'll walk into after the shed.",  # no such room
    "Go to the toilet in the bathroom you enter last.",  # was read as "the bathroom"
])
def test_still_refused(text: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert err.value.span


# written after the fix, in other words than the grid's; first contact 5 right, 1 refused as
# it should be (no towel on the maps), 1 refused (a rule with no stop), 1 wrong ("the second
# bedroom along and stop at the bed": this module had broken it; the bare "along" is now left
# to the later stages, which read it): 6 / 8 now
FREE = [
    ("Head for the third bedroom you'll come across and wait by the dresser in it.",
     [("goal", "dresser")]),
    ("While you're in the first bathroom you pass through, don't go near the sink.", None),
    ("Make your way to the second living room you get to and stop next to the TV.",
     [("goal", "television")]),
    ("Grab the towel from the first bathroom you walk into on the way.", None),
    ("Go to the teddy bear, and in the second bedroom you cross, hug the wall.",
     [("goal", "teddy_bear"), ("near", "wall", "in:bedroom")]),
    ("Stop at the sink in the next bathroom that you'd reach from here.", [("goal", "sink")]),
    ("Go to the fridge. In the first bedroom you're going to pass on your way there, keep clear "
     "of the bed.", [("goal", "fridge"), ("far", "bed", "in:bedroom")]),
    ("Take me to the second bedroom along and stop at the bed.", [("goal", "bed")]),
]


@pytest.mark.parametrize(("text", "want"), FREE)
def test_free_form(text: str, want: list[tuple[str, ...]] | None) -> None:
    if want is None:
        with pytest.raises(ParseError) as err:
            parse_instruction(text)
        assert err.value.span
    else:
        assert read_route(text) == want
