"""The GROKE benchmark on Map2Seq: follow every instruction, score it, read it as quality.

For each instruction the chosen agent follows it from the route's first panorama facing the
route's ``initial_heading``; the trajectory is scored with :mod:`map2route.streets.metrics`.
Read the other way round (GROKE's frame inversion), the follower's NE and SR say how
navigable each instruction is: ``quality = exp(-NE / 100 m)`` in (0, 1], 1 at the goal.
Every 5th instruction (index % 5 == 4) is the held-out part used while developing the rules.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from map2route.bench.registry import make_agent
from map2route.bench.report import write_json, write_png
from map2route.bench.runner import RESULTS_NAME, ResultsFile, progress_bar
from map2route.errors import Map2RouteError
from map2route.files import atomic_write_text
from map2route.streets.graph import StreetGraph
from map2route.streets.loaders import NavInstance, load_instances, load_touchdown
from map2route.streets.metrics import TrajectoryScore, mean_scores, score_paths
from map2route.streets.navigator import Agent, FollowConfig, follow

#: NE scale (m) of the instruction-quality score exp(-NE / scale).
QUALITY_SCALE_M = 100.0


def holdout(index: int) -> bool:
    """True for the held-out part of a split: every 5th instruction."""
    return index % 5 == 4


@dataclass
class InstanceResult:
    """One followed instruction: scores, trajectory, and its quality reading."""

    index: int
    id: str
    instruction: str
    score: TrajectoryScore | None
    path: list[str]
    subgoals: list[str]
    steps: int
    stop_reason: str
    error: str = ""

    @property
    def quality(self) -> float:
        """exp(-NE / 100 m): 1 at the goal, 0.37 at 100 m, 0 when following failed."""
        if self.score is None:
            return 0.0
        return math.exp(-self.score.ne_m / QUALITY_SCALE_M)

    def to_dict(self) -> dict[str, Any]:
        """One JSON line of ``results.jsonl``."""
        return {"index": self.index, "id": self.id, "held_out": holdout(self.index),
                "instruction": self.instruction,
                "metrics": self.score.to_dict() if self.score else None,
                "quality": round(self.quality, 4), "steps": self.steps,
                "stop_reason": self.stop_reason, "subgoals": self.subgoals,
                "path": self.path, "error": self.error}


@dataclass
class BenchReport:
    """All results plus summaries over all, the development part and the held-out part."""

    agent: str
    split: str
    results: list[InstanceResult]
    seconds: float
    graph_summary: dict[str, int] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        """Mean metrics (NE, SR, OSR, nDTW, SDTW, acc@d) over all / dev / held-out."""
        def part(pred: Callable[[InstanceResult], bool]) -> dict[str, Any]:
            scored = [r.score for r in self.results if pred(r) and r.score is not None]
            out: dict[str, Any] = {"n": sum(1 for r in self.results if pred(r))}
            out.update({k: round(v, 4) for k, v in mean_scores(scored).items()})
            return out
        return {"agent": self.agent, "split": self.split, "seconds": round(self.seconds, 2),
                "errors": sum(1 for r in self.results if r.error),
                "graph": self.graph_summary,
                "all": part(lambda r: True),
                "dev": part(lambda r: not holdout(r.index)),
                "held_out": part(lambda r: holdout(r.index))}


def run_instances(graph: StreetGraph, instances: list[NavInstance], agent: Agent, *,
                  config: FollowConfig | None = None,
                  progress: Callable[[int], None] | None = None) -> list[InstanceResult]:
    """Follow and score each instance; a domain error is recorded, not raised."""
    out: list[InstanceResult] = []
    for k, inst in enumerate(instances):
        ref = [graph.node(p) for p in inst.route]
        try:
            res = follow(graph, inst.instruction, ref[0], inst.initial_heading, agent,
                         config=config)
            score = score_paths(graph, res.path, ref)
            out.append(InstanceResult(k, inst.id, inst.instruction, score,
                                      [graph.node_ids[i] for i in res.path],
                                      [g.describe() for g in res.subgoals], res.steps,
                                      res.stop_reason))
        except Map2RouteError as err:
            out.append(InstanceResult(k, inst.id, inst.instruction, None, [], [], 0,
                                      "error", str(err)))
        if progress is not None:
            progress(1)
    return out


def run_bench(data: Path, *, split: str = "val", agent_name: str = "offline",
              limit: int | None = None, llm_config: dict[str, Any] | None = None,
              config: FollowConfig | None = None, show_progress: bool = True) -> BenchReport:
    """Load the data, follow every instruction with a progress bar, return the report."""
    t0 = time.perf_counter()
    graph = load_touchdown(data)
    instances = load_instances(data, split, graph=graph)
    if limit is not None:
        instances = instances[:limit]
    agent = make_agent(agent_name, llm_config=llm_config)
    with progress_bar(f"groke {agent_name} {split}", len(instances),
                      enabled=show_progress) as bar:
        results = run_instances(graph, instances, agent, config=config, progress=bar.advance)
    return BenchReport(agent_name, split, results, time.perf_counter() - t0, graph.summary())


def write_outputs(report: BenchReport, out: Path) -> list[Path]:
    """Write results.jsonl, quality.csv, summary.json and ne_hist.png into ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    ResultsFile(out / RESULTS_NAME, key=lambda row: row["index"]).write_all(
        r.to_dict() for r in report.results)
    written.append(out / RESULTS_NAME)
    rows = ["index,id,held_out,ne_m,sr,sdtw,quality"]
    for r in report.results:
        ne = f"{r.score.ne_m:.1f}" if r.score else ""
        sr = f"{r.score.sr:.0f}" if r.score else ""
        sdtw = f"{r.score.sdtw:.4f}" if r.score else ""
        rows.append(f"{r.index},{r.id},{int(holdout(r.index))},{ne},{sr},{sdtw},"
                    f"{r.quality:.4f}")
    atomic_write_text(out / "quality.csv", "\n".join(rows) + "\n")
    written.append(out / "quality.csv")
    written.append(write_json(out / "summary.json", report.summary(), indent=2))
    written.append(plot_errors(report, out / "ne_hist.png"))
    return written


def plot_errors(report: BenchReport, path: Path) -> Path:
    """Histogram of navigation errors with the 25 m success radius marked."""
    ne = [min(r.score.ne_m, 600.0) for r in report.results if r.score is not None]
    fig = Figure(figsize=(7, 4))  # no pyplot: no global figure state
    ax = fig.subplots()
    ax.hist(ne, bins=[25.0 * k for k in range(25)], color="#4477aa", edgecolor="white")
    ax.axvline(25.0, color="#cc3311", linestyle="--", label="success radius 25 m")
    s = report.summary()["all"]
    ax.set_title(f"GROKE {report.agent} on {report.split}: n={s['n']}, "
                 f"SR={100 * s.get('sr', 0):.1f}%, NE={s.get('ne_m', 0):.0f} m")
    ax.set_xlabel("navigation error (m, 25 m bins; the last bin holds everything >= 575 m)")
    ax.set_ylabel("instructions")
    ax.legend()
    fig.tight_layout()
    return write_png(fig, Path(path), dpi=120)
