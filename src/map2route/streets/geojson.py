"""Export a street graph as Nav2 Route Server GeoJSON.

Layout read by ``nav2_route``'s GeoJSON graph parser: a FeatureCollection of ``Point``
features (``properties.id``, ``frame``) for nodes and ``MultiLineString`` features
(``properties.id``, ``startid``, ``endid``) for edges; edges are one-directional, so a
two-way street is two features. Coordinates are local east/north metres about the graph's
mean lat/lng (the ``map`` frame); each node also keeps its lat/lng and source id, and the
collection records the origin so the frame can be tied to a GPS datum.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from map2route.files import atomic_write_text
from map2route.streets.graph import StreetGraph


def to_nav2_geojson(graph: StreetGraph, *, frame: str = "map") -> dict[str, Any]:
    """Nodes get ids ``0..N-1``; edges continue from ``N``."""
    features: list[dict[str, Any]] = []
    for i, node_id in enumerate(graph.node_ids):
        x, y = (round(float(v), 3) for v in graph.xy[i])
        features.append({"type": "Feature",
                         "properties": {"id": i, "frame": frame, "source_id": node_id,
                                        "lat": float(graph.lat[i]), "lng": float(graph.lng[i]),
                                        "intersection": graph.is_intersection(i)},
                         "geometry": {"type": "Point", "coordinates": [x, y]}})
    edge_id = len(graph)
    for links in graph.out_links:
        for lk in links:
            a = [round(float(v), 3) for v in graph.xy[lk.source]]
            b = [round(float(v), 3) for v in graph.xy[lk.target]]
            features.append({"type": "Feature",
                             "properties": {"id": edge_id, "startid": lk.source,
                                            "endid": lk.target, "heading": lk.heading},
                             "geometry": {"type": "MultiLineString", "coordinates": [[a, b]]}})
            edge_id += 1
    return {"type": "FeatureCollection", "name": graph.name or "graph",
            "origin": {"lat": graph.lat0, "lng": graph.lng0},
            "features": features}


def write_nav2_geojson(graph: StreetGraph, path: Path, *, frame: str = "map") -> Path:
    """Write :func:`to_nav2_geojson` atomically; returns ``path``."""
    path = Path(path)
    atomic_write_text(path, json.dumps(to_nav2_geojson(graph, frame=frame)))
    return path
