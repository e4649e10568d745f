"""Contents said with a bound on their count or one of them denied, as the real referring
expressions of the Map2Route Easy split say them ("the dining table with more than five
chairs", "the bedroom that has fewer than two beds", "the bed that has a pillow but no
laptop"), and a description after "in the house" / "in the scene" that is the thing's own.

Hand-checkable: the parse's modifiers (a count of -N is "at least N"; a negated one "fewer
than N"), and the ground truth on procthor_00921 (kitchen: four chairs, a dining table with a
statue and no laptop; bedroom: three chairs, one bed; living room: no chairs)."""

from __future__ import annotations

import pytest

from map2route.language.errors import ParseError
from map2route.language.parser import parse_instruction


def _with_mods(text: str) -> list[tuple[str, int | None, bool]]:
    ref = parse_instruction(text).clauses[0].refs[0]
    return [(m.refs[0].head, m.count, m.negated) for m in ref.modifiers if m.kind == "with"]


@pytest.mark.parametrize(("text", "want"), [
    ("Go to the dining table with more than five chairs.", [("chair", -6, False)]),
    ("Go to the room with at least three chairs.", [("chair", -3, False)]),
    ("Go to the room that has two or more chairs.", [("chair", -2, False)]),
    ("Go to the room with over 2 chairs.", [("chair", -3, False)]),
    ("Go to the bedroom that has fewer than two beds.", [("bed", -2, True)]),
    ("Go to the bedroom with at most one window.", [("window", -2, True)]),
    ("Go to the room with no more than one window.", [("window", -2, True)]),
    ("Go to the room with two or fewer chairs.", [("chair", -3, True)]),
    ("Go to the bedroom with two windows.", [("window", 2, False)]),
    ("Go to the room with several chairs.", [("chair", -2, False)]),
])
def test_a_bound_on_a_count_is_read(text: str, want: list[tuple[str, int, bool]]) -> None:
    assert _with_mods(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("Go to the bed that has a pillow but no laptop.", [("pillow", None, False),
                                                         ("laptop", None, True)]),
    ("Go to the bed that has a pillow, but not a laptop.", [("pillow", None, False),
                                                             ("laptop", None, True)]),
    ("Go to the bed with a pillow and without a laptop.", [("pillow", None, False),
                                                            ("laptop", None, True)]),
    ("Go to the bedroom with two beds yet no TV stand.", [("bed", 2, False),
                                                          ("tv_stand", None, True)]),
    ("Go to the room that has fewer than four chairs and a bed.", [("chair", -4, True),
                                                                   ("bed", None, False)]),
    ("Go to the room with a bed and more than two chairs.", [("bed", None, False),
                                                             ("chair", -3, False)]),
    ("Go to the dining table that has a statue, a book, and four chairs.",
     [("statue", None, False), ("book", None, False), ("chair", 4, False)]),
])
def test_listed_contents_keep_each_item(text: str, want: list[tuple[str, int, bool]]) -> None:
    assert _with_mods(text) == want


@pytest.mark.parametrize("text", [
    "Go to the bed in the house with nothing on it.",
    "Go to the bed in the scene with nothing on it.",
])
def test_a_description_after_in_the_house_is_the_things_own(text: str) -> None:
    ref = parse_instruction(text).clauses[0].refs[0]
    assert ref.head == "bed" and [m.kind for m in ref.modifiers] == ["empty"]


def test_in_the_scene_is_the_whole_map() -> None:
    ref = parse_instruction("Go to the largest side table in the scene.").clauses[0].refs[0]
    assert ref.head == "side_table" and [m.rank for m in ref.modifiers] == ["largest"]


@pytest.mark.parametrize("text", [
    # "but no" between two requests is not a list of contents
    "Go to the bed but no stopping there.",
    # a number with no thing after it is no count
    "Go to the room with more than three.",
])
def test_what_is_not_a_list_of_contents_is_still_refused(text: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert err.value.span is not None


@pytest.mark.parametrize(("text", "want"), [
    ("go to the room with more than three chairs", "room:2"),
    ("go to the dining table that has a statue but no laptop", "6|2|0"),
    ("go to the room with two or more windows and fewer than four chairs", "room:0"),
    ("go to the bedroom with at most one bed", "room:0"),
])
def test_bounds_and_denials_ground_to_the_thing_meant(text: str, want: str) -> None:
    from map2route.bench.map2route.grounding_eval import stage_descriptors
    from map2route.grounding.grounder import Executor, OfflineGrounder
    from map2route.paths import maps_dir
    from map2route.semantic_map.io import load_scene

    scene = maps_dir() / "procthor_00921"
    if not scene.is_dir():
        pytest.skip("shipped ProcTHOR scenes are not present")
    g = OfflineGrounder(executor=Executor("inprocess")).ground(text, load_scene(scene),
                                                               (5.0, 5.0))
    assert stage_descriptors(g.routeir) == [want]
