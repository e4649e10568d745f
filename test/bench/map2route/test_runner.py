"""bench map2route end to end on the two-room house: results, resume, reports, --json."""

from __future__ import annotations

import json

from map2route.bench.map2route.run import RunSpec, read_results, run_benchmark
from map2route.cli import main


def test_run_writes_results_and_resumes(tmp_path, two_room_scene, two_room_episodes, gt_method) -> None:
    spec = RunSpec(method=gt_method, episodes_path=two_room_episodes, maps_root=two_room_scene)
    out = tmp_path / "run"
    rows = run_benchmark(spec, out, workers=1, progress=False)
    assert len(rows) == 6
    assert all(r["success"] and r["hcs"] == 1.0 for r in rows)
    assert all(r["spl"] > 0.99 for r in rows)  # the shortest route is L* itself
    # Drop one line and tear the last: the rerun scores exactly the missing episode again.
    lines = (out / "results.jsonl").read_text().splitlines()
    (out / "results.jsonl").write_text("\n".join(lines[:4]) + "\n" + lines[4][:10])
    again = run_benchmark(spec, out, workers=1, progress=False)
    assert len(again) == 6 and len(read_results(out / "results.jsonl")) == 6


def test_cli_json_and_tables(tmp_path, two_room_scene, two_room_episodes, gt_method, capsys) -> None:
    out = tmp_path / "cli"
    code = main(["bench", "map2route", "--method", gt_method, "--episodes", str(two_room_episodes),
                 "--scenes", str(two_room_scene), "--out", str(out), "--workers", "1", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["episodes"] == 6 and data["metrics"]["all"]["hcs"] == 1.0
    assert set(data["metrics"]) == {"easy", "hard", "all"}
    for name in ("table.md", "table.csv", "metrics.png", "summary.json"):
        assert (out / name).stat().st_size > 0
    assert "| **Easy** |" in (out / "table.md").read_text()


def test_cli_rejects_an_unknown_method(capsys) -> None:
    code = main(["bench", "map2route", "--method", "orcale"])
    assert code == 1
    assert "Unknown method 'orcale'; did you mean oracle?" in capsys.readouterr().err


def test_resume_refuses_another_method(tmp_path, two_room_scene, two_room_episodes, gt_method) -> None:
    import pytest

    from map2route.bench.errors import BenchmarkError

    out = tmp_path / "run"
    spec = RunSpec(method=gt_method, episodes_path=two_room_episodes, maps_root=two_room_scene)
    run_benchmark(spec, out, workers=1, limit=1, progress=False)
    other = RunSpec(method="oracle", episodes_path=two_room_episodes, maps_root=two_room_scene)
    with pytest.raises(BenchmarkError, match="holds a run of method 'gt_sequential'"):
        run_benchmark(other, out, workers=1, progress=False)


def test_cli_baseline_keeps_both_rows_and_labels_the_ratio(tmp_path, two_room_scene,
                                                           two_room_episodes, gt_method,
                                                           capsys) -> None:
    common = ["--episodes", str(two_room_episodes), "--scenes", str(two_room_scene),
              "--workers", "1"]
    assert main(["bench", "map2route", "--method", "shortest", "--out", str(tmp_path / "base"),
                 *common]) == 0
    capsys.readouterr()
    assert main(["bench", "map2route", "--method", gt_method, "--out", str(tmp_path / "run"),
                 "--baseline", str(tmp_path / "base"), *common]) == 0
    printed = capsys.readouterr().out
    assert f"all: {gt_method} / shortest: near" in printed  # was "shortest / shortest"
    table = (tmp_path / "run" / "table.md").read_text()
    assert f"| {gt_method} |" in table and "| shortest |" in table
    # a baseline run of the same method keeps its own row beside ours
    assert main(["bench", "map2route", "--method", gt_method, "--out", str(tmp_path / "again"),
                 "--baseline", str(tmp_path / "run"), *common]) == 0
    printed = capsys.readouterr().out
    assert f"all: {gt_method} / {gt_method} (baseline): near" in printed
    assert printed.count(f"| {gt_method} |") == 3 and f"| {gt_method} (baseline) |" in printed
