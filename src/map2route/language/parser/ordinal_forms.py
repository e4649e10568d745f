"""Route ordinals said by position, not by number: "go through the first bedroom you come to
and on into the next one" -> "... and into the second one".

Run first in :func:`.human.human_forms`, on the tokens as typed: after "the first X" in the
same sentence, "into / through / to the next one" is the second of them, and "and on into" (the
walker carries on) is "and into", and "in that second bedroom" after it is "in it" (the room
just said: :func:`.stage_rewrites.merge_room_then_stop` puts it there). Nothing else is read differently; spans are kept.
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

_ENDS = (".", "!", "?", ";")
_NEXT = {"first": "second", "second": "third", "third": "fourth"}
_INTO = ("into", "through", "to")


def next_ones(toks: list[Token]) -> list[Token]:
    """"(and) (on) into the next one" after "the first X" -> "into the second one"."""
    out: list[Token] = []
    words = [t.text for t in toks]
    nth: str | None = None
    i = 0
    while i < len(toks):
        w = words[i]
        if w in _ENDS:
            nth = None
        elif w in _NEXT and i > 0 and words[i - 1] == "the":
            nth = w
        k = i + (1 if w == "on" and words[i + 1:i + 2] == ["into"] and out and
                 out[-1].text == "and" else 0)
        if nth is not None and words[k:k + 1] and words[k] in _INTO and \
                words[k + 1:k + 4] == ["the", "next", "one"]:
            out += [toks[k], toks[k + 1], Token(_NEXT[nth], toks[k + 2].start, toks[k + 2].end),
                    toks[k + 3]]
            nth = _NEXT[nth]
            i = k + 4
            continue
        if nth is not None and words[i:i + 3] == ["in", "that", nth] and (
                m := head_lexicon().match(words[i + 3:])) is not None:
            # "stop at the bed in that second bedroom": the room just said -> "in it"
            out += [Token("in", toks[i].start, toks[i].end),
                    Token("it", toks[i + 1].start, toks[i + 2 + m[0]].end)]
            i += 3 + m[0]
            continue
        out.append(toks[i])
        i += 1
    return out
