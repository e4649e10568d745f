"""Paradigm grid: scope clauses, a rule that holds only while the robot is somewhere or doing
something ("while you're crossing the kitchen keep away from the TV", "on your way to the
second stop, stay close to the counter", "avoid the TV each time you go through the living
room").

The grid was written before the scope modules were read, as a speaker would say the
phrases: independent axes (introducer, subject/aux, motion or place phrase, its object, the
rule, the order of scope clause and rule, the main request), crossed and sampled
deterministically. Each cell carries its gold route in ``read_route`` form; a leg scope
answers to any of its names (``until:`` the stage it ends at, ``after:`` the stage before,
``stage:N``), and leaving a room to ``in:`` or ``after:`` that room, as the sets record it.

First contact (2026-12-07, before this round's repair): 111 right, 8 wrong, 181 refused, 0
silent drops of 300 (``FIRST_CONTACT``). After :mod:`~map2route.language.parser.scope_leads`:
283 right, 0 wrong, 17 refused, 0 drops. The refusals left: a stop named by its order in a
scope said after the rule ("keep away from the TV while you're going to your first stop",
read as another leg downstream, so refused by name), "coming back from the first one" joined
by "and" to the main request ("and after the first stop" is not read), and "whenever you get
out of the R".
"""

from __future__ import annotations

import itertools
import random
from typing import NamedTuple

import pytest
from grid_grading import Verdict, assert_grid, grade

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route

# ---------------------------------------------------------------- axes

#: Introducers; ``""`` is none ("In the kitchen, ...", "Crossing the kitchen, ...").
INTRODUCERS = ["while", "when", "as", "once", "whenever", "each time", "any time",
               "the moment", ""]

#: Subject/aux: how the motion phrase is put after the introducer. ``be`` forms take the
#: participle or the place phrase, ``fin`` the finite verb, ``get`` "you get" + a particle
#: phrase, ``bare`` the participle alone ("while crossing the kitchen").
SUBJECTS = [("you're", "be"), ("you are", "be"), ("you'll be", "be"), ("you", "fin"),
            ("you get", "get"), ("", "bare")]


class Motion(NamedTuple):
    name: str
    kind: str            # 'room' | 'to' | 'from' | 'leave' | 'back'
    be: str | None       # after "you're" / bare: "crossing {x}", "in {x}"
    fin: str | None      # after "you": "cross {x}"
    get: str | None      # after "you get": "into {x}"


MOTIONS = [
    Motion("in", "room", "in {x}", None, "into {x}"),
    Motion("inside", "room", "inside {x}", None, "inside {x}"),
    Motion("passing through", "room", "passing through {x}", "pass through {x}", None),
    Motion("going through", "room", "going through {x}", "go through {x}", None),
    Motion("crossing", "room", "crossing {x}", "cross {x}", None),
    Motion("cutting through", "room", "cutting through {x}", "cut through {x}", None),
    Motion("walking through", "room", "walking through {x}", "walk through {x}", None),
    Motion("on your way to", "to", "on your way to {x}", None, None),
    Motion("heading to", "to", "heading to {x}", "head to {x}", None),
    Motion("going to", "to", "going to {x}", "go to {x}", None),
    Motion("on the way to", "to", "on the way to {x}", None, None),
    Motion("coming back from", "from", "coming back from {x}", "come back from {x}",
           "back from {x}"),
    Motion("on your way back from", "from", "on your way back from {x}", None, None),
    Motion("leaving", "leave", "leaving {x}", "leave {x}", "out of {x}"),
    Motion("coming out of", "leave", "coming out of {x}", "come out of {x}", "out of {x}"),
    Motion("on your way back", "back", "on your way back", "come back", "back"),
]

#: Objects by motion kind: (words, accepted scopes). The main request is always two stops,
#: the fridge then the bed (or, for ``back``, the fridge then back to the start).
ROOMS = [("the kitchen", ["in:kitchen"]), ("the living room", ["in:living_room"]),
         ("the bedroom with two windows", ["in:bedroom"]), ("the bathroom", ["in:bathroom"])]
LEG2 = ["until:bed", "after:fridge", "stage:2"]
LEG1 = ["until:fridge", "stage:1"]
TO_OBJECTS = [("the bed", LEG2), ("the second stop", LEG2), ("that second one", LEG2),
              ("the last one", LEG2), ("your second stop", LEG2), ("the fridge", LEG1),
              ("your first stop", LEG1), ("there", LEG2)]
FROM_OBJECTS = [("the fridge", LEG2), ("your first stop", LEG2), ("the first one", LEG2),
                ("that first stop", LEG2)]
LEAVE_OBJECTS = [("the kitchen", ["in:kitchen", "after:kitchen", "after:fridge"]),
                 ("the living room", ["in:living_room", "after:living_room"])]
BACK_OBJECTS = [("", ["until:start", "after:fridge", "stage:2"])]
OBJECTS = {"room": ROOMS, "to": TO_OBJECTS, "from": FROM_OBJECTS, "leave": LEAVE_OBJECTS,
           "back": BACK_OBJECTS}

