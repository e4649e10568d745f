"""Human phrasings of fresh sets R and S (issue 19): typed speech (contractions without the
apostrophe, "ur in the kitchen rn", an emphatic "Do keep ..."), self-corrections in the orders
people say them ("wait no, the one ...", "No, wait, not that one. I meant ...", "..., I mean.",
a correction of the last item of a list), "Starting from X, would you ...", "visit these in
order:", "on the way back", route ordinals said by position ("the first bedroom ... and on into
the next one", "in that second bedroom") and "whichever of its two windows". Each class has the
set's own phrasing and variants of it."""

from __future__ import annotations

import pytest

from map2route.language.errors import ParseError
from map2route.language.parser import parse_instruction


def _route(text: str) -> list[tuple[str, str]]:
    """(kind, head) of the clauses (mentions left out)."""
    p = parse_instruction(text)
    return [(c.kind, c.refs[0].head if c.refs else "") for c in p.clauses
            if c.kind != "mention"]


# --- typed speech ----------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "want"), [
    ("ur in the kitchen rn. go to the couch", [("goal", "sofa")]),
    # variants: the possessive misspelt, "youre", "im"
    ("your at the fridge. go to the sofa", [("goal", "sofa")]),
    ("youre next to the bed. go to the toilet", [("goal", "toilet")]),
    ("im in the kitchen. go to the sofa", [("goal", "sofa")]),
])
def test_you_are_typed_without_apostrophe_sets_the_scene(text, want):
    assert _route(text) == want


def test_your_before_a_noun_stays_the_possessive():
    assert _route("go to ur room") == [("goal", "room")]


@pytest.mark.parametrize(("text", "want"), [
    ("Go to the sofa. Do keep close to the wall as you go.", [("goal", "sofa"), ("near", "wall")]),
    ("Go to the desk. Do stay away from the bed.", [("goal", "desk"), ("far", "bed")]),
    ("Go to the desk. Do not go near the bed.", [("goal", "desk"), ("far", "bed")]),
])
def test_emphatic_do(text, want):
    assert _route(text) == want


# --- self-corrections -----------------------------------------------------------------------
@pytest.mark.parametrize(("text", "want"), [
    ("kettle, then toaster no wait the microwave, then back to me",
     [("goal", "kettle"), ("goal", "microwave"), ("goal", "start")]),
    # variants: the earlier items of the list stay
    ("go to the kettle, then the toaster, no wait, the microwave",
     [("goal", "kettle"), ("goal", "microwave")]),
    ("go to the fridge, then the sofa, sorry, the armchair",
     [("goal", "fridge"), ("goal", "arm_chair")]),
    ("go to the sofa, no wait, the armchair", [("goal", "arm_chair")]),
])
def test_correction_replaces_only_the_last_item(text, want):
    assert _route(text) == want


@pytest.mark.parametrize(("text", "room"), [
    ("go to the tv in the living room. wait no, the one in the bedroom", "bedroom"),
    # variants: the markers in other orders, the rejection in its own sentence, marker last
    ("go to the tv in the living room. wait, no, the one in the bedroom", "bedroom"),
    ("Go to the toilet in the smallest bathroom. No, wait, not that one. I meant the toilet in "
     "the kitchen.", "kitchen"),
    ("go to the tv in the bedroom. The one in the living room, I mean.", "living_room"),
])
def test_corrections_in_other_orders(text, room):
    p = parse_instruction(text)
    assert len(p.clauses) == 1 and p.clauses[0].kind == "goal"
    ref = p.clauses[0].refs[0]
    assert [r.head for m in ref.modifiers if m.kind == "in_room" for r in m.refs] == [room]


def test_ah_no_sorry_the_other_one():
    ref = parse_instruction("go to the window. ah no sorry, the other one").clauses[0].refs[0]
    assert ref.head == "window" and [m.kind for m in ref.modifiers] == ["other"]


# --- frames of the request ------------------------------------------------------------------
@pytest.mark.parametrize(("text", "want"), [
    ("Starting from the kitchen, would you go to the sofa?", [("goal", "sofa")]),
    ("From the bedroom, could you please go to the sofa", [("goal", "sofa")]),
    ("Coming from the kitchen, can you go to the toilet?", [("goal", "toilet")]),
])
def test_start_said_before_a_polite_request(text, want):
    assert _route(text) == want


