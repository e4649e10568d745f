"""The GROKE benchmark on Map2Seq: follow every instruction, score it, read it as quality.

For each instruction the chosen agent follows it from the route's first panorama facing the
route's ``initial_heading``. The trajectory is scored two ways:

- ``official`` (the default, for tables next to the GROKE paper): GROKE's path handling on the
  Map2Seq OSM street-node graph against the reference ``osm_path``
  (:mod:`map2route.streets.official`);
- ``panorama``: our trajectory as walked, against the reference ``pano_path`` on the Touchdown
  panorama graph (:mod:`map2route.streets.metrics`).

Read the other way round (GROKE's frame inversion), the follower's NE and SR say how
navigable each instruction is: ``quality = exp(-NE / 100 m)`` in (0, 1], 1 at the goal.
Instances split into a dev part and an unread part by a seeded hash of their ids
(:mod:`map2route.bench.groke.splits`). The ``llm`` agent runs on the benchmarks' LLM machinery
(cache, tokens, cost, transcripts, bounded concurrency: :mod:`map2route.bench.groke.llm`).
"""

from __future__ import annotations

import math
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from map2route.bench.errors import BenchmarkError
from map2route.bench.groke.llm import (
    GrokeLLM,
    GrokeLLMConfig,
    endpoint_error,
    estimate_run,
    run_llm,
    with_follow_config,
)
from map2route.bench.groke.splits import is_unread
from map2route.bench.registry import make_agent
from map2route.bench.report import write_json, write_png
from map2route.errors import Map2RouteError
from map2route.execution.executors import Executor, LocalExecutor, chunked
from map2route.execution.results import RESULTS_NAME, ResultsFile, progress_bar
from map2route.files import atomic_write_text
from map2route.llm.errors import LLMError
from map2route.streets.graph import StreetGraph
from map2route.streets.loaders import NavInstance, load_instances, load_touchdown
from map2route.streets.metrics import TrajectoryScore, mean_scores, score_paths
from map2route.streets.navigator import Agent, FollowConfig, follow
from map2route.streets.official import (
    OfficialScore,
    OsmStreetGraph,
    load_osm_graph,
    official_means,
    panorama_to_osm,
    score_official,
)

#: NE scale (m) of the instruction-quality score exp(-NE / scale).
QUALITY_SCALE_M = 100.0
#: Scoring modes: name -> the graph its numbers are on.
SCORINGS = {
    "official": "Map2Seq OSM street-node graph (GROKE's path handling, reference osm_path)",
    "panorama": "Touchdown panorama graph (trajectory as walked, reference pano_path)",
}


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
    official: OfficialScore | None = None
    llm_usage: dict[str, Any] = field(default_factory=dict)
    transcript: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def unread(self) -> bool:
        """True when the instance is in the unread part of the hash split."""
        return is_unread(self.id)

    @property
    def quality(self) -> float:
        """exp(-NE / 100 m): 1 at the goal, 0.37 at 100 m, 0 when following failed."""
        if self.score is None:
            return 0.0
        return math.exp(-self.score.ne_m / QUALITY_SCALE_M)

    def to_dict(self) -> dict[str, Any]:
        """One JSON line of ``results.jsonl``."""
        return {"index": self.index, "id": self.id, "unread": self.unread,
                "instruction": self.instruction,
                "metrics": self.score.to_dict() if self.score else None,
                "official": self.official.to_dict() if self.official else None,
                "quality": round(self.quality, 4), "steps": self.steps,
                "stop_reason": self.stop_reason, "subgoals": self.subgoals,
                "llm_usage": self.llm_usage,
                "path": self.path, "error": self.error}


