"""Picks asked as a question, then pointed at; and descriptions said around a thing.

People often ask which thing they mean before they send the robot there:

* "Which bed is the furthest from the fridge? Go there and stop beside it." -> "Go to the
  bed that is the furthest from the fridge and stop beside it."
* "Out of all the beds in the house, which one is the furthest from the fridge? ..." (the
  set named first, the question asks for "one" of it).
* "Which of the bedrooms has the most books? That's where I want you to go." -> "go to the
  bedroom that has the most books."
* "Which room's got the most chairs? Go in there and park by the armchair." -> "Go to the
  room that has the most chairs and park by the armchair."
* "Which is the closest toilet to the kitchen? Go to it." / "What's the nearest chair to the
  fridge? Go to that one." (the question's own noun phrase is the pick)
* "I wonder which dresser is closest to the bear. Could you go there?" (an embedded question).

The question is a description, not chatter: its words move, spans kept, into the next
sentence in place of the first word that points back ("there", "in there", "it", "that
one", "that's the one (I want you to go to)", "that's where ..."). Later pointers ("stop
beside it", "the box in that room") are left to the parser's anaphora as before. A question
whose next sentence does not point back is left alone (and refused by later stages).

Also read here, because they are the same move of a description around its thing:

* a non-restrictive "which" that places the thing: "the laundry hamper, which you will find
  in the bathroom" / "the plunger, which is in the bathroom with the dresser" -> "the
  laundry hamper in the bathroom";
* "whichever" said after the thing: "the laptop, whichever one is nearest the teddy bear"
  / "the cart - whichever of the two is nearer the kitchen" -> "the laptop that is nearest
  the teddy bear";
* "whichever room's got the most chairs" / "has got" -> "whichever room has the most chairs";
* a count with a trailing phrase that only says where counted things lie in their room:
  "the bedroom that has the most books lying around", "the most paintings hanging on its
  walls" (dropped: every counted thing is in the room), and "the lounge with four chairs
  round the table" -> "with four chairs and a table" (the table is kept as a thing the room
  has).

What the map cannot check ("which sofa is the comfiest?") moves like any description and is
refused by name by the later stages. Hand-written like the rest of the parser (see
:mod:`.normalise`): the question shapes are few and closed, and every word is moved into the
pick, kept, or reported as context; nothing is dropped.
"""

from __future__ import annotations

from map2route.language.inflection import singular_word
from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

Context = list[tuple[str, tuple[int, int]]]

_ENDS = (".", "!", "?", ";")
_LEADS = frozenset({"um", "umm", "uh", "er", "erm", "so", "ok", "okay", "right", "hmm", "now",
                    "well", "oh", "and", ",", "hey", "quick", "question", "alright", "ah",
                    "anyway", "then", "first", "first,", "like"})
#: Openings of an embedded question ("I wonder which ...").
_WONDER = (("i", "wonder"), ("i", "am", "wondering"), ("i", "was", "wondering"),
           ("can", "you", "work", "out"), ("can", "you", "figure", "out"),
           ("could", "you", "work", "out"), ("could", "you", "figure", "out"),
           ("do", "you", "know"), ("work", "out"), ("figure", "out"), ("find", "out"))
_PLACE_TAGS = (("in", "the", "house"), ("in", "this", "house"), ("in", "the", "home"),
               ("in", "this", "home"), ("in", "the", "flat"), ("in", "this", "flat"),
               ("in", "the", "place"))
_BE = ("is", "'s", "are")
_HAVE = (("has", "got"), ("have", "got"), ("'s", "got"), ("has",), ("have",), ("contains",),
         ("contain",), ("holds",))
#: What "that's the one" / "that's where" may be followed by and still only say "go there".
_WANT_WORDS = frozenset({"i", "want", "you", "to", "go", "would", "like", "need", "should",
                         "head", "get", "be", "at", "in", "over", "please", "pls", "now", "end",
                         "up", "drive", "can", "could", "must", "'d", "me", "for", "so", "just",
                         "visit", "mean", "meant", "am", "after", "talking", "about", "yes",
                         "yeah", "into"})
