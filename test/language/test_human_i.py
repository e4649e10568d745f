"""Human phrasings of fresh set I (issue 19): a writer who corrects herself with a verb ("No
actually, make it the dresser in there"), gives reasons and states that do not change the route
("..., it's a tight squeeze", "The floor lamp is kinda wobbly, so keep your distance from it"),
asks for a look at a thing's state ("check the fridge is closed", "see whether I left the kettle
on", "... and let me know"), sets the scene inside a sentence ("I'm in the kitchen, I need you
to ..."), asks which room has a thing, corrects a partitive by negating it, and says "the back
bedroom" and "my room". Each class has several phrasings, the set's own among them; what a rule
takes out of the route is reported as context, never dropped."""

from __future__ import annotations

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import _resolve_pronouns
from map2route.language.parser import parse_instruction


def _route(text: str) -> list[tuple[str, str]]:
    """(kind, head) of the stages and constraints (mentions left out)."""
    js = _resolve_pronouns(parse_instruction(text).to_json())
    return [(c["kind"], c["refs"][0]["head"]) for c in js["stages"] + js["constraints"]
            if c["kind"] != "mention"]


def _scopes(text: str) -> list[tuple[str, str, str]]:
    """(kind, head, scope) of the constraints: ``in:ROOM`` or ``until:ROOM``."""
    out = []
    js = _resolve_pronouns(parse_instruction(text).to_json())
    for c in js["constraints"]:
        if c["kind"] == "mention":
            continue
        sc = c.get("spatial_scope")
        until = (c.get("temporal_scope") or {}).get("until")
        scope = f"in:{sc['head']}" if sc else f"until:{until['head']}" if until else ""
        out.append((c["kind"], c["refs"][0]["head"], scope))
    return out


def _unread(text: str) -> list[str]:
    return [w for w in parse_instruction(text).unknown_words if w != "but"]


def _context(text: str) -> list[str]:
    return parse_instruction(text).context


# --- (a) a correction said with a verb: the new thing takes the old one's place -------------
@pytest.mark.parametrize(("text", "route", "dropped"), [
    ("Head to the desk in the bedroom. No actually, make it the dresser in there.",
     [("goal", "dresser")], "the desk in the bedroom"),
    ("Go to the desk. Make that the dresser.", [("goal", "dresser")], "the desk"),
    ("Go to the desk, actually make it the dresser.", [("goal", "dresser")], "the desk"),
    ("Go to the desk. Actually, go to the dresser instead.", [("goal", "dresser")], "the desk"),
    ("Go to the sofa. Sorry, change it to the armchair.", [("goal", "arm_chair")], "the sofa"),
    ("Go to the sofa. On second thought, make it the armchair instead.",
     [("goal", "arm_chair")], "the sofa"),
    ("Go to the sofa. No, head to the armchair instead.", [("goal", "arm_chair")], "the sofa"),
    ("Go to the sofa. Scratch that, make it the fridge.", [("goal", "fridge")], "the sofa"),
    ("Go to the sofa, wait, make it the armchair.", [("goal", "arm_chair")], "the sofa"),
    ("Go to the sofa. Hang on, make it the fridge.", [("goal", "fridge")], "the sofa"),
    ("Go to the sofa. Change of plan, make it the fridge.", [("goal", "fridge")], "the sofa"),
])
def test_a_a_correction_with_a_verb_replaces_the_goal(text, route, dropped):
    assert _route(text) == route
    assert not _unread(text)
    # the phrase corrected is reported, not dropped
    assert dropped in _context(text)


def test_a_in_there_after_a_correction_is_the_room_named_before():
    ref = parse_instruction("Head to the desk in the bedroom. No actually, make it the dresser "
                            "in there.").clauses[0].refs[0]
    assert [(m.kind, m.refs[0].head) for m in ref.modifiers] == [("in_room", "bedroom")]


