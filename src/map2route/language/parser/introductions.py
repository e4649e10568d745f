"""A thing, group or spot introduced by a sentence or clause, then pointed back at.

People often say what they mean first and only then what to do with it:

* "The teddy bear I'm after is the one sitting on the bed ... . Go to it." / "The remote I
  want is the one on the little table, so go over to that" / "the thing i need is the kettle
  in the kitchen yeah so go to that" (a copular introduction: the thing is the one ...);
* "The dog bed is in the bedroom with two armchairs. Go to it." (where the thing is);
* "In the bedroom with two windows there's a nightstand by the bed - that's where I need
  you" / "There's a box on the floor in the lounge. Go and stand next to it." (there is);
* "See the sofa and the armchair in the living room? Go halfway between the two of them" /
  "there's a toilet, a sink and a side table all close together. Go to the middle of those
  three" (a group, pointed at with a plural: them, those three, the two of them, that group);
* "bedroom with the telly. basketball on the floor in there. go to it" (a room, then the
  thing in it, each a sentence without a verb);
* "Whichever room has the most statues, that's the one with the box. Go to the box." (the
  thing's room picked first, the thing named again in the request);
* "Find the floor lamp nearest the bed and wait next to that lamp" (the head said again with
  "that").

The introduced thing with its description is one stage: its words move, spans kept, into the
request in place of the word that points back ("it", "that", "that one", "there", "that's
where ...", "them", "those three", "that X"), and the words that only introduce it ("I'm
after", "is the one", "there's", "see ...?") are reported as context. A sentence whose
next request does not point back is left alone (later stages read or refuse it as before), so
nothing becomes a stage of its own and nothing is dropped. Hand-written like the rest of the
parser (see :mod:`.normalise`): the introducing shapes are few and closed, and the moved words
are read by the later stages like any description.
"""

from __future__ import annotations

from map2route.language.parser import question_picks as QP
from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

Context = list[tuple[str, tuple[int, int]]]

_ENDS = (".", "!", "?", ";")
_LEADS = frozenset({"um", "umm", "uh", "er", "erm", "so", "ok", "okay", "right", "now", "well",
                    "oh", "and", ",", "hey", "alright", "anyway", "like", "yeah", "then"})
#: Words of a relative clause that says the speaker wants the thing ("I'm after", "you are
#: looking for", "I want you to go to").
_WANTING = frozenset({"i", "you", "we", "am", "'m", "are", "'re", "after", "want", "wanted",
                      "mean", "meant", "need", "needed", "looking", "for", "talking", "about",
                      "thinking", "of", "to", "go", "get", "reach", "find", "visit", "would",
                      "'d", "like", "have", "in", "mind", "on"})
_GENERIC = frozenset({"thing", "one", "place", "spot", "object", "item"})
#: Prepositions that place a thing ("The dog bed is in the bedroom ...").
_PLACING = frozenset({"in", "on", "by", "next", "beside", "near", "under", "inside", "at",
                      "behind", "against", "underneath", "over", "opposite"})
#: Words that end a group's introduction without describing any one member ("all fairly
#: close together", "kind of near each other").
_TOGETHER = frozenset({"all", "fairly", "quite", "pretty", "kind", "of", "sort", "close",
                       "together", "near", "each", "other", "to", "right", "next", "bunched",
                       "grouped", "up"})
_CONNECT = frozenset({",", "so", "yeah", "and", "then", "now", "please", "pls", "-"})
_ASK = frozenset(W.MOVE_VERBS | {"go", "head", "get", "come", "stop", "stand", "wait", "park",
                                 "need", "want", "could", "can", "would", "please", "pls"})
#: Plural pointers ("the two of them", "those three", "that little group").
_PLURAL = (("the", "two", "of", "them"), ("the", "three", "of", "them"),
           ("the", "four", "of", "them"), ("both", "of", "them"), ("all", "of", "them"),
           ("all", "three", "of", "them"), ("those", "three", "things"),
           ("those", "two", "things"), ("those", "things"), ("that", "little", "group"),
           ("that", "group"), ("this", "group"), ("those", "two"), ("those", "three"),
           ("those", "four"), ("these", "two"), ("these", "three"), ("the", "two"),
           ("the", "three"), ("all", "three"), ("them", "all"), ("them",), ("those",),
           ("both",))
