"""The semantic-map API on hand-checkable maps: selections, rankings, predicates, regions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from map2route.grounding.api import CATEGORIES, GroundingAPI, api_reference, exposed_names
from map2route.grounding.errors import ProgramIssue

REQUIRED = (
    "entities rooms in_room room_of contains adjacent_rooms passage_regions count count_near "
    "union intersection exclude unique choose_any kth_nearest kth_farthest kth_largest "
    "kth_smallest order_by_distance region_of room_region between_region near_region "
    "side_region boundary_region half_room circle follow_wall distance geodesic_distance "
    "inside where near_to far_from next_to on_top_of in_corner between compare all_of any_of "
    "not_ segment constraint task").split()


def test_api_covers_the_papers_expressiveness_in_six_categories():
    names = set(exposed_names())
    assert not [n for n in REQUIRED if n not in names]
    ref = api_reference()
    assert all("### " in ref for _ in CATEGORIES)
    assert "kth_nearest(items" in ref and "'" not in ref.split("kth_nearest(")[1].split(")")[0]


def test_nearest_chair_to_the_bed_is_computed_from_centres(two_room_map):
    api = GroundingAPI(two_room_map, (1.0, 1.0))
    bed = api.unique(api.entities("bed"))
    chairs = api.entities("chair", room=api.unique(api.rooms("bedroom")))
    # chair_0 (0.5, 0.8): sqrt(0.25 + 4.84) = 2.256 m; chair_1 (2.3, 1.0): sqrt(1.69 + 4) = 2.385 m
    assert api.kth_nearest(chairs, bed).ref == "o:chair_0"
    assert api.kth_nearest(chairs, bed, 2).ref == "o:chair_1"
    assert api.distance(api.unique(chairs[:1]), bed) == pytest.approx(math.hypot(0.5, 2.2))
    assert [e.ref for e in api.order_by_distance(chairs, bed, descending=True)] == \
        ["o:chair_1", "o:chair_0"]


def test_unique_lists_candidates_when_ambiguous(two_room_map):
    api = GroundingAPI(two_room_map)
    with pytest.raises(ProgramIssue) as err:
        api.unique(api.entities("chair"), "the chair")
    assert err.value.issue.code == "ambiguous_reference"
    assert len(err.value.issue.candidates) == 3
    with pytest.raises(ProgramIssue) as err:
        api.unique(api.entities("sofa"), "the sofa")
    assert err.value.issue.code == "no_referent"


def test_rooms_windows_receptacles_and_adjacency(two_room_map):
    api = GroundingAPI(two_room_map, (1.0, 1.0))
    two = api.where(api.rooms(), api.has("window", exactly=2))
    assert [r.category for r in two] == ["bedroom"]
    table = api.unique(api.entities("dining_table"))
    assert [e.ref for e in api.objects_on(table)] == ["o:apple_0"]
    assert api.receptacle_of(api.unique(api.entities("apple"))) == table
    assert api.contains(api.start_room(), "lamp") and not api.contains(api.start_room(), "fridge")
    assert [r.category for r in api.adjacent_rooms(api.start_room())] == ["kitchen"]
    assert len(api.passage_regions(api.start_room())) == 1
    assert api.count_near(api.entities("chair"), table, 1.5) == 1  # chair_2 at 1.1 m


def test_predicates_compose(two_room_map):
    api = GroundingAPI(two_room_map)
    bed = api.unique(api.entities("bed"))
    near_bed = api.where(api.entities("chair"), api.near_to(bed, 2.3))
    assert [e.ref for e in near_bed] == ["o:chair_0"]
    far = api.where(api.entities("chair"), api.all_of(api.far_from(bed, 2.3),
                                                    api.not_(api.located_in(api.rooms("kitchen")))))
    assert [e.ref for e in far] == ["o:chair_1"]
    assert api.compare(api.count(api.entities("chair")), ">", 2)
    assert api.any_of(False, True) and not api.all_of(True, False)


def test_regions_use_the_maps_goal_region(two_room_map):
    api = GroundingAPI(two_room_map)
    fridge = api.unique(api.entities("fridge"))
    area = api.region_of(fridge)
    assert (area._mask == two_room_map.goal_region_mask(two_room_map.get_object("fridge_0"))).all()
    band = api.boundary_region(api.unique(api.rooms("kitchen")), 0.5)
    assert band._mask.sum() < api.room_region(api.unique(api.rooms("kitchen")))._mask.sum()
    loop = api.circle(api.unique(api.entities("dining_table")), "clockwise")
    assert len(loop._waypoints) == 9 and all(w._mask.any() for w in loop._waypoints)
    walls = api.follow_wall(api.unique(api.rooms("kitchen")))
    assert len(walls._waypoints) == 5  # four inset corners and back to the first


def test_geodesic_distance_is_at_least_the_straight_gap_between_free_regions(two_room_map):
    import numpy as np
    from scipy.spatial.distance import cdist

    m = two_room_map
    api = GroundingAPI(m)
    a, b = api.entity("o:chair_0"), api.entity("o:fridge_0")
    geo = api.geodesic_distance(a, b)
    ra = np.argwhere(api.region_of(a)._mask & m.traversable)
    rb = np.argwhere(api.region_of(b)._mask & m.traversable)
    straight = cdist(ra, rb).min() * m.grid.resolution
    assert math.isfinite(geo) and geo >= straight - 1e-9


def test_geodesic_distance_is_infinite_without_a_door():
    from map2route.semantic_map.model import RoomType
    from map2route.semantic_map.synthetic import RectObject, RectRoom, rect_house

    m = rect_house(name="sealed", rooms=[RectRoom(0, RoomType.BEDROOM, 0, 0, 2, 2),
                                         RectRoom(1, RoomType.KITCHEN, 2, 0, 4, 2)],
                   objects=[RectObject("bed_0", "bed", 1, 1, 0.4, 0.4),
                            RectObject("fridge_0", "fridge", 3, 1, 0.4, 0.4)], doors=[])
    api = GroundingAPI(m)
    assert api.geodesic_distance(api.entity("o:bed_0"), api.entity("o:fridge_0")) == math.inf


def test_task_builds_a_valid_routeir_with_scopes(two_room_map):
    api = GroundingAPI(two_room_map, (1.0, 2.0))
    leg1 = api.segment(api.unique(api.entities("fridge")))
    leg2 = api.segment(shape=api.circle(api.unique(api.entities("dining_table"))))
    bedroom = api.unique(api.rooms("bedroom"))
    api.task([leg1, leg2], [api.constraint("far", api.entities("window", room=bedroom),
                                           within=bedroom, during=leg1),
                            api.avoid(api.unique(api.entities("bed")))])
    ir = api.build_routeir()
    ir.validate()
    kinds = [c.kind.value for c in ir.constraints]
    assert kinds == ["path_shape", "far", "must_avoid"]
    assert ir.constraints[1].temporal_scope == (0,)
    assert ir.constraints[0].temporal_scope == (1,)
    assert len(ir.stages[1].waypoints) == 8


def test_windowed_goal_region_equals_the_maps(house):
    api = GroundingAPI(house)
    for o in house.objects:
        assert (api.region_of(api.entity(f"o:{o.id}"))._mask == house.goal_region_mask(o)).all(), o.id
    assert (api._disk((3.0, 2.5), 1.3) == house.disk_mask((3.0, 2.5), 1.3)).all()


def test_clearance_bent_shape_reference_never_loses_clearance(two_room_map):
    api = GroundingAPI(two_room_map, (1.0, 1.0))
    bed = api.unique(api.entities("bed"))
    pts = api._ring_points(api._center(bed), 1.6, 0.0, True, 8)
    bent = api._clear_polyline(pts)
    clear = np.minimum(api._clearance_field(), 0.6)
    g = two_room_map.grid
    step = g.resolution
    straight = [pts[0]]
    for a, b in zip(pts[:-1], pts[1:], strict=True):
        n = max(1, int(math.dist(a, b) / step))
        straight += [(a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
                     for t in np.linspace(0.0, 1.0, n + 1)[1:-1]] + [b]
    assert len(bent) == len(straight) > len(pts)
    cb = g.worlds_to_cells(np.asarray(bent))
    cs = g.worlds_to_cells(np.asarray(straight))
    inside = ((cb >= 0) & (cb < g.shape)).all(axis=1) & ((cs >= 0) & (cs < g.shape)).all(axis=1)
    cb, cs = cb[inside], cs[inside]
    # each sample slides to at least the clearance of its place on the straight chord
    assert (clear[cb[:, 0], cb[:, 1]] >= clear[cs[:, 0], cs[:, 1]] - 1e-9).all()
    assert (clear[cb[:, 0], cb[:, 1]] > clear[cs[:, 0], cs[:, 1]]).any()


def test_goal_region_widens_when_an_object_has_no_free_cell(two_room_map):
    api = GroundingAPI(two_room_map, (1.0, 1.0))
    for e in api.entities():
        area = api.region_of(e)
        widened = "margin_m" in area._construction
        assert (area._mask & two_room_map.traversable).any() or widened


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -1.0, "far", True], ids=str)
@pytest.mark.parametrize("verb", ["near_to", "far_from", "next_to"])
def test_a_distance_that_is_not_a_finite_metre_count_is_an_issue(two_room_map, verb, bad):
    # NaN made every comparison false: near_to(bed, nan) silently selected nothing (issue 16).
    api = GroundingAPI(two_room_map)
    bed = api.unique(api.entities("bed"))
    with pytest.raises(ProgramIssue) as err:
        getattr(api, verb)(bed, bad)
    assert err.value.issue.code == "type_error"
    assert "finite number of metres" in err.value.issue.message
