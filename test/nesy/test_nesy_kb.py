"""The knowledge base against Tables 1 and 2 of NeSy-Route, and the cost map of Eq. 1."""

from __future__ import annotations

import numpy as np
import pytest

from map2route.nesy.errors import NesyError
from map2route.nesy.kb import (
    CLASS_NAMES,
    IMPASSABLE,
    PREFERENCE_RANKINGS,
    TRAVERSABILITY,
    Agent,
    Objective,
    cost_map,
    derive_vectors,
)


def test_official_vector_order() -> None:
    assert CLASS_NAMES == ("bareland", "rangeland", "developed", "road", "tree", "water",
                           "agriculture", "building")


# Table 1, typed from the paper: (always, conditionally, never) as c_i indices.
TABLE1 = {
    "pedestrian": ({2, 3}, {0, 1, 4, 6}, {5, 7}),
    "car": ({2, 3}, {0, 1, 6}, {4, 5, 7}),
    "drone": ({0, 1, 2, 3, 5, 6}, {4, 7}, set()),
    "boat": ({5}, set(), {0, 1, 2, 3, 4, 6, 7}),
}


@pytest.mark.parametrize("agent", list(TABLE1), ids=list(TABLE1))
def test_table1(agent: str) -> None:
    always, cond, never = TRAVERSABILITY[Agent(agent)]
    assert (set(always), set(cond), set(never)) == TABLE1[agent]
    assert set(always) | set(cond) | set(never) == set(range(8))


# Table 2 as the paper writes it ("c2>c3>c6>c1>c0>c4"), one string per agent and objective.
TABLE2 = {
    # the release's prompts, not the paper's c0=c1=c2=c3=c4=c6 (see kb.PREFERENCE_RANKINGS)
    ("pedestrian", "fastest"): "c2>c3>c6>c1>c0>c4",
    ("pedestrian", "comfort"): "c2>c3>c6>c1>c0>c4",
    ("pedestrian", "safest"): "c2>c3>c6>c1>c0>c4",
    ("pedestrian", "shortest"): "c0=c1=c2=c3=c4=c6",
    ("car", "fastest"): "c3>c2>c6>c1>c0",
    ("car", "comfort"): "c3>c2>c6>c1>c0",
    ("car", "safest"): "c3>c2>c6>c1>c0",
    ("car", "shortest"): "c0=c1=c2=c3=c6",
    ("drone", "fastest"): "c0=c1=c2=c3=c5=c6=c7>c4",
    ("drone", "comfort"): "c0=c1=c2=c3=c6=c7>c5>c4",
    ("drone", "safest"): "c0=c1=c2=c3=c6>c4=c5=c7",
    ("drone", "shortest"): "c0=c1=c2=c3=c5=c6=c7>c4",
    ("boat", "fastest"): "c5", ("boat", "comfort"): "c5", ("boat", "safest"): "c5",
    ("boat", "shortest"): "c5",
}


@pytest.mark.parametrize("key", list(TABLE2), ids=[f"{a}-{o}" for a, o in TABLE2])
def test_table2(key: tuple[str, str]) -> None:
    tiers = tuple(tuple(sorted(int(c[1:]) for c in tier.split("=")))
                  for tier in TABLE2[key].split(">"))
    got = PREFERENCE_RANKINGS[(Agent(key[0]), Objective(key[1]))]
    assert tuple(tuple(sorted(t)) for t in got) == tiers


def test_vectors_pedestrian_comfort_with_trees() -> None:
    v = derive_vectors(Agent.PEDESTRIAN, Objective.COMFORT, {4})
    # traversable: developed, road, tree; ranking c2 > c3 > c4 restricted to them
    assert v.trav == (0, 0, 1, 1, 1, 0, 0, 0)
    assert v.pref == (0, 0, 3, 2, 1, 0, 0, 0)


def test_vectors_drone_safest_all_allowed() -> None:
    v = derive_vectors(Agent.DRONE, Objective.SAFEST, {4, 7})
    assert v.trav == (1,) * 8
    assert v.pref == (2, 2, 2, 2, 1, 1, 2, 1)


def test_task2_vectors_keep_present_classes_only() -> None:
    v = derive_vectors(Agent.CAR, Objective.FASTEST, {0, 6}, present={0, 3, 5})
    assert v.trav == (1, 0, 0, 1, 0, 0, 0, 0)
    assert v.pref == (1, 0, 0, 2, 0, 0, 0, 0)


def test_cannot_allow_a_never_class() -> None:
    with pytest.raises(NesyError, match="cannot be permitted water"):
        derive_vectors(Agent.PEDESTRIAN, Objective.FASTEST, {5})


def test_cost_map_eq1() -> None:
    v = derive_vectors(Agent.CAR, Objective.SAFEST, {0})  # road 3 > developed 2 > bareland 1
    labels = np.array([[0, 1, 3, 4, 5, 6]], dtype=np.uint8)  # unl, bare, devel, road, tree, water
    w = cost_map(labels, v)
    assert w.dtype == np.uint16
    assert w.tolist() == [[IMPASSABLE, 3, 2, 1, IMPASSABLE, IMPASSABLE]]


def test_cost_map_rejects_bad_ids() -> None:
    with pytest.raises(NesyError, match="label ids must be 0-8"):
        cost_map(np.array([[9]], dtype=np.uint8), derive_vectors(Agent.BOAT, Objective.SAFEST))
