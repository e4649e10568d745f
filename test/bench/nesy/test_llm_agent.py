"""The NeSy-Route LLM agent over real HTTP to a scripted local OpenAI-compatible server.

The scripted "model" answers each request with the vectors our offline parser and the KB give
for the query in it (for Task 2, restricted to the classes the prompt says the image shows),
which are the generated dataset's gold vectors; so the agent must score exactly what the
parser scores. What is under test is the plumbing: the prompt reaching the server, the reply
read and checked, repair rounds, refusals, the official prediction format, rows with tokens
and cost, transcripts and the response cache (a rerun sends no request).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from map2route.bench.nesy.llm_agent import transcript_path
from map2route.bench.nesy.llm_prompt import EXAMPLES, read_reply, system_prompt
from map2route.cli import main
from map2route.execution.results import ResultsFile
from map2route.llm.testing import ScriptedChatServer
from map2route.nesy.dataset import load_samples
from map2route.nesy.kb import derive_vectors
from map2route.nesy.queries import parse_query

PRICE_PROMPT, PRICE_COMPLETION = 1.0, 4.0


def _request(body: dict) -> tuple[str, frozenset[int] | None]:
    """The query and the image's classes from the first user message of a request."""
    user = body["messages"][1]["content"]
    m = re.match(r"Request: (.*?)(?:\n\nThe map shows only these classes: (.*?)\. Every|$)",
                 user, re.S)
    assert m is not None, user
    present = None if m.group(2) is None else frozenset(
        int(x) for x in re.findall(r"\((\d)\)", m.group(2)))
    return m.group(1), present


def oracle_reply(body: dict) -> str:
    query, present = _request(body)
    p = parse_query(query)
    v = derive_vectors(p.agent, p.objective, p.allowed, present=present, excluded=p.excluded)
    return json.dumps({"traverse_vector": list(v.trav), "cost_vector": list(v.pref)})


def _config(tmp_path: Path, url: str, **llm: object) -> str:
    cfg = {"repair_rounds": 2,
           "llm": {"base_url": url, "model": "scripted-7b", "timeout_s": 10, "retries": 0,
                   "concurrency": 2, "price_per_1k_prompt": PRICE_PROMPT,
                   "price_per_1k_completion": PRICE_COMPLETION,
                   "cache_dir": str(tmp_path / "cache"), **llm}}
    path = tmp_path / "llm.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return str(path)


def _run(data: Path, task: int, cfg: str, out: Path, *extra: str) -> int:
    return main(["nesy", "eval", "--task", str(task), "--data", str(data), "--agent", "llm",
                 "--config", cfg, "--out", str(out), "--json", *extra])


def _rows(out: Path) -> list[dict]:
    return ResultsFile(out / "results.jsonl", key=lambda r: r["sample_id"]).rows()


@pytest.mark.parametrize("task", [1, 2, 3])
def test_right_answers_are_scored_with_tokens_cost_and_no_calls_on_rerun(
        nesy_dataset: Path, tmp_path: Path, task: int, capsys: pytest.CaptureFixture[str]) -> None:
    n = len(load_samples(nesy_dataset, task))
    with ScriptedChatServer(oracle_reply) as server:
        cfg = _config(tmp_path, server.url)
        assert _run(nesy_dataset, task, cfg, tmp_path / "a") == 0
        captured = capsys.readouterr()
        first = json.loads(captured.out)
        assert f"Estimate for {n} samples" in captured.err
        sent = len(server.requests)
        # A fresh run folder over the same cache, then the finished folder again.
        assert _run(nesy_dataset, task, cfg, tmp_path / "b") == 0
        second = json.loads(capsys.readouterr().out)
        assert _run(nesy_dataset, task, cfg, tmp_path / "a") == 0
        third = json.loads(capsys.readouterr().out)
        assert len(server.requests) == sent == n  # neither rerun sent a request
    body = server.requests[0]
    assert body["model"] == "scripted-7b" and body["messages"][0]["role"] == "system"
    avg = first["metrics"]["all" if task == 1 else "avg"]
    if task == 3:
        assert avg["AR"] == 100.0 and avg["CR"] == 1.0
    else:
        assert avg["TM"] == 100.0 and avg.get("FM", 100.0) == 100.0
        if task == 2:
            assert avg["RM"] == 100.0
    assert first["missing_predictions"] == 0 and first["method"] == "llm"
    rows = _rows(tmp_path / "a")
    assert len(rows) == n
    for r in rows:
        assert (r["agent"], r["model"], r["outcome"], r["task"]) == ("llm", "scripted-7b",
                                                                     "accepted", task)
        assert r["llm_calls"] == 1 and r["cache_hits"] == 0 and r["repairs"] == 0
        assert r["prompt_tokens"] > 500 and r["completion_tokens"] > 10
        assert r["cost_usd"] == pytest.approx(
            (r["prompt_tokens"] * PRICE_PROMPT + r["completion_tokens"] * PRICE_COMPLETION) / 1000,
            abs=1e-6)
        assert r["llm_latency_s"] > 0 and not r["usage_estimated"]
        t = json.loads(transcript_path(tmp_path / "a", r["sample_id"]).read_text())
        assert t["query"] and len(t["exchanges"]) == 1 and t["outcome"] == "accepted"
        assert (t["image_classes"] is not None) == (task == 2)
    assert first["llm"]["llm_calls"] == n and first["llm"]["cache_hits"] == 0
    assert first["llm"]["accepted"] == n and first["llm"]["refused"] == 0
    assert second["llm"]["cache_hits"] == second["llm"]["llm_calls"] == n
    assert second["llm"]["spent_usd"] == 0 and second["llm"]["cost_usd"] == first["llm"]["cost_usd"]
    assert second["metrics"] == first["metrics"] == third["metrics"]
    # The official prediction format, exactly.
    preds = [json.loads(line) for line in (tmp_path / "a" / "predictions.jsonl").open()]
    keys = {1: {"query_id", "traverse_vector", "cost_vector"},
            2: {"sample_id", "traverse_vector", "cost_vector", "region_vector"},
            3: {"sample_id", "trajectory", "traverse_vector", "cost_vector"}}[task]
    assert all(set(p) == keys for p in preds) and len(preds) == n
    if task == 3:
        assert all(isinstance(x, int) for p in preds for pt in p["trajectory"] for x in pt)


