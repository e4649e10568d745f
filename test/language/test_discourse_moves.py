"""The grammar of discourse moves (:mod:`map2route.language.parser.moves`), set K's round.

Each move has a hand-checkable unit test of its classification and of what the parse makes of
it. The ``VARIANTS`` of each class were written before they were run through the parser (the
first-contact count is in docs/grounding.md, "Set K round"); the set's own phrasing is among
them, marked ``# K..``.
"""

from __future__ import annotations

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import route_summary
from map2route.language.parser import parse_instruction
from map2route.language.parser.moves import MOVES, moves_of
from map2route.language.tokens import tokenize


def _moves(text: str) -> list[str]:
    return [m for _, m in moves_of(tokenize(text))]


def _route(text: str) -> list[tuple[str, ...]]:
    return route_summary(parse_instruction(text))


def _check(text: str, want: list[tuple[str, ...]], context: str | None = None) -> None:
    p = parse_instruction(text)
    assert _route(text) == want
    assert not [w for w in p.unknown_words if w not in ("but", "floor", "into")]
    if context is not None:
        assert any(context in c for c in p.context), p.context


# --- classification: one clause per move --------------------------------------------------
@pytest.mark.parametrize(("text", "moves"), [
    ("Go to the sofa, it tips over easily.", ["request", "statement"]),
    ("Hey, could you do a little round for me?", ["lead", "chatter"]),
    ("Careful with the plunger, give it some room.", ["caution", "elaboration"]),
    ("Try not to get close to the bed.", ["hedge"]),
    ("Go to the bathroom, the one with a plant in it.", ["request", "apposition"]),
    ("Go to the chair by the table, I mean the one next to the desk.",
     ["request", "correction"]),
    ("Go to the sofa, and wait there.", ["request", "dwell"]),
    ("Of the two bedrooms, go to the bigger one.", ["frame", "request"]),
    ("When you get to the kitchen, stop.", ["scope", "request"]),
    ("I left my keys on the bed, go get them.", ["mention", "request"]),
])
def test_each_clause_gets_a_move(text, moves):
    assert _moves(text) == moves
    assert set(moves) <= set(MOVES)


# --- statements: a reason or state that names nothing new is context ----------------------
STATEMENTS = [
    ("Go to the fridge. Don't get close to the garbage can, it tips over easily.",  # K01
     [("goal", "fridge"), ("far", "garbage_can", "")], "it tips over easily"),
    ("Walk over to the bed, it's been a long day.",
     [("goal", "bed")], "it is been a long day"),
    ("Keep away from the fridge the whole way, its door sticks out. Go to the box.",  # K20
     [("goal", "box"), ("far", "fridge", "")], "its door sticks out"),
    ("Go to the toilet. The toilet is where I want you.",
     [("goal", "toilet")], "the toilet is where i want you"),
    ("Head to the sink, that's all.", [("goal", "sink")], None),
    ("Go to the desk, the lamp on it is broken anyway.", None, None),  # a new head: kept
]


@pytest.mark.parametrize(("text", "want", "context"), STATEMENTS)
def test_statements_naming_nothing_new_are_context(text, want, context):
    if want is None:
        with pytest.raises(ParseError):
            parse_instruction(text)
        return
    _check(text, want, context)


@pytest.mark.parametrize("text", [
    "Go to the sofa, it's big.",  # which sofa: a description, not an aside
    "Go to the sofa, it's in the living room.",
])
def test_a_statement_that_describes_is_not_an_aside(text):
    with pytest.raises(ParseError):
        parse_instruction(text)


# --- chatter: no head, no route word -------------------------------------------------------
CHATTER = [
    ("Could you do a little round for me? Go to the desk, then to the bed.",  # K21
     [("goal", "desk"), ("goal", "bed")]),
    ("Would you do me a favour? Go to the fridge.", [("goal", "fridge")]),
    ("Go to the toilet. Then you're done.", [("goal", "toilet")]),
    ("Go to the bed in the bedroom. You'll see it.", [("goal", "bed")]),
]


@pytest.mark.parametrize(("text", "want"), CHATTER)
def test_chatter_is_context(text, want):
    _check(text, want)


# --- cautions, hedges and their elaborations -----------------------------------------------
CAUTIONS = [
    ("Go to the sink. Careful with the plunger, give it some room.",  # K02
     [("goal", "sink"), ("far", "plunger", "")]),
    ("Go to the bed. Watch out for the dog bed.", [("goal", "bed"), ("far", "dog_bed", "")]),
    ("Head to the sofa, and be careful around the floor lamp.",
     [("goal", "sofa"), ("far", "floor_lamp", "")]),
    ("Go to the fridge. Try not to get too close to the garbage can.",  # K01
     [("goal", "fridge"), ("far", "garbage_can", "")]),
    ("Try to stay away from the TV and go to the bed.",
     [("goal", "bed"), ("far", "television", "")]),
    ("Go to the window. Don't squeeze in between the table and the stool, go around the "
     "other side of the table.",  # K05
     [("goal", "window"), ("avoid", "between", "")]),
]


