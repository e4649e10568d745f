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


def test_generate_says_images_are_synthetic(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    masks = _masks(tmp_path / "masks")
    assert main(["nesy", "generate", "--out", str(tmp_path / "d"), "--count", "3", "--source",
                 str(masks), "--workers", "1"]) == 0
    assert "images are synthetic" in capsys.readouterr().out


def test_generate_writes_official_files(dataset: Path) -> None:
    import pandas as pd

    manifest = json.loads((dataset / "manifest.json").read_text())
    assert manifest["counts"]["task3"] == 24 and manifest["counts"]["task1"] == 8
    assert manifest["imagery"] == ["synthetic"] and "synthetic" in manifest["imagery_note"]
    splits = sorted((dataset / "Task3" / "evaluation").glob("*.parquet"))
    assert {p.stem for p in splits} <= {"easy", "medium", "hard"}
    t3 = pd.concat([pd.read_parquet(p) for p in splits])
    assert len(t3) == 24
    assert {"sample_id", "query_id", "source_image_name", "traverse_vector", "cost_vector",
            "start_point", "end_point", "gt_trajectory"} <= set(t3)
    row = t3.iloc[0]
    assert row.sample_id.split("_")[0] in ("easy", "medium", "hard")
    assert list(row.gt_trajectory[0]) == list(row.start_point)
    assert list(row.gt_trajectory[-1]) == list(row.end_point)
    labels = pd.read_parquet(dataset / "Task3" / "labels" / "labels.parquet")
    assert set(row.source_image_name for _, row in t3.iterrows()) <= set(labels.source_image_name)
    assert labels.label.iloc[0]["bytes"][:4] == b"\x89PNG"
    t2 = pd.concat([pd.read_parquet(p)
                    for p in sorted((dataset / "Task2" / "evaluation").glob("*.parquet"))])
    assert {"sample_id", "traverse_vector", "cost_vector", "region_vector"} <= set(t2)
    queries = json.loads((dataset / "Task1" / "queries.json").read_text())
    assert queries[0]["query_id"] == "Q00001"
    assert len(queries[0]["traverse_vector"]) == len(queries[0]["cost_vector"]) == 8
    images = pd.read_parquet(dataset / "images" / "images.parquet")
    assert set(images.imagery) == {"synthetic"}


def test_generate_our_cache_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    masks = _masks(tmp_path / "masks")
    out = tmp_path / "ours"
    assert main(["nesy", "generate", "--out", str(out), "--count", "6", "--source", str(masks),
                 "--workers", "1", "--format", "ours"]) == 0
    assert (out / "task3" / "task3.parquet").is_file()
    queries = json.loads((out / "task1" / "queries.json").read_text())
    assert set(queries[0]["vectors"]) == {"V_trav", "V_pref"}
    capsys.readouterr()
    assert main(["nesy", "eval", "--task", "3", "--data", str(out), "--method", "ours",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["metrics"]["avg"]["CR"] == 1.0


def test_generate_from_orthophotos(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import cv2
    import pandas as pd

    # OpenEarthMap layout, one region folder: images/ and labels/ GeoTIFF-named pairs
    region = tmp_path / "oem" / "town"
    (region / "images").mkdir(parents=True)
    (region / "labels").mkdir()
    mask = np.zeros((160, 160), dtype=np.uint8)
    mask[:80, :] = 3  # developed
    mask[80:88, :] = 4  # road
    mask[88:, :] = 2  # rangeland
    photo = np.zeros((160, 160, 3), dtype=np.uint8)
    photo[..., 0] = 200  # a red picture: nothing like the synthetic class colours
    assert cv2.imwrite(str(region / "images" / "town_1.tif"), photo[..., ::-1])
    assert cv2.imwrite(str(region / "labels" / "town_1.tif"), mask)
    out = tmp_path / "data"
    assert main(["nesy", "generate", "--out", str(out), "--count", "4", "--source",
                 str(tmp_path / "oem"), "--workers", "1"]) == 0
    images = pd.read_parquet(out / "images" / "images.parquet")
    assert list(images.imagery) == ["orthophoto"]
    assert images.source_image_name.iloc[0] == "town_1.png"
    img = cv2.imdecode(np.frombuffer(images.image.iloc[0], np.uint8), cv2.IMREAD_COLOR)[..., ::-1]
    # the photo itself, with the Task 2 region outlines drawn on it
    assert float(np.mean(np.all(img == [200, 0, 0], axis=-1))) > 0.5
    assert json.loads((out / "manifest.json").read_text())["imagery"] == ["orthophoto"]
    capsys.readouterr()
    assert main(["nesy", "eval", "--task", "3", "--data", str(out), "--method", "ours",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["metrics"]["avg"]["AR"] == 100.0


def test_orthophoto_size_mismatch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import cv2

    (tmp_path / "oem" / "images").mkdir(parents=True)
    (tmp_path / "oem" / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "oem" / "images" / "a.png"), np.zeros((10, 12, 3), np.uint8))
    cv2.imwrite(str(tmp_path / "oem" / "labels" / "a.png"), np.ones((10, 10), np.uint8))
    assert main(["nesy", "generate", "--out", str(tmp_path / "d"), "--count", "2", "--source",
                 str(tmp_path / "oem"), "--workers", "1"]) == 1
    assert "must be one size" in capsys.readouterr().err


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
    assert "has no query_id" in capsys.readouterr().err


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
