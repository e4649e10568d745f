"""An OpenAI-compatible ``/v1/chat/completions`` client over plain HTTP.

The standard library's :mod:`http.client` is enough for one JSON POST and keeps the client free
of extra dependencies; every grounder and follower that talks to an LLM goes through this class.
It is written against ``http.client`` rather than ``urllib.request`` because urllib's defaults
are wrong for a client that holds an API key: its timeout bounds each socket read (a server
that trickles one byte a second keeps it waiting forever), it follows a 302 to any origin with
the ``Authorization`` header and turns the POST into a GET, and it reads a reply whole. Here:

- ``timeout_s`` is one deadline for the whole :meth:`ChatClient.complete` call, retries and
  back-off included; a watchdog shuts the socket down when it passes, whatever the server does;
- a reply (or an error body) longer than ``max_response_bytes`` is refused while reading;
- only a same-origin 307/308 is followed (it re-sends the POST); any other redirect is an error
  naming where it pointed, so the key never travels to another origin and a GET reply is never
  taken for the completion;
- ``http_proxy`` / ``https_proxy`` / ``no_proxy`` are honoured as urllib does (an HTTPS request
  goes through a CONNECT tunnel).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import threading
import time
import urllib.request
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

from map2route.llm.errors import LLMError

#: Redirects that keep the method and body (RFC 9110 15.4.8/15.4.9); only these are followed.
_BODY_KEEPING_REDIRECTS = (307, 308)
_MAX_REDIRECTS = 3
_CHUNK = 64 * 1024


@dataclass(frozen=True)
class LLMConfig:
    """Where and how to reach a model.

    Args:
        base_url: the server root, e.g. ``http://localhost:8000/v1`` (vLLM), ``http://localhost:11434/v1``
            (Ollama) or a hosted API's base URL. ``/chat/completions`` is appended.
        model: the model name the server expects.
        api_key_env: name of the environment variable holding the API key (unset: no key sent).
        timeout_s: total deadline of one request, retries included.
        retries: extra attempts on connection errors and HTTP 429/5xx (within the deadline).
        max_response_bytes: the longest reply body read; a longer one is refused.
    """

    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = 60.0
    retries: int = 2
    max_response_bytes: int = 8 * 1024 * 1024

    def __post_init__(self) -> None:
        problems = []
        if not (self.timeout_s > 0 and self.timeout_s < float("inf")):
            problems.append(f"timeout_s must be a positive number of seconds, got {self.timeout_s}")
        if self.retries < 0:
            problems.append(f"retries must be >= 0, got {self.retries}")
        if self.max_response_bytes <= 0:
            problems.append(f"max_response_bytes must be > 0, got {self.max_response_bytes}")
        if urlsplit(self.base_url).scheme not in ("http", "https"):
            problems.append(f"base_url must start with http:// or https://, got {self.base_url!r}")
        if problems:
            raise LLMError("Bad LLM config: " + "; ".join(problems))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LLMConfig:
        """Build from a config mapping (e.g. the ``llm:`` block of ``config/grounding.yaml``).

        Raises:
            LLMError: a key is missing, unknown or of the wrong type.
        """
        if not isinstance(data, dict):
            raise LLMError(f"LLM config must be a mapping, got {type(data).__name__}")
        # temperature / max_tokens are read by the callers that sample (grounder, agents).
        known = {"base_url", "model", "api_key_env", "timeout_s", "retries", "max_response_bytes",
                 "temperature", "max_tokens"}
        unknown = sorted(set(data) - known)
        if unknown:
            msg = f"LLM config has unknown keys {unknown}; known keys: {sorted(known)}"
            raise LLMError(msg)
        try:
            return cls(base_url=str(data["base_url"]), model=str(data["model"]),
                       api_key_env=str(data.get("api_key_env", "OPENAI_API_KEY")),
                       timeout_s=float(data.get("timeout_s", 60.0)),
                       retries=int(data.get("retries", 2)),
                       max_response_bytes=int(data.get("max_response_bytes", 8 * 1024 * 1024)))
        except KeyError as err:
            msg = f"LLM config needs {err.args[0]!r} (keys: base_url, model, api_key_env, timeout_s)"
            raise LLMError(msg) from None
        except (TypeError, ValueError) as err:
            msg = f"LLM config has a value of the wrong type ({err})"
            raise LLMError(msg) from None


class _Deadline(Exception):
    """The request's total deadline passed (internal; becomes an :class:`LLMError`)."""


class _Fatal(Exception):
    """A failure that retrying cannot fix (internal; becomes an :class:`LLMError`)."""


