"""The planner speed benchmark behind ``map2route bench planner``.

Two workloads (issue 3):

1. *Segments*: corner-to-corner searches on random indoor-like grids (:mod:`indoor_grid`) with
   the planner's clearance cost (``lambda_clear * J_clear``, ``config/planner.yaml``), for each
   grid size and method: our A*, our cost-to-go replanning (one Dijkstra field per goal, then a
   path read off it), and pyastar2d (C++; it charges diagonals like straight steps, so its path
   is re-costed under our model for the cost column), and scikit-image's MCP_Geometric.
2. *Route*: a 5-stage route with Near/Far/Relative/must-avoid/Clearance terms and temporal and
   spatial scopes on the largest shipped scene (``maps/index.json``), or on a generated
   12-room house when no scenes are shipped, timed end to end through :func:`plan_route`
   including cost-map construction; "cold" rebuilds the map's distance fields every run.
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from map2route.gridsearch.kernel import goal_field, path_cost, search, warm_up
from map2route.planning.costmap import distance_to, forget_distance_fields, j_clear
from map2route.planning.indoor_grid import indoor_grid
from map2route.planning.planner import plan_route
from map2route.routeir.model import Constraint, ConstraintKind, RouteIR, Stage
from map2route.routeir.regions import disk_region, footprint_region, object_goal_region
from map2route.semantic_map import load_scene
from map2route.semantic_map.grid import GridSpec
from map2route.semantic_map.model import RoomType
from map2route.semantic_map.synthetic import RectObject, RectRoom, rect_house

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from numpy.typing import NDArray

    from map2route.planning.config import PlannerConfig
    from map2route.semantic_map.model import SemanticMap


@dataclass
class Timing:
    """One benchmark row: what was run, and its times in milliseconds."""

    workload: str
    method: str
    size: str
    times_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    cost: float | None = None
    path_cells: int | None = None
    expanded: int | None = None
    note: str = ""

    @property
    def median_ms(self) -> float:
        return float(statistics.median(self.times_ms)) if self.times_ms else float("nan")

    @property
    def cpu_median_ms(self) -> float:
        """Median process CPU time: less sensitive than wall time to other load on the machine."""
        return float(statistics.median(self.cpu_ms)) if self.cpu_ms else float("nan")

    @property
    def p95_ms(self) -> float:
        return float(np.percentile(self.times_ms, 95)) if self.times_ms else float("nan")

    def as_dict(self) -> dict[str, Any]:
        return {"workload": self.workload, "method": self.method, "size": self.size,
                "median_ms": round(self.median_ms, 3), "p95_ms": round(self.p95_ms, 3),
                "cpu_median_ms": round(self.cpu_median_ms, 3),
                "runs": len(self.times_ms), "cost": self.cost, "path_cells": self.path_cells,
                "expanded": self.expanded, "note": self.note}


def _timed(row: Timing, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run ``fn(*args, **kwargs)``, append its wall and CPU milliseconds to ``row``."""
    c0 = time.process_time()
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    row.times_ms.append((time.perf_counter() - t0) * 1e3)
    row.cpu_ms.append((time.process_time() - c0) * 1e3)
    return out


def clearance_grid(size: int, config: PlannerConfig, *, seed: int = 1,
                   resolution: float = 0.05) -> tuple[NDArray[np.float64], tuple[int, int],
                                                      tuple[int, int]]:
    """An indoor-like grid's cell costs in cell units (``lambda_clear * J_clear``), start, goal."""
    free = indoor_grid(size, seed=seed)
    d_obs = distance_to(~free, GridSpec(free.shape[0], free.shape[1], resolution))
    cost = np.where(free, config.lambda_clear * j_clear(d_obs, config.clear_scale_m), np.inf)
    return cost, (4, 4), (size - 5, size - 5)


