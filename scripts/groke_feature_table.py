"""Split the offline follower's dev results by features of the route and the instruction
(issue 22, sixth round).

Usage (from the repository root):

    PYTHONPATH=src python -m map2route.cli bench groke --part dev --out out/groke_dev
    PYTHONPATH=src python scripts/groke_feature_table.py out/groke_dev/results.jsonl

For every feature: the number of dev routes that have it, official SR with and without it,
and the share of failures against the share of successes that have it (a feature much more
common among failures marks a class). Features are read from the reference panorama path on
the Touchdown graph (crossings, lights, turns, complex junctions) and from the instruction
and its sub-goals (length, counts, stop phrasing, landmarks with no POI near the route).
Rows of the unread part are refused, not read. Not part of the package.
"""

import re
import sys
from pathlib import Path

from map2route.bench.groke.splits import UnreadRowsError, dev_rows
from map2route.language.directions import Action, decompose
from map2route.streets.geo import haversine_m, heading_delta
from map2route.streets.landmarks import poi_match_score
from map2route.streets.loaders import load_instances, load_touchdown
from map2route.streets.navigator import follow
from map2route.streets.offline import LANDMARK_MIN, OfflineAgent

DATA = Path("../shared/data/map2seq") if Path("../shared").is_dir() else Path("shared/data/map2seq")
TURN_DEG = 40.0
CLUSTER_M = 12.0
LIGHT_M = 30.0


def clusters(graph, path: list[int]) -> list[tuple[int, int]]:
    """(start, end) positions of crossing clusters along ``path`` (as the follower's events)."""
    out, k = [], 1
    while k < len(path) - 1:
        if not graph.is_intersection(path[k]):
            k += 1
            continue
        start, end, run, j = k, k, 0.0, k + 1
        while j < len(path):
            run += graph.distance_m(path[j - 1], path[j])
            if run > CLUSTER_M:
                break
            if graph.is_intersection(path[j]):
                end = j
            j += 1
        out.append((start, end))
        k = end + 1
    return out


def turns(graph, path: list[int]) -> list[tuple[int, float]]:
    """(position, signed turn) where the path's street direction changes > TURN_DEG."""
    out = []
    for i in range(2, len(path) - 1):
        a = graph.heading(path[max(0, i - 3)], path[i])
        b = graph.heading(path[i], path[min(len(path) - 1, i + 3)])
        d = heading_delta(b, a)
        if abs(d) > TURN_DEG and not (out and i - out[-1][0] <= 3):
            out.append((i, d))
    return out


def signals(graph, node: int, radius_m: float = 10.0) -> set[int]:
    return {a.poi for a in graph.pois_near(node, radius_m) if graph.pois[a.poi].is_traffic_signal}


def second_signal(graph, path: list[int], window: int = 5, gap_m: float = 12.0) -> bool:
    """A signal <= 10 m from a street node whose crossing nodes within ``window`` nodes all
    have their own signal (<= 10 m), more than ``gap_m`` from it (at least one such crossing)."""
    for k, n in enumerate(path):
        mine = signals(graph, n)
        if graph.is_intersection(n) or not mine:
            continue
        xs = [m for m in path[max(0, k - window):k + window + 1] if graph.is_intersection(m)]
        if xs and all(signals(graph, m) and all(
                haversine_m(graph.pois[a].lat, graph.pois[a].lng, graph.pois[b].lat,
                            graph.pois[b].lng) > gap_m for a in mine for b in signals(graph, m))
                for m in xs):
            return True
    return False


def lit_by_other(graph, path: list[int], near_m: float = 15.0, radius_m: float = 30.0) -> bool:
    """A crossing on the path lit only by signals more than ``near_m`` off whose nearest
    street node is another crossing node more than CLUSTER_M away."""
    for a, b in clusters(graph, path):
        nodes = path[a:b + 1]
        atts = [(n, t) for n in nodes for t in graph.pois_near(n, radius_m)
                if graph.pois[t.poi].is_traffic_signal]
        if atts and all(
                t.distance_m > near_m and int(graph.poi_node[t.poi]) not in nodes
                and graph.is_intersection(int(graph.poi_node[t.poi]))
                and graph.distance_m(int(graph.poi_node[t.poi]), n) > CLUSTER_M
                for n, t in atts):
            return True
    return False


def route_features(graph, path: list[int]) -> dict[str, bool]:
    cl = clusters(graph, path)
    lights = [c for c in cl if any(graph.has_signal(path[i], LIGHT_M) for i in range(c[0], c[1] + 1))]
    tr = turns(graph, path)
    deg = [int(graph.degree[n]) for n in path]
    gaps = [graph.path_length_m(path[a[1]:b[0] + 1]) for a, b in zip(cl, cl[1:], strict=False)]
    end = path[-1]
    end_near_x = any(graph.is_intersection(n) for n in path[max(0, len(path) - 3):])
    length = graph.path_length_m(path)
    unsig = len(cl) - len(lights)
    f = {
        "route: length > 400 m": length > 400,
        "route: >= 2 turns": len(tr) >= 2,
        "route: 0 turns": len(tr) == 0,
        "route: a turn < 60 deg (slight)": any(abs(d) < 60 for _, d in tr),
        "route: a turn > 120 deg (sharp)": any(abs(d) > 120 for _, d in tr),
        "route: a node of degree >= 5": max(deg[1:-1], default=0) >= 5,
        "route: turns at a degree >= 5 node": any(
            max(deg[max(0, i - 1):i + 2]) >= 5 for i, _ in tr),
        "route: crossings 12-30 m apart (double)": any(g < 30 for g in gaps),
        "route: >= 5 crossings": len(cl) >= 5,
        "route: >= 2 crossings with no signal": unsig >= 2,
        "route: >= 1 crossing with no signal": unsig >= 1,
        "route: all crossings lit": bool(cl) and unsig == 0,
        "route: ends within 2 nodes of a crossing": end_near_x,
        "route: ends at a POI within 15 m": bool(graph.pois_near(end, 15.0)),
        "route: a crossing's second signal (> 12 m from its own)": second_signal(graph, path),
        "route: a crossing lit only by another's signal > 15 m off": lit_by_other(graph, path),
        "route: a signal >= 15 m from every crossing": any(
            graph.has_signal(n, 15.0) and not any(
                graph.is_intersection(m) for m in path[max(0, i - 3):i + 4])
            for i, n in enumerate(path)),
    }
    return f


