"""The way back to a speaker who has said where they are: "I'm on the couch. Go to the fridge
and come back to me" stops at the couch.

The parser reads "come back (here) to me", "back to where I am" and "bring me X" as a stop at
``start`` (:mod:`.speaker_place`, :mod:`.human`: the speaker is where the route starts). When a
scene sentence of the speaker's own ("I'm sitting on the sofa in the lounge with the floor
lamp", "we're at the kitchen table") names the place, that place is where "me" is, whether or
not the robot set off from it: a home robot is often called from another room. So this pass,
run last on the parsed clauses, gives such a return stop the place the speaker named (its
description too), in place of ``start``. Every writer of sets AA-AF golds "come back to me"
after "I'm on the couch" as the couch; earlier sets gold ``start`` (the same place, under the
convention above), and the scorer (:mod:`map2route.language.fresh`) takes a stop at a place
named in a scene sentence for the start.

The walker's own scene ("You're at the fridge. Go to the sofa and come back here.") and a
return said as the start ("back to where you started") are left at ``start``: the start is
where the walker was put, which is what the sentence names. Hand-written: the speaker's
openers and the return words are closed classes, and the refs come from the parse already.
"""

from __future__ import annotations

import re

from map2route.language.parser.model import Clause, RefExpr
from map2route.language.parser.speaker_scene import SPEAKER, scene

__all__ = ["back_to_speaker"]

#: A sentence of the speaker's own that says where they are, up to the ref's start.
_SPEAKER_SCENE = scene(SPEAKER, anchored=False, to_end=True)
#: A speaker's scene run on with no full stop ("three come back to me im on the couch"), read
#: as a scene by the spoken-boundary pass: "I'm" then no verb of going before the place.
_RUN_ON_SCENE = re.compile(r"\b(?:i'm|im|i am|we're|we are)\s(?![^.!?;]*\b(?:go|going|come|"
                           r"coming|head|heading|walk|walking|bring)\b)[^.!?;]*$", re.IGNORECASE)
#: Words that say the stop is the speaker, not where the walk began.
_TO_SPEAKER = re.compile(r"\b(?:me|us|here|where\s+(?:i|we)\s+(?:am|are)|where\s+i'm)\b",
                         re.IGNORECASE)
#: The request run on after the speaker's scene ("I'm in X, in the armchair, and I'd like you
#: to ..."): the scene sentence ends there (:mod:`.request_frames` reads it as a full stop).
_ASK = re.compile(r",\s*(?:right,\s*)?and\s+(?:i'd|id|i\s+would|i\s+need|i\s+want)\b",
                  re.IGNORECASE)
_AT_START = re.compile(r"\b(?:start|started|starting|begin|began|beginning|origin)\b",
                       re.IGNORECASE)


#: The words right before the thing the speaker is on or at ("sitting on the", "by my").
_PLACED = re.compile(r"\b(?:sitting|sat|standing|stood|lying|waiting|on|at|by|beside|next\s+to|"
                     r"in\s+front\s+of)\s+(?:the|my|our|a|an|this|that)\s+(?:[a-z]+\s+)?$",
                     re.IGNORECASE)


def _speaker_place(text: str, context_refs: list[RefExpr]) -> RefExpr | None:
    """The place the speaker's scene sentence names: its first object if it names one ("I'm
    in the lounge, on the couch": the couch), else its first place."""
    said = sorted((r for r in context_refs if _SPEAKER_SCENE.search(text[:r.span[0]]) or
                   _RUN_ON_SCENE.search(text[:r.span[0]])), key=lambda r: r.span[0])
    if not said:
        return None
    sentence_end = min([k for k in (text.find(c, said[0].span[0]) for c in ".!?;") if k >= 0] +
                       [m.start() for m in _ASK.finditer(text, said[0].span[0])][:1],
                       default=len(text))
    same = [r for r in said if r.span[0] < sentence_end]
    # the thing the speaker is on or at ("sitting on the chair nearest the dog bed"), not one
    # that only describes a room or a thing ("the bedroom with the TV", "nearest the dog bed")
    placed = [r for r in same if r.head_kind in ("object", "group") and
              _PLACED.search(text[max(0, r.span[0] - 40):r.span[0]])]
    if placed:
        return placed[0]
    # "I'm in the small living room, in the armchair": the thing said in apposition to the
    # room (read as the room's modifier) is where the speaker is
    apposed = [x for r in same if r.head_kind == "room" for m in r.modifiers
               if m.kind in ("on", "in", "at") for x in m.refs
               if x.head_kind == "object" and "," in text[r.span[0]:x.span[0]]]
    if apposed:
        return apposed[0]
    return next((r for r in same if r.head_kind in ("object", "group")), same[0])


def back_to_speaker(clauses: list[Clause], text: str,
                    context_refs: list[RefExpr]) -> list[Clause]:
    """``clauses`` with each stop back at the speaker given the place the speaker named (see
    the module docstring); the ref is changed in place, so scopes tied to it follow."""
    place = _speaker_place(text, context_refs)
    if place is None:
        return clauses
    starts = sorted(c.span[0] for c in clauses)
    for c in clauses:
        if c.kind != "goal" or len(c.refs) != 1 or c.refs[0].head_kind != "start":
            continue
        # the stop's words run on past its span ("come" | "back here to me") to the next
        # clause or the end of the sentence
        end = min([k for k in starts if k > c.span[0]] +
                  [k for k in (text.find(p, c.span[0]) for p in ".!?;") if k >= 0] +
                  [len(text)])
        said = text[c.span[0]:max(end, c.span[1])]
        if _TO_SPEAKER.search(said) is None or _AT_START.search(said) is not None:
            continue
        ref, got = c.refs[0], place.clone()
        ref.text, ref.span, ref.head, ref.head_kind = got.text, got.span, got.head, got.head_kind
        ref.definite, ref.plural, ref.modifiers, ref.fuzzy = (got.definite, got.plural,
                                                              got.modifiers, got.fuzzy)
        for x in clauses:
            # "on the way back to me, stay away from X": the leg that ends at that stop
            until = (x.during or {}).get("until")
            if isinstance(until, RefExpr) and until.head_kind == "start" and x.span[0] > c.span[0]:
                x.during = {"until": ref}
    return clauses
