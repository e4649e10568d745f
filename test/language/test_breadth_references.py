"""Reference frames (:mod:`map2route.language.parser.reference_frames`): how people pick one
thing or room. The breadth table ``breadth_references.json`` was written before the parser was
read (first contact: 161 of 198 right, 0 silent drops); the floor below is what the pass
reaches. The unit tests check each frame's reading by hand: the modifier it must give, and the
words it records as context instead of dropping."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.fresh import score_set, summary
from map2route.language.parser import parse_instruction
from map2route.language.parser.coverage import HARMLESS

DATA = Path(__file__).parent / "data"


def test_breadth_table_floor() -> None:
    s = summary(score_set(DATA / "breadth_references.json"))
    assert s["items"] == 198
    assert s["silent_drops"] == 0
    assert s["right"] >= 196


def _goal(text: str) -> tuple[str, list[tuple[str, bool, str | None, list[str]]], list[str]]:
    """The single goal's head, its modifiers (kind, negated, rank, heads of their refs) and
    the context the parse reports."""
    p = parse_instruction(text)
    assert not [w for w in p.unknown_words if w not in HARMLESS]
    goals = [c for c in p.clauses if c.kind == "goal"]
    assert len(goals) == 1
    ref = goals[0].refs[0]
    mods = [(m.kind, bool(m.negated), m.rank or None, [r.head for r in m.refs])
            for m in ref.modifiers]
    return ref.head, mods, [c.lower() for c in p.context]


@pytest.mark.parametrize(("text", "head", "rank", "to"), [
    ("Go to the bed that's nearer the door.", "bed", "nearest", "door"),
    ("Go to the stool which is more near the sink.", "stool", "nearest", "sink"),
    ("Go to chair most near to window.", "chair", "nearest", "window"),
    ("Go to the bed which is most far from the door.", "bed", "farthest", "door"),
    ("Go to the sofa that is closest from the window.", "sofa", "nearest", "window"),
    ("Navigate to the plant which is the closest one to the sofa.", "house_plant", "nearest",
     "sofa"),
    ("Stop at the chair that's nearest to where the laptop is.", "chair", "nearest", "laptop"),
])
def test_comparisons(text: str, head: str, rank: str, to: str) -> None:
    got, mods, _ = _goal(text)
    assert got == head
    assert ("rank", False, rank, [to]) in mods


@pytest.mark.parametrize(("text", "kind", "to"), [
    ("Go to the tennis racket leaning against the wall.", "next_to", "wall"),
    ("Go to the bin tucked under the desk.", "next_to", "desk"),
    ("Go to the teddy bear that's lying on the bed.", "on", "bed"),
    ("Go to the bowl sitting on top of the counter.", "on", "counter_top"),
    ("Go to the arm chair placed in the living room.", "in_room", "living_room"),
])
def test_posture_participles(text: str, kind: str, to: str) -> None:
    _, mods, _ = _goal(text)
    assert (kind, False, None, [to]) in mods


@pytest.mark.parametrize(("text", "kind", "to"), [
    ("Go to the plant, not the one by the window.", "near", "window"),
    ("Go to the sofa that is not the one by the window.", "near", "window"),
    ("go to the chair thats not next to the desk", "next_to", "desk"),
    ("Go to the bedroom that hasn't got a desk.", "with", "desk"),
    ("Find the bedroom that hasn't a desk.", "with", "desk"),
])
def test_negated_relatives(text: str, kind: str, to: str) -> None:
    _, mods, _ = _goal(text)
    assert (kind, True, None, [to]) in mods


def test_exclusion_after_a_described_head_is_a_confirmation() -> None:
    # "not the one by the bed" could be said of the chair or of the desk: no exclusion is
    # guessed; the description before it picks the thing, so it is reported as context
    # (round E3, .retractions: "the one between the two bedrooms not the one near the door")
    p = parse_instruction("Go to the chair by the desk, not the one by the bed.")
    assert [(c.kind, c.refs[0].head) for c in p.clauses] == [("goal", "chair")]
    assert not any(m.negated for m in p.clauses[0].refs[0].modifiers)
    assert "not the one by the bed" in p.context
    assert "bed" in {r.head for r in p.context_refs}


@pytest.mark.parametrize(("text", "head", "said"), [
    ("Out of the two fridges, go to the one in the kitchen.", "fridge", "of the two fridges"),
    ("Go to the one of the two beds that's nearer the door.", "bed", "of the two beds"),
    ("Go to the bed, the one out of the two that's closer to the window.", "bed",
     "out of the two"),
    ("Go to whichever of the two sinks is closer to the toilet.", "sink", "of the two sinks"),
    ("Go to the bigger bedroom of the two.", "bedroom", "of the two"),
    ("Among the three bedrooms, go to the biggest.", "bedroom", "among the three bedrooms"),
    ("Go to the chair, the only one by the window.", "chair", "the only one"),
])
def test_partitives_keep_the_set_as_context(text: str, head: str, said: str) -> None:
    got, mods, context = _goal(text)
    assert got == head
    assert mods
    assert said in context


@pytest.mark.parametrize(("text", "head", "mod"), [
    ("Go to the bed, no wait, the other one.", "bed", "other"),
    ("Go to the small bathroom. No wait, the big one.", "bathroom", "rank"),
    ("Go to the plant by the window, not the big one, the small one.", "house_plant", "rank"),
    ("Go to the lamp, or rather the one next to the sofa.", "lamp", "next_to"),
    ("Go to the one furthest away from the kitchen, the bedroom I mean.", "bedroom", "rank"),
])
def test_corrections_of_a_pick(text: str, head: str, mod: str) -> None:
    got, mods, context = _goal(text)
    assert got == head
    assert mod in [m[0] for m in mods]
    assert context  # the corrected words are reported, not dropped


def test_contrast_keeps_the_goal_head_and_its_relation() -> None:
    _, mods, _ = _goal("Go to the plant by the window, not the big one, the small one.")
    assert ("rank", False, "smallest", []) in mods
    assert ("near", False, None, ["window"]) in mods


@pytest.mark.parametrize(("text", "want"), [
    ("Go to the table. Wait, no, go to the sofa.", [("goal", "sofa")]),
    ("Head to the bedroom - sorry, the bathroom.", [("goal", "bathroom")]),
    ("Go to the kitchen's fridge.", [("goal", "fridge")]),
    ("Pass the kitchen and go into the first bedroom you reach.",
     [("pass", "kitchen"), ("goal", "bedroom")]),
    ("Go to the first sofa you reach in the living room.", [("goal", "sofa")]),
])
def test_route_readings(text: str, want: list[tuple[str, str]]) -> None:
    p = parse_instruction(text)
    assert not [w for w in p.unknown_words if w not in HARMLESS]
    assert [(c.kind, c.refs[0].head) for c in p.clauses if c.refs] == want


@pytest.mark.parametrize(("text", "mod"), [
    ("Walk to the bedroom that doesnt have a tv.", ("with", True, None, ["television"])),
    ("Go to the bedroom that's the biggest.", ("rank", False, "largest", [])),
    ("Go to the nearer of the two sinks.", ("rank", False, "nearest", [])),
    ("Go to the chair in the room where the TV is.", ("in_room", False, None, ["room"])),
    ("Go to the table without anything on it.", ("empty", False, None, [])),
])
def test_spelling_sizes_and_places(text: str, mod: tuple[str, bool, str | None, list[str]]
                                   ) -> None:
    _, mods, _ = _goal(text)
    assert mod in mods


@pytest.mark.parametrize(("text", "head", "mod"), [
    ("Go to the plant that sits by the window.", "house_plant", ("near", False, None, ["window"])),
    ("Go to the chair which was pushed against the wall.", "chair",
     ("next_to", False, None, ["wall"])),
    ("Go to the stool which stands closest to the fridge.", "stool",
     ("rank", False, "nearest", ["fridge"])),
    ("Go to the chair that's the least far from the window.", "chair",
     ("rank", False, "nearest", ["window"])),
    ("Go to the bedroom, the smaller one.", "bedroom", ("rank", False, "smallest", [])),
    ("Go to the bedroom - the big one.", "bedroom", ("rank", False, "largest", [])),
    ("Go to the bathroom; the one without a window.", "bathroom",
     ("with", True, None, ["window"])),
    ("Go to the plant which isn't the one in the kitchen.", "house_plant",
     ("in_room", True, None, ["kitchen"])),
])
def test_relatives_and_appositions_on_the_goal(text: str, head: str,
                                               mod: tuple[str, bool, str | None, list[str]]
                                               ) -> None:
    got, mods, _ = _goal(text)
    assert got == head
    assert mod in mods


@pytest.mark.parametrize(("text", "head", "old"), [
    ("Go to the sofa - no - the armchair.", "arm_chair", "the sofa"),
    ("Go to the sink, or actually the toilet.", "toilet", "the sink"),
    ("Go to the chair. Scratch that. Go to the stool.", "stool", "the chair"),
    ("Go to the sofa. Err, actually the armchair.", "arm_chair", "the sofa"),
])
def test_taken_back_goals(text: str, head: str, old: str) -> None:
    p = parse_instruction(text)
    goals = [c for c in p.clauses if c.kind == "goal"]
    assert len(goals) == 1
    assert goals[0].refs[0].head == head
    assert old in [c.lower() for c in p.context]


@pytest.mark.parametrize(("text", "mod"), [
    ("Go to the bedroom, but not the one with the desk.", ("with", True, None, ["desk"])),
    ("Go to the bin that's beside the desk rather than the one near the door.",
     ("near", True, None, ["door"])),
    ("Go to the plant, not the one in the kitchen.", ("in_room", True, None, ["kitchen"])),
])
def test_exclusions_negate_the_goal_head(text: str,
                                         mod: tuple[str, bool, str | None, list[str]]) -> None:
    _, mods, _ = _goal(text)
    assert mod in mods


def test_whichever_without_an_object_is_from_the_walker() -> None:
    p = parse_instruction("Walk to whichever bedroom is closer and stand by its window.")
    (goal,) = [c for c in p.clauses if c.kind == "goal"]
    assert goal.refs[0].head == "window"
    room = goal.refs[0].modifiers[0].refs[0]
    assert room.head == "bedroom"
    assert [m.rank for m in room.modifiers] == ["nearest"]


@pytest.mark.parametrize(("text", "mod"), [
    ("Go to the chair closet to the window.", ("rank", False, "nearest", ["window"])),
    ("Go to the bedroom which not have a TV.", ("with", True, None, ["television"])),
    ("Go to the bedroom which has not TV.", ("with", True, None, ["television"])),
    ("Go to the sofa thats not against the wall.", ("next_to", True, None, ["wall"])),
    ("Go to the chair that's got nothing on it.", ("empty", False, None, [])),
    ("Please could you kindly go to the bigger of both bedrooms.",
     ("rank", False, "largest", [])),
])
def test_typed_and_non_native_forms(text: str,
                                    mod: tuple[str, bool, str | None, list[str]]) -> None:
    _, mods, _ = _goal(text)
    assert mod in mods