@pytest.mark.parametrize(("text", "route"), [
    ("um so I'm in the kitchen, I need you to go to the bed, oh actually, stop at the desk on "
     "your way.", [("goal", "desk"), ("goal", "bed")]),
    ("Go to the bed. Oh actually, stop at the desk on your way.",
     [("goal", "desk"), ("goal", "bed")]),
    ("Go to the sofa. Actually, on the way, stop at the fridge.",
     [("goal", "fridge"), ("goal", "sofa")]),
    ("Go to the sofa. Actually, avoid the TV too.", [("goal", "sofa"), ("avoid", "television")]),
])
def test_a_actually_before_an_added_stop_adds_it(text, route):
    assert _route(text) == route
    assert not _unread(text)


def test_a_actually_before_a_new_goal_without_instead_is_refused():
    # a replacement or one more stage? the parser does not guess
    with pytest.raises(ParseError) as e:
        parse_instruction("Go to the sofa. Actually, go to the armchair.")
    assert e.value.word.lower() == "actually"


# --- (b) an aside after a comma: a reason that adds nothing to the route -------------------
@pytest.mark.parametrize(("text", "scoped", "aside"), [
    ("ok so um, I need you in the back bedroom, you have to go through the bathroom to get "
     "there, and while you're in the bathroom don't get too close to the toilet, it's a tight "
     "squeeze", ("far", "toilet", "in:bathroom"), "it is a tight squeeze"),
    ("Go to the alarm clock in the bedroom. Avoid the dog bed until you're in there, the dog's "
     "asleep.", ("avoid", "dog_bed", "until:bedroom"), "the dog 's asleep"),
    ("Go to the sofa and avoid the dog bed, the cat's sleeping.", ("avoid", "dog_bed", ""),
     "the cat 's sleeping"),
    ("Go to the sofa and keep away from the TV, my son is playing video games.",
     ("far", "television", ""), "my son is playing video games"),
    ("Go to the sofa and keep away from the TV, it's really loud.",
     ("far", "television", ""), "it is really loud"),
    ("Go to the bed and keep away from the toilet, it's a tight squeeze.",
     ("far", "toilet", ""), "it is a tight squeeze"),
])
def test_b_an_aside_after_a_comma_is_context(text, scoped, aside):
    assert _scopes(text) == [scoped]
    assert not _unread(text)
    assert aside in _context(text)


@pytest.mark.parametrize("text", [
    "Go to the sofa and avoid the desk, it's the one by the window.",  # a description
    "Go to the sofa, it's in the living room.",  # a place
    "Go to the sofa, it's big.",  # which sofa? (the big one)
    "Go to the sofa, it's the second one.",
    "The sofa is big, so go to it.",
])
def test_b_a_statement_that_says_where_is_not_an_aside(text):
    with pytest.raises(ParseError):
        parse_instruction(text)


def test_b_my_son_is_playing_leaves_no_stage_behind():
    text = ("Go to the chair by the little table in the back living room. And please don't "
            "walk between the couch and the TV, my son is playing video games.")
    assert _route(text) == [("goal", "chair"), ("avoid", "between")]
    assert not _unread(text)


# --- (c) "The X is wobbly, so keep away from it": X mentioned, its state context -------------
@pytest.mark.parametrize(("text", "scoped"), [
    ("Go to the couch in the back living room. The floor lamp in the living room is kinda "
     "wobbly, so keep your distance from it while you're in there.",
     ("far", "floor_lamp", "in:living_room")),
    ("Go to the couch. The floor lamp is kinda wobbly, so keep your distance from it.",
     ("far", "floor_lamp", "")),
    ("Go to the fridge. The vase is really fragile, so stay away from it.", ("far", "vase", "")),
    ("Go to the bed. The toilet is broken, so avoid it.", ("avoid", "toilet", "")),
])
def test_c_a_state_then_so_mentions_the_thing(text, scoped):
    assert _scopes(text) == [scoped]
    assert not _unread(text)
    assert any(" is " in c for c in _context(text))