class ChatClient:
    """Send chat messages to an OpenAI-compatible endpoint and return the reply text."""

    def __init__(self, base_url: str, model: str, api_key_env: str = "OPENAI_API_KEY",
                 timeout_s: float = 60.0, *, retries: int = 2,
                 max_response_bytes: int = 8 * 1024 * 1024) -> None:
        self.config = LLMConfig(base_url=base_url, model=model, api_key_env=api_key_env,
                                timeout_s=timeout_s, retries=retries,
                                max_response_bytes=max_response_bytes)

    @classmethod
    def from_config(cls, data: dict[str, Any] | LLMConfig) -> ChatClient:
        cfg = data if isinstance(data, LLMConfig) else LLMConfig.from_dict(data)
        return cls(cfg.base_url, cfg.model, cfg.api_key_env, cfg.timeout_s, retries=cfg.retries,
                   max_response_bytes=cfg.max_response_bytes)

    @property
    def url(self) -> str:
        base = self.config.base_url.rstrip("/")
        return base if base.endswith("/chat/completions") else base + "/chat/completions"

    def complete(self, messages: list[dict[str, str]], *, temperature: float = 0.0,
                 max_tokens: int | None = None, timeout_s: float | None = None,
                 usage: dict[str, int] | None = None) -> str:
        """Return the first choice's message content.

        Args:
            usage: when given, filled with the reply's ``usage`` token counts
                (``prompt_tokens``, ``completion_tokens``; absent when the server sends none).
            timeout_s: a tighter deadline for this call (e.g. what is left of a grounding
                deadline); the config's ``timeout_s`` bounds it either way.

        Raises:
            LLMError: naming the URL and the HTTP status, network error or deadline, or the
                malformed reply.
        """
        limit = self.config.timeout_s if timeout_s is None else min(timeout_s, self.config.timeout_s)
        deadline = time.monotonic() + max(0.0, limit)
        body: dict[str, Any] = {"model": self.config.model, "messages": messages,
                                "temperature": temperature}
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        key = os.environ.get(self.config.api_key_env, "")
        if key:
            headers["Authorization"] = f"Bearer {key}"
        data = json.dumps(body).encode("utf-8")
        last_error = ""
        hint = (f"Check base_url/model in the config and that ${self.config.api_key_env} holds a "
                "valid key if the server needs one.")
        for attempt in range(self.config.retries + 1):
            try:
                status, raw = self._post(self.url, data, headers, deadline)
            except _Deadline:
                msg = (f"LLM request failed: no complete answer from {self.url} within "
                       f"timeout_s={limit:g} s{f' (last error: {last_error})' if last_error else ''}. "
                       "Raise llm.timeout_s in the config or use a faster server.")
                raise LLMError(msg) from None
            except _Fatal as err:
                raise LLMError(f"LLM request failed: {err}. {hint}") from None
            except (OSError, http.client.HTTPException) as err:
                last_error = f"cannot reach {self.url}: {err or type(err).__name__}"
            else:
                if status == 200:
                    payload = _decode_json(raw, self.url)
                    text = _reply_text(payload, self.url)
                    if usage is not None:
                        usage.update(_usage(payload))
                    return text
                detail = raw[:300].decode("utf-8", "replace")
                last_error = f"HTTP {status} from {self.url}: {detail}"
                if status != 429 and status < 500:
                    break
            pause = min(2.0, 0.25 * 2**attempt)
            if attempt == self.config.retries or time.monotonic() + pause >= deadline:
                break
            # Jitter spreads the retries of concurrent workers after a shared 429.
            time.sleep(pause * random.uniform(0.5, 1.5))
        msg = f"LLM request failed: {last_error}. {hint}"
        raise LLMError(msg)

    def _post(self, url: str, data: bytes, headers: dict[str, str],
              deadline: float) -> tuple[int, bytes]:
        """POST ``data``, following same-origin 307/308 only; return (status, body).

        Raises:
            _Deadline: the deadline passed.
            _Fatal: a redirect that is refused, or a reply over the size cap.
            OSError, http.client.HTTPException: network failures (retried by the caller).
        """
        origin = _origin(url)
        for _ in range(_MAX_REDIRECTS + 1):
            status, location, body = self._post_once(url, data, headers, deadline)
            if status not in (301, 302, 303, 307, 308):
                return status, body
            target = urljoin(url, location or "")
            if status not in _BODY_KEEPING_REDIRECTS or _origin(target) != origin:
                msg = (f"{url} redirected (HTTP {status}) to {target!r}; redirects are followed "
                       "only when they keep the POST (307/308) on the same origin, so the API key "
                       "never travels elsewhere. Set base_url to the server's real address")
                raise _Fatal(msg)
            url = target
        msg = f"{url} redirected more than {_MAX_REDIRECTS} times"
        raise _Fatal(msg)

    def _post_once(self, url: str, data: bytes, headers: dict[str, str],
                   deadline: float) -> tuple[int, str | None, bytes]:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _Deadline
        parts = urlsplit(url)
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        conn: http.client.HTTPConnection
        proxy = _proxy_for(parts.scheme, parts.hostname or "")
        if proxy is None and parts.scheme == "https":
            conn = http.client.HTTPSConnection(parts.hostname or "", parts.port, timeout=remaining)
        elif proxy is None:
            conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=remaining)
        elif parts.scheme == "https":  # a CONNECT tunnel: the proxy never sees the key
            conn = http.client.HTTPSConnection(proxy[0], proxy[1], timeout=remaining)
            conn.set_tunnel(parts.hostname or "", parts.port or 443)
        else:  # plain HTTP through a proxy: the request line holds the absolute URL
            conn = http.client.HTTPConnection(proxy[0], proxy[1], timeout=remaining)
            path = url
        fired = threading.Event()
        # The watchdog makes the deadline total: a socket timeout only bounds each read.
        watchdog = threading.Timer(remaining, _abort, args=(conn, fired))
        watchdog.daemon = True
        watchdog.start()
        try:
            conn.request("POST", path, body=data, headers=headers)
            resp = conn.getresponse()
            cap = self.config.max_response_bytes
            length = resp.getheader("Content-Length")
            if resp.status == 200 and length is not None and length.strip().isdigit() \
                    and int(length) > cap:
                msg = (f"{url} announced a {int(length)}-byte reply, over max_response_bytes="
                       f"{cap}; raise llm.max_response_bytes in the config if that is expected")
                raise _Fatal(msg)
            chunks: list[bytes] = []
            size = 0
            while True:
                chunk = resp.read1(_CHUNK) if resp.status == 200 else resp.read1(min(_CHUNK, 300 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
                if resp.status != 200 and size >= 300:
                    break
                if size > cap:
                    msg = (f"{url} sent more than max_response_bytes={cap} bytes; raise "
                           "llm.max_response_bytes in the config if that is expected")
                    raise _Fatal(msg)
                if time.monotonic() >= deadline:
                    raise _Deadline
            if fired.is_set():
                raise _Deadline
            return resp.status, resp.getheader("Location"), b"".join(chunks)
        except (OSError, http.client.HTTPException):
            if fired.is_set() or time.monotonic() >= deadline:
                raise _Deadline from None
            raise
        finally:
            watchdog.cancel()
            conn.close()


def _abort(conn: http.client.HTTPConnection, fired: threading.Event) -> None:
    """Shut the connection's socket down so a blocked read returns at once."""
    fired.set()
    sock = conn.sock
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _proxy_for(scheme: str, host: str) -> tuple[str, int] | None:
    """The ``(host, port)`` of the proxy the environment names for ``scheme`` (``http_proxy``,
    ``https_proxy``, ``no_proxy``, as urllib reads them), or None."""
    proxy = urllib.request.getproxies().get(scheme)
    if not proxy or urllib.request.proxy_bypass(host):
        return None
    parts = urlsplit(proxy if "://" in proxy else "http://" + proxy)
    return parts.hostname or "", parts.port or 8080


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    return parts.scheme, (parts.hostname or "").lower(), port


def _decode_json(raw: bytes, url: str) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as err:
        msg = f"LLM request failed: {url} answered with bytes that are not UTF-8 ({err.reason} at byte {err.start})"
        raise LLMError(msg) from None
    except json.JSONDecodeError as err:
        msg = f"LLM request failed: {url} did not answer with JSON ({err})"
        raise LLMError(msg) from None


def _reply_text(payload: Any, url: str) -> str:
    try:
        content = payload["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        msg = f"{url} answered without choices[0].message.content: {str(payload)[:200]}"
        raise LLMError(msg) from None
    if not isinstance(content, str):
        raise LLMError(f"{url} answered with non-text content: {str(content)[:200]}")
    return content


def _usage(payload: Any) -> dict[str, int]:
    """The reply's ``usage`` token counts (OpenAI's names); empty when missing or malformed."""
    raw = payload.get("usage") if isinstance(payload, dict) else None
    if not isinstance(raw, dict):
        return {}
    return {k: int(raw[k]) for k in ("prompt_tokens", "completion_tokens")
            if isinstance(raw.get(k), int | float)}
