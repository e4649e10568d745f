"""The semantic map: grid layers, rooms, objects, doors, windows; load, save, render."""

from __future__ import annotations

from map2route.semantic_map.errors import MapError
from map2route.semantic_map.grid import GridSpec
from map2route.semantic_map.io import SCHEMA_VERSION, load_scene, save_scene
from map2route.semantic_map.model import (
    Door,
    ObjectInstance,
    Point,
    Room,
    RoomType,
    SemanticMap,
    Window,
)

__all__ = [
    "SCHEMA_VERSION",
    "Door",
    "GridSpec",
    "MapError",
    "ObjectInstance",
    "Point",
    "Room",
    "RoomType",
    "SemanticMap",
    "Window",
    "load_scene",
    "save_scene",
]
