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

import re

from map2route.language.inflection import singular_word
from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.model import Clause, Modifier
from map2route.language.parser.rewrites import Marks, Rewriter
from map2route.language.tokens import Token

_ENDS = (".", "!", "?", ";")
_LEADS = W.FILLER_WORDS | {"so", "oh", "and", "ok", "okay", ","}
#: "Coming from the kitchen", "coming out of the bedroom", "walking in from the hall".
_COME_VERBS = ("coming", "walking", "heading", "starting", "beginning", "leaving", "setting")
_FROM_PREPS = (("out", "of"), ("in", "from"), ("over", "from"), ("from",), ("out", "from"),
               ("off", "from"))
#: "Start: the kitchen counter.", "Your starting point is the fridge.": a start said as a label.
_START_LABELS = tuple((*lead, *noun, *verb)
                      for lead in ((), ("your",), ("the",))
                      for noun in (("start",), ("starting", "point"), ("start", "point"),
                                   ("starting", "position"), ("starting", "location"),
                                   ("start", "location"), ("origin",))
                      for verb in ((":",), ("is",), ("-",), ("is", "at"), (":", "at"))
                      if lead or noun != ("start",) or verb != ("is",))
#: "You will be starting at the fridge.": a start said in the future.
_YOU_WILL = (("you", "will", "be"), ("you", "'ll", "be"), ("you", "are", "going", "to", "be"))
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
    label = next((len(p) for p in _START_LABELS if rw.at(i, *p)), 0)
    if label:
        # "Start: the kitchen counter.", "Starting point is the fridge."
        k = i + label
        end = _phrase_end(rw, k, stop_and=False)
        if rw.w(end) not in (*_ENDS, "") or not _has_head(rw, k, end) or \
                any(w in W.MOVE_VERBS for w in rw.words[k:end]):
            return None
        _context(rw, i, end)
        return end + 1 if rw.w(end) else end
    lead = next((len(p) for p in _YOU_WILL if rw.at(i, *p)), 0)
    w = rw.w(i + lead)
    k = i + lead + 1
    whole = False  # the sentence is only the start ("Start at the fridge.")
    if lead and w not in _START_VERBS:
        return None
    if w in _COME_VERBS and (n := _prep(rw, k, _FROM_PREPS)):
        k += n
        whole = bool(lead)
    elif w in _START_VERBS and (n := _prep(rw, k, _START_PREPS)):
        k += n
        whole = w in ("start", "begin") or bool(lead)
    elif w == "from" and rw.w(k) not in _PRONOUNS:
        pass
    else:
        return None
    if rw.w(k) not in ("the", "a", "an", "that", "this") and not rw.head_at(k):
        return None  # "from there, ...", "start by going to ...": read elsewhere
    end = _phrase_end(rw, k, stop_and=whole)
    if end == k or not _has_head(rw, k, end):
        return None
    nxt = rw.w(end)
    if nxt == ",":
        # the route goes on after the comma ("Coming from the kitchen, head over to ...")
        after = end + 1
        while rw.w(after) in ("then", "please", "just", "kindly") or (
                rw.w(after) in ("would", "could", "can", "will") and rw.w(after + 1) == "you"):
            after += 1 + (rw.w(after + 1) == "you")  # "Starting from X, would you go ..."
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


_HOMES = ("house", "home", "apartment", "flat", "place")
#: Counts of a set ("two", "2", "a couple of", "a few", "several").
_SET_COUNTS = (("a", "couple", "of"), ("a", "few"), ("couple", "of"))


def _set_count(rw: Rewriter, k: int) -> int:
    """Length of a count of two or more at ``k`` (0 if none)."""
    n = next((len(p) for p in _SET_COUNTS if rw.at(k, *p)), 0)
    if n:
        return n
    w = rw.w(k)
    return 1 if (w.isdigit() and int(w) >= 2) or W.NUMBERS.get(w, 0) >= 2 else 0


def _pick_one(rw: Rewriter, a: int, b: int) -> int | None:
    """Index of the "one" of a pick ("the one that ...", "the smallest one") in ``a``..``b``
    (within one clause), if any."""
    for j in range(a, min(b, len(rw.words))):
        if rw.w(j) in (",", *_ENDS):
            return None
        if rw.w(j) in ("them", "those") and rw.w(j - 1) in ("of", "from") and \
                rw.w(j - 2).endswith(("er", "est")) and rw.w(j - 3) == "the":
            return j  # "the bigger of them", "the smallest from those"
        if rw.w(j) == "one" and rw.w(j + 1) != "of" and \
                any(rw.w(x) == "the" for x in range(max(a, j - 3), j)) and \
                rw.w(j - 1) not in ("no", "any", "each", "every"):
            return j
    return None


