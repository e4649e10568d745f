"""Which of several places is meant, said the ways people say it; the last passes of
:func:`.destination_forms.destination_forms` (run early in :func:`.human.human_forms`, on the
tokens as typed), each reading one construction by its word classes:

* route order by position: "the next one (after it)" -> "the next <the head just said>"; "the
  second one" after "the first bedroom" -> "the second bedroom"; "skip the first bathroom, ..."
  is context when a later ordinal says the same; "the next room (over), which is the kitchen"
  -> "the next kitchen"; "..., and go in" after reaching a room is context;
* partitives: "the second of the two sinks", "the bigger of the two tables", "the left one of
  the two armchairs", "whichever of the two TVs is nearer", "the one of the two toilets that's
  further away", "either of the two sofas" -> the ordinal / superlative / "one of" said on the
  singular head;
* corrections: "; correction, ..." and ", never mind, ..." and "No - ..." open a correction
  ("no wait, ..."); ", not the sofa" after the corrected thing is context; a bare place
  sentence corrected by the next ("Kitchen. No - living room.") is a destination; "Wait, the
  other way around." (or ", actually swap those" in the same sentence) swaps the two places
  said before it;
* geometry targets: "the corner where the fridge is" / "the corner with the plant in it" ->
  "the corner by ..."; "the far / back / near corner of the kitchen" -> "the corner of the
  kitchen farthest from / nearest to you"; "the empty corner of the bedroom" -> "... with
  nothing in it"; "the middle point between" -> "the midpoint between" (the centre of a group of
  things, "the middle of the chairs", is read by :mod:`.geometry_targets`).

Hand-written, like the rest of the parser: each pass is a small reading of one phrasing that a
test checks by hand; what is taken out is returned as context with its character span, and
spans are kept so that a refusal points into the text.
"""

from __future__ import annotations

from map2route.language.inflection import singular_word
from map2route.language.parser import words as W
from map2route.language.parser.destination_tokens import ENDS as _ENDS
from map2route.language.parser.destination_tokens import Context
from map2route.language.parser.destination_tokens import head_at as _head
from map2route.language.parser.destination_tokens import opens as _opens
from map2route.language.parser.destination_tokens import sentence_end as _sentence_end
from map2route.language.parser.destination_tokens import take as _take
from map2route.language.parser.destination_tokens import tok as _tok
from map2route.language.parser.destination_tokens import words_of as _words
from map2route.language.tokens import Token


def destination_picks(toks: list[Token], ctx: Context) -> list[Token]:
    """Run this module's passes over ``toks`` (see the module docstring), noting what they
    take out in ``ctx``."""
    for step in (_partitives, _route_ordinals, _named_apposition, _go_in_tail, _corrections,
                 _other_way_around, _corners):
        toks = step(toks, ctx)
    return toks


# --- partitives -----------------------------------------------------------------------------
_SUPERLATIVE = {"bigger": "biggest", "larger": "largest", "smaller": "smallest",
                "nearer": "nearest", "closer": "closest", "further": "farthest",
                "farther": "farthest", "biggest": "biggest", "largest": "largest",
                "smallest": "smallest", "nearest": "nearest", "closest": "closest",
                "farthest": "farthest", "furthest": "farthest"}
_PICK_WORDS = frozenset({*W.ORDINALS, "last", "other", "left", "right", *_SUPERLATIVE})


def _plural_head(words: list[str], k: int) -> int:
    """End of "(the) (two) HEADs" at ``k`` (``k`` if none)."""
    k += words[k:k + 1] == ["the"]
    k += words[k:k + 1] != [] and (words[k] in W.NUMBERS or words[k].isdigit())
    hit = _head(words, k)
    return k + hit[0] if hit is not None and hit[3] else -1


