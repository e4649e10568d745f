"""Street graph structure and POI attachment (at / beside / corner, 50 m radius)."""

from __future__ import annotations

import pytest

from map2route.streets.errors import StreetError
from map2route.streets.graph import Poi, StreetGraph


def test_degrees_and_intersections(city: StreetGraph) -> None:
    assert city.is_intersection(city.node("x50y50"))  # 4-way
    assert city.is_intersection(city.node("x50y0"))   # T on the edge
    assert not city.is_intersection(city.node("x0y0"))  # corner: degree 2
    assert not city.is_intersection(city.node("x20y0"))
    assert city.summary()["intersections"] == 5


def test_link_heading_is_the_bearing(city: StreetGraph) -> None:
    a, b = city.node("x0y0"), city.node("x10y0")
    assert city.heading(a, b) == pytest.approx(90.0, abs=0.01)
    assert city.heading(b, a) == pytest.approx(270.0, abs=0.01)
    assert city.distance_m(a, b) == pytest.approx(10.0, rel=1e-3)


def test_poi_relations(city: StreetGraph) -> None:
    sig = next(a for a in city.node_pois[city.node("x50y0")] if city.pois[a.poi].id == "sig1")
    assert sig.relation == "at" and sig.distance_m < 0.01
    bank = next(a for a in city.node_pois[city.node("x70y0")] if city.pois[a.poi].id == "bank")
    assert bank.relation == "at" and bank.distance_m == pytest.approx(3.0, rel=1e-2)
    beside = next(a for a in city.node_pois[city.node("x80y0")] if city.pois[a.poi].id == "bank")
    assert beside.relation == "beside"
    assert beside.distance_m == pytest.approx((10**2 + 3**2) ** 0.5, rel=1e-2)
    # 20 m from the intersection x50y0 the bank is "on the corner".
    corner = [a for a in city.node_pois[city.node("x50y0")] if city.pois[a.poi].id == "bank"]
    assert corner and corner[0].relation == "corner"
    assert corner[0].distance_m == pytest.approx((20**2 + 3**2) ** 0.5, rel=1e-2)


def test_far_poi_is_not_attached(city: StreetGraph) -> None:
    far = next(k for k, p in enumerate(city.pois) if p.id == "far")
    assert city.poi_node[far] == -1
    assert all(a.distance_m <= 50.0 for lst in city.node_pois for a in lst)


def test_has_signal_radius(city: StreetGraph) -> None:
    assert city.has_signal(city.node("x100y50"), 5.0)
    assert not city.has_signal(city.node("x50y50"), 20.0)


def test_bad_links_are_reported(to_latlng) -> None:
    lat, lng = to_latlng(0, 0)
    with pytest.raises(StreetError, match="unknown node 'b'"):
        StreetGraph(["a"], [lat], [lng], [("a", "b", None)])
    with pytest.raises(StreetError, match="appears twice"):
        StreetGraph(["a", "a"], [lat, lat], [lng, lng], [])


def test_poi_name_and_kind() -> None:
    p = Poi("1", 0.0, 0.0, {"amenity": "bank", "brand": "Chase"})
    assert (p.name, p.kind, p.label) == ("Chase", "bank", "Chase (bank)")
    assert Poi("2", 0, 0, {"highway": "traffic_signals"}).is_traffic_signal
