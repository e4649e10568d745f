"""Asides that name nothing on the map, set apart when they are all that stops a parse.

People wrap a request in talk about their own day: "... and I'll be along in a minute or two
to put the milk away once I've found my slippers", "grocery delivery at 5ish", "shut up".
Such a clause holds no thing, room or relation the map could check and no verb of moving or
keeping away, so there is nothing in it a route could honour. Without this step the parser
refuses the whole instruction at its first unknown word. With it, when a parse is refused at
a word whose clause (the text between two punctuation marks) is such an aside, the clause is
set apart and reported as context (``aside: ...``), and the rest is parsed again. Nothing is
dropped silently: the aside is in :attr:`~.model.InstructionParse.context`, and any clause that
names a map thing, a thing no map has, a place word, a size or rank, a motion or keep-away
verb, or a negated pronoun ("not on it") is still refused by name.

Hand-written for the same reason as the rest of the parser: the test is a closed list of
word classes, and each is checked by a test (``test/language/test_aside_clauses.py``).
"""

from __future__ import annotations

import re

from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import tokenize
from map2route.language.vocabulary import ABSENT_PLACES, ABSENT_THINGS

__all__ = ["MAX_ASIDES", "aside_at", "asides_in", "is_aside"]

#: How many asides one instruction may have set apart (each costs one more parse).
MAX_ASIDES = 4

#: Where a clause ends in the text: punctuation and dashes (the tokenizer reads a spaced dash
#: as a comma too).
_CUT = re.compile(r"[,;:.!?()\u2014\u2013]| - ")

#: Words that make a clause possible route content: moving, keeping away or close, places and
#: sides, sizes and ranks, stops and the start. A clause with any of them is never an aside.
_ROUTE_WORDS = frozenset(
    W.MOVE_VERBS | W.SHAPE_VERBS | frozenset(W.SIZE_ADJ) | frozenset(W.COMPARATIVE) |
    W.RANK_WORDS | frozenset(W.ORDINALS) | W.START_WORDS |
    {"avoid", "keep", "stay", "remain", "steer", "stick", "hug", "favor", "favour", "prefer",
     "maintain", "give", "near", "nearby", "next", "beside", "behind", "between", "around",
     "away", "far", "close", "left", "right", "corner", "side", "middle", "centre", "center",
     "past", "through", "across", "toward", "towards", "into", "onto", "front",
     "edge", "wall", "walls", "under", "underneath", "above", "below", "beneath", "opposite",
     "facing", "against", "route", "way", "path", "trip", "stop", "stops", "destination",
     "goal", "target", "spot", "place", "room", "rooms", "clear", "clearance",
     "berth", "space", "last", "first", "final", "only", "other", "another", "same",
     "both", "each", "every", "all", "either", "neither", "nor", "instead", "rather",
     # passing and being near ("passing by the thingamajig")
     "passing", "passed", "by", "closer", "nearer",
     # corrections ("Actually, ...") and the openers of conditions and scopes ("if so",
     # "while you are in there", "after that it is fine"): they bear on the route
     "actually", "sorry", "wait", "mean", "scratch", "correction", "if", "unless", "until",
     "till", "til", "while", "when", "whenever", "before", "after", "once", "then"})
#: A negation with a pronoun ("not on it", "don't touch it") may forbid something on the route.
_NEGATORS = frozenset({"not", "n't", "never", "no", "don't", "dont", "nothing", "without"})
_POINTERS = frozenset({"it", "them", "that", "this", "those", "these", "there", "here", "one",
                       "ones", "its"})
_ABSENT = frozenset(w for p in ABSENT_THINGS | ABSENT_PLACES for w in p.split())


def is_aside(words: list[str]) -> bool:
    """Whether the clause ``words`` (lower-case tokens) names nothing a route could honour."""
    words = [w for w in words if w.strip()]
    if not words:
        return False
    if set(words) & (_ROUTE_WORDS | _ABSENT):
        return False
    if set(words) & _NEGATORS and set(words) & _POINTERS:
        return False
    lex = head_lexicon()
    return not any(lex.match(words[k:k + lex.max_len]) for k in range(len(words)))


def aside_at(text: str, span: tuple[int, int]) -> tuple[int, int] | None:
    """The character span of the clause of ``text`` holding ``span`` when it is an aside."""
    cuts = [m.start() for m in _CUT.finditer(text)]
    a = max((c + 1 for c in cuts if c < span[0]), default=0)
    b = min((c for c in cuts if c >= span[1]), default=len(text))
    if b <= a or not text[a:b].strip():
        return None
    words = [t.text.lower() for t in tokenize(text[a:b])]
    if not is_aside(words):
        return None
    # the rest must still say something: an instruction that is all aside has no route
    rest = text[:a] + text[b:]
    if not re.search(r"[A-Za-z]", rest):
        return None
    return a, b


def asides_in(text: str) -> list[tuple[int, int]]:
    """The character spans of every aside clause of ``text`` (see :func:`aside_at`)."""
    cuts = [-1, *(m.start() for m in _CUT.finditer(text)), len(text)]
    out = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        if text[a + 1:b].strip():
            got = aside_at(text, (a + 1, a + 1))
            if got is not None and got[1] <= b:
                out.append(got)
    return out
