"""Stage 1 of the parser: split the instruction into clause spans, put clauses in route order.

Spans are cut at sentence punctuation, ``then`` and at a comma, ``and``, ``but`` or
``while`` followed by a clause opener (a movement or preference verb); a gerund cut off a goal
("..., staying near the wall") is *attached* to it. Each span is then a mention ("there is a
box in the bedroom"), a conditional (:mod:`.conditions`), a leading place ("In the bedroom, ...")
or scope that carries over to the next span, a ``before``/``after`` clause that reorders its
neighbours, or a body read by :mod:`.constraints`. Last, "on the way to X" adds X as a goal
and moves a pass before the stage it leads to.

Hand-written: the cut and reorder rules look at one or two words around a token and at the
clauses already read; they are short tests, not a grammar.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from map2route.language.errors import ParseError
from map2route.language.parser import words as W
from map2route.language.parser.conditions import ConditionReader, Span
from map2route.language.parser.model import (
    Clause,
    Modifier,
    RefExpr,
    all_stages,
    match_stage,
    same_ref,
)
from map2route.language.parser.shared_scopes import share_scopes

_STAGES = ("goal", "pass")
#: Verbs of leaving a room: "after you leave the kitchen" scopes what follows, it is no visit.
#: ("left" only right after "after"/"once": elsewhere it is mostly a side, "on the left".)
_LEAVING = ("leave", "leaving", "exit", "exiting")
#: What a span may start with and is not part of its clause ("and then", "finally,").
_SPAN_LEAD = (".", ";", "!", "?", ",", "and", "then", "finally", "lastly", "next", "afterwards",
              "also", "please", "now", "so", "while")
#: Words that never count toward unused words (function words of any clause).
_STOP = {"the", "a", "an", "to", "and", "then", ",", ".", ";", "please", "go", "of", "you",
         "your", "is", "are", "at", "it", "that", "this", "there", "be", "by", "in", "on",
         "from", "with", "than", "as", "while", "when", "if", "or", "for", "way", "first",
         "next", "finally", "after", "before", "up", "over", "i", "me", "want", "make", "sure",
         "get", "do", "not", "can", "will", "should", "must"}


@dataclass
class _Order:
    """The clauses read so far and what a scope-only span carries over to the next span."""

    spans: list[Span]
    out: list[Clause] = field(default_factory=list)
    k: int = 0
    carry_within: RefExpr | None = None
    carry_during: dict[str, Any] | None = None
    #: "In the bedroom, go past the lamp, and keep away from the bed": the leading place is
    #: the scope of every rule of its sentence, not only of the clause right after it
    sentence_within: RefExpr | None = None
    #: the leading place is a room the walk meets on its way ("the bedroom you walk through")
    place_on_the_way: bool = False


class ClauseReader(ConditionReader):
    """Reads the whole instruction: :meth:`clauses`."""

    def split(self, i: int, j: int) -> list[Span]:
        """Clause spans ``(start, end, attached)``: cut at . ; ! ?, at ``then``, and at a comma,
        ``and``, ``but`` or ``while`` followed by a clause opener. ``attached`` marks a
        preference that was cut off a goal clause ("..., staying near the wall")."""
        cuts: list[tuple[int, bool]] = [(i, False)]
        in_if = False
        for t in range(i, j):
            if self.w(t) == "if":
                in_if = True
            cut, ends_if = self._cut_at(t, i, j, in_if)
            if cut is not None:
                cuts.append((t, cut))
            in_if = in_if and not ends_if
        cuts.append((j, False))
        out: list[Span] = []
        for (a, att), (b, _) in zip(cuts, cuts[1:], strict=False):
            a2 = a
            while a2 < b and (self.w(a2) in _SPAN_LEAD or self.at(a2, "after", "that")
                              or self.at(a2, "after", "this")):
                if self.w(a2) == "while" and self.w(a2 + 1) not in self._GERUND_PREFS:
                    break
                a2 += 2 if self.w(a2) == "after" else 1
            if a2 < b:
                out.append((a2, b, att))
        return out

    def _cut_at(self, t: int, i: int, j: int, in_if: bool) -> tuple[bool | None, bool]:
        """Whether a span ends at ``t`` (None: no, False: a new clause starts, True: a
        preference attached to the clause before), and whether an open ``if`` ends there."""
        w = self.w(t)
        if w in (".", ";", "!", "?"):
            return False, True
        if w == "then" and self.w(t - 1) not in ("and",):
            return False, False
        if w in (",", "and", "but"):
            return self._cut_at_join(t, j, in_if)
        if w == "while" and self.w(t + 1) in self._GERUND_PREFS:
            return True, False
        if w in self._GERUND_PREFS and w not in ("passing", "making") and t > i and \
                self.w(t - 1) not in ("while", ",", "and", "but", "avoid", "without") and \
                not (w == "without" and not self._verb_follows(t + 1)):
            return True, False
        if w == "passing" and self.w(t + 1) in ("by", "past") and t > i and \
                self.w(t - 1) not in ("while", ",", "and", "but", "avoid", "without"):
            return True, False  # "go to the bed passing by the sofa"
        if w in ("before", "after", "once") and t > i and self.w(t - 1) not in (
                ",", "and", "then", "but") and not self.at(t, "after", "that") and \
                self.w(t + 1) in ("going", "visiting", "you", "heading", "reaching",
                                  "walking", "stopping", "passing", "getting", "moving",
                                  "arriving", "checking", "that", "the", "a", "an"):
            return False, False
        return None, False

    def _cut_at_join(self, t: int, j: int, in_if: bool) -> tuple[bool | None, bool]:
        """:meth:`_cut_at` for a comma, ``and`` or ``but``: cut when a clause opens after it."""
        w = self.w(t)
        nxt = self._after_skips(t + 1)
        if self.w(nxt) in ("until", "till") and "and" in (w, self.w(t + 1)):
            # "go to the plunger, and until you reach the bathroom, avoid the beds": the scope
            # opens the next clause
            return False, False
        if self.w(nxt) in self._GERUND_PREFS and not (
                self.w(nxt) == "without" and not self._verb_follows(nxt + 1)):
            return True, False
        if self.w(nxt) == "going" and self.w(nxt + 1) in ("past", "by", "via", "through") and \
                w == ",":
            # "go to the bed, going past the sofa": passed on the way, like "passing by"
            return True, False
        if self._opens_clause(nxt) and not (w == "and" and in_if and
                                            self.w(nxt) not in W.MOVE_VERBS):
            return False, False
        if w == "," and self.w(t + 1) in ("otherwise", "else"):
            return False, False
        if w == "," and in_if and nxt < j:
            return False, True
        return None, False

    def clauses(self) -> list[Clause]:
        """Every clause of the instruction, in route order."""
        st = _Order(self.split(0, len(self.words)))
        while st.k < len(st.spans):
            st.k += self._read_span(st)
        self._add_until_goals(st.out)
        self._order_passes(st.out)
        share_scopes(st.out, self.text)
        if not any(c.kind in ("goal", "pass", "circle", "follow_wall", "if") for c in st.out):
            # "stay far from the windows while crossing the bedroom": crossing is the route
            scoped = next((c.within for c in st.out if c.within is not None), None)
            if scoped is None:
                # the whole instruction is the span that lacks one
                raise ParseError(f"found no destination in {self.text!r}: say where to go, "
                                 "e.g. 'go to the sofa'", self.text.strip(),
                                 (0, len(self.text)))
            st.out.append(Clause("pass", scoped.span, scoped.text, refs=[scoped]))
        return st.out

    def clause(self, i: int, j: int) -> list[Clause]:
        """One span -> clauses, with its scopes applied."""
        body_i, body_j, within, during = self.scopes(i, j)
        got = self.clause_body(body_i, body_j) if body_i < body_j else []
        for c in got:
            if c.kind not in _STAGES:
                c.within = c.within or within
                c.during = c.during or during
        return got

    def _read_span(self, st: _Order) -> int:
        """Read ``st.spans[st.k]`` into ``st``; returns how many spans it used."""
        i, j, attached = st.spans[st.k]
        if self._sentence_initial(i):
            st.sentence_within, st.place_on_the_way = None, False
        for step in (self._mention, self._conditional_span, self._leading_place):
            used = step(st, i, j)
            if used:
                return used
        body_i, body_j, within, during = self.scopes(i, j)
        if body_i >= body_j:
            self._scope_only(st, i, j, within, during)
            return 1
        own_within = within
        within, during = within or st.carry_within, during or st.carry_during
        carried_place = st.carry_within is not None and own_within is None
        st.carry_within = st.carry_during = None
        used = self._before_after(st, i, body_i, body_j)
        if used:
            return used
        got = self.clause_body(body_i, body_j)
        if isinstance((during or {}).get("after"), RefExpr) and body_i == i and body_j < j and \
                got and self.w(i) not in ("in", "inside", "within") and \
                all(c.kind in _STAGES for c in got) and \
                self.w(body_j) in ("after", "once") and any(
                    self.w(x) in (*_LEAVING, "left")
                    for x in range(body_j + 1, min(j, body_j + 4))):
            # "go to the fridge after leaving the kitchen": leaving a room is no visit to it
            # (as "after you leave the kitchen" alone); reported with the parse, never a stop
            self._said_of_the_way(self._text(body_j, j), self.span(body_j, j))
            during = None
        self._apply_scopes(got, within, during, attached)
        if own_within is None and not carried_place and st.sentence_within is not None:
            if any(c.kind in _STAGES for c in got):
                st.sentence_within = None  # a stop elsewhere ends the place's sentence scope
            for c in got:
                if c.kind not in _STAGES and c.within is None and st.sentence_within is not None:
                    c.within = copy.deepcopy(st.sentence_within)
        if carried_place and st.place_on_the_way and got and \
                all(c.kind in ("pass", "via") for c in got) and st.out and \
                st.out[-1].kind == "goal":
            # "Go to the toilet. In the bedroom you walk through on the way, go past the
            # clock": a room the walk meets on the way to that goal, so passed before it
            st.out[len(st.out) - 1:len(st.out) - 1] = got
            return 1
        if during == {"this": True} and got and all(c.kind in ("goal", "pass") for c in got) \
                and st.out and st.out[-1].kind == "goal":
            # "go to the counter, and on the way, stop at the dog bed": met before that goal
            st.out[len(st.out) - 1:len(st.out) - 1] = got
            return 1
        self._place(st, i, body_i, body_j, attached, got)
        return 1

    def _mention(self, st: _Order, i: int, j: int) -> int:
        """"There's a box in the biggest bedroom. Go to it.": introduces a referent."""
        n = self.at_any(i, W.MENTION_OPENERS)
        if not n or self.post_if(i, j) is not None:
            return 0
        got = self.np(i + n, j, 0)
        if got is None or got[1] < j - (1 if self.w(j - 1) in (".", ",", ";") else 0):
            return 0
        st.out.append(Clause("mention", self.span(i, j), self._text(i, j), refs=[got[0]]))
        return 1

    def _conditional_span(self, st: _Order, i: int, j: int) -> int:
        if self.w(i) == "if" or self.at(i, "but", "if") or self.post_if(i, j) is not None:
            used, clause = self.conditional(st.spans, st.k, i + (1 if self.w(i) == "but" else 0))
            st.out.append(clause)
            return used
        return 0

    def _leading_place(self, st: _Order, i: int, j: int) -> int:
        """"In the bedroom with one window, go to the shelf": a place for the next clause."""
        if self.w(i) not in ("in", "inside", "within") or st.k + 1 >= len(st.spans):
            return 0
        place = self.np(i + 1, j, 0)
        if place is not None and place[0].head_kind == "room" and \
                (place[1] >= j or self.w(place[1]) in (",", ".")):
            st.carry_within = st.sentence_within = place[0]
            st.place_on_the_way = place[0].span[0] in self.marks.route_order and \
                (i == 0 or self.w(i - 1) in (".", "!", "?", ";"))
            self.mark(i, i + 1)  # "inside the kitchen, ...": the preposition is read
            return 1
        return 0

    def _scope_only(self, st: _Order, i: int, j: int, within: RefExpr | None,
                    during: dict[str, Any] | None) -> None:
        """A span that is only a scope: it applies to the clause before or after it."""
        out = st.out
        after = (during or {}).get("after")
        postposed = not self._sentence_initial(i)
        if isinstance(after, RefExpr) and (st.k + 1 >= len(st.spans) or postposed) and out and \
                any(self.w(x) in _LEAVING for x in range(i, j)):
            if postposed and out[-1].kind in ("avoid", "near", "far", "relative", "clearance") and \
                    out[-1].during is None and self.w(i - 1) not in (".", "!", "?", ";"):
                out[-1].during = during  # "keep away from the TV after you leave the kitchen"
                return
            # "go to the fridge after you leave the kitchen": leaving a room is no visit to
            # it; reported with the parse, never made a stop
            self._said_of_the_way(self._text(i, j), self.span(i, j))
            return
        if isinstance(after, RefExpr) and (st.k + 1 >= len(st.spans) or postposed) and out:
            # postposed "..., after visiting the toilet": that visit comes first
            pos = max(x for x, c in enumerate(out) if c.kind in _STAGES) \
                if any(c.kind in _STAGES for c in out) else len(out)
            out.insert(pos, Clause("goal", after.span, after.text, refs=[after]))
            return
        ends_sentence = self.w(j) in (".", "!", "?", ";", "") or j >= len(self.words)
        last = out[-1] if out else None
        if ends_sentence and last is not None and i > 0 and \
                self.w(i - 1) not in (".", "!", "?", ";"):
            # "..., while you pass through the bedroom." closes the clause before it
            if last.kind not in ("goal", "pass", "if"):
                last.within = last.within or within
                last.during = last.during or during
            return
        st.carry_within = within or st.carry_within
        st.carry_during = during or st.carry_during

    def _said_of_the_way(self, text: str, span: tuple[int, int]) -> None:
        """Report words about the way that make no stage or rule, as context with their span
        (so the places they name are mentioned), never drop them."""
        self.context.append(f"said of the way: {text}")
        self.context_spans.append(span)

    def _before_after(self, st: _Order, i: int, body_i: int, body_j: int) -> int:
        """"before/after X, do Y" and "do Y before/after X": clauses put in route order."""
        out = st.out
        more = st.k + 1 < len(st.spans)
        lead = self.at_any(body_i, W.BEFORE_LEADS)
        if lead:
            inner = self.clause_body(body_i + lead, body_j)
            postposed = not self._sentence_initial(i)
            if out and st.k > 0 and (postposed or not more):
                out.extend(inner)  # postposed: "visit the chair before going to the desk"
            elif more:
                # preposed: "before going to the desk, visit the chair"
                out.extend(self.clause(*st.spans[st.k + 1][:2]))
                out.extend(inner)
                return 2
            else:
                out.extend(inner)
            return 1
        lead = self.at_any(body_i, W.AFTER_LEADS)
        if lead:
            inner = self.clause_body(body_i + lead, body_j)
            if st.k > 0 and out and out[-1].kind in _STAGES and not more:
                # postposed: "go to the desk after visiting the chair"
                out[len(out) - 1:len(out) - 1] = inner
            else:
                out.extend(inner)
            return 1
        return 0

    def _apply_scopes(self, got: list[Clause], within: RefExpr | None,
                      during: dict[str, Any] | None, attached: bool) -> None:
        """Give the span's clauses its scopes (a room scope of a goal restricts its target)."""
        after = (during or {}).get("after")
        if isinstance(after, RefExpr) and got and all(c.kind in _STAGES for c in got):
            # "after visiting the toilet, go to the bed": the toilet is a stage first
            got.insert(0, Clause("goal", after.span, after.text, refs=[after]))
            during = None
        placed = False
        for c in got:
            if within is not None and c.kind not in _STAGES:
                c.within = within
                placed = True
            elif within is not None and c.refs and (c.refs[0].head_kind in ("object", "group")
                                                    or c.refs[0].head_kind in ("window", "door")
                                                    and within.head_kind == "room" and
                                                    within.span[0] in self.marks.route_order
                                                    or _gap(c.refs[0]) or
                                                    c.refs[0].head == "room") \
                    and not any(m.kind == "in_room" for m in c.refs[0].modifiers):
                c.refs[0].modifiers.insert(0, Modifier("in_room", [within], span=within.span))
                placed = True
            if during is not None and (c.kind not in _STAGES or
                                       during.get("until") is not None):
                c.during = during
            if attached and c.kind not in _STAGES and c.during is None:
                c.during = {"this": True}
        if within is not None and got and not placed:
            # "As you leave the bedroom, go into the kitchen": a room scope before a stop it
            # cannot restrict; reported with the parse, never dropped
            self._said_of_the_way(within.text, within.span)

    def _place(self, st: _Order, i: int, body_i: int, body_j: int, attached: bool,
               got: list[Clause]) -> None:
        """Add a span's clauses to ``st.out`` where the route takes them."""
        out = st.out
        if attached and out and out[-1].kind == "relative" and len(got) == 1 and \
                got[0].kind in ("near", "far", "relative") and got[0].refs and \
                got[0].refs[0].head_kind == "pronoun":
            # "favour A over B, staying closer to it inside the bathroom": one preference
            out[-1].within = out[-1].within or got[0].within
            out[-1].during = out[-1].during if got[0].during == {"this": True} else (
                out[-1].during or got[0].during)
            return
        if attached and got and all(c.kind == "pass" for c in got) and out and \
                out[-1].kind == "goal":
            # "go to the TV stand, passing through the kitchen": a must-pass room attached to
            # a goal by a gerund is crossed on the way there, so it comes before that goal
            out[len(out) - 1:len(out) - 1] = got
            return
        trailing_first = body_j > body_i and self.w(body_j - 1) == "first" or (
            self.w(body_j - 1) in (".", "!") and self.w(body_j - 2) == "first")
        if trailing_first and out and any(x.kind in _STAGES for x in out) and \
                all(c.kind in _STAGES for c in got) and i > 0 and \
                self.w(i - 1) not in (".", "!", "?", ";"):
            # "go to the chair, but visit the sink first": the sink comes before the chair
            pos = max(x for x, c in enumerate(out) if c.kind in ("goal", "pass", "if"))
            out[pos:pos] = got
            return
        if self.at(i, "but", "first") or (self.w(i) == "first" and out and
                                          any(x.kind in _STAGES for x in out)):
            pos = 0 if self.w(i) == "first" else len(out) - 1
            pos = max(0, min(pos, len(out)))
            out[pos:pos] = got
        else:
            out.extend(got)

    def _add_until_goals(self, out: list[Clause]) -> None:
        """"on the way to the desk, stay near the wall": the desk is a goal too. "Go to the
        plunger. Until you reach the bathroom, ...": a place reached on the way to a stage
        already named ends the constraint's leg there and is no stage of its own (opening the
        route, "stay close to the counter until you reach the fridge, then ...", it is the
        first stage)."""
        goals = all_stages(out)
        for c in list(out):
            until = (c.during or {}).get("until")
            if isinstance(until, RefExpr) and until.span in self.reached and \
                    any(x.kind in _STAGES for x in out[:out.index(c)]):
                continue
            named = next((g.refs[0] for g in goals if g.refs and same_ref(g.refs[0], until)),
                         None) if isinstance(until, RefExpr) else None
            if named is not None and isinstance(until, RefExpr) and until.head != named.head:
                until.head = named.head  # "on the way to the door" after "the front door"
            if isinstance(until, RefExpr) and named is None:
                g = Clause("goal", until.span, until.text, refs=[until])
                out.insert(out.index(c) + 1, g)
                goals.append(g)

    def _order_passes(self, out: list[Clause]) -> None:
        """"on the way to X, walk through the kitchen": that pass comes before X."""
        for c in [c for c in out if c.kind in _STAGES and c.during]:
            until = c.during.get("until") if c.during else None
            c.during = None
            if not isinstance(until, RefExpr):
                continue
            hit = match_stage(until, [x for x in all_stages(out) if x is not c])
            target = next((g for g in out if hit is not None and
                           any(x is hit for x in all_stages([g]))), None)
            if target is not None and out.index(target) < out.index(c):
                out.remove(c)
                out.insert(out.index(target), c)

    def _sentence_initial(self, i: int) -> bool:
        """Whether only discourse words ("Then,", "Next,") stand between ``i`` and a
        sentence start."""
        t = i - 1
        while t >= 0 and self.w(t) in (",", "then", "next", "and", "finally", "lastly", "also",
                                       "afterwards", "after", "that", "now", "so", "but"):
            t -= 1
        return t < 0 or self.w(t) in (".", "!", "?", ";")

    def unused_words(self) -> list[str]:
        """Words of the instruction the parse did not use (unknown words first)."""
        return list(dict.fromkeys(self.unknown + [
            t.text for n, t in enumerate(self.toks) if n not in self.used and t.text.isalpha()
            and t.text not in _STOP and t.text not in W.OPENERS]))


def _gap(ref: RefExpr) -> bool:
    """Whether ``ref`` is "the area between X and Y" (a midpoint after the parse): "in the
    kitchen, stop midway between X and Y" puts it in the kitchen."""
    return any(m.kind == "between" for m in ref.modifiers)
