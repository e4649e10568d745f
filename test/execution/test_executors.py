"""The executors: the local pool, and Ray on a head the test run starts on 127.0.0.1.

The Ray tests use the ``ray_head`` fixture of test/conftest.py (``ray start --head`` on a
free port, 2 CPUs). They skip only when ``ray`` is not installed (``pip install
'map2route[ray]'``). The other long commands on Ray: test_ray_commands.py.
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import sys
import time
from pathlib import Path

import pytest

from map2route.cli import main
from map2route.execution.errors import ExecutionError
from map2route.execution.executors import LocalExecutor, RayExecutor, chunked, make_executor

HAS_RAY = importlib.util.find_spec("ray") is not None
needs_ray = pytest.mark.skipif(not HAS_RAY, reason="ray is not installed (the `ray` extra)")

_INITS: list[tuple[int, ...]] = []


def _init(*args: int) -> None:
    _INITS.append(args)


def _double(chunk: list[int]) -> list[int]:
    return [2 * x for x in chunk]


def test_chunked_keeps_order_and_sizes() -> None:
    assert chunked([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]
    assert chunked([], 3) == []


@pytest.mark.parametrize("workers", [1, 2], ids=["in-process", "pool"])
def test_local_executor_returns_every_chunk(workers: int) -> None:
    got: list[int] = []
    _INITS.clear()
    # fork: spawned workers could not import this test module by name.
    LocalExecutor(workers, start_method="fork").map_chunks(_double, chunked(list(range(7)), 3), init=_init,
                                      initargs=(5,), on_result=got.extend)
    assert sorted(got) == [0, 2, 4, 6, 8, 10, 12]
    assert _INITS == ([(5,)] if workers == 1 else [])  # a pool runs init in its workers


def test_make_executor_rejects_address_without_ray() -> None:
    with pytest.raises(ExecutionError, match="add --executor ray"):
        make_executor("local", address="127.0.0.1:6379")
    with pytest.raises(ExecutionError, match="unknown executor 'dask'"):
        make_executor("dask")


@needs_ray
def test_unreachable_cluster_is_a_clear_error(capsys) -> None:
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t0 = time.perf_counter()
    code = main(["bench", "map2route", "--method", "shortest", "--limit", "1", "--executor",
                 "ray", "--address", f"127.0.0.1:{port}", "--json"])
    assert code == 1
    assert f"Error: cannot reach the Ray cluster at 127.0.0.1:{port}" in capsys.readouterr().err
    assert time.perf_counter() - t0 < 30


# --- on a Ray head (the `ray_head` fixture of test/conftest.py) ---------------------------
def _sorted_rows(out: Path) -> list[str]:
    """The result lines, sorted, without the one timing field (``solve_s``)."""
    rows = []
    for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        assert isinstance(row.pop("solve_s"), float)
        rows.append(json.dumps(row, sort_keys=True))
    return sorted(rows)


def _bench(method: str, out: Path, limit: int, *extra: str) -> None:
    code = main(["bench", "map2route", "--method", method, "--limit", str(limit), "--out",
                 str(out), "--json", *extra])
    assert code == 0


@needs_ray
@pytest.mark.parametrize("method", ["shortest", "oracle"])
def test_ray_rows_equal_local_rows(ray_head, tmp_path, method, capsys) -> None:
    _bench(method, tmp_path / "local", 3, "--workers", "1")
    capsys.readouterr()
    _bench(method, tmp_path / "ray", 3, "--executor", "ray", "--address", ray_head,
           "--max-in-flight", "2", "--workers", "1")
    data = json.loads(capsys.readouterr().out)
    assert data["executor"] == "ray" and data["episodes"] == 3
    local, ray = _sorted_rows(tmp_path / "local"), _sorted_rows(tmp_path / "ray")
    assert len(local) == 3 and local == ray


@needs_ray
def test_a_killed_local_run_resumes_on_ray(ray_head, tmp_path) -> None:
    out = tmp_path / "run"
    _bench("shortest", out, 2, "--workers", "1")
    before = (out / "results.jsonl").read_bytes()
    with (out / "results.jsonl").open("ab") as f:  # a run killed mid-write
        f.write(b'{"episode_id": "torn')
    _bench("shortest", out, 5, "--executor", "ray", "--address", ray_head)
    after = (out / "results.jsonl").read_bytes()
    assert after.startswith(before)  # the two finished rows stay, not rerun
    ids = [json.loads(line)["episode_id"] for line in after.decode().splitlines()]
    assert len(ids) == len(set(ids)) == 5
    _bench("shortest", tmp_path / "full", 5, "--workers", "1")
    assert _sorted_rows(out) == _sorted_rows(tmp_path / "full")


def _die_once(chunk: tuple[str, list[int]]) -> list[int]:
    """Kill the worker process on the first call (the marker file says it happened)."""
    marker, numbers = Path(chunk[0]), chunk[1]
    if not marker.exists():
        marker.touch()
        os._exit(1)
    return [x + 1 for x in numbers]


@needs_ray
def test_a_dead_worker_is_retried(ray_head, tmp_path) -> None:
    import ray.cloudpickle  # noqa: PLC0415 (optional: only when ray is installed)

    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import tests
    marker = tmp_path / "died"
    got: list[int] = []
    RayExecutor(ray_head, max_retries=2).map_chunks(_die_once, [(str(marker), [0, 1])],
                                                     on_result=got.extend)
    assert marker.exists() and got == [1, 2]
