"""Grounding2Route with an LLM on the benchmark, over real HTTP to a scripted local server.

The scripted "model" answers each instruction with the program the offline parser writes for
it, so the LLM path must score exactly what ``g2r`` offline scores; what is under test is the
plumbing: config, rows, tokens, cost, the cache (a rerun sends no request), transcripts and the
Table III variants.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
import yaml

from map2route.bench.map2route.llm_methods import LLMGrounding2Route, globalize, transcript_path
from map2route.bench.map2route.run import RunSpec, read_results, run_benchmark
from map2route.bench.registry import make_method
from map2route.cli import main
from map2route.grounding import parse_instruction, write_program
from map2route.llm.testing import ScriptedChatServer


def parser_model(body):
    """Reply with the offline parser's program for the instruction in the first user message."""
    user = body["messages"][1]["content"]
    instruction = re.search(r"Instruction: (.*)$", user, re.S).group(1).strip()
    return f"```python\n{write_program(parse_instruction(instruction))}```"


def _config(tmp_path, url, **llm):
    cfg = {"grounder": "llm", "repair_rounds": 2,
           "sandbox": {"cpu_s": 2.0, "wall_s": 10.0, "memory_mb": 512},
           "llm": {"base_url": url, "model": "scripted-7b", "timeout_s": 10, "retries": 0,
                   "concurrency": 2, "price_per_1k_prompt": 1.0,
                   "price_per_1k_completion": 4.0, "cache_dir": str(tmp_path / "cache"), **llm}}
    path = tmp_path / "grounding.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return str(path)


def _cli(tmp_path, cfg, scenes, episodes, out, *extra):
    return main(["bench", "map2route", "--method", "g2r", "--config", cfg, "--episodes",
                 str(episodes), "--scenes", str(scenes), "--out", str(tmp_path / out),
                 "--json", *extra])


def test_g2r_llm_rows_tokens_cost_and_zero_calls_on_rerun(
        tmp_path, two_room_scene, two_room_episodes, capsys) -> None:
    with ScriptedChatServer(parser_model) as server:
        cfg = _config(tmp_path, server.url)
        assert _cli(tmp_path, cfg, two_room_scene, two_room_episodes, "a") == 0
        first = json.loads(capsys.readouterr().out)
        sent = len(server.requests)
        rows = read_results(tmp_path / "a" / "results.jsonl")
        # A fresh results folder over the same cache, then the finished folder again.
        assert _cli(tmp_path, cfg, two_room_scene, two_room_episodes, "b") == 0
        second = json.loads(capsys.readouterr().out)
        assert _cli(tmp_path, cfg, two_room_scene, two_room_episodes, "a") == 0
        assert len(server.requests) == sent  # neither rerun sent a request
    assert first["method"] == "g2r-llm" and len(rows) == 6 and sent >= 6
    for r in rows:
        assert (r["method"], r["grounder"], r["model"]) == ("g2r-llm", "llm", "scripted-7b")
        assert r["llm_calls"] >= 1 and r["prompt_tokens"] > 1000 and r["completion_tokens"] > 0
        assert r["cost_usd"] == pytest.approx(
            (r["prompt_tokens"] * 1.0 + r["completion_tokens"] * 4.0) / 1000, abs=1e-6)
        assert r["llm_latency_s"] > 0 and "transcript" not in r
        t = json.loads(transcript_path(tmp_path / "a", r["episode_id"]).read_text())
        assert t["instruction"] and len(t["exchanges"]) == r["llm_calls"]
        assert "task(" in t["exchanges"][0]["program"] and t["outcome"] == "accepted"
    assert first["llm"]["llm_calls"] == sent and first["llm"]["cache_hits"] == 0
    assert second["llm"]["cache_hits"] == second["llm"]["llm_calls"] == sent
    assert second["llm"]["spent_usd"] == 0 and second["llm"]["cost_usd"] == first["llm"]["cost_usd"]
    assert second["metrics"] == first["metrics"]
    assert json.loads((tmp_path / "a" / "run.json").read_text())["options"] == {
        "grounding_config": cfg}


