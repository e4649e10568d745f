"""Fixtures of the robustness suite: the faulty HTTP server of :mod:`map2route.llm.testing`
(stopped when each test ends) and a sandbox runner."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from map2route.grounding.sandbox import SandboxRunner
from map2route.llm.testing import Behaviour, FaultServer


@pytest.fixture
def fault_server() -> Iterator[Callable[[Behaviour], FaultServer]]:
    """Start :class:`FaultServer` instances; all are stopped when the test ends."""
    started: list[FaultServer] = []

    def start(behaviour: Behaviour) -> FaultServer:
        server = FaultServer(behaviour).__enter__()
        started.append(server)
        return server

    yield start
    for s in started:
        s.__exit__(None, None, None)


@pytest.fixture(scope="session")
def runner() -> Iterator[SandboxRunner]:
    with SandboxRunner() as r:
        yield r
