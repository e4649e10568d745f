"""Geometry targets said the ways people say them: the middle of a room, a corner picked by
what is near it, the midpoint between two things and the centre of a group of things.

Read here (each rewritten onto the phrasing the later rules read, or marked for
:func:`group_centres` after the parse):

* hedges on a geometry word: "roughly / about / sort of / kind of / more or less the middle
  of ...", "dead / bang / smack / slap / right / exactly in the middle of ...", "the very /
  exact / dead centre of ..." -- the word is consumed and recorded as said (a said-as move);
  a point target is a small area already, so the hedge changes nothing on the map;
* the centre of a group: "the middle of the four chairs around the kitchen table", "the
  centre of the sofa, the armchair and the lamp", "the centre (point) of the group formed by
  A, B and C", "the middle of that bunch of chairs" -> one ``centroid`` point whose
  ``between`` modifier holds the things (a plural reference or the listed ones); the
  count said ("four") names the whole group, so it is read, not dropped; a group of exactly
  two things is their ``midpoint`` ("the middle of the two beds");
* "the midpoint / centre point of A and B" (said with "of") -> "the midpoint between A and B";
  "halfway from A to B" -> "halfway between A and B";
* "between the two Xs" / "between both Xs" -> "between the X and the other X" (two of one
  kind, each a thing of its own);
* "the middle of it" / "the centre of it" (a room named before) -> the room's ``centroid``;
* "the spot (right) in the middle of X" -> "the middle of X";
* "whichever / which corner of ROOM is farthest from X" -> "the corner of ROOM farthest
  from X".

Hand-written (like the rest of :mod:`map2route.language.parser`): the package reads a closed
set of phrasings offline and refuses the rest naming their span; a learned reader could not
promise that no word is silently dropped.
"""

from __future__ import annotations

import re

from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.model import Clause, Modifier, RefExpr
from map2route.language.parser.rewrites import Marks, Rewriter, Rule

#: Words naming a geometry target (what a hedge may stand before).
_POINT_WORDS = frozenset({"middle", "centre", "center", "centroid", "midpoint", "corner",
                          "halfway", "midway", "mid"})
#: Hedges said before "the middle of" / "in the middle of" / "halfway": one word or two.
_HEDGES_BEFORE = (("more", "or", "less"), ("sort", "of"), ("kind", "of"), ("roughly",),
                  ("approximately",), ("about",), ("around",), ("kinda",), ("sorta",),
                  ("dead",), ("bang",), ("smack",), ("slap",), ("right",), ("exactly",),
                  ("just",), ("somewhere",), ("pretty", "much"), ("basically",))
#: Hedges said between "the" and the geometry word ("the very middle", "the dead centre").
_HEDGES_INSIDE = frozenset({"very", "exact", "dead", "precise", "true", "rough", "absolute"})
#: Nouns of a group of things ("the bunch of chairs", "the group formed by ...").
_GROUP_NOUNS = frozenset({"group", "bunch", "cluster", "set", "lot", "ring", "circle"})
_GROUP_JOIN = (("formed", "by"), ("made", "up", "of"), ("made", "by"), ("made", "of"),
               ("of",))
_CENTRE_WORDS = frozenset({"middle", "centre", "center", "centroid", "midpoint"})
_FAR = frozenset({"farthest", "furthest", "nearest", "closest"})
#: Mark left on the first token of a group whose centre is the target (the value says how
#: many things were said: "group:2" for "the two beds").
GROUP = "group"


def _head(rw: Rewriter, k: int) -> tuple[int, str, str, bool] | None:
    return head_lexicon().match(rw.words[k:k + head_lexicon().max_len])


def _said(rw: Rewriter, a: int, b: int, about: str) -> None:
    rw.marks.moves.append({"move": "frame", "text": " ".join(rw.words[a:b]), "about": about})


