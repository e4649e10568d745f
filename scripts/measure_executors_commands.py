"""One run: local 1/2 workers and Ray 1/2 in flight (one 2-CPU head) for the long commands.

For each command two sizes (N small, N large) under four executors; prints a markdown table
with the wall time of each command (Python start-up included), the cost per extra item
((wall at large - wall at small) / (large - small)) and the fixed cost (wall at small less
small x per item). Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python scripts/measure_executors_commands.py [OUT_DIR]

Needs the ``ray`` extra, shared/data/map2seq (GROKE's val split) and the shipped maps/.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from map2route.nesy.landcover import encode_png

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _masks(folder: Path, n: int = 4, size: int = 384) -> Path:
    """``n`` land-cover masks (the test masks' layout, scaled): bands of classes, a track."""
    folder.mkdir(parents=True, exist_ok=True)
    s = size / 160
    for k in range(n):
        m = np.zeros((size, size), dtype=np.uint8)
        r = lambda v: int(v * s)  # noqa: E731
        m[0:r(40), :] = 3
        m[0:r(40), r(100):] = 1
        m[r(10):r(30), r(10) + 8 * k:r(30) + 8 * k] = 8
        m[r(40):r(48), :] = 4
        m[r(48):r(80), :] = 7
        m[r(80):r(120), :] = 2
        m[r(120):, :] = 6
        m[r(120):, r(110 - 20 * k):] = 5
        m[r(60):r(100), r(75):r(81)] = 4
        (folder / f"tile{k}.png").write_bytes(encode_png(m))
    return folder


def _run(args: list[str]) -> float:
    t0 = time.perf_counter()
    done = subprocess.run([str(BIN / "map2route"), *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=1800)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"failed: map2route {' '.join(args)}\n{done.stderr[-2000:]}")
    return wall


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="m2r-x-"))
    out.mkdir(parents=True, exist_ok=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    os.environ["RAY_AUTH_MODE"] = "disabled"
    head = subprocess.Popen(
        [str(BIN / "ray"), "start", "--head", "--block", "--node-ip-address=127.0.0.1",
         f"--port={port}", "--num-cpus=2", "--include-dashboard=false",
         "--disable-usage-stats", "--object-store-memory=200000000"],
        stdout=open(out / "head.log", "w"), stderr=subprocess.STDOUT, env=env,  # noqa: SIM115
        start_new_session=True)
    time.sleep(8)
    address = f"127.0.0.1:{port}"
    configs = {"local, 1 worker": ["--workers", "1"],
               "local, 2 workers": ["--workers", "2"],
               "Ray, 1 in flight": ["--executor", "ray", "--address", address,
                                    "--max-in-flight", "1"],
               "Ray, 2 in flight": ["--executor", "ray", "--address", address,
                                    "--max-in-flight", "2"]}
    masks = _masks(out / "masks")
    maps = ROOT / "maps"
    scenes = json.loads((maps / "index.json").read_text())["test"][:2]
    fast = out / "fast.yaml"
    fast.write_text("simulate:\n  lidar:\n    points_per_scan: 6000\n")
    # Reference datasets for `nesy eval` (generated once, in-process).
    for n in (48, 192):
        _run(["nesy", "generate", "--out", str(out / f"eval{n}"), "--count", str(n),
              "--source", str(masks), "--workers", "1", "--seed", "1"])

    def groke(n: int, tag: str) -> list[str]:
        return ["bench", "groke", "--agent", "heuristic", "--limit", str(n), "--json",
                "--out", str(out / f"groke-{tag}-{n}")]

    def generate(n: int, tag: str) -> list[str]:
        return ["nesy", "generate", "--out", str(out / f"gen-{tag}-{n}"), "--count", str(n),
                "--source", str(masks), "--seed", "1"]

    def evaluate(n: int, tag: str) -> list[str]:
        return ["nesy", "eval", "--task", "3", "--data", str(out / f"eval{n}"), "--method",
                "ours", "--pred", str(out / f"pred-{tag}-{n}.jsonl"), "--json"]

    def mapping(n: int, tag: str) -> list[str]:
        return ["bench", "mapping", *[a for s in scenes[:n] for a in ("--scene", s)],
                "--image-width", "240", "--no-episodes", "--config", str(fast), "--json",
                "--out", str(out / f"map-{tag}-{n}")]

    commands = {"bench groke (instructions)": (groke, 64, 256),
                "nesy generate (samples)": (generate, 48, 192),
                "nesy eval --method ours, task 3 (samples)": (evaluate, 48, 192),
                "bench mapping (scenes, 240 px)": (mapping, 1, 2)}
    rows = []
    try:
        _run(groke(4, "warm"))  # page cache and numba caches warm before the first timing
        for label, (make, small, large) in commands.items():
            for name, extra in configs.items():
                tag = name.replace(", ", "-").replace(" ", "")
                walls = [_run([*make(n, tag), *extra]) for n in (small, large)]
                per = (walls[1] - walls[0]) / (large - small)
                rows.append((label, name, small, large, walls[0], walls[1], per,
                             walls[0] - small * per))
                print(rows[-1], flush=True)
    finally:
        os.killpg(head.pid, signal.SIGTERM)
        head.wait(timeout=60)
    lines = ["| command (item) | executor | wall, small N | wall, large N | per extra item | "
             "fixed cost |", "| --- | --- | ---: | ---: | ---: | ---: |"]
    for label, name, small, large, w0, w1, per, fixed in rows:
        lines.append(f"| {label} | {name} | {w0:.1f} s (N={small}) | {w1:.1f} s (N={large}) | "
                     f"{1000 * per:.0f} ms | {fixed:.1f} s |")
    text = "\n".join(lines) + "\n"
    (out / "table.md").write_text(text)
    print(text)
    print(os.getloadavg())


if __name__ == "__main__":
    main()
