"""The discourse breadth table (``breadth_discourse.json``, helper Z2): multi-sentence
instructions, scene-setting sentences about people and pets, scope clauses opened by leaving
or passing a place, legs named "the last bit" / "that part" / "both", "do the same" said of
another thing or room, "once there," openers and a carrying request's way back to the speaker
(:mod:`~map2route.language.parser.discourse_refs`,
:mod:`~map2route.language.parser.animate_scenes`,
:mod:`~map2route.language.parser.speaker_place`). The table was written before the parser was
read; its first contact was 67/147 (77 once its notation was aligned with the scorer's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import _resolve_pronouns, _scope_heads, score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


def _route(text: str) -> list[tuple[str, ...]]:
    """(kind, head) of the stages, then (kind, head, first scope) of the constraints."""
    js = _resolve_pronouns(parse_instruction(text).to_json())
    out: list[tuple[str, ...]] = [(s["kind"], s["refs"][0]["head"]) for s in js["stages"]]
    for c in js["constraints"]:
        scopes = _scope_heads(c, js["stages"], strict=True)
        out.append((c["kind"], c["refs"][0]["head"], scopes[0] if scopes else ""))
    return out


@pytest.mark.parametrize(("name", "floor"), [("breadth_discourse", 125), ("breadth_discourse_b", 36)])
def test_table_floor_no_silent_drops_and_named_refusals(name, floor):
    scores = score_set(DATA / f"{name}.json")
    got = summary(scores)
    assert got["right"] >= floor, got
    assert got["silent_drops"] == 0, [s.problems for s in scores if s.silent_drop]
    assert all(s.refusal_span for s in scores if s.refused), \
        [s.item_id for s in scores if s.refused and not s.refusal_span]


# --- "do the same" for another thing or in another room ------------------------------------
@pytest.mark.parametrize(("text", "want"), [
    ("Go to the bed. Then do the same with the dresser.",
     [("goal", "bed"), ("goal", "dresser")]),
    ("Circle the dining table. Then do that again around the sofa.",
     [("circle", "dining_table"), ("circle", "sofa")]),
    ("Go around the bed in the bedroom. Do the same in the other bedroom.",
     [("circle", "bed"), ("circle", "bed")]),
    ("Go to the garbage can. Do the same for the one in the bathroom.",
     [("goal", "garbage_can"), ("goal", "garbage_can")]),
    ("Go to the bed. Then the same thing for the desk.", [("goal", "bed"), ("goal", "desk")]),
])
def test_do_the_same_repeats_the_step_said_last(text, want):
    assert _route(text) == want


def test_do_the_same_in_a_room_moves_the_old_thing_there():
    p = parse_instruction("Go to the sink in the kitchen. Then do the same in the bathroom.")
    rooms = [m.refs[0].head for c in p.clauses for m in c.refs[0].modifiers
             if m.kind == "in_room"]
    assert rooms == ["kitchen", "bathroom"]


# --- legs named by their place, by "that", by "both" ----------------------------------------
@pytest.mark.parametrize(("text", "want"), [
    ("Head to the television, then the desk. For the last bit, stay close to the wall.",
     [("goal", "television"), ("goal", "desk"), ("near", "wall", "until:desk")]),
    ("Go to the sofa. Then go to the bed. Avoid the kitchen for that part.",
     [("goal", "sofa"), ("goal", "bed"), ("avoid", "kitchen", "until:bed")]),
    ("Go to the sink, then the toilet. Avoid the bedroom on both.",
     [("goal", "sink"), ("goal", "toilet"), ("avoid", "bedroom", "")]),
    ("First go to the bathroom. Second, go to the bed. Stay out of the kitchen during the "
     "second one.", [("goal", "bathroom"), ("goal", "bed"), ("avoid", "kitchen", "until:bed")]),
])
def test_legs_named_by_discourse_words(text, want):
    assert _route(text) == want


def test_in_the_second_one_is_still_a_thing_not_a_leg():
    with pytest.raises(ParseError):
        parse_instruction("Go to the dog bed in the second one.")


# --- people and pets set the scene --------------------------------------------------------
@pytest.mark.parametrize(("text", "want"), [
    ("Grandma is napping in the bedroom. Head to the kitchen sink.",
     [("goal", "sink"), ("mention", "bedroom", "")]),
    ("We have guests in the living room. Avoid it. Go to the bedroom.",
     [("goal", "bedroom"), ("mention", "living_room", ""), ("avoid", "living_room", "")]),
    ("The dog is sleeping on his bed. Go to the television.",
     [("goal", "television"), ("mention", "dog_bed", "")]),
    ("Stay out of the bathroom, someone's in there. Go to the bed.",
     [("goal", "bed"), ("avoid", "bathroom", "")]),
])
def test_people_and_pets_are_scene_never_stops(text, want):
    p = parse_instruction(text)
    assert _route(text) == want
    assert p.context  # the sentence is reported, not dropped


def test_a_pet_said_last_is_still_refused_naming_it():
    with pytest.raises(ParseError) as err:
        parse_instruction("Go to the fridge. The cat is sleeping on the bed.")
    assert err.value.word == "cat"


# --- a carrying request goes back to the speaker, at the place they said ----------------
@pytest.mark.parametrize(("text", "want"), [
    ("I'm on the couch. Can you bring me the remote?",
     [("goal", "remote_control"), ("goal", "sofa")]),
    ("ok so I'm at the dining table. bring the salt shaker over here",
     [("goal", "salt_shaker"), ("goal", "dining_table")]),
    ("I'm in the bathroom. Bring the soap bottle from the kitchen here.",
     [("goal", "soap_bottle"), ("goal", "bathroom")]),
    ("I'm in the kitchen next to the toaster. Take me to the armchair.",
     [("goal", "arm_chair")]),
    ("Bring me the remote.", [("goal", "remote_control")]),
])
def test_bring_me_returns_to_the_speaker(text, want):
    assert _route(text) == want


# --- scopes opened by leaving or passing; "once there," -------------------------------------
@pytest.mark.parametrize(("text", "want"), [
    ("Once you're out of the bedroom, avoid the sofa. Then go to the television.",
     [("goal", "television"), ("avoid", "sofa", "after:bedroom")]),
    ("Go to the sofa. After you pass the television, avoid the window.",
     [("goal", "sofa"), ("avoid", "window", "after:television")]),
    ("Go to the sofa. Once there, go to the television next.",
     [("goal", "sofa"), ("goal", "television")]),
    ("Go to the sofa. While you're there, circle the dining table.",
     [("goal", "sofa"), ("circle", "dining_table")]),
])
def test_scopes_and_openers_said_by_moving(text, want):
    assert _route(text) == want


# --- from the second batch (generalisation check) -------------------------------------------
@pytest.mark.parametrize(("text", "want"), [
    ("Circle the bed in the bedroom, then do the same in the living room with the sofa.",
     [("circle", "bed"), ("circle", "sofa")]),
    ("My sister is on the phone in the living room, so avoid it. Head to the bathroom.",
     [("goal", "bathroom"), ("mention", "living_room", ""), ("avoid", "living_room", "")]),
    ("Keep away from the dining table since the chairs are out, then go to the sofa.",
     [("goal", "sofa"), ("far", "dining_table", "")]),
])
def test_second_batch_constructions(text, want):
    p = parse_instruction(text)
    assert _route(text) == want
    assert not p.unknown_words


# --- a state of a thing said before the request ---------------------------------------------
@pytest.mark.parametrize(("text", "want"), [
    ("The washing machine just finished. Go to it.",
     [("goal", "washing_machine"), ("mention", "washing_machine", "")]),
    ("The bathroom is occupied. Go to the bed.", [("goal", "bed"), ("mention", "bathroom", "")]),
    ("There's a spill by the sink. Keep away from the sink and go to the fridge.",
     [("goal", "fridge"), ("mention", "sink", ""), ("far", "sink", "")]),
])
def test_a_state_of_a_thing_is_a_mention(text, want):
    p = parse_instruction(text)
    assert _route(text) == want
    assert p.context


def test_a_statement_that_picks_one_is_not_a_state():
    with pytest.raises(ParseError):
        parse_instruction("The sofa is the blue one. Go to it.")
