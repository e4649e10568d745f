"""GROKE's LLM navigator as a benchmark agent, on the LLM method machinery of the benchmarks.

``map2route bench groke --agent llm --config config/groke_llm.yaml`` runs
:class:`map2route.streets.llm_agent.LLMAgent` (GROKE's sub-instruction agent and navigator
over the JSON local view) through :mod:`map2route.llm.metered`, as ``bench map2route --method
g2r --grounder llm`` does:

- one :class:`~map2route.llm.metered.LLMPool` per run: the HTTP client, the content-addressed
  response cache (a rerun of a finished run sends no request) and the gate that bounds the
  requests in flight (``concurrency``; instances run on that many threads);
- one :class:`~map2route.llm.accounting.Meter` per instance: calls, cache hits, prompt and
  completion tokens from ``usage``, cost, latency; each result row carries them and each
  instance keeps a transcript (``OUT/transcripts/<id>.json``: every request's user message
  and reply);
- an estimate of calls, tokens and cost before the run, from the real first prompt of every
  instance (:func:`estimate_run`).

The config file has the grounding config's ``llm:`` block (the same keys,
:data:`map2route.llm.metered.SETTINGS_KEYS`) and a ``navigator:`` block (:data:`NAVIGATOR_KEYS`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from map2route.bench.errors import BenchmarkError, EndpointError
from map2route.config import read_yaml, require_mapping
from map2route.language.directions import decompose
from map2route.llm.accounting import estimate_tokens
from map2route.llm.errors import LLMError
from map2route.llm.metered import ContextOverflowError, LLMPool, LLMSettings
from map2route.streets.graph import StreetGraph
from map2route.streets.llm_agent import (
    DECOMPOSE_PROMPT,
    NAVIGATE_PROMPT,
    SUBGOAL_SOURCES,
    LLMAgent,
    mentioned_landmarks,
)
from map2route.streets.loaders import NavInstance
from map2route.streets.navigator import FollowConfig, Observation
from map2route.streets.view import build_view

#: Keys of the ``navigator:`` block, with their meaning.
NAVIGATOR_KEYS = {
    "subgoals": "where sub-goals come from: llm (GROKE's sub-instruction agent) or offline "
                "(the rule parser, one call fewer per instruction)",
    "max_steps": "stop after more than this many navigator calls (GROKE: 100)",
    "max_retries": "stop after more than this many calls on one sub-goal (GROKE: 15)",
    "view_depth": "intersections ahead in each local view (GROKE's u: 3)",
}
#: Navigator calls per sub-goal assumed by the estimate (one to reach it, one to confirm).
EST_CALLS_PER_SUBGOAL = 2
#: Completion tokens assumed per navigator reply and per sub-goal of a decomposition.
EST_REPLY_TOKENS = 40
EST_SUBGOAL_TOKENS = 25


@dataclass(frozen=True)
class GrokeLLMConfig:
    """The ``llm:`` and ``navigator:`` blocks of a GROKE LLM config file."""

    settings: LLMSettings
    subgoals: str = "llm"
    follow: FollowConfig = field(default_factory=FollowConfig)
    source: str = "the LLM config"

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, source: str = "the LLM config"
                  ) -> GrokeLLMConfig:
        """Validate both blocks.

        Raises:
            BenchmarkError: an unknown key, a bad value, or no ``base_url``/``model``.
        """
        unknown = sorted(set(data) - {"llm", "navigator"})
        if unknown:
            msg = (f"{source}: unknown top-level key(s) {', '.join(map(repr, unknown))}; "
                   "expected llm: and navigator:")
            raise BenchmarkError(msg)
        llm = require_mapping(data.get("llm") or {}, where=f"{source}: llm", error=BenchmarkError)
        nav = require_mapping(data.get("navigator") or {}, where=f"{source}: navigator",
                             error=BenchmarkError)
        if not llm.get("base_url") or not llm.get("model"):
            msg = (f"{source}: agent 'llm' needs llm.base_url and llm.model (give --config "
                   "FILE, e.g. config/groke_llm.yaml, or --llm-url and --llm-model)")
            raise BenchmarkError(msg)
        try:
            settings = LLMSettings.from_dict(dict(llm))
        except LLMError as err:
            raise BenchmarkError(f"{source}: {err}") from err
        bad = sorted(set(nav) - set(NAVIGATOR_KEYS))
        if bad:
            known = "; ".join(f"{k}: {v}" for k, v in NAVIGATOR_KEYS.items())
            msg = f"{source}: unknown navigator key(s) {', '.join(map(repr, bad))} (known: {known})"
            raise BenchmarkError(msg)
        subgoals = str(nav.get("subgoals", "llm"))
        if subgoals not in SUBGOAL_SOURCES:
            msg = f"{source}: navigator.subgoals must be one of {', '.join(SUBGOAL_SOURCES)}"
            raise BenchmarkError(msg)
        try:
            follow = FollowConfig(max_steps=int(nav.get("max_steps", 100)),
                                  max_retries=int(nav.get("max_retries", 15)),
                                  view_depth=int(nav.get("view_depth", 3)))
        except (TypeError, ValueError) as err:
            raise BenchmarkError(f"{source}: bad navigator value: {err}") from err
        if min(follow.max_steps, follow.max_retries, follow.view_depth) < 1:
            raise BenchmarkError(f"{source}: navigator max_steps, max_retries and view_depth "
                                 "must be at least 1")
        return cls(settings, subgoals, follow, source)

    @classmethod
    def load(cls, path: Path | None, *, base_url: str | None = None, model: str | None = None
             ) -> GrokeLLMConfig:
        """Read ``path`` (``None``: no file) with ``base_url``/``model`` overriding its own.

        Raises:
            BenchmarkError: the file cannot be read or is invalid (see :meth:`from_dict`).
        """
        data: dict[str, Any] = {}
        source = "the --llm-url/--llm-model options"
        if path is not None:
            raw = read_yaml(Path(path), what="GROKE LLM config", error=BenchmarkError)
            data = dict(require_mapping(raw or {}, where=f"GROKE LLM config {path}",
                                        error=BenchmarkError))
            source = str(path)
        llm = dict(data.get("llm") or {})
        if base_url:
            llm["base_url"] = base_url
        if model:
            llm["model"] = model
        data["llm"] = llm
        return cls.from_dict(data, source=source)


class GrokeLLM:
    """What every instance of a run shares (pool, cache, gate) and how each gets its agent."""

    def __init__(self, config: GrokeLLMConfig) -> None:
        self.config = config
        self.pool = LLMPool(config.settings)

    @property
    def model(self) -> str:
        return self.config.settings.client.model

    @property
    def workers(self) -> int:
        """Instances followed at once (each waits on the shared in-flight gate)."""
        return self.config.settings.concurrency

    def agent(self) -> tuple[LLMAgent, Callable[[], dict[str, Any]], Callable[[], list[Any]]]:
        """A fresh agent on a metered client, its totals and its exchanges (one instance)."""
        client = self.pool.metered()
        s = self.config.settings
        agent = LLMAgent(client, temperature=s.temperature, max_tokens=s.max_tokens,
                         subgoals=self.config.subgoals)
        return (agent, client.meter.totals,
                lambda: [e.to_json() for e in client.meter.exchanges])


def endpoint_error(err: LLMError, instance_id: str) -> BenchmarkError | None:
    """The run-stopping error for a failed endpoint (``None``: the instance's own failure)."""
    if isinstance(err, ContextOverflowError):
        return None
    msg = (f"{err} (instance {instance_id}; the replies so far are in the response cache: "
           "rerun the same command to go on without asking them again)")
    return EndpointError(msg)


def estimate_run(graph: StreetGraph, instances: list[NavInstance], config: GrokeLLMConfig
                 ) -> dict[str, Any]:
    """Calls, tokens and cost a run may take, before it starts (labelled an estimate).

    Per instance: one decomposition call (``subgoals: llm``), then
    :data:`EST_CALLS_PER_SUBGOAL` navigator calls per sub-goal the offline parser finds, each
    as long as the instance's real first navigator prompt (the first local view). Cache hits
    are not subtracted.
    """
    calls = prompt = completion = 0
    for inst in instances:
        goals = decompose(inst.instruction)
        if config.subgoals == "llm":
            calls += 1
            prompt += estimate_tokens(DECOMPOSE_PROMPT + inst.instruction)
            completion += EST_SUBGOAL_TOKENS * len(goals)
        start = graph.node(inst.route[0])
        view = build_view(graph, start, inst.initial_heading, previous=[start],
                          depth=config.follow.view_depth,
                          light_radius_m=config.follow.light_radius_m)
        obs = Observation(graph, inst.instruction, tuple(goals), 0, view, (start,),
                          inst.initial_heading, 0, 0, config.follow)
        first = json.dumps({"instruction": inst.instruction,
                            "sub_goals": [g.describe() for g in goals],
                            "current_sub_goal": goals[0].describe(),
                            "local_view": view.to_dict(graph),
                            "landmarks_mentioned": mentioned_landmarks(obs)},
                           ensure_ascii=False)
        n = min(EST_CALLS_PER_SUBGOAL * len(goals), config.follow.max_steps)
        calls += n
        prompt += n * estimate_tokens(NAVIGATE_PROMPT + first)
        completion += n * EST_REPLY_TOKENS
    cost = config.settings.prices.cost(prompt, completion)
    return {"instances": len(instances), "model": config.settings.client.model,
            "calls": calls, "prompt_tokens": prompt, "completion_tokens": completion,
            "cost_usd": round(cost, 4), "estimated": True}


def run_llm(groke: GrokeLLM, instances: list[NavInstance],
            follow_one: Callable[[int, NavInstance, LLMAgent], Any], *,
            progress: Callable[[int], None] | None = None) -> list[Any]:
    """Follow every instance with its own metered agent on ``groke.workers`` threads.

    ``follow_one(k, instance, agent)`` returns the instance's result (raising
    :class:`EndpointError` when the endpoint fails, :func:`endpoint_error`); its ``llm_usage``
    and ``transcript`` are filled here. Results come back in instance order.
    """
    def one(k: int, inst: NavInstance) -> Any:
        agent, totals, exchanges = groke.agent()
        result = follow_one(k, inst, agent)
        result.llm_usage = totals()
        result.transcript = {"id": inst.id, "model": groke.model, "instruction": inst.instruction,
                             "subgoal_source": groke.config.subgoals,
                             "subgoals": result.subgoals, "stop_reason": result.stop_reason,
                             "error": result.error, "path": result.path,
                             "totals": result.llm_usage, "exchanges": exchanges()}
        if progress is not None:
            progress(1)
        return result

    with ThreadPoolExecutor(max_workers=groke.workers) as pool:
        futures = [pool.submit(one, k, inst) for k, inst in enumerate(instances)]
        try:
            return [f.result() for f in futures]
        except BaseException:
            for f in futures:
                f.cancel()
            raise


def with_follow_config(base: FollowConfig | None, config: GrokeLLMConfig) -> FollowConfig:
    """The run's follow settings: the navigator block's, light radius kept from ``base``."""
    if base is None:
        return config.follow
    return replace(config.follow, light_radius_m=base.light_radius_m)
