"""Loaders (Touchdown files, Map2Seq splits, pyrosm), Nav2 GeoJSON export, CLI end to end
(``bench groke``: test/bench/groke/test_run.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from map2route.cli import main
from map2route.paths import shared_dir
from map2route.streets.errors import StreetError
from map2route.streets.geojson import to_nav2_geojson
from map2route.streets.loaders import load_instances, load_touchdown

REAL = shared_dir() / "data" / "map2seq"


def _instances(route: list[str]) -> list[dict]:
    return [{"route": {"pano_path": route, "osm_path": [], "initial_heading": 90},
             "instructions": "Go to the light and turn left. Stop a few steps after turning.",
             "instructions_id": 7}]


def test_touchdown_folder_round_trip(city_folder) -> None:
    route = [f"x{x}y50" for x in range(0, 101, 10)] + ["x100y60", "x100y70"]
    folder = city_folder(_instances(route))
    graph = load_touchdown(folder)
    assert graph.summary()["nodes"] == 57 and graph.summary()["pois"] == 6
    inst = load_instances(folder, "val", graph=graph)
    assert inst[0].id == "7" and inst[0].route[-1] == "x100y70"


def test_loader_errors_name_the_problem(city_folder, tmp_path: Path) -> None:
    with pytest.raises(StreetError, match="touchdown_nodes.txt is missing"):
        load_touchdown(tmp_path / "nowhere")
    folder = city_folder(_instances(["x0y50", "x100y100"]))
    graph = load_touchdown(folder)
    with pytest.raises(StreetError, match="not a link"):
        load_instances(folder, "val", graph=graph)
    with pytest.raises(StreetError, match=r"split 'test' not found.*val"):
        load_instances(folder, "test")


def test_nav2_geojson_layout(city) -> None:
    data = to_nav2_geojson(city)
    points = [f for f in data["features"] if f["geometry"]["type"] == "Point"]
    edges = [f for f in data["features"] if f["geometry"]["type"] == "MultiLineString"]
    assert len(points) == len(city) and len(edges) == city.n_links
    ids = [f["properties"]["id"] for f in data["features"]]
    assert len(set(ids)) == len(ids)
    e = edges[0]["properties"]
    assert {"startid", "endid"} <= set(e) and e["startid"] != e["endid"]
    pair = {(f["properties"]["startid"], f["properties"]["endid"]) for f in edges}
    assert (e["endid"], e["startid"]) in pair  # two-way streets are two one-way edges


def test_osm_pbf_through_pyrosm(tmp_path: Path) -> None:
    pyrosm = pytest.importorskip("pyrosm")
    from map2route.streets.loaders import load_osm_pbf

    graph = load_osm_pbf(Path(pyrosm.get_data("test_pbf")))
    s = graph.summary()
    assert s["nodes"] > 500 and s["links"] > s["nodes"] and s["intersections"] > 50
    assert s["pois"] > 0
    out = tmp_path / "g.geojson"
    assert main(["streets", "export", "--osm", str(pyrosm.get_data("test_pbf")),
                 "--out", str(out)]) == 0
    assert json.loads(out.read_text())["type"] == "FeatureCollection"


@pytest.mark.skipif(not (REAL / "val.json").is_file(), reason="shared Map2Seq data not present")
def test_real_map2seq_loads() -> None:
    graph = load_touchdown(REAL)
    inst = load_instances(REAL, "val", graph=graph)
    assert len(inst) == 605 and graph.summary()["nodes"] == 29641


def test_core_does_not_import_rclpy() -> None:
    # A fresh interpreter: other tests in this process may have imported rclpy already.
    code = ("import sys, map2route.bench.groke.run, map2route.streets.offline\n"
            "print('rclpy' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
