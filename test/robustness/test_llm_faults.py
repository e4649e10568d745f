"""The LLM client and grounder against a real faulty HTTP server on 127.0.0.1 (issue 16, item 2).

Each case asserts a bounded wait and a clean :class:`LLMError`/:class:`GroundingError` (or the
right answer), over real sockets.
"""

from __future__ import annotations

import threading
import time

import pytest

from map2route.grounding.errors import GroundingError
from map2route.grounding.grounder import DeadlineExceeded, Executor, LLMGrounder
from map2route.llm import ChatClient, LLMError
from map2route.llm.testing import completion, send, trickle

HI = [{"role": "user", "content": "hi"}]


@pytest.mark.parametrize("in_headers", [False, True], ids=["trickled-body", "trickled-headers"])
def test_trickling_server_cannot_outlast_the_deadline(fault_server, in_headers) -> None:
    server = fault_server(lambda h, s: trickle(h, s, every_s=0.2, in_headers=in_headers))
    client = ChatClient(server.url, "m", timeout_s=1.5, retries=2)
    t0 = time.monotonic()
    with pytest.raises(LLMError, match=r"within timeout_s=1\.5 s") as err:
        client.complete(HI)
    elapsed = time.monotonic() - t0
    assert elapsed < 2.5, elapsed  # one deadline for the call, not one per read or retry
    assert "llm.timeout_s" in str(err.value)


def test_retries_stay_inside_the_deadline(fault_server) -> None:
    def slow_503(h, s):
        time.sleep(0.4)
        send(h, 503, b'{"error": "busy"}')

    server = fault_server(slow_503)
    client = ChatClient(server.url, "m", timeout_s=1.0, retries=50)
    t0 = time.monotonic()
    with pytest.raises(LLMError):
        client.complete(HI)
    assert time.monotonic() - t0 < 1.8
    assert 1 <= len(server.requests) <= 3


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_cross_origin_redirect_is_refused_and_the_key_stays_home(fault_server, monkeypatch,
                                                                 status) -> None:
    monkeypatch.setenv("ROBUST_KEY", "sekret-key")
    elsewhere = fault_server(lambda h, s: send(h, 200, completion("from elsewhere")))
    home = fault_server(lambda h, s: send(h, status, b"", headers={
        "Location": elsewhere.url + "/chat/completions"}))
    client = ChatClient(home.url, "m", api_key_env="ROBUST_KEY", timeout_s=5, retries=0)
    with pytest.raises(LLMError, match=f"redirected \\(HTTP {status}\\)") as err:
        client.complete(HI)
    assert elsewhere.url in str(err.value)
    assert elsewhere.requests == []  # nothing, so no key and no GET reply taken as the answer
    assert home.requests[0][2]["Authorization"] == "Bearer sekret-key"
    assert "sekret-key" not in str(err.value)


def test_same_origin_307_keeps_the_post(fault_server) -> None:
    def behave(h, s):
        if h.path.startswith("/old/"):
            send(h, 307, b"", headers={"Location": "/v1/chat/completions"})
        else:
            send(h, 200 if h.command == "POST" else 405, completion("moved fine"))

    server = fault_server(behave)
    client = ChatClient(server.origin + "/old", "m", timeout_s=5, retries=0)
    assert client.complete(HI) == "moved fine"
    assert [r[0] for r in server.requests] == ["POST", "POST"]
    assert server.requests[1][3] == server.requests[0][3]  # same body re-sent


def test_same_origin_302_is_refused_not_turned_into_get(fault_server) -> None:
    server = fault_server(lambda h, s: send(h, 302, b"", headers={"Location": "/v1/other"})
                          if h.command == "POST" else send(h, 200, completion("GET reply")))
    client = ChatClient(server.url, "m", timeout_s=5, retries=0)
    with pytest.raises(LLMError, match="302"):
        client.complete(HI)
    assert [r[0] for r in server.requests] == ["POST"]


def test_announced_huge_reply_is_refused_unread(fault_server) -> None:
    def huge(h, s):
        h.send_response(200)
        h.send_header("Content-Length", str(150 * 1024 * 1024))
        h.end_headers()
        for _ in range(100):  # at most 6.4 MB, and only if the client keeps reading
            if s.stop.is_set():
                return
            h.wfile.write(b" " * 65536)

    server = fault_server(huge)
    client = ChatClient(server.url, "m", timeout_s=10, retries=0, max_response_bytes=1_000_000)
    t0 = time.monotonic()
    with pytest.raises(LLMError, match=r"157286400-byte reply, over max_response_bytes=1000000"):
        client.complete(HI)
    assert time.monotonic() - t0 < 5