def test_bad_json_is_repaired(nesy_dataset: Path, tmp_path: Path,
                              capsys: pytest.CaptureFixture[str]) -> None:
    def broken_first(body: dict) -> str:
        if len(body["messages"]) == 2:  # the first request: a truncated JSON object
            return '```json\n{"traverse_vector": [0, 0, 1, 1, 0, 0, 0, 0], "cost_vector": [0, 0,\n```'
        assert "could not be used" in body["messages"][-1]["content"]
        return "Here it is: " + oracle_reply(body)

    with ScriptedChatServer(broken_first) as server:
        assert _run(nesy_dataset, 1, _config(tmp_path, server.url), tmp_path / "r") == 0
    result = json.loads(capsys.readouterr().out)
    assert result["metrics"]["all"]["TM"] == 100.0 and result["missing_predictions"] == 0
    for r in _rows(tmp_path / "r"):
        assert (r["outcome"], r["repairs"], r["llm_calls"]) == ("accepted", 1, 2)
        t = json.loads(transcript_path(tmp_path / "r", r["sample_id"]).read_text())
        assert "does not parse" in t["exchanges"][0]["issues"][0]
        assert "could not be used" in t["exchanges"][1]["prompt"]
        assert t["exchanges"][1]["issues"] == []


def test_refusal_after_the_repair_rounds_is_clear(nesy_dataset: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    refused_query = load_samples(nesy_dataset, 1)[0]["query"]

    def refuse_one(body: dict) -> str:
        if _request(body)[0] == refused_query:
            return "I'm sorry, I cannot help with route planning."
        return oracle_reply(body)

    with ScriptedChatServer(refuse_one) as server:
        assert _run(nesy_dataset, 1, _config(tmp_path, server.url), tmp_path / "x") == 0
        captured = capsys.readouterr()
        result = json.loads(captured.out)
        assert result["missing_predictions"] == 1 and result["metrics"]["all"]["TM"] == 100.0
        assert result["llm"]["refused"] == 1
        refused = [r for r in _rows(tmp_path / "x") if r["outcome"] == "refused"]
        assert len(refused) == 1 and refused[0]["llm_calls"] == 3 and refused[0]["repairs"] == 2
        assert refused[0]["error"] == ("refused: no usable vectors in 3 replies (2 repair "
                                       "round(s)); last reply: no JSON object found in the reply")
        preds = [json.loads(line) for line in (tmp_path / "x" / "predictions.jsonl").open()]
        assert {"query_id": refused[0]["sample_id"], "success": False,
                "error": refused[0]["error"]} in preds
        # The table view says what happened to the refused sample.
        assert main(["nesy", "eval", "--task", "1", "--data", str(nesy_dataset), "--agent",
                     "llm", "--config", _config(tmp_path, server.url), "--out",
                     str(tmp_path / "x")]) == 0
        assert "1 samples refused after the repair rounds" in capsys.readouterr().out

    def refuse_all(body: dict) -> str:
        return "no"

    with ScriptedChatServer(refuse_all) as server:
        cfg = _config(tmp_path, server.url, model="refuser")
        assert _run(nesy_dataset, 2, cfg, tmp_path / "none", "--limit", "2") == 1
    err = capsys.readouterr().err
    assert "answered none of the 2 samples" in err and "Traceback" not in err


def test_task3_refusal_is_an_empty_trajectory(nesy_dataset: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    with ScriptedChatServer(['{"traverse_vector": [1, 1], "cost_vector": []}']) as server:
        cfg = _config(tmp_path, server.url, model="short-vectors")
        assert _run(nesy_dataset, 3, cfg, tmp_path / "t3", "--limit", "2") == 0
        assert len(server.requests) == 6  # 2 samples x (1 + 2 repair rounds)
    result = json.loads(capsys.readouterr().out)
    assert result["evaluation_errors"] == 2 and result["llm"]["refused"] == 2
    assert all(r["error"].endswith("traverse_vector must be a list of 8 integers, got 2 "
                                   "entries; cost_vector must be a list of 8 integers, got 0 "
                                   "entries") for r in _rows(tmp_path / "t3"))


def test_endpoint_down_stops_with_a_clear_error(nesy_dataset: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    with ScriptedChatServer(["{}"]) as server:
        url = server.url  # closed after this block: nothing listens there
    cfg = _config(tmp_path, url, timeout_s=3)
    assert _run(nesy_dataset, 1, cfg, tmp_path / "down") == 1
    err = capsys.readouterr().err
    assert "cannot reach" in err and "rerun the same command to resume" in err
    assert "Traceback" not in err


def test_config_and_usage_errors(nesy_dataset: Path, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({"llm": {"base_url": "http://127.0.0.1:9/v1", "model": "m",
                                           "concurency": 2}}))
    assert _run(nesy_dataset, 1, str(bad), tmp_path / "o") == 1
    assert "concurency" in capsys.readouterr().err
    assert main(["nesy", "eval", "--task", "1", "--data", str(nesy_dataset), "--agent", "llm",
                 "--method", "ours"]) == 2
    with ScriptedChatServer(oracle_reply) as server:
        assert _run(nesy_dataset, 1, _config(tmp_path, server.url), tmp_path / "o") == 0
        other = _config(tmp_path, server.url, model="another-model")
        assert _run(nesy_dataset, 1, other, tmp_path / "o") == 1
    assert "holds another LLM agent run" in capsys.readouterr().err


def test_reply_reading() -> None:
    good = read_reply('Sure.\n```json\n{"traverse_vector": [0,0,1,1,0,0,0,0], '
                      '"cost_vector": [0,0,1,2,0,0,0,0]}\n```')
    assert good.vectors is not None and good.vectors.pref == (0, 0, 1, 2, 0, 0, 0, 0)
    assert read_reply('{"traverse_vector": [0,0,1,1,0,0,0,0], '
                      '"cost_vector": [0,0,1.0,2,0,0,0,0]}').vectors is not None
    cases = {
        "nothing here": "no JSON object found in the reply",
        '{"traverse_vector": [0,0,2,1,0,0,0,0], "cost_vector": [0,0,1,2,0,0,0,0]}':
            "traverse_vector entries must be 0 or 1 (index 2 is 2)",
        '{"traverse_vector": [0,0,1,1,0,0,0,0], "cost_vector": [0,1,1,2,0,0,0,0]}':
            "cost_vector must be 0 exactly where traverse_vector is 0 (class 1, rangeland: "
            "traverse 0, cost 1)",
        '{"traverse_vector": [0,0,1,1,0,0,0,0], "cost_vector": [0,0,1,-2,0,0,0,0]}':
            "cost_vector[3] must be a whole number >= 0, got -2",
        '{"traverse_vector": [0,0,1,1,0,0,0,true], "cost_vector": [0,0,1,2,0,0,0,0]}':
            "traverse_vector[7] must be a whole number >= 0, got true",
        '{"cost_vector": [0,0,1,2,0,0,0,0]}': "traverse_vector is missing",
    }
    for text, issue in cases.items():
        read = read_reply(text)
        assert read.vectors is None and read.issues == (issue,), text


def test_prompt_examples_are_the_kb_and_parser_answers() -> None:
    prompt = system_prompt()
    for query, agent, objective, allowed in EXAMPLES:
        v = derive_vectors(agent, objective, allowed)
        assert query in prompt and json.dumps(list(v.pref)) in prompt
        p = parse_query(query)
        assert (p.agent, p.objective, p.allowed) == (agent, objective, allowed), query
