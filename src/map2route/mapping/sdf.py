"""Export a scene as a Gazebo SDF world: a ground plane, walls and object boxes.

Walls are the wall layer merged into rectangles (:func:`map2route.mapping.scene3d.wall_rectangles`)
and extruded to ``wall_height_m``; each object is the minimum-area rectangle of its footprint
from ``z_min`` to ``z_max``. All models are static. SDF 1.7 (Gazebo Classic 11 and Gazebo Sim).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

from map2route.files import atomic_write_text
from map2route.mapping.scene3d import MIN_THICKNESS_M, object_box, wall_rectangles

if TYPE_CHECKING:
    from map2route.semantic_map.model import SemanticMap


def _box_model(world: ET.Element, name: str, pose: tuple[float, ...],
               size: tuple[float, float, float], rgba: str) -> None:
    model = ET.SubElement(world, "model", name=name)
    ET.SubElement(model, "static").text = "true"
    ET.SubElement(model, "pose").text = " ".join(f"{v:.4f}" for v in pose)
    link = ET.SubElement(model, "link", name="link")
    for tag in ("collision", "visual"):
        el = ET.SubElement(link, tag, name=tag)
        geo = ET.SubElement(ET.SubElement(el, "geometry"), "box")
        ET.SubElement(geo, "size").text = " ".join(f"{v:.4f}" for v in size)
        if tag == "visual":
            mat = ET.SubElement(el, "material")
            ET.SubElement(mat, "ambient").text = rgba
            ET.SubElement(mat, "diffuse").text = rgba


def scene_to_sdf(m: SemanticMap, *, wall_height_m: float = 2.5) -> str:
    """The SDF text of ``m``."""
    sdf = ET.Element("sdf", version="1.7")
    world = ET.SubElement(sdf, "world", name=m.name or "map2route")
    include = ET.SubElement(world, "include")
    ET.SubElement(include, "uri").text = "model://sun"
    ground = ET.SubElement(world, "include")
    ET.SubElement(ground, "uri").text = "model://ground_plane"
    for k, (r0, c0, r1, c1) in enumerate(wall_rectangles(m.walls)):
        x0, y0, sx, sy = m.grid.cell_box(r0, c0, r1, c1)
        x, y = x0 + sx / 2, y0 + sy / 2
        _box_model(world, f"wall_{k}", (x, y, wall_height_m / 2, 0, 0, 0),
                   (sx, sy, wall_height_m), "0.8 0.8 0.78 1")
    for obj in m.objects:
        (x, y), (sx, sy), yaw = object_box(obj.footprint)
        sz = max(obj.z_max - obj.z_min, MIN_THICKNESS_M)
        name = "obj_" + "".join(ch if ch.isalnum() else "_" for ch in obj.id)
        _box_model(world, name, (x, y, obj.z_min + sz / 2, 0, 0, yaw), (sx, sy, sz),
                   "0.6 0.45 0.3 1")
    ET.indent(sdf)
    return '<?xml version="1.0"?>\n' + ET.tostring(sdf, encoding="unicode") + "\n"


def export_sdf(m: SemanticMap, out: str | Path, *, wall_height_m: float = 2.5) -> Path:
    """Write :func:`scene_to_sdf` of ``m`` to ``out`` atomically."""
    path = Path(out)
    atomic_write_text(path, scene_to_sdf(m, wall_height_m=wall_height_m))
    return path
