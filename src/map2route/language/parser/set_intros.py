"""Introductions of a thing or a set before the pick, said the way people talk.

Read here (run first in :func:`.human.human_forms`, on the tokens as typed), each rewritten
into a set-up the later passes already read (:mod:`.set_picks`, scene-setting "There's a X
..." sentences, "X, the one Q, not the one P"):

* "You know the dining table that's got a lamp on it? Go to the dog bed in that same room."
  / "remember the armchair with the remote on it?" / "you know the tv stand in the living
  room with no window yeah go stand next to it" -> "There is a dining table that's got a lamp
  on it. Go to ...": the thing asked about is introduced, never a stage.
* "..., you know, the kitchen counter with ...", "the bedroom ... you know the one with the
  two beds", "the table ... you know not the one with the lamp": "you know" said inside a
  reference is a hesitation before an apposition (reported as context).
* "We've got two of those desk lamps." / "I have 3 remotes" / "This house has two sinks" ->
  "There are two desk lamps.": a set said by what the speaker (or the house) has.
* "The bins: there are four of them." -> "There are four bins."; "stop at one of the desk
  lamps on the dresser; there are three of them, I want the one closest to the bed" ->
  "There are three desk lamps on the dresser. stop at the one closest to the bed".
* "the remote on the sofa, not the one on the TV stand, the one on the sofa" -> "..., the
  one Q, not the one P" (the rejected one is an exclusion the later passes report; the kept
  one describes the pick). Said as a sentence of its own ("Go to the chair. Not the one by
  the desk, the one by the bed.") it is left to the later passes, which refuse it.
* "Go to the odd one out, the one in the bedroom": "the odd one out" before the pick's own
  description says nothing more (context); so does "Two of them sit in the living room."
  before it. "Two of the bathrooms have candles in them." -> "There are two bathrooms with
  candles." (only when the next sentence picks from them).
* "From the two sinks in this house, go to ..." -> "Of the two sinks ..."; "the one in the
  bathroom that is bigger" -> "... in the bigger bathroom"; "whichever of the two windows is
  nearer the TV" -> "... nearer to the TV"; "there are three sinks in this house go to the
  one ..." (speech): the set-up ends before the request; "the 1 on the dresser" -> "the one".
* "the one with no bed in it, go to the window in there" -> "go to the window in the one with
  no bed in it": a room said as the topic, then named by "in there", is the request's room.

What the map cannot check is not read here: "not the one with the lamp" after a room phrase
("the table in that room, not the one with ...": which one it is said of is not clear) and
picks by looks stay as typed, so that the later stages refuse them by name.

Hand-written like the rest of the parser (see :mod:`.normalise`): the shapes are few and
closed. Every word is kept (moved, with its span) or reported as context; a shape that does
not match exactly is left as typed, so that the later stages refuse it by name.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

Context = list[tuple[str, tuple[int, int]]]

_ENDS = (".", "!", "?", ";")
_LEADS = W.FILLER_WORDS | {"so", "right", "and", "now", ",", "oh", "ok", "okay", "well",
                           "um", "uh", "hey", "look", "listen"}
#: "you know the X", "remember the X": the thing asked about is introduced.
_KNOW = (("do", "you", "know"), ("do", "you", "remember"), ("you", "know"),
         ("you", "remember"), ("remember",))
#: Words that start the request after an introduction said without a mark.
_REQUEST = frozenset(W.MOVE_VERBS) | {"stop", "please", "can", "could", "i", "now", "then",
                                      "would", "will", "wait", "park"}
#: Tags that end an introduction ("..., yeah?", "... right").
_TAGS = (",", "yeah", "yes", "right", "ok", "okay", "yea", "yep")
#: A set said by what someone has: "we've got", "I have", "this house has".
_HAVE = (("we", "have", "got"), ("i", "have", "got"), ("you", "have", "got"), ("we", "have"),
         ("i", "have"), ("we", "got"), ("this", "house", "has", "got"), ("this", "house", "has"),
         ("the", "house", "has", "got"), ("the", "house", "has"), ("this", "place", "has"),
         ("this", "flat", "has"))
_COUNTS = (("a", "couple", "of"), ("a", "few"), ("a", "bunch", "of"), ("several",),
           ("couple", "of"), ("a", "pair", "of"), ("multiple",))
_SIZE_LEADS = frozenset(W.SIZE_ADJ) | {"little", "big"}


def _t(word: str, like: Token) -> Token:
    return Token(word, like.start, like.end)


def _said(toks: list[Token]) -> tuple[str, tuple[int, int]]:
    return " ".join(t.text for t in toks), (toks[0].start, toks[-1].end)


def _lead_end(words: list[str], k: int) -> int:
    while k < len(words) and words[k] in _LEADS:
        k += 1
    return k


def _starts(words: list[str]) -> list[int]:
    """Indices where a sentence starts."""
    return [0] + [k + 1 for k, w in enumerate(words) if w in _ENDS and k + 1 < len(words)]


def _count(words: list[str], k: int) -> int:
    w = words[k] if k < len(words) else ""
    if (w.isdigit() and int(w) >= 2) or W.NUMBERS.get(w, 0) >= 2:
        return 1
    return next((len(p) for p in _COUNTS if tuple(words[k:k + len(p)]) == p), 0)


def _head_after(words: list[str], k: int) -> tuple[int, int] | None:
    """(start, end) of the head after ``k`` (size words before it allowed), if any."""
    lex = head_lexicon()
    q = k
    while q < len(words) and words[q] in _SIZE_LEADS:
        q += 1
    hit = lex.match(words[q:q + lex.max_len])
    return (q, q + hit[0]) if hit is not None else None


# --- "you know the X?" --------------------------------------------------------------------
def _intro_end(words: list[str], k: int) -> tuple[int, int] | None:
    """(end of the description, start of the request) after an introduced thing from ``k``:
    at an end mark, or (unmarked speech) at tags before a request word."""
    q = k
    while q < len(words):
        w = words[q]
        if w in _ENDS:
            r = q + 1
            return (q, r) if r < len(words) else None
        if w in _REQUEST and q > k:
            e = q
            while e > k and words[e - 1] in _TAGS:
                e -= 1
            if e < q or w in W.MOVE_VERBS and words[q - 1] not in ("to", "that", "which", "i",
                                                                    "you", "can", "could"):
                return e, q
        q += 1
    return None


def _known(toks: list[Token], context: Context) -> list[Token]:
    words = [t.text for t in toks]
    for s in reversed(_starts(words)):
        k = _lead_end(words, s)
        n = next((len(p) for p in _KNOW if tuple(words[k:k + len(p)]) == p), 0)
        if not n or words[k + n:k + n + 1] not in (["the"], ["that"]):
            continue
        head = _head_after(words, k + n + 1)
        if head is None or head[0] > k + n + 3:
            continue
        end = _intro_end(words, head[1])
        if end is None:
            continue
        e, r = end
        desc = words[head[1]:e]
        if e <= head[1] - 1 or r >= len(words) or any(
                w in ("you", "i", "go", "want") for w in desc) or any(
                w in ("is", "are", "was", "were") and (m == 0 or desc[m - 1] not in (
                    "that", "which")) for m, w in enumerate(desc)):
            continue  # "remember the fridge door is open": a statement, not an introduction
        if words[k + n - 1] == "remember" and words[e] != "?" and \
                not any(w in _TAGS[1:] for w in words[e:r]):
            continue  # "remember the X" said as an imperative
        mark = toks[e] if e < len(toks) else toks[e - 1]
        said = toks[k:k + n] + [t for t in toks[e:r] if t.text not in _ENDS]
        context.append(_said(said))
        held = _held_set(toks, head, e, r)
        if held is not None:  # "you know the bedroom with the two beds in it go to the bigger"
            new = [_t("in", toks[k]), *toks[k + n:head[1]], *held, _t(".", mark)]
            toks = [*toks[:k], *new, *toks[r:]]
            words = [t.text for t in toks]
            continue
        new = [_t("there", toks[k]), _t("is", toks[k + n - 1]), _t("a", toks[k + n]),
               *toks[k + n + 1:e], _t(".", mark)]
        toks = [*toks[:k], *new, *toks[r:]]
        words = [t.text for t in toks]
    return toks


_PICKS = (("of", "the", "two"), ("of", "them"), ("of", "those"), ("the", "one"),
          ("whichever",), ("of", "the", "three"), ("the", "1"), ("that", "one"))


def _picked_after(words: list[str], k: int) -> bool:
    """Whether the sentence after the one ending at ``k`` (or the rest of this one, after a
    comma) picks from a set ("the one", "whichever", "the bigger of the two")."""
    r = next((q + 1 for q in range(k, len(words)) if words[q] in (*_ENDS, ",")), len(words))
    stop = next((m for m in range(r, len(words)) if words[m] in _ENDS), len(words))
    return any(tuple(words[m:m + len(p)]) == p for m in range(r, stop) for p in _PICKS)


def _held_set(toks: list[Token], head: tuple[int, int], e: int,
              r: int) -> list[Token] | None:
    """"the bedroom with the two beds in it" when the request picks from those beds ("the
    bigger of the two"): "with the two beds there are two beds" (the room keeps its
    description; the set stands in it, as :mod:`.set_picks` reads it)."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    room = lex.match(words[head[0]:head[1]])
    q = head[1]
    if room is None or room[2] != "room" or words[q:q + 1] != ["with"]:
        return None
    q += 1 + (words[q + 1:q + 2] == ["the"])
    c = _count(words, q)
    sub = lex.match(words[q + c:q + c + lex.max_len]) if c == 1 else None
    if sub is None or sub[2] == "room":
        return None
    x = q + c + sub[0]
    if words[x:e] not in ([], ["in", "it"], ["in", "there"]):
        return None
    stop = next((m for m in range(r, len(words)) if words[m] in _ENDS), len(words))
    if not any(tuple(words[m:m + len(p)]) == p for m in range(r, stop) for p in _PICKS):
        return None
    return [*toks[head[1]:x], _t("there", toks[q]), _t("are", toks[q]), *toks[q:x]]


