"""The long commands on a Ray head (the ``ray_head`` fixture of test/conftest.py) give the rows
the local executor gives, byte for byte after sorting; a killed run resumes on Ray; an
unreachable address is a one-line error before any work; an LLM-bound run keeps at most
``--max-in-flight`` requests in flight across the cluster.

Inputs are tiny (a few instructions, samples or one scene) so each test stays short; the
first Ray test of a run pays for the head and the workers' imports.
"""

from __future__ import annotations

import importlib.util
import json
import socket
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from map2route.cli import main
from map2route.execution.executors import RayExecutor

HAS_RAY = importlib.util.find_spec("ray") is not None
needs_ray = pytest.mark.skipif(not HAS_RAY, reason="ray is not installed (the `ray` extra)")
TEST = Path(__file__).resolve().parents[1]


def _load(name: str, path: Path) -> Any:
    """A test helper module by path (test/ folders are not packages)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _sorted_lines(path: Path, drop: Sequence[str] = ()) -> list[str]:
    """The lines of a JSON Lines file, sorted; ``drop``: timing fields removed first."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if drop:
        rows = [json.loads(x) for x in lines]
        for row in rows:
            for key in drop:
                row.pop(key, None)
        lines = [json.dumps(r, sort_keys=True) for r in rows]
    return sorted(lines)


def _ray(address: str, *extra: str) -> list[str]:
    return ["--executor", "ray", "--address", address, "--max-in-flight", "2", *extra]


# --- bench groke ---------------------------------------------------------------------------------
def _groke_data(folder: Path) -> Path:
    grid = _load("streets_grid", TEST / "streets" / "conftest.py")
    routes = [[f"x{x}y50" for x in range(0, 101, 10)] + ["x100y60", "x100y70"],
              [f"x{x}y0" for x in range(0, 101, 10)] + [f"x100y{y}" for y in range(10, 81, 10)],
              [f"x50y{y}" for y in range(0, 101, 10)],
              [f"x{x}y100" for x in range(100, -1, -10)]]
    texts = ["Go to the light and turn left. Stop a few steps after turning.",
             "Head east past the bank to the light, turn left and stop at Starbucks.",
             "Walk north two blocks and stop.",
             "Go west to the end of the street."]
    # Twice over (other ids): 8 instructions, two chunks of 4.
    instances = [{"route": {"pano_path": r, "osm_path": r, "initial_heading": 90},
                  "instructions": t, "instructions_id": k}
                 for k, (r, t) in enumerate(zip(routes * 2, texts * 2, strict=True))]
    return grid.write_touchdown_folder(folder, instances)


@needs_ray
def test_groke_rows_on_ray_equal_local_rows(ray_head: str, tmp_path: Path, capsys) -> None:
    data = _groke_data(tmp_path / "map2seq")
    for name, extra in (("local", []), ("ray", _ray(ray_head))):
        assert main(["bench", "groke", "--data", str(data), "--agent", "heuristic",
                     "--out", str(tmp_path / name), "--json", *extra]) == 0
        assert json.loads(capsys.readouterr().out)["all"]["n"] == 8
    local = (tmp_path / "local" / "results.jsonl").read_bytes()
    assert len(local.splitlines()) == 8
    assert (tmp_path / "ray" / "results.jsonl").read_bytes() == local  # in instance order too
    for name in ("quality.csv",):
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()


class _InFlight:
    """An LLM endpoint's reply function that counts requests in flight (each takes 0.3 s)."""

    def __init__(self) -> None:
        self.now = self.most = self.calls = 0
        self._lock = threading.Lock()

    def __call__(self, body: dict[str, Any]) -> str:
        with self._lock:
            self.now += 1
            self.calls += 1
            self.most = max(self.most, self.now)
        time.sleep(0.3)
        with self._lock:
            self.now -= 1
        if str(body["messages"][-1]["content"]).startswith("{"):
            return json.dumps({"status": "COMPLETED", "next_node": ""})
        return json.dumps([{"action": "STOP", "description": "stop here"}])


@needs_ray
@pytest.mark.parametrize("limit", [1, 2])
def test_an_llm_run_keeps_max_in_flight_requests_across_the_cluster(
        ray_head: str, tmp_path: Path, limit: int, capsys, monkeypatch) -> None:
    from map2route.llm.testing import ScriptedChatServer

    monkeypatch.chdir(tmp_path)  # the response cache (out/llm_cache) starts empty

    data = _groke_data(tmp_path / "map2seq")
    gauge = _InFlight()
    with ScriptedChatServer(gauge) as server:
        assert main(["bench", "groke", "--data", str(data), "--agent", "llm", "--llm-url",
                     server.url, "--llm-model", "m", "--out", str(tmp_path / "o"), "--json",
                     "--executor", "ray", "--address", ray_head,
                     "--max-in-flight", str(limit)]) == 0
    assert json.loads(capsys.readouterr().out)["all"]["n"] == 8
    assert gauge.calls >= 8  # every instruction asked the endpoint
    assert gauge.most == limit  # 8 instructions on 2 CPUs: the bound, not the CPUs, decides


