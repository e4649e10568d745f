"""Manner and position words at a goal or along the route (parser/manner_positions.py): how to
stop there ("wait in front of it", "hang on there", "face the window when you get there"),
how to move ("swing wide around X", "go slow near the beds", "hug X as much as you can",
"keep to the window side of the kitchen"), circles said in everyday words ("make one round
around the cart", "like a full circle") and loose geometry ("like exactly halfway", "dead
centre between"). Each maps onto what the RouteIR expresses or is context; never refused as
a whole, never a silent drop; what the RouteIR cannot say is still refused, naming a span.
The table breadth_manner_positions.json was written before the parser code was read."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import route_summary, score_set, summary
from map2route.language.parser import parse_instruction

TABLE = Path(__file__).parent / "data" / "breadth_manner_positions.json"


def test_table_floor_and_no_silent_drops():
    s = summary(score_set(TABLE))
    assert s["silent_drops"] == 0
    assert s["right"] >= 36, s  # first contact 15/35 (second batch 4/10); now 36/45


def test_table_refusals_name_a_span():
    for sc in score_set(TABLE):
        if sc.refused:
            assert sc.refusal_span, sc


@pytest.mark.parametrize(("text", "want"), [
    # how to stop at the goal: a goal, the manner kept as context
    ("Please pop over to the telly in the lounge and just wait in front of it until I call you.",
     [("goal", "television")]),
    ("go to the telly in the kitchen and sit tight in front of it yeah", [("goal", "television")]),
    ("can u go to the washing machine n just hang on there for a bit",
     [("goal", "washing_machine")]),
    ("Kindly proceed to the dresser and remain stationary there until further notice.",
     [("goal", "dresser")]),
    ("Go to the bed and face the window when you get there.", [("goal", "bed")]),
    ("go to the fridge and wait there facing it", [("goal", "fridge")]),
    # circles
    ("Make one round around the cart, and after go to the TV stand.",
     [("circle", "cart"), ("goal", "tv_stand")]),
    ("do like one full circle around the stool and then stop at the fridge",
     [("circle", "stool"), ("goal", "fridge")]),
    # room kept round a thing (far of it: the grounding's clearance takes no object)
    ("As you cross the kitchen, swing wide around the dining table, then stop at the fridge.",
     [("goal", "fridge"), ("far", "dining_table", "in:kitchen")]),
    ("Go to the toilet and leave a bit of room between you and the washing machine.",
     [("goal", "toilet"), ("far", "washing_machine", "")]),
    ("Go to the laptop and leave much free space around dog bed when you are in the bedroom.",
     [("goal", "laptop"), ("far", "dog_bed", "in:bedroom")]),
    # staying near
    ("hug the window as much as you can on your way to the dining table",
     [("goal", "dining_table"), ("near", "window", "until:diningtable")]),
    ("Go to the TV, and keep to the window side of the kitchen.",
     [("goal", "television"), ("near", "window", "in:kitchen")]),
    # geometry said loosely
    ("park yourself right in the middle between the fridge and the bin, like exactly halfway",
     [("goal", "midpoint")]),
    ("Stand dead centre between the sofa and the television.", [("goal", "midpoint")]),
    ("stand dead centre of the kitchen", [("goal", "centroid")]),
    # a pass said again; a detour said again after a gap rule
    ("swing past the tv stand, dont stop just have a look, then go to the fridge",
     [("pass", "tv_stand"), ("goal", "fridge")]),
    # speed: context only
    ("please drive slowly to the fridge, the floor is wet", [("goal", "fridge")]),
    ("go to the fridge nice and slowly", [("goal", "fridge")]),
    ("take it nice and easy going to the laptop", [("goal", "laptop")]),
    ("no rush, just head over to the cart and wait beside it", [("goal", "cart")]),
    ("go slow near the beds on your way to the dresser", [("goal", "dresser")]),
])
def test_manner_constructions(text, want):
    assert route_summary(parse_instruction(text)) == want


def test_detour_said_again_is_context():
    p = parse_instruction("go to the cart, dont go between the sofa and the tv to get there, "
                          "go round the side")
    summ = route_summary(p)
    assert summ[0] == ("goal", "cart") and summ[1][0] == "avoid" and len(summ) == 2
    assert any("round the side" in c for c in p.context)


def test_speed_over_a_place_keeps_the_place():
    p = parse_instruction("go to the dresser, and go slow near the beds")
    assert route_summary(p) == [("goal", "dresser")]
    assert any("beds" in c for c in p.context)
    assert any(r.head == "bed" for r in p.context_refs)


@pytest.mark.parametrize("text", [
    "go to the fridge and swing wide",  # wide of nothing
    "go to the fridge and leave a bit of room between you and me",
    "go to the fridge slowly and then speed up near the sofa",  # a speed change: no slot
    "go to the fridge and face north",
    "go to the fridge and keep to the left side",  # a side named by no thing
    "make three rounds around the cart",  # a count of laps: no slot
    "go slow",
])
def test_still_refused_with_a_span(text):
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert err.value.word
