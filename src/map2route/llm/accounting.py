"""What LLM calls cost: prices, per-episode meters, and token estimates before a run.

Token counts come from the server's ``usage`` block (OpenAI's ``prompt_tokens`` and
``completion_tokens``). Before a run, and for servers that send no ``usage``, a count is
estimated at four characters a token, the usual rule of thumb for English and code with
BPE tokenizers; it is labelled an estimate wherever it is shown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

CHARS_PER_TOKEN = 4.0


def estimate_tokens(text: str) -> int:
    """A rough token count of ``text`` (four characters a token)."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


@dataclass(frozen=True)
class Prices:
    """US dollars per 1,000 tokens (0 for a local server)."""

    prompt_per_1k: float = 0.0
    completion_per_1k: float = 0.0

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (prompt_tokens * self.prompt_per_1k + completion_tokens * self.completion_per_1k) / 1000.0


@dataclass
class Exchange:
    """One request and its reply, as the transcript shows it.

    Attributes:
        prompt: the last message sent (the instruction, or the repair prompt with the issues).
        reply: the reply text.
        prompt_tokens, completion_tokens: from ``usage`` (estimated when ``estimated``).
        cached: answered from the on-disk cache (no request sent).
        latency_s: wall seconds waiting for the reply (0 for a cache hit).
    """

    prompt: str
    reply: str
    prompt_tokens: int
    completion_tokens: int
    cached: bool
    latency_s: float
    estimated: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"prompt": self.prompt, "reply": self.reply, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "cached": self.cached,
                "latency_s": round(self.latency_s, 4), "usage_estimated": self.estimated}


@dataclass
class Meter:
    """Every exchange of one episode, and their totals."""

    model: str
    prices: Prices
    exchanges: list[Exchange] = field(default_factory=list)

    def totals(self) -> dict[str, Any]:
        """The per-episode numbers a result row carries.

        ``cost_usd`` prices every call (what the method costs); ``spent_usd`` only the calls
        sent in this run (cache hits are free).
        """
        pt = sum(e.prompt_tokens for e in self.exchanges)
        ct = sum(e.completion_tokens for e in self.exchanges)
        sent = [e for e in self.exchanges if not e.cached]
        return {"model": self.model, "llm_calls": len(self.exchanges),
                "cache_hits": len(self.exchanges) - len(sent),
                "prompt_tokens": pt, "completion_tokens": ct,
                "cost_usd": round(self.prices.cost(pt, ct), 6),
                "spent_usd": round(self.prices.cost(sum(e.prompt_tokens for e in sent),
                                                    sum(e.completion_tokens for e in sent)), 6),
                "llm_latency_s": round(sum(e.latency_s for e in self.exchanges), 4),
                "usage_estimated": any(e.estimated for e in self.exchanges)}
