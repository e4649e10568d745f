"""A rejected alternative said without a correction marker: "Go to the sofa. Not the one by
the window, the other one.", "the sink - not the one in the kitchen, the other one", "the chair
in the kitchen, not the one near the fridge".

People name the thing they mean and then, in the same breath, the one they do not mean. Said
after "no wait" the rejection is already read (:mod:`.errand_talk` turns "No wait, not the one
in X" into "No wait, the one that is not in X"); said bare, after a comma, a dash or a full
stop, it was refused at "not". The rejection says the same as it does after the marker, so
the marker is put in front of it (zero-width tokens: nothing of the text is added or lost) and
the later stages read it as before. Only the shape "not the one(s) <place word> ..." is taken;
"not the big one, the small one" and "not that one" have their own readings, and so has "the
plant, not the one by the window" after a comma with nothing after it (read as a negated
relative, or refused where the one could be either of two things) and "Not the one in the
kitchen, the one by the desk" (a negated partitive): the marker is put only where ", the other
one" ends the rejection.

Hand-written, like the rest of the parser, so that the spans are kept and a form that does not
match exactly is left for the later stages to read or refuse.
"""

from __future__ import annotations

from map2route.language.tokens import Token

__all__ = ["unmarked_rejections"]

#: Where a bare rejection may start: after a comma, a dash (tokenised as a comma) or a stop.
_OPENERS = (",", ".", "!", "?", ";")
#: Place words after "not the one" that the marked reading takes.
_PLACES = frozenset({"with", "in", "by", "near", "next", "beside", "on"})
#: Words before the rejection that already mark a correction.
_MARKED = frozenset({"no", "wait", "actually", "sorry", "nope", "oops"})


def unmarked_rejections(toks: list[Token]) -> list[Token]:
    """"X, not the one by Y" -> "X, no wait, not the one by Y" (the marker zero-width)."""
    words = [t.text for t in toks]
    out: list[Token] = []
    for k, t in enumerate(toks):
        if (0 < k and words[k - 1] in _OPENERS and words[k:k + 3] == ["not", "the", "one"]
                and k + 3 < len(words) and words[k + 3] in _PLACES
                and not _MARKED & set(words[max(0, k - 4):k])
                and _other_follows(words, k)):
            out += [Token("no", t.start, t.start), Token("wait", t.start, t.start),
                    Token(",", t.start, t.start)]
        out.append(t)
    return out


def _other_follows(words: list[str], k: int) -> bool:
    """Whether the rejection at ``k`` ends its sentence with ", the other (one)"."""
    for q in range(k, len(words) - 2):
        if words[q] in (".", "!", "?", ";"):
            return False
        if words[q:q + 3] == [",", "the", "other"]:
            return True
    return False