_PLURAL_PREPS = frozenset({"between", "of", "among", "amongst", "to", "by", "near"})


def _t(word: str, like: Token) -> Token:
    return Token(word, like.start, like.end)


def _head(words: list[str], k: int) -> tuple[int, str, str]:
    hit = head_lexicon().match(words[k:k + head_lexicon().max_len])
    return (hit[0], hit[1], hit[2]) if hit else (0, "", "")


def sentence_end(words: list[str], k: int) -> int:
    """Where the sentence that holds ``k`` ends (its mark, or the end)."""
    return next((q for q in range(k, len(words)) if words[q] in _ENDS), len(words))


def sentence_span(words: list[str], k: int) -> tuple[int, int]:
    """The sentence that holds ``k``: its first word and where it ends (its mark, or the
    end). A mark at ``k`` itself ends the sentence before it."""
    a = next((q + 1 for q in range(k - 1, -1, -1) if words[q] in _ENDS), 0)
    return a, sentence_end(words, k)


def lead_end(words: list[str], k: int, e: int, leads: frozenset[str] = _LEADS) -> int:
    """Past the fillers that open a sentence at ``k`` ("um so", "ok and"), before ``e``."""
    while k < e and words[k] in leads:
        k += 1
    return k


def _request_start(words: list[str], k: int, e: int) -> int:
    """Where a request run on after an introduction starts (", so go over to that"), or
    ``e`` when the introduction fills the sentence."""
    for x in range(k, e):
        if words[x] in (",", "so", "yeah", "-") and words[x + 1:x + 3] in (
                ["that", "is"], ["that", "'s"]):
            return x  # "... - that's where I need you"
        if words[x] in (",", "so", "yeah", "-") and any(w in _ASK for w in words[x:e]) and \
                (x + 1 < e and words[x + 1] in _ASK | _CONNECT):
            return x
        if words[x] in ("go", "head") and x > k and words[x - 1] in _TOGETHER - {"to"} and \
                "and" in words[k:x]:
            return x  # a run-on group: "... all near each other go to the middle of ..."
    return e


class _Intro:
    """One introduction read: the words it covers, the phrase it makes, and the head said."""

    def __init__(self, start: int, end: int, phrase: list[Token], head: str,
                 plural: bool) -> None:
        self.start, self.end, self.phrase, self.head, self.plural = \
            start, end, phrase, head.split(), plural


def _noun_phrase(toks: list[Token], k: int, e: int
                 ) -> tuple[list[Token], str, bool] | None:
    """"a toilet, a sink and a little side table all close together" at ``k`` -> "the
    toilet , the sink and the little side table" (the articles made definite, a trailing
    "together" left out), its last head word and whether it names a group."""
    words = [t.text for t in toks]
    while e > k and words[e - 1] in _TOGETHER | {","}:
        e -= 1
    if e <= k:
        return None
    out: list[Token] = []
    heads = 0
    last = ""
    head: tuple[str, ...] = ()
    ended = -1
    x = k
    first = k + (words[k] in ("a", "an", "the", "some"))
    first += words[first] in W.FILLER_ADJ
    if _head(words, first)[2] != "object":
        return None  # "there's a spill by the sink", "there is a room with ...": not read here
    described = False
    while x < e:
        w = words[x]
        if w in ("a", "an", "some") and (x == k or words[x - 1] in (",", "and")) and \
                not described:
            out.append(_t("the", toks[x]))
        else:
            out.append(toks[x])
        if not _head(words, x)[0] and w not in (",", "and", "a", "an", "the", "some") and \
                w not in W.FILLER_ADJ:
            described = True  # "a table with four chairs and a lamp": the list has ended
        n, _, kind = _head(words, x)
        if n and kind == "object":
            listed = x == k or words[x - 1] in (",", "and") or \
                words[x - 1] in ("a", "an", "the") and (
                    x - 1 in (k, ended) or words[x - 2] in (",", "and"))
            heads += 1 if listed else 0
            if heads > 1 and listed and words[x - 1] == "the" and \
                    words[x - 2] not in (",", "and"):
                out.insert(len(out) - 2, _t(",", toks[x - 1]))  # "the fridge the toaster"
            last = last or words[x + n - 1]
            head = head or tuple(words[x:x + n])
            x += n
            ended = x
            out.extend(toks[x - n + 1:x])
            continue
        x += 1
    if not last or words[k] not in ("a", "an", "the", "some") and \
            not _head(words, k)[0]:
        return None
    if out and out[0].text not in ("the", *W.NUMBERS):
        out.insert(0, _t("the", toks[k]))
    return out, " ".join(head), heads > 1


