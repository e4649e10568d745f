"""The navigator's local view and its JSON form (GROKE, Sec. 3.2 and Algorithm 1).

From the current node the view walks along the current heading: at each node it takes the
link whose heading differs least from the heading of travel, if under 100 degrees, counts the
intersections it crosses, and stops ``u`` intersections deep plus 3 nodes of look-ahead (or
at a dead end). Every view node lists its type, arrival heading and connections; POIs within
the attachment radius are listed once, at their nearest view node, with a letter id, their
relative direction (Forward within +-45 deg, Left, Right, Back) and haversine distance.
"""

from __future__ import annotations

import json
import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from map2route.streets.geo import bearing_deg, heading_delta, relative_direction
from map2route.streets.graph import StreetGraph

#: A continuation must turn less than this (deg) to count as "straight ahead" (Algorithm 1).
MAX_STRAIGHT_DELTA = 100.0
#: The only link on from a street node is followed up to this turn (deg); past it, a U-turn.
MAX_ONLY_WAY_DELTA = 150.0
#: At an intersection the continuation must be this close to straight (deg).
MAX_INTERSECTION_DELTA = 50.0
#: A sideways jog through a crossing must come back within this angle (deg) of the street.
JOG_DELTA = 30.0
#: A straight-on link this far (deg) off the street is checked against a sideways jog, which
#: wins when the street it leads back to lies this much (deg) closer to straight ahead.
SKEW_DELTA = 25.0
SKEW_MARGIN = 20.0
#: Nodes of look-ahead after the last counted intersection.
LOOKAHEAD_NODES = 3
#: An intersection with a traffic-signal POI this close (m) is a light. OSM puts signals on
#: the street centre lines, often 20-30 m from the panorama at a wide crossing; dev SR is
#: flat from 30 to 40 m (56.2-56.6 %) and lower at 20 m (55.2 %) and 15 m (55.0 %).
LIGHT_RADIUS_M = 30.0
#: Hard cap on view length, for long streets without intersections.
MAX_VIEW_NODES = 80


@dataclass(frozen=True)
class Connection:
    """A link out of a view node: target node, heading, turn relative to arrival heading."""

    target: int
    heading: float
    delta: float


@dataclass(frozen=True)
class ViewNode:
    """A node of the view path: index, arrival heading, intersection flag, connections."""

    node: int
    heading: float
    intersection: bool
    light: bool
    connections: tuple[Connection, ...]


@dataclass(frozen=True)
class ViewPoi:
    """A POI in view: letter, POI index, nearest view position, direction and distance."""

    letter: str
    poi: int
    position: int
    direction: str
    distance_m: float


@dataclass(frozen=True)
class LocalView:
    """What the navigator sees: the straight-ahead path and the POIs beside it."""

    current: int
    heading: float
    previous: tuple[int, ...]
    path: tuple[ViewNode, ...]
    pois: tuple[ViewPoi, ...]

    def to_dict(self, graph: StreetGraph) -> dict[str, Any]:
        """GROKE's JSON layout: position, heading, previous path, path nodes, POIs."""
        ids = graph.node_ids
        return {
            "current_position": {"node": ids[self.current],
                                 "lat": round(float(graph.lat[self.current]), 7),
                                 "lng": round(float(graph.lng[self.current]), 7)},
            "current_heading": round(self.heading, 1),
            "previous_path": [ids[i] for i in self.previous],
            "path_nodes": [
                {"id": ids[v.node], "type": "intersection" if v.intersection else "waypoint",
                 "traffic_light": v.light, "heading": round(v.heading, 1),
                 "connections": [{"to": ids[c.target], "heading": round(c.heading, 1),
                                  "turn": _turn_word(c.delta)} for c in v.connections]}
                for v in self.path],
            "pois": [
                {"id": p.letter, "name": graph.pois[p.poi].name,
                 "type": graph.pois[p.poi].kind, "near_node": ids[self.path[p.position].node],
                 "direction": p.direction, "distance_m": round(p.distance_m, 1)}
                for p in self.pois],
        }

    def to_json(self, graph: StreetGraph) -> str:
        """The view as compact JSON text for an LLM prompt."""
        return json.dumps(self.to_dict(graph), ensure_ascii=False, separators=(",", ":"))


def _turn_word(delta: float) -> str:
    if abs(delta) <= 30:
        return "straight"
    if abs(delta) >= 150:
        return "back"
    side = "right" if delta > 0 else "left"
    return f"slight {side}" if abs(delta) < 60 else side


