"""Statistics over a folder of scenes (``map2route scenes stats maps/``)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from map2route.scenes.errors import SceneError
from map2route.semantic_map.categories import STRUCTURE_CATEGORIES, vocabulary
from map2route.semantic_map.model import RoomType

#: Structure the benchmark counts as objects; also reported without it.


@dataclass
class SceneSetStats:
    """Counts over a set of scenes.

    Attributes:
        scenes: number of scenes.
        mean_rooms, mean_objects: per-scene means.
        mean_objects_without_structure: the same without walls, doorways, doorframes, windows.
        categories: distinct object categories over all scenes.
        rooms_by_type: room count per room type over all scenes.
        objects_by_category: object count per category over all scenes.
        vocabulary_covered / vocabulary_missing: benchmark categories present / absent.
        mean_floor_area_m2: mean summed room area.
    """

    scenes: int
    mean_rooms: float
    mean_objects: float
    categories: int
    mean_floor_area_m2: float
    mean_objects_without_structure: float = 0.0
    rooms_by_type: dict[str, int] = field(default_factory=dict)
    objects_by_category: dict[str, int] = field(default_factory=dict)
    vocabulary_covered: int = 0
    vocabulary_missing: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "scenes": self.scenes, "mean_rooms": self.mean_rooms,
            "mean_objects": self.mean_objects,
            "mean_objects_without_structure": self.mean_objects_without_structure,
            "categories": self.categories,
            "mean_floor_area_m2": self.mean_floor_area_m2,
            "rooms_by_type": self.rooms_by_type,
            "vocabulary_size": len(vocabulary()),
            "vocabulary_covered": self.vocabulary_covered,
            "vocabulary_missing": self.vocabulary_missing,
            "objects_by_category": self.objects_by_category, "names": self.names,
        }


def scene_folders(root: Path) -> list[Path]:
    """Scene folders under ``root`` (each holding ``semantics.json``), sorted by name.

    Raises:
        SceneError: if ``root`` is missing or holds no scenes.
    """
    if not root.is_dir():
        msg = f"Scene folder {str(root)!r} does not exist; pass the folder that holds the scenes"
        raise SceneError(msg)
    if (root / "semantics.json").is_file():
        return [root]
    folders = sorted(p for p in root.iterdir() if (p / "semantics.json").is_file())
    if not folders:
        msg = f"No scenes in {str(root)!r}: no subfolder holds a semantics.json"
        raise SceneError(msg)
    return folders


def scene_set_stats(root: Path) -> SceneSetStats:
    """Statistics of every scene under ``root``, read from ``semantics.json`` alone (fast).

    Raises:
        SceneError: if a ``semantics.json`` cannot be read.
    """
    folders = scene_folders(root)
    rooms_by_type: Counter[str] = Counter()
    by_cat: Counter[str] = Counter()
    n_rooms = n_objects = 0
    area = 0.0
    for folder in folders:
        path = folder / "semantics.json"
        try:
            sem = json.loads(path.read_text(encoding="utf-8"))
            rooms, objects = sem["rooms"], sem["objects"]
        except (OSError, json.JSONDecodeError, KeyError, TypeError) as err:
            msg = f"Cannot read {str(path)!r}: {err}"
            raise SceneError(msg) from err
        n_rooms += len(rooms)
        n_objects += len(objects)
        for r in rooms:
            rooms_by_type[RoomType.parse(r["type"]).snake] += 1
            area += _area(r["polygon"])
        by_cat.update(str(o["category"]) for o in objects)
    n = len(folders)
    vocab = set(vocabulary())
    return SceneSetStats(
        scenes=n, mean_rooms=round(n_rooms / n, 2), mean_objects=round(n_objects / n, 1),
        categories=len(by_cat), mean_floor_area_m2=round(area / n, 1),
        mean_objects_without_structure=round(
            sum(v for k, v in by_cat.items() if k not in STRUCTURE_CATEGORIES) / n, 1),
        rooms_by_type=dict(sorted(rooms_by_type.items())),
        objects_by_category=dict(sorted(by_cat.items(), key=lambda kv: (-kv[1], kv[0]))),
        vocabulary_covered=len(vocab & set(by_cat)),
        vocabulary_missing=sorted(vocab - set(by_cat)), names=[f.name for f in folders])


def _area(polygon: list[list[float]]) -> float:
    s = 0.0
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        s += x0 * y1 - x1 * y0
    return abs(s) / 2.0
