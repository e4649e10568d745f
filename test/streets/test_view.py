"""The local view: straight walk, u intersections + 3 look-ahead, POIs, GROKE JSON."""

from __future__ import annotations

import json

from map2route.streets.graph import StreetGraph
from map2route.streets.view import build_view


def test_view_depth_and_lookahead(city: StreetGraph) -> None:
    start = city.node("x0y50")
    view = build_view(city, start, 90.0, depth=1)
    names = [city.node_ids[v.node] for v in view.path]
    # x50y50 is the first intersection; 3 more nodes of look-ahead.
    assert names == ["x0y50", "x10y50", "x20y50", "x30y50", "x40y50", "x50y50", "x60y50",
                     "x70y50", "x80y50"]
    deep = build_view(city, start, 90.0, depth=3)
    assert city.node_ids[deep.path[-1].node] == "x100y50"  # the street ends there


def test_view_connections_and_lights(city: StreetGraph) -> None:
    view = build_view(city, city.node("x50y10"), 180.0, depth=1)
    inter = next(v for v in view.path if v.intersection)
    assert city.node_ids[inter.node] == "x50y0" and inter.light
    turns = sorted(round(c.delta) for c in inter.connections)
    assert turns == [-180, -90, 90]  # back, east (left when facing south), west (right)


def test_view_pois_have_directions(city: StreetGraph) -> None:
    view = build_view(city, city.node("x100y10"), 0.0, depth=1)
    sbux = next(p for p in view.pois if city.pois[p.poi].name == "Starbucks")
    assert sbux.direction == "Right" and 2.9 < sbux.distance_m < 3.1
    data = json.loads(view.to_json(city))
    assert set(data) == {"current_position", "current_heading", "previous_path", "path_nodes",
                         "pois"}
    node = data["path_nodes"][0]
    assert set(node) == {"id", "type", "traffic_light", "heading", "connections"}
    letters = [p["id"] for p in data["pois"]]
    assert letters[0] == "A" and len(set(letters)) == len(letters)


def test_view_follows_a_sharp_bend_when_it_is_the_only_way(to_latlng) -> None:
    pts = {"a": (0.0, 0.0), "b": (10.0, 0.0), "c": (5.0, 8.66), "d": (0.0, 17.32)}
    ids = list(pts)
    lat = [to_latlng(*pts[i])[0] for i in ids]
    lng = [to_latlng(*pts[i])[1] for i in ids]
    links = [(u, v, None) for u, v in (("a", "b"), ("b", "c"), ("c", "d"))]
    links += [(v, u, None) for u, v, _ in list(links)]
    bend = StreetGraph(ids, lat, lng, links)
    view = build_view(bend, bend.node("a"), 90.0)  # b -> c turns 120 degrees left
    assert [bend.node_ids[v.node] for v in view.path] == ["a", "b", "c", "d"]