def hedge(rw: Rewriter, i: int) -> int | None:
    """"roughly the middle of", "dead centre of", "the very middle of", "bang in between":
    the hedge is consumed (recorded as said) and the geometry phrase read as it stands."""
    for h in _HEDGES_BEFORE:
        if not rw.at(i, *h):
            continue
        k = i + len(h)
        nxt = k + (rw.w(k) in ("in", "at", "to")) + (rw.w(k + (rw.w(k) in ("in", "at", "to")))
                                                     in ("the", "a"))
        if rw.w(nxt) in _HEDGES_INSIDE:
            nxt += 1
        if rw.w(nxt) in _POINT_WORDS and (rw.w(nxt) != "corner" or h[0] in ("right", "just")) \
                or rw.at(k, "in", "between") or \
                rw.w(k) == "between" and h[0] in ("bang", "smack", "slap", "dead"):
            if h == ("dead",) and rw.w(k) in _CENTRE_WORDS and rw.w(i - 1) != "the":
                # "dead centre of the lounge": "the centre of the lounge"
                rw.emit("the", like=rw.toks[i])
            elif h[0] in ("right", "just") and rw.w(k) in ("to", "at") and \
                    rw.w(i - 1) in ("go", "get", "move", "come"):
                return None  # "go right to the corner": read by the rules for "right to"
            _said(rw, i, k, "a hedge on the point (a point target is a small area already)")
            if rw.at(k, "in", "between") or rw.w(k) == "between":
                rw.emit("halfway", like=rw.toks[i])
                return k + (rw.w(k) == "in")
            return k
    if rw.w(i) == "the" and rw.w(i + 1) in _HEDGES_INSIDE and rw.w(i + 2) in _POINT_WORDS:
        _said(rw, i + 1, i + 2, "a hedge on the point (a point target is a small area already)")
        rw.out.append(rw.toks[i])
        return i + 2
    return None


_SPOTS = frozenset({"spot", "point", "place", "position", "bit"})


def spot_in_the_middle(rw: Rewriter, i: int) -> int | None:
    """"the spot (right) in the middle of X" -> "the middle of X" (the spot is the point)."""
    if rw.w(i) != "the" or rw.w(i + 1) not in _SPOTS:
        return None
    k = i + 2
    k += rw.w(k) in ("right", "dead", "bang", "smack", "exactly", "just")
    if not (rw.at(k, "in", "the") and rw.w(k + 2) in ("middle", "centre", "center") and
            rw.w(k + 3) == "of"):
        return None
    _said(rw, i + 1, k + 1, "the spot that is the point")
    rw.out.append(rw.toks[i])
    return k + 2


def whichever_corner(rw: Rewriter, i: int) -> int | None:
    """"whichever corner of the lounge is furthest from the telly" -> "the corner of the
    lounge furthest from the telly" (the corner rule reads the rest)."""
    if rw.w(i) not in ("whichever", "which", "whatever") or rw.w(i + 1) != "corner":
        return None
    k = i + 2
    if rw.w(k) in ("of", "in"):
        k += 1 + (rw.w(k + 1) == "the")
        hit = _head(rw, k)
        if hit is None or hit[2] != "room":
            return None
        k += hit[0]
    if rw.w(k) != "is" or rw.w(k + 1) not in _FAR:
        return None
    rw.emit("the", like=rw.toks[i])
    rw.out.extend(rw.toks[i + 1:k])
    return k + 1


def _two_of(rw: Rewriter, k: int) -> int:
    """Length of "the two" / "both (of) the" / "both" at ``k`` (0 if none)."""
    for seq in (("the", "two", "of", "the"), ("both", "of", "the"), ("the", "two"),
                ("both", "the"), ("both",), ("the", "pair", "of")):
        if rw.at(k, *seq):
            return len(seq)
    return 0


def _singular(words: list[str]) -> list[str]:
    """"floor lamps" -> "floor lamp", "couches" -> "couch"."""
    last = words[-1]
    last = last[:-2] if last.endswith(("ches", "shes", "sses", "xes")) else \
        last[:-1] if last.endswith("s") else last
    return [*words[:-1], last]


def between_two(rw: Rewriter, i: int) -> int | None:
    """"between the two beds (in the bedroom)" -> "between the bed and the other bed (in the
    bedroom)": two things of one kind, each one of its own."""
    if rw.w(i) != "between" or rw.w(i - 1) in ("", ".", "!", "?", ";", ":", ","):
        return None  # "Between the two sofas, pick the one ...": a pick from the two
    n = _two_of(rw, i + 1)
    hit = _head(rw, i + 1 + n) if n else None
    if hit is None or not hit[3] or hit[2] not in ("object", "group", "window"):
        return None
    k = i + 1 + n
    sing = _singular(rw.words[k:k + hit[0]])
    rw.out.append(rw.toks[i])
    rw.emit("the", like=rw.toks[i + 1])
    for t, w in zip(rw.toks[k:k + hit[0]], sing, strict=True):
        rw.emit(w, like=t)
    rw.emit("and", "the", "other", like=rw.toks[i + n])
    for t, w in zip(rw.toks[k:k + hit[0]], sing, strict=True):
        rw.emit(w, like=t)
    return k + hit[0]


