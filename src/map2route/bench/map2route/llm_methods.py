"""Grounding2Route with an LLM as benchmark methods, and the paper's Table III ablations.

``g2r`` with ``grounder: llm`` (in the grounding YAML, or ``--grounder llm``) is the paper's
method: code-as-grounding (CaG) by an LLM over an OpenAI-compatible endpoint, the sandbox,
the verifier and ``R`` repair rounds, then the scope-aware planner (paper 000, IV). Its rows
are named ``g2r-llm`` so they never mix with the offline grounder's ``g2r``.

The Table III rows that change one component of that configuration are methods too
(:data:`VARIANTS`): the repair budget R = 0/1/2/3, soft-constraint scopes made global in time
(Global-T), space (Global-S) or both (Global-TS), and Hard Only (soft preference costs off,
grounded targets and must-avoids kept). They share the response cache, so the rows after the
first cost almost nothing: R = 0..2 replay R = 3's first calls, the scope and Hard Only rows
replay all of them.

Every episode keeps a transcript (each request's last message - the instruction or the repair
prompt with the verifier's issues -, the reply, the program, tokens, latency, cache hits); the
run driver writes it to ``OUT/transcripts/``.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from map2route.bench.errors import BenchmarkError, EndpointError
from map2route.bench.map2route.compiled_grounding import (
    DIRECT_ID_PROMPT,
    SCHEMA_PROMPT,
    CompiledGrounder,
    ltl_prompt,
    map_listing,
)
from map2route.bench.map2route.grounding_method import Grounding2Route
from map2route.bench.map2route.methods import MethodResult, hard_requirements
from map2route.bench.map2route.toolcall import ToolCallGrounder, toolcall_prompt
from map2route.errors import Map2RouteError
from map2route.grounding import GroundingError, LLMGrounder, load_config
from map2route.grounding.config import GroundingConfig
from map2route.grounding.grounder import Executor, extract_program, scene_brief, system_prompt
from map2route.grounding.sandbox import SandboxRunner
from map2route.llm.accounting import estimate_tokens
from map2route.llm.errors import LLMError
from map2route.llm.metered import ContextOverflowError, LLMPool, LLMSettings
from map2route.planning import PlannerConfig, plan_route

if TYPE_CHECKING:
    from map2route.bench.map2route.episode import Episode
    from map2route.routeir import RouteIR
    from map2route.semantic_map.model import SemanticMap

SCOPES = ("full", "global-t", "global-s", "global-ts", "hard-only")


@dataclass(frozen=True)
class Variant:
    """One Table III configuration: the columns Grounding, IR, Repair, Soft Cons."""

    grounding: str = "CaG"
    ir: str = "RouteIR"
    repair: int | None = None  # None: the config's repair_rounds
    soft: str = "full"

    def columns(self, rounds: int) -> tuple[str, str, str, str]:
        soft = {"full": "Full", "global-t": "Global-T", "global-s": "Global-S",
                "global-ts": "Global-TS", "hard-only": "Hard Only"}[self.soft]
        return self.grounding, self.ir, str(self.repair if self.repair is not None else rounds), soft


#: Table III rows as registry methods, in the paper's order.
VARIANTS: dict[str, Variant] = {
    "g2r-llm": Variant(),
    "g2r-llm-schema": Variant(grounding="Schema"),
    "g2r-llm-direct-id": Variant(grounding="Direct ID"),
    "g2r-llm-toolcall": Variant(grounding="ToolCall"),
    "g2r-llm-ltl": Variant(ir="LTL"),
    "g2r-llm-r0": Variant(repair=0),
    "g2r-llm-r1": Variant(repair=1),
    "g2r-llm-r2": Variant(repair=2),
    "g2r-llm-r3": Variant(repair=3),
    "g2r-llm-global-t": Variant(soft="global-t"),
    "g2r-llm-global-s": Variant(soft="global-s"),
    "g2r-llm-global-ts": Variant(soft="global-ts"),
    "g2r-llm-hard-only": Variant(soft="hard-only"),
}


def globalize(ir: RouteIR, scope: str) -> RouteIR:
    """``ir`` with the soft preferences' temporal and/or spatial scopes removed (Table III).

    ``global-t``: active during every stage; ``global-s``: active over the whole map;
    ``global-ts``: both. Must-avoids and stages are unchanged.
    """
    if scope not in ("global-t", "global-s", "global-ts"):
        raise BenchmarkError(f"unknown scope ablation {scope!r}; use global-t, global-s or global-ts")
    out = []
    for c in ir.constraints:
        if not c.kind.is_hard:
            if scope in ("global-t", "global-ts"):
                c = replace(c, temporal_scope=None)
            if scope in ("global-s", "global-ts"):
                c = replace(c, spatial_scope=None)
        out.append(c)
    return replace(ir, constraints=tuple(out))


def llm_settings(config: GroundingConfig, source: str) -> LLMSettings:
    """The ``llm:`` block of a grounding config, validated.

    Raises:
        BenchmarkError: the block is invalid (names ``source``).
    """
    try:
        return LLMSettings.from_dict(dataclasses.asdict(config.llm))
    except LLMError as err:
        raise BenchmarkError(f"{source}: {err}") from err


class LLMGrounding2Route:
    """Grounding2Route with an LLM grounder, optionally one Table III ablation.

    Args:
        variant: a name in :data:`VARIANTS`.
        grounding_config: grounding YAML path (``None``: ``config/grounding.yaml``).
        planner_config: planner YAML path (``None``: ``config/planner.yaml``).
        pool: share another method's client, cache and in-flight gate (``None``: a new one).
    """

    api_bound = True
    grounder = "llm"

    def __init__(self, *, variant: str = "g2r-llm", grounding_config: str | None = None,
                 planner_config: str | None = None, pool: LLMPool | None = None,
                 **_options: Any) -> None:
        if variant not in VARIANTS:
            raise BenchmarkError(f"unknown LLM variant {variant!r}; one of {', '.join(VARIANTS)}")
        self.name = variant
        self.variant = VARIANTS[variant]
        source = grounding_config or "config/grounding.yaml"
        cfg = load_config(grounding_config)
        self.settings = llm_settings(cfg, source)
        self.pool = pool or LLMPool(self.settings)
        self.rounds = (self.variant.repair if self.variant.repair is not None
                       else cfg.repair_rounds)
        self.toolcall_steps = cfg.toolcall.steps_per_round
        self.deadline_s = cfg.deadline_s
        sb = cfg.sandbox
        self.executor = Executor("process", SandboxRunner(cpu_s=sb.cpu_s, wall_s=sb.wall_s,
                                                          memory_mb=sb.memory_mb))
        self._planner = PlannerConfig.from_yaml(planner_config)

    @property
    def model(self) -> str:
        return self.settings.client.model

    def columns(self) -> tuple[str, str, str, str]:
        """This method's Table III configuration columns."""
        return self.variant.columns(self.rounds)

    def solve(self, episode: Episode, m: SemanticMap) -> MethodResult:
        client = self.pool.metered()
        grounder: LLMGrounder | CompiledGrounder | ToolCallGrounder
        temperature, max_tokens = self.settings.temperature, self.settings.max_tokens
        if self.variant.grounding == "CaG" and self.variant.ir == "RouteIR":
            grounder = LLMGrounder(client, rounds=self.rounds, temperature=temperature,
                                   max_tokens=max_tokens, executor=self.executor,
                                   deadline_s=self.deadline_s)
        elif self.variant.grounding == "ToolCall":
            grounder = ToolCallGrounder(client, rounds=self.rounds, temperature=temperature,
                                        max_tokens=max_tokens, executor=self.executor,
                                        steps=self.toolcall_steps)
        else:
            mode = {"Schema": "schema", "Direct ID": "direct_id"}.get(self.variant.grounding,
                                                                       "ltl")
            grounder = CompiledGrounder(client, mode=mode, rounds=self.rounds,
                                    temperature=temperature, max_tokens=max_tokens,
                                    executor=self.executor)
        start = episode.start_xy
        t0 = time.perf_counter()
        info: dict[str, Any] = {"grounder": "llm"}
        transcript: dict[str, Any] = {"episode_id": episode.id, "method": self.name,
                                      "model": self.model, "instruction": episode.instruction,
                                      "repair_rounds": self.rounds}
        error: str | None = None
        route = ir = None
        try:
            g = grounder.ground(episode.instruction, m, start)
        except LLMError as err:
            if not isinstance(err, ContextOverflowError):
                msg = (f"{err} (episode {episode.id}; the episodes finished so far are kept, "
                       "rerun the same command to resume)")
                raise EndpointError(msg) from err
            error = f"grounding: {err}"
            transcript["outcome"] = "refused"
        except GroundingError as err:
            error = f"grounding: {err}"
            transcript["outcome"] = "refused"
            transcript["final_issues"] = [i.render() for i in getattr(err, "issues", ())]
        else:
            ir = g.routeir
            transcript["outcome"] = "accepted"
            transcript["attempts"] = [{"program": a.program,
                                       "issues": [i.render() for i in a.issues]}
                                      for a in g.attempts]
            info["repairs"] = g.repairs
        info["grounding_s"] = time.perf_counter() - t0
        if ir is not None:
            t1 = time.perf_counter()
            try:
                route = self._plan(ir, m, start)
            except Map2RouteError as err:
                error = f"planning: {err}"
                transcript["outcome"] = "planning failed"
            info["planning_s"] = time.perf_counter() - t1
        cag = self.variant.grounding == "CaG"
        transcript["exchanges"] = [{**e.to_json(), **({"program": extract_program(e.reply)}
                                                       if cag else {})}
                                   for e in client.meter.exchanges]
        transcript["error"] = error
        info["llm"] = client.meter.totals()
        info["transcript"] = transcript
        return MethodResult(route=route, routeir=ir, error=error, info=info)

    def _plan(self, ir: RouteIR, m: SemanticMap, start: tuple[float, float]) -> Any:
        soft = self.variant.soft
        if soft == "hard-only":
            return plan_route(m, hard_requirements(ir), start, config=self._planner, hard_only=True)
        if soft != "full":
            ir = globalize(ir, soft)
        return plan_route(m, ir, start, config=self._planner)

    def estimate(self, episodes: list[Episode], scene: Any) -> dict[str, Any]:
        """Tokens and cost of a run before it starts (no request is sent).

        The first call of an episode sends the variant's system prompt, the scene brief (Direct
        ID: the map listing) and the instruction; each later call resends the conversation plus
        a reply (assumed ``max_tokens`` long) and the feedback. ``low``: one call per episode;
        ``high``: every round (ToolCall: every step of every round). Cache hits make the real
        numbers lower; tokenizers of code-heavy prompts count about a fifth more than the
        four-characters-a-token estimate (docs/benchmark.md).
        """
        v = self.variant
        if v.grounding == "ToolCall":
            system, calls = toolcall_prompt(), (self.rounds + 1) * self.toolcall_steps
        else:
            system = {"Schema": SCHEMA_PROMPT, "Direct ID": DIRECT_ID_PROMPT}.get(
                v.grounding, ltl_prompt() if v.ir == "LTL" else system_prompt())
            calls = self.rounds + 1
        base = estimate_tokens(system)
        brief = map_listing if v.grounding == "Direct ID" else scene_brief
        comp = self.settings.max_tokens or 1200
        low_p = high_p = high_c = 0
        briefs: dict[str, int] = {}
        for ep in episodes:
            if ep.scene not in briefs:
                briefs[ep.scene] = estimate_tokens(brief(scene(ep.scene), ep.start_xy))
            first = base + briefs[ep.scene] + estimate_tokens(ep.instruction)
            low_p += first
            for r in range(calls):
                high_p += first + r * (comp + 150)
                high_c += comp
        prices = self.settings.prices
        return {"episodes": len(episodes), "calls_low": len(episodes),
                "calls_high": len(episodes) * calls,
                "prompt_tokens_low": low_p, "prompt_tokens_high": high_p,
                "completion_tokens_high": high_c,
                "cost_low_usd": prices.cost(low_p, 0),
                "cost_high_usd": prices.cost(high_p, high_c)}


