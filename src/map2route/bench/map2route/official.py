"""Read official Map2Route episode files (one JSON per episode) into :class:`Episode`.

Fields read (``../shared/data/map2route/README.md``): ``id``, ``map_id``, ``instruction``,
``difficulty_level``, ``start_pose {row, col}``, ``human_expert_trajectory [[row, col], ...]``,
``hard_constraints [{constraint_id, kind: must_pass|must_avoid, order, shape, cells, center,
radius, width, height, scope}]`` and ``soft_constraints [{constraint_id, preference_type, shape,
center, radius, cells, reference_region {cells}, reference_regions [{cells}, {cells}],
reference_trajectory, label, scope {type, from_order, to_order}}]``.

The mapping to our ground truth:

- must_pass constraints are sorted by ``order``; the first is the *record region* (where the
  route starts), which the official evaluator never scores (``compute_hcs_progress`` ignores
  it); it is kept as ``metadata["record_region"]`` (its cells) and the must-passes after it
  become the stages (the last is the destination). So a route that never leaves the start
  scores HCS 0, as officially;
- a ``scope`` of type ``between_hard_constraints`` (``from_order`` -> ``to_order``) becomes the
  temporal scope: the stages whose targets are the must-passes after ``from_order`` up to and
  including ``to_order`` (``from_order`` = the record region: from the start); any other
  scope type is global;
- a soft constraint's own region (its ``shape``) is its active region (our spatial scope);
  Near/Far's ``reference_region`` and Relative's ``reference_regions`` [A, B] are the objects;
  Path-Shape's ``reference_trajectory`` is tau_ref; ``clearance`` is Clearance;
  ``move_smoothness`` is not a paper metric and is kept in metadata only.

Cells are ``[row, col]`` of the official map's grid; ``row_origin="top"`` flips rows for maps
whose row 0 is the top row (ours, like nav_msgs/OccupancyGrid, has row 0 at the bottom).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from map2route.bench.errors import BenchmarkError
from map2route.bench.map2route.episode import (
    Episode,
    ReferenceInfo,
    StartPose,
    episode_from_json,
    load_episodes,
)
from map2route.errors import Map2RouteError
from map2route.routeir import Constraint, ConstraintKind, Region, RouteIR, Stage
from map2route.semantic_map import load_scene

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.semantic_map.grid import GridSpec

SOFT_KINDS = {
    "near_preference": ConstraintKind.NEAR,
    "far_preference": ConstraintKind.FAR,
    "relative_preference": ConstraintKind.RELATIVE,
    "path_shape_preference": ConstraintKind.PATH_SHAPE,
    "clearance": ConstraintKind.CLEARANCE,
}
IGNORED_SOFT = {"move_smoothness"}


@dataclass(frozen=True, eq=False)
class OfficialEpisode:
    """An official episode as ours, plus its human expert trajectory in map metres."""

    episode: Episode
    human_trajectory: NDArray[np.float64]


def read_official_episode(data: dict[str, Any] | str | Path, grid: GridSpec, *,
                          scene: str | None = None, row_origin: str = "bottom") -> OfficialEpisode:
    """Convert one official episode (a dict or a JSON file) on the map with ``grid``.

    Raises:
        BenchmarkError: a required field is missing or malformed (named in the message).
    """
    where = "official episode"
    if isinstance(data, (str, Path)):
        where = str(data)
        try:
            data = json.loads(Path(data).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as err:
            raise BenchmarkError(f"Cannot read official episode {where!r}: {err}") from err
    if not isinstance(data, dict):
        raise BenchmarkError(f"{where}: an episode must be a JSON object")
    if row_origin not in ("top", "bottom"):
        raise BenchmarkError(f"row_origin must be 'top' or 'bottom', got {row_origin!r}")
    try:
        return _convert(data, grid, scene, row_origin == "top")
    except (KeyError, TypeError, ValueError, IndexError) as err:
        msg = (f"{where} ({data.get('id')!r}): malformed or missing field "
               f"({type(err).__name__}: {err})")
        raise BenchmarkError(msg) from err


def _convert(d: dict[str, Any], grid: GridSpec, scene: str | None, flip: bool) -> OfficialEpisode:
    def rc(v: Any) -> tuple[float, float]:
        r, c = float(v[0]), float(v[1])
        return (grid.rows - 1 - r if flip else r), c

    def cells_of(values: Any) -> NDArray[np.int32]:
        arr = np.asarray([rc(v) for v in values], dtype=np.float64).reshape(-1, 2)
        out = np.rint(arr).astype(np.int32)
        ok = grid.contains_cells(out)
        return np.unique(out[ok], axis=0).astype(np.int32)

    def shape_region(c: dict[str, Any], label: str) -> Region:
        shape = c.get("shape", "freeform")
        if shape == "freeform" or "center" not in c:
            return Region(label, cells_of(c.get("cells", [])), construction={"op": "official"})
        cr, cc = rc(c["center"])
        rows, cols = np.mgrid[0:grid.rows, 0:grid.cols]
        if shape == "circle":
            mask = (rows - cr) ** 2 + (cols - cc) ** 2 <= float(c.get("radius", 0.0)) ** 2
        elif shape == "rectangle":
            mask = (np.abs(rows - cr) <= float(c.get("height", 0.0)) / 2) & (
                np.abs(cols - cc) <= float(c.get("width", 0.0)) / 2)
        else:
            raise ValueError(f"unknown shape {shape!r} in constraint {c.get('constraint_id')!r}")
        return Region.from_mask(label, mask, construction={"op": "official", "shape": shape})

    hard = list(d.get("hard_constraints", []))
    passes = sorted((c for c in hard if c["kind"] == "must_pass"), key=lambda c: int(c["order"]))
    if len(passes) < 2:
        raise ValueError("an episode needs a record region (the first must_pass, the start) and "
                         "at least one must_pass after it")
    record, passes = passes[0], passes[1:]
    order_to_stage = {int(c["order"]): k for k, c in enumerate(passes)}
    order_to_stage[int(record["order"])] = -1

    def temporal(c: dict[str, Any]) -> tuple[int, ...] | None:
        scope = c.get("scope")
        if not isinstance(scope, dict) or scope.get("type") != "between_hard_constraints":
            return None
        to_k = order_to_stage.get(int(scope["to_order"]))
        if to_k is None or to_k < 0:
            raise ValueError(f"scope to_order {scope['to_order']} names no must_pass after the "
                             "record region")
        fo = scope.get("from_order")
        from_k = -1 if fo is None else order_to_stage[int(fo)]
        return tuple(range(from_k + 1, to_k + 1))

    stages = tuple(Stage(target=shape_region(c, str(c.get("label") or c.get("constraint_id"))),
                         label=str(c.get("label") or c.get("constraint_id", "")))
                   for c in passes)
    constraints: list[Constraint] = []
    for c in hard:
        if c["kind"] == "must_avoid":
            constraints.append(Constraint(kind=ConstraintKind.MUST_AVOID,
                                          region=shape_region(c, str(c.get("constraint_id"))),
                                          temporal_scope=temporal(c),
                                          label=str(c.get("label") or c.get("constraint_id")
                                                    or "")))
        elif c["kind"] != "must_pass":
            raise ValueError(f"unknown hard constraint kind {c['kind']!r}")
    refs: dict[int, NDArray[np.float64]] = {}
    skipped: list[str] = []
    for c in d.get("soft_constraints", []):
        ptype = c["preference_type"]
        if ptype in IGNORED_SOFT:
            skipped.append(ptype)
            continue
        kind = SOFT_KINDS.get(ptype)
        if kind is None:
            raise ValueError(f"unknown preference_type {ptype!r}")
        label = str(c.get("label") or c.get("constraint_id", ""))
        has_region = bool(c.get("cells")) or "center" in c
        active = shape_region(c, f"active region of {label}") if has_region else None
        if active is not None and (active.is_empty or active.size == grid.rows * grid.cols):
            active = None  # the whole grid: active everywhere
        other = None
        if kind is ConstraintKind.RELATIVE:
            a, b = c["reference_regions"]
            region = Region("A", cells_of(a["cells"]))
            other = Region("B", cells_of(b["cells"]))
        elif kind in (ConstraintKind.NEAR, ConstraintKind.FAR):
            region = Region(label, cells_of(c["reference_region"]["cells"]),
                            object_ids=tuple(str(i) for i in c.get("object_ids", [])))
        elif kind is ConstraintKind.PATH_SHAPE:
            traj = c["reference_trajectory"]
            region = Region(label, cells_of(traj))
            pts = np.asarray([rc(v) for v in traj], dtype=np.float64).reshape(-1, 2)
            refs[len(constraints)] = grid.cells_to_worlds(pts)
        else:
            region = Region("obstacles", np.zeros((0, 2), dtype=np.int32))
            active = None if kind is ConstraintKind.CLEARANCE and not has_region else active
        constraints.append(Constraint(kind=kind, region=region, other=other, spatial_scope=active,
                                      temporal_scope=temporal(c), label=label))
    sr, sc = rc((d["start_pose"]["row"], d["start_pose"]["col"]))
    x, y = grid.cell_to_world(sr, sc)
    level = str(d.get("difficulty_level", "easy"))
    split = "easy" if level == "easy" else "hard"
    name = scene or str(d.get("map_id", ""))
    ir = RouteIR(stages=stages, constraints=tuple(constraints), grid=grid, start=(x, y),
                 scene=name, metadata={"source": "official Map2Route episode"})
    human = np.asarray([rc(v) for v in d.get("human_expert_trajectory", [])], dtype=np.float64)
    human_xy = grid.cells_to_worlds(human) if len(human) else np.zeros((0, 2))
    n_soft = sum(1 for c in constraints if not c.kind.is_hard)
    info = ReferenceInfo(hard_constraints=len(stages) + sum(c.kind.is_hard for c in constraints),
                         soft_constraints=n_soft,
                         trajectory_length_m=float(np.linalg.norm(np.diff(human_xy, axis=0),
                                                                  axis=1).sum())
                         if len(human_xy) > 1 else 0.0)
    ep = Episode(id=str(d["id"]), scene=name, split=split,
                 start=StartPose(x=x, y=y, yaw=0.0, row=int(round(sr)), col=int(round(sc))),
                 instruction=str(d["instruction"]), routeir=ir, path_shape_references=refs,
                 reference=info,
                 metadata={"source": "official", "difficulty_level": level,
                           "record_region": shape_region(record, "record").cells.tolist(),
                           "ignored_preferences": skipped,
                           "feasible": d.get("feasible"),
                           "human_expert_trajectory": np.round(human_xy, 3).tolist()})
    if not math.isfinite(x) or not math.isfinite(y):
        raise ValueError("start pose is not finite")
    return OfficialEpisode(episode=ep, human_trajectory=human_xy)


def convert_official(paths: list[Path], maps_root: Path, *, row_origin: str = "bottom") -> list[Episode]:
    """Convert official episode files; each ``map_id`` is loaded from ``maps_root/<map_id>``.

    Raises:
        BenchmarkError: a file is unreadable or malformed, or its map cannot be loaded.
    """

    grids: dict[str, GridSpec] = {}
    out: list[Episode] = []
    for p in paths:
        try:
            raw = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as err:
            raise BenchmarkError(f"Cannot read official episode {str(p)!r}: {err}") from err
        map_id = str(raw.get("map_id", "")) if isinstance(raw, dict) else ""
        if map_id not in grids:
            try:
                grids[map_id] = load_scene(maps_root / map_id).grid
            except Map2RouteError as err:
                msg = f"{p}: cannot load its map {map_id!r} from {maps_root} ({err})"
                raise BenchmarkError(msg) from err
        out.append(read_official_episode(raw, grids[map_id], scene=map_id,
                                         row_origin=row_origin).episode)
    return out


#: Keys of an official trajectory file, in the order ``evaluate_prediction`` tries them.
TRAJECTORY_KEYS = ("trajectory", "predicted_trajectory", "human_expert_trajectory")


@dataclass(frozen=True)
class Trajectory:
    """A trajectory to score: map metres ``points`` or official grid ``[row, col]`` points."""

    points: NDArray[np.float64] | None = None
    grid_points: NDArray[np.float64] | None = None


def read_trajectory(path: str | Path, *, cells: bool = False) -> Trajectory:
    """Read a trajectory file.

    A JSON list is ``[[x, y], ...]`` map-frame metres (``[[row, col], ...]`` grid points with
    ``cells=True``); an object with ``trajectory``, ``predicted_trajectory`` or
    ``human_expert_trajectory`` is an official trajectory of ``[row, col]`` grid points (read
    as ``evaluate_prediction._trajectory_from_payload`` reads it).

    Raises:
        BenchmarkError: unreadable file or a point that is not two numbers.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise BenchmarkError(f"Cannot read trajectory {str(path)!r}: {err}") from err
    grid = cells
    if isinstance(data, dict):
        key = next((k for k in TRAJECTORY_KEYS if isinstance(data.get(k), list)), None)
        if key is None:
            msg = (f"{path}: a trajectory object needs one of {', '.join(TRAJECTORY_KEYS)} "
                   "(a list of [row, col] points)")
            raise BenchmarkError(msg)
        data, grid = data[key], True
    if not isinstance(data, list):
        raise BenchmarkError(f"{path}: a trajectory is a JSON list of [x, y] points")
    try:
        arr = np.asarray(data, dtype=np.float64).reshape(-1, 2)
        if len(arr) != len(data) or not np.isfinite(arr).all():
            raise ValueError("points must be pairs of finite numbers")
    except (TypeError, ValueError) as err:
        raise BenchmarkError(f"{path}: malformed trajectory point ({err})") from err
    return Trajectory(grid_points=arr) if grid else Trajectory(points=arr)


