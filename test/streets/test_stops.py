"""Stop grounding and move mechanisms of the offline follower, on tiny synthetic streets.

The line street: nodes ``s0`` .. ``s300`` every 10 m heading east, a side street to the north
at every 50 m (``s50`` .. ``s250`` are intersections), no POIs. Every expected node is worked
out by hand in the comment beside it.
"""

from __future__ import annotations

import pytest

from map2route.language.directions import Action, decompose
from map2route.streets.graph import StreetGraph
from map2route.streets.navigator import follow
from map2route.streets.offline import OfflineAgent


def end(graph: StreetGraph, text: str, start: str = "s0", heading: float = 90.0) -> str:
    result = follow(graph, text, graph.node(start), heading, OfflineAgent())
    return graph.node_ids[result.path[-1]]


def test_a_crossing_passed_in_the_stop_clause_comes_first() -> None:
    goals = decompose("Go through the next light and stop halfway down the block.")
    assert [g.action for g in goals] == [Action.MOVE_FORWARD, Action.STOP]
    assert (goals[0].condition.feature, goals[0].condition.passing) == ("light", True)
    assert (goals[1].condition.feature, goals[1].condition.fraction) == ("block", 0.5)


def test_pass_then_stop_halfway_down_the_next_block(line: StreetGraph) -> None:
    # Through s50 to s60; the block s60..s100 is 40 m, half of it is s80. (Reading the
    # crossing as the stop's place would stop at s50.)
    assert end(line, "Go through the next intersection and stop halfway down the block.") == "s80"


@pytest.mark.parametrize(("text", "fraction"), [
    ("Continue less than halfway to the next light.", 0.4),
    ("Go about 3/4 of the way down the block.", 0.75),
    ("Walk almost to the end of the block.", 0.8),
])
def test_a_fraction_of_the_block_is_a_move(text: str, fraction: float) -> None:
    goals = decompose(text)
    assert goals[0].action == Action.MOVE_FORWARD
    assert goals[0].condition.feature == "block"
    assert goals[0].condition.fraction == pytest.approx(fraction)


@pytest.mark.parametrize(("text", "goal"), [
    ("Walk about 3/4 of the way to the next intersection.", "s40"),  # 37.5 of 50 m
    ("Walk less than halfway to the next intersection.", "s20"),  # 0.4 * 50 m
])
def test_fraction_moves_end_inside_the_block(line: StreetGraph, text: str, goal: str) -> None:
    assert end(line, text) == goal


def test_an_ordinal_already_passed_is_the_one_meant(line: StreetGraph) -> None:
    # Two crossings passed (s50, s100) -> s110; "the second intersection" is s100, behind:
    # stay at s110 rather than pass s150 and stop at s160.
    text = "Go through two intersections. Pass the second intersection and stop."
    assert end(line, text) == "s110"


def test_stop_just_past_the_crossing_just_passed(line: StreetGraph) -> None:
    # Through s50 to s60; "just past the intersection" is s50 again, not s100.
    assert end(line, "Go through the next intersection. Stop just past the intersection.") == "s60"


def test_stop_immediately_after_is_one_node(line: StreetGraph) -> None:
    # Through s50 to s60, then one node: s70 (a "few steps" would be three: s90).
    assert end(line, "Go through the next intersection and stop immediately after it.") == "s70"


def test_unmatched_stop_landmark_lies_inside_the_block(line: StreetGraph) -> None:
    # Through s50 to s60; no POI called Fiat Cat: 30 % of the 40 m block s60..s100 -> s80
    # (12 m from s60: s70 is 10 m, s80 is 20 m), not the crossing just passed (s60).
    assert end(line, "Go through the next intersection and stop at Fiat Cat.") == "s80"
    # Nothing named: the stop stays just past the crossing.
    assert end(line, "Go through the next intersection. Stop.") == "s60"


def test_comma_separates_chained_turns() -> None:
    goals = decompose("Turn left at the next light, right at the one after that.")
    assert [g.action for g in goals] == [Action.TURN_LEFT, Action.TURN_RIGHT, Action.STOP]


def test_middle_of_the_next_intersection() -> None:
    cond = decompose("Stop in the middle of the next intersection.")[-1].condition
    assert (cond.feature, cond.count, cond.relative) == ("intersection", 1, True)


def test_stop_just_before_the_next_intersection_is_three_nodes_short(line: StreetGraph) -> None:
    # The next crossing is s50; a STOP "just before" it is 3 nodes (30 m) short: s20.
    assert end(line, "Stop just before the next intersection.") == "s20"


@pytest.mark.parametrize("text", [
    "Go straight through the first intersection and stop halfway before the next.",
    "Go through the next intersection and stop halfway to the next corner.",
])
def test_halfway_before_the_next_is_a_fraction(text: str) -> None:
    goal = decompose(text)[-1]
    assert goal.action == Action.STOP
    assert (goal.condition.feature, goal.condition.fraction) == ("block", 0.5)


def test_blocks_end_is_the_end_of_the_block() -> None:
    goal = decompose("Turn right. Stop at block's end in front of the deli.")[-1]
    assert (goal.condition.feature, goal.condition.count) == ("intersection", 1)
