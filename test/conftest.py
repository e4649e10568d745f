"""Test-wide settings (ROS 2 traffic stays on this host, on a domain of its own) and the `ros`
harness every test over real rclpy topics uses."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

# A per-run domain id keeps parallel test runs (and a user's robot) from hearing each other.
os.environ.setdefault("ROS_DOMAIN_ID", str(100 + os.getpid() % 100))
os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
os.environ.setdefault("MPLBACKEND", "Agg")


@pytest.fixture
def two_room_map():
    """The hand-checkable two-room house of :mod:`map2route.semantic_map.synthetic`."""
    from map2route.semantic_map.synthetic import two_room_house

    return two_room_house()


class RosHarness:
    """A private rclpy context with a background single-threaded executor (as ``rclpy.spin``
    and ``map2route sim`` use: it proves no callback blocks another).

    ``add(node)`` spins a node; ``wait_for(pred, what=...)`` polls with a bounded wait and fails
    naming what it waited for.
    """

    def __init__(self) -> None:
        rclpy = pytest.importorskip("rclpy")
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

    def wait_for(self, predicate: Callable[[], Any], *, what: str, timeout: float = 20.0) -> Any:
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