@dataclass
class BenchReport:
    """All results plus summaries over all, the dev part and the unread part."""

    agent: str
    split: str
    results: list[InstanceResult]
    seconds: float
    graph_summary: dict[str, int] = field(default_factory=dict)
    scoring: str = "official"

    def summary(self) -> dict[str, Any]:
        """Mean metrics over all / dev / unread, in the report's scoring (graph named)."""
        def part(pred: Callable[[InstanceResult], bool]) -> dict[str, Any]:
            chosen = [r for r in self.results if pred(r)]
            out: dict[str, Any] = {"n": len(chosen)}
            if self.scoring == "official":
                scores = [r.official for r in chosen if r.official is not None]
                means = official_means(scores)
            else:
                means = mean_scores([r.score for r in chosen if r.score is not None])
            out.update({k: round(v, 4) for k, v in means.items()})
            return out
        usage: dict[str, Any] = {}
        for r in self.results:
            for key, value in r.llm_usage.items():
                if isinstance(value, bool):
                    usage[key] = usage.get(key, False) or value
                elif isinstance(value, int | float):
                    usage[key] = round(usage.get(key, 0) + value, 6)
                else:
                    usage.setdefault(key, value)
        return {"agent": self.agent, "split": self.split, "seconds": round(self.seconds, 2),
                "scoring": self.scoring, "scored_on": SCORINGS[self.scoring],
                "errors": sum(1 for r in self.results if r.error),
                "llm_usage": usage,
                "graph": self.graph_summary,
                "all": part(lambda r: True),
                "dev": part(lambda r: not r.unread),
                "unread": part(lambda r: r.unread)}


def _official(osm: OsmStreetGraph, graph: StreetGraph, path: list[int], inst: NavInstance
              ) -> OfficialScore:
    """The official score of a panorama path (an empty path is a completely wrong prediction)."""
    try:
        reference = [osm.index[o] for o in inst.osm_route]
    except KeyError as err:
        msg = (f"instance {inst.id}: osm_path node {err.args[0]!r} is not in the OSM street "
               f"graph; score with --scoring panorama")
        raise BenchmarkError(msg) from None
    idx = list(path)
    predicted = panorama_to_osm(osm, graph.lat[idx], graph.lng[idx]) if idx else []
    return score_official(osm, predicted, reference)


def run_instances(graph: StreetGraph, instances: list[NavInstance], agent: Agent, *,
                  config: FollowConfig | None = None, osm: OsmStreetGraph | None = None,
                  progress: Callable[[int], None] | None = None) -> list[InstanceResult]:
    """Follow and score each instance; a domain error is recorded, not raised.

    With ``osm`` every instance is also scored the official way (a failed follow counts as a
    completely wrong prediction). An agent with ``told_reference_length`` is stopped when its
    path holds as many nodes as the reference route.
    """
    usage = getattr(agent, "usage", None)  # LLM agents count their calls
    out: list[InstanceResult] = []
    for k, inst in enumerate(instances):
        before = usage.to_dict() if usage is not None else {}
        result = run_one(graph, k, inst, agent, config=config, osm=osm)
        if usage is not None:
            result.llm_usage = {key: v - before.get(key, 0) for key, v in usage.to_dict().items()}
        out.append(result)
        if progress is not None:
            progress(1)
    return out


def run_one(graph: StreetGraph, k: int, inst: NavInstance, agent: Agent, *,
            config: FollowConfig | None = None, osm: OsmStreetGraph | None = None
            ) -> InstanceResult:
    """Follow and score instance ``k``; a domain error is recorded, not raised.

    Raises:
        EndpointError: the agent's LLM endpoint failed (the run stops; see
            :func:`map2route.bench.groke.llm.endpoint_error`).
    """
    oracle_length = bool(getattr(agent, "told_reference_length", False))
    ref = [graph.node(p) for p in inst.route]
    try:
        res = follow(graph, inst.instruction, ref[0], inst.initial_heading, agent,
                     config=config, stop_at_nodes=len(ref) if oracle_length else None)
        score = score_paths(graph, res.path, ref)
        result = InstanceResult(k, inst.id, inst.instruction, score,
                                [graph.node_ids[i] for i in res.path],
                                [g.describe() for g in res.subgoals], res.steps,
                                res.stop_reason)
        path = res.path
    except Map2RouteError as err:
        if isinstance(err, LLMError):
            stop = endpoint_error(err, inst.id)
            if stop is not None:
                raise stop from err
        result = InstanceResult(k, inst.id, inst.instruction, None, [], [], 0, "error", str(err))
        path = []
    if osm is not None:
        result.official = _official(osm, graph, path, inst)
    return result


