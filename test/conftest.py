"""Test-wide settings (ROS 2 traffic stays on this host, on a domain of its own) and the `ros`
harness every test over real rclpy topics uses."""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
os.environ.setdefault("MPLBACKEND", "Agg")

# Every test runs on a ROS domain of its own, so no participant an earlier test left behind (a
# node whose __init__ raised and waits for the garbage collector, a launched process still
# stopping) is in its graph: rmw_fastrtps calls a service available only when the graph's request
# readers and response writers pair up, which a half-gone leftover breaks for good (CI missed
# `follow_route` for 30 s once, after the same test had passed hundreds of times). Ids stay in
# 1-101, the range ROS 2 advises on Linux (higher ids reach the ephemeral UDP ports); the pid
# offset keeps two test runs on one host apart.
_DOMAIN_IDS = itertools.count(os.getpid() % 101)


@pytest.fixture(autouse=True)
def ros_domain_id(monkeypatch: pytest.MonkeyPatch) -> int:
    """The ROS domain this test (and any process it starts) uses."""
    domain_id = 1 + next(_DOMAIN_IDS) % 101
    monkeypatch.setenv("ROS_DOMAIN_ID", str(domain_id))
    return domain_id


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

    def wait_for_server(self, client: Any, *, what: str, timeout: float = 30.0) -> None:
        """Wait for an action client's server; on a miss, fail with what the graph holds."""
        if client.wait_for_server(timeout_sec=timeout):
            return
        node = client._node  # rclpy keeps no public accessor for it
        topics = {name: (node.count_publishers(name), node.count_subscribers(name))
                  for name, _types in node.get_topic_names_and_types(no_demangle=True)
                  if what in name}
        pytest.fail(f"the {what} action server was not found in {timeout:.0f} s; its topics "
                    f"(publishers, subscribers): {topics}; nodes: "
                    f"{sorted(node.get_node_names())}")

    def close(self) -> None:
        # The spin thread stops before any node goes, so no callback runs on a destroyed one.
        self.executor.shutdown(timeout_sec=5.0)
        self._thread.join(timeout=5.0)
        for n in self.nodes:
            n.destroy_node()
        self.rclpy.shutdown(context=self.context)


@pytest.fixture
def ros() -> Iterator[RosHarness]:
    harness = RosHarness()
    try:
        yield harness
    finally:
        harness.close()


# --- Ray ----------------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def ray_head() -> Iterator[str]:
    """``HOST:PORT`` of a Ray head on 127.0.0.1 (2 CPUs) this test run starts; stopped at the end.

    ``ray start --head --block`` on a free port with a small object store, waited for at most
    60 s, stopped by signalling its own process group. Tests using it skip without ``ray``
    (the ``ray`` extra).
    """
    import signal
    import socket
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    pytest.importorskip("ray", reason="ray is not installed (the `ray` extra)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    temp = tempfile.mkdtemp(prefix="m2r-ray-")  # the head's log
    src = Path(__file__).resolve().parents[1] / "src"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(src), *filter(None, [os.environ.get("PYTHONPATH")])])}
    # A local ray.init() (``--executor ray`` without --address) turns on token auth and leaves
    # ~/.ray/auth_token behind, after which a `ray start` head and this driver disagree; this
    # throwaway head on 127.0.0.1 runs without auth, on both sides.
    env["RAY_AUTH_MODE"] = "disabled"
    old_mode = os.environ.get("RAY_AUTH_MODE")
    os.environ["RAY_AUTH_MODE"] = "disabled"
    ray_bin = Path(sys.executable).with_name("ray")
    log = open(Path(temp) / "head.log", "w")  # noqa: SIM115 (closed in the teardown)
    head = subprocess.Popen(
        [str(ray_bin), "start", "--head", "--block", "--node-ip-address=127.0.0.1",
         f"--port={port}", "--num-cpus=2", "--include-dashboard=false",
         "--disable-usage-stats", "--object-store-memory=100000000"],
        stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if head.poll() is not None or time.monotonic() > deadline:
                    log.flush()
                    pytest.fail("the Ray head did not start within 60 s: "
                                + (Path(temp) / "head.log").read_text()[-2000:])
                time.sleep(0.5)
        yield f"127.0.0.1:{port}"
    finally:
        os.killpg(head.pid, signal.SIGTERM)  # `ray start --block` stops what it started
        try:
            head.wait(timeout=10)  # it may drain for 30 s; the group is ours to kill
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait(timeout=10)
        log.close()
        if old_mode is None:
            os.environ.pop("RAY_AUTH_MODE", None)
        else:
            os.environ["RAY_AUTH_MODE"] = old_mode
