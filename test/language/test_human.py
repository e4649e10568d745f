"""Human phrasings (issue 19): the fresh human-style sets, no silent drops, named refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import score_refs, score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"
REAL_REFS = Path(__file__).parents[2] / ".." / "shared" / "data" / "map2route" / "real_refs_easy.json"


def _mods(text: str) -> list[tuple[str, bool]]:
    """(kind, negated) of the modifiers of the first stage's target."""
    ref = parse_instruction(text).clauses[0].refs[0]
    return [(m.kind, m.negated) for m in ref.modifiers]


@pytest.mark.parametrize(("name", "at_least"), [("fresh_human_a.json", 75.0),
                                                ("fresh_human_b.json", 95.0),
                                                ("fresh_human_c.json", 90.0),
                                                ("fresh_human_d.json", 100.0),
                                                ("fresh_human_e.json", 100.0),
                                                ("fresh_human_f.json", 100.0),
                                                ("fresh_human_g.json", 100.0),
                                                ("fresh_human_h.json", 100.0),
                                                ("fresh_human_i.json", 100.0),
                                                ("fresh_human_r.json", 81.0),
                                                ("fresh_human_s.json", 86.0),
                                                ("fresh_human_t.json", 68.0),
                                                ("fresh_human_u.json", 68.0),
                                                # stop 35: first contact, no round yet
                                                ("fresh_human_ab.json", 4.0),
                                                ("fresh_human_ac.json", 45.0)])
def test_fresh_sets_no_silent_drops(name, at_least):
    scores = score_set(DATA / name)
    s = summary(scores)
    assert s["silent_drops"] == 0, [x for x in scores if x.silent_drop]
    assert s["right_pct"] >= at_least, [(x.item_id, x.problems) for x in scores if not x.right]
    # every refusal names the words it could not read
    assert all(x.refusal_span for x in scores if x.refused)


@pytest.mark.parametrize(("name", "floor"), [
    # after each set's round, with the round's class table (paraphrases written before the fix)
    ("fresh_human_v.json", 19), ("fresh_human_w.json", 20), ("breadth_vw_classes.json", 90),
    ("fresh_human_x.json", 14), ("fresh_human_y.json", 15), ("breadth_xy_classes.json", 29),
    ("fresh_human_z.json", 15), ("fresh_human_aa.json", 10), ("breadth_zaa_classes.json", 43),
    # sealed until scored, first contact on main 127732c after the stop-36 class round
    # (9, 7, 5, 12 with one silent drop, mended in bcb58b0); now after stop 37's G round
    ("fresh_human_ad.json", 19), ("fresh_human_ae.json", 14), ("fresh_human_af.json", 17),
    ("fresh_human_ag.json", 22),
    # sealed until scored, first contact on main 601b0d6 after stop 37's G round (8, 3, 1, 4
    # with one silent drop, AK10, mended with AK's three repeated stops); now after stop 38's
    # I round and wrong-parse mends, stop 39's J round and stop 40's K round
    ("fresh_human_ah.json", 18), ("fresh_human_ai.json", 14), ("fresh_human_aj.json", 16),
    ("fresh_human_ak.json", 17),
    # stop 37's G-round class tables (first contact -> after, in docs/grounding.md)
    ("breadth_question_picks.json", 40), ("breadth_geometry_targets.json", 41),
    ("breadth_anaphoric_scopes.json", 43), ("breadth_rule_wording.json", 46),
    ("breadth_errands_reach.json", 41), ("breadth_repairs_back.json", 42),
    # stop 36's class tables (first contact -> after, in docs/grounding.md) and the F round's
    ("breadth_setup_picks.json", 40), ("breadth_talk_around.json", 44),
    ("breadth_corrections.json", 43), ("breadth_legs.json", 46), ("breadth_wrong_parses.json", 45),
    ("breadth_adae_classes.json", 14), ("breadth_afag_classes.json", 29)])
def test_round_sets_floor_and_no_silent_drops(name: str, floor: int) -> None:
    scores = score_set(DATA / name)
    s = summary(scores)
    assert s["silent_drops"] == 0, [x.item_id for x in scores if x.silent_drop]
    assert s["right"] >= floor, [(x.item_id, x.problems) for x in scores if not x.right]
    # every refusal names the words it could not read
    assert all(x.refusal_span for x in scores if x.refused and not x.right)


