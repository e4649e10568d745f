"""Human phrasings of fresh set J (issue 19): the benchmark-annotator register
(:mod:`map2route.language.parser.annotator_rewrites`). "When you are done", "once you are
inside X", "while you are in there" a sentence after the room, "Visit the following in this
order:", "without stopping", "only then", "at any point", "itself", "and in the bedroom, stay
away", ", in the bedroom" closing a stop, "whose", "on the floor of", "the bedroom you enter
from X", "but not next to", "head for the bedrooms:", "in the second one", a gerund aside
between a room and its object, a room then a midpoint in it; and the scorer's reading of
geometry stops. Each class has several phrasings, the set's own among them."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import _resolve_pronouns, _scope_heads, score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


def _route(text: str) -> list[tuple[str, str] | tuple[str, str, str]]:
    """(kind, head) of the stages, then (kind, head, first scope) of the constraints."""
    js = _resolve_pronouns(parse_instruction(text).to_json())
    out: list[tuple[str, str] | tuple[str, str, str]] = [
        (s["kind"], s["refs"][0]["head"]) for s in js["stages"]]
    for c in js["constraints"]:
        scopes = _scope_heads(c, js["stages"], strict=True)
        out.append((c["kind"], c["refs"][0]["head"], scopes[0] if scopes else ""))
    return out


def _check(text: str, want: list) -> None:
    p = parse_instruction(text)
    assert _route(text) == [tuple(w) for w in want]
    assert not [w for w in p.unknown_words if w not in ("but", "floor", "into")]


def _refused(text: str, word: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert word in str(err.value)


# --- (a) "when you are done": the end of the errands, not a place --------------------------
@pytest.mark.parametrize("text", [
    "Go to the microwave first. When you are done, come back to your starting point.",
    "Go to the microwave first. When you're done, come back to your starting point.",
    "Go to the microwave first. Once you're finished, come back to where you started.",
    "Go to the microwave first. After you have finished, come back to your starting point.",
    "Go to the microwave first. When you are done there, come back to your starting point.",
    "Go to the microwave first. When done, come back to where you started.",
])
def test_a_done_clause_is_no_place(text):
    _check(text, [("goal", "microwave"), ("goal", "start")])


# --- (b) being inside a room opens a scope ----------------------------------------------------
@pytest.mark.parametrize(("text", "room"), [
    ("Go to the painting. Once you are inside the bathroom, keep away from the plunger.",
     "bathroom"),
    ("Go to the painting. Once you're inside the bathroom, keep away from the plunger.",
     "bathroom"),
    ("Go to the painting. As soon as you are in the kitchen, keep away from the plunger.",
     "kitchen"),
    ("Go to the painting. Once you're within the bedroom, keep away from the plunger.",
     "bedroom"),
    ("Go to the painting. Now that you are inside the living room, keep away from the plunger.",
     "living_room"),
])
def test_b_once_you_are_inside_a_room_scopes(text, room):
    _check(text, [("goal", "painting"), ("far", "plunger", f"in:{room.replace('_', '')}")])


# --- (c) "while you are in there" a sentence after the room was named ------------------------
@pytest.mark.parametrize(("text", "want"), [
    ("Go once around the cart in the smaller living room, then stop next to the sofa in that "
     "same room. While you are in there, keep away from the TV on the wall.",
     [("circle", "cart"), ("goal", "sofa"), ("far", "television", "in:livingroom")]),
    ("Go to the sofa in the living room. While you're in there, keep away from the TV.",
     [("goal", "sofa"), ("far", "television", "in:livingroom")]),
    ("Go to the bed in the bedroom. When you are in that room, stay away from the desk.",
     [("goal", "bed"), ("far", "desk", "in:bedroom")]),
    ("Go to the toilet in the bathroom. While in there, keep clear of the plunger.",
     [("goal", "toilet"), ("far", "plunger", "in:bathroom")]),
    ("Walk to the dining table that has only one chair, in the bedroom with the dog bed. Pass "
     "through the bedroom with the arm chair to get there, and while you are in that room "
     "keep away from its bed.",
     [("pass", "bedroom"), ("goal", "dining_table"), ("far", "bed", "in:bedroom")]),
])
def test_c_in_there_is_the_room_named_before(text, want):
    _check(text, want)


def test_c_in_there_without_a_room_is_still_refused():
    _refused("Go to the sofa. While you are in there, keep away from the TV.", "")


# --- (d) "Visit the following in this order: 1) ..." ----------------------------------------
@pytest.mark.parametrize("text", [
    "Visit the following in this order: 1) the shelf in the larger living room, 2) the cart in "
    "the smaller living room, 3) the plunger in the bathroom. After that, come back to where "
    "you started.",
    "Visit the following in this order: 1. the shelf, 2. the cart, 3. the plunger. After that, "
    "come back to where you started.",
    "Go to the following, in order: 1) the shelf, 2) the cart, 3) the plunger. After that, "
    "come back to where you started.",
    "Visit the following places in the order given: 1. the shelf 2. the cart 3. the plunger. "
    "Then come back to where you started.",
])
def test_d_the_following_in_this_order_is_a_list(text):
    _check(text, [("goal", "shelf"), ("goal", "cart"), ("goal", "plunger"), ("goal", "start")])


# --- (e) crossing without stopping; "head for the bedrooms:"; "the second one" --------------
@pytest.mark.parametrize(("text", "want"), [
    ("First go to the dining table in the kitchen. From there, head for the bedrooms: walk "
     "straight through the first bedroom you come to without stopping, and stop at the dog bed "
     "in the second one.", [("goal", "dining_table"), ("pass", "bedroom"), ("goal", "dog_bed")]),
    ("Go to the fridge. Walk through the kitchen without stopping and go to the sofa.",
     [("goal", "fridge"), ("pass", "kitchen"), ("goal", "sofa")]),
    ("Go to the fridge. Then go straight through the bathroom without stopping there, and stop "
     "at the bed.", [("goal", "fridge"), ("pass", "bathroom"), ("goal", "bed")]),
    ("Go to the fridge. Then walk right through the bedroom without pausing, and stop at the "
     "desk.", [("goal", "fridge"), ("pass", "bedroom"), ("goal", "desk")]),
    ("Go to the fridge. Then head to the bathrooms: walk through the first bathroom you come "
     "to and stop at the toilet in the other one.",
     [("goal", "fridge"), ("pass", "bathroom"), ("goal", "toilet")]),
])
def test_e_without_stopping_and_the_second_one(text, want):
    _check(text, want)


def test_e_the_second_one_without_a_room_is_still_refused():
    _refused("Go to the dog bed in the second one.", "second")


# --- (f) "only then" ---------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Stop at the desk first, and only then go to the box in the bedroom with the dog bed.",
    "Stop at the desk first and only then go to the box in the bedroom with the dog bed.",
    "Go to the desk first, and only after that go to the box in the bedroom with the dog bed.",
    "Visit the desk, only then go to the box in the bedroom with the dog bed.",
])
def test_f_only_then_is_then(text):
    _check(text, [("goal", "desk"), ("goal", "box")])


@pytest.mark.parametrize("text", [
    "Go to the bedroom that does not have a desk, and only then to the sofa.",
    "Go to the bedroom, and only then go to the sofa.",
    "Go to the bedroom first and only after that go to the sofa.",
])
def test_f_only_then_keeps_a_room_a_stop_of_its_own(text):
    # "only then" insists on the order: the room is a stop, not where the sofa is
    _check(text, [("goal", "bedroom"), ("goal", "sofa")])


# --- (g) "at any point", "itself", "and in the bedroom, stay away" ---------------------------
@pytest.mark.parametrize(("text", "want"), [
    ("Go to the plunger in the larger bathroom. Do not go into the kitchen at any point, and in "
     "the bedroom with the dog bed, stay away from the dog bed itself.",
     [("goal", "plunger"), ("avoid", "kitchen", ""), ("far", "dog_bed", "in:bedroom")]),
    ("Go to the plunger. Don't go into the kitchen at any time.",
     [("goal", "plunger"), ("avoid", "kitchen", "")]),
    ("Go to the plunger. Never enter the kitchen at all.",
     [("goal", "plunger"), ("avoid", "kitchen", "")]),
    ("Go to the plunger. Avoid the kitchen at any point.",
     [("goal", "plunger"), ("avoid", "kitchen", "")]),
    ("Go to the plunger, and in the bedroom, keep away from the bed itself.",
     [("goal", "plunger"), ("far", "bed", "in:bedroom")]),
    ("Go to the plunger. Stay away from the toilet itself.",
     [("goal", "plunger"), ("far", "toilet", "")]),
])
def test_g_any_point_itself_and_in_the_room(text, want):
    _check(text, want)


# --- (h) relative clauses: "whose", "but not next to", "you enter from" ----------------------
@pytest.mark.parametrize(("text", "mods"), [
    ("Go to the chair in the bedroom whose dining table has a plant on it.",
     "chair[in_room:bedroom[with:dining_table[with:house_plant[on:it]]]]"),
    ("Go to the bedroom whose bed has a teddy bear on it.",
     "bedroom[with:bed[with:teddy_bear[on:it]]]"),
    ("Go to the kitchen whose counter top has a microwave on it.",
     "kitchen[with:counter_top[with:microwave[on:it]]]"),
    ("Go to the garbage can that is in a bedroom but not next to a bed.",
     "garbage_can[in_room:bedroom; next_to!:bed]"),
    ("Go to the garbage can that's in a bedroom and not next to a bed.",
     "garbage_can[in_room:bedroom; next_to!:bed]"),
    ("Go to the chair that is in the kitchen but not under a table.",
     "chair[in_room:kitchen; next_to!:table]"),
    ("Go around the basketball lying on the floor of the bedroom you enter from that living "
     "room.", "basket_ball[in_room:bedroom[adjacent:living_room]]"),
    ("Go to the toilet in the bathroom you get to from the kitchen.",
     "toilet[in_room:bathroom[adjacent:kitchen]]"),
    ("Go to the bed in the bedroom you enter from the larger living room.",
     "bed[in_room:bedroom[adjacent:living_room]]"),
    ("Go to the box sitting on the floor in the living room.", "box[in_room:living_room]"),
])
def test_h_relative_clauses(text, mods):
    p = parse_instruction(text)

    def show(r):
        inner = "; ".join(m.kind + ("!" if m.negated else "") + ":" +
                          ",".join(show(x) for x in m.refs) for m in r.modifiers
                          if m.kind != "rank" or m.refs)
        return r.head + (f"[{inner}]" if inner else "")
    assert show(p.clauses[0].refs[0]) == mods
    assert not [w for w in p.unknown_words if w not in ("but", "floor")]


def test_h_whose_without_a_thing_is_still_refused():
    _refused("Go to the bedroom whose owner is away.", "whose")


# --- (i) where a stop is: ", in the bedroom", a gerund aside, a room then a midpoint -------
@pytest.mark.parametrize(("text", "want"), [
    ("Go to the sofa, in the living room.", [("goal", "sofa")]),
    ("Walk to the chair next to the desk, in the bedroom with the dog bed.", [("goal", "chair")]),
    ("Head for the bathroom that has a dresser in it, going past the cart on the way, and stop "
     "at the painting nearest the toilet.", [("pass", "cart"), ("goal", "painting")]),
    ("Go to the kitchen, passing the sofa on the way, and stop at the fridge.",
     [("pass", "sofa"), ("goal", "fridge")]),
    ("In the smaller living room, stop at the point midway between the cart and the sofa.",
     [("goal", "midpoint")]),
    ("Enter the bedroom with the floor lamp and stop midway between the arm chair and the "
     "basketball on the floor.", [("goal", "midpoint")]),
    ("Go to the kitchen and stop halfway between the fridge and the sink.",
     [("goal", "midpoint")]),
])
def test_i_where_the_stop_is(text, want):
    _check(text, want)
    p = parse_instruction(text)
    assert len(p.clauses) == len(want)


@pytest.mark.parametrize(("text", "room"), [
    ("In the smaller living room, stop at the point midway between the cart and the sofa.",
     "living_room"),
    ("Enter the bedroom with the floor lamp and stop midway between the arm chair and the "
     "basketball.", "bedroom"),
    ("Go to the kitchen and stop halfway between the fridge and the sink.", "kitchen"),
])
def test_i_a_midpoint_in_a_room_puts_both_things_there(text, room):
    (stage,) = parse_instruction(text).clauses
    point = stage.refs[0]
    gap = next(m for m in point.modifiers if m.kind == "between")
    for ref in [point, *gap.refs]:
        assert room in [r.head for m in ref.modifiers if m.kind == "in_room" for r in m.refs]


# --- (j) the sets, and the scorer's geometry reading -----------------------------------------
def test_j_set_j_after_the_round():
    scores = score_set(DATA / "fresh_human_j.json")
    out = summary(scores)
    assert out["silent_drops"] == 0
    assert out["right"] >= 18
    strict = summary(score_set(DATA / "fresh_human_j.json", strict=True))
    assert strict["right"] >= 16 and strict["silent_drops"] == 0


def test_j_set_k_has_no_silent_drops():
    assert summary(score_set(DATA / "fresh_human_k.json"))["silent_drops"] == 0


# --- (k) set K's classes: the end said again, "wherever", "about halfway", "swing by", a room
# then a circle or a midpoint in it ------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Three things, in this order: first the stool in the kitchen, second the toilet in the "
    "little bathroom, and third the big sofa in the living room behind that bathroom. Then "
    "you're done.",
    "Go to the stool, then the toilet, then the sofa. Then you are done.",
    "Go to the stool, then the toilet, then the sofa, and then you're done.",
    "Go to the stool, then the toilet, then the sofa, and that's it.",
    "Go to the stool, then the toilet, then the sofa. That is all.",
])
def test_k_the_end_said_again_adds_nothing(text):
    _check(text, [("goal", "stool"), ("goal", "toilet"), ("goal", "sofa")])


@pytest.mark.parametrize(("text", "want"), [
    ("Go into the kitchen and walk all the way around the dining table once, then head back "
     "to wherever you started.", [("circle", "dining_table"), ("goal", "start")]),
    ("Go to the kitchen and circle the dining table, then go back to wherever you began.",
     [("circle", "dining_table"), ("goal", "start")]),
    ("Walk around the sofa, then come back to wherever you started from.",
     [("circle", "sofa"), ("goal", "start")]),
    ("Go to the bedroom and walk around the bed.", [("circle", "bed")]),
])
def test_k_a_room_then_a_circle_in_it_and_wherever(text, want):
    _check(text, want)


@pytest.mark.parametrize("text", [
    "Um, go through the little bathroom into the other living room and stop somewhere about "
    "halfway between the plant in the corner and the dining table.",
    "Go through the bathroom into the living room and stop roughly halfway between the plant "
    "and the dining table.",
    "Go through the bathroom into the living room and stop more or less midway between the "
    "plant and the dining table.",
    "Go through the bathroom into the living room and stop somewhere around halfway between "
    "the plant and the dining table.",
])
def test_k_about_halfway_in_a_room_entered(text):
    # the set records the stop as the room it lies in; strict, it is the midpoint, whose two
    # things are in the living room entered
    _check(text, [("pass", "bathroom"), ("goal", "midpoint")])
    point = parse_instruction(text).clauses[-1].refs[0]
    gap = next(m for m in point.modifiers if m.kind == "between")
    assert all("living_room" in [r.head for m in ref.modifiers if m.kind == "in_room"
                                 for r in m.refs] for ref in gap.refs)


@pytest.mark.parametrize("text", [
    "Head to the dresser that's right next to the biggest bed. After that, swing by the "
    "baseball bat lying on the floor in that same room.",
    "Head to the dresser next to the bed. After that, stop by the baseball bat.",
    "Head to the dresser next to the bed. Then pop over to the baseball bat.",
    "Head to the dresser next to the bed, then drop by the baseball bat.",
])
def test_k_swing_by_is_a_visit(text):
    _check(text, [("goal", "dresser"), ("goal", "baseball_bat")])


@pytest.mark.parametrize("text", [
    "Go to the TV in the long living room first. Then go through the first bedroom you get to, "
    "don't stop there, and keep going to the biggest bed in the house, which is in the next "
    "bedroom.",
    "Go to the TV first. Then go through the first bedroom you get to, do not stop there, and "
    "keep going to the biggest bed, which is in the next bedroom.",
    "Go to the TV first. Then walk through the bedroom without stopping, and carry on to the "
    "biggest bed in the whole house, which is in the other bedroom.",
    "Go to the TV first. Then go through the bedroom, but don't stop, and continue on to the "
    "bed, which is in the other bedroom.",
])
def test_k_keep_going_past_a_room_to_the_bed(text):
    _check(text, [("goal", "television"), ("pass", "bedroom"), ("goal", "bed")])


@pytest.mark.parametrize(("text", "want"), [
    ("Go past the TV in the living room, then stop at the sofa.",
     [("pass", "television"), ("goal", "sofa")]),
    ("Walk past the TV and stop at the sofa.", [("pass", "television"), ("goal", "sofa")]),
    ("First go right past the fridge, and then head to the sofa.",
     [("pass", "fridge"), ("goal", "sofa")]),
    ("Head past the kitchen and go to the sofa.", [("pass", "kitchen"), ("goal", "sofa")]),
    # a negated "go past" stays a constraint
    ("Do not go past the TV. Go to the sofa.", [("goal", "sofa"), ("far", "television", "")]),
])
def test_k_go_past_a_thing_is_a_pass(text, want):
    _check(text, want)


@pytest.mark.parametrize(("text", "room"), [
    ("Go to the garbage can in the kitchen, then to the one in the bathroom you can get to "
     "from the kitchen, and then back here.", "kitchen"),
    ("Go to the toilet in the bathroom you get into from the bedroom.", "bedroom"),
    ("Go to the toilet in the bathroom you can reach from the bedroom.", "bedroom"),
    ("Go to the toilet in the bathroom you enter from the living room.", "living_room"),
])
def test_k_a_room_entered_from_another_is_adjacent(text, room):
    js = parse_instruction(text).to_json()
    stage = [s for s in js["stages"] if s["refs"][0]["head"] in ("garbage_can", "toilet")][-1]
    (inroom,) = [m for m in stage["refs"][0]["modifiers"] if m["kind"] == "in_room"]
    adj = [m for m in inroom["refs"][0]["modifiers"] if m["kind"] == "adjacent"]
    assert adj and adj[0]["refs"][0]["head"] == room


# --- (l) a gap forbidden "in that room": the room named before --------------------------------
@pytest.mark.parametrize(("text", "room"), [
    ("Go into the bedroom that has both a desk and a window, and stop at the dresser there. Do "
     "not pass between the dining table and the TV stand in that room.", "bedroom"),
    ("Go to the dresser in the bedroom. Don't walk between the bed and the desk in there.",
     "bedroom"),
    ("Go to the sofa in the living room. Never go between the TV stand and the sofa in that "
     "same room.", "livingroom"),
    ("Go to the fridge in the kitchen. Do not pass between the table and the counter top in "
     "the same room.", "kitchen"),
])
def test_l_between_in_that_room_is_scoped(text, room):
    js = parse_instruction(text).to_json()
    (con,) = js["constraints"]
    assert con["kind"] == "avoid" and con["refs"][0]["head"] == "between"
    assert _scope_heads(con, js["stages"], strict=True) == [f"in:{room}"]


def test_l_between_in_that_room_without_a_room_is_not_scoped():
    js = parse_instruction("Go to the sofa. Do not pass between the table and the TV stand in "
                           "that room.").to_json()
    assert not js["constraints"][0].get("spatial_scope")
