"""Core types <-> ROS messages: the only place that knows both sides.

Grid data follows :mod:`map2route.semantic_map.grid`: row 0 is the bottom row, exactly like
``nav_msgs/OccupancyGrid.data``, so a layer's ``tobytes()`` in C order is the message's data.
"""

from __future__ import annotations

import array
import json
from typing import TYPE_CHECKING, Any

import numpy as np
from geometry_msgs.msg import Point, Point32, Pose, PoseStamped, Quaternion
from map2route_interfaces.msg import Region as RegionMsg
from map2route_interfaces.msg import (
    RouteConstraint,
    RouteStage,
    SemanticLayer,
    SemanticObject,
    SemanticOpening,
    SemanticRoom,
)
from map2route_interfaces.msg import RouteIR as RouteIRMsg
from nav_msgs.msg import MapMetaData, OccupancyGrid, Path
from sensor_msgs.msg import PointCloud2, PointField
from std_msgs.msg import ColorRGBA, Header
from visualization_msgs.msg import Marker, MarkerArray

from map2route.routeir.model import Constraint, ConstraintKind, Region, RouteIR, Stage
from map2route.semantic_map.errors import MapError
from map2route.semantic_map.grid import GridSpec
from map2route.semantic_map.model import Door, ObjectInstance, Room, RoomType, SemanticMap, Window

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.semantic_map.model import SemanticMap

#: OccupancyGrid values: free, occupied (walls and objects inside the house), unknown (outside).
FREE, OCCUPIED, UNKNOWN = 0, 100, -1

ROOM_COLOURS = {"kitchen": (0.98, 0.75, 0.35), "living_room": (0.55, 0.80, 0.55),
                "bedroom": (0.55, 0.65, 0.95), "bathroom": (0.60, 0.90, 0.95)}


def occupancy_values(m: SemanticMap) -> NDArray[np.int8]:
    """int8 ``(rows, cols)``: 0 traversable, 100 wall or object in the house, -1 outside."""
    out = np.full(m.grid.shape, UNKNOWN, dtype=np.int8)
    out[(m.room_ids >= 0) | m.walls] = OCCUPIED
    out[m.traversable] = FREE
    return out


def grid_info(grid: GridSpec, stamp: Any = None) -> MapMetaData:
    info = MapMetaData()
    if stamp is not None:
        info.map_load_time = stamp
    info.resolution = float(grid.resolution)
    info.width, info.height = int(grid.cols), int(grid.rows)
    info.origin = Pose()
    info.origin.position.x, info.origin.position.y = float(grid.origin_x), float(grid.origin_y)
    info.origin.orientation.w = 1.0
    return info


def grid_from_info(info: MapMetaData) -> GridSpec:
    return GridSpec(rows=int(info.height), cols=int(info.width), resolution=float(info.resolution),
                    origin_x=float(info.origin.position.x), origin_y=float(info.origin.position.y))


def occupancy_grid(m: SemanticMap, header: Header) -> OccupancyGrid:
    """``/map``: filled from bytes, 100x faster than from a numpy array element by element."""
    msg = OccupancyGrid()
    msg.header = header
    msg.info = grid_info(m.grid, header.stamp)
    msg.data = array.array("b", occupancy_values(m).tobytes())
    return msg


def occupancy_array(msg: OccupancyGrid) -> NDArray[np.int8]:
    """The message's data as int8 ``(rows, cols)``, row 0 at the bottom."""
    data = np.frombuffer(bytes(memoryview(msg.data).cast("B")), dtype=np.int8) \
        if isinstance(msg.data, array.array) else np.asarray(msg.data, dtype=np.int8)
    return data.reshape(int(msg.info.height), int(msg.info.width))


def yaw_quaternion(yaw: float) -> Quaternion:
    q = Quaternion()
    q.z, q.w = float(np.sin(yaw / 2.0)), float(np.cos(yaw / 2.0))
    return q


