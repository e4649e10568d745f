"""GROKE's official scoring: path handling and metrics on the OSM street-node graph of Map2Seq.

This follows the path handling of GROKE's public evaluation code (fuzsh/groke,
``groke/evaluation/metrics.py``; facts re-implemented here, no code copied):

1. The predicted node path has its ``None`` entries dropped. A prediction of zero or one node is
   *completely wrong*: NE = inf (left out of the NE mean), SR = OSR = 0, SDTW = 0, nDTW = 1.0.
2. Otherwise every revisited node is removed (first visit kept, order kept) and consecutive
   remaining waypoints are reconnected by a breadth-first shortest path over the links among the
   instance's *area* nodes (the reference ``osm_path`` grown by ``AREA_HOPS`` link hops). A
   waypoint pair with a node outside the area is skipped; a pair with no connecting path gets
   its end appended when it is not yet on the path.
3. NE = haversine distance between the last area node of the expanded path and the last node of
   ``osm_path``; SR = 1[NE <= 25 m]; OSR = 1[some expanded node within 25 m of the goal];
   DTW with haversine local cost between expanded and reference coordinates;
   nDTW = exp(-DTW / reference length), reference length = sum of ``osm_path`` link lengths;
   SDTW = nDTW when successful, else 0.
4. Means: SR, OSR, nDTW, SDTW over every instance; NE over the instances with a finite NE.

Two things differ from GROKE's own setting and are stated where the numbers are reported:

- The Map2Seq OSM ``links.txt`` is not redistributed (too large), so the OSM street graph is
  rebuilt from ``osm_nodes.txt``: nodes closer than :data:`LINK_RADIUS_M` are linked both ways
  (street nodes are 7.5-15 m apart; every consecutive pair of every val ``osm_path`` is within
  15 m). Parallel streets in the covered area are far more than 16 m apart.
- Our agents walk the Touchdown panorama graph; a panorama path becomes an OSM node path by
  mapping every panorama to its nearest OSM node and merging consecutive repeats (a step that
  stays at one OSM node has not moved on the OSM graph).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from scipy.spatial import cKDTree

from map2route.streets.errors import StreetError
from map2route.streets.geo import haversine_matrix_m, project_xy
from map2route.streets.metrics import SUCCESS_RADIUS_M, dtw_m

#: The OSM street-node file of a Map2Seq folder.
OSM_NODES_FILE = "osm_nodes.txt"
#: Nodes closer than this (m) are linked in the rebuilt OSM street graph.
LINK_RADIUS_M = 16.0
#: Link hops the scoring area grows around the reference path (GROKE: ``neighbor_degrees=20``).
AREA_HOPS = 20


class OsmStreetGraph:
    """The Map2Seq OSM street-node graph: ids, coordinates, undirected links.

    Args:
        node_ids: unique OSM node ids.
        lat, lng: coordinates (degrees).
        link_radius_m: link every pair of nodes closer than this.
        links: explicit undirected links (id pairs) instead of the radius rule.

    Raises:
        StreetError: on mismatched arrays or duplicate ids.
    """

    def __init__(self, node_ids: Sequence[str], lat: Sequence[float] | np.ndarray,
                 lng: Sequence[float] | np.ndarray, *, link_radius_m: float = LINK_RADIUS_M,
                 links: Iterable[tuple[str, str]] | None = None) -> None:
        self.node_ids = tuple(str(n) for n in node_ids)
        self.lat = np.asarray(lat, dtype=np.float64)
        self.lng = np.asarray(lng, dtype=np.float64)
        n = len(self.node_ids)
        if self.lat.shape != (n,) or self.lng.shape != (n,):
            msg = f"OSM graph: {n} node ids but lat/lng of shapes {self.lat.shape}/{self.lng.shape}"
            raise StreetError(msg)
        self.index = {node_id: i for i, node_id in enumerate(self.node_ids)}
        if len(self.index) != n:
            raise StreetError("OSM graph: a node id appears twice")
        lat0 = float(self.lat.mean()) if n else 0.0
        lng0 = float(self.lng.mean()) if n else 0.0
        self._lat0, self._lng0 = lat0, lng0
        self._tree = cKDTree(project_xy(self.lat, self.lng, lat0=lat0, lng0=lng0))
        neighbours: list[list[int]] = [[] for _ in range(n)]
        if links is None:
            pairs = self._tree.query_pairs(link_radius_m, output_type="ndarray")
            pair_list = [(int(a), int(b)) for a, b in pairs]
        else:
            pair_list = [(self.index[str(a)], self.index[str(b)]) for a, b in links]
        for a, b in pair_list:
            if a != b:
                neighbours[a].append(b)
                neighbours[b].append(a)
        # Sorted neighbour lists make the breadth-first reconnection deterministic.
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(set(x)))
                                                             for x in neighbours)

    def __len__(self) -> int:
        return len(self.node_ids)

    def nearest(self, lat: np.ndarray, lng: np.ndarray) -> np.ndarray:
        """Indices of the OSM nodes nearest to each point."""
        xy = project_xy(np.asarray(lat, dtype=np.float64), np.asarray(lng, dtype=np.float64),
                        lat0=self._lat0, lng0=self._lng0)
        _, idx = self._tree.query(xy)
        return np.asarray(idx, dtype=np.int64).reshape(-1)

    def area(self, reference: Sequence[int], hops: int = AREA_HOPS) -> frozenset[int]:
        """The reference nodes grown by ``hops`` link hops (the nodes GROKE scores on)."""
        seen = set(reference)
        frontier = set(reference)
        for _ in range(hops):
            new = {m for k in frontier for m in self.neighbours[k] if m not in seen}
            if not new:
                break
            seen |= new
            frontier = new
        return frozenset(seen)

    def bfs_path(self, start: int, end: int, area: frozenset[int]) -> list[int] | None:
        """Fewest-links path from ``start`` to ``end`` inside ``area``; None when there is none."""
        if start == end:
            return [start]
        parent = {start: start}
        queue = deque([start])
        while queue:
            k = queue.popleft()
            for m in self.neighbours[k]:
                if m in parent or m not in area:
                    continue
                parent[m] = k
                if m == end:
                    path = [m]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return path[::-1]
                queue.append(m)
        return None


def load_osm_graph(folder: Path, *, link_radius_m: float = LINK_RADIUS_M) -> OsmStreetGraph:
    """Read ``osm_nodes.txt`` (``OSM_ID,LAT,LNG``) of a Map2Seq folder into the street graph.

    Raises:
        StreetError: the file is missing (official scoring needs it) or a row is malformed.
    """
    path = Path(folder) / OSM_NODES_FILE
    if not path.is_file():
        msg = (f"{path} is missing: official GROKE scoring needs the Map2Seq OSM street nodes; "
               f"add the file or score with --scoring panorama")
        raise StreetError(msg)
    ids: list[str] = []
    lat: list[float] = []
    lng: list[float] = []
    for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split(",")
        try:
            node_id, la, ln = parts[0].strip(), float(parts[1]), float(parts[2])
        except (IndexError, ValueError):
            raise StreetError(f"{path}:{k}: expected OSM_ID,LAT,LNG, got {line!r}") from None
        ids.append(node_id)
        lat.append(la)
        lng.append(ln)
    return OsmStreetGraph(ids, lat, lng, link_radius_m=link_radius_m)


@dataclass(frozen=True)
class OfficialScore:
    """One instance scored the official way; ``ne_m`` is inf for a completely wrong one."""

    ne_m: float
    sr: float
    osr: float
    ndtw: float
    sdtw: float
    completely_wrong: bool
    expanded_path: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        """Field name -> value (inf NE as None, so the JSON stays valid)."""
        out = asdict(self)
        out["ne_m"] = None if math.isinf(self.ne_m) else self.ne_m
        out["expanded_path"] = list(self.expanded_path)
        return out


def remove_revisits(path: Sequence[int]) -> list[int]:
    """Drop every later visit of a node (first visit kept, order kept)."""
    seen: set[int] = set()
    out = []
    for k in path:
        if k not in seen:
            seen.add(k)
            out.append(k)
    return out


def expand_path(graph: OsmStreetGraph, waypoints: Sequence[int], area: frozenset[int]
                ) -> list[int]:
    """Remove revisits, then reconnect consecutive waypoints by breadth-first paths in ``area``."""
    unique = remove_revisits(waypoints)
    if len(unique) <= 1:
        return unique
    expanded = [unique[0]]
    for start, end in zip(unique, unique[1:], strict=False):
        if start not in area or end not in area:
            continue
        link = graph.bfs_path(start, end, area)
        if link is not None:
            expanded.extend(link[1:])
        elif end not in expanded:
            expanded.append(end)
    return expanded


def score_official(graph: OsmStreetGraph, predicted: Sequence[int | None],
                   reference: Sequence[int], *, success_radius_m: float = SUCCESS_RADIUS_M,
                   area: frozenset[int] | None = None) -> OfficialScore:
    """Score an OSM node path against the reference ``osm_path`` (indices into ``graph``).

    Raises:
        ValueError: an empty reference.
    """
    if not reference:
        raise ValueError("score_official needs a non-empty reference osm_path")
    nodes = [k for k in predicted if k is not None]
    if len(nodes) <= 1:
        return OfficialScore(math.inf, 0.0, 0.0, 1.0, 0.0, True,
                             tuple(graph.node_ids[k] for k in nodes))
    if area is None:
        area = graph.area(reference)
    expanded = expand_path(graph, nodes, area)
    on_area = [k for k in expanded if k in area]
    ref = np.asarray(reference, dtype=np.int64)
    goal = ref[-1:]
    p = np.asarray(on_area, dtype=np.int64)
    ids = tuple(graph.node_ids[k] for k in expanded)
    if not len(p):
        return OfficialScore(math.inf, 0.0, 0.0, 1.0, 0.0, False, ids)
    to_goal = haversine_matrix_m(graph.lat[p], graph.lng[p], graph.lat[goal], graph.lng[goal])[:, 0]
    ne = float(to_goal[-1])
    success = ne <= success_radius_m
    osr = float(to_goal.min() <= success_radius_m)
    steps = haversine_matrix_m(graph.lat[ref[:-1]], graph.lng[ref[:-1]], graph.lat[ref[1:]],
                               graph.lng[ref[1:]]).diagonal() if len(ref) > 1 else np.zeros(0)
    ref_len = float(steps.sum())
    dtw = dtw_m(graph.lat[p], graph.lng[p], graph.lat[ref], graph.lng[ref])
    ndtw = math.exp(-dtw / ref_len) if ref_len > 0 else 1.0
    return OfficialScore(ne, float(success), osr, ndtw, ndtw if success else 0.0, False, ids)


def panorama_to_osm(graph: OsmStreetGraph, lat: np.ndarray, lng: np.ndarray) -> list[int]:
    """Nearest OSM node of every panorama of a path, consecutive repeats merged."""
    out: list[int] = []
    for k in graph.nearest(lat, lng).tolist():
        if not out or out[-1] != k:
            out.append(int(k))
    return out


def official_means(scores: Sequence[OfficialScore]) -> dict[str, float]:
    """GROKE's aggregation: SR/OSR/nDTW/SDTW over all, NE over the finite ones (``ne_n``).

    Without any finite NE the result has no ``ne_m`` (JSON has no infinity).
    """
    if not scores:
        return {}
    finite = [s.ne_m for s in scores if not math.isinf(s.ne_m)]
    out = {"ne_m": float(np.mean(finite))} if finite else {}
    out.update({"sr": float(np.mean([s.sr for s in scores])),
                "osr": float(np.mean([s.osr for s in scores])),
                "ndtw": float(np.mean([s.ndtw for s in scores])),
                "sdtw": float(np.mean([s.sdtw for s in scores])),
                "completely_wrong": float(sum(s.completely_wrong for s in scores)),
                "ne_n": float(len(finite))})
    return out
