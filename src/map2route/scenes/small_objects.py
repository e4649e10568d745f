"""Place small objects on and in receptacles without a physics engine.

ProcTHOR's own small-object stage asks Unity to drop each object onto a receptacle. We keep its
statistics and drop the physics: for every receptacle in a room (countertops, tables, dressers,
shelving units, toilets, fridges...), each object type that ProcTHOR's ``receptacles.json``
has seen on that receptacle type, and that ``placement-annotations.json`` allows in that room
type, is spawned with probability ``min(1, p * SPAWN_GAIN + SPAWN_FLOOR)`` (``p``: how often it
was seen there), up to three of a type on one receptacle. Each is given a random asset of its
type, a yaw in steps of 90 degrees relative to the receptacle, and a position where its
footprint lies inside the receptacle's (shrunk by a margin) without overlapping the ones
already placed there (rejection sampling with shapely). Objects go on top of a receptacle, or
inside it for the closed ones (fridge, garbage can, box), or on one of a shelving unit's shelves.

The result is written into the house JSON as ``children`` of the receptacle, exactly where
ProcTHOR puts its own small objects, so :func:`map2route.scenes.procthor.from_procthor_house`
imports them like any other house.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from shapely.geometry import Polygon

from map2route.scenes.assets import (
    Asset,
    asset_database,
    placement_annotations,
    receptacle_contents,
)

#: Gain and floor on ProcTHOR's per-receptacle frequencies, tuned so a house has about as many
#: small objects as its receptacles can hold.
SPAWN_GAIN = 3.5
SPAWN_FLOOR = 0.12
MAX_OF_TYPE_ON_RECEPTACLE = 3
#: House plants taller than this stand on the floor, not on furniture (ProcTHOR's rule).
HOUSE_PLANT_MAX_HEIGHT = 0.75
#: Margin kept between a placed footprint and the receptacle's edge.
EDGE_MARGIN_M = 0.03
PLACEMENT_TRIES = 12
#: Receptacles things go *into*; their children rest on an inner floor, not on the top.
INSIDE_RECEPTACLES = frozenset({"Fridge", "GarbageCan", "Box"})
#: Shelf heights (fraction of the unit's height) used for ShelvingUnit children.
SHELF_LEVELS = (0.02, 0.35, 0.68)
#: Small receptacles that only hold things as children of children; we place on furniture only.
NESTED_RECEPTACLES = frozenset({"Bowl", "Plate", "Pot", "Box", "CoffeeMachine"})

_ROOM_COLUMNS = {"Kitchen": "inKitchens", "LivingRoom": "inLivingRooms",
                 "Bedroom": "inBedrooms", "Bathroom": "inBathrooms"}


def _rect(cx: float, cz: float, sx: float, sz: float, yaw_rad: float) -> list[tuple[float, float]]:
    c, s = math.cos(yaw_rad), math.sin(yaw_rad)
    return [(cx + c * dx - s * dz, cz + s * dx + c * dz)
            for dx, dz in ((-sx / 2, -sz / 2), (sx / 2, -sz / 2), (sx / 2, sz / 2), (-sx / 2, sz / 2))]


def _assets_by_type() -> dict[str, list[Asset]]:
    out: dict[str, list[Asset]] = {}
    for a in asset_database().values():
        if a.split in (None, "train"):
            out.setdefault(a.object_type, []).append(a)
    for assets in out.values():
        assets.sort(key=lambda a: a.asset_id)
    return out


def _room_types(house: dict[str, Any]) -> dict[str, str]:
    """ProcTHOR room number (the prefix of object ids, ``"3|1"``) -> room type."""
    out = {}
    for r in house["rooms"]:
        out[str(r["id"]).split("|")[-1]] = str(r["roomType"])
    return out


def place_small_objects(house: dict[str, Any], *, seed: int) -> int:
    """Add small objects to ``house`` in place; return how many were placed.

    Args:
        house: a ProcTHOR house JSON with floor and wall objects.
        seed: seed of the placement's own random generator (deterministic).
    """

    rng = np.random.default_rng(seed)
    db = asset_database()
    by_type = _assets_by_type()
    contents = receptacle_contents()
    annotations = placement_annotations()
    room_types = _room_types(house)
    placed = 0
    types_in_room: dict[str, set[str]] = {}
    for obj in house.get("objects", []):
        room = str(obj["id"]).split("|")[0]
        types_in_room.setdefault(room, set()).add(db[obj["assetId"]].object_type)

    for obj in house.get("objects", []):
        parent = db.get(str(obj.get("assetId")))
        if parent is None or parent.object_type not in contents:
            continue
        if parent.object_type in NESTED_RECEPTACLES:
            continue
        room = str(obj["id"]).split("|")[0]
        column = _ROOM_COLUMNS.get(room_types.get(room, ""), "")
        if not column:
            continue
        yaw_deg = float((obj.get("rotation") or {}).get("y", 0.0))
        px, pz = float(obj["position"]["x"]), float(obj["position"]["z"])
        top_poly = Polygon(_rect(px, pz, parent.size_x, parent.size_z, -math.radians(yaw_deg)))
        inner = top_poly.buffer(-EDGE_MARGIN_M)
        if inner.is_empty:
            continue
        occupied: list[Polygon] = [Polygon(_rect(float(c["position"]["x"]), float(c["position"]["z"]),
                                                 db[c["assetId"]].size_x, db[c["assetId"]].size_z,
                                                 -math.radians(float(c["rotation"]["y"]))))
                                   for c in obj.get("children", []) if c.get("assetId") in db]
        base_y = float(obj["position"]["y"]) - parent.size_y / 2
        offered = sorted(contents[parent.object_type].items())
        # A random order per receptacle, so types late in the alphabet are not crowded out.
        for k in rng.permutation(len(offered)):
            child_type, p = offered[int(k)]
            ann = annotations.get(child_type, {})
            if not ann.get(column) or child_type not in by_type:
                continue
            if rng.random() > min(1.0, p * SPAWN_GAIN + SPAWN_FLOOR):
                continue
            count = 1
            while count < MAX_OF_TYPE_ON_RECEPTACLE and rng.random() <= p:
                count += 1
            candidates = by_type[child_type]
            if child_type == "HousePlant":
                candidates = [a for a in candidates if a.size_y < HOUSE_PLANT_MAX_HEIGHT]
            if not candidates:
                continue
            for _ in range(count):
                if child_type in types_in_room.setdefault(room, set()) and not ann.get("multiplePerRoom"):
                    break
                asset = candidates[int(rng.integers(len(candidates)))]
                spot = _find_spot(rng, inner, occupied, asset, yaw_deg)
                if spot is None:
                    break
                cx, cz, child_yaw, footprint = spot
                y = _rest_height(parent, base_y, asset, rng)
                obj.setdefault("children", []).append({
                    "id": f"small|{room}|{placed}",
                    "assetId": asset.asset_id,
                    "position": {"x": round(cx, 4), "y": round(y, 4), "z": round(cz, 4)},
                    "rotation": {"x": 0, "y": child_yaw, "z": 0},
                    "kinematic": bool(ann.get("isKinematic", False)),
                })
                occupied.append(footprint)
                types_in_room[room].add(child_type)
                placed += 1
    return placed


def _find_spot(rng: np.random.Generator, inner: Any, occupied: list[Any], asset: Asset,
               parent_yaw_deg: float) -> tuple[float, float, float, Any] | None:

    minx, minz, maxx, maxz = inner.bounds
    for _ in range(PLACEMENT_TRIES):
        child_yaw = (parent_yaw_deg + 90.0 * int(rng.integers(4))) % 360.0
        cx = float(rng.uniform(minx, maxx))
        cz = float(rng.uniform(minz, maxz))
        fp = Polygon(_rect(cx, cz, asset.size_x, asset.size_z, -math.radians(child_yaw)))
        if not inner.contains(fp):
            continue
        if any(fp.intersects(o) for o in occupied):
            continue
        return cx, cz, child_yaw, fp
    return None


def _rest_height(parent: Asset, base_y: float, child: Asset, rng: np.random.Generator) -> float:
    """Centre height of ``child`` resting on or in ``parent`` (whose bottom is at ``base_y``)."""
    if parent.object_type in INSIDE_RECEPTACLES:
        floor = base_y + (0.2 + 0.5 * float(rng.random())) * parent.size_y \
            if parent.object_type == "Fridge" else base_y + 0.05
        return floor + child.size_y / 2
    if parent.object_type == "ShelvingUnit":
        level = SHELF_LEVELS[int(rng.integers(len(SHELF_LEVELS)))]
        return base_y + level * parent.size_y + child.size_y / 2
    return base_y + parent.size_y + child.size_y / 2
