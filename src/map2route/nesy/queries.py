"""Natural-language NeSy-Route queries: a template writer, an LLM writer with the paper's
self-check (Eq. 4), and :func:`parse_query`, the offline parser our solver uses (query ->
agent, objective, permissions and exclusions -> vectors), whose rules live in
:mod:`map2route.language.nesy`.

A query configuration is ``sigma = (agent, objective, C_start/end, C_allowed)`` (section 3.3.1);
``C_allowed`` holds the conditionally traversable classes the query explicitly permits. Every
query states its permissions in words; start and end classes appear only in a "from ... to ..."
phrase, which the parser strips before reading permissions.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from map2route.language.nesy import read_query
from map2route.nesy.errors import NesyError
from map2route.nesy.kb import (
    CLASS_NAMES,
    TRAVERSABILITY,
    Agent,
    Objective,
    Vectors,
    derive_vectors,
)

if TYPE_CHECKING:
    from map2route.llm import ChatClient


@dataclass(frozen=True)
class QuerySpec:
    """A sampled configuration sigma (section 3.3.1)."""

    agent: Agent
    objective: Objective
    allowed: frozenset[int]
    start_class: int
    end_class: int
    #: Classes the query forbids, always traversable ones included.
    excluded: frozenset[int] = frozenset()

    def vectors(self) -> Vectors:
        """Ground-truth vectors ``f_KB(sigma)`` (Eq. 3)."""
        return derive_vectors(self.agent, self.objective, self.allowed, excluded=self.excluded)


@dataclass(frozen=True)
class ParsedQuery:
    """What the offline parser read from a query."""

    agent: Agent
    objective: Objective
    allowed: frozenset[int]
    agent_found: bool
    objective_found: bool
    #: Classes the query forbids, always traversable ones included.
    excluded: frozenset[int] = frozenset()

    def vectors(self) -> Vectors:
        return derive_vectors(self.agent, self.objective, self.allowed, excluded=self.excluded)


# --- the template writer ------------------------------------------------------------------------
AGENT_NOUNS = {
    Agent.PEDESTRIAN: ["a hiker", "a pedestrian", "a field surveyor on foot", "a rescue worker on foot",
                       "a jogger", "a walker", "a backpacker", "an ecologist walking the site"],
    Agent.CAR: ["a car", "an off-road vehicle", "an ambulance", "a delivery van", "a truck",
                "a patrol car", "a 4x4", "a fire engine"],
    Agent.DRONE: ["a drone", "a UAV", "a quadcopter", "a survey drone", "an unmanned aerial vehicle"],
    Agent.BOAT: ["a boat", "a rescue boat", "a kayak", "a patrol vessel", "a motorboat", "a canoe"],
}
OBJECTIVE_PHRASES = {
    Objective.FASTEST: ["the fastest route", "the quickest way", "a route that gets there as fast as "
                        "possible", "the route with the least travel time", "the quickest path"],
    Objective.COMFORT: ["the most comfortable route", "the most pleasant way", "the smoothest, most "
                        "comfortable path", "an easy and comfortable route"],
    Objective.SAFEST: ["the safest route", "the least risky path", "the safest possible way",
                       "a route that minimises risk"],
    Objective.SHORTEST: ["the shortest route", "the most direct path", "the route of minimum "
                         "distance", "the shortest path"],
}
CLASS_PHRASES = {
    0: ["bare land", "bare ground", "barren land", "bare soil"],
    1: ["rangeland", "grassland", "meadows", "grass and scrub"],
    2: ["developed areas", "paved developed land", "built-up areas"],
    3: ["roads", "the road network", "streets"],
    4: ["trees", "forest", "woodland", "wooded areas"],
    5: ["water", "open water", "the lake"],
    6: ["agricultural land", "farmland", "crop fields", "cultivated fields"],
    7: ["buildings", "rooftops", "built structures"],
}
PLACE_PHRASES = {
    0: ["the bare land", "the patch of bare ground"], 1: ["the rangeland", "the grassland"],
    2: ["the developed area", "the built-up area"], 3: ["the road", "the main road"],
    4: ["the forest", "the woods"], 5: ["the water", "the lake"],
    6: ["the farmland", "the fields"], 7: ["the building", "the building block"],
}
ALLOW_TEMPLATES = ["It may cross {x}.", "Crossing {x} is permitted.", "Passing through {x} is allowed.",
                   "It is fine to go over {x}.", "Travel across {x} is acceptable."]
DENY_TEMPLATES = ["It must stay out of {x}.", "{X} is off limits.", "It must not enter {x}.",
                  "Avoid {x}."]
ONLY_DEFAULT = ["Keep to the always-passable terrain only.", "No other terrain is permitted."]


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def write_query(spec: QuerySpec, rng: random.Random) -> str:
    """A natural-language query for ``spec`` from varied templates (no LLM needed)."""
    who = rng.choice(AGENT_NOUNS[spec.agent])
    goal = rng.choice(OBJECTIVE_PHRASES[spec.objective])
    src = rng.choice(PLACE_PHRASES[spec.start_class])
    dst = rng.choice(PLACE_PHRASES[spec.end_class])
    if spec.start_class == spec.end_class:
        src, dst = f"one side of {src[4:]}", "the other side"
    opener = rng.choice([
        f"Plan {goal} for {who} from {src} to {dst}.",
        f"{who[0].upper() + who[1:]} must travel from {src} to {dst} and needs {goal}.",
        f"Find {goal} for {who} going from {src} to {dst}.",
        f"We are sending {who} from {src} to {dst}; we want {goal}.",
    ])
    parts = [opener]
    cond = sorted(TRAVERSABILITY[spec.agent][1])
    allowed = [c for c in cond if c in spec.allowed]
    denied = [c for c in cond if c not in spec.allowed]
    if allowed:
        x = _join([rng.choice(CLASS_PHRASES[c]) for c in allowed])
        parts.append(rng.choice(ALLOW_TEMPLATES).format(x=x, X=x[0].upper() + x[1:]))
    if denied and (not allowed or rng.random() < 0.6):
        x = _join([rng.choice(CLASS_PHRASES[c]) for c in denied])
        parts.append(rng.choice(DENY_TEMPLATES).format(x=x, X=x[0].upper() + x[1:]))
    elif not allowed and cond:
        parts.append(rng.choice(ONLY_DEFAULT))
    return " ".join(parts)


# --- the LLM writer with self-check (Eq. 4) ------------------------------------------------------
WRITER_PROMPT = (
    "Write one realistic route-planning request (2-4 sentences, a small mission scenario) for "
    "this configuration. Agent: {agent}. Objective: {objective}. Start on {start}; end on {end}. "
    "The agent may explicitly use these normally-restricted terrains: {allowed}. It must not use: "
    "{denied}. State every permission and restriction in plain words. Reply with the text only."
)
CHECK_PROMPT = (
    "Read the route-planning request and answer with JSON only: {{\"agent\": one of "
    "pedestrian|car|drone|boat, \"objective\": one of fastest|comfort|safest|shortest, "
    "\"allowed\": list of the terrains the text explicitly permits, from "
    "bareland|rangeland|tree|agriculture|building}}.\n\nRequest: {query}"
)


def _spec_words(spec: QuerySpec) -> dict[str, str]:
    cond = sorted(TRAVERSABILITY[spec.agent][1])
    allowed = [CLASS_NAMES[c] for c in cond if c in spec.allowed] or ["none"]
    denied = [CLASS_NAMES[c] for c in cond if c not in spec.allowed] or ["none"]
    return {"agent": spec.agent.value, "objective": spec.objective.value,
            "start": CLASS_NAMES[spec.start_class], "end": CLASS_NAMES[spec.end_class],
            "allowed": ", ".join(allowed), "denied": ", ".join(denied)}


def self_infer(client: ChatClient, query: str) -> Vectors | None:
    """``P_self(Q)``: ask the model to re-derive the configuration, then the KB gives vectors.

    Returns:
        The re-derived vectors, or None if the reply is not the asked-for JSON.
    """
    reply = client.complete([{"role": "user", "content": CHECK_PROMPT.format(query=query)}])
    match = re.search(r"\{.*\}", reply, flags=re.S)
    if not match:
        return None
    try:
        data: Any = json.loads(match.group(0))
        agent = Agent(str(data["agent"]).lower())
        objective = Objective(str(data["objective"]).lower())
        allowed = {CLASS_NAMES.index(str(n).lower()) for n in data.get("allowed", [])}
        return derive_vectors(agent, objective, allowed)
    except (KeyError, ValueError, TypeError, NesyError):
        return None


def llm_write_query(client: ChatClient, spec: QuerySpec, *, attempts: int = 3) -> str:
    """Write ``Q = M(sigma)`` with an LLM and keep it only if ``P_self(Q)`` matches the KB.

    Raises:
        NesyError: if no attempt passes the self-check.
    """
    gt = spec.vectors()
    prompt = WRITER_PROMPT.format(**_spec_words(spec))
    for attempt in range(attempts):
        query = client.complete([{"role": "user", "content": prompt}],
                                temperature=0.7 if attempt else 0.3).strip()
        if query and self_infer(client, query) == gt:
            return query
    msg = (f"the LLM writer produced no query whose self-inferred vectors match the KB for "
           f"{spec.agent.value}/{spec.objective.value} after {attempts} attempts; check the model "
           f"or use the template writer (omit --llm-config)")
    raise NesyError(msg)


# --- the offline parser ------------------------------------------------------------------------
#: Each agent's (always, conditionally) traversable classes, as the reader takes them.
_TRAVERSABILITY_BY_NAME = {a.value: (TRAVERSABILITY[a][0], TRAVERSABILITY[a][1]) for a in Agent}


def parse_query(text: str) -> ParsedQuery:
    """Read agent, objective, permissions and exclusions from a query, offline.

    The rules live in :mod:`map2route.language.nesy`; this wraps its reading in the knowledge
    base's types. Unrecognised agent or objective falls back to pedestrian / shortest,
    flagged in the result.
    """
    r = read_query(text, _TRAVERSABILITY_BY_NAME)
    return ParsedQuery(Agent(r.agent), Objective(r.objective), r.allowed, r.agent_found,
                       r.objective_found, r.excluded)
