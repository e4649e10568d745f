"""Seeded moving-obstacle scenarios: same seed, same world; geometry by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from map2route.ros.sim_node import parse_obstacles
from map2route.sim.scenarios import crossing_scenario, obstacles_param


def test_same_seed_same_world_other_seed_other_world() -> None:
    a = crossing_scenario(7, (0.0, 0.0), (10.0, 0.0), people=2, boxes=1)
    b = crossing_scenario(7, (0.0, 0.0), (10.0, 0.0), people=2, boxes=1)
    c = crossing_scenario(8, (0.0, 0.0), (10.0, 0.0), people=2, boxes=1)
    assert obstacles_param(a) == obstacles_param(b) != obstacles_param(c)


def test_people_cross_the_line_and_boxes_stand_beside_it() -> None:
    people_and_box = crossing_scenario(1, (0.0, 0.0), (10.0, 0.0), people=1, boxes=1,
                                       half_span=1.0)
    person, box = people_and_box
    # Along x (the line y = 0): the person walks from y = -1 to y = +1 at one x in 3..8 m.
    assert person.start[0] == person.end[0] and 3.0 <= person.start[0] <= 8.0
    assert (person.start[1], person.end[1]) == (-1.0, 1.0)
    assert 0.3 <= person.speed <= 0.6 and person.radius == 0.25
    assert person.position(1.0 / person.speed)[1] == 0.0 or \
        math.isclose(person.position(1.0 / person.speed)[1], 0.0, abs_tol=1e-9)
    assert 0.5 <= abs(box.start[1]) <= 0.8 and box.speed == 0.0
    # The parameter text round-trips through sim_node's parser.
    parsed = parse_obstacles(obstacles_param(people_and_box))
    assert [round(o.start[1], 3) for o in parsed] == [round(o.start[1], 3) for o in people_and_box]


def test_walkable_people_keep_off_the_map_and_stand_at_the_ends(two_room_map) -> None:
    from map2route.sim.world import World

    world = World.from_map(two_room_map)
    route = np.array([[1.5, 1.0], [2.5, 2.0], [3.5, 2.0], [4.0, 3.3]])
    for seed in range(5):
        obs = crossing_scenario(seed, (1.5, 1.0), (4.0, 3.3), people=2, boxes=1,
                                speed=(0.3, 2.0), half_span=3.0, free=world.disc_free,
                                route=route, pauses=(3.0, 8.0))
        people = [o for o in obs if o.speed > 0]
        assert people, seed
        for p in people:
            assert p.end is not None and 3.0 <= p.pause <= 8.0
            length = math.dist(p.start, p.end)
            assert length >= 1.0
            # Every point of the walk is free for a person (the map and its furniture).
            for f in np.linspace(0.0, 1.0, 21):
                x = p.start[0] + f * (p.end[0] - p.start[0])
                y = p.start[1] + f * (p.end[1] - p.start[1])
                assert world.disc_free(x, y, 0.25), (seed, x, y)
            # The walk: start, the far end after length/speed, standing there for the pause.
            walk = length / p.speed
            assert p.position(walk) == pytest.approx(p.end)
            assert p.position(walk + p.pause) == pytest.approx(p.end)
            assert p.position(2 * walk + p.pause) == pytest.approx(p.start)
        # Rounded to mm, the parameter text gives back the same walks, pauses included.
        parsed = parse_obstacles(obstacles_param(obs))
        assert [round(o.pause, 3) for o in parsed] == [round(o.pause, 3) for o in obs]
