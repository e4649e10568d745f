"""GROKE's heuristic baseline: regular expressions for turn words plus angles (18 % SR there).

It reads only the order of "left"/"right" turn phrases, takes each at the next intersection
that offers a link within 45 degrees of that side (by the link angle alone), ignores counts
and landmarks, and stops a fixed few nodes after the last turn.
"""

from __future__ import annotations

import re

from map2route.streets.geo import heading_delta
from map2route.streets.navigator import COMPLETED, IN_PROGRESS, Decision, Observation
from map2route.streets.subgoals import Action, Condition, SubGoal, normalise

_TURN_WORD_RE = re.compile(r"\b(?:turn|make a|take a|hang a|go)\s+(left|right)\b")
#: Nodes walked after the last turn before stopping.
STOP_AFTER_NODES = 3


class HeuristicAgent:
    """Regex + angles baseline (see the module docstring)."""

    name = "heuristic"

    def reset(self) -> None:
        """Nothing to forget."""

    def decompose(self, instruction: str) -> list[SubGoal]:
        """One TURN per turn phrase, in order, then STOP."""
        goals = [SubGoal(Action.TURN_LEFT if m.group(1) == "left" else Action.TURN_RIGHT,
                         m.group(0), Condition(feature="intersection", count=1, relative=True))
                 for m in _TURN_WORD_RE.finditer(normalise(instruction))]
        goals.append(SubGoal(Action.STOP, "stop", Condition()))
        return goals

    def act(self, obs: Observation) -> Decision:
        """Turn at the next intersection with a matching link, else walk on."""
        view = obs.view
        nodes = [v.node for v in view.path]
        if obs.subgoal.action == Action.STOP:
            return Decision(COMPLETED, tuple(nodes[1:1 + STOP_AFTER_NODES]))
        side = -1 if obs.subgoal.action == Action.TURN_LEFT else 1
        for k, v in enumerate(view.path):
            if k == 0 or not v.intersection:
                continue
            for c in v.connections:
                delta = heading_delta(c.heading, v.heading)
                if delta * side > 0 and abs(abs(delta) - 90) <= 45:
                    return Decision(COMPLETED, tuple(nodes[1:k + 1]) + (c.target,))
        if len(nodes) <= 1:
            return Decision(COMPLETED, (), note="dead end")
        return Decision(IN_PROGRESS, tuple(nodes[1:]))