def test_scene_setting_sentence_is_context_not_a_stage():
    p = parse_instruction("You are standing next to a bed. Go to the fridge.")
    assert [c.refs[0].head for c in p.clauses] == ["fridge"]
    assert p.context == ["you are standing next to a bed"]


def test_scope_opened_by_leaving_a_room():
    p = parse_instruction("Go to the sofa. As you leave the bedroom, stay close to the dresser.")
    near = next(c for c in p.clauses if c.kind == "near")
    assert near.within is not None and near.within.head == "bedroom"
    assert [c.kind for c in p.clauses] == ["goal", "near"]


def test_numbered_list_is_stages_in_order():
    p = parse_instruction("Visit three places in order: 1. the fridge, 2. the sofa, 3. the toilet.")
    assert [(c.kind, c.refs[0].head) for c in p.clauses] == [
        ("goal", "fridge"), ("goal", "sofa"), ("goal", "toilet")]


def test_negated_relative_clauses():
    assert _mods("Go to the bedroom that does not have a desk.") == [("with", True)]
    assert _mods("Go to the bedroom that has neither a desk nor a lamp.") == [
        ("with", True), ("with", True)]
    assert _mods("Go to the plant that is not in a bedroom.") == [("in_room", True)]


def test_coordination_stays_on_one_head():
    p = parse_instruction("Go to the dining table with a laptop, a candle and a bowl on it.")
    assert len(p.clauses) == 1
    assert [m.refs[0].head for m in p.clauses[0].refs[0].modifiers] == ["laptop", "candle", "bowl"]
    p = parse_instruction("Go to the laptop in the same room as both the teddy bear and the desk.")
    room = p.clauses[0].refs[0].modifiers[0].refs[0]
    assert [m.refs[0].head for m in room.modifiers] == ["teddy_bear", "desk"]


def test_partitives():
    ref = parse_instruction("Go to the second of the two chairs closest to the fridge.").clauses[0].refs[0]
    rank = ref.modifiers[0]
    assert (ref.head, rank.kind, rank.k, rank.refs[0].head) == ("chair", "rank", 2, "fridge")
    ref = parse_instruction("Walk to the larger of the two bathrooms.").clauses[0].refs[0]
    assert ref.head == "bathroom" and ref.modifiers[0].rank == "largest"


def test_between_avoidance_is_an_area():
    p = parse_instruction("Go to the fridge, but don't pass between the table and the sofa.")
    avoid = next(c for c in p.clauses if c.kind == "avoid")
    gap = avoid.refs[0]
    assert (gap.head, gap.head_kind) == ("between", "area")
    assert [r.head for r in gap.modifiers[0].refs] == ["table", "sofa"]


def test_geometry_targets():
    ref = parse_instruction("Go to the midpoint between the fridge and the sink.").clauses[0].refs[0]
    assert (ref.head, ref.head_kind) == ("midpoint", "point")
    ref = parse_instruction("Walk to the corner of the kitchen farthest from the fridge.").clauses[0].refs[0]
    assert (ref.head, [m.kind for m in ref.modifiers]) == ("corner", ["in_room", "rank"])


def test_doorway_is_its_own_category():
    ref = parse_instruction("Go to the doorway of the kitchen.").clauses[0].refs[0]
    assert ref.head == "doorway"


def _route_rank(ref):
    return next(((m.rank, m.k, [r.head for r in m.refs]) for m in ref.modifiers
                 if m.kind == "rank"), None)


@pytest.mark.parametrize(("text", "head", "rank"), [
    ("Go into the first bedroom you enter.", "bedroom", ("route", 1, [])),
    ("Go to the second bedroom you pass through along the way.", "bedroom", ("route", 2, [])),
    ("Go to the next living room.", "living_room", ("route", 1, [])),
    ("Go to the third room along the route.", "room", ("route", 3, [])),
    ("Go to the first sink.", "sink", ("route", 1, [])),
    ("Go to the bedroom you enter first.", "bedroom", ("route", 1, [])),
    # an ordinal the parser reads as a ranking itself is left alone
    ("Go to the second closest chair to the fridge.", "chair", ("nearest", 2, ["fridge"])),
    ("Go to the second dog bed in order of distance.", "dog_bed", ("nearest", 2, [])),
])
def test_route_order_references(text, head, rank):
    ref = parse_instruction(text).clauses[0].refs[0]
    assert (ref.head, _route_rank(ref)) == (head, rank)


