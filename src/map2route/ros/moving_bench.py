"""Seeded sim drives with moving obstacles: collisions, arrivals and rerun repeatability.

``python -m map2route.ros.moving_bench --runs 50`` drives the two-room house ("go to the
fridge" from the bedroom) ``runs`` times, run ``i`` with
:func:`map2route.sim.scenarios.crossing_scenario` seed ``i`` (a person crossing the way, a box
beside it), twice each, and prints one JSON summary: arrivals, collision events, and how many
seeds gave the same outcome and travelled distance (to 1 cm) on the rerun.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from map2route.ros.runner import run_sim
from map2route.semantic_map.io import save_scene
from map2route.semantic_map.synthetic import two_room_house
from map2route.sim.scenarios import crossing_scenario, obstacles_param

START, GOAL = (1.5, 1.0), (5.5, 2.8)


def drive(scene: Path, seed: int, *, time_limit_s: float) -> dict[str, Any]:
    obstacles = obstacles_param(crossing_scenario(seed, START, GOAL, people=1, boxes=1))
    run = run_sim(scene, "go to the fridge", start=START, obstacles=obstacles,
                  time_limit_s=time_limit_s)
    return {"seed": seed, "outcome": run.outcome, "collisions": run.collisions,
            "travelled_m": round(run.travelled_m, 2), "sim_seconds": round(run.sim_seconds, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--time-limit", type=float, default=90.0)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        scene = save_scene(two_room_house(), Path(tmp) / "two_room_house")
        first = [drive(scene, s, time_limit_s=args.time_limit) for s in range(args.runs)]
        second = [drive(scene, s, time_limit_s=args.time_limit) for s in range(args.runs)]
    same = sum(a["outcome"] == b["outcome"] and a["travelled_m"] == b["travelled_m"]
               for a, b in zip(first, second, strict=True))
    print(json.dumps({"runs": args.runs,
                      "arrived": sum(r["outcome"] == "arrived" for r in first),
                      "collision_events": sum(r["collisions"] for r in first + second),
                      "runs_with_collisions": sum(r["collisions"] > 0 for r in first + second),
                      "identical_on_rerun": same, "first": first, "second": second}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
