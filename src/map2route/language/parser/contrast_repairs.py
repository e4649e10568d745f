"""Contrasts and repairs that point back at the thing just named: "not X, the Y" pairs,
emphatic tails of a prohibition and parts that say what need not be done.

Read by :func:`.retractions.retractions` (the one place self-corrections are read), before
its negated alternatives and runs of leads, on the tokens as typed:

* a contrast pair "not X, (the) Y" after a request ("Go and stand by the toilet. Not the sink,
  the toilet itself.", "go to the sofa, not the TV stand, the sofa", "by the TV in the
  bedroom, not the one in the lounge, the bedroom one", "Not next to the sink, next to the
  toilet."): where Y only says again the thing the request picked, the pair is a
  confirmation, reported as context; where X rejects that thing ("not that one", "not that
  settee", "not the window" after "go to the window", or any pair after a correction lead:
  "no, wait, not the window, the floor lamp itself") the pair is a correction: it becomes
  the one lead the later passes read ("no wait , Y") and the rejected words are context;
* an emphatic tail of a prohibition (", not even to cut through", ", not even for a
  second"): it adds nothing to the constraint before it and is context;
* what need not be done ("Just the corner, you don't need to touch the lamp", "you do not
  need to go into the bathroom"): a part naming again the thing picked ("Just the corner")
  and a "you do not need to VERB ..." clause are context.

Hand-written (no model), like the rest of the package: each rule is a token pattern that
keeps character spans; a word the parser does not know is never moved to context (it keeps
the refusal that names it), and only words that say nothing new of where to go are moved.
"""

from __future__ import annotations

from collections.abc import Callable

from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token
from map2route.language.vocabulary import GROUPS

Context = list[tuple[str, tuple[int, int]]]

_ENDS = (".", "!", "?")
_OPEN = (*_ENDS, ",", ";", ":", "(")
_DETS = ("the", "that", "this", "a", "an")
#: Words of a correction lead that may stand right before "not" ("no, wait, not the X, ...").
_LEAD = frozenset({"no", "nope", "nah", "wait", "sorry", "actually", "hang", "hold", "on", "oh",
                   "ah", "er", "err", "erm", "um", "hmm", "oops", "well", ","})
_TAKES_BACK = frozenset({"no", "nope", "nah", "wait", "sorry", "oops", "actually"})
#: Words between the two halves of a pair that say nothing ("not that settee, love, the ...").
_BETWEEN = frozenset({",", "sorry", "love", "dear", "mate", "please", "i", "mean", "meant",
                      "just", "but", "rather", "instead"})
#: Words that may end the restating half ("the toilet itself", "the bedroom one").
_RESTATE_TAIL = frozenset({"itself", "one", "please", "instead", "then", "though", "only",
                           "thing", "actual", "very", "real", "proper"})
_PREPS = frozenset({"next", "to", "by", "beside", "near", "at", "on", "in", "inside", "front",
                    "of", "behind", "under", "right", "up"})
#: Describing words a contrast may say of the rejected member ("not the narrow one"): the
#: pick said before already names the thing, so they are only part of the confirmation.
CONTRAST_ADJ = frozenset({"narrow", "wide", "long", "short", "tall", "low", "high", "thin",
                          "skinny", "fat", "single", "double", "old", "new", "round", "square",
                          "main", "spare", "poky", "pokey", "huge", "massive", "tiny"})
#: "not even to cut through": the words an emphatic tail of a prohibition may hold.
_EVEN_WORDS = frozenset({"not", "even", "to", "for", "a", "an", "one", "second", "sec",
                         "moment", "minute", "bit", "little", "just", "quickly", "briefly",
                         "once", "cut", "through", "pass", "go", "in", "into", "walk", "drive",
                         "peek", "look", "pop", "nip", "it", "there", "shortcut",
                         "short", "quick", "if", "you", "have", "must", "are", "hurry",
                         "rush", "way", "across", "by", "past", "of", "the", "edge", "corner",
                         "when", "passing", "on", "your", "slightly"})
_NEG_OPENERS = (("do", "not"), ("dont",), ("never",), ("avoid",), ("stay", "out"),
                ("keep", "out"), ("no",))
#: Verbs of "you do not need to VERB ...": what the walker need not do at the place.
_NEEDLESS_VERBS = frozenset({"touch", "go", "get", "enter", "open", "move", "pick", "bump",
                             "use", "climb", "sit", "knock", "reach", "come", "walk", "stand",
                             "wait", "stop", "push", "lift", "clean", "check", "look", "do"})


def _head(words: list[str], k: int) -> tuple[int, str] | None:
    lex = head_lexicon()
    hit = lex.match(words[k:k + lex.max_len])
    if hit is None or hit[2] == "pronoun":
        return None
    return hit[0], str(hit[1])


