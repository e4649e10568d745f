"""Builders of RouteIR regions from a semantic map; each records how it was constructed.

Goal region of an object (the paper's G_O), a room, an object's footprint, a disk, the band
between two objects, and ordered waypoints around an object (Path-Shape "circle the table") or
along a room's walls ("patrol the room along the walls").
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from shapely.geometry import Polygon
from shapely.geometry.polygon import orient

from map2route.routeir.errors import RouteIRError
from map2route.routeir.model import Region

if TYPE_CHECKING:
    from map2route.semantic_map.model import ObjectInstance, SemanticMap

#: Radius of each waypoint disk of :func:`ring_waypoints` and :func:`wall_waypoints` (hand-built
#: RouteIRs: the planner benchmark, tests), metres: small enough to keep the shape, big enough
#: to hit. Episodes (``bench.generate.EPISODE_WAYPOINT_RADIUS_M``) and grounded programs
#: (``grounding.route_verbs.GROUNDED_WAYPOINT_RADIUS_M``) size theirs on their own.
RING_WAYPOINT_RADIUS_M = 0.3


def object_goal_region(m: SemanticMap, obj: ObjectInstance) -> Region:
    """G_O: cells of the object's room within r_O + 1 m of its centre (paper 000, HCS)."""
    return Region.from_mask(f"the {obj.category.replace('_', ' ')}", m.goal_region_mask(obj),
                            construction={"op": "goal_region", "object": obj.id},
                            object_ids=(obj.id,))


def footprint_region(m: SemanticMap, objects: list[ObjectInstance], label: str = "") -> Region:
    """The cells under the objects' footprints (the reference of Near/Far/Relative)."""
    if not objects:
        raise RouteIRError("footprint_region needs at least one object")
    name = label or " and ".join(o.category.replace("_", " ") for o in objects)
    return Region.from_mask(name, m.footprint_mask(objects),
                            construction={"op": "footprint", "objects": [o.id for o in objects]},
                            object_ids=tuple(o.id for o in objects))


def room_region(m: SemanticMap, room_id: int) -> Region:
    """All cells of a room."""
    room = m.get_room(room_id)
    return Region.from_mask(room.name or f"the {room.type.words}", m.room_mask(room_id),
                            construction={"op": "room", "room": room_id})


def disk_region(m: SemanticMap, center: tuple[float, float], radius_m: float,
                label: str = "") -> Region:
    """Cells whose centres lie within ``radius_m`` of ``center``."""
    if not radius_m > 0:
        raise RouteIRError(f"disk radius must be > 0, got {radius_m}")
    return Region.from_mask(label or f"within {radius_m} m of {center}",
                            m.disk_mask(center, radius_m),
                            construction={"op": "disk", "center": list(center),
                                          "radius_m": radius_m})


def between_region(m: SemanticMap, a: ObjectInstance, b: ObjectInstance, *,
                   half_width_m: float = 0.5) -> Region:
    """Traversable cells between two objects: projecting inside segment a-b, near its axis.

    Raises:
        RouteIRError: the band holds no traversable cell.
    """
    (ax, ay), (bx, by) = a.center, b.center
    xx, yy = m.grid.cell_centres()
    vx, vy = bx - ax, by - ay
    length2 = vx * vx + vy * vy
    if length2 == 0:
        raise RouteIRError(f"objects {a.id!r} and {b.id!r} share a centre; nothing lies between")
    t = ((xx - ax) * vx + (yy - ay) * vy) / length2
    dist = np.abs((xx - ax) * vy - (yy - ay) * vx) / math.sqrt(length2)
    mask = (t > 0.15) & (t < 0.85) & (dist <= half_width_m) & m.traversable
    if not mask.any():
        msg = f"no traversable cell lies between {a.id!r} and {b.id!r}"
        raise RouteIRError(msg)
    return Region.from_mask(f"between the {a.category} and the {b.category}", mask,
                            construction={"op": "between", "objects": [a.id, b.id],
                                          "half_width_m": half_width_m},
                            object_ids=(a.id, b.id))


def _waypoint(m: SemanticMap, x: float, y: float, label: str, op: dict[str, object]) -> Region:
    return Region.from_mask(label, m.disk_mask((x, y), RING_WAYPOINT_RADIUS_M) & m.traversable,
                            construction=op)


def ring_waypoints(m: SemanticMap, obj: ObjectInstance, *, count: int = 8,
                   clearance_m: float = 0.5, counterclockwise: bool = True,
                   start_angle_rad: float = 0.0) -> tuple[Region, ...]:
    """Ordered waypoints on a circle around ``obj`` at ``r_O + clearance_m`` (Path-Shape circle).

    Points that fall on no traversable cell are left out (recorded in each construction).

    Raises:
        RouteIRError: fewer than 3 points are traversable.
    """
    radius = obj.radius_m + clearance_m
    sign = 1.0 if counterclockwise else -1.0
    cx, cy = obj.center
    out: list[Region] = []
    for i in range(count):
        ang = start_angle_rad + sign * 2.0 * math.pi * i / count
        op = {"op": "ring_waypoint", "object": obj.id, "index": i, "count": count,
              "radius_m": radius, "counterclockwise": counterclockwise}
        wp = _waypoint(m, cx + radius * math.cos(ang), cy + radius * math.sin(ang),
                       f"around the {obj.category} ({i + 1}/{count})", op)
        if not wp.is_empty:
            out.append(wp)
    if len(out) < 3:
        msg = f"only {len(out)} of {count} points around {obj.id!r} are traversable; use a larger clearance"
        raise RouteIRError(msg)
    return tuple(out)


def wall_follow_waypoints(m: SemanticMap, room_id: int, *, offset_m: float = 0.6,
                          counterclockwise: bool = True) -> tuple[Region, ...]:
    """Ordered waypoints at the corners of a room inset by ``offset_m`` (patrol along the walls).

    Raises:
        RouteIRError: the inset room is empty or no corner is traversable.
    """

    room = m.get_room(room_id)
    inset = Polygon(room.polygon).buffer(-offset_m, join_style="mitre")
    if inset.is_empty or inset.geom_type != "Polygon":
        raise RouteIRError(f"room {room_id} is too small to follow its walls {offset_m} m inside")
    ring = orient(inset, sign=1.0 if counterclockwise else -1.0).exterior.coords[:-1]
    out = []
    for i, (x, y) in enumerate(ring):
        op = {"op": "wall_waypoint", "room": room_id, "index": i, "offset_m": offset_m,
              "counterclockwise": counterclockwise}
        wp = _waypoint(m, x, y, f"along the walls of room {room_id} ({i + 1}/{len(ring)})", op)
        if not wp.is_empty:
            out.append(wp)
    if not out:
        raise RouteIRError(f"no corner of room {room_id} inset by {offset_m} m is traversable")
    return tuple(out)
