"""Class the offline follower's failures on the dev part of GROKE val (issue 22, fourth round).

Usage (from the repository root):

    PYTHONPATH=src python -m map2route.cli bench groke --part dev --out out/groke_dev
    PYTHONPATH=src python scripts/groke_failure_classes.py out/groke_dev/results.jsonl [--list]

Two views of every failure (official SR 0), as in docs/streets.md:
(a) where the walked panorama path leaves the reference: the reference turns there and the
walk does not (miss), the reverse (early), both turn (side), other, or the walk is a prefix of
the reference (short) or runs past its end (past); (b) the culprit sub-goal: the first sub-goal
whose walk ends beyond the last node shared with the reference (re-run with the follower),
grouped by action and condition feature. Rows of the unread part are refused, not read.
Not part of the package.
"""

import sys
from collections import Counter
from pathlib import Path

from map2route.bench.groke.splits import UnreadRowsError, dev_rows
from map2route.streets.geo import heading_delta
from map2route.streets.loaders import load_instances, load_touchdown
from map2route.streets.navigator import follow
from map2route.streets.offline import OfflineAgent

DATA = Path("../shared/data/map2seq") if Path("../shared").is_dir() else Path("shared/data/map2seq")
TURN_DEG = 40.0


def turn_at(graph, path: list[int], i: int) -> float:
    """Heading change at ``path[i - 1]`` on the way to ``path[i]`` (0 at the start)."""
    if i < 2:
        return 0.0
    return heading_delta(graph.heading(path[i - 1], path[i]), graph.heading(path[i - 2], path[i - 1]))


def divergence(graph, ref: list[int], walk: list[int]) -> tuple[str, int]:
    k = 0
    while k < min(len(ref), len(walk)) and ref[k] == walk[k]:
        k += 1
    if k == len(walk):
        return "short", k
    if k == len(ref):
        return "past", k
    a, b = abs(turn_at(graph, ref, k)) > TURN_DEG, abs(turn_at(graph, walk, k)) > TURN_DEG
    return {(True, False): "miss", (False, True): "early", (True, True): "side"}.get((a, b), "other"), k


class _Recorder(OfflineAgent):
    """The offline follower, recording where each sub-goal's walk ends."""

    def reset(self) -> None:
        super().reset()
        self.ends: dict[int, int] = {}

    def act(self, obs):
        decision = super().act(obs)
        self.ends[obs.index] = len(obs.path) - 1 + len(decision.moves)
        return decision


def main(argv: list[str]) -> int:
    try:
        rows = dev_rows(Path(argv[1]))
    except UnreadRowsError as exc:
        print(exc)
        return 2
    graph = load_touchdown(DATA)
    insts = {i.id: i for i in load_instances(DATA, "val", graph=graph)}
    where, culprit = Counter(), Counter()
    agent = _Recorder()
    for r in rows:
        if r["official"]["sr"]:
            continue
        inst = insts[r["id"]]
        ref = [graph.node(p) for p in inst.route]
        res = follow(graph, inst.instruction, ref[0], inst.initial_heading, agent)
        kind, k = divergence(graph, ref, res.path)
        where[kind] += 1
        late = [i for i, e in sorted(agent.ends.items()) if e >= k]
        if late:
            goal = res.subgoals[late[0]]
            key = f"{goal.action.value} {goal.condition.feature or '-'}"
        else:
            key = "(walk ends on the reference)"
        culprit[key] += 1
        if "--list" in argv:
            print(f"{kind:5s} {r['id']:>6s} culprit={key:24s} {inst.instruction[:100]}")
    print("where the walk leaves the reference:", dict(where.most_common()))
    print("culprit sub-goal:", dict(culprit.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