def test_a_stop_at_something_passed_is_on_the_way_to_the_goal():
    p = parse_instruction("Walk to the sofa and stop at the plant you pass on the way.")
    assert [c.refs[0].head for c in p.clauses] == ["house_plant"]
    assert _route_rank(p.clauses[0].refs[0]) == ("route", 1, ["sofa"])
    p = parse_instruction("Go into the first bedroom you enter and stop by the bed.")
    bed = p.clauses[0].refs[0]
    assert bed.head == "bed" and _route_rank(bed.modifiers[0].refs[0]) == ("route", 1, [])
    # "next to" is a relation, not "the next one"
    p = parse_instruction("Go to the toilet in the bathroom next to the kitchen.")
    assert [c.refs[0].head for c in p.clauses] == ["toilet"]


def test_the_room_just_before_is_next_to_it_and_reached_first():
    p = parse_instruction("Go to the toilet. When you are in the room just before the bathroom, "
                          "stay away from the chairs.")
    far = p.clauses[1]
    assert (far.kind, far.refs[0].head, far.within.head) == ("far", "chair", "room")
    assert [m.kind for m in far.within.modifiers] == ["rank", "adjacent"]
    assert far.within.modifiers[0].rank == "before"


def test_counted_sets_are_stages_each_different():
    p = parse_instruction("Pass through three different bedrooms.")
    assert [(c.kind, c.refs[0].head) for c in p.clauses] == [("pass", "bedroom")] * 3
    for c in p.clauses:
        assert [m.kind for m in c.refs[0].modifiers] == ["rank", "different"]
    p = parse_instruction("Go to the sofa, then go to a room you have not visited yet.")
    assert [m.kind for m in p.clauses[1].refs[0].modifiers] == ["different"]


def test_another_and_the_destination():
    ref = parse_instruction("Go to the sofa, then go to another bedroom.").clauses[1].refs[0]
    assert (ref.head, [m.kind for m in ref.modifiers]) == ("bedroom", ["other"])
    p = parse_instruction("Go to the sofa, then go to the dining table in the target room.")
    room = p.clauses[1].refs[0].modifiers[0].refs[0]
    assert (room.head, [m.kind for m in room.modifiers]) == ("room", ["target"])
    p = parse_instruction("Go to the sofa. Avoid the chair nearest to the final destination.")
    anchor = p.clauses[1].refs[0].modifiers[0].refs[0]
    assert (anchor.head, anchor.head_kind) == ("target", "target")
    # "your final destination is X" says which; it is no reference to the destination
    p = parse_instruction("Go to the sofa. Your final destination is the dresser.")
    assert [c.refs[0].head for c in p.clauses if c.kind == "goal"] == ["sofa", "dresser"]


def test_negated_relations_and_coordination_after_contains():
    assert _mods("Go to the chair that is not under a table.") == [("next_to", True)]
    assert _mods("Go to the chair that is not near the bed.") == [("near", True)]
    assert _mods("Go to the plant that is not on a table.") == [("on", True)]
    p = parse_instruction("Go to the bedroom that contains both a baseball bat and a TV stand.")
    assert len(p.clauses) == 1
    ref = p.clauses[0].refs[0]
    assert (ref.head, [m.refs[0].head for m in ref.modifiers]) == (
        "bedroom", ["baseball_bat", "tv_stand"])


def test_encounter_is_not_counter():
    ref = parse_instruction("Go to the first box you encounter.").clauses[0].refs[0]
    assert ref.head == "box" and _route_rank(ref) == ("route", 1, [])


@pytest.mark.parametrize(("text", "span"), [
    ("Go to the bed that is separated from the dresser by a wall.", "separated"),
    ("Go to the room just after the kitchen.", "the room just after the kitchen"),
    ("Go to the last bedroom you pass through.", "last"),
    # a stage only if something is met: not read as an unconditional stage
    ("Go to the counter top. If you encounter a stool, walk around it.", "encounter"),
])
def test_refusals_name_the_span(text, span):
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert span in err.value.word
    assert err.value.span is not None
    a, b = err.value.span
    assert span.split()[0] in text[a:b].lower()


