"""End to end: ``map2route bench planner`` (the speed benchmark of bench/planner/speed.py)."""

from __future__ import annotations

import json

import pytest

from map2route.cli import main


def test_bench_planner_json_has_the_summary_keys(tmp_path, capsys) -> None:
    code = main(["bench", "planner", "--sizes", "96", "--repeats", "1", "--json",
                 "--maps", str(tmp_path)])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    for key in ("segment_1000_median_ms", "route5_largest_median_ms", "ratio_vs_pyastar2d"):
        assert key in doc
    assert doc["route5_largest_median_ms"] > 0
    assert doc["route5_scene"] == "generated_12_rooms"
    ours = [r for r in doc["rows"] if r["method"] == "map2route A*"]
    replan = [r for r in doc["rows"] if r["method"] == "map2route replan from field"]
    assert ours and replan and ours[0]["cost"] == pytest.approx(replan[0]["cost"])


def test_bench_planner_rejects_bad_sizes(capsys) -> None:
    assert main(["bench", "planner", "--sizes", "ten"]) == 2