def _singular(toks: list[Token], k: int, end: int) -> list[Token]:
    """The head of ``toks[k:end]`` (a plural after "the (two)"), singular."""
    words = _words(toks)
    k += words[k:k + 1] == ["the"]
    k += words[k] in W.NUMBERS or words[k].isdigit()
    last = toks[end - 1]
    return [*toks[k:end - 1], Token(singular_word(last.text), last.start, last.end)]


def _comparative_tail(words: list[str], k: int) -> int:
    """End of "(that) is COMPARATIVE (away) (to you)" at ``k`` (``k`` if none)."""
    j = k + (words[k:k + 1] in (["that"], ["which"]))
    if words[j:j + 1] not in (["is"], ["'s"]) or words[j + 1:j + 2] == [] or \
            words[j + 1] not in _SUPERLATIVE:
        return k
    j += 2
    j += words[j:j + 1] == ["away"]
    j += 2 if words[j:j + 2] in (["to", "you"], ["from", "you"]) else 0
    if j < len(words) and words[j] not in (*_ENDS, ",", "and", "then", ";"):
        return k  # "that's nearer the door": a landmark the partitive rule reads itself
    return j


def _partitives(toks: list[Token], ctx: Context) -> list[Token]:
    """"the second of the two sinks" -> "the second sink"; "whichever of the two TVs is
    nearer" -> "the nearest tv"; "either of the two sofas" -> "one of the sofas"."""
    words = _words(toks)
    out: list[Token] = []
    i = 0
    while i < len(toks):
        w = words[i]
        if w == "the" and words[i + 1:i + 2] != [] and words[i + 1] in _PICK_WORDS:
            k = i + 2 + (words[i + 2:i + 3] == ["one"])
            end = _plural_head(words, k + 1) if words[k:k + 1] == ["of"] else -1
            if end > 0 and words[end:end + 1] != [] and (
                    words[end] in W.RANK_WORDS or words[end] in ("to", "from", "in", "on")):
                end = -1  # "the second of the two chairs closest to the fridge": read later
            if end > 0:
                pick = words[i + 1]
                word = _SUPERLATIVE.get(pick, pick)
                _take(toks, k, end, ctx)  # the set, as the partitive rule keeps it
                out += [toks[i], Token(word, toks[i + 1].start, toks[k].end),
                        *_singular(toks, k + 1, end)]
                i = end
                continue
        if w in ("whichever", "one") or w == "the" and words[i + 1:i + 2] == ["one"]:
            k = i + 1 + (w == "the")
            end = _plural_head(words, k + 1) if words[k:k + 1] == ["of"] else -1
            tail = _comparative_tail(words, end) if end > 0 else -1
            if end > 0 and tail > end:
                comp = next(x for x in words[end:tail] if x in _SUPERLATIVE)
                _take(toks, k, end, ctx)
                out += [_tok("the", toks[i]),
                        Token(_SUPERLATIVE[comp], toks[end].start, toks[tail - 1].end),
                        *_singular(toks, k + 1, end)]
                i = tail
                continue
        if w == "either" and words[i + 1:i + 3] == ["one", "of"]:
            out.append(_tok("one", toks[i], toks[i + 1]))  # "either one of the TVs"
            i += 2
            continue
        if w in ("either", "one") and words[i + 1:i + 2] == ["of"] and \
                not (out and out[-1].text == "the"):
            end = _plural_head(words, i + 2)
            if end > 0 and (w == "either" or words[i + 3:i + 4] != [] and
                            (words[i + 3] in W.NUMBERS or words[i + 3].isdigit())):
                k = i + 2 + (words[i + 2] == "the")
                out += [_tok("one", toks[i]), toks[i + 1], _tok("the", toks[k])]
                if words[k] in W.NUMBERS or words[k].isdigit():
                    _take(toks, k, k + 1, ctx)
                    k += 1
                out += toks[k:end]
                i = end
                continue
        if w == "," and words[i + 1:i + 4] == ["not", "this", "one"] and \
                any(x == "other" for x in words[max(0, i - 6):i]):
            _take(toks, i, i + 4, ctx)
            i += 4
            continue
        out.append(toks[i])
        i += 1
    return out


