"""The LLM navigator: GROKE's two agents as prompts over the JSON local view.

The sub-instruction agent asks the model for ``[{"action", "description"}]`` (GROKE's own
divider answer, ``{"landmarks": [...], "sub_goals": [...]}``, is read too); the navigator
sends the instruction, the current sub-goal and the local view as JSON and expects
``{"status": "COMPLETED"|"IN_PROGRESS", "next_node": "<id of a node in view>"}`` (or
GROKE's ``{"SubPlan_Status", "Next_Place": {"Target_Node_ID"}}``). The agent walks the view
path to that node (or along one connection out of a view node).

Sub-goals come from the model (GROKE's sub-instruction agent, ``subgoals="llm"``) or from
the offline parser (``subgoals="offline"``: :func:`map2route.language.directions.decompose`,
one call fewer per instruction). Every navigator prompt carries, besides the view, the POIs
of the view that the current sub-goal or the instruction names (``landmarks_mentioned``,
matched with RapidFuzz as GROKE does, :func:`map2route.streets.landmarks.poi_match_score`), so
a small model need not match names itself. Touchdown panoramas carry no street names; the
outgoing streets are given by heading and turn word.

The model is reached through anything with ``complete(messages, temperature=...)``
(:class:`Completer`): :class:`map2route.llm.ChatClient` for any OpenAI-compatible server, or
the benchmark's caching, token-counting :class:`map2route.llm.metered.MeteredClient`.
:attr:`LLMAgent.usage` counts calls and characters sent and received.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from map2route.language.directions import Action, Condition, SubGoal, decompose, normalise
from map2route.streets.errors import StreetError
from map2route.streets.landmarks import KIND_MATCH_SCORE, poi_match_score
from map2route.streets.navigator import COMPLETED, IN_PROGRESS, Decision, Observation

DECOMPOSE_PROMPT = (
    "Split this outdoor navigation instruction into atomic sub-goals. Each sub-goal has an "
    "action, one of MOVE_FORWARD, TURN_LEFT, TURN_RIGHT, STOP, and a short description that "
    "keeps its landmark condition (e.g. 'at the second light', 'past the Starbucks'). The last "
    'one is STOP. Answer only JSON: [{"action": "...", "description": "..."}].')
NAVIGATE_PROMPT = (
    "You are walking on a street graph. Headings are degrees clockwise from north. The local "
    "view lists the path nodes straight ahead (type, heading, connections with their turn) "
    "and the POIs near them (direction relative to your heading, distance in metres). "
    "landmarks_mentioned lists the POIs in view that the instruction names. "
    "Execute only the current sub-goal. Answer only JSON: "
    '{"status": "COMPLETED" or "IN_PROGRESS", "next_node": "<a node id from path_nodes or '
    'one of their connections>", "reason": "<short>"}.')

_JSON_RE = re.compile(r"(\{.*\}|\[.*\])", re.S)


def _parse_json(text: str) -> Any:
    m = _JSON_RE.search(text)
    if not m:
        raise ValueError("no JSON in the reply")
    return json.loads(m.group(1))


#: Where sub-goals come from: the model (GROKE) or the offline rule parser.
SUBGOAL_SOURCES = ("llm", "offline")


def mentioned_landmarks(obs: Observation) -> list[dict[str, Any]]:
    """The view's POIs named by the current sub-goal or else the instruction, best match first.

    Each entry: the view letter, name, near node, direction, distance, RapidFuzz score, and
    where the name was found (``current_sub_goal`` or ``instruction``).
    """
    graph, view = obs.graph, obs.view
    texts = (("current_sub_goal", normalise(obs.subgoal.text)),
             ("instruction", normalise(obs.instruction)))
    out: list[dict[str, Any]] = []
    for p in view.pois:
        poi = graph.pois[p.poi]
        for where, text in texts:
            score = poi_match_score(poi, text)
            if score >= KIND_MATCH_SCORE:
                out.append({"id": p.letter, "name": poi.label,
                            "near_node": graph.node_ids[view.path[p.position].node],
                            "direction": p.direction, "distance_m": round(p.distance_m, 1),
                            "match": round(score, 1), "named_in": where})
                break
    out.sort(key=lambda e: (e["named_in"] != "current_sub_goal", -e["match"], e["distance_m"]))
    return out


class Completer(Protocol):
    """What the agent needs of an LLM client (:class:`map2route.llm.ChatClient` has it)."""

    def complete(self, messages: list[dict[str, str]], *, temperature: float = 0.0,
                 max_tokens: int | None = None) -> str:
        """The reply text to ``messages``."""
        ...


@dataclass
class LLMUsage:
    """What the agent sent to the model so far: calls and characters (prompt and reply)."""

    calls: int = 0
    prompt_chars: int = 0
    reply_chars: int = 0

    def to_dict(self) -> dict[str, int]:
        """Field name -> count."""
        return asdict(self)


class LLMAgent:
    """GROKE's sub-instruction and navigator agents over an OpenAI-compatible endpoint."""

    name = "llm"

    def __init__(self, client: Completer, *, temperature: float = 0.0,
                 max_tokens: int | None = None, subgoals: str = "llm") -> None:
        if subgoals not in SUBGOAL_SOURCES:
            msg = (f"unknown sub-goal source {subgoals!r}; choose one of "
                   f"{', '.join(SUBGOAL_SOURCES)}")
            raise StreetError(msg)
        self.client = client
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.subgoals = subgoals
        self.usage = LLMUsage()

    def reset(self) -> None:
        """The model keeps no memory between calls (usage keeps counting)."""

    def _ask(self, system: str, user: str) -> str:
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        reply = self.client.complete(messages, temperature=self.temperature,
                                     max_tokens=self.max_tokens)
        self.usage.calls += 1
        self.usage.prompt_chars += len(system) + len(user)
        self.usage.reply_chars += len(reply)
        return reply

    def decompose(self, instruction: str) -> list[SubGoal]:
        """Ask the model for sub-goals (or parse them offline, ``subgoals="offline"``).

        Raises:
            StreetError: when the reply is not the asked JSON list.
        """
        if self.subgoals == "offline":
            return decompose(instruction)
        reply = self._ask(DECOMPOSE_PROMPT, instruction)
        try:
            items = _parse_json(reply)
            if isinstance(items, dict):  # GROKE's divider: {"landmarks", "sub_goals"}
                items = items["sub_goals"]
            goals = [SubGoal(Action(str(it["action"]).upper()), str(it["description"]),
                             Condition()) for it in items]
        except (ValueError, KeyError, TypeError) as err:
            msg = (f"LLM sub-goal reply is not a JSON list of {{action, description}} "
                   f"({err}): {reply[:200]!r}")
            raise StreetError(msg) from None
        if not goals or goals[-1].action != Action.STOP:
            goals.append(SubGoal(Action.STOP, "stop", Condition()))
        return goals

    def act(self, obs: Observation) -> Decision:
        """One navigator call; an unusable answer is a retry without moving."""
        graph = obs.graph
        user = json.dumps({
            "instruction": obs.instruction,
            "sub_goals": [g.describe() for g in obs.subgoals],
            "current_sub_goal": obs.subgoal.describe(),
            "local_view": obs.view.to_dict(graph),
            "landmarks_mentioned": mentioned_landmarks(obs)}, ensure_ascii=False)
        reply = self._ask(NAVIGATE_PROMPT, user)
        try:
            answer = _parse_json(reply)
            status = str(answer.get("status", answer.get("SubPlan_Status", IN_PROGRESS))).upper()
            place = answer.get("next_node", answer.get("Next_Place", ""))
            if isinstance(place, dict):
                place = place.get("Target_Node_ID", "")
            target = str(place)
        except (ValueError, AttributeError) as err:
            return Decision(IN_PROGRESS, (), note=f"unusable LLM answer ({err})")
        status = COMPLETED if status == COMPLETED else IN_PROGRESS
        nodes = [v.node for v in obs.view.path]
        ids = [graph.node_ids[n] for n in nodes]
        if not target or target == ids[0]:
            return Decision(status, ())
        if target in ids:
            return Decision(status, tuple(nodes[1:ids.index(target) + 1]))
        for k, v in enumerate(obs.view.path):
            for c in v.connections:
                if graph.node_ids[c.target] == target:
                    return Decision(status, tuple(nodes[1:k + 1]) + (c.target,))
        return Decision(IN_PROGRESS, (), note=f"LLM chose {target!r}, not in the view")