def _copular(toks: list[Token], a: int, e: int) -> _Intro | None:
    """"the X (I'm after) is the one ..." / "the thing I need is the X ..." / "the X is in
    the R"."""
    words = [t.text for t in toks]
    k = lead_end(words, a, e)
    if words[k:k + 1] not in (["the"], ["my"]):
        return None
    n, _, kind = _head(words, k + 1)
    generic = not n and words[k + 1:k + 2] and words[k + 1] in _GENERIC
    if not (n and kind == "object") and not generic:
        return None
    h = k + 1 + (n or 1)
    v = h
    # "are" right after the head is its verb: a plural name of one thing ("my keys are by
    # the bed"); later it belongs to a relative clause ("the X you are after is ...")
    while v < e and words[v] in _WANTING and not (v == h and words[v] == "are"):
        v += 1
    if v >= e or words[v] not in ("is", "'s", "are") or v - h > 7:
        return None
    said = v > h
    r = v + 1
    q = _request_start(words, r, e)
    if said and words[r:r + 2] == ["the", "one"] and n:
        phrase = [toks[k] if words[k] == "the" else _t("the", toks[k]), *toks[k + 1:h],
                  *toks[r + 2:q]]
        last = " ".join(words[k + 1:h])
    elif said and words[r:r + 1] in (["the"], ["a"], ["an"]) and _head(words, r + 1)[0]:
        phrase = [_t("the", toks[r]), *toks[r + 1:q]]
        last = " ".join(words[r + 1:r + 1 + _head(words, r + 1)[0]])
    elif not said and n and words[r:r + 1] and words[r] in _PLACING:
        # "my laptop's in the bedroom with the lamp, on the table next to the chair": the
        # second place narrows the first; said first, so that the comma opens no new stop
        c = next((x for x in range(r, q - 1) if words[x] == "," and words[x + 1] in _PLACING
                  and words[x + 1:x + 3] != ["in", "there"]), q)
        phrase = [toks[k] if words[k] == "the" else _t("the", toks[k]), *toks[k + 1:h],
                  *toks[c + 1:q], *toks[r:c]]
        last = " ".join(words[k + 1:h])
    else:
        return None
    if q - r < 1:
        return None
    return _Intro(a, q, phrase, last, False)


