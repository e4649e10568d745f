"""One form for a thing or room picked by when the walk meets it.

English builds "the second bedroom you come to" along independent axes, and a writer crosses
them freely: the subject and its modal ("you", "you'll", "you would", "you're going to",
"that you", or a bare participle: "the first bathroom reached"), the verb of meeting ("come
to", "reach", "walk into", "enter", "go through", "get to", "hit", "cut through", "pass"),
how far the count runs ("on the way", "on your way there", "along the way", "from here") and
where it starts ("after the kitchen", "after you leave the kitchen", "once you've left the
kitchen"), or no verb at all ("the third bedroom along"). The later stages read one form of
each axis ("the ORDINAL X you come to [on the way] [coming out of the ROOM]"), in a stop, in
the room of a stop and in the room opening a rule; so each axis is normalised here, once, onto
that form, rather than each stage listing the crossings.

The ordinal may come after the verb, as an adverb ("the bedroom you'll reach second",
"whichever bathroom you come to first"): it is moved before the head, the form the later
stages read. Only an ordinal that the route order counts (first .. fourth, next) is
rewritten in place: "the last bedroom you pass through" is left as written (it is refused
downstream: the grounding's route order has no last), and "the bedroom you enter last" is
refused here, naming it, not read as "the bedroom". Written by hand like the rest of the parser: the construction is closed
(a determiner, an ordinal, a head of the map, a clause with its own subject or a participle),
and a clause that does not match exactly is left alone for the later stages to read or
refuse. The tokens written keep the spans of the words they stand for.
"""

from __future__ import annotations

from map2route.language.errors import ParseError
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["route_order_clauses"]

_ORDINALS = frozenset({"first", "1st", "second", "2nd", "third", "3rd", "fourth", "4th",
                       "next"})
#: subject and modal before a base verb
_SUBJECTS = (("you", "are", "going", "to"), ("you", "are", "gonna"), ("you", "will"),
             ("you", "would"), ("you", "should"), ("you",), ("u",))
#: subject and auxiliary before a verb in -ing
_SUBJECTS_ING = (("you", "will", "be"), ("you", "would", "be"), ("you", "are"))
_BASE = (("come", "to"), ("come", "into"), ("come", "across"), ("reach",), ("walk", "into"),
         ("walk", "through"), ("walk", "past"), ("enter",), ("go", "into"), ("go", "through"),
         ("go", "past"), ("pass", "through"), ("pass", "by"), ("pass",), ("get", "to"),
         ("get", "into"), ("hit",), ("cut", "through"), ("cross",), ("run", "into"),
         ("meet",), ("encounter",), ("step", "into"), ("roll", "through"),
         ("drive", "through"), ("head", "through"))
_ING = (("coming", "to"), ("coming", "into"), ("reaching",), ("walking", "into"),
        ("walking", "through"), ("walking", "past"), ("entering",), ("going", "into"),
        ("going", "through"), ("going", "past"), ("passing", "through"), ("passing", "by"),
        ("passing",), ("getting", "to"), ("hitting",), ("cutting", "through"), ("crossing",),
        ("meeting",))
#: bare participles ("the second bedroom reached"); "hit" and "come to" are left out: bare,
#: they are not read as a participle by a hearer either
_PARTICIPLES = (("reached",), ("entered",), ("passed", "through"), ("passed",),
                ("walked", "into"), ("walked", "through"), ("gone", "through"),
                ("gone", "into"), ("crossed",), ("encountered",), ("met",),
                ("cut", "through"))
#: how far the count runs: all the way of this leg
_WAY = (("on", "your", "way", "there"), ("on", "the", "way", "there"), ("on", "your", "way"),
        ("on", "the", "way"), ("along", "the", "way"))
_HERE = (("from", "here"),)
#: where the count starts, before "the ROOM"
_START = (("after", "you", "leave"), ("after", "you", "have", "left"), ("after", "leaving"),
          ("once", "you", "leave"), ("once", "you", "have", "left"), ("after",),
          ("coming", "out", "of"), ("when", "you", "come", "out", "of"))


def _t(text: str, like: Token) -> Token:
    return Token(text, like.start, like.end)


def _seq(words: list[str], j: int, options: tuple[tuple[str, ...], ...]) -> int:
    """Length of the longest option at ``j`` (0 when none)."""
    best = 0
    for o in options:
        if tuple(words[j:j + len(o)]) == o and len(o) > best:
            best = len(o)
    return best


