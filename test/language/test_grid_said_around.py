"""Paradigm grid: what is said around a request (polite frames, the speaker's situation, reasons
after a rule, hedges, wordy time/manner tails), crossed so the parser has to compose them.

The axes were written as a speaker would say them, before reading the parser's modules for this
family. Every cell's gold is the request's stages and the rule's constraint only: the rest is
context. A cell is right when ``read_route`` returns the gold, wrong when it returns anything
else (a failure: there must be none), refused when it raises ``ParseError`` naming a span.

First contact (before any parser change): see ``FIRST_CONTACT``.
"""
from __future__ import annotations

import random

import pytest
from grid_grading import assert_grid, by_equality, grade

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route

# --- axes ---------------------------------------------------------------------------------------

# polite frame around the request: {r} the request, {t} its time/manner tail
FRAMES = [
    "{R}{t}.",
    "Would you be a love and {r}{t}?",
    "Could you {r} for me{t}?",
    "If it's no trouble, {r}{t}.",
    "I'd like you to {r}{t}.",
    "What I'd like is for you to {r}{t}.",
    "I need you to {r}{t}.",
    "Do me a favour and {r}{t}.",
    "Can you {r}{t}, please?",
    "Be a dear and {r}{t}.",
    "Any chance you could {r}{t}?",
    "Would it be possible to {r}{t}?",
]

# the request itself: (text, gold stages, the thing it ends at, as the speaker names it)
REQUESTS = [
    ("go to the fridge", [("goal", "fridge")], "fridge"),
    ("head over to the sofa", [("goal", "sofa")], "sofa"),
    ("go through the kitchen to the bed", [("pass", "kitchen"), ("goal", "bed")], "bed"),
    ("pop over to the desk", [("goal", "desk")], "desk"),
]

# wordy time/manner tails on the request
TAILS = ["", " for a sec", " when you get a chance", " for a bit", " when you've a minute",
         " if you can", " real quick"]

# a rule after the request (None: no rule), with its gold constraint
RULES = [
    (None, None),
    ("keep away from the TV", ("far", "television", "")),
    ("stay out of the bathroom", ("avoid", "bathroom", "")),
    ("steer clear of the dining table", ("far", "dining_table", "")),
    ("give the bin a wide berth", ("far", "garbage_can", "")),
]

# a reason after the rule, with its own subject and any finite verb
REASONS = [
    "someone left the lid up",
    "the kids are gaming in there",
    "you clipped one yesterday",
    "it's covered in my jigsaw",
    "the drawers are hanging open",
    "I'd hate for you to get splashed",
    "the floor's still wet",
    "the cat's asleep under it",
]

# how the reason is joined to the rule
JOINERS = [", ", " - ", ", because ", ", since ", "; ", " as ", ". ", " because "]

# hedges on the reason (or on the situation when there is no rule)
HEDGES = ["{c}", "I think {c}", "I reckon {c}", "pretty sure {c}", "{c}, if I remember right",
          "{c}, I'm fairly sure"]

# the speaker's situation, said before or after the request ({x}: the thing the request ends at)
SITUATIONS = [
    None,
    "I left my phone on the {x}",
    "I'm about to start on dinner",
    "my grandson left the bat out",
    "I've just mopped in front of it",
    "we've got people coming at six",
    "my back's playing up today",
]
SIT_PLACES = ["before", "after"]


def _cap(s: str) -> str:
    return s[0].upper() + s[1:]


def build(frame: str, req: tuple, tail: str, rule: tuple, reason: str, joiner: str, hedge: str,
          situation: str | None, place: str) -> tuple[str, list[tuple[str, ...]]]:
    """One cell's instruction and gold route."""
    text, stages, x = req
    body = frame.format(r=text, R=_cap(text), t=tail)
    gold = list(stages)
    parts = [body]
    rule_text, rule_gold = rule
    if rule_text is not None:
        said = hedge.format(c=reason)
        said = _cap(said) if joiner == ". " else said
        parts.append(_cap(rule_text) + joiner + said + ".")
        gold.append(rule_gold)
    if situation is not None:
        sit = situation.format(x=x)
        if rule_text is None:
            sit = hedge.format(c=sit)
        sit = _cap(sit) + "."
        parts = [sit, *parts] if place == "before" else [*parts, sit]
    return " ".join(parts), gold


AXES = [FRAMES, REQUESTS, TAILS, RULES, REASONS, JOINERS, HEDGES, SITUATIONS, SIT_PLACES]


def cells(n: int = 300, seed: int = 4) -> list[tuple[str, list[tuple[str, ...]]]]:
    """A deterministic seeded sample of the product of the axes (it is far over 300 cells)."""
    rng = random.Random(seed)
    total = 1
    for axis in AXES:
        total *= len(axis)
    picks = sorted(rng.sample(range(total), n))
    out = []
    for i in picks:
        idx = []
        for axis in reversed(AXES):
            i, k = divmod(i, len(axis))
            idx.append(k)
        values = [axis[k] for axis, k in zip(AXES, reversed(idx), strict=True)]
        out.append(build(*values))
    return out


# cells right / wrong / refused when the grid was first scored, before any parser change (the 30
# wrong then were all one gold error of the grid, "steer clear of" a thing is "far", since mended)
FIRST_CONTACT = {"right": 158, "wrong": 0, "refused": 142}
RIGHT_FLOOR = 299  # after said_around.py and the dash fix in parse._blank: 299 right, 0 wrong