_WANT_VERBS = frozenset({"want", "need", "go", "head", "visit", "mean", "meant", "like", "get",
                         "drive"})
_POINT_PREPS = frozenset({"to", "at", "by", "beside", "near", "towards", "toward", "reach",
                          "visit", "find", "of", "up"})
_THERE_VERBS = frozenset(W.MOVE_VERBS | {"go", "head", "get", "over", "run", "pop", "nip",
                                         "drive", "make", "straight", "back", "down", "up",
                                         "off", "along", "round", "across", "you"})


def _t(word: str, like: Token) -> Token:
    return Token(word, like.start, like.end)


def _end(words: list[str], k: int) -> int:
    return next((q for q in range(k, len(words)) if words[q] in _ENDS), len(words))


def _head(words: list[str], k: int) -> int:
    hit = head_lexicon().match(words[k:k + head_lexicon().max_len])
    return hit[0] if hit else 0


def _has_head(words: list[str], a: int, b: int) -> bool:
    return any(_head(words, k) for k in range(a, b))


def _at(words: list[str], k: int, *seq: str) -> bool:
    return tuple(words[k:k + len(seq)]) == seq


class _Question:
    """One question read: where its words lie and the noun phrase it makes."""

    def __init__(self, start: int, end: int, phrase: list[Token]) -> None:
        self.start, self.end, self.phrase = start, end, phrase


def _question(toks: list[Token], a: int) -> _Question | None:
    """The question starting at ``a`` (a sentence start), or None."""
    words = [t.text for t in toks]
    q = _end(words, a)
    k = a
    while k < q and words[k] in _LEADS:
        k += 1
    head: list[Token] = []
    if _at(words, k, "out", "of") or _at(words, k, "of", "all"):
        k += 2 if words[k] == "out" else 1
        k += 1 if _at(words, k, "all") else 0
        k += 1 if words[k:k + 1] in (["the"], ["those"], ["these"]) else 0
        n = _head(words, k)
        if not n:
            return None
        head = toks[k:k + n]
        k += n
        tag = next((len(t) for t in _PLACE_TAGS if _at(words, k, *t)), 0)
        k += tag
        if words[k:k + 1] != [","]:
            return None
        k += 1
    wonder = next((len(w) for w in _WONDER if _at(words, k, *w)), 0)
    k += wonder
    if words[k:k + 1] not in (["which"], ["what"]):
        return None
    closing = "?" if not wonder else "."
    if q >= len(words) or words[q] not in ("?", closing):
        return None
    k += 1
    if words[k:k + 1] in (["one"], ["ones"]):
        if not head:
            return None
        k += 1
    elif _at(words, k, "of"):
        k += 1
        k += 1 if words[k:k + 1] in (["the"], ["those"], ["these"], ["all"]) else 0
        k += 1 if _at(words, k, "the") else 0
        k += 1 if words[k:k + 1] and words[k] in W.NUMBERS else 0
        n = _head(words, k)
        if not n:
            return None
        head = toks[k:k + n]
        k += n
    elif words[k:k + 1] in (["is"], ["'s"]) and words[k + 1:k + 2] == ["the"] and not head:
        # "which is the closest toilet to the kitchen?": the question's noun phrase
        rest = toks[k + 1:q]
        if not _has_head(words, k + 1, q):
            return None
        return _Question(a, q, rest)
    else:
        n = _head(words, k)
        if not n or head:
            return None
        head = toks[k:k + n]
        k += n
    if not head or words[k:k + 1] == ["?"]:
        return None
    have = next((len(h) for h in _HAVE if _at(words, k, *h)), 0)
    if have:
        verb = "has"
        k += have
    elif words[k:k + 1] and words[k] in _BE:
        verb = "is"
        k += 1
    else:
        return None
    rest = toks[k:q]
    if not rest or any(w in ("you", "i", "we", "me", "?") for w in words[k:q]):
        return None
    last = head[-1]
    phrase = [_t("the", head[0]), *head[:-1], _t(singular_word(last.text), last),
              _t("that", toks[k - 1]), _t(verb, toks[k - 1]), *rest]
    return _Question(a, q, phrase)


