"""Human phrasings of fresh sets AB and AC, read by
:mod:`map2route.language.parser.aside_restatements`: a separable "run over" ("mind the dog bed,
don't run it over"), a via restated as "Don't stop there, just go by it", someone's placing of
the thing just named ("Someone left it on the couch"), ", it's on the floor in the X" after a
comma, and an errand on the way added with "but"; and, by
:mod:`map2route.language.parser.note_fragments`, a scope naming a numbered list item ("on the
way to number 2", "on the way to 3"). Floors for AB, AC and the class table
``breadth_abac_classes.json``, no silent drops, and refusals that name a span."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route as _route
from map2route.language.fresh import score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(("name", "floor"), [
    ("fresh_human_ab.json", 15), ("fresh_human_ac.json", 17), ("breadth_abac_classes.json", 19)])
def test_floors_and_no_silent_drops(name: str, floor: int) -> None:
    scores = score_set(DATA / name)
    s = summary(scores)
    assert s["right"] >= floor
    assert s["silent_drops"] == 0
    for sc in scores:
        if sc.refused:
            assert sc.refusal_span, sc.item_id


def test_run_it_over_is_avoid() -> None:
    js = parse_instruction("Go to the sofa. Mind the dog bed, don't run it over.").to_json()
    assert [(c["kind"], c["refs"][0]["head"]) for c in js["constraints"]] == [
        ("avoid", "dog_bed")]
    js = parse_instruction("Go to the desk. Careful with the teddy bear, please don't drive it "
                           "over.").to_json()
    assert [(c["kind"], c["refs"][0]["head"]) for c in js["constraints"]] == [
        ("avoid", "teddy_bear")]


def test_stop_restated_needs_a_via() -> None:
    _route("Go to the bed, passing the fridge. Don't stop there, just go by it.")
    with pytest.raises(ParseError):
        parse_instruction("Go to the bed. Don't stop there, just go by it.")


def test_placed_it_is_a_description() -> None:
    js = parse_instruction("Find the laptop. The kids left it on the desk.").to_json()
    assert [s["refs"][0]["head"] for s in js["stages"]] == ["laptop"]
    assert "desk" in {r["head"] for r in js["context_references"]}


def test_numbered_item_scope() -> None:
    text = ("Please do these in order:\n1. microwave\n2. sofa\n"
            "On the way to number 2 stay close to the kitchen table.")
    js = parse_instruction(text).to_json()
    assert [c["kind"] for c in js["constraints"]] == ["near"]
    with pytest.raises(ParseError):
        parse_instruction("Go to number 2.")