#: Rules: (words, kind, head as read_route gives it).
RULES = [("keep away from the TV", "far", "television"),
         ("stay close to the counter", "near", "counter_top"),
         ("give the TV a wide berth", "far", "television"),
         ("don't go near the TV", "far", "television"),
         ("avoid the TV", "avoid", "television"),
         ("don't go between the sofa and the TV", "avoid", "between")]

#: Orders of scope clause and rule; ``after`` puts the main request after the scope sentence.
ORDERS = ["first_comma", "first_nocomma", "rule_first", "joined", "before_request"]

REQUESTS = {"two": ("Go to the fridge, then the bed.", [("goal", "fridge"), ("goal", "bed")]),
            "back": ("Go to the fridge and then come back.",
                     [("goal", "fridge"), ("goal", "start")])}


class Cell(NamedTuple):
    text: str
    gold: list[tuple[str, ...]]
    scopes: list[str]      # accepted scopes of the one constraint (gold[-1]'s third field)


def _phrase(intro: str, subj: str, how: str, m: Motion, obj: str) -> str | None:
    form = {"be": m.be, "bare": m.be, "fin": m.fin, "get": m.get}[how]
    if form is None:
        return None
    if not intro and how != "bare":
        return None          # "You're in the kitchen, ..." is a statement, not a scope
    if how == "bare" and intro in ("once", "whenever", "each time", "any time", "the moment",
                                   "as") and m.kind != "room":
        return None          # "the moment crossing ..." is not English
    if how == "bare" and intro in ("each time", "any time", "the moment", "as"):
        return None
    if how == "be" and subj == "you'll be" and intro not in ("while", "when"):
        return None
    if m.kind == "back" and how == "get":
        return None          # "once you get back" is the end of the errand, not its leg
    body = form.format(x=obj).replace("to there", "there").strip()
    words = " ".join(w for w in (intro, subj, body) if w)
    return words


def _cells() -> list[Cell]:
    out = []
    for intro, (subj, how), m, rule, order in itertools.product(
            INTRODUCERS, SUBJECTS, MOTIONS, RULES, ORDERS):
        for obj, scopes in OBJECTS[m.kind]:
            scope = _phrase(intro, subj, how, m, obj)
            if scope is None:
                continue
            req, stages = REQUESTS["back" if m.kind == "back" else "two"]
            if order == "before_request" and m.kind != "room":
                continue
            if not intro and order in ("rule_first", "joined"):
                continue     # "keep away from the TV in the kitchen" names the TV's room     # a stage named before any stage is said is not a scope clause
            rwords, kind, head = rule
            if order == "first_comma":
                text = f"{req} {scope[0].upper()}{scope[1:]}, {rwords}."
            elif order == "first_nocomma":
                text = f"{req} {scope[0].upper()}{scope[1:]} {rwords}."
            elif order == "rule_first":
                text = f"{req} {rwords[0].upper()}{rwords[1:]} {scope}."
            elif order == "joined":
                text = f"{req[:-1]}, and {scope} {rwords}."
            else:
                text = f"{scope[0].upper()}{scope[1:]}, {rwords}. {req}"
            out.append(Cell(text, [*stages, (kind, head, scopes[0])], scopes))
    return out


ALL_CELLS = _cells()
#: A seeded sample of the product (it runs to thousands of cells).
CELLS = sorted(random.Random(20261207).sample(ALL_CELLS, 300))


def judge(cell: Cell) -> Verdict:
    """'right', 'wrong', 'refused', 'drop' (a parse with words left unread) or 'unnamed'."""
    def compare(got: list[tuple[str, ...]]) -> Verdict:
        if len(got) != len(cell.gold) or got[:-1] != cell.gold[:-1]:
            return "wrong", repr(got)
        last, want = got[-1], cell.gold[-1]
        scope = (last[2] if len(last) > 2 else "").replace("_", "")
        if last[:2] != want[:2] or scope not in [s.replace("_", "") for s in cell.scopes]:
            return "wrong", repr(got)
        return "right", repr(got)
    return grade(cell.text, read_route, compare)


#: Scored once before the repair (2026-12-07): right / wrong / refused / drop of 300.
FIRST_CONTACT = {"right": 111, "wrong": 8, "refused": 181, "drop": 0}
#: Floor of right cells after the repair.
FLOOR = 283


def test_grid_floor_no_wrong_no_drop() -> None:
    assert_grid(((cell.text, judge(cell)) for cell in CELLS), FLOOR)


_TWO = [("goal", "fridge"), ("goal", "bed")]

