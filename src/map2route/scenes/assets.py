"""Read-only access to the ProcTHOR asset database and its placement annotations.

The PyPI ``procthor`` package ships these as JSON files beside its code. We read the files
directly (not ``procthor.databases``, which imports AI2-THOR and pandas at import time) so that
importing a house never needs the generator's dependencies.
"""

from __future__ import annotations

import difflib
import importlib.util
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from map2route.scenes.errors import SceneError


@dataclass(frozen=True)
class Asset:
    """One ProcTHOR asset: its type and axis-aligned bounding box size in metres (x, y up, z)."""

    asset_id: str
    object_type: str
    size_x: float
    size_y: float
    size_z: float
    split: str | None
    secondary_properties: tuple[str, ...] = ()


def procthor_database_dir() -> Path:
    """The ``procthor/databases`` folder of the installed package.

    Raises:
        SceneError: if the ``procthor`` package is not installed.
    """
    spec = importlib.util.find_spec("procthor")
    if spec is None or not spec.submodule_search_locations:
        msg = ("The 'procthor' package is not installed; install the scenes extra: "
               "pip install -e '.[scenes]'")
        raise SceneError(msg)
    return Path(next(iter(spec.submodule_search_locations))) / "databases"


def _load_json(name: str) -> Any:
    path = procthor_database_dir() / name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        msg = f"Cannot read the ProcTHOR database file {str(path)!r}: {err}"
        raise SceneError(msg) from err


@lru_cache(maxsize=1)
def asset_database() -> dict[str, Asset]:
    """Every asset by ``assetId`` (1,653 in procthor 0.0.x)."""
    raw = _load_json("asset-database.json")
    out: dict[str, Asset] = {}
    for object_type, assets in raw.items():
        for a in assets:
            bb = a["boundingBox"]
            out[a["assetId"]] = Asset(asset_id=a["assetId"], object_type=object_type,
                                      size_x=float(bb["x"]), size_y=float(bb["y"]),
                                      size_z=float(bb["z"]), split=a.get("split"),
                                      secondary_properties=tuple(a.get("secondaryProperties", ())))
    return out


def get_asset(asset_id: str) -> Asset:
    """The asset ``asset_id``.

    Raises:
        SceneError: naming the unknown asset and the closest known ids.
    """
    db = asset_database()
    try:
        return db[asset_id]
    except KeyError:

        close = difflib.get_close_matches(asset_id, list(db), n=3)
        msg = (f"Unknown ProcTHOR assetId {asset_id!r}; it is not in the procthor asset database"
               + (f" (did you mean {', '.join(close)}?)" if close else ""))
        raise SceneError(msg) from None


@lru_cache(maxsize=1)
def receptacle_contents() -> dict[str, dict[str, float]]:
    """For each receptacle type, the object types seen on or in it and their frequency ``p``."""
    raw = _load_json("receptacles.json")
    return {rec: {child: float(v["p"]) for child, v in kids.items()} for rec, kids in raw.items()}


@lru_cache(maxsize=1)
def placement_annotations() -> dict[str, dict[str, Any]]:
    """Per object type: ``inKitchens`` .. ``inBathrooms`` weights, ``multiplePerRoom``, ..."""
    raw = _load_json("placement-annotations.json")
    out: dict[str, dict[str, Any]] = {}
    for column, per_type in raw.items():
        for object_type, value in per_type.items():
            out.setdefault(object_type, {})[column] = value
    return out
