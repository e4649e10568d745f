"""The NeSy-Route LLM query-parsing agent: the paper's Task 1/2 setting, on our LLM machinery.

``map2route nesy eval --task 1|2|3 --agent llm --config FILE``. A model behind any
OpenAI-compatible endpoint reads each query and answers ``traverse_vector`` and
``cost_vector`` as JSON (:mod:`.llm_prompt`); a reply that cannot be used gets up to
``repair_rounds`` repair prompts listing what was wrong, then the sample is refused with those
problems. The answers are written in the official prediction format and scored by the
official-parity evaluator (:mod:`.evaluate`):

- Task 1: ``{query_id, traverse_vector, cost_vector}``;
- Task 2: the same plus ``region_vector``. The agent is text-only: it is told which classes
  the image shows, and the region vector is read from the label mask, as our own solver does
  (so RM measures bookkeeping, not perception);
- Task 3: the model gives the vectors, our A* plans on the sample's mask with them
  (:func:`~map2route.nesy.search.optimal_path`), and every 48th cell is the answer.

A refused Task 1/2 sample is written ``{"success": false, "error": ...}``: the official scorer
skips such rows, so it is reported as missing, not scored. A refused or unroutable Task 3
sample gets an empty trajectory (an evaluation error, non-adherent in AR), as our solver's.

The config is the grounding YAML that ``bench map2route --grounder llm --config`` reads (its
``llm:`` block and ``repair_rounds``; the keys a file omits come from
``config/grounding.yaml``): one file serves both benchmarks, with the same content-addressed
response cache (a rerun sends no request), token counts from ``usage``, prices, the bound on
requests in flight and per-request deadlines (:mod:`map2route.llm.metered`).

A run folder ``OUT`` holds ``run.json``, ``results.jsonl`` (one row per sample: agent, model,
calls, cache hits, tokens, cost, latency, outcome, the prediction; resumable by the shared
runner), ``transcripts/<sample>.json`` (every request's last message, reply, tokens and the
problems found) and, unless ``--pred`` says otherwise, ``predictions.jsonl``.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from map2route.bench.errors import BenchmarkError, EndpointError
from map2route.bench.nesy.llm_prompt import read_reply, repair_prompt, system_prompt, user_prompt
from map2route.bench.nesy.methods import image_facts, sparse_waypoints, write_predictions, xy_points
from map2route.execution.results import RESULTS_NAME, ResultsFile, Row, progress_bar
from map2route.files import atomic_write_text
from map2route.grounding.config import load_config
from map2route.llm.accounting import estimate_tokens
from map2route.llm.errors import LLMError
from map2route.llm.metered import ContextOverflowError, LLMPool, LLMSettings
from map2route.nesy.dataset import label_of, load_labels, load_samples
from map2route.nesy.errors import NesyError
from map2route.nesy.kb import NUM_CLASSES, Vectors, cost_map
from map2route.nesy.search import optimal_path

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

AGENT = "llm"
RUN_SCHEMA = "map2route.nesy_llm_run/1"
#: Tokens a repair prompt adds besides the reply it answers (estimate).
REPAIR_TOKENS = 80


@dataclass
class Answer:
    """One query's outcome: the vectors (or why not), the exchanges, and the repairs made."""

    vectors: Vectors | None
    error: str | None
    repairs: int
    attempts: list[dict[str, Any]] = field(default_factory=list)


