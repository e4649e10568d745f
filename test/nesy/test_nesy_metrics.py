"""Every NeSy-Route metric against a case computed by hand (Eq. 9-16), official semantics."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from map2route.bench.nesy.evaluate import evaluate
from map2route.nesy.errors import NesyError
from map2route.nesy.kb import IMPASSABLE
from map2route.nesy.metrics import (
    chamfer_distance,
    full_match,
    official_astar,
    official_line,
    preference_correlation,
    region_match,
    score_trajectory,
    traversability_match,
)
from map2route.nesy.official import read_predictions


def test_tm_and_fm() -> None:
    assert traversability_match([0, 0, 1, 1, 0, 0, 0, 0], [0, 0, 1, 1, 0, 0, 0, 0])
    assert not traversability_match([0, 0, 1, 1, 0, 0, 0, 1], [0, 0, 1, 1, 0, 0, 0, 0])
    gt_t, gt_p = [0, 0, 1, 1, 0, 0, 0, 0], [0, 0, 2, 1, 0, 0, 0, 0]
    assert full_match(gt_t, gt_p, gt_t, gt_p)
    assert not full_match(gt_t, [0, 0, 1, 2, 0, 0, 0, 0], gt_t, gt_p)


def test_kendall_tau_b_with_ties() -> None:
    # over classes 0-3: pred (3,1,2,2) vs gt (3,2,1,1): 3 concordant, 2 discordant, one pair
    # tied in both -> tau_b = (3 - 2) / sqrt((6 - 1) * (6 - 1)) = 0.2
    trav = [1, 1, 1, 1, 0, 0, 0, 0]
    tau = preference_correlation([3, 1, 2, 2, 9, 9, 9, 9], [3, 2, 1, 1, 0, 0, 0, 0], trav)
    assert tau == pytest.approx(0.2)


def test_kendall_ignores_non_traversable_classes() -> None:
    trav = [0, 0, 1, 1, 1, 0, 0, 0]
    assert preference_correlation([5, 5, 3, 2, 1, 0, 7, 7], [0, 0, 3, 2, 1, 0, 0, 0], trav) == \
        pytest.approx(1.0)
    assert preference_correlation([0, 0, 1, 2, 3, 0, 0, 0], [0, 0, 3, 2, 1, 0, 0, 0], trav) == \
        pytest.approx(-1.0)


def test_pr_skip_rules() -> None:
    one = [0, 0, 0, 0, 0, 1, 0, 0]  # a boat: one traversable class
    assert preference_correlation([0, 0, 0, 0, 0, 1, 0, 0], one, one) is None
    flat = [1, 1, 1, 1, 1, 0, 1, 0]  # shortest: a constant gt ranking
    assert preference_correlation([1, 2, 3, 4, 5, 0, 6, 0], flat, flat) is None
    trav = [0, 0, 1, 1, 1, 0, 0, 0]
    assert preference_correlation([0, 0, 1, 1, 1, 0, 0, 0], [0, 0, 3, 2, 1, 0, 0, 0], trav) is None


def test_rm_is_per_element() -> None:
    assert region_match([1, 2, 0, 0, 3, 0, 0, 4], [1, 2, 0, 0, 4, 0, 0, 3]) == 0.75


# --- lines, A*, Chamfer ---------------------------------------------------------------------
def test_official_line_hand_cases() -> None:
    # (row, col) (0,0)->(2,5): x = col runs, err = 5 - 2 = 3; x steps each time, y at 2 and 4
    assert official_line((0, 0), (2, 5)).tolist() == \
        [[0, 0], [0, 1], [1, 2], [1, 3], [2, 4], [2, 5]]
    # a tie: (0,0)->(1,2): err = 1; step 1: 2 > -1 -> x, 2 < 2 false -> (0,1); step 2: both
    # -> (1,2). A row-major Bresenham with >= / <= takes (1,1) instead.
    assert official_line((0, 0), (1, 2)).tolist() == [[0, 0], [0, 1], [1, 2]]
    assert official_line((3, 3), (3, 3)).tolist() == [[3, 3]]
    # going left and up: (2,2)->(0,0) is the diagonal
    assert official_line((2, 2), (0, 0)).tolist() == [[2, 2], [1, 1], [0, 0]]


def test_official_astar_tie_order() -> None:
    # open 3x3, (0,0)->(0,2): every 3-cell path via row 0 or row 1 costs 2 (entering cells).
    # Neighbours are visited x-major (dx outer): from (0,0) the first pushed with f = 1 + 1/√2
    # ... the official order pops (0,1) [x=1,y=0] before (1,1), so the path is row 0.
    w = np.ones((3, 3), dtype=np.uint16)
    assert official_astar(w, (0, 0), (0, 2), min_cost=1.0).tolist() == [[0, 0], [0, 1], [0, 2]]
    w[0, 1] = IMPASSABLE
    assert official_astar(w, (0, 0), (0, 2), min_cost=1.0).tolist() == [[0, 0], [1, 1], [0, 2]]
    w[:, 1] = IMPASSABLE
    assert official_astar(w, (0, 0), (0, 2), min_cost=1.0) is None


def test_chamfer_by_hand() -> None:
    assert chamfer_distance(np.array([[0, 0], [0, 1]]), np.array([[1, 0], [1, 1]])) == 1.0
    assert chamfer_distance(np.array([[0, 0]]), np.array([[0, 0], [0, 2]])) == 0.5
    # a->b: 1, sqrt(2), 1; b->a: 1, 1 -> ((2 + sqrt 2) / 3 + 1) / 2
    cd = chamfer_distance(np.array([[0, 0], [0, 1], [0, 2]]), np.array([[1, 0], [1, 2]]))
    assert cd == pytest.approx(((2 + math.sqrt(2)) / 3 + 1) / 2, abs=1e-6)
    assert chamfer_distance(np.zeros((0, 2)), np.array([[0, 0]])) == math.inf


# --- one trajectory -------------------------------------------------------------------------
def _open(rows: int, cols: int) -> np.ndarray:
    return np.ones((rows, cols), dtype=np.uint16)


def test_adherent_detour_cost_ratio() -> None:
    w = _open(3, 5)
    gt = np.array([[0, c] for c in range(5)])  # cost 5
    s = score_trajectory(w, [(0, 0), (2, 0), (0, 4)], gt)
    # (0,0)->(2,0): 3 cells; (2,0)->(0,4): 4 more (Chebyshev) -> 7 cells of cost 1
    assert s.adherent and s.violation_ratio is None and s.connection == "astar"
    assert len(s.dense) == 7 and s.cost_ratio == pytest.approx(7 / 5)


def test_optimal_prediction_has_cr_one() -> None:
    w = _open(3, 5)
    gt = np.array([[0, c] for c in range(5)])
    s = score_trajectory(w, [(0, 0), (0, 4)], gt)
    assert s.cost_ratio == 1.0 and s.chamfer == 0.0


def test_start_and_end_are_not_added() -> None:
    # the official scorer uses the prediction as given: one waypoint (0,2) is the whole path
    w = _open(1, 5)
    gt = np.array([[0, c] for c in range(5)])
    s = score_trajectory(w, [(0, 2)], gt)
    assert s.dense.tolist() == [[0, 2]]
    assert s.cost_ratio == pytest.approx(1 / 5)
    # CD: pred->gt 0; gt->pred 2, 1, 0, 1, 2 -> mean 1.2; (0 + 1.2) / 2
    assert s.chamfer == pytest.approx(0.6)


def test_non_adherent_uses_bresenham_for_vr() -> None:
    w = _open(5, 5)
    w[0:4, 2] = IMPASSABLE
    gt = np.array([[0, 0], [1, 0], [2, 0], [3, 0], [4, 1], [3, 2], [2, 3], [1, 4], [0, 4]])
    s = score_trajectory(w, [(0, 0), (0, 2), (0, 4)], gt)
    # waypoint (0,2) is impassable -> S_B; Bresenham row 0: 5 cells, 1 on the wall
    assert not s.adherent and s.cost_ratio is None
    assert s.violation_ratio == pytest.approx(0.2)
    assert s.dense.tolist() == [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]]


def test_outside_waypoint_counts_as_violation() -> None:
    w = _open(2, 2)
    s = score_trajectory(w, [(0, 0), (0, 3)], np.array([[0, 0], [1, 1]]))
    # (0,0)-(0,3): 4 cells, (0,2) and (0,3) outside
    assert not s.adherent and s.violation_ratio == 0.5


def test_unreachable_leg_stays_adherent_without_cr() -> None:
    # both waypoints legal, the wall between them: adherent, no CR, no VR, Bresenham path
    w = _open(3, 3)
    w[:, 1] = IMPASSABLE
    s = score_trajectory(w, [(0, 0), (0, 2)], np.array([[0, 0], [0, 2]]))
    assert s.adherent and s.cost_ratio is None and s.violation_ratio is None
    assert s.connection == "bresenham_fallback"
    assert s.dense.tolist() == [[0, 0], [0, 1], [0, 2]]
    assert s.chamfer == pytest.approx((1 / 3 + 0) / 2)


# --- official-format files, written from the documented format ------------------------------
def _png(mask: np.ndarray) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(mask.astype(np.uint8), mode="L").save(buf, "PNG")
    return buf.getvalue()


def test_task1_official_files_by_hand(tmp_path: Path) -> None:
    gt = [
        {"query_id": "Q00001", "query": "", "traverse_vector": [0, 0, 1, 1, 1, 0, 0, 0],
         "cost_vector": [0, 0, 3, 2, 1, 0, 0, 0]},
        {"query_id": "Q00002", "query": "", "traverse_vector": [0, 0, 0, 0, 0, 1, 0, 0],
         "cost_vector": [0, 0, 0, 0, 0, 1, 0, 0]},
        {"query_id": "Q00003", "query": "", "traverse_vector": [0, 0, 1, 1, 0, 0, 0, 0],
         "cost_vector": [0, 0, 2, 1, 0, 0, 0, 0]},
        {"query_id": "Q00004", "query": "", "traverse_vector": [0, 0, 1, 1, 0, 0, 0, 0],
         "cost_vector": [0, 0, 2, 1, 0, 0, 0, 0]},
    ]
    (tmp_path / "Task1").mkdir()
    (tmp_path / "Task1" / "queries.json").write_text(json.dumps(gt))
    pred = tmp_path / "pred.jsonl"
    pred.write_text("\n".join(json.dumps(p) for p in [
        {"query_id": "Q00001", "traverse_vector": [0, 0, 1, 1, 1, 0, 0, 0],
         "cost_vector": [0, 0, 1, 2, 3, 0, 0, 0]},
        {"query_id": 2, "pred_traverse_vector": [0, 0, 0, 0, 0, 1, 0, 0],
         "pred_cost_vector": [0, 0, 0, 0, 0, 1, 0, 0]},
        {"query_id": "Q00004", "traverse_vector": [0, 0, 1, 1], "cost_vector": [1, 1, 1, 1]},
        {"query_id": "Q00009", "traverse_vector": [0] * 8, "cost_vector": [0] * 8},
    ]) + "\n")
    r = evaluate(tmp_path, 1, read_predictions(pred))
    scores = r.table["all"]
    # scored: Q1 (TM ok, ranking reversed: tau -1, FM no), Q2 (all ok, PR undefined);
    # Q3 missing and Q4 not 8 long are not scored, Q9 is unknown
    assert scores["TM"] == pytest.approx(100.0)
    assert scores["FM"] == pytest.approx(50.0)
    assert scores["PR"] == pytest.approx(-1.0)
    assert (r.missing, r.skipped, r.unknown, r.skipped_pr) == (1, 1, 1, 1)


def test_task2_official_files_by_hand(tmp_path: Path) -> None:
    folder = tmp_path / "Task2" / "evaluation"
    folder.mkdir(parents=True)
    rows = [
        {"sample_id": "easy_000001", "query_id": "Q00001", "source_image_name": "a.tif",
         "traverse_vector": [0, 0, 1, 1, 0, 0, 0, 0], "cost_vector": [0, 0, 1, 2, 0, 0, 0, 0],
         "region_vector": [0, 0, 1, 2, 0, 3, 0, 4]},
        {"sample_id": "easy_000002", "query_id": "Q00002", "source_image_name": "a.tif",
         "traverse_vector": [1, 1, 1, 1, 0, 0, 0, 0], "cost_vector": [1, 2, 3, 4, 0, 0, 0, 0],
         "region_vector": [1, 2, 3, 4, 0, 0, 0, 0]},
    ]
    pd.DataFrame(rows).to_parquet(folder / "easy.parquet")
    pred = tmp_path / "p.jsonl"
    pred.write_text("\n".join(json.dumps(p) for p in [
        {"sample_id": "easy_000001", "traverse_vector": [0, 0, 1, 1, 0, 0, 0, 0],
         "cost_vector": [0, 0, 1, 2, 0, 0, 0, 0], "region_vector": [0, 0, 1, 2, 0, 4, 0, 3]},
        {"sample_id": "easy_000002", "traverse_vector": [1, 1, 1, 1, 0, 0, 0, 1],
         "cost_vector": [1, 2, 4, 3, 0, 0, 0, 1], "region_vector": [1, 2, 3, 4, 0, 0, 0, 0]},
    ]) + "\n")
    r = evaluate(tmp_path, 2, read_predictions(pred))
    easy = r.table["easy"]
    # RM: 6/8 and 8/8 -> 87.5 %; TM: 1 of 2; PR: sample 1 tau 1 (road > developed both),
    # sample 2 over classes 0-3: (1,2,4,3) vs (1,2,3,4): 5 concordant, 1 discordant -> 4/6
    assert easy["RM"] == pytest.approx(87.5)
    assert easy["TM"] == pytest.approx(50.0)
    assert easy["PR"] == pytest.approx((1.0 + 4 / 6) / 2)
    assert r.table["avg"]["RM"] == pytest.approx(87.5)  # only the easy split is present


@pytest.fixture
def task3_release(tmp_path: Path) -> Path:
    """A 4x6 image: bareland (1) everywhere, a building (8) wall at x = 3 for y = 0-2, one
    unlabelled (0) pixel at x = 0, y = 3; the query may use bareland only (cost 1)."""
    mask = np.ones((4, 6), dtype=np.uint8)
    mask[0:3, 3] = 8
    mask[3, 0] = 0
    (tmp_path / "Task3" / "labels").mkdir(parents=True)
    (tmp_path / "Task3" / "evaluation").mkdir(parents=True)
    pd.DataFrame([{"source_image_name": "tile.tif", "label": {"bytes": _png(mask), "path": None},
                   "width": 6, "height": 4}]).to_parquet(
        tmp_path / "Task3" / "labels" / "labels.parquet")
    trav = [1, 0, 0, 0, 0, 0, 0, 0]
    base = {"query_id": "Q00001", "source_image_name": "tile.tif", "traverse_vector": trav,
            "cost_vector": trav, "start_point": [0, 0], "end_point": [5, 0],
            "gt_trajectory": GT}
    pd.DataFrame([{**base, "sample_id": f"easy_00000{i}"} for i in range(1, 6)]).to_parquet(
        tmp_path / "Task3" / "evaluation" / "easy.parquet")
    return tmp_path


#: [x, y] under the wall through (3, 3): 7 cells, cost 7 (x must go 0 -> 3 -> 5 via y = 3).
GT = [[0, 0], [1, 1], [2, 2], [3, 3], [4, 2], [5, 1], [5, 0]]


def test_task3_official_files_by_hand(task3_release: Path) -> None:
    pred = task3_release / "p.jsonl"
    pred.write_text("\n".join(json.dumps(p) for p in [
        # 1: the ground truth as waypoints: A* joins neighbours directly -> CR 1, CD 0
        {"sample_id": "easy_000001", "trajectory": GT},
        # 2: through the wall: non-adherent; line y = 0, x 0..5: 6 px, 1 on the building
        {"sample_id": "easy_000002", "trajectory": [[0, 0], [3, 0], [5, 0]]},
        # 3: ends on the unlabelled pixel: non-adherent; line x = 0, y 0..3: 4 px, 1 unlabelled
        {"sample_id": "easy_000003", "trajectory": [[0, 0], [0, 3]]},
        # 4: float coordinates: an evaluation error (non-adherent, nothing else)
        {"sample_id": "easy_000004", "trajectory": [[0.0, 0.0], [5.0, 0.0]]},
        # 5: no prediction at all -> not scored
    ]) + "\n")
    r = evaluate(task3_release, 3, read_predictions(pred))
    easy = r.table["easy"]
    assert r.counts["easy"] == 4 and r.missing == 1 and r.errors == 1
    assert easy["AR"] == pytest.approx(25.0)  # 1 adherent of 4 matched
    assert easy["CR"] == pytest.approx(1.0)
    assert easy["VR"] == pytest.approx(100 * (1 / 6 + 1 / 4) / 2)
    r2, r5 = math.sqrt(2), math.sqrt(5)
    # 2: pred->gt 0, 1, sqrt2, 2 (to (5, 0)), 1, 0; gt->pred 0, 1, 2, 3, 2, 1, 0
    cd2 = ((4 + r2) / 6 + 9 / 7) / 2
    # 3: pred->gt 0, 1, sqrt2, sqrt5; gt->pred 0, 1, 2, 3, 4, 5, 5
    cd3 = ((1 + r2 + r5) / 4 + 20 / 7) / 2
    assert easy["CD"] == pytest.approx((0 + cd2 + cd3) / 3, abs=1e-6)


def test_task3_duplicate_prediction_is_an_error(task3_release: Path) -> None:
    pred = task3_release / "p.jsonl"
    row = json.dumps({"sample_id": "easy_000001", "trajectory": [[0, 0]]})
    pred.write_text(row + "\n" + row + "\n")
    with pytest.raises(NesyError, match="two predictions"):
        evaluate(task3_release, 3, read_predictions(pred))


def test_success_false_rows_are_ignored(tmp_path: Path) -> None:
    pred = tmp_path / "p.json"
    pred.write_text(json.dumps({"predictions": [{"sample_id": "a", "success": False},
                                                {"sample_id": "b"}]}))
    assert [r["sample_id"] for r in read_predictions(pred)] == ["b"]
