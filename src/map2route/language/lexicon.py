"""Word lists as data: the YAML files under ``language/lexicons/``, loaded once and typed.

A lexicon file maps names to word sets (``move_verbs: [go, walk, ...]``), phrase lists
(``temporal_scopes: ["on the way to", ...]``, split into word tuples on load) or word ->
value tables (``contractions: {"don't": "do not"}``). Code names the entries it reads; adding
a synonym or a phrasing is an edit of the YAML file only.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import yaml

from map2route.language.errors import LexiconError

Phrase = tuple[str, ...]


@cache
def load(name: str) -> dict[str, Any]:
    """The lexicon ``language/lexicons/<name>.yaml`` as a dict (cached).

    Raises:
        LexiconError: the file is missing or is not a YAML mapping.
    """
    res = resources.files("map2route.language").joinpath(f"lexicons/{name}.yaml")
    try:
        data = yaml.safe_load(res.read_text("utf-8"))
    except (OSError, yaml.YAMLError) as err:
        msg = f"cannot read the lexicon {name!r} (language/lexicons/{name}.yaml): {err}"
        raise LexiconError(msg) from err
    if not isinstance(data, dict):
        msg = f"the lexicon {name!r} is not a mapping of names to word lists"
        raise LexiconError(msg)
    return data


def _entry(name: str, key: str) -> Any:
    lex = load(name)
    if key not in lex:
        msg = f"the lexicon {name!r} has no entry {key!r}"
        raise LexiconError(msg)
    return lex[key]


def words(name: str, key: str) -> frozenset[str]:
    """A word set: ``words("instructions", "move_verbs")``.

    Raises:
        LexiconError: an entry is not a word: YAML reads an unquoted ``no``, ``yes``, ``on``
            or ``off`` as a boolean, which would silently drop the word from the set.
    """
    entry = _entry(name, key)
    odd = [w for w in entry if isinstance(w, bool) or w is None]
    if odd:
        msg = (f"the lexicon entry {name}:{key} holds {odd!r}, not words: quote yes/no/on/off "
               f"in language/lexicons/{name}.yaml")
        raise LexiconError(msg)
    return frozenset(str(w) for w in entry)


def phrases(name: str, key: str) -> list[Phrase]:
    """A phrase list, each phrase split into words, in file order."""
    return [tuple(str(p).split()) for p in _entry(name, key)]


def table(name: str, key: str) -> dict[str, Any]:
    """A word -> value table, in file order."""
    value = _entry(name, key)
    if not isinstance(value, dict):
        msg = f"the lexicon entry {name}:{key} is not a table"
        raise LexiconError(msg)
    return {str(k): v for k, v in value.items()}