CELLS = cells()


def test_grid_scores() -> None:
    assert_grid(((t, grade(t, read_route, by_equality(g))) for t, g in CELLS), RIGHT_FLOOR)


# hand-checked cases: the frames compose with each other and with the readers of what is inside
UNIT = [
    ("Be a love and go to the fridge for a sec.", [("goal", "fridge")]),
    ("If it's no trouble for you, go to the bed when you've got a minute.", [("goal", "bed")]),
    ("Would it be possible for you to go to the sofa? I reckon the cat's asleep on it.",
     [("goal", "sofa")]),
    ("Whenever you get a chance, head over to the desk. Keep away from the bin; someone left "
     "the lid up.", [("goal", "desk"), ("far", "garbage_can", "")]),
    ("Go to the toilet. Stay out of the kitchen - the kids are gaming in there, if I remember "
     "right. I've just mopped in front of it.", [("goal", "toilet"), ("avoid", "kitchen", "")]),
    ("Could you be a dear and wait by the sofa for a bit?", [("goal", "sofa")]),
    ("Go to the fridge for a bit; keep away from the TV.",
     [("goal", "fridge"), ("far", "television", "")]),
    ("Sorry to be a pain, but could you go to the armchair?", [("goal", "arm_chair")]),
    # which one, after a rule and a ";" or a full stop: as after a comma (was a second goal)
    ("Go to the fridge. Keep away from the TV; the one by the window.",
     [("goal", "fridge"), ("far", "television", "")]),
    ("Go to the fridge. Keep away from the TV. The one by the window.",
     [("goal", "fridge"), ("far", "television", "")]),
]

# the guards: a clause that places the target, a move, a rule or a description stays read or
# refused, never taken off as talk around the request
GUARDS_REFUSED = [
    "Go to the fridge for a sec, it's in the back bedroom.",
    "Go to the fridge. Pretty sure you'll go through the kitchen.",
    "Go to the sofa for a sec, I reckon it's in the lounge.",
    "Be a love and don't go through the kitchen.",
    # a state said as a sentence of its own after the rule: left to the sentence readers
    "Go to the fridge. Stay out of the bathroom. The drawers are hanging open.",
]
GUARDS_READ = [
    ("Go to the sofa, I think don't go through the kitchen.",
     [("goal", "sofa"), ("avoid", "kitchen", "")]),
    ("Go to the fridge, if you can keep away from the TV.",
     [("goal", "fridge"), ("far", "television", "")]),
    # a sentence after a rule that gives a stage is not taken as the rule's reason
    ("Go to the TV stand. Do not walk into the area around the desk lamp. Your final "
     "destination is the desk lamp.",
     [("goal", "tv_stand"), ("goal", "desk_lamp"), ("avoid", "desk_lamp", "")]),
]

# eight free-form sentences of this family, written after the grid and not fitted to; at first
# contact (with the frames above in place) 1 of 8 was right, 0 wrong, 7 refused
FREE_FORM = [
    ("Sorry to be a pain, but could you nip over to the armchair when you're free? I've left my "
     "glasses there, I'm almost certain.", [("goal", "arm_chair")]),
    ("Be an angel and head to the bathroom for me, would you? Keep clear of the laundry basket, "
     "the lid's broken.", [("goal", "bathroom"), ("far", "laundry_hamper", "")]),
    ("If it isn't too much bother, I'd love you to go to the bookshelf. Don't go near the lamp, "
     "it wobbles, I swear.", [("goal", "shelf"), ("far", "lamp", "")]),
    ("Right, so, I've got my hands full with the baking. Go to the oven for a second, please.",
     None),
    ("Whenever you have a sec, could you go through the hallway to the front door? The cat's "
     "been sick by the stairs, so stay away from them.", None),
    ("My daughter's coming round later. Can you go to the dining table? Avoid the kitchen, I "
     "think the dishwasher is leaking.", [("goal", "dining_table"), ("avoid", "kitchen", "")]),
    ("Would you mind heading to the couch? Stay well away from the fireplace since it's still "
     "hot, I reckon.", None),
    ("I'm stuck on a call. Pop to the wardrobe for me when you get a minute, and keep off the "
     "rug, the dog's chewed the corner.", None),
]
FREE_FORM_FIRST_CONTACT = {"right": 1, "wrong": 0, "refused": 7}


@pytest.mark.parametrize(("text", "gold"), UNIT)
def test_unit(text: str, gold: list[tuple[str, ...]]) -> None:
    assert read_route(text) == gold


@pytest.mark.parametrize("text", GUARDS_REFUSED)
def test_guard_refused(text: str) -> None:
    with pytest.raises(ParseError) as err:
        read_route(text)
    assert err.value.word or err.value.span


@pytest.mark.parametrize(("text", "gold"), GUARDS_READ)
def test_guard_read(text: str, gold: list[tuple[str, ...]]) -> None:
    assert read_route(text) == gold


@pytest.mark.parametrize(("text", "gold"), FREE_FORM)
def test_free_form(text: str, gold: list[tuple[str, ...]] | None) -> None:
    """Each is right or refused by name (None: refused today: a thing no map has, a hallway,
    "keep off"); never a wrong parse or a silent drop."""
    try:
        got = read_route(text)
    except ParseError as e:
        assert e.word or e.span
        return
    assert got == gold
