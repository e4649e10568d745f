"""Singular and plural forms of English nouns, from the ``inflect`` library.

One place for every parser in map2route (grounding, streets, nesy, the episode generator)
instead of hand-written ``-s``/``-es``/``-ies`` rules.
"""

from __future__ import annotations

from functools import lru_cache

import inflect

_ENGINE = inflect.engine()

#: Words of three letters or fewer are never read as plurals: inflect strips the ``s`` of
#: function words ("us" -> "me", "is" -> "i", "its" -> "it"), which a parser asks about when it
#: tries every word as a possible noun.
MIN_PLURAL_LENGTH = 4


@lru_cache(maxsize=4096)
def singular_word(word: str) -> str:
    """The singular of one lower-case word (``benches`` -> ``bench``); itself when not plural."""
    if len(word) < MIN_PLURAL_LENGTH or not word.isalpha():
        return word
    got = _ENGINE.singular_noun(word)
    return got if isinstance(got, str) and got else word


def singular(phrase: str) -> str:
    """The phrase with its last word made singular (``coffee tables`` -> ``coffee table``)."""
    words = phrase.split(" ")
    words[-1] = singular_word(words[-1])
    return " ".join(words)


def is_plural(word: str) -> bool:
    """Whether ``word`` is the plural form of some noun (``chairs`` yes, ``glass`` no)."""
    return singular_word(word) != word


@lru_cache(maxsize=4096)
def plural(word: str) -> str:
    """The plural of a singular noun or noun phrase (``window`` -> ``windows``)."""
    return str(_ENGINE.plural_noun(word))
