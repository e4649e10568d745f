"""The navigator loop: execute sub-goals one at a time over local views (GROKE, Sec. 3.2).

An :class:`Agent` splits the instruction into sub-goals, then, at every step, sees the current
sub-goal and the local view and answers a :class:`Decision`: the nodes to move along (each
step a link of the graph) and whether the sub-goal is now ``COMPLETED``. The loop stops when
every sub-goal is done, after more than ``max_steps`` steps, or after more than
``max_retries`` steps on one sub-goal (GROKE's three stop conditions).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from map2route.language.directions import SubGoal
from map2route.streets.errors import StreetError
from map2route.streets.graph import StreetGraph
from map2route.streets.view import LIGHT_RADIUS_M, LocalView, build_view

COMPLETED = "COMPLETED"
IN_PROGRESS = "IN_PROGRESS"


@dataclass(frozen=True)
class FollowConfig:
    """Navigator settings (GROKE's stop conditions and view size).

    Attributes:
        max_steps: stop after more than this many steps.
        max_retries: stop after more than this many steps on one sub-goal.
        view_depth: ``u``, intersections in a local view.
        light_radius_m: an intersection with a traffic-signal POI this close is a light.
    """

    max_steps: int = 100
    max_retries: int = 15
    view_depth: int = 3
    light_radius_m: float = LIGHT_RADIUS_M


@dataclass(frozen=True)
class Observation:
    """What an agent gets at one step."""

    graph: StreetGraph
    instruction: str
    subgoals: tuple[SubGoal, ...]
    index: int
    view: LocalView
    path: tuple[int, ...]
    heading: float
    step: int
    retries: int
    config: FollowConfig

    @property
    def subgoal(self) -> SubGoal:
        """The sub-goal being executed."""
        return self.subgoals[self.index]


@dataclass(frozen=True)
class Decision:
    """An agent's answer: nodes to move along (from the current node) and the status."""

    status: str
    moves: tuple[int, ...] = ()
    note: str = ""


class Agent(Protocol):
    """A street follower: ``heuristic``, ``offline`` or ``llm``."""

    name: str

    def decompose(self, instruction: str) -> list[SubGoal]:
        """Split the instruction into sub-goals."""
        ...

    def reset(self) -> None:
        """Forget everything about the previous instruction."""
        ...

    def act(self, obs: Observation) -> Decision:
        """Decide the next move for ``obs.subgoal``."""
        ...


@dataclass
class FollowResult:
    """A followed trajectory and why it ended."""

    path: list[int]
    subgoals: list[SubGoal]
    steps: int
    stop_reason: str
    notes: list[str] = field(default_factory=list)

    def to_dict(self, graph: StreetGraph) -> dict[str, Any]:
        """JSON-ready: node ids, sub-goal texts, step count, stop reason."""
        return {"path": [graph.node_ids[i] for i in self.path],
                "subgoals": [g.describe() for g in self.subgoals], "steps": self.steps,
                "stop_reason": self.stop_reason}


def follow(graph: StreetGraph, instruction: str, start: int, heading: float, agent: Agent, *,
           config: FollowConfig | None = None, stop_at_nodes: int | None = None) -> FollowResult:
    """Follow ``instruction`` from ``start`` facing ``heading`` with ``agent``.

    ``stop_at_nodes`` ends the walk as soon as the path holds that many nodes: the stop rule of
    GROKE's heuristic baseline, which is told the reference path's length (an oracle).

    Raises:
        StreetError: when the agent moves along a link the graph does not have.
    """
    cfg = config or FollowConfig()
    agent.reset()
    subgoals = tuple(agent.decompose(instruction))
    path = [start]
    h = float(heading)
    index, steps, retries = 0, 0, 0
    notes: list[str] = []
    reason = "all sub-goals completed"
    while index < len(subgoals):
        if steps >= cfg.max_steps:
            reason = f"more than {cfg.max_steps} steps"
            break
        view = build_view(graph, path[-1], h, previous=path, depth=cfg.view_depth,
                          light_radius_m=cfg.light_radius_m)
        obs = Observation(graph, instruction, subgoals, index, view, tuple(path), h, steps,
                          retries, cfg)
        decision = agent.act(obs)
        steps += 1
        if decision.note:
            notes.append(decision.note)
        h = _apply_moves(graph, path, h, decision.moves, agent.name)
        if stop_at_nodes is not None and len(path) >= stop_at_nodes:
            del path[max(stop_at_nodes, 1):]
            reason = f"reference length reached ({stop_at_nodes} nodes, told by the oracle)"
            break
        if decision.status == COMPLETED:
            index += 1
            retries = 0
        else:
            retries += 1
            if retries > cfg.max_retries:
                reason = f"more than {cfg.max_retries} retries of sub-goal {index + 1}"
                break
    return FollowResult(path, list(subgoals), steps, reason, notes)


def _apply_moves(graph: StreetGraph, path: list[int], heading: float, moves: Sequence[int],
                 agent_name: str) -> float:
    h = heading
    for target in moves:
        cur = path[-1]
        if target == cur:
            continue
        if not graph.has_link(cur, target):
            msg = (f"agent {agent_name!r} moved {graph.node_ids[cur]} -> "
                   f"{graph.node_ids[target]}, which is not a link of {graph.name}")
            raise StreetError(msg)
        h = graph.heading(cur, target)
        path.append(target)
    return h