def _right_after_head(words: list[str], k: int) -> bool:
    """Whether ``words[:k]`` ends on a thing said with nothing after its head ("near the
    table" before "you know not the one with the lamp")."""
    lex = head_lexicon()
    return any((h := lex.match(words[m:k])) is not None and h[0] == k - m and
               words[m - 1:m] in (["the"], ["that"]) and m >= 2 and words[m - 2] in _NP_OPEN
               for m in range(max(2, k - 3), k))


def _known_apposition(toks: list[Token], context: Context) -> list[Token]:
    """"X, you know, the kitchen counter", "the bedroom ... you know the one with ...": "you
    know" before an apposition inside a sentence -> ","."""
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        if words[k:k + 2] == ["you", "know"] and k > 0 and words[k - 1] not in _ENDS and \
                words[k - 1] not in _LEADS - {","}:
            q = k + 2 + (words[k + 2:k + 3] == [","])
            nxt = words[q:q + 3]
            if nxt[:2] == ["the", "one"] or nxt == ["not", "the", "one"] and \
                    _right_after_head(words, k) or \
                    nxt[:1] == ["the"] and _head_after(words, q + 1) is not None and \
                    words[k - 1] == ",":
                context.append(_said(toks[k:k + 2]))
                if not out or out[-1].text != ",":
                    out.append(_t(",", toks[k]))
                k = q
                continue
        out.append(toks[k])
        k += 1
    return out