def segment_rows(sizes: list[int], repeats: int, config: PlannerConfig,
                 advance: Callable[[], None]) -> list[Timing]:
    """Time every method on each grid size; ``advance`` is called after each timed run."""
    try:
        import pyastar2d  # noqa: PLC0415 - optional dependency (bench extra)
    except ImportError:  # a benchmark-only dependency (extra "bench")
        pyastar2d = None
    rows: list[Timing] = []
    for size in sizes:
        cost, start, goal_rc = clearance_grid(size, config)
        goal = np.zeros(cost.shape, dtype=bool)
        goal[goal_rc] = True
        label = f"{size}x{size}"
        ours = Timing("segment", "map2route A*", label)
        for _ in range(repeats):
            path = _timed(ours, search, cost, start, goal)
            advance()
        ours.cost, ours.path_cells, ours.expanded = path.cost, len(path.cells), path.expanded
        rows.append(ours)
        field_row = Timing("segment", "map2route cost-to-go field", label,
                           note="Dijkstra from the goal, built once per goal")
        replan = Timing("segment", "map2route replan from field", label,
                        note="a path read off the cost-to-go field")
        for _ in range(repeats):
            gf = _timed(field_row, goal_field, cost, goal)
            again = _timed(replan, gf.path_from, start)
            advance()
        replan.cost, replan.path_cells = again.cost, len(again.cells)
        rows += [field_row, replan]
        py = Timing("segment", "pyastar2d", label,
                    note="pyastar2d (C++): diagonal steps cost like straight ones, so its path "
                         "is re-scored under our cost model")
        if pyastar2d is None:
            py.note = "not installed: pip install 'map2route[bench]'"
            for _ in range(repeats):
                advance()
        else:
            weights = (1.0 + cost).astype(np.float32)  # entering a cell costs 1 + lambda*J
            for _ in range(repeats):
                cells = _timed(py, pyastar2d.astar_path, weights, start, goal_rc,
                               allow_diagonal=True)
                advance()
            if cells is not None:
                py.cost, py.path_cells = path_cost(cost, cells), len(cells)
        rows.append(py)
        rows.append(_mcp_row(cost, start, goal_rc, label, min(repeats, 3), advance))
    return rows


def _mcp_row(cost: NDArray[np.float64], start: tuple[int, int], goal_rc: tuple[int, int],
             label: str, repeats: int, advance: Callable[[], None]) -> Timing:
    """scikit-image's MCP_Geometric (Dijkstra in Cython) on weights ``1 + cost``."""
    row = Timing("segment", "scikit-image MCP", label,
                 note="scikit-image MCP_Geometric: a step costs its length times the mean of the "
                      "two cells' weights; path re-scored under our model; at most 3 runs")
    try:
        from skimage.graph import MCP_Geometric  # a benchmark-only dependency (extra "bench")  # noqa: PLC0415 - optional dependency (bench extra)
    except ImportError:
        row.note = "scikit-image not installed: pip install 'map2route[bench]'"
        for _ in range(repeats):
            advance()
        return row

    def run() -> NDArray[np.int64]:
        mcp = MCP_Geometric(1.0 + cost, fully_connected=True)
        mcp.find_costs([start], [goal_rc])
        return np.asarray(mcp.traceback(goal_rc), dtype=np.int64)

    for _ in range(repeats):
        cells = _timed(row, run)
        advance()
    row.cost, row.path_cells = path_cost(cost, cells), len(cells)
    return row


# --- the 5-stage route -----------------------------------------------------------------------
def largest_scene(maps: Path) -> SemanticMap | None:
    """The shipped scene with the most cells (``maps/index.json``), or ``None`` if none ship."""
    index = maps / "index.json"
    if not index.is_file():
        return None
    names = json.loads(index.read_text(encoding="utf-8"))
    candidates = list(dict.fromkeys(list(names.get("test", [])) + list(names.get("dev", []))))
    best: tuple[int, str] | None = None
    for name in candidates:
        pgm = maps / name / "map.pgm"
        if not pgm.is_file():
            continue
        with pgm.open("rb") as fh:
            header = fh.read(64).split()
        cells = int(header[1]) * int(header[2])
        if best is None or cells > best[0]:
            best = (cells, name)
    return None if best is None else load_scene(maps / best[1])


