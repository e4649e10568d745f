"""Run a Map2Route method over episodes: a process pool over the shared resumable runner.

Layout of an output folder::

    OUT/
      run.json        the method, episode file and planner config of this run
      results.jsonl   one line per scored episode (appended one whole line at a time)
      summary.json    Table II numbers per difficulty (written by the report step)

      transcripts/    one JSON per episode for methods that keep one (the LLM methods: every
                      request, reply, program and repair prompt)

Re-running with the same ``OUT`` skips the episodes already in ``results.jsonl``; a half-written
last line (a killed run) is dropped and that episode runs again (:mod:`map2route.execution.results`).

Methods that wait on an API (``api_bound``: the LLM methods) run in threads of this process
instead of worker processes with the local executor: one shared client, response cache and
in-flight gate bound the requests across all of them (``concurrency`` in the LLM config). On
Ray they run one episode per task with at most ``concurrency`` (or ``--max-in-flight``) tasks
in flight, each task's requests one after another: the same bound, across the cluster.
"""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from map2route.bench.errors import BenchmarkError, EndpointError
from map2route.bench.map2route.catalog import make_method
from map2route.bench.map2route.episode import (
    EPISODE_SCHEMA,
    check_episode_lines,
    episode_from_json,
    read_lines,
)
from map2route.bench.map2route.llm_methods import transcript_path
from map2route.bench.map2route.methods import hard_requirements
from map2route.bench.map2route.scoring import score_route
from map2route.errors import Map2RouteError
from map2route.execution.executors import Executor, LocalExecutor, chunked
from map2route.execution.results import RESULTS_NAME, ResultsFile, Row, progress_bar
from map2route.files import atomic_write_text
from map2route.planning import plan_route
from map2route.semantic_map import load_scene

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from map2route.bench.map2route.methods import Method
    from map2route.semantic_map import SemanticMap

RUN_SCHEMA = "map2route.bench_run/1"


@dataclass(frozen=True)
class RunSpec:
    """What a run evaluates.

    Attributes:
        method: registered method name.
        episodes_path: the episode JSON Lines file.
        maps_root: folder holding the scene folders.
        planner_config: planner YAML override (``None``: ``config/planner.yaml``).
        options: further keyword options of the method factory (``grounder``,
            ``grounding_config``); part of what a resumed run must match.
    """

    method: str
    episodes_path: Path
    maps_root: Path
    planner_config: str | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"schema_version": RUN_SCHEMA, "method": self.method,
                "episodes": str(self.episodes_path), "planner_config": self.planner_config,
                "options": self.options}

    def make(self) -> Method:
        """The method this run evaluates."""
        return make_method(self.method, planner_config=self.planner_config, **self.options)


# --- worker side -------------------------------------------------------------------------------
_WORKER: dict[str, Any] = {}


_SCENE_LOCK = threading.Lock()


def _init_worker(method: str, planner_config: str | None, maps_root: str,
                 options: dict[str, Any] | None = None,
                 instance: Method | None = None) -> None:
    _WORKER["method"] = instance or make_method(method, planner_config=planner_config,
                                                **(options or {}))
    _WORKER["planner_config"] = planner_config
    _WORKER["maps_root"] = Path(maps_root)
    _WORKER["scenes"] = {}


def _scene(name: str) -> SemanticMap:
    with _SCENE_LOCK:  # API-bound runs share the cache between threads
        scenes: dict[str, SemanticMap] = _WORKER["scenes"]
        if name not in scenes:
            if len(scenes) >= 4:
                scenes.clear()
            scenes[name] = load_scene(_WORKER["maps_root"] / name)
        return scenes[name]


def _shortest_length(ep: Any, m: SemanticMap) -> float | None:
    """L* when the episode does not carry it (official episodes): plan hard-only once."""
    try:
        return float(plan_route(m, hard_requirements(ep.routeir), ep.start_xy,
                                hard_only=True).length_m)
    except Map2RouteError:
        return None


