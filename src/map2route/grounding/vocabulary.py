"""The vocabulary seen from the map: room words as :class:`RoomType`, and nearest names.

The word tables themselves live in :mod:`map2route.language.vocabulary` (data in
``language/lexicons/vocabulary.yaml``); their names are re-exported here for callers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

from map2route.language.inflection import singular
from map2route.language.vocabulary import (
    ABSENT_PLACES,
    EXTRA_CATEGORIES,
    GROUPS,
    ROOM_WORD_TYPES,
    STRUCTURE_WORDS,
    SYNONYMS,
    categories,
    category_phrases,
    resolve_category,
)
from map2route.semantic_map.model import RoomType

if TYPE_CHECKING:
    from map2route.semantic_map.model import SemanticMap

__all__ = ["ABSENT_PLACES", "EXTRA_CATEGORIES", "GROUPS", "ROOM_WORDS", "STRUCTURE_WORDS",
           "SYNONYMS", "categories", "category_phrases", "nearest_names", "resolve_category",
           "singular"]

#: How people name room types.
ROOM_WORDS: dict[str, RoomType] = {word: RoomType.parse(snake)
                                   for word, snake in ROOM_WORD_TYPES.items()}


def nearest_names(word: str, m: SemanticMap, limit: int = 3) -> list[str]:
    """The names in ``m`` (its object categories and room types, as people say them) that
    look most like ``word``: what a refusal suggests instead."""
    names = sorted({c.replace("_", " ") for c in m.categories()
                    if c not in ("wall", "doorway", "doorframe", "window")}
                   | {r.type.words for r in m.rooms})
    got = process.extract(word.lower(), names, scorer=fuzz.WRatio, limit=limit)
    return [g[0] for g in got]
