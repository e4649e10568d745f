"""Everyday ways of saying a stop, a way or a correction, put onto forms the parser reads.

Run early in :func:`.human.human_forms`, on the tokens as typed. The phrasings, each a class
seen in people's instructions rather than one sentence:

* "right, from the fridge, ...": the spoken opener "right" before a start, read as "ok";
* a pass said with a casual verb: "swing past the fridge (first)" -> "pass by the fridge"
  ("swing by the fridge" stays a visit, as the committed sets read it); "swing through the
  living room" and "cut through / across the kitchen" (when no negator asks to keep out of
  it) -> "go through ...";
* a corner placed by what stands in it, with no room said: "the corner where the fridge is"
  -> "the corner by the fridge";
* why the speaker wants the place: "that's where I left my phone" -> "I left my phone there"
  (the owned-thing sentence :func:`.human._owned_mention` and the reason readers know);
* a correction that rejects one of two: "No wait, not the one with the hamper, the other
  one" -> "No wait, the one without the hamper" (rooms told apart by what is in them), "No
  wait, not the one in the bathroom" -> "No wait, the one that is not in the bathroom" (an
  exclusion with no marker after a described head, "the chair by the desk, not the one by
  the bed", stays refused: it could be said of either thing);
* a heading that only says which way to count: "Head toward the bedrooms and stop in the first
  bedroom you walk into" -> "stop in the first bedroom you walk into", the heading kept as
  context (it is reported, never dropped); only when an ordinal place follows ("the first
  ... you walk into", "the second living room you pass through");
* a room gone through before a stop: "cut through the living room and stop at the fridge" is a
  pass of the room, then the fridge (:func:`through_then_stop`, after the parse's stage
  merges, which read "into the bedroom and stop at its window" as one stage);
* a list header said with a rough count: "A couple of errands, please:" / "I've got a few
  errands for you:" -> "Errands:" (the header :func:`.walk_phrasings.errand_list` reads).

Hand-written, like the rest of the parser, so that every rewrite keeps the character spans of
what it read (a refusal still points into the original text) and nothing is guessed: a form
that does not match exactly is left for the later stages to read or refuse.
"""

from __future__ import annotations

import re

from map2route.language.parser.destination_tokens import tok
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.model import Clause
from map2route.language.tokens import Token

__all__ = ["errand_talk", "through_then_stop"]

_ENDS = (".", "!", "?")
_NEGATORS = frozenset({"not", "never", "dont", "no", "avoid", "without"})
_ORDINALS = frozenset({"first", "second", "third", "fourth", "fifth", "next", "last"})
#: Verbs of a heading ("head toward the bedrooms", "make your way towards the kitchen").
_HEADING_VERBS = (("make", "your", "way"), ("head",), ("go",), ("walk",), ("move",),
                  ("start", "heading"), ("keep", "heading"))
_TOWARD = frozenset({"toward", "towards"})
#: Verbs after "the corner where the fridge ...".
_WHERE_VERBS = frozenset({"is", "are", "sits", "stands", "lives", "stand", "sit"})
#: Verbs that say where something of the speaker's was left.
_LEFT = frozenset({"left", "put", "dropped", "lost", "forgot", "set", "placed"})
_OWNERS = frozenset({"my", "our", "the", "his", "her", "their"})
#: Words that open a correction ("no wait", "actually no", "wait, no", "sorry").
_MARKERS = frozenset({"no", "wait", "sorry", "actually", "oh", "ah", "oops", "hmm", "nope",
                      ","})
_STRONG = frozenset({"no", "wait", "actually", "sorry", "nope", "oops"})
_ROUGH = (("a", "couple", "of"), ("couple", "of"), ("a", "few"), ("a", "bunch", "of"),
          ("some",), ("two",), ("three",))
_LIST = frozenset({"errands", "jobs", "chores", "things", "tasks", "stops"})



def _starts(toks: list[Token], k: int) -> bool:
    """Whether ``toks[k]`` opens a sentence or a comma-part."""
    return k == 0 or toks[k - 1].text in (*_ENDS, ",", ";", ":")


def _np_end(words: list[str], k: int) -> int:
    """Where a noun phrase naming a thing or room that starts at ``k`` ends ("the fridge",
    "a laundry hamper"); ``k`` when none does."""
    q = k + (1 if words[k:k + 1] in (["the"], ["a"], ["an"]) else 0)
    hit = head_lexicon().match(words[q:q + head_lexicon().max_len])
    return q + hit[0] if hit else k


def errand_talk(toks: list[Token]) -> tuple[list[Token], list[tuple[str, tuple[int, int]]]]:
    """Rewrite the phrasings of the module docstring; returns the tokens and the headings
    taken out as context (text and character span)."""
    context: list[tuple[str, tuple[int, int]]] = []
    toks = _left_there(_corner_where(_casual_pass(toks)))
    toks = _other_one(_list_header(toks))
    toks = _heading(toks, context)
    return toks, context


