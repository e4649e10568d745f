"""``map2route bench groke`` end to end on the synthetic street grid: files, summary, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from map2route.cli import main


def _instances(route: list[str]) -> list[dict]:
    return [{"route": {"pano_path": route, "osm_path": route, "initial_heading": 90},
             "instructions": "Go to the light and turn left. Stop a few steps after turning.",
             "instructions_id": 7}]


def test_bench_groke_end_to_end(city_folder, tmp_path: Path, capsys) -> None:
    route = [f"x{x}y50" for x in range(0, 101, 10)] + ["x100y60", "x100y70"]
    folder = city_folder(_instances(route))
    out = tmp_path / "out"
    assert main(["bench", "groke", "--data", str(folder), "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["all"]["n"] == 1 and summary["all"]["sr"] == 1.0
    line = json.loads((out / "results.jsonl").read_text().splitlines()[0])
    assert line["metrics"]["ne_m"] == pytest.approx(0.0, abs=0.01) and line["quality"] > 0.99
    assert (out / "ne_hist.png").stat().st_size > 1000
    assert (out / "quality.csv").read_text().startswith("index,id,held_out,ne_m")


def test_bench_groke_errors(city_folder, tmp_path: Path, capsys) -> None:
    folder = city_folder(_instances(["x0y50", "x10y50"]))
    assert main(["bench", "groke", "--data", str(folder), "--split", "test",
                 "--out", str(tmp_path / "o")]) == 1
    assert "split 'test' not found" in capsys.readouterr().err
    assert main(["bench", "groke", "--agent", "llm", "--data", str(folder),
                 "--out", str(tmp_path / "o")]) == 1
    assert "--llm-url" in capsys.readouterr().err
    assert main(["bench", "groke", "--agent", "nope"]) == 2


def test_bench_groke_scorings_and_the_oracle_length_heuristic(city_folder, tmp_path: Path,
                                                             capsys) -> None:
    route = [f"x{x}y50" for x in range(0, 101, 10)] + ["x100y60", "x100y70"]
    folder = city_folder(_instances(route))
    out = tmp_path / "out"
    assert main(["bench", "groke", "--data", str(folder), "--out", str(out), "--json",
                 "--scoring", "panorama"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["scoring"] == "panorama" and "panorama" in summary["scored_on"]
    assert summary["all"]["sr"] == 1.0 and "acc_50" in summary["all"]
    # Told the reference length (13 nodes), the walk ends at exactly 13 nodes.
    assert main(["bench", "groke", "--data", str(folder), "--out", str(out), "--json",
                 "--agent", "heuristic-oracle-length"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["scoring"] == "official" and "OSM" in summary["scored_on"]
    line = json.loads((out / "results.jsonl").read_text().splitlines()[0])
    assert len(line["path"]) == len(route) and "reference length" in line["stop_reason"]
    assert line["official"]["expanded_path"][0] == route[0]


def test_bench_groke_official_needs_osm_path(city_folder, tmp_path: Path, capsys) -> None:
    inst = _instances(["x0y50", "x10y50"])
    inst[0]["route"]["osm_path"] = []
    folder = city_folder(inst)
    assert main(["bench", "groke", "--data", str(folder), "--out", str(tmp_path / "o")]) == 1
    assert "--scoring panorama" in capsys.readouterr().err
    assert main(["bench", "groke", "--data", str(folder), "--out", str(tmp_path / "o"),
                 "--scoring", "panorama", "--json"]) == 0


def test_bench_groke_parts_follow_the_hash_split(city_folder, tmp_path: Path, capsys) -> None:
    route = [f"x{x}y50" for x in range(0, 101, 10)] + ["x100y60", "x100y70"]
    instances = _instances(route) + _instances(route)
    instances[1]["instructions_id"] = 1  # id 7 is unread, id 1 is dev (seeded hash)
    folder = city_folder(instances)
    out = tmp_path / "out"
    assert main(["bench", "groke", "--data", str(folder), "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["all"]["n"], summary["dev"]["n"], summary["unread"]["n"]) == (2, 1, 1)
    assert main(["bench", "groke", "--data", str(folder), "--out", str(out), "--json",
                 "--part", "dev"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["all"]["n"] == 1 and summary["unread"]["n"] == 0
    line = json.loads((out / "results.jsonl").read_text().splitlines()[0])
    assert line["id"] == "1" and line["unread"] is False
