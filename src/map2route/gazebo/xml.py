"""Small helpers for writing SDF with :mod:`xml.etree.ElementTree` (numbers, poses, documents)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable

#: The SDF version written: SDFormat 12 (Debian 12's parser, our checker) reads up to 1.9, and
#: Gazebo Harmonic's SDFormat 14 reads 1.9 files, converting them to its 1.11.
SDF_VERSION = "1.9"


def num(v: float) -> str:
    """A number as SDF text: at most 6 decimals, no trailing zeros (``0.5``, ``-3.141593``)."""
    text = f"{v:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def nums(values: Iterable[float]) -> str:
    """Space-separated :func:`num` of ``values`` (a pose, a size, a colour)."""
    return " ".join(num(v) for v in values)


def sub(parent: ET.Element, tag: str, text: str | float | bool | None = None,
        **attrs: str) -> ET.Element:
    """Append ``<tag attrs>text</tag>`` to ``parent``; numbers via :func:`num`, bools lowercase."""
    el = ET.SubElement(parent, tag, attrs)
    if isinstance(text, bool):
        el.text = "true" if text else "false"
    elif isinstance(text, (int, float)):
        el.text = num(float(text))
    elif text is not None:
        el.text = text
    return el


def sdf_root() -> ET.Element:
    """An ``<sdf>`` root; ``xmlns:gz`` declares the prefix of Gazebo's ``gz:`` attributes."""
    return ET.Element("sdf", {"version": SDF_VERSION, "xmlns:gz": "http://gazebosim.org/schema"})


def document(root: ET.Element) -> str:
    """The indented text of ``root`` with an XML declaration."""
    ET.indent(root)
    return '<?xml version="1.0"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def box_geometry(parent: ET.Element, size: Iterable[float]) -> None:
    """``<geometry><box><size>...`` under ``parent``."""
    sub(sub(sub(parent, "geometry"), "box"), "size", nums(size))


def material(parent: ET.Element, rgba: tuple[float, float, float, float]) -> None:
    """A plain ambient + diffuse colour (no scripts, no textures: nothing to look up)."""
    mat = sub(parent, "material")
    sub(mat, "ambient", nums(rgba))
    sub(mat, "diffuse", nums(rgba))