def _wanting(words: list[str], a: int, b: int) -> bool:
    """Whether ``words[a:b]`` only says "I want you to go (to)" (or is empty)."""
    body = [w for w in words[a:b] if w != ","]
    return all(w in _WANT_WORDS for w in body) and \
        (not body or any(w in _WANT_VERBS for w in body))


def _point(toks: list[Token], a: int, e: int, phrase: list[Token]) -> list[Token] | None:
    """The sentence ``toks[a:e]`` with its first pointer replaced by ``phrase``, or None."""
    words = [t.text for t in toks]
    k = a
    while k < e and words[k] in _LEADS:
        k += 1
    if _at(words, k, "that", "is") and (_at(words, k + 2, "the", "one") or
                                        words[k + 2:k + 3] in (["where"], ["it"])):
        r = k + (4 if words[k + 2] == "the" else 3)
        inner = _point(toks, r + (words[r:r + 1] == [","]), e, phrase)
        if inner is not None and r < e:
            return inner
        if not _wanting(words, r, e):
            return None
        return [_t("go", toks[k]), _t("to", toks[k + 1]), *phrase]
    for x in range(k, e):
        w = words[x]
        prev = words[x - 1] if x > a else ""
        if w == "there" and words[x + 1:x + 2] not in (["is"], ["are"], ["'s"]):
            if prev in ("in", "inside") and x - 2 >= a and words[x - 2] not in _THERE_VERBS:
                return [*toks[a:x], *phrase, *toks[x + 1:e]]  # "the sofa in there"
            if prev in ("in", "into", "inside", "to", "at"):
                return [*toks[a:x - 1], _t("to", toks[x - 1]), *phrase, *toks[x + 1:e]]
            if prev in _THERE_VERBS:
                return [*toks[a:x], _t("to", toks[x]), *phrase, *toks[x + 1:e]]
            return None
        n = 2 if _at(words, x, "that", "one") or _at(words, x, "this", "one") else \
            1 if w == "it" else 0
        if n and prev in _POINT_PREPS | {"beside", "next", "into"}:
            if prev == "into":
                return [*toks[a:x - 1], _t("to", toks[x - 1]), *phrase, *toks[x + n:e]]
            return [*toks[a:x], *phrase, *toks[x + n:e]]
        if n:
            return None
    return None


_STOP_VERBS = frozenset({"stop", "wait", "stand", "park", "halt", "pause", "sit", "stay"})


def _after_and(toks: list[Token], k: int, picks: set[int]) -> None:
    """Mark the clause after "and" at ``k`` as a stop in the room said before it ("Which room
    has the most chairs? Go there and stand by the armchair": the armchair in that room): a
    stop verb, or a "go to X in it / in there"; never "and then come back to ..."."""
    if k >= len(toks) or toks[k].text not in ("and", "n", "&"):
        return
    k += 1
    words = [t.text for t in toks]
    e = _end(words, k)
    if words[k] in _STOP_VERBS or words[k] in ("go", "head") and any(
            _at(words, x, "in", "it") or _at(words, x, "in", "there") for x in range(k, e)):
        picks.add(toks[k].start)


def _questions(toks: list[Token], context: Context, picks: set[int]) -> list[Token]:
    words = [t.text for t in toks]
    a = 0
    while a < len(toks):
        if a and words[a - 1] not in _ENDS:
            a += 1
            continue
        qn = _question(toks, a)
        if qn is None or qn.end + 1 >= len(toks):
            a += 1
            continue
        s = qn.end + 1
        while s < len(toks) and words[s] in _ENDS:
            s += 1  # "which room has the most laptops?? go there"
        e = _end(words, s)
        pointed = _point(toks, s, e, qn.phrase)
        if pointed is None:
            a += 1
            continue
        body = [t for t in toks[a:qn.end] if t.text not in (",", *_ENDS)]
        context.append((" ".join(t.text for t in body), (body[0].start, body[-1].end)))
        at = next((j for j, t in enumerate(pointed) if t is qn.phrase[-1]), None)
        if at is not None:
            _after_and(pointed, at + 1, picks)
        toks = [*toks[:a], *pointed, *toks[e:]]
        words = [t.text for t in toks]
        a += 1
    return toks


