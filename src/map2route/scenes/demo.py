"""The demo: load the default shipped scene, print a summary table, write its rendered PNG."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from map2route.render import render_scene
from map2route.scenes.errors import SceneError
from map2route.semantic_map.io import load_scene
from map2route.semantic_map.shipped import resolve_scene

if TYPE_CHECKING:
    from rich.console import Console

    from map2route.semantic_map.model import SemanticMap


def summary_table(m: SemanticMap) -> object:
    """A rich table: rooms by type, object counts, areas."""

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
