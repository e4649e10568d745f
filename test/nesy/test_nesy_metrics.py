"""Every NeSy-Route metric against a case computed by hand (Eq. 9-16)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from map2route.nesy.evaluate import evaluate, read_predictions
from map2route.nesy.kb import IMPASSABLE
from map2route.nesy.metrics import (
    chamfer_distance,
    full_match,
    preference_correlation,
    region_match,
    score_trajectory,
    traversability_match,
)


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
    flat = [1, 1, 1, 1, 1, 0, 1, 0]  # pedestrian fastest: constant gt ranking
    assert preference_correlation([1, 2, 3, 4, 5, 0, 6, 0], flat, flat) is None
    trav = [0, 0, 1, 1, 1, 0, 0, 0]
    assert preference_correlation([0, 0, 1, 1, 1, 0, 0, 0], [0, 0, 3, 2, 1, 0, 0, 0], trav) is None


def test_rm_is_per_element() -> None:
    assert region_match([1, 2, 0, 0, 3, 0, 0, 4], [1, 2, 0, 0, 4, 0, 0, 3]) == 0.75


def test_chamfer_by_hand() -> None:
    assert chamfer_distance(np.array([[0, 0], [0, 1]]), np.array([[1, 0], [1, 1]])) == 1.0
    assert chamfer_distance(np.array([[0, 0]]), np.array([[0, 0], [0, 2]])) == 0.5


def _open(rows: int, cols: int) -> np.ndarray:
    return np.ones((rows, cols), dtype=np.uint16)


def test_adherent_detour_cost_ratio() -> None:
    w = _open(3, 5)
    gt = np.array([[0, c] for c in range(5)])  # cost 5
    s = score_trajectory(w, [(0, 0), (2, 0), (0, 4)], gt, (0, 0), (0, 4))
    # (0,0)->(2,0): 3 cells; (2,0)->(0,4): 4 more (Chebyshev) -> 7 cells of cost 1
    assert s.adherent and s.violation_ratio is None
    assert len(s.dense) == 7 and s.cost_ratio == pytest.approx(7 / 5)


def test_optimal_prediction_has_cr_one() -> None:
    w = _open(3, 5)
    gt = np.array([[0, c] for c in range(5)])
    s = score_trajectory(w, [(0, 0), (0, 4)], gt, (0, 0), (0, 4))
    assert s.cost_ratio == 1.0 and s.chamfer == 0.0


def test_start_and_end_are_added() -> None:
    w = _open(1, 5)
    gt = np.array([[0, c] for c in range(5)])
    s = score_trajectory(w, [(0, 2)], gt, (0, 0), (0, 4))
    assert s.dense.tolist() == gt.tolist() and s.cost_ratio == 1.0


def test_non_adherent_uses_bresenham_for_vr() -> None:
    w = _open(5, 5)
    w[0:4, 2] = IMPASSABLE
    gt = np.array([[0, 0], [1, 0], [2, 0], [3, 0], [4, 1], [3, 2], [2, 3], [1, 4], [0, 4]])
    s = score_trajectory(w, [(0, 0), (0, 2), (0, 4)], gt, (0, 0), (0, 4))
    # waypoint (0,2) is impassable -> S_B; Bresenham row 0: 5 cells, 1 on the wall
    assert not s.adherent and s.cost_ratio is None
    assert s.violation_ratio == pytest.approx(0.2)
    assert s.dense.tolist() == [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]]


def test_outside_waypoint_counts_as_violation() -> None:
    w = _open(2, 2)
    s = score_trajectory(w, [(0, 0), (0, 3), (1, 1)], np.array([[0, 0], [1, 1]]), (0, 0), (1, 1))
    assert not s.adherent
    # Bresenham (0,0)-(0,3): 4 cells, 2 outside; (0,3)-(1,1): (0,3),(1,2)?,(1,1)
    assert s.violation_ratio is not None and s.violation_ratio > 0.4


def test_missing_prediction_is_a_failure() -> None:
    w = _open(1, 3)
    s = score_trajectory(w, None, np.array([[0, 0], [0, 1], [0, 2]]), (0, 0), (0, 2))
    assert not s.adherent and s.violation_ratio == 1.0 and s.chamfer == 0.0


def test_unreachable_leg_is_non_adherent() -> None:
    w = _open(3, 3)
    w[:, 1] = IMPASSABLE
    s = score_trajectory(w, [(0, 0), (0, 2)], np.array([[0, 0], [0, 2]]), (0, 0), (0, 2))
    assert not s.adherent and s.violation_ratio == pytest.approx(1 / 3)


def test_task1_evaluation_by_hand(tmp_path: Path) -> None:
    gt = [
        {"sample_id": "a", "query": "", "vectors": {"V_trav": [0, 0, 1, 1, 1, 0, 0, 0],
                                                    "V_pref": [0, 0, 3, 2, 1, 0, 0, 0]}},
        {"sample_id": "b", "query": "", "vectors": {"V_trav": [0, 0, 0, 0, 0, 1, 0, 0],
                                                    "V_pref": [0, 0, 0, 0, 0, 1, 0, 0]}},
        {"sample_id": "c", "query": "", "vectors": {"V_trav": [0, 0, 1, 1, 0, 0, 0, 0],
                                                    "V_pref": [0, 0, 2, 1, 0, 0, 0, 0]}},
    ]
    (tmp_path / "task1").mkdir()
    (tmp_path / "task1" / "queries.json").write_text(json.dumps(gt))
    pred = tmp_path / "pred.jsonl"
    pred.write_text(
        json.dumps({"sample_id": "a", "V_trav": [0, 0, 1, 1, 1, 0, 0, 0],
                    "V_pref": [0, 0, 1, 2, 3, 0, 0, 0]}) + "\n"
        + json.dumps({"sample_id": "b", "prediction": {"V_trav": [0, 0, 0, 0, 0, 1, 0, 0],
                                                       "V_pref": [0, 0, 0, 0, 0, 1, 0, 0]}})
        + "\n")
    r = evaluate(tmp_path, 1, read_predictions(pred))
    scores = r.table["all"]
    # a: TM ok, pref reversed (tau -1), FM no; b: all ok, PR skipped; c: missing -> fails, PR 0
    assert scores["TM"] == pytest.approx(200 / 3)
    assert scores["FM"] == pytest.approx(100 / 3)
    assert scores["PR"] == pytest.approx(-0.5)
    assert r.skipped_pr == 1 and r.missing == 1