def straight_next(graph: StreetGraph, node: int, heading: float, came_from: int | None
                  ) -> int | None:
    """The continuation of the street: the link turning least from ``heading``.

    Under 100 degrees along a street (it follows bends), under 50 at an intersection, so a
    T junction ends the walk instead of picking a side. Panorama links jog sideways across
    wide crossings, so at an intersection a link that turns more is still taken when the
    nodes it leads to (~20 m on) lie straight ahead.
    """
    if not graph.is_intersection(node):
        onward = [lk for lk in graph.out_links[node] if lk.target != came_from]
        if len(onward) == 1:
            # The only way on along a street: follow it unless it doubles back.
            limit = MAX_ONLY_WAY_DELTA
        else:
            limit = MAX_STRAIGHT_DELTA
        return _least_turn(graph, node, heading, came_from, limit)
    direct = _least_turn(graph, node, heading, came_from, MAX_INTERSECTION_DELTA)
    if direct is not None:
        d = abs(heading_delta(graph.heading(node, direct), heading))
        if d <= SKEW_DELTA:
            return direct
    best, best_delta = direct, JOG_DELTA if direct is None else d - SKEW_MARGIN
    for link in graph.out_links[node]:
        if link.target == came_from or abs(heading_delta(link.heading, heading)) >= 90.0:
            continue
        prev, cur = node, link.target
        for _ in range(2):
            nxt = _least_turn(graph, cur, heading, prev, MAX_INTERSECTION_DELTA)
            if nxt is None or nxt == node:
                break
            prev, cur = cur, nxt
        if cur == link.target:
            continue
        street = bearing_deg(graph.lat[node], graph.lng[node], graph.lat[cur], graph.lng[cur])
        d = abs(heading_delta(street, heading))
        if d < best_delta:
            best, best_delta = link.target, d
    return best


def _least_turn(graph: StreetGraph, node: int, heading: float, came_from: int | None,
                limit: float) -> int | None:
    best, best_delta = None, limit
    for link in graph.out_links[node]:
        if link.target == came_from:
            continue
        d = abs(heading_delta(link.heading, heading))
        if d < best_delta:
            best, best_delta = link.target, d
    return best


def street_heading(graph: StreetGraph, trail: Sequence[int], fallback: float) -> float:
    """Direction of the street over the last ~30 m (3 links) of ``trail``.

    Panorama graphs jog sideways at wide crossings; one link's heading can point 45 degrees
    off the street, so the walk follows the circular mean of the last three link headings.
    Link headings, not node positions: panorama positions are noisier than their headings.
    """
    if len(trail) < 4:
        return fallback
    hs = np.radians([graph.heading(a, b) for a, b in zip(trail[-4:], trail[-3:], strict=False)])
    return float(np.degrees(np.arctan2(np.sin(hs).sum(), np.cos(hs).sum())) % 360.0)


def _letters(k: int) -> str:
    alphabet = string.ascii_uppercase
    return alphabet[k] if k < 26 else alphabet[k // 26 - 1] + alphabet[k % 26]


def build_view(graph: StreetGraph, node: int, heading: float, *,
               previous: Sequence[int] = (), depth: int = 3, light_radius_m: float = LIGHT_RADIUS_M,
               poi_radius_m: float | None = None) -> LocalView:
    """Build the local view from ``node`` along ``heading`` (Algorithm 1 of GROKE).

    Args:
        graph: the street graph.
        node: current node index.
        heading: current heading of travel (deg).
        previous: the path walked so far (its last nodes are reported).
        depth: ``u``, the number of intersections to look through.
        light_radius_m: an intersection with a traffic signal this close is a light.
        poi_radius_m: list POIs up to this distance (default: the graph's attach radius).
    """
    came_from = previous[-2] if len(previous) >= 2 and previous[-1] == node else None
    nodes = [node]
    headings = [heading]
    seen = {node}
    h, prev, cur = heading, came_from, node
    crossed, tail = 0, -1
    trail = list(previous[-4:]) if previous and previous[-1] == node else [node]
    while len(nodes) < MAX_VIEW_NODES:
        if cur != node and graph.is_intersection(cur):
            crossed += 1
            if crossed >= depth and tail < 0:
                tail = LOOKAHEAD_NODES
        if tail == 0:
            break
        nxt = straight_next(graph, cur, street_heading(graph, trail, h), prev)
        if nxt is None or nxt in seen:
            break
        h = graph.heading(cur, nxt)
        prev, cur = cur, nxt
        nodes.append(cur)
        trail.append(cur)
        headings.append(h)
        seen.add(cur)
        if tail > 0:
            tail -= 1
    path = []
    for v, hv in zip(nodes, headings, strict=True):
        conns = tuple(Connection(lk.target, lk.heading, heading_delta(lk.heading, hv))
                      for lk in graph.out_links[v])
        path.append(ViewNode(v, hv, graph.is_intersection(v),
                             graph.is_intersection(v) and graph.has_signal(v, light_radius_m),
                             conns))
    radius = graph.attach_radius_m if poi_radius_m is None else poi_radius_m
    position = {v: k for k, v in enumerate(nodes)}
    best: dict[int, tuple[float, int]] = {}
    for v in nodes:
        for att in graph.pois_near(v, radius):
            old = best.get(att.poi)
            if old is None or att.distance_m < old[0]:
                best[att.poi] = (att.distance_m, position[v])
    pois = []
    for k, (poi, (dist, pos)) in enumerate(sorted(best.items(), key=lambda x: (x[1][1], x[1][0]))):
        v = nodes[pos]
        p = graph.pois[poi]
        b = bearing_deg(graph.lat[v], graph.lng[v], p.lat, p.lng)
        direction = "At" if dist < 1.0 else relative_direction(heading_delta(b, headings[pos]))
        pois.append(ViewPoi(_letters(k), poi, pos, direction, dist))
    return LocalView(node, heading, tuple(previous[-6:]), tuple(path), tuple(pois))
