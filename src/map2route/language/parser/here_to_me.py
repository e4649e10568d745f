"""The way back to the speaker said twice over: "bring it back here to me", "come over here to
us".

"Here" and "to me" each name the speaker's place, the route's start (:mod:`.speaker_place`);
said together they are one stop, but read word by word they made two ("here", then "me"), a
wrong parse. :func:`here_to_me` reads "here to me" / "here to us" as "to me" / "to us",
keeping the character spans so a later refusal still points into the original text.

One closed construction of three words, so it is written by hand like the rest of the
parser; a "here" not followed by "to me" / "to us" is left alone.
"""

from __future__ import annotations

from map2route.language.tokens import Token

__all__ = ["here_to_me"]


def here_to_me(toks: list[Token]) -> list[Token]:
    """"bring it back here to me" -> "bring it back to me"."""
    out: list[Token] = []
    i = 0
    while i < len(toks):
        if toks[i].text == "here" and \
                [t.text for t in toks[i + 1:i + 3]] in (["to", "me"], ["to", "us"]):
            out.append(Token("to", toks[i].start, toks[i + 1].end))
            i += 2
            continue
        out.append(toks[i])
        i += 1
    return out