def instruction_features(graph, text: str, path: list[int]) -> dict[str, bool]:
    low = text.lower()
    goals = decompose(text)
    words = len(text.split())
    stops = [g for g in goals if g.action == Action.STOP]
    stop = stops[-1].condition if stops else None
    n_turns = sum(g.action in (Action.TURN_LEFT, Action.TURN_RIGHT) for g in goals)
    near = {a.poi for n in path for a in graph.pois_near(n, 30.0)}
    lms = [g.condition.landmark for g in goals if g.condition.landmark]
    unground = [lm for lm in lms
                if not any(poi_match_score(graph.pois[p], lm) >= LANDMARK_MIN for p in near
                           if not graph.pois[p].is_traffic_signal)]
    counts = re.findall(r"\b(?:third|3rd|fourth|4th|fifth|three|four|five|six)\b", low)
    return {
        "text: > 60 words": words > 60,
        "text: < 30 words": words < 30,
        "text: >= 6 sub-goals": len(goals) >= 6,
        "text: turn sub-goals != route turns": n_turns != len(turns(graph, path)),
        "text: counts to >= 3": bool(counts),
        "text: 'light' >= 3 times": len(re.findall(r"\blights?\b", low)) >= 3,
        "text: says intersection(s)": "intersection" in low,
        "text: says block": bool(re.search(r"\bblocks?\b", low)),
        "text: says veer/slight/fork/bear": bool(re.search(r"\b(?:veer|slight|fork|bear)", low)),
        "text: says double / two sets": bool(re.search(r"\bdouble|two sets|set of lights", low)),
        "text: says end of the road / T": bool(re.search(r"\bend of the (?:road|street|block)\b|\bt[- ]intersection|\bt\b", low)),
        "text: says cross/across": bool(re.search(r"\b(?:cross|across)\b", low)),
        "text: says 'on your left/right'": bool(re.search(r"\bon (?:your|the) (?:left|right)\b", low)),
        "text: a landmark with no POI match near the route": bool(unground),
        "stop: at a landmark": bool(stop and stop.landmark and not stop.feature),
        "stop: at a light/intersection": bool(stop and stop.feature in ("light", "intersection", "t")),
        "stop: a few steps / fraction / block": bool(stop and (stop.relation in ("few", "fraction") or stop.feature == "block")),
        "stop: nothing to go by": bool(stop and not stop.feature and not stop.landmark and stop.relation == "at"),
        "stop: none parsed": stop is None,
    }


def main(argv: list[str]) -> int:
    try:
        rows = dev_rows(Path(argv[1]))
    except UnreadRowsError as exc:
        print(exc)
        return 2
    graph = load_touchdown(DATA)
    insts = {i.id: i for i in load_instances(DATA, "val", graph=graph)}
    agent = OfflineAgent()
    table: dict[str, list[tuple[bool, bool]]] = {}
    notes: dict[str, list[int]] = {}
    for r in rows:
        inst = insts[r["id"]]
        ok = bool(r["official"]["sr"])
        path = [graph.node(p) for p in inst.route]
        feats = route_features(graph, path) | instruction_features(graph, inst.instruction, path)
        res = follow(graph, inst.instruction, path[0], inst.initial_heading, agent)
        for n in {re.sub(r":.*", "", x) for x in res.notes}:
            notes.setdefault(n, [0, 0])[0 if ok else 1] += 1
        for k, v in feats.items():
            table.setdefault(k, []).append((v, ok))
    n_ok = sum(ok for _, ok in next(iter(table.values())))
    n_bad = len(rows) - n_ok
    print(f"{len(rows)} routes, SR {100 * n_ok / len(rows):.1f} % ({n_ok} ok, {n_bad} fail)")
    print(f"{'feature':52s} {'n':>4s} {'SR with':>8s} {'SR w/o':>7s} {'fail%':>6s} {'succ%':>6s}")

    def key(kv: tuple[str, list[tuple[bool, bool]]]) -> float:
        """Features that split failures from successes most come first."""
        vals = kv[1]
        return -abs(sum(not ok for v, ok in vals if v) / max(n_bad, 1)
                    - sum(ok for v, ok in vals if v) / n_ok)

    for name, vals in sorted(table.items(), key=key):
        w = [ok for v, ok in vals if v]
        wo = [ok for v, ok in vals if not v]
        sr_w = 100 * sum(w) / len(w) if w else float("nan")
        sr_wo = 100 * sum(wo) / len(wo) if wo else float("nan")
        print(f"{name:52s} {len(w):4d} {sr_w:8.1f} {sr_wo:7.1f} "
              f"{100 * (len(w) - sum(w)) / n_bad:6.1f} {100 * sum(w) / n_ok:6.1f}")
    print("notes (successes, failures):", {k: tuple(v) for k, v in sorted(notes.items())})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
