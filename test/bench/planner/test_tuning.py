"""The dev-split tuning sweep: parsing of --set and the grid of configs (no runs here)."""

from __future__ import annotations

import pytest
import yaml

from map2route.bench.planner.tuning import parse_setting, settings
from map2route.paths import config_dir
from map2route.planning import PlanningError


def test_parse_setting() -> None:
    assert parse_setting("lambdas.near=8,64") == (("lambdas", "near"), [8.0, 64.0])
    for bad in ("lambdas.near", "near=8", "lambdas.near=x", "lambdas.=8"):
        with pytest.raises(PlanningError):
            parse_setting(bad)


def test_settings_is_the_cartesian_product_and_validates() -> None:
    base = yaml.safe_load((config_dir() / "planner.yaml").read_text())
    grid = settings(base, [parse_setting("lambdas.near=8,64"),
                           parse_setting("scales_m.far=3,5,8")])
    assert len(grid) == 6
    labels = [label for label, _ in grid]
    assert labels[0] == "lambdas.near=8 scales_m.far=3"
    assert {doc["lambdas"]["near"] for _, doc in grid} == {8.0, 64.0}
    assert base["lambdas"]["near"] == 8.0, "the base document is not modified"
    assert settings(base, []) == [("config/planner.yaml", base)]
    with pytest.raises(PlanningError, match="unknown"):
        settings(base, [parse_setting("lambdas.nearx=1")])
