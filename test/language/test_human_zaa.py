"""Human phrasings of fresh sets Z and AA, read by
:mod:`map2route.language.parser.note_fragments`: a via said as a note-form fragment after its
stop ("Loo with the plunger in it. Via the lounge."), a word naming both a fixture and its room
when what follows says what the room holds ("the loo with the plunger in it": the bathroom),
a stop named by a bare label and "is" ("Target is the X", "Stop one is the X"), and a
scope naming its stop or leg by number or letter ("on the way to stop two", "on leg (a)"); and,
read by :mod:`map2route.language.parser.rejections`, a rejected alternative said without a
correction marker ("Not the one by the window, the other one."); by
:mod:`map2route.language.parser.deed_reasons`, a reason that is the speaker's deed ("I literally
just bleached it") or where a thing lies ("it's hanging on the floor"); and by
:mod:`map2route.language.parser.shared_scopes`, a scope said once over two constraints joined by
"and" ("As you cross that bedroom stay close to the dresser and well away from the bed"); and a
scope opener said in the perfect ("Until you've got to the table", "Once you've left X"); by
:mod:`map2route.language.parser.prohibitions`, an emphatic prohibition ("Don't even think about
going into X", "Under no circumstances are you to ...", "in either direction"). Floors for
Z, AA and the class table ``breadth_zaa_classes.json`` (paraphrases of each class written
before the fix), no silent drops, and refusals that name a span."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import route_summary, score_set, summary
from map2route.language.parser import parse_instruction
from map2route.language.parser.coverage import HARMLESS, IDIOM_HEADS

DATA = Path(__file__).parent / "data"


def _route(text: str) -> list[tuple[str, ...]]:
    p = parse_instruction(text)
    assert not [w for w in p.unknown_words if w not in HARMLESS and w not in IDIOM_HEADS]
    return route_summary(p)


@pytest.mark.parametrize(("name", "floor"), [
    ("fresh_human_z.json", 3), ("fresh_human_aa.json", 2), ("breadth_zaa_classes.json", 40)])
def test_floor_and_no_silent_drops(name: str, floor: int) -> None:
    scores = score_set(DATA / name)
    s = summary(scores)
    assert s["silent_drops"] == 0
    assert s["right"] >= floor
    for sc in scores:
        if sc.refused and not sc.right:
            assert sc.refusal_span, sc.item_id  # a refusal names what it could not read


@pytest.mark.parametrize(("text", "want"), [
    ("Loo with the plunger in it. Via the lounge. No bedrooms.",
     [("pass", "living_room"), ("goal", "bathroom"), ("avoid", "bedroom", "")]),
    ("The fridge. Through the kitchen.", [("pass", "kitchen"), ("goal", "fridge")]),
    ("Go to the sofa. By way of the kitchen, please.", [("pass", "kitchen"), ("goal", "sofa")]),
    ("Go to the loo that has the sink in it.", [("goal", "bathroom")]),
    ("Go to the loo.", [("goal", "toilet")]),
    ("Target is the fridge in the kitchen.", [("goal", "fridge")]),
    ("Stop one is the desk, stop two is the bed.", [("goal", "desk"), ("goal", "bed")]),
    ("Destination is the sofa.", [("goal", "sofa")]),
    ("Go to the sink, then the fridge. On leg 2 stay away from the sofa.",
     [("goal", "sink"), ("goal", "fridge"), ("far", "sofa", "until:fridge")]),
    ("(a) the kettle. (b) the bed. On leg (a) keep away from the dining table.",
     [("goal", "kettle"), ("goal", "bed"), ("far", "dining_table", "until:kettle")]),
    ("Go to the bed, then stop at the desk.", [("goal", "bed"), ("goal", "desk")]),
    ("Go to the sofa. Not the one by the window, the other one.", [("goal", "sofa")]),
    ("Stop at the sink - not the one in the kitchen, the other one.", [("goal", "sink")]),
    ("Go to the sofa. Stay away from the sink, I literally just bleached it.",
     [("goal", "sofa"), ("far", "sink", "")]),
    ("Go to the bed. Keep away from the window, it's hanging on the floor.",
     [("goal", "bed"), ("far", "window", "")]),
    ("Go to the bed. Keep away from the sink, there's water all over the floor round it.",
     [("goal", "bed"), ("far", "sink", "")]),
    ("Go to the desk. As you cross the bedroom stay close to the dresser and well away from "
     "the bed.", [("goal", "desk"), ("near", "dresser", "in:bedroom"),
                  ("far", "bed", "in:bedroom")]),
    ("Go to the bed and then the desk. Until you've got to the bed, keep away from the window.",
     [("goal", "bed"), ("goal", "desk"), ("far", "window", "until:bed")]),
    ("Go to the counter, then the window. Once you've left the counter, keep away from the "
     "couch.", [("goal", "counter_top"), ("goal", "window"), ("far", "sofa", "after:countertop")]),
    ("Go to the bed, then the desk. Till you get to the bed, avoid the kitchen.",
     [("goal", "bed"), ("goal", "desk"), ("avoid", "kitchen", "until:bed")]),
    ("Go to the sofa. Don't even think about going into the kitchen.",
     [("goal", "sofa"), ("avoid", "kitchen", "")]),
    ("Go to the fridge. Under no circumstances are you to enter the bathroom.",
     [("goal", "fridge"), ("avoid", "bathroom", "")]),
    ("Go to the toilet. You are not to go through the kitchen in either direction.",
     [("goal", "toilet"), ("avoid", "kitchen", "")]),
])
def test_note_fragments(text: str, want: list[tuple[str, ...]]) -> None:
    assert _route(text) == want


def test_trailing_via_to_an_unknown_room_is_refused_not_dropped() -> None:
    # before note_fragments, "By way of the hallway." after the stop was dropped silently
    with pytest.raises(ParseError) as err:
        parse_instruction("Bathroom with the plunger in it. By way of the hallway.")
    assert "hallway" in str(err.value)


def test_a_full_second_clause_keeps_its_own_scope() -> None:
    # "and don't enter any bathroom at any point": its own verb, its own (global) scope
    got = _route("Go to the bed. As you pass through the living room, stay close to the floor "
                 "lamp, and don't enter any bathroom at any point.")
    assert got[-1] == ("avoid", "bathroom", "")


def test_a_reason_keeps_its_words_as_context() -> None:
    p = parse_instruction("Go to the sofa. Stay away from the sink, I just cleaned it.")
    assert any("cleaned" in c for c in p.context)


def test_an_owned_room_in_a_scene_is_refused_not_dropped() -> None:
    # the start was reported without its room: the map does not say whose room is whose
    with pytest.raises(ParseError, match="whose room"):
        parse_instruction("I'm at the desk in my room. Go to the front door.")
