"""GROKE's LLM navigator against a real local model: SmolLM2-135M-Instruct served by llama.cpp.

The server fixture ``smollm2`` is in ``test/bench/conftest.py`` (it skips with its reason
when ``llm-local`` is not installed). A 135M model rarely walks the right way: these tests
assert behaviour, not accuracy: the prompts fit the context, ``usage`` is read, every answer
(JSON or not) is a move, a retry or a refusal recorded on the row, nothing crashes or hangs,
and a rerun is answered from the cache.
"""

from __future__ import annotations

import json
import time

import pytest

from map2route.bench.groke.llm import GrokeLLMConfig
from map2route.bench.groke.run import run_bench, transcript_path, write_outputs

pytestmark = pytest.mark.realmodel

MAX_TOKENS = 96
ROUTE = [f"x{x}y50" for x in range(0, 101, 10)] + ["x100y60", "x100y70", "x100y80"]


def test_llm_navigator_on_the_real_model_is_contained(smollm2, city_folder, tmp_path) -> None:
    folder = city_folder([{"route": {"pano_path": ROUTE, "osm_path": ROUTE,
                                     "initial_heading": 90},
                           "instructions": "Go to the light and turn left. Stop at the Starbucks.",
                           "instructions_id": 1}])
    cfg = GrokeLLMConfig.from_dict({
        "llm": {"base_url": smollm2.url, "model": smollm2.model, "timeout_s": 300, "retries": 0,
                "temperature": 0.0, "max_tokens": MAX_TOKENS, "concurrency": 1,
                "context_tokens": smollm2.context, "cache_dir": str(tmp_path / "cache")},
        "navigator": {"subgoals": "llm", "max_steps": 6, "max_retries": 3}})
    estimates: list[dict] = []
    t0 = time.perf_counter()
    report = run_bench(folder, llm=cfg, agent_name="llm", show_progress=False,
                       on_estimate=estimates.append)
    assert time.perf_counter() - t0 < 600
    assert estimates and estimates[0]["prompt_tokens"] > 0
    write_outputs(report, tmp_path / "out")
    (row,) = report.results
    usage = row.llm_usage
    assert usage["model"] == "smollm2-135m" and usage["llm_calls"] >= 1
    assert not usage["usage_estimated"]  # llama.cpp sends usage
    if row.error:  # e.g. a decomposition that is not JSON: refused with a clear line
        assert "Traceback" not in row.error and row.stop_reason == "error"
        assert usage["llm_calls"] == 1
    else:
        assert 1 <= row.steps <= 6 and usage["llm_calls"] == row.steps + 1
    assert row.official is not None  # scored either way (a failure is a wrong prediction)
    t = json.loads(transcript_path(tmp_path / "out", "1").read_text())
    assert len(t["exchanges"]) == usage["llm_calls"]
    for ex in t["exchanges"]:
        assert 0 < ex["prompt_tokens"] < smollm2.context  # every prompt fit the context
        assert ex["completion_tokens"] <= MAX_TOKENS
    again = run_bench(folder, llm=cfg, agent_name="llm", show_progress=False)
    assert again.results[0].llm_usage["cache_hits"] == usage["llm_calls"]
    assert again.results[0].path == row.path
