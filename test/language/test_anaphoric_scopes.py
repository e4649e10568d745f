"""Scopes that point back at a room or a leg named elsewhere, read by
:mod:`map2route.language.parser.anaphoric_scopes`: "crossing that bedroom", "as you leave that
room", "once you get to the last room", "the bedroom where that one is", "the alarm clock room",
"until you're out of the kitchen", "between stops 1 and 2", "between the first and second
stop", "on that second bit", "when you leave the table for the bedroom", "once you've left that
bedroom", "after you've been to X, ...", "and after that keep away from X", "going from X to Y",
"for any of this".

The class table ``breadth_anaphoric_scopes.json`` (AS001-AS035 written before the fix, ASB01-
ASB10 after it) keeps a floor here, with no silent drop and every refusal naming a span."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.fresh import read_route as _route
from map2route.language.fresh import score_set, summary
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"
TABLE = DATA / "breadth_anaphoric_scopes.json"


def test_table_floor_no_silent_drops_and_named_refusals() -> None:
    scores = score_set(TABLE)
    s = summary(scores)
    assert s["silent_drops"] == 0
    assert s["right"] >= 43, [x for x in scores if not x.right]
    assert all(x.refusal_span for x in scores if x.refused)


@pytest.mark.parametrize(("text", "want"), [
    # a room word after "that": that room
    ("Go to the sink in the bathroom. When you're crossing that bedroom, keep away from the box.",
     [("goal", "sink"), ("far", "box", "in:bedroom")]),
    ("Go to the sofa and then the bed. While you're in that first lounge keep away from the TV.",
     [("goal", "sofa"), ("goal", "bed"), ("far", "television", "in:livingroom")]),
    # "that room": the room named last (the speaker's room)
    ("You're in the bedroom with the dog bed. Go to the toilet, and as you leave that room keep "
     "away from the basketball.",
     [("goal", "toilet"), ("far", "basket_ball", "in:bedroom")]),
    # "the last room": the room of the last stop listed
    ("Go to the shelf in the kitchen, then the dresser in the bathroom. Once you get to the last "
     "room keep away from the toilet.",
     [("goal", "shelf"), ("goal", "dresser"), ("far", "toilet", "in:bathroom")]),
    # "the R where that one is", "the room the X is in", "the X room"
    ("Go to the alarm clock and then the side table. Once you're in the bathroom where that one "
     "is, keep away from the plunger.",
     [("goal", "alarm_clock"), ("goal", "side_table"), ("far", "plunger", "in:bathroom")]),
    ("Go to the toilet in the bathroom, and once you're in the room the toilet is in, stay away "
     "from the bin.",
     [("goal", "toilet"), ("far", "garbage_can", "in:bathroom")]),
    ("First the alarm clock on the dresser in the bedroom, then the sofa. In the alarm clock room "
     "keep away from the box.",
     [("goal", "alarm_clock"), ("goal", "sofa"), ("far", "box", "in:bedroom")]),
    # until out of a room: the time in it
    ("Head over to the dog bed, and hug the kitchen counter until you're out of the kitchen.",
     [("goal", "dog_bed"), ("near", "counter_top", "in:kitchen")]),
    # legs named by their stops' numbers or order
    ("Go to the microwave, then the sofa. Between stops 1 and 2 keep close to the counter.",
     [("goal", "microwave"), ("goal", "sofa"), ("near", "counter_top", "until:sofa")]),
    ("First the kettle, then the bed. Between the first and second stop keep away from the TV.",
     [("goal", "kettle"), ("goal", "bed"), ("far", "television", "until:bed")]),
    ("Go to the stool, the sofa and the toilet. From stop 2 to stop 3 keep away from the tv stand.",
     [("goal", "stool"), ("goal", "sofa"), ("goal", "toilet"), ("far", "tv_stand", "until:toilet")]),
    ("Teddy bear first, then the bed. On that second bit keep away from the table.",
     [("goal", "teddy_bear"), ("goal", "bed"), ("far", "table", "until:bed")]),
    ("Go to the fridge, the sofa and the bed. On the last bit keep away from the tv stand.",
     [("goal", "fridge"), ("goal", "sofa"), ("goal", "bed"), ("far", "tv_stand", "until:bed")]),
    # leaving a stop for the next one; leaving the room of a stop
    ("Go to the fridge and then the sofa. When you leave the fridge for the sofa, don't go "
     "between the table and the stool.",
     [("goal", "fridge"), ("goal", "sofa"), ("avoid", "between", "after:fridge")]),
    ("Go to the bed in the bedroom, then the toilet. Once you've left that bedroom, keep away "
     "from the sofa.",
     [("goal", "bed"), ("goal", "toilet"), ("far", "sofa", "after:bed")]),
    # after a stop said as a scope, not a second stop at it
    ("Go to the kettle, then the teddy bear, then the clock. Stay close to the table, and after "
     "you've been to the teddy bear, keep away from the bat.",
     [("goal", "kettle"), ("goal", "teddy_bear"), ("goal", "alarm_clock"), ("near", "table", ""),
      ("far", "baseball_bat", "after:teddybear")]),
    ("Go to the box, then do a lap round the dog bed in the living room, and after that keep "
     "away from the windows.",
     [("goal", "box"), ("circle", "dog_bed"), ("far", "window", "after:dogbed")]),
    # "going from X to Y", the whole job
    ("Go to the toaster and then the armchair. Going from the toaster to the armchair, steer "
     "clear of the stool.",
     [("goal", "toaster"), ("goal", "arm_chair"), ("far", "stool", "until:armchair")]),
    ("Go to the toaster and then the armchair, and stay out of the bathrooms for any of this.",
     [("goal", "toaster"), ("goal", "arm_chair"), ("avoid", "bathroom", "")]),
    ("Go to the sink in the bathroom and whilst you are in that bathroom keep away from the bin.",
     [("goal", "sink"), ("far", "garbage_can", "in:bathroom")]),
])
def test_pointing_scopes(text: str, want: list[tuple[str, ...]]) -> None:
    assert _route(text) == want


@pytest.mark.parametrize(("text", "span"), [
    # two legs at once, a stop the route lacks, a room never named: refused, not guessed
    ("Go to the fridge, the sofa and the bed. Between stops 1 and 3 keep away from the stool.",
     "Between"),
    ("Go to the sofa and then the bed. On the fourth bit keep away from the stool.",
     "On the fourth bit"),
    ("Go to the sofa. When you are crossing that room keep away from the stool.", "are"),
    ("Go to the sofa. Until you are out of there keep away from the stool.", "Until"),
])
def test_still_refused(text: str, span: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_instruction(text)
    assert span in text[err.value.span[0]:err.value.span[1]] or err.value.word == span.lower()


def test_plain_sequencing_untouched() -> None:
    """"after that" before a stop, "once you reach X, go to Y": still stops."""
    assert _route("Go to the box and then the sofa. After that, go to the bed.") == [
        ("goal", "box"), ("goal", "sofa"), ("goal", "bed")]
    assert _route("Go to the bed in the tv room.") == [("goal", "bed")]
    assert _route("Go to the sofa. Once you reach the sofa, go to the bed.")[-1] == ("goal", "bed")
    with pytest.raises(ParseError):  # an arrival that scopes no rule stays the parser's to read
        parse_instruction("Go to the sofa and tell me when you get to the kitchen.")
