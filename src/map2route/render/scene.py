"""Draw a semantic map (and optionally a route and shaded regions) as a PNG.

Rooms are filled by type (cells the robot's centre cannot reach are drawn paler), walls dark,
doors and windows as coloured segments, object footprints outlined with their category written
on the larger ones and smaller ones drawn as dots, a legend and a scale bar. Uses matplotlib's
object-oriented API on an Agg canvas, so no GUI and no global pyplot state is involved.
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import matplotlib as mpl
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.patches import Polygon as MplPolygon
from mpl_toolkits.axes_grid1.anchored_artists import AnchoredSizeBar

from map2route.files import atomic_write_bytes
from map2route.render.errors import RenderError
from map2route.semantic_map.categories import STRUCTURE_CATEGORIES
from map2route.semantic_map.model import RoomType

if TYPE_CHECKING:
    import os
    from collections.abc import Sequence

    from numpy.typing import NDArray

    from map2route.semantic_map.model import SemanticMap


class RouteLike(Protocol):
    """Anything with ``points`` (N, 2) map metres and ``stage_index`` (N,) ints."""

    @property
    def points(self) -> Any: ...

    @property
    def stage_index(self) -> Any: ...


#: Room fill colours (RGB 0..1) by type.
ROOM_COLOURS: dict[RoomType, tuple[float, float, float]] = {
    RoomType.KITCHEN: (0.99, 0.82, 0.55),
    RoomType.LIVING_ROOM: (0.68, 0.85, 0.67),
    RoomType.BEDROOM: (0.70, 0.78, 0.95),
    RoomType.BATHROOM: (0.85, 0.72, 0.90),
    RoomType.HALLWAY: (0.95, 0.91, 0.81),
}
WALL_COLOUR = (0.2, 0.2, 0.22)
DOOR_COLOUR = "#b35806"
WINDOW_COLOUR = "#1f9bd1"
#: Objects with a footprint at least this large (m^2) get a text label; smaller ones a dot.
LABEL_MIN_AREA_M2 = 0.3
#: Structure drawn on its own (walls, door and window segments), not as labelled objects.


def _base_image(m: SemanticMap) -> NDArray[np.float64]:
    """RGB image (rows, cols, 3), row 0 at the bottom like the layers."""
    img = np.ones((*m.grid.shape, 3), dtype=np.float64)
    for room in m.rooms:
        colour = np.asarray(ROOM_COLOURS[room.type])
        mask = m.room_ids == room.id
        pale = 1.0 - 0.45 * (1.0 - colour)
        img[mask & m.traversable] = colour
        img[mask & ~m.traversable] = pale
    img[m.walls] = WALL_COLOUR
    return img


def _polygon_area(pts: Sequence[tuple[float, float]]) -> float:
    a = np.asarray(pts, dtype=np.float64)
    x, y = a[:, 0], a[:, 1]
    return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2.0)


def render_scene(m: SemanticMap, out_path: str | os.PathLike[str], *,
                 route: RouteLike | None = None,
                 regions: Sequence[tuple[str, NDArray[np.bool_]]] = (),
                 title: str = "", dpi: int = 150) -> Path:
    """Render ``m`` to a PNG at ``out_path`` (written atomically) and return the path.

    Args:
        m: the semantic map.
        out_path: PNG file to write; parent folders are created.
        route: optional route (``.points`` (N, 2) metres, ``.stage_index`` (N,)), drawn coloured
            by stage with the start and end marked.
        regions: ``(label, bool mask)`` pairs shaded translucent, each in its own colour.
        title: figure title (default: the scene name).
        dpi: output resolution.

    Returns:
        The path written.
    """

    g = m.grid
    extent = (g.origin_x, g.origin_x + g.width_m, g.origin_y, g.origin_y + g.height_m)
    aspect = g.width_m / max(g.height_m, 1e-6)
    width_in = float(np.clip(4.0 + g.width_m * 0.55, 6.0, 16.0))
    fig = Figure(figsize=(width_in + 2.8, max(width_in / aspect, 4.0) + 0.8))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    ax.imshow(_base_image(m), origin="lower", extent=extent, interpolation="nearest")


    cmap = mpl.colormaps["tab10"]
    handles: list[Any] = [Patch(facecolor=ROOM_COLOURS[t], edgecolor="none", label=t.words)
                          for t in RoomType if any(r.type == t for r in m.rooms)]
    handles.append(Patch(facecolor=WALL_COLOUR, label="wall"))

    for i, (label, mask) in enumerate(regions):
        colour = cmap((i + 3) % 10)
        overlay = np.zeros((*g.shape, 4), dtype=np.float64)
        overlay[np.asarray(mask, dtype=bool)] = (*colour[:3], 0.35)
        ax.imshow(overlay, origin="lower", extent=extent, interpolation="nearest")
        handles.append(Patch(facecolor=colour, alpha=0.35, label=str(label)))

    shown = [o for o in m.objects if o.category not in STRUCTURE_CATEGORIES]
    big = [o for o in shown if o.parent_id is None and _polygon_area(o.footprint) >= LABEL_MIN_AREA_M2]
    big_ids = {o.id for o in big}
    small = [o for o in shown if o.id not in big_ids]
    patches = [MplPolygon(np.asarray(o.footprint), closed=True) for o in shown
               if o.parent_id is None]
    ax.add_collection(PatchCollection(patches, facecolor=(0.35, 0.3, 0.25, 0.25),
                                      edgecolor=(0.25, 0.2, 0.15, 0.9), linewidth=0.6))
    font = float(np.clip(9.0 - 0.04 * len(big), 5.0, 8.0))
    for o in big:
        ax.text(o.center[0], o.center[1], o.category.replace("_", " "), fontsize=font,
                ha="center", va="center", color="black", clip_on=True,
                bbox={"boxstyle": "round,pad=0.12", "facecolor": "white", "alpha": 0.6,
                      "edgecolor": "none"})
    if small:
        pts = np.asarray([o.center for o in small])
        ax.scatter(pts[:, 0], pts[:, 1], s=6, color="#444444", zorder=3, linewidths=0)
        handles.append(Line2D([], [], marker="o", linestyle="", color="#444444", markersize=3,
                              label="small object"))

    for segs, seg_colour, label in (([d.segment for d in m.doors], DOOR_COLOUR, "door"),
                                    ([w.segment for w in m.windows], WINDOW_COLOUR, "window")):
        if segs:
            ax.add_collection(LineCollection([np.asarray(s) for s in segs], colors=seg_colour,
                                             linewidths=3.0, zorder=4))
            handles.append(Line2D([], [], color=seg_colour, linewidth=3, label=label))

    if route is not None:
        _draw_route(ax, route, cmap, handles)

    ax.set_xlim(extent[0], extent[1])
    ax.set_ylim(extent[2], extent[3])
    ax.set_aspect("equal")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_title(title or m.name)
    bar_m = _scale_bar_length(g.width_m)
    ax.add_artist(AnchoredSizeBar(ax.transData, bar_m, f"{bar_m:g} m", "lower right",
                                  pad=0.4, frameon=True, size_vertical=0.06))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8,
              frameon=False)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    out = Path(out_path)
    atomic_write_bytes(out, buf.getvalue())
    return out


def _draw_route(ax: Any, route: RouteLike, cmap: Any, handles: list[Any]) -> None:

    pts = np.asarray(route.points, dtype=np.float64).reshape(-1, 2)
    stages = np.asarray(route.stage_index, dtype=np.int64).reshape(-1)
    if len(pts) == 0:
        return
    if len(stages) != len(pts):

        msg = f"route has {len(pts)} points but {len(stages)} stage indices; they must match"
        raise RenderError(msg)
    if len(pts) > 1:
        segs = np.stack([pts[:-1], pts[1:]], axis=1)
        colours = [cmap(int(s) % 10) for s in stages[1:]]
        ax.add_collection(LineCollection(list(segs), colors=colours, linewidths=2.5, zorder=6))
    for s in np.unique(stages):
        handles.append(Line2D([], [], color=cmap(int(s) % 10), linewidth=2.5,
                              label=f"route stage {int(s) + 1}"))
    ax.plot(*pts[0], marker="o", markersize=9, color="#1a9850", markeredgecolor="black",
            zorder=7, linestyle="")
    ax.plot(*pts[-1], marker="*", markersize=14, color="#d73027", markeredgecolor="black",
            zorder=7, linestyle="")
    handles.append(Line2D([], [], marker="o", color="#1a9850", markeredgecolor="black",
                          linestyle="", label="start"))
    handles.append(Line2D([], [], marker="*", color="#d73027", markeredgecolor="black",
                          markersize=10, linestyle="", label="goal"))


def _scale_bar_length(width_m: float) -> float:
    """A round length near a fifth of the map width (0.5, 1, 2, 5 m ...)."""
    target = max(width_m / 5.0, 0.1)
    exp = 10 ** math.floor(math.log10(target))
    for step in (1, 2, 5, 10):
        if step * exp >= target:
            return float(step * exp)
    return float(10 * exp)