# --- route ordinals -------------------------------------------------------------------------
_SKIP = ("skip", "ignore", "bypass")


def _route_ordinals(toks: list[Token], ctx: Context) -> list[Token]:
    """"the next one (after it)" -> "the next HEAD"; "the second one" after "the first HEAD"
    -> "the second HEAD"; "skip the first HEAD, ..." -> context when a later ordinal of that
    head follows."""
    words = _words(toks)
    out: list[Token] = []
    last: list[Token] = []  # the last head said in this sentence
    ordinal_head: list[Token] = []
    i = 0
    while i < len(toks):
        w = words[i]
        if w in _ENDS:
            last, ordinal_head = [], []
        if w in _SKIP and words[i + 1:i + 2] == ["the"] and words[i + 2:i + 3] != [] and \
                words[i + 2] in W.ORDINALS:
            hit = _head(words, i + 3)
            end = i + 3 + hit[0] if hit else -1
            rest = words[end:_sentence_end(words, i)] if end > 0 else []
            if end > 0 and any(x in W.ORDINALS for x in rest):
                _take(toks, i, end, ctx)
                ordinal_head = last = toks[i + 3:end]
                i = end + (words[end:end + 1] == [","])
                if words[i:i + 1] == ["and"]:
                    i += 1
                continue
        if w == "the" and words[i + 1:i + 3] == ["next", "one"] and last:
            out += [toks[i], toks[i + 1],
                    *[Token(t.text, toks[i + 2].start, toks[i + 2].end) for t in last]]
            i += 3
            after = next((len(a) for a in (("after", "it"), ("after", "that"),
                                           ("after", "this"), ("after", "the", "first"))
                          if tuple(words[i:i + len(a)]) == a), 0)
            if after:
                _take(toks, i, i + after, ctx)
                i += after
            continue
        if w == "the" and words[i + 1:i + 2] != [] and words[i + 1] in W.ORDINALS and \
                words[i + 2:i + 3] == ["one"] and ordinal_head:
            out += [toks[i], toks[i + 1],
                    *[Token(t.text, toks[i + 2].start, toks[i + 2].end) for t in ordinal_head]]
            i += 3
            continue
        if w in ("the", "a", "an") or w in W.ORDINALS:
            k = i + 1
            while k < len(words) and (words[k] in W.ORDINALS or words[k] in W.RANK_WORDS or
                                      words[k] == "next"):
                k += 1
            hit = _head(words, k)
            if hit is not None and hit[1] not in ("room", "one"):
                last = toks[k:k + hit[0]]
                if any(words[n] in W.ORDINALS for n in range(i, k)):
                    ordinal_head = last
        out.append(toks[i])
        i += 1
    return out


def _named_apposition(toks: list[Token], ctx: Context) -> list[Token]:
    """"the next room (over), which is the kitchen" -> "the next kitchen"."""
    words = _words(toks)
    out: list[Token] = []
    i = 0
    while i < len(toks):
        if words[i] in ("room", "one", "place") and out and \
                (out[-1].text in ("next", "the") or out[-1].text in W.ORDINALS):
            k = i + 1 + (words[i + 1:i + 2] == ["over"])
            k += words[k:k + 1] == [","]
            if words[k:k + 2] in (["which", "is"], ["that", "is"], ["i", "mean"]) and \
                    words[k + 2:k + 3] == ["the"]:
                hit = _head(words, k + 3)
                if hit is not None and hit[2] == "room":
                    _take(toks, i, k + 3, ctx)
                    out += toks[k + 3:k + 3 + hit[0]]
                    i = k + 3 + hit[0]
                    continue
        out.append(toks[i])
        i += 1
    return out


_GO_IN = (("and", "go", "in"), ("and", "go", "inside"), ("and", "step", "in"),
          ("and", "head", "in"), ("and", "walk", "in"), ("and", "go", "into", "it"),
          ("and", "enter", "it"), ("then", "go", "in"))


