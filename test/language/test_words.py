"""Tokens, inflection, number words and lexicon files of the language package."""

from __future__ import annotations

from importlib import resources

import pytest

from map2route.language import inflection, lexicon, numbers
from map2route.language.errors import LexiconError
from map2route.language.tokens import Token, tokenize, words
from map2route.language.vocabulary import resolve_category


def test_tokens_keep_spans_and_expand_contractions() -> None:
    assert tokenize("Don't go") == [Token("do", 0, 5), Token("not", 0, 5), Token("go", 6, 8)]
    assert words("the TV-stand's top, please!") == ["the", "tv", "stand's", "top", ",",
                                                     "please", "!"]
    assert tokenize("the sofa's arm")[1:3] == [Token("sofa", 4, 8), Token("'s", 8, 10)]


@pytest.mark.parametrize(("plural", "singular"), [
    ("benches", "bench"), ("shelves", "shelf"), ("chairs", "chair"), ("boxes", "box"),
    ("coffee tables", "coffee table"), ("glass", "glass"), ("is", "is"), ("us", "us")],
    ids=lambda x: x)
def test_singular(plural: str, singular: str) -> None:
    assert inflection.singular(plural) == singular


def test_plural_and_is_plural() -> None:
    assert inflection.plural("window") == "windows"
    assert inflection.plural("bench") == "benches"
    assert inflection.is_plural("lamps") and not inflection.is_plural("lamp")


@pytest.mark.parametrize(("word", "singular"), [
    ("paddocks", "paddock"), ("lorries", "lorry"), ("bushes", "bush"), ("buses", "bus"),
    ("prairies", "prairie"), ("feet", "foot"), ("campuses", "campus"),
    # not plurals, though inflect would strip or change them
    ("grass", "grass"), ("campus", "campus"), ("oasis", "oasis"), ("dangerous", "dangerous"),
    ("this", "this"), ("they", "they"), ("ours", "ours"), ("bus", "bus"),
])
def test_singular_word_reads_real_plurals_only(word: str, singular: str) -> None:
    assert inflection.singular_word(word) == singular


def test_number_words() -> None:
    assert numbers.cardinals(3) == {"zero": 0, "one": 1, "two": 2, "three": 3}
    assert numbers.ordinals(3) == {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3,
                                   "3rd": 3}
    assert numbers.number_word(7) == "seven"


def test_lexicon_entries_are_typed() -> None:
    assert "go" in lexicon.words("instructions", "move_verbs")
    assert ("on", "the", "way", "to") in lexicon.phrases("instructions", "temporal_scopes")
    assert lexicon.table("tokens", "contractions")["don't"] == "do not"


def test_a_missing_lexicon_or_entry_names_itself() -> None:
    with pytest.raises(LexiconError, match="nonexistent"):
        lexicon.load("nonexistent")
    with pytest.raises(LexiconError, match="no entry 'nope'"):
        lexicon.words("instructions", "nope")


def test_a_word_yaml_reads_as_a_boolean_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # unquoted `no` in a YAML list is False: the word would be lost from the set
    monkeypatch.setattr(lexicon, "load", lambda name: {"negations": ["not", False]})
    with pytest.raises(LexiconError, match="quote yes/no/on/off"):
        lexicon.words("x", "negations")


def test_every_word_list_of_every_lexicon_holds_words() -> None:
    assert "no" in lexicon.words("instructions", "coverage_negations")
    folder = resources.files("map2route.language").joinpath("lexicons")
    for res in folder.iterdir():
        if not res.name.endswith(".yaml"):
            continue
        name = res.name.removesuffix(".yaml")
        for key, value in lexicon.load(name).items():
            if isinstance(value, list) and all(not isinstance(v, dict) for v in value):
                assert not [v for v in value if isinstance(v, bool) or v is None], (name, key)


def test_resolve_category_reads_plurals_and_groups() -> None:
    assert resolve_category("couches") == ("sofa",)
    assert "desk" in resolve_category("tables")
    assert resolve_category("zorblax") == ()