# --- "we've got two Xs" ---------------------------------------------------------------------
def _have_sets(toks: list[Token], context: Context) -> list[Token]:
    words = [t.text for t in toks]
    for s in reversed(_starts(words)):
        k = _lead_end(words, s)
        n = next((len(p) for p in _HAVE if tuple(words[k:k + len(p)]) == p), 0)
        c = _count(words, k + n) if n else 0
        if not c:
            continue
        q = k + n + c
        of = 2 if words[q:q + 2] in (["of", "those"], ["of", "these"]) else 0
        if _head_after(words, q + of) is None or not _picked_after(words, q):
            continue
        context.append(_said(toks[k:k + n] + toks[q:q + of]))
        toks = [*toks[:k], _t("there", toks[k]), _t("are", toks[k + n - 1]),
                *toks[k + n:q], *toks[q + of:]]
        words = [t.text for t in toks]
    return toks


# --- "there are three of them" ----------------------------------------------------------------
def _of_them(toks: list[Token], context: Context) -> list[Token]:
    words = [t.text for t in toks]
    for k in range(len(words) - 4, -1, -1):
        if words[k:k + 2] != ["there", "are"]:
            continue
        c = _count(words, k + 2)
        if not c or words[k + 2 + c:k + 4 + c] != ["of", "them"]:
            continue
        them = k + 2 + c
        s = max([q + 1 for q in range(k) if words[q] in _ENDS[:3]] or [0])
        a = _lead_end(words, s)
        # "The bins: there are four of them."
        head = _head_after(words, a + 1) if words[a:a + 1] == ["the"] and \
            ";" not in words[a:k] else None
        if head is not None and head[0] == a + 1 and k == head[1] + 1 and \
                words[head[1]] in (":", ",", "-"):
            context.append(_said([toks[a], toks[head[1]], *toks[them:them + 2]]))
            toks = [*toks[:a], *toks[k:them], *toks[head[0]:head[1]], *toks[them + 2:]]
            return _of_them(toks, context)
        # "stop at one of the lamps on the dresser; there are three of them, I want the one ..."
        one = next((q for q in range(k - 1, a, -1) if words[q:q + 3] == ["one", "of", "the"]),
                   None)
        if one is None or words[k - 1] not in (";", ",", "-") or \
                words[one - 1] not in ("at", "to", "by", "beside"):
            continue
        h = _head_after(words, one + 3)
        if h is None or h[0] != one + 3 or any(w in _ENDS or w in W.MOVE_VERBS
                                               for w in words[h[1]:k - 1]):
            continue
        r = them + 2 + (words[them + 2:them + 3] == [","])
        want = next((len(p) for p in (("i", "want"), ("i", "would", "like"), ("i", "mean"),
                                      ("i", "need")) if tuple(words[r:r + len(p)]) == p), 0)
        if words[r + want:r + want + 2] != ["the", "one"]:
            continue
        context.append(_said([*toks[one:one + 3], *toks[them:them + 2], *toks[r:r + want]]))
        setup = [*toks[k:them], *toks[h[0]:k - 1], _t(".", toks[k - 1])]
        toks = [*toks[:s], *setup, *toks[s:one], *toks[r + want:]]
        return _of_them(toks, context)
    return toks