def _there_is(toks: list[Token], a: int, e: int) -> _Intro | None:
    """"(In the R ...,) there's a X ... (in the R)" and "See / you know the A and the B
    (in the R)?"."""
    words = [t.text for t in toks]
    k = lead_end(words, a, e)
    room: list[Token] = []
    bare = False
    if words[k:k + 1] in (["in"], ["inside"]):
        t = next((x for x in range(k + 1, e - 1) if words[x] in ("there", "theres")), None)
        if t is None:
            return None
        room = toks[k:t]
        while room and room[-1].text in (",", "-"):
            room = room[:-1]
        k = t
    elif words[k:k + 1] == ["the"] and _head(words, k + 1)[2] == "room":
        # "The bedroom with the most paintings - there's a basketball on the floor in there"
        t = next((x for x in range(k + 2, e - 1) if words[x] == "," and words[x + 1] in (
            "there", "theres")), None)
        if t is None:
            return None
        room = [_t("in", toks[t]), *toks[k:t]]
        k = t + 1
    if words[k:k + 2] in (["there", "is"], ["there", "'s"], ["there", "are"]):
        k += 2
    elif words[k:k + 1] == ["theres"]:
        k += 1
    elif words[k:k + 1] == ["see"] or words[k:k + 2] in (["you", "see"], ["you", "know"]) \
            or words[k:k + 3] == ["can", "you", "see"]:
        if room or e >= len(words) or words[e] != "?":
            return None
        k += 1 if words[k] == "see" else 2 if words[k] == "you" else 3
        if "and" not in words[k:e]:
            return None  # one thing known: :mod:`.set_intros` reads "you know the X?"
    elif not room and words[k:k + 1] == ["the"] and "and" in words[k:e]:
        bare = True  # "The sofa and the armchair in R - go halfway between those two"
    else:
        return None
    q = _request_start(words, k, e)
    if words[k:k + 2] == ["a", "corner"] and q > k + 2:
        # "in the bedroom ... there's a corner where both windows meet": the room's corner
        rest = [_t("the", t) if t.text == "both" else t for t in toks[k + 2:q]
                if not (t.text in ("two", "2") and words[k + 2:k + 4] == ["where", "the"])]
        of = [_t("of", room[0]), *room[1:]] if room else []
        return _Intro(a, q, [_t("the", toks[k]), toks[k + 1], *of, *rest], "corner", False)
    np = _noun_phrase(toks, k, q)
    if np is None:
        return None
    phrase, last, group = np
    if bare and (q == e or not group) or not room and not group:
        return None  # "There's a box in R. Go to it.": a mention, read later as before
    if not group and (words[k] in W.NUMBERS and words[k] not in ("a", "an", "one", "single")
                      or words[k + 1:k + 2] in (["couple"], ["few"])):
        return None  # "there are two beds; find the bigger of the two": :mod:`.set_picks`
    if q == e and "and" not in words[k:q] and words[k:k + 1] == ["the"]:
        return None  # "there's the X": a pointer, not an introduction
    there = next((x for x in range(len(phrase) - 1) if phrase[x].text == "in" and
                  phrase[x + 1].text == "there"), None)
    if room and there is not None:
        phrase = [*phrase[:there], *phrase[there + 2:]]  # "... in there": the room said first
    if room:
        phrase = [*phrase, _t("in", room[0]), *room[1:]] if room[0].text == "inside" else \
            [*phrase, *room]
    return _Intro(a, q, phrase, last, group)


#: A belonging's owner, its verb and where it is placed ("my glasses are on the desk").
_OWNERS = frozenset({"my", "our", "your", "his", "her", "the"})
_BE = frozenset({"is", "'s", "are", "'re"})
#: Placing prepositions, the longer before their first word alone ("on top of" before "on").
_PUT = (("on", "top", "of"), ("next", "to"), ("close", "to"), ("right", "next", "to"),
        ("on",), ("in",), ("inside",), ("by",), ("beside",), ("near",), ("under",),
        ("underneath",), ("at",), ("against",), ("behind",))
#: Words that cannot be part of a belonging's name: a clause goes on ("my feeling is ...").
_NOT_NAME = frozenset({"i", "you", "it", "that", "which", "who", "there", "here", "one",
                       "thing", "place", "spot", "room", "not", "no", ","})


def _belonging(toks: list[Token], a: int, e: int) -> _Intro | None:
    """"My glasses are on the desk. Go to it." / "my knitting bag's on the chair nearest the
    bed, could you go to it": a belonging the map lacks (one to three words naming no map
    thing, after a possessive or "the"), placed at a thing or room the map has; pointing back
    at it means its place, so the place's noun phrase is the introduced phrase and the
    belonging with its verb is context. A belonging that IS a map thing ("My phone is on the
    chair") is the thing itself (:func:`_copular`)."""
    words = [t.text for t in toks]
    k = lead_end(words, a, e)
    if k >= e or words[k] not in _OWNERS:
        return None
    v = k + 1
    while v < e and words[v] not in _BE and v - k <= 3:
        if _head(words, v)[0] or words[v] in _NOT_NAME or not words[v].isalpha():
            return None  # a map thing (read as itself) or not a name at all
        v += 1
    if v == k + 1 or v >= e or words[v] not in _BE:
        return None
    r = v + 1
    prep = next((p for p in _PUT if tuple(words[r:r + len(p)]) == p), None)
    if prep is None:
        return None
    p = r + len(prep)
    n, _, kind = _head(words, p + 1)
    if words[p:p + 1] not in (["the"], ["a"], ["an"]) or not n or kind not in ("object", "room"):
        return None
    # the place's phrase runs to the sentence end, or to a comma that opens the request
    q = next((x for x in range(p, e) if words[x] == ","), e)
    return _Intro(a, q, [_t("the", toks[p]), *toks[p + 1:q]], " ".join(words[p + 1:p + 1 + n]),
                  False)