def run_bench(data: Path, *, split: str = "val", agent_name: str = "offline",
              limit: int | None = None, llm_config: dict[str, Any] | None = None,
              config: FollowConfig | None = None, show_progress: bool = True,
              scoring: str = "official", part: str = "all",
              llm: GrokeLLMConfig | None = None,
              on_estimate: Callable[[dict[str, Any]], None] | None = None,
              executor: Executor | None = None, chunk_size: int = 4) -> BenchReport:
    """Load the data, follow every instruction with a progress bar, return the report.

    Instances go to ``executor`` in chunks of ``chunk_size`` (an LLM agent: one per chunk, so
    Ray's ``--max-in-flight`` bounds its concurrent requests); each worker loads the street
    graphs and the agent once. Results come back in instance order whatever the executor.

    Args:
        executor: where the chunks run (default: this process, one after another).
        scoring: ``official`` or ``panorama`` (see the module docstring).
        part: ``all``, ``dev`` or ``unread`` (the hash split of
            :mod:`map2route.bench.groke.splits`).
        llm: the ``llm`` agent's config (:class:`GrokeLLMConfig`): run it on the LLM
            machinery; ``on_estimate`` gets the calls/tokens/cost estimate before the run.
        llm_config: the old way (``base_url``/``model`` for a plain client, no cache).

    Raises:
        BenchmarkError: an unknown scoring or part, or official scoring of instances without
            an ``osm_path``.
    """
    if scoring not in SCORINGS:
        raise BenchmarkError(f"unknown scoring {scoring!r}; choose one of {', '.join(SCORINGS)}")
    if part not in ("all", "dev", "unread"):
        raise BenchmarkError(f"unknown part {part!r}; choose all, dev or unread")
    t0 = time.perf_counter()
    graph = load_touchdown(data)
    instances = load_instances(data, split, graph=graph)
    if part != "all":
        instances = [i for i in instances if is_unread(i.id) == (part == "unread")]
    if limit is not None:
        instances = instances[:limit]
    osm = None
    if scoring == "official":
        lacking = [i.id for i in instances if not i.osm_route]
        if lacking:
            msg = (f"{len(lacking)} instances of {split!r} have no route.osm_path (first: "
                   f"{lacking[0]}); official scoring needs it: use --scoring panorama")
            raise BenchmarkError(msg)
        osm = load_osm_graph(data)
    if agent_name == "llm" and llm is not None:
        # GROKE's LLM navigator is bound by API latency, not CPU: it runs here on threads
        # whatever the executor, so one process holds the request gate; --max-in-flight
        # (the executor's cluster-wide bound) overrides the config's `concurrency`.
        bound = getattr(executor, "max_in_flight", None)
        if bound:
            llm = replace(
                llm, settings=replace(llm.settings, concurrency=int(bound)))
        if on_estimate is not None:
            on_estimate(estimate_run(graph, instances, llm))
        groke = GrokeLLM(llm)
        follow_cfg = with_follow_config(config, llm)
        with progress_bar(f"groke llm {split}", len(instances), enabled=show_progress) as bar:
            followed = run_llm(groke, instances,
                               lambda k, inst, a: run_one(graph, k, inst, a, config=follow_cfg,
                                                          osm=osm),
                               progress=bar.advance)
        return BenchReport(agent_name, split, followed, time.perf_counter() - t0,
                           graph.summary(), scoring)
    runner = executor or LocalExecutor(1)
    agent = make_agent(agent_name, llm_config=llm_config)  # a bad agent fails before any work
    run = uuid.uuid4().hex
    if runner.name == "local" and getattr(runner, "workers", 1) <= 1:
        # In this process: the graphs and agent loaded above serve (`_init_worker` sees `run`).
        _WORKER.update(run=run, graph=graph, osm=osm, agent=agent, config=config)
    api_bound = bool(getattr(agent, "api_bound", False)) or agent_name == "llm"
    chunks = chunked(list(enumerate(instances)), 1 if api_bound else chunk_size)
    results: list[InstanceResult] = []
    with progress_bar(f"groke {agent_name} {split} ({runner.name})", len(instances),
                      enabled=show_progress) as bar:

        def record(done: list[InstanceResult]) -> None:
            results.extend(done)
            bar.advance(len(done))

        runner.map_chunks(_run_chunk, chunks, init=_init_worker,
                          initargs=(str(data), agent_name, llm_config, config, scoring, run),
                          on_result=record)
    results.sort(key=lambda r: r.index)
    return BenchReport(agent_name, split, results, time.perf_counter() - t0, graph.summary(),
                       scoring)