# --- (d) a look at a thing's state: go to the thing -----------------------------------------
@pytest.mark.parametrize(("text", "head"), [
    ("I'm on the couch and way too lazy to get up lol. Can you go check the fridge is "
     "closed?", "fridge"),
    ("Can you go check that the fridge is closed?", "fridge"),
    ("Could you go see if the tissue box in the bedroom is empty?", "tissue_box"),
    ("Check whether the TV is still on.", "television"),
    ("Go make sure the fridge is closed.", "fridge"),
    ("Could you check whether the fridge is open or not?", "fridge"),
    ("See if I left the TV on.", "television"),
    ("Check if I turned off the laptop.", "laptop"),
])
def test_d_a_state_check_goes_to_the_thing(text, head):
    assert _route(text) == [("goal", head)]
    assert not _unread(text)
    assert _context(text)


@pytest.mark.parametrize("text", [
    "Check whether the TV is on, if it is, go to the sofa, otherwise go to the bed.",
    "Check if the fridge is open; if so, go to the sofa.",
])
def test_d_a_check_the_route_branches_on_stays_a_condition(text):
    # never read as "go to the TV": the answer decides the route (refused as before)
    with pytest.raises(ParseError):
        parse_instruction(text)


# --- (e) telling the speaker is not a place ---------------------------------------------------
@pytest.mark.parametrize(("text", "route"), [
    ("can you see whether I left the kettle on and then come back here and let me know",
     [("goal", "kettle"), ("goal", "start")]),
    ("Could you check on the teddy bear and the basketball and then come back and tell me "
     "they're still there", [("goal", "teddy_bear"), ("goal", "basket_ball"), ("goal", "start")]),
    ("Go to the fridge and let me know.", [("goal", "fridge")]),
    ("Go to the fridge and tell me if it's open.", [("goal", "fridge")]),
    ("Go to the fridge and then come back and report back.", [("goal", "fridge"), ("goal", "start")]),
    ("Go to the sofa and tell me when you get there, then go to the bed.",
     [("goal", "sofa"), ("goal", "bed")]),
])
def test_e_a_report_back_tail_is_context(text, route):
    assert _route(text) == route
    assert not _unread(text)


def test_e_tell_is_never_a_misspelt_telly():
    with pytest.raises(ParseError) as e:
        parse_instruction("Go to the sofa and tell me when you get to the kitchen.")
    assert "tell" in e.value.word.lower()


# --- (f) a scene said before the request, in one sentence ------------------------------------
@pytest.mark.parametrize(("text", "head", "scene"), [
    ("um so I'm in the kitchen, I need you to go to the bed.", "bed", "i am in the kitchen"),
    ("I'm on the couch, can you go to the fridge?", "fridge", "i am on the couch"),
    ("I'm sitting on the sofa, please go to the TV.", "television", "i am sitting on the sofa"),
    ("We're in the living room, go to the bedroom.", "bedroom", "we are in the living room"),
    ("I am in the kitchen right now, could you go to the bed?", "bed",
     "i am in the kitchen right now"),
])
def test_f_a_scene_inside_a_sentence_is_context(text, head, scene):
    p = parse_instruction(text)
    assert _route(text) == [("goal", head)]
    assert scene in p.context
    assert p.context_refs  # the place it names is reported


# --- (g) "Which of the X has Y? Go there.": the X that has Y ---------------------------------
@pytest.mark.parametrize(("text", "head", "has"), [
    ("Which of the living rooms has the newspaper? Go there and wait for me.", "living_room",
     "newspaper"),
    ("Which bedroom has a desk? Go there.", "bedroom", "desk"),
    ("Which of the bathrooms has the plunger? Head to it.", "bathroom", "plunger"),
    ("Which of the bedrooms has a TV? Go to that one, please.", "bedroom", "television"),
    ("Which of the living rooms contains the newspaper? Walk there and wait there for me.",
     "living_room", "newspaper"),
])
def test_g_which_has_then_there_is_the_one_that_has(text, head, has):
    (stage,) = parse_instruction(text).clauses
    ref = stage.refs[0]
    assert (stage.kind, ref.head) == ("goal", head)
    assert [(m.kind, m.refs[0].head) for m in ref.modifiers] == [("with", has)]
    assert not _unread(text)