@pytest.mark.parametrize("text", [
    "Please visit these in order: 1. the counter; 2. the sofa",
    "Visit the following in order: 1. the counter; 2. the sofa",
    "visit these in order: 1. the counter, 2. the sofa",
])
def test_visit_these_in_order(text):
    assert _route(text) == [("goal", "counter_top"), ("goal", "sofa")]


@pytest.mark.parametrize("text", [
    "go to the cart and then come back. On the way back, keep away from the trash bag",
    "Go to the cart, then come back here. On your way back, stay away from the trash bag.",
])
def test_on_the_way_back_scopes_the_return(text):
    p = parse_instruction(text)
    assert _route(text) == [("goal", "cart"), ("goal", "start"), ("far", "garbage_bag")]
    far = p.clauses[-1]
    assert far.during is not None and far.during["until"].head == "start"


# --- route ordinals by position -------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Go through the first bedroom you come to and on into the next one, and stop at the bed in "
    "that second bedroom.",
    "Go through the first bedroom and into the next one, then stop at the bed.",
    "Go through the first bedroom and into the second one and stop at the bed in that second "
    "bedroom.",
])
def test_next_one_after_the_first(text):
    p = parse_instruction(text)
    assert [(c.kind, c.refs[0].head) for c in p.clauses] == [("pass", "bedroom"), ("goal", "bed")]
    bed = p.clauses[1].refs[0]
    room = next(m for m in bed.modifiers if m.kind == "in_room").refs[0]
    assert room.head == "bedroom" and [(m.kind, m.k) for m in room.modifiers] == [("rank", 2)]


@pytest.mark.parametrize("text", [
    "Go through the first bedroom and into the second one, then stop at whichever of its two "
    "windows is closer to the armchair.",
    "Go into the second bedroom, and stop at whichever of its windows is closer to the armchair.",
])
def test_whichever_of_its_windows_is_in_that_room(text):
    p = parse_instruction(text)
    win = p.clauses[-1].refs[0]
    assert win.head == "window"
    rooms = [r for m in win.modifiers if m.kind == "in_room" for r in m.refs]
    assert [r.head for r in rooms] == ["bedroom"]


# --- a reason said in the typed register ------------------------------------------------------
@pytest.mark.parametrize("text", [
    "go to the bedroom. when ur in the big bathroom stick to the wall, floor's still wet in "
    "the middle",
    "go to the bedroom. stay near the wall, floor's still wet",
    "go to the bedroom. stay near the wall, the floor is still wet in the middle",
])
def test_surface_reason_without_article_is_context(text):
    p = parse_instruction(text)
    assert [(c.kind, c.refs[0].head) for c in p.clauses] == [("goal", "bedroom"), ("near", "wall")]
    assert not p.unknown_words
    assert any("wet" in c for c in p.context)


# --- "it" in a gap is the goal ------------------------------------------------------------------
@pytest.mark.parametrize(("text", "pair"), [
    ("go to the couch in the living room with the window but dont go between it and the tv",
     ["sofa", "television"]),
    ("walk to the sofa, and do not pass between the tv and it", ["television", "sofa"]),
    ("go to the bed. don't go between it and the desk.", ["bed", "desk"]),
])
def test_it_in_a_gap_is_the_goal(text, pair):
    p = parse_instruction(text)
    gap = next(c for c in p.clauses if c.kind == "avoid")
    assert [r.head for m in gap.refs[0].modifiers if m.kind == "between" for r in m.refs] == pair


# --- "on the way to the door" after "the front door" ---------------------------------------------
@pytest.mark.parametrize(("text", "stages"), [
    ("Go to the lamp, then head out to the front door. Keep clear of the cart on the way to the "
     "door.", [("goal", "lamp"), ("goal", "doorway")]),
    ("go to the sofa, then the door. on the way to the front door, avoid the bed",
     [("goal", "sofa"), ("goal", "door")]),
    ("Go to the front door, and stay away from the bed on your way to the door.",
     [("goal", "doorway")]),
])
def test_door_and_doorway_name_one_stage(text, stages):
    p = parse_instruction(text)
    assert [(c.kind, c.refs[0].head) for c in p.clauses if c.kind == "goal"] == stages


