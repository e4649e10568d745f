"""Turn handling of the offline follower, on tiny synthetic streets.

Descriptions are checks, not moves; "the light immediately after" is the very next one; an
ordinal after "the following 2 ... are close together" counts from there; "turn left" where
the street itself bends left follows the bend. Expected nodes are worked out by hand.
"""

from __future__ import annotations

import math

import pytest

from map2route.language.directions import Action, decompose
from map2route.streets.graph import StreetGraph
from map2route.streets.navigator import follow
from map2route.streets.offline import OfflineAgent


def end(graph: StreetGraph, text: str, start: str = "s0", heading: float = 90.0) -> str:
    result = follow(graph, text, graph.node(start), heading, OfflineAgent())
    return graph.node_ids[result.path[-1]]


@pytest.mark.parametrize("text", [
    "You will see a park on your right.",
    "There will be a playground after the second set of lights.",
    "The following 2 sets of lights will be very close together.",
    "The next light is a double.",
    "Starbucks will be on the far corner.",
    "It should be on your left.",
])
def test_descriptions_are_checks_not_moves(text: str) -> None:
    goals = decompose(f"{text} Go to the light.")
    assert [g.action for g in goals] == [Action.MOVE_FORWARD, Action.STOP]
    assert goals[0].text == "go to the light"


def test_a_description_with_a_motion_verb_is_still_a_move() -> None:
    goals = decompose("You will pass a light. Stop.")
    assert [g.action for g in goals] == [Action.MOVE_FORWARD, Action.STOP]


def test_an_ordinal_after_a_description_counts_from_there() -> None:
    goals = decompose("The following 2 sets of lights will be very close together. "
                      "Turn right at the second set.")
    cond = goals[0].condition
    assert goals[0].action == Action.TURN_RIGHT
    assert (cond.feature, cond.count, cond.relative) == ("light", 2, True)
    # Without the description the ordinal counts from the last turn.
    cond = decompose("Turn right at the second set of lights.")[0].condition
    assert (cond.count, cond.relative) == (2, False)


def test_ordinal_after_a_description_on_a_street(line: StreetGraph) -> None:
    # Through s50 to s60; the following two crossings are s100 and s150: the second is s150,
    # turn left (north) into n150. Counting from the start would turn at s100.
    text = ("Go through the next intersection. The following 2 intersections are close "
            "together. Turn left at the second intersection.")
    assert end(line, text) == "n150"
    assert end(line, "Go through the next intersection. Turn left at the second "
                     "intersection.") == "n100"


@pytest.mark.parametrize("text", [
    "Go through the first light and turn left at the light immediately after.",
    "Go through the first light and turn left at the lights right after.",
    "Go through the first light and turn left at the one right after.",
])
def test_the_light_right_after_is_the_next_one(text: str) -> None:
    turn = decompose(text)[1]
    assert turn.action == Action.TURN_LEFT
    assert (turn.condition.feature, turn.condition.count, turn.condition.relative) == (
        "light", 1, True)


@pytest.fixture
def bend(to_latlng) -> StreetGraph:
    """East along s0..s50; at the crossing s50 the street bends 48 degrees left (north-east,
    b1..b3) and a side street leaves to the right (south, r1..r2); after the bend a side
    street leaves to the left at b2 (l1)."""
    h = math.radians(42.0)  # heading 42: 48 degrees left of east
    coords = {f"s{x}": (float(x), 0.0) for x in range(0, 51, 10)}
    coords.update({f"b{k}": (50.0 + 10 * k * math.sin(h), 10 * k * math.cos(h))
                   for k in (1, 2, 3)})
    coords.update({"r1": (50.0, -10.0), "r2": (50.0, -20.0)})
    bx, by = coords["b2"]
    coords["l1"] = (bx - 10 * math.cos(h), by + 10 * math.sin(h))  # left of the bend, at b2
    pairs = [(f"s{x - 10}", f"s{x}") for x in range(10, 51, 10)]
    pairs += [("s50", "b1"), ("b1", "b2"), ("b2", "b3"), ("s50", "r1"), ("r1", "r2"),
              ("b2", "l1")]
    links = [(a, b, None) for a, b in pairs] + [(b, a, None) for a, b in pairs]
    ids = list(coords)
    return StreetGraph(ids, [to_latlng(*coords[i])[0] for i in ids],
                       [to_latlng(*coords[i])[1] for i in ids], links, name="bend")


def test_turn_left_at_a_bend_follows_the_bend(bend: StreetGraph) -> None:
    # No side street to the left at s50: the street's own 48-degree bend is the left turn
    # (before, the turn found no left branch at s50 and was passed on to the side street at
    # b2, ending in l1).
    result = follow(bend, "Turn left at the intersection. Stop.", bend.node("s0"), 90.0,
                    OfflineAgent())
    assert not any("no TURN_LEFT" in note for note in result.notes)
    assert bend.node("l1") not in result.path
    assert bend.node_ids[result.path[-1]].startswith("b")
    # A right turn still takes the side street.
    assert end(bend, "Turn right at the intersection. Stop.").startswith("r")


@pytest.mark.parametrize(("text", "second"), [
    ("Turn right and immediately left around a parking lot.", Action.TURN_LEFT),
    ("Make a left and then a quick right.", Action.TURN_RIGHT),
    ("Take a right and a quick left onto the side street.", Action.TURN_LEFT),
])
def test_two_turns_in_a_row(text: str, second: Action) -> None:
    actions = [g.action for g in decompose(text)]
    assert len(actions) == 3 and actions[1] == second and actions[2] == Action.STOP


def test_a_side_after_and_is_no_turn() -> None:
    goals = decompose("Turn left. The bank is on your left and right away there is a park.")
    assert [g.action for g in goals] == [Action.TURN_LEFT, Action.STOP]


def test_turn_left_and_immediately_right_on_the_grid(city: StreetGraph) -> None:
    # Left at the first light (x50y0) into x = 50 northwards, then right at the very next
    # crossing (x50y50) into y = 50 eastwards; the stop is 3 nodes from that corner.
    path = follow(city, "Turn left at the first light and immediately right. Stop.",
                  city.node("x0y0"), 90.0, OfflineAgent()).path
    assert city.node_ids[path[-1]] == "x80y50"


@pytest.mark.parametrize(("text", "count", "branch"), [
    ("Pass two left side streets and stop.", 2, "left"),
    ("Pass the left side street. Stop.", 1, "left"),
    ("Go past one street on your right and stop.", 1, "right"),
    ("Pass a side street and stop.", 1, ""),
])
def test_side_streets_are_counted_crossings(text: str, count: int, branch: str) -> None:
    cond = decompose(text)[0].condition
    assert (cond.feature, cond.count, cond.passing, cond.branch) == (
        "intersection", count, True, branch)


def test_side_streets_count_on_their_side(line: StreetGraph) -> None:
    # Heading east the side streets (north) are on the left: two of them are s50 and s100,
    # and the move ends one node past the second (s110).
    assert end(line, "Pass two left side streets and stop.") == "s110"
    # Heading west from s300 they are on the right: s250 and s200, then s190.
    assert end(line, "Pass two right side streets and stop.", "s300", 270.0) == "s190"
