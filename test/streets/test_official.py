"""GROKE's official scoring, computed by hand step by step on a 10 m street going north.

Nodes a, b, c, d lie 10 m apart along one meridian (so haversine gives exactly 10, 20, 30 m);
z is 500 m away and linked to nothing.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from map2route.paths import shared_dir
from map2route.streets.heuristic import paper_directions
from map2route.streets.loaders import load_instances, load_touchdown
from map2route.streets.official import (
    OsmStreetGraph,
    expand_path,
    load_osm_graph,
    official_means,
    panorama_to_osm,
    remove_revisits,
    score_official,
)


@pytest.fixture
def street(to_latlng) -> OsmStreetGraph:
    ids = ["a", "b", "c", "d", "z"]
    ys = [0.0, 10.0, 20.0, 30.0, 500.0]
    lat = [to_latlng(0.0, y)[0] for y in ys]
    lng = [to_latlng(0.0, y)[1] for y in ys]
    return OsmStreetGraph(ids, lat, lng, links=[("a", "b"), ("b", "c"), ("c", "d")])


def _idx(g: OsmStreetGraph, names: str) -> list[int]:
    return [g.index[n] for n in names]


def test_revisits_are_removed_first_visit_kept() -> None:
    assert remove_revisits([1, 2, 3, 2, 4, 1]) == [1, 2, 3, 4]


def test_gaps_are_reconnected_by_breadth_first_paths(street) -> None:
    area = street.area(_idx(street, "abc"))
    assert area == frozenset(_idx(street, "abcd"))  # z is linked to nothing
    assert expand_path(street, _idx(street, "ad"), area) == _idx(street, "abcd")
    # a -> z: z is outside the area, so the pair is skipped and z never joins the path.
    assert expand_path(street, _idx(street, "acz"), area) == _idx(street, "abc")


def test_exact_prediction_scores_perfectly(street) -> None:
    s = score_official(street, _idx(street, "ac"), _idx(street, "abc"))
    assert s.expanded_path == ("a", "b", "c")
    assert s.ne_m == pytest.approx(0.0, abs=1e-6)
    assert (s.sr, s.osr, s.completely_wrong) == (1.0, 1.0, False)
    assert s.ndtw == pytest.approx(1.0) and s.sdtw == pytest.approx(1.0)


def test_a_revisit_at_the_end_moves_the_stop_to_the_first_visit(street) -> None:
    # Walked a b c d and back to c; revisits removed: a b c d, so NE is d -> c = 10 m.
    s = score_official(street, _idx(street, "abcdc"), _idx(street, "abc"))
    assert s.expanded_path == ("a", "b", "c", "d")
    assert s.ne_m == pytest.approx(10.0, abs=1e-6)
    # DTW: a-a 0, b-b 0, c-c 0, d-c 10 = 10 m; reference length 20 m; nDTW = exp(-10/20).
    assert s.ndtw == pytest.approx(math.exp(-0.5), rel=1e-6)
    assert s.sdtw == pytest.approx(math.exp(-0.5), rel=1e-6) and s.sr == 1.0


def test_a_miss_keeps_ndtw_and_zeroes_sdtw(street, to_latlng) -> None:
    far = OsmStreetGraph(["a", "b", "c", "d", "e"],
                         [to_latlng(0.0, y)[0] for y in (0, 10, 20, 30, 40)],
                         [to_latlng(0.0, y)[1] for y in (0, 10, 20, 30, 40)])  # radius links
    s = score_official(far, _idx(far, "a"), _idx(far, "ab"))
    assert s.completely_wrong
    s = score_official(far, _idx(far, "abcde"), _idx(far, "ab"))
    # NE = e -> b = 30 m > 25 m: no success. OSR: a and b are within 25 m of b.
    assert s.ne_m == pytest.approx(30.0, abs=1e-6) and s.sr == 0.0 and s.osr == 1.0
    # DTW: 0 + 0 + (c-b 10) + (d-b 20) + (e-b 30) = 60 m; reference 10 m: exp(-6).
    assert s.ndtw == pytest.approx(math.exp(-6.0), rel=1e-6) and s.sdtw == 0.0


def test_zero_or_one_node_is_completely_wrong(street) -> None:
    for predicted in ([], _idx(street, "a"), [None, street.index["b"], None]):
        s = score_official(street, predicted, _idx(street, "abc"))
        assert s.completely_wrong and math.isinf(s.ne_m)
        assert (s.sr, s.osr, s.ndtw, s.sdtw) == (0.0, 0.0, 1.0, 0.0)


def test_means_leave_infinite_ne_out_but_count_ndtw_one(street) -> None:
    good = score_official(street, _idx(street, "abcdc"), _idx(street, "abc"))  # NE 10
    wrong = score_official(street, _idx(street, "a"), _idx(street, "abc"))
    m = official_means([good, wrong])
    assert m["ne_m"] == pytest.approx(10.0, abs=1e-6) and m["ne_n"] == 1.0
    assert m["sr"] == 0.5 and m["completely_wrong"] == 1.0
    assert m["ndtw"] == pytest.approx((math.exp(-0.5) + 1.0) / 2)
    assert m["sdtw"] == pytest.approx(math.exp(-0.5) / 2)


def test_radius_links_and_panorama_mapping(to_latlng) -> None:
    ys = [0.0, 10.0, 30.0]
    g = OsmStreetGraph(["p", "q", "r"], [to_latlng(0.0, y)[0] for y in ys],
                       [to_latlng(0.0, y)[1] for y in ys], link_radius_m=16.0)
    assert g.neighbours == ((1,), (0,), ())  # q-r is 20 m apart: no link
    # Panoramas at 1, 3, 12 and 28 m map to p, p, q, r: the repeat of p is merged.
    pts = [to_latlng(0.0, y) for y in (1.0, 3.0, 12.0, 28.0)]
    lat = np.array([p[0] for p in pts])
    lng = np.array([p[1] for p in pts])
    assert panorama_to_osm(g, lat, lng) == [0, 1, 2]


def test_paper_heuristic_reads_every_direction_phrase_in_order() -> None:
    # "turn left at" matches both "turn left" and "left at", as in GROKE's baseline.
    assert paper_directions("turn left at the light, go straight past the bank, "
                            "take a right") == ["left", "left", "forward", "forward", "right"]
    assert paper_directions("stop at the bank") == ["forward"]


def test_means_without_any_finite_ne_have_no_ne(street) -> None:
    wrong = score_official(street, [], _idx(street, "abc"))
    m = official_means([wrong])
    assert "ne_m" not in m and m["ne_n"] == 0.0 and m["ndtw"] == 1.0
    assert official_means([]) == {}


REAL = shared_dir() / "data" / "map2seq"


@pytest.mark.skipif(not (REAL / "osm_nodes.txt").is_file(), reason="shared Map2Seq data absent")
def test_the_reference_panorama_path_scores_as_the_reference_on_real_data() -> None:
    graph = load_touchdown(REAL, with_pois=False)
    osm = load_osm_graph(REAL)
    scores = []
    for inst in load_instances(REAL, "val")[:60]:
        idx = [graph.node(p) for p in inst.route]
        predicted = panorama_to_osm(osm, graph.lat[idx], graph.lng[idx])
        scores.append(score_official(osm, predicted, [osm.index[o] for o in inst.osm_route]))
    means = official_means(scores)
    # Mapped to nearest OSM nodes and reconnected, the human route is (almost) its OSM path.
    assert means["sr"] == 1.0 and means["ne_m"] < 2.0 and means["ndtw"] > 0.95