def _room_corner(toks: list[Token], a: int, e: int) -> _Intro | None:
    """"The kitchen has a corner right by the fridge." -> "the corner of the kitchen right by
    the fridge"."""
    words = [t.text for t in toks]
    k = lead_end(words, a, e)
    n, _, kind = _head(words, k + 1)
    h = k + 1 + n
    if words[k:k + 1] != ["the"] or kind != "room" or words[h:h + 3] not in (
            ["has", "a", "corner"], ["has", "got", "a"]):
        return None
    c = h + 1 + (words[h + 1] == "got")
    if words[c:c + 2] != ["a", "corner"] or c + 2 >= e:
        return None
    return _Intro(a, e, [_t("the", toks[c]), toks[c + 1], _t("of", toks[h]), *toks[k:h],
                         *toks[c + 2:e]], "corner", False)


def _terse_room(toks: list[Token], a: int, e: int) -> _Intro | None:
    """"bedroom with the telly. basketball on the floor in there." (no verbs)."""
    words = [t.text for t in toks]
    k = lead_end(words, a, e)
    k += 1 if words[k:k + 1] == ["the"] else 0
    n, _, kind = _head(words, k)
    if not n or kind != "room" or any(w in _ASK for w in words[k:e]) or e >= len(words):
        return None
    s = e + 1
    f = sentence_end(words, s)
    b = lead_end(words, s, f)
    m, _, mkind = _head(words, b + (words[b:b + 1] == ["the"]))
    if not m or mkind != "object" or any(w in _ASK for w in words[b:f]):
        return None
    there = next((x for x in range(b, f - 1) if words[x:x + 2] in (["in", "there"],
                                                                   ["in", "it"])), None)
    if there is None:
        return None
    thing = [t for t in toks[b:f] if t is not toks[there + 1]]
    at = there - b
    phrase = [*([] if words[b] == "the" else [_t("the", toks[b])]), *thing[:at + 1],
              _t("the", toks[k]) if words[k - 1:k] != ["the"] else toks[k - 1], *toks[k:e],
              *thing[at + 1:]]
    c = b + (words[b] == "the")
    return _Intro(a, f, phrase, " ".join(words[c:c + m]), False)


def _whichever(toks: list[Token], a: int, e: int) -> _Intro | None:
    """"Whichever room has P, that's the one with the X." -> "the X in the room that has P"."""
    words = [t.text for t in toks]
    k = lead_end(words, a, e)
    if words[k:k + 1] != ["whichever"]:
        return None
    n, _, kind = _head(words, k + 1)
    if kind != "room":
        return None
    c = next((x for x in range(k, e - 4) if words[x:x + 5] in
              ([",", "that", "is", "the", "one"], [",", "that", "'s", "the", "one"])), None)
    if c is None or words[c + 5:c + 6] not in (["with"], ["that"]):
        return None
    w = c + 5 + (1 if words[c + 5] == "with" else 2 if words[c + 6:c + 7] == ["has"] else 0)
    if w == c + 5:
        return None
    w += 1 if words[w:w + 1] in (["the"], ["a"], ["an"]) else 0
    m, _, mkind = _head(words, w)
    if not m or mkind != "object" or w + m != e:
        return None
    verb = toks[k + 1 + n]
    if verb.text not in ("has", "contains"):
        return None
    phrase = [_t("the", toks[w]), *toks[w:w + m], _t("in", toks[k]), _t("the", toks[k]),
              *toks[k + 1:k + 1 + n], _t("that", verb), *toks[k + 1 + n:c]]
    return _Intro(a, e, phrase, " ".join(words[w:w + m]), False)