def set_up(rw: Rewriter, i: int) -> int | None:
    """"There are two beds in this house." / "This house has three bedrooms." before "Go to
    the one that ..." / "Go to the smallest one": the set a pick is made from, taken out as
    context, and "one" is read as the set's head (with the set's room: "There are three chairs
    in the kitchen"). Only a counted plural (two or more) opening its sentence."""
    if not _sentence_start(rw, i):
        return None
    if rw.at(i, "there", "are") or rw.at(i, "there", "'re"):
        k = i + 2
    elif rw.w(i) == "in" and rw.w(i + 1) in ("this", "the", "our", "my") and \
            rw.w(i + 2) in _HOMES and rw.w(i + 3 + rw.at(i + 3, "there")) == "are":
        k = i + 4 + rw.at(i + 3, "there")  # "In this house (there) are two side tables."
    elif rw.w(i) in ("this", "the", "our", "my") and rw.w(i + 1) in _HOMES and \
            rw.w(i + 2) in ("has", "contains", "have"):
        k = i + 3
    else:
        return None
    c = _set_count(rw, k)
    if not c:
        return None
    end = _phrase_end(rw, k, stop_and=False)
    if rw.w(end) not in _ENDS or not _has_head(rw, k + c, end):
        return None
    one = _pick_one(rw, end + 1, end + 9)
    if one is None:
        return None
    head = next(j for j in range(k + c, end) if rw.head_at(j))
    n = rw.head_at(head)
    _context(rw, i, end)
    # "Go to the one that ..." -> "Go to the bed that ...": the set's head, said once
    rw.out.extend(rw.toks[end + 1:one - (rw.w(one) != "one")])  # "the bigger (of) them"
    words = [*rw.words[head:head + n - 1], singular_word(rw.words[head + n - 1])]
    rw.emit(*words, like=rw.toks[one])
    if any(_is_room(rw, j) for j in range(head + n, end)) and rw.w(head + n) == "in":
        rw.out.extend(rw.toks[head + n:end])  # the set's room too
    return one + 1


_CHOOSE = ("pick", "choose", "select", "take")


def of_the_set(rw: Rewriter, i: int) -> int | None:
    """"Of the two, go to the bed that ...", "Of the two bedrooms, ...", "Between the two
    sofas, pick the one ...", "Of all the chairs in the kitchen, go to the one ...": the set
    the pick is made from, already said (or said by the pick's own head); taken out as
    context, with "one" read as the set's head (and its room), "pick / choose the one" as "go
    to the one"."""
    if not _sentence_start(rw, i) or rw.w(i) not in ("of", "between", "among", "amongst"):
        return None
    k = i + 1
    if rw.at(k, "all", "the") or rw.at(k, "all", "those"):
        k += 2
    elif rw.w(k) in ("the", "those", "these"):
        k += 1
    elif rw.w(k) != "both":
        return None
    counted = rw.w(k) in W.NUMBERS or rw.w(k) == "both"
    end = _phrase_end(rw, k, stop_and=False)
    choose = rw.w(end + 1) in _CHOOSE and rw.w(end + 2) == "the"
    if rw.w(end) != "," or not (rw.w(end + 1) in W.OPENERS or choose) or end - k > 6:
        return None
    head = next((j for j in range(k, end) if rw.head_at(j)), None)
    if not counted and (head is None or rw.w(i) == "between" and rw.w(k) not in W.NUMBERS):
        return None  # "Of the chairs, ..." needs its head plural; "between" a count
    hit = head_lexicon().match(rw.words[head:head + rw.head_at(head)]) \
        if head is not None else None
    if not counted and (hit is None or not hit[3]):
        return None
    _context(rw, i, end)
    rw.marks.set_picks.add(rw.toks[end + 1].start)
    start = end + 1
    if choose:
        rw.emit("go", "to", like=rw.toks[end + 1])
        start = end + 2
    one = _pick_one(rw, start, end + 9)
    if head is None or one is None:
        return start
    # "Of the three chairs, go to the one nearest the fridge": "the one" is a chair
    n = rw.head_at(head)
    rw.out.extend(rw.toks[start:one])
    rw.emit(*rw.words[head:head + n - 1], singular_word(rw.words[head + n - 1]),
            like=rw.toks[one])
    if rw.w(head + n) == "in" and any(_is_room(rw, j) for j in range(head + n, end)):
        rw.out.extend(rw.toks[head + n:end])  # the set's room too
    return one + 1