def _head_at(words: list[str], k: int) -> int:
    hit = head_lexicon().match(words[k:k + head_lexicon().max_len])
    return hit[0] if hit is not None and hit[1] != "room" else 0


def _room_at(words: list[str], k: int) -> int:
    hit = head_lexicon().match(words[k:k + head_lexicon().max_len])
    return hit[0] if hit is not None and hit[2] == "room" and hit[1] != "room" else 0


def _clause(words: list[str], j: int) -> int:
    """End of the subject and verb of meeting at ``j`` (``j`` when none)."""
    k = j + (1 if words[j:j + 1] in (["that"], ["which"]) else 0)
    for subjects, verbs in ((_SUBJECTS_ING, _ING), (_SUBJECTS, _BASE)):
        s = _seq(words, k, subjects)
        if s:
            v = _seq(words, k + s, verbs)
            if v:
                return k + s + v
    if k == j:
        v = _seq(words, j, _PARTICIPLES)
        if v:
            return j + v
        if words[j:j + 1] == ["along"] and words[j + 1:j + 2] not in (["the"], ["a"], ["this"],
                                                                     ["that"]):
            return j + 1
    return j


def _one(toks: list[Token], words: list[str], i: int, out: list[Token]) -> int | None:
    if words[i] not in ("the", "whichever") or i + 1 >= len(words):
        return None
    after: Token | None = None  # the ordinal said after the verb ("you reach second")
    if words[i] == "the" and words[i + 1] in _ORDINALS:
        start = i + 2
    else:
        start = i + 1
    size = _head_at(words, start)
    if not size:
        return None
    end = start + size
    j = _clause(words, end)
    if j == end:
        return None
    if start == i + 1:
        if words[end] == "along" or j >= len(words) or words[j] not in _ORDINALS | {"last"} \
                or words[j:j + 2] == ["next", "to"]:  # "the chair you pass next to the bed"
            return None
        after = toks[j]
        j += 1
    clause = j
    tail: list[Token] = []
    w = _seq(words, j, _WAY)
    if w:
        tail += [_t("on", toks[j]), _t("the", toks[j]), _t("way", toks[j + w - 1])]
        j += w
    h = _seq(words, j, _HERE)
    j += h
    s = _seq(words, j, _START)
    if s:
        det = j + s
        if words[det:det + 1] not in (["the"], ["that"]) or not _room_at(words, det + 1):
            return None
        room = _room_at(words, det + 1)
        tail += [_t("coming", toks[j]), _t("out", toks[j]), _t("of", toks[det - 1]),
                 _t("the", toks[det]), *toks[det + 1:det + 1 + room]]
        j = det + 1 + room
    if after is None and words[end] == "along" and j == clause:
        return None  # "the third bedroom along": read as it is by the later stages
    if j < len(words) and words[j] in ("first", "next"):
        return None  # "the first bedroom you reach first": said twice, left alone
    said = Token("", toks[end].start, toks[clause - 1].end)  # the clause as said
    if after is not None and after.text.lower() == "last":
        a, b = toks[i].start, toks[j - 1].end
        phrase = " ".join(t.text for t in toks[i:j])
        raise ParseError(f"did not understand {phrase!r}: the offline parser counts places "
                         "along the route from the start, not from its end; say which one "
                         "by what is in it, or use the hybrid or llm grounder", phrase, (a, b))
    if after is not None:
        out += [_t("the", toks[i]), _t(after.text.lower(), after)]
        out.extend(toks[start:end])
        out += [_t("you", said), _t("come", said), _t("to", said), *tail]
        return j
    out.extend(toks[i:end])
    out += [_t("you", said), _t("come", said), _t("to", said), *tail]
    return j


def route_order_clauses(toks: list[Token]) -> list[Token]:
    """Rewrite each "the ORDINAL X SUBJECT VERB [EXTENT]" onto "the ORDINAL X you come to [on
    the way] [coming out of the ROOM]" (see the module docstring).

    Raises:
        ParseError: "the X you reach last": a count from the end of the route.
    """
    words = [t.text.lower() for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(toks):
        nxt = _one(toks, words, i, out)
        if nxt is None:
            out.append(toks[i])
            i += 1
        else:
            i = nxt
    return out
