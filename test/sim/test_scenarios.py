"""Seeded moving-obstacle scenarios: same seed, same world; geometry by hand."""

from __future__ import annotations

import math

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
