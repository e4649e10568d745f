"""Paradigm grid for said reasons: reasons and asides that carry no route content, run on to a
request or a rule, often without a connective, in words the map does not know (people, pets,
states, plans).

Written before reading the parser's code for this family (stop 43), from real misses such as
"dont go near the floor lamp on the way its wobbly", "pls dont go inside kitchen, floor still
wet", "dont bump armchair in there grandma sleeping", "keep away from TV, my son play his game
there", "Just so Biscuit sees you, he gets anxious", "so your camera can catch the note I stuck
on it", "Window is open, so keep away from windows in that room, cold air coming", "dog get
nervous when something go between".

A cell is a host (a rule or a stop, after a short route) and a reason, crossed on these axes:

- ``connective``: none / comma / because / cos / coz / as / since / so (a purpose: "so the dog
  sees you") / dash / brackets / a sentence of its own.
- ``subject``: pronoun (he, she, it), person (grandma, my son, the kids, my husband, someone),
  pet by name (Biscuit, Milo), pet (the dog, the cat, the puppy), a thing (the lamp, the vase),
  none ("floor still wet", "cold air coming").
- ``verb form``: native ("is asleep"), progressive ("is sleeping"), learner bare verb ("sleep"),
  dropped copula ("sleeping").
- ``place`` of the reason: none, "there", "in there", a map thing ("on the sofa", "in the dog
  bed"): a map thing named in a reason is context (gold ``refs``), never a stop or a rule, and
  never dropped.
- ``position``: after a rule (at the end), after a stop (more route follows), a sentence of its
  own after the host, before the host ("Grandma's asleep, so keep away from the armchair").
- ``host``: rules (far, avoid, near, clearance, between) and stops (goal, pass).

Refusal cells (``kind == "request"``): a clause after "so" / "because" that is itself a bare
imperative naming a map thing ("keep away from the TV, so go to the sofa") might be a request:
a named refusal is right there, and so is reading it as a stop (``stages`` hold it).

Each cell is an item in the notation of :mod:`map2route.language.fresh` (``stages``,
``constraints``, ``refs``) scored by ``fresh.score_item``.

First contact (before any change to the parser; 240 reason cells and 16 request cells): 167
right, 84 refused, 5 wrong (four "because go to the bin" read as a reason, one rule swallowed by
the reason before it), 0 drops. One generator slip was mended after the first run and before any
parser change: a place drawn for a predicate with no place slot ("gets nervous") was put in the
gold refs (22 false drops). After :mod:`map2route.language.parser.said_reasons`: 239 right, 17
refused by name, 0 wrong, 0 drops (what is left, and why: test_grid_said_reasons.py).
"""

from __future__ import annotations

import random
from typing import Any

SEED = 20261243
N_CELLS = 240
N_REQUEST = 16

# routes said before the host: (text, stages, refs)
PRELUDES = [
    ("Go to the fridge.", [["goal", "fridge"]], ["fridge"]),
    ("need u at the desk.", [["goal", "desk"]], ["desk"]),
    ("Please head over to the toaster.", [["goal", "toaster"]], ["toaster"]),
    ("go to the bed in the bedroom and then the bin.", [["goal", "bed"], ["goal", "garbage_can"]],
     ["bed", "bedroom", "garbage_can"]),
    ("Could you go to the sink?", [["goal", "sink"]], ["sink"]),
]

# rules: (text, gold constraint, refs)
RULES = [
    ("keep away from the TV", {"kind": "far", "head": "television", "scope": "global"},
     ["television"]),
    ("dont go near the floor lamp", {"kind": "far", "head": "floor_lamp", "scope": "global"},
     ["floor_lamp"]),
    ("don't go into the kitchen", {"kind": "avoid", "head": "kitchen", "scope": "global"},
     ["kitchen"]),
    ("pls dont go inside kitchen", {"kind": "avoid", "head": "kitchen", "scope": "global"},
     ["kitchen"]),
    ("stay close to the counter", {"kind": "near", "head": "counter_top", "scope": "global"},
     ["counter_top"]),
    ("give the dining table a wide berth",
     {"kind": "clearance", "head": "dining_table", "scope": "global"}, ["dining_table"]),
    ("don't drive over the dog bed", {"kind": "avoid", "head": "dog_bed", "scope": "global"},
     ["dog_bed"]),
    ("dont bump the armchair", {"kind": "far", "head": "arm_chair", "scope": "global"},
     ["arm_chair"]),
    ("in the living room keep away from the sofa",
     {"kind": "far", "head": "sofa", "scope": "in:living_room"}, ["sofa", "living_room"]),
    ("no passing between the dog bed and the cart",
     {"kind": "between_avoid", "head": "dog_bed|cart", "scope": "global"}, ["dog_bed", "cart"]),
]