@pytest.mark.parametrize(("text", "want"), CAUTIONS)
def test_cautions_and_hedges_are_the_constraint_they_ask_for(text, want):
    _check(text, want)


# --- appositions and corrections attach to the head before them ----------------------------
ATTACHED = [
    ("Go into the big bathroom, the one with a plant on the dresser, and stop at the sink.",
     [("goal", "sink")]),  # K02
    ("Go to the TV, the one hanging on the wall.", [("goal", "television")]),
    ("Go to the baseball bat on the side table, you know, in the bedroom with the arm chair.",
     [("goal", "baseball_bat")]),
    ("Go find the chair that isn't at a dining table, I mean the one pulled up to the desk, "
     "and wait there.", [("goal", "chair")]),  # K06
    ("Stop at the lamp by the sofa, I mean the one next to the bed.", [("goal", "lamp")]),
    ("Of the two bathrooms, go to the bigger one.", [("goal", "bathroom")]),  # K17
    ("Of the chairs, go to the one nearest the desk.", [("goal", "chair")]),
]


@pytest.mark.parametrize(("text", "want"), ATTACHED)
def test_appositions_and_corrections_attach_to_their_head(text, want):
    _check(text, want)


def test_a_correction_keeps_the_replaced_words_as_context():
    p = parse_instruction("Go to the chair by the table, I mean the one next to the desk.")
    assert any("by the table" in c for c in p.context)
    ref = p.clauses[0].refs[0]
    assert [m.kind for m in ref.modifiers] == ["next_to"]
    assert ref.modifiers[0].refs[0].head == "desk"


# --- "in there" / "that room" and arrivals: the room named last -----------------------------
PLACES = [
    ("Go past the TV in the long living room and stop at the sofa. Keep away from the "
     "dining table in there while you do it.",  # K13
     [("pass", "television"), ("goal", "sofa"), ("far", "dining_table", "in:livingroom")]),
    ("Go to the sink in the bathroom. Stay away from the toilet in there.",
     [("goal", "sink"), ("far", "toilet", "in:bathroom")]),
    ("Go to the toilet in the bathroom. Once you are in that room, keep away from the sink.",
     [("goal", "toilet"), ("far", "sink", "in:bathroom")]),
    ("Head to the side table in the bedroom. Go past the arm chair when you come in, and "
     "once you're in that room keep away from the bed.",  # K10
     [("pass", "arm_chair"), ("goal", "side_table"), ("far", "bed", "in:bedroom")]),
    ("Go to the bed in the bedroom. Walk past the desk as you enter.",
     [("pass", "desk"), ("goal", "bed")]),
]


@pytest.mark.parametrize(("text", "want"), PLACES)
def test_there_and_arrivals_are_the_room_named_last(text, want):
    _check(text, want)


def test_a_clause_naming_a_new_head_is_never_chatter():
    # "the cat is asleep on the sofa" names a sofa the route never named: not a statement
    # move (left to the later stages, which report it)
    text = "Go to the bed, the cat is asleep on the sofa."
    assert _moves(text) == ["request", "request"]
    assert "the cat is asleep on the sofa" in parse_instruction(text).context


# --- a leading room without its comma is a scope (written before the run, second batch) ----
SCOPES = [
    ("Go to the garbage can. Oh, and in the kitchen don't go right next to the counter.",  # K15
     [("goal", "garbage_can"), ("far", "counter_top", "in:kitchen")]),
    ("Walk to the bed. In the bathroom stay away from the toilet.",
     [("goal", "bed"), ("far", "toilet", "in:bathroom")]),
    ("Go to the desk, and inside the kitchen keep clear of the fridge.",
     [("goal", "desk"), ("far", "fridge", "in:kitchen")]),
    ("Stop at the sofa at the far end of the living room.", [("goal", "sofa")]),  # K21
    ("Go to the box on the floor in the other living room.", [("goal", "box")]),  # K20
]


@pytest.mark.parametrize(("text", "want"), SCOPES)
def test_a_leading_room_without_its_comma_is_a_scope(text, want):
    _check(text, want)


# --- a correction sentence puts its reference in place of the vaguer one before it ---------
CORRECTIONS = [
    ("Go to the plant that's on the table in the room you get into from the smallest bedroom. "
     "Not the bathroom, I mean the other bedroom. Then come back.",  # K12
     [("goal", "house_plant"), ("goal", "start")]),
    ("Walk to the desk in the room next to the kitchen. I mean the bedroom.",
     [("goal", "desk")]),
    ("Go to the sofa in the living room. Not the kitchen, I meant the big living room.",
     [("goal", "sofa")]),
    ("Go to the garbage can by the fridge. Sorry, I mean the one by the sink.",
     [("goal", "garbage_can")]),
]