def grounding2route(*, grounder: str | None = None, grounding_config: str | None = None,
                    planner_config: str | None = None, **options: Any) -> Any:
    """The ``g2r`` factory: the grounder named by ``grounder`` or by the config's ``grounder:``.

    Raises:
        BenchmarkError: an unknown grounder name.
    """
    # ``auto`` (the config's default) is hybrid where an LLM endpoint is configured
    name = grounder or load_config(grounding_config).resolved_grounder
    if name == "llm":
        return LLMGrounding2Route(grounding_config=grounding_config,
                                  planner_config=planner_config, **options)
    if name in ("offline", "hybrid"):
        return Grounding2Route(grounder=name, planner_config=planner_config,
                               grounding_config=grounding_config)
    raise BenchmarkError(f"unknown grounder {name!r}; use 'offline' or 'llm'")


def variant_factory(name: str) -> Any:
    """A registry factory for the Table III variant ``name``."""

    def make(**options: Any) -> LLMGrounding2Route:
        options.pop("grounder", None)
        return LLMGrounding2Route(variant=name, **options)

    make.__name__ = f"make_{name.replace('-', '_')}"
    return make


def transcript_path(out_dir: Path, episode_id: str) -> Path:
    """Where an episode's transcript goes: ``OUT/transcripts/<id with / as __>.json``."""
    return out_dir / "transcripts" / (episode_id.replace("/", "__") + ".json")
