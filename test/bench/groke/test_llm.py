"""``bench groke --agent llm --config``: GROKE's LLM navigator on the LLM machinery, over real
HTTP against the scripted local server (cache, usage tokens, cost, transcripts, concurrency)."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import yaml

from map2route.bench.groke.llm import GrokeLLMConfig, estimate_run
from map2route.bench.groke.run import transcript_path
from map2route.cli import main
from map2route.language.directions import decompose
from map2route.llm.testing import ScriptedChatServer
from map2route.streets.loaders import load_instances, load_touchdown

ROUTE = [f"x{x}y50" for x in range(0, 101, 10)] + ["x100y60", "x100y70", "x100y80"]
TEXT = "Go to the light and turn left. Stop at the Starbucks."
VERBS = ("Go", "Walk", "Head", "Proceed")  # distinct prompts: no instance replays another's


def _instances(n: int = 1) -> list[dict]:
    return [{"route": {"pano_path": ROUTE, "osm_path": ROUTE, "initial_heading": 90},
             "instructions": TEXT.replace("Go", VERBS[k]), "instructions_id": 100 + k}
            for k in range(n)]


def _reply(body: dict) -> str:
    """GROKE's two agents, scripted: two sub-goals, then the node to go to for each."""
    if body["messages"][0]["content"].startswith("Split"):
        return json.dumps([{"action": "TURN_LEFT", "description": "turn left at the light"},
                           {"action": "STOP", "description": "stop at the Starbucks"}])
    user = json.loads(body["messages"][1]["content"])
    here = user["local_view"]["current_position"]["node"]
    target = "x100y60" if here == "x0y50" else "x100y80"
    return json.dumps({"status": "COMPLETED", "next_node": target, "reason": "scripted"})


def _config(tmp_path: Path, url: str, **llm: object) -> Path:
    block = {"base_url": url, "model": "scripted", "retries": 0, "timeout_s": 20,
             "concurrency": 2, "price_per_1k_prompt": 0.5, "price_per_1k_completion": 1.5,
             "cache_dir": str(tmp_path / "cache"), **llm}
    path = tmp_path / "groke_llm.yaml"
    path.write_text(yaml.safe_dump({"llm": block, "navigator": {"subgoals": "llm"}}))
    return path


def _run(folder: Path, cfg: Path, out: Path, capsys) -> tuple[int, dict | None, str]:
    rc = main(["bench", "groke", "--agent", "llm", "--config", str(cfg), "--data", str(folder),
               "--out", str(out), "--json"])
    cap = capsys.readouterr()
    return rc, (json.loads(cap.out) if rc == 0 else None), cap.err


def test_llm_navigator_rows_tokens_cost_transcripts_and_a_free_rerun(city_folder, tmp_path,
                                                                    capsys) -> None:
    folder = city_folder(_instances(2))
    with ScriptedChatServer(_reply) as server:
        cfg = _config(tmp_path, server.url)
        rc, summary, err = _run(folder, cfg, tmp_path / "out", capsys)
        assert rc == 0, err
        sent = len(server.requests)
        assert sent == 6  # per instruction: one decomposition + two navigator steps
        assert "estimate for 2 instructions on scripted" in err
        assert summary["all"]["sr"] == 1.0
        usage = summary["llm_usage"]
        assert usage["model"] == "scripted" and usage["llm_calls"] == 6
        assert usage["cache_hits"] == 0 and usage["usage_estimated"] is False
        # Tokens come from the server's usage block (one per four characters sent).
        chars = sum(len(m["content"]) for r in server.requests for m in r["messages"])
        assert usage["prompt_tokens"] == sum(
            sum(len(m["content"]) for m in r["messages"]) // 4 for r in server.requests)
        assert 0 < usage["prompt_tokens"] <= chars // 4
        expected = (usage["prompt_tokens"] * 0.5 + usage["completion_tokens"] * 1.5) / 1000
        assert abs(usage["cost_usd"] - expected) < 1e-5 and usage["spent_usd"] == usage["cost_usd"]
        rows = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text()
                .splitlines()]
        assert [r["llm_usage"]["llm_calls"] for r in rows] == [3, 3]
        assert all(r["llm_usage"]["llm_latency_s"] > 0 for r in rows)
        t = json.loads(transcript_path(tmp_path / "out", "100").read_text())
        assert t["model"] == "scripted" and len(t["exchanges"]) == 3
        assert t["exchanges"][0]["prompt"] == TEXT
        first_step = json.loads(t["exchanges"][1]["prompt"])
        assert first_step["current_sub_goal"] == "TURN_LEFT: turn left at the light"
        assert {"path_nodes", "pois", "current_heading"} <= set(first_step["local_view"])

        # The rerun is answered from the cache: no request reaches the server.
        rc, again, err = _run(folder, cfg, tmp_path / "out2", capsys)
        assert rc == 0, err
        assert len(server.requests) == sent
        assert again["llm_usage"]["cache_hits"] == again["llm_usage"]["llm_calls"] == 6
        assert again["llm_usage"]["spent_usd"] == 0.0
        assert again["all"]["sr"] == 1.0


