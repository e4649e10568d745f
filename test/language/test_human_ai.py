"""Human phrasings of fresh set AI (people speaking to their home robot, transcribed with no
punctuation), read by :mod:`map2route.language.parser.spoken_boundaries`: a filler where a
writer would have typed a full stop ("... in the living room um just dont go in the kitchen"), a
reason run on after a rule ("keep away from the box i keep tripping on it", "stay away from the
dog bed shes asleep", "the floor is still wet"), the speaker's place run on ("come back to me im
on the couch") and a spoken numbered list ("one go to the fridge. two the toilet. three ...").
Floors for AI and the class table ``breadth_ai_classes.json``, no silent drops, refusals that
name a span."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route as _route
from map2route.language.fresh import score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(("name", "floor"), [("fresh_human_ai.json", 9),
                                             ("breadth_ai_classes.json", 16)])
def test_floor_no_silent_drops_and_named_refusals(name: str, floor: int) -> None:
    scores = score_set(DATA / name)
    s = summary(scores)
    assert s["right"] >= floor
    assert s["silent_drops"] == 0
    assert all(sc.refusal_span for sc in scores if sc.refused)


def test_filler_parts_two_requests() -> None:
    assert _route("go to the toaster in the kitchen uh dont go near the fridge") == [
        ("goal", "toaster"), ("far", "fridge", "")]
    assert _route("go stand by the dresser in the bedroom like keep clear of the bed") == [
        ("goal", "dresser"), ("far", "bed", "")]
    assert _route("go to the sofa okay so swing past the toaster") == [
        ("goal", "sofa"), ("pass", "toaster")]
    assert _route("go to the fridge and come back to me and like until you get to the fridge "
                  "stay clear of the side table") == [
        ("goal", "fridge"), ("goal", "start"), ("far", "side_table", "until:fridge")]


def test_reason_run_on_after_a_rule() -> None:
    assert _route("go to the fridge and dont go near the dog bed shes sleeping") == [
        ("goal", "fridge"), ("far", "dog_bed", "")]
    assert _route("go to the dresser and keep away from the floor lamp i keep knocking it "
                  "over") == [("goal", "dresser"), ("far", "floor_lamp", "")]
    assert _route("go to the sofa and stay away from the box the floor is wet there") == [
        ("goal", "sofa"), ("far", "box", "")]
    assert _route("stop at the toilet and keep away from the sink theres water all over "
                  "it") == [("goal", "toilet"), ("far", "sink", "")]
    assert _route("go over to the toaster i think i left it on") == [("goal", "toaster")]


def test_spoken_numbered_list() -> None:
    assert _route("one go to the fridge two go to the sofa three go to the toilet") == [
        ("goal", "fridge"), ("goal", "sofa"), ("goal", "toilet")]
    assert _route("okay two things. one go to the toaster. two come back to me") == [
        ("goal", "toaster"), ("goal", "start")]
    assert _route("one the stool. two the dresser in the bedroom") == [
        ("goal", "stool"), ("goal", "dresser")]


def test_bound_words_do_not_part_clauses() -> None:
    # a relative clause, a number of things, "like" inside a phrase: no stop is put back
    assert _route("go to the bedroom with the two beds") == [("goal", "bedroom")]
    for text in ("go to the chair i left my jacket on",  # which chair: not a reason
                 "go to the bed i sleep in"):
        with pytest.raises(ParseError):
            parse_instruction(text)
    # round I (I6, room_picks): "where there is a bed" is read as the room's "with a bed"
    # (one stop, the clause kept whole), no longer refused
    assert _route("go to the room where there is a bed") == [("goal", "room")]


def test_still_refused() -> None:
    for text in ("go to the fridge um the weather is nice today",
                 "one go to the fridge two sing a song",
                 "go to the sofa um sing a song",
                 "keep away from the box i keep forgetting my keys"):
        with pytest.raises(ParseError) as err:
            parse_instruction(text)
        assert err.value.word
