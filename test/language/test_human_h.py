"""Human phrasings of fresh set H (issue 19): a writer who varies register. Questions answered
by the next sentence, modal leads ("you'll have to cut through ..."), wishes ("I need you at
the sink"), rooms said again as "in there" / "that bedroom", arrival scopes ("when you get to
the bathroom, keep away from ..."), stops "on the way" said after their goal, "around" as a
place, corners, gerund returns, closing "though", and group words ("the lamp", "the table")
that cover the category a set expects. Each class has several phrasings, the set's own among
them."""

from __future__ import annotations

import pytest

from map2route.language.fresh import _covers, _resolve_pronouns
from map2route.language.parser import parse_instruction


def _route(text: str) -> list[tuple[str, str]]:
    """(kind, head) of the stages and constraints."""
    js = _resolve_pronouns(parse_instruction(text).to_json())
    return [(c["kind"], c["refs"][0]["head"]) for c in js["stages"] + js["constraints"]]


def _scopes(text: str) -> list[tuple[str, str, str]]:
    """(kind, head, scope) of the constraints: ``in:ROOM`` or ``until:ROOM``."""
    out = []
    for c in parse_instruction(text).to_json()["constraints"]:
        sc = c.get("spatial_scope")
        until = (c.get("temporal_scope") or {}).get("until")
        scope = f"in:{sc['head']}" if sc else f"until:{until['head']}" if until else ""
        out.append((c["kind"], c["refs"][0]["head"], scope))
    return out


def _unread(text: str) -> list[str]:
    return [w for w in parse_instruction(text).unknown_words if w != "but"]


# --- (a) a question names the thing, the next sentence points at it ------------------------
@pytest.mark.parametrize(("text", "head", "rank"), [
    ("Which chair's the farthest from you? Go to that one.", "chair", "farthest"),
    ("Which bed is the closest to you? Go there.", "bed", "nearest"),
    ("Which of the sofas is the nearest to you? Head to it.", "sofa", "nearest"),
    ("Which TV is the farthest from you? Walk to that one, please.", "television", "farthest"),
])
def test_a_which_question_then_that_one_is_one_ranked_goal(text, head, rank):
    (stage,) = parse_instruction(text).clauses
    ref = stage.refs[0]
    assert (stage.kind, ref.head) == ("goal", head)
    assert [(m.kind, m.rank) for m in ref.modifiers] == [("rank", rank)]
    # the same ranking as "go to the X farthest from you" (from where the route starts)
    said = parse_instruction(f"Go to the {head.replace('television', 'TV')} {rank} from you.")
    assert [(m.kind, m.rank, [r.head for r in m.refs]) for m in ref.modifiers] == \
        [(m.kind, m.rank, [r.head for r in m.refs]) for m in said.clauses[0].refs[0].modifiers]
    assert not _unread(text)


# --- (b) a modal lead; a room to cut through said after the goal is on the way -------------
@pytest.mark.parametrize(("text", "route"), [
    ("Make your way to the desk. You'll have to cut through the bathroom with the dryer in "
     "it.", [("pass", "bathroom"), ("goal", "desk")]),
    ("Go to the sofa. You will have to go through the kitchen.",
     [("pass", "kitchen"), ("goal", "sofa")]),
    ("Walk to the bed. You need to pass through the living room.",
     [("pass", "living_room"), ("goal", "bed")]),
    ("Head to the toilet. You'll need to cut through the bedroom.",
     [("pass", "bedroom"), ("goal", "toilet")]),
    ("Go to the fridge. You'll have to avoid the sofa.", [("goal", "fridge"), ("avoid", "sofa")]),
])
def test_b_modal_lead(text, route):
    assert _route(text) == route
    assert not _unread(text)


