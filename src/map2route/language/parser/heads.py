"""The lexicon of noun-phrase heads: categories, synonyms, group, room and structure words.

``match`` finds the longest head at the start of a word list (plurals through
:mod:`map2route.language.inflection`); ``fuzzy`` reads a misspelt head with rapidfuzz.
"""

from __future__ import annotations

from functools import lru_cache

from rapidfuzz import fuzz, process

from map2route.language.inflection import MIN_PLURAL_LENGTH, is_plural, singular_word
from map2route.language.parser import lexical_frames as LF
from map2route.language.parser import words as W
from map2route.language.vocabulary import (
    EVERYDAY_WORDS,
    GROUPS,
    ROOM_WORD_TYPES,
    STRUCTURE_WORDS,
    category_phrases,
)


class HeadLexicon:
    """Every phrase that can head a noun phrase, to its (head, kind)."""

    def __init__(self) -> None:
        self.phrases: dict[tuple[str, ...], tuple[str, str]] = {}
        for phrase, cat in category_phrases().items():
            kind = "window" if cat == "window" else "object"
            self.phrases[LF.phrase_key(phrase)] = (cat, kind)
        for word in GROUPS:
            self.phrases[(word,)] = (word, "group")
        for word, snake in ROOM_WORD_TYPES.items():
            self.phrases[LF.phrase_key(word)] = (snake, "room")
            for shape in LF.room_shapes(LF.phrase_key(word)):
                self.phrases.setdefault(shape, (snake, "room"))
        for word, what in STRUCTURE_WORDS.items():
            self.phrases[(word,)] = (what, what)
        for word in W.ROOM_HEADS:
            self.phrases[(word,)] = ("room", "room")
        # misspellings are read as listed names only (see lexical_frames.fuzzy_target)
        self.singles = sorted({" ".join(k) for k in self.phrases
                               if LF.fuzzy_target(" ".join(k), " ".join(k) not in EVERYDAY_WORDS)})
        self.listed: dict[int, list[tuple[str, ...]]] = {}  # names of several words, by length
        for key in self.phrases:
            if len(key) > 1:
                self.listed.setdefault(len(key), []).append(key)
        # other written shapes of the listed names: "trashcan", "the dog's bed"
        for key, value in list(self.phrases.items()):
            for shape in LF.shapes(key):
                self.phrases.setdefault(shape, value)
        self.closed = {k[0]: v for k, v in self.phrases.items() if len(k) == 1}
        self.max_len = max(len(k) for k in self.phrases)

    def match(self, words: list[str]) -> tuple[int, str, str, bool] | None:
        """Longest head at the start of ``words``: (length, head, kind, plural). Two names of
        one category in a row are one head ("the lazy boy recliner", "the telly tv")."""
        hit = self._match_one(words)
        if hit is not None and hit[2] == "object":
            more = self._match_one(words[hit[0]:])
            if more is not None and more[1:3] == hit[1:3]:
                return hit[0] + more[0], hit[1], hit[2], more[3]
        return hit

    def _match_one(self, words: list[str]) -> tuple[int, str, str, bool] | None:
        split = self._split(words)
        for n in range(min(self.max_len, len(words)), 0, -1):
            if n == 1 and split is not None:
                return split  # "book case" is a bookcase before it is a book
            key = tuple(words[:n])
            if key in self.phrases:
                head, kind = self.phrases[key]
                plural = is_plural(key[-1]) and \
                    tuple(words[:n - 1]) + (singular_word(key[-1]),) in self.phrases
                return n, head, kind, plural
            sing = tuple(words[:n - 1]) + (singular_word(words[n - 1]),)
            last = words[n - 1]
            if sing == key and len(last) < MIN_PLURAL_LENGTH and last.endswith("s") and \
                    len(last) > 2 and last[:-1].isalpha():
                # "TVs": inflect is not asked about words this short (see inflection); an
                # -s on a head of two letters is its plural
                sing = tuple(words[:n - 1]) + (last[:-1],)
            if sing != key and sing in self.phrases:
                head, kind = self.phrases[sing]
                return n, head, kind, True
        return None

    def _split(self, words: list[str]) -> tuple[int, str, str, bool] | None:
        """A one-word name written as two words ("book shelf", "book shelves")."""
        split = LF.split_word(words[:2], self.closed)
        if split is not None:
            return 2, *split, False
        if len(words) > 1:
            split = LF.split_word([words[0], singular_word(words[1])], self.closed)
        return (2, *split, True) if split is not None else None

    def near(self, words: list[str]) -> tuple[str, tuple[int, str, str, bool] | None]:
        """A listed name of several words with one word misspelt at the start of ``words``
        ("dinning table", "washing machin"): (the misspelt word, its match), or ("", None)."""
        for n in range(min(self.max_len, len(words)), 1, -1):
            got = LF.one_word_off(words[:n], self.listed.get(n, ()))
            if got is not None:
                typo, key = got
                head, kind = self.phrases[key]
                return typo, (n, head, kind, words[n - 1] != key[-1])
        return "", None

    def fuzzy(self, word: str) -> tuple[str, str] | None:
        """The (head, kind) of the phrase closest to ``word`` (ratio >= 82), if any."""
        if len(word) < 4 or word in _NOT_MISSPELT:
            return None
        best = process.extractOne(word, self.singles, scorer=fuzz.ratio, score_cutoff=82)
        if best is None:
            return None
        return self.phrases[tuple(best[0].split())]


#: Common words one edit away from a head that are never that head misspelt ("tell me" is not
#: "telly"; "the longer of the two desks" is no "lounge": a comparison the parser does not
#: read is refused, never read as a room).
_NOT_MISSPELT = frozenset({"tell", "tells", "told", "longer", "longest", "lounger", "taller",
                           "tallest", "shorter", "shortest", "wider", "widest", "higher",
                           "highest", "lower", "lowest", "older", "oldest", "newer", "newest"})


@lru_cache(maxsize=1)
def head_lexicon() -> HeadLexicon:
    """The head lexicon, built once."""
    return HeadLexicon()


def name_ends(words: list[str]) -> frozenset[int]:
    """Every index where a thing's or room's name ends in ``words`` (a spoken tail may follow
    a name with no mark: "keep away from the bag both ways its leaking")."""
    lex = head_lexicon()
    return frozenset(a + n for a in range(len(words)) for n in range(1, lex.max_len + 1)
                     if (hit := lex.match(words[a:a + n])) is not None and hit[0] == n)


def heads_in(words: list[str], a: int, b: int) -> list[tuple[int, str]]:
    """The map heads named in ``words[a:b]``, each with the token where it starts (longest
    match first, as the parser reads them)."""
    lex = head_lexicon()
    out, k = [], a
    while k < b:
        hit = lex.match(words[k:min(b, k + lex.max_len)])
        if hit is None:
            k += 1
            continue
        out.append((k, hit[1]))
        k += hit[0]
    return out
