"""Time the offline grounder's ``parse`` and ``route`` paths on fuzzed instructions.

Each instruction goes through what ``map2route parse`` runs (:meth:`OfflineGrounder.parse`)
and what ``map2route route`` runs (:meth:`OfflineGrounder.ground` on a scene, then
:func:`plan_route`), each with the grounder's deadline from ``config/grounding.yaml``. An
outcome is ``ok``, ``error`` (a :class:`Map2RouteError`: the one-line ``Error:`` a user sees)
or ``traceback`` (any other exception: a bug). The benchmark's table gives, per path, the
count, the outcomes and the wall-time median, p99, max and the number over one second.
"""

from __future__ import annotations

import math
import statistics
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from map2route.errors import Map2RouteError
from map2route.grounding.config import GroundingConfig, load_config
from map2route.grounding.grounder import OfflineGrounder
from map2route.planning import plan_route
from map2route.semantic_map.model import SemanticMap

#: The per-instruction bound issue 16 asks for (seconds).
BOUND_S = 1.0
#: The rows of the summary: ``parse``, and ``route`` split into its grounding and the whole.
PATHS = ("parse", "ground", "route")


@dataclass
class Outcome:
    """One instruction through one path."""

    kind: str
    path: str
    status: str  # ok | error | traceback
    seconds: float
    chars: int
    detail: str = ""
    #: CPU seconds of this process over the call (what the instruction costs on an idle machine;
    #: ``seconds`` is wall time and grows with the machine's load).
    cpu_s: float = 0.0


@dataclass
class PathSummary:
    """What one path did over all instructions."""

    path: str
    count: int = 0
    ok: int = 0
    errors: int = 0
    tracebacks: int = 0
    median_s: float = math.nan
    p99_s: float = math.nan
    max_s: float = math.nan
    over_bound: int = 0
    cpu_p99_s: float = math.nan
    cpu_max_s: float = math.nan
    cpu_over_bound: int = 0
    slowest: str = ""
    examples: list[str] = field(default_factory=list)


def _call(fn: Callable[[], Any]) -> tuple[str, str, float, float, Any]:
    """``(status, detail, wall seconds, CPU seconds, value)`` of calling ``fn``."""
    t0, c0 = time.perf_counter(), time.process_time()
    status, detail, value = "ok", "", None
    try:
        value = fn()
    except Map2RouteError as err:
        status = "error"
        detail = str(err).splitlines()[0][:200] if str(err) else type(err).__name__
    except Exception:  # noqa: BLE001 - the benchmark counts whatever escapes as a bug
        status, detail = "traceback", traceback.format_exc(limit=6)
    return status, detail, time.perf_counter() - t0, time.process_time() - c0, value


def run_one(grounder: OfflineGrounder, m: SemanticMap, start: tuple[float, float], kind: str,
            text: str, paths: Sequence[str] = ("parse", "route")) -> list[Outcome]:
    """``text`` through ``parse`` (parse only) and ``route`` (ground, then plan).

    ``route`` gives two outcomes: ``ground`` (the grounding call alone, under its deadline)
    and ``route`` (grounding and planning together, what ``map2route route`` waits for).
    """
    out = []
    if "parse" in paths:
        status, detail, secs, cpu, _ = _call(lambda: grounder.parse(text))
        out.append(Outcome(kind, "parse", status, secs, len(text), detail, cpu))
    if "route" in paths:
        status, detail, secs, cpu, g = _call(lambda: grounder.ground(text, m, start))
        out.append(Outcome(kind, "ground", status, secs, len(text), detail, cpu))
        if status == "ok":
            status, detail, plan_s, plan_cpu, _ = _call(lambda: plan_route(m, g.routeir, start))
            secs, cpu = secs + plan_s, cpu + plan_cpu
        out.append(Outcome(kind, "route", status, secs, len(text), detail, cpu))
    return out


def make_grounder(cfg: GroundingConfig | None = None) -> OfflineGrounder:
    """The offline grounder as ``map2route parse`` / ``route`` build it (config deadline)."""
    return OfflineGrounder.from_config(cfg or load_config())


def _p99(xs: Sequence[float]) -> float:
    """The 99th percentile of sorted ``xs`` (nearest rank)."""
    return xs[min(len(xs) - 1, math.ceil(0.99 * len(xs)) - 1)]


def summarize(outcomes: Sequence[Outcome], *, bound_s: float = BOUND_S) -> list[PathSummary]:
    """One summary per path, in :data:`PATHS` order (paths with no outcome left out)."""
    rows = []
    for path in PATHS:
        mine = [o for o in outcomes if o.path == path]
        if not mine:
            continue
        secs = sorted(o.seconds for o in mine)
        cpus = sorted(o.cpu_s for o in mine)
        slowest = max(mine, key=lambda o: o.seconds)
        s = PathSummary(path, count=len(mine),
                        ok=sum(o.status == "ok" for o in mine),
                        errors=sum(o.status == "error" for o in mine),
                        tracebacks=sum(o.status == "traceback" for o in mine),
                        median_s=statistics.median(secs),
                        p99_s=_p99(secs),
                        max_s=secs[-1], over_bound=sum(x > bound_s for x in secs),
                        cpu_p99_s=_p99(cpus), cpu_max_s=cpus[-1],
                        cpu_over_bound=sum(x > bound_s for x in cpus),
                        slowest=f"{slowest.kind}, {slowest.chars} chars")
        s.examples = [o.detail for o in mine if o.status == "traceback"][:3]
        rows.append(s)
    return rows


def by_kind(outcomes: Sequence[Outcome]) -> dict[tuple[str, str], tuple[int, int, int, float]]:
    """``(kind, path) -> (count, errors, tracebacks, max seconds)``."""
    out: dict[tuple[str, str], tuple[int, int, int, float]] = {}
    for o in outcomes:
        n, e, t, mx = out.get((o.kind, o.path), (0, 0, 0, 0.0))
        out[(o.kind, o.path)] = (n + 1, e + (o.status == "error"), t + (o.status == "traceback"),
                                 max(mx, o.seconds))
    return out
