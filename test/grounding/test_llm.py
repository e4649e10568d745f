"""The LLM grounder over real HTTP against a scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import pytest

from map2route.bench.map2route.grounding_eval import stage_descriptors
from map2route.grounding.errors import GroundingError
from map2route.grounding.grounder import Executor, LLMGrounder, extract_program, system_prompt
from map2route.llm import ChatClient
from map2route.llm.testing import ScriptedChatServer

WRONG = "```python\ntask([segment(unique(entities('chair'), 'the chair'))])\n```"
RIGHT = ("Here you go:\n```python\nbed = unique(entities('bed'), 'the bed')\n"
         "chair = kth_nearest(entities('chair'), bed, 1)\ntask([segment(chair)])\n```")


def test_repair_round_over_http(two_room_map, runner):
    with ScriptedChatServer([WRONG, RIGHT]) as server:
        g = LLMGrounder(ChatClient(server.url, "test-model"),
                        executor=Executor("process", runner))
        out = g.ground("go to the chair nearest to the bed", two_room_map, (4.0, 1.0))
        assert stage_descriptors(out.routeir) == ["chair_0"]
        assert out.repairs == 1
        first, second = server.requests
        assert first["model"] == "test-model"
        assert "kth_nearest(items" in first["messages"][0]["content"]  # API docs in the prompt
        feedback = second["messages"][-1]["content"]
        assert "ambiguous_reference" in feedback and "chair chair_2 in the kitchen" in feedback


def test_hostile_reply_is_contained(two_room_map, runner):
    evil = "```python\nimport os\nos.system('touch /tmp/pwned')\n```"
    with ScriptedChatServer([evil]) as server:
        g = LLMGrounder(ChatClient(server.url, "m"), rounds=1,
                        executor=Executor("process", runner))
        with pytest.raises(GroundingError) as err:
            g.ground("go to the bed", two_room_map, (1.0, 1.0))
        assert "forbidden_syntax" in str(err.value)
        assert len(server.requests) == 2


def test_prompt_and_reply_parsing():
    prompt = system_prompt()
    for section in ("Scene and room queries", "Route construction", "Worked examples"):
        assert section in prompt
    assert extract_program("no fence\n") == "no fence\n"
    assert extract_program("x\n```py\na = 1\n```\n") == "a = 1\n"