def test_llm_scores_what_the_offline_grounder_scores(tmp_path, two_room_scene, two_room_episodes):
    with ScriptedChatServer(parser_model) as server:
        cfg = _config(tmp_path, server.url)
        llm = run_benchmark(RunSpec("g2r", two_room_episodes, two_room_scene,
                                    options={"grounding_config": cfg}), tmp_path / "llm",
                            workers=1, progress=False)
    off = run_benchmark(RunSpec("g2r", two_room_episodes, two_room_scene,
                                options={"grounder": "offline"}), tmp_path / "off",
                        workers=1, progress=False)
    assert {r["method"] for r in off} == {"g2r"} and {r["grounder"] for r in off} == {"offline"}
    assert [r["hcs"] for r in llm] == [r["hcs"] for r in off]
    assert sum(r["hcs"] for r in llm) >= 4


def test_repair_prompt_and_refusal_are_in_the_transcript(tmp_path, two_room_scene,
                                                          two_room_episodes) -> None:
    bad = "```python\nimport os\nos.system('echo pwned')\n```"
    with ScriptedChatServer([bad]) as server:
        cfg = _config(tmp_path, server.url)
        rows = run_benchmark(RunSpec("g2r", two_room_episodes, two_room_scene,
                                     options={"grounding_config": cfg}), tmp_path / "r",
                             limit=1, workers=1, progress=False)
        assert len(server.requests) == 3  # R = 2: the first program and two repairs
    (row,) = rows
    assert row["error"].startswith("grounding: could not ground") and not row["crashed"]
    assert row["hcs"] == 0.0 and row["llm_calls"] == 3
    t = json.loads(transcript_path(tmp_path / "r", row["episode_id"]).read_text())
    assert t["outcome"] == "refused" and len(t["exchanges"]) == 3
    assert "forbidden_syntax" in t["exchanges"][1]["prompt"]  # the repair prompt
    assert t["exchanges"][0]["program"].startswith("import os")
    assert any("forbidden_syntax" in i for i in t["final_issues"])


def test_table3_variants_replay_the_cache(tmp_path, two_room_scene, two_room_episodes) -> None:
    with ScriptedChatServer(parser_model) as server:
        cfg = _config(tmp_path, server.url)
        base = run_benchmark(RunSpec("g2r-llm", two_room_episodes, two_room_scene,
                                     options={"grounding_config": cfg}), tmp_path / "full",
                             workers=1, progress=False)
        sent = len(server.requests)
        for name in ("g2r-llm-global-ts", "g2r-llm-hard-only", "g2r-llm-r0"):
            rows = run_benchmark(RunSpec(name, two_room_episodes, two_room_scene,
                                         options={"grounding_config": cfg}), tmp_path / name,
                                 workers=1, progress=False)
            assert {r["method"] for r in rows} == {name}
            assert [r["success"] for r in rows] == [r["success"] for r in base]
        assert len(server.requests) == sent
    meth = make_method("g2r-llm-r1", grounding_config=cfg)
    assert isinstance(meth, LLMGrounding2Route) and meth.columns() == ("CaG", "RouteIR", "1", "Full")
    assert make_method("g2r-llm-global-s", grounding_config=cfg).columns()[3] == "Global-S"


def test_globalize_drops_only_soft_scopes(two_room_map) -> None:
    from map2route.grounding import OfflineGrounder
    from map2route.routeir import ConstraintKind

    g = OfflineGrounder().ground("go to the bed, then the fridge, avoiding the dining table, "
                                 "staying far from the windows while in the bedroom",
                                 two_room_map, (1.5, 1.5))
    ir = g.routeir
    assert any(c.spatial_scope is not None for c in ir.soft)
    both = globalize(ir, "global-ts")
    assert all(c.spatial_scope is None and c.temporal_scope is None for c in both.soft)
    assert both.must_avoid[0].region is ir.must_avoid[0].region
    assert [c.kind for c in both.constraints] == [c.kind for c in ir.constraints]
    only_t = globalize(ir, "global-t")
    assert [c.spatial_scope for c in only_t.soft] == [c.spatial_scope for c in ir.soft]
    assert ConstraintKind.MUST_AVOID in {c.kind for c in only_t.constraints}


