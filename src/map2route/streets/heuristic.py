"""GROKE's heuristic baseline: regular expressions plus angles (18 % SR in the paper).

It reads only the turn phrases ("turn left", "make a right") in order, with an ordinal when
one follows ("at the second light/intersection"), and takes each at the N-th intersection
ahead (N = 1 without an ordinal) through the link closest to 90 degrees on that side (angles
only: no clustering, no traffic signals, no landmarks). It stops a fixed number of nodes
after the last turn.
"""

from __future__ import annotations

import re

from map2route.streets.geo import heading_delta
from map2route.streets.navigator import COMPLETED, IN_PROGRESS, Decision, Observation
from map2route.streets.subgoals import ORDINAL_WORDS, Action, Condition, SubGoal, normalise

_TURN_WORD_RE = re.compile(
    r"\b(?:turn|make a|take a|hang a|go)\s+(left|right)\b"
    r"(?:\s+(?:at|on)\s+the\s+(first|second|third|fourth|1st|2nd|3rd|4th)\b)?")
#: Nodes walked after the last turn before stopping (the median Map2Seq final leg).
STOP_AFTER_NODES = 7


class HeuristicAgent:
    """Regex + angles baseline (see the module docstring)."""

    name = "heuristic"

    def __init__(self) -> None:
        self.remaining = 0

    def reset(self) -> None:
        """Forget the intersection count of the previous instruction."""
        self.remaining = 0

    def decompose(self, instruction: str) -> list[SubGoal]:
        """One TURN per turn phrase, in order, then STOP."""
        goals = []
        for m in _TURN_WORD_RE.finditer(normalise(instruction)):
            count = ORDINAL_WORDS.get(m.group(2) or "", 1)
            goals.append(SubGoal(Action.TURN_LEFT if m.group(1) == "left" else Action.TURN_RIGHT,
                                 m.group(0), Condition(feature="intersection", count=count)))
        goals.append(SubGoal(Action.STOP, "stop", Condition()))
        return goals

    def act(self, obs: Observation) -> Decision:
        """Turn at the N-th intersection with a matching link, else walk on."""
        view = obs.view
        nodes = [v.node for v in view.path]
        if obs.subgoal.action == Action.STOP:
            return Decision(COMPLETED, tuple(nodes[1:1 + STOP_AFTER_NODES]))
        if obs.retries == 0:
            self.remaining = max(obs.subgoal.condition.count, 1)
        side = -1 if obs.subgoal.action == Action.TURN_LEFT else 1
        for k, v in enumerate(view.path):
            if k == 0 or not v.intersection:
                continue
            self.remaining -= 1
            if self.remaining > 0:
                continue
            best = min(((abs(abs(heading_delta(c.heading, v.heading)) - 90), c.target)
                        for c in v.connections
                        if heading_delta(c.heading, v.heading) * side > 0
                        and abs(abs(heading_delta(c.heading, v.heading)) - 90) <= 45),
                       default=None)
            if best is not None:
                return Decision(COMPLETED, tuple(nodes[1:k + 1]) + (best[1],))
            self.remaining = 1  # no such turn here: try the next intersection
        if len(nodes) <= 1:
            return Decision(COMPLETED, (), note="dead end")
        return Decision(IN_PROGRESS, tuple(nodes[1:]))
