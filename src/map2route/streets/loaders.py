"""Loaders: the Touchdown panorama graph with Map2Seq POIs and instructions, and OSM extracts.

Touchdown/Map2Seq folder (see ``shared/data/map2seq/README.md``)::

    touchdown_nodes.txt   panoid,yaw,lat,lng
    touchdown_links.txt   from_panoid,heading_deg,to_panoid
    osm_pois.txt          POI_ID,LAT,LNG,{json OSM tags}
    val.json              [{route: {pano_path, osm_path, initial_heading}, instructions, instructions_id}]

Routes live on the panorama graph; POIs are attached to panoramas by haversine distance.
Any other OpenStreetMap ``.osm.pbf`` extract loads through pyrosm (the ``streets`` extra).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

from map2route.streets.errors import StreetError
from map2route.streets.graph import ATTACH_RADIUS_M, Poi, StreetGraph

NODES_FILE = "touchdown_nodes.txt"
LINKS_FILE = "touchdown_links.txt"
POIS_FILE = "osm_pois.txt"
SPLITS = ("train", "val", "dev", "test", "test_seen", "test_unseen")


class RouteJSON(TypedDict):
    """The raw ``route`` object of a Map2Seq split file."""

    pano_path: list[str]
    osm_path: list[str]
    initial_heading: float


class InstanceJSON(TypedDict):
    """One raw entry of a Map2Seq split file."""

    route: RouteJSON
    instructions: str
    instructions_id: int


@dataclass(frozen=True)
class NavInstance:
    """One Map2Seq navigation instruction with its ground-truth panorama route."""

    id: str
    instruction: str
    route: tuple[str, ...]
    initial_heading: float
    osm_route: tuple[str, ...] = ()


def _need(folder: Path, name: str) -> Path:
    path = folder / name
    if not path.is_file():
        msg = (f"{path} is missing; point --data at a Map2Seq/Touchdown folder holding "
               f"{NODES_FILE}, {LINKS_FILE}, {POIS_FILE} and <split>.json")
        raise StreetError(msg)
    return path


def read_pois(path: Path) -> list[Poi]:
    """Read ``POI_ID,LAT,LNG,{json tags}`` lines.

    Raises:
        StreetError: naming the file and line of a malformed entry.
    """
    pois: list[Poi] = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.strip()
            if not line:
                continue
            try:
                poi_id, lat, lng, raw = line.split(",", 3)
                tags = json.loads(raw)
                if not isinstance(tags, dict):
                    raise ValueError("tags are not a JSON object")
                pois.append(Poi(poi_id, float(lat), float(lng),
                                {str(k): str(v) for k, v in tags.items()}))
            except ValueError as err:
                msg = f"{path}:{lineno}: expected POI_ID,LAT,LNG,{{json tags}} ({err})"
                raise StreetError(msg) from None
    return pois


def load_touchdown(folder: Path, *, with_pois: bool = True,
                   attach_radius_m: float = ATTACH_RADIUS_M) -> StreetGraph:
    """Load the Touchdown panorama graph, with Map2Seq's OSM POIs attached by distance.

    Args:
        folder: the data folder (``touchdown_nodes.txt``, ``touchdown_links.txt``, ``osm_pois.txt``).
        with_pois: attach ``osm_pois.txt`` when present.
        attach_radius_m: POI attachment radius.

    Raises:
        StreetError: a missing file, a malformed line, or a link to an unknown panorama.
    """
    folder = Path(folder)
    ids: list[str] = []
    lat: list[float] = []
    lng: list[float] = []
    nodes_path = _need(folder, NODES_FILE)
    with nodes_path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            parts = line.strip().split(",")
            if parts == [""]:
                continue
            try:
                pano, _yaw, la, ln = parts
                ids.append(pano)
                lat.append(float(la))
                lng.append(float(ln))
            except ValueError:
                msg = f"{nodes_path}:{lineno}: expected panoid,yaw,lat,lng, got {line.strip()!r}"
                raise StreetError(msg) from None
    links: list[tuple[str, str, float | None]] = []
    links_path = _need(folder, LINKS_FILE)
    with links_path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            parts = line.strip().split(",")
            if parts == [""]:
                continue
            try:
                a, h, b = parts
                links.append((a, b, float(h)))
            except ValueError:
                msg = (f"{links_path}:{lineno}: expected from_panoid,heading,to_panoid, "
                       f"got {line.strip()!r}")
                raise StreetError(msg) from None
    pois: list[Poi] = []
    if with_pois and (folder / POIS_FILE).is_file():
        pois = read_pois(folder / POIS_FILE)
    return StreetGraph(ids, lat, lng, links, pois, attach_radius_m=attach_radius_m,
                       name=f"touchdown:{folder.name}")


def load_instances(folder: Path, split: str = "val", *, graph: StreetGraph | None = None
                   ) -> list[NavInstance]:
    """Read a Map2Seq split file ``<folder>/<split>.json``.

    Args:
        folder: the data folder.
        split: file stem, e.g. ``val``, or a path ending in ``.json`` (e.g. a fresh
            instruction set on the same graph).
        graph: when given, every route is checked to be a chain of links of this graph.

    Raises:
        StreetError: a missing or malformed file, or a route that leaves the graph.
    """
    path = Path(split) if split.endswith(".json") else Path(folder) / f"{split}.json"
    if not path.is_file():
        have = sorted(p.stem for p in Path(folder).glob("*.json"))
        msg = f"split {split!r} not found: {path} is missing (splits here: {have or 'none'})"
        raise StreetError(msg)
    try:
        raw: Any = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise StreetError(f"{path} is not valid JSON: {err}") from None
    if not isinstance(raw, list):
        raise StreetError(f"{path}: expected a JSON list of instances, got {type(raw).__name__}")
    out: list[NavInstance] = []
    for k, item in enumerate(raw):
        try:
            entry: InstanceJSON = item
            route = entry["route"]
            inst = NavInstance(id=str(entry.get("instructions_id", k)),
                               instruction=str(entry["instructions"]),
                               route=tuple(str(p) for p in route["pano_path"]),
                               initial_heading=float(route["initial_heading"]),
                               osm_route=tuple(str(o) for o in route.get("osm_path") or ()))
        except (KeyError, TypeError, ValueError) as err:
            msg = (f"{path}: entry {k} lacks {err}; each needs route.pano_path, "
                   f"route.initial_heading and instructions")
            raise StreetError(msg) from None
        if len(inst.route) < 1:
            raise StreetError(f"{path}: entry {k} ({inst.id}) has an empty pano_path")
        if graph is not None:
            idx = [graph.node(p) for p in inst.route]
            for a, b in zip(idx, idx[1:], strict=False):
                if not graph.has_link(a, b):
                    msg = (f"{path}: route of {inst.id} uses {graph.node_ids[a]} -> "
                           f"{graph.node_ids[b]}, which is not a link of {graph.name}")
                    raise StreetError(msg)
        out.append(inst)
    return out


def _tag_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and math.isnan(value):
        return ""
    return str(value)


def load_osm_pbf(path: Path, *, network_type: str = "walking", with_pois: bool = True,
                 attach_radius_m: float = ATTACH_RADIUS_M) -> StreetGraph:
    """Load an OpenStreetMap ``.osm.pbf`` extract through pyrosm (offline).

    Nodes are OSM way nodes; every way segment ``u - v`` becomes two links, or one where the
    network honours ``oneway`` (``driving``). POIs are pyrosm's points of interest (polygons
    by centroid) with all their tags; traffic signals come from the network's nodes.

    Args:
        path: the ``.osm.pbf`` file.
        network_type: pyrosm network: ``walking``, ``cycling``, ``driving``, ``all``.
        with_pois: read POIs.
        attach_radius_m: POI attachment radius.

    Raises:
        StreetError: pyrosm missing (install ``map2route[streets]``), an unreadable file,
            or an extract without streets.
    """
    path = Path(path)
    if not path.is_file():
        raise StreetError(f"OSM extract {path} does not exist; give a .osm.pbf file")
    try:
        import pyrosm  # noqa: PLC0415 - optional dependency (streets extra)
    except ImportError as err:
        msg = "loading .osm.pbf needs pyrosm: pip install 'map2route[streets]'"
        raise StreetError(msg) from err
    try:
        osm = pyrosm.OSM(str(path))
        result = osm.get_network(network_type=network_type, nodes=True)
    except Exception as err:  # pyrosm raises bare ValueError/KeyError/OSError on bad input
        raise StreetError(f"pyrosm cannot read {path} ({network_type}): {err}") from err
    if result is None:
        raise StreetError(f"{path} holds no {network_type} streets")
    nodes_df, edges_df = result
    ids = [str(int(v)) for v in nodes_df["id"]]
    oneway_applies = network_type == "driving"
    links: list[tuple[str, str, float | None]] = []
    oneway_col = edges_df["oneway"] if "oneway" in edges_df.columns else None
    for k, (u, v) in enumerate(zip(edges_df["u"], edges_df["v"], strict=True)):
        a, b = str(int(u)), str(int(v))
        links.append((a, b, None))
        one = _tag_text(oneway_col.iloc[k]) if oneway_col is not None else ""
        if not (oneway_applies and one in ("yes", "true", "1")):
            links.append((b, a, None))
    pois: list[Poi] = []
    if with_pois:
        for _, row in nodes_df.iterrows():
            tags = _row_tags(row.get("tags"))
            if tags.get("highway") == "traffic_signals" or tags.get("crossing") == "traffic_signals":
                pois.append(Poi(f"n{int(row['id'])}", float(row["lat"]), float(row["lon"]), tags))
        try:
            poi_df = osm.get_pois()
        except Exception as err:  # same as above: pyrosm's own errors are not typed
            raise StreetError(f"pyrosm cannot read POIs of {path}: {err}") from err
        if poi_df is not None:
            skip = {"id", "lon", "lat", "tags", "geometry", "visible", "version", "timestamp",
                    "changeset", "osm_type"}
            for _, row in poi_df.iterrows():
                tags = _row_tags(row.get("tags"))
                for col in poi_df.columns:
                    if col not in skip:
                        value = _tag_text(row[col])
                        if value:
                            tags[str(col)] = value
                point = row["geometry"].centroid
                pois.append(Poi(f"{row.get('osm_type', 'x')}{int(row['id'])}",
                                float(point.y), float(point.x), tags))
    return StreetGraph(ids, nodes_df["lat"].to_numpy(float), nodes_df["lon"].to_numpy(float),
                       links, pois, attach_radius_m=attach_radius_m, name=f"osm:{path.name}")


def _row_tags(raw: Any) -> dict[str, str]:
    text = _tag_text(raw)
    if not text:
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