def quaternion_yaw(q: Quaternion) -> float:
    return float(np.arctan2(2.0 * (q.w * q.z + q.x * q.y), 1.0 - 2.0 * (q.y * q.y + q.z * q.z)))


def path_msg(points: NDArray[np.float64], header: Header) -> Path:
    """A ``nav_msgs/Path`` through ``points`` (N, 2), each pose facing the next point."""
    msg = Path()
    msg.header = header
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    for i, (x, y) in enumerate(pts):
        j = min(i + 1, len(pts) - 1)
        k = max(j - 1, 0)
        yaw = float(np.arctan2(pts[j, 1] - pts[k, 1], pts[j, 0] - pts[k, 0])) if j != k else 0.0
        ps = PoseStamped()
        ps.header = header
        ps.pose.position.x, ps.pose.position.y = float(x), float(y)
        ps.pose.orientation = yaw_quaternion(yaw)
        msg.poses.append(ps)
    return msg


def path_points(msg: Path) -> NDArray[np.float64]:
    return np.array([[p.pose.position.x, p.pose.position.y] for p in msg.poses],
                    dtype=np.float64).reshape(-1, 2)


# --- semantic layer ------------------------------------------------------------------------
def semantic_layer(m: SemanticMap, header: Header) -> Any:
    """The typed ``map2route_interfaces/SemanticLayer`` of ``m`` (with /map: the whole map)."""

    msg = SemanticLayer(header=header, scene=m.name, grid=grid_info(m.grid, header.stamp),
                        metadata_json=json.dumps(m.metadata, default=str))
    msg.room_ids = array.array("i", np.ascontiguousarray(m.room_ids, dtype=np.int32).tobytes())
    msg.walls = m.walls.astype(np.uint8).tobytes()
    for d in m.doors:
        (x0, y0), (x1, y1) = d.segment
        msg.doors.append(SemanticOpening(id=d.id, kind="door", room_a=int(d.room_ids[0]),
                                         room_b=int(d.room_ids[1]), p0=Point32(x=x0, y=y0),
                                         p1=Point32(x=x1, y=y1)))
    for w in m.windows:
        (x0, y0), (x1, y1) = w.segment
        msg.windows.append(SemanticOpening(id=w.id, kind="window", room_a=int(w.room_id),
                                           room_b=-1, p0=Point32(x=x0, y=y0),
                                           p1=Point32(x=x1, y=y1)))
    for r in m.rooms:
        msg.rooms.append(SemanticRoom(id=int(r.id), type=r.type.snake, name=r.name,
                                      polygon=[Point32(x=float(x), y=float(y)) for x, y in r.polygon],
                                      area_m2=float(r.area_m2)))
    for o in m.objects:
        msg.objects.append(SemanticObject(
            id=o.id, category=o.category, room_id=-1 if o.room_id is None else int(o.room_id),
            footprint=[Point32(x=float(x), y=float(y)) for x, y in o.footprint],
            center=Point(x=float(o.center[0]), y=float(o.center[1])),
            z_min=float(o.z_min), z_max=float(o.z_max), parent_id=o.parent_id or ""))
    return msg


def _pt(p: Any) -> tuple[float, float]:
    # Point32 is float32: round back to the float64 the map was written in (1e-6 m).
    return round(float(p.x), 6), round(float(p.y), 6)


