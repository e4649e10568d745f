"""The street graph: nodes with lat/lng, directed links with headings, intersections, POIs.

A node is a street point (a Street View panorama in Touchdown, an OSM way node elsewhere).
Links are directed and carry the heading of travel (degrees clockwise from north). A node
whose undirected degree is above 2 is an intersection. Points of interest (POIs) keep their
OSM tags and are attached to every node within ``attach_radius_m`` by haversine distance:
within 5 m a POI is *at* the node, farther out *beside* it, and *on the corner* when the node
is an intersection. Candidate pairs come from a scipy ``cKDTree`` over local metres; the
distances kept are haversine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
from scipy.spatial import cKDTree

from map2route.streets.errors import StreetError
from map2route.streets.geo import bearing_deg, haversine_m, haversine_matrix_m, project_xy

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: A POI this close (m) to a node is *at* it; up to ``attach_radius_m`` it is *beside* it.
AT_NODE_M = 5.0
#: Default radius (m) within which a POI is attached to a node (GROKE's proximity threshold).
ATTACH_RADIUS_M = 50.0

#: OSM keys that say what kind of place a POI is, in the order they are read.
KIND_KEYS = ("amenity", "shop", "tourism", "leisure", "office", "craft", "historic", "building",
             "public_transport", "railway", "highway", "man_made", "landuse", "sport")


@dataclass(frozen=True)
class Poi:
    """A point of interest with its OSM tags (``name``, ``shop``, ``amenity``, ``highway``...)."""

    id: str
    lat: float
    lng: float
    tags: Mapping[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The name a person reads (``name``, else ``brand``, else ``operator``), or ''."""
        for key in ("name", "brand", "operator"):
            value = self.tags.get(key)
            if value:
                return str(value)
        return ""

    @property
    def kind(self) -> str:
        """The OSM kind of place, e.g. ``bank``, ``cafe``, ``traffic_signals`` ('' if none)."""
        for key in KIND_KEYS:
            value = self.tags.get(key)
            if value and value not in ("yes", "no"):
                return str(value)
        return ""

    @property
    def is_traffic_signal(self) -> bool:
        """True for ``highway=traffic_signals`` and signal-controlled crossings."""
        return (self.tags.get("highway") == "traffic_signals"
                or self.tags.get("crossing") == "traffic_signals")

    @property
    def label(self) -> str:
        """Name and kind for display, e.g. ``Starbucks (cafe)``."""
        if self.name and self.kind:
            return f"{self.name} ({self.kind})"
        return self.name or self.kind or self.id


@dataclass(frozen=True)
class Link:
    """A directed street link ``source -> target`` (node indices) with its travel heading."""

    source: int
    target: int
    heading: float


@dataclass(frozen=True)
class PoiAttachment:
    """POI ``poi`` seen from node ``node`` at ``distance_m``: ``at``, ``beside`` or ``corner``."""

    poi: int
    node: int
    distance_m: float
    relation: str