def test_asides_are_reported_not_dropped():
    p = parse_instruction("Go to the counter, and avoid the sofa because she is napping on it.")
    assert p.context == ["because she is napping on it"]


@pytest.mark.skipif(not REAL_REFS.is_file(), reason="real_refs_easy.json is not in ../shared")
def test_real_referring_expressions_are_read_or_refused():
    out = score_refs(REAL_REFS)
    answered = out["expressions"] - out["refused"]
    # measured 2026-12-04: 2,066 of 2,087 answered heads right, 491 refused, 4 drops;
    # 2026-12-07 (stop 39): 2,342 of 2,357 answered right, 221 refused, 0 drops
    assert out["silent_drops"] == 0
    assert out["head_right"] >= 2_340
    assert out["head_right"] / answered >= 0.97


@pytest.mark.parametrize(("text", "head", "ordered"), [
    ("Visit the two garbage cans in order from farthest to nearest.", "garbage_can",
     ("farthest", 2)),
    ("Visit every chair from nearest to farthest.", "chair", ("nearest", None)),
    ("Go to all the bathrooms in order of their distance from you.", "bathroom",
     ("nearest", None)),
    ("Go to the two living rooms.", "living_room", ("nearest", 2)),
])
def test_ordered_visits_of_a_set(text, head, ordered):
    p = parse_instruction(text)
    assert len(p.clauses) == 1
    ref = p.clauses[0].refs[0]
    assert (ref.head, ref.plural) == (head, True)
    assert [(m.kind, m.rank, m.count) for m in ref.modifiers] == [("ordered", *ordered)]


@pytest.mark.parametrize("text", [
    "Go to the bedroom connected to the kitchen through a door.",
    "Go to the bedroom that is directly connected by a doorway to the kitchen.",
    "Go to the bedroom that borders the kitchen.",
    "Go to the bedroom that leads to the kitchen.",
])
def test_rooms_joined_by_a_door(text):
    ref = parse_instruction(text).clauses[0].refs[0]
    assert (ref.head, [(m.kind, m.refs[0].head) for m in ref.modifiers]) == (
        "bedroom", [("adjacent", "kitchen")])


def test_rooms_by_where_the_route_is():
    ref = parse_instruction("Go to the current bathroom.").clauses[0].refs[0]
    assert (ref.head, [m.kind for m in ref.modifiers]) == ("bathroom", ["start_room"])
    ref = parse_instruction("Go to the adjacent bedroom.").clauses[0].refs[0]
    assert (ref.head, [(m.kind, m.refs[0].head_kind) for m in ref.modifiers]) == (
        "bedroom", [("next_to", "pronoun")])


def test_a_condition_on_meeting_something_names_it_for_the_it_after():
    p = parse_instruction("Go to the garbage bag, and if you encounter the counter top on the "
                          "way, keep your distance from it.")
    assert [(c.kind, c.refs[0].head) for c in p.clauses] == [
        ("goal", "garbage_bag"), ("mention", "counter_top"), ("far", "it")]


def test_a_count_inside_a_relation_stays_a_count():
    ref = parse_instruction("Go to the bedroom with two windows.").clauses[0].refs[0]
    assert [(m.kind, m.count) for m in ref.modifiers] == [("with", 2)]
    ref = parse_instruction("Go to the room with a sofa and two beds.").clauses[0].refs[0]
    assert ref.head == "room" and [m.count for m in ref.modifiers] == [None, 2]


def test_superlatives_said_as_distances():
    ref = parse_instruction("Go to the TV with the shortest straight-line distance to the "
                            "sink.").clauses[0].refs[0]
    assert (ref.head, [(m.rank, m.refs[0].head) for m in ref.modifiers]) == (
        "television", [("nearest", "sink")])
    ref = parse_instruction("Go to the bed with the longest distance from the sofa.").clauses[0].refs[0]
    assert [(m.rank, m.refs[0].head) for m in ref.modifiers] == [("farthest", "sofa")]


@pytest.mark.parametrize("text", ["Go to a bed with nothing on it.",
                                  "Go to the bed that has nothing on it.",
                                  "Go to the bed with nothing on top of it."])
