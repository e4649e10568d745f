"""An OpenAI-compatible ``/v1/chat/completions`` client over plain HTTP.

The standard library's ``urllib`` is enough for one JSON POST, and keeps the client free of
extra dependencies; every grounder and follower that talks to an LLM goes through this class.
"""

from __future__ import annotations

import json
import os
import random
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from map2route.llm.errors import LLMError


@dataclass(frozen=True)
class LLMConfig:
    """Where and how to reach a model.

    Args:
        base_url: the server root, e.g. ``http://localhost:8000/v1`` (vLLM), ``http://localhost:11434/v1``
            (Ollama) or a hosted API's base URL. ``/chat/completions`` is appended.
        model: the model name the server expects.
        api_key_env: name of the environment variable holding the API key (unset: no key sent).
        timeout_s: per-request timeout.
        retries: extra attempts on connection errors and HTTP 429/5xx.
    """

    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = 60.0
    retries: int = 2

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LLMConfig:
        """Build from a config mapping (e.g. the ``llm:`` block of ``config/grounding.yaml``)."""
        try:
            return cls(base_url=str(data["base_url"]), model=str(data["model"]),
                       api_key_env=str(data.get("api_key_env", "OPENAI_API_KEY")),
                       timeout_s=float(data.get("timeout_s", 60.0)),
                       retries=int(data.get("retries", 2)))
        except KeyError as err:
            msg = f"LLM config needs {err.args[0]!r} (keys: base_url, model, api_key_env, timeout_s)"
            raise LLMError(msg) from None


class ChatClient:
    """Send chat messages to an OpenAI-compatible endpoint and return the reply text."""

    def __init__(self, base_url: str, model: str, api_key_env: str = "OPENAI_API_KEY",
                 timeout_s: float = 60.0, *, retries: int = 2) -> None:
        self.config = LLMConfig(base_url=base_url, model=model, api_key_env=api_key_env,
                                timeout_s=timeout_s, retries=retries)

    @classmethod
    def from_config(cls, data: dict[str, Any] | LLMConfig) -> ChatClient:
        cfg = data if isinstance(data, LLMConfig) else LLMConfig.from_dict(data)
        return cls(cfg.base_url, cfg.model, cfg.api_key_env, cfg.timeout_s, retries=cfg.retries)

    @property
    def url(self) -> str:
        base = self.config.base_url.rstrip("/")
        return base if base.endswith("/chat/completions") else base + "/chat/completions"

    def complete(self, messages: list[dict[str, str]], *, temperature: float = 0.0,
                 max_tokens: int | None = None, usage: dict[str, int] | None = None) -> str:
        """Return the first choice's message content.

        ``usage``, when given, is filled with the reply's ``usage`` token counts
        (``prompt_tokens``, ``completion_tokens``; absent when the server sends none).

        Raises:
            LLMError: naming the URL and the HTTP status or network error, or the malformed reply.
        """
        body: dict[str, Any] = {"model": self.config.model, "messages": messages,
                                "temperature": temperature}
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.config.api_key_env, "")
        if key:
            headers["Authorization"] = f"Bearer {key}"
        data = json.dumps(body).encode("utf-8")
        last_error = ""
        for attempt in range(self.config.retries + 1):
            request = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.config.timeout_s) as resp:
                    payload = json.loads(resp.read().decode("utf-8"))
                text = _reply_text(payload, self.url)
                if usage is not None:
                    usage.update(_usage(payload))
                return text
            except urllib.error.HTTPError as err:
                detail = err.read().decode("utf-8", "replace")[:300]
                last_error = f"HTTP {err.code} from {self.url}: {detail}"
                if err.code != 429 and err.code < 500:
                    break
            except (urllib.error.URLError, TimeoutError, ConnectionError) as err:
                reason = getattr(err, "reason", err)
                last_error = f"cannot reach {self.url}: {reason}"
            except json.JSONDecodeError as err:
                last_error = f"{self.url} did not answer with JSON ({err})"
                break
            # Jitter spreads the retries of concurrent workers after a shared 429.
            time.sleep(min(2.0, 0.25 * 2**attempt) * random.uniform(0.5, 1.5))
        msg = (f"LLM request failed: {last_error}. Check base_url/model in the config and that "
               f"${self.config.api_key_env} holds a valid key if the server needs one.")
        raise LLMError(msg)


def _reply_text(payload: Any, url: str) -> str:
    try:
        content = payload["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        msg = f"{url} answered without choices[0].message.content: {str(payload)[:200]}"
        raise LLMError(msg) from None
    if not isinstance(content, str):
        raise LLMError(f"{url} answered with non-text content: {content!r}")
    return content


def _usage(payload: Any) -> dict[str, int]:
    """The reply's ``usage`` token counts (OpenAI's names); empty when missing or malformed."""
    raw = payload.get("usage") if isinstance(payload, dict) else None
    if not isinstance(raw, dict):
        return {}
    return {k: int(raw[k]) for k in ("prompt_tokens", "completion_tokens")
            if isinstance(raw.get(k), int | float)}
