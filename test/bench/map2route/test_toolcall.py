"""Table III's ToolCall grounder: JSON calls checked and run one at a time, then the sandbox
and the verifier judge the task; over real HTTP to a scripted server on the two-room house."""

from __future__ import annotations

import json

import pytest

from map2route.bench.map2route.compiled_grounding import ReplyError
from map2route.bench.map2route.grounding_eval import stage_descriptors
from map2route.bench.map2route.toolcall import ToolCallGrounder, ToolSession
from map2route.grounding.errors import GroundingError
from map2route.grounding.grounder import Executor
from map2route.llm import ChatClient
from map2route.llm.testing import ScriptedChatServer


@pytest.fixture(scope="module")
def runner():
    from map2route.grounding.sandbox import SandboxRunner

    with SandboxRunner() as r:
        yield r


def _c(call, *args, as_=None, **kwargs):
    data = {"call": call, "args": list(args), "kwargs": kwargs}
    if as_:
        data["as"] = as_
    return json.dumps(data)


def test_calls_are_checked_and_answered(two_room_map) -> None:
    s = ToolSession(two_room_map, (1.0, 1.0))
    assert s.call(json.loads(_c("entities", "chair", as_="chairs"))).startswith("chairs = [")
    assert s.lines == ["chairs = entities('chair')"]
    out = s.call(json.loads(_c("unique", "$chairs", "the chair", as_="chair")))
    assert out.startswith("Error: ") and "matches 3 entities" in out
    assert s.lines == ["chairs = entities('chair')"]  # a failed call is not kept
    for bad, why in ((_c("open", "/etc/passwd"), "unknown function 'open'"),
                     (_c("entities", "$nope"), "not an earlier result"),
                     (_c("circle", "$chairs", laps=10**9), "out of range"),
                     (_c("entities", "bed", as_="__class__"), "new variable name")):
        with pytest.raises(ReplyError, match=why):
            s.call(json.loads(bad))


def test_a_round_of_calls_then_a_repair(two_room_map, runner) -> None:
    replies = [_c("entities", "chair", as_="chairs"),
               _c("choose_any", "$chairs", as_="chair"),
               json.dumps({"call": "task", "args": [[], []]}),  # no leg: fails verification
               "not json",
               _c("entities", "bed", as_="beds"),
               _c("unique", "$beds", "the bed", as_="bed"),
               _c("segment", "$bed", as_="leg2"),
               json.dumps({"call": "task", "args": [["$leg2"], []]})]
    with ScriptedChatServer(replies) as server:
        g = ToolCallGrounder(ChatClient(server.url, "m"), rounds=1, temperature=0.0,
                             max_tokens=100, executor=Executor("process", runner))
        out = g.ground("go to the bed", two_room_map, (4.0, 1.0))
        assert len(server.requests) == 8
        assert "chairs = [" in server.requests[1]["messages"][-1]["content"]
        assert "failed verification" in server.requests[3]["messages"][-1]["content"]
        assert "Error: the reply holds no JSON" in server.requests[4]["messages"][-1]["content"]
    assert stage_descriptors(out.routeir) == ["bed_0"]
    assert out.program.splitlines()[-1] == "task([leg2], [])"


def test_no_task_within_the_step_budget_is_refused(two_room_map, runner) -> None:
    with ScriptedChatServer([_c("rooms", as_="r")]) as server:
        g = ToolCallGrounder(ChatClient(server.url, "m"), rounds=0, temperature=0.0,
                             max_tokens=100, executor=Executor("process", runner))
        with pytest.raises(GroundingError, match="no task call within 16 calls"):
            g.ground("go to the bed", two_room_map, (4.0, 1.0))
        assert len(server.requests) == 16
