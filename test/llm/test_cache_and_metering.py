"""The response cache, the per-episode meter and the in-flight gate, over real local HTTP."""

from __future__ import annotations

import threading
import time

import pytest

from map2route.llm import ChatClient, LLMError
from map2route.llm.accounting import Prices, estimate_tokens
from map2route.llm.cache import ResponseCache, cache_key
from map2route.llm.metered import LLMPool, LLMSettings
from map2route.llm.testing import ScriptedChatServer

MSGS = [{"role": "user", "content": "x" * 40}]


def _settings(url: str, tmp_path, **extra) -> LLMSettings:
    return LLMSettings.from_dict({"base_url": url, "model": "m", "timeout_s": 5, "retries": 0,
                                  "cache_dir": str(tmp_path / "cache"), **extra})


def test_key_is_content_addressed() -> None:
    a = cache_key("m", MSGS, {"temperature": 0.0, "max_tokens": 5})
    assert a == cache_key("m", [dict(MSGS[0])], {"max_tokens": 5, "temperature": 0.0})
    assert len(a) == 64
    assert a != cache_key("m2", MSGS, {"temperature": 0.0, "max_tokens": 5})
    assert a != cache_key("m", MSGS, {"temperature": 0.5, "max_tokens": 5})
    assert a != cache_key("m", [{"role": "user", "content": "y"}], {"temperature": 0.0, "max_tokens": 5})


def test_put_get_and_a_corrupt_entry_is_a_miss(tmp_path) -> None:
    cache = ResponseCache(tmp_path / "c")
    assert cache.get("ab" * 32) is None
    path = cache.put("ab" * 32, {"text": "hello", "usage": {"prompt_tokens": 3}})
    assert path == tmp_path / "c" / "ab" / f"{'ab' * 32}.json"
    assert cache.get("ab" * 32)["text"] == "hello"
    assert not list(path.parent.glob(".tmp-*"))  # the temporary file was renamed into place
    path.write_text('{"text": ')  # torn by hand: a miss, not a crash
    assert cache.get("ab" * 32) is None
    assert len(cache) == 1


def test_usage_is_read_and_a_repeat_is_answered_from_disk(tmp_path) -> None:
    with ScriptedChatServer(["abcdefgh"]) as server:
        pool = LLMPool(_settings(server.url, tmp_path, price_per_1k_prompt=2.0,
                                 price_per_1k_completion=10.0))
        first = pool.metered()
        assert first.complete(MSGS, max_tokens=5) == "abcdefgh"
        again = pool.metered()
        assert again.complete(MSGS, max_tokens=5) == "abcdefgh"
        assert len(server.requests) == 1  # the second was a cache hit
    t1, t2 = first.meter.totals(), again.meter.totals()
    # The scripted server counts a token per 4 characters: 40 -> 10 prompt, 8 -> 2 completion.
    assert (t1["prompt_tokens"], t1["completion_tokens"]) == (10, 2)
    assert t1["cost_usd"] == pytest.approx((10 * 2.0 + 2 * 10.0) / 1000)
    assert t1["spent_usd"] == t1["cost_usd"] and t1["cache_hits"] == 0
    assert (t2["llm_calls"], t2["cache_hits"], t2["spent_usd"]) == (1, 1, 0.0)
    assert t2["cost_usd"] == t1["cost_usd"] and not t2["usage_estimated"]


def test_missing_usage_is_estimated_and_flagged(tmp_path) -> None:
    with ScriptedChatServer(["abcd"], usage=False) as server:
        client = LLMPool(_settings(server.url, tmp_path, cache_dir=None)).metered()
        client.complete(MSGS)
    t = client.meter.totals()
    assert t["usage_estimated"] and t["prompt_tokens"] == estimate_tokens("x" * 40) == 10


def test_a_prompt_over_the_context_is_refused_before_sending(tmp_path) -> None:
    with ScriptedChatServer(["x"]) as server:
        client = LLMPool(_settings(server.url, tmp_path, context_tokens=12)).metered()
        with pytest.raises(LLMError, match="does not fit the model's context of 12 tokens"):
            client.complete(MSGS, max_tokens=5)
        assert server.requests == []


def test_requests_in_flight_are_bounded(tmp_path) -> None:
    state = {"now": 0, "peak": 0}
    lock = threading.Lock()

    def slow(body):
        with lock:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
        time.sleep(0.15)
        with lock:
            state["now"] -= 1
        return "ok"

    with ScriptedChatServer(slow) as server:
        pool = LLMPool(_settings(server.url, tmp_path, concurrency=2, cache_dir=None))
        threads = [threading.Thread(target=pool.metered().complete,
                                    args=([{"role": "user", "content": str(i)}],))
                   for i in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=20)
    assert len(server.requests) == 6
    assert state["peak"] == 2


def test_429_is_retried_with_backoff_then_reported(tmp_path) -> None:
    with ScriptedChatServer(["x"], status=429) as server:
        client = ChatClient(server.url, "m", timeout_s=5, retries=2)
        t0 = time.perf_counter()
        with pytest.raises(LLMError, match="HTTP 429"):
            client.complete(MSGS)
        waited = time.perf_counter() - t0
    assert len(server.requests) == 3
    # Backoff 0.25 s then 0.5 s, each jittered by x0.5..1.5: between 0.375 s and 1.125 s.
    assert 0.3 < waited < 3.0


def test_settings_name_unknown_keys_and_prices() -> None:
    with pytest.raises(LLMError, match="unknown key.*'prize_per_1k'.*price_per_1k_prompt"):
        LLMSettings.from_dict({"base_url": "http://x/v1", "model": "m", "prize_per_1k": 1})
    with pytest.raises(LLMError, match="needs 'model'"):
        LLMSettings.from_dict({"base_url": "http://x/v1"})
    assert Prices(1.0, 3.0).cost(1000, 500) == pytest.approx(2.5)