def _list_end(rw: Rewriter, k: int) -> tuple[int, int] | None:
    """Where the things of a group said from ``k`` end ("the four chairs around the table",
    "the sofa, the armchair and the lamp"), and how many were named (0: a plural, counted
    or not); None when no thing stands there."""
    count = 0
    n = 0
    done = k
    while True:
        k += rw.w(k) in ("the", "a", "an", "those", "these", "all", "that")
        if rw.w(k) in W.NUMBERS or rw.w(k).isdigit():
            count = W.NUMBERS.get(rw.w(k), 0) if not rw.w(k).isdigit() else int(rw.w(k))
            k += 1
        k += rw.w(k) in W.FILLER_ADJ and _head(rw, k + 1) is not None  # "the little side table"
        hit = _head(rw, k)
        if hit is None or hit[2] not in ("object", "group"):
            # "the sofa, the armchair and the table, the centre of ...": the list ended
            return (done, n) if n >= 2 and rw.w(done) == "," else None
        n += 1
        k += hit[0]
        done = k
        if hit[3]:
            return k, count or 0
        if rw.w(k) == "," and rw.w(k + 1) in ("the", "a") or rw.w(k) == "and" or \
                rw.at(k, ",", "and"):
            k += 1 + rw.at(k, ",", "and")
            continue
        return (k, n) if n >= 2 else None


def _them(rw: Rewriter, j: int) -> int:
    """Length of "them" / "the three of them" / "those three" at ``j`` (0 if none)."""
    for seq in (("them",), ("the", "{n}", "of", "them"), ("those", "{n}"), ("these", "{n}"),
                ("those",), ("these",)):
        m = 0
        while m < len(seq) and (rw.w(j + m) == seq[m] or seq[m] == "{n}" and
                                rw.w(j + m) in W.NUMBERS):
            m += 1
        if m == len(seq) and (seq[0] == "them" or seq[-1] == "them" or
                              not _head(rw, j + m)):
            return m
        if m == len(seq) and seq[0] in ("those", "these"):
            hit = _head(rw, j + m)  # "those three beds": the beds said before
            return m + hit[0] if hit is not None and hit[3] else 0
    return 0


#: Words a group said before may be placed with ("five chairs round the kitchen table").
_PLACED = frozenset({"in", "on", "at", "by", "near", "round", "around", "the", "a", "with",
                     "that", "has", "without", "any", "no", "next", "to", "beside"})


def _statement_as_context(rw: Rewriter, k: int, i: int) -> list[str]:
    """"There are three statues in the lounge." said before "go to the middle of them": the
    sentence introduced the group, read again at "them"; it is context, not a stage."""
    s0 = k
    while s0 > 0 and rw.w(s0 - 1) not in (".", "!", "?", ";"):
        s0 -= 1
    s1 = rw.sentence_end(k)
    if s1 >= i or "there" not in rw.words[s0:k] or \
            not any(w in ("are", "is", "'s", "were") for w in rw.words[s0:k]):
        return []
    a, b = rw.toks[s0].start, rw.toks[s1].end
    kept = [t for t in rw.out if not a <= t.start < b]
    if len(kept) == len(rw.out):
        return []
    rw.out[:] = kept
    rw.context.append((" ".join(rw.words[s0:s1]), (a, rw.toks[s1 - 1].end)))
    there = rw.words.index("there", s0)
    # "In the bedroom without any windows there are three beds": where the group stands
    return rw.words[s0:there] if rw.w(s0) in ("in", "inside") and there < k else []


def _antecedent(rw: Rewriter, i: int) -> tuple[int, int, int] | None:
    """The last plural thing said before ``i`` ("there are three statues in the lounge"): its
    start, the end of its head and the end of where it was placed."""
    k = i - 1
    while k >= 0:
        hit = _head(rw, k)
        if hit is not None and hit[3] and hit[2] in ("object", "group") and \
                rw.w(k - 1) not in ("the", "those", "these"):
            break
        k -= 1
    if k < 0 or hit is None:
        return None
    e = k + hit[0]
    while e < i and (rw.w(e) in _PLACED or rw.head_at(e)):
        e += rw.head_at(e) or 1
    while e > k + hit[0] and rw.w(e - 1) in _PLACED:
        e -= 1
    return k, k + hit[0], e


