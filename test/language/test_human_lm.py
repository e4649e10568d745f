"""Human phrasings of fresh sets L and M (issue 19): route-stage scopes that say where the walk
starts ("Coming from the kitchen, ...", "Starting at the fridge, ...", "Start at the plunger
in ..."), set-ups and picks from them ("There are two beds ... Go to the one that ...", "Of the
two, ...", "not the one with X, the other one"), room adjacency said as a clause ("attached
to", "that connects to", "you can reach directly from"), geometry targets said as a clause
("the point exactly halfway between", "the corner ... where X is"), possession and support
("that has a plant on top", "where the table has five chairs around it"), walls and the front
door read, never dropped, and the structures that came out wrong at first contact (a stage
said twice, a stop in the room just reached, a leg named by its stop). Each class has the
set's own phrasing and variants written before they were run (see docs/grounding.md, "Sets L
and M round")."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.fresh import route_summary, score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


def _route(text: str) -> list[tuple[str, ...]]:
    return route_summary(parse_instruction(text))


def _check(text: str, want: list) -> None:
    p = parse_instruction(text)
    assert _route(text) == [tuple(w) for w in want]
    assert not [w for w in p.unknown_words if w not in ("but", "into")]


def _mods(ref) -> list[str]:
    out = []
    for m in ref.modifiers:
        out.append(m.kind)
        for r in m.refs:
            out += _mods(r)
    return out


# --- (a) where the walk starts: context, never a stage -------------------------------------
@pytest.mark.parametrize(("text", "want", "context"), [
    # the sets' own
    ("Coming from the kitchen, head over to the shelf in the living room.",
     [("goal", "shelf")], "coming from the kitchen"),
    ("Starting at the fridge, go into the first living room and stop at the cart.",
     [("goal", "cart")], "starting at the fridge"),
    ("Coming out of the bedroom without a bed, go to the sofa in the smaller living room.",
     [("goal", "sofa")], "coming out of the bedroom without a bed"),
    ("From the kitchen, walk to the TV stand in the bedroom.", [("goal", "tv_stand")],
     "from the kitchen"),
    ("Start at the plunger in the bathroom that has a dresser. Go to the dining table.",
     [("goal", "dining_table")], "start at the plunger in the bathroom that has a dresser"),
    ("Start at the front door and go to the bed in the bedroom.", [("goal", "bed")],
     "start at the front door"),
    # variants
    ("Coming out of the kitchen, go to the sofa in the living room.", [("goal", "sofa")],
     "coming out of the kitchen"),
    ("Starting from the bed, walk to the toilet.", [("goal", "toilet")],
     "starting from the bed"),
    ("Start by the fridge. Go to the dresser in the bedroom.", [("goal", "dresser")],
     "start by the fridge"),
    ("From the living room, head to the sink in the bathroom.", [("goal", "sink")],
     "from the living room"),
    # more, written after the first run
    ("Setting off from the bedroom, walk to the sofa.", [("goal", "sofa")],
     "setting off from the bedroom"),
    ("You'll be starting at the fridge. Go to the sofa.", [("goal", "sofa")],
     "you will be starting at the fridge"),
    ("Start: kitchen counter. Goal: the bed in the smaller bedroom.", [("goal", "bed")],
     "start : kitchen counter"),
    ("Starting point is the fridge. Go to the sofa.", [("goal", "sofa")],
     "starting point is the fridge"),
])
def test_a_start_scope_is_context(text, want, context):
    _check(text, want)
    assert context in parse_instruction(text).context


@pytest.mark.parametrize(("text", "want", "context"), [
    # written after the first run: scene-setting after a time word, and "come to me"
    ("Currently you are next to the fridge. Go to the sofa.", [("goal", "sofa")],
     "currently you are next to the fridge"),
    ("Right now, I'm sitting on the bed. Go to the fridge, then come to me.",
     [("goal", "fridge"), ("goal", "bed")], "right now i am sitting on the bed"),
    ("I'm over on the sofa. Go to the fridge and come here please.",
     [("goal", "fridge"), ("goal", "sofa")], "i am over on the sofa"),
    ("I'm over on the sofa. Go to the fridge and then come right back here.",
     [("goal", "fridge"), ("goal", "sofa")], "i am over on the sofa"),
    # the speaker's own place is where "me" / "here" is (speaker_return.py); the walker's
    # place ("you are next to ...") and "where you started" stay the start
    ("You're next to the fridge. Go to the sofa and come back here.",
     [("goal", "sofa"), ("goal", "start")], "you are next to the fridge"),
    ("I'm at the desk. Go to the fridge and come back to where you started.",
     [("goal", "fridge"), ("goal", "start")], "i am at the desk"),
])
def test_a_scene_and_the_speaker(text, want, context):
    _check(text, want)
    assert context in parse_instruction(text).context


def test_a_heading_and_count_from_the_start():
    """L22: "Head toward the kitchen," is the direction (context); "the second room you walk
    into after leaving the bathroom", the walk starting in that bathroom, is the second room
    along the route."""
    p = parse_instruction("Start at the plunger in the bathroom that has a dresser. Head "
                          "toward the kitchen, and in the second room you walk into after "
                          "leaving the bathroom, stop at the dining table.")
    assert [c.refs[0].head for c in p.clauses] == ["dining_table"]
    room = p.clauses[0].refs[0].modifiers[0].refs[0]
    assert [(m.kind, m.rank, m.k) for m in room.modifiers] == [("rank", "route", 2)]
    assert "head toward the kitchen" in p.context
    # after leaving a room that is not the start's, the reading is the one it was
    assert _route("Start at the sofa. In the second room you walk into after leaving the "
                  "kitchen, stop at the dining table.") == [("goal", "kitchen"),
                                                           ("goal", "dining_table")]


@pytest.mark.parametrize(("text", "want"), [
    ("Start with the fridge, then the sofa.", [("goal", "fridge"), ("goal", "sofa")]),
    ("From there, go to the sofa.", [("goal", "sofa")]),
    ("Start by going to the armchair. Do not walk into the area around the lamp.",
     [("goal", "arm_chair"), ("avoid", "lamp", "")]),
])
def test_a_not_a_start_scope(text, want):
    """"Start with X" is a stop; "From there" is read by the route as before."""
    assert _route(text) == want


# --- (b) set-ups and picks from them -------------------------------------------------------
@pytest.mark.parametrize(("text", "want"), [
    ("There are two beds in this house. Go to the one that doesn't have a teddy bear on it.",
     [("goal", "bed")]),
    ("There are two floor lamps in the house. Go to the one that has a plant nearby.",
     [("goal", "floor_lamp")]),
    ("Go into the bedroom with two beds. Of the two, go to the bed that is farther from the "
     "door.", [("goal", "bed")]),
    ("ok so go to the bathroom, not the one with the washing machine, the other one, and then "
     "go to the bedroom right by it, the one with two beds, and stop at the window that's "
     "closest to the TV", [("goal", "bathroom"), ("goal", "window")]),
    # variants
    ("There are two sofas in the living room. Go to the one nearest the TV.",
     [("goal", "sofa")]),
    ("Of the two bathrooms, go to the bigger one.", [("goal", "bathroom")]),
    ("Go to the bedroom, not the one with the desk, the other one.", [("goal", "bedroom")]),
    ("Go to the kitchen. Of the three chairs, go to the one nearest the fridge.",
     [("goal", "chair")]),
    # more, written after the first run
    ("There are 2 sofas in the living room. Go to the one nearest the TV.", [("goal", "sofa")]),
    ("This house has two bathrooms. Go to the one with the washing machine.",
     [("goal", "bathroom")]),
    ("There are a couple of chairs in the kitchen. Stop at the one by the window.",
     [("goal", "chair")]),
    ("The house has three bedrooms. Go to the smallest one.", [("goal", "bedroom")]),
    ("Between the two sofas, pick the one closer to the TV.", [("goal", "sofa")]),
    ("Of all the chairs in the kitchen, go to the one nearest the window.",
     [("goal", "chair")]),
    ("Of the bathrooms, go to the smaller one.", [("goal", "bathroom")]),
    ("In the bedroom with two beds, go to the one by the window.", [("goal", "bed")]),
    ("In the kitchen with three chairs, go to the one nearest the fridge.",
     [("goal", "chair")]),
    ("Go to the bedroom with two beds, the one next to the bathroom.", [("goal", "bedroom")]),
])
def test_b_set_up_and_pick(text, want):
    _check(text, want)


def test_b_pick_keeps_what_it_is_not():
    p = parse_instruction("Go to the bathroom, not the one with the washing machine, the "
                          "other one.")
    ref = p.clauses[0].refs[0]
    assert [(m.kind, m.negated) for m in ref.modifiers] == [("with", True)]


def test_b_set_up_room_carries_to_the_pick():
    p = parse_instruction("There are three chairs in the kitchen. Go to the one closest to "
                          "the fridge.")
    assert "in_room" in _mods(p.clauses[0].refs[0])


# --- (c) room adjacency said as a clause ---------------------------------------------------
@pytest.mark.parametrize(("text", "head"), [
    ("Finish at the sink in the bathroom that connects to that bedroom.", "sink"),
    ("Go to the plunger in the bathroom attached to the bedroom that connects to the bedroom "
     "without a bed.", "plunger"),
    ("I need you at the garbage can in the bathroom that is connected to the bedroom you can "
     "reach directly from the kitchen.", "garbage_can"),
    ("Go to the bed in the bedroom you can get to straight from the kitchen.", "bed"),
    # variants
    ("Go to the toilet in the bathroom attached to the kitchen.", "toilet"),
    ("Go to the bed in the bedroom you can reach straight from the living room.", "bed"),
    ("Stop at the sink in the bathroom that connects to the bedroom with the desk.", "sink"),
    # more, written after the first run
    ("Go to the bed in the bedroom reachable from the kitchen.", "bed"),
    ("Go to the bed in the bedroom directly accessible from the kitchen.", "bed"),
    ("Go to the sink in the bathroom which connects with the bedroom.", "sink"),
    ("Go to the bed in the bedroom that leads off the living room.", "bed"),
])
def test_c_room_adjacency(text, head):
    p = parse_instruction(text)
    assert [c.refs[0].head for c in p.clauses] == [head]
    assert "adjacent" in _mods(p.clauses[0].refs[0])
    assert not p.unknown_words


# --- (d) geometry targets said as a clause -------------------------------------------------
@pytest.mark.parametrize(("text", "head"), [
    ("go stand in the corner of the living room where the armchair and the floor lamp are",
     "corner"),
    ("go to the corner of the kitchen where the fridge is", "corner"),
    ("In the bedroom with the TV, there's a bed at one end and the television at the other. "
     "Stop at the point exactly halfway between the bed and the television.", "midpoint"),
    # variants
    ("Go to the corner of the bedroom where the desk is.", "corner"),
    ("Walk to the spot exactly halfway between the sofa and the TV.", "midpoint"),
    ("Stand in the corner of the kitchen where the fridge and the sink are.", "corner"),
    # more, written after the first run
    ("Go to the exact midpoint between the sofa and the TV.", "midpoint"),
    ("Go to the corner of the bedroom where the bed and the desk meet.", "corner"),
    ("Stop in the middle of the room between the bed and the desk.", "midpoint"),
    ("Walk to the corner of the kitchen where the fridge is located.", "corner"),
])
def test_d_geometry_targets(text, head):
    p = parse_instruction(text)
    assert [c.refs[0].head for c in p.clauses] == [head]
    assert not p.unknown_words


def test_d_corner_where_is_nearest_to_the_thing():
    ref = parse_instruction("go to the corner of the kitchen where the fridge is").clauses[0] \
        .refs[0]
    rank = next(m for m in ref.modifiers if m.kind == "rank")
    assert (rank.rank, rank.refs[0].head) == ("nearest", "fridge")


# --- (e) possession and support ------------------------------------------------------------
@pytest.mark.parametrize(("text", "head", "inner"), [
    ("First go to the table with a laptop and a vase on it, then to the dresser that has a "
     "plant on top.", "dresser", "house_plant"),
    ("Go into the bedroom where the table has five chairs around it and stop at the chair "
     "closest to the dresser.", "chair", "chair"),
    # variants
    ("Go to the shelf that has a vase on top.", "shelf", "vase"),
    ("Go to the kitchen where the table has four chairs around it.", "kitchen", "chair"),
    ("Go to the desk that has a laptop on top of it.", "desk", "laptop"),
    # more, written after the first run
    ("Go to the table with a vase and a laptop on top.", "table", "laptop"),
    ("Go to the dresser that's got a plant on it.", "dresser", "house_plant"),
    ("Go to the table that is surrounded by chairs.", "table", "chair"),
    ("Go to the table with five chairs around it.", "table", "chair"),
])
def test_e_possession_and_support(text, head, inner):
    p = parse_instruction(text)
    ref = p.clauses[-1].refs[0]
    assert ref.head == head

    def heads(r):
        return [r.head, *(h for m in r.modifiers for x in m.refs for h in heads(x))]
    assert inner in heads(ref)
    assert not [w for w in p.unknown_words if w != "into"]


# --- (f) walls and the front door: read, never dropped -------------------------------------
@pytest.mark.parametrize(("text", "want"), [
    ("Stop at the basketball in the bedroom. In the living room, stick close to the walls.",
     [("goal", "basket_ball"), ("near", "wall", "in:livingroom")]),
    ("Walk to the toilet in the other bathroom and then come back. When you cross the bigger "
     "living room, stick to the walls.",
     [("goal", "toilet"), ("goal", "start"), ("near", "wall", "in:livingroom")]),
    # variants
    ("Go to the sofa. In the living room, keep close to the walls.",
     [("goal", "sofa"), ("near", "wall", "in:livingroom")]),
    ("Go to the toilet, and stay close to the wall.", [("goal", "toilet"), ("near", "wall", "")]),
    # more, written after the first run
    ("Walk to the fridge, hugging the wall.",
     [("goal", "fridge"), ("near", "wall", "until:fridge")]),
    ("Go to the sofa, keeping close to the walls.",
     [("goal", "sofa"), ("near", "wall", "until:sofa")]),
])
def test_f_near_the_walls(text, want):
    _check(text, want)


@pytest.mark.parametrize("text", [
    "Bed farthest from the front door.",
    "You are standing at the front door. Go to the sofa.",
    # variants
    "Go to the bed nearest the front doorway.",
    "Start at the front door and go to the sofa.",
])
def test_f_front_door_is_a_doorway(text):
    p = parse_instruction(text)
    refs = [*p.references(), *p.context_refs]

    def heads(r):
        return [r.head, *(h for m in r.modifiers for x in m.refs for h in heads(x))]
    assert "doorway" in [h for r in refs for h in heads(r)]
    assert not p.unknown_words


# --- (g) structures that came out wrong ----------------------------------------------------
@pytest.mark.parametrize(("text", "want"), [
    ("Find the chair that has a laptop nearby and wait there.", [("goal", "chair")]),
    ("grab the wine bottle off the kitchen table, take it to the dresser in the bedroom with "
     "the TV, then come back here", [("goal", "wine_bottle"), ("goal", "dresser"),
                                     ("goal", "start")]),
    ("Sink, bathroom off the smaller living room.", [("goal", "sink")]),
    ("Start at the fridge. Walk through the living room into the first bedroom you reach and "
     "stop at its window.", [("pass", "living_room"), ("goal", "window")]),
    ("First go to the floor lamp in the living room. Then go to the side table in the bedroom "
     "next to the kitchen. On the way to the second stop, stay away from the kitchen table.",
     [("goal", "floor_lamp"), ("goal", "side_table"), ("far", "dining_table",
                                                       "until:sidetable")]),
    # variants
    ("Find the plant in the kitchen and stay there.", [("goal", "house_plant")]),
    ("Grab the apple, take it to the fridge.", [("goal", "apple"), ("goal", "fridge")]),
    ("Go to the sofa, then to the bed. On the way to the first stop, stay away from the TV.",
     [("goal", "sofa"), ("goal", "bed"), ("far", "television", "until:sofa")]),
    ("Walk through the kitchen into the living room and stop at its window.",
     [("pass", "kitchen"), ("goal", "window")]),
    ("Toilet, bathroom next to the kitchen.", [("goal", "toilet")]),
    # more, written after the first run
    ("Grab the remote from the sofa and bring it to the bed.",
     [("goal", "remote_control"), ("goal", "bed")]),
    ("Pick up the remote from the sofa and bring it to the bed.",
     [("goal", "remote_control"), ("goal", "bed")]),
    ("Fetch the vase from the table and bring it back to me.",
     [("goal", "vase"), ("goal", "start")]),
    ("Head to the TV, and wait for me there.", [("goal", "television")]),
    ("Walk over to the sofa and sit there.", [("goal", "sofa")]),
    ("Go to the bed. Then go into the bathroom next door and stop at the sink.",
     [("goal", "bed"), ("goal", "sink")]),
])
def test_g_one_stage_each(text, want):
    _check(text, want)


@pytest.mark.parametrize(("text", "want"), [
    ("I'm sitting on the sofa in the living room with the cart. Please go: 1) to the "
     "microwave, 2) to the toilet in the bathroom with the washing machine, 3) back to me.",
     [("goal", "microwave"), ("goal", "toilet"), ("goal", "sofa")]),
    ("Starting at the fridge, go into the first living room and stop at the cart. Then carry "
     "on into the second living room and stop at its window.",
     [("goal", "cart"), ("goal", "window")]),
    ("Go to the bed. In the bigger living room stay away from the sofa.",
     [("goal", "bed"), ("far", "sofa", "in:livingroom")]),
    # variants
    ("Please go: 1) to the fridge, 2) to the sofa, 3) back to me.",
     [("goal", "fridge"), ("goal", "sofa"), ("goal", "start")]),
    ("Go to the fridge. Then keep going to the sofa.", [("goal", "fridge"), ("goal", "sofa")]),
    ("Go to the desk. In the smaller bedroom keep away from the bed.",
     [("goal", "desk"), ("far", "bed", "in:bedroom")]),
])
def test_g_lists_verbs_and_scopes(text, want):
    _check(text, want)


@pytest.mark.parametrize(("text", "want"), [
    ("Your first stop is the TV stand in the larger living room, and your second stop is the "
     "toilet in the smaller bathroom. On the way to the second stop, keep away from the box.",
     [("goal", "tv_stand"), ("goal", "toilet"), ("far", "box", "until:toilet")]),
    ("First stop, the fridge. Second stop, the sofa.", [("goal", "fridge"), ("goal", "sofa")]),
    ("My first stop should be the fridge, then the second destination is the sofa.",
     [("goal", "fridge"), ("goal", "sofa")]),
])
def test_g_numbered_stops(text, want):
    """J11, K11: stops said by their ordinal ("your second stop is X")."""
    _check(text, want)


@pytest.mark.parametrize("text", [
    "Go to the sofa, then the bed, then the fridge. Between the first and second stops, "
    "avoid the TV.",
    "Go to the sofa, then the bed, then the fridge. For the second leg, avoid the TV.",
    "Go to the sofa, then the bed, then the fridge. On the second leg of the route, avoid the "
    "TV.",
    "Go to the sofa, then the bed, then the fridge. While heading to the second stop, avoid "
    "the TV.",
])
def test_g_legs_named_by_their_stop(text):
    """Written after the first run: the leg to the second stop said other ways."""
    assert _route(text)[-1] == ("avoid", "television", "until:bed")


@pytest.mark.parametrize(("text", "scope"), [
    ("Go to the fridge, then the sofa. Before you get to the sofa, avoid the TV.",
     "until:sofa"),
    ("Go to the fridge, then the sofa. Between the fridge and the sofa, avoid the TV.",
     "until:sofa"),
    ("Go to the fridge, then the sofa. After the first stop, avoid the TV.", "until:sofa"),
    ("Go to the fridge, then the sofa. Until the first stop, avoid the TV.", "until:fridge"),
])
def test_g_legs_by_place_and_order(text, scope):
    """Written after the first run: "Before you get to the sofa" was a second stop at the
    sofa (on main too), "Between the fridge and the sofa" a stop at the area between."""
    assert _route(text) == [("goal", "fridge"), ("goal", "sofa"), ("avoid", "television",
                                                                     scope)]




# --- the sets themselves ---------------------------------------------------------------------
@pytest.mark.parametrize(("name", "right"), [("l", 21), ("m", 21)])
def test_sets_l_and_m(name, right):
    """Sets L and M after their round, with the discourse moves merged (first contact: L
    4/22, M 8/22); left: L05 (an aside after a dash) and M01 (a state check)."""
    for strict in (False, True):
        s = summary(score_set(DATA / f"fresh_human_{name}.json", strict=strict))
        assert s["right"] >= right
        assert s["silent_drops"] == 0
