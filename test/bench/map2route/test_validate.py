"""Episode validity under the official HCS, by hand on the two-room house.

The house: bedroom columns 0..63, the wall at column 64 (x = 2.975 m) with the door gap in it,
the kitchen from column 65 on; the start (row 45, column 17) lies in the bedroom. Stage 2's
must-avoid is "the bedroom and the door" (columns <= 64), active only on the way to the fridge.

- Stage 1's target is the whole column 65: every route into the kitchen steps from a door cell
  (column 64, in the must-avoid) into it. That step enters the target's square at the edge it
  shares with the door cell's square, so the official progress completes stage 1 and touches
  stage 2's must-avoid at the same parameter: HCS 1/2 for every route (the case of
  procthor_00152/easy/004, docs/benchmark.md).
- With the target at column 67 the entering step comes from column 66, outside the must-avoid:
  HCS 1.
"""

from __future__ import annotations

import numpy as np

from map2route.bench.map2route.episode import Episode, ReferenceInfo, StartPose, dumps_episode
from map2route.bench.map2route.validate import (
    check_episode,
    official_reachable_stages,
    route_problem,
)
from map2route.cli import main
from map2route.planning import plan_route
from map2route.routeir import Constraint, ConstraintKind, Region, RouteIR, Stage

START = (0.625, 2.025)
WALL_COL = 64


def _episode(m, target_col: int) -> Episode:
    cols = np.arange(m.grid.shape[1])[None, :].repeat(m.grid.shape[0], axis=0)
    strip = Stage(target=Region.from_mask(f"column {target_col}", cols == target_col))
    fridge = Stage(target=Region.from_mask("fridge", m.goal_region_mask(m.get_object("fridge_0"))))
    avoid = Constraint(kind=ConstraintKind.MUST_AVOID, temporal_scope=(1,),
                       region=Region.from_mask("bedroom and door", cols <= WALL_COL),
                       label="on the way to the fridge, stay out of the bedroom")
    ir = RouteIR(stages=(strip, fridge), constraints=(avoid,), grid=m.grid, scene=m.name)
    r, c = m.grid.world_to_cell(*START)
    return Episode(id=f"t/easy/{target_col}", scene=m.name, split="easy",
                   start=StartPose(START[0], START[1], 0.0, r, c),
                   instruction="go into the kitchen, then to the fridge, not through the bedroom",
                   routeir=ir, reference=ReferenceInfo(shortest_length_m=5.0))


def test_the_wall_column_is_where_the_docstring_says(two_room_map) -> None:
    m = two_room_map
    assert m.traversable[:, WALL_COL].sum() < m.traversable[:, WALL_COL + 1].sum() / 2
    assert m.grid.world_to_cell(*START) == (45, 17)


def test_a_target_bordering_the_next_avoid_on_every_entry_is_contradictory(two_room_map) -> None:
    m = two_room_map
    ep = _episode(m, WALL_COL + 1)
    route = plan_route(m, ep.routeir, ep.start_xy)
    why = route_problem(ep, m, route.points)
    assert why is not None and why.startswith("official HCS 0.500 (1 of 2 stages; transition 2")
    assert official_reachable_stages(ep, m) == 1  # no route at all does better
    check = check_episode(ep, m)
    assert len(check.problems) == 2 and check.contradictory


def test_a_target_one_cell_further_in_is_valid(two_room_map) -> None:
    m = two_room_map
    ep = _episode(m, WALL_COL + 3)
    assert official_reachable_stages(ep, m) == 2
    check = check_episode(ep, m)
    assert check.problems == [] and not check.contradictory and check.reachable_stages is None


def test_validate_command_flags_the_contradictory_episode(tmp_path, two_room_map, two_room_scene,
                                                          capsys) -> None:
    path = tmp_path / "eps.jsonl"
    path.write_text("".join(dumps_episode(_episode(two_room_map, c)) + "\n"
                            for c in (WALL_COL + 1, WALL_COL + 3)))
    code = main(["episodes", "validate", str(path), "--scenes", str(two_room_scene)])
    out, err = capsys.readouterr()
    assert code == 1 and "1 episode(s) flagged" in err
    assert f"t/easy/{WALL_COL + 1}: contradictory: no route completes more than 1 of 2" in out
    assert f"t/easy/{WALL_COL + 3}" not in out