def generated_house() -> SemanticMap:
    """A 4 x 3 grid of 5 m rooms with doors and furniture (used until scenes ship)."""
    types = list(RoomType)
    rooms, objects, doors = [], [], []
    for i in range(4):
        for j in range(3):
            rid = i * 3 + j
            x0, y0 = 5.0 * i, 5.0 * j
            rooms.append(RectRoom(rid, types[rid % 4], x0, y0, x0 + 5, y0 + 5))
            objects += [RectObject(f"table_{rid}", "dining_table", x0 + 2.5, y0 + 2.5, 1.2, 0.8),
                        RectObject(f"sofa_{rid}", "sofa", x0 + 1.0, y0 + 4.2, 1.6, 0.7),
                        RectObject(f"plant_{rid}", "house_plant", x0 + 4.4, y0 + 0.6, 0.4, 0.4)]
            if i < 3:
                doors.append((f"door_x{rid}", (rid, rid + 3), ((x0 + 5, y0 + 2), (x0 + 5, y0 + 3))))
            if j < 2:
                doors.append((f"door_y{rid}", (rid, rid + 1), ((x0 + 3, y0 + 5), (x0 + 4, y0 + 5))))
    return rect_house(name="generated_12_rooms", rooms=rooms, objects=objects, doors=doors)


def five_stage_routeir(m: SemanticMap) -> tuple[RouteIR, tuple[float, float]]:
    """A 5-stage RouteIR over far-apart floor objects, with scoped soft terms and one must-avoid.

    Each stage goes to the floor object farthest from the previous stop (a stress test: the
    route crosses the house five times).
    """
    structural = {"wall", "window", "doorway", "door"}
    objs = [o for o in sorted(m.objects, key=lambda o: o.id)
            if o.category not in structural and o.parent_id is None and o.room_id is not None
            and (m.goal_region_mask(o) & m.traversable).any()]
    if len(objs) < 8:
        raise ValueError(f"scene {m.name!r} has too few reachable objects for a 5-stage route")
    rows, cols = np.nonzero(m.traversable)
    pick = len(rows) // 2
    start = m.grid.cell_to_world(int(rows[pick]), int(cols[pick]))
    chosen = []
    here = np.array(start)
    pool = objs
    for _ in range(5):  # greedy: the farthest object from the previous stop
        far = max(pool, key=lambda o: float(np.hypot(*(np.array(o.center) - here))))
        chosen.append(far)
        pool = [o for o in pool if o.id != far.id]
        here = np.array(far.center)
    refs = [o for o in pool if o not in chosen][:3]
    stages = tuple(Stage(target=object_goal_region(m, o), label=o.id) for o in chosen)
    constraints = (
        Constraint(ConstraintKind.NEAR, footprint_region(m, [refs[0]]), temporal_scope=(0, 1)),
        Constraint(ConstraintKind.FAR, footprint_region(m, [refs[1]]), temporal_scope=(2,)),
        Constraint(ConstraintKind.RELATIVE, footprint_region(m, [refs[0]]),
                   other=footprint_region(m, [refs[2]]), temporal_scope=(3,)),
        Constraint(ConstraintKind.FAR, footprint_region(m, [chosen[0]]),
                   spatial_scope=disk_region(m, chosen[1].center, 3.0)),
        Constraint(ConstraintKind.MUST_AVOID, disk_region(m, refs[2].center, 0.6),
                   temporal_scope=(4,)),
    )
    return RouteIR(stages=stages, constraints=constraints, grid=m.grid, scene=m.name), start


