"""Selective filtering, regions, probes, the masked adjacency graph and the complexity score."""

from __future__ import annotations

import math

import numpy as np
import pytest

from map2route.nesy.kb import Agent, Objective, derive_vectors
from map2route.nesy.regions import complexity, find_regions, selective_filter


def test_small_patches_are_filled_but_narrow_classes_kept() -> None:
    m = np.full((20, 20), 2, dtype=np.uint8)  # rangeland
    m[5:7, 5:7] = 1  # 4 px of bareland: filled
    m[10, :] = 4  # a one-pixel road: kept
    m[15, 15] = 8  # a one-pixel building: kept
    f = selective_filter(m, min_area=10)
    assert (f[5:7, 5:7] == 2).all()
    assert (f[10, :] == 4).all() and f[15, 15] == 8


def test_regions_primary_probe_and_graph() -> None:
    m = np.full((40, 60), 4, dtype=np.uint8)  # road everywhere
    m[:, :25] = 3  # developed on the left
    m[:, 35:] = 7  # agriculture on the right
    m[0:5, 0:5] = 1  # a small bareland patch in the corner
    r = find_regions(m, probe_erosions=3)
    assert r.classes_present == frozenset({0, 2, 3, 6})
    assert len(r.region_class) == 4
    # developed touches bareland and road; road touches agriculture
    assert len(r.edges) == 3
    ar, ac = r.anchors[6]
    assert 35 <= ac < 60 and m[ar, ac] == 7
    assert r.probes[6].sum() < (m == 7).sum()
    car = derive_vectors(Agent.CAR, Objective.FASTEST, set())  # developed + road only
    comp = r.connected(car.trav)
    assert comp[r.primary[2]] == comp[r.primary[3]] >= 0
    assert comp[r.primary[6]] == -1


def test_complexity_by_hand() -> None:
    m = np.full((10, 10), 3, dtype=np.uint8)
    m[:, 5:] = 4  # two classes, equal areas, one region each, one edge
    c = complexity(find_regions(m))
    assert c.h_inter == pytest.approx(1.0)
    assert c.h_count == pytest.approx(1.0)
    assert c.h_intra == 0.0
    assert c.c_topo == 1.0
    assert c.score == pytest.approx(0.25 * 3)
    w = complexity(find_regions(m), weights=(1.0, 0.0, 0.0, 0.0))
    assert w.score == pytest.approx(1.0)


def test_intra_fragmentation() -> None:
    m = np.full((10, 10), 3, dtype=np.uint8)
    m[:, 2] = 4
    m[:, 7] = 4
    # road: two regions of 10 px -> H = 1, / log2(2) = 1
    # developed: 20, 40, 20 px -> p = (1/4, 1/2, 1/4), H = 1.5, / log2(3)
    c = complexity(find_regions(m))
    assert c.h_intra == pytest.approx((1.0 + 1.5 / math.log2(3)) / 8)