_LEG_NOUNS = ("stop", "destination", "place", "goal", "target", "location", "spot")
_WAY_WORDS = (("on", "the", "way", "to"), ("on", "your", "way", "to"), ("on", "the", "way",
              "over", "to"), ("while", "heading", "to"), ("while", "going", "to"),
              ("while", "walking", "to"), ("en", "route", "to"))


def stage_leg(rw: Rewriter, i: int) -> int | None:
    """"On the way to the second stop, ...", "Between the first and second stops, ...", "For
    the second leg, ..." -> "on the way there, ...", tied after the parse to the leg that ends
    at the second stage (:func:`tie_stage_legs`)."""
    got = _leg_words(rw, i)
    if got is None:
        return None
    end, nth = got
    rw.marks.stage_legs[rw.toks[i].start] = nth
    rw.emit("on", "the", "way", "there", like=rw.toks[i])
    return end


_LEG_PARTS = ("leg", "part", "stretch", "section", "segment")
_LEG_PLURALS = tuple(w + "s" for w in (*_LEG_NOUNS, "stop"))


def _nth(word: str) -> int:
    """The ordinal ``word`` (-1: "last" / "final"; 0: none)."""
    return W.ORDINALS.get(word, 0) or (-1 if word in ("last", "final") else 0)


def _leg_words(rw: Rewriter, i: int) -> tuple[int, int] | None:
    """End and stage ordinal of words at ``i`` naming a leg by a stop: "on the way to the
    second stop", "between the first and second stops" (the leg to the second), "for / on /
    during the second leg (of the route)" (the second leg ends at the second stop)."""
    n = next((len(p) for p in _WAY_WORDS if rw.at(i, *p)), 0)
    if n and rw.w(i + n) in ("the", "your") and _nth(rw.w(i + n + 1)) and \
            rw.w(i + n + 2) in _LEG_NOUNS:
        return i + n + 3, _nth(rw.w(i + n + 1))
    if rw.w(i) == "between" and rw.w(i + 1) in ("the", "your") and _nth(rw.w(i + 2)) > 0:
        k = i + 3
        if rw.w(k) in _LEG_NOUNS:
            k += 1
        if rw.w(k) != "and":
            return None
        k += 1 + (1 if rw.w(k + 1) in ("the", "your") else 0)
        second = _nth(rw.w(k))
        if second != _nth(rw.w(i + 2)) + 1 or rw.w(k + 1) not in (*_LEG_NOUNS, *_LEG_PLURALS):
            return None
        return k + 2, second
    if rw.w(i) in ("after", "until", "till", "before") and rw.w(i + 1) in ("the", "your") and \
            _nth(rw.w(i + 2)) > 0 and rw.w(i + 3) in _LEG_NOUNS and rw.w(i + 4) == ",":
        # "After the first stop, ...": the leg to the second; "until the first stop": the first
        return i + 4, _nth(rw.w(i + 2)) + (1 if rw.w(i) == "after" else 0)
    if rw.w(i) in ("for", "on", "during", "in", "along") and rw.w(i + 1) in ("the", "your") \
            and _nth(rw.w(i + 2)) and rw.w(i + 3) in _LEG_PARTS:
        k = i + 4
        for tail in (("of", "the", "route"), ("of", "the", "walk"), ("of", "your", "route"),
                     ("of", "the", "trip"), ("of", "your", "walk")):
            if rw.at(k, *tail):
                k += len(tail)
                break
        return k, _nth(rw.w(i + 2))
    return None


_ARRIVE = (("get", "to"), ("reach",), ("arrive", "at"), ("come", "to"), ("get", "into"),
           ("make", "it", "to"), ("arrive", "in"))


def before_you_reach(rw: Rewriter, i: int) -> int | None:
    """"Before you get to the sofa, avoid the TV" -> "Before reaching the sofa, ..." (the leg
    to the sofa; it was read as a second stop at the sofa)."""
    if rw.w(i) != "before" or rw.w(i + 1) != "you":
        return None
    k = i + 2 + (1 if rw.w(i + 2) in ("can", "finally", "actually") else 0)
    n = next((len(p) for p in _ARRIVE if rw.at(k, *p)), 0)
    if not n or rw.w(k + n) not in ("the", "a", "your", "that", "this"):
        return None
    rw.emit("before", "reaching", like=rw.toks[i])
    return k + n


