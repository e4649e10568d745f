"""A belonging the map lacks, placed at a thing it has, then pointed back at; and a pointer
with nothing before it, which is a refusal (stop 41)."""

from __future__ import annotations

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_parse, read_route


@pytest.mark.parametrize(("text", "route"), [
    ("My glasses are on the desk. Go to it.", [("goal", "desk")]),
    ("My bag is on the chair nearest the bed. Could you go to it?", [("goal", "chair")]),
    ("my knitting bag's on the chair nearest the bed, could you go to it", [("goal", "chair")]),
    ("Our spare key is in the kitchen. Head there.", [("goal", "kitchen")]),
    # a belonging the map has is the thing itself (read before this reader)
    ("My phone is on the chair nearest the bed. Go to it.", [("goal", "cell_phone")]),
    # not pointed back at: the sentence stays context, the request is its own
    ("My glasses are on the desk. Go to the sofa.", [("goal", "sofa")]),
])
def test_a_pointer_at_a_placed_belonging_is_its_place(text: str, route: list[tuple[str, ...]]
                                                      ) -> None:
    assert read_route(text) == route


def test_the_belonging_is_reported_as_context() -> None:
    p = read_parse("My glasses are on the desk. Go to it.")
    assert any("glasses" in c for c in p.context)
    [stage] = p.clauses
    assert stage.refs[0].head == "desk"


@pytest.mark.parametrize("text", [
    "Go to it.",
    "My feeling is that the sofa is best. Go to it.",
    "Keep away from it. Go to the sofa.",
])
def test_a_pointer_with_nothing_before_it_is_refused_by_name(text: str) -> None:
    # grounding took such an "it" for the robot's own place: a 0 m route that looked answered
    with pytest.raises(ParseError) as err:
        read_parse(text)
    assert err.value.span is not None
    assert text[err.value.span[0]:err.value.span[1]].lower() == "it"
    assert "points back at" in str(err.value)


def test_a_pointer_after_a_named_thing_still_reads() -> None:
    assert read_route("Go to the sofa and stop next to it.") == [("goal", "sofa")]
    assert read_route("There is a plunger nearby; do not touch it. Go to the sofa.") == [
        ("goal", "sofa"), ("avoid", "plunger", "")]
