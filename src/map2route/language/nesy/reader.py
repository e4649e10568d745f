"""The NeSy-Route query reader: agent, objective, permitted and forbidden classes.

:func:`read_query` runs the stages: tokens and clauses (:mod:`.tokens`), references and cues
(:mod:`.references`), permissions (:mod:`.constraints`) and surface constraints
(:mod:`.surfaces`). It knows agents and objectives by name and takes each agent's
traversability classes from the caller (the NeSy-Route knowledge base), so this package
imports nothing above it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from map2route.language.inflection import singular_word
from map2route.language.nesy.constraints import (
    BURDENS,
    CORRECTION_MARKERS,
    permissions,
)
from map2route.language.nesy.lexicon import (
    AGENT_PLACE_HEADS,
    AGENTS,
    OBJECTIVES,
    WORDNET_AGENTS,
)
from map2route.language.nesy.references import (
    find_mentions,
)
from map2route.language.nesy.surfaces import surface_constraints
from map2route.language.nesy.tokens import (
    AGENT_SORTED,
    OBJECTIVE_NEGATORS,
    OBJECTIVE_STEMS,
    find,
    find_stems,
    split_clauses,
    strip_from_to,
    tokenize,
    unknown_noun,
)
from map2route.language.nesy.wordnet import noun_category


def _read_agent(tokens: list[str], stems: list[str],
                conditional_of: Mapping[str, frozenset[int]]) -> tuple[str, bool]:
    """The agent a query names (pedestrian when none), and whether one was named."""
    scores = dict.fromkeys(AGENTS, 0)
    used = [False] * len(tokens)
    found: list[tuple[int, int, tuple[str, ...], int]] = []
    # "walk from the ute to the waterhole": a vehicle in a from/to phrase is a place
    placed = {k for k, t in enumerate(strip_from_to(tokens)) if t == "_"}
    for phrase, agents_of, weight in AGENT_SORTED:
        n = len(phrase)
        for i in find_stems(stems, phrase):
            if not any(used[i:i + n]):
                for m in range(i, i + n):
                    used[m] = True
                # a vehicle noun before a place noun names a place ("bus stop")
                if weight >= 3 and i + n < len(tokens) and tokens[i + n] in AGENT_PLACE_HEADS:
                    continue
                found.append((i, i + n, agents_of, weight))
    nouns_at = {i for i, _e, _a, w in found if w >= 3}
    if not nouns_at:
        # no listed agent noun: ask WordNet about the unknown nouns ("currach" is a boat)
        for i, t in enumerate(tokens):
            if not used[i] and unknown_noun(t):
                agent_of = noun_category(singular_word(t), WORDNET_AGENTS)
                if agent_of is not None:
                    found.append((i, i + 1, (agent_of,), 2))
    for i, e, agents_of, weight in found:
        # in "ambulance boat" the head names the agent, the modifier only its use
        if weight >= 3 and e in nouns_at:
            continue
        for agent_of in agents_of:
            scores[agent_of] += 1 if i in placed else weight
    top = [a for a in AGENTS if scores[a] == max(scores.values())]
    if len(top) > 1:
        # a tie ("quad": quad bike or quadcopter) goes to the agent for which the terrain the
        # query talks about is a question at all: its conditionally traversable classes
        talked = {cls for clause, _ in split_clauses(tokens) for _b, _e, cls in find_mentions(clause)}
        top.sort(key=lambda a: -len(talked & conditional_of[a]))
    agent = top[0]
    if scores[agent] > 0:
        return agent, True
    return "pedestrian", False


def _read_objective(tokens: list[str], stems: list[str]) -> tuple[str, bool]:
    """The objective a query names (shortest when none), and whether one was named."""
    taken = [False] * len(tokens)
    obj_scores = dict.fromkeys(OBJECTIVES, 0)
    first_at = dict.fromkeys(OBJECTIVES, len(tokens))
    # "fastest... actually no, the safest one": words before a self-correction that is
    # followed by another objective word do not count
    corrections = [i for w in CORRECTION_MARKERS for i in find(tokens, w)]
    # "no risks" = "no risk": phrases match on stems
    hits = [(ph, o, w, find_stems(stems, st)) for ph, o, w, st in OBJECTIVE_STEMS]
    last_hit = max((i for *_x, at in hits for i in at), default=-1)
    # a hit before the last self-correction that precedes the last hit is superseded
    cutoff = max((c for c in corrections if c < last_hit), default=-1)
    for obj_phrase, objective, weight, at in hits:
        n = len(obj_phrase.split())
        for i in at:
            if i < cutoff:
                continue
            if not any(taken[i:i + n]):
                for m in range(i, i + n):
                    taken[m] = True
                # "not in a hurry", "no rush": a negated objective word states no objective
                # ("no risk" still asks for safety); "too risky to enter" describes terrain
                if (objective != "safest" and obj_phrase not in BURDENS and any(
                        t in OBJECTIVE_NEGATORS for t in tokens[max(0, i - 2):i])) or \
                        (i and tokens[i - 1] == "too"):
                    continue
                # a manner adverb ("a person can safely walk on") weighs less than a goal
                obj_scores[objective] += weight - 1 if n == 1 and obj_phrase.endswith("ly") \
                    else weight
                first_at[objective] = min(first_at[objective], i)
    # ties go to the objective named first ("Pedestrian, shortest. ... safely ...")
    objective = max(OBJECTIVES, key=lambda o: (obj_scores[o], -first_at[o]))
    if obj_scores[objective] > 0:
        return objective, True
    return "shortest", False


@dataclass(frozen=True)
class QueryReading:
    """What :func:`read_query` read from a query.

    Attributes:
        agent: ``pedestrian``, ``car``, ``drone`` or ``boat`` (pedestrian when none named).
        objective: ``fastest``, ``comfort``, ``safest`` or ``shortest`` (shortest when none).
        allowed: conditionally traversable classes the query permits.
        excluded: classes the query forbids or leaves out by restricting the agent to named
            surfaces, always traversable ones included.
        agent_found: whether the query named an agent.
        objective_found: whether the query named an objective.
    """

    agent: str
    objective: str
    allowed: frozenset[int]
    excluded: frozenset[int]
    agent_found: bool
    objective_found: bool


def read_query(text: str, traversability: Mapping[str, tuple[frozenset[int], frozenset[int]]]
               ) -> QueryReading:
    """Read agent, objective, permissions and exclusions from a query, offline.

    Args:
        text: the query.
        traversability: per agent name, its (always, conditionally) traversable classes.
    """
    tokens = tokenize(text)
    stems = [singular_word(t) for t in tokens]
    conditional_of = {a: traversability[a][1] for a in AGENTS}
    agent, agent_found = _read_agent(tokens, stems, conditional_of)
    objective, objective_found = _read_objective(tokens, stems)
    always, conditional = traversability[agent]
    named = permissions(tokens, conditional)
    extra, excluded = surface_constraints(tokens, always)
    # a class permitted by name wins over a surface group that forbids it
    excluded = excluded - named
    allowed = frozenset((named | (extra & conditional)) - excluded)
    return QueryReading(agent, objective, allowed, frozenset(excluded & always), agent_found,
                        objective_found)
