"""Paradigm grid for counted rooms: rooms picked by counting along the route or among a set
said earlier ("You'll go through two bedrooms on the way; in the second one stay away from
the dog bed", "the first bedroom you walk into, only go through it", "in the last bedroom",
"there are two bathrooms, check the sink in both, first the small one, then the other one").

Written on 2026-12-07 (stop 43) BEFORE reading the parser's rules for this family, from the
task's real misses and from how people say these things (native typed, spoken transcripts,
English as a second language without articles, "there is two bathroom"). The house is
benchmark-style (procthor_00213: a kitchen with the fridge, two living rooms, three bedrooms
with a desk, a dog bed, an armchair, dressers; two bathrooms with toilets, sinks and a
plunger); the grid measures reading, not grounding.

Part A, a counted room on the way scopes something (sampled product):

- INTROS (6): how the set is said: "You'll go through two bedrooms on the way", "On the way
  you'll pass through a couple of bedrooms", "You have to cross two bedrooms to get there",
  "you'll pass three bedrooms", none (the pick says it: "the second bedroom you go through"),
  and rooms of no type ("you'll pass through three rooms to get there"): the count cannot be
  checked against a type the grounder orders, so the cell wants a named refusal.
- PICKS (4): first / second / third / last (third only after three, second not of a couple
  said as the last).
- FORMS (5): how the pick is said: "in the second one", "in the second of those", "in the
  second bedroom", "once you're in the second one", "in that second bedroom"; with no intro:
  "in the second bedroom you go through", "in the second bedroom you walk into", "in the
  second bedroom on the way", "when you get to the second bedroom", "in the second bedroom
  you pass".
- SCOPES (4): a rule in it (keep away from X: ``far``; stay close to X: ``near``), a stop in
  it before the destination ("stop at the dresser in it for a moment": a goal stage first),
  and, with no intro, a pass through it ("only go through it, don't stop": a via stage).
- ROOMS (3): bedroom (dresser), bathroom (sink), living room (television).
- REGISTERS (3): native, spoken (fillers, lower case), ESL (articles dropped).

Part B, a set of rooms as the stops (all cells): "Check both bathrooms", "There are two
bathrooms", with the first pick (the small one / the one with the plunger / the one off the
living room) and the second (the other one / the second one), register: stages are the thing
checked in each.

Gold notation (map2route.language.fresh): a scope in a counted room is ``in:<room type>`` (as
the sets write it; the count itself is the grounder's); an intro "you'll go through N X" is no
stage; "only go through it" is a ``via`` stage of that room.

First contact (2026-12-07 23:06 UTC, 250 cells, before any change for this family): 22
right, 190 refused, 23 wrong, 15 silent drops (14 of the drops were cells of rooms said
without their kind whose gold named the kind the text never says, and the "only go through it"
cells' gold named a thing they do not say; both mended in the gold here after first contact:
those parses were wrong or refused all the same); see ``FIRST_CONTACT`` in
``test/language/test_grid_counted_rooms.py``.

After (:mod:`map2route.language.parser.counted_rooms`, :mod:`.room_set_picks`, "for moment"
in :mod:`.learner_forms`): 175 right, 75 refused by name, 0 wrong, 0 drops (``FLOOR``).
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

SCENE = "procthor_00213"
SAMPLE = 200
SEED = 20261207

# (key, room word, room type, thing phrase, thing category)
ROOMS: list[tuple[str, str, str, str, str]] = [
    ("bedroom", "bedroom", "bedroom", "the dresser", "dresser"),
    ("bathroom", "bathroom", "bathroom", "the sink", "sink"),
    ("living", "living room", "living_room", "the TV", "television"),
]

# (key, text with {n} count word and {rooms} plural, count, wants refusal)
INTROS: list[tuple[str, str, int, bool]] = [
    ("go_through", "You'll go through {n} {rooms} on the way.", 2, False),
    ("couple", "On the way you'll pass through a couple of {rooms}.", 2, False),
    ("cross", "You have to cross {n} {rooms} to get there.", 2, False),
    ("pass_three", "You'll pass {n} {rooms} to get there.", 3, False),
    ("none", "", 0, False),
    ("untyped", "You'll pass through {n} rooms to get there.", 3, True),
]

PICKS = ["first", "second", "third", "last"]

# (key, form after an intro, form with no intro); {p} pick, {room} room word
FORMS: list[tuple[str, str, str]] = [
    ("one", "in the {p} one", "in the {p} {room} you go through"),
    ("of_those", "in the {p} of those", "in the {p} {room} you walk into"),
    ("named", "in the {p} {room}", "in the {p} {room} on the way"),
    ("once", "once you're in the {p} one", "when you get to the {p} {room}"),
    ("that", "in that {p} {room}", "in the {p} {room} you pass"),
]

# (key, template taking the lead phrase {lead}, kind) kind: far / near / stop / via
SCOPES: list[tuple[str, str, str]] = [
    ("far", "{lead}, stay away from {thing}", "far"),
    ("near", "{lead}, keep close to {thing}", "near"),
    ("stop", "{lead}, stop at {thing} for a moment before you carry on", "stop"),
    ("via", "{lead}, only go through it, don't stop", "via"),
]

DEST = ("Go to the armchair in the bedroom with the desk.", "arm_chair", ["arm_chair", "bedroom",
                                                                       "desk"])

REGISTERS = ["native", "spoken", "esl"]

_COUNT = {2: "two", 3: "three"}
_ARTICLE = re.compile(r"\b(the|a) ", re.IGNORECASE)


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.?!])\s+", text.strip()) if s]


def _register(text: str, register: str) -> str:
    if register == "native":
        return text
    if register == "spoken":
        out = text.lower().replace("you'll", "you will").replace(". ", " and um ")
        return "ok so " + out.rstrip(".")
    out = _ARTICLE.sub("", text).replace("You'll", "You will").replace("you're", "you are")
    out = out.replace("don't", "not")
    return out


def _cap(s: str) -> str:
    return s[0].upper() + s[1:]


def _cell_a(room: tuple[str, str, str, str, str], intro: tuple[str, str, int, bool], pick: str,
            form: tuple[str, str, str], scope: tuple[str, str, str],
            register: str) -> dict[str, Any] | None:
    rkey, word, rtype, thing, cat = room
    ikey, itext, count, refuse = intro
    skey, stext, kind = scope
    if ikey == "none":
        if pick == "third":
            return None
        lead = form[2].format(p=pick, room=word)
    else:
        if pick == "third" and count < 3 or pick == "last" and ikey == "couple":
            return None
        if kind == "via":  # "you'll go through two bedrooms ... only go through it": said
            return None
        lead = form[1].format(p=pick, room=word)
    if ikey == "untyped" and form[0] in ("named", "that"):
        lead = lead.replace(word, "room")
    intro_text = itext.format(n=_COUNT.get(count, ""), rooms=word + "s")
    rule = _cap(stext.format(lead=lead, thing=thing)) + "."
    dest, dcat, drefs = DEST
    stages: list[list[str]] = [["goal", dcat]]
    constraints: list[dict[str, str]] = []
    if kind in ("far", "near"):
        constraints.append({"head": cat, "kind": kind, "scope": f"in:{rtype}"})
    elif kind == "stop":
        stages.insert(0, ["goal", cat])
    else:
        stages.insert(0, ["via", rtype])
    text = " ".join(s for s in (dest, intro_text, rule) if s)
    refs = list(dict.fromkeys([*drefs, *([] if ikey == "untyped" else [rtype]),
                               *([] if kind == "via" else [cat])]))
    item: dict[str, Any] = {
        "id": f"A/{rkey}/{ikey}/{pick}/{form[0]}/{skey}/{register}", "scene": SCENE,
        "instruction": _register(text, register), "stages": stages,
        "constraints": constraints, "refs": refs,
        "classes": ["counted_rooms", rkey, ikey, pick, form[0], skey, register]}
    if refuse:
        item["refuse"] = True
    return item


# Part B: (key, intro with {first} {second}) ; stages: the sink in the first, then the toilet
SETS: list[tuple[str, str]] = [
    ("check_both", "Could you check both bathrooms for me. Start with {first} and look at the "
                   "sink, then {second}, and stop at the toilet there."),
    ("there_are", "There are two bathrooms. First go to the sink in {first}, then to the "
                  "toilet in {second}."),
    ("in_both", "Check the sinks in both bathrooms, first {first}, then {second}."),
    ("visit_both", "Go to both bathrooms: the sink in {first} and then the toilet in {second}."),
]
FIRSTS = [("small", "the small one"), ("plunger", "the one with the plunger"),
          ("off_living", "the one off the living room"), ("back", "the one at the back")]
SECONDS = [("other", "the other one"), ("second", "the second one"),
           ("other_bathroom", "the other bathroom")]


def _cell_b(kind: tuple[str, str], first: tuple[str, str], second: tuple[str, str],
            register: str) -> dict[str, Any]:
    key, text = kind
    stages = [["goal", "sink"], ["goal", "sink" if key == "in_both" else "toilet"]]
    refs = ["bathroom", "sink", *(["toilet"] if key != "in_both" else [])]
    if first[0] == "plunger":
        refs.append("plunger")
    if first[0] == "off_living":
        refs.append("living_room")
    out = text.format(first=first[1], second=second[1])
    return {"id": f"B/{key}/{first[0]}/{second[0]}/{register}", "scene": SCENE,
            "instruction": _register(out, register), "stages": stages, "constraints": [],
            "refs": refs, "classes": ["counted_rooms", "set", key, first[0], second[0],
                                      register]}


def cells() -> list[dict[str, Any]]:
    """The cells: a seeded sample of part A's product, then a seeded sample of part B."""
    a = [c for combo in itertools.product(ROOMS, INTROS, PICKS, FORMS, SCOPES, REGISTERS)
         if (c := _cell_a(*combo)) is not None]
    rnd = random.Random(SEED)
    rnd.shuffle(a)
    b = [_cell_b(*combo) for combo in itertools.product(SETS, FIRSTS, SECONDS, REGISTERS)]
    rnd.shuffle(b)
    return a[:SAMPLE] + b[:50]
