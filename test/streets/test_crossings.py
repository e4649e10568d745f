"""How the offline follower groups graph intersections into counted crossings, on hand-checkable
streets: intersection nodes within ``CLUSTER_M`` (12 m) along the street are one crossing (a
divided road); crossings farther apart are counted one by one, and each one with a signal within
the light radius is a light, even when two of them share one signal (issue 22: merging such
pairs, or giving a signal only to its nearest crossing, lost 2.7-6.8 dev SR points: people count
the two halves of a double light as two lights)."""

from __future__ import annotations

import pytest

from map2route.streets.graph import Poi, StreetGraph
from map2route.streets.navigator import follow
from map2route.streets.offline import CLUSTER_M, OfflineAgent


def street(to_latlng, crossings: list[int], signals: list[float]) -> StreetGraph:
    """A street east from s0 to s300 (a node every 10 m); at each x in ``crossings`` a side
    street leaves to the north (left when heading east: n{x}_1..n{x}_3, 10 m apart); a
    traffic signal POI on the street at each x in ``signals``."""
    coords = {f"s{x}": (float(x), 0.0) for x in range(0, 301, 10)}
    pairs = [(f"s{x - 10}", f"s{x}") for x in range(10, 301, 10)]
    for x in crossings:
        for k in (1, 2, 3):
            coords[f"n{x}_{k}"] = (float(x), 10.0 * k)
        pairs += [(f"s{x}", f"n{x}_1"), (f"n{x}_1", f"n{x}_2"), (f"n{x}_2", f"n{x}_3")]
    links = [(a, b, None) for a, b in pairs] + [(b, a, None) for a, b in pairs]
    pois = [Poi(f"sig{k}", *to_latlng(x, 0.0), {"highway": "traffic_signals"})
            for k, x in enumerate(signals)]
    ids = list(coords)
    return StreetGraph(ids, [to_latlng(*coords[i])[0] for i in ids],
                       [to_latlng(*coords[i])[1] for i in ids], links, pois, name="street")


def turned_into(graph: StreetGraph, text: str) -> str:
    """The side street (its x) the walk ends in, or 'straight' if it took none."""
    result = follow(graph, text, graph.node("s0"), 90.0, OfflineAgent())
    last = graph.node_ids[result.path[-1]]
    return last.split("_")[0][1:] if last.startswith("n") else "straight"


def test_cluster_radius_is_a_divided_road() -> None:
    assert 10.0 <= CLUSTER_M < 20.0


@pytest.mark.parametrize(("text", "side"), [
    # s50 and s60 are 10 m apart: one crossing (a divided road), so the second is s150.
    ("Turn left at the second intersection. Stop.", "150"),
    ("Turn left at the first intersection. Stop.", "50"),
    ("Go through one intersection and turn left at the next. Stop.", "150"),
])
def test_intersections_10_m_apart_are_one_crossing(to_latlng, text: str, side: str) -> None:
    graph = street(to_latlng, [50, 60, 150, 250], [])
    assert turned_into(graph, text) == side


@pytest.mark.parametrize(("text", "side"), [
    # s50 and s70 are 20 m apart: two crossings; both are lights (the one signal at s60 is
    # within 30 m of each), as people count a double light.
    ("Turn left at the second light. Stop.", "70"),
    ("Turn left at the first light. Stop.", "50"),
    ("Go through the first light and turn left at the next light. Stop.", "70"),
    # s150 has no signal: the third light is s250.
    ("Turn left at the third light. Stop.", "250"),
    ("Turn left at the third intersection. Stop.", "150"),
])
def test_crossings_20_m_apart_sharing_a_signal_are_two_lights(to_latlng, text: str,
                                                               side: str) -> None:
    graph = street(to_latlng, [50, 70, 150, 250], [60.0, 250.0])
    assert turned_into(graph, text) == side
