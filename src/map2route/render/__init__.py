"""Rendering: semantic maps, routes and regions as PNG images."""

from __future__ import annotations

from map2route.render.errors import RenderError
from map2route.render.scene import render_scene

__all__ = ["RenderError", "render_scene"]