# stops a reason may follow: (text, stage, refs); a further stop follows them
STOPS = [
    ("go to the washing machine", ["goal", "washing_machine"], ["washing_machine"]),
    ("go past the dog bed", ["pass", "dog_bed"], ["dog_bed"]),
    ("wait by the toaster", ["goal", "toaster"], ["toaster"]),
    ("go to the desk", ["goal", "desk"], ["desk"]),
    ("stop at the dresser", ["goal", "dresser"], ["dresser"]),
]
AFTER_STOP = ("then go to the bin", ["goal", "garbage_can"], ["garbage_can"])

# reason predicates for animate subjects, by verb form; {at} is the reason's place
ANIMATE = [
    {"native": "is asleep{at}", "progressive": "is sleeping{at}", "bare": "sleep{at}",
     "dropped": "sleeping{at}"},
    {"native": "gets nervous", "progressive": "is getting nervous", "bare": "get nervous",
     "dropped": "nervous"},
    {"native": "plays games{at}", "progressive": "is playing games{at}",
     "bare": "play game{at}", "dropped": "playing games{at}"},
    {"native": "naps{at}", "progressive": "is napping{at}", "bare": "nap{at}",
     "dropped": "napping{at}"},
    {"native": "gets anxious", "progressive": "is getting anxious", "bare": "get anxious",
     "dropped": "anxious"},
]
# for things: the subject is the thing itself
INANIMATE = [
    {"native": "is wobbly", "progressive": "is wobbling", "bare": "wobble", "dropped": "wobbly"},
    {"native": "is loose", "progressive": "is coming loose", "bare": "come loose",
     "dropped": "loose"},
    {"native": "falls over easily", "progressive": "is falling over", "bare": "fall easy",
     "dropped": "falling over"},
]
SUBJECTS = {
    "pronoun": [("he", "he's"), ("she", "she's")],
    "person": [("grandma", "grandma's"), ("my son", "my son's"), ("my husband", "my husband's"),
               ("someone", "someone's"), ("the baby", "the baby's")],
    "pet_name": [("Biscuit", "Biscuit's"), ("Milo", "Milo's")],
    "pet": [("the dog", "the dog's"), ("the cat", "the cat's"), ("the puppy", "the puppy's"),
            ("dog", "dog's")],
}
THINGS = [("it", "it's", []), ("its", "its", []), ("the lamp", "the lamp's", []),
          ("the vase", "the vase's", ["vase"]), ("the statue on it", "the statue on it is",
                                                   ["statue"])]
# reasons with no subject
BARE_STATES = ["floor still wet", "cold air coming", "just mopped", "still drying",
               "wet paint", "cable loose", "window open", "glass everywhere"]
# places a reason may name: (text, refs)
PLACES = [("", []), (" there", []), (" in there", []), (" on the sofa", ["sofa"]),
          (" in the dog bed", ["dog_bed"]), (" by the window", ["window"]),
          (" on the bed", ["bed"])]
# purposes after "so" / "just so"
PURPOSES = [
    ("{s} sees you", []), ("{s} knows you're there", []),
    ("your camera can catch the note I stuck on it", []),
    ("I know you can find it", []),
    ("the camera can see the plant", ["house_plant"]),
    ("{s} can see you from the sofa", ["sofa"]),
]
FORMS = ["native", "progressive", "bare", "dropped"]
SUBJECT_KINDS = ["pronoun", "person", "pet_name", "pet", "thing", "none"]

# connectives after the host: {h} host, {r} reason, {R} capitalised reason
AFTER = {
    "none": "{h} {r}",
    "comma": "{h}, {r}",
    "because": "{h} because {r}",
    "cos": "{h} cos {r}",
    "coz": "{h}, coz {r}",
    "as": "{h}, as {r}",
    "since": "{h} since {r}",
    "dash": "{h} - {r}",
    "brackets": "{h} ({r})",
    "sentence": "{h}. {R}",
}
# the reason before the host
BEFORE = {
    "so": "{R}, so {h}",
    "so_bare": "{R} so {h}",
    "sentence": "{R}. {H}",
    "dash": "{R} - {h}",
}
POSITIONS = ["after_rule", "after_stop", "own_sentence", "before_rule", "purpose"]


def _cap(s: str) -> str:
    return s[0].upper() + s[1:]