def between_stops(rw: Rewriter, i: int) -> int | None:
    """"Between the fridge and the sofa, stay away from the TV" (a scope opening a sentence,
    the two places stops) -> "On the way to the sofa, ..." (the leg that ends at the sofa)."""
    if rw.w(i) != "between" or not _sentence_start(rw, i) or rw.w(i + 1) not in ("the", "your"):
        return None
    end = _phrase_end(rw, i + 1, stop_and=False)
    if rw.w(end) != "," or rw.w(end + 1) not in W.PREF_VERBS | {"do", "don't", "never",
                                                                  "avoid", "keep", "stay"}:
        return None
    ands = [j for j in range(i + 1, end) if rw.w(j) == "and"]
    if len(ands) != 1 or not _has_head(rw, i + 1, ands[0]) or \
            rw.w(ands[0] + 1) not in ("the", "your") or not _has_head(rw, ands[0] + 1, end):
        return None
    rw.emit("on", "the", "way", "to", like=rw.toks[i])
    _context(rw, i, ands[0])  # where the leg starts: the stop before it
    return ands[0] + 1


_STAY_VERBS = ("wait", "stay", "stop", "stand", "remain", "hang", "pause", "sit", "rest", "park",
               "halt")


def wait_there(rw: Rewriter, i: int) -> int | None:
    """"Find the chair ... and wait there." / "and stay there": the goal said before, not a
    second stage; the words are read (dropped) here."""
    if rw.w(i) != "and" or not rw.out:
        return None
    k = i + 1 + (1 if rw.w(i + 1) == "then" else 0)
    if rw.w(k) not in _STAY_VERBS:
        return None
    k += 1 + (1 if rw.at(k, "hang", "out") else 0)
    k += 2 if rw.at(k, "for", "me") or rw.at(k, "for", "us") else 0
    if rw.w(k) != "there":
        return None
    if rw.w(k + 1) not in (*_ENDS, "", ","):
        return None
    return k + 1


_CARRY_VERBS = ("take", "bring", "carry", "move", "put")


def carry_it_to(rw: Rewriter, i: int) -> int | None:
    """"grab the wine bottle ..., take it to the dresser" -> "..., go to the dresser": what is
    carried was the stage before; the place it is taken to is the next one."""
    if rw.w(i) not in _CARRY_VERBS or rw.w(i + 1) not in ("it", "them", "that", "this") or \
            rw.w(i + 2) not in ("to", "into", "onto", "over", "back") or not rw.out:
        return None
    if rw.w(i - 1) not in (",", "and", "then", *_ENDS):
        return None
    rw.emit("come" if rw.w(i + 2) == "back" else "go", like=rw.toks[i])
    return i + 2


_FETCH = ("grab", "get", "fetch", "take", "bring", "collect", "retrieve", "pick")


def fetch_from(rw: Rewriter, i: int) -> int | None:
    """"Grab the remote from the sofa and bring it ..." -> "Grab the remote on the sofa ...",
    "get the cup from the kitchen" -> "... in the kitchen": where the thing fetched is; and
    "pick up the remote" -> "grab the remote"."""
    if rw.at(i, "pick", "up") and rw.w(i + 2) in ("the", "a", "an", "that", "this", "my",
                                                  "your"):
        rw.emit("grab", like=rw.toks[i])
        return i + 2
    if rw.w(i) != "from" or rw.w(i + 1) not in ("the", "a", "that", "this", "my", "your"):
        return None
    # a fetch verb, then one thing, just before
    k = len(rw.out) - 1
    while k >= 0 and len(rw.out) - k <= 5 and rw.out[k].text not in _FETCH:
        if rw.out[k].text in (",", *_ENDS, "and", "then", "to"):
            return None
        k -= 1
    if k < 0 or rw.out[k].text not in _FETCH or len(rw.out) - k < 3:
        return None
    n = rw.head_at(i + 2)
    if not n:
        return None
    rw.emit("in" if _is_room(rw, i + 2) else "on", like=rw.toks[i])
    return i + 1


def carry_on(rw: Rewriter, i: int) -> int | None:
    """"carry on into the second living room", "keep going to the sofa" -> "go into ..."."""
    if not (rw.at(i, "carry", "on") or rw.at(i, "keep", "going") or rw.at(i, "keep", "on")
            or rw.at(i, "press", "on")):
        return None
    k = i + 2
    if rw.w(k) not in ("into", "to", "through", "on", "until", "till"):
        return None
    rw.emit("go", like=rw.toks[i])
    return k + (1 if rw.w(k) == "on" and rw.w(k + 1) in ("into", "to", "through") else 0)


