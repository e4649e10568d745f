"""The errand and reach table (``data/breadth_errands_reach.json``, helper G5): errand verbs
that imply going somewhere ("water the plant", "throw this in the bin", "take yourself off to
X") and rooms described by how they are reached ("the bedroom you can only get to through X",
"the bedroom you have to walk through to get to X"), written before the parser code for them
was read (first contact 14/34; after: 33/34), then a second batch written after the fix
(ERB01-ERB10, first contact 7/10; 8/10 after one real bug), and the mechanisms of
:mod:`map2route.language.parser.errand_reach` that read them."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import route_summary, score_set, summary
from map2route.language.parser import RefExpr, parse_instruction

_TABLE = Path(__file__).parent / "data" / "breadth_errands_reach.json"


def test_the_table_is_read_to_its_floor_with_no_silent_drop():
    scores = score_set(_TABLE)
    s = summary(scores)
    assert s["right"] >= 41
    assert s["silent_drops"] == 0
    # a refusal names the words it could not read
    assert all(sc.refusal_span for sc in scores if sc.refused)


@pytest.mark.parametrize(("text", "want"), [
    # a deed done at a thing: the thing is the stop
    ("Please water the plant in the kitchen.", [("goal", "house_plant")]),
    ("Go and check on the kettle.", [("goal", "kettle")]),
    ("have a look at the washing machine for me", [("goal", "washing_machine")]),
    ("Empty the bin in the bathroom.", [("goal", "garbage_can")]),
    ("Go and put the kettle on.", [("goal", "kettle")]),
    ("Turn off the floor lamp, then go to the sofa.", [("goal", "floor_lamp"), ("goal", "sofa")]),
    # where a carried thing goes: the place it goes to is the stop, the thing held is not
    ("Throw this in the bin in the bedroom.", [("goal", "garbage_can")]),
    ("Pick up the mug and drop it off at the counter.",
     [("goal", "mug"), ("goal", "counter_top")]),
    ("Take the rubbish out to the bin.", [("goal", "garbage_can")]),
    # a ride, a tour, a verb corrected in passing
    ("Take me to the toilet.", [("goal", "toilet")]),
    ("Take yourself off to the dresser.", [("goal", "dresser")]),
    ("Take me to - well, take yourself to - the washing machine.", [("goal", "washing_machine")]),
    ("Go and fetch, or rather just go to, the kettle.", [("goal", "kettle")]),
    ("Take a little tour for me: go past the fridge and end up at the sofa.",
     [("pass", "fridge"), ("goal", "sofa")]),
    ("Nip into the kitchen and go to the fridge.", [("goal", "fridge")]),
    ("Please go and tidy up the dresser.", [("goal", "dresser")]),
    # a state checked at a thing: the thing is the stop, the state is context
    ("Go and check the window's shut in the bedroom.", [("goal", "window")]),
    ("Make sure the floor lamp is off.", [("goal", "floor_lamp")]),
    # onward into the next room: the place after "through to" is the stop, not a room crossed
    ("Please go through to the dog bed in the lounge and see what's the matter.",
     [("goal", "dog_bed")]),
    ("Go through the kitchen to the fridge.", [("pass", "kitchen"), ("goal", "fridge")]),
])
def test_errand_verbs_put_the_stop_on_the_thing(text, want):
    assert route_summary(parse_instruction(text)) == want


def _room_of(ref: RefExpr) -> RefExpr:
    return next(m for m in ref.modifiers if m.kind == "in_room").refs[0]


@pytest.mark.parametrize(("text", "room", "beside"), [
    ("Go to the alarm clock in the bedroom you can only get to through the bedroom with the "
     "baseball bat.", "bedroom", "bedroom"),
    ("Go to the desk in the bedroom that can only be reached by passing through another "
     "bedroom.", "bedroom", "bedroom"),
    ("go to the plant in the room u can only get into thru the bedroom with 2 windows",
     "room", "bedroom"),
    ("Head for the bed in the bedroom that you have to go through to reach the room with the "
     "teddy bear.", "bedroom", "room"),
    ("Go to the laptop in the bedroom you have to walk through to get to the bathroom.",
     "bedroom", "bathroom"),
])
def test_a_room_reached_through_another_shares_a_door_with_it(text, room, beside):
    p = parse_instruction(text)
    assert len(p.clauses) == 1 and p.clauses[0].kind == "goal"
    r = _room_of(p.clauses[0].refs[0])
    assert r.head == room
    adj = [m for m in r.modifiers if m.kind == "adjacent"]
    assert adj and adj[0].refs[0].head == beside
    assert p.context  # how it was said ("only", "you have to walk through") is reported


def test_a_room_named_by_a_thing_in_it():
    p = parse_instruction("Go to the bed in the teddy bear's room.")
    r = _room_of(p.clauses[0].refs[0])
    assert r.head == "room"
    assert [m.refs[0].head for m in r.modifiers if m.kind == "with"] == ["teddy_bear"]


def test_the_way_in_said_first_names_the_room_passed():
    p = parse_instruction("To get to the bedroom with the teddy bear you have to cross another "
                          "bedroom first. Go to the dresser in that first bedroom.")
    assert route_summary(p) == [("goal", "dresser")]
    r = _room_of(p.clauses[0].refs[0])
    assert r.head == "bedroom"
    beside = [m.refs[0] for m in r.modifiers if m.kind == "adjacent"][0]
    assert beside.head == "bedroom"
    assert [m.refs[0].head for m in beside.modifiers if m.kind == "with"] == ["teddy_bear"]
    assert any("another bedroom" in c for c in p.context)


@pytest.mark.parametrize("text", [
    "Go to the bed in the bedroom you can only reach with a key.",  # not on the map
    "Put the mug on the table.",  # a carry with no closing particle: not a deed
    "Go to the bed and frobnicate the lamp.",  # an unknown deed stays refused
])
def test_what_the_map_cannot_check_is_refused_with_its_span(text):
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert err.value.word


@pytest.mark.parametrize(("text", "want"), [
    # a negated deed is not a stop, and a correction with "make that" is still read as one
    ("Go to the sofa. Actually, make that the armchair.", [("goal", "arm_chair")]),
    ("Go to the bed in the bedroom next to the living room.", [("goal", "bed")]),
])
def test_neighbouring_phrasings_keep_their_reading(text, want):
    assert route_summary(parse_instruction(text)) == want


def test_a_deed_after_a_negator_is_not_made_a_stop():
    try:
        got = route_summary(parse_instruction("Go to the sofa and don't water the plant."))
    except ParseError:
        return
    assert ("goal", "house_plant") not in got
