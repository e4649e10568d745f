"""The LLM navigator: GROKE's two agents as prompts over the JSON local view.

The sub-instruction agent asks the model for ``[{"action", "description"}]`` (GROKE's own
divider answer, ``{"landmarks": [...], "sub_goals": [...]}``, is read too); the navigator
sends the instruction, the current sub-goal and the local view as JSON and expects
``{"status": "COMPLETED"|"IN_PROGRESS", "next_node": "<id of a node in view>"}`` (or
GROKE's ``{"SubPlan_Status", "Next_Place": {"Target_Node_ID"}}``). The agent walks the view
path to that node (or along one connection out of a view node).

The model is reached through anything with ``complete(messages, temperature=...)``
(:class:`Completer`): :class:`map2route.llm.ChatClient` for any OpenAI-compatible server, or
a caching / token-counting client with the same method. :attr:`LLMAgent.usage` counts calls
and characters sent and received; a client that reports tokens can add them there.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from map2route.language.directions import Action, Condition, SubGoal
from map2route.streets.errors import StreetError
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
    "Execute only the current sub-goal. Answer only JSON: "
    '{"status": "COMPLETED" or "IN_PROGRESS", "next_node": "<a node id from path_nodes or '
    'one of their connections>", "reason": "<short>"}.')

_JSON_RE = re.compile(r"(\{.*\}|\[.*\])", re.S)


def _parse_json(text: str) -> Any:
    m = _JSON_RE.search(text)
    if not m:
        raise ValueError("no JSON in the reply")
    return json.loads(m.group(1))


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

    def __init__(self, client: Completer, *, temperature: float = 0.0) -> None:
        self.client = client
        self.temperature = temperature
        self.usage = LLMUsage()

    def reset(self) -> None:
        """The model keeps no memory between calls (usage keeps counting)."""

    def _ask(self, system: str, user: str) -> str:
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        reply = self.client.complete(messages, temperature=self.temperature)
        self.usage.calls += 1
        self.usage.prompt_chars += len(system) + len(user)
        self.usage.reply_chars += len(reply)
        return reply

    def decompose(self, instruction: str) -> list[SubGoal]:
        """Ask the model for sub-goals.

        Raises:
            StreetError: when the reply is not the asked JSON list.
        """
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
            "local_view": obs.view.to_dict(graph)}, ensure_ascii=False)
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