def _same(a: str, b: str) -> bool:
    """Whether two heads may name the same thing ("the table" of "the dining table")."""
    return a == b or b in GROUPS.get(a, ()) or a in GROUPS.get(b, ())


def _first_head(words: list[str], a: int, b: int) -> str:
    """The first thing (a room only where no thing is named) of ``words[a:b]``."""
    room = ""
    k = a
    while k < b:
        if words[k] == "corner":
            return "corner"
        hit = _head(words, k)
        if hit is None:
            k += 1
            continue
        if head_lexicon().match(words[k:k + 1]) is not None and \
                head_lexicon().match(words[k:k + 1])[2] == "room":  # type: ignore[index]
            room = room or hit[1]
            k += hit[0]
            continue
        return hit[1]
    return room


def _picked(words: list[str], i: int) -> str:
    """The thing the request before ``i`` picked: the first thing of the clause before (of
    the sentence before, where ``i`` opens a sentence)."""
    s = i
    while s > 0 and words[s - 1] not in _ENDS:
        s -= 1
    if s == i or all(w in _LEAD for w in words[s:i]):
        e = s - 1
        s = e
        while s > 0 and words[s - 1] not in _ENDS:
            s -= 1
        return _first_head(words, s, max(e, s))
    return _first_head(words, s, i)


def _np(words: list[str], a: int) -> int:
    """The end of a phrase from ``a`` (the next comma, sentence end or bracket)."""
    e = a
    while e < len(words) and words[e] not in (*_ENDS, ",", ";", ")", "(", ":"):
        e += 1
    return e


def _restates(words: list[str], a: int, e: int, picked: str) -> bool:
    """Whether ``words[a:e]`` only names again the thing picked ("the toilet itself", "next to
    the toilet", "the bedroom one", "the bat")."""
    k = a
    while k < e and words[k] in _PREPS:
        k += 1
    if k >= e or words[k] not in ("the", "that", "this"):
        return False
    k += 1
    seen = False
    while k < e:
        hit = _head(words, k)
        if hit is not None and not seen:
            if not _same(hit[1], picked) and not words[k + hit[0]:k + hit[0] + 1] == ["one"]:
                return False
            seen = True
            k += hit[0]
            continue
        if words[k] not in _RESTATE_TAIL and words[k] not in CONTRAST_ADJ:
            return False
        k += 1
    return seen or "one" in words[a:e]


