"""Fixtures for tests over real rclpy topics (the `ros` harness lives in test/conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("rclpy")
pytest.importorskip("map2route_interfaces", reason="run `make interfaces` first")


@pytest.fixture
def two_room_scene(tmp_path: Any, two_room_map: Any) -> Any:
    """The two-room house saved as a scene folder."""
    from map2route.semantic_map.io import save_scene

    return save_scene(two_room_map, tmp_path / "two_room_house")