def _casual_pass(toks: list[Token]) -> list[Token]:
    out: list[Token] = []
    for k, t in enumerate(toks):
        if t.text == "right" and _starts(toks, k) and toks[k + 1:k + 2] and \
                toks[k + 1].text == "," and toks[k + 2:k + 3] and toks[k + 2].text == "from":
            out.append(tok("ok", t))  # "right, from the fridge, ...": a spoken opener
            continue
        nxt = toks[k + 1].text if k + 1 < len(toks) else ""
        before = {x.text for x in toks[max(0, k - 3):k]}
        if t.text == "swing" and nxt == "past":  # "swing by the fridge" is a visit
            out.append(tok("pass", t))
            toks[k + 1] = tok("by", toks[k + 1])
            continue
        if (t.text == "swing" and nxt in ("through", "into")) or (
                t.text == "cut" and nxt in ("through", "across") and not before & _NEGATORS):
            out.append(tok("go", t))
            if nxt == "across":
                toks[k + 1] = tok("through", toks[k + 1])
            continue
        out.append(t)
    return out


def _corner_where(toks: list[Token]) -> list[Token]:
    """"the corner where the X is (located)" -> "the corner by the X" ("the corner of the
    kitchen where ..." is read by :func:`.relation_rewrites.corner_where`)."""
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        out.append(toks[k])
        if words[k] == "corner" and words[k + 1:k + 2] == ["where"]:
            e = _np_end(words, k + 2)
            if e > k + 2 and words[e:e + 1] and words[e] in _WHERE_VERBS:
                out += [tok("by", toks[k + 1]), *toks[k + 2:e]]
                k = e + 1 + (words[e + 1:e + 2] in (["located"], ["placed"], ["kept"]))
                continue
        k += 1
    return out


def _left_there(toks: list[Token]) -> list[Token]:
    """"that's where I (think I) left my phone" -> "I left my phone there"."""
    words = [t.text for t in toks]
    for k in range(len(toks) - 4):
        if words[k:k + 3] != ["that", "is", "where"] or words[k + 3] != "i":
            continue
        v = k + 4
        while v < len(words) and words[v] in ("think", "i", "must", "have", "probably", "just"):
            v += 1
        if v >= len(words) or words[v] not in _LEFT or v + 1 >= len(words) or \
                words[v + 1] not in _OWNERS:
            continue
        e = v + 2
        while e < len(words) and words[e] not in (*_ENDS, ",", ";"):
            e += 1
        lead = toks[:k]
        if lead and lead[-1].text == ",":  # "Go to the armchair, that's where I put it"
            lead = [*lead[:-1], tok(".", lead[-1])]
        return [*lead, *toks[k + 3:e], tok("there", toks[k + 2]), *toks[e:]]
    return toks


def _other_one(toks: list[Token]) -> list[Token]:
    """"No wait, not the one with X, the other one" -> "No wait, the one without X"; "No
    wait, not the one in X" -> "No wait, the one that is not in X"."""
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        if not _starts(toks, k) or k == 0:
            out.append(toks[k])
            k += 1
            continue
        m = k
        while m < len(words) and words[m] in _MARKERS:
            m += 1
        marked = bool(set(words[k:m]) & _STRONG)
        if words[m:m + 3] == ["not", "the", "one"] and m + 3 < len(words):
            prep = words[m + 3]
            p = m + 4 + (1 if words[m + 3:m + 5] == ["next", "to"] else 0)
            e = _np_end(words, p)
            if prep in ("with", "in", "by", "near", "next", "beside", "on") and e > p and \
                    (prep != "with" or _last_head_kind(words[:k]) == "room"):
                tail = e
                if words[e:e + 4] == [",", "the", "other", "one"]:
                    tail = e + 4
                elif words[e:e + 3] == [",", "the", "other"]:
                    tail = e + 3
                if marked:
                    opener = [tok("no", toks[k]), tok("wait", toks[k]),
                              tok(",", toks[m - 1])]
                    one = [tok("the", toks[m + 1]), tok("one", toks[m + 2])]
                    if prep == "with":
                        rel = [tok("without", toks[m + 3])]
                    else:
                        rel = [tok("that", toks[m]), tok("is", toks[m]), toks[m],
                               *toks[m + 3:p]]
                    out += [*opener, *one, *rel, *toks[p:e]]
                    k = tail
                    continue
        out.append(toks[k])
        k += 1
    return out


def _last_head_kind(words: list[str]) -> str:
    """The kind of the last head named in ``words`` ("room" for "go to the bedroom"): a
    correction "not the one with X" picks between rooms by what is in them."""
    lex = head_lexicon()
    for k in range(len(words) - 1, -1, -1):
        hit = lex.match(words[k:k + lex.max_len])
        if hit is not None:
            return str(hit[2])
    return ""