def in_room_no_comma(rw: Rewriter, i: int) -> int | None:
    """"In the bigger living room stay away from the sofa": a room scope said without its
    comma; the comma is put in ("In the bigger living room, stay away ...")."""
    if rw.w(i) not in ("in", "inside", "within") or not (
            _sentence_start(rw, i) or rw.w(i - 1) in (",", "and", "but")):
        return None
    k = i + 1
    if rw.w(k) not in ("the", "that", "this", "each", "every", "any"):
        return None
    end = k + 1
    while end < min(len(rw.words), k + 9) and rw.w(end) not in _PREF_OPENERS and \
            rw.w(end) not in (",", *_ENDS):
        end += 1
    if rw.w(end) not in _PREF_OPENERS or not any(
            rw.head_at(j) and _is_room(rw, j) for j in range(k, end)):
        return None
    rw.out.extend(rw.toks[i:end])
    rw.emit(",", like=rw.toks[end - 1])
    return end


_PREF_OPENERS = ("stay", "keep", "avoid", "steer", "stick", "hug", "remain")


def _is_room(rw: Rewriter, k: int) -> bool:
    hit = head_lexicon().match(rw.words[k:k + head_lexicon().max_len])
    return hit is not None and hit[2] == "room"


def verb_colon_list(rw: Rewriter, i: int) -> int | None:
    """"Please go: 1) to the microwave, 2) to the toilet, 3) back to me": the verb before the
    colon is said again in each item ("1) go to the microwave", "3) come back to me")."""
    if rw.w(i) in W.MOVE_VERBS and rw.w(i + 1) == ":" and rw.w(i + 2).isdigit() and \
            rw.w(i + 3) in (")", "."):
        return i + 2
    if not (rw.w(i).isdigit() and rw.w(i + 1) in (")", ".") and
            rw.w(i + 2) in ("to", "back", "into", "over")):
        return None
    k = i
    while k > 0 and rw.w(k) not in _ENDS[1:] and not (rw.w(k) == ":" and
                                                      rw.w(k - 1) in W.MOVE_VERBS):
        k -= 1
    if rw.w(k) != ":":
        return None
    while rw.out and rw.out[-1].text in (",", "and", ";"):
        rw.out.pop()
    if rw.list_items:
        rw.emit(",", "then", like=rw.toks[i])
    rw.emit("come" if rw.w(i + 2) == "back" else "go", like=rw.toks[i])
    rw.list_items += 1
    return i + 2


def terse_room(rw: Rewriter, i: int) -> int | None:
    """"Sink, bathroom off the smaller living room." -> "Sink in the bathroom off ...": a bare
    stop and, after a comma, the room it is in (a note-style instruction with no verb)."""
    if not _sentence_start(rw, i):
        return None
    k = i + (1 if rw.w(i) in ("the", "a") else 0)
    n = rw.head_at(k)
    if not n or _is_room(rw, k) or rw.w(k + n) != ",":
        return None
    r = k + n + 1
    det = rw.w(r) in ("the", "a", "that")
    size = rw.head_at(r + det)
    if not size or not _is_room(rw, r + det):
        return None
    end = _phrase_end(rw, r, stop_and=False)
    if rw.w(end) not in (*_ENDS, "") or any(w in W.MOVE_VERBS for w in rw.words[i:end]):
        return None
    rw.out.extend(rw.toks[i:k + n])
    rw.emit("in", like=rw.toks[k + n])
    if not det:
        rw.emit("the", like=rw.toks[r])
    return r


_LAYOUT = (("one", "end"), ("one", "side"), ("either", "end"), ("either", "side"),
           ("each", "end"), ("opposite", "ends"), ("opposite", "sides"))


def layout_aside(rw: Rewriter, i: int) -> int | None:
    """"In the bedroom with the TV, there's a bed at one end and the television at the other.
    Stop at the point halfway between ...": how things lie in the room said before the stop,
    taken out as context; the room's scope goes on into the next sentence ("In the bedroom
    with the TV, stop at ...")."""
    if rw.w(i) != "there" or rw.w(i + 1) not in ("'s", "is", "are") or rw.w(i - 1) != ",":
        return None
    end = _phrase_end(rw, i, stop_and=False)
    while rw.w(end) == ",":
        end = _phrase_end(rw, end + 1, stop_and=False)
    words = rw.words[i:end]
    if rw.w(end) not in _ENDS or not any(words[j:j + 2] == list(p) for p in _LAYOUT
                                         for j in range(len(words))):
        return None
    _context(rw, i, end)
    return end + 1