class NesyLLMAgent:
    """Ask an LLM for a query's vectors, with bounded repair rounds.

    Args:
        config: a grounding YAML path (``None``: ``config/grounding.yaml``); its ``llm:`` block
            and ``repair_rounds`` are used.
        pool: share another run's client, cache and in-flight gate (``None``: a new one).

    Raises:
        GroundingError: the file is not a valid grounding config.
        BenchmarkError: the ``llm:`` block is invalid.
    """

    name = AGENT
    api_bound = True

    def __init__(self, config: str | Path | None = None, *, pool: LLMPool | None = None) -> None:
        source = str(config) if config is not None else "config/grounding.yaml"
        cfg = load_config(config)
        try:
            self.settings = LLMSettings.from_dict(dataclasses.asdict(cfg.llm))
        except LLMError as err:
            raise BenchmarkError(f"{source}: {err}") from err
        self.config = source
        self.rounds = cfg.repair_rounds
        self.pool = pool or LLMPool(self.settings)
        self.system = system_prompt()

    @property
    def model(self) -> str:
        return self.settings.client.model

    def ask(self, client: Any, query: str, present: frozenset[int] | None = None) -> Answer:
        """The vectors for ``query``: one request, then up to ``rounds`` repair requests.

        Raises:
            LLMError: the endpoint failed (not a context overflow, which refuses the query).
        """
        messages = [{"role": "system", "content": self.system},
                    {"role": "user", "content": user_prompt(query, present)}]
        attempts: list[dict[str, Any]] = []
        for round_no in range(self.rounds + 1):
            try:
                reply = client.complete(messages, temperature=self.settings.temperature,
                                        max_tokens=self.settings.max_tokens)
            except ContextOverflowError as err:
                return Answer(None, f"refused: {err}", round_no, attempts)
            read = read_reply(reply)
            attempts.append({"reply": reply, "issues": list(read.issues)})
            if read.vectors is not None:
                return Answer(read.vectors, None, round_no, attempts)
            messages = [*messages, {"role": "assistant", "content": reply},
                        {"role": "user", "content": repair_prompt(list(read.issues))}]
        last = "; ".join(attempts[-1]["issues"])
        msg = (f"refused: no usable vectors in {self.rounds + 1} replies ({self.rounds} repair "
               f"round(s)); last reply: {last}")
        return Answer(None, msg, self.rounds, attempts)

    def estimate(self, queries: list[tuple[str, bool]]) -> dict[str, Any]:
        """Tokens and cost before a run (no request sent) for ``(query, with image classes)``.

        ``low``: one call per query; ``high``: every repair round, each resending the
        conversation plus a ``max_tokens``-long reply and the repair prompt. Four characters a
        token; cache hits make the real numbers lower.
        """
        base = estimate_tokens(self.system)
        comp = self.settings.max_tokens or 1200
        calls = self.rounds + 1
        low_p = high_p = high_c = 0
        everything = frozenset(range(NUM_CLASSES))
        for query, image in queries:
            first = base + estimate_tokens(user_prompt(query, everything if image else None))
            low_p += first
            high_p += sum(first + r * (comp + REPAIR_TOKENS) for r in range(calls))
            high_c += calls * comp
        prices = self.settings.prices
        return {"queries": len(queries), "calls_low": len(queries),
                "calls_high": len(queries) * calls, "prompt_tokens_low": low_p,
                "prompt_tokens_high": high_p, "completion_tokens_high": high_c,
                "cost_low_usd": prices.cost(low_p, 0), "cost_high_usd": prices.cost(high_p, high_c)}

    def solve(self, row: dict[str, Any], task: int, labels: dict[str, NDArray[np.uint8]],
              seen: dict[str, tuple[frozenset[int], list[int]]]) -> tuple[Row, dict[str, Any]]:
        """One sample's result row (with its official-format prediction) and transcript.

        Raises:
            EndpointError: the endpoint failed; the run stops and a rerun resumes.
        """
        sid = str(row["sample_id"])
        query = str(row.get("query") or "")
        present = region = None
        if task == 2:
            present, region = image_facts(row, labels, seen)
        client = self.pool.metered()
        t0 = time.perf_counter()
        try:
            answer = self.ask(client, query, present)
        except LLMError as err:
            msg = (f"{err} (sample {sid}; the samples finished so far are kept, rerun the same "
                   "command to resume)")
            raise EndpointError(msg) from err
        outcome = "accepted" if answer.vectors is not None else "refused"
        error = answer.error
        pred: dict[str, Any] = {"query_id" if task == 1 else "sample_id": sid}
        if answer.vectors is not None:
            vec = {"traverse_vector": list(answer.vectors.trav),
                   "cost_vector": list(answer.vectors.pref)}
            if task == 3:
                try:
                    cells = optimal_path(cost_map(label_of(row, labels), answer.vectors),
                                         row["start"], row["end"])
                    pred.update({"trajectory": xy_points(sparse_waypoints(cells)), **vec})
                except NesyError as err:
                    error, outcome = f"planning: {err}", "planning failed"
                    pred.update({"trajectory": [], "error": error, **vec})
            else:
                pred.update(vec)
                if task == 2:
                    pred["region_vector"] = region
        elif task == 3:
            pred.update({"trajectory": [], "error": error})
        else:
            pred.update({"success": False, "error": error})
        totals = client.meter.totals()
        result: Row = {"sample_id": sid, "query_id": str(row.get("query_id", sid)), "task": task,
                       "agent": self.name, **totals, "outcome": outcome,
                       "repairs": answer.repairs, "error": error,
                       "solve_s": round(time.perf_counter() - t0, 4), "prediction": pred}
        transcript = {"sample_id": sid, "task": task, "agent": self.name, "model": self.model,
                      "query": query, "image_classes": None if present is None else sorted(present),
                      "repair_rounds": self.rounds, "outcome": outcome, "error": error,
                      "exchanges": [{**e.to_json(), **({"issues": a["issues"]} if a else {})}
                                    for e, a in _pair(client.meter.exchanges, answer.attempts)]}
        return result, transcript