def read_any_episode(path: str | Path, grid: GridSpec, *, episode_id: str | None = None,
                     scene: str | None = None) -> Episode:
    """An episode from a file: ours (one JSON object, or JSON Lines with ``episode_id``) or
    an official episode JSON (recognised by its ``hard_constraints``).

    Raises:
        BenchmarkError: unreadable, malformed, or the id is not in the file.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as err:
        raise BenchmarkError(f"Cannot read episode {str(p)!r}: {err}") from err
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None  # JSON Lines
    if isinstance(data, dict) and "hard_constraints" in data:
        return read_official_episode(data, grid, scene=scene).episode
    if isinstance(data, dict):
        return episode_from_json(data, where=str(p))
    eps = load_episodes(p, ids=[episode_id] if episode_id else None)
    if len(eps) != 1:
        msg = (f"{p} holds {len(eps)} episodes; pass --episode-id to pick one"
               if episode_id is None else f"{p}: no episode {episode_id!r}")
        raise BenchmarkError(msg)
    return eps[0]


#: Our soft kinds as official ``preference_type`` names.
PREFERENCE_TYPES = {kind: name for name, kind in SOFT_KINDS.items()}


def to_official_episode(ep: Episode, grid: GridSpec) -> dict[str, Any]:
    """``ep`` as an official episode JSON object (the format :func:`read_official_episode` reads).

    The start becomes the record region (must_pass order 1: ``metadata.record_region`` when
    the episode came from an official file, else the start cell), the stages must_pass orders
    2.., every region a ``freeform`` cell list on ``grid``'s ``[row, col]``. A soft preference
    active everywhere gets a rectangle over the whole grid (the evaluator needs a shape);
    Clearance is global. Reading the result back gives the same ground truth.
    """
    ir = ep.routeir

    def cells(region: Region) -> list[list[int]]:
        return region.cells.astype(int).tolist()

    def scope(c: Constraint) -> dict[str, Any]:
        if c.temporal_scope is None or not len(c.temporal_scope):
            return {"type": "global", "from_order": None, "to_order": None}
        return {"type": "between_hard_constraints", "from_order": min(c.temporal_scope) + 1,
                "to_order": max(c.temporal_scope) + 2}

    record = ep.metadata.get("record_region") or [[ep.start.row, ep.start.col]]
    hard: list[dict[str, Any]] = [{"constraint_id": "record_region", "kind": "must_pass",
                                   "order": 1, "shape": "freeform", "cells": record,
                                   "label": "start"}]
    hard += [{"constraint_id": f"must_pass_{k + 1}", "kind": "must_pass", "order": k + 2,
              "shape": "freeform", "cells": cells(s.target), "label": s.label}
             for k, s in enumerate(ir.stages)]
    soft: list[dict[str, Any]] = []
    everywhere = {"shape": "rectangle", "center": [(grid.rows - 1) / 2, (grid.cols - 1) / 2],
                  "width": float(grid.cols), "height": float(grid.rows)}
    for k, c in enumerate(ir.constraints):
        if c.kind is ConstraintKind.MUST_AVOID:
            hard.append({"constraint_id": f"must_avoid_{k + 1}", "kind": "must_avoid",
                         "order": None, "shape": "freeform", "cells": cells(c.region),
                         "label": c.label, "scope": scope(c)})
            continue
        entry: dict[str, Any] = {"constraint_id": f"soft_{k + 1}",
                                 "preference_type": PREFERENCE_TYPES[c.kind], "label": c.label,
                                 "scope": scope(c)}
        if c.kind is not ConstraintKind.CLEARANCE:
            entry.update({"shape": "freeform", "cells": cells(c.spatial_scope)}
                         if c.spatial_scope is not None else everywhere)
        if c.kind in (ConstraintKind.NEAR, ConstraintKind.FAR):
            entry["reference_region"] = {"cells": cells(c.region)}
            entry["object_ids"] = list(c.region.object_ids)
        elif c.kind is ConstraintKind.RELATIVE:
            other = c.other if c.other is not None else Region("B", np.zeros((0, 2), np.int32))
            entry["reference_regions"] = [{"cells": cells(c.region)}, {"cells": cells(other)}]
        elif c.kind is ConstraintKind.PATH_SHAPE:
            ref = ep.path_shape_references.get(k)
            pts = np.zeros((0, 2)) if ref is None else np.asarray(ref, dtype=np.float64)
            rc = grid.worlds_to_fractional(pts) - 0.5
            entry["reference_trajectory"] = np.round(rc, 4).tolist()
        soft.append(entry)
    human = np.asarray(ep.metadata.get("human_expert_trajectory") or [], dtype=np.float64)
    human_rc = grid.worlds_to_fractional(human) - 0.5 if len(human) else np.zeros((0, 2))
    return {"id": ep.id, "map_id": ep.scene, "instruction": ep.instruction,
            "difficulty_level": str(ep.metadata.get("difficulty_level", ep.difficulty)),
            "start_pose": {"row": ep.start.row, "col": ep.start.col},
            "human_expert_trajectory": np.round(human_rc, 4).tolist(),
            "hard_constraints": hard, "soft_constraints": soft,
            "feasible": ep.metadata.get("feasible", True)}
