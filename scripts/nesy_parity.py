#!/usr/bin/env python3
"""Check `map2route nesy eval` against the official NeSy-Route scorer on the same files.

Usage (a checkout of https://github.com/MingYang1010/NeSy-Route, its requirements installed)::

    map2route nesy generate --out DATA --count 300 --source MASKS/   # official layout
    python scripts/nesy_parity.py --official NeSy-Route/ --data DATA --work /tmp/parity

For each task it writes several prediction files (our solver; for Task 1/2 vectors with
noise, missing rows, integer query ids and short vectors; for Task 3 the endpoints probe, the
straight-line baseline, random waypoints in and outside the image with some float
coordinates, and a subset of the ground truth without S and E), scores each with
``map2route.bench.nesy.evaluate`` and with the official scorer (run as a subprocess, its code
unchanged), and prints every metric of every split with the difference. Exits 1 if any
difference exceeds 1e-6. The official scorer reports fractions; ours percentages for TM, FM,
RM, AR and VR, compared after dividing by 100.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from map2route.bench.nesy.evaluate import evaluate
from map2route.bench.nesy.methods import METHODS
from map2route.nesy.official import SPLITS, load_tasks, read_predictions

PERCENT = {"TM", "FM", "RM", "AR", "VR"}
TOLERANCE = 1e-6


def official_scores(official: Path, data: Path, work: Path, task: int, pred: Path,
                    split: str | None) -> dict[str, float | None]:
    """The official scorer's paper metrics for one prediction file (and split)."""
    cmd = [sys.executable, "evaluate.py", f"task{task}", "--predictions", str(pred)]
    if task == 1:
        out = work / f"official_task1_{pred.stem}.json"
        cmd += ["--dataset", str(data / "Task1" / "queries.json"), "--output", str(out),
                "--errors-output", str(work / "errors.json")]
    elif task == 2:
        out = work / f"official_task2_{pred.stem}_{split}.json"
        cmd += ["--split", str(split), "--data-root", str(data), "--output", str(out),
                "--errors-output", str(work / "errors.json")]
    else:
        cmd += ["--split", str(split), "--data-root", str(data), "--output-dir",
                str(work / "task3"), "--num-workers", "1"]
        out = work / "task3" / f"{split}_metrics.json"
    subprocess.run(cmd, cwd=official, check=True, capture_output=True)
    metrics: dict[str, float | None] = json.loads(out.read_text())["metrics"]["paper_metrics"]
    return metrics


def _jitter(v: list[int], rng: random.Random) -> list[int]:
    return [x if rng.random() > 0.3 else rng.randint(0, 3) for x in v]


def prediction_sets(data: Path, task: int, rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """The prediction files to compare for one task."""
    rows = load_tasks(data, task)
    sets = {"ours": METHODS["ours"](data, task)}
    if task in (1, 2):
        noisy = []
        for r in rows:
            key: Any = r["sample_id"]
            if task == 1 and rng.random() < 0.5:
                key = int(key[1:])  # an integer query id, as the official scorer accepts
            p = {("query_id" if task == 1 else "sample_id"): key,
                 "traverse_vector": _jitter(r["V_trav"], rng),
                 "cost_vector": _jitter(r["V_pref"], rng)}
            if task == 2:
                p["region_vector"] = _jitter(r["V_reg"], rng)
            if rng.random() < 0.05:
                p["cost_vector"] = p["cost_vector"][:5]  # skipped: not 8 long
            if rng.random() > 0.1:  # about 10 % missing
                noisy.append(p)
        sets["noisy"] = noisy
        return sets
    sets["endpoints"] = METHODS["endpoints"](data, task)
    sets["line"] = METHODS["line"](data, task)
    randoms, subsets = [], []
    for r in rows:
        gt = r["gt_path"]
        pts: list[list[Any]] = []
        for _ in range(rng.randint(1, 6)):
            if rng.random() < 0.5:
                y, x = (int(v) for v in gt[rng.randrange(len(gt))])
                pts.append([x + rng.randint(-3, 3), y + rng.randint(-3, 3)])
            else:
                pts.append([rng.randint(-20, 1050), rng.randint(-20, 1050)])
        if rng.random() < 0.05:
            pts = [[float(a), float(b)] for a, b in pts]  # an evaluation error
        randoms.append({"sample_id": r["sample_id"], "trajectory": pts})
        inner = [[int(x), int(y)] for y, x in gt[1:-1][::7]] or [[int(gt[0][1]), int(gt[0][0])]]
        subsets.append({"sample_id": r["sample_id"], "trajectory": inner})
    sets["random"] = randoms
    sets["gt_subset_without_S_E"] = subsets
    return sets


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--official", type=Path, required=True,
                        help="checkout of MingYang1010/NeSy-Route (has evaluate.py)")
    parser.add_argument("--data", type=Path, required=True, help="dataset, official layout")
    parser.add_argument("--work", type=Path, required=True, help="scratch folder")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    worst = 0.0
    for task in (1, 2, 3):
        for name, preds in prediction_sets(args.data, task, rng).items():
            pred = args.work / f"{name}_task{task}.jsonl"
            pred.write_text("".join(json.dumps(p) + "\n" for p in preds))
            ours = evaluate(args.data, task, read_predictions(pred))
            splits = ["all"] if task == 1 else [s for s in SPLITS if s in ours.table]
            for split in splits:
                theirs = official_scores(args.official, args.data, args.work, task, pred,
                                         None if task == 1 else split)
                for metric, value in theirs.items():
                    mine = ours.table[split][metric]
                    if metric in PERCENT and mine is not None:
                        mine /= 100.0
                    if value is None or mine is None:
                        diff = 0.0 if value is None and mine is None else float("inf")
                    else:
                        diff = abs(mine - value)
                    worst = max(worst, diff)
                    print(f"task{task} {name:22s} {split:6s} {metric}: ours {mine} "
                          f"official {value} diff {diff:.2e}", flush=True)
    print(f"largest difference: {worst:.2e}")
    return 0 if worst <= TOLERANCE else 1


if __name__ == "__main__":
    sys.exit(main())
