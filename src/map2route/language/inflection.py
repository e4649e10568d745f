"""Singular and plural forms of English nouns, from the ``inflect`` library.

One place for every parser in map2route (grounding, streets, nesy, the episode generator)
instead of hand-written ``-s``/``-es``/``-ies`` rules. ``inflect`` answers for any word it is
given, so :func:`singular_word` first keeps the words it misreads as plurals (pronouns,
``-ous`` adjectives, ``-us``/``-is``/``-ss`` singulars; listed in ``lexicons/inflection.yaml``).
"""

from __future__ import annotations

from functools import lru_cache

import inflect

from map2route.language import lexicon

_ENGINE = inflect.engine()
#: Endings of singular words inflect reads as plurals ("campus", "oasis", "dangerous").
SINGULAR_ENDINGS = tuple(sorted(lexicon.words("inflection", "singular_endings")))
#: Pronouns and determiners inflect would change ("they" -> "it", "ours" -> "mine").
CLOSED_CLASS = lexicon.words("inflection", "closed_class")

#: Words of three letters or fewer are never read as plurals: inflect strips the ``s`` of
#: function words ("us" -> "me", "is" -> "i", "its" -> "it"), which a parser asks about when it
#: tries every word as a possible noun.
MIN_PLURAL_LENGTH = 4


@lru_cache(maxsize=4096)
def singular_word(word: str) -> str:
    """The singular of one lower-case word (``benches`` -> ``bench``, ``lorries`` -> ``lorry``,
    ``feet`` -> ``foot``); itself when not plural (``grass``, ``campus``, ``dangerous``,
    ``they``)."""
    if len(word) < MIN_PLURAL_LENGTH or not word.isalpha() or word in CLOSED_CLASS or \
            word.endswith(SINGULAR_ENDINGS):
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
