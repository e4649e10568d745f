"""The shared YAML config loader: a bad file gets one clear error listing every problem."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from map2route.config import dataclass_from_mapping, overlay, read_yaml, require_mapping
from map2route.errors import Map2RouteError
from map2route.mapping.builder import BuildConfig
from map2route.mapping.errors import MappingError
from map2route.planning import PlannerConfig, PlanningError


class DemoError(Map2RouteError):
    pass


@dataclass(frozen=True)
class Demo:
    speed_mps: float
    laps: int
    verbose: bool
    offset_xy: tuple[float, float]
    name: str = "demo"


def test_valid_values_are_converted_to_the_field_types() -> None:
    cfg = dataclass_from_mapping(Demo, {"speed_mps": 1, "laps": 2, "verbose": True,
                                        "offset_xy": [0, 0.5]}, where="demo.yaml")
    assert cfg == Demo(speed_mps=1.0, laps=2, verbose=True, offset_xy=(0.0, 0.5))
    assert isinstance(cfg.speed_mps, float) and isinstance(cfg.offset_xy, tuple)


def test_every_problem_is_listed_in_one_error() -> None:
    with pytest.raises(DemoError) as info:
        dataclass_from_mapping(Demo, {"sped_mps": 1.0, "laps": 1.5, "verbose": "yes",
                                      "offset_xy": [1, "a"]}, where="demo.yaml", error=DemoError)
    lines = str(info.value).splitlines()
    assert lines[0] == "demo.yaml: 5 problems"
    assert lines[1:] == [
        "  - unknown key 'sped_mps' (did you mean 'speed_mps'?)",
        "  - missing key 'speed_mps'",
        "  - 'laps' must be a whole number, got 1.5",
        "  - 'verbose' must be true or false, got 'yes'",
        "  - 'offset_xy' item 1 must be a number, got [1, 'a']",
    ]


def test_bad_yaml_names_the_file_and_the_place(tmp_path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("lambdas: {near: 1\nscales_m: [\n")
    with pytest.raises(DemoError) as info:
        read_yaml(bad, what="demo config", error=DemoError)
    assert str(info.value) == (f"demo config {bad} is not valid YAML: line 2, column 9: "
                               "expected ',' or '}', but got ':'")
    with pytest.raises(DemoError, match="cannot read demo config .* it does not exist; make one"):
        read_yaml(tmp_path / "none.yaml", what="demo config", error=DemoError, hint="; make one")
    with pytest.raises(DemoError, match="demo.yaml: expected a mapping, got list"):
        require_mapping([1, 2], where="demo.yaml", error=DemoError)


def test_package_loaders_go_through_it(tmp_path) -> None:
    bad = tmp_path / "planner.yaml"
    bad.write_text("lambdas: [\n")
    with pytest.raises(PlanningError, match="planner config .* is not valid YAML"):
        PlannerConfig.from_yaml(bad)
    user = tmp_path / "mapping.yaml"
    user.write_text("build:\n  fusion: {merge_iou: high}\n")
    with pytest.raises(MappingError, match="'merge_iou' must be a number, got 'high'"):
        BuildConfig.from_yaml(user)
    other = tmp_path / "mapping2.yaml"
    other.write_text("build:\n  cloud_voxel_mm: 0.05\n")
    with pytest.raises(MappingError, match="unknown key 'cloud_voxel_mm' .did you mean 'cloud_voxel_m'"):
        BuildConfig.from_yaml(other)


def test_overlay_merges_nested_sections_key_by_key() -> None:
    base = {"build": {"fusion": {"merge_iou": 0.5, "min_points": 8}, "cloud_voxel_m": 0.05}, "n": 1}
    top = {"build": {"fusion": {"merge_iou": 0.3}}, "n": [2]}
    assert overlay(base, top) == {"build": {"fusion": {"merge_iou": 0.3, "min_points": 8},
                                            "cloud_voxel_m": 0.05}, "n": [2]}
    assert base["build"]["fusion"]["merge_iou"] == 0.5  # the base is not changed
