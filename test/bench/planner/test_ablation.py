"""The planner ablation table (bench/planner/ablation.py): rows, configs, the Table IV layout."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from map2route.bench.planner.ablation import PAPER_ROWS, ablation_rows, main, row_config, table
from map2route.planning.config import PlannerConfig
from map2route.planning.errors import PlanningError


def _base() -> PlannerConfig:
    return PlannerConfig.from_yaml()


def test_rows_add_one_component_each_and_end_with_the_budgets() -> None:
    rows = ablation_rows([0.4, 1.0])
    labels = [r.label for r in rows]
    assert labels[0] == "cost map only (J terms)"
    assert labels[-2:] == ["+ length budget +40 %", "+ length budget +100 %"]
    cfgs = [row_config(_base(), r) for r in rows]
    assert [(c.soft_waypoints, c.far_waypoints, c.pass_along) for c in cfgs[:4]] == [
        (False, False, False), (True, False, False), (True, True, False), (True, True, True)]
    assert [c.length_budget for c in cfgs] == [None, None, None, None, None, 0.4, 1.0]
    # the metric-aware candidates come in one row, as shipped; the budgets build on it
    aware = [(c.evaluator_window, c.pass_around, c.outside_target, c.loops, c.trade)
             for c in cfgs]
    assert aware[:4] == [(False, False, False, False, 0.0)] * 4
    assert aware[4:] == [(True, True, True, True, 0.25)] * 3
    shipped = PlannerConfig.from_yaml()
    assert aware[4] == (shipped.evaluator_window, shipped.pass_around, shipped.outside_target,
                        shipped.loops, shipped.trade)
    # the lambdas and scales are the shipped ones in every row
    assert {c.lambda_far for c in cfgs} == {PlannerConfig.from_yaml().lambda_far}


def test_row_config_rejects_a_bad_row() -> None:
    bad = ablation_rows([])[0]
    bad = type(bad)("bad", {"length_budget": -1})
    with pytest.raises(PlanningError, match="length_budget"):
        row_config(_base(), bad)


def test_table_shows_the_paper_rows_and_ratios_to_shortest() -> None:
    shortest = {"all": {"near": 2.0, "far": 2.0, "relative": 1.0, "hcs": 1.0, "spl": 1.0,
                        "pl": 20.0}}
    ours = {"all": {"near": 1.3, "far": 3.2, "relative": 1.9, "hcs": 1.0, "spl": 0.75,
                    "pl": 26.0}}
    text = table([("ours", ours, 42.0)], shortest)
    lines = text.splitlines()
    assert lines[2].startswith(f"| {PAPER_ROWS[0][0]} | 0.57x | 1.55x | 2.09x")
    assert lines[3].startswith(f"| {PAPER_ROWS[1][0]} | 0.68x | 1.42x | 1.78x")
    assert "| 1.00x | 1.00x | 1.00x | 1.000 | 1.000 | 20.0 |" in lines[4]
    # 1.3 / 2.0, 3.2 / 2.0, 1.9 / 1.0
    assert lines[5] == "| ours | 0.65x | 1.60x | 1.90x | 1.000 | 0.750 | 26.0 | 42 |"


def test_cli_rejects_a_negative_budget(tmp_path) -> None:
    result = CliRunner().invoke(main, ["--budgets", "-1", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "length budgets must be >= 0" in result.output