def _go_in_tail(toks: list[Token], ctx: Context) -> list[Token]:
    """"until you reach the second bedroom, and go in" -> the entering is context (reaching a
    room's goal is entering it)."""
    words = _words(toks)
    out: list[Token] = []
    i = 0
    while i < len(toks):
        tail = next((t for t in _GO_IN if tuple(words[i:i + len(t)]) == t), None)
        end = i + len(tail) if tail else -1
        if tail is not None and (end == len(words) or words[end] in _ENDS):
            n = len(out) - (out[-1].text == "," if out else 0)
            room = any(_head(_words(out), m) is not None and
                       (_head(_words(out), m) or (0, "", ""))[2] == "room"
                       for m in range(max(0, n - 4), n))
            if room:
                if out and out[-1].text == ",":
                    out.pop()
                _take(toks, i, end, ctx)
                i = end
                continue
        out.append(toks[i])
        i += 1
    return out


# --- corrections ----------------------------------------------------------------------------
def _corrections(toks: list[Token], ctx: Context) -> list[Token]:
    """"; correction," / ", never mind," / ". No -" -> "no wait"; ", not the HEAD" after a
    correction -> context; a bare place sentence that the next corrects gets "go to"."""
    words = _words(toks)
    out: list[Token] = []
    corrected = False
    i = 0
    while i < len(toks):
        w = words[i]
        if w == ";" and words[i + 1:i + 3] == ["correction", ","]:
            out.append(_tok(",", toks[i]))
            i += 1
            continue
        if w == "never" and words[i + 1:i + 2] == ["mind"] and out and \
                out[-1].text in (",", "uh", "um", "oh"):
            while out and out[-1].text in ("uh", "um", "oh", ",", "."):
                out.pop()  # the pause before it ("the plant... uh, never mind")
            out += [_tok(",", toks[i]), _tok("no", toks[i]), _tok("wait", toks[i + 1])]
            corrected = True
            i += 2
            continue
        if w == "no" and _opens(words, i) and words[i + 1:i + 2] == [","] and i > 0:
            # "Kitchen. No - living room.": the sentence before is a bare place
            s = i - 1
            while s > 0 and words[s - 1] not in _ENDS:
                s -= 1
            sent = words[s:i - 1]
            bare = sent[sent[:1] == ["the"]:]
            hit = _head(bare, 0)
            if hit is not None and hit[0] == len(bare):
                cut = len(out) - (i - s)
                out[cut:cut] = [_tok("go", toks[s]), _tok("to", toks[s])]
                out[-1] = _tok(",", out[-1])  # the end of the bare sentence
                out += [toks[i], _tok("wait", toks[i + 1])]
                corrected = True
                i += 1
                continue
        if w in ("no", "actually", "sorry", "mean", "correction", "wait"):
            corrected = True
        if w == "," and corrected and words[i + 1:i + 2] == ["not"] and \
                words[i + 2:i + 3] in (["the"], ["to"]):
            k = i + 2 + (words[i + 2] == "to")
            k += words[k:k + 1] == ["the"]
            hit = _head(words, k)
            if hit is not None and (k + hit[0] == len(words) or
                                    words[k + hit[0]] in (*_ENDS, ",")):
                _take(toks, i, k + hit[0], ctx)
                i = k + hit[0]
                continue
        out.append(toks[i])
        i += 1
    return out


_AROUND = (("the", "other", "way", "around"), ("the", "other", "way", "round"),
           ("other", "way", "around"), ("other", "way", "round"), ("the", "reverse"),
           ("reverse", "that"), ("swap", "them"), ("swap", "those"))
_MARK = frozenset({"wait", "no", "sorry", "actually", ",", "oh", "oops", "hmm", "make", "it",
                   "do", "ah"})


