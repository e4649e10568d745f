"""A pass told after the stop it comes before, when that stop was said as a room and then a
thing in it: "Head to the kitchen and stop by the toaster. Go past the sofa on your way in."

"Go to ROOM and stop at THING" is one stage, the thing in the room
(:func:`~.human.merge_room_then_object`). When a later sentence adds a pass on the way in
("go past X on your way in / there"), the earlier stages put the pass before the stop, between
the room and the thing, and the merge no longer saw them side by side: the room became a stop
of its own, a wrong parse. :func:`merge_around_passes` merges the room and the thing across a
pass that was said after both, then keeps the pass before the merged stop.

Also the parse's last guard (:func:`refuse_unused`): content words no rule read make a
refusal naming them, never a parse returned with them left out.

One closed shape of three clauses, so it is written by hand like the rest of the parser.
"""

from __future__ import annotations

import re

from map2route.language.errors import ParseError
from map2route.language.parser.coverage import HARMLESS, IDIOM_HEADS
from map2route.language.parser.human import merge_room_then_object
from map2route.language.parser.model import Clause, InstructionParse, room_then_object

__all__ = ["merge_around_passes", "refuse_unused"]


def merge_around_passes(clauses: list[Clause], text: str) -> list[Clause]:
    """[goal ROOM, pass P, goal THING] with P said after THING -> [pass P, goal THING in ROOM]
    when the words between ROOM and THING make them one stage (as the merge reads them)."""
    out: list[Clause] = []
    i = 0
    while i < len(clauses):
        c = clauses[i]
        if i + 2 < len(clauses) and clauses[i + 1].kind == "pass" and \
                clauses[i + 1].span[0] >= clauses[i + 2].span[1] and \
                room_then_object(c, clauses[i + 2]):
            merged = merge_room_then_object([c, clauses[i + 2]], text)
            if len(merged) == 1:
                out.extend([clauses[i + 1], merged[0]])
                i += 3
                continue
        out.append(c)
        i += 1
    return out


def refuse_unused(parse: InstructionParse) -> InstructionParse:
    """The last guard of NO SILENT DROPS: a parse about to be returned with content words no
    rule read (a reason tail after a leg, "..., the floor on the other side is still wet") is a
    refusal naming the first of them, so the aside cutter of
    :func:`~.parse.parse_instruction` may set it apart and read the rest.

    Raises:
        ParseError: content words were left unread.
    """
    left = [w for w in parse.unknown_words if w not in HARMLESS and w not in IDIOM_HEADS]
    if not left:
        return parse
    text = parse.instruction
    hit = re.search(rf"\b{re.escape(left[0])}\b", text, re.IGNORECASE)
    span = (hit.start(), hit.end()) if hit else (0, len(text))
    raise ParseError(f"did not understand {left[0]!r} in {text!r}: the offline parser would "
                     "leave it out of the route; rephrase it, or use the hybrid or llm "
                     "grounder", left[0], span)
