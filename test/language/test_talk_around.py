"""Talk around the request (parser/talk_around.py): headers and titles, waiting and its
durations, reasons and asides about the speaker or other people, everyday go/wait idioms.
Talk is context, never a stage or a constraint; a route rule inside a reason is still read;
a clause that asks the walker for something is never taken out."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import route_summary
from map2route.language.parser import parse_instruction

TABLE = Path(__file__).parent / "data" / "breadth_talk_around.json"


# the floors of this round's sets and table: test_human.py, test_round_sets_floor_and_no_silent_drops


@pytest.mark.parametrize(("text", "want"), [
    # go/wait idioms
    ("Off you pop to the standard lamp and wait for me there.", [("goal", "floor_lamp")]),
    ("go hang out by the fridge", [("goal", "fridge")]),
    ("Tuck yourself into the corner of the kitchen.", [("goal", "corner")]),
    ("park urself by the stool", [("goal", "stool")]),
    ("Shoot over to the television.", [("goal", "television")]),
    ("Run along to the sofa.", [("goal", "sofa")]),
    ("go find the teddy bear", [("goal", "teddy_bear")]),
    ("Go to the toilet and stay put there.", [("goal", "toilet")]),
    # waiting: a duration is neither a stage nor a constraint
    ("Go to the sink and wait there till I buzz you.", [("goal", "sink")]),
    ("wait by the toilet for ten minutes or so, then carry on to the sink",
     [("goal", "toilet"), ("goal", "sink")]),
    ("Go wait in the corner of the kitchen, out of the way while I cook.",
     [("goal", "corner")]),
    ("go to the sink, just wait there afterwards", [("goal", "sink")]),
    # headers
    ("Ticket 7: the dresser.", [("goal", "dresser")]),
    ("Position check. Go to the fridge.", [("goal", "fridge")]),
    ("First one's easy. Go to the fridge.", [("goal", "fridge")]),
    # reasons and asides
    ("go to the kettle, pretty sure my phone's somewhere near it, i'll look thru ur cam",
     [("goal", "kettle")]),
    ("go to the fridge, the remote's on it", [("goal", "fridge")]),
    ("Go to the fridge. yes I know you can't actually open it, shut up",
     [("goal", "fridge")]),
    ("kid says the tap's dripping again so just park by the sink", [("goal", "sink")]),
])
def test_talk_is_not_route(text, want):
    assert route_summary(parse_instruction(text)) == want


def test_talk_is_context_by_name():
    p = parse_instruction("go to the kettle, plumber's coming at 4 and i want him to see it lol")
    assert route_summary(p) == [("goal", "kettle")]
    assert any("plumber" in c for c in p.context)


def test_a_map_thing_in_talk_is_a_context_reference():
    p = parse_instruction("pop round to the floor lamp, the remote's on the floor next to it")
    assert route_summary(p) == [("goal", "floor_lamp")]
    assert "remote_control" in [r.head for r in p.context_refs]


def test_a_rule_in_a_reason_is_still_a_rule():
    p = parse_instruction("Mum's having a nap in the bedroom with the desk so don't go in "
                          "there at all. Go to the sofa.")
    assert route_summary(p) == [("goal", "sofa"), ("avoid", "bedroom", "")]
    avoid = [c for c in p.clauses if c.kind == "avoid"][0]
    assert any(m.kind == "with" for m in avoid.refs[0].modifiers)  # the bedroom with the desk


def test_a_request_to_the_walker_is_never_talk():
    # "I need you at X" is the request itself
    assert route_summary(parse_instruction("I need you at the fridge.")) == [("goal", "fridge")]
    p = parse_instruction("Go to the sofa, I want you to keep away from the bed.")
    assert ("far", "bed", "") in route_summary(p) or any(
        c.kind in ("far", "avoid") for c in p.clauses)


@pytest.mark.parametrize("text", [
    "Go to the sofa, the cat's asleep, it's big.",  # a size still needs reading
    "Kitchen round: the glorpy one.",  # an unknown word after a header
])
def test_still_refused(text):
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert err.value.word
