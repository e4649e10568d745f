"""``config/grounding.yaml`` as typed configuration: the one place grounding reads its settings.

:func:`load_config` reads the shipped file, overlays a user file that holds only the keys it
changes (as ``config/mapping.yaml`` does), and validates it into :class:`GroundingConfig` with
:func:`map2route.config.dataclass_from_mapping`, so a misspelt or mistyped key is named with
every other problem of the file. The defaults live in the YAML file, not here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from map2route.config import dataclass_from_mapping, overlay, read_yaml, require_mapping
from map2route.grounding.errors import GroundingError
from map2route.grounding.verifier import VerifierLimits
from map2route.llm.client import LLMConfig
from map2route.paths import config_dir

#: The grounders :func:`map2route.grounding.grounder.make_grounder` builds; ``auto`` is the
#: hybrid one when an LLM endpoint is configured and the offline one otherwise.
GROUNDERS = ("auto", "offline", "llm", "hybrid")
#: An LLM endpoint named here configures one (and overrides ``llm.base_url``).
ENDPOINT_ENV = "MAP2ROUTE_LLM_BASE_URL"
#: Where a trusted (offline) program runs: in this process, or in the sandbox worker.
EXECUTORS = ("inprocess", "process")


@dataclass(frozen=True)
class SandboxLimits:
    """Limits of the sandbox worker process that runs every program (``sandbox:``)."""

    cpu_s: float
    wall_s: float
    memory_mb: int


@dataclass(frozen=True)
class OfflineOptions:
    """The offline grounder's options (``offline:``)."""

    executor: str
    max_instruction_chars: int = 2000


@dataclass(frozen=True)
class LLMOptions:
    """The LLM grounder's endpoint and sampling (``llm:``)."""

    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = 60.0
    retries: int = 2
    max_response_bytes: int = 8 * 1024 * 1024
    temperature: float = 0.0
    max_tokens: int | None = 1200
    # benchmark runs (bench map2route --grounder llm, bench table3; docs/benchmark.md)
    concurrency: int = 4
    price_per_1k_prompt: float = 0.0
    price_per_1k_completion: float = 0.0
    cache_dir: str | None = "out/llm_cache"
    context_tokens: int | None = None

    @property
    def client(self) -> LLMConfig:
        """The chat client's part of these options."""
        return LLMConfig(base_url=self.base_url, model=self.model, api_key_env=self.api_key_env,
                         timeout_s=self.timeout_s, retries=self.retries,
                         max_response_bytes=self.max_response_bytes)


@dataclass(frozen=True)
class ToolCallOptions:
    """The ToolCall row of Table III (``toolcall:``)."""

    steps_per_round: int = 16


@dataclass(frozen=True)
class GroundingConfig:
    """Everything ``config/grounding.yaml`` sets (see docs/grounding.md for each key).

    Attributes:
        grounder: the grounder ``map2route route`` uses without ``--grounder``.
        repair_rounds: R, the bounded repair rounds (paper 000, IV-C).
        sandbox: the worker's limits.
        offline: the offline grounder's options.
        llm: the LLM endpoint.
        deadline_s: wall-clock budget of one grounding call (``None``: unbounded).
        limits: how big a grounded route may be (the verifier's limits).
        endpoint_configured: whether an LLM endpoint was configured (``llm.base_url`` set by
            the user's file, or :data:`ENDPOINT_ENV` set); set by :func:`load_config`, not
            by a file. ``grounder: auto`` is ``hybrid`` when true and ``offline`` otherwise.
    """

    grounder: str
    repair_rounds: int
    sandbox: SandboxLimits
    offline: OfflineOptions
    llm: LLMOptions
    deadline_s: float | None = 60.0
    limits: VerifierLimits = VerifierLimits()
    toolcall: ToolCallOptions = ToolCallOptions()
    endpoint_configured: bool = False

    @property
    def resolved_grounder(self) -> str:
        """The grounder ``grounder`` names, with ``auto`` resolved (see the class)."""
        if self.grounder != "auto":
            return self.grounder
        return "hybrid" if self.endpoint_configured else "offline"

    @classmethod
    def from_mapping(cls, raw: Any, *, where: str) -> GroundingConfig:
        """Validate a parsed ``grounding.yaml`` document.

        Raises:
            GroundingError: listing every unknown, missing or mistyped key.
        """
        doc = require_mapping(raw, where=where, error=GroundingError)
        sections = {"sandbox": SandboxLimits, "offline": OfflineOptions, "llm": LLMOptions,
                    "toolcall": ToolCallOptions}
        values: dict[str, Any] = dict(doc)
        for name, kind in sections.items():
            if name in doc:
                part = require_mapping(doc[name], where=f"{where} {name}", error=GroundingError)
                values[name] = dataclass_from_mapping(kind, part, where=f"{where} {name}",
                                                      error=GroundingError)
        if "limits" in doc:
            values["limits"] = VerifierLimits.from_dict(doc["limits"])
        cfg = dataclass_from_mapping(cls, values, where=where, error=GroundingError)
        problems = []
        if "endpoint_configured" in doc:
            problems.append("endpoint_configured is not a key of the file: set llm.base_url "
                            f"in your file or {ENDPOINT_ENV} to configure an LLM endpoint")
        if cfg.grounder not in GROUNDERS:
            problems.append(f"grounder must be one of {list(GROUNDERS)}, got {cfg.grounder!r}")
        if cfg.offline.executor not in EXECUTORS:
            problems.append(f"offline.executor must be one of {list(EXECUTORS)}, "
                            f"got {cfg.offline.executor!r}")
        if cfg.repair_rounds < 0:
            problems.append(f"repair_rounds must be >= 0, got {cfg.repair_rounds}")
        if cfg.deadline_s is not None and not cfg.deadline_s > 0:
            problems.append(f"deadline_s must be a positive number of seconds or null, "
                            f"got {cfg.deadline_s}")
        if cfg.offline.max_instruction_chars <= 0:
            problems.append("offline.max_instruction_chars must be a positive whole number, "
                            f"got {cfg.offline.max_instruction_chars}")
        if problems:
            raise GroundingError("\n  - ".join([f"{where}: {len(problems)} problem(s)", *problems]))
        return cfg


def load_config(path: str | Path | None = None) -> GroundingConfig:
    """``config/grounding.yaml``, overlaid with the user file ``path`` when given, and with
    the endpoint in :data:`ENDPOINT_ENV` when that is set (either configures an LLM endpoint:
    ``endpoint_configured``).

    Raises:
        GroundingError: a file is missing, not YAML, or a key is unknown, missing or mistyped.
    """
    shipped = config_dir() / "grounding.yaml"
    raw = require_mapping(read_yaml(shipped, what="grounding config", error=GroundingError),
                          where=f"grounding config {shipped}", error=GroundingError)
    where = f"grounding config {shipped}"
    configured = False
    if path is not None:
        user = Path(path)
        top = require_mapping(read_yaml(user, what="grounding config", error=GroundingError) or {},
                              where=f"grounding config {user}", error=GroundingError)
        raw = overlay(raw, top)
        where = f"grounding config {user} (over {shipped})"
        user_llm = top.get("llm")
        configured = isinstance(user_llm, dict) and bool(user_llm.get("base_url"))
    env = os.environ.get(ENDPOINT_ENV, "").strip()
    if env:
        raw = overlay(raw, {"llm": {"base_url": env}})
        configured = True
    cfg = GroundingConfig.from_mapping(raw, where=where)
    return replace(cfg, endpoint_configured=configured)
