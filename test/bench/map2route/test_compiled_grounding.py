"""Table III's Schema and Direct ID grounders: reply parsing, compilation, and a repair round
over real HTTP, checked against the two-room house by hand."""

from __future__ import annotations

import json
import re

import pytest

from map2route.bench.map2route.compiled_grounding import (
    CompiledGrounder,
    ReplyError,
    compile_reply,
    map_listing,
    parse_reply,
)
from map2route.bench.map2route.grounding_eval import stage_descriptors
from map2route.grounding.errors import GroundingError
from map2route.grounding.grounder import Executor
from map2route.llm import ChatClient
from map2route.llm.testing import ScriptedChatServer
from map2route.routeir import ConstraintKind


@pytest.fixture(scope="module")
def runner():
    """One warm sandbox worker for these tests."""
    from map2route.grounding.sandbox import SandboxRunner

    with SandboxRunner() as r:
        yield r


def test_parse_reply_finds_the_object_and_names_what_is_wrong() -> None:
    assert parse_reply('Sure!\n```json\n{"stages": ["o:bed_0"]}\n```')["stages"] == ["o:bed_0"]
    with pytest.raises(ReplyError, match="no JSON object"):
        parse_reply("go to the bed")
    with pytest.raises(ReplyError, match="not valid JSON"):
        parse_reply('{"stages": [o:bed_0]}')
    with pytest.raises(ReplyError, match='"stages" must be a non-empty list'):
        parse_reply('{"stages": []}')
    with pytest.raises(ReplyError, match='"relative" entry must be a list of two'):
        parse_reply('{"stages": ["o:a"], "relative": [["o:a"]]}')


def test_schema_compiles_to_the_api() -> None:
    prog = compile_reply({"stages": [{"category": "chair", "room": "bedroom",
                                      "nearest_to": {"category": "bed"}}],
                          "avoid": [{"room": "kitchen"}], "far": [{"category": "window"}]},
                         "schema")
    assert prog.splitlines() == [
        "n0 = unique(rooms('bedroom'), 'the bedroom')",
        "n1 = entities('chair', room=n0)",
        "n2 = entities('bed')",
        "n3 = unique(n2, 'the bed')",
        "n4 = kth_nearest(n1, n3, 1)",
        "n5 = unique(rooms('kitchen'), 'the kitchen')",
        "n6 = entities('window')",
        "n7 = unique(n6, 'the window')",
        "task([segment(n4)], [avoid(n5), constraint('far', n7)])",
    ]
    with pytest.raises(ReplyError, match="unknown node key"):
        compile_reply({"stages": [{"category": "bed", "colour": "red"}]}, "schema")
    with pytest.raises(ReplyError, match="ids look like o:ID"):
        compile_reply({"stages": ["bed_0"]}, "direct_id")


def test_direct_id_listing_and_grounding(two_room_map, runner) -> None:
    listing = map_listing(two_room_map, (1.0, 1.0))
    assert "o:chair_1 chair in r:0" in listing and "w:window_2 window of r:1" in listing
    assert listing.endswith("The robot starts in r:0.")
    reply = json.dumps({"stages": ["o:chair_1", "o:fridge_0"], "avoid": [],
                        "near": ["o:bed_0"], "relative": [["o:chair_2", "w:window_2"]]})
    with ScriptedChatServer([reply]) as server:
        g = CompiledGrounder(ChatClient(server.url, "m"), mode="direct_id", rounds=1,
                         temperature=0.0, max_tokens=100, executor=Executor("process", runner))
        out = g.ground("go to the chair by the door, then the fridge", two_room_map, (1.0, 1.0))
        assert "o:bed_0 bed in r:0" in server.requests[0]["messages"][1]["content"]
    assert stage_descriptors(out.routeir) == ["chair_1", "fridge_0"]
    kinds = [c.kind for c in out.routeir.constraints]
    assert kinds == [ConstraintKind.NEAR, ConstraintKind.RELATIVE]


def test_bad_replies_are_repaired_then_refused(two_room_map, runner) -> None:
    with ScriptedChatServer(["no json here", '{"stages": ["o:sofa_9"]}',
                             '{"stages": [{"category": "bed"}]}']) as server:
        g = CompiledGrounder(ChatClient(server.url, "m"), mode="schema", rounds=2, temperature=0.0,
                         max_tokens=100, executor=Executor("process", runner))
        out = g.ground("go to the bed", two_room_map, (4.0, 1.0))
        assert out.repairs == 2 and stage_descriptors(out.routeir) == ["bed_0"]
        second = server.requests[1]["messages"][-1]["content"]
        assert "bad_reply" in second and "no JSON object" in second
        third = server.requests[2]["messages"][-1]["content"]
        assert "a node must be an object" in third
    with ScriptedChatServer(['{"stages": ["o:nope"]}']) as server:
        g = CompiledGrounder(ChatClient(server.url, "m"), mode="direct_id", rounds=1,
                         temperature=0.0, max_tokens=100, executor=Executor("process", runner))
        with pytest.raises(GroundingError, match="after 2 attempt"):
            g.ground("go to the bed", two_room_map, (4.0, 1.0))


def test_ltl_fragment_compiles_to_legs_and_avoids() -> None:
    from map2route.bench.map2route.ltl import LTLError, compile_ltl_program, parse_ltl

    spec = parse_ltl("F(chair & F fridge) & G !bathroom")
    assert (spec.visits, spec.avoid) == (["chair", "fridge"], ["bathroom"])
    assert parse_ltl("F a & F b").visits == ["a", "b"]
    assert parse_ltl("F(Fa)").visits == ["Fa"]  # a name that starts with F is a name
    for bad, why in (("G a", "expected !"), ("F a | F b", "unexpected '|'"),
                     ("G !a", "visits nothing"), ("F (a", "expected )")):
        with pytest.raises(LTLError, match=re.escape(why)):
            parse_ltl(bad)
    prog = "a = unique(entities('bed'), 'the bed')\nltl(\"F a\")\n"
    assert compile_ltl_program(prog).splitlines()[-1] == "task([segment(a)], [])"
    with pytest.raises(LTLError, match="must end with one ltl"):
        compile_ltl_program("a = 1\ntask([])\n")


def test_ltl_grounder_over_http(two_room_map, runner) -> None:
    reply = ("```python\nbed = unique(entities('bed'), 'the bed')\n"
             "kitchen = unique(rooms('kitchen'), 'the kitchen')\n"
             "chair = kth_nearest(entities('chair'), bed, 1)\n"
             'ltl("F(bed & F chair) & G !kitchen")\n```')
    with ScriptedChatServer(["```python\ntask([])\n```", reply]) as server:
        g = CompiledGrounder(ChatClient(server.url, "m"), mode="ltl", rounds=1, temperature=0.0,
                             max_tokens=100, executor=Executor("process", runner))
        out = g.ground("visit the bed then the chair nearest it, never entering the kitchen",
                       two_room_map, (1.0, 1.0))
        assert "ltl(" in server.requests[0]["messages"][0]["content"]
        assert "must end with one ltl" in server.requests[1]["messages"][-1]["content"]
    assert stage_descriptors(out.routeir) == ["bed_0", "chair_0"]
    assert [c.kind for c in out.routeir.constraints] == [ConstraintKind.MUST_AVOID]