def test_unannounced_huge_reply_is_cut_at_the_cap(fault_server) -> None:
    def endless(h, s):
        h.send_response(200)
        h.send_header("Connection", "close")
        h.end_headers()
        for _ in range(400):  # 26 MB at most
            if s.stop.is_set():
                return
            h.wfile.write(b"x" * 65536)

    server = fault_server(endless)
    client = ChatClient(server.url, "m", timeout_s=10, retries=0, max_response_bytes=2_000_000)
    with pytest.raises(LLMError, match="more than max_response_bytes=2000000"):
        client.complete(HI)


def test_non_utf8_reply_is_a_clear_error(fault_server) -> None:
    server = fault_server(lambda h, s: send(h, 200, b'{"choices": "\xff\xfe"}'))
    client = ChatClient(server.url, "m", timeout_s=5, retries=0)
    with pytest.raises(LLMError, match="not UTF-8"):
        client.complete(HI)


@pytest.mark.parametrize("body", [b"[]", b'{"choices": []}', b"null", b'{"choices": [{"message": {"content": 5}}]}'],
                         ids=["list", "no-choices", "null", "non-text"])
def test_malformed_replies_are_clear_errors(fault_server, body) -> None:
    server = fault_server(lambda h, s: send(h, 200, body))
    with pytest.raises(LLMError, match="answered"):
        ChatClient(server.url, "m", timeout_s=5, retries=0).complete(HI)


WRONG = "```python\ntask([segment(unique(entities('chair'), 'the chair'))])\n```"


def test_http_error_mid_repair_keeps_every_round(fault_server, two_room_map, runner) -> None:
    def first_ok_then_500(h, s):
        n = sum(1 for r in s.requests if r[0] == "POST")
        if n == 1:
            send(h, 200, completion(WRONG))
        else:
            send(h, 500, b'{"error": "model crashed"}')

    server = fault_server(first_ok_then_500)
    g = LLMGrounder(ChatClient(server.url, "m", timeout_s=5, retries=0), rounds=3,
                    executor=Executor("process", runner))
    with pytest.raises(GroundingError) as err:
        g.ground("go to the chair", two_room_map, (1.0, 1.0))
    text = str(err.value)
    assert "ambiguous_reference" in text  # round 1's issue survives
    assert "round 2 could not propose a program" in text and "HTTP 500" in text
    assert [i.code for i in err.value.issues] == ["ambiguous_reference"]


@pytest.mark.parametrize("in_thread", [False, True], ids=["main-thread", "worker-thread"])
def test_grounding_deadline_bounds_a_trickling_llm(fault_server, two_room_map, runner,
                                                   in_thread) -> None:
    server = fault_server(lambda h, s: trickle(h, s, every_s=0.2))
    g = LLMGrounder(ChatClient(server.url, "m", timeout_s=30, retries=2), deadline_s=1.0,
                    executor=Executor("process", runner))
    box: dict[str, BaseException] = {}

    def run() -> None:
        try:
            g.ground("go to the bed", two_room_map, (1.0, 1.0))
        except BaseException as err:  # noqa: BLE001 - handed to the test
            box["err"] = err

    t0 = time.monotonic()
    if in_thread:  # as the ROS grounding node runs it: no SIGALRM, the client's own deadline
        t = threading.Thread(target=run)
        t.start()
        t.join(timeout=20)
    else:
        run()
    assert time.monotonic() - t0 < 2.5
    assert isinstance(box.get("err"), DeadlineExceeded), box
    assert "deadline_s=1 s" in str(box["err"])


def test_http_proxy_from_the_environment_is_used(fault_server, monkeypatch) -> None:
    proxy = fault_server(lambda h, s: send(h, 200, completion("via proxy")))
    monkeypatch.setenv("http_proxy", proxy.origin)
    monkeypatch.setenv("no_proxy", "")
    client = ChatClient("http://llm.example.invalid:8000/v1", "m", timeout_s=5, retries=0)
    assert client.complete(HI) == "via proxy"
    method, path, headers, _ = proxy.requests[0]
    assert (method, path) == ("POST", "http://llm.example.invalid:8000/v1/chat/completions")
