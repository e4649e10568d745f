"""The query reader on the release's four example queries and on surface phrases."""

from __future__ import annotations

import pytest

from map2route.language.nesy import read_query
from map2route.nesy.kb import TRAVERSABILITY, Agent
from map2route.nesy.queries import parse_query

#: The four few-shot examples of the release's Task 1 prompt (evaluation/task1/prompts.py of
#: MingYang1010/NeSy-Route) with their gold traverse / cost vectors.
OFFICIAL_EXAMPLES = [
    ("An emergency response vehicle is currently on a sealed, asphalt road surface and needs "
     "to reach another location along the same surface. It requires a continuous paved "
     "surface to maintain maximum velocity and cannot operate on unpaved or obstructed "
     "ground. What is the fastest path?",
     [0, 0, 0, 1, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0, 0]),
    ("A person is traveling on foot, starting from low vegetation ground and aiming for "
     "exposed soil/rock ground. They can traverse open natural ground, whether vegetated or "
     "bare, but must avoid paved or man-made surfaces and water.Which route is available?",
     [1, 1, 0, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0, 0, 0]),
    ("A drone must travel at very low altitude from a hard, paved surface to a nearby linear "
     "paved surface. It can pass above open ground and water, but it must avoid any route "
     "segment that risks collision with vertical obstructions such as solid structures or "
     "tall canopy vegetation. Identify the safest flight corridor.",
     [1, 1, 1, 1, 0, 1, 1, 0], [2, 2, 2, 2, 0, 1, 2, 0]),
    ("A luxury vehicle must travel from a flat, hard-surfaced paved area to a nearby linear "
     "paved surface. The goal is to maximize ride comfort by minimizing vibration, so it must "
     "stay strictly on smooth, hard, and stable surfaces and avoid any soft or rough ground. "
     "To ensure a smooth ride for a VIP, which surfaces should the vehicle use?",
     [0, 0, 1, 1, 0, 0, 0, 0], [0, 0, 1, 2, 0, 0, 0, 0]),
]


@pytest.mark.parametrize(("query", "trav", "cost"), OFFICIAL_EXAMPLES,
                         ids=["emergency", "on-foot", "drone", "luxury"])
def test_official_examples_parse_to_gold(query: str, trav: list[int], cost: list[int]) -> None:
    v = parse_query(query).vectors()
    assert list(v.trav) == trav
    assert list(v.pref) == cost


def test_required_surface_excludes_an_always_traversable_class() -> None:
    # a car always may use developed space and road; "requires a continuous paved surface"
    # leaves it the road only
    p = parse_query("A car needs the fastest route. It requires a continuous paved surface.")
    assert p.agent is Agent.CAR and p.excluded == frozenset({2})
    assert list(p.vectors().trav) == [0, 0, 0, 1, 0, 0, 0, 0]


def test_forbidden_surface_and_named_permission() -> None:
    # "paved or man-made surfaces" forbids developed space and road for a walker; the
    # grassland named as permitted stays permitted despite "rough ground"
    p = parse_query("A hiker, shortest route; the meadow is fine but avoid paved surfaces.")
    assert p.excluded == frozenset({2, 3}) and 1 in p.allowed
    p = parse_query("Walk to church, most comfortable route, she can manage the meadow but no "
                    "woods or rough ground")
    assert p.allowed == frozenset({1}) and p.excluded == frozenset()


@pytest.mark.parametrize("query", [
    "Evacuate residents by bus along the safest roads; the bus must not leave the paved surfaces.",
    "Ambulance, safest route, roads and paved areas only, nothing else.",
    "Surveyor on foot. Shortest path to the pickup pt. Paved areas/roads only, nothing else.",
])
def test_staying_on_paved_surfaces_excludes_nothing_paved(query: str) -> None:
    assert parse_query(query).excluded == frozenset()


def test_reader_takes_traversability_from_the_caller() -> None:
    table = {a.value: (TRAVERSABILITY[a][0], TRAVERSABILITY[a][1]) for a in Agent}
    r = read_query("a kayak, quickest way", table)
    assert (r.agent, r.objective, r.agent_found, r.objective_found) == \
        ("boat", "fastest", True, True)
    r = read_query("get me there", table)
    assert (r.agent, r.objective, r.agent_found, r.objective_found) == \
        ("pedestrian", "shortest", False, False)


def test_plurals_are_read_with_inflect() -> None:
    """The lexicon's "minibus" and "prairie" match their plurals (the hand-written stemmer
    made "minibuse" and "prairy" of them and missed both)."""
    p = parse_query("Two minibuses need the fastest way across; the prairies are fine to cross.")
    assert p.agent is Agent.CAR and p.agent_found
    assert p.allowed == frozenset({1})