def test_bad_llm_config_is_one_clear_error(tmp_path, capsys) -> None:
    path = tmp_path / "g.yaml"
    # A user file is laid over config/grounding.yaml, so a bad value (not a missing key) is
    # what a user can get wrong here.
    path.write_text(yaml.safe_dump({"grounder": "llm", "llm": {"model": "m",
                                                               "base_url": "ftp://x/v1"}}))
    assert main(["bench", "map2route", "--method", "g2r", "--config", str(path)]) == 1
    assert "base_url must start with http" in capsys.readouterr().err


def test_table3_command_lays_out_the_paper_rows(tmp_path, two_room_scene, two_room_episodes,
                                                capsys) -> None:
    with ScriptedChatServer(parser_model) as server:
        cfg = _config(tmp_path, server.url, price_per_1k_prompt=0.0, price_per_1k_completion=0.0)
        code = main(["bench", "table3", "--config", cfg, "--episodes", str(two_room_episodes),
                     "--scenes", str(two_room_scene), "--out", str(tmp_path / "t3"),
                     "--limit", "2", "--method", "g2r-llm", "--method", "g2r-llm-r0",
                     "--method", "g2r-llm-hard-only"])
        assert code == 0
        assert len(server.requests) == 2  # one per episode; the other rows replay the cache
    out = capsys.readouterr()
    assert "Estimate for 2 episodes: 2-6 calls" in out.err
    lines = (tmp_path / "t3" / "table3.md").read_text().splitlines()
    assert lines[0] == "Table III (Grounding2Route ablations), model `scripted-7b`"
    assert lines[2].startswith("| Grounding | IR | Repair | Soft Cons. | HCS ↑ | Near ↓ |")
    assert lines[4].startswith("| CaG | RouteIR | 2 | Full |")
    assert lines[5].startswith("| CaG | RouteIR | 0 | Full |")
    assert lines[6].startswith("| CaG | RouteIR | 2 | Hard Only |")
    assert "2 requests sent" in out.out
    assert main(["bench", "table3", "--method", "g2r"]) == 1
    assert "not a Table III method: g2r" in capsys.readouterr().err


def test_an_unreachable_endpoint_stops_the_run_and_a_rerun_resumes(
        tmp_path, two_room_scene, two_room_episodes, capsys) -> None:
    with ScriptedChatServer(parser_model) as server:
        dead = server.url  # closed when the block ends: nothing listens there afterwards
    cfg = _config(tmp_path, dead)
    assert _cli(tmp_path, cfg, two_room_scene, two_room_episodes, "down") == 1
    err = capsys.readouterr().err
    assert "\nError: LLM request failed: cannot reach" in err and "rerun the same command" in err
    assert not (tmp_path / "down" / "results.jsonl").exists() or not read_results(
        tmp_path / "down" / "results.jsonl")


def test_a_prompt_over_the_context_fails_only_that_episode(tmp_path, two_room_scene,
                                                           two_room_episodes) -> None:
    with ScriptedChatServer(parser_model) as server:
        cfg = _config(tmp_path, server.url, context_tokens=500)
        rows = run_benchmark(RunSpec("g2r", two_room_episodes, two_room_scene,
                                     options={"grounding_config": cfg}), tmp_path / "ctx",
                             limit=2, workers=1, progress=False)
        assert server.requests == []
    assert len(rows) == 2 and not any(r["crashed"] for r in rows)
    assert all(r["error"].startswith("grounding: the prompt (~") and
               "does not fit the model's context of 500 tokens" in r["error"] for r in rows)


def test_the_configs_grounding_deadline_bounds_an_llm_episode(tmp_path, two_room_scene,
                                                              two_room_episodes) -> None:
    def slow(body):
        time.sleep(2.5)
        return parser_model(body)

    with ScriptedChatServer(slow) as server:
        cfg = _config(tmp_path, server.url)
        data = yaml.safe_load(Path(cfg).read_text())
        Path(cfg).write_text(yaml.safe_dump({**data, "deadline_s": 1}))
        rows = run_benchmark(RunSpec("g2r", two_room_episodes, two_room_scene,
                                     options={"grounding_config": cfg}), tmp_path / "late",
                             limit=1, workers=1, progress=False)
    (row,) = rows
    assert "took longer than deadline_s=1 s" in row["error"] and not row["crashed"]