class StreetGraph:
    """A directed street graph with POIs attached to nodes by haversine distance.

    Args:
        node_ids: unique node ids (strings).
        lat, lng: node coordinates (degrees), same length as ``node_ids``.
        links: directed ``(source_id, target_id, heading_deg or None)``; a missing heading is
            computed as the bearing between the two nodes.
        pois: points of interest to attach.
        attach_radius_m: attach a POI to every node within this haversine distance.
        name: a label for messages and exports.

    Raises:
        StreetError: on duplicate node ids, a link to an unknown node, or mismatched arrays.
    """

    def __init__(self, node_ids: Sequence[str], lat: Sequence[float] | NDArray[np.float64],
                 lng: Sequence[float] | NDArray[np.float64],
                 links: Sequence[tuple[str, str, float | None]], pois: Sequence[Poi] = (), *,
                 attach_radius_m: float = ATTACH_RADIUS_M, name: str = "") -> None:
        self.name = name
        self.node_ids: tuple[str, ...] = tuple(str(n) for n in node_ids)
        self.lat = np.asarray(lat, dtype=np.float64)
        self.lng = np.asarray(lng, dtype=np.float64)
        n = len(self.node_ids)
        if self.lat.shape != (n,) or self.lng.shape != (n,):
            msg = (f"street graph {name!r}: {n} node ids but lat/lng of shapes "
                   f"{self.lat.shape}/{self.lng.shape}; give one lat and one lng per node")
            raise StreetError(msg)
        self.index: dict[str, int] = {}
        for i, node_id in enumerate(self.node_ids):
            if node_id in self.index:
                raise StreetError(f"street graph {name!r}: node id {node_id!r} appears twice")
            self.index[node_id] = i
        out: list[list[Link]] = [[] for _ in range(n)]
        neighbours: list[set[int]] = [set() for _ in range(n)]
        for source_id, target_id, heading in links:
            try:
                s, t = self.index[str(source_id)], self.index[str(target_id)]
            except KeyError as err:
                msg = (f"street graph {name!r}: link {source_id!r} -> {target_id!r} names "
                       f"unknown node {err.args[0]!r}; every link end must be a node")
                raise StreetError(msg) from None
            if s == t:
                continue
            h = float(heading) if heading is not None else bearing_deg(
                self.lat[s], self.lng[s], self.lat[t], self.lng[t])
            out[s].append(Link(s, t, h % 360.0))
            neighbours[s].add(t)
            neighbours[t].add(s)
        self.out_links: tuple[tuple[Link, ...], ...] = tuple(tuple(o) for o in out)
        self._link_heading: dict[tuple[int, int], float] = {
            (lk.source, lk.target): lk.heading for o in out for lk in o}
        self.degree = np.array([len(s) for s in neighbours], dtype=np.int32)
        self.pois: tuple[Poi, ...] = tuple(pois)
        self.attach_radius_m = float(attach_radius_m)
        self.lat0 = float(self.lat.mean()) if n else 0.0
        self.lng0 = float(self.lng.mean()) if n else 0.0
        self.xy = project_xy(self.lat, self.lng, lat0=self.lat0, lng0=self.lng0)
        self.node_pois, self.poi_node = self._attach_pois()

    # --- structure ---------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.node_ids)

    @property
    def n_links(self) -> int:
        """Number of directed links."""
        return len(self._link_heading)

    def node(self, node_id: str) -> int:
        """Index of a node id.

        Raises:
            StreetError: naming the id when the graph does not have it.
        """
        try:
            return self.index[node_id]
        except KeyError:
            msg = f"node {node_id!r} is not in street graph {self.name!r} ({len(self)} nodes)"
            raise StreetError(msg) from None

    def is_intersection(self, i: int) -> bool:
        """True when node ``i`` joins more than two street nodes (undirected degree > 2)."""
        return bool(self.degree[i] > 2)

    def has_link(self, a: int, b: int) -> bool:
        """True when the directed link ``a -> b`` exists."""
        return (a, b) in self._link_heading

    def heading(self, a: int, b: int) -> float:
        """Heading of travel from ``a`` to ``b``: the link's own, else the bearing."""
        h = self._link_heading.get((a, b))
        if h is not None:
            return h
        return bearing_deg(self.lat[a], self.lng[a], self.lat[b], self.lng[b])

    def distance_m(self, a: int, b: int) -> float:
        """Haversine distance between nodes ``a`` and ``b``."""
        return haversine_m(self.lat[a], self.lng[a], self.lat[b], self.lng[b])

    def path_length_m(self, path: Sequence[int]) -> float:
        """Sum of haversine lengths of consecutive node pairs."""
        return float(sum(self.distance_m(a, b) for a, b in zip(path, path[1:], strict=False)))

    @cached_property
    def _tree(self) -> cKDTree:
        return cKDTree(self.xy)

    def nearest_node(self, lat: float, lng: float) -> tuple[int, float]:
        """The node nearest to a lat/lng point and its haversine distance (m)."""
        if not len(self):
            raise StreetError(f"street graph {self.name!r} has no nodes")
        p = project_xy(np.array([lat]), np.array([lng]), lat0=self.lat0, lng0=self.lng0)[0]
        _, i = self._tree.query(p)
        j = int(i)
        return j, haversine_m(lat, lng, self.lat[j], self.lng[j])

    # --- POIs ---------------------------------------------------------------------------------
    def _attach_pois(self) -> tuple[tuple[tuple[PoiAttachment, ...], ...], NDArray[np.int64]]:
        per_node: list[list[PoiAttachment]] = [[] for _ in range(len(self))]
        poi_node = np.full(len(self.pois), -1, dtype=np.int64)
        if not self.pois or not len(self):
            return tuple(tuple(a) for a in per_node), poi_node
        plat = np.array([p.lat for p in self.pois])
        plng = np.array([p.lng for p in self.pois])
        pxy = project_xy(plat, plng, lat0=self.lat0, lng0=self.lng0)
        # The projection is within a fraction of a percent of haversine here; query a little
        # wider and keep exact haversine distances.
        candidates = self._tree.query_ball_point(pxy, r=self.attach_radius_m * 1.02 + 1.0)
        for k, nodes in enumerate(candidates):
            if not nodes:
                continue
            idx = np.asarray(nodes, dtype=np.int64)
            d = haversine_matrix_m(plat[k:k + 1], plng[k:k + 1], self.lat[idx], self.lng[idx])[0]
            poi_node[k] = int(idx[int(np.argmin(d))])
            for node, dist in zip(idx.tolist(), d.tolist(), strict=True):
                if dist > self.attach_radius_m:
                    continue
                if dist <= AT_NODE_M:
                    relation = "at"
                elif self.degree[node] > 2:
                    relation = "corner"
                else:
                    relation = "beside"
                per_node[node].append(PoiAttachment(k, node, dist, relation))
        for lst in per_node:
            lst.sort(key=lambda a: a.distance_m)
        return tuple(tuple(a) for a in per_node), poi_node

    def pois_near(self, i: int, radius_m: float | None = None) -> tuple[PoiAttachment, ...]:
        """POIs attached to node ``i`` (nearest first), optionally within a smaller radius."""
        attached = self.node_pois[i]
        if radius_m is None:
            return attached
        return tuple(a for a in attached if a.distance_m <= radius_m)

    def has_signal(self, i: int, radius_m: float) -> bool:
        """True when a traffic-signal POI lies within ``radius_m`` of node ``i``."""
        return any(self.pois[a.poi].is_traffic_signal for a in self.pois_near(i, radius_m))

    def summary(self) -> dict[str, int]:
        """Counts for reports: nodes, links, intersections, POIs, attached POIs."""
        return {"nodes": len(self), "links": self.n_links,
                "intersections": int((self.degree > 2).sum()), "pois": len(self.pois),
                "attached_pois": int((self.poi_node >= 0).sum())}
