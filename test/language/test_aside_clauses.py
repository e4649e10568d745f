"""Asides that name nothing on the map are set apart as context, never dropped; any clause
that could be route content is still refused by name (parser/aside_clauses.py)."""

from __future__ import annotations

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import route_summary
from map2route.language.parser import parse_instruction
from map2route.language.parser.aside_clauses import aside_at, is_aside


@pytest.mark.parametrize("text", [
    "i'll be along in a minute or two",
    "grocery delivery at 5ish",
    "shut up",
    "grocery delivery is at five and the plumber comes later",
])
def test_talk_about_the_day_is_an_aside(text):
    assert is_aside(text.lower().replace("'", " '").split())


@pytest.mark.parametrize("text", [
    "it's big",  # a size says which one
    "not on it",  # a negated pointer may forbid something
    "the sofa is nice",  # names a map thing
    "the piano is loud",  # names a thing no map has
    "wait there",  # a motion verb
    "keep clear",  # a keep-away verb
    "the second one",  # a rank
    "on the way",  # a route word
    "once I've found my slippers",  # a scope opener: may bound a constraint
    "actually",  # a correction
    "passing by the thingamajig",  # a pass of something unknown
])
def test_route_content_is_never_an_aside(text):
    assert not is_aside(text.lower().replace("'", " '").split())


def test_an_aside_is_reported_as_context_and_spans_still_point_into_the_text():
    text = "Go to the fridge, I'll be along in a minute. Shut up."
    p = parse_instruction(text)
    assert route_summary(p) == [("goal", "fridge")]
    assert p.instruction == text
    assert "aside: I'll be along in a minute" in p.context
    ref = p.clauses[0].refs[0]
    assert text[ref.span[0]:ref.span[1]].lower().endswith("fridge")


def test_the_clause_refused_is_found_by_its_span():
    text = "Go to the sofa, shut up"
    assert aside_at(text, (16, 20)) == (15, 23)
    assert aside_at(text, (10, 14)) is None  # "Go to the sofa" names the sofa


@pytest.mark.parametrize("text", [
    "Go to the sofa, it's big.",  # which sofa: still refused
    # (not by the aside cut: "not ON it, next to it" is a restatement read by
    # .retractions, test_corrections_negated.py)
])
def test_a_description_after_the_request_is_still_refused(text):
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert err.value.word


def test_an_instruction_that_is_all_aside_is_refused():
    with pytest.raises(ParseError):
        parse_instruction("I'll be along in a minute, shut up.")