def _the_ones_said(rw: Rewriter, i: int, j: int, n: int) -> int | None:
    """"the middle of them" after "there are three statues in the lounge": the statues said
    before (the last plural thing, with where it was placed), read again at "them"."""
    got = _antecedent(rw, i)
    if got is None:
        return None
    k, _, e = got
    where = _statement_as_context(rw, k, i)
    like = rw.toks[j]
    rw.marks.points[rw.toks[i].start] = f"{GROUP}:{W.NUMBERS.get(rw.w(k - 1), 0)}:{like.end}"
    _said(rw, i, j + n, "the centre of the group said before")
    rw.emit("the", like=rw.toks[i])
    for w in [*rw.words[k:e], *where]:
        rw.emit("at" if w in ("round", "around") else w, like=like)
    return j + n


def between_them(rw: Rewriter, i: int) -> int | None:
    """"halfway between them" after "There are two armchairs in the bedroom": "between the
    armchair and the other armchair in the bedroom" (made their midpoint after the parse)."""
    if not rw.out or rw.out[-1].text != "between":
        return None
    n = _them(rw, i)
    got = _antecedent(rw, i) if n and rw.w(i + n - 1) == "them" else None
    if got is None or W.NUMBERS.get(rw.w(got[0] - 1)) != 2:
        return None
    k, h, e = got
    where = _statement_as_context(rw, k, i)
    like = rw.toks[i + n - 1]
    sing = _singular(rw.words[k:h])
    _said(rw, i, i + n, "the two things said before")
    rw.emit("the", *sing, "and", "the", "other", *sing, like=like)
    for w in [*rw.words[h:e], *where]:
        rw.emit(w, like=like)
    return i + n


def group_centre(rw: Rewriter, i: int) -> int | None:
    """"the middle of the four chairs ...", "the centre of the sofa, the armchair and the
    lamp", "the centre of the group formed by ...", "the midpoint of A and B": the things
    are read as said from "the" on, marked for :func:`group_centres`."""
    if rw.w(i) != "the" or rw.w(i + 1) not in _CENTRE_WORDS:
        return None
    k = i + 2 + (rw.w(i + 2) == "point")
    if rw.w(k) != "of":
        return None
    k += 1
    j = k
    if rw.w(j) in ("the", "that", "this", "a") and rw.w(j + 1) in _GROUP_NOUNS:
        j += 2
        join = next((s for s in _GROUP_JOIN if rw.at(j, *s)), None)
        if join is None:
            return None
        j += len(join)
    if rw.w(j) == "all" and rw.w(j + 1) in ("the", "those", "these", "of"):
        j += 1 + (rw.w(j + 1) == "of")
    them = _them(rw, j)
    if them:
        return _the_ones_said(rw, i, j, them)
    got = _list_end(rw, j)
    if got is None:
        return None
    end, count = got
    rw.marks.points[rw.toks[i].start] = f"{GROUP}:{count}:{rw.toks[end - 1].end}"
    _said(rw, i, j, "the centre of a group of things")
    rw.emit("the", like=rw.toks[i])
    x = j + (rw.w(j) in ("the", "a", "an", "those", "these", "that"))
    if rw.w(x) in W.NUMBERS or rw.w(x).isdigit():
        x += 1  # "the four chairs": the count names the whole group
    if x < end and rw.w(x) in ("the", "a", "an"):
        x += 1
    for t in rw.toks[x:end]:
        rw.out.append(t)
    again = _restated(rw, end)
    if again:
        _said(rw, end, again, "the same group's centre said again")
        return again
    if rw.w(end) in ("around", "round") and rw.w(end + 1) in ("the", "a"):
        rw.emit("at", like=rw.toks[end])  # "the chairs around the table": the ones at it
        return end + 1
    return end


#: Hedges opening the group said again ("- sort of the centre of the three of them").
_AGAIN_LEAD = frozenset({",", "-", "so", "i.e.", "ie", "sort", "kind", "of", "basically", "or",
                         "roughly", "like", "just", "really", "pretty", "much", "more", "less"})


