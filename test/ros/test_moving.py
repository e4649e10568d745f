"""Moving obstacles on the ROS stack: three seeded drives, no collisions, identical reruns.

The full 50-drive version is ``map2route bench moving`` (``make bench``).
"""

from __future__ import annotations

from map2route.bench.moving import summary
from map2route.ros.moving_bench import run_ros


def test_three_seeded_drives_among_people_collide_never_and_repeat_exactly() -> None:
    first, second = run_ros([0, 1, 2], time_limit=60.0)
    res = summary(first, second)
    assert res["collisions"] == 0, (first, second)
    # Identical: outcome, collision counts, sim time and every pose (to 1e-9 m).
    assert res["identical_on_rerun"] == 3, (first, second)
    assert res["arrived"] == 3
