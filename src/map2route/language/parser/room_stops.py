"""The stop said right after entering a room: "go into the lounge and stop at the floor lamp".

A rule scoped by leaving a room ("as you head out of the lounge, keep away from the sofa") is
read by ``event_scopes`` as the route after the stop made in that room. That stop is found
when the thing is said to be in the room ("the lamp in the lounge") or stands only in such a
room (the toilet); people also say it by entering the room and then stopping in the same
breath: "go into the lounge and stop at the floor lamp", "head to the kitchen, then wait by
the fridge", "walk into the bedroom and park next to the dresser". This module reads that
shape: the room after "into / to / in / inside" and "the", then only "and" / "then" / a comma,
then a stop verb, a place word ("at", "by", "next to", ...) and the thing. Only the last such
entry before the rule is read; any other shape returns None and the caller keeps its
behaviour. The words are a closed list, so this is written by hand like the rest of the parser.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["entered_stop"]

_ENTRY = frozenset({"into", "to", "in", "inside", "enter", "entering"})
_GLUE = frozenset({"and", "then", ","})
_STOP = frozenset({"stop", "wait", "park", "stand", "halt", "pause"})
_AT = (("at",), ("by",), ("next", "to"), ("beside",), ("near",), ("in", "front", "of"))

Hit = Callable[[list[str], int], "tuple[int, str, str] | None"]


def entered_stop(words: list[str], room: list[str], end: int, hit: Hit) -> list[str] | None:
    """The words of the thing stopped at right after entering ``room`` (last before ``end``)."""
    n = len(room)
    for k in range(end - n, 1, -1):
        if words[k:k + n] != room or words[k - 1] != "the" or words[k - 2] not in _ENTRY:
            continue
        j = k + n
        while j < end and words[j] in _GLUE:
            j += 1
        if j == k + n or j >= end or words[j] not in _STOP:
            return None
        j += 1
        at = max((len(s) for s in _AT if tuple(words[j:j + len(s)]) == s), default=0)
        if not at:
            return None
        j += at
        j += words[j:j + 1] == ["the"]
        thing = hit(words, j)
        if thing is None or thing[2] != "object":
            return None
        return words[j:j + thing[0]]
    return None
