"""Number and ordinal words (``three`` -> 3, ``third``/``3rd`` -> 3), generated with ``inflect``.

Each parser takes the range it reads (the grounding parser ordinals up to six, the street
parser up to eight) and adds its own quantity words from its lexicon ("a couple of", "both").
"""

from __future__ import annotations

from functools import lru_cache

import inflect

_ENGINE = inflect.engine()


@lru_cache(maxsize=16)
def cardinals(upto: int = 10) -> dict[str, int]:
    """``{"zero": 0, "one": 1, ..., "ten": 10}`` up to ``upto``."""
    return {number_word(n): n for n in range(upto + 1)}


@lru_cache(maxsize=16)
def ordinals(upto: int = 10) -> dict[str, int]:
    """``{"first": 1, "1st": 1, "second": 2, "2nd": 2, ...}`` up to ``upto``."""
    out: dict[str, int] = {}
    for n in range(1, upto + 1):
        out[str(_ENGINE.ordinal(number_word(n)))] = n
        out[str(_ENGINE.ordinal(str(n)))] = n
    return out


def number_word(n: int) -> str:
    """``3`` -> ``three``."""
    # inflect reads digits from a string; its int parameter type is numbers.Number, which
    # mypy does not check against int
    return str(_ENGINE.number_to_words(str(n)))