# --- "not the one P, the one Q" -------------------------------------------------------------
def _clause(words: list[str], k: int) -> int:
    """End of a "the one ..." clause from ``k`` (at a comma or an end mark); -1 when it has a
    request word in it."""
    q = k
    while q < len(words) and words[q] not in (",", *_ENDS):
        if words[q] in W.MOVE_VERBS or words[q] in ("i", "you", "other", "not"):
            return -1
        q += 1
    return q


def _kept_after_rejected(toks: list[Token]) -> list[Token]:
    """"X, not the one P, the one Q" -> "X, the one Q, not the one P"."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    for k in range(len(words) - 1, 0, -1):
        if words[k:k + 3] != ["not", "the", "one"] or words[k - 1] != ",":
            continue
        p_end = _clause(words, k + 3)
        if p_end < 0 or words[p_end:p_end + 3] != [",", "the", "one"]:
            continue
        q_end = _clause(words, p_end + 3)
        if q_end < 0 or q_end == p_end + 3:
            continue
        prev = k - 2
        if words[k - 1] in _ENDS:
            # a new sentence: the request before must end on a thing ("Go to the plunger.")
            if not any(lex.match(words[x:prev + 1]) for x in range(max(0, prev - 3), prev + 1)):
                continue
        rejected = toks[k:p_end]
        kept = toks[p_end + 1:q_end]
        comma = _t(",", toks[k - 1])
        toks = [*toks[:k - 1], comma, *kept, _t(",", toks[p_end]), *rejected, *toks[q_end:]]
        words = [t.text for t in toks]
    return toks


def _odd_one_out(toks: list[Token], context: Context) -> list[Token]:
    """"the odd one out, the one in the bedroom" -> "the one in the bedroom"."""
    words = [t.text for t in toks]
    for k in range(len(words) - 6, -1, -1):
        if words[k:k + 4] == ["the", "odd", "one", "out"] and \
                words[k + 4:k + 7] == [",", "the", "one"]:
            context.append(_said(toks[k:k + 4]))
            toks = [*toks[:k], *toks[k + 5:]]
    return toks


def _spoken_other_one(toks: list[Token]) -> list[Token]:
    """", not the one with the lamp on it the other one" (speech, no comma) -> "..., the
    other one": the comma the typed form has before the kept one."""
    words = [t.text for t in toks]
    for k in range(len(words) - 1, 2, -1):
        if words[k:k + 3] != ["the", "other", "one"] or words[k - 1] in (",", *_ENDS):
            continue
        m = next((q for q in range(k - 1, max(0, k - 12), -1)
                  if words[q - 1:q + 3] == [",", "not", "the", "one"]), None)
        if m is None or any(w in (",", *_ENDS) for w in words[m + 3:k]):
            continue
        toks = [*toks[:k], _t(",", toks[k]), *toks[k:]]
        words = [t.text for t in toks]
    return _without_other(toks)