# --- worker side: graphs and agent loaded once per worker process --------------------------------
_WORKER: dict[str, Any] = {}


def _init_worker(data: str, agent_name: str, llm_config: dict[str, Any] | None,
                 config: FollowConfig | None, scoring: str, run: str) -> None:
    if _WORKER.get("run") == run:
        return  # the driver itself, which loaded them already
    graph = load_touchdown(Path(data))
    _WORKER.update(run=run, graph=graph, config=config,
                   osm=load_osm_graph(Path(data)) if scoring == "official" else None,
                   agent=make_agent(agent_name, llm_config=llm_config))


def _run_chunk(chunk: list[tuple[int, NavInstance]]) -> list[InstanceResult]:
    """Follow and score a chunk of ``(index, instance)`` pairs in this worker."""
    out = run_instances(_WORKER["graph"], [inst for _, inst in chunk], _WORKER["agent"],
                        config=_WORKER["config"], osm=_WORKER["osm"])
    for (k, _), result in zip(chunk, out, strict=True):
        result.index = k
    return out


def write_outputs(report: BenchReport, out: Path) -> list[Path]:
    """Write results.jsonl, quality.csv, summary.json and ne_hist.png into ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    ResultsFile(out / RESULTS_NAME, key=lambda row: row["index"]).write_all(
        r.to_dict() for r in report.results)
    written.append(out / RESULTS_NAME)
    # held_out: 1 for the unread part of the hash split. ne_m/sr/sdtw: panorama scoring.
    rows = ["index,id,held_out,ne_m,sr,sdtw,quality,official_ne_m,official_sr"]
    for r in report.results:
        ne = f"{r.score.ne_m:.1f}" if r.score else ""
        sr = f"{r.score.sr:.0f}" if r.score else ""
        sdtw = f"{r.score.sdtw:.4f}" if r.score else ""
        o_ne = o_sr = ""
        if r.official is not None:
            o_ne = "" if math.isinf(r.official.ne_m) else f"{r.official.ne_m:.1f}"
            o_sr = f"{r.official.sr:.0f}"
        rows.append(f"{r.index},{r.id},{int(r.unread)},{ne},{sr},{sdtw},"
                    f"{r.quality:.4f},{o_ne},{o_sr}")
    atomic_write_text(out / "quality.csv", "\n".join(rows) + "\n")
    written.append(out / "quality.csv")
    written.append(write_json(out / "summary.json", report.summary(), indent=2))
    transcripts = [r.transcript for r in report.results if r.transcript is not None]
    for t in transcripts:
        (out / "transcripts").mkdir(exist_ok=True)
        write_json(transcript_path(out, str(t["id"])), t, indent=1)
    if transcripts:
        written.append(out / "transcripts")
    written.append(plot_errors(report, out / "ne_hist.png"))
    return written


def transcript_path(out: Path, instance_id: str) -> Path:
    """Where an instance's LLM transcript goes: ``OUT/transcripts/<id>.json``."""
    return Path(out) / "transcripts" / (instance_id.replace("/", "__") + ".json")


def plot_errors(report: BenchReport, path: Path) -> Path:
    """Histogram of navigation errors with the 25 m success radius marked."""
    if report.scoring == "official":
        ne = [min(r.official.ne_m, 600.0) for r in report.results
              if r.official is not None and not math.isinf(r.official.ne_m)]
    else:
        ne = [min(r.score.ne_m, 600.0) for r in report.results if r.score is not None]
    fig = Figure(figsize=(7, 4))  # no pyplot: no global figure state
    ax = fig.subplots()
    ax.hist(ne, bins=[25.0 * k for k in range(25)], color="#4477aa", edgecolor="white")
    ax.axvline(25.0, color="#cc3311", linestyle="--", label="success radius 25 m")
    s = report.summary()["all"]
    ax.set_title(f"GROKE {report.agent} on {report.split} ({report.scoring} scoring): "
                 f"n={s['n']}, SR={100 * s.get('sr', 0):.1f}%, NE={s.get('ne_m', 0):.0f} m")
    ax.set_xlabel("navigation error (m, 25 m bins; the last bin holds everything >= 575 m)")
    ax.set_ylabel("instructions")
    ax.legend()
    fig.tight_layout()
    return write_png(fig, Path(path), dpi=120)
