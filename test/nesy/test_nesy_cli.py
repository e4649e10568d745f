"""End to end: `map2route nesy generate` then `nesy eval` for the three tasks, and CLI errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from map2route.cli import main
from map2route.nesy.landcover import encode_png

pytest.importorskip("pandas")


def _masks(folder: Path) -> Path:
    folder.mkdir()
    for k in range(2):
        m = np.zeros((160, 160), dtype=np.uint8)
        m[0:40, :] = 3  # developed
        m[0:40, 100:] = 1  # bareland
        m[10:30, 10:30] = 8  # a building block
        m[40:48, :] = 4  # road
        m[48:80, :] = 7  # agriculture
        m[80:120, :] = 2  # rangeland
        m[120:, :] = 6  # water
        m[120:, 110 - 20 * k:] = 5  # trees
        m[60:100, 75:81] = 4  # a track down to the lake
        (folder / f"tile{k}.png").write_bytes(encode_png(m))
    return folder


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("nesy")
    masks = _masks(root / "masks")
    out = root / "data"
    rc = main(["nesy", "generate", "--out", str(out), "--count", "24", "--source", str(masks),
               "--workers", "1", "--seed", "3"])
    assert rc == 0
    return out


def test_generate_writes_official_files(dataset: Path) -> None:
    import pandas as pd

    manifest = json.loads((dataset / "manifest.json").read_text())
    assert manifest["counts"]["task3"] == 24 and manifest["counts"]["task1"] == 8
    t3 = pd.read_parquet(dataset / "task3" / "task3.parquet")
    assert {"sample_id", "vectors", "start_point", "end_point", "gt_trajectory"} <= set(t3)
    row = t3.iloc[0]
    assert list(row.gt_trajectory[0]) == list(row.start_point)
    assert list(row.gt_trajectory[-1]) == list(row.end_point)
    labels = pd.read_parquet(dataset / "labels" / "labels.parquet")
    assert labels.label.iloc[0][:4] == b"\x89PNG"
    queries = json.loads((dataset / "task1" / "queries.json").read_text())
    assert set(queries[0]["vectors"]) == {"V_trav", "V_pref"}


@pytest.mark.parametrize("task", ["1", "2", "3"])
def test_eval_ours(dataset: Path, task: str, capsys: pytest.CaptureFixture[str]) -> None:
    pred = dataset / f"ours{task}.jsonl"
    rc = main(["nesy", "eval", "--task", task, "--data", str(dataset), "--method", "ours",
               "--pred", str(pred), "--json"])
    out = capsys.readouterr().out
    assert rc == 0
    result = json.loads(out)
    avg = result["metrics"]["all" if task == "1" else "avg"]
    if task == "3":
        # our routes are optimal by construction: CR exactly 1, every sample adherent
        assert avg["AR"] == 100.0 and avg["CR"] == 1.0 and avg["VR"] is None
    else:
        assert avg["TM"] == 100.0
    assert result["missing_predictions"] == 0
    # the written predictions score the same when read back
    rc = main(["nesy", "eval", "--task", task, "--data", str(dataset), "--pred", str(pred)])
    assert rc == 0


def test_eval_bad_prediction_line(dataset: Path, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"V_trav": [1]}\n')
    assert main(["nesy", "eval", "--task", "1", "--data", str(dataset), "--pred", str(bad)]) == 1
    assert "has no sample_id" in capsys.readouterr().err


def test_eval_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nesy", "eval", "--task", "1", "--data", str(tmp_path)]) == 2
    assert main(["nesy", "eval", "--task", "3", "--data", str(tmp_path / "none"),
                 "--method", "ours"]) == 1
    assert "does not exist" in capsys.readouterr().err


def test_endpoints_probe_scores_optimal(dataset: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["nesy", "eval", "--task", "3", "--data", str(dataset), "--method", "endpoints",
               "--pred", str(dataset / "endpoints.jsonl"), "--json"])
    out = capsys.readouterr().out
    assert rc == 0
    avg = json.loads(out)["metrics"]["avg"]
    # S and E are traversable, so the evaluator joins them by A*: the protocol calls it optimal
    assert avg["AR"] == 100.0 and avg["CR"] == 1.0


def test_line_baseline_is_scored(dataset: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["nesy", "eval", "--task", "3", "--data", str(dataset), "--method", "line",
               "--pred", str(dataset / "line.jsonl"), "--json"])
    out = capsys.readouterr().out
    assert rc == 0
    avg = json.loads(out)["metrics"]["avg"]
    assert avg["AR"] is not None and avg["CD"] is not None and avg["CD"] >= 0.0
    assert avg["CR"] is None or avg["CR"] >= 1.0