# --- nesy generate / eval -------------------------------------------------------------------------
def _masks(folder: Path) -> Path:
    from map2route.nesy.landcover import encode_png

    folder.mkdir()
    for k in range(2):
        m = np.zeros((160, 160), dtype=np.uint8)
        m[0:40, :] = 3
        m[0:40, 100:] = 1
        m[10:30, 10:30] = 8
        m[40:48, :] = 4
        m[48:80, :] = 7
        m[80:120, :] = 2
        m[120:, :] = 6
        m[120:, 110 - 20 * k:] = 5
        m[60:100, 75:81] = 4
        (folder / f"tile{k}.png").write_bytes(encode_png(m))
    return folder


def _dataset_files(root: Path) -> dict[str, bytes]:
    """Every file of a dataset but the manifest (it holds timings), by relative path."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != "manifest.json"}


@pytest.fixture(scope="module")
def masks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _masks(tmp_path_factory.mktemp("nesy") / "masks")


def _generate(out: Path, masks: Path, *extra: str) -> None:
    assert main(["nesy", "generate", "--out", str(out), "--count", "24", "--source", str(masks),
                 "--seed", "5", "--workers", "1", *extra]) == 0


@needs_ray
def test_nesy_generate_and_eval_on_ray_equal_local(ray_head: str, masks: Path, tmp_path: Path,
                                                   capsys) -> None:
    _generate(tmp_path / "local", masks)
    _generate(tmp_path / "ray", masks, *_ray(ray_head))
    local = _dataset_files(tmp_path / "local")
    assert any("Task3" in k for k in local) and not any(".partial" in k for k in local)
    assert _dataset_files(tmp_path / "ray") == local
    capsys.readouterr()
    for task in ("2", "3"):
        got = []
        for name, extra in (("local", []), ("ray", _ray(ray_head))):
            pred = tmp_path / f"{name}_task{task}.jsonl"
            assert main(["nesy", "eval", "--task", task, "--data", str(tmp_path / "local"),
                         "--method", "ours", "--pred", str(pred), "--json", *extra]) == 0
            got.append(json.loads(capsys.readouterr().out)["metrics"])
        assert got[0] == got[1]
        local_pred = (tmp_path / f"local_task{task}.jsonl").read_bytes()
        assert len(local_pred.splitlines()) == 24  # two chunks of 16 and 8
        assert (tmp_path / f"ray_task{task}.jsonl").read_bytes() == local_pred


class _Writer(_InFlight):
    """A scripted LLM query writer that passes its own self-check only for specs that allow no
    restricted terrain (so a run mixes LLM and template queries); 0.1 s a request."""

    def __call__(self, body: dict[str, Any]) -> str:
        import re

        with self._lock:
            self.now += 1
            self.calls += 1
            self.most = max(self.most, self.now)
        time.sleep(0.1)
        with self._lock:
            self.now -= 1
        text = str(body["messages"][-1]["content"])
        if text.startswith("Write one"):
            agent = re.search(r"Agent: (\w+)", text)
            goal = re.search(r"Objective: (\w+)", text)
            return f"I am a {agent and agent[1]} and want the {goal and goal[1]} route."
        query = text.split("Request: ", 1)[-1]
        words = query.replace(".", " ").split()
        return json.dumps({"agent": words[3], "objective": words[7], "allowed": []})


@needs_ray
def test_nesy_llm_queries_on_ray_keep_max_in_flight_and_equal_local(
        ray_head: str, masks: Path, tmp_path: Path) -> None:
    from map2route.llm.testing import ScriptedChatServer

    gauges = []
    for name, extra in (("local", []), ("ray", _ray(ray_head))):
        gauge = _Writer()
        with ScriptedChatServer(gauge) as server:
            cfg = tmp_path / "llm.yaml"
            cfg.write_text(f"base_url: {server.url}\nmodel: m\n")
            assert main(["nesy", "generate", "--out", str(tmp_path / name), "--count", "8",
                         "--source", str(masks), "--seed", "2", "--workers", "2",
                         "--llm-config", str(cfg), *extra]) == 0
        gauges.append(gauge)
    manifest = json.loads((tmp_path / "local" / "manifest.json").read_text())
    assert 0 < manifest["llm_fallbacks"] < 8  # some queries by the LLM, some by templates
    assert _dataset_files(tmp_path / "ray") == _dataset_files(tmp_path / "local")
    assert gauges[0].most == 1  # locally one request at a time, as before
    assert gauges[1].most == 2 and gauges[1].calls == gauges[0].calls  # --max-in-flight 2


class _Killed(Exception):
    pass


class _KilledAfter:
    """A local in-process executor that dies (like a killed run) after ``n`` chunks."""

    name = "local"
    workers = 1

    def __init__(self, n: int) -> None:
        self.n = n
        self.items = 0  # items (A* groups) of the chunks it ran

    def __enter__(self) -> _KilledAfter:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map_chunks(self, fn: Callable[[Any], Any], chunks: Sequence[Any], *, init: Any,
                   initargs: tuple[Any, ...] = (), on_result: Callable[[Any], None],
                   in_flight: int | None = None) -> None:
        init(*initargs)
        for done, chunk in enumerate(chunks):
            if done == self.n:
                raise _Killed
            self.items += len(chunk)
            on_result(fn(chunk))


class _Counting(RayExecutor):
    """The Ray executor, counting the items of the chunks it is given."""

    items = 0

    def map_chunks(self, fn: Any, chunks: Sequence[Any], **kw: Any) -> None:
        self.items += sum(len(c) for c in chunks)
        super().map_chunks(fn, chunks, **kw)


@needs_ray
def test_a_killed_nesy_generate_resumes_on_ray(ray_head: str, masks: Path,
                                               tmp_path: Path) -> None:
    from map2route.nesy.dataset import ASTAR_PARTIAL, generate

    args: dict[str, Any] = {"count": 24, "sources": [str(masks)], "seed": 5}
    full = tmp_path / "full"
    whole = _KilledAfter(10**6)
    generate(full, executor=whole, **args)  # a complete in-process run
    assert whole.items > 4  # more than one chunk of A* groups
    out = tmp_path / "run"
    with pytest.raises(_Killed):
        generate(out, executor=_KilledAfter(1), **args)  # killed after the first chunk
    partial = out / ASTAR_PARTIAL
    assert len(partial.read_text().splitlines()) == 4  # that chunk's four groups are on disk
    with partial.open("a") as f:
        f.write('{"key": "torn')  # and the kill tore the next line
    ray = _Counting(ray_head, max_in_flight=2)
    generate(out, executor=ray, **args)
    assert ray.items == whole.items - 4  # the resumed run solved only the rest
    assert not (out / ".partial").exists()  # removed once the dataset is written
    assert _dataset_files(out) == _dataset_files(full)


# --- bench mapping ---------------------------------------------------------------------------------
@needs_ray
def test_bench_mapping_on_ray_equals_local(ray_head: str, tmp_path: Path, two_room_map: Any,
                                           capsys) -> None:
    pytest.importorskip("open3d")
    from map2route.semantic_map.io import save_scene

    maps = tmp_path / "maps"
    save_scene(two_room_map, maps / "two_room_house")
    (maps / "index.json").write_text(json.dumps({"test": ["two_room_house"]}))
    cfg = tmp_path / "fast.yaml"  # fewer lidar points: a short run (as test_sweep.py)
    cfg.write_text("simulate:\n  lidar:\n    points_per_scan: 6000\n")
    for name, extra in (("local", []), ("ray", _ray(ray_head))):
        assert main(["bench", "mapping", "--maps", str(maps), "--noise", "0", "--noise", "0.3",
                     "--image-width", "240", "--no-episodes", "--config", str(cfg),
                     "--out", str(tmp_path / name), "--json", *extra]) == 0
        assert len(json.loads(capsys.readouterr().out)["rows"]) == 2
    timing = ("simulate_wall_s", "build_wall_s", "build_speed")
    local = _sorted_lines(tmp_path / "local" / "results.jsonl", timing)
    assert len(local) == 2 and not any('"error"' in x for x in local)
    assert _sorted_lines(tmp_path / "ray" / "results.jsonl", timing) == local


# --- an unreachable cluster ------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("command", [
    ["bench", "groke", "--data", "DATA"],
    ["bench", "mapping", "--maps", "MAPS"],
    ["bench", "table3", "--method", "g2r-llm"],
    ["bench", "planner-ablation", "--limit", "1"],
    ["nesy", "generate", "--out", "OUT", "--count", "3", "--source", "MASKS"],
    ["nesy", "eval", "--task", "1", "--data", "OUT", "--method", "ours"],
], ids=lambda c: " ".join(c[:2]))
def test_an_unreachable_cluster_is_one_line_before_any_work(command: list[str], tmp_path: Path,
                                                            capsys) -> None:
    port = _free_port()
    args = [a.replace("DATA", str(tmp_path / "none")).replace("MAPS", str(TEST.parent / "maps"))
            .replace("OUT", str(tmp_path / "out")).replace("MASKS", str(tmp_path / "none"))
            for a in command]
    t0 = time.perf_counter()
    code = main([*args, "--executor", "ray", "--address", f"127.0.0.1:{port}"])
    err = capsys.readouterr().err
    assert code == 1, err
    assert f"Error: cannot reach the Ray cluster at 127.0.0.1:{port}" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert time.perf_counter() - t0 < 30
    assert not (tmp_path / "out").exists()  # nothing was written
