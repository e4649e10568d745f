"""The NeSy-Route query parser's word tables, read from ``language/lexicons/nesy.yaml`` and
``language/lexicons/nesy_grammar.yaml`` (package data): the tables are data, this module only
types them.

Agents and objectives are named by their NeSy-Route names (``pedestrian``, ``car``, ``drone``,
``boat``; ``fastest``, ``comfort``, ``safest``, ``shortest``); land-cover classes by their
vector index (0 bareland ... 7 building). Every table is matched on normalised tokens: lower
case, hyphens split words, "n't" expanded; agent and land-cover phrases also after the
singular of :mod:`map2route.language.inflection` (``paddocks`` matches ``paddock``).
"""

from __future__ import annotations

from importlib import resources
from typing import Any

import yaml


def _load(name: str) -> dict[str, Any]:
    text = resources.files("map2route.language").joinpath("lexicons", name).read_text(
        encoding="utf-8")
    data = yaml.safe_load(text)
    if not isinstance(data, dict):  # pragma: no cover - a broken package
        raise RuntimeError(f"map2route.language.nesy data file {name} is not a mapping")
    return data


_LEXICON = _load("nesy.yaml")
_GRAMMAR = _load("nesy_grammar.yaml")


def words(key: str) -> set[str]:
    """A grammar word set of ``nesy_grammar.yaml``."""
    return set(_GRAMMAR[key])


def phrases(key: str) -> list[str]:
    """A grammar phrase list of ``nesy_grammar.yaml``, in file order."""
    return list(_GRAMMAR[key])


def phrase_tuple(key: str) -> tuple[str, ...]:
    """A grammar phrase tuple of ``nesy_grammar.yaml``, in file order."""
    return tuple(_GRAMMAR[key])


def mapping(key: str) -> dict[str, str]:
    """A grammar word mapping of ``nesy_grammar.yaml``."""
    return dict(_GRAMMAR[key])


#: Agent nouns and verbs with a weight: nouns 3, activity verbs 1, false friends 0.
AGENT_WORDS: dict[str, list[tuple[str, int]]] = {
    agent: [(w, int(block["weight"])) for block in blocks for w in block["words"]]
    for agent, blocks in _LEXICON["agent_words"].items()}
#: The agents, in the knowledge base's order.
AGENTS: tuple[str, ...] = tuple(AGENT_WORDS)
#: (phrase, objective, weight); multi-word phrases win over their words ("shortest time").
OBJECTIVE_WORDS: list[tuple[str, str, int]] = [
    (str(p), str(o), int(w)) for p, o, w in _LEXICON["objective_words"]]
#: The objectives, in the knowledge base's order.
OBJECTIVES: tuple[str, ...] = ("fastest", "comfort", "safest", "shortest")
#: Land-cover phrases per class index.
CLASS_WORDS: dict[int, list[str]] = {int(k): list(v) for k, v in
                                     _LEXICON["class_words"].items()}
SETTING_WORDS: set[str] = set(_LEXICON["setting_words"])
AMBIGUOUS_AGENT_WORDS: dict[str, tuple[str, ...]] = {
    k: tuple(v) for k, v in _LEXICON["ambiguous_agent_words"].items()}
AGENT_PLACE_HEADS: set[str] = set(_LEXICON["agent_place_heads"])
CLASS_FALSE_FRIENDS: list[str] = list(_LEXICON["class_false_friends"])
ABBREVIATIONS: dict[str, str] = dict(_LEXICON["abbreviations"])
RESTRICT_BEFORE: list[str] = list(_LEXICON["restrict_before"])
RESTRICT_AFTER: list[str] = list(_LEXICON["restrict_after"])
ROAM_VERBS: set[str] = set(_LEXICON["roam_verbs"])
NEGATORS: list[str] = list(_LEXICON["negators"])
FLIPPABLE_NEGATIVES: list[str] = list(_LEXICON["flippable_negatives"])
NEGATIVE_CUES: list[str] = list(_LEXICON["negative_cues"])
EXCEPTION_WORDS: list[str] = list(_LEXICON["exception_words"])
POSITIVE_CUES: list[str] = list(_LEXICON["positive_cues"])
ROUTE_PREPOSITIONS: set[str] = set(_LEXICON["route_prepositions"])
EVERYTHING_WORDS: list[str] = list(_LEXICON["everything_words"])
EVERYTHING_SELF: list[str] = list(_LEXICON["everything_self"])
WORDNET_AGENTS: dict[str, str] = dict(_LEXICON["wordnet_agents"])
WORDNET_CLASSES: dict[str, int] = {k: int(v) for k, v in _LEXICON["wordnet_classes"].items()}
#: Surface phrases that name a group of classes, with the role the group plays (see
#: :mod:`.surfaces`).
SURFACE_GROUPS: list[dict[str, Any]] = list(_LEXICON.get("surface_groups", []))
