"""The chat client over real HTTP against a scripted local server."""

from __future__ import annotations

import pytest

from map2route.llm import ChatClient, LLMError
from map2route.llm.testing import ScriptedChatServer


def test_reply_and_request_body_travel_over_http(monkeypatch) -> None:
    monkeypatch.setenv("TEST_KEY", "sekret")
    with ScriptedChatServer(["first", "second"]) as server:
        client = ChatClient(server.url, "tiny-model", api_key_env="TEST_KEY", timeout_s=5)
        assert client.complete([{"role": "user", "content": "hi"}]) == "first"
        assert client.complete([{"role": "user", "content": "again"}], max_tokens=8) == "second"
    assert server.requests[0]["model"] == "tiny-model"
    assert server.requests[0]["messages"][0]["content"] == "hi"
    assert server.requests[1]["max_tokens"] == 8


def test_callable_replies_see_the_request() -> None:
    with ScriptedChatServer(lambda body: body["messages"][-1]["content"].upper()) as server:
        client = ChatClient(server.url, "m", timeout_s=5)
        assert client.complete([{"role": "user", "content": "echo"}]) == "ECHO"


def test_http_error_names_url_and_status() -> None:
    with ScriptedChatServer(["x"], status=401) as server:
        client = ChatClient(server.url, "m", timeout_s=5, retries=0)
        with pytest.raises(LLMError, match="HTTP 401") as err:
            client.complete([{"role": "user", "content": "hi"}])
        assert server.url in str(err.value)


def test_unreachable_server_is_a_clear_error() -> None:
    client = ChatClient("http://127.0.0.1:9/v1", "m", timeout_s=2, retries=0)
    with pytest.raises(LLMError, match="cannot reach"):
        client.complete([{"role": "user", "content": "hi"}])


def test_config_requires_base_url_and_model() -> None:
    with pytest.raises(LLMError, match="base_url"):
        ChatClient.from_config({"model": "m"})
