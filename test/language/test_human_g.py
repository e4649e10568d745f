"""Human phrasings of fresh set G (issue 19): scene-setting and "I left my X" sentences that
must never vanish, "while we're in X" scopes, "keep your distance from the TVs", and passing a
landmark on the way ("go to X, passing by Y"). Each class has several phrasings, the set's own
among them."""

from __future__ import annotations

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import _resolve_pronouns, mentioned
from map2route.language.parser import parse_instruction


def _route(text: str) -> list[tuple[str, str]]:
    """(kind, head) of the stages and constraints, a pronoun given its antecedent as the
    scorer and the grounding writer give it."""
    js = _resolve_pronouns(parse_instruction(text).to_json())
    return [(c["kind"], c["refs"][0]["head"]) for c in js["stages"]]


# --- (a) a scene-setting sentence is context, and the places it names are kept -------------
@pytest.mark.parametrize(("text", "heads", "goal"), [
    ("Okay so, I'm sitting on the sofa in the living room. Could you go find the newspaper "
     "that's not in this room?", {"sofa", "living_room"}, "newspaper"),
    ("Hey, I'm standing by the fridge right now. Could you take me to the washing machine?",
     {"fridge"}, "washing_machine"),
    ("Hi! We're in the kitchen by the fridge. Take me to the bed.", {"kitchen", "fridge"},
     "bed"),
    ("Well, I'm at the desk in the bedroom. Walk to the toilet.", {"desk", "bedroom"},
     "toilet"),
    ("So I'm sitting at the dining table. Go to the sofa, please.", {"dining_table"}, "sofa"),
    ("I'm in the kitchen next to the toaster. Take me to the armchair.",
     {"kitchen", "toaster"}, "arm_chair"),
    ("Hey, I am standing next to the TV right now. Go to the fridge.", {"television"},
     "fridge"),
    ("You are in the kitchen, right next to the fridge. Head to the safe.",
     {"kitchen", "fridge"}, "safe"),
])
def test_a_scene_setting_sentence_is_context_with_its_places(text, heads, goal):
    p = parse_instruction(text)
    assert [(c.kind, c.refs[0].head) for c in p.clauses] == [("goal", goal)]
    assert len(p.context) == 1
    got = {h for r in p.context_refs for h in [r.head, *(x.head for m in r.modifiers
                                                        for x in m.refs)]}
    assert got == heads
    # the spans point into the instruction
    assert all(text[r.span[0]:r.span[1]] == r.text for r in p.context_refs)
    assert "context_references" in p.to_json()
    assert {h.replace("_", "") for h in heads} <= mentioned(p)


def test_the_place_a_scene_sentence_names_keeps_its_room():
    p = parse_instruction("Okay so, I'm sitting on the sofa in the living room. Could you go "
                          "find the newspaper that's not in this room?")
    (sofa,) = p.context_refs
    assert (sofa.head, [(m.kind, m.refs[0].head) for m in sofa.modifiers]) == (
        "sofa", [("in_room", "living_room")])
    assert p.context == ["i am sitting on the sofa in the living room"]


@pytest.mark.parametrize(("text", "context", "heads"), [
    ("Can you go to the basketball? My grandson left it on the bed.",
     "my grandson left it on the bed", {"bed"}),
    ("Go to the sofa. He left his book on the table, I believe.",
     "he left his book on the table", {"book", "table"}),
    ("It's in the bathroom I think. Can you go to the plunger?", "it is in the bathroom",
     {"bathroom"}),
    ("Go to the fridge. My son is sleeping on the bed.", "my son is sleeping on the bed",
     {"bed"}),
])
def test_a_statement_the_route_does_not_use_is_reported_never_dropped(text, context, heads):
    p = parse_instruction(text)
    assert any(c.startswith(context) for c in p.context), p.context
    assert heads <= _all_heads(p.context_refs)


def _all_heads(refs) -> set[str]:
    """The heads of ``refs`` and of the places inside them ("his book on the table": both)."""
    return {h for r in refs for h in (r.head, *_all_heads([x for m in r.modifiers
                                                            for x in m.refs]))}