_STAND_PREPS = ("in", "at", "by", "beside", "near", "next")


def stand_at(rw: Rewriter, i: int) -> int | None:
    """"Stand in the corner of the kitchen ...", "Wait by the fridge." opening a sentence ->
    "Go to ...": the place to stand is the stop."""
    if rw.w(i) not in ("stand", "wait") or not _sentence_start(rw, i) or \
            rw.w(i + 1) not in _STAND_PREPS or (rw.w(i + 1) == "next" and rw.w(i + 2) != "to"):
        return None
    rw.emit("go", "to", like=rw.toks[i])
    return i + (3 if rw.w(i + 1) == "next" else 2)


_TOWARD_VERBS = ("head", "go", "walk", "move", "make", "start")


def head_toward(rw: Rewriter, i: int) -> int | None:
    """"Head toward the kitchen, and in the second room you walk into ..., stop at the dining
    table": the direction the walk takes before the stop said after it, context (the stop is
    the stage; "toward" names no stop)."""
    if rw.w(i) not in _TOWARD_VERBS or not _sentence_start(rw, i):
        return None
    k = i + 1 + (1 if rw.at(i, "make", "your") or rw.at(i, "start", "heading") else 0)
    k += 1 if rw.w(k) == "way" else 0
    if rw.w(k) not in ("toward", "towards"):
        return None
    end = _phrase_end(rw, k + 1, stop_and=False)
    if rw.w(end) != "," or rw.w(end + 1) not in ("and", "then") or \
            not _has_head(rw, k + 1, end):
        return None
    stop = _phrase_end(rw, end + 1, stop_and=False)
    while rw.w(stop) == ",":
        stop = _phrase_end(rw, stop + 1, stop_and=False)
    if not any(w in W.MOVE_VERBS or w in ("stop", "wait", "stand") for w in
               rw.words[end + 1:stop]):
        return None
    _context(rw, i, end)
    return end + 2 + (1 if rw.at(end + 1, "and", "then") else 0)


def after_leaving_start(rw: Rewriter, i: int) -> int | None:
    """"the second room you walk into after leaving the bathroom", said after "Start at the
    plunger in the bathroom": the count starts where the walk starts, so "after leaving" the
    start's room says nothing more (read here); after any other room it is left as it was."""
    k = i + 1
    if rw.w(i) != "after":
        return None
    if rw.w(k) == "you":
        k += 1
    if rw.w(k) not in ("leaving", "exiting", "leave", "exit"):
        return None
    k += 1
    det = 1 if rw.w(k) in ("the", "this", "that") else 0
    if not _is_room(rw, k + det):
        return None
    end = k + det + rw.head_at(k + det)
    ordered = {t.start for t in rw.out[-4:]} & set(rw.marks.route_order)
    room = " ".join(rw.words[k + det:end])
    if not ordered or not any(text.startswith(("start", "starting", "begin")) and
                              f" {room}" in f" {text}" for text, _ in rw.context):
        return None
    return end


_STOP_NOUNS = ("stop", "destination", "place", "goal", "target", "location")
_STOP_IS = (("is",), ("will", "be"), ("should", "be"), ("'s",), (",",), (":",), ("-",))


def nth_stop_is(rw: Rewriter, i: int) -> int | None:
    """"Your first stop is the TV stand ..., and your second stop is the toilet", "First stop,
    the fridge. Second stop, the TV." -> "go to the TV stand ..., and go to the toilet": stops
    said in order ("your final destination is" is :func:`.route_rewrites.destination`'s)."""
    if not (_sentence_start(rw, i) or rw.w(i - 1) in (",", "and", "then")):
        return None
    k = i + (1 if rw.w(i) in ("your", "the", "my") else 0)
    nth = W.ORDINALS.get(rw.w(k), 0)
    if not nth and rw.w(k) != "next" or rw.w(k + 1) not in _STOP_NOUNS:
        return None
    n = next((len(p) for p in _STOP_IS if rw.at(k + 2, *p)), 0)
    if not n or rw.w(k + 2 + n) not in ("the", "a", "an", "that", "this", "to", "at", "by"):
        return None
    # the stage starts at its place, as "Your first stop is the sofa" has been read before
    at = rw.toks[k + 2 + n].start
    rw.emit("go", like=Token("go", at, at))
    if rw.w(k + 2 + n) not in ("to", "at", "by"):
        rw.emit("to", like=Token("to", at, at))
    return k + 2 + n


