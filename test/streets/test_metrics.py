"""NE, SR, OSR, nDTW, SDTW and accuracy@d on hand-computed cases (10 m node spacing)."""

from __future__ import annotations

import math

import pytest

from map2route.streets.graph import StreetGraph
from map2route.streets.metrics import mean_scores, score_paths


def ids(graph: StreetGraph, names: list[str]) -> list[int]:
    return [graph.node(n) for n in names]


def test_exact_path_is_perfect(city: StreetGraph) -> None:
    ref = ids(city, ["x0y0", "x10y0", "x20y0", "x30y0"])
    s = score_paths(city, ref, ref)
    assert (s.ne_m, s.sr, s.osr, s.ndtw, s.sdtw) == (pytest.approx(0.0), 1.0, 1.0, 1.0, 1.0)
    assert s.reference_length_m == pytest.approx(30.0, rel=1e-3)


def test_stopping_short_by_two_nodes(city: StreetGraph) -> None:
    # pred 0,10 vs ref 0,10,20,30: NE = 20 m -> success; DTW = 0 + 0 + 10 + 20 = 30 m.
    ref = ids(city, ["x0y0", "x10y0", "x20y0", "x30y0"])
    s = score_paths(city, ref[:2], ref)
    assert s.ne_m == pytest.approx(20.0, rel=1e-3)
    assert s.sr == 1.0 and s.acc_25 == 1.0
    assert s.ndtw == pytest.approx(math.exp(-30.0 / 30.0), rel=1e-3)
    assert s.sdtw == pytest.approx(s.ndtw)


def test_overshoot_fails_but_oracle_success_counts(city: StreetGraph) -> None:
    # ref ends at x30y0; pred walks on to x70y0: NE 40 m, it passed the goal (OSR 1).
    ref = ids(city, ["x0y0", "x10y0", "x20y0", "x30y0"])
    pred = ids(city, [f"x{x}y0" for x in range(0, 71, 10)])
    s = score_paths(city, pred, ref)
    assert s.ne_m == pytest.approx(40.0, rel=1e-3)
    assert (s.sr, s.osr, s.sdtw, s.acc_25, s.acc_50, s.acc_100) == (0.0, 1.0, 0.0, 0.0, 1.0, 1.0)
    # DTW: 0,10,20 match; 30 matches 30..70 (0+10+20+30+40) -> 100 m over a 30 m reference.
    assert s.ndtw == pytest.approx(math.exp(-100.0 / 30.0), rel=1e-3)


def test_wrong_turn(city: StreetGraph) -> None:
    ref = ids(city, ["x50y0", "x60y0", "x70y0"])
    pred = ids(city, ["x50y0", "x50y10", "x50y20"])
    s = score_paths(city, pred, ref)
    assert s.ne_m == pytest.approx(math.hypot(20, 20), rel=1e-3)
    # The start x50y0 is 20 m from the goal: inside 25 m, so OSR counts it.
    assert s.sr == 0.0 and s.osr == 1.0 and s.acc_50 == 1.0


def test_mean_and_empty_inputs(city: StreetGraph) -> None:
    ref = ids(city, ["x0y0", "x10y0"])
    m = mean_scores([score_paths(city, ref, ref), score_paths(city, ref[:1], ref[::-1])])
    assert m["sr"] == 1.0 and m["ne_m"] == pytest.approx(0.0)
    assert mean_scores([]) == {}
    with pytest.raises(ValueError, match="non-empty"):
        score_paths(city, [], ref)