def semantic_map_from_msgs(grid_msg: OccupancyGrid, layer: Any) -> SemanticMap:
    """Rebuild the :class:`SemanticMap` from ``/map`` and ``/semantic_map``.

    Raises:
        MapError: the two messages do not describe the same grid, or the layer is invalid.
    """

    grid = grid_from_info(grid_msg.info)
    if grid != grid_from_info(layer.grid):
        msg = (f"/map ({grid.cols}x{grid.rows}) and /semantic_map ({layer.grid.width}x"
               f"{layer.grid.height}) describe different grids; are two map servers running?")
        raise MapError(msg)
    occ = occupancy_array(grid_msg)
    room_ids = np.frombuffer(memoryview(layer.room_ids).cast("B"), dtype=np.int32) \
        if isinstance(layer.room_ids, array.array) else np.asarray(layer.room_ids, np.int32)
    walls = np.frombuffer(bytes(layer.walls), dtype=np.uint8) if not isinstance(
        layer.walls, np.ndarray) else layer.walls
    n = grid.rows * grid.cols
    if room_ids.size != n or walls.size != n:
        raise MapError(f"/semantic_map layers have {room_ids.size} and {walls.size} cells; "
                       f"the grid has {n}")
    rooms = tuple(Room(id=int(r.id), type=RoomType.parse(r.type),
                       polygon=tuple(_pt(p) for p in r.polygon), name=r.name) for r in layer.rooms)
    objects = tuple(ObjectInstance(
        id=o.id, category=o.category, room_id=None if o.room_id < 0 else int(o.room_id),
        footprint=tuple(_pt(p) for p in o.footprint), center=(o.center.x, o.center.y),
        z_min=float(o.z_min), z_max=float(o.z_max), parent_id=o.parent_id or None)
        for o in layer.objects)
    doors = tuple(Door(id=d.id, room_ids=(int(d.room_a), int(d.room_b)),
                       segment=(_pt(d.p0), _pt(d.p1))) for d in layer.doors)
    windows = tuple(Window(id=w.id, room_id=int(w.room_a), segment=(_pt(w.p0), _pt(w.p1)))
                    for w in layer.windows)
    return SemanticMap(name=layer.scene, grid=grid, traversable=occ == FREE,
                       walls=walls.reshape(grid.shape).astype(bool),
                       room_ids=room_ids.reshape(grid.shape).copy(), rooms=rooms,
                       objects=objects, doors=doors, windows=windows,
                       metadata={**json.loads(layer.metadata_json or "{}"),
                                 "source": "ros:/map+/semantic_map"})


def semantic_markers(m: SemanticMap, header: Header, *, text_size: float = 0.25) -> MarkerArray:
    """Rooms (outline + type label) and objects (footprint + category label) for RViz."""
    out = MarkerArray()
    clear = Marker(header=header, action=Marker.DELETEALL)
    out.markers.append(clear)
    for r in m.rooms:
        rgb = ROOM_COLOURS.get(r.type.snake, (0.8, 0.8, 0.8))
        colour = ColorRGBA(r=rgb[0], g=rgb[1], b=rgb[2], a=1.0)
        outline = Marker(header=header, ns="rooms", id=int(r.id), type=Marker.LINE_STRIP,
                         action=Marker.ADD, color=colour)
        outline.pose.orientation.w = 1.0
        outline.scale.x = 0.05
        outline.points = [Point(x=float(x), y=float(y)) for x, y in (*r.polygon, r.polygon[0])]
        label = Marker(header=header, ns="room_labels", id=int(r.id),
                       type=Marker.TEXT_VIEW_FACING, action=Marker.ADD, color=colour,
                       text=f"{r.type.words} {r.id}")
        label.pose.position.x, label.pose.position.y = r.centroid
        label.pose.position.z, label.pose.orientation.w = 0.5, 1.0
        label.scale.z = text_size * 1.6
        out.markers.extend([outline, label])
    grey = ColorRGBA(r=0.3, g=0.3, b=0.3, a=1.0)
    for i, o in enumerate(m.objects):
        fp = Marker(header=header, ns="objects", id=i, type=Marker.LINE_STRIP,
                    action=Marker.ADD, color=grey)
        fp.pose.orientation.w = 1.0
        fp.scale.x = 0.02
        fp.points = [Point(x=float(x), y=float(y), z=float(o.z_max))
                     for x, y in (*o.footprint, o.footprint[0])]
        label = Marker(header=header, ns="object_labels", id=i, type=Marker.TEXT_VIEW_FACING,
                       action=Marker.ADD, color=grey, text=o.category.replace("_", " "))
        label.pose.position.x, label.pose.position.y = float(o.center[0]), float(o.center[1])
        label.pose.position.z, label.pose.orientation.w = float(o.z_max) + 0.1, 1.0
        label.scale.z = text_size
        out.markers.extend([fp, label])
    return out