_NOW = (("currently",), ("right", "now"), ("at", "the", "moment"), ("for", "now"), ("now",),
        ("at", "the", "minute"))
_SUBJECTS = (("you", "are"), ("i", "am"), ("we", "are"))
_WHERE = ("at", "by", "in", "next", "near", "beside", "on", "standing", "sitting", "over",
          "located", "inside")


def scene_after_adverb(rw: Rewriter, i: int) -> int | None:
    """"Currently you are next to the fridge.", "Right now I'm by the TV.": where the walk
    starts, said after a time word; context, as "You are next to the fridge." is."""
    if not _sentence_start(rw, i):
        return None
    n = next((len(p) for p in _NOW if rw.at(i, *p)), 0)
    if not n:
        return None
    k = i + n + (1 if rw.w(i + n) == "," else 0)
    m = next((len(p) for p in _SUBJECTS if rw.at(k, *p)), 0)
    if not m or rw.w(k + m) not in _WHERE:
        return None
    end = _phrase_end(rw, k, stop_and=False)
    if rw.w(end) not in _ENDS or not _has_head(rw, k, end) or \
            any(w in W.MOVE_VERBS for w in rw.words[k:end]):
        return None
    _context(rw, i, end)
    return end + 1


def come_to_me(rw: Rewriter, i: int) -> int | None:
    """"Come to me", "come over to me", "come here" -> "come back to me" / "come back here":
    the speaker is where the walk starts (as in "I'm sitting on the bed"); "come right back
    here" -> "come back here"."""
    if rw.w(i) in ("come", "go", "head", "walk", "get") and \
            rw.w(i + 1) in ("right", "straight", "directly") and rw.w(i + 2) == "back":
        rw.emit(rw.w(i), "back", like=rw.toks[i])  # "come right back here"
        return i + 3
    if rw.w(i) not in ("come", "get"):
        return None
    k = i + 1 + (1 if rw.w(i + 1) in ("over", "right") else 0)
    if rw.at(k, "to", "me"):
        end = k + 2
    elif rw.w(k) == "here" and rw.w(i) == "come":
        end = k + 1
    else:
        return None
    if rw.w(end) not in (*_ENDS, "", ",", "and", "please", "now"):
        return None
    rw.emit("come", "back", like=rw.toks[i])
    rw.out.extend(rw.toks[k:end])
    return end


_PICK_PREPS = ("to", "at", "by", "beside", "near", "next")


def one_of_counted(rw: Rewriter, i: int) -> int | None:
    """"In the bedroom with two beds, go to the one by the window": "the one", the object of
    a new clause, is one of the counted things said before it in the sentence (a bed), not
    the room."""
    if not rw.at(i, "the", "one") or rw.w(i + 2) in ("of", "you", "i", "we") or \
            not rw.out or rw.out[-1].text not in _PICK_PREPS:
        return None
    k = len(rw.out) - 1
    clause = False  # a comma or "and" between the set and the pick
    found = None
    while k >= 0 and rw.out[k].text not in _ENDS:
        if rw.out[k].text in (",", "and"):
            clause = True
        if found is None and k + 1 < len(rw.out) and rw.out[k].text != "not":
            w = rw.out[k].text
            count = W.NUMBERS.get(w, 0) or (int(w) if w.isdigit() else 0)
            words = [t.text for t in rw.out[k + 1:k + 1 + head_lexicon().max_len]]
            hit = head_lexicon().match(words) if count >= 2 else None
            if hit is not None and hit[3]:
                found = words[:hit[0]]
        k -= 1
    if found is None or not clause or any(t.text == "not" for t in rw.out[-3:]):
        return None
    rw.out.append(rw.toks[i])
    rw.emit(*found[:-1], singular_word(found[-1]), like=rw.toks[i + 1])
    return i + 2


#: This module's rules, tried before the others (:func:`.human.human_forms`).
RULES = (start_scope, set_up, of_the_set, stage_leg, wait_there, carry_it_to, fetch_from,
         carry_on,
         in_room_no_comma, verb_colon_list, terse_room, layout_aside, stand_at, head_toward,
         after_leaving_start, nth_stop_is, scene_after_adverb, come_to_me, before_you_reach,
         between_stops, one_of_counted)