def contrast_pairs(toks: list[Token], notes: Context,
                   known: Callable[[list[str]], bool]) -> list[Token]:
    """Read the "not X, (the) Y" pairs of ``toks`` (see the module docstring); ``known``
    says whether every word of the rejected half is one the parser reads."""
    words = [t.text for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(toks):
        if words[i] != "not" or not (i == 0 or words[i - 1] in _OPEN or
                                     words[i - 1] in _TAKES_BACK):  # "wait no not the X, ..."
            out.append(toks[i])
            i += 1
            continue
        c1 = _np(words, i + 1)
        x = words[i + 1:c1]
        k = c1
        while k < len(words) and words[k] in _BETWEEN:
            k += 1
        e2 = _np(words, k)
        if c1 >= len(words) or words[c1] != "," or not x or \
                k >= len(words) or not (words[k] in ("the", "that", "this") or
                                        words[k] in _PREPS) or not known(x):
            out.append(toks[i])
            i += 1
            continue
        b = len(out)  # a correction lead right before: "no, wait, not the window, ..."
        while b > 0 and out[b - 1].text in _LEAD:
            b -= 1
        lead = {t.text for t in out[b:]} & _TAKES_BACK
        picked = _picked(words, i)
        x_head = _first_head(words, i + 1, c1)
        deictic = x[:1] in (["that"], ["this"])
        rejects = bool(lead) or deictic or bool(picked) and bool(x_head) and \
            _same(x_head, picked)
        if picked and not rejects and _restates(words, k, e2, picked):
            _note(notes, [*out[b:], *toks[i:e2]])  # "Not the sink, the toilet itself"
            del out[b:]  # (with the soft leads before it: "well, not the whole X, ...")
            if out and out[-1].text == "," and (e2 >= len(words) or words[e2] in _ENDS):
                out.pop()
            i = e2
            continue
        if rejects and words[k] in _DETS and (x_head or deictic or "one" in x) and \
                (deictic or words[k:k + 2] != ["the", "other"]) and \
                words[k:k + 2] != ["the", "one"]:
            # ("not the one with X, the other one", "No, not that bedroom, the one with X":
            # an exclusion and a room correction the later passes read)
            _note(notes, [*out[b:], *toks[i:k]])
            span = (out[b].start if b < len(out) else toks[i].start, toks[k - 1].end)
            del out[b:]
            f = _fragment(out)
            if f is not None:  # "The bed in X. Not that one, the bed in Y. Go there."
                _note(notes, out[f:])
                del out[f:]
            else:
                out += [Token(w, *span) for w in ("no", "wait", ",")]
            if words[e2 - 1:e2] == ["itself"]:
                out += toks[k:e2 - 1]  # "the floor lamp itself": the corrected thing
                _note(notes, toks[e2 - 1:e2])
                i = e2
                continue
            i = k
            continue
        out.append(toks[i])
        i += 1
    return out


def _fragment(out: list[Token]) -> int | None:
    """Where the sentence before starts, when it only names a thing ("The bed in the teddy
    bear room."): the correction after it takes its place."""
    if not out or out[-1].text not in _ENDS:
        return None
    s = len(out) - 1
    while s > 0 and out[s - 1].text not in _ENDS:
        s -= 1
    words = [t.text for t in out[s:-1]]
    if words[:1] not in (["the"], ["a"]) or _head(words, 1) is None or \
            set(words) & (W.MOVE_VERBS | {"stand", "wait", "keep", "stay", "avoid", "is",
                                          "are", "please", "could", "would", "not", "do"}):
        return None
    return s


def _note(notes: Context, toks: list[Token]) -> None:
    toks = [t for t in toks if t.text not in (",", ";", ":", "(", ")", *_ENDS)]
    if toks:
        notes.append((" ".join(t.text for t in toks), (toks[0].start, toks[-1].end)))


def _negated_before(words: list[str], i: int) -> bool:
    s = i
    while s > 0 and words[s - 1] not in _ENDS:
        s -= 1
    return any(tuple(words[k:k + len(n)]) == n for k in range(s, i) for n in _NEG_OPENERS)


def emphatic_tails(toks: list[Token], notes: Context) -> list[Token]:
    """", not even to cut through" after a prohibition, and "you do not need to touch the
    lamp" / "Just the corner," (see the module docstring): context."""
    words = [t.text for t in toks]
    drop: set[int] = set()
    for i in range(1, len(words)):
        if words[i - 1] not in (",", "-", ";") or i in drop:
            continue
        e = _np(words, i)
        if words[i:i + 2] == ["not", "even"] and _negated_before(words, i) and \
                all(w in _EVEN_WORDS for w in words[i:e]):
            _note(notes, toks[i:e])
            drop.update(range(i - 1, e))
            continue
        k = i + (1 if words[i] in ("and", "but", "so") else 0)
        q = k + (3 if words[k:k + 3] == ["you", "do", "not"] else
                 2 if words[k:k + 2] == ["you", "dont"] else 0)
        if q > k and words[q:q + 2] in (["need", "to"], ["have", "to"]) and \
                words[q + 2:q + 3] and words[q + 2] in _NEEDLESS_VERBS and \
                _all_read(words[q + 3:e]):
            _note(notes, toks[k:e])
            drop.update(range(i - 1, e))
    out = [t for n, t in enumerate(toks) if n not in drop]
    return _just_the(out, notes)


def _all_read(body: list[str]) -> bool:
    """Whether a "you do not need to VERB ..." tail holds only heads and small words."""
    small = {"the", "a", "an", "it", "them", "up", "in", "into", "on", "to", "anything",
             "there", "at", "all", "through", "with", "or", "and", "of", "any", "near",
             "by", "next", "past", "around", "behind", "under", "close", "anywhere"}
    k = 0
    while k < len(body):
        hit = _head(body, k)
        if hit is not None:
            k += hit[0]
            continue
        if body[k] not in small:
            return False
        k += 1
    return True


def _just_the(toks: list[Token], notes: Context) -> list[Token]:
    """"Just the corner, ..." / "Only the table." opening a sentence after a request for that
    same thing: it says the pick again (context)."""
    words = [t.text for t in toks]
    drop: set[int] = set()
    for s in range(1, len(words)):
        if words[s - 1] not in _ENDS or words[s:s + 2] not in (["just", "the"], ["only", "the"]):
            continue
        e = _np(words, s)
        picked = _picked(words, s)
        if picked and _restates(words, s + 1, e, picked) and \
                (e >= len(words) or words[e] in (*_ENDS, ",")):
            _note(notes, toks[s:e])
            drop.update(range(s, e + (1 if e < len(words) and words[e] == "," or
                                      e < len(words) and words[e] in _ENDS else 0)))
    return [t for n, t in enumerate(toks) if n not in drop]