# --- (c) "by way of X to get there", "on the way, stop at X": before the goal --------------
@pytest.mark.parametrize(("text", "route"), [
    ("okay so, um, I need you to go to the toilet, but go by way of the living room with the "
     "two floor lamps to get there.", [("pass", "living_room"), ("goal", "toilet")]),
    ("Go to the bed, and go by way of the kitchen to get there.",
     [("pass", "kitchen"), ("goal", "bed")]),
    ("Go to the sofa, but go through the bathroom to get there.",
     [("pass", "bathroom"), ("goal", "sofa")]),
    ("Go to the kitchen counter, and on the way, stop at the dog bed.",
     [("goal", "dog_bed"), ("goal", "counter_top")]),
    ("Go to the sofa. On the way, stop at the fridge.", [("goal", "fridge"), ("goal", "sofa")]),
    ("Go to the bed, and on the way there, visit the toilet.",
     [("goal", "toilet"), ("goal", "bed")]),
    ("Head to the toilet, and along your way, pass through the kitchen.",
     [("pass", "kitchen"), ("goal", "toilet")]),
    ("Go to the desk. Pass through the bathroom on the way.",
     [("pass", "bathroom"), ("goal", "desk")]),
])
def test_c_a_stop_on_the_way_comes_before_its_goal(text, route):
    assert _route(text) == route
    assert not _unread(text)


def test_c_the_count_said_with_the_is_kept():
    ref = parse_instruction("Go to the room with the two beds.").clauses[0].refs[0]
    assert [(m.kind, m.count, m.refs[0].head) for m in ref.modifiers] == [("with", 2, "bed")]


# --- (d) "while you're in there": the room named before --------------------------------------
@pytest.mark.parametrize(("text", "scoped"), [
    ("Head to the TV in the kitchen, but stay away from the table while you're in there.",
     ("far", "table", "in:kitchen")),
    ("Go to the bed in the bedroom and keep away from the desk while you are in there.",
     ("far", "desk", "in:bedroom")),
    ("Go to the kitchen and avoid the fridge while in there.", ("avoid", "fridge", "in:kitchen")),
    ("Walk to the sink in the bathroom, but stay clear of the toilet when you're in there.",
     ("far", "toilet", "in:bathroom")),
])
def test_d_in_there_is_the_room_named_before(text, scoped):
    assert _scopes(text) == [scoped]
    assert not _unread(text)


# --- (e) "until you're in (that) X", "when you get to X, keep away from Y" ------------------
@pytest.mark.parametrize(("text", "scoped"), [
    ("Go over to the desk lamp in the room with two beds, and stay well away from the "
     "armchairs until you're in that bedroom.", ("far", "arm_chair", "until:bedroom")),
    ("Go to the bed and stay away from the sofa until you are in the bedroom.",
     ("far", "sofa", "until:bedroom")),
    ("Go to the fridge, keeping away from the TV until you enter the kitchen.",
     ("far", "television", "until:kitchen")),
    ("Walk to the toilet and avoid the chairs till you are in the bathroom.",
     ("avoid", "chair", "until:bathroom")),
    ("When you get to the bathroom, keep away from the toilet. I need you at the sink.",
     ("far", "toilet", "in:bathroom")),
    ("Once you reach the kitchen, stay away from the fridge. Go to the sink.",
     ("far", "fridge", "in:kitchen")),
    ("When you get to the living room, avoid the TV. Then go to the sofa.",
     ("avoid", "television", "in:living_room")),
    ("As soon as you get to the kitchen, avoid the fridge. Then go to the sink.",
     ("avoid", "fridge", "in:kitchen")),
])
def test_e_room_scopes_said_by_arriving(text, scoped):
    assert _scopes(text) == [scoped]
    assert ("goal", scoped[2].split(":")[1]) not in _route(text)
    assert not _unread(text)