def run_one(line: str, method: Method | None = None,
            scene: Callable[[str], SemanticMap] | None = None) -> dict[str, Any]:
    """Solve and score one episode line; never raises for a method's failure."""
    meth: Method = method if method is not None else _WORKER["method"]
    get_scene = scene if scene is not None else _scene
    ep = episode_from_json(json.loads(line))
    m = get_scene(ep.scene)
    t0 = time.perf_counter()
    error: str | None = None
    crashed = False
    info: dict[str, Any] = {}
    route = None
    try:
        result = meth.solve(ep, m)
        route, error, info = result.route, result.error, dict(result.info)
    except EndpointError:
        raise  # not the method's failure: stop the run, keep the rows, resume later
    except Map2RouteError as err:
        error = str(err)
    except Exception as err:  # a method's bug is recorded and counted, the run goes on
        error, crashed = f"{type(err).__name__}: {err}", True
    solve_s = time.perf_counter() - t0
    lstar = ep.reference.shortest_length_m
    if lstar is None:
        lstar = _shortest_length(ep, m)
    points = None if route is None else route.points
    score = score_route(ep, m, points, shortest_length_m=lstar)
    row = score.to_json()
    transcript = info.pop("transcript", None)
    llm = info.pop("llm", None)
    row.update({"scene": ep.scene, "method": meth.name, "error": error, "crashed": crashed,
                "solve_s": round(solve_s, 4)})
    grounder = info.pop("grounder", None) or getattr(meth, "grounder", None)
    if grounder is not None:
        row["grounder"] = grounder
    if isinstance(llm, dict):
        row.update(llm)  # model, llm_calls, cache_hits, tokens, cost_usd, spent_usd, latency
    row["info"] = _jsonable(info)
    if transcript is not None:
        row["transcript"] = transcript  # the driver writes it beside the results, then drops it
    return row


def _run_chunk(lines: list[str]) -> list[dict[str, Any]]:
    return [run_one(line) for line in lines]


def _jsonable(info: dict[str, Any]) -> dict[str, Any]:
    try:
        json.dumps(info)
        return info
    except (TypeError, ValueError):
        return {k: repr(v) for k, v in info.items()}


# --- driver side -------------------------------------------------------------------------------
def select_lines(path: Path, *, split: str | None = None, limit: int | None = None) -> list[str]:
    """The episode lines to run: filtered by split/difficulty, the first ``limit`` of them."""
    if not path.is_file():
        msg = (f"Episode file {str(path)!r} does not exist; generate it with "
               "`map2route episodes generate` or pass --episodes PATH")
        raise BenchmarkError(msg)
    numbered = read_lines(path)
    check_episode_lines(path, numbered)
    out: list[str] = []
    for lineno, line in numbered:
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as err:
            raise BenchmarkError(f"{path}:{lineno}: not valid JSON ({err.msg})") from err
        if raw.get("schema_version") != EPISODE_SCHEMA:
            msg = (f"{path}:{lineno}: schema_version {raw.get('schema_version')!r}; this "
                   f"map2route reads {EPISODE_SCHEMA!r}")
            raise BenchmarkError(msg)
        difficulty = raw.get("split")
        if difficulty == "dev":
            difficulty = (raw.get("metadata") or {}).get("difficulty", "easy")
        if split is not None and split not in (raw.get("split"), difficulty):
            continue
        out.append(line)
        if limit is not None and len(out) >= limit:
            break
    return out


def _episode_key(row: Row) -> str:
    return str(row["episode_id"])


def results_file(out_dir: Path) -> ResultsFile:
    """The ``results.jsonl`` of a run folder, one row per episode id."""
    return ResultsFile(out_dir / RESULTS_NAME, key=_episode_key)


def read_results(path: Path) -> list[dict[str, Any]]:
    """Every complete row of a ``results.jsonl``, one per episode (a torn last line is ignored)."""
    return ResultsFile(path, key=_episode_key).rows()


