"""Downstream HCS on a hand-checkable case: the two-room house and a built copy of it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from map2route.bench.map2route.episode import Episode, StartPose
from map2route.bench.mapping.downstream import downstream_hcs, reground
from map2route.mapping.errors import MappingError
from map2route.routeir import Constraint, ConstraintKind, Region, RouteIR, Stage
from map2route.semantic_map.model import ObjectInstance, SemanticMap


def _episode(m: SemanticMap, name: str, target: str, avoid: str | None = None) -> Episode:
    obj = next(o for o in m.objects if o.id == target)
    goal = Region.from_mask(f"near {target}", m.goal_region_mask(obj) & m.traversable,
                            construction={"op": "goal_region", "object": target},
                            object_ids=(target,))
    constraints: tuple[Constraint, ...] = ()
    if avoid is not None:
        a = next(o for o in m.objects if o.id == avoid)
        mask = m.disk_mask(a.center, a.radius_m + 0.3) & m.room_mask(a.room_id or 0)
        constraints = (Constraint(kind=ConstraintKind.MUST_AVOID, region=Region.from_mask(
            "around", mask, construction={"op": "disk", "object": avoid, "margin_m": 0.3},
            object_ids=(avoid,))),)
    ir = RouteIR(stages=(Stage(target=goal, label=target),), constraints=constraints,
                 grid=m.grid, start=(1.5, 1.5), scene=m.name)
    row, col = m.grid.world_to_cell(1.5, 1.5)
    return Episode(id=f"two_room_house/easy/{name}", scene=m.name, split="easy",
                   start=StartPose(x=1.5, y=1.5, yaw=0.0, row=row, col=col),
                   instruction=f"go to the {target}", routeir=ir)


def _moved(o: ObjectInstance, dx: float) -> ObjectInstance:
    return replace(o, footprint=tuple((x + dx, y) for x, y in o.footprint),
                   center=(o.center[0] + dx, o.center[1]))


def test_hcs_on_the_built_map_counts_what_the_built_map_lacks(two_room_map) -> None:  # type: ignore[no-untyped-def]
    truth = two_room_map
    # The built map: the fridge 10 cm off (IoU 0.8, still the same fridge), chair_2 missing.
    objs = tuple(_moved(o, 0.1) if o.id == "fridge_0" else o for o in truth.objects
                 if o.id != "chair_2")
    built = replace(truth, name="built", objects=objs)
    eps = [_episode(truth, "fridge", "fridge_0"), _episode(truth, "chair", "chair_2"),
           _episode(truth, "fridge_avoid", "fridge_0", avoid="chair_2")]
    res = downstream_hcs(built, truth, eps)
    by_id = {e.episode_id.rsplit("/", 1)[1]: e for e in res.episodes}
    assert [e.hcs_true for e in res.episodes] == [1.0, 1.0, 1.0]
    assert by_id["fridge"].hcs_built == 1.0 and by_id["fridge"].error is None
    # chair_2 has no built counterpart: the stage cannot be grounded, no route, HCS 0.
    assert by_id["chair"].hcs_built == 0.0 and "chair_2" in (by_id["chair"].error or "")
    # ... and as a must-avoid it is dropped (the built map does not know to avoid it).
    assert by_id["fridge_avoid"].dropped and "chair_2" in by_id["fridge_avoid"].dropped[0]
    assert res.grounded == 2 and res.hcs_true == 1.0
    assert res.hcs_built == pytest.approx((1.0 + 0.0 + by_id["fridge_avoid"].hcs_built) / 3)


def test_regrounded_goal_follows_the_built_object(two_room_map) -> None:  # type: ignore[no-untyped-def]
    truth = two_room_map
    built = replace(truth, objects=tuple(_moved(o, 0.1) if o.id == "fridge_0" else o
                                         for o in truth.objects))
    ir, dropped = reground(_episode(truth, "f", "fridge_0").routeir, truth, built)
    cells = built.grid.cells_to_worlds(ir.stages[0].target.cells)
    assert dropped == [] and ir.grid == built.grid
    # G_O of the built fridge: within r_O + 1 m of its centre (5.6, 3.5), kitchen cells only.
    d = ((cells[:, 0] - 5.6) ** 2 + (cells[:, 1] - 3.5) ** 2) ** 0.5
    assert d.max() <= 0.495 + 1.0 + 1e-6 and cells[:, 0].min() > 3.0


def test_episodes_of_another_scene_are_refused(two_room_map) -> None:  # type: ignore[no-untyped-def]
    ep = _episode(two_room_map, "f", "fridge_0")
    other = replace(ep, routeir=replace(ep.routeir, grid=replace(two_room_map.grid, rows=10)))
    with pytest.raises(MappingError, match="another|this scene"):
        downstream_hcs(two_room_map, two_room_map, [other])


def test_cli_score_reports_downstream_hcs(two_room_map, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    import json

    from map2route.bench.map2route.episode import write_episodes
    from map2route.cli import main
    from map2route.semantic_map.io import save_scene

    truth = save_scene(two_room_map, tmp_path / "two_room_house")
    built = save_scene(replace(two_room_map, objects=tuple(
        o for o in two_room_map.objects if o.id != "chair_2")), tmp_path / "built")
    eps = write_episodes(tmp_path / "eps.jsonl", [_episode(two_room_map, "fridge", "fridge_0"),
                                                  _episode(two_room_map, "chair", "chair_2")])
    assert main(["map", "score", str(built), str(truth), "--episodes", str(eps), "--json"]) == 0
    down = json.loads(capsys.readouterr().out)["downstream"]
    assert (down["hcs_true"], down["hcs_built"], down["grounded"]) == (1.0, 0.5, 1)
    # Planning on a built map goes 0.2 m into each target by default (its expected edge error).
    assert down["goal_margin_m"] == 0.2
    assert main(["map", "score", str(built), str(truth), "--episodes", str(eps),
                 "--scene", "nowhere"]) == 1
    assert "no episode of scene 'nowhere'" in capsys.readouterr().err
