"""The demo: load the default shipped scene, print a summary table, write its rendered PNG."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from map2route.scenes.errors import SceneError

if TYPE_CHECKING:
    from rich.console import Console

    from map2route.semantic_map.model import SemanticMap


def shipped_index(maps: Path | None = None) -> dict[str, object]:
    """The parsed ``maps/index.json``.

    Raises:
        SceneError: if it is missing or malformed.
    """
    from map2route.paths import maps_dir

    root = maps if maps is not None else maps_dir()
    path = root / "index.json"
    try:
        index = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        msg = (f"No scene index at {str(path)!r}; generate the scenes with "
               "'map2route scenes generate --out maps'")
        raise SceneError(msg) from None
    except (OSError, json.JSONDecodeError) as err:
        msg = f"Cannot read the scene index {str(path)!r}: {err}"
        raise SceneError(msg) from err
    if not isinstance(index, dict) or "default" not in index:
        msg = f"{str(path)!r} must be a JSON object with 'test', 'dev' and 'default'"
        raise SceneError(msg)
    return index


def resolve_scene(name_or_path: str) -> Path:
    """A scene folder from a path or a shipped scene name (``procthor_00278``, ``default``).

    Raises:
        SceneError: naming the closest shipped scenes when there is no such scene.
    """
    import difflib

    from map2route.paths import maps_dir

    path = Path(name_or_path)
    if (path / "map.yaml").is_file():
        return path
    root = maps_dir()
    if name_or_path == "default":
        return root / str(shipped_index(root)["default"])
    candidate = root / name_or_path
    if (candidate / "map.yaml").is_file():
        return candidate
    names = sorted(p.name for p in root.iterdir() if (p / "map.yaml").is_file()) \
        if root.is_dir() else []
    close = difflib.get_close_matches(path.name, names, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else (
        f"; shipped scenes are in {str(root)!r}" if names else "")
    msg = f"No scene {name_or_path!r} (not a scene folder, not a shipped scene name){hint}"
    raise SceneError(msg)


def summary_table(m: SemanticMap) -> object:
    """A rich table: rooms by type, object counts, areas."""
    from rich.table import Table

    s = m.summary()
    table = Table(title=f"Scene {m.name}", show_header=True)
    table.add_column("what")
    table.add_column("value", justify="right")
    table.add_row("grid", f"{m.grid.cols} x {m.grid.rows} cells at {m.grid.resolution} m")
    table.add_row("rooms", str(s["rooms"]))
    rooms_by_type = s["rooms_by_type"]
    assert isinstance(rooms_by_type, dict)
    for kind, n in rooms_by_type.items():
        area = sum(r.area_m2 for r in m.rooms if r.type.snake == kind)
        table.add_row(f"  {kind.replace('_', ' ')}", f"{n}  ({area:.1f} m²)")
    table.add_row("doors / windows", f"{s['doors']} / {s['windows']}")
    table.add_row("objects", str(s["objects"]))
    table.add_row("  on or in a receptacle", str(sum(1 for o in m.objects if o.parent_id)))
    table.add_row("categories", str(s["categories"]))
    by_cat = s["objects_by_category"]
    assert isinstance(by_cat, dict)
    top = ", ".join(f"{k} {v}" for k, v in list(by_cat.items())[:8])
    table.add_row("most common", top)
    table.add_row("floor area", f"{s['floor_area_m2']} m²")
    table.add_row("traversable area", f"{s['traversable_area_m2']} m²")
    return table


def run_demo(out_dir: Path, *, console: Console | None = None) -> Path:
    """Load the default shipped scene, print its summary, render it; return the PNG path.

    Raises:
        SceneError / MapError: if the shipped scenes are missing or invalid.
    """
    from rich.console import Console

    from map2route.render import render_scene
    from map2route.semantic_map.io import load_scene

    con = console or Console()
    folder = resolve_scene("default")
    if not folder.is_dir():
        msg = f"The default scene {str(folder)!r} named in maps/index.json is missing"
        raise SceneError(msg)
    m = load_scene(folder)
    con.print(summary_table(m))
    png = render_scene(m, Path(out_dir) / f"{m.name}.png", title=f"{m.name} (default scene)")
    con.print(f"Rendered {png}")
    return png
