"""Open storage furniture in the simulator's 3D scene: a shelving unit is a frame whose
contents the sensors see; a fridge is a solid box whose contents they do not."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

pytest.importorskip("open3d")

from map2route.mapping.scene3d import OpenStorage, Scene3D, frame_parts  # noqa: E402
from map2route.mapping.simulate import SimConfig  # noqa: E402
from map2route.semantic_map.model import RoomType  # noqa: E402
from map2route.semantic_map.synthetic import RectObject, RectRoom, rect_house  # noqa: E402

SPEC = OpenStorage(categories=frozenset({"shelf"}), panel_m=0.02, board_gap_m=0.4)


def _room():
    """One 4 x 3 m room; against its north wall (y = 3) a shelf (x 0.5..1.5, y 2.575..2.925,
    0..1.8 m) with a statue on a shelf inside it (0.62..0.9 m) and a fridge (x 2.65..3.35,
    y 2.25..2.95, 0..1.8 m) with a wine bottle inside it (0.5..0.8 m)."""
    objects = [
        RectObject("shelf_0", "shelf", 1.0, 2.75, 1.0, 0.35, z_max=1.8),
        RectObject("statue_0", "statue", 1.0, 2.75, 0.2, 0.2, z_max=0.9, parent_id="shelf_0",
                   blocks=False),
        RectObject("fridge_0", "fridge", 3.0, 2.6, 0.7, 0.7, z_max=1.8),
        RectObject("wine_bottle_0", "wine_bottle", 3.0, 2.6, 0.1, 0.1, z_max=0.8,
                   parent_id="fridge_0", blocks=False),
    ]
    m = rect_house(name="storage_room", rooms=[RectRoom(0, RoomType.KITCHEN, 0.0, 0.0, 4.0, 3.0)],
                   objects=objects, doors=[])
    lifted = {"statue_0": 0.62, "wine_bottle_0": 0.5}
    objs = tuple(dataclasses.replace(o, z_min=lifted.get(o.id, 0.0)) for o in m.objects)
    return dataclasses.replace(m, objects=objs)


def _hit(scene: Scene3D, origin, direction) -> tuple[str, float]:
    t, inst, _ = scene.cast(np.asarray([origin], dtype=np.float64),
                            np.asarray([direction], dtype=np.float64))
    return scene.object_ids[int(inst[0])], float(t[0])


def test_ray_through_shelf_front_reaches_item_but_not_into_fridge() -> None:
    scene = Scene3D.from_map(_room(), open_storage=SPEC)
    # Level with the statue, 1.7 m in front of the shelf, looking north (+y) through its open front.
    who, t = _hit(scene, (1.0, 1.0, 0.75), (0.0, 1.0, 0.0))
    assert who == "statue_0"
    assert t == pytest.approx(2.65 - 1.0, abs=0.005)
    # Beside the statue the ray passes the open front and stops at the back panel (y 2.905..2.925).
    who, t = _hit(scene, (0.7, 1.0, 0.75), (0.0, 1.0, 0.0))
    assert who == "shelf_0"
    assert t == pytest.approx(2.905 - 1.0, abs=0.005)
    # The fridge is solid: the ray level with the bottle stops at its front face (y = 2.25).
    who, t = _hit(scene, (3.0, 1.0, 0.65), (0.0, 1.0, 0.0))
    assert who == "fridge_0"
    assert t == pytest.approx(1.25, abs=0.005)


def test_without_open_storage_the_shelf_is_solid() -> None:
    scene = Scene3D.from_map(_room())
    who, t = _hit(scene, (1.0, 1.0, 0.75), (0.0, 1.0, 0.0))
    assert who == "shelf_0"
    assert t == pytest.approx(2.575 - 1.0, abs=0.005)


def test_frame_parts_back_sides_and_boards() -> None:
    parts = frame_parts((1.0, 0.35), (0.0, 1.8), [(0.62, 0.9)], (False, True), SPEC)
    panels = [p for p in parts if p[0][2] == pytest.approx(1.8)]
    boards = sorted(round(c[2] + 0.01, 3) for s, c in parts if s[2] == pytest.approx(0.02))
    # one back panel (+y face) and two side panels, all full height
    assert len(panels) == 3
    assert [c[1] for s, c in panels if s[0] == pytest.approx(1.0)] == [pytest.approx(0.165)]
    # board tops: bottom (0.02), under the statue (0.62), top (1.8), and fillers splitting
    # 0.02..0.62 in 2 and 0.62..1.8 in 3 so no gap exceeds 0.4 m
    assert boards == pytest.approx([0.02, 0.32, 0.62, 1.0133, 1.4067, 1.8], abs=1e-3)
    # an object standing 0.1..0.9 m in a 1 m unit: the fillers of the 0.1..1.0 gap (0.4, 0.7)
    # would cut through it and are left out
    tall_gap = frame_parts((1.0, 0.35), (0.0, 1.0), [(0.1, 0.9)], (False, True), SPEC)
    assert sorted(round(c[2] + 0.01, 3) for s, c in tall_gap if s[2] == pytest.approx(0.02)) \
        == [0.02, 0.1, 1.0]


def test_free_standing_unit_has_no_back_and_config_lists_shelf() -> None:
    parts = frame_parts((1.0, 0.35), (0.0, 1.0), [], (False, False), SPEC)
    assert sum(1 for s, _ in parts if s[2] == pytest.approx(1.0)) == 2  # the two sides only
    cfg = SimConfig.from_yaml()
    assert "shelf" in cfg.open_storage and "fridge" not in cfg.open_storage
    assert cfg.storage.categories == frozenset(cfg.open_storage)


def test_score_lists_objects_inside_closed_objects_as_unobservable() -> None:
    from map2route.mapping.score import enclosed_objects, score_map

    m = _room()
    objs = list(m.objects)
    inside = {objs[i].id for i in enclosed_objects(objs, frozenset({"shelf"}))}
    assert inside == {"wine_bottle_0"}  # the statue on the open shelf is observable
    assert {objs[i].id for i in enclosed_objects(objs, frozenset())} == {"statue_0", "wine_bottle_0"}
    s = score_map(m, m, open_storage=frozenset({"shelf"}))
    assert s.unobservable_tall == ("wine_bottle_0",)
    assert s.recall_tall == 1.0 and s.recall_tall_observable == 1.0
