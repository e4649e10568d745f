"""The hybrid grounder (offline first, LLM on an offline refusal) and the geometry verbs."""

from __future__ import annotations

import numpy as np
import pytest

from map2route.grounding.config import ENDPOINT_ENV
from map2route.grounding.errors import GroundingError
from map2route.grounding.grounder import (
    Executor,
    LLMGrounder,
    OfflineGrounder,
    load_config,
    make_grounder,
)
from map2route.grounding.hybrid import AutoGrounder, HybridGrounder
from map2route.llm import ChatClient
from map2route.llm.testing import ScriptedChatServer

BED = "```python\nbed = unique(entities('bed'), 'the bed')\ntask([segment(bed)])\n```"
#: An instruction the offline parser refuses (it cannot read "separated ... by a wall").
UNREAD = "Go to the bed that is separated from the door by a wall."


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
        out = g.ground(UNREAD, two_room_map, (4.0, 1.0))
        assert out.info["answered_by"] == "llm" and out.grounder == "hybrid(llm)"
        assert "separated" in out.info["offline_refusal"]
        assert len(server.requests) == 1


def test_both_refusing_gives_both_reasons(two_room_map, runner):
    evil = "```python\nimport os\n```"
    with ScriptedChatServer([evil]) as server:
        g = HybridGrounder(OfflineGrounder.from_config(load_config()),
                           LLMGrounder(ChatClient(server.url, "m"), rounds=1,
                                       executor=Executor("process", runner)))
        with pytest.raises(GroundingError) as err:
            g.ground(UNREAD, two_room_map, (4.0, 1.0))
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


def test_centre_of_a_room_target(house):
    """Set Q14: "the middle of the kitchen" is the room's centre (``centre_region``)."""
    g = OfflineGrounder.from_config(load_config()).ground(
        "Go to the middle of the kitchen and wait there.", house, (1.0, 3.0))
    assert "centre_region(" in g.program
    x, y = _centre(g, house)
    # kitchen x 6-10, y 0-5: its centre is (8, 2.5)
    assert abs(x - 8.0) < 1.0 and abs(y - 2.5) < 1.0


def test_between_avoidance_grounds_to_the_strip(house):
    g = OfflineGrounder.from_config(load_config()).ground(
        "Go to the fridge, but don't pass between the sofa and the side table.", house, (1.0, 3.0))
    assert "between_region(" in g.program
    avoid = g.routeir.must_avoid[0]
    xs = [house.grid.cell_to_world(float(r), float(c))[0] for r, c in avoid.region.cells]
    assert 2.0 <= min(xs) and max(xs) <= 3.6


def test_auto_is_offline_without_an_endpoint(two_room_map, monkeypatch):
    monkeypatch.delenv(ENDPOINT_ENV, raising=False)
    cfg = load_config()
    assert cfg.grounder == "auto" and not cfg.endpoint_configured
    g = make_grounder(cfg.grounder, config=cfg)
    assert isinstance(g, AutoGrounder) and isinstance(g.inner, OfflineGrounder)
    out = g.ground("go to the bed", two_room_map, (4.0, 1.0))
    assert (out.grounder, out.info["answered_by"], out.info["auto"]) == (
        "auto:offline", "offline", "offline")
    with pytest.raises(GroundingError, match="separated"):
        g.ground(UNREAD, two_room_map, (4.0, 1.0))  # nobody to ask: the refusal is the answer


def test_auto_is_hybrid_when_the_environment_names_an_endpoint(two_room_map, monkeypatch):
    with ScriptedChatServer([BED]) as server:
        monkeypatch.setenv(ENDPOINT_ENV, server.url)
        cfg = load_config()
        assert cfg.endpoint_configured and cfg.llm.base_url == server.url
        g = make_grounder("auto", config=cfg)
        out = g.ground("go to the bed", two_room_map, (4.0, 1.0))
        assert (out.grounder, out.info["answered_by"]) == ("auto:hybrid(offline)", "offline")
        assert server.requests == []  # the offline parser read it all: no request
        out = g.ground(UNREAD, two_room_map, (4.0, 1.0))
        assert (out.grounder, out.info["answered_by"], out.info["auto"]) == (
            "auto:hybrid(llm)", "llm", "hybrid")
        assert "separated" in out.info["offline_refusal"] and len(server.requests) == 1


def test_auto_is_hybrid_when_a_config_file_names_an_endpoint(tmp_path, monkeypatch):
    monkeypatch.delenv(ENDPOINT_ENV, raising=False)
    user = tmp_path / "g.yaml"
    user.write_text("repair_rounds: 1\n")
    assert not load_config(user).endpoint_configured  # the shipped default is no endpoint
    user.write_text("llm: {base_url: 'http://127.0.0.1:9/v1'}\n")
    cfg = load_config(user)
    assert cfg.endpoint_configured and cfg.resolved_grounder == "hybrid"
    assert isinstance(make_grounder("auto", config=cfg).inner, HybridGrounder)
    user.write_text("endpoint_configured: true\n")
    with pytest.raises(GroundingError, match="endpoint_configured is not a key"):
        load_config(user)


# --- route-order references (issue 19): the five-room house of conftest.py ---------------
# From the start (3.0, 2.5) in the living room, bedroom A's door (x 1.5-2.5 on y = 5) is
# about 2.7 m away and bedroom B's (x 4.8-5.6) about 3.3 m: A is entered first, B second.
START = (3.0, 2.5)