def _other_way_around(toks: list[Token], ctx: Context) -> list[Token]:
    """"Go to the bed and then the dresser. Wait, the other way around." -> the two places of
    the sentence before swap (each keeps its words' spans); the second sentence is
    context."""
    words = _words(toks)
    for i in range(1, len(words)):
        comma = words[i - 1] == ","  # "first the shelf then the tv, actually swap those"
        if words[i - 1] not in _ENDS and not comma:
            continue
        k = i
        while k < len(words) and words[k] in _MARK:
            k += 1
        tail = next((t for t in _AROUND if tuple(words[k:k + len(t)]) == t), None)
        if tail is None or k == i and tail[0] not in ("reverse", "swap"):
            continue
        end = k + len(tail)
        if end < len(words) and words[end] not in _ENDS:
            continue
        s = i - 1
        while s > 0 and words[s - 1] not in _ENDS:
            s -= 1
        places = []
        n = s
        while n < i - 1:
            hit = _head(words, n) if words[n - 1:n] == ["the"] or n == s else None
            if hit is not None:
                places.append((n - (words[n - 1:n] == ["the"]), n + hit[0]))
                n += hit[0]
            else:
                n += 1
        if len(places) != 2:
            continue
        (a, b), (c, d) = places
        _take(toks, i, end + (end < len(words)), ctx)
        if comma:
            return [*toks[:a], *toks[c:d], *toks[b:c], *toks[a:b], *toks[d:i - 1],
                    *toks[end:]]
        return [*toks[:a], *toks[c:d], *toks[b:c], *toks[a:b], *toks[d:i], *toks[end + 1:]]
    return toks


# --- geometry targets -----------------------------------------------------------------------
_FAR = frozenset({"far", "farthest", "furthest", "back", "farther", "further"})
_NEAR = frozenset({"near", "nearest", "closest", "nearer", "closer"})


def _corners(toks: list[Token], ctx: Context) -> list[Token]:
    """Corners and centres said the ways people say them (see the module docstring)."""
    words = _words(toks)
    out: list[Token] = []
    i = 0
    while i < len(toks):
        w = words[i]
        if w == "the" and words[i + 1:i + 2] == ["corner"]:
            k = i + 2
            if words[k:k + 2] in (["where", "the"], ["with", "the"], ["that", "has"]):
                det = k + 1 + (words[k:k + 2] == ["that", "has"])
                det += words[det:det + 1] == ["the"]
                hit = _head(words, det)
                if hit is not None:
                    e = det + hit[0]
                    tail = 0
                    if words[k] == "where" and words[e:e + 1] in (["is"], ["sits"],
                                                                 ["stands"], ["'s"]):
                        tail = 1
                    elif words[k] != "where" and words[e:e + 2] in (["in", "it"],
                                                                   ["inside", "it"]):
                        tail = 2
                    if tail or words[k] != "where":
                        out += [toks[i], toks[i + 1], _tok("by", toks[k]), _tok("the", toks[k]),
                                *toks[det:e]]
                        i = e + tail
                        continue
        if w == "the" and words[i + 1:i + 2] != [] and \
                words[i + 1] in (_FAR | _NEAR | {"empty"}) and \
                words[i + 2:i + 5] == ["corner", "of", "the"]:
            hit = _head(words, i + 5)
            if hit is not None and hit[2] == "room":
                e = i + 5 + hit[0]
                adj = toks[i + 1]
                out += [toks[i], toks[i + 2], *toks[i + 3:e]]
                said = ("with nothing in it" if adj.text == "empty" else
                        "farthest from you" if adj.text in _FAR else "nearest to you")
                out += [Token(x, adj.start, adj.end) for x in said.split()]
                i = e
                continue
        if w in ("middle", "mid") and words[i + 1:i + 3] == ["point", "between"]:
            out.append(_tok("midpoint", toks[i], toks[i + 1]))
            i += 2
            continue
        out.append(toks[i])
        i += 1
    return out
