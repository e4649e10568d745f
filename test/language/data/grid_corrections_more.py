"""Paradigm grid: a speaker correcting or contrasting a reference (round N, corrections_more).

Written BEFORE reading the parser's code for the family (only ``fresh.py``, the scorer, and
three items of set AY were read, for the notation). Real misses it grows from: "Not the one on
the bed with the teddy bear - that's a different book.", "Not chair by the table, the other
one" (ESL), "Go to the toilet in the bathroom at the back ... - no sorry, not the toilet, the
sink", "go to the kitchen shelf ... actually no, first you go to the plant in kitchen", "the
alarm clock on the bed, I mean, not the one on the desk", "whichever bed is further from the
window - that's the smaller one, I think".

Axes (each as a speaker says it):
- MARKERS: what signals the repair ("no", "sorry", "actually", "wait", "I mean", "or rather",
  "scratch that", "no sorry", "actually no", ESL "no no" / "sorry I say wrong", and none);
- POSITIONS: where it stands (own sentence, after a comma, a dash, an ellipsis, run on);
- FORMS: "not X, Y" / "Y, not X" / "not X but Y" / bare "Y" / "not the one REL, the other one" /
  "not the one REL - that's a different H" / "that's the one REL";
- TARGETS: what is corrected (the stage's head, a modifier of it, its room, a constraint's head,
  the order of the stops: "actually no, first ...");
- HEDGES: none, "I think", "I guess", "if I remember right", "please";
- REGISTERS: native, ESL (articles dropped in the repair), lower-case run-on (typed chat);
- CONTEXTS: alone, a later stop, a whole-route keep-away rule.

Gold: the corrected reading only. A taken-back head is no stage and no constraint; a taken-back
modifier ("on the bed - no, on the desk") must not stay on the stage as a plain modifier
(``banned``: heads that may appear under the stage only negated); a contrast ("not the one on
the desk") leaves the head the stage. The cells are a seeded sample of the product.

First contact (before reading the family's code): see ``FIRST_CONTACT`` in
``test/language/test_grid_corrections_more.py``.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

Cell = dict[str, Any]

MARKERS = ["no", "sorry", "actually", "wait", "I mean", "or rather", "scratch that",
           "no sorry", "actually no", "no no", "sorry I say wrong", ""]
#: markers that do not sit in front of a negation ("or rather not the toilet" is not English)
POSITIVE_ONLY = {"or rather"}
POSITIONS = ["sentence", "comma", "dash", "ellipsis", "runon"]
HEDGES = ["", "I think", "I guess", "if I remember right", "please"]
REGISTERS = ["native", "esl", "lower"]
CONTEXTS = ["alone", "then_stop", "keep_away"]

FRAMES = ["Go to {t}", "Can you go to {t}", "Please take me to {t}", "I need you at {t}",
          "Head over to {t}"]

# stage heads: (said, category, room said with it, category of the room's other thing)
HEAD_PAIRS = [
    (("toilet", "toilet"), ("sink", "sink"), "bathroom"),
    (("desk", "desk"), ("bed", "bed"), "bedroom"),
    (("chair", "chair"), ("sofa", "sofa"), "living room"),
    (("fridge", "fridge"), ("sink", "sink"), "kitchen"),
    (("armchair", "arm_chair"), ("TV", "television"), "living room"),
    (("bin", "garbage_can"), ("plant", "house_plant"), "kitchen"),
]
# heads picked by a modifier: (said, category, [(modifier text, its head category)])
MOD_HEADS = [
    ("alarm clock", "alarm_clock", [("on the bed", "bed"), ("on the desk", "desk"),
                                    ("on the dresser", "dresser")]),
    ("book", "book", [("on the bed", "bed"), ("on the shelf", "shelf"),
                      ("on the desk", "desk")]),
    ("chair", "chair", [("by the table", "dining_table"), ("by the window", "window"),
                        ("next to the desk", "desk")]),
    ("plant", "house_plant", [("by the window", "window"), ("next to the sofa", "sofa"),
                              ("by the TV", "television")]),
    ("lamp", "floor_lamp", [("next to the sofa", "sofa"), ("by the armchair", "arm_chair"),
                            ("by the window", "window")]),
]
ROOMS = [("kitchen", "kitchen"), ("bedroom", "bedroom"), ("bathroom", "bathroom"),
         ("living room", "living_room")]
ROOM_HEADS = [("plant", "house_plant"), ("bin", "garbage_can"), ("chair", "chair"),
              ("window", "window")]
CON_PAIRS = [(("TV", "television"), ("bin", "garbage_can")),
             (("plant", "house_plant"), ("toilet", "toilet")),
             (("sofa", "sofa"), ("armchair", "arm_chair"))]
ORDER_PAIRS = [(("shelf", "shelf"), ("plant", "house_plant")),
               (("bed", "bed"), ("desk", "desk")),
               (("fridge", "fridge"), ("sink", "sink"))]

HEAD_FORMS = ["not_x_y", "y_not_x", "not_x_but_y", "bare_y", "make_that_y", "y_i_mean"]
MOD_FORMS = ["not_one_rel_other", "not_one_rel_different", "mod_swap", "one_y_not_one_x",
             "not_one_x_one_y", "thats_the_one"]
ROOM_FORMS = ["in_y", "not_x_y", "y_not_x"]
CON_FORMS = ["not_x_y", "bare_y", "y_not_x"]
ORDER_FORMS = ["first_b", "before_that_b", "first_b_then_a"]


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _join(before: str, marker: str, repair: str, hedge: str, pos: str) -> str:
    """``before`` (no final stop), then the repair led by ``marker`` at ``pos``, with ``hedge``."""
    lead = f"{marker}, {repair}" if marker else repair
    if hedge == "please":
        lead = f"{lead}, please"
    elif hedge:
        lead = f"{lead}, {hedge}"
    if pos == "sentence":
        return f"{before}. {_cap(lead)}."
    if pos == "comma":
        return f"{before}, {lead}."
    if pos == "dash":
        return f"{before} - {lead}."
    if pos == "ellipsis":
        return f"{before}... {lead}."
    return f"{before} {lead}."


def _esl(text: str) -> str:
    """Drop the articles of the repair the way a learner of English types it."""
    return text.replace("the ", "").replace("The ", "")


def _finish(cell: Cell, register: str, context: str) -> Cell:
    text = cell["instruction"]
    if context == "then_stop":
        text += " After that go to the dresser."
        cell["stages"] = [*cell["stages"], ["goal", "dresser"]]
        cell["refs"] = [*cell["refs"], "dresser"]
    elif context == "keep_away" and not cell["constraints"]:
        text += " Keep away from the toaster."
        cell["constraints"] = [{"kind": "far", "head": "toaster", "scope": "global"}]
        cell["refs"] = [*cell["refs"], "toaster"]
    if register == "lower":
        text = text.lower().rstrip(".")
    cell["instruction"] = text
    return cell


def head_cell(frame: str, pair: Any, form: str, marker: str) -> tuple[str, Cell]:
    (xs, xc), (ys, yc), room = pair
    before = frame.format(t=f"the {xs} in the {room}")
    repair = {"not_x_y": f"not the {xs}, the {ys}", "y_not_x": f"the {ys}, not the {xs}",
              "not_x_but_y": f"not the {xs} but the {ys}", "bare_y": f"the {ys}",
              "make_that_y": f"make that the {ys}", "y_i_mean": f"the {ys} I mean"}[form]
    room_cat = room.replace(" ", "_")
    return repair, {"stages": [["goal", yc]], "constraints": [], "refs": [yc, room_cat],
                    "banned": [], "before": before}


def mod_cell(frame: str, head: Any, form: str, marker: str, rng: random.Random
             ) -> tuple[str, Cell]:
    hs, hc, mods = head
    (m1, c1), (m2, c2) = rng.sample(mods, 2)
    if form in ("not_one_rel_other", "not_one_rel_different"):
        before = frame.format(t=f"the {hs}")
        tail = "the other one" if form == "not_one_rel_other" else f"that's a different {hs}"
        repair = f"not the one {m1}, {tail}" if form == "not_one_rel_other" else \
            f"not the one {m1} - {tail}"
        return repair, {"stages": [["goal", hc]], "constraints": [], "refs": [hc, c1],
                        "banned": [c1], "before": before}
    if form == "thats_the_one":
        before = frame.format(t=f"whichever {hs} is {m1}")  # a second description
        return f"that's the one {m2}", {"stages": [["goal", hc]], "constraints": [],
                                        "refs": [hc, c1, c2], "banned": [], "before": before}
    before = frame.format(t=f"the {hs} {m1}")
    repair = {"mod_swap": m2, "one_y_not_one_x": f"the one {m2}, not the one {m1}",
              "not_one_x_one_y": f"not the one {m1}, the one {m2}"}[form]
    return repair, {"stages": [["goal", hc]], "constraints": [], "refs": [hc, c2],
                    "banned": [c1] if c1 != c2 else [], "before": before}


def room_cell(frame: str, head: Any, rooms: Any, form: str) -> tuple[str, Cell]:
    hs, hc = head
    (r1s, r1), (r2s, r2) = rooms
    before = frame.format(t=f"the {hs} in the {r1s}")
    repair = {"in_y": f"in the {r2s}", "not_x_y": f"not the {r1s}, the {r2s}",
              "y_not_x": f"the one in the {r2s}, not the {r1s}"}[form]
    return repair, {"stages": [["goal", hc]], "constraints": [], "refs": [hc, r2],
                    "banned": [r1], "before": before}


def con_cell(pair: Any, form: str) -> tuple[str, Cell]:
    (xs, _xc), (ys, yc) = pair
    before = f"Go to the bed and stay away from the {xs}"
    repair = {"not_x_y": f"not the {xs}, the {ys}", "bare_y": f"the {ys}",
              "y_not_x": f"the {ys}, not the {xs}"}[form]
    return repair, {"stages": [["goal", "bed"]],
                    "constraints": [{"kind": "far", "head": yc, "scope": "global"}],
                    "refs": ["bed", yc], "banned": [], "before": before}


def order_cell(frame: str, pair: Any, form: str) -> tuple[str, Cell]:
    (as_, ac), (bs, bc) = pair
    before = frame.format(t=f"the {as_}")
    repair = {"first_b": f"first go to the {bs}",
              "before_that_b": f"before that, go to the {bs}",
              "first_b_then_a": f"first the {bs}, then the {as_}"}[form]
    return repair, {"stages": [["goal", bc], ["goal", ac]], "constraints": [],
                    "refs": [ac, bc], "banned": [], "before": before}


def cells() -> list[Cell]:
    """The grid: a seeded sample of each target's product (240 cells in all)."""
    rng = random.Random(20261207)
    out: list[Cell] = []

    def add(repair: str, cell: Cell, marker: str, pos: str, hedge: str, register: str,
            context: str) -> None:
        if marker in POSITIVE_ONLY and repair.startswith("not"):
            marker = "I mean"
        if not marker and not any(w in repair.split() for w in ("not", "that's", "first",
                                                                "before", "make")):
            # a bare "... the sink." or "... next to the sofa." with no marker and no "not"
            # reads as a further description or a trailing-off, not as a repair
            marker = "no"
        if register == "esl":
            repair = _esl(repair)
        before = cell.pop("before")
        cell["instruction"] = _join(before, marker, repair, hedge, pos)
        out.append(_finish(cell, register, context))

    def axes() -> tuple[str, str, str, str, str]:
        return (rng.choice(MARKERS), rng.choice(POSITIONS), rng.choice(HEDGES),
                rng.choice(REGISTERS), rng.choice(CONTEXTS))

    heads = list(itertools.product(FRAMES, HEAD_PAIRS, HEAD_FORMS))
    for frame, pair, form in rng.sample(heads, 80):
        m, p, h, r, c = axes()
        add(*head_cell(frame, pair, form, m), m, p, h, r, c)
    mods = list(itertools.product(FRAMES, MOD_HEADS, MOD_FORMS))
    for frame, head, form in rng.sample(mods, 70):
        m, p, h, r, c = axes()
        if form in ("not_one_rel_other", "not_one_rel_different"):
            m = rng.choice(["", "", "sorry", "I mean", "no"])
        elif form == "thats_the_one":  # a restatement, not a repair: no marker
            m = ""
        add(*mod_cell(frame, head, form, m, rng), m, p, h, r, c)
    rooms = [(f, h, rp, form) for f, h, rp, form in itertools.product(
        FRAMES, ROOM_HEADS, itertools.permutations(ROOMS, 2), ROOM_FORMS)]
    for frame, head, rp, form in rng.sample(rooms, 40):
        m, p, h, r, c = axes()
        add(*room_cell(frame, head, rp, form), m, p, h, r, c)
    for pair, form in rng.sample(list(itertools.product(CON_PAIRS, CON_FORMS)), 9) * 2:
        m, p, h, r, c = axes()
        add(*con_cell(pair, form), m, p, h, r, "alone" if c == "keep_away" else c)
    orders = list(itertools.product(FRAMES, ORDER_PAIRS, ORDER_FORMS))
    for frame, pair, form in rng.sample(orders, 22):
        m = rng.choice(["actually no", "no wait", "sorry", "wait", "actually", "no"])
        _, p, h, r, _ = axes()
        add(*order_cell(frame, pair, form), m, p, h if h != "please" else "", r, "alone")
    for i, cell in enumerate(out):
        cell["id"] = f"CM{i + 1:03d}"
    return out