def test_nothing_on_it(text):
    p = parse_instruction(text)
    assert [(c.refs[0].head, [m.kind for m in c.refs[0].modifiers]) for c in p.clauses] == [
        ("bed", ["empty"])]


def test_the_first_two_met_are_two_stages():
    p = parse_instruction("Go to the first two dining tables you encounter along the way.")
    assert [(c.refs[0].head, [m.kind for m in c.refs[0].modifiers]) for c in p.clauses] == [
        ("dining_table", ["rank", "different"])] * 2


def _stages(text: str) -> list[tuple[str, str]]:
    return [(c.kind, c.refs[0].head) for c in parse_instruction(text).clauses
            if c.kind in ("goal", "pass")]


@pytest.mark.parametrize("text", [
    "Go to the sofa. Keep clear of the dining tables while you go through the living room.",
    "Go to the sofa. As you pass through the living room, keep clear of the dining tables.",
    "Go to the sofa. Keep clear of the dining tables when you walk across the living room.",
    "Go to the sofa. Whenever you are crossing the living room, keep clear of the dining tables.",
])
def test_moving_through_a_room_is_a_spatial_scope(text):
    p = parse_instruction(text)
    assert _stages(text) == [("goal", "sofa")]
    (far,) = [c for c in p.clauses if c.kind == "far"]
    assert far.refs[0].head == "dining_table" and far.within is not None
    assert far.within.head == "living_room"


@pytest.mark.parametrize(("text", "heads"), [
    ("Three stops, please: first the toaster, second the sink, and last the bed.",
     ["toaster", "sink", "bed"]),
    ("Two stops: first the fridge, then the sofa.", ["fridge", "sofa"]),
    ("Four places to visit: first the sink, second the bed, third the desk, and finally the "
     "toilet.", ["sink", "bed", "desk", "toilet"]),
    ("Go to the bed. Two stops after that: first the fridge, next the sofa.",
     ["bed", "fridge", "sofa"]),
])
def test_announced_list_with_ordinals_is_stages_in_order(text, heads):
    assert _stages(text) == [("goal", h) for h in heads]


@pytest.mark.parametrize(("text", "head"), [
    ("Go stand halfway between the toilet and the sink.", "midpoint"),
    ("Come sit on the sofa in the living room.", "sofa"),
    ("Go wait by the fridge.", "fridge"),
    ("Go stand next to the toilet.", "toilet"),
])
def test_serial_verbs_are_one_stage(text, head):
    p = parse_instruction(text)
    assert len(p.clauses) == 1 and p.clauses[0].kind == "goal"
    assert p.to_json()["stages"][0]["refs"][0]["head"] == head


@pytest.mark.parametrize("text", [
    "Go to the bedroom with a basketball, a baseball bat and a vase.",
    "Go to the bedroom with a vase, a basketball and a laptop.",
    "Go to the table with a laptop and a basketball on it.",
])
def test_coordination_after_with_keeps_one_head_with_run_together_heads(text):
    p = parse_instruction(text)
    assert len(p.clauses) == 1
    heads = {m.refs[0].head for m in p.clauses[0].refs[0].modifiers}
    assert "basket_ball" in heads and len(heads) == text.count(",") + 2


@pytest.mark.parametrize("text", [
    "Go to the plunger. Until you reach the bathroom, stay far from the beds.",
    "Go to the plunger. Stay far from the beds until you get to the bathroom.",
    "Walk to the plunger by the hamper. Before you reach the bathroom, avoid the beds.",
    "Walk to the plunger, and until you reach the bathroom, avoid the beds.",
    "Go to the plunger and until you get to the bathroom stay far from the beds.",
])
def test_until_you_reach_a_place_adds_no_stage(text):
    p = parse_instruction(text)
    assert _stages(text) == [("goal", "plunger")]
    con = next(c for c in p.clauses if c.kind not in ("goal", "pass"))
    assert con.during is not None and con.during["until"].head == "bathroom"


def test_until_you_reach_opening_the_route_is_its_first_stage():
    # nothing named before it: the place is where the route goes first
    assert _stages("Stay close to the counter until you reach the fridge, then go to the "
                   "TV.") == [("goal", "fridge"), ("goal", "television")]


