"""Test-wide settings: ROS 2 traffic stays on this host and on a domain of its own."""

from __future__ import annotations

import os

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
