"""A small synthetic street grid: 3 x 3 intersections, 50 m blocks, a node every 10 m."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from map2route.streets.graph import Poi, StreetGraph

LAT0, LNG0 = 40.0, -73.0
M_PER_DEG_LAT = 6_371_000.0 * math.pi / 180.0
BLOCK_M, STEP_M, N = 50.0, 10.0, 3


def latlng(x_m: float, y_m: float) -> tuple[float, float]:
    """East/north metres from the grid origin to lat/lng."""
    lat = LAT0 + y_m / M_PER_DEG_LAT
    lng = LNG0 + x_m / (M_PER_DEG_LAT * math.cos(math.radians(LAT0)))
    return lat, lng


def grid_city() -> tuple[list[str], list[float], list[float], list[tuple[str, str, None]],
                         list[Poi]]:
    """Nodes ``x{X}y{Y}`` (metres); streets along x = 0, 50, 100 and y = 0, 50, 100."""
    coords: dict[str, tuple[float, float]] = {}
    links: list[tuple[str, str, None]] = []
    span = BLOCK_M * (N - 1)
    steps = int(span / STEP_M)
    for k in range(N):
        fixed = k * BLOCK_M
        for horizontal in (True, False):
            prev = None
            for s in range(steps + 1):
                x, y = (s * STEP_M, fixed) if horizontal else (fixed, s * STEP_M)
                name = f"x{int(x)}y{int(y)}"
                coords[name] = (x, y)
                if prev is not None:
                    links.append((prev, name, None))
                    links.append((name, prev, None))
                prev = name
    ids = sorted(coords)
    lat = [latlng(*coords[i])[0] for i in ids]
    lng = [latlng(*coords[i])[1] for i in ids]
    pois = [
        Poi("sig1", *latlng(50.0, 0.0), {"highway": "traffic_signals"}),
        Poi("sig2", *latlng(100.0, 0.0), {"highway": "traffic_signals"}),
        Poi("sig3", *latlng(100.0, 50.0), {"highway": "traffic_signals"}),
        Poi("sbux", *latlng(103.0, 80.0), {"amenity": "cafe", "name": "Starbucks"}),
        Poi("bank", *latlng(70.0, 3.0), {"amenity": "bank", "name": "Chase"}),
        Poi("far", *latlng(-80.0, -80.0), {"shop": "bakery", "name": "Far Away Bakery"}),
    ]
    return ids, lat, lng, links, pois


@pytest.fixture
def city() -> StreetGraph:
    """The grid as a :class:`StreetGraph`."""
    ids, lat, lng, links, pois = grid_city()
    return StreetGraph(ids, lat, lng, links, pois, name="grid")


@pytest.fixture
def to_latlng():
    """The metres -> lat/lng function of the grid."""
    return latlng


@pytest.fixture
def city_folder(tmp_path: Path):
    """A function writing the grid as a Touchdown/Map2Seq folder with given instances."""
    return lambda instances: write_touchdown_folder(tmp_path / "map2seq", instances)


@pytest.fixture
def route_east_then_north() -> list[str]:
    """East along y=0 from x=0 to x=100, then LEFT (north) to x=100, y=80."""
    return [f"x{x}y0" for x in range(0, 101, 10)] + [f"x100y{y}" for y in range(10, 81, 10)]


def write_touchdown_folder(folder: Path, instances: list[dict]) -> Path:
    """Write the grid in Touchdown/Map2Seq file formats plus ``val.json``."""
    from map2route.streets.geo import bearing_deg

    ids, lat, lng, links, pois = grid_city()
    pos = {i: (la, ln) for i, la, ln in zip(ids, lat, lng, strict=True)}
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "touchdown_nodes.txt").write_text(
        "".join(f"{i},0,{pos[i][0]:.8f},{pos[i][1]:.8f}\n" for i in ids))
    (folder / "touchdown_links.txt").write_text("".join(
        f"{a},{round(bearing_deg(*pos[a], *pos[b]))},{b}\n" for a, b, _ in links))
    (folder / "osm_pois.txt").write_text("".join(
        f"{p.id},{p.lat},{p.lng},{json.dumps(dict(p.tags))}\n" for p in pois))
    # The grid doubles as the OSM street-node graph (nodes 10 m apart), for official scoring.
    (folder / "osm_nodes.txt").write_text(
        "".join(f"{i},{pos[i][0]:.8f},{pos[i][1]:.8f}\n" for i in ids))
    (folder / "val.json").write_text(json.dumps(instances))
    return folder


@pytest.fixture
def line(to_latlng) -> StreetGraph:
    """A 300 m street east from s0 (a node every 10 m) with a side street to the north
    (left, heading east) at s50, s100, ..., s250."""
    ids, lat, lng, links = [], [], [], []
    for x in range(0, 301, 10):
        ids.append(f"s{x}")
        la, ln = to_latlng(float(x), 0.0)
        lat.append(la)
        lng.append(ln)
        if x:
            links += [(f"s{x - 10}", f"s{x}", None), (f"s{x}", f"s{x - 10}", None)]
        if x and x % 50 == 0 and x < 300:
            ids.append(f"n{x}")
            la, ln = to_latlng(float(x), 10.0)
            lat.append(la)
            lng.append(ln)
            links += [(f"s{x}", f"n{x}", None), (f"n{x}", f"s{x}", None)]
    return StreetGraph(ids, lat, lng, links, name="line")
