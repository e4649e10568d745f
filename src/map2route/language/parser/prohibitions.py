"""Emphatic prohibitions put onto the plain forms the constraint rules read.

People forbid a place with more words than "don't go into X": "Don't even think about going
into the bathroom", "Under no circumstances are you to squeeze between the two beds", "On no
account should you enter the kitchen", "You are not to go through the lounge in either
direction". Each says no more than the plain prohibition, and each used to be refused at its
first word:

* "do not even think about <verb>ing" -> "do not <verb>" (one token over "even ... <verb>ing");
* "under no circumstances / on no account are you to / should you <verb>" -> "under no
  circumstances <verb>" ("are you to" is read into the verb's token);
* "in either direction" / "either way" / "both ways" after a prohibition: the route both
  there and back, that is the whole route -> "at any point".

Hand-written, like the rest of the parser, so that every rewrite keeps the character spans (a
refusal still points into the original text) and nothing is guessed: the windows are closed.
"""

from __future__ import annotations

from map2route.language.tokens import Token

__all__ = ["prohibitions"]

_ENDS = (".", "!", "?", ";")
#: Gerunds whose base form is not the gerund less "ing".
_BASES = {"going": "go", "cutting": "cut", "getting": "get", "coming": "come",
          "driving": "drive", "moving": "move", "squeezing": "squeeze", "rolling": "roll",
          "wandering": "wander", "entering": "enter", "passing": "pass", "walking": "walk",
          "heading": "head", "touching": "touch", "crossing": "cross", "using": "use"}
_NO_WAY = (("under", "no", "circumstances"), ("on", "no", "account"), ("in", "no", "way"))
_ASKED = (("are", "you", "to"), ("should", "you"), ("must", "you"), ("are", "you", "allowed",
                                                                      "to"))
_BOTH_WAYS = (("in", "either", "direction"), ("in", "both", "directions"), ("either", "way"),
              ("both", "ways"))


def _base(gerund: str) -> str:
    if gerund in _BASES:
        return _BASES[gerund]
    return gerund[:-3] if gerund.endswith("ing") and len(gerund) > 5 else ""


def prohibitions(toks: list[Token]) -> list[Token]:
    """Rewrite the emphatic prohibitions of the module docstring."""
    words = [t.text for t in toks]
    out: list[Token] = []
    forbidding = False  # a prohibition was said in this sentence
    k = 0
    while k < len(toks):
        w = words[k]
        if w in _ENDS:
            forbidding = False
        if words[k:k + 5] == ["do", "not", "even", "think", "about"] or \
                words[k:k + 5] == ["do", "not", "even", "think", "of"]:
            base = _base(words[k + 5]) if k + 5 < len(words) else ""
            if base:
                out += [toks[k], toks[k + 1], Token(base, toks[k + 2].start, toks[k + 5].end)]
                k += 6
                forbidding = True
                continue
        lead = next((n for n in _NO_WAY if tuple(words[k:k + 3]) == n), None)
        if lead is not None:
            asked = next((a for a in _ASKED if tuple(words[k + 3:k + 3 + len(a)]) == a), None)
            if asked is not None and k + 3 + len(asked) < len(words):
                v = k + 3 + len(asked)
                out += [Token("under", toks[k].start, toks[k].end),
                        Token("no", toks[k + 1].start, toks[k + 1].end),
                        Token("circumstances", toks[k + 2].start, toks[k + 2].end),
                        Token(words[v], toks[k + 3].start, toks[v].end)]
                k = v + 1
                forbidding = True
                continue
        if w in ("not", "never", "no"):
            forbidding = True
        both = next((b for b in _BOTH_WAYS if tuple(words[k:k + len(b)]) == b), None)
        if both is not None and forbidding and (k + len(both) == len(words)
                                                or words[k + len(both)] in _ENDS):
            a, b = toks[k], toks[k + len(both) - 1]
            out += [Token("at", a.start, a.end), Token("any", a.end, b.start),
                    Token("point", b.start, b.end)]
            k += len(both)
            continue
        out.append(toks[k])
        k += 1
    return out