# --- a room "just outside" another is the one beside it -----------------------------------------
@pytest.mark.parametrize(("text", "room", "beside"), [
    ("Leave the kitchen, go to the cart in the living room just outside it", "living_room",
     "kitchen"),
    ("go to the cart in the living room just outside the kitchen", "living_room", "kitchen"),
    ("go to the sink in the bathroom right outside the bedroom", "bathroom", "bedroom"),
])
def test_room_just_outside_another(text, room, beside):
    ref = parse_instruction(text).clauses[0].refs[0]
    r = next(m for m in ref.modifiers if m.kind == "in_room").refs[0]
    assert r.head == room
    assert [(m.kind, m.refs[0].head) for m in r.modifiers] == [("adjacent", beside)]


# --- "Before you ...:" opening a numbered list ----------------------------------------------------
@pytest.mark.parametrize("text", [
    "Before you go charge:\n1. the safe\n2. the toilet\n3. then come back here",
    "Before you recharge: 1. the safe 2. the toilet 3. come back here",
    "before you go and charge yourself:\n1. the safe\n2. the toilet\n3. back to me",
])
def test_before_you_frame_opens_a_list(text):
    p = parse_instruction(text)
    assert _route(text) == [("goal", "safe"), ("goal", "toilet"), ("goal", "start")]
    assert any(c.startswith("before you") for c in p.context)


# --- a comparison the parser does not read is never a misspelt room ------------------------------
@pytest.mark.parametrize("text", [
    "go to the longer desk",
    "go to the longer of the two desks",
    "go to the taller of the 2 shelves in the kitchen",
])
def test_unread_comparative_is_no_room(text):
    try:
        p = parse_instruction(text)
    except ParseError:
        return  # a refusal is fine
    rooms = [r.head for c in p.clauses for ref in c.refs for m in ref.modifiers
             if m.kind == "in_room" for r in m.refs]
    assert "living_room" not in rooms
    assert [w for w in p.unknown_words if w in ("longer", "taller")]


# --- a room reached only through another; a room named by a thing in it ---------------------------
@pytest.mark.parametrize(("text", "room", "beside"), [
    ("go to the sink in the bathroom whose only door opens onto that same bedroom", "bathroom",
     "bedroom"),
    ("go to the sink in the bathroom that can only be reached through the teddy bear's bedroom",
     "bathroom", "bedroom"),
    ("go to the toilet in the bathroom which you can only get to through the kitchen", "bathroom",
     "kitchen"),
])
def test_room_reached_only_through_another(text, room, beside):
    p = parse_instruction(text)
    r = next(m for m in p.clauses[-1].refs[0].modifiers if m.kind == "in_room").refs[0]
    assert r.head == room
    assert [(m.kind, m.refs[0].head) for m in r.modifiers] == [("adjacent", beside)]
    assert p.context  # "only ..." is reported, never dropped


@pytest.mark.parametrize(("text", "room", "thing"), [
    ("go to the sink in the teddy bear's bedroom", "bedroom", "teddy_bear"),
    ("go to the dog bed's room", "room", "dog_bed"),
    ("go to the desk in the laptop's bedroom", "bedroom", "laptop"),
])
def test_room_named_by_a_thing_in_it(text, room, thing):
    ref = parse_instruction(text).clauses[0].refs[0]
    r = ref if ref.head == room else next(
        m for m in ref.modifiers if m.kind == "in_room").refs[0]
    assert r.head == room and [(m.kind, m.refs[0].head) for m in r.modifiers] == [
        ("with", thing)]


def test_room_where_a_thing_is_then_stop_next_to():
    p = parse_instruction("Go into the bedroom where the dog bed is and stop next to the desk "
                          "that has a desk lamp on it.")
    assert [(c.kind, c.refs[0].head) for c in p.clauses] == [("goal", "desk")]


# --- a statement about a set, then "the one" picked from it ----------------------------------------
@pytest.mark.parametrize(("text", "head", "mods"), [
    ("Two of the armchairs in this house each stand right next to a floor lamp. Go to the one "
     "that is not in a bedroom.", "arm_chair", [("in_room", True), ("next_to", False)]),
    ("Two of the chairs are next to the desk. Go to the one closest to the window.", "chair",
     [("next_to", False), ("rank", False)]),
    ("Two of the beds in this house stand against a window. Go to the one which is in the "
     "largest bedroom.", "bed", [("in_room", False), ("next_to", False)]),
])
def test_set_statement_then_the_one(text, head, mods):
    p = parse_instruction(text)
    ref = p.clauses[0].refs[0]
    assert ref.head == head and [(m.kind, m.negated) for m in ref.modifiers] == mods
    assert p.context and p.context[0].split()[1:3] == ["of", "the"]
