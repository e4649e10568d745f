"""Failure classes fixed in the fifth GROKE round (issue 22), on tiny hand-checked cases.

A counted turn ("turn right when you can't go straight anymore", "take the second left")
whose street ends at a fork before the count is reached turns at the fork. Expected nodes are
worked out by hand.
"""

from __future__ import annotations

import math

import pytest

from map2route.streets.graph import Poi, StreetGraph
from map2route.streets.navigator import follow
from map2route.streets.offline import OfflineAgent
from map2route.streets.view import build_view


def _step(p: tuple[float, float], heading: float, d: float = 10.0) -> tuple[float, float]:
    h = math.radians(heading)
    return p[0] + d * math.sin(h), p[1] + d * math.cos(h)


def end(graph: StreetGraph, text: str) -> str:
    result = follow(graph, text, graph.node("s0"), 90.0, OfflineAgent())
    return graph.node_ids[result.path[-1]]


@pytest.fixture
def fork(to_latlng) -> StreetGraph:
    """East along s0..s40 (10 m links, heading 90), then one link bending left to s50
    (heading 60), where the street forks: a1..a3 leave at heading 20 (40 degrees left of the
    last link, 60 left of the street's direction ~80) and b1..b3 at heading 140 (80 right of
    the last link, 60 right of the street). Neither branch is within 50 degrees of the street,
    so the view ends at s50; one is within 50 degrees of the last link, so s50 is no T."""
    coords = {f"s{x}": (float(x), 0.0) for x in range(0, 41, 10)}
    coords["s50"] = _step(coords["s40"], 60.0)
    for name, heading in (("a", 20.0), ("b", 140.0)):
        prev = coords["s50"]
        for k in range(1, 4):
            prev = coords[f"{name}{k}"] = _step(prev, heading)
    pairs = [(f"s{x - 10}", f"s{x}") for x in range(10, 51, 10)]
    pairs += [("s50", "a1"), ("a1", "a2"), ("a2", "a3"), ("s50", "b1"), ("b1", "b2"),
              ("b2", "b3")]
    links = [(a, b, None) for a, b in pairs] + [(b, a, None) for a, b in pairs]
    ids = list(coords)
    return StreetGraph(ids, [to_latlng(*coords[i])[0] for i in ids],
                       [to_latlng(*coords[i])[1] for i in ids], links, name="fork")


def test_the_view_ends_at_the_fork(fork: StreetGraph) -> None:
    path = follow(fork, "Go straight. Stop.", fork.node("s0"), 90.0, OfflineAgent()).path
    view = build_view(fork, path[-1], 60.0, previous=path)
    assert fork.node_ids[view.path[-1].node] == "s50"


@pytest.mark.parametrize(("text", "expected"), [
    # Before, each of these found no T / no second crossing in view, skipped the turn as a
    # dead end and stopped at s50.
    ("Turn right when you can't go straight anymore. Stop.", "b3"),
    ("Take the second left. Stop.", "a3"),
    ("Turn right at the second intersection. Stop.", "b3"),
    ("Turn left at the third light. Stop.", "a3"),
])
def test_a_counted_turn_beyond_a_fork_turns_at_the_fork(fork: StreetGraph, text: str,
                                                        expected: str) -> None:
    assert end(fork, text) == expected


def test_a_counted_turn_beyond_an_open_view_still_walks_on(line: StreetGraph) -> None:
    # The line's view from s0 ends three crossings on with look-ahead, not at a fork: the
    # fifth left is n250, not the last crossing in the first view (s150).
    assert end(line, "Turn left at the fifth intersection. Stop.") == "n250"
    assert end(line, "Turn left at the fourth intersection. Stop.") == "n200"


@pytest.mark.parametrize(("text", "expected"), [
    # Before, the end-of-road test took the last link's heading (60): the left branch (20)
    # was "straight on", so s50 was no T, the move found no street end and the stop fell
    # a little into the block (s20).
    ("Go to the end of the road. Stop.", "s50"),
    ("Walk to the T-intersection and stop.", "s50"),
])
def test_a_fork_the_view_ends_at_is_a_street_end(fork: StreetGraph, text: str,
                                                 expected: str) -> None:
    assert end(fork, text) == expected