def test_until_a_place_with_no_stage_holds_on_the_leg_it_is_said_on():
    from map2route.grounding.writer import write_program
    prog = write_program(parse_instruction(
        "Go to the fridge, then the plunger. Until you reach the bathroom, avoid the beds."))
    line = next(x for x in prog.splitlines() if "constraint('avoid'" in x)
    assert "during=leg" in line
    legs = [x.split(" = ")[0] for x in prog.splitlines() if " = segment(" in x]
    assert f"during={legs[-1]}" in line


def test_scorer_reads_on_the_way_there_as_the_leg_of_the_stage_before():
    from map2route.language.fresh import score_item
    item = {"id": "x", "instruction": "Go to the statue, and on the way there avoid the sofa.",
            "stages": [["goal", "statue"]],
            "constraints": [{"kind": "avoid", "head": "sofa", "scope": "until:statue"}],
            "refs": ["statue", "sofa"]}
    assert score_item(item, parse_instruction(item["instruction"])).right
    item["constraints"][0]["scope"] = "until:bed"
    assert not score_item(item, parse_instruction(item["instruction"])).right
    item2 = dict(item, instruction="Go to the bed. Go to the statue, and on the way there "
                                   "avoid the sofa.", stages=[["goal", "bed"], ["goal", "statue"]])
    item2["constraints"] = [{"kind": "avoid", "head": "sofa", "scope": "until:statue"}]
    assert score_item(item2, parse_instruction(item2["instruction"])).right


def test_list_item_no_map_has_is_refused_by_name():
    # was a silent drop: the header clause with the absent piano went to context as chatter
    with pytest.raises(ParseError) as err:
        parse_instruction("Do these in order: the piano, then the dresser.")
    assert err.value.word == "piano"
    p = parse_instruction("Do these in order: the fridge, then the dresser.")
    assert [c.refs[0].head for c in p.clauses] == ["fridge", "dresser"]


def test_things_on_the_walls_are_a_description_not_a_wall_follow():
    # set AC03 at first contact: "the paintings on the walls" became a wall-follow stage
    from map2route.language.fresh import route_summary
    p = parse_instruction("Go check the loo in the tiny bathroom, the one with all the "
                          "paintings on the walls.")
    assert route_summary(p) == [("goal", "toilet")]
    p = parse_instruction("Walk along the walls of the kitchen.")
    assert route_summary(p) == [("follow_wall", "kitchen")]


def test_scorer_reads_room_around_one_object_as_far_of_it():
    """Gold ``clearance`` with a head is ``far`` of that head (the API's clearance takes no
    object); a route-wide ``clearance`` with no head is still only a clearance."""
    from map2route.language.fresh import score_item

    text = "Go to the sofa and give the tv a wide berth."
    item = {"id": "t", "instruction": text, "stages": [["goal", "sofa"]],
            "constraints": [{"head": "television", "kind": "clearance", "scope": None}],
            "refs": ["sofa", "television"]}
    assert score_item(item, parse_instruction(text)).right
    item["constraints"] = [{"head": "", "kind": "clearance", "scope": None}]
    assert not score_item(item, parse_instruction(text)).right


def test_scorer_reads_a_scope_on_a_group_word_as_on_its_member():
    """A leg scope ``until:`` a group word answers to the gold's member, as a stage's head does
    ("until you've got to the table" for ``until:dining_table``); strict scoring does not."""
    from map2route.language.fresh import score_item

    text = "Go to the table and after that the stool. Until you've got to the table, stay " \
           "well away from the fridge."
    item = {"id": "t", "instruction": text, "stages": [["goal", "dining_table"], ["goal", "stool"]],
            "constraints": [{"head": "fridge", "kind": "far", "scope": "until:dining_table"}],
            "refs": ["dining_table", "stool", "fridge"]}
    parse = parse_instruction(text)
    assert score_item(item, parse).right
    assert not score_item(item, parse, strict=True).right
    item["constraints"][0]["scope"] = "until:stool"
    assert not score_item(item, parse).right