_NP_OPEN = frozenset(W.MOVE_VERBS) | {"near", "from", "to", "at", "past", "avoid", "around",
                                      "round", "reach", "of"}


def _without_other(toks: list[Token]) -> list[Token]:
    """"X in the room, not the one with P, the other one" -> "X without P in the room": the
    kept one said by what it lacks, on the thing the clause is about (a constraint's thing
    too: "don't get near the table in that room, not the one with the lamp on it, the other
    one")."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    for k in range(len(words) - 1, 0, -1):
        if words[k - 1:k + 4] != [",", "not", "the", "one", "with"] or \
                words[k - 3:k - 1] in (["no", "wait"], ["i", "mean"]) or \
                words[k - 2:k - 1] in (["sorry"], ["wait"], ["no"]):
            continue
        e = next((q for q in range(k + 4, len(words)) if words[q] in (",", *_ENDS)), None)
        if e is None or words[e:e + 4] not in ([",", "the", "other", "one"],) or \
                words[e + 4:e + 5] not in ([], [","], *([x] for x in _ENDS)) or \
                any(w in W.MOVE_VERBS for w in words[k + 4:e]):
            continue
        o = next((q for q in range(k - 2, -1, -1) if words[q] in _NP_OPEN or
                  words[q] in (",", *_ENDS)), None)
        if o is None or words[o] in (",", *_ENDS) or words[o + 1:o + 2] not in (["the"], ["that"]):
            continue
        hit = lex.match(words[o + 2:o + 2 + lex.max_len])
        if hit is None or o + 2 + hit[0] != k - 1:
            continue  # "the table in that room, not the one with X": which one it is on
        h = o + 2 + hit[0]
        said = [_t("without", toks[k + 3]), *toks[k + 4:e]]
        toks = [*toks[:h], *said, *toks[h:k - 1], *toks[e + 4:]]
        words = [t.text for t in toks]
    return toks


def _room_topic(toks: list[Token], context: Context) -> list[Token]:
    """"the one with no bed in it, go to the window in there" -> "go to the window in the one
    with no bed in it": a room said first as the topic, then named again by "in there" / "in
    it", is the request's room (the topic moved to where "there" stands; not a stop)."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    for s in reversed(_starts(words)):
        a = _lead_end(words, s)
        if words[a:a + 1] != ["the"]:
            continue
        hit = lex.match(words[a + 1:a + 1 + lex.max_len])
        if words[a + 1:a + 2] != ["one"] and (hit is None or hit[2] != "room"):
            continue
        c = next((q for q in range(a + 2, len(words)) if words[q] in (",", *_ENDS)), None)
        if c is None or words[c] != "," or any(w in W.MOVE_VERBS or w in ("i", "you")
                                               for w in words[a:c]):
            continue
        e = next((q for q in range(c + 1, len(words)) if words[q] in _ENDS), len(words))
        there = [q for q in range(c + 1, e) if words[q:q + 2] in (["in", "there"], ["in", "it"])]
        if words[c + 1:c + 2] == [] or words[c + 1] not in W.MOVE_VERBS or len(there) != 1:
            continue
        q = there[0] + 1
        context.append(_said([toks[c], toks[q]]))
        toks = [*toks[:a], *toks[c + 1:q], *toks[a:c], *toks[q + 1:]]
        words = [t.text for t in toks]
    return toks


