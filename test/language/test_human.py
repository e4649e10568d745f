"""Human phrasings (issue 19): the fresh human-style sets, no silent drops, named refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import score_refs, score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"
REAL_REFS = Path(__file__).parents[2] / ".." / "shared" / "data" / "map2route" / "real_refs_easy.json"


def _mods(text: str) -> list[tuple[str, bool]]:
    """(kind, negated) of the modifiers of the first stage's target."""
    ref = parse_instruction(text).clauses[0].refs[0]
    return [(m.kind, m.negated) for m in ref.modifiers]


@pytest.mark.parametrize(("name", "at_least"), [("fresh_human_a.json", 75.0),
                                                ("fresh_human_b.json", 95.0),
                                                ("fresh_human_c.json", 90.0),
                                                ("fresh_human_d.json", 100.0)])
def test_fresh_sets_no_silent_drops(name, at_least):
    scores = score_set(DATA / name)
    s = summary(scores)
    assert s["silent_drops"] == 0, [x for x in scores if x.silent_drop]
    assert s["right_pct"] >= at_least, [(x.item_id, x.problems) for x in scores if not x.right]
    # every refusal names the words it could not read
    assert all(x.refusal_span for x in scores if x.refused)


def test_scene_setting_sentence_is_context_not_a_stage():
    p = parse_instruction("You are standing next to a bed. Go to the fridge.")
    assert [c.refs[0].head for c in p.clauses] == ["fridge"]
    assert p.context == ["you are standing next to a bed"]


def test_scope_opened_by_leaving_a_room():
    p = parse_instruction("Go to the sofa. As you leave the bedroom, stay close to the dresser.")
    near = next(c for c in p.clauses if c.kind == "near")
    assert near.within is not None and near.within.head == "bedroom"
    assert [c.kind for c in p.clauses] == ["goal", "near"]


def test_numbered_list_is_stages_in_order():
    p = parse_instruction("Visit three places in order: 1. the fridge, 2. the sofa, 3. the toilet.")
    assert [(c.kind, c.refs[0].head) for c in p.clauses] == [
        ("goal", "fridge"), ("goal", "sofa"), ("goal", "toilet")]


def test_negated_relative_clauses():
    assert _mods("Go to the bedroom that does not have a desk.") == [("with", True)]
    assert _mods("Go to the bedroom that has neither a desk nor a lamp.") == [
        ("with", True), ("with", True)]
    assert _mods("Go to the plant that is not in a bedroom.") == [("in_room", True)]


def test_coordination_stays_on_one_head():
    p = parse_instruction("Go to the dining table with a laptop, a candle and a bowl on it.")
    assert len(p.clauses) == 1
    assert [m.refs[0].head for m in p.clauses[0].refs[0].modifiers] == ["laptop", "candle", "bowl"]
    p = parse_instruction("Go to the laptop in the same room as both the teddy bear and the desk.")
    room = p.clauses[0].refs[0].modifiers[0].refs[0]
    assert [m.refs[0].head for m in room.modifiers] == ["teddy_bear", "desk"]


def test_partitives():
    ref = parse_instruction("Go to the second of the two chairs closest to the fridge.").clauses[0].refs[0]
    rank = ref.modifiers[0]
    assert (ref.head, rank.kind, rank.k, rank.refs[0].head) == ("chair", "rank", 2, "fridge")
    ref = parse_instruction("Walk to the larger of the two bathrooms.").clauses[0].refs[0]
    assert ref.head == "bathroom" and ref.modifiers[0].rank == "largest"


def test_between_avoidance_is_an_area():
    p = parse_instruction("Go to the fridge, but don't pass between the table and the sofa.")
    avoid = next(c for c in p.clauses if c.kind == "avoid")
    gap = avoid.refs[0]
    assert (gap.head, gap.head_kind) == ("between", "area")
    assert [r.head for r in gap.modifiers[0].refs] == ["table", "sofa"]


def test_geometry_targets():
    ref = parse_instruction("Go to the midpoint between the fridge and the sink.").clauses[0].refs[0]
    assert (ref.head, ref.head_kind) == ("midpoint", "point")
    ref = parse_instruction("Walk to the corner of the kitchen farthest from the fridge.").clauses[0].refs[0]
    assert (ref.head, [m.kind for m in ref.modifiers]) == ("corner", ["in_room", "rank"])


def test_doorway_is_its_own_category():
    ref = parse_instruction("Go to the doorway of the kitchen.").clauses[0].refs[0]
    assert ref.head == "doorway"


@pytest.mark.parametrize(("text", "span"), [
    ("Go into the first bedroom you enter and stop by the bed.", "the first bedroom you enter"),
    ("Walk to the sofa and stop at the plant you pass.", "the plant you pass"),
    ("Go to the bedroom that does not have a desk, and only then to the sofa.", "only"),
    ("Go to the chair that is not under a table.", "not"),
])
def test_refusals_name_the_span(text, span):
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert span in err.value.word
    assert err.value.span is not None
    a, b = err.value.span
    assert span.split()[0] in text[a:b].lower()


def test_asides_are_reported_not_dropped():
    p = parse_instruction("Go to the counter, and avoid the sofa because she is napping on it.")
    assert p.context == ["because she is napping on it"]


@pytest.mark.skipif(not REAL_REFS.is_file(), reason="real_refs_easy.json is not in ../shared")
def test_real_referring_expressions_are_read_or_refused():
    out = score_refs(REAL_REFS)
    answered = out["expressions"] - out["refused"]
    # measured 2026-12-04: 2,066 of 2,087 answered heads right, 491 refused, 4 drops
    assert out["silent_drops"] <= 10
    assert out["head_right"] / answered >= 0.97