@pytest.mark.parametrize("scope", ["global", "in:living_room", None])
def test_scorer_reads_a_between_rule_in_the_room_of_its_pair_either_way(scope):
    """"Don't pass between the sofa and the TV in the living room": the gap lies in that room,
    so a set's whole-route rule and one scoped to the room are the same rule (W08, AH08);
    another room, or a pair not both in the room, is not."""
    from map2route.language.fresh import score_item

    text = "Go to the bed. Don't pass between the sofa and the TV in the living room."
    item = {"id": "t", "instruction": text, "stages": [["goal", "bed"]],
            "constraints": [{"head": "sofa|television", "kind": "between_avoid",
                             "scope": scope}],
            "refs": ["bed", "sofa", "television", "living_room"]}
    assert score_item(item, parse_instruction(text)).right
    item["constraints"][0]["scope"] = "in:kitchen"
    assert not score_item(item, parse_instruction(text)).right
    text = "Go to the bed. Don't pass between the sofa in the kitchen and the TV in the living room."
    item["instruction"] = text
    item["refs"] = ["bed", "sofa", "television", "living_room", "kitchen"]
    item["constraints"][0]["scope"] = "in:living_room"
    assert not score_item(item, parse_instruction(text)).right


def test_scorer_gives_it_after_a_circle_the_circled_thing():
    """As the grounding writer does: "go round the sofa ... room between you and it" is the sofa."""
    from map2route.language.fresh import route_summary

    p = parse_instruction("Go once around the sofa and leave a bit of room between you and it as "
                          "you go round.")
    assert [c[:2] for c in route_summary(p)] == [("circle", "sofa"), ("far", "sofa")]


def test_read_route_refuses_a_parse_that_leaves_words_unread(monkeypatch):
    """The test helper every language test reads a route with: the route in brief, and a
    ValueError naming the words when a parse leaves content unread (a silent drop)."""
    from map2route.language import fresh

    assert fresh.read_route("Go to the sofa, then the fridge.") == [("goal", "sofa"),
                                                                     ("goal", "fridge")]
    with pytest.raises(ParseError):
        fresh.read_route("Go to the glorptang.")
    real = fresh.parse_instruction

    def dropping(text: str):
        parse = real(text)
        parse.unknown_words = ["elongated"]  # as a parse that skipped a describing word
        return parse

    monkeypatch.setattr(fresh, "parse_instruction", dropping)
    with pytest.raises(ValueError, match="elongated"):
        fresh.read_route("Go to the sofa.")


@pytest.mark.parametrize("text", [
    "Go to the bed. Once you have left the bathroom, stay near the sofa while you cross the "
    "living room.",
    "Go to the bed. Once you leave the bathroom, stay near the sofa.",
])
def test_once_you_have_left_a_room_is_a_scope_not_the_start(text):
    """Set AG19's silent drop at first contact: "once you have left the bathroom, stay ..." was
    read as "leave the bathroom, stay ...", the walk's start, and the scope after it was lost."""
    c = parse_instruction(text).to_json()["constraints"]
    assert [(x["kind"], x["refs"][0]["head"]) for x in c] == [("near", "sofa")]
    assert c[0]["temporal_scope"]["after"]["head"] == "bathroom"
    if "living room" in text:
        assert c[0]["spatial_scope"]["head"] == "living_room"


def test_leaving_a_room_and_going_on_is_still_the_start():
    assert "the kitchen" in parse_instruction("Leave the kitchen and go to the bed.").context


def test_a_stop_restated_is_one_stop_and_reported():
    """AA01 after the talk round: "like just go stand by the fridge" restates the stop."""
    p = parse_instruction("uhh can you go to the fridge? like just go stand by the fridge, "
                          "I'm starving.")
    assert [(c.kind, c.refs[0].head) for c in p.clauses] == [("goal", "fridge")]
    assert "restated: go stand by the fridge" in p.context


@pytest.mark.parametrize("text", ["Go to the fridge. Go to the fridge again.",
                                  "Go to the fridge, then the sofa, then the fridge."])
def test_a_second_visit_is_kept(text):
    heads = [c.refs[0].head for c in parse_instruction(text).clauses]
    assert heads.count("fridge") == 2


def test_a_sentence_set_apart_as_chatter_is_reported():
    """"The cat sleeps." names nothing on the map; it was dropped with nothing reported."""
    assert "the cat sleeps" in parse_instruction("Go to the sofa. The cat sleeps.").context


def test_the_same_stop_twice_without_a_restating_word_is_two_stops():
    heads = [c.refs[0].head for c in parse_instruction("Go to the sofa. Go to the sofa.").clauses]
    assert heads == ["sofa", "sofa"]
