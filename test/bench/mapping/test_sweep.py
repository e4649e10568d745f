"""``map2route bench mapping``: the summary by hand, resume, atomic writes, and one real run."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import map2route.cli.mapping_bench_commands  # noqa: F401 - registers `bench mapping`
from map2route.bench.mapping import sweep
from map2route.cli.app import app
from map2route.semantic_map.io import save_scene


def _row(scene: str, noise: float, **kw: Any) -> dict[str, Any]:
    return {"scene": scene, "noise": noise, "image_width": 960, **kw}


# --- summary ------------------------------------------------------------------------------------
def test_summary_means_mins_targets_and_failures() -> None:
    rows = [
        _row("a", 0.0, recall_tall=1.0, room_accuracy=0.96, precision=0.9, build_speed=2.0,
             hcs_built=0.8),
        _row("b", 0.0, recall_tall=0.9, room_accuracy=0.97, precision=None, build_speed=0.5,
             hcs_built=0.4),
        _row("c", 0.0, stage="simulate", error="no room is reachable"),
        _row("a", 0.2, recall_tall=0.5, room_accuracy=0.94, precision=0.6, build_speed=3.0,
             hcs_built=None),
    ]
    s = sweep.summarize(rows)
    lv0, lv2 = s["levels"]
    assert (lv0["noise"], lv0["scenes"], lv0["failed"]) == (0.0, 2, 1)
    assert lv0["mean"]["recall_tall"] == pytest.approx(0.95)
    assert lv0["min"]["recall_tall"] == pytest.approx(0.9)
    assert lv0["mean"]["room_accuracy"] == pytest.approx(0.965)
    # An undefined number (None) is left out of the mean, not counted as 0.
    assert lv0["mean"]["precision"] == pytest.approx(0.9)
    assert lv0["mean"]["hcs_built"] == pytest.approx(0.6)
    assert lv0["min"]["hcs_built"] == pytest.approx(0.4)
    assert (lv0["recall_tall_ok"], lv0["room_accuracy_ok"], lv0["both_ok"]) == (1, 2, 1)
    assert (lv0["slowest_build_speed"], lv0["slowest_build_scene"]) == (0.5, "b")
    assert lv0["faster_than_real_time"] == 1
    assert (lv2["noise"], lv2["scenes"], lv2["failed"]) == (0.2, 1, 0)
    assert (lv2["recall_tall_ok"], lv2["room_accuracy_ok"], lv2["both_ok"]) == (0, 0, 0)
    assert lv2["mean"]["hcs_built"] is None
    assert s["failures"] == [{"scene": "c", "noise": 0.0, "stage": "simulate",
                              "error": "no room is reachable"}]


# --- resume -------------------------------------------------------------------------------------
class _FakePipeline:
    """Stands in for the expensive steps and counts the calls."""

    def __init__(self, truth: Any, fail_noise: float | None = None) -> None:
        self.truth = truth
        self.fail_noise = fail_noise
        self.calls: dict[str, list[Any]] = {"simulate": [], "build": [], "score": []}

    def simulate(self, truth: Any, bag: Path, config: Any) -> sweep.SimInfo:
        self.calls["simulate"].append(truth.name)
        bag.mkdir(parents=True)
        (bag / f"{bag.name}.mcap").write_bytes(b"x")  # a bag's files take its folder's name
        return sweep.SimInfo(drive_s=20.0, wall_s=4.0, image_width=config.image_width)

    def build(self, bag: Path, name: str, noise: float, *, seed: int, config: Any
              ) -> tuple[Any, float, float]:
        self.calls["build"].append(noise)
        assert bag.is_dir()  # built from the scene's bag
        if noise == self.fail_noise:
            raise sweep.MappingError("bag holds too little data")
        return self.truth, 20.0, 10.0

    def score(self, built: Any, truth: Any, *, shown: Any, episodes: Any) -> dict[str, Any]:
        self.calls["score"].append(built.name)
        return {k: 1.0 for k in sweep.SCORE_KEYS} | {"unseen_tall": 0, "hcs_true": None,
                                                      "hcs_built": None, "grounded": None,
                                                      "episodes": 0}

    def install(self, mp: pytest.MonkeyPatch) -> None:
        mp.setattr(sweep, "simulate_scene", self.simulate)
        mp.setattr(sweep, "build_map", self.build)
        mp.setattr(sweep, "score_built", self.score)
        mp.setattr(sweep, "shown_in_bag", lambda bag, config: set())


@pytest.fixture
def maps(tmp_path: Path, two_room_map: Any) -> Path:
    root = tmp_path / "maps"
    save_scene(two_room_map, root / "house")
    (root / "index.json").write_text(json.dumps({"test": ["house"]}))
    return root


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_existing_rows_are_not_recomputed(maps: Path, tmp_path: Path, two_room_map: Any,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakePipeline(two_room_map)
    fake.install(monkeypatch)
    out = tmp_path / "out"
    steps: list[str] = []
    rows = sweep.run_sweep(["house"], maps=maps, out=out, noises=[0.0, 0.3], image_width=480,
                           on_step=steps.append)
    assert fake.calls["simulate"] == ["two_room_house"] and fake.calls["build"] == [0.0, 0.3]
    assert len(steps) == 1 + 2 * 2
    assert [(r["noise"], r["build_speed"], r["drive_s"]) for r in rows] == [(0.0, 2.0, 20.0),
                                                                        (0.3, 2.0, 20.0)]
    assert not (out / "bags" / "house").exists()  # deleted after the last noise level
    assert (out / "built" / "house_n0.3" / "semantics.json").is_file()
    # Same scenes and levels again: nothing runs, the rows are the file's.
    again = sweep.run_sweep(["house"], maps=maps, out=out, noises=[0.3, 0.0], image_width=480)
    assert again == rows
    assert len(fake.calls["build"]) == 2 and len(fake.calls["simulate"]) == 1
    # A new level: only it is built (the bag was deleted, so it is simulated again).
    sweep.run_sweep(["house"], maps=maps, out=out, noises=[0.0, 0.3, 0.5], image_width=480)
    assert fake.calls["build"] == [0.0, 0.3, 0.5] and len(fake.calls["simulate"]) == 2
    assert len(_lines(out / "results.jsonl")) == 3
    # Another image width is another row key.
    sweep.run_sweep(["house"], maps=maps, out=out, noises=[0.0], image_width=320)
    assert len(fake.calls["build"]) == 4


def test_kept_bag_is_reused_and_an_incomplete_one_is_not(
        maps: Path, tmp_path: Path, two_room_map: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakePipeline(two_room_map)
    fake.install(monkeypatch)
    out = tmp_path / "out"
    sweep.run_sweep(["house"], maps=maps, out=out, noises=[0.0], image_width=480, keep_bags=True)
    assert (out / "bags" / "house").is_dir()
    assert sorted(p.name for p in (out / "bags").iterdir()) == ["house", "house.json"]
    assert [p.name for p in (out / "bags" / "house").iterdir()] == ["house.mcap"]
    rows = sweep.run_sweep(["house"], maps=maps, out=out, noises=[0.0, 0.2], image_width=480,
                           keep_bags=True)
    assert len(fake.calls["simulate"]) == 1  # the complete bag was reused ...
    assert rows[1]["simulate_wall_s"] == 4.0  # ... with its simulation's numbers
    # A bag without its info file is what an interrupted simulation leaves: simulated anew.
    (out / "bags" / "house.json").unlink()
    sweep.run_sweep(["house"], maps=maps, out=out, noises=[0.7], image_width=480)
    assert len(fake.calls["simulate"]) == 2


def test_failures_are_rows_and_are_retried(maps: Path, tmp_path: Path, two_room_map: Any,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakePipeline(two_room_map, fail_noise=0.3)
    fake.install(monkeypatch)
    out = tmp_path / "out"
    (maps / "broken").mkdir()  # a scene folder without a scene
    rows = sweep.run_sweep(["broken", "house"], maps=maps, out=out, noises=[0.0, 0.3],
                           image_width=480)
    errors = [(r["scene"], r["noise"], r["stage"]) for r in rows if r.get("error")]
    assert errors == [("broken", 0.0, "simulate"), ("broken", 0.3, "simulate"),
                      ("house", 0.3, "build")]
    assert "too little data" in rows[3]["error"]
    assert not rows[2].get("error")  # the sweep went on after the broken scene
    assert len(sweep.summarize(rows)["failures"]) == 3
    fake.fail_noise = None
    rows = sweep.run_sweep(["house"], maps=maps, out=out, noises=[0.0, 0.3], image_width=480)
    assert fake.calls["build"] == [0.0, 0.3, 0.3]  # only the failed level again
    assert not any(r.get("error") for r in rows)
    assert len(_lines(out / "results.jsonl")) == 4  # the error row was replaced, not added


def test_noise_out_of_range_is_refused(maps: Path, tmp_path: Path) -> None:
    with pytest.raises(sweep.MappingError, match=r"\[0, 1\]"):
        sweep.run_sweep(["house"], maps=maps, out=tmp_path / "o", noises=[1.5])


# --- atomic writes ------------------------------------------------------------------------------
def test_results_are_written_atomically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "results.jsonl"
    sweep.write_rows(path, [_row("a", 0.0, recall_tall=float("nan"), precision=0.5)])
    before = path.read_text()
    assert json.loads(before)["recall_tall"] is None  # NaN is no JSON: null

    def crash(src: Any, dst: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk full"):
        sweep.write_rows(path, [_row("a", 0.0), _row("b", 0.0)])
    assert path.read_text() == before  # the old file is whole ...
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.jsonl"]  # ... no temp left
    monkeypatch.undo()
    # A torn last line (written by something else) is skipped, the rest read.
    path.write_text(before + '{"scene": "b", "noi')
    assert [r["scene"] for r in sweep.read_rows(path)] == ["a"]


# --- the CLI: bad input -------------------------------------------------------------------------
def test_cli_bad_input_is_one_line(maps: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["bench", "mapping", "--maps", str(maps), "--scene", "nowhere",
                              "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and "unknown scene(s) 'nowhere'" in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    res = runner.invoke(app, ["bench", "mapping", "--maps", str(maps), "--noise", "1.5"])
    assert res.exit_code == 2 and "--noise" in res.output
    res = runner.invoke(app, ["bench", "mapping", "--maps", str(tmp_path / "none")])
    assert res.exit_code == 1 and "does not exist" in res.output
    assert "Traceback" not in res.output


# --- one real run -------------------------------------------------------------------------------
def _fridge_episodes(m: Any, path: Path) -> Path:
    """Two oracle episodes on the two-room house: to the fridge, and to the bed."""
    from map2route.bench.map2route.episode import Episode, StartPose, write_episodes
    from map2route.routeir import Region, RouteIR, Stage

    eps = []
    for oid in ("fridge_0", "bed_0"):
        obj = next(o for o in m.objects if o.id == oid)
        goal = Region.from_mask(f"near {oid}", m.goal_region_mask(obj) & m.traversable,
                                construction={"op": "goal_region", "object": oid},
                                object_ids=(oid,))
        ir = RouteIR(stages=(Stage(target=goal, label=oid),), constraints=(), grid=m.grid,
                     start=(1.5, 1.5), scene=m.name)
        row, col = m.grid.world_to_cell(1.5, 1.5)
        eps.append(Episode(id=f"{m.name}/easy/{oid}", scene=m.name, split="easy",
                           start=StartPose(x=1.5, y=1.5, yaw=0.0, row=row, col=col),
                           instruction=f"go to the {obj.category}", routeir=ir))
    return write_episodes(path, eps)


def test_cli_end_to_end_on_the_two_room_house(tmp_path: Path, two_room_map: Any) -> None:
    pytest.importorskip("open3d")
    maps = tmp_path / "maps"
    save_scene(two_room_map, maps / "two_room_house")
    (maps / "index.json").write_text(json.dumps({"test": ["two_room_house"]}))
    eps = _fridge_episodes(two_room_map, tmp_path / "eps.jsonl")
    # Fewer lidar points than the robot's keep the run short (as in test_pipeline.py).
    cfg = tmp_path / "fast.yaml"
    cfg.write_text("simulate:\n  lidar:\n    points_per_scan: 6000\n")
    out = tmp_path / "out"
    args = ["bench", "mapping", "--maps", str(maps), "--noise", "0", "--noise", "0.3",
            "--image-width", "480", "--episodes", str(eps), "--config", str(cfg),
            "--out", str(out), "--json"]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    rows = doc["rows"]
    assert [(r["scene"], r["noise"], r["image_width"]) for r in rows] == [
        ("two_room_house", 0.0, 480), ("two_room_house", 0.3, 480)]
    assert not any(r.get("error") for r in rows)
    for r in rows:
        for k in ("precision", "recall", "recall_tall", "room_accuracy", "traversability_iou",
                  "hcs_true", "hcs_built"):
            assert 0.0 <= r[k] <= 1.0, (k, r[k])
        assert r["drive_s"] > 10 and r["build_wall_s"] > 0 and r["simulate_wall_s"] > 0
        assert r["build_speed"] == pytest.approx(r["drive_s"] / r["build_wall_s"], rel=0.01)
        assert (r["episodes"], r["hcs_true"]) == (2, 1.0)
        assert 0 <= r["grounded"] <= 2 and r["unseen_tall"] >= 0
        assert (out / "built" / f"two_room_house_n{r['noise']:g}" / "semantics.json").is_file()
    clean = rows[0]
    assert clean["room_accuracy"] >= 0.9 and clean["recall_tall"] >= 0.8
    assert clean["grounded"] == 2
    assert len(_lines(out / "results.jsonl")) == 2
    assert not (out / "bags" / "two_room_house").exists()  # no --keep-bags
    for name in ("noise.png", "scenes.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    levels = doc["summary"]["levels"]
    assert [lv["noise"] for lv in levels] == [0.0, 0.3] and levels[0]["scenes"] == 1
    # Again: everything resumes from results.jsonl (same timings: nothing was rebuilt).
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0 and json.loads(again.stdout)["rows"] == rows
    # The tables name where the outputs are.
    table = CliRunner().invoke(app, args[:-1])
    assert table.exit_code == 0 and "results.jsonl" in table.output
    assert "two_room_house" in table.output and "noise.png" in table.output


def test_the_noise_curve_uses_only_scenes_measured_at_every_level() -> None:
    rows = [{"scene": "a", "noise": 0.0}, {"scene": "a", "noise": 0.3},
            {"scene": "b", "noise": 0.0}, {"scene": "b", "noise": 0.3, "error": "failed"},
            {"scene": "c", "noise": 0.0}]
    assert sweep.scenes_at_every_level(rows) == {"a"}
    assert sweep.scenes_at_every_level(rows[:1] + rows[2:3]) == {"a", "b"}