def test_a_statement_naming_an_unknown_thing_is_a_refusal_naming_it():
    with pytest.raises(ParseError) as err:
        parse_instruction("Go to the fridge. The cat is sleeping on the bed.")
    assert err.value.word == "cat"


# --- (a) "I left my watch ...": a mention a later "it" names ------------------------------
@pytest.mark.parametrize(("text", "thing", "room", "stages"), [
    ("Um, I left my watch somewhere, I think it's in the bedroom with the desk. Could you go "
     "get to it, but pass through the kitchen first, and then come back to me?", "watch",
     "bedroom", [("pass", "kitchen"), ("goal", "watch"), ("goal", "start")]),
    ("I left my watch in the bedroom. Go get it.", "watch", "bedroom", [("goal", "watch")]),
    ("I lost my watch somewhere in the living room. Please find it.", "watch", "living_room",
     [("goal", "watch")]),
    ("My watch is in the bedroom with the desk. Can you go get it?", "watch", "bedroom",
     [("goal", "watch")]),
    ("I dropped my book in the kitchen, I think. Go to it and come back.", "book", "kitchen",
     [("goal", "book"), ("goal", "start")]),
    ("I've left my laptop in the bedroom. Go to it.", "laptop", "bedroom", [("goal", "laptop")]),
    ("I left my watch in the bedroom. Go there.", "watch", "bedroom", [("goal", "watch")]),
    ("I left my watch in the bedroom. Could you go get that for me?", "watch", "bedroom",
     [("goal", "watch")]),
    ("Oh, I must have dropped my phone somewhere, probably in the bathroom. Please go get it.",
     "cell_phone", "bathroom", [("goal", "cell_phone")]),
    ("I think I left my book in the kitchen. Could you fetch it?", "book", "kitchen",
     [("goal", "book")]),
])
def test_a_thing_the_speaker_left_somewhere_is_the_later_it(text, thing, room, stages):
    p = parse_instruction(text)
    (mention,) = [c for c in p.clauses if c.kind == "mention"]
    ref = mention.refs[0]
    assert ref.head == thing
    assert [(m.kind, m.refs[0].head) for m in ref.modifiers] == [("in_room", room)]
    assert _route(text) == stages
    assert not p.context


def test_the_room_of_the_thing_keeps_its_own_modifier():
    p = parse_instruction("Um, I left my watch somewhere, I think it's in the bedroom with the "
                          "desk. Could you go get to it?")
    room = p.clauses[0].refs[0].modifiers[0].refs[0]
    assert (room.head, [m.refs[0].head for m in room.modifiers]) == ("bedroom", ["desk"])


def test_a_thing_left_without_a_place_is_still_introduced():
    assert _route("I left my watch somewhere. Can you go get it?") == [("goal", "watch")]


# --- (b) "while we're (still) in X", "as long as you're in X": a spatial scope ------------
@pytest.mark.parametrize("text", [
    "Hey, I'm standing by the fridge right now. Could you take me to the washing machine? And "
    "while we're still in the kitchen, keep well away from the dining table.",
    "Go to the washing machine. While we're in the kitchen, keep away from the dining table.",
    "Go to the washing machine. While we are still in the kitchen, keep away from the dining "
    "table.",
    "Go to the washing machine. As long as you are in the kitchen, keep away from the dining "
    "table.",
    "Go to the washing machine, and as long as we're in the kitchen, keep away from the dining "
    "table.",
    "Go to the washing machine. For as long as you're inside the kitchen, keep away from the "
    "dining table.",
    "Keep away from the dining table while we're in the kitchen and go to the washing machine.",
    "Go to the washing machine and keep away from the dining table as long as you are in the "
    "kitchen.",
])
def test_while_we_are_in_a_room_is_a_spatial_scope(text):
    p = parse_instruction(text)
    assert sorted((c.kind, c.refs[0].head) for c in p.clauses) == [
        ("far", "dining_table"), ("goal", "washing_machine")]
    far = next(c for c in p.clauses if c.kind == "far")
    assert far.within is not None and far.within.head == "kitchen"


