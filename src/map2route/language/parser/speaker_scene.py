"""The one pattern for a scene sentence of the speaker or the walker ("I'm on the couch",
"we're at the kitchen table", "you're at the fridge"), after the spoken fillers and vocatives
that open it ("ok so", "hey", "hello my dear,", "right now").

Four passes read such a sentence (:mod:`.speaker_place`, :mod:`.speaker_return`,
:mod:`.leg_phrasings`, :mod:`.stage_repairs`); they share its opening here, so that a lead one
of them reads is read by all (a fix to one once left "Hello, I'm on the bed ... come back to me"
at the start). Hand-written: the leads and subjects are short closed classes.
"""

from __future__ import annotations

import re

from map2route.language.parser.model import RefExpr

__all__ = ["LEAD", "SPEAKER", "WALKER", "scene"]

#: Words that open a scene sentence without adding to it, each followed by a non-word mark.
LEAD = (r"(?:(?:ok|okay|so|right now|right|hey|hi|hello|hiya|well|um|uh|oh|and|now|currently|"
        r"at the moment|just so you know|(?:my\s+)?(?:dear|love|robot|buddy|mate)|,)\W+)*")
#: The speaker as a subject ("I'm", "we are").
SPEAKER = r"(?:i'm|i am|im|we're|we are)"
#: The walker as a subject ("you're", "ur").
WALKER = r"(?:you're|you are|ur)"
#: A room reference that names the robot's start itself ("the room you start in", "your
#: starting room"): it stays the start room even where a scene sentence said a room ("You are
#: standing in a bedroom": one of three), which only "this room" / "in here" stand for.
_NAMES_THE_START = re.compile(r"\b(start|starting|started|begin|beginning)\b", re.IGNORECASE)


def said_here(ref: RefExpr) -> bool:
    """Whether ``ref`` is "this room" / "in here": the start room said without naming the start,
    which a scene sentence's room may name ("I'm in the kitchen. ... in this room")."""
    return ref.is_start_room() and not _NAMES_THE_START.search(ref.text)


def scene(who: str, *, anchored: bool, to_end: bool = False) -> re.Pattern[str]:
    """The scene pattern for ``who`` (:data:`SPEAKER`, :data:`WALKER` or both joined by
    ``|``): ``anchored`` at the text's start (a context sentence) or else at a sentence's
    start; ``to_end``: the sentence runs on to the end of the text searched (no end mark)."""
    start = r"^" if anchored else r"(?:^|[.!?;]\s*)"
    return re.compile(start + LEAD + r"(" + who + r")\b" + (r"[^.!?;]*$" if to_end else ""),
                      re.IGNORECASE)
