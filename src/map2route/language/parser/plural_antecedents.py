"""A pick from a counted plural said just before, pointed at by a plural pronoun: "head for the
bedroom with two beds and park by the bigger of them".

"Them" after a comparative or superlative ("the bigger of them",
"the closest of those") names the things counted just before ("two beds"), not the thing that
holds them (the bedroom): the head that was a stop. Left alone, "them" resolved to the last
singular head and the pick became a second bedroom stage (AR14 after stop 40's K1 round read
its reason). This pass puts the counted things' words in place of the pronoun, with the
pronoun's span ("the bigger of the beds"), which the partitive readers take. Only a count of a
thing's contents ("with two beds"); a plural said with no count, or more than one counted
plural in reach, is left for the other readers.

Hand-written: the pronoun forms and the comparative and rank words are closed classes; the
counted plural is found with the head lexicon, within the sentence and the one before.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["plural_antecedents"]

_ENDS = frozenset({".", "!", "?", ";"})
#: Only "them": "the bigger of the two" / "of those two" after "there are two beds" is read by
#: the set readers (:mod:`.set_intros`, :mod:`.set_picks`) already.
_PRONOUNS = (("them", "two"), ("them",))
_CONTENTS = frozenset({"with", "has", "have", "got", "containing", "w", "w/"})


def _counted(words: list[str], lo: int, hi: int) -> list[tuple[int, int]]:
    """Spans of counted plurals ("two beds", "3 chairs") in ``words[lo:hi]``."""
    lex = head_lexicon()
    found = []
    for k in range(lo, hi - 1):
        w = words[k]
        n = W.NUMBERS.get(w, int(w) if w.isdigit() else 0)
        # only a thing's contents ("the bedroom with two beds"): a set said as "there are
        # three beds ..." is the set readers' (:mod:`.set_intros`)
        if n >= 2 and k > 0 and words[k - 1] in _CONTENTS:
            hit = lex.match(words[k + 1:min(hi, k + 1 + lex.max_len)])
            if hit is not None and hit[3]:  # plural
                found.append((k + 1, k + 1 + hit[0]))
    return found


def plural_antecedents(toks: list[Token]) -> list[Token]:
    """"the bigger of them" after "two beds" -> "the bigger of the beds" (spans kept)."""
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    sentence_starts = [0] + [i + 1 for i, w in enumerate(words) if w in _ENDS]
    while k < len(toks):
        pick = k >= 2 and words[k] == "of" and words[k - 2] == "the" and \
            (words[k - 1] in W.COMPARATIVE or words[k - 1] in W.RANK_WORDS)
        form = next((p for p in _PRONOUNS if tuple(words[k + 1:k + 1 + len(p)]) == p), None) \
            if pick else None
        if form is not None:
            starts = [s for s in sentence_starts if s <= k]
            lo = starts[-2] if len(starts) > 1 else 0
            counted = _counted(words, lo, k)
            if len(counted) == 1:
                a, b = counted[0]
                span = toks[k + 1:k + 1 + len(form)]
                out.append(toks[k])
                out += [Token(w, span[0].start, span[-1].end) for w in ("the", *words[a:b])]
                k += 1 + len(form)
                continue
        out.append(toks[k])
        k += 1
    return out
