"""Written variants of the head phrases: compounds, possessives and split words.

People write one name for a thing in several shapes: open or closed compounds ("trash can",
"trashcan", "trash-can"), a possessive modifier ("the dog's bed", "the kid's room"; "the dog
bed"), and a closed word split in two ("book shelf", "wrist watch"). Listing every shape of
every name in ``lexicons/vocabulary.yaml`` would not generalise to the next writer, so the head
lexicon (:mod:`.heads`) asks this module for the shapes of each listed phrase instead. Each
shape names exactly what the listed phrase names; no word is dropped, every one is part of the
head. The shapes are read exactly, never fuzzily: a closed compound or a short everyday word
("rag", "keys") one edit away from a common word would read that word as a thing.
"""

from __future__ import annotations

from rapidfuzz import fuzz

from map2route.language.inflection import singular_word
from map2route.language.tokens import words as token_words
from map2route.language.vocabulary import ABSENT_THINGS

Phrase = tuple[str, ...]

#: Function words inside a name ("chest of drawers", "box of tissues"): such a name has no
#: closed compound nor possessive shape.
_FUNCTION = frozenset({"of", "for", "the", "a", "an", "and", "to", "in", "on"})

#: Shortest listed word that a misspelling may be read as (see :func:`fuzzy_target`).
MIN_FUZZY_TARGET = 5


def phrase_key(text: str) -> Phrase:
    """The token words of a listed phrase, as the tokenizer splits an instruction: "dog's
    bed" -> ("dog", "'s", "bed"), "fridge-freezer" -> ("fridge", "freezer")."""
    return tuple(token_words(text))


def shapes(key: Phrase) -> list[Phrase]:
    """The other written shapes of the name ``key`` (token words), each naming the same thing:
    a "-room" word written open ("spare bedroom" -> "spare bed room"), the closed compound
    ("trash can" -> "trashcan"), and for a modifier-noun name the
    possessive ("dog bed" -> "dog 's bed", "dogs bed"; "kids room" -> "kid 's room")."""
    opened = tuple(p for w in key for p in (
        (w[:-4], "room") if w.endswith("room") and len(w) >= 7 else (w,)))
    out: list[Phrase] = [opened] if opened != key else []  # "spare bed room"
    if len(key) > 2 and key[1] == "'s" and key[0].isalpha():
        out.append((key[0] + "s", *key[2:]))  # "child's room" without the apostrophe
    if len(key) < 2 or any(w in _FUNCTION or w == "'s" or not w.isalpha() for w in key):
        return out
    out.append(("".join(key),))
    first, rest = key[0], key[1:]
    out.append((first, "'s", *rest))
    if first.endswith("s") and len(first) > 3:
        out.append((first[:-1], "'s", *rest))
    elif not first.endswith(("sh", "ch", "x", "z", "y")):
        out.append((first + "s", *rest))  # the apostrophe left out: "the dogs bed"
    return out


#: Nouns that, after a room word, name that room's space ("the kitchen area", "the lounge
#: area"): one place, not the room and then a second, unnamed one.
_ROOM_SPACE = ("area", "space")


def room_shapes(key: Phrase) -> list[Phrase]:
    """The room word ``key`` with a space noun after it: "kitchen area", "living room space"."""
    return [(*key, noun) for noun in _ROOM_SPACE]


def split_word(words: list[str], singles: dict[str, tuple[str, str]]) -> tuple[str, str] | None:
    """The (head, kind) of a one-word name written as two words at the start of ``words``
    ("book shelf" -> "bookshelf", "wrist watch" -> "wristwatch"), if the two join into one."""
    if len(words) < 2 or not (words[0].isalpha() and words[1].isalpha()):
        return None
    if len(words[0]) < 3 or len(words[1]) < 3:
        return None  # "a pen", "to ilet": too short to be half of a name
    return singles.get(words[0] + words[1])


def fuzzy_target(phrase: str, listed: bool) -> bool:
    """Whether a misspelt word may be read as ``phrase``: listed phrases of some length only;
    generated shapes never (a closed compound is not what a typo of a common word lands on)."""
    return listed and (len(phrase) >= MIN_FUZZY_TARGET or " " in phrase)


def absent_why(name: str) -> str:
    """Why a named place or thing no map has is refused (the end of the refusal)."""
    if name in ABSENT_THINGS:
        return (f"no map here has a {name}; their things are the benchmark's categories "
                "(data/categories.txt)")
    return (f"the map has no {name}; its rooms are kitchens, living rooms, bedrooms and "
            "bathrooms")


def one_word_off(words: list[str] | tuple[str, ...],
                 names: list[Phrase] | tuple[Phrase, ...]) -> tuple[str, Phrase] | None:
    """The one name of ``names`` (all as long as ``words``) that ``words`` spell with exactly
    one word misspelt (ratio >= 82, both words of 4 letters or more; the last word may be a
    plural): (the misspelt word, the name). None when no name, or more than one, fits."""
    found: list[tuple[str, Phrase]] = []
    for name in names:
        off = [(w, x) for w, x in zip(words, name, strict=True)
               if w != x and not (w is words[-1] and singular_word(w) == x)]
        if len(off) == 1:
            w, x = off[0]
            if len(w) >= 4 and len(x) >= 4 and w.isalpha() and fuzz.ratio(w, x) >= 82:
                found.append((w, name))
    return found[0] if len(found) == 1 else None
