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
going into X", "Under no circumstances are you to ...", "in either direction"). The sets' floors are in ``test_human.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.language.errors import ParseError
from map2route.language.parser import parse_instruction

DATA = Path(__file__).parent / "data"


def test_an_owned_room_in_a_scene_is_refused_not_dropped() -> None:
    # the start was reported without its room: the map does not say whose room is whose
    with pytest.raises(ParseError, match="whose room"):
        parse_instruction("I'm at the desk in my room. Go to the front door.")
