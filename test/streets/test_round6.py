"""Failure classes fixed in the sixth GROKE round (issue 22), on tiny hand-checked cases.

Expected nodes are worked out by hand; each test fails on the follower before the fix.
"""

from __future__ import annotations

import pytest

from map2route.streets.graph import Poi, StreetGraph
from map2route.streets.navigator import follow
from map2route.streets.offline import OfflineAgent

SIGNAL = {"highway": "traffic_signals"}


def end(graph: StreetGraph, text: str) -> str:
    result = follow(graph, text, graph.node("s0"), 90.0, OfflineAgent())
    return graph.node_ids[result.path[-1]]


def street_with_side_streets(to_latlng, length: int, sides: tuple[int, ...],
                             signals: list[tuple[str, float, float]], name: str) -> StreetGraph:
    """East along s0..s<length> (10 m links), side streets of three nodes 10 m apart to the
    left (north) at each x in ``sides`` (n<x>a..c), and traffic signals at (x, y) metres."""
    coords = {f"s{x}": (float(x), 0.0) for x in range(0, length + 1, 10)}
    pairs = [(f"s{x - 10}", f"s{x}") for x in range(10, length + 1, 10)]
    for x in sides:
        prev = f"s{x}"
        for k, tag in enumerate("abc", start=1):
            coords[f"n{x}{tag}"] = (float(x), 10.0 * k)
            pairs.append((prev, f"n{x}{tag}"))
            prev = f"n{x}{tag}"
    links = [(a, b, None) for a, b in pairs] + [(b, a, None) for a, b in pairs]
    pois = [Poi(pid, *to_latlng(x, y), SIGNAL) for pid, x, y in signals]
    ids = list(coords)
    return StreetGraph(ids, [to_latlng(*coords[i])[0] for i in ids],
                       [to_latlng(*coords[i])[1] for i in ids], links, pois, name=name)


# --- a crossing's second signal, ~20 m before it, is a light of its own -----------------------
def pair_graph(to_latlng, second_x: float) -> StreetGraph:
    """East along s0..s240 (10 m links). Side streets leave to the left (north) at s100
    (n100a..c) and s180 (n180a..c), each crossing with its own signal 2 m from its node. One
    more signal stands 3 m off the street at x = ``second_x``."""
    return street_with_side_streets(
        to_latlng, 240, (100, 180),
        [("own100", 101.0, -2.0), ("own180", 181.0, -2.0), ("second", second_x, -3.0)], "pair")


def test_a_signal_two_nodes_before_a_lit_crossing_is_a_light_of_its_own(to_latlng) -> None:
    # The second signal is 3 m off s80, two nodes (20 m) before the crossing s100, and 21 m
    # from s100's own signal: the first of two lights. Before, a crossing node within five
    # nodes owned it: the lights were s100 and s180 only, "the second light" was s180 (the
    # walk ended in n180...) and "through two lights" one node past s180 (s190).
    graph = pair_graph(to_latlng, 80.0)
    assert end(graph, "Turn left at the second light. Stop.").startswith("n100")
    assert end(graph, "Go through two lights. Stop.") == "s110"
    # It is no place to turn, and no intersection.
    assert end(graph, "Turn left at the first light. Stop.").startswith("n100")
    assert end(graph, "Turn left at the second intersection. Stop.").startswith("n180")


def test_a_signal_within_a_crossing_s_extent_of_its_own_is_the_same_light(to_latlng) -> None:
    # 3.0 m off s90 and 10.9 m from s100 (not s100's by distance), but 11.5 m from s100's
    # own signal (within CLUSTER_M = 12 m): two signal heads of one light, as before the fix.
    graph = pair_graph(to_latlng, 89.5)
    assert end(graph, "Turn left at the second light. Stop.").startswith("n180")
    assert end(graph, "Go through two lights. Stop.") == "s190"


@pytest.mark.parametrize("second_x", [80.0, 89.5])
def test_a_crossing_with_no_signal_of_its_own_owns_the_near_one(to_latlng,
                                                                 second_x: float) -> None:
    # Without s100's own signal the near one is s100's light (as before): never a second.
    graph = pair_graph(to_latlng, second_x)
    graph = StreetGraph(graph.node_ids, graph.lat, graph.lng,
                        [(graph.node_ids[lk.source], graph.node_ids[lk.target], None)
                         for links in graph.out_links for lk in links],
                        [p for p in graph.pois if p.id != "own100"], name="pair-one")
    assert end(graph, "Turn left at the second light. Stop.").startswith("n180")


# --- a signal that is another crossing's own lights no crossing 15 m or more from it ---------
@pytest.fixture
def owned(to_latlng) -> StreetGraph:
    """East along s0..s260 (10 m links), side streets to the left (north) at s100, s120 and
    s200 (three nodes each, 10 m apart). Signals: 2.2 m from s100 (its nearest node, a
    crossing; 19.1 m from s120), and 5.4 m from s210 (a street node; 15.1 m from s200)."""
    return street_with_side_streets(
        to_latlng, 260, (100, 120, 200), [("sig100", 101.0, -2.0), ("sig200", 215.0, -2.0)],
        "owned")


def test_another_crossing_s_signal_does_not_light_a_crossing_beyond_15_m(owned: StreetGraph
                                                                        ) -> None:
    # Before, every crossing within 30 m of a signal was a light: s100, s120 (19.1 m from
    # s100's signal) and s200, so "the second light" was s120. Now s120 is no light; s200
    # still is (its signal is 15.1 m off, but its nearest node is no crossing).
    assert end(owned, "Turn left at the second light. Stop.").startswith("n200")
    # s120 is still an intersection.
    assert end(owned, "Turn left at the second intersection. Stop.").startswith("n120")
