"""Fixtures for tests over real rclpy topics: one ROS context and a spinning executor per test."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("rclpy")
pytest.importorskip("map2route_interfaces", reason="run `make interfaces` first")


class RosHarness:
    """A private rclpy context with a background single-threaded executor (as ``rclpy.spin``
    and ``map2route sim`` use: it proves no callback blocks another).

    ``add(node)`` spins a node; ``wait_for(pred, what=...)`` polls with a bounded wait and fails
    naming what it waited for.
    """

    def __init__(self) -> None:
        import rclpy
        from rclpy.executors import SingleThreadedExecutor

        self.rclpy = rclpy
        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.nodes: list[Any] = []
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._thread.start()

    def _spin(self) -> None:
        from rclpy.executors import ExternalShutdownException

        try:
            self.executor.spin()
        except ExternalShutdownException:
            pass

    def add(self, node: Any) -> Any:
        self.nodes.append(node)
        self.executor.add_node(node)
        return node

    def node(self, name: str) -> Any:
        """A plain helper node (for test publishers and subscribers)."""
        return self.add(self.rclpy.create_node(name, context=self.context))

    def wait_for(self, predicate: Callable[[], Any], *, what: str, timeout: float = 10.0) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            time.sleep(0.02)
        pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}")

    def close(self) -> None:
        self.executor.shutdown(timeout_sec=2.0)
        for n in self.nodes:
            n.destroy_node()
        self.rclpy.shutdown(context=self.context)
        self._thread.join(timeout=2.0)


@pytest.fixture
def ros() -> Iterator[RosHarness]:
    harness = RosHarness()
    try:
        yield harness
    finally:
        harness.close()


@pytest.fixture
def two_room_scene(tmp_path: Any, two_room_map: Any) -> Any:
    """The two-room house saved as a scene folder."""
    from map2route.semantic_map.io import save_scene

    return save_scene(two_room_map, tmp_path / "two_room_house")
