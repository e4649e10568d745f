"""Words for things: the benchmark's categories, synonyms, group words, room and structure words.

Shared by the grounding API (``entities("couch")`` finds sofas) and the instruction parser.
Categories are the snake_case names of ``src/map2route/data/categories.txt``; the word tables
are ``language/lexicons/vocabulary.yaml``. A *group* is a word that names several categories
("table" covers dining, coffee and side tables and desks). Room words map to the room type's
snake_case name (``living_room``); :mod:`map2route.grounding.vocabulary` turns them into
:class:`~map2route.semantic_map.model.RoomType` for the map side.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from map2route.language import lexicon
from map2route.language.inflection import singular


@lru_cache(maxsize=1)
def categories() -> tuple[str, ...]:
    """The benchmark's object categories (snake_case), in file order."""
    text = resources.files("map2route").joinpath("data/categories.txt").read_text("utf-8")
    return tuple(line.strip() for line in text.splitlines() if line.strip())


#: Other words for one category (lower case, spaces between words).
SYNONYMS: dict[str, str] = lexicon.table("vocabulary", "synonyms")
#: Everyday, British/American and regional names, listed per category in the YAML
#: (``everyday_words``), to their category.
EVERYDAY_WORDS: dict[str, str] = {
    word: cat for cat, names in lexicon.table("vocabulary", "everyday_words").items()
    for word in names}
#: Object categories ProcTHOR maps hold beyond the benchmark's list (coffee tables, decor).
EXTRA_CATEGORIES: dict[str, str] = lexicon.table("vocabulary", "extra_categories")
#: Words naming several categories; the parser keeps the word, the API matches any member.
GROUPS: dict[str, tuple[str, ...]] = {
    word: tuple(members) for word, members in lexicon.table("vocabulary", "groups").items()}
#: How people name room types, to the room type's snake_case name.
ROOM_WORD_TYPES: dict[str, str] = lexicon.table("vocabulary", "room_words")
#: Words for structure that the map keeps outside the object list.
STRUCTURE_WORDS: dict[str, str] = lexicon.table("vocabulary", "structure_words")
#: Places people name that a map never has (its rooms are kitchens, living rooms, bedrooms and
#: bathrooms): the parser refuses them by name instead of fuzzily reading "garage" as "garbage".
ABSENT_PLACES: frozenset[str] = lexicon.words("vocabulary", "absent_places")
#: Household things no map here has (none of the benchmark's categories): refused by name, so
#: that "the dish washer" is not read as a washing machine nor "the tablet" as a table.
ABSENT_THINGS: frozenset[str] = lexicon.words("vocabulary", "absent_things")


def category_phrases() -> dict[str, str]:
    """Every phrase (lower case words) that names one category, to its category."""
    out: dict[str, str] = {}
    for cat in categories():
        out[cat.replace("_", " ")] = cat
    out.update(EXTRA_CATEGORIES)
    out.update(EVERYDAY_WORDS)
    out.update(SYNONYMS)
    return out


def resolve_category(word: str) -> tuple[str, ...]:
    """The categories a word names: one for a category or synonym, several for a group.

    A plural is read as its singular when the plural itself is unknown. Returns ``()`` if
    unknown.
    """
    key = word.strip().lower().replace("_", " ")
    phrases = category_phrases()
    for cand in (key, singular(key)):
        if cand in phrases:
            return (phrases[cand],)
        if cand in GROUPS:
            return GROUPS[cand]
        if cand in STRUCTURE_WORDS:
            return (STRUCTURE_WORDS[cand],)
    return ()
