"""Conditionals: ``if COND[,] [then] A [; otherwise B]`` and their conditions.

Conditions are ``there is (no) X (in ROOM)``, ``ROOM contains/has (no) (more than two) X``
and ``X is (not) in ROOM``; the branch bodies are ordinary clauses, and a pronoun in the
``then`` branch ("... head to it") names the condition's thing.
"""

from __future__ import annotations

from typing import Any

from map2route.language.errors import ParseError
from map2route.language.parser import words as W
from map2route.language.parser.model import Clause, RefExpr
from map2route.language.parser.scopes import ScopeReader

Span = tuple[int, int, bool]


class ConditionReader(ScopeReader):
    """Reads conditionals: :meth:`conditional`."""

    def conditional(self, spans: list[Span], k: int, i: int) -> tuple[int, Clause]:
        """The ``if`` clause starting at token ``i`` of ``spans[k]``: (spans used, clause)."""
        _, b, _ = spans[k]
        cond, then = self._condition_and_then(i, b)
        used, orelse = self._else_branch(spans, k, then)
        thing = cond.get("ref")
        if isinstance(thing, RefExpr) and thing.head_kind != "unknown":
            for c in then:
                if c.refs and c.refs[0].head_kind == "pronoun":
                    # "if there is a dresser in the bedroom, head to it": it is that dresser
                    c.refs[0] = RefExpr(thing.text, c.refs[0].span, thing.head,
                                        thing.head_kind, False, False, list(thing.modifiers))
        end = spans[k + used - 1][1]
        return used, Clause("if", self.span(i, end), self._text(i, end), condition=cond,
                            then=then, orelse=orelse)

    def _condition_and_then(self, i: int, b: int) -> tuple[dict[str, Any], list[Clause]]:
        """The condition and the ``then`` clauses within one span ``[i, b)``."""
        post = self.post_if(i, b)
        then: list[Clause] = []
        if post is not None:
            # "go to the lamp if the bedroom has one": the body comes first
            then.extend(self.clause(i, post))
            return self.condition(post + 1, b), then
        cond_end = b
        for t in range(i + 1, b):
            if self.w(t) in (",", "then") or (t > i + 2 and self.w(t) in W.MOVE_VERBS and
                                              self.w(t) not in ("back", "finally", "get")
                                              and self.lex.match(self.words[t:b]) is None
                                              and self.w(t - 1) not in W.DETS):
                cond_end = t
                break
        cond = self.condition(i + 1, cond_end)
        then_start = cond_end
        while self.w(then_start) in (",", "then") and then_start < b:
            then_start += 1
        if then_start < b:
            then.extend(self.clause(then_start, b))
        return cond, then

    def _else_branch(self, spans: list[Span], k: int,
                     then: list[Clause]) -> tuple[int, list[Clause]]:
        """The ``otherwise`` clauses after ``spans[k]`` (and ``then`` when the condition's
        span had none): (spans used from ``k``, else clauses)."""
        orelse: list[Clause] = []
        used = 1
        kk = k + 1
        while kk < len(spans):
            a2, b2, _ = spans[kk]
            n = self.at_any(a2, W.ELSE_OPENERS)
            if n:
                s = a2 + n
                if self.w(s - 1) == "no":
                    while s < b2 and self.w(s) not in (",",):
                        s += 1
                while s < b2 and self.w(s) in (",", "then", "instead"):
                    s += 1
                if s >= b2 and kk + 1 < len(spans):
                    return kk - k + 2, orelse + self._else_body(*spans[kk + 1][:2])
                return kk - k + 1, orelse + self._else_body(s, b2)
            if then:
                break
            then.extend(self.clause(a2, b2))
            used = kk - k + 1
            kk += 1
        return used, orelse

    def _else_body(self, s: int, e: int) -> list[Clause]:
        """The else branch ``[s, e)``: a clause, or failing that its bare targets as goals."""
        if s >= e:
            return []
        try:
            return self.clause(s, e)
        except ParseError:
            refs, _ = self.targets(s, e)
            if not refs:
                raise
            return [Clause("goal", r.span, r.text, refs=[r]) for r in refs]

    def post_if(self, i: int, j: int) -> int | None:
        """Position of a postposed ``if`` in ``[i, j)`` ("go to X if the room has Y"), or None."""
        for t in range(i + 1, j):
            if self.w(t) == "if" and self.w(t - 1) not in ("as", "even", "only", ",") and \
                    self.w(i) != "if":
                return t
        return None

    def condition(self, i: int, j: int) -> dict[str, Any]:
        """``the bedroom contains a lamp``, ``there is a lamp in the bedroom``, ``X has no Y``."""
        n = self.at_any(i, W.EXISTENCE_OPENERS)
        if n:
            return self._existence(i, j, i + n)
        verb = next((t for t in range(i + 1, j) if self.w(t) in (
            "contains", "has", "holds", "includes", "have", "does", "is", "features", "contain")),
            j)
        holder = self.np(i, verb, 0)
        if holder is None:
            raise ParseError(f"could not read the condition {self._text(i, j)!r}", self.w(i),
                             self.span(i, i + 1))
        ref, k = holder
        n = self.at_any(k, W.CONTAINMENT_VERBS)
        if not n:
            raise ParseError(f"could not read the condition {self._text(i, j)!r}: expected "
                             "'contains', 'has' or 'is in'", self.w(k), self.span(k, k + 1))
        if self.w(k) == "is" and self.w(k + 1) in ("in", "inside", "located", "not"):
            room = self.np(k + n, j, 1)
            if room is None:
                raise ParseError("could not read the room of the condition", self.w(k + n))
            self.mark(i, j)
            return {"kind": "inside", "ref": ref, "room": room[0],
                    "negated": self.w(k + 1) == "not"}
        return self._contains(i, j, ref, k, n)

    def _existence(self, i: int, j: int, k: int) -> dict[str, Any]:
        """"there is (no) (more than two) X (in ROOM)" with ``k`` after "there is"."""
        neg = False
        if self.w(k) in ("no", "not"):
            neg, k = True, k + 1
        cmp, k = self.comparator(k)
        count = None
        if self.w(k) in W.NUMBERS and self.w(k) not in ("a", "an"):
            count, k = W.NUMBERS[self.w(k)], k + 1
        while self.w(k) in ("any", "a", "an", "some"):
            k += 1
        thing = self.np(k, j, 0)
        if thing is None:
            raise ParseError(f"could not read the condition {self._text(i, j)!r}",
                             self.w(k), self.span(k, k + 1))
        self.mark(i, j)
        place = next((m for m in thing[0].modifiers if m.kind == "in_room" and m.refs
                      and m.refs[0].head_kind == "room"), None)
        if count is None or place is None:
            return {"kind": "exists", "ref": thing[0], "negated": neg}
        # "if there are more than three chairs in the kitchen": a count in a room
        rest = [m for m in thing[0].modifiers if m is not place]
        counted = RefExpr(thing[0].text, thing[0].span, thing[0].head,
                          thing[0].head_kind, False, True, rest)
        counted_in: dict[str, Any] = {"kind": "contains", "holder": place.refs[0],
                                      "ref": counted, "negated": neg, "count": count}
        if cmp:
            counted_in["cmp"] = cmp
        return counted_in

    def _contains(self, i: int, j: int, ref: RefExpr, k: int, n: int) -> dict[str, Any]:
        """"ROOM contains/has (no) (more than two) X" with the verb's ``n`` tokens at ``k``."""
        neg = self.w(k + 1) == "not" or self.at(k, "has", "no")
        kk = k + n
        cmp, kk = self.comparator(kk)
        while self.w(kk) in ("a", "an", "any", "some", "at", "least"):
            kk += 1
        count = None
        if self.w(kk) in W.NUMBERS and self.w(kk) not in ("a", "an"):
            count = W.NUMBERS[self.w(kk)]
            kk += 1
        thing = self.np(kk, j, 0)
        if thing is None and self.w(kk).isalpha():
            # an unknown category: the map has none, so "contains" is false
            self.note_unknown(self.w(kk))
            thing = (RefExpr(self._text(kk, kk + 1), self.span(kk, kk + 1), self.w(kk),
                             "unknown"), kk + 1)
        if thing is None:
            raise ParseError(f"could not read what the condition looks for in "
                             f"{self._text(i, j)!r}", self.w(kk), self.span(kk, kk + 1))
        self.mark(i, j)
        out: dict[str, Any] = {"kind": "contains", "holder": ref, "ref": thing[0],
                               "negated": neg}
        if count is not None:
            out["count"] = count
            if cmp:
                out["cmp"] = cmp
        return out