# --- a veer onto a branch leaving 80-90 degrees off ---------------------------------------------
@pytest.fixture
def triangle(to_latlng) -> StreetGraph:
    """East along s0..s100 (10 m links). At s50 a branch leaves 85 degrees to the left
    (heading 5: v1..v3), as at a small triangle park whose "slight left" side street the
    panorama links draw nearly square to the avenue."""
    coords = {f"s{x}": (float(x), 0.0) for x in range(0, 101, 10)}
    prev = coords["s50"]
    for k in range(1, 4):
        prev = coords[f"v{k}"] = _step(prev, 5.0)
    pairs = [(f"s{x - 10}", f"s{x}") for x in range(10, 101, 10)]
    pairs += [("s50", "v1"), ("v1", "v2"), ("v2", "v3")]
    links = [(a, b, None) for a, b in pairs] + [(b, a, None) for a, b in pairs]
    ids = list(coords)
    return StreetGraph(ids, [to_latlng(*coords[i])[0] for i in ids],
                       [to_latlng(*coords[i])[1] for i in ids], links, name="triangle")


def test_a_veer_takes_a_branch_leaving_85_degrees(triangle: StreetGraph) -> None:
    # Before, a veer took branches of 10-80 degrees only: "the road veers by itself", and
    # the walk stayed on the avenue.
    path = follow(triangle, "Veer left at the park. Stop.", triangle.node("s0"), 90.0,
                  OfflineAgent()).path
    assert triangle.node("v1") in path
    assert triangle.node_ids[path[-1]].startswith("v")
    # A veer to the other side finds no branch there and stays on the avenue.
    path = follow(triangle, "Veer right at the park. Stop.", triangle.node("s0"), 90.0,
                  OfflineAgent()).path
    assert triangle.node("v1") not in path


# --- a signal with no crossing node is a light ------------------------------------------------
@pytest.fixture
def midblock(to_latlng) -> StreetGraph:
    """East along s0..s220 (10 m links). Side streets leave to the left (north) at s50 (n50)
    and s170 (n170), both with traffic signals. A third signal stands 3 m off s110, 60 m from
    either crossing, where the panorama graph has no crossing node (a street it does not
    join, or a crosswalk light): people count it as a light."""
    coords = {f"s{x}": (float(x), 0.0) for x in range(0, 221, 10)}
    coords["n50"], coords["n170"] = (50.0, 10.0), (170.0, 10.0)
    pairs = [(f"s{x - 10}", f"s{x}") for x in range(10, 221, 10)]
    pairs += [("s50", "n50"), ("s170", "n170")]
    links = [(a, b, None) for a, b in pairs] + [(b, a, None) for a, b in pairs]
    signal = {"highway": "traffic_signals"}
    pois = [Poi("sig50", *to_latlng(52.0, -3.0), signal),
            Poi("sig110", *to_latlng(110.0, -3.0), signal),
            Poi("sig170", *to_latlng(172.0, -3.0), signal)]
    ids = list(coords)
    return StreetGraph(ids, [to_latlng(*coords[i])[0] for i in ids],
                       [to_latlng(*coords[i])[1] for i in ids], links, pois, name="midblock")


def test_a_signal_without_a_crossing_node_counts_as_a_light(midblock: StreetGraph) -> None:
    # Before, the lights were s50 and s170 only: "through two lights" ended one node past
    # s170. Now the second light is the signal at s110.
    assert end(midblock, "Go through two lights. Stop.") == "s120"
    assert end(midblock, "Go through three lights. Stop.") == "s180"


def test_a_signal_without_a_crossing_node_is_no_place_to_turn(midblock: StreetGraph) -> None:
    # The second light (s110) has no side street: the turn is at the next light that has one.
    assert end(midblock, "Turn left at the second light. Stop.") == "n170"
    # Intersections do not count it.
    assert end(midblock, "Go through two intersections. Stop.") == "s180"
    assert end(midblock, "Turn left at the second intersection. Stop.") == "n170"
