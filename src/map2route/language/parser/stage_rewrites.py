"""Token rewrites of stage 0a (:mod:`.human`) for where the route starts and which leg a scope
covers (fresh sets L and M, issue 19).

* An opening that says where the walker comes from or starts ("Coming from the kitchen, ...",
  "Coming out of the bedroom without a bed, ...", "From the kitchen, walk to ...", "Starting
  at the fridge, ...", "Start at the plunger in the bathroom that has a dresser.", "Start at
  the front door and go to ...") is context: it names the start, which the route already
  has; it is never a stage (:func:`start_scope`).
* A set-up that introduces a set before a pick from it ("There are two beds in this house. Go
  to the one that ...", "Of the two, go to the bed that ...") is context: the pick that
  follows names the head itself or by "the one" (:func:`set_up`, :func:`of_the_set`).
* A leg named by the stop it leads to ("On the way to the second stop, ...") is the leg to
  that stage: read as "on the way there" and tied to that stage after the parse
  (:func:`stage_leg`, :func:`tie_stage_legs`).
* "and wait there" / "and stay there" after a goal is that goal, not a second stage
  (:func:`wait_there`).

Each rule keeps the character spans of the words it reads, so a refusal still points into the
original text.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.model import Clause
from map2route.language.parser.rewrites import Marks, Rewriter

_ENDS = (".", "!", "?", ";")
_LEADS = W.FILLER_WORDS | {"so", "oh", "and", "ok", "okay", ","}
#: "Coming from the kitchen", "coming out of the bedroom", "walking in from the hall".
_COME_VERBS = ("coming", "walking", "heading", "starting", "beginning", "leaving", "setting")
_FROM_PREPS = (("out", "of"), ("in", "from"), ("over", "from"), ("from",), ("out", "from"))
_START_PREPS = (("at",), ("by",), ("from",), ("in",), ("next", "to"), ("beside",), ("near",),
                ("off", "at"), ("out", "at"), ("out", "by"), ("out", "in"))
_START_VERBS = ("start", "begin", "starting", "beginning")
_PRONOUNS = ("there", "here", "it", "that", "this", "them")


def _sentence_start(rw: Rewriter, i: int) -> bool:
    k = i - 1
    while k >= 0 and rw.w(k) in _LEADS:
        k -= 1
    return k < 0 or rw.w(k) in _ENDS


def _phrase_end(rw: Rewriter, k: int, *, stop_and: bool) -> int:
    """Where the noun phrase from ``k`` ends: at a comma or a sentence end, or (``stop_and``)
    at an "and"/"then" that opens the next clause."""
    while k < len(rw.words) and rw.w(k) not in (",", *_ENDS):
        if stop_and and rw.w(k) in ("and", "then") and (
                rw.w(k + 1) in W.OPENERS or rw.w(k + 1) == "then"):
            break
        k += 1
    return k


def _context(rw: Rewriter, a: int, b: int) -> None:
    toks = [t for t in rw.toks[a:b] if t.text != ","]
    if toks:
        rw.context.append((" ".join(t.text for t in toks), (toks[0].start, toks[-1].end)))


def _has_head(rw: Rewriter, a: int, b: int) -> bool:
    return any(rw.head_at(k) for k in range(a, b))


def _prep(rw: Rewriter, k: int, preps: tuple[tuple[str, ...], ...]) -> int:
    """Length of the first of ``preps`` said at ``k`` (0 if none)."""
    return next((len(p) for p in preps if rw.at(k, *p)), 0)


def start_scope(rw: Rewriter, i: int) -> int | None:
    """"Coming from the kitchen, ...", "Starting at the fridge, ...", "From the kitchen, walk
    ...", "Start at the plunger in the bathroom." / "Start at the front door and go to ...":
    the place the walker starts from, taken out as context (see the module docstring)."""
    if not _sentence_start(rw, i):
        return None
    w = rw.w(i)
    k = i + 1
    whole = False  # the sentence is only the start ("Start at the fridge.")
    if w in _COME_VERBS and (n := _prep(rw, k, _FROM_PREPS)):
        k += n
    elif w in _START_VERBS and (n := _prep(rw, k, _START_PREPS)):
        k += n
        whole = w in ("start", "begin")
    elif w == "from" and rw.w(k) not in _PRONOUNS:
        pass
    else:
        return None
    if rw.w(k) in _PRONOUNS or rw.w(k) in ("where", "your", "my"):
        return None  # "from there, ...", "start from where you are": read elsewhere
    end = _phrase_end(rw, k, stop_and=whole)
    if end == k or not _has_head(rw, k, end):
        return None
    nxt = rw.w(end)
    if nxt == ",":
        # the route goes on after the comma ("Coming from the kitchen, head over to ...")
        after = end + 1
        while rw.w(after) in ("then", "please", "just"):
            after += 1
        if rw.w(after) not in W.OPENERS and not whole:
            return None
        _context(rw, i, end)
        return end + 1
    if nxt in ("and", "then"):
        _context(rw, i, end)
        return end + (2 if rw.at(end, "and", "then") else 1)
    if whole and (nxt in _ENDS or nxt == ""):
        _context(rw, i, end)
        return end + 1 if nxt else end
    return None


def set_up(rw: Rewriter, i: int) -> int | None:
    """"There are two beds in this house." before "Go to the one that ...": the set a pick is
    made from, taken out as context (the pick names it by "the one", read as its head by the
    anaphora of "the one"). Only a counted plural (two or more) opening its sentence."""
    if not _sentence_start(rw, i) or not (rw.at(i, "there", "are") or rw.at(i, "there", "'re")):
        return None
    k = i + 2
    if rw.w(k) not in W.NUMBERS or W.NUMBERS[rw.w(k)] < 2:
        return None
    end = _phrase_end(rw, k, stop_and=False)
    if rw.w(end) not in _ENDS or not _has_head(rw, k + 1, end):
        return None
    # only a set-up: the next sentence picks "the one" / "one of them" from it
    nxt = rw.words[end + 1:end + 12]
    if not any(nxt[j:j + 2] in (["the", "one"], ["one", "of"], ["the", "other"])
               for j in range(len(nxt))):
        return None
    _context(rw, i, end)
    return end + 1


def of_the_set(rw: Rewriter, i: int) -> int | None:
    """"Of the two, go to the bed that ..." / "Of the two bedrooms, ...": the set the pick is
    made from, already said (or said by the pick's own head); taken out as context."""
    if not _sentence_start(rw, i) or rw.w(i) != "of" or rw.w(i + 1) not in ("the", "those",
                                                                           "these", "both"):
        return None
    k = i + 2 if rw.w(i + 1) != "both" else i + 1
    if rw.w(k) not in W.NUMBERS and rw.w(i + 1) != "both":
        return None
    end = _phrase_end(rw, k, stop_and=False)
    if rw.w(end) != "," or rw.w(end + 1) not in W.OPENERS or end - k > 4:
        return None
    _context(rw, i, end)
    return end + 1


_LEG_NOUNS = ("stop", "destination", "place", "goal", "target", "location", "spot")
_WAY_WORDS = (("on", "the", "way", "to"), ("on", "your", "way", "to"), ("on", "the", "way",
              "over", "to"), ("while", "heading", "to"), ("while", "going", "to"),
              ("while", "walking", "to"), ("en", "route", "to"))


def stage_leg(rw: Rewriter, i: int) -> int | None:
    """"On the way to the second stop, ..." -> "on the way there, ...", tied after the parse
    to the leg that ends at the second stage (:func:`tie_stage_legs`)."""
    n = next((len(p) for p in _WAY_WORDS if rw.at(i, *p)), 0)
    if not n or rw.w(i + n) not in ("the", "your") or rw.w(i + n + 1) not in W.ORDINALS \
            and rw.w(i + n + 1) not in ("last", "final") or rw.w(i + n + 2) not in _LEG_NOUNS:
        return None
    word = rw.w(i + n + 1)
    rw.marks.stage_legs[rw.toks[i].start] = W.ORDINALS.get(word, -1)
    rw.emit("on", "the", "way", "there", like=rw.toks[i])
    return i + n + 3


def tie_stage_legs(clauses: list[Clause], marks: Marks) -> None:
    """Give each "on the way to the Nth stop" constraint the leg to the Nth goal stage (-1:
    the last) instead of the leg to the stage said last before it."""
    if not marks.stage_legs:
        return
    goals = [c for c in clauses if c.kind in ("goal", "pass") and c.refs]
    for c in clauses:
        if c.kind in ("goal", "pass") or c.during != {"this": True}:
            continue
        k = next((v for s, v in marks.stage_legs.items() if c.span[0] <= s < c.span[1]), None)
        if k is None or not goals or k > len(goals):
            continue
        c.during = {"until": goals[k - 1 if k > 0 else -1].refs[0]}


_STAY_VERBS = ("wait", "stay", "stop", "stand", "remain", "hang", "pause")


def wait_there(rw: Rewriter, i: int) -> int | None:
    """"Find the chair ... and wait there." / "and stay there": the goal said before, not a
    second stage; the words are read (dropped) here."""
    if rw.w(i) != "and" or not rw.out:
        return None
    k = i + 1 + (1 if rw.w(i + 1) == "then" else 0)
    if rw.w(k) not in _STAY_VERBS:
        return None
    k += 1 + (1 if rw.at(k, "hang", "out") else 0)
    if rw.w(k) != "there":
        return None
    if rw.w(k + 1) not in (*_ENDS, "", ","):
        return None
    return k + 1


#: This module's rules, tried before the others (:func:`.human.human_forms`).
RULES = (start_scope, set_up, of_the_set, stage_leg, wait_there)
