"""The NeSy-Route LLM agent's prompt and the reading of its replies.

The prompt is ours and text-only. Its facts are the knowledge base's (:mod:`map2route.nesy.kb`):
the class order, Table 1's traversability per agent and Table 2's rankings are written out from
the same tables the ground truth is derived from, and the two worked examples' vectors are
computed by :func:`~map2route.nesy.kb.derive_vectors`, so prompt and gold cannot drift apart.
The official release's prompts (``evaluation/task{1,2}/prompts.py`` of MingYang1010/NeSy-Route)
ask for the same two vectors in the same class order; their wording is not used here.

:func:`read_reply` finds the JSON object in a reply (bare, in a fenced block, or after some
prose), and checks it: both vectors present, 8 whole numbers each, ``traverse_vector`` of 0/1,
``cost_vector`` >= 0 and 0 exactly where ``traverse_vector`` is 0. Every problem is listed, so
a repair prompt can quote them all.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from map2route.nesy.kb import (
    CLASS_NAMES,
    NUM_CLASSES,
    PREFERENCE_RANKINGS,
    TRAVERSABILITY,
    Agent,
    Objective,
    Vectors,
    derive_vectors,
)

#: What each class covers, in our words (OpenEarthMap's eight classes).
CLASS_NOTES = (
    "soil, sand or rock with no vegetation",
    "grass, shrubs and other uncultivated low vegetation (meadows, lawns, parks)",
    "paved ground that is not a road: pavements, plazas, car parks, sports grounds",
    "streets, highways, railways and runways",
    "single trees, tree rows and woodland",
    "rivers, lakes, the sea, ponds and pools",
    "crop fields, orchards, vineyards and pasture",
    "buildings of every kind",
)

#: Worked examples: (query, agent, objective, permitted conditional classes).
EXAMPLES: tuple[tuple[str, Agent, Objective, frozenset[int]], ...] = (
    ("A hiker wants the most comfortable way from the car park to the lake shore. Walking "
     "across the meadow is fine, but keep out of the woods and the crop fields.",
     Agent.PEDESTRIAN, Objective.COMFORT, frozenset({1})),
    ("A survey drone needs the safest flight to the far field; it may pass over the rooftops.",
     Agent.DRONE, Objective.SAFEST, frozenset({7})),
)

KEYS = ("traverse_vector", "cost_vector")


def _named(classes: frozenset[int] | tuple[int, ...]) -> str:
    return ", ".join(f"{CLASS_NAMES[c]} ({c})" for c in sorted(classes)) or "none"


def _ranking(agent: Agent, objective: Objective) -> str:
    tiers = PREFERENCE_RANKINGS[(agent, objective)]
    return " > ".join(" = ".join(CLASS_NAMES[c] for c in tier) for tier in tiers)


def system_prompt() -> str:
    """The system message: classes, agents, rankings, the vector rules and two examples."""
    lines = ["You turn a route-planning request over a land-cover map into two vectors of 8 "
             "integers, one entry per land-cover class, always in this order:"]
    lines += [f"  {i}: {name} - {note}" for i, (name, note) in
              enumerate(zip(CLASS_NAMES, CLASS_NOTES, strict=True))]
    lines += ["", "Each agent meets three kinds of terrain: 'always' terrain is usable unless the "
              "request forbids it or confines the agent to other surfaces; 'if permitted' "
              "terrain is usable only when the request explicitly allows it; 'never' terrain is "
              "never usable."]
    for agent in Agent:
        always, conditional, never = TRAVERSABILITY[agent]
        lines.append(f"  {agent.value}: always: {_named(always)}; if permitted: "
                     f"{_named(conditional)}; never: {_named(never)}")
    lines += ["", "Preferred terrain per agent and objective, most preferred first ('=' marks "
              "equal preference):"]
    for agent in Agent:
        for objective in Objective:
            lines.append(f"  {agent.value}, {objective.value}: {_ranking(agent, objective)}")
    lines += [
        "",
        "Steps: find the agent (pedestrian, car, drone or boat) and the objective (fastest, "
        "comfort, safest or shortest) the request describes.",
        "traverse_vector: 1 for each usable class (the agent's 'always' terrain the request "
        "does not forbid, plus the 'if permitted' terrain it allows), 0 for every other class.",
        "cost_vector: 0 wherever traverse_vector is 0. Take the agent's ranking for the "
        "objective, drop the classes that are not usable, and number the tiers that remain "
        "from 1 for the least preferred up to K for the most preferred; classes in one tier "
        "share a number. Higher means preferred.",
        "",
        'Reply with one JSON object and nothing else: {"traverse_vector": [8 integers], '
        '"cost_vector": [8 integers]}.',
    ]
    for n, (query, agent, objective, allowed) in enumerate(EXAMPLES, start=1):
        v = derive_vectors(agent, objective, allowed)
        lines += ["", f"Example {n}. Request: {query}",
                  f"Reply: {json.dumps({'traverse_vector': list(v.trav), 'cost_vector': list(v.pref)})}"]
    return "\n".join(lines)


def user_prompt(query: str, present: frozenset[int] | None = None) -> str:
    """The user message: the request, and for Task 2 the classes the image shows."""
    text = f"Request: {query.strip()}"
    if present is not None:
        text += ("\n\nThe map shows only these classes: " + _named(present)
                 + ". Every class it does not show gets 0 in both vectors.")
    return text


def repair_prompt(issues: list[str]) -> str:
    """The message after an unusable reply: what was wrong, and the format again."""
    listed = "\n".join(f"- {i}" for i in issues)
    return (f"That reply could not be used:\n{listed}\nAnswer again with only the JSON object "
            '{"traverse_vector": [8 integers], "cost_vector": [8 integers]}.')


@dataclass(frozen=True)
class ReadReply:
    """What :func:`read_reply` made of a reply: the vectors, or the problems found."""

    vectors: Vectors | None
    issues: tuple[str, ...] = ()


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S | re.I)


def _json_object(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """The first JSON object in ``text`` holding a vector key (else the first object at all)."""
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    decoder = json.JSONDecoder()
    first: dict[str, Any] | None = None
    error: str | None = None
    for chunk in candidates:
        for start in (i for i, ch in enumerate(chunk) if ch == "{"):
            try:
                obj, _end = decoder.raw_decode(chunk, start)
            except json.JSONDecodeError as err:
                error = error or f"the JSON does not parse ({err.msg} at character {err.pos})"
                continue
            if not isinstance(obj, dict):
                continue
            if any(k in obj for k in KEYS):
                return obj, None
            first = first or obj
    return first, error


def _vector(obj: dict[str, Any], key: str, issues: list[str]) -> list[int] | None:
    if key not in obj:
        issues.append(f"{key} is missing")
        return None
    value = obj[key]
    if not isinstance(value, list) or len(value) != NUM_CLASSES:
        got = f"{len(value)} entries" if isinstance(value, list) else type(value).__name__
        issues.append(f"{key} must be a list of {NUM_CLASSES} integers, got {got}")
        return None
    out: list[int] = []
    for i, x in enumerate(value):
        if isinstance(x, bool) or not isinstance(x, int | float) or x != int(x) or x < 0:
            issues.append(f"{key}[{i}] must be a whole number >= 0, got {json.dumps(x)}")
            return None
        out.append(int(x))
    return out


def read_reply(text: str) -> ReadReply:
    """The vectors in a reply, or every problem that keeps it from being used."""
    obj, error = _json_object(text)
    if obj is None:
        return ReadReply(None, (error or "no JSON object found in the reply",))
    issues: list[str] = []
    trav = _vector(obj, "traverse_vector", issues)
    pref = _vector(obj, "cost_vector", issues)
    if trav is not None:
        bad = [i for i, x in enumerate(trav) if x not in (0, 1)]
        if bad:
            issues.append(f"traverse_vector entries must be 0 or 1 (index {bad[0]} is "
                          f"{trav[bad[0]]})")
    if trav is not None and pref is not None and not issues:
        wrong = [i for i in range(NUM_CLASSES) if (trav[i] == 0) != (pref[i] == 0)]
        if wrong:
            issues.append("cost_vector must be 0 exactly where traverse_vector is 0 (class "
                          f"{wrong[0]}, {CLASS_NAMES[wrong[0]]}: traverse {trav[wrong[0]]}, "
                          f"cost {pref[wrong[0]]})")
    if issues or trav is None or pref is None:
        return ReadReply(None, tuple(issues))
    return ReadReply(Vectors(tuple(trav), tuple(pref)))
