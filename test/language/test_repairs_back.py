"""Self-corrections and contrasts that point back at the thing just named
(:mod:`map2route.language.parser.contrast_repairs`, read inside
:mod:`map2route.language.parser.retractions`; round G, class G6).

The table ``breadth_repairs_back.json`` was written before the parser code for the class was
read (first contact: 15 of 34 right, 0 silent drops; after the fix 32 of 34). A second batch
(RBB01-RBB10) was written after the fix and scored once at first contact (7 of 10 right, 0
silent drops); three gaps it showed were then closed (a lead right before "not" with no comma,
"wait no not the kettle, ..."; "near" in a "you don't need to go near the X" tail; the lead
"wrong room" / "wrong one"). The floor below is what the pass reaches. The unit tests check
by hand what each construction gives: the stages and constraints, the words reported as
context (never dropped), and the sentences that must still be refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import route_summary, score_set, summary
from map2route.language.parser import parse_instruction
from map2route.language.parser.coverage import HARMLESS

DATA = Path(__file__).parent / "data"
TABLE = DATA / "breadth_repairs_back.json"
FLOOR = 42


def _read(text: str) -> tuple[list[tuple[str, ...]], list[str], set[str]]:
    """Route summary, context (lower case) and the heads the context names."""
    p = parse_instruction(text)
    assert not [w for w in p.unknown_words if w not in HARMLESS]
    return route_summary(p), [c.lower() for c in p.context], {r.head for r in p.context_refs}


def test_table_floor_no_silent_drops_and_named_refusals() -> None:
    scores = score_set(TABLE)
    s = summary(scores)
    assert s["silent_drops"] == 0, [x.item_id for x in scores if x.silent_drop]
    assert s["right"] >= FLOOR, [(x.item_id, x.problems) for x in scores if not x.right]
    assert all(x.refusal_span for x in scores if x.refused and not x.right)


# --- "not X, the Y" that says the pick again: a confirmation -----------------------------------
@pytest.mark.parametrize(("text", "head", "said", "named"), [
    ("Go and stand by the toilet. Not the sink, the toilet itself.", "toilet",
     "not the sink the toilet itself", "sink"),
    ("Go to the sofa, not the TV stand, the sofa.", "sofa", "not the tv stand", "tv_stand"),
    ("Go to the baseball bat, not the basketball, the bat.", "baseball_bat",
     "not the basketball the bat", "basket_ball"),
    ("Stand by the television in the bedroom, not the one in the lounge, the bedroom one.",
     "television", "not the one in the lounge the bedroom one", "living_room"),
    ("Go to the toilet in the bathroom. Not next to the sink, next to the toilet.", "toilet",
     "not next to the sink", "sink"),
])
def test_a_contrast_that_restates_the_pick_is_context(text: str, head: str, said: str,
                                                      named: str) -> None:
    route, context, refs = _read(text)
    assert route == [("goal", head)]
    assert any(said in c for c in context)
    assert named in refs


def test_a_size_partitive_with_a_rejected_shape() -> None:
    route, context, _ = _read("In the bedroom where the teddy bear is there are two beds. "
                              "I'd like you to go to the bigger of the two, not the narrow one.")
    assert route == [("goal", "bed")]
    assert any("not the narrow one" in c for c in context)


# --- "not X, the Y" that rejects the pick: a correction ---------------------------------------
def test_a_rejected_goal_after_leads_is_replaced() -> None:
    route, context, refs = _read("Go to the window in the lounge with the floor lamp - no, "
                                 "wait, not the window, the floor lamp itself.")
    assert route == [("goal", "floor_lamp")]
    assert any("not the window" in c for c in context)
    assert "window" in refs


def test_not_that_one_opens_a_correction_of_a_fragment() -> None:
    route, context, _ = _read("The bed in the teddy bear room. Not that one, sorry, the bed "
                              "in the room with the baseball bat. Go there.")
    assert route == [("goal", "bed")]
    assert any("teddy bear" in c for c in context)
    p = parse_instruction("The bed in the teddy bear room. Not that one, sorry, the bed in "
                          "the room with the baseball bat. Go there.")
    room = p.clauses[0].refs[0].modifiers[0].refs[0]
    assert room.modifiers[0].refs[0].head == "baseball_bat"


def test_not_that_settee_the_other_one() -> None:
    route, context, _ = _read("Go to the settee in the sitting room with the cart. Oh, not "
                              "that settee, love, the other one, in the room with the shelf.")
    assert route == [("goal", "sofa")]
    assert any("not that settee" in c for c in context)


@pytest.mark.parametrize(("text", "route"), [
    ("Go to the kitchen - sorry, no, I meant the bedroom with the dog bed - and stop at the "
     "bed in there.", [("goal", "bed")]),
    ("Go to the mug in the kitchen. Actually, on second thoughts, the other mug, the one in "
     "the bedroom.", [("goal", "mug")]),
    ("Navigate to the refrigerator; correction: navigate to the coffee machine, not the "
     "refrigerator.", [("goal", "coffee_machine")]),
    ("I'd like you to go to the dresser in the bedroom with the telly. Err, no, not that one, "
     "the dresser in the room with the teddy bear.", [("goal", "dresser")]),
    ("pls go to the kettle... wait no not the kettle, the toaster", [("goal", "toaster")]),
    ("go to the dresser in the bedroom with the telly - wrong one, the chair in the bedroom "
     "with the teddy bear", [("goal", "chair")]),
])
def test_corrections_said_in_other_ways(text: str, route: list[tuple[str, ...]]) -> None:
    assert _read(text)[0] == route


# --- tails that add nothing: an emphatic "not even", what need not be done --------------------
def test_not_even_after_a_prohibition_is_context() -> None:
    route, context, _ = _read("Don't go into the bedroom with the baseball bat, not even to "
                              "cut through. Go to the dresser in the bedroom with the telly.")
    assert route[0] == ("goal", "dresser")
    assert route[1][:2] == ("avoid", "bedroom")
    assert any("not even to cut through" in c for c in context)


@pytest.mark.parametrize(("text", "head", "said"), [
    ("Go to the dining table in the lounge with the candles. Just the table, you don't need "
     "to touch the candles.", "dining_table", "you do not need to touch the candles"),
    ("Could you go and wait in the corner of the lounge where the standing lamp is? Just the "
     "corner, you don't need to touch the lamp.", "corner",
     "you do not need to touch the lamp"),
])
def test_what_need_not_be_done_is_context(text: str, head: str, said: str) -> None:
    route, context, _ = _read(text)
    assert route == [("goal", head)]
    assert any(said in c for c in context)


# --- still refused, naming the words ----------------------------------------------------------
@pytest.mark.parametrize(("text", "word"), [
    ("Don't go into the bedroom with the baseball bat, not even the kitchen. Go to the "
     "dresser.", "not"),  # a new place after "not even": not an emphasis
    ("Go to the sofa. Not the sink, the florb.", "not"),  # an unknown word is never hidden
    ("Go to the lamp, you don't need to frobnicate the lamp.", "frobnicate"),
    ("Go to the fridge, not even to cut through.", "not"),  # no prohibition before it
    ("Keep away from the sofa, not the bed, the table.", "not"),
])
def test_still_refused(text: str, word: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert word in str(getattr(err.value, "word", "") or err.value)
