"""``make demo``: the default scene, its summary and picture, and one instruction routed on it.

This sits above every layer (scenes, grounding, planning, rendering), like the CLI does.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from rich.console import Console
from rich.markup import escape

from map2route.gridsearch.kernel import warm_up
from map2route.grounding.config import load_config
from map2route.grounding.grounder import make_grounder
from map2route.planning import plan_route
from map2route.render import render_scene
from map2route.scenes.demo import run_demo
from map2route.semantic_map.io import load_scene
from map2route.semantic_map.model import SemanticMap
from map2route.semantic_map.shipped import resolve_scene

if TYPE_CHECKING:
    from rich.console import Console

#: An instruction the default shipped scene (maps/index.json "default") can satisfy: a nested
#: reference ("the bedroom with a desk"), two destinations and a spatially scoped Far preference.
SAMPLE_INSTRUCTION = ("Go to the teddy bear in the bedroom with a desk, then the fridge in the "
                      "kitchen; stay away from the sofa while crossing the living room.")


def run_full_demo(out_dir: Path, *, instruction: str = SAMPLE_INSTRUCTION,
                  console: Console | None = None) -> tuple[Path, Path]:
    """Summarise and render the default scene, then ground, plan and draw ``instruction``.

    Returns:
        The scene PNG and the route PNG.

    Raises:
        Map2RouteError: if the scenes are missing, or the instruction cannot be grounded/planned.
    """


    con = console or Console()
    scene_png = run_demo(out_dir, console=con)
    m = load_scene(resolve_scene("default"))
    start = _central_free_point(m)
    warm_up()
    con.print(f"\n[bold]Instruction[/bold] {escape(instruction)}")
    grounding = make_grounder("offline", config=load_config()).ground(instruction, m, start)
    t0 = time.perf_counter()
    route = plan_route(m, grounding.routeir, start)
    plan_ms = (time.perf_counter() - t0) * 1000
    for i, stage in enumerate(grounding.routeir.stages):
        con.print(f"  stage {i + 1}: {escape(stage.label or stage.target.label)}")
    for c in grounding.routeir.constraints:
        scope = f" (within {c.spatial_scope.label})" if c.spatial_scope is not None else ""
        con.print(f"  {c.kind.value}: {escape(c.region.label + scope)}")
    legs = ", ".join(f"{x:.1f}" for x in route.stage_lengths_m)
    con.print(f"Grounded in {grounding.elapsed_s * 1000:.0f} ms, planned in {plan_ms:.0f} ms: "
              f"{route.length_m:.1f} m (legs {legs} m)")
    regions = [(f"stage {i + 1} target", st.target.mask(m.grid))
               for i, st in enumerate(grounding.routeir.stages)]
    route_png = render_scene(m, Path(out_dir) / f"{m.name}_route.png", route=route,
                             regions=regions, title=instruction[:90])
    con.print(f"Rendered {route_png}")
    return scene_png, route_png


def _central_free_point(m: object) -> tuple[float, float]:
    """The traversable cell nearest the centroid of the free space (a reproducible start)."""


    assert isinstance(m, SemanticMap)
    rows, cols = np.nonzero(m.traversable)
    k = int(np.argmin((rows - rows.mean()) ** 2 + (cols - cols.mean()) ** 2))
    return m.grid.cell_to_world(int(rows[k]), int(cols[k]))