# --- RouteIR -------------------------------------------------------------------------------
def _region_msg(r: Region, grid: GridSpec) -> Any:

    doc = r.to_json(grid)
    runs = doc["runs"]
    return RegionMsg(label=r.label, object_ids=list(r.object_ids),
                     run_starts=[int(s) for s, _ in runs], run_lengths=[int(n) for _, n in runs],
                     construction_json=json.dumps(r.construction))


def _region(msg: Any, grid: GridSpec) -> Region:
    runs = [[int(s), int(n)] for s, n in zip(msg.run_starts, msg.run_lengths, strict=True)]
    return Region.from_json({"label": msg.label, "object_ids": list(msg.object_ids),
                             "construction": json.loads(msg.construction_json or "{}"),
                             "runs": runs}, grid)


def routeir_msg(ir: RouteIR, header: Header, *, instruction: str = "") -> Any:
    """The typed ``map2route_interfaces/RouteIR`` of ``ir`` (regions as run-lengths)."""

    g = ir.grid
    msg = RouteIRMsg(header=header, scene=ir.scene, instruction=instruction,
                     grid=grid_info(g), metadata_json=json.dumps(ir.metadata, default=str))
    if ir.start is not None:
        msg.has_start = True
        msg.start = Point(x=float(ir.start[0]), y=float(ir.start[1]))
    for s in ir.stages:
        msg.stages.append(RouteStage(label=s.label, target=_region_msg(s.target, g),
                                     waypoints=[_region_msg(w, g) for w in s.waypoints]))
    for c in ir.constraints:
        cm = RouteConstraint(kind=c.kind.value, label=c.label, weight=float(c.weight),
                             region=_region_msg(c.region, g))
        if c.other is not None:
            cm.has_other, cm.other = True, _region_msg(c.other, g)
        if c.spatial_scope is not None:
            cm.has_spatial_scope, cm.spatial_scope = True, _region_msg(c.spatial_scope, g)
        cm.temporal_scope = [] if c.temporal_scope is None else [int(i) for i in c.temporal_scope]
        msg.constraints.append(cm)
    return msg


def routeir_from_msg(msg: Any) -> RouteIR:
    """The core :class:`RouteIR` of a ``map2route_interfaces/RouteIR`` message."""
    g = grid_from_info(msg.grid)
    stages = tuple(Stage(target=_region(s.target, g),
                         waypoints=tuple(_region(w, g) for w in s.waypoints), label=s.label)
                   for s in msg.stages)
    constraints = tuple(Constraint(
        kind=ConstraintKind(c.kind), region=_region(c.region, g),
        other=_region(c.other, g) if c.has_other else None,
        spatial_scope=_region(c.spatial_scope, g) if c.has_spatial_scope else None,
        temporal_scope=tuple(int(i) for i in c.temporal_scope) if len(c.temporal_scope) else None,
        weight=float(c.weight), label=c.label) for c in msg.constraints)
    return RouteIR(stages=stages, constraints=constraints, grid=g,
                   start=(msg.start.x, msg.start.y) if msg.has_start else None,
                   scene=msg.scene, metadata=json.loads(msg.metadata_json or "{}"))


def cloud_msg(points: NDArray[np.floating], frame_id: str, stamp: Any) -> PointCloud2:
    """``(N, 3)`` points as a ``sensor_msgs/PointCloud2`` (x, y, z float32, unorganised)."""
    pts = np.asarray(points, dtype=np.float32).reshape(-1, 3)
    fields = [PointField(name=n, offset=4 * i, datatype=PointField.FLOAT32, count=1)
              for i, n in enumerate("xyz")]
    out = PointCloud2(height=1, width=len(pts), fields=fields, is_bigendian=False,
                      point_step=12, row_step=12 * len(pts), is_dense=True)
    out.header.frame_id, out.header.stamp = frame_id, stamp
    out.data = pts.tobytes()
    return out