def _list_header(toks: list[Token]) -> list[Token]:
    """"A couple of errands, please:" / "I've got a few errands for you:" -> "Errands:"."""
    words = [t.text for t in toks]
    for k in range(len(toks)):
        if k and words[k - 1] not in _ENDS:
            continue
        s = k
        if words[s:s + 3] in (["i", "have", "got"], ["i", "have"], ["i", "got"]):
            s += 3 if words[s + 2] == "got" else 2
        rough = next((r for r in _ROUGH if tuple(words[s:s + len(r)]) == r), None)
        if rough is None:
            continue
        n = s + len(rough)
        if words[n:n + 1] != ["errands"] and not (words[n:n + 1] and words[n] in _LIST and
                                                  s > k):
            continue
        e = n + 1
        while e < len(words) and words[e] in (",", "please", "for", "you", "to", "do", "run"):
            e += 1
        if words[e:e + 1] == [":"]:
            return [*toks[:k], tok("errands", toks[n]), *toks[e:]]
    return toks


def _heading(toks: list[Token], context: list[tuple[str, tuple[int, int]]]) -> list[Token]:
    """"Head toward the bedrooms and stop in the first bedroom you walk into": the heading
    goes to context when an ordinal place follows it."""
    words = [t.text for t in toks]
    for k in range(len(toks)):
        if not _starts(toks, k) and words[k - 1] not in ("so", "then", "now", "just"):
            continue
        verb = next((v for v in _HEADING_VERBS if tuple(words[k:k + len(v)]) == v), None)
        if verb is None:
            continue
        t = k + len(verb)
        plural = head_lexicon().match(words[t + 1 + (words[t + 1:t + 2] == ["the"]):][:3])
        if words[t:t + 1] and (words[t] in _TOWARD or words[t] in ("into", "to") and
                               plural is not None and plural[2] == "room" and plural[3]):
            # J5: "Head into the bedrooms, and in the first bedroom you come into, ..."
            e = _np_end(words, t + 1)
            rest = words[e:]
            if e == t + 1 or not any(w in _ORDINALS for w in rest[:12]) or \
                    not rest or rest[0] not in ("and", ",", *_ENDS):
                continue
            cut, a = e + 1, k
            if k and words[k - 1] == ",":  # "Starting from the fridge, make your way ..."
                a = k - 1
                while a and words[a - 1] not in _ENDS:
                    a -= 1
            context.append((" ".join(words[a:e]), (toks[a].start, toks[e - 1].end)))
            rest_toks = toks[cut:]
            hit = head_lexicon().match(words[t + 1 + (words[t + 1] == "the"):e])
            for q in range(len(rest_toks) - 2):
                if hit is not None and rest_toks[q].text == "the" and \
                        rest_toks[q + 1].text in _ORDINALS and rest_toks[q + 2].text == "one":
                    # "... and stop in the first one you reach": the one of the heading
                    one = rest_toks[q + 2]
                    rest_toks[q + 2:q + 3] = [tok(w, one) for w in str(hit[1]).split("_")]
                    break
            return [*toks[:a], *rest_toks]
    return toks


#: "through the kitchen and (then) stop / wait by the sofa": the words between the room passed
#: and the thing stopped at.
_THROUGH_THEN_STOP = re.compile(r"[\s,]*and\s+(?:then\s+)?(?:just\s+)?(?:stop|wait|stand|halt|"
                                r"pause|park)\s+(?:at|by|beside|near|next\s+to|in\s+front\s+of)"
                                r"\s*")


def through_then_stop(clauses: list[Clause], text: str) -> list[Clause]:
    """"cut through the living room and stop at the fridge": the room is passed, the thing
    after it is the goal (the stage merges read "into the bedroom and stop at its window" and
    "go through to the bathroom and stop at the toilet" as one stage: the room reached; a room
    gone *through* is left behind). Run after those merges; splits a goal they made back into
    the pass and the goal. "go through to the living room, and stop by the bin in there": the
    room gone through *to* holds the stop, one stage."""
    out: list[Clause] = []
    for c in clauses:
        mods = c.refs[0].modifiers if c.kind == "goal" and len(c.refs) == 1 else []
        prev = out[-1] if out else None
        there = next((m for m in mods if m.kind == "in_room" and len(m.refs) == 1 and
                      m.refs[0].text.lower() in ("there", "it")), None)
        if prev is not None and there is not None and prev.kind == "pass" and \
                len(prev.refs) == 1 and prev.refs[0].head == there.refs[0].head and \
                re.search(r"\bthrough\s+to\s+$", text[:prev.refs[0].span[0]].lower()):
            # "go through to the living room, and stop next to the bin in there": the room
            # gone *to* is where the stop is (one stage, the room as described)
            there.refs[0] = prev.refs[0]
            c.span = (prev.span[0], c.span[1])
            out[-1] = c
            continue
        room = mods[0].refs[0] if mods and mods[0].kind == "in_room" and \
            len(mods[0].refs) == 1 else None
        if room is not None and room.head_kind == "room" and not room.plural and \
                re.search(r"\bthrough\s+$", text[:room.span[0]].lower()) and \
                _THROUGH_THEN_STOP.fullmatch(text[room.span[1]:c.refs[0].span[0]].lower()):
            del mods[0]
            out.append(Clause("pass", (c.span[0], room.span[1]),
                              text[c.span[0]:room.span[1]], refs=[room]))
            c.span = (room.span[1], c.span[1])
            c.text = text[c.span[0]:c.span[1]]
        out.append(c)
    return out
