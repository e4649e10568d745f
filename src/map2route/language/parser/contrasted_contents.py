"""A thing's contents said with a bound on their count or with one of them denied: "the
dining table with more than five chairs", "the bedroom that has fewer than two beds", "two or
more" (:data:`COUNT_BOUNDS`, read by :mod:`.modifiers`), "the bed that has a pillow but no
laptop", "the dresser that has a CD, but not a mug", "the bed with a pillow and without a
laptop", the other way round "the bedroom that has no windows but does have an armchair", and
"that's got both the X and the Y" (that has both a X and a Y).

Real referring expressions of the Map2Route Easy split say contents this way; the parser
reads "with a pillow and no laptop" (a second "with" modifier, negated), so the pass rewrites
the contrast into that form before the rewrite rules run (their list rule then reads the
contents as one list). It fires only when a word of having ("has", "with", "contains")
comes earlier in the same sentence, so a "but no" between two requests ("go to the bed but
no stopping there") stays as it was said. Hand-written: a token rewrite, like the passes
of :mod:`.human`.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["COUNT_BOUNDS", "COUNT_TAILS", "contrasted_contents", "count_number"]

#: "with more than five chairs": the words before the number, what to add to it for the
#: least count, and whether the bound is an upper one (read as "not at least N").
COUNT_BOUNDS = ((("more", "than"), 1, False), (("over",), 1, False), (("at", "least"), 0, False),
                 (("fewer", "than"), 0, True), (("less", "than"), 0, True),
                 (("at", "most"), 1, True), (("no", "more", "than"), 1, True),
                 (("not", "more", "than"), 1, True))
#: "with two or more chairs": the words after the number, as above.
COUNT_TAILS = ((("or", "more"), 0, False), (("or", "fewer"), 1, True), (("or", "less"), 1, True))

#: Words of having that a list of contents follows.
_HAVING = frozenset({"has", "have", "having", "with", "contains", "contain", "containing",
                     "holds", "holding", "includes", "including"})
#: Where a sentence or a request ends: the contents are no longer the same thing's.
_BOUNDARIES = frozenset({".", "!", "?", ";", ":", "then", "go", "after"})
#: How far back (tokens) the word of having may be: a list of three things with their places.
_REACH = 14
_DETS = ("a", "an", "any")


def _having_before(words: list[str], i: int) -> bool:
    """Whether a word of having comes before ``i`` in the same sentence, within reach."""
    for k in range(i - 1, max(-1, i - 1 - _REACH), -1):
        if words[k] in _BOUNDARIES:
            return False
        if words[k] in _HAVING:
            return True
    return False


def _bound_at(words: list[str], k: int) -> int:
    """Length of a bound and its number at ``k`` ("more than five", "two or more"), or 0."""
    for lead, _, _ in COUNT_BOUNDS:
        if tuple(words[k:k + len(lead)]) == lead and _number(words, k + len(lead)):
            return len(lead) + 1
    for tail, _, _ in COUNT_TAILS:
        if _number(words, k) and tuple(words[k + 1:k + 1 + len(tail)]) == tail:
            return len(tail) + 1
    return 0


def count_number(word: str) -> int | None:
    """The number ``word`` says ("five", "5"), or None ("a", "several" are no number)."""
    if word.isdigit():
        return int(word)
    return None if word in ("a", "an", "several", "multiple") else W.NUMBERS.get(word)


def _number(words: list[str], k: int) -> bool:
    return k < len(words) and count_number(words[k]) is not None


def _bound_before(words: list[str], k: int) -> bool:
    """Whether a bound on a count comes after the word of having before ``k``."""
    for j in range(k - 1, max(-1, k - 1 - _REACH), -1):
        if words[j] in _BOUNDARIES or words[j] in _HAVING:
            return False
        if _bound_at(words, j):
            return True
    return False


def _bounded_item(words: list[str], k: int, *, after_bound: bool) -> bool:
    """A list item at ``k`` that the list rule cannot read with its neighbours: a bound and
    its thing ("more than two chairs"), or any counted or indefinite thing after a bound."""
    n = _bound_at(words, k)
    if n:
        return _head_at(words, k + n)
    det = 1 if k < len(words) and (words[k] in ("a", "an") or _number(words, k)) else 0
    return after_bound and bool(det) and _head_at(words, k + det)


def _affirmed_having(words: list[str], k: int) -> int:
    """Length of "does have" / "has (got)" / "it does have" at ``k`` after "but", or 0."""
    for said in (("it", "does", "have"), ("does", "have"), ("do", "have"), ("has", "got"),
                 ("has",), ("have",), ("it", "has")):
        if tuple(words[k:k + len(said)]) == said and k + len(said) < len(words):
            return len(said)
    return 0


def _head_at(words: list[str], k: int) -> bool:
    return head_lexicon().match(words[k:k + head_lexicon().max_len]) is not None


def _got(toks: list[Token]) -> list[Token]:
    """"that's got" / "that has got" / "which have got" -> "that has" / "which have"."""
    out: list[Token] = []
    for t in toks:
        if t.text == "got" and out and out[-1].text in ("is", "has", "have") and len(out) > 1 \
                and out[-2].text in ("that", "which", "it"):
            verb = "have" if out[-1].text == "have" else "has"
            out[-1] = Token(verb, out[-1].start, t.end)
            continue
        out.append(t)
    return out


def _both_the(toks: list[Token]) -> list[Token]:
    """"that has both the washing machine and the dryer" -> "both a washing machine and a
    dryer": the list rule reads "both" with indefinite items, and "both" before "the" was
    otherwise read as a count of two (the dryer then became the stop)."""
    words = [t.text for t in toks]
    out = list(toks)
    for k, w in enumerate(words):
        if w != "both" or k + 1 >= len(words) or words[k + 1] != "the" or \
                not _having_before(words, k):
            continue
        j = k + 2
        hit = head_lexicon().match(words[j:j + head_lexicon().max_len])
        if hit is None or words[j + hit[0]:j + hit[0] + 2] != ["and", "the"] or \
                not _head_at(words, j + hit[0] + 2):
            continue
        for d in (k + 1, j + hit[0] + 1):
            out[d] = Token("a", toks[d].start, toks[d].end)
    return out


def contrasted_contents(toks: list[Token]) -> list[Token]:
    """"[,] but no X" / "but not a X" / "yet no X" / "and without X" after a list of contents
    -> "and no X" (the parser's negated "with")."""
    toks = _both_the(_got(toks))
    words = [t.text for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(toks):
        k = i + (1 if words[i] == "," else 0)
        lead, neg = (words[k], words[k + 1]) if k + 1 < len(words) else ("", "")
        q = 0
        if lead in ("but", "yet") and neg == "not" and k + 2 < len(words) and \
                words[k + 2] in _DETS:
            q = k + 3
        elif (lead in ("but", "yet") and neg in ("no", "without")) or \
                (lead == "and" and neg == "without"):
            q = k + 2 + (1 if k + 2 < len(words) and words[k + 2] in _DETS else 0)
        if q and _head_at(words, q) and _having_before(words, i):
            out += [Token("and", toks[k].start, toks[k].end),
                    Token("no", toks[k + 1].start, toks[q - 1].end)]
            i = q
            continue
        have = _affirmed_having(words, k + 1) if lead in ("but", "yet") else 0
        if have and _head_at(words, k + 1 + have + (1 if words[k + 1 + have] in _DETS else 0)) \
                and _having_before(words, i):
            # "the bedroom that has no windows but does have an armchair": and with an armchair
            out += [Token("and", toks[k].start, toks[k].end),
                    Token("with", toks[k + 1].start, toks[k + have].end)]
            i = k + 1 + have
            continue
        if lead == "and" and _bounded_item(words, k + 1, after_bound=_bound_before(words, k)) \
                and _having_before(words, i):
            # "with a bed and more than two chairs" / "with fewer than four chairs and a bed":
            # each item of a list with a bound is its own "with" (the list rule reads no bound)
            out += toks[i:k + 1] + [Token("with", toks[k].start, toks[k].end)]
            i = k + 1
            continue
        out.append(toks[i])
        i += 1
    return out