_BIGGER = ("bigger", "larger", "smaller", "tinier", "wider")
_NEARER = ("nearer", "closer", "further", "farther", "nearest", "closest", "furthest",
           "farthest")


def _predicates(toks: list[Token], context: Context) -> list[Token]:
    """"whichever of the windows is nearer the TV" -> "... is nearer to the TV"; "the one in
    the bathroom that is bigger" -> "... in the bigger bathroom": a pick's comparison said as
    the predicate."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    out: list[Token] = []
    k = 0
    while k < len(toks):
        w = words[k]
        if w in _NEARER and words[k - 1:k] in (["is"], ["'s"], ["are"]) and \
                words[k + 1:k + 2] in (["the"], ["that"], ["this"]) and \
                "whichever" in words[max(0, k - 8):k]:
            out += [toks[k], _t("to", toks[k])]
            k += 1
            continue
        if w in ("that", "which") and words[k + 1:k + 2] == ["is"] and \
                words[k + 2:k + 3] and words[k + 2] in _BIGGER and \
                words[k + 3:k + 4] in ([], [","], ["and"], ["then"], *([x] for x in _ENDS)):
            hit = next((m for m in range(max(0, k - 3), k)
                        if (h := lex.match(words[m:k])) is not None and h[0] == k - m), None)
            if hit is not None and hit > 0 and words[hit - 1] == "the":
                context.append(_said(toks[k:k + 2]))
                out = [*out[:len(out) - (k - hit)], toks[k + 2], *toks[hit:k]]
                k += 3
                continue
        out.append(toks[k])
        k += 1
    return out


def _from_the_n(toks: list[Token]) -> list[Token]:
    """"From the two sinks in this house, go to ..." -> "Of the two sinks ...": the set a
    sentence opens with, said as :mod:`.reference_frames` reads it."""
    words = [t.text for t in toks]
    for s in _starts(words):
        a = _lead_end(words, s)
        if words[a:a + 2] == ["from", "the"] and _count(words, a + 2) == 1:
            toks = [*toks[:a], _t("of", toks[a]), *toks[a + 1:]]
    return toks


_VERBS_OF = ("sit", "are", "stand", "live", "lie", "go", "belong")


def _some_of_them(toks: list[Token], context: Context) -> list[Token]:
    """"Two of the bathrooms have candles in them." -> "There are two bathrooms with candles.";
    "Two of them sit in the living room." before "the odd one out, the one in the bedroom"
    (the pick says its own place): the statement is context."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    for s in reversed(_starts(words)):
        a = _lead_end(words, s)
        c = _count(words, a)
        if c != 1 or words[a + 1:a + 2] != ["of"]:
            continue
        e = next((q for q in range(a, len(words)) if words[q] in _ENDS), len(words))
        if e >= len(words) - 1:
            continue
        if words[a + 2:a + 3] == ["them"] and words[a + 3:a + 4] and \
                words[a + 3] in _VERBS_OF:
            f = next((q for q in range(e + 1, len(words)) if words[q] in _ENDS), len(words))
            nxt = words[e + 1:f]
            if any(nxt[m:m + 7] == ["the", "odd", "one", "out", ",", "the", "one"]
                   for m in range(len(nxt))):
                context.append(_said(toks[a:e]))
                toks = [*toks[:s], *toks[e + 1:]]
                words = [t.text for t in toks]
            continue
        if words[a + 2:a + 3] != ["the"]:
            continue
        hit = lex.match(words[a + 3:a + 3 + lex.max_len])
        if hit is None:
            continue
        h = a + 3 + hit[0]
        have = next((len(p) for p in (("have", "got"), ("have",)) if
                     tuple(words[h:h + len(p)]) == p), 0)
        if not have or words[h + have:h + have + 1] in (["no"], ["not"]) or \
                not _picked_after(words, h):
            continue
        tail = e
        if words[e - 2:e] in (["in", "them"], ["on", "them"], ["at", "them"]):
            tail = e - 2
        rest = words[h + have:tail]
        if not rest or any(w in W.MOVE_VERBS or w in ("i", "you", "them", "it", "and", ",")
                           for w in rest):
            continue
        context.append(_said([*toks[a + 1:a + 3], *toks[h:h + have], *toks[tail:e]]))
        new = [_t("there", toks[a]), _t("are", toks[a]), toks[a], *toks[a + 3:h],
               _t("with", toks[h]), *toks[h + have:tail]]
        toks = [*toks[:a], *new, *toks[e:]]
        words = [t.text for t in toks]
    return toks


