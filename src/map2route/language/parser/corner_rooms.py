"""The corner of the room just named: "go to whichever room has the most chairs and stand in
the corner of that room that's nearest the window".

"that room" / "that same kitchen" / "the same room" after "the corner of" points back at the
room the route has just reached, the room the corner is in. The parser reads "the corner of
the R (that is) nearest X" as the corner of the room the route is in, but read "that room"
there as a second stop. This pass reads the pointing determiner as "the" (the token keeps the
characters of the words it stands for, so nothing said is lost and a later refusal still
points into the original text). Only "that" and "the same" are read: "this room" may be the
speaker's room and is left to the passes that read it. Hand-written like the rest of the
parser.
"""

from __future__ import annotations

from map2route.language.parser.anaphoric_scopes import _room_at
from map2route.language.tokens import Token

__all__ = ["corner_of_that_room"]

_POINT = (("that", "same"), ("that",), ("the", "same"))


def corner_of_that_room(toks: list[Token]) -> list[Token]:
    """ "the corner of that room" -> "the corner of the room" (see the module docstring)."""
    words = [t.text.lower() for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(toks):
        if i >= 2 and words[i - 2:i] == ["corner", "of"]:
            n = max((len(p) for p in _POINT if tuple(words[i:i + len(p)]) == p), default=0)
            if n and (words[i + n:i + n + 1] == ["room"] or _room_at(words, i + n)):
                out.append(Token("the", toks[i].start, toks[i + n - 1].end))
                i += n
                continue
        out.append(toks[i])
        i += 1
    return out
