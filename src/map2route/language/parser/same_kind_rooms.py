"""A thing placed by a room of a named kind shared with another: "the plunger in the same
bathroom as the candles".

"The same room as X" is read already (an ``in_room`` of the room with X); said with the room's
kind instead ("the same bathroom as", "the same bedroom as"), the "as" was read as a second
stop, a wrong parse (the candles became a destination). :func:`same_kind_rooms` rewrites
"the same KIND as" onto "the KIND with", which the parser reads as the room of that kind with
the thing in it and which keeps the kind ("the bathroom with the candles"). The character spans
are kept, so a later refusal still points into the original text.

It reads one closed construction (a room word of the head lexicon between "same" and "as"), so
it is written by hand like the rest of the parser; a "same" that is not followed by a room word
and "as" is left alone, and so is "the same room as both X and Y" (two things, which the
"same room" reading keeps and "with" would not).
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["same_kind_rooms"]


def same_kind_rooms(toks: list[Token]) -> list[Token]:
    """"the same bathroom as the candles" -> "the bathroom with the candles"."""
    words = [t.text for t in toks]
    out: list[Token] = []
    i = 0
    lex = head_lexicon()
    while i < len(toks):
        if words[i] == "same" and i and words[i - 1] in ("the", "that", "this"):
            hit = lex.match(words[i + 1:i + 1 + lex.max_len])
            after = words[i + 1 + hit[0]:i + 3 + hit[0]] if hit is not None else []
            if hit is not None and hit[2] == "room" and after[:1] == ["as"] and \
                    after[1:] not in (["both"], ["."], ["!"], ["?"], [","], []):  # "as both X and Y"
                n = hit[0]
                if words[i - 1] != "the":
                    out[-1] = Token("the", out[-1].start, out[-1].end)
                out.extend(toks[i + 1:i + 1 + n])
                a = toks[i + 1 + n]
                out.append(Token("with", toks[i].start, a.end))
                i += 2 + n
                continue
        out.append(toks[i])
        i += 1
    return out