def _reason(rng: random.Random, kind: str, form: str) -> tuple[str, list[str]]:
    """A reason clause of subject ``kind`` in verb ``form``, and the map things it names."""
    if kind == "none":
        return rng.choice(BARE_STATES), []
    if kind == "thing":
        subj, contracted, refs = rng.choice(THINGS)
        pred = rng.choice(INANIMATE)[form]
        if form == "native" and pred.startswith("is "):
            return f"{contracted} {pred[3:]}", refs
        return f"{subj} {pred}", refs
    subj, contracted = rng.choice(SUBJECTS[kind])
    pred = rng.choice(ANIMATE)[form]
    at, refs = rng.choice(PLACES) if "{at}" in pred else ("", [])
    pred = pred.replace("{at}", at)
    if form == "native" and pred.startswith("is ") and rng.random() < 0.5:
        return f"{contracted} {pred[3:]}", list(refs)
    return f"{subj} {pred}", list(refs)


def _item(text: str, stages: list[list[str]], constraints: list[dict[str, Any]],
          refs: list[str], kind: str) -> dict[str, Any]:
    return {"instruction": text, "stages": stages, "constraints": constraints,
            "refs": sorted(set(refs)), "kind": kind}


def _cell(rng: random.Random) -> dict[str, Any]:
    position = rng.choice(POSITIONS)
    pre, pre_stages, pre_refs = rng.choice(PRELUDES)
    form = rng.choice(FORMS)
    kind = rng.choice(SUBJECT_KINDS)
    reason, rrefs = _reason(rng, kind, form)
    if position == "purpose":
        purpose, prefs = rng.choice(PURPOSES)
        subj = rng.choice(SUBJECTS[rng.choice(["person", "pet_name", "pet"])])[0]
        reason, rrefs = purpose.replace("{s}", subj), list(prefs)
        host, stage, hrefs = rng.choice(STOPS)
        nxt, nstage, nrefs = AFTER_STOP
        how = rng.choice(["so", "just_so", "sentence"])
        if how == "so":
            text = f"{_cap(host)} so {reason}, {nxt}."
        elif how == "just_so":
            text = f"{_cap(host)}, just so {reason}. {_cap(nxt)}."
        else:
            text = f"{_cap(host)}. Just so {reason}. {_cap(nxt)}."
        return _item(text, [stage, nstage], [], hrefs + rrefs + nrefs, position)
    if position == "after_stop":
        host, stage, hrefs = rng.choice(STOPS)
        nxt, nstage, nrefs = AFTER_STOP
        conn = rng.choice(sorted(AFTER))
        body = AFTER[conn].format(h=_cap(host), r=reason, R=_cap(reason))
        text = f"{body}, {nxt}." if conn != "sentence" else f"{body}. {_cap(nxt)}."
        return _item(text, [stage, nstage], [], hrefs + rrefs + nrefs, position)
    rule, con, crefs = rng.choice(RULES)
    if position == "before_rule":
        conn = rng.choice(sorted(BEFORE))
        body = BEFORE[conn].format(h=rule, H=_cap(rule), R=_cap(reason))
    else:
        conn = "sentence" if position == "own_sentence" else rng.choice(
            sorted(set(AFTER) - {"sentence"}))
        body = AFTER[conn].format(h=_cap(rule), r=reason, R=_cap(reason))
    text = f"{pre} {body}."
    return _item(text, pre_stages, [con], pre_refs + crefs + rrefs, position)


# a clause after the rule that might be a request: refused by name, or read as the stop
REQUESTS = [
    ("so go to the sofa", ["goal", "sofa"], ["sofa"]),
    ("because go to the bin", ["goal", "garbage_can"], ["garbage_can"]),
    ("so wait by the fridge", ["goal", "fridge"], ["fridge"]),
    ("so head to the toilet", ["goal", "toilet"], ["toilet"]),
]


def _request_cell(rng: random.Random) -> dict[str, Any]:
    pre, pre_stages, pre_refs = rng.choice(PRELUDES[:3])
    rule, con, crefs = rng.choice(RULES[:6])
    req, stage, rrefs = rng.choice(REQUESTS)
    text = f"{pre} {_cap(rule)}, {req}."
    return _item(text, [*pre_stages, stage], [con], pre_refs + crefs + rrefs, "request")


def cells() -> list[dict[str, Any]]:
    """The sampled grid: ``N_CELLS`` distinct reason cells and ``N_REQUEST`` request cells,
    seeded."""
    rng = random.Random(SEED)
    seen: dict[str, dict[str, Any]] = {}
    while len(seen) < N_CELLS:
        c = _cell(rng)
        seen.setdefault(c["instruction"], c)
    reqs: dict[str, dict[str, Any]] = {}
    while len(reqs) < N_REQUEST:
        c = _request_cell(rng)
        reqs.setdefault(c["instruction"], c)
    out = list(seen.values()) + list(reqs.values())
    for i, c in enumerate(out):
        c["id"] = f"SR{i + 1:03d}"
    return out