def _pair(exchanges: list[Any], attempts: list[dict[str, Any]]) -> list[tuple[Any, Any]]:
    return [(e, attempts[i] if i < len(attempts) else None) for i, e in enumerate(exchanges)]


def transcript_path(out_dir: Path, sample_id: str) -> Path:
    """``OUT/transcripts/<sample id>.json`` (a ``/`` in the id becomes ``__``)."""
    return out_dir / "transcripts" / (sample_id.replace("/", "__") + ".json")


def _sample_key(row: Row) -> str:
    return str(row["sample_id"])


def _with_queries(data: Path, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give rows without query text the text of their ``query_id`` from Task 1.

    Raises:
        NesyError: a sample whose query text is nowhere to be found.
    """
    if all(str(r.get("query") or "").strip() for r in rows):
        return rows
    try:
        by_id = {str(q["sample_id"]): str(q.get("query") or "") for q in load_samples(data, 1)}
    except NesyError:
        by_id = {}
    out = []
    for r in rows:
        if not str(r.get("query") or "").strip():
            text = by_id.get(str(r.get("query_id")), "")
            if not text.strip():
                msg = (f"sample {r['sample_id']} has no query text (no 'query' column, and "
                       f"query_id {r.get('query_id')!r} is not in Task1/queries.json); the LLM "
                       "agent reads the query")
                raise NesyError(msg)
            r = {**r, "query": text}
        out.append(r)
    return out


@dataclass
class AgentRun:
    """What :func:`run_agent` did: every row of the selected samples, and where they went."""

    rows: list[Row]
    predictions: Path
    out_dir: Path


def _check_run(out_dir: Path, spec: dict[str, Any]) -> None:
    run_json = out_dir / "run.json"
    if run_json.is_file():
        try:
            old = json.loads(run_json.read_text(encoding="utf-8"))
        except ValueError:
            old = {}
        keys = ("task", "data", "model", "base_url", "repair_rounds")
        if any(old.get(k) != spec[k] for k in keys):
            was = ", ".join(f"{k} {old.get(k)!r}" for k in keys)
            msg = (f"{out_dir} holds another LLM agent run ({was}); use another --out for "
                   f"task {spec['task']} with model {spec['model']!r}")
            raise BenchmarkError(msg)
    out_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(run_json, json.dumps(spec, indent=1))


def run_agent(agent: NesyLLMAgent, data: Path, task: int, out_dir: Path, *,
              pred: Path | None = None, limit: int | None = None, progress: bool = True,
              announce: Callable[[dict[str, Any]], None] | None = None) -> AgentRun:
    """Answer the first ``limit`` samples of Task ``task`` (all without it), resuming ``out_dir``.

    Args:
        pred: where the official-format predictions go (``None``: ``OUT/predictions.jsonl``).
        announce: called with :meth:`NesyLLMAgent.estimate` of the samples still to run,
            before the first request (not called when nothing is left to run).

    Returns:
        The rows of the selected samples, in dataset order.

    Raises:
        NesyError: unreadable dataset, or a sample without query text.
        BenchmarkError: ``out_dir`` holds a run of another task, dataset or model.
        EndpointError: the endpoint failed (the rows so far are kept).
    """
    samples = load_samples(data, task)[:limit]
    if not samples:
        raise NesyError(f"no Task {task} samples in {data}")
    samples = _with_queries(data, samples)
    cfg = agent.settings.client
    _check_run(out_dir, {"schema_version": RUN_SCHEMA, "agent": agent.name, "task": task,
                         "data": str(data.resolve()), "model": cfg.model,
                         "base_url": cfg.base_url, "repair_rounds": agent.rounds,
                         "config": agent.config})
    results = ResultsFile(out_dir / RESULTS_NAME, key=_sample_key)
    results.drop_torn_tail()
    done = {_sample_key(r): r for r in results.rows()}
    todo = [s for s in samples if str(s["sample_id"]) not in done]
    if todo:
        if announce is not None:
            announce(agent.estimate([(str(s["query"]), task == 2) for s in todo]))
        labels = load_labels(data) if task in (2, 3) else {}
        _execute(agent, todo, task, labels, results, done, progress=progress)
    rows = [done[str(s["sample_id"])] for s in samples if str(s["sample_id"]) in done]
    path = pred or out_dir / "predictions.jsonl"
    write_predictions(path, [r["prediction"] for r in rows])
    return AgentRun(rows, path, out_dir)


def _execute(agent: NesyLLMAgent, todo: list[dict[str, Any]], task: int,
             labels: dict[str, NDArray[np.uint8]], results: ResultsFile,
             done: dict[str, Row], *, progress: bool) -> None:
    out_dir = results.path.parent
    seen: dict[str, tuple[frozenset[int], list[int]]] = {}
    threads = max(1, agent.settings.concurrency)
    with progress_bar(f"nesy task {task}, {agent.name} ({agent.model})", len(todo),
                      enabled=progress) as bar, ThreadPoolExecutor(max_workers=threads) as pool:
        futures = [pool.submit(agent.solve, s, task, labels, seen) for s in todo]
        try:
            for fut in as_completed(futures):
                row, transcript = fut.result()
                path = transcript_path(out_dir, row["sample_id"])
                path.parent.mkdir(parents=True, exist_ok=True)
                atomic_write_text(path, json.dumps(transcript, indent=1, ensure_ascii=False))
                results.append(row)
                done[row["sample_id"]] = row
                bar.advance()
        except BaseException:
            for f in futures:
                f.cancel()
            raise


def totals(rows: list[Row]) -> dict[str, Any]:
    """The LLM columns of the rows added up, and the outcomes counted."""
    out: dict[str, Any] = {"agent": AGENT,
                           "model": next((r.get("model") for r in rows if r.get("model")), "")}
    for k in ("llm_calls", "cache_hits", "prompt_tokens", "completion_tokens"):
        out[k] = int(sum(int(r.get(k) or 0) for r in rows))
    for k in ("cost_usd", "spent_usd", "llm_latency_s"):
        out[k] = round(sum(float(r.get(k) or 0.0) for r in rows), 6)
    for outcome in ("accepted", "refused", "planning failed"):
        out[outcome.replace(" ", "_")] = sum(r.get("outcome") == outcome for r in rows)
    return out
