"""A pronoun in a gap said with the goal it stands for: "go to the couch ... but don't go
between it and the TV" -> "... between the couch and the TV".

Run first in :func:`.human.human_forms`, on the tokens as typed. "it" after "between" (or
after "between X and") in the sentence of a goal or the one after is the goal's head: the thing after the
last "to" / "at" before it (the head of that phrase, not the last thing named in it: "the
couch in the living room with the window" is the couch). With no such goal it is left as it
is (and read, or refused, as before). The head's words get the span of "it".
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

_ENDS = (".", "!", "?", ";")
_DETS = ("the", "a", "an", "that", "this", "my", "your")


def _goal_head(words: list[str], end: int) -> list[str] | None:
    """The head words of the goal phrase said before ``end`` in its sentence, if any."""
    start = end
    for _ in range(2):  # this sentence or the one before ("Go to the bed. Don't go between
        start -= 1      # it and the desk.")
        while start > 0 and words[start - 1] not in _ENDS:
            start -= 1
    start = max(start, 0)
    to = next((q for q in range(end - 1, start - 1, -1) if words[q] in ("to", "at")), None)
    if to is None or to + 2 >= end or words[to + 1] not in _DETS:
        return None
    q = to + 2
    while q < end and words[q] not in ("in", "on", "with", "by", "near", "next", "that",
                                       "which", ",", "but", "and"):
        m = head_lexicon().match(words[q:end])
        if m is not None:
            return words[q:q + m[0]]
        q += 1
    return None


def between_it(toks: list[Token]) -> list[Token]:
    """"between it and X" / "between X and it" -> the goal's head in place of "it"."""
    words = [t.text for t in toks]
    out: list[Token] = []
    for n, t in enumerate(toks):
        gap = n > 0 and words[n - 1] == "between" or (
            n > 1 and words[n - 1] == "and" and "between" in words[max(0, n - 6):n - 1] and
            (n + 1 == len(words) or words[n + 1] in (*_ENDS, ",", "on", "as", "when")))
        if t.text == "it" and gap and (head := _goal_head(words, n)) is not None:
            out.append(Token("the", t.start, t.end))
            out += [Token(w, t.start, t.end) for w in head]
            continue
        out.append(t)
    return out


_OUTSIDE_ADVERBS = ("just", "right", "directly", "immediately")


def _last_room(words: list[str], end: int) -> list[str] | None:
    """The words of the last room named before ``end`` (this sentence or the one before)."""
    lex = head_lexicon()
    seen = 0
    for q in range(end - 1, -1, -1):
        if words[q] in _ENDS:
            seen += 1
            if seen == 2:
                return None
        m = lex.match(words[q:end])
        if m is not None and m[2] == "room" and q + m[0] <= end:
            return words[q:q + m[0]]
    return None


def room_outside(toks: list[Token]) -> list[Token]:
    """"the living room just outside the kitchen" / "... just outside it" (after "Leave the
    kitchen") -> "the living room next to the kitchen": a room outside another is the one
    beside it; "it" is the room named last before that one."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    out: list[Token] = []
    i = 0
    while i < len(toks):
        k = i + (words[i] in _OUTSIDE_ADVERBS)
        room_at = next((q for q in range(max(0, i - 3), i)
                        if (m := lex.match(words[q:i])) is not None and m[2] == "room" and
                        q + m[0] == i), None)
        if room_at is not None and words[k:k + 1] == ["outside"] and k + 1 < len(words):
            nxt = words[k + 1]
            said = [Token(w, toks[i].start, toks[k].end) for w in ("next", "to")]
            if nxt == "it" and (room := _last_room(words, room_at)) is not None:
                out += said + [Token(w, toks[k + 1].start, toks[k + 1].end)
                               for w in ("the", *room)]
                i = k + 2
                continue
            if nxt in ("the", "that", "this"):
                out += said
                i = k + 1
                continue
        out.append(toks[i])
        i += 1
    return out
