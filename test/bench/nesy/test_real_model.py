"""The NeSy-Route LLM agent end to end against a real local model (SmolLM2-135M, llama.cpp).

A 135M model rarely gives the right vectors, so this asserts behaviour, not accuracy: the
prompt fits the context, ``usage`` is read, every reply is accepted, repaired or refused with
the problems found, rows and transcripts are written, the predictions are in the official
format, nothing crashes or hangs, and a rerun is answered from the cache. The server fixture
``smollm2`` is in ``test/bench/conftest.py`` (``make realmodel``).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml

from map2route.bench.nesy.llm_agent import transcript_path
from map2route.cli import main
from map2route.execution.results import ResultsFile

pytestmark = pytest.mark.realmodel

MAX_TOKENS = 96


def _rows(out: Path) -> list[dict]:
    return ResultsFile(out / "results.jsonl", key=lambda r: r["sample_id"]).rows()


@pytest.mark.parametrize("task", [1, 3])
def test_llm_agent_on_real_queries_is_contained(smollm2, nesy_dataset: Path, tmp_path: Path,
                                                task: int,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "llm.yaml"
    cfg.write_text(yaml.safe_dump({
        "repair_rounds": 1,
        "llm": {"base_url": smollm2.url, "model": smollm2.model, "timeout_s": 600,
                "retries": 0, "temperature": 0.0, "max_tokens": MAX_TOKENS, "concurrency": 1,
                "context_tokens": smollm2.context, "cache_dir": str(tmp_path / "cache")}}))
    argv = ["nesy", "eval", "--task", str(task), "--data", str(nesy_dataset), "--agent", "llm",
            "--config", str(cfg), "--limit", "3", "--json"]
    t0 = time.perf_counter()
    rc = main([*argv, "--out", str(tmp_path / "run")])
    assert time.perf_counter() - t0 < 900
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "internal error" not in captured.err
    rows = _rows(tmp_path / "run")
    assert len(rows) == 3
    accepted = [r for r in rows if r["outcome"] != "refused"]
    if rc == 1:  # every reply unusable: a clear one-line error, nothing to score
        assert not accepted and "answered none of the 3 samples" in captured.err
    else:
        assert rc == 0
        result = json.loads(captured.out)
        assert result["llm"]["model"] == smollm2.model
    for r in rows:
        assert r["agent"] == "llm" and r["model"] == smollm2.model
        assert 1 <= r["llm_calls"] <= 2 and not r["usage_estimated"]
        t = json.loads(transcript_path(tmp_path / "run", r["sample_id"]).read_text())
        assert len(t["exchanges"]) == r["llm_calls"]
        for ex in t["exchanges"]:
            assert 0 < ex["prompt_tokens"] < smollm2.context  # the prompt fit the context
            assert ex["completion_tokens"] <= MAX_TOKENS
        if r["outcome"] == "refused":
            assert r["error"].startswith("refused: no usable vectors in 2 replies")
            assert "could not be used" in t["exchanges"][1]["prompt"]
        pred = r["prediction"]
        if task == 3:
            assert isinstance(pred["trajectory"], list)
        elif r["outcome"] == "refused":
            assert pred["success"] is False
        else:
            assert len(pred["traverse_vector"]) == len(pred["cost_vector"]) == 8
    # A rerun in a fresh folder is answered from the cache: the server is not asked again.
    main([*argv, "--out", str(tmp_path / "rerun")])
    capsys.readouterr()
    again = _rows(tmp_path / "rerun")
    assert len(again) == 3 and all(r["cache_hits"] == r["llm_calls"] for r in again)
