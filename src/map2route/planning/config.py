"""Planner parameters, read from ``config/planner.yaml`` (the defaults live there, not in code)."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from map2route.config import read_yaml
from map2route.paths import config_dir
from map2route.planning.errors import PlanningError

if TYPE_CHECKING:
    import os


class PlannerYAML(TypedDict):
    """The raw shape of ``planner.yaml``."""

    lambdas: dict[str, float]
    scales_m: dict[str, float]
    search: dict[str, Any]


_TERMS = ("near", "far", "relative", "clear", "path_shape")
#: The ``search`` section's keys, in the order ``planner.yaml`` lists them.
_SEARCH_KEYS = ("allow_corner_cutting", "start_snap_radius_m", "soft_waypoints",
                "soft_waypoint_band_m", "far_waypoints", "far_waypoint_band_m", "pass_along",
                "evaluator_window", "pass_around", "relative_off_b_exits", "repeat_bands",
                "early_placements", "outside_target", "loops", "trade", "length_budget")


@dataclass(frozen=True)
class PlannerConfig:
    """Weights, distance scales and search options of the scope-aware planner.

    Attributes:
        lambda_near, lambda_far, lambda_relative, lambda_clear, lambda_path_shape: the
            lambda of each cost term J (paper 000, IV-D; the first four are the paper's 8/96/64/36).
        near_scale_m, far_scale_m, relative_scale_m, clear_scale_m, path_shape_scale_m:
            the distance at which each J saturates, in metres, fixed across scenes.
        allow_corner_cutting: diagonal steps may pass between two blocked corner cells.
        start_snap_radius_m: a blocked start moves to the nearest free cell within this radius.
        soft_waypoints: give each Near / Relative preference its near band as an optional
            sub-goal (planning/planner.py; off in ``hard_only`` planning).
        soft_waypoint_band_m: the band's width beyond the closest reachable distance, metres.
        far_waypoints: give each Far preference its far band (the active region's cells within
            ``far_waypoint_band_m`` of the farthest reachable distance) as an optional sub-goal,
            kept only where it raises the route's mean distance there (planning/planner.py).
        far_waypoint_band_m: the far band's width below the farthest reachable distance, metres.
        pass_along: per band, also try passing along it (enter, then leave at another band
            cell) and keep the candidate the official metric scores best
            (planning/candidates.py).
        length_budget: the detours that bands and candidates add (each stage's length over its
            shortest feasible length from the same start, summed) may use at most
            ``length_budget`` times the route's shortest feasible length (0.4: +40 %);
            ``None``: no limit.
        evaluator_window: score candidates and bands over exactly the official evaluator's
            window (the route between the preference's bounding must-pass hits, earlier
            stages included) instead of the stage's own points.
        pass_around: a Relative band also gets the candidate that goes straight to its cell
            farthest from B (round A to the side away from B).
        relative_off_b_exits: a Relative pass along its band may also leave at that cell.
        repeat_bands: a preference without temporal scope gets its band again in each later
            stage that enters its region (the evaluator reads the whole route), kept where it
            pays.
        early_placements: a band is also tried before each of the (up to 3) sub-goals
            before its own (the evaluator's window ends where the route first enters a
            target, which a Path-Shape loop may do before the band).
        outside_target: every Near / Relative candidate is also tried with the legs to its
            band kept out of the stage's target (the window ends where the route first
            enters it).
        loops: a Near / Relative band is also tried as a loop round its reference (band
            cells a quarter turn apart, either way round, then the exit nearest the next
            sub-goal).
        trade: a candidate may lower another active preference by at most ``trade`` times
            its own preference's relative gain (as a fraction of that value); 0: by nothing.
    """

    lambda_near: float
    lambda_far: float
    lambda_relative: float
    lambda_clear: float
    lambda_path_shape: float
    near_scale_m: float
    far_scale_m: float
    relative_scale_m: float
    clear_scale_m: float
    path_shape_scale_m: float
    allow_corner_cutting: bool = False
    start_snap_radius_m: float = 0.5
    soft_waypoints: bool = False
    soft_waypoint_band_m: float = 0.5
    far_waypoints: bool = False
    far_waypoint_band_m: float = 1.0
    pass_along: bool = False
    length_budget: float | None = None
    evaluator_window: bool = False
    pass_around: bool = False
    relative_off_b_exits: bool = False
    repeat_bands: bool = False
    early_placements: bool = False
    outside_target: bool = False
    loops: bool = False
    trade: float = 0.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name.startswith("lambda_") and not (math.isfinite(value) and value >= 0):
                raise PlanningError(f"planner config: {f.name} must be finite and >= 0, got {value}")
            if f.name.endswith("_scale_m") and not (math.isfinite(value) and value > 0):
                raise PlanningError(f"planner config: {f.name} must be finite and > 0, got {value}")
        if not (self.start_snap_radius_m >= 0):
            msg = f"planner config: start_snap_radius_m must be >= 0, got {self.start_snap_radius_m}"
            raise PlanningError(msg)
        if self.length_budget is not None and not (math.isfinite(self.length_budget)
                                                   and self.length_budget >= 0):
            msg = f"planner config: length_budget must be finite and >= 0 or null, got {self.length_budget}"
            raise PlanningError(msg)
        for key in ("soft_waypoint_band_m", "far_waypoint_band_m", "trade"):
            value = getattr(self, key)
            if not (math.isfinite(value) and value >= 0):
                raise PlanningError(f"planner config: {key} must be finite and >= 0, got {value}")

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """The ``planner.yaml`` document of this configuration, every key present
        (``PlannerConfig.from_dict(cfg.to_dict()) == cfg``); what the planner benchmarks
        change a key of and write out for each run."""
        return {"lambdas": {t: getattr(self, f"lambda_{t}") for t in _TERMS},
                "scales_m": {t: getattr(self, f"{t}_scale_m") for t in _TERMS},
                "search": {k: getattr(self, k) for k in _SEARCH_KEYS}}

    @classmethod
    def from_yaml(cls, path: str | os.PathLike[str] | None = None) -> PlannerConfig:
        """Read a planner YAML file (default: ``config/planner.yaml``).

        Raises:
            PlanningError: the file is missing, not YAML, or lacks or misspells a key.
        """
        file = Path(path) if path is not None else config_dir() / "planner.yaml"
        raw = read_yaml(file, what="planner config", error=PlanningError,
                        hint="; pass an existing YAML file")
        return cls.from_dict(raw, source=str(file))

    @classmethod
    def from_dict(cls, raw: Any, *, source: str = "planner config") -> PlannerConfig:
        """Validate a parsed ``planner.yaml`` document (see :class:`PlannerYAML`).

        Raises:
            PlanningError: a section or key is missing, unknown, or not a number.
        """
        if not isinstance(raw, dict):
            raise PlanningError(f"{source}: expected a mapping with lambdas, scales_m, search")
        doc: PlannerYAML = raw  # type: ignore[assignment]
        unknown = set(raw) - {"lambdas", "scales_m", "search"}
        if unknown:
            raise PlanningError(f"{source}: unknown sections {sorted(unknown)}")
        values: dict[str, Any] = {}
        for section, prefix, suffix in (("lambdas", "lambda_", ""), ("scales_m", "", "_scale_m")):
            table = doc.get(section)
            if not isinstance(table, dict):
                raise PlanningError(f"{source}: section {section!r} is missing or not a mapping")
            missing = [t for t in _TERMS if t not in table]
            extra = sorted(set(table) - set(_TERMS))
            if missing or extra:
                msg = (f"{source}: {section} must have exactly {list(_TERMS)}; "
                       f"missing {missing}, unknown {extra}")
                raise PlanningError(msg)
            for term in _TERMS:
                try:
                    values[f"{prefix}{term}{suffix}"] = float(table[term])
                except (TypeError, ValueError) as err:
                    msg = f"{source}: {section}.{term} must be a number, got {table[term]!r}"
                    raise PlanningError(msg) from err
        search = doc.get("search", {}) or {}
        if not isinstance(search, dict):
            raise PlanningError(f"{source}: section 'search' must be a mapping")
        flags = ("allow_corner_cutting", "soft_waypoints", "far_waypoints", "pass_along",
                 "evaluator_window", "pass_around", "relative_off_b_exits", "repeat_bands",
                 "early_placements", "outside_target", "loops")
        numbers = ("start_snap_radius_m", "soft_waypoint_band_m", "far_waypoint_band_m", "trade")
        extra = sorted(set(search) - set(_SEARCH_KEYS))
        if extra:
            raise PlanningError(f"{source}: unknown search keys {extra}")
        for key in flags:
            if key in search:
                values[key] = bool(search[key])
        for key in numbers:
            if key in search:
                try:
                    values[key] = float(search[key])
                except (TypeError, ValueError) as err:
                    msg = f"{source}: search.{key} must be a number, got {search[key]!r}"
                    raise PlanningError(msg) from err
        if search.get("length_budget") is not None:
            try:
                values["length_budget"] = float(search["length_budget"])
            except (TypeError, ValueError) as err:
                msg = f"{source}: search.length_budget must be a number or null, got {search['length_budget']!r}"
                raise PlanningError(msg) from err
        bad = sorted(k for k, v in values.items() if isinstance(v, float) and not math.isfinite(v))
        if bad:
            raise PlanningError(f"{source}: {bad} must be finite numbers (not .nan or .inf)")
        return cls(**values)