#: Between a room goal and the next goal: "... . Of the two (chairs), " (a pick from a set
#: said in that room, whichever stage read the "of the two").
_PICK_FROM_SET = re.compile(r"\s*\.\s*(?:of|between|among)\s+(?:all\s+)?(?:the|those|these|both)"
                            r"\b[^.,;]*,\s*")
_STOP_IN_ROOM = re.compile(r"(?:\s+(?:is|are))?"  # "the bedroom where the dog bed is and stop"
                           r"(?:\s+you\s+(?:reach|enter|come\s+to|get\s+to|walk\s+into))?"
                           r"[\s,]*(?:(?:and|n|&)\s*(?:then\s+)?|then\s+)"
                           # "and in there, wait at", "and once you're in there, go and stop at"
                           r"(?:(?:once\s+(?:you\s*'?re\s+|you\s+are\s+)?)?in\s+(?:there|"
                           r"that\s+room|it)\s*,?\s*)?(?:go\s+and\s+)?"
                           r"(?:stop|wait|stand|halt|pause)\s+"
                           r"(?:at|by|beside|near|next\s+to)\s+(?:whichever\s+of\s+)?"
                           r"(?:its\s+|the\s+)?(?:two\s+|\d+\s+)?")


def _it_room(m: Modifier) -> bool:
    """An ``in_room`` of "it" / "there" ("whichever of its windows" -> "in it"): the room said
    before, which :func:`merge_room_then_stop` puts in its place."""
    return m.kind == "in_room" and len(m.refs) == 1 and m.refs[0].head == "room" and \
        not m.refs[0].modifiers


def merge_room_then_stop(clauses: list[Clause], text: str,
                         marks: Marks | None = None) -> list[Clause]:
    """"... into the first bedroom you reach and stop at its window", "carry on into the
    second living room and stop at its window": one stage, the window in that room (the room
    reached, goal or passed into, is where the stop is, not a stage of its own); so is "Go
    into the bedroom with two beds. Of the two, go to the bed ..." (a pick from the room's
    set, :func:`of_the_set`)."""
    picks = marks.set_picks if marks is not None else set()
    out: list[Clause] = []
    for n, c in enumerate(clauses):
        prev = out[-1] if out else None
        if prev is not None and prev.kind == "goal" and prev.refs and \
                prev.refs[0].head_kind == "room" and c.kind == "goal" and len(c.refs) == 1 and \
                c.refs[0].head_kind == "pronoun" and n + 1 < len(clauses) and \
                re.search(r"\bin\s+(?:there|it)$", text[:c.span[1]].lower()):
            continue  # "go into the bedroom, and in there, wait at ...": the room, said again
        if prev is not None and prev.kind in ("goal", "pass") and c.kind == "goal" and \
                len(prev.refs) == 1 and len(c.refs) == 1 and \
                prev.refs[0].head_kind == "room" and not prev.refs[0].plural and \
                c.refs[0].head_kind in ("object", "group", "window") and \
                not any(m.kind == "in_room" and not _it_room(m) for m in c.refs[0].modifiers) and \
                (_STOP_IN_ROOM.fullmatch(text[prev.span[1]:c.refs[0].span[0]].lower()) or
                 any(c.span[0] <= p < c.refs[0].span[0] for p in picks) or
                 _PICK_FROM_SET.fullmatch(text[prev.span[1]:c.span[0]].lower())):
            room = prev.refs[0]
            c.refs[0].modifiers[:] = [m for m in c.refs[0].modifiers if not _it_room(m)]
            c.refs[0].modifiers.insert(0, Modifier("in_room", [room], span=room.span))
            c.span = (prev.span[0], c.span[1])
            out[-1] = c
            continue
        if prev is not None and _apposed_room(prev, c, text):
            continue
        out.append(c)
    return out


def _apposed_room(prev: Clause, c: Clause, text: str) -> bool:
    """"go to the bedroom right by it, the one with two beds, and stop at ...": "the one
    with two beds" is the bedroom just said, described again, not a second stage. Adds its
    description to ``prev``; whether it did."""
    if prev.kind != "goal" or c.kind != "goal" or len(prev.refs) != 1 or len(c.refs) != 1 or \
            prev.refs[0].head_kind != "room" or prev.refs[0].plural or \
            c.refs[0].head != prev.refs[0].head or \
            not c.refs[0].text.lower().startswith("the one") or \
            not re.fullmatch(r"[\s,]*", text[prev.span[1]:c.span[0]]):
        return False
    prev.refs[0].modifiers.extend(c.refs[0].modifiers)
    prev.span = (prev.span[0], c.span[1])
    return True
