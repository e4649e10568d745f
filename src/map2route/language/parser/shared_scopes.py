"""A scope said once over two constraints joined by "and": "As you cross that bedroom stay
close to the dresser and well away from the bed", "In the bedroom keep away from the bed and
close to the dresser", "While you're in the living room, stay near the wall and away from the
sofa".

The clause splitter cuts such a sentence at "and" (the second part opens with its own
constraint words), and the scope phrase, peeled off the first part, was given to that part
only: the second constraint came out unscoped, a wrong route without a word said about it.
The speaker said the scope once for both, so the second constraint, when nothing but "and"
stands between the two, it shares the first one's verb (starts "well away", "close to", ...)
and has no scope of its own, gets the first one's.

Hand-written, like the rest of the parser: a check on the clauses as read, by their character
spans in the instruction, with no guess beyond the two clauses joined by "and".
"""

from __future__ import annotations

from map2route.language.parser.model import Clause

__all__ = ["share_scopes"]

_STAGES = ("goal", "pass", "circle", "follow_wall", "if")
#: What may stand between the two constraints.
_JOINS = frozenset({"and", "and also"})
#: How a second constraint that shares the first one's verb ("stay close to X and well away
#: from Y") starts: a full clause with its own verb ("and don't enter any bathroom at any
#: point") may carry a scope of its own and is left alone.
_GAPPED = frozenset({"well", "away", "far", "close", "closer", "clear", "near", "nearer", "off",
                     "out", "right", "a", "plenty", "lots", "loads", "good", "further",
                     "farther", "next", "by"})


def share_scopes(out: list[Clause], text: str) -> None:
    """Give a constraint joined to the one before it by "and" that one's scope."""
    for prev, cur in zip(out, out[1:], strict=False):
        if prev.kind in _STAGES or cur.kind in _STAGES:
            continue
        if cur.within is not None or cur.during not in (None, {"this": True}):
            continue
        if prev.within is None and prev.during in (None, {"this": True}):
            continue
        between = " ".join(text[prev.span[1]:cur.span[0]].lower().split())
        first = text[cur.span[0]:cur.span[1]].lower().split()[:1]
        if between not in _JOINS or not first or first[0] not in _GAPPED:
            continue
        cur.within = prev.within
        if prev.during not in (None, {"this": True}):
            cur.during = dict(prev.during or {})
