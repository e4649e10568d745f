"""Legs named by their ends and stops said with a manner word: "on the stretch from the telly
to the hamper", "for the part from the dog bed to the fridge", "on the leg between the sofa and
the bed", "go all the way (down) to the sink", "go there and stop".

Crowd writers name one leg of a route by the two stops it joins, with a noun for a piece of
the walk ("stretch", "leg", "part", "bit", "section") where the parser reads "the way"; they
stress how far a move goes ("all the way to") and close a move to a place said before with
"and stop" / "and wait". :func:`leg_ends` rewrites each onto the phrasing already read ("on the
way from X to Y", "between X and Y", "to", "go there", "toaster, the one on ..."), keeping the character spans so that a
later refusal still points into the original text; the folded words are read (the leg, the
stop), never dropped. A piece-of-walk noun not followed by "from" / "between", and "all the
way" not followed by "to", are left alone (so "the leg of the table" or "all the way round"
still reach the later stages, which read or refuse them).

Closed constructions of a few words, so they are written by hand like the rest of the parser.
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["leg_ends"]

_PIECES = frozenset({"stretch", "leg", "part", "bit", "section", "stage", "trip", "walk"})
_OPENERS = frozenset({"on", "for", "during", "along", "over"})
_SLANTS = frozenset({"down", "over", "up", "across", "back", "out"})
_STOPS = frozenset({"stop", "wait", "halt", "stay", "park"})
_ENDS = frozenset({".", ",", ";", "!", "?", ")"})


def _piece(toks: list[Token], i: int) -> list[Token] | None:
    """"on / for the stretch from" -> "on the way from"; "on the leg between" -> "between"."""
    w = [t.text for t in toks[i:i + 4]]
    if len(w) < 4 or w[0] not in _OPENERS or w[1] not in ("the", "that", "this") or \
            w[2] not in _PIECES:
        return None
    if w[3] == "from":
        return [Token("on", toks[i].start, toks[i].end), toks[i + 1],
                Token("way", toks[i + 2].start, toks[i + 2].end)]
    if w[3] == "between":
        return [Token("between", toks[i].start, toks[i + 3].end)]
    return None


def _all_the_way(toks: list[Token], i: int) -> tuple[list[Token], int] | None:
    """"all the way (down) to" -> "to" (the slant word kept: it is read as before)."""
    w = [t.text for t in toks[i:i + 5]]
    if w[:3] != ["all", "the", "way"]:
        return None
    k = i + 3 + (len(w) > 3 and w[3] in _SLANTS)
    if k < len(toks) and toks[k].text in ("to", "into", "over"):
        nxt = toks[i + 3]
        return [Token(nxt.text, toks[i].start, nxt.end)], i + 4
    return None


def _there_and_stop(toks: list[Token], i: int) -> int | None:
    """"there and stop" at a clause's end -> "there": the stop is the move's end."""
    w = [t.text for t in toks[i:i + 4]]
    if len(w) >= 3 and w[0] == "there" and w[1] == "and" and w[2] in _STOPS and \
            (len(w) == 3 or w[3] in _ENDS):
        return i + 3
    return None


def _bare_head_then_one(toks: list[Token], i: int) -> bool:
    """Whether ``toks[i]`` is the "." of a sentence that is only a thing ("toaster.", "the
    toaster.") followed by "the one ..." that says which: one apposition, not two places."""
    if toks[i].text != "." or [t.text for t in toks[i + 1:i + 3]] != ["the", "one"]:
        return False
    a = i
    while a > 0 and toks[a - 1].text not in (".", "!", "?", ";"):
        a -= 1
    words = [t.text for t in toks[a:i]]
    if words[:1] == ["the"]:
        words = words[1:]
    hit = head_lexicon().match(words) if words else None
    return hit is not None and hit[0] == len(words) and hit[2] == "object"


def leg_ends(toks: list[Token]) -> list[Token]:
    """Rewrite the constructions of the module docstring."""
    out: list[Token] = []
    i = 0
    while i < len(toks):
        if _bare_head_then_one(toks, i):  # "toaster. the one on the counter." -> "toaster, the one"
            out.append(Token(",", toks[i].start, toks[i].end))
            i += 1
            continue
        piece = _piece(toks, i)
        if piece is not None:
            out.extend(piece)
            i += 4 if piece[0].text == "between" else 3
            continue
        far = _all_the_way(toks, i)
        if far is not None:
            out.extend(far[0])
            i = far[1]
            continue
        end = _there_and_stop(toks, i)
        if end is not None:  # "and stop" read into the clause's end mark
            out.append(toks[i])
            mark = toks[end] if end < len(toks) else None
            out.append(Token(mark.text if mark else ".", toks[i + 1].start,
                             mark.end if mark else toks[end - 1].end))
            i = end + (mark is not None)
            continue
        out.append(toks[i])
        i += 1
    return out
