""""its" after a relation word: "the corner of the bedroom nearest its window", "the chair
closest to its door".

The relation's object after "its" was read as a stop of its own (a pronoun before a head), a
wrong parse: "go to the corner of the bedroom nearest its window" went to the corner and then
to a window. After a relation word "its X" is the X of the thing just named; the map check
"nearest the X" picks the same one (the nearest X is the one of that room, or the relation
names the only one), so :func:`its_after_relation` reads it as "the" (the same span, so a
refusal still points into the original text).

A closed construction read off two words, so it is hand-written like the rest of the parser;
"its" anywhere else ("stop at its window", "its legs are wobbly") is left to the rules that
read it.
"""

from __future__ import annotations

from map2route.language.tokens import Token

__all__ = ["its_after_relation"]

#: Words after which "its" opens the object of a relation ("nearest its window").
_RELATIONS = frozenset({"nearest", "closest", "near", "nearer", "closer", "farthest",
                        "furthest", "beside", "opposite"})
#: Relations that end in "to" / "from" ("next to its bed", "farthest from its door").
_TO_RELATIONS = frozenset({"next", "close", "closest", "nearest", "closer", "nearer", "far",
                           "farthest", "furthest", "farther", "further", "away", "adjacent"})


def its_after_relation(toks: list[Token]) -> list[Token]:
    """"nearest its window" -> "nearest the window"; "next to its bed" -> "next to the bed"."""
    out = list(toks)
    for k in range(1, len(toks)):
        if toks[k].text != "its":
            continue
        prev = toks[k - 1].text
        if prev in _RELATIONS or prev in ("to", "from") and k > 1 and \
                toks[k - 2].text in _TO_RELATIONS:
            out[k] = Token("the", toks[k].start, toks[k].end)
    return out
