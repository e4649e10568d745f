"""The LLM navigator over real HTTP against the scripted local server."""

from __future__ import annotations

import json

import pytest

from map2route.llm import ChatClient
from map2route.llm.testing import ScriptedChatServer
from map2route.streets.errors import StreetError
from map2route.streets.graph import StreetGraph
from map2route.streets.llm_agent import LLMAgent
from map2route.streets.navigator import follow


def test_llm_agent_follows_the_scripted_answers(city: StreetGraph) -> None:
    def reply(body: dict) -> str:
        system = body["messages"][0]["content"]
        if system.startswith("Split"):
            return json.dumps([{"action": "TURN_LEFT", "description": "turn left at the light"},
                               {"action": "STOP", "description": "stop at Starbucks"}])
        view = json.loads(body["messages"][1]["content"])["local_view"]
        here = view["current_position"]["node"]
        if here == "x0y50":
            return json.dumps({"status": "COMPLETED", "next_node": "x100y60"})
        return json.dumps({"status": "COMPLETED", "next_node": "x100y80"})

    with ScriptedChatServer(reply) as server:
        agent = LLMAgent(ChatClient(server.url, "scripted"))
        result = follow(city, "Turn left at the light. Stop at Starbucks.", city.node("x0y50"),
                        90.0, agent)
        assert city.node_ids[result.path[-1]] == "x100y80"
        assert result.stop_reason == "all sub-goals completed"
        assert len(server.requests) == 3  # one decomposition + two navigator steps
        prompt = json.loads(server.requests[1]["messages"][1]["content"])
        assert prompt["current_sub_goal"] == "TURN_LEFT: turn left at the light"
        assert {"path_nodes", "pois"} <= set(prompt["local_view"])


def test_unusable_answers_are_retries(city: StreetGraph) -> None:
    replies = ['[{"action": "STOP", "description": "stop"}]'] + ["no json here"] * 30
    with ScriptedChatServer(replies) as server:
        result = follow(city, "stop", city.node("x0y50"), 90.0,
                        LLMAgent(ChatClient(server.url, "scripted")))
    assert result.stop_reason == "more than 15 retries of sub-goal 1"
    assert result.path == [city.node("x0y50")]


def test_bad_decomposition_names_the_problem(city: StreetGraph) -> None:
    with ScriptedChatServer(["I cannot help"]) as server:
        agent = LLMAgent(ChatClient(server.url, "scripted"))
        with pytest.raises(StreetError, match="not a JSON list"):
            agent.decompose("turn left")


def test_llm_agent_reads_grokes_answer_format_and_counts_usage(city: StreetGraph) -> None:
    def reply(body: dict) -> str:
        if body["messages"][0]["content"].startswith("Split"):
            return json.dumps({"landmarks": ["light"], "sub_goals": [
                {"action": "TURN_LEFT", "description": "turn left at the light"}]})
        return json.dumps({"SubPlan_Status": "COMPLETED",
                           "Next_Place": {"Target_Node_ID": "x100y60"}})

    with ScriptedChatServer(reply) as server:
        agent = LLMAgent(ChatClient(server.url, "scripted"))
        result = follow(city, "Turn left at the light.", city.node("x0y50"), 90.0, agent)
        # TURN_LEFT reaches x100y60; the appended STOP answers x100y60 again (no move).
        assert city.node_ids[result.path[-1]] == "x100y60"
        assert agent.usage.calls == len(server.requests) == 3
        sent = sum(len(m["content"]) for r in server.requests for m in r["messages"])
        assert agent.usage.prompt_chars == sent and agent.usage.reply_chars > 0