def test_the_navigator_prompt_names_the_mentioned_landmarks(city_folder, tmp_path,
                                                           capsys) -> None:
    folder = city_folder(_instances())
    with ScriptedChatServer(_reply) as server:
        cfg = _config(tmp_path, server.url)
        assert _run(folder, cfg, tmp_path / "out", capsys)[0] == 0
        # The second navigator step looks north along x=100, where the Starbucks is.
        last = json.loads(server.requests[-1]["messages"][1]["content"])
    mentioned = last["landmarks_mentioned"]
    assert mentioned and mentioned[0]["name"] == "Starbucks (cafe)"
    assert mentioned[0]["named_in"] == "current_sub_goal" and mentioned[0]["match"] >= 80


def test_requests_in_flight_stay_within_concurrency(city_folder, tmp_path, capsys) -> None:
    folder = city_folder(_instances(4))
    lock = threading.Lock()
    state = {"now": 0, "peak": 0}

    def slow(body: dict) -> str:
        with lock:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
        time.sleep(0.05)
        with lock:
            state["now"] -= 1
        return _reply(body)

    with ScriptedChatServer(slow) as server:
        cfg = _config(tmp_path, server.url, concurrency=2)
        rc, summary, err = _run(folder, cfg, tmp_path / "out", capsys)
    assert rc == 0, err
    assert summary["all"]["n"] == 4 and summary["llm_usage"]["llm_calls"] == 12
    assert 1 <= state["peak"] <= 2


def test_offline_subgoals_skip_the_decomposition_call(city_folder, tmp_path, capsys) -> None:
    folder = city_folder(_instances())
    with ScriptedChatServer(_reply) as server:
        cfg = _config(tmp_path, server.url)
        data = yaml.safe_load(cfg.read_text())
        data["navigator"]["subgoals"] = "offline"
        cfg.write_text(yaml.safe_dump(data))
        rc, summary, err = _run(folder, cfg, tmp_path / "out", capsys)
        assert rc == 0, err
        assert not any(r["messages"][0]["content"].startswith("Split") for r in server.requests)
        first = json.loads(server.requests[0]["messages"][1]["content"])
        assert first["sub_goals"][-1].startswith("STOP")


def test_a_failing_endpoint_stops_the_run_with_one_line(city_folder, tmp_path, capsys) -> None:
    folder = city_folder(_instances())
    with ScriptedChatServer(_reply, status=503) as server:
        cfg = _config(tmp_path, server.url)
        rc, _, err = _run(folder, cfg, tmp_path / "out", capsys)
    assert rc == 1
    assert "rerun the same command" in err and "Traceback" not in err


def test_config_errors_are_one_line(tmp_path, capsys, city_folder) -> None:
    folder = city_folder(_instances())
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({"llm": {"base_url": "http://127.0.0.1:9/v1", "model": "m"},
                                   "navigator": {"depth": 3}}))
    assert main(["bench", "groke", "--agent", "llm", "--config", str(bad), "--data",
                 str(folder)]) == 1
    err = capsys.readouterr().err
    assert "unknown navigator key(s) 'depth'" in err and "view_depth" in err
    bad.write_text(yaml.safe_dump({"llm": {"model": "m"}}))
    assert main(["bench", "groke", "--agent", "llm", "--config", str(bad), "--data",
                 str(folder)]) == 1
    assert "needs llm.base_url and llm.model" in capsys.readouterr().err


def test_the_estimate_uses_each_instances_first_prompt(city_folder, tmp_path) -> None:
    folder = city_folder(_instances(3))
    graph = load_touchdown(folder)
    instances = load_instances(folder, "val", graph=graph)
    cfg = GrokeLLMConfig.from_dict({"llm": {"base_url": "http://127.0.0.1:9/v1", "model": "m",
                                            "price_per_1k_prompt": 1.0}})
    e = estimate_run(graph, instances, cfg)
    # One decomposition + two navigator calls per offline sub-goal, for each instruction.
    goals = len(decompose(TEXT))
    assert e["calls"] == 3 * (1 + 2 * goals) and e["estimated"]
    assert e["prompt_tokens"] > 3 * 2 * goals * 200  # a local view is hundreds of tokens
    assert abs(e["cost_usd"] - e["prompt_tokens"] / 1000) < 1e-3
