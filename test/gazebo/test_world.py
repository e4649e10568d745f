"""A scene's Gazebo world, checked on the hand-checkable two-room house."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import replace

import numpy as np
import pytest

from map2route.gazebo.errors import GazeboError
from map2route.gazebo.world import WORLD_SYSTEMS, WorldSpec, sdf_name, world_sdf
from map2route.mapping.scene3d import wall_rectangles
from map2route.semantic_map.model import ObjectInstance

SPAWN = (1.5, 1.0, 0.5)
#: A doorway object over the two-room house's door (x = 3, y 1.5..2.5), 2.1 m high.
DOORWAY = ObjectInstance(id="door|0|1", category="doorway", room_id=None,
                         footprint=((2.95, 1.5), (3.05, 1.5), (3.05, 2.5), (2.95, 2.5)),
                         center=(3.0, 2.0), z_min=0.0, z_max=2.1)


@pytest.fixture
def house(two_room_map):
    return replace(two_room_map, objects=(*two_room_map.objects, DOORWAY))


@pytest.fixture
def world(house) -> ET.Element:
    root = ET.fromstring(world_sdf(house, SPAWN))
    (world,) = root.findall("world")
    return world


def _floats(text: str | None) -> list[float]:
    return [float(v) for v in (text or "").split()]


def _boxes(model: ET.Element) -> dict[str, tuple[list[float], list[float]]]:
    """collision name -> (pose, size)."""
    return {c.get("name") or "": (_floats(c.findtext("pose")),
                                  _floats(c.findtext("geometry/box/size")))
            for c in model.iter("collision")}


def test_self_contained_with_the_harmonic_systems(world: ET.Element, house) -> None:
    text = ET.tostring(world, encoding="unicode")
    assert "<include" not in text and "<uri" not in text and "model://" not in text
    assert world.get("name") == "two_room_house"
    assert [(p.get("filename"), p.get("name")) for p in world.findall("plugin")] == list(
        WORLD_SYSTEMS)
    sensors = world.find("plugin[@name='gz::sim::systems::Sensors']")
    assert sensors is not None and sensors.findtext("render_engine") == "ogre2"
    lights = {lt.get("name"): lt for lt in world.findall("light")}
    assert set(lights) == {"sun", "room_0_light", "room_1_light"}
    assert _floats(lights["room_1_light"].findtext("pose"))[:2] == [4.5, 2.0]
    ground = world.find("model[@name='ground_plane']")
    assert ground is not None and ground.findtext("static") == "true"
    assert ground.find("link/collision/geometry/plane") is not None


def test_walls_cover_the_wall_layer_and_the_door_gets_a_lintel(world: ET.Element, house) -> None:
    walls = world.find("model[@name='walls']")
    assert walls is not None
    boxes = _boxes(walls)
    wall_boxes = [v for k, v in boxes.items() if k.startswith("wall_")]
    assert len(wall_boxes) == len(wall_rectangles(house.walls))
    # Every wall cell is covered once: box footprints add up to the layer's area, 2.5 m high.
    area = sum(size[0] * size[1] for _pose, size in wall_boxes)
    assert area == pytest.approx(house.walls.sum() * 0.05 ** 2)
    assert {size[2] for _pose, size in wall_boxes} == {2.5}
    assert {pose[2] for pose, _size in wall_boxes} == {1.25}
    (lintel,) = [v for k, v in boxes.items() if k.startswith("lintel_")]
    pose, size = lintel
    # From the door's top (2.1 m) to the wall's (2.5 m), across the 1 m opening.
    assert pose[:3] == pytest.approx([3.0, 2.0, 2.3])
    assert size[2] == pytest.approx(0.4)
    assert sorted(size[:2]) == pytest.approx([0.1, 1.0])
    # The opening itself stays open: no wall box covers the door's centre.
    for (x, y, *_), (sx, sy, _sz) in wall_boxes:
        assert not (abs(x - 3.0) < sx / 2 and abs(y - 2.0) < sy / 2)


def test_objects_are_boxes_with_the_maps_heights(world: ET.Element, house) -> None:
    models = {m.get("name"): m for m in world.findall("model")}
    expected = {f"obj_{o.id}" for o in house.objects if o.category != "doorway"}
    assert {n for n in models if n and n.startswith("obj_")} == expected
    bed = models["obj_bed_0"]
    assert bed.findtext("static") == "true"
    (pose, size), = _boxes(bed).values()
    # bed_0: 1.2 x 1.6 m footprint centred at (1.0, 3.0), 0 - 0.6 m high.
    assert pose[:3] == pytest.approx([1.0, 3.0, 0.3])
    assert sorted(size[:2]) == pytest.approx([1.2, 1.6]) and size[2] == pytest.approx(0.6)
    (pose, size), = _boxes(models["obj_fridge_0"]).values()
    assert pose[2] == pytest.approx(0.9) and size[2] == pytest.approx(1.8)


def test_spawn_frame(world: ET.Element) -> None:
    frame = world.find("frame[@name='spawn']")
    assert frame is not None
    assert _floats(frame.findtext("pose")) == pytest.approx([1.5, 1.0, 0, 0, 0, 0.5])


def test_names_are_unique_and_a_wall_less_map_is_refused(two_room_map) -> None:
    twin = replace(two_room_map.objects[0], id="bed|0")
    twin2 = replace(two_room_map.objects[0], id="bed_0")
    m = replace(two_room_map, objects=(twin, twin2))
    names = [el.get("name") for el in ET.fromstring(world_sdf(m, SPAWN)).iter("model")]
    assert {"obj_bed_0", "obj_bed_0_2"} <= set(names)
    assert sdf_name("Bed|3|1") == "Bed_3_1"
    empty = replace(two_room_map, walls=np.zeros_like(two_room_map.walls))
    with pytest.raises(GazeboError, match="no wall cells"):
        world_sdf(empty, SPAWN)


def test_settings_come_from_the_config() -> None:
    spec = WorldSpec.from_config()
    assert spec.wall_height_m == 2.5 and spec.physics_step_s == 0.001
    assert math.isfinite(spec.room_light_range_m)
