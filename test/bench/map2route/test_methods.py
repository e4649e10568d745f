"""The shipped methods through the real planner: oracle and shortest meet every requirement."""

from __future__ import annotations

import pytest

from map2route.bench.map2route.episode import load_episodes
from map2route.bench.map2route.methods import Method
from map2route.bench.map2route.run import RunSpec, run_benchmark
from map2route.bench.map2route.scoring import score_route
from map2route.bench.registry import METHODS, make_method
from map2route.semantic_map import load_scene

pytest.importorskip("map2route.planning", reason="needs the planner area")


@pytest.mark.parametrize("name", ["oracle", "shortest"])
def test_reference_methods_succeed(two_room_scene, two_room_episodes, name) -> None:
    method = make_method(name)
    assert isinstance(method, Method) and method.name == name
    for ep in load_episodes(two_room_episodes):
        m = load_scene(two_room_scene / ep.scene)
        res = method.solve(ep, m)
        assert res.error is None, res.error
        score = score_route(ep, m, res.route.points)
        assert score.success
        if name == "shortest":
            # The fixture's L* comes from the test planner's shortest path; plan_route's
            # hard-only route is as short up to float round-off of equal-length ties.
            assert score.spl == pytest.approx(1.0, abs=1e-4)


def test_registry_lists_the_reference_methods() -> None:
    assert {"oracle", "shortest"} <= set(METHODS)


def test_process_pool_run(tmp_path, two_room_scene, two_room_episodes) -> None:
    spec = RunSpec(method="oracle", episodes_path=two_room_episodes, maps_root=two_room_scene)
    rows = run_benchmark(spec, tmp_path / "pool", workers=2, chunk_size=2, progress=False)
    assert len(rows) == 6 and all(r["success"] for r in rows)