def _spoken_set_end(toks: list[Token]) -> list[Token]:
    """"there are three sinks in this house go to the one ..." (speech, no mark): the set-up
    ends before the request word; "the 1 on the dresser" -> "the one"; "in that one which
    has" -> "in the one which has"."""
    words = [t.text for t in toks]
    for s in reversed(_starts(words)):
        a = _lead_end(words, s)
        if words[a:a + 2] != ["there", "are"] or not _count(words, a + 2):
            continue
        h = _head_after(words, a + 2 + _count(words, a + 2))
        if h is None:
            continue
        end = _intro_end(words, h[1])
        if end is None or end[0] != end[1] or words[end[1]] not in W.MOVE_VERBS:
            continue
        toks = [*toks[:end[1]], _t(".", toks[end[1] - 1]), *toks[end[1]:]]
        words = [t.text for t in toks]
    out: list[Token] = []
    for k, t in enumerate(toks):
        if t.text == "1" and words[k - 1:k] == ["the"] and words[k + 1:k + 2] and \
                words[k + 1] in ("on", "in", "by", "with", "at", "near", "next", "closest",
                                 "nearest", "that", "which"):
            out.append(_t("one", t))
        elif t.text == "that" and words[k + 1:k + 3] in (["one", "which"], ["one", "that"],
                                                          ["one", "with"]) and \
                words[k - 1:k] in (["in"], ["at"], ["to"], ["from"]):
            out.append(_t("the", t))
        else:
            out.append(t)
    return out


def set_intros(toks: list[Token]) -> tuple[list[Token], Context]:
    """Rewrite the introductions of a pick (see the module docstring); returns the tokens
    and the words reported as context."""
    context: Context = []
    toks = _known(toks, context)
    toks = _known_apposition(toks, context)
    toks = _have_sets(_from_the_n(toks), context)
    toks = _spoken_set_end(_some_of_them(toks, context))
    toks = _of_them(toks, context)
    toks = _odd_one_out(_predicates(toks, context), context)
    toks = _kept_after_rejected(_spoken_other_one(toks))
    return _room_topic(toks, context), context