def test_leaving_a_room_is_still_a_scope():
    p = parse_instruction("Go to the sofa. As you leave the bedroom, stay close to the dresser.")
    near = next(c for c in p.clauses if c.kind == "near")
    assert near.within is not None and near.within.head == "bedroom"


# --- (c) keeping one's distance: a far constraint, "TVs" a plural head --------------------
@pytest.mark.parametrize("text", [
    "Head to the toaster, and keep your distance from the TVs until you get to the kitchen.",
    "Head to the toaster and keep away from the TVs until you get to the kitchen.",
    "Head to the toaster and keep well away from the TVs until you reach the kitchen.",
    "Head to the toaster and stay clear of the TVs until you get to the kitchen.",
    "Head to the toaster and stay well clear of the TVs until you get to the kitchen.",
    "Head to the toaster and give the TVs a wide berth until you get to the kitchen.",
    "Head to the toaster and keep a safe distance from the TVs until you get to the kitchen.",
])
def test_keeping_ones_distance_is_a_far_constraint_up_to_the_place(text):
    p = parse_instruction(text)
    assert [(c.kind, c.refs[0].head) for c in p.clauses] == [("goal", "toaster"),
                                                            ("far", "television")]
    far = p.clauses[1]
    assert far.refs[0].plural
    assert far.during is not None and far.during["until"].head == "kitchen"


@pytest.mark.parametrize("text", [
    "Go to the toaster, keeping your distance from the TV.",
    "Go to the toaster and keep your distance from the televisions.",
    "Go to the toaster. Keep your distance from the TVs.",
    "Go to the toaster and give the TV a wide berth.",
])
def test_keeping_ones_distance_without_a_scope(text):
    p = parse_instruction(text)
    assert [(c.kind, c.refs[0].head) for c in p.clauses] == [("goal", "toaster"),
                                                            ("far", "television")]


def test_short_plurals_of_two_letter_heads():
    ref = parse_instruction("Go to the TVs.").clauses[0].refs[0]
    assert (ref.head, ref.plural) == ("television", True)
    assert parse_instruction("Go to the TV.").clauses[0].refs[0].plural is False


# --- (d) passing a landmark on the way to a goal: a pass stage before it -------------------
@pytest.mark.parametrize(("text", "passed"), [
    ("Go to the basketball, passing by the teddy bear.", "teddy_bear"),
    ("Go to the basketball, passing the teddy bear.", "teddy_bear"),
    ("Go to the basketball passing by the teddy bear.", "teddy_bear"),
    ("Go to the basketball, going past the teddy bear.", "teddy_bear"),
    ("Go to the basketball, going by the teddy bear.", "teddy_bear"),
    ("Walk to the basketball, passing by the teddy bear on the way.", "teddy_bear"),
    ("Go to the basketball by way of the kitchen.", "kitchen"),
    ("Go to the basketball, by way of the teddy bear.", "teddy_bear"),
    ("Go to the basketball, going via the kitchen.", "kitchen"),
    ("Go to the basketball, going through the kitchen.", "kitchen"),
    ("Go to the basketball, passing through the kitchen.", "kitchen"),
])
def test_passing_a_landmark_after_a_goal_comes_before_it(text, passed):
    p = parse_instruction(text)
    assert [(c.kind, c.refs[0].head) for c in p.clauses] == [("pass", passed),
                                                            ("goal", "basket_ball")]


def test_passing_close_to_is_still_a_preference():
    p = parse_instruction("Go to the basketball, passing close to the sofa.")
    assert [(c.kind, c.refs[0].head) for c in p.clauses] == [("goal", "basket_ball"),
                                                            ("near", "sofa")]


def test_an_unread_passing_still_names_its_span():
    with pytest.raises(ParseError) as err:
        parse_instruction("Go to the basketball, passing by the thingamajig.")
    assert err.value.word