# --- (h) "Not any of the ones in X, I mean the one ...": both kept --------------------------
@pytest.mark.parametrize(("text", "head", "where"), [
    ("Find the TV remote. Not any of the ones in the living rooms, I mean the one lying on the "
     "bed.", "remote_control", ("on", "bed")),
    ("Go to the chair. Not the one in the kitchen, the one by the desk.", "chair",
     ("near", "desk")),
    ("Go to the chair. Not one of the ones in the kitchen, but the one next to the desk.",
     "chair", ("next_to", "desk")),
    ("Find the lamp. Not those in the bedrooms, I mean the one on the desk.", "lamp",
     ("on", "desk")),
    ("Find the plant. Not the ones in the kitchen, I mean the one that's on the table.",
     "house_plant", ("on", "table")),
])
def test_h_a_negated_partitive_then_the_one(text, head, where):
    (stage,) = parse_instruction(text).clauses
    ref = stage.refs[0]
    assert ref.head == head
    mods = [(m.kind, m.refs[0].head, m.negated) for m in ref.modifiers]
    assert mods[0][0] == "in_room" and mods[0][2]  # not in that room
    assert (mods[1][0], mods[1][1]) == where
    assert not _unread(text)


def test_h_a_negated_relation_other_than_a_room_is_refused():
    with pytest.raises(ParseError):
        parse_instruction("Go to the chair. Not the one by the desk, the one by the bed.")


# --- (i) "the back bedroom": a room of that type ------------------------------------------
@pytest.mark.parametrize(("text", "route"), [
    ("Go to the couch in the back living room.", [("goal", "sofa")]),
    ("Go to the chair by the little table in the back living room.", [("goal", "chair")]),
    ("I need you in the back bedroom.", [("goal", "bedroom")]),
    ("Go to the front bedroom.", [("goal", "bedroom")]),
])
def test_i_back_and_front_rooms_are_rooms_not_returns(text, route):
    # "back" was read as "come back": a second stage, silently
    assert _route(text) == route
    assert not _unread(text)


# --- (j) "my room" as the goal: whose room the map does not say ----------------------------
@pytest.mark.parametrize("text", ["Go to my room, please.", "Take me to my room.",
                                  "Head into your room."])
def test_j_my_room_as_the_goal_is_refused_by_name(text):
    with pytest.raises(ParseError) as e:
        parse_instruction(text)
    assert e.value.word.endswith("room")


def test_j_my_room_inside_a_reference_is_the_room_here_as_before():
    assert _route("Go to the bed in my room.") == [("goal", "bed")]


# --- (k) "until you're in there", "don't get too close", "the TV remote" ---------------------
@pytest.mark.parametrize(("text", "scoped"), [
    ("Go to the alarm clock in the bedroom. Avoid the dog bed until you're in there.",
     ("avoid", "dog_bed", "until:bedroom")),
    ("Go to the bed in the bedroom. Keep away from the desk until you're in there.",
     ("far", "desk", "until:bedroom")),
    ("Go to the fridge in the kitchen. Avoid the table till you get in there.",
     ("avoid", "table", "until:kitchen")),
    ("Go to the fridge and don't get too close to the sofa.", ("far", "sofa", "")),
    ("Go to the bed and do not go too near the desk.", ("far", "desk", "")),
])
def test_k_scopes_and_distances_said_loosely(text, scoped):
    assert _scopes(text) == [scoped]
    assert not _unread(text)


@pytest.mark.parametrize("text", ["Find the TV remote.", "Go to the television remote.",
                                  "Go to the TV remote control."])
def test_k_the_tv_remote_is_a_remote(text):
    assert _route(text) == [("goal", "remote_control")]
