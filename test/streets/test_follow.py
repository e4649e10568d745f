"""Following instructions on the grid with the offline and heuristic agents."""

from __future__ import annotations

import pytest

from map2route.language.directions import Action, Condition, SubGoal
from map2route.streets.errors import StreetError
from map2route.streets.graph import StreetGraph
from map2route.streets.heuristic import HeuristicAgent
from map2route.streets.navigator import Decision, FollowConfig, follow
from map2route.streets.offline import OfflineAgent


def end(city: StreetGraph, text: str, start: str = "x0y0", heading: float = 90.0) -> str:
    result = follow(city, text, city.node(start), heading, OfflineAgent())
    return city.node_ids[result.path[-1]]


@pytest.mark.parametrize(("text", "goals"), [
    ("Turn left at the first light and stop at Starbucks on your right.", {"x100y80"}),
    ("Go through one intersection and turn left at the next light. Stop at Starbucks.",
     {"x100y80"}),
    ("Turn left at the first intersection. Stop halfway down the block.", {"x50y70", "x50y80"}),
    ("Go to the light and turn left. Stop a few steps after turning.", {"x100y70"}),
    ("Walk to the end of the road and turn left. Stop at the Starbucks.", {"x100y80"}),
], ids=["light-landmark", "through-then-next", "halfway", "few-steps", "t-junction"])
def test_offline_reaches_the_goal(city: StreetGraph, text: str, goals: set[str]) -> None:
    assert end(city, text, start="x0y50") in goals


def test_offline_stops_past_a_landmark(city: StreetGraph) -> None:
    assert end(city, "Walk past the bank and stop.") == "x80y0"


def test_heuristic_counts_lights_and_intersections(city: StreetGraph) -> None:
    def names(text: str) -> list[str]:
        result = follow(city, text, city.node("x0y50"), 90.0, HeuristicAgent())
        return [city.node_ids[i] for i in result.path]

    # x50y50 is a plain crossing, x100y50 has a signal (sig3).
    assert "x50y60" in names("Walk to the intersection and turn left.")
    assert "x100y60" in names("Walk to the light and turn left.")
    assert "x100y60" in names("Turn left at the second intersection.")
    # the ordinal before the turn phrase, and crossings passed first
    assert "x100y60" in names("Head to the second intersection and make a left.")
    assert "x100y60" in names("Go through one intersection and turn left at the next.")


def test_heuristic_decomposes_turns_with_counts() -> None:
    goals = HeuristicAgent().decompose(
        "Go straight through two lights and turn right at the next. Take a left. Stop.")
    assert [(g.action, g.condition.feature, g.condition.count) for g in goals] == [
        (Action.TURN_RIGHT, "light", 3), (Action.TURN_LEFT, "intersection", 1),
        (Action.STOP, "", 0)]


class _Stubborn:
    """An agent that never completes its sub-goal (to test the retry limit)."""

    name = "stubborn"

    def reset(self) -> None:
        pass

    def decompose(self, instruction: str) -> list[SubGoal]:
        return [SubGoal(Action.MOVE_FORWARD, instruction, Condition())]

    def act(self, obs) -> Decision:
        return Decision("IN_PROGRESS", ())


class _Teleporter(_Stubborn):
    def act(self, obs) -> Decision:
        return Decision("COMPLETED", (obs.graph.node("x100y100"),))


def test_stop_conditions(city: StreetGraph) -> None:
    r = follow(city, "go", city.node("x0y0"), 90.0, _Stubborn())
    assert r.stop_reason == "more than 15 retries of sub-goal 1" and r.steps == 16
    r = follow(city, "go", city.node("x0y0"), 90.0, _Stubborn(),
               config=FollowConfig(max_steps=5, max_retries=50))
    assert r.stop_reason == "more than 5 steps" and r.steps == 5


def test_illegal_moves_are_refused(city: StreetGraph) -> None:
    with pytest.raises(StreetError, match="not a link"):
        follow(city, "go", city.node("x0y0"), 90.0, _Teleporter())


def test_too_far_landmark_bounds_the_stop(city: StreetGraph) -> None:
    # No stop landmark to go by; the bank (x70y0) is "too far": stop two nodes before it.
    text = "Walk east. Stop. If you reach Chase, you've gone too far."
    assert end(city, text) == "x50y0"


def test_stop_after_blocks(city: StreetGraph) -> None:
    assert end(city, "Walk 1.5 blocks to reach the goal.", start="x0y50") == "x80y50"


def test_relative_counts_survive_several_views(line) -> None:
    # A long street with a side street every 50 m; each view sees one crossing only.
    street = line
    result = follow(street, "Walk through three intersections and stop.", street.node("s0"), 90.0,
                    OfflineAgent(), config=FollowConfig(view_depth=1))
    assert street.node_ids[result.path[-1]] == "s160"