def run_benchmark(spec: RunSpec, out_dir: Path, *, split: str | None = None,
                  limit: int | None = None, workers: int = 2, chunk_size: int = 4,
                  progress: bool = True, method: Method | None = None,
                  executor: Executor | None = None) -> list[dict[str, Any]]:
    """Run ``spec.method`` over the selected episodes, resuming from ``out_dir``.

    Args:
        method: the method built from ``spec`` already (the CLI builds it to fail early and to
            estimate the cost); ``None``: built here when needed.
        executor: runs the chunks (default: a local pool of ``workers`` processes); rows
            reach ``results.jsonl`` as chunks finish, so a killed run resumes on either
            executor.

    Returns:
        All result rows of the selected episodes (earlier runs' rows included), file order.

    Raises:
        BenchmarkError: ``out_dir`` holds a run of another method or episode file.
    """
    lines = select_lines(spec.episodes_path, split=split, limit=limit)
    ids = [json.loads(line)["id"] for line in lines]
    out_dir.mkdir(parents=True, exist_ok=True)
    run_json = out_dir / "run.json"
    if run_json.is_file():
        old = json.loads(run_json.read_text())
        if (old.get("method") != spec.method or old.get("planner_config") != spec.planner_config
                or (old.get("options") or {}) != spec.options):
            msg = (f"{out_dir} holds a run of method {old.get('method')!r} (planner config "
                   f"{old.get('planner_config')!r}, options {old.get('options') or {}}); use "
                   f"another --out for {spec.method!r} with options {spec.options}")
            raise BenchmarkError(msg)
    atomic_write_text(run_json, json.dumps(spec.to_json(), indent=1))
    results = results_file(out_dir)
    results.drop_torn_tail()
    done = {_episode_key(r): r for r in results.rows()}
    todo = [line for line, i in zip(lines, ids, strict=True) if i not in done]
    # Scene order keeps each worker's scene cache warm.
    todo.sort(key=lambda line: json.loads(line)["scene"])
    if todo:
        _execute(spec, todo, results, done, executor=executor or LocalExecutor(workers),
                 chunk_size=chunk_size, progress=progress, method=method or spec.make())
    return [done[i] for i in ids if i in done]


def _execute(spec: RunSpec, todo: Sequence[str], results: ResultsFile,
             done: dict[str, dict[str, Any]], *, executor: Executor, chunk_size: int,
             progress: bool, method: Method | None = None) -> None:
    out_dir = results.path.parent
    with progress_bar(f"{spec.method} ({executor.name})", len(todo), enabled=progress) as bar:

        def record(rows: list[dict[str, Any]]) -> None:
            for row in rows:
                transcript = row.pop("transcript", None)
                if transcript is not None:
                    path = transcript_path(out_dir, str(row["episode_id"]))
                    path.parent.mkdir(parents=True, exist_ok=True)
                    atomic_write_text(path, json.dumps(transcript, indent=1, ensure_ascii=False))
                results.append(row)
                done[row["episode_id"]] = row
            bar.advance(len(rows))

        api_bound = method is not None and getattr(method, "api_bound", False)
        threads = max(1, getattr(getattr(method, "settings", None), "concurrency", 1))
        if api_bound and executor.name == "local":
            _init_worker(spec.method, spec.planner_config, str(spec.maps_root),
                         instance=method)
            with ThreadPoolExecutor(max_workers=threads) as threaded:
                for one in as_completed([threaded.submit(run_one, line) for line in todo]):
                    record([one.result()])
            return
        # On Ray an API-bound run ships one episode per task and keeps at most `concurrency`
        # (or --max-in-flight) tasks in flight: the bound on concurrent requests cluster-wide.
        executor.map_chunks(_run_chunk, chunked(todo, 1 if api_bound else chunk_size),
                            init=_init_worker,
                            initargs=(spec.method, spec.planner_config, str(spec.maps_root),
                                      spec.options),
                            on_result=record, in_flight=threads if api_bound else None)