def _room_at(m, g, stage=0):
    x, y = _centre_of(m, g.routeir.stages[stage].target.cells)
    return m.room_at(x, y).id


def _centre_of(m, cells):
    xs, ys = zip(*(m.grid.cell_to_world(float(r), float(c)) for r, c in cells), strict=True)
    return float(np.mean(xs)), float(np.mean(ys))


def test_kth_along_route_orders_by_walking_distance(house):
    from map2route.grounding.api import GroundingAPI

    api = GroundingAPI(house, START)
    bedrooms = api.rooms("bedroom")
    assert [api.kth_along_route(bedrooms, api.start_place(), k).label for k in (1, 2)] == [
        api.unique([b for b in bedrooms if api.contains(b, "window") and
                    api.count_in(b, "window") == 2]).label,
        api.unique([b for b in bedrooms if api.count_in(b, "window") == 1]).label]
    # the room the origin is in is never "the next living room"
    living = api.rooms("living_room")
    with pytest.raises(Exception, match="at least 1 candidates, got 0"):
        api.kth_along_route(living, api.start_place(), 1)


def test_first_bedroom_you_enter_and_its_bed(house):
    g = OfflineGrounder.from_config(load_config()).ground(
        "Go into the first bedroom you enter and stop by the bed.", house, START)
    assert "kth_along_route(" in g.program
    assert _room_at(house, g) == 2  # bedroom A, whose bed is bed_0 at (1.2, 7.5)
    x, y = _centre_of(house, g.routeir.stages[0].target.cells)
    assert abs(x - 1.2) < 1.5 and abs(y - 7.5) < 1.5
    g = OfflineGrounder.from_config(load_config()).ground(
        "Go to the second bedroom you enter.", house, START)
    assert _room_at(house, g) == 3


def test_the_chair_passed_on_the_way_to_the_fridge(house):
    # chair_0 (7.0, 2.0) stands just inside the kitchen door (x = 6, y 2-3) on the way from
    # the living room to the fridge (9.5, 4.5); chair_2 (8.0, 1.1) and chair_1 (9.1, 2.0) need
    # a longer detour or come later
    g = OfflineGrounder.from_config(load_config()).ground(
        "Walk to the fridge and stop at the chair you pass on the way.", house, START)
    assert "toward=" in g.program and len(g.routeir.stages) == 1
    x, y = _centre_of(house, g.routeir.stages[0].target.cells)
    assert abs(x - 7.0) < 0.8 and abs(y - 2.0) < 0.8


def test_three_different_rooms_and_the_target_room(house):
    g = OfflineGrounder.from_config(load_config()).ground(
        "Pass through two different bedrooms.", house, START)
    assert [_room_at(house, g, k) for k in (0, 1)] == [2, 3]
    g = OfflineGrounder.from_config(load_config()).ground(
        "Go to the fridge, then go to the chair in the target room.", house, START)
    assert _room_at(house, g, 1) == 1  # the kitchen, where the fridge is
    g = OfflineGrounder.from_config(load_config()).ground(
        "Go to the fridge, then go to a room you have not visited yet.", house, START)
    assert _room_at(house, g, 1) == 0  # the living room: no door joins kitchen and bathroom


def test_ordered_visits_one_stage_each(house):
    # garbage cans from the start (3.0, 2.5): (5.6, 0.4) 3.3 m, (9.6, 0.4) 6.9 m, (8.4, 8.6)
    # 8.1 m; the two farthest, farthest first: (8.4, 8.6) then (9.6, 0.4)
    g = OfflineGrounder.from_config(load_config()).ground(
        "Visit the two garbage cans in order from farthest to nearest.", house, START)
    assert "order_by_distance(" in g.program and len(g.routeir.stages) == 2
    centres = [_centre_of(house, st.target.cells) for st in g.routeir.stages]
    assert abs(centres[0][0] - 8.4) < 0.8 and abs(centres[0][1] - 8.6) < 0.8
    assert abs(centres[1][0] - 9.6) < 0.8 and abs(centres[1][1] - 0.4) < 0.8
    with pytest.raises(GroundingError, match="fewer than 5"):
        OfflineGrounder.from_config(load_config()).ground(
            "Visit the five garbage cans in order from nearest to farthest.", house, START)


def test_nothing_on_it(house):
    # both side tables carry a desk lamp; the dresser carries nothing
    g = OfflineGrounder.from_config(load_config()).ground(
        "Go to the dresser with nothing on it.", house, START)
    assert "objects_on(" in g.program
    x, y = _centre_of(house, g.routeir.stages[0].target.cells)
    assert abs(x - 3.5) < 1.2 and abs(y - 6.0) < 1.2
    with pytest.raises(GroundingError, match="no_referent"):
        OfflineGrounder.from_config(load_config()).ground(
            "Go to the side table with nothing on it.", house, START)


def test_the_first_two_met(house):
    # chair_0 (7.0, 2.0) just inside the kitchen door is met first; from it the next chair
    # not yet visited is chair_2 (8.0, 1.1), 1.3 m on
    g = OfflineGrounder.from_config(load_config()).ground(
        "Go to the first two chairs you pass.", house, START)
    centres = [_centre_of(house, st.target.cells) for st in g.routeir.stages]
    assert len(centres) == 2
    assert abs(centres[0][0] - 7.0) < 0.8 and abs(centres[0][1] - 2.0) < 0.8
    assert abs(centres[1][0] - 8.0) < 0.8 and abs(centres[1][1] - 1.1) < 0.8