_FIND = (("you", "will", "find"), ("you", "'ll", "find"), ("you", "can", "find"),
         ("you", "should", "find"), ("you", "would", "find"), ("you", "find"),
         ("is", "located"), ("is", "situated"), ("is",), ("sits",), ("stands",), ("lives",))
_FIND_PREPS = frozenset({"in", "inside", "on", "next", "beside", "by", "near", "at", "under"})


def _which_places(toks: list[Token]) -> list[Token]:
    """", which you will find in the bathroom" -> " in the bathroom" (after a thing)."""
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        if words[k] == "," and words[k + 1:k + 2] == ["which"] and k and \
                _ends_head(words, k):
            n = next((len(f) for f in _FIND if _at(words, k + 2, *f)), -1)
            p = k + 2 + n
            if n >= 0 and words[p:p + 1] and words[p] in _FIND_PREPS and \
                    _has_head(words, p, _end(words, p)):
                k = p
                continue
        out.append(toks[k])
        k += 1
    return out


def _ends_head(words: list[str], k: int) -> bool:
    """Whether a head of the lexicon ends right before ``k``."""
    return any(_head(words, j) == k - j for j in range(max(0, k - 4), k))


def _whichever_after(toks: list[Token]) -> list[Token]:
    """"the laptop, whichever one is nearest X" -> "the laptop that is nearest X"."""
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        if words[k] == "," and words[k + 1:k + 2] == ["whichever"] and k and _ends_head(words, k):
            j = k + 2
            if words[j:j + 1] in (["one"],):
                j += 1
            elif _at(words, j, "of", "them") or _at(words, j, "of", "those"):
                j += 2
            elif _at(words, j, "of", "the") and words[j + 2:j + 3] and \
                    words[j + 2] in W.NUMBERS:
                j += 3
                j += _head(words, j)
            if words[j:j + 1] in (["is"], ["'s"]) and j > k + 2 and \
                    any(w in W.RANK_WORDS or w in W.COMPARATIVE for w in
                        words[j + 1:_end(words, j)]):
                out.append(_t("that", toks[k + 1]))
                out.append(_t("is", toks[j]))
                k = j + 1
                continue
        out.append(toks[k])
        k += 1
    return out


#: Phrases after counted things that only say they lie in the room ("the most books lying
#: around"): every counted thing is in its room, so they add nothing the map could check.
_LIE = (("lying", "around"), ("lying", "about"), ("scattered", "around"),
        ("scattered", "about"), ("hanging", "on", "its", "walls"),
        ("hanging", "on", "the", "walls"), ("on", "its", "walls"), ("on", "the", "walls"),
        ("hanging", "up"), ("hanging", "on", "the", "wall"), ("on", "the", "wall"),
        ("dotted", "around"), ("dotted", "about"), ("strewn", "around"), ("strewn", "about"))
_AROUND = frozenset({"round", "around", "at"})


def _counted_tails(toks: list[Token], picks: set[int]) -> list[Token]:
    """"the most books lying around" -> "the most books"; "four chairs round the table" ->
    "four chairs and a table" (after "the most" or a count of two or more)."""
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        out.append(toks[k])
        counted = words[k] in W.NUMBERS and W.NUMBERS[words[k]] >= 2 or \
            _at(words, k - 1, "the", "most") and words[k] == "most"
        n = _head(words, k + 1) if counted else 0
        if not n:
            k += 1
            continue
        out.extend(toks[k + 1:k + 1 + n])
        # only a room's own count ("the lounge with four chairs round the table") has the
        # thing they stand round as another thing of the room; "the centre of the four chairs
        # around the table" describes the chairs
        owned = words[k - 1:k] in (["with"], ["has"], ["have"], ["got"])
        k += 1 + n
        tail = next((len(t) for t in _LIE if _at(words, k, *t)), 0)
        if tail:
            k += tail
            _after_and(toks, k, picks)
        elif owned and words[k:k + 1] and words[k] in _AROUND and words[k + 1:k + 2] == ["the"] and \
                _head(words, k + 2) and words[k - 1] not in ("is", "are") and \
                words[k + 2 + _head(words, k + 2):k + 3 + _head(words, k + 2)] in (
                    [","], ["."], ["?"], ["!"], ["and"], []):
            out.extend([_t("and", toks[k]), _t("a", toks[k + 1])])
            k += 2
    return out


