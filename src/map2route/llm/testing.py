"""OpenAI-compatible servers on 127.0.0.1 for tests: real HTTP, canned replies or faults.

- :class:`ScriptedChatServer` answers from a list of replies.
- :class:`FaultServer` misbehaves in one way a real server or an attacker can (trickle bytes,
  redirect elsewhere, send a huge body, fail with 5xx after good answers); the robustness suite
  (``test/robustness``) drives the client against it. Every behaviour here is bounded: a
  trickle stops after ``max_seconds`` or at shutdown.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = str | Callable[[dict[str, Any]], str]


class ScriptedChatServer:
    """Answer ``POST .../chat/completions`` from a list of replies (in turn) or a callable.

    Use as a context manager; ``url`` is the base URL to give :class:`ChatClient`, and
    ``requests`` holds every request body received. ``status`` makes it answer an HTTP error.
    ``usage``: send a ``usage`` block (one token per four characters, like a tokenizer would
    roughly count), as OpenAI-compatible servers do.
    """

    def __init__(self, replies: Sequence[str] | Callable[[dict[str, Any]], str], *,
                 status: int = 200, usage: bool = True) -> None:
        self._replies = replies
        self._status = status
        self._usage = usage
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        assert self._server is not None, "server not started"
        port = self._server.server_address[1]
        return f"http://127.0.0.1:{port}/v1"

    def _next_reply(self, body: dict[str, Any]) -> str:
        with self._lock:
            self.requests.append(body)
            if not callable(self._replies):
                index = min(len(self.requests) - 1, len(self._replies) - 1)
                return self._replies[index]
        return self._replies(body)  # outside the lock: concurrent requests overlap

    def __enter__(self) -> ScriptedChatServer:
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                if not self.path.endswith("/chat/completions"):
                    self.send_error(404, "only /chat/completions is served")
                    return
                if outer._status != 200:
                    with outer._lock:
                        outer.requests.append(body)
                    self.send_response(outer._status)
                    self.end_headers()
                    self.wfile.write(b'{"error": "scripted failure"}')
                    return
                text = outer._next_reply(body)
                payload = {"id": "scripted", "object": "chat.completion",
                           "model": body.get("model", ""),
                           "choices": [{"index": 0, "finish_reason": "stop",
                                        "message": {"role": "assistant", "content": text}}]}
                if outer._usage:
                    sent = sum(len(str(m.get("content", ""))) for m in body.get("messages", []))
                    payload["usage"] = {"prompt_tokens": sent // 4,
                                        "completion_tokens": len(text) // 4,
                                        "total_tokens": sent // 4 + len(text) // 4}
                raw = json.dumps(payload).encode("utf-8")
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)


# --- faults -----------------------------------------------------------------------------------
def completion(text: str) -> bytes:
    """A chat-completions body whose first choice says ``text``."""
    return json.dumps({"choices": [{"index": 0, "message": {"role": "assistant",
                                                            "content": text}}]}).encode("utf-8")


Behaviour = Callable[[BaseHTTPRequestHandler, "FaultServer"], None]


class FaultServer:
    """A local HTTP server whose every request is answered by ``behaviour(handler, server)``.

    Attributes:
        requests: ``(method, path, headers, body)`` of every request received, in order.
    """

    def __init__(self, behaviour: Behaviour) -> None:
        self.behaviour = behaviour
        self.requests: list[tuple[str, str, dict[str, str], bytes]] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length", "0") or 0)
                body = self.rfile.read(min(length, 10_000_000)) if length else b""
                with outer.lock:
                    outer.requests.append((self.command, self.path, dict(self.headers), body))
                try:
                    outer.behaviour(self, outer)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_POST = _handle  # noqa: N815 - http.server's naming
            do_GET = _handle  # noqa: N815

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def url(self) -> str:
        return self.origin + "/v1"

    def __enter__(self) -> FaultServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def send(handler: BaseHTTPRequestHandler, status: int, body: bytes, *,
         headers: dict[str, str] | None = None) -> None:
    handler.send_response(status)
    for k, v in (headers or {}).items():
        handler.send_header(k, v)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def trickle(handler: BaseHTTPRequestHandler, server: FaultServer, *, every_s: float = 0.3,
            max_seconds: float = 20.0, in_headers: bool = False) -> None:
    """Send one byte every ``every_s`` (in the headers or the body) until the client hangs up."""
    body = completion("never finished") * 100
    t0 = time.monotonic()
    if in_headers:
        handler.wfile.write(b"HTTP/1.1 200 OK\r\n")
        data = b"X-Slow: " + b"a" * 10_000
    else:
        handler.send_response(200)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        data = body
    for byte in data:
        if server.stop.is_set() or time.monotonic() - t0 > max_seconds:
            return
        handler.wfile.write(bytes([byte]))
        handler.wfile.flush()
        time.sleep(every_s)