def route_rows(m: SemanticMap, repeats: int, config: PlannerConfig,
               advance: Callable[[], None]) -> list[Timing]:
    """Time the 5-stage route cold (distance fields rebuilt) and warm (cached)."""
    ir, start = five_stage_routeir(m)
    label = f"{m.name} {m.grid.rows}x{m.grid.cols}"
    cold = Timing("route5", "plan_route cold", label,
                  note="5 stages incl. cost maps and the map's distance fields")
    warm = Timing("route5", "plan_route warm", label,
                  note="5 stages incl. cost maps; distance fields cached per map")
    hard = Timing("route5", "plan_route hard_only", label,
                  note="shortest feasible route (no soft terms)")
    for _ in range(repeats):
        forget_distance_fields(m)
        route = _timed(cold, plan_route, m, ir, start, config=config)
        _timed(warm, plan_route, m, ir, start, config=config)
        short = _timed(hard, plan_route, m, ir, start, config=config, hard_only=True)
        advance()
    for row, r in ((cold, route), (warm, route), (hard, short)):
        row.cost, row.path_cells = float(sum(r.stage_costs)), len(r.cells)
    return [cold, warm, hard]


def run_benchmark(*, sizes: list[int], repeats: int, config: PlannerConfig, maps: Path,
                  advance: Callable[[], None] | None = None) -> tuple[list[Timing], dict[str, Any]]:
    """Run both workloads; returns the rows and the summary JSON object."""
    step = advance or (lambda: None)
    t0 = time.perf_counter()
    warm_up()
    warm_up_ms = (time.perf_counter() - t0) * 1e3
    rows = segment_rows(sizes, repeats, config, step)
    m = largest_scene(maps)
    scene_note = "largest shipped scene"
    if m is None:
        m, scene_note = generated_house(), "generated (no shipped scenes found)"
    rows += route_rows(m, repeats, config, step)

    def median(workload: str, method: str, size: str | None = None, *,
               cpu: bool = False) -> float | None:
        for r in rows:
            if r.workload == workload and r.method.startswith(method) and (
                    size is None or r.size == size) and r.times_ms:
                return round(r.cpu_median_ms if cpu else r.median_ms, 3)
        return None

    big = f"{max(sizes)}x{max(sizes)}"
    seg = median("segment", "map2route A*", "1000x1000") or median("segment", "map2route A*", big)
    py = median("segment", "pyastar2d", "1000x1000") or median("segment", "pyastar2d", big)
    seg_cpu = median("segment", "map2route A*", "1000x1000", cpu=True)
    py_cpu = median("segment", "pyastar2d", "1000x1000", cpu=True)
    summary: dict[str, Any] = {
        "segment_1000_median_ms": median("segment", "map2route A*", "1000x1000"),
        "segment_largest_size": big,
        "pyastar2d_1000_median_ms": median("segment", "pyastar2d", "1000x1000"),
        "ratio_vs_pyastar2d": None if seg is None or not py else round(seg / py, 3),
        "segment_1000_cpu_median_ms": seg_cpu,
        "pyastar2d_1000_cpu_median_ms": py_cpu,
        "ratio_vs_pyastar2d_cpu": None if seg_cpu is None or not py_cpu
        else round(seg_cpu / py_cpu, 3),
        "route5_largest_cpu_median_ms": median("route5", "plan_route cold", cpu=True),
        "replan_from_field_1000_median_ms": median("segment", "map2route replan", "1000x1000"),
        "route5_largest_median_ms": median("route5", "plan_route cold"),
        "route5_largest_warm_median_ms": median("route5", "plan_route warm"),
        "route5_scene": m.name,
        "route5_scene_source": scene_note,
        "route5_grid": [m.grid.rows, m.grid.cols],
        "warm_up_ms": round(warm_up_ms, 1),
        "repeats": repeats,
        "rows": [r.as_dict() for r in rows],
    }
    return rows, summary