_WANT_LEADS = (("i", "need"), ("i", "want"), ("i", "would", "like"), ("i", "am", "after"),
               ("go", "to"), ("head", "to"), ("i", "need", "you", "at"),
               ("i", "want", "you", "at"))
_OF_SET = (("of", "the", "pair"), ("of", "the", "two"), ("of", "them"), ("of", "those"),
           ("of", "the", "2"), ("out", "of", "the", "two"), ("of", "both"))
_THERE_TAIL = frozenset({"head", "go", "get", "over", "there", "please", "pls", "now", ","})


def _each_have(toks: list[Token], context: Context) -> list[Token]:
    """"The living rooms each have a dining table. I need the smaller one of the pair, head
    over there please." -> "go to the smaller dining table in the living rooms." (the set-up
    names one thing per room; the pick ranks them; the set-up is context)."""
    words = [t.text for t in toks]
    for a in range(len(toks)):
        if a and words[a - 1] not in _ENDS or not _at(words, a, "the"):
            continue
        n = _head(words, a + 1)
        hit = head_lexicon().match(words[a + 1:a + 1 + n]) if n else None
        if hit is None or hit[2] != "room" or not hit[3]:
            continue
        k = a + 1 + n
        if not (_at(words, k, "each", "have") or _at(words, k, "each", "has") or
                _at(words, k, "both", "have") or _at(words, k, "have", "one", "each")):
            continue
        k += 2
        k += 1 if words[k:k + 1] in (["a"], ["an"], ["one"]) else 0
        m = _head(words, k)
        e = _end(words, k)
        if not m or k + m != e or e + 1 >= len(toks):
            continue
        j = e + 1
        lead = next((len(w) for w in _WANT_LEADS if _at(words, j, *w)), 0)
        r = j + lead
        rank = words[r + 1] if r + 1 < len(words) else ""
        if not lead or not _at(words, r, "the") or words[r + 2:r + 3] != ["one"] or \
                rank not in W.RANK_WORDS and rank not in W.COMPARATIVE:
            continue
        x = r + 3
        x += next((len(o) for o in _OF_SET if _at(words, x, *o)), 0)
        e2 = _end(words, x)
        if any(w not in _THERE_TAIL for w in words[x:e2]):
            continue
        body = toks[a:k - 1]
        context.append((" ".join(t.text for t in body), (body[0].start, toks[e - 1].end)))
        pick = [_t("go", toks[j]), _t("to", toks[j]), toks[r], toks[r + 1], *toks[k:k + m],
                _t("in", toks[a]), *toks[a:a + 1 + n]]
        return [*toks[:a], *pick, *toks[e2:]]
    return toks


def _whichever_got(toks: list[Token]) -> list[Token]:
    """"whichever room's got the most chairs" / "has got" -> "whichever room has the most
    chairs" (a count after "whichever"; questions read "has got" in :func:`_question`)."""
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        n = _head(words, k + 1) if words[k] == "whichever" else 0
        g = k + 1 + n
        if n and (_at(words, g, "'s", "got") or _at(words, g, "has", "got")) and \
                words[g + 2:g + 4] in (["the", "most"], ["the", "fewest"], ["the", "least"]):
            out.extend(toks[k:g])
            out.append(_t("has", toks[g]))
            k = g + 2
            continue
        out.append(toks[k])
        k += 1
    return out


def question_picks(toks: list[Token]) -> tuple[list[Token], Context, set[int]]:
    """All the rewrites of this module (see the module docstring); returns the tokens, the
    context taken out (each question as said, and a set-up of one thing per room) and where
    the clauses start that stop in the room just picked (for ``Marks.set_picks``)."""
    context: Context = []
    picks: set[int] = set()
    toks = _each_have(_questions(toks, context, picks), context)
    toks = _counted_tails(_whichever_got(_whichever_after(_which_places(toks))), picks)
    return toks, context, picks


#: The pointer replacement, shared with :mod:`.introductions` ("... . Go to it.").
point_back = _point
