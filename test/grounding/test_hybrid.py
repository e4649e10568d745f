"""The hybrid grounder (offline first, LLM on an offline refusal) and the geometry verbs."""

from __future__ import annotations

import numpy as np
import pytest

from map2route.grounding.errors import GroundingError
from map2route.grounding.grounder import Executor, LLMGrounder, OfflineGrounder, load_config
from map2route.grounding.hybrid import HybridGrounder
from map2route.llm import ChatClient
from map2route.llm.testing import ScriptedChatServer

BED = "```python\nbed = unique(entities('bed'), 'the bed')\ntask([segment(bed)])\n```"


def _centre(g, m):
    cells = g.routeir.stages[0].target.cells
    xs, ys = zip(*(m.grid.cell_to_world(float(r), float(c)) for r, c in cells), strict=True)
    return float(np.mean(xs)), float(np.mean(ys))


def test_offline_answers_without_asking_the_llm(two_room_map, runner):
    with ScriptedChatServer([BED]) as server:
        g = HybridGrounder(OfflineGrounder.from_config(load_config()),
                           LLMGrounder(ChatClient(server.url, "m"),
                                       executor=Executor("process", runner)))
        out = g.ground("go to the bed", two_room_map, (4.0, 1.0))
        assert out.info["answered_by"] == "offline" and out.grounder == "hybrid(offline)"
        assert server.requests == []


def test_offline_refusal_is_the_cue_to_ask_the_llm(two_room_map, runner):
    with ScriptedChatServer([BED]) as server:
        g = HybridGrounder(OfflineGrounder.from_config(load_config()),
                           LLMGrounder(ChatClient(server.url, "m"),
                                       executor=Executor("process", runner)))
        out = g.ground("Go to the first bed you see.", two_room_map, (4.0, 1.0))
        assert out.info["answered_by"] == "llm" and out.grounder == "hybrid(llm)"
        assert "the first bed you see" in out.info["offline_refusal"]
        assert len(server.requests) == 1


def test_both_refusing_gives_both_reasons(two_room_map, runner):
    evil = "```python\nimport os\n```"
    with ScriptedChatServer([evil]) as server:
        g = HybridGrounder(OfflineGrounder.from_config(load_config()),
                           LLMGrounder(ChatClient(server.url, "m"), rounds=1,
                                       executor=Executor("process", runner)))
        with pytest.raises(GroundingError) as err:
            g.ground("Go to the first bed you see.", two_room_map, (4.0, 1.0))
        assert "offline:" in str(err.value) and "llm:" in str(err.value)


def test_midpoint_target(house):
    g = OfflineGrounder.from_config(load_config()).ground(
        "Go to the midpoint between the sofa and the side table.", house, (1.0, 3.0))
    assert "midpoint_region(" in g.program
    # sofa (2.0, 1.0), side table (3.6, 1.0): midpoint (2.8, 1.0); the free cells of the
    # 0.5 m disk around it (the sofa's own cells are not free)
    cells = g.routeir.stages[0].target.cells
    pts = np.array([house.grid.cell_to_world(float(r), float(c)) for r, c in cells])
    assert len(pts) > 0
    assert np.hypot(pts[:, 0] - 2.8, pts[:, 1] - 1.0).max() <= 0.5 + 0.05


def test_corner_target(house):
    g = OfflineGrounder.from_config(load_config()).ground(
        "Walk to the corner of the kitchen farthest from the fridge.", house, (1.0, 3.0))
    assert "corner_region(" in g.program and "away_from=" in g.program
    x, y = _centre(g, house)
    # kitchen x 6-10, y 0-5; fridge at (9.5, 4.5): the far corner is (6, 0)
    assert x < 7.0 and y < 1.0


def test_between_avoidance_grounds_to_the_strip(house):
    g = OfflineGrounder.from_config(load_config()).ground(
        "Go to the fridge, but don't pass between the sofa and the side table.", house, (1.0, 3.0))
    assert "between_region(" in g.program
    avoid = g.routeir.must_avoid[0]
    xs = [house.grid.cell_to_world(float(r), float(c))[0] for r, c in avoid.region.cells]
    assert 2.0 <= min(xs) and max(xs) <= 3.6
