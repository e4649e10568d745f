"""Post-modifiers of a noun phrase, one reader per kind, tried in order.

``in ROOM`` / ``in X``, ``in the corner (of X)``, ``on X``, ``next to X``, ``near X``,
``far from X``, ``between X and Y``, ``nearest to X`` (with an ordinal), ``with two
windows`` / ``with the most beds`` / ``without a bed``, and ``you start in``. Each reader
returns :data:`MISS` when its words are not at the token, ``None`` when they are but what
follows is no noun phrase (the modifier then fails as a whole, as the first matching kind
decides), or the modifier and the token after it.

Hand-written: the kinds are phrase lists (``lexicons/instructions.yaml``) each followed by a
nested noun phrase; the order of the readers is the precedence between overlapping phrasings
("in the corner" before "in", "next to" before "near").
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from map2route.language.parser import words as W
from map2route.language.parser.contrasted_contents import (
    COUNT_BOUNDS,
    COUNT_TAILS,
    count_number,
)
from map2route.language.parser.model import Modifier, RefExpr
from map2route.language.parser.state import ParserState


class _Miss(Enum):
    MISS = 0


#: A reader's answer when its phrasing is not at the token.
MISS = _Miss.MISS
Read = tuple[Modifier, int] | None | Literal[_Miss.MISS]


class ModifierReader(ParserState):
    """Reads one post-modifier: :meth:`modifier`."""

    def modifier(self, ref: RefExpr, j: int, end: int,
                 nested: int) -> tuple[Modifier, int] | None:
        """The post-modifier of ``ref`` at token ``j`` and the token after it, or None."""
        readers = (self._start_room_mod, self._rank_mod, self._location_mod, self._corner_mod,
                   self._on_mod, self._next_to_mod, self._near_mod, self._far_mod,
                   self._between_mod, self._possession_mod)
        for reader in readers:
            got = reader(ref, j, end, nested)
            if got is not MISS:
                return got
        return None

    def _nested(self, kind: str, j: int, at: int, end: int, nested: int) -> Read:
        """``kind`` with the noun phrase at ``at`` as its one reference."""
        inner = self.np(at, end, nested + 1)
        if inner is None:
            return None
        return Modifier(kind, [inner[0]], span=self.span(j, inner[1])), inner[1]

    def _start_room_mod(self, ref: RefExpr, j: int, end: int, nested: int) -> Read:
        """"(the room that) you start in"."""
        n = self.at_any(j, W.START_ROOM_RELATIVES)
        if not n or ref.head_kind != "room":
            return MISS
        k = j + n
        if self.w(k) == "now":
            k += 1
        return Modifier("start_room", span=self.span(j, k)), k

    def _rank_mod(self, ref: RefExpr, j: int, end: int, nested: int) -> Read:
        """"(second) nearest to X", "nearest the X", "closer to X", "the largest"."""
        k, rank = 1, ""
        jj = j
        if self.w(jj) in W.ORDINALS and self.w(jj + 1) in W.RANK_WORDS:
            k = W.ORDINALS[self.w(jj)]
            jj += 1
        if self.at(jj, "most", "distant") or self.at(jj, "most", "remote"):
            rank, jj = "farthest", jj + 2
        elif self.w(jj) in W.NEAREST:
            rank, jj = "nearest", jj + 1
        elif self.w(jj) in W.FARTHEST:
            rank, jj = "farthest", jj + 1
        elif self.w(jj) in ("closer", "nearer", "farther", "further") and \
                self.w(jj + 1) in ("to", "from", "away") and not self._than_follows(jj, end):
            rank, jj = W.COMPARATIVE[self.w(jj)], jj + 1
        elif self.w(jj) in W.LARGEST | W.SMALLEST and jj > j:
            r = "largest" if self.w(jj) in W.LARGEST else "smallest"
            return Modifier("rank", rank=r, k=k, span=self.span(j, jj + 1)), jj + 1
        if not rank:
            return MISS
        if self.w(jj) not in ("to", "from", "away", "of", "the"):
            return Modifier("rank", [], rank=rank, k=k, span=self.span(j, jj)), jj
        kk = jj + 1 if self.w(jj) in ("to", "from", "of") else jj
        if self.w(jj) == "away" and self.w(jj + 1) == "from":
            kk = jj + 2
        inner = self.np(kk, end, nested + 1, under_rank=True)
        if inner is None:
            return None
        return Modifier("rank", [inner[0]], rank=rank, k=k,
                        span=self.span(j, inner[1])), inner[1]

    def _location_mod(self, ref: RefExpr, j: int, end: int, nested: int) -> Read:
        """"in the bedroom" (``in_room``), "in the box" (``on``), "in here" (the start room)."""
        n = self.at_any(j, W.LOCATION_PREPS)
        if not n or self.at(j, "in", "the", "corner") or self.at(j, "in", "a", "corner") \
                or self.at(j, "in", "between"):
            return MISS
        if self.w(j) == "of" and not self._next_is_room(j + 1, end):
            return None
        inner = self.np(j + n, end, nested + 1)
        if inner is None:
            return None
        if inner[0].head_kind == "pronoun" and self.w(j + n) in ("there", "that", "it"):
            # "the bin in there": the room of the stop just named (the bare "the room")
            inner[0].head, inner[0].head_kind = "room", "room"
        kind = "in_room" if inner[0].head_kind == "room" else "on"
        if inner[0].head_kind in ("start", "here"):
            # "in here", "in the start": the room the robot starts in
            kind = "in_room"
            inner[0].head, inner[0].head_kind = "room", "room"
            inner[0].modifiers.append(Modifier("start_room"))
        return Modifier(kind, [inner[0]], span=self.span(j, inner[1])), inner[1]

    def _corner_mod(self, ref: RefExpr, j: int, end: int, nested: int) -> Read:
        """"in the corner (of X)", "in one of the corners"."""
        if not (self.at(j, "in", "the", "corner") or self.at(j, "in", "a", "corner") or
                self.at(j, "in", "one", "of", "the", "corners")):
            return MISS
        kk = j + (3 if not self.at(j, "in", "one") else 5)
        mod = Modifier("in_corner", span=self.span(j, kk))
        if self.w(kk) == "of":
            inner = self.np(kk + 1, end, nested + 1)
            if inner is not None:
                mod.refs.append(inner[0])
                kk = inner[1]
                mod.span = self.span(j, kk)
        return mod, kk

    def _on_mod(self, ref: RefExpr, j: int, end: int, nested: int) -> Read:
        n = self.at_any(j, W.ON_PREPS)
        return self._nested("on", j, j + n, end, nested) if n else MISS

    def _next_to_mod(self, ref: RefExpr, j: int, end: int, nested: int) -> Read:
        """"next to X"; between two rooms it is ``adjacent``."""
        n = self.at_any(j, W.NEXT_TO_PREPS)
        if not n:
            return MISS
        inner = self.np(j + n, end, nested + 1)
        if inner is None:
            return None
        kind = "adjacent" if ref.head_kind == "room" and inner[0].head_kind == "room" \
            else "next_to"
        return Modifier(kind, [inner[0]], span=self.span(j, inner[1])), inner[1]

    def _near_mod(self, ref: RefExpr, j: int, end: int, nested: int) -> Read:
        n = self.at_any(j, W.NEAR_PREPS)
        return self._nested("near", j, j + n, end, nested) if n else MISS

    def _far_mod(self, ref: RefExpr, j: int, end: int, nested: int) -> Read:
        n = self.at_any(j, W.FAR_FROM_PREPS)
        return self._nested("far_from", j, j + n, end, nested) if n else MISS

    def _between_mod(self, ref: RefExpr, j: int, end: int, nested: int) -> Read:
        if self.w(j) != "between":
            return MISS
        a = self.np(j + 1, end, nested + 1)
        if a is None or self.w(a[1]) != "and":
            return None
        b = self.np(a[1] + 1, end, nested + 1)
        if b is None:
            return None
        return Modifier("between", [a[0], b[0]], span=self.span(j, b[1])), b[1]

    def _possession_mod(self, ref: RefExpr, j: int, end: int, nested: int) -> Read:
        """"with two windows", "that has a lamp", "without a bed", "with the most beds"."""
        n = self.at_any(j, W.POSSESSION_PREPS)
        if not n:
            return MISS
        kk = j + n
        most = self.at_any(kk, W.COUNT_SUPERLATIVES)
        if most and self.w(kk + most) != "than":
            # "the room with the most beds": rank by how many it holds
            fewest = any(self.w(x) in ("fewest", "fewer", "least", "less", "smallest")
                         for x in range(kk, kk + most))
            inner = self.np(kk + most, end, nested + 1)
            if inner is None:
                return None
            return Modifier("rank", [inner[0]], rank="fewest" if fewest else "most",
                            span=self.span(j, inner[1])), inner[1]
        kk, count, fewer = self._bounded_count(kk)
        if not fewer and count is None:
            kk, count = self._count(kk)
        inner = self.np(kk, end, nested + 1)
        if inner is None:
            return None
        negated = (self.w(j) == "without") != fewer
        if count == 0:
            negated, count = True, None
        return Modifier("with", [inner[0]], count=count, negated=negated,
                        span=self.span(j, inner[1])), inner[1]

    def _bounded_count(self, kk: int) -> tuple[int, int | None, bool]:
        """A bound on the count after "with": "more than five" / "at least three" / "two or
        more" (``count`` -N: at least N), "fewer than two" / "at most one" / "two or fewer"
        (at least N, negated: ``fewer`` True). ``(kk, None, False)`` when no bound is said."""
        for lead, past, fewer in COUNT_BOUNDS:
            num = self._number(kk + len(lead)) if self.at(kk, *lead) else None
            if num is not None:
                return kk + len(lead) + 1, -(num + past), fewer
        num = self._number(kk)
        for tail, past, fewer in COUNT_TAILS:
            if num is not None and self.at(kk + 1, *tail):
                return kk + 1 + len(tail), -(num + past), fewer
        return kk, None, False

    def _number(self, k: int) -> int | None:
        return count_number(self.w(k))

    def _count(self, kk: int) -> tuple[int, int | None]:
        """A count after "with": "two", "exactly 2", "a couple of", "several" (-2: some)."""
        count: int | None = None
        if self.w(kk) in ("exactly", "only", "just"):
            kk += 1
        if self.w(kk) == "the" and (self.w(kk + 1).isdigit() or self.w(kk + 1) in W.NUMBERS
                                    and self.w(kk + 1) not in ("a", "an", "one")):
            kk += 1  # "with the two tall lamps": the count the article introduces
        if self.at(kk, "a", "couple", "of"):
            return kk + 3, 2
        if self.w(kk) in W.NUMBERS or self.w(kk).isdigit():
            count = W.NUMBERS.get(self.w(kk), None) if not self.w(kk).isdigit() \
                else int(self.w(kk))
            if self.w(kk) in ("a", "an", "several", "multiple"):
                count = None if self.w(kk) in ("a", "an") else -2
            kk += 1
        return kk, count
