"""Benchmark-grade LLM access: settings from one config block, a shared cache, bounded
requests in flight, and a meter per episode.

:class:`MeteredClient` has the ``complete(messages, temperature=, max_tokens=)`` face of
:class:`~map2route.llm.client.ChatClient`, so any grounder or agent takes it unchanged. Many
metered clients (one per episode) share one :class:`ChatClient`, one
:class:`~map2route.llm.cache.ResponseCache` and one semaphore that bounds the requests in flight
across every worker thread; each records its own exchanges in its :class:`Meter`.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from map2route.llm.accounting import Exchange, Meter, Prices, estimate_tokens
from map2route.llm.cache import ResponseCache, cache_key
from map2route.llm.client import ChatClient, LLMConfig
from map2route.llm.errors import LLMError


class ContextOverflowError(LLMError):
    """A prompt does not fit the model's context (this episode's failure, not the endpoint's)."""

#: Keys of the ``llm:`` config block, with their meaning (the error for an unknown key lists them).
#: The keys of the chat client itself (:meth:`LLMConfig.from_dict`); the rest are the run's.
CLIENT_KEYS = frozenset({"base_url", "model", "api_key_env", "timeout_s", "retries",
                         "max_response_bytes"})
SETTINGS_KEYS = {
    "base_url": "the endpoint root, e.g. http://localhost:8000/v1",
    "model": "the model name the server expects",
    "api_key_env": "environment variable holding the key (unset: none sent)",
    "timeout_s": "seconds per request",
    "retries": "extra attempts on connection errors and HTTP 429/5xx (backoff with jitter)",
    "max_response_bytes": "the longest reply body read; a longer one is refused",
    "temperature": "sampling temperature",
    "max_tokens": "completion tokens per reply",
    "concurrency": "requests in flight at once across all workers",
    "price_per_1k_prompt": "US dollars per 1,000 prompt tokens",
    "price_per_1k_completion": "US dollars per 1,000 completion tokens",
    "cache_dir": "the shared response cache folder ('' or null: no cache)",
    "context_tokens": "the model's context window; longer prompts are refused before sending",
}


@dataclass(frozen=True)
class LLMSettings:
    """Everything a benchmark run needs to know about its model (the ``llm:`` block)."""

    client: LLMConfig
    temperature: float = 0.0
    max_tokens: int | None = 1200
    concurrency: int = 4
    prices: Prices = Prices()
    cache_dir: Path | None = Path("out/llm_cache")
    context_tokens: int | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LLMSettings:
        """Validate the ``llm:`` block.

        Raises:
            LLMError: a missing ``base_url``/``model``, an unknown key or a bad value.
        """
        unknown = sorted(set(data) - set(SETTINGS_KEYS))
        if unknown:
            known = "; ".join(f"{k}: {v}" for k, v in SETTINGS_KEYS.items())
            msg = f"unknown key(s) {', '.join(map(repr, unknown))} in the llm config (known: {known})"
            raise LLMError(msg)
        try:
            max_tokens = data.get("max_tokens", 1200)
            cache = data.get("cache_dir", "out/llm_cache")
            ctx = data.get("context_tokens")
            settings = cls(
                client=LLMConfig.from_dict({k: v for k, v in data.items() if k in CLIENT_KEYS}),
                temperature=float(data.get("temperature", 0.0)),
                max_tokens=None if max_tokens is None else int(max_tokens),
                concurrency=int(data.get("concurrency", 4)),
                prices=Prices(float(data.get("price_per_1k_prompt", 0.0)),
                              float(data.get("price_per_1k_completion", 0.0))),
                cache_dir=Path(cache) if cache else None,
                context_tokens=None if ctx is None else int(ctx))
        except (TypeError, ValueError) as err:
            msg = f"bad value in the llm config: {err}"
            raise LLMError(msg) from err
        if settings.concurrency < 1:
            raise LLMError(f"llm concurrency must be at least 1, got {settings.concurrency}")
        return settings


class LLMPool:
    """What every episode of a run shares: the HTTP client, the cache and the in-flight gate."""

    def __init__(self, settings: LLMSettings) -> None:
        self.settings = settings
        cfg = settings.client
        self.client = ChatClient(cfg.base_url, cfg.model, cfg.api_key_env, cfg.timeout_s,
                                 retries=cfg.retries)
        self.cache = ResponseCache(settings.cache_dir) if settings.cache_dir else None
        self.gate = threading.BoundedSemaphore(settings.concurrency)

    def metered(self) -> MeteredClient:
        """A client for one episode, with a fresh :class:`Meter`."""
        return MeteredClient(self, Meter(self.settings.client.model, self.settings.prices))


class MeteredClient:
    """A ``ChatClient`` look-alike that answers from the cache, gates and meters each request."""

    def __init__(self, pool: LLMPool, meter: Meter) -> None:
        self.pool = pool
        self.meter = meter

    def complete(self, messages: list[dict[str, str]], *, temperature: float = 0.0,
                 max_tokens: int | None = None, timeout_s: float | None = None) -> str:
        """The reply text; from the cache when this exact request was answered before.

        ``timeout_s`` tightens the request's deadline (what is left of a grounding deadline);
        it is not part of the cache key.

        Raises:
            LLMError: the prompt does not fit ``context_tokens``, or the request failed.
        """
        model = self.pool.settings.client.model
        params = {"temperature": temperature, "max_tokens": max_tokens}
        key = cache_key(model, messages, params)
        prompt_text = "".join(m.get("content", "") for m in messages)
        last = messages[-1].get("content", "") if messages else ""
        cache = self.pool.cache
        hit = cache.get(key) if cache is not None else None
        if hit is not None:
            stored = hit.get("usage") or {}
            self.meter.exchanges.append(Exchange(
                last, hit["text"], int(stored.get("prompt_tokens", estimate_tokens(prompt_text))),
                int(stored.get("completion_tokens", estimate_tokens(hit["text"]))),
                cached=True, latency_s=0.0, estimated=not stored))
            return str(hit["text"])
        ctx = self.pool.settings.context_tokens
        if ctx is not None:
            need = estimate_tokens(prompt_text) + (max_tokens or 0)
            if need > ctx:
                msg = (f"the prompt (~{estimate_tokens(prompt_text)} tokens estimated) plus "
                       f"max_tokens {max_tokens} does not fit the model's context of {ctx} "
                       "tokens; raise context_tokens (and the server's context size) or lower "
                       "max_tokens / repair_rounds")
                raise ContextOverflowError(msg)
        usage: dict[str, int] = {}
        with self.pool.gate:
            t0 = time.perf_counter()
            text = self.pool.client.complete(messages, temperature=temperature,
                                             max_tokens=max_tokens, usage=usage,
                                             timeout_s=timeout_s)
            latency = time.perf_counter() - t0
        if cache is not None:
            cache.put(key, {"model": model, "params": params, "messages": messages,
                            "text": text, "usage": usage})
        self.meter.exchanges.append(Exchange(
            last, text, usage.get("prompt_tokens", estimate_tokens(prompt_text)),
            usage.get("completion_tokens", estimate_tokens(text)), cached=False,
            latency_s=latency, estimated=not usage))
        return text