def _restated(rw: Rewriter, k: int) -> int:
    """Where "- sort of the centre of the three of them" (said right after a group's centre)
    ends, or 0: the same point said again, read as said."""
    j = k
    while rw.w(j) in _AGAIN_LEAD and j < k + 5:
        j += 1
    if j == k or rw.w(j) != "the" or rw.w(j + 1) not in _CENTRE_WORDS or rw.w(j + 2) != "of":
        return 0
    j += 3
    for tail in (("the", "{n}", "of", "them"), ("all", "{n}", "of", "them"),
                 ("all", "of", "them"), ("them", "all"), ("them",), ("the", "lot"),
                 ("those", "{n}"), ("these", "{n}"), ("the", "{n}")):
        m = 0
        while m < len(tail) and (rw.w(j + m) == tail[m] or tail[m] == "{n}" and
                                 rw.w(j + m) in W.NUMBERS):
            m += 1
        if m == len(tail) and rw.w(j + m) in ("", ".", "!", ",", ";", "?"):
            return j + m
    return 0


def middle_of_it(rw: Rewriter, i: int) -> int | None:
    """"(in) the middle of it" (a room named before) -> "it", made the room's centroid."""
    if rw.w(i) != "the" or rw.w(i + 1) not in ("middle", "centre", "center") or \
            not rw.at(i + 2, "of", "it"):
        return None
    rw.marks.points[rw.toks[i + 3].start] = "centroid"
    _said(rw, i, i + 3, "the middle of the room named before")
    return i + 3


def you_halfway(rw: Rewriter, i: int) -> int | None:
    """"I need you halfway between A and B" -> "I need you at the midpoint between A and B"."""
    if rw.w(i - 1) != "you" or rw.w(i) not in ("halfway", "midway") or \
            rw.w(i + 1) != "between":
        return None
    rw.emit("at", "the", "midpoint", like=rw.toks[i])
    return i + 1


def halfway_from(rw: Rewriter, i: int) -> int | None:
    """"halfway from the fridge to the bin" -> "halfway between the fridge and the bin"."""
    if rw.w(i) not in ("halfway", "midway") or rw.w(i + 1) != "from":
        return None
    k = i + 2 + (rw.w(i + 2) in ("the", "a"))
    hit = _head(rw, k)
    if hit is None or rw.w(k + hit[0]) != "to":
        return None
    rw.out.append(rw.toks[i])
    rw.emit("between", like=rw.toks[i + 1])
    rw.out.extend(rw.toks[i + 2:k + hit[0]])
    rw.emit("and", like=rw.toks[k + hit[0]])
    return k + hit[0] + 1


#: Run before the other rules (they read what these write).
EARLY: tuple[Rule, ...] = (spot_in_the_middle, hedge, whichever_corner, between_two, halfway_from,
                           you_halfway)
RULES: tuple[Rule, ...] = (group_centre, middle_of_it, between_them)


def _room_said_first(ref: RefExpr) -> None:
    """"In the bathroom with the candle, go to the corner nearest the toilet": the corner's
    room is the one the sentence opened with (its ``in_room`` said of the generic "room")."""
    for mod in ref.modifiers:
        if mod.kind != "in_room" or len(mod.refs) != 1 or mod.refs[0].head != "room":
            continue
        room = mod.refs[0]
        said = [m for m in room.modifiers if m.kind == "in_room" and len(m.refs) == 1 and
                m.refs[0].head_kind == "room"]
        if len(said) == 1 and len(room.modifiers) == 1:
            mod.refs[0] = said[0].refs[0]


def _corner_by(ref: RefExpr) -> None:
    """"the corner of the kitchen (right) next to the fridge": the corner nearest the fridge
    (the relation was read of the room the corner is in)."""
    if any(m.kind == "rank" for m in ref.modifiers):
        return
    for mod in ref.modifiers:
        room = mod.refs[0] if mod.kind == "in_room" and len(mod.refs) == 1 else None
        by = [m for m in room.modifiers if m.kind in ("near", "next_to") and len(m.refs) == 1
              and not m.negated] if room is not None else []
        if room is not None and len(by) == 1 and room.head_kind == "room":
            room.modifiers.remove(by[0])
            ref.modifiers.append(Modifier("rank", by[0].refs, rank="nearest", k=1,
                                          span=by[0].span))
            return


def _two_of_a_kind(ref: RefExpr) -> None:
    """"halfway between the two beds in the bedroom" (read "between the bed and the other bed
    in the bedroom"): the midpoint of the beds there, the place said of both."""
    gap = next((m for m in ref.modifiers if m.kind == "between" and len(m.refs) == 2), None)
    if gap is None:
        return
    a, b = gap.refs
    other = [m for m in b.modifiers if m.kind == "other" and not m.refs]
    if a.head != b.head or a.modifiers or len(other) != 1 or len(b.modifiers) < 2:
        return
    both = b.clone()
    both.modifiers = [m for m in both.modifiers if m.kind != "other"]
    both.plural, both.text, both.span = True, f"{a.text} and {b.text}", (a.span[0], b.span[1])
    gap.refs = [both]


