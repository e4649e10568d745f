"""Sample random street routes on the Touchdown graph, for writing a fresh GROKE set by hand.

Used for episodes/groke_fresh_v2.json (`PYTHONPATH=src python scripts/groke_sample_routes.py
2207 24 routes.json`): prints what the writer may see per route (crossings per leg with or
without a signal, turn sides, named POIs near the start, the corners and the end) and writes the
routes (pano_path, osm_path, initial_heading) to the JSON file. Not part of the package.
"""

import json
import random
import sys

import numpy as np

from map2route.streets.geo import bearing_deg
from map2route.streets.loaders import load_touchdown
from map2route.streets.official import expand_path, load_osm_graph, panorama_to_osm

DATA = "../shared/data/map2seq"
g = load_touchdown(DATA)
osm = load_osm_graph(DATA)
rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 2207)
N = int(sys.argv[2]) if len(sys.argv) > 2 else 24


def rel(h, base):
    return (h - base + 540) % 360 - 180


def straight_next(cur, prev, h):
    best = None
    for lk in g.out_links[cur]:
        if lk.target == prev:
            continue
        d = abs(rel(lk.heading, h))
        if d < 35 and (best is None or d < best[0]):
            best = (d, lk)
    return best[1] if best else None


def turn_link(cur, prev, h, side):
    cands = []
    for lk in g.out_links[cur]:
        if lk.target == prev:
            continue
        r = rel(lk.heading, h)
        if side == "right" and 55 <= r <= 125:
            cands.append((abs(r - 90), lk))
        if side == "left" and -125 <= r <= -55:
            cands.append((abs(r + 90), lk))
    return min(cands, key=lambda t: t[0])[1] if cands else None


def named_near(i, h, radius=28):
    out = []
    for a in g.pois_near(i, radius):
        p = g.pois[a.poi]
        if not p.name and not p.is_traffic_signal:
            continue
        b = bearing_deg(g.lat[i], g.lng[i], p.lat, p.lng)
        r = rel(b, h)
        side = (
            "ahead" if abs(r) < 30 else "behind" if abs(r) > 150 else ("right" if r > 0 else "left")
        )
        out.append(f"{p.label}@{a.distance_m:.0f}m {side}")
    return out[:6]


def walk_straight(path, h, n_inter, last_inter_xy):
    """Walk until n_inter new intersections passed (the n-th reached). returns h, list of (node, signal)."""
    crossings = []
    steps = 0
    while True:
        cur = path[-1]
        prev = path[-2] if len(path) > 1 else None
        lk = straight_next(cur, prev, h)
        if lk is None:
            return None
        path.append(lk.target)
        h = lk.heading
        steps += 1
        if steps > 80:
            return None
        t = lk.target
        if g.is_intersection(t):
            if last_inter_xy[0] is None or np.hypot(*(g.xy[t] - last_inter_xy[0])) > 22:
                crossings.append((t, g.has_signal(t, 30.0)))
                last_inter_xy[0] = g.xy[t]
                if len(crossings) == n_inter:
                    return h, crossings
        else:
            pass


def make_route():
    start = int(rng.choice(range(len(g))))
    if g.degree[start] != 2:
        return None
    lk0 = rng.choice(g.out_links[start])
    h = lk0.heading
    path = [start]
    last = [None]
    desc = {"start": g.node_ids[start], "heading": round(h, 1), "start_named": named_near(start, h)}
    legs = []
    nturns = rng.choice([1, 1, 2, 0])
    for _ in range(nturns):
        n = rng.choice([1, 1, 2, 3])
        r = walk_straight(path, h, n, last)
        if r is None:
            return None
        h, cr = r
        side = rng.choice(["left", "right"])
        corner = path[-1]
        lk = turn_link(corner, path[-2], h, side)
        if lk is None:
            return None
        legs.append(
            {
                "straight_crossings": [("light" if s else "plain") for _, s in cr],
                "turn": side,
                "corner_named": named_near(corner, h),
            }
        )
        path.append(lk.target)
        h = lk.heading
    # final leg
    if nturns == 0:
        n = rng.choice([1, 2, 3])
        r = walk_straight(path, h, n, last)
        if r is None:
            return None
        h, cr = r
        legs.append(
            {"straight_crossings": [("light" if s else "plain") for _, s in cr], "turn": None}
        )
    m = rng.randint(4, 13)
    passed = []
    walked = 0  # the leg can end early (no straight-on link): describe what was walked
    for _ in range(m):
        cur = path[-1]
        lk = straight_next(cur, path[-2], h)
        if lk is None:
            break
        path.append(lk.target)
        h = lk.heading
        walked += 1
        if g.is_intersection(lk.target) and (
            last[0] is None or np.hypot(*(g.xy[lk.target] - last[0])) > 22
        ):
            passed.append("light" if g.has_signal(lk.target, 30.0) else "plain")
            last[0] = g.xy[lk.target]
    if len(path) != len(set(path)):
        return None
    end = path[-1]
    desc["legs"] = legs
    desc["final_leg_panos"] = walked
    desc["final_leg_crossings"] = passed
    desc["final_leg_m"] = round(g.path_length_m(path[-walked - 1 :]), 0)
    desc["end_named"] = named_near(end, h)
    desc["length_m"] = round(g.path_length_m(path), 0)
    idx = list(path)
    o = panorama_to_osm(osm, g.lat[idx], g.lng[idx])
    area = osm.area(o)
    o = expand_path(osm, o, area)
    route = {
        "pano_path": [g.node_ids[i] for i in path],
        "osm_path": [osm.node_ids[k] for k in o],
        "initial_heading": round(desc["heading"], 1),
    }
    return desc, route


out = []
while len(out) < N:
    r = make_route()
    if r and 100 < r[0]["length_m"] < 700:
        out.append(r)
OUT = sys.argv[3] if len(sys.argv) > 3 else "routes.json"
with open(OUT, "w") as fh:
    json.dump([{"desc": d, "route": rt} for d, rt in out], fh, indent=1)
for k, (d, _) in enumerate(out):
    print(k, json.dumps(d))