# --- (f) wishes and pseudo-clefts are requests ------------------------------------------------
@pytest.mark.parametrize(("text", "goals"), [
    ("I need you at the sink.", ["sink"]),
    ("Go to the kitchen. I need you by the fridge.", ["kitchen", "fridge"]),
    ("I want you next to the bed.", ["bed"]),
    ("What I need is for you to go to the fridge.", ["fridge"]),
    ("What I want is for you to walk to the bed.", ["bed"]),
    ("Okay so um, I think my phone's on the desk, but don't worry about that. What I need is "
     "for you to go to the kitchen counter, and on the way, stop at the dog bed, okay?",
     ["dog_bed", "counter_top"]),
])
def test_f_wishes_are_requests(text, goals):
    assert [h for k, h in _route(text) if k == "goal"] == goals
    assert not _unread(text)


def test_f_the_aside_keeps_its_things():
    p = parse_instruction("Okay so um, I think my phone's on the desk, but don't worry about "
                          "that. What I need is for you to go to the kitchen counter.")
    assert {r.head for r in p.context_refs} == {"cell_phone", "desk"}


# --- (g) "around" after a thing, "tucked into the corner of": where it stands ---------------
@pytest.mark.parametrize(("text", "head", "mod"), [
    ("Go stand by one of the chairs around the kitchen table.", "chair",
     ("next_to", "dining_table")),
    ("Go to one of the chairs around the dining table.", "chair", ("next_to", "dining_table")),
    ("Walk to the chairs around the table in the bedroom.", "chair", ("next_to", "table")),
    ("Go to any of the stools around the counter.", "stool", ("next_to", "counter_top")),
    ("Go to the chair that's tucked into the corner of the bedroom.", "chair",
     ("in_corner", "bedroom")),
    ("Go to the plant that is pushed into the corner of the kitchen.", "house_plant",
     ("in_corner", "kitchen")),
    ("Walk to the chair sitting in the corner of the living room.", "chair",
     ("in_corner", "living_room")),
])
def test_g_where_a_thing_stands(text, head, mod):
    (stage,) = parse_instruction(text).clauses
    ref = stage.refs[0]
    assert (stage.kind, ref.head) == ("goal", head)
    assert (ref.modifiers[0].kind, ref.modifiers[0].refs[0].head) == mod
    assert not _unread(text)


# --- (h) gerund returns, closing "though", "sticking close to" -------------------------------
@pytest.mark.parametrize(("text", "route"), [
    ("Would you mind going to the tennis racket in the bedroom that has two beds, and then "
     "coming back to me?", [("goal", "tennis_racket"), ("goal", "start")]),
    ("Go to the fridge and then coming back here.", [("goal", "fridge"), ("goal", "start")]),
    ("Head over to the sofa, then coming back.", [("goal", "sofa"), ("goal", "start")]),
    ("Go to the toilet, and get back to me.", [("goal", "toilet"), ("goal", "start")]),
    ("Go to a trash can. Keep out of the bathrooms though.",
     [("goal", "garbage_can"), ("avoid", "bathroom")]),
    ("Go to the sofa. Stay away from the TV, though.", [("goal", "sofa"), ("far", "television")]),
    ("Walk to the bed. Avoid the kitchen tho.", [("goal", "bed"), ("avoid", "kitchen")]),
    ("Go to the dresser in the living room, sticking close to the sofa on the way.",
     [("goal", "dresser"), ("near", "sofa")]),
    ("Go to the bed, sticking close to the wall.", [("goal", "bed"), ("near", "wall")]),
    ("Walk to the fridge, sticking near the counter.", [("goal", "fridge"), ("near", "counter_top")]),
])
def test_h_returns_closings_and_gerunds(text, route):
    assert _route(text) == route
    assert not _unread(text)


# --- (i) group words cover the category a set expects -----------------------------------------
def test_i_lamp_and_table_stay_group_words_covering_their_members():
    ref = parse_instruction("I'm on the couch in the living room. Could you go to the lamp "
                            "beside the armchair in the bedroom?").clauses[0].refs[0]
    assert (ref.head, ref.head_kind) == ("lamp", "group")
    assert _covers("lamp", "floorlamp") and _covers("lamp", "desklamp")
    assert _covers("table", "diningtable") and not _covers("lamp", "diningtable")
    assert _covers("sofa", "sofa") and not _covers("sofa", "armchair")