#: Hand-checked: the brief's composed examples and one of each axis.
UNIT = [
    ("Go to the fridge, then the bed. While you're on your way to the fridge keep away from "
     "the TV.", [*_TWO, ("far", "television", "until:fridge")]),
    ("Go to the fridge, then the bed. While you are going to the fridge, keep away from the TV.",
     [*_TWO, ("far", "television", "until:fridge")]),
    ("Go to the sofa, then the bed. On the way to that second one, keep away from the TV.",
     [("goal", "sofa"), ("goal", "bed"), ("far", "television", "until:bed")]),
    ("Go to the fridge, then the bed. Keep away from the TV each time you're crossing the "
     "kitchen.", [*_TWO, ("far", "television", "in:kitchen")]),
    ("Go to the fridge, then the bed. The moment you get into the bedroom, don't go near the "
     "dresser.", [*_TWO, ("far", "dresser", "in:bedroom")]),
    ("Go to the fridge, then the bed. Heading to the bed, avoid the dog bed.",
     [*_TWO, ("avoid", "dog_bed", "until:bed")]),
    ("Go to the fridge and come back. Once you're on your way back, keep away from the TV.",
     [("goal", "fridge"), ("goal", "start"), ("far", "television", "until:start")]),
    ("Go to the fridge, then the bed. Coming back from your first stop, stay close to the "
     "counter.", [*_TWO, ("near", "counter_top", "until:bed")]),
    ("Go to the fridge, then the bed, and once you leave the living room don't go near the TV.",
     [*_TWO, ("far", "television", "after:livingroom")]),
]


@pytest.mark.parametrize(("text", "want"), UNIT)
def test_unit_cases(text: str, want: list[tuple[str, ...]]) -> None:
    assert read_route(text) == want


#: Must still be refused: a stop by order after the rule (read as another leg downstream), a
#: stop the route lacks, "in there" with no room named, a place that is no place, and a
#: condition with no rule.
GUARDS = [
    "Go to the fridge, then the bed. Keep away from the TV while you're going to your first "
    "stop.",
    "Go to the fridge, then the bed. On the way to the fourth stop, keep away from the TV.",
    "Go to the bed. While you're in there, keep away from the TV.",
    "Go to the fridge. While you're on your way to the moon, keep away from the TV.",
    "Go to the fridge. When you go to the kitchen, open the fridge.",
]


@pytest.mark.parametrize("text", GUARDS)
def test_guards_refused(text: str) -> None:
    with pytest.raises(ParseError) as err:
        read_route(text)
    assert err.value.word


#: Eight free-form sentences of the family, written after the repair in other words than the
#: grid's and scored once at first contact (2026-12-07): 7 right, 1 refused ("while you're
#: heading over to the desk": the particle "over" is no axis the lead reads), 0 wrong. Not
#: fitted; the test holds them at no wrong parse and no silent drop.
FREE = [
    Cell("Could you go to the toilet? When you're cutting across the bedroom, keep well clear "
         "of the dog bed.", [("goal", "toilet"), ("far", "dog_bed", "in:bedroom")],
         ["in:bedroom"]),
    Cell("Take me to the sofa and then the fridge. Every time you're passing through the "
         "kitchen, stay near the counter.",
         [("goal", "sofa"), ("goal", "fridge"), ("near", "counter_top", "in:kitchen")],
         ["in:kitchen"]),
    Cell("Go to the bed, then the desk. While you're heading over to the desk, don't get close "
         "to the TV.", [("goal", "bed"), ("goal", "desk"), ("far", "television", "until:desk")],
         ["until:desk", "after:bed", "stage:2"]),
    Cell("Go to the kettle and then come back. Keep away from the plant while you're on the way "
         "back.", [("goal", "kettle"), ("goal", "start"), ("far", "house_plant", "until:start")],
         ["until:start", "after:kettle", "stage:2"]),
    Cell("Go to the dresser, then the toilet. As you're leaving the bedroom, give the box a wide "
         "berth.", [("goal", "dresser"), ("goal", "toilet"), ("far", "box", "in:bedroom")],
         ["in:bedroom", "after:bedroom", "after:dresser"]),
    Cell("First the armchair, then the fridge. On your way to that last one, stay away from the "
         "dining table.",
         [("goal", "arm_chair"), ("goal", "fridge"), ("far", "dining_table", "until:fridge")],
         ["until:fridge", "after:arm_chair", "stage:2"]),
    Cell("Go to the sink. Once you're inside the bathroom, avoid the laundry hamper.",
         [("goal", "sink"), ("avoid", "laundry_hamper", "in:bathroom")], ["in:bathroom"]),
    Cell("Go to the sofa, then the bed. Coming back from the sofa, don't go between the table "
         "and the TV.", [("goal", "sofa"), ("goal", "bed"), ("avoid", "between", "after:sofa")],
         ["after:sofa", "until:bed", "stage:2"]),
]
FREE_FIRST_CONTACT = {"right": 7, "wrong": 0, "refused": 1, "drop": 0}


def test_free_form_no_wrong() -> None:
    verdicts = [judge(cell)[0] for cell in FREE]
    assert not {"wrong", "drop", "unnamed"} & set(verdicts), verdicts
    assert verdicts.count("right") >= FREE_FIRST_CONTACT["right"]

