"""The shipped scenes: ``maps/index.json`` and the one way a scene argument becomes a folder.

Every CLI command and every ROS node that takes a scene calls :func:`resolve_scene`, so a
scene folder path, a shipped scene's name (``procthor_00278``) and ``default`` mean the same
thing everywhere, and an unknown name gets the same message with the nearest shipped names.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

from map2route.paths import maps_dir
from map2route.semantic_map.errors import MapError

#: The scene argument that names the index's default scene.
DEFAULT_SCENE = "default"


def shipped_index(maps: Path | None = None) -> dict[str, object]:
    """The parsed ``maps/index.json`` (``test``, ``dev`` and ``default``).

    Args:
        maps: the folder of shipped scenes (default: :func:`map2route.paths.maps_dir`).

    Raises:
        MapError: if the index is missing or malformed.
    """
    root = maps if maps is not None else maps_dir()
    path = root / "index.json"
    try:
        index = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        msg = (f"No scene index at {str(path)!r}; generate the scenes with "
               "'map2route scenes generate --out maps'")
        raise MapError(msg) from None
    except (OSError, json.JSONDecodeError) as err:
        msg = f"Cannot read the scene index {str(path)!r}: {err}"
        raise MapError(msg) from err
    if not isinstance(index, dict) or DEFAULT_SCENE not in index:
        msg = f"{str(path)!r} must be a JSON object with 'test', 'dev' and 'default'"
        raise MapError(msg)
    return index


def shipped_scene_names(maps: Path | None = None) -> list[str]:
    """Names of the scene folders (those holding a ``map.yaml``) under the shipped folder, sorted."""
    root = maps if maps is not None else maps_dir()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "map.yaml").is_file())


def resolve_scene(scene: str | Path) -> Path:
    """The scene folder that a scene argument names.

    In order: an existing folder (a scene folder, or one that :func:`load_scene` will report
    on), ``default`` (the index's default scene), a shipped scene name (``maps/<name>``).

    Raises:
        MapError: when it is none of these, naming the closest shipped scenes.
    """
    text = str(scene)
    path = Path(text).expanduser()
    if path.is_dir():
        return path
    root = maps_dir()
    if text == DEFAULT_SCENE:
        return root / str(shipped_index(root)[DEFAULT_SCENE])
    shipped = root / text
    if text and "/" not in text and (shipped / "map.yaml").is_file():
        return shipped
    names = shipped_scene_names(root)
    close = difflib.get_close_matches(path.name, names, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else (
        f"; shipped scenes are in {str(root)!r}" if names else "")
    msg = (f"No scene {text!r}: the folder {str(path)!r} does not exist and no shipped scene "
           f"has that name{hint}")
    raise MapError(msg)
