""""The loo" as the room: "You're starting in the loo", "after you leave the loo", "go into the
loo and stop at the sink".

British English uses "loo" (and "lav", "lavatory", "WC") both for the toilet and for the room
it is in. The head lexicon reads it as the toilet, which is right after "go to", "stop at",
"clean" ("stop at the loo"); after a preposition of being in, entering or leaving a room
("in", "into", "inside", "leave", "exit", "out of") the speaker means the bathroom, and reading
the toilet there put a stop at the toilet and lost the room (set AL16 at first contact).
:func:`loo_as_room` reads "loo" as "bathroom" there (the same span, so a refusal still points
into the original text).

:func:`loo_room_refs` does the same for the places of context sentences ("You're starting in
the loo."), which are read from the text itself.

A closed construction read off two words, so it is hand-written like the rest of the parser.
"""

from __future__ import annotations

from map2route.language.parser.model import RefExpr
from map2route.language.tokens import Token

__all__ = ["loo_as_room", "loo_room_refs"]

#: The words for the toilet that also name its room.
_LOO = frozenset({"loo", "lav", "lavatory", "lavvy", "wc", "restroom"})
#: What makes the word before them a room's: being in, entering, leaving.
_IN_ROOM = frozenset({"in", "into", "inside", "leave", "leaving", "left", "exit", "exiting",
                      "of", "through", "thru"})
#: "out of the loo", "the corner of the loo": a place that only a room has.
_PART_OF_ROOM = frozenset({"out", "corner", "corners", "middle", "centre", "center", "end",
                           "back", "far"})
_DETS = frozenset({"the", "a", "that", "this", "my", "our", "downstairs", "upstairs", "little",
                   "small", "big", "other"})


def loo_as_room(toks: list[Token]) -> list[Token]:
    """"starting in the loo" -> "starting in the bathroom"; "stop at the loo" is left."""
    out = list(toks)
    for k, t in enumerate(toks):
        if t.text not in _LOO:
            continue
        b = k - 1
        while b >= 0 and toks[b].text in _DETS:
            b -= 1
        if b >= 0 and toks[b].text in _IN_ROOM and b < k - 1 and \
                (toks[b].text != "of" or b > 0 and toks[b - 1].text in _PART_OF_ROOM):
            out[k] = Token("bathroom", t.start, t.end)
    return out


def loo_room_refs(text: str, refs: list[RefExpr]) -> list[RefExpr]:
    """Context places read from ``text``: a toilet said as "loo" after "in" / "leave" / ... is
    the bathroom (see :func:`loo_as_room`)."""
    out = []
    for r in refs:
        words = text[:r.span[1]].lower().split() if r.head == "toilet" and not r.modifiers else []
        if words and words[-1] in _LOO:
            b = len(words) - 2
            while b >= 0 and words[b] in _DETS:
                b -= 1
            if b >= 0 and words[b] in _IN_ROOM and b < len(words) - 2 and words[b] != "of":
                r = RefExpr(r.text, r.span, "bathroom", "room", r.definite, r.plural, [], r.fuzzy)
        out.append(r)
    return out
