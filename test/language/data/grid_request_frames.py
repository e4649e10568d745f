"""Paradigm grid for request frames: the wording people wrap a request in, around the stops
themselves. Light verbs ("Do this in order: ...", "Do: microwave, then toaster", "do the kitchen
rounds: first ..., then ...", "do a full lap of it"), serial verbs ("go park yourself next to",
"go see", "go and look at", "go stand next to", "come see"), hedged positions ("stop like,
halfway between", "go stand sort of in the middle of"), announcements ("Little errand run for
you.", "First stop is ...", "Let me explain the house to you first", "Slowly please") and
speaker or robot scene-setting with apposition ("I'm in the small living room, in the armchair,
and I'd like you to ...", "I'm on the couch in the big living room, the one with the dog bed,
right, and I need you to ...", "You're in the small living room.", "Okay so I'm at ...").

Written on 2026-12-07 (stop 43) BEFORE reading the parser's rules for this family, from the
misses in the open sets (AU13, AU21, AV18, AY16, AY21, AZ11, AZ12, AZ19, BA02, BA07, BA18, BB08,
BB11, BB18, BC06, BC12, BC14) and from how people say these things; the wording is the grid's
own. The house is benchmark-style (a kitchen with a fridge, microwave, toaster, kettle, safe
and bin; two living rooms, one with the dog bed and an armchair; bedrooms; bathrooms with a
toilet and a sink); the grid measures reading, not grounding.

Axes (each cell crosses one value of each; combinations a frame cannot take are skipped; the
product is sampled with a fixed seed):

- FRAME (10): none; "Do this in order: <verb phrases>"; "Do: <bare list>"; "Do the kitchen
  rounds: first <bare list>"; "First stop is <np>, then <np>, and last <np>"; "Little errand
  run for you." before; "Let me explain the house to you first ..." before; "Can you ...?";
  ", in that order" after; "Here's the job:" before.
- VERB (8), the verb of the (first) stop in verb-phrase frames: go to / go park yourself next
  to / go see / go and look at / go stand next to / go stand sort of next to / stop like,
  next to / come see (a bare-list frame takes none of them).
- REQUEST (7): one stop; two stops; three stops; a lap said "do a full lap of X, then ...";
  a lap said "go round X, like do a full lap of it, and then ..."; a hedged halfway point; a
  hedged middle of three things.
- SCENE (6): none; "I'm in the small living room, in the armchair, and I'd like you to";
  "I'm on the couch in the big living room, the one with the dog bed, right, and I need you
  to"; "You're in the small living room."; "Okay so I'm at the kitchen table, and I want you
  to"; "Washing machine is done." (a thing's state, no place).
- TAIL (5): none; "Slowly please."; "then come back to me"; "And don't come at it through
  the bedrooms, please."; "and wait there".
- REGISTER (4): native typed; spoken (fillers, lower case, no full stop); learner (articles
  dropped, "I want you go", ". After, come back"); phone-typed (lower case, "u", "pls", "im", no
  apostrophes, no full stop).

Gold (map2route.language.fresh): each stop is ``["goal", category]``; a lap is ``["circle",
"dining_table"]``; a halfway point or middle of things is ``["goal", "midpoint"]``; "come back
to me" is ``["goal", "start"]`` (the speaker's place; after "I'm in the small living room,
in the armchair" it is ``["goal", "arm_chair"]``, the thing said in apposition, as BC14's gold
has it: settled after the first run, which read none of these cells right); "don't come at it through the bedrooms"
is ``{"kind": "avoid", "head": "bedroom", "scope": "global"}``; "Slowly please" asks nothing
the route notation holds (as in BA07's gold). Scene sentences are context: their things are
``refs`` only.

First contact (2026-12-07, 240 cells, before any change for this family): 80 right, 159
refused, 1 wrong, 0 drops. The refusals were mostly the light verb "do" ("do a full lap of
it", "Do this in order:", "don't come at it through ..."), "I'm" in a scene clause with an
apposition, "explain", "go stand sort of next to", "stop like,"; the wrong cell read "I'm on
couch ..., and I need you do this in order: ..." as one stop at the sofa. Under the armchair
gold settled after that run (above), the same code gives 78 right, 159 refused, 3 wrong, 0
drops (two cells had read "back to me" as the room).
After :mod:`map2route.language.parser.request_frames` (and the speaker's place said in
apposition, :mod:`map2route.language.parser.speaker_return`): 214 right, 26 refused by name,
0 wrong, 0 drops. The refusals left: "Do the kitchen rounds:" (a room as the job's topic is a
scope for the rules after it, left refused as :mod:`.openers` leaves "Small bathroom, two
stops."), a learner's "go and look at fridge" / "in middle of" without articles, "so um
washing machine is done" (a state sentence after a filler), "Can you stop like, in the middle
of ..." (no destination read).
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

SCENE = "procthor_00084"
SAMPLE = 240
SEED = 20261243

Stage = list[str]

# the stops of each request: (noun phrase, category, refs)
STOPS = {
    "one": [("the fridge", "fridge", ["fridge"])],
    "two": [("the microwave", "microwave", ["microwave"]),
            ("the toaster", "toaster", ["toaster"])],
    "three": [("the safe", "safe", ["safe"]), ("the kettle", "kettle", ["kettle"]),
              ("the bin next to the fridge", "garbage_can", ["garbage_can", "fridge"])],
}
TABLE = "the kitchen table"
BIN = ("the bin", "garbage_can")
HALFWAY = "halfway between the toilet and the sink"
MIDDLE = "in the middle of the couch, the TV stand and the dog bed"

# (key, template before a thing, template before a position phrase or None)
VERBS: list[tuple[str, str, str | None]] = [
    ("go_to", "go to {np}", "go and stand {pos}"),
    ("park", "go park yourself next to {np}", "go park yourself {pos}"),
    ("see", "go see {np}", None),
    ("look", "go and look at {np}", None),
    ("stand", "go stand next to {np}", "go stand {pos}"),
    ("stand_sort", "go stand sort of next to {np}", "go stand sort of {pos}"),
    ("stop_like", "stop like, next to {np}", "stop like, {pos}"),
    ("come_see", "come see {np}", None),
]

REQUESTS = ["one", "two", "three", "lap", "lap_like", "halfway", "middle3"]


def _request(req: str, verb: tuple[str, str, str | None]) -> tuple[str | None, str | None,
                                                                    list[Stage], list[str]]:
    """The request as a verb phrase, as a bare list (None where it has none), its stages and
    refs."""
    _, vthing, vpos = verb
    if req in STOPS:
        stops = STOPS[req]
        first = vthing.format(np=stops[0][0])
        rest = [np for np, _, _ in stops[1:]]
        vp = first + "".join(
            (", and last " if k == len(rest) - 1 and len(rest) > 1 else ", then ") + np
            for k, np in enumerate(rest))
        bare = ", then ".join(np for np, _, _ in stops)
        return (vp, bare, [["goal", c] for _, c, _ in stops],
                [r for _, _, rs in stops for r in rs])
    if req in ("lap", "lap_like"):
        lap = (f"do a full lap of {TABLE}, then " if req == "lap" else
               f"go round {TABLE}, like do a full lap of it, and then ")
        return (lap + vthing.format(np=BIN[0]), None,
                [["circle", "dining_table"], ["goal", BIN[1]]], ["dining_table", BIN[1]])
    if vpos is None:
        return None, None, [], []
    if req == "halfway":
        return (vpos.format(pos=HALFWAY), None, [["goal", "midpoint"]], ["toilet", "sink"])
    return (vpos.format(pos=MIDDLE), None, [["goal", "midpoint"]],
            ["sofa", "tv_stand", "dog_bed"])


# (key, template, takes): {vp} a verb phrase, {bare} a bare list, {stops} the stops one by one
FRAMES: list[tuple[str, str]] = [
    ("none", "{vp}"),
    ("in_order", "Do this in order: {vp}"),
    ("do_colon", "Do: {bare}"),
    ("rounds", "Do the kitchen rounds: first {bare}"),
    ("first_stop", "First stop is {stops}"),
    ("errand", "Little errand run for you. {VP}"),
    ("explain", "Let me explain the house to you first, since you're new. {VP}"),
    ("can_you", "Can you {vp}?"),
    ("in_that_order", "{vp}, in that order"),
    ("job", "Here's the job: {vp}"),
]

# (key, clause form ending in "to" or None, sentence form, refs)
SCENES: list[tuple[str, str | None, str, list[str]]] = [
    ("none", None, "", []),
    ("armchair", "I'm in the small living room, in the armchair, and I'd like you to ",
     "I'm in the small living room, in the armchair. ", ["living_room", "arm_chair"]),
    ("couch", "I'm on the couch in the big living room, the one with the dog bed, right, and "
     "I need you to ", "I'm on the couch in the big living room, the one with the dog bed. ",
     ["sofa", "living_room", "dog_bed"]),
    ("robot", None, "You're in the small living room. ", ["living_room"]),
    ("okay", "Okay so I'm at the kitchen table, and I want you to ",
     "Okay so I'm at the kitchen table. ", ["dining_table", "kitchen"]),
    ("state", None, "Washing machine is done. ", ["washing_machine"]),
]

# (key, text after the request, stages, constraints)
TAILS: list[tuple[str, str, list[Stage], list[dict[str, Any]]]] = [
    ("none", "", [], []),
    ("slowly", ". Slowly please", [], []),
    ("back", ", then come back to me", [["goal", "start"]], []),
    ("not_through", ". And don't come at it through the bedrooms, please", [],
     [{"kind": "avoid", "head": "bedroom", "scope": "global"}]),
    ("wait", " and wait there", [], []),
]

REGISTERS = ["native", "spoken", "learner", "phone"]

_ARTICLE = re.compile(r"\b(the|a) ", re.IGNORECASE)


def _sentences(text: str) -> str:
    """Capitalise each sentence's first letter and end with a full stop (unless '?')."""
    out = re.sub(r"(^|[.?:] )([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)
    return out if out.endswith("?") else out + "."


def _register(text: str, register: str) -> str:
    if register == "native":
        return _sentences(text)
    if register == "spoken":
        out = text.replace(", then ", ", then, uh, ").replace("I'd like you", "I'd, um, like you")
        return "so um " + out[0].lower() + out[1:]
    if register == "learner":
        out = _ARTICLE.sub("", text).replace("I'd like you to ", "I want you ")
        out = out.replace("I need you to ", "I need you ").replace(", then come back",
                                                                  ". After, come back")
        return _sentences(out)
    out = text.lower().replace("you're", "ur").replace("i'm", "im").replace("you", "u")
    out = out.replace("please", "pls").replace("'", "")
    return out.rstrip("?")


def _cell(frame: tuple[str, str], verb: tuple[str, str, str | None], req: str,
          scene: tuple[str, str | None, str, list[str]],
          tail: tuple[str, str, list[Stage], list[dict[str, Any]]],
          register: str) -> dict[str, Any] | None:
    fkey, ftemp = frame
    vp, bare, stages, refs = _request(req, verb)
    if vp is None:
        return None
    single = req in ("one", "halfway", "middle3")
    if single and fkey in ("in_order", "in_that_order", "do_colon", "rounds"):
        return None  # an order of one stop is not said
    if "{bare}" in ftemp or "{stops}" in ftemp:
        if bare is None or verb[0] != "go_to":
            return None
        if fkey == "first_stop":
            stops = STOPS[req]
            nps = [np for np, _, _ in stops]
            core = ftemp.format(stops=nps[0] if len(nps) == 1 else ", then ".join(nps[:-1]) +
                                (", and last " if len(nps) > 2 else ", then ") + nps[-1])
            if len(nps) == 1:
                core = "Your only stop is " + nps[0]
        else:
            core = ftemp.format(bare=bare)
    else:
        core = ftemp.format(vp=vp, VP=vp[0].upper() + vp[1:])
    skey, clause, sentence, srefs = scene
    tkey, ttext, tstages, tcons = tail
    if fkey == "can_you":
        if tkey in ("slowly", "not_through"):
            return None
        core = core[:-1] + ttext + "?"
    elif fkey == "in_that_order" and tkey != "none":
        return None
    else:
        core += ttext
    if clause is not None and fkey in ("none", "in_order", "in_that_order"):
        body = clause + (core[0].lower() + core[1:] if fkey == "in_order" else core)
    else:
        body = sentence + (core[0].upper() + core[1:] if sentence else core)
    if skey != "none" and fkey in ("explain",):
        return None
    if skey == "armchair" and tkey == "back":
        # "I'm in the small living room, in the armchair ... come back to me": the armchair,
        # as BC14's gold has it (settled after the first run; the room there was no answer)
        tstages = [["goal", "arm_chair"]]
    text = _register(body, register)
    return {"id": f"{fkey}/{verb[0]}/{req}/{skey}/{tkey}/{register}", "scene": SCENE,
            "instruction": text, "stages": [*stages, *tstages], "constraints": list(tcons),
            "refs": list(dict.fromkeys([*srefs, *refs])),
            "classes": ["request_frames", fkey, verb[0], req, skey, tkey, register]}


def cells() -> list[dict[str, Any]]:
    """The sampled cells, each a fresh-notation item (``id`` names its axis values)."""
    out = [c for combo in itertools.product(FRAMES, VERBS, REQUESTS, SCENES, TAILS, REGISTERS)
           if (c := _cell(*combo)) is not None]
    random.Random(SEED).shuffle(out)
    return out[:SAMPLE]