def _pointed(toks: list[Token], s: int, e: int, intro: _Intro) -> list[Token] | None:
    """The request ``toks[s:e]`` with its first pointer replaced by the introduced phrase."""
    words = [t.text for t in toks]
    phrase = intro.phrase
    for x in range(s, e):
        prev = words[x - 1] if x > s else ""
        if intro.plural:
            n = next((len(p) for p in _PLURAL if tuple(words[x:x + len(p)]) == p), 0)
            if n and prev in _PLURAL_PREPS:
                return [*toks[s:x], *phrase, *toks[x + n:e]]
            continue
        h = len(intro.head)
        n = h if words[x + 1:x + 1 + h] == intro.head else \
            1 if words[x + 1:x + 2] == intro.head[-1:] else 0
        if words[x] in ("that", "this", "the") and n and prev not in ("is", "'s"):
            return [*toks[s:x], *phrase, *toks[x + 1 + n:e]]
        if words[x] == "that" and (x + 1 == e or words[x + 1] in (",", "and", "then", "please",
                                                                  "pls", "now")) and \
                prev in ("to", "at", "by", "beside", "near", "towards", "reach", "visit"):
            return [*toks[s:x], *phrase, *toks[x + 1:e]]
    if intro.plural:
        return None
    return QP.point_back(toks, s, e, phrase)


def _found_again(toks: list[Token]) -> list[Token]:
    """"Find the X ... and park beside that X" -> "... and park beside it" (the "find ... and
    go to it" reading of the later stages takes it from there)."""
    words = [t.text for t in toks]
    out = list(toks)
    a = 0
    while a < len(words):
        e = sentence_end(words, a)
        k = lead_end(words, a, e)
        if words[k:k + 2] in (["find", "the"], ["locate", "the"]):
            n, _, kind = _head(words, k + 2)
            head = words[k + 2:k + 2 + n]
            for x in range(k + 2 + n, e - 1):
                m = len(head) if words[x + 1:x + 1 + len(head)] == head else \
                    1 if words[x + 1:x + 2] == head[-1:] else 0
                if n and kind == "object" and words[x] in ("that", "this") and m and \
                        "and" in words[k + 2 + n:x]:
                    it = Token("it", toks[x].start, toks[x + m].end)
                    out = [*out[:x], it, *([None] * m), *out[x + 1 + m:]]  # type: ignore[list-item]
                    break
        a = e + 1
    return [t for t in out if t is not None]


def introductions(toks: list[Token]) -> tuple[list[Token], Context]:
    """Read introductions pointed back at (see the module docstring); returns the tokens and
    the introducing words as context."""
    context: Context = []
    toks = _found_again(toks)
    words = [t.text for t in toks]
    a = 0
    while a < len(toks):
        if a and words[a - 1] not in _ENDS:
            a += 1
            continue
        e = sentence_end(words, a)
        intro = None
        for reader in (_copular, _there_is, _room_corner, _terse_room, _whichever, _belonging):
            intro = reader(toks, a, e)
            if intro is not None:
                break
        if intro is None:
            a += 1
            continue
        s = intro.end
        while s < len(toks) and (words[s] in _ENDS or words[s] in _CONNECT):
            s += 1
        f = sentence_end(words, s)
        pointed = _pointed(toks, s, f, intro) if s < len(toks) else None
        if pointed is None:
            a += 1
            continue
        moved = {id(t) for t in intro.phrase}
        body = [t for t in toks[a:s] if id(t) not in moved and t.text not in (",", *_ENDS)]
        if body:
            context.append((" ".join(t.text for t in body), (body[0].start, body[-1].end)))
        toks = [*toks[:a], *pointed, *toks[f:]]
        words = [t.text for t in toks]
        a += 1
    return toks, context
