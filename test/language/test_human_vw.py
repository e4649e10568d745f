"""Human phrasings of fresh sets V and W, read by
:mod:`map2route.language.parser.errand_talk`: "swing past X" (a pass), "cut through / across"
a room, "the corner where the fridge is", "that's where I left my phone", a correction that
rejects one of two ("No wait, not the one with X, the other one"), a
heading that only says which way to count ("Head toward the bedrooms and stop in the first
bedroom you walk into") a list header said with a rough count ("A couple of errands,
please:"); and, read by :mod:`map2route.language.parser.kind_talk`, two held things said loosely
("with the watch and vase on it", "with both a laptop and a vase on it"), "would you mind
waiting", the plain kind ("the ordinary chair") and a set said by what its members hold ("Two of
the beds have a teddy bear on them. Go to the bigger of the two."). Floors for V, W and the class table ``breadth_vw_classes.json`` (paraphrases of
each class written before the fix), no silent drops, and refusals that name a span."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import route_summary, score_set, summary
from map2route.language.parser import parse_instruction
from map2route.language.parser.coverage import HARMLESS, IDIOM_HEADS

DATA = Path(__file__).parent / "data"


def _route(text: str) -> list[tuple[str, ...]]:
    p = parse_instruction(text)
    assert not [w for w in p.unknown_words if w not in HARMLESS and w not in IDIOM_HEADS]
    return route_summary(p)


@pytest.mark.parametrize(("name", "floor"), [
    ("fresh_human_v.json", 19), ("fresh_human_w.json", 16), ("breadth_vw_classes.json", 83)])
def test_floor_and_no_silent_drops(name: str, floor: int) -> None:
    scores = score_set(DATA / name)
    s = summary(scores)
    assert s["silent_drops"] == 0
    assert s["right"] >= floor
    for sc in scores:
        if sc.refused and not sc.right:
            assert sc.refusal_span, sc.item_id  # a refusal names what it could not read


@pytest.mark.parametrize(("text", "want"), [
    ("Swing past the fridge first, then go to the sofa.", [("pass", "fridge"), ("goal", "sofa")]),
    ("swing past the bed and then stop at the dresser", [("pass", "bed"), ("goal", "dresser")]),
    ("Swing by the fridge and come back.", [("goal", "fridge"), ("goal", "start")]),
    ("From the kitchen, cut through the bedroom with the armchair and stop in the first "
     "bathroom you hit", [("pass", "bedroom"), ("goal", "bathroom")]),
    ("From the front door, cut across the living room to the bathroom.",
     [("pass", "living_room"), ("goal", "bathroom")]),
    ("Go to the corner where the sofa is.", [("goal", "corner")]),
    ("Wait in the corner of the bedroom where the desk is.", [("goal", "corner")]),
    ("Go to the desk. I think that's where I left my keys.", [("goal", "desk")]),
    ("Go to the bathroom. No wait, not the one with the laundry hamper, the other one.",
     [("goal", "bathroom")]),
    ("Go to the toilet. No sorry, not the one next to the plunger, the other one.",
     [("goal", "toilet")]),
    ("Head toward the bathrooms and stop in the first bathroom you walk into.",
     [("goal", "bathroom")]),
    ("Starting from the fridge, make your way toward the bedrooms. In the second living room "
     "you pass through, stop by the floor lamp.", [("goal", "floor_lamp")]),
    ("A couple of errands, please:\n- first, the fridge\n- then the sofa",
     [("goal", "fridge"), ("goal", "sofa")]),
    ("I've got a few errands for you: the desk, then the bed.",
     [("goal", "desk"), ("goal", "bed")]),
    ("Go to the dresser with the watch and vase on it.", [("goal", "dresser")]),
    ("Go to the bedroom with both a desk and a bed.", [("goal", "bedroom")]),
    ("Would you mind waiting by the fridge?", [("goal", "fridge")]),
    ("Go to the ordinary chair in the kitchen.", [("goal", "chair")]),
    ("Two of the dressers have a vase on them. Go to the bigger of the two.",
     [("goal", "dresser")]),
    ("Two of the bathrooms have a laundry hamper in them. Go to the smaller one.",
     [("goal", "bathroom")]),
    ("dresser w/ the watch + vase on it, then the telly", [("goal", "dresser"),
                                                          ("goal", "television")]),
    ("Go through the kitchen and wait by the sofa.", [("pass", "kitchen"), ("goal", "sofa")]),
    ("right, from the fridge, cut through the living room and stop at the sofa",
     [("pass", "living_room"), ("goal", "sofa")]),
    ("Walk toward the living rooms and stop in the first one you reach.",
     [("goal", "living_room")]),
    ("Go to the armchair, that's where I put the book.", [("goal", "arm_chair")]),
])
def test_constructions(text: str, want: list[tuple[str, ...]]) -> None:
    assert _route(text) == want


def test_heading_and_negated_cut_left_alone() -> None:
    # a heading with no ordinal place after it is not taken out: it is refused, with a span
    with pytest.raises(ParseError) as e:
        parse_instruction("Head toward the bedrooms.")
    assert e.value.word
    # "don't cut through the kitchen" stays a constraint
    route = _route("Go to the sofa and don't cut through the kitchen.")
    assert route[0] == ("goal", "sofa") and route[1][:2] == ("avoid", "kitchen")


def test_heading_reported_as_context() -> None:
    p = parse_instruction("Head toward the bedrooms and stop in the first bedroom you walk into.")
    assert any("toward the bedrooms" in c for c in p.context)


def test_held_pair_and_set_keep_what_they_read() -> None:
    ref = parse_instruction("Go to the dresser with the watch and vase on it.").clauses[0].refs[0]
    held = {r.head for m in ref.modifiers if m.kind == "with" for r in m.refs}
    assert held >= {"watch"} and "vase" in str(parse_instruction(
        "Go to the dresser with the watch and vase on it.").to_json())
    p = parse_instruction("Two of the beds have a teddy bear on them. Go to the bigger of the two.")
    ref = p.clauses[0].refs[0]
    assert ref.head == "bed"
    assert {m.kind for m in ref.modifiers} >= {"rank", "with"}
    assert any("two of the beds" in c for c in p.context)
    # the plain kind is reported, not dropped
    assert any("ordinary chair" in c for c in parse_instruction(
        "Go to the ordinary chair.").context)
    # a describing word that is not the plain kind is still refused
    with pytest.raises(ParseError):
        parse_instruction("Go to the elongated dresser.")


def test_through_to_a_room_stays_one_stage() -> None:
    # "through to the bathroom" is into it: the stop is in that room, one stage
    assert _route("go through to the bathroom and stop at the toilet.") == [("goal", "toilet")]
    assert _route("Go into the bedroom and stop at the bed.") == [("goal", "bed")]
    assert _route("Go through to the living room where the little table has a desk lamp on "
                  "it, and stop next to the bin in there.") == [("goal", "garbage_can")]


@pytest.mark.parametrize("text", [
    "Go to the bedroom where the big bed is.",
    "Go to the living room where the little table has a vase on it.",
])
def test_room_where_a_sized_thing_is(text: str) -> None:
    ref = parse_instruction(text).clauses[0].refs[0]
    assert ref.head_kind == "room" and [m.kind for m in ref.modifiers] == ["with"]


def test_reason_with_a_place_adverb_is_context() -> None:
    p = parse_instruction("Go to the sofa. Don't go into the kitchen, people are eating there.")
    assert route_summary(p) == [("goal", "sofa"), ("avoid", "kitchen", "")]
    assert any("people are eating there" in c for c in p.context)
