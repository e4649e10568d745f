"""The dev-split tuning sweep: parsing of --set and the grid of configs (no runs here)."""

from __future__ import annotations

import pytest
import yaml

from map2route.bench.planner.tuning import parse_setting, settings
from map2route.paths import config_dir
from map2route.planning import PlannerConfig, PlanningError


def test_parse_setting() -> None:
    assert parse_setting("lambdas.near=8,64") == (("lambdas", "near"), [8.0, 64.0])
    for bad in ("lambdas.near", "near=8", "lambdas.near=x", "lambdas.=8"):
        with pytest.raises(PlanningError):
            parse_setting(bad)


def test_settings_is_the_cartesian_product_and_validates() -> None:
    base = PlannerConfig.from_yaml()
    grid = settings(base, [parse_setting("lambdas.near=8,64"),
                           parse_setting("scales_m.far=3,5,8")])
    assert len(grid) == 6
    labels = [label for label, _ in grid]
    assert labels[0] == "lambdas.near=8 scales_m.far=3"
    assert {cfg.lambda_near for _, cfg in grid} == {8.0, 64.0}
    assert {cfg.far_scale_m for _, cfg in grid} == {3.0, 5.0, 8.0}
    assert base.lambda_near == 8.0, "the base config is not modified"
    assert settings(base, []) == [("config/planner.yaml", base)]
    with pytest.raises(PlanningError, match="unknown"):
        settings(base, [parse_setting("lambdas.nearx=1")])


def test_to_dict_is_the_shipped_document_and_round_trips() -> None:
    """What the sweep writes for the unchanged config is planner.yaml's own document."""
    raw = yaml.safe_load((config_dir() / "planner.yaml").read_text(encoding="utf-8"))
    cfg = PlannerConfig.from_yaml()
    assert cfg.to_dict() == raw
    assert PlannerConfig.from_dict(cfg.to_dict()) == cfg
    changed = settings(cfg, [parse_setting("search.length_budget=0.4")])[0][1]
    assert changed.to_dict()["search"]["length_budget"] == 0.4
    assert PlannerConfig.from_dict(changed.to_dict()) == changed