@pytest.mark.parametrize(("text", "want"), CORRECTIONS)
def test_a_correction_sentence_replaces_the_vaguer_reference(text, want):
    _check(text, want)


def test_the_replaced_reference_is_context():
    p = parse_instruction("Walk to the desk in the room next to the kitchen. I mean the "
                          "bedroom.")
    assert any("the room next to the kitchen" in c for c in p.context)
    ref = p.clauses[0].refs[0]
    assert [(m.kind, m.refs[0].head) for m in ref.modifiers] == [("in_room", "bedroom")]


# --- stops said with ordinals, and references to them ---------------------------------------
STOPS = [
    ("First stop, the sink. Second stop, the bed.", [("goal", "sink"), ("goal", "bed")]),
    ("Your first stop is the fridge and your second stop is the sofa in the living room.",
     [("goal", "fridge"), ("goal", "sofa")]),
    ("Stop at the desk. Your second stop is the toilet. On the way to the second stop, stay "
     "away from the bed.",
     [("goal", "desk"), ("goal", "toilet"), ("far", "bed", "until:toilet")]),
    ("First stop, the fridge. Second stop, the TV in the other living room, not the long one. "
     "On the way to the second stop, stay away from the toilet.",  # K11
     [("goal", "fridge"), ("goal", "television"), ("far", "toilet", "until:television")]),
    ("Go to the sofa in the other living room, not the small one.", [("goal", "sofa")]),
]


@pytest.mark.parametrize(("text", "want"), STOPS)
def test_stops_said_with_ordinals(text, want):
    _check(text, want)


def test_a_contrast_without_other_is_not_context():
    # "not the small one" with no "other" before it would say which sofa: refused, not dropped
    with pytest.raises(ParseError):
        parse_instruction("Go to the sofa in the living room, not the small one.")


# --- guards found on the shipped instructions (written after the diff, not first contact) ---
def test_a_statement_that_gives_a_stage_is_a_request():
    text = ("Go to the TV stand. Do not walk into the area around the desk lamp. Your final "
            "destination is the desk lamp.")
    assert [s[1] for s in _route(text) if s[0] == "goal"] == ["tv_stand", "desk_lamp"]


def test_an_unknown_place_is_named_not_taken_for_chatter():
    with pytest.raises(ParseError, match="balcony"):
        parse_instruction("Take me to the balcony.")


def test_next_to_after_a_leading_room_is_no_clause_boundary():
    text = ("Go to the bed. Inside the bedroom next to the room you start in, stay close to the "
            "dresser.")
    scope = parse_instruction(text).clauses[-1].within
    assert scope is not None and [m.kind for m in scope.modifiers] == ["adjacent"]


# --- mixed spoken instructions, several moves each (a last batch written before the run) ----
MIXED = [
    ("Hi! Could you head to the fridge for me? Watch out for the stool, it's wobbly.",
     [("goal", "fridge"), ("far", "stool", "")]),
    ("Go to the desk in the bedroom, the one with the window. Try not to go near the bed.",
     [("goal", "desk"), ("far", "bed", "")]),
    ("Okay so, head over to the sofa and wait there for me. Thanks!", [("goal", "sofa")]),
    ("Walk to the toilet. Careful around the sink in there, it's slippery.",
     [("goal", "toilet"), ("far", "sink", "")]),
    ("Go to the bed, then to the dresser. That's all, you're done.",
     [("goal", "bed"), ("goal", "dresser")]),
    ("Please go to the TV in the living room, you know, the one on the wall.",
     [("goal", "television")]),
    ("Go to the armchair by the window. Sorry, I mean the sofa by the window.",
     [("goal", "sofa")]),
    ("First stop, the sink. Second stop, the bed. Be careful with the lamp on the way to the "
     "second stop.", [("goal", "sink"), ("goal", "bed"), ("far", "lamp", "until:bed")]),
]


@pytest.mark.parametrize(("text", "want"), MIXED)
def test_mixed_spoken_instructions(text, want):
    _check(text, want)


# --- the moves read are reported with the head each is about --------------------------------
@pytest.mark.parametrize(("text", "want"), [
    ("Go to the fridge. Don't get close to the garbage can, it tips over easily.",
     [("statement", "garbage_can")]),
    ("Go to the sink. Careful with the plunger by the door, give it some room.",
     [("caution", "plunger"), ("elaboration", "plunger")]),
    ("Go find the chair by the table, I mean the one next to the desk, and wait there.",
     [("correction", "chair"), ("dwell", "chair")]),
    ("Could you do a little round for me? Go to the bed.", [("chatter", "")]),
])
def test_the_moves_are_reported_with_what_they_are_about(text, want):
    p = parse_instruction(text)
    assert [(d["move"], d["about"]) for d in p.discourse] == want
    assert "discourse" in p.to_json()
