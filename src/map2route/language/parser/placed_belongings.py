"""A belonging that is not on the map, said to be at a thing that is, then pointed back at:
"My glasses are on the desk. Go to it." / "my knitting bag's on the chair nearest the bed,
could you go to it" / "Our spare key is in the kitchen. Head there."

The map has no glasses or knitting bag, so "it" can only be reached through where the speaker
put it: the pointer stands for the place. This reader gives :mod:`.introductions` an
introduction whose phrase is the place's noun phrase ("the chair nearest the bed"), and the
belonging with its verb and preposition ("my glasses are on") is reported as context by that
module, so nothing is dropped. A belonging that IS a map category ("My phone is on the chair")
is the thing itself and is read by :mod:`.introductions`' copular reader.

Read only when: the sentence opens with a possessive or "the" and one to three words naming no
map thing, then a form of "be" and a placing preposition, then a definite noun phrase whose
head is a map thing or room. Hand-written like the rest of the parser (see :mod:`.normalise`):
the determiners, verbs and prepositions are closed classes; the belonging's words are any.
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["placed_belonging"]

_OWNERS = frozenset({"my", "our", "your", "his", "her", "the"})
_BE = frozenset({"is", "'s", "are", "'re"})
#: Placing prepositions, longest first ("on top of" before "on").
_PLACING = (("on", "top", "of"), ("next", "to"), ("close", "to"), ("right", "next", "to"),
            ("on",), ("in",), ("inside",), ("by",), ("beside",), ("near",), ("under",),
            ("underneath",), ("at",), ("against",), ("behind",))
_FILLERS = frozenset({"um", "uh", "so", "ok", "okay", "oh", "well", "right", "now", "and"})
#: Words that cannot be part of a belonging's name: a clause goes on ("my feeling is ...").
_NOT_NAME = frozenset({"i", "you", "it", "that", "which", "who", "there", "here", "one",
                       "thing", "place", "spot", "room", "not", "no", ","})


def _head_at(words: list[str], k: int) -> tuple[int, str]:
    hit = head_lexicon().match(words[k:k + head_lexicon().max_len])
    return (hit[0], hit[2]) if hit else (0, "")


def placed_belonging(toks: list[Token], a: int, e: int
                     ) -> tuple[int, list[Token], str] | None:
    """The sentence ``toks[a:e]`` read as "<owner> <belonging> <be> <placing> <place>": where
    the introduction ends, the place's phrase and its head (see the module docstring), or
    None."""
    words = [t.text for t in toks]
    k = a
    while k < e and words[k] in _FILLERS:
        k += 1
    if k >= e or words[k] not in _OWNERS:
        return None
    v = k + 1
    while v < e and words[v] not in _BE and v - k <= 3:
        if _head_at(words, v)[0] or words[v] in _NOT_NAME or not words[v].isalpha():
            return None  # a map thing (read as itself) or not a name at all
        v += 1
    if v == k + 1 or v >= e or words[v] not in _BE:
        return None
    r = v + 1
    prep = next((p for p in _PLACING if tuple(words[r:r + len(p)]) == p), None)
    if prep is None:
        return None
    p = r + len(prep)
    if words[p:p + 1] not in (["the"], ["a"], ["an"]):
        return None
    n, kind = _head_at(words, p + 1)
    if not n or kind not in ("object", "room"):
        return None
    # the place's phrase runs to the sentence end, or to a comma that opens the request
    q = next((x for x in range(p, e) if words[x] == ","), e)
    phrase = [Token("the", toks[p].start, toks[p].end), *toks[p + 1:q]]
    return q, phrase, " ".join(words[p + 1:p + 1 + n])