def _apposition(out: list[Clause], c: Clause, text: str) -> bool:
    """A room and its corner said side by side ("the corner of the bigger of the two living
    rooms, the corner by the window"), or a room's middle and the room said again ("the
    middle of the sitting room, the one with the armchair"): one stage. Returns whether
    ``c`` was merged into the stage before it."""
    prev = out[-1] if out else None
    if prev is None or prev.kind != "goal" or c.kind != "goal" or len(prev.refs) != 1 or \
            len(c.refs) != 1 or text[prev.span[1]:c.span[0]].strip() != ",":
        return False
    a, b = prev.refs[0], c.refs[0]
    if a.head_kind == "room" and not a.plural and b.head == "corner":
        rooms = [m for m in b.modifiers if m.kind == "in_room" and len(m.refs) == 1 and
                 m.refs[0].head == "room" and not m.refs[0].modifiers]
        if len(rooms) == 1:
            rooms[0].refs[0] = a
            c.span = (prev.span[0], c.span[1])
            out[-1] = c
            return True
    if a.head in ("centroid", "corner") and b.head_kind == "room" and \
            b.text.lower().startswith(("the one", "that one")):
        rooms = [m for m in a.modifiers if m.kind == "in_room" and len(m.refs) == 1 and
                 m.refs[0].head == b.head]
        if len(rooms) == 1:
            rooms[0].refs[0].modifiers.extend(b.modifiers)
            prev.span = (prev.span[0], c.span[1])
            return True
    return False


def group_centres(clauses: list[Clause], text: str, marks: Marks) -> list[Clause]:
    """Make each marked group a single geometry stage: the listed goals ("the sofa, the
    armchair and the lamp") or the plural one ("the chairs at the table") become one
    ``centroid`` point (a ``midpoint`` for two things) whose ``between`` holds them; "the
    middle of it" becomes the centroid of the room "it" names."""
    out: list[Clause] = []
    skip: set[int] = set()
    for c in clauses:
        if id(c) in skip or _apposition(out, c, text):
            continue
        ref = c.refs[0] if c.kind == "goal" and c.refs else None
        how = marks.points.get(ref.span[0], "") if ref is not None else ""
        if ref is not None and how == "centroid" and ref.head_kind == "pronoun":
            prev = out[-1] if out else None
            room = ref.clone()
            if prev is not None and prev.kind == "goal" and len(prev.refs) == 1 and \
                    prev.refs[0].head_kind == "room" and not prev.refs[0].plural and \
                    re.fullmatch(r"[a-z\s,']*\band\s+(?:then\s+)?[a-z\s]*",
                                 text[prev.span[1]:c.span[0]].lower()):
                # "go into the bedroom and stand in the middle of it": one stage
                room = prev.refs[0]
                c.span = (prev.span[0], c.span[1])
                out.pop()
            c.refs[0] = RefExpr(ref.text, ref.span, "centroid", "point",
                                modifiers=[Modifier("in_room", [room], span=room.span)])
        if ref is not None and ref.head in ("corner", "centroid"):
            _room_said_first(ref)
        if ref is not None and ref.head == "corner":
            _corner_by(ref)
        if ref is not None and ref.head == "midpoint":
            _two_of_a_kind(ref)
        if ref is None or not how.startswith(GROUP + ":"):
            out.append(c)
            continue
        _, _, tail = how.partition(":")
        count, _, last = tail.partition(":")
        things = list(c.refs)
        out.append(c)
        merged = [c]
        for nxt in clauses[clauses.index(c) + 1:]:
            if nxt.kind != "goal" or not nxt.refs or nxt.refs[0].span[0] >= int(last or 0):
                break
            things += nxt.refs
            merged.append(nxt)
        if len(things) == 1 and not things[0].plural:
            continue
        skip.update(id(m) for m in merged[1:])
        a, b = things[0].span[0], things[-1].span[1]
        two = count == "2" or len(things) == 2 and not any(t.plural for t in things)
        c.refs = [RefExpr(text[a:b], (a, b), "midpoint" if two else "centroid", "point",
                          modifiers=[Modifier("between", things, span=(a, b))])]
        c.span = (c.span[0], max(c.span[1], merged[-1].span[1]))
    return out


__all__ = ["EARLY", "GROUP", "RULES", "group_centres"]
