"""Learner English: "go until the TV stand", "next the fridge", "give lot of space to X".

Writers whose first language is not English (set AK) put the right words in slightly wrong
frames, and the parser read them wrongly or refused: a motion verb with "until" for its goal
("Move until the washing machine", "go untill the TV stand"), "next" without "to" ("I am
standing next the fridge", read as a second stop), "away of" / "far of" for "away from",
"trough" for "through" after a motion verb, "a full lap" for "a lap", "for moment" for "for a
moment", "she dont like" for "she does not like"
(a stop restated, "wait me there", is read by :mod:`.stop_repeats`), and
the space-giving frames "Give lot of space to X" / "leave much free space around X". Writers
of set AH open a request with where the route starts and then a wish ("Starting from the
couch ..., I'd like you to go to ...") and say "carry on out to the front door".

:func:`learner_forms` rewrites each onto the English form the later stages already read,
keeping character spans: a word taken out is folded into the span of the word beside it, so
nothing is dropped silently. Each rewrite needs its whole frame (a motion verb before
"until"/"trough", a determiner after "next" and no determiner before it, ...), so "wait until
you reach the door", "the next bedroom" and "a water trough" are left alone. The frames are a
closed list of a few words each, so they are written by hand like the rest of the parser.
"""

from __future__ import annotations

from map2route.language.tokens import Token

__all__ = ["learner_forms"]

#: Motion verbs whose goal a learner gives with "until" / whose path with "trough".
_MOVERS = ("go", "move", "walk", "drive", "come", "roll", "head", "run", "travel", "continue",
           "proceed", "get", "pass", "cut")
#: Words that open the thing after "next" ("next the fridge").
_DETS = ("the", "a", "an", "my", "your", "this", "that")
#: Words before "next" that make it the ordinal ("the next room", "go next", "and next").
_ORDINAL_BEFORE = ("the", "a", "an", "this", "that", "to", "into", "and", "then", "go", "",
                   ".", ",", ";", ":", "!", "?", "what", "which", "s", "'s")
#: Quantities of a space-giving frame ("give lot of space", "leave much free space").
_AMOUNTS = (("a", "lot", "of"), ("lot", "of"), ("lots", "of"), ("much",), ("plenty", "of"),
            ("a", "lot"), ("more",), ("big",), ("a", "big"), ("enough",))
#: Wishes after a "Starting from X," opener.
_WISHES = (("i", "would", "like", "you", "to"), ("i", "want", "you", "to"),
           ("i", "need", "you", "to"))


def _tok(text: str, first: Token, last: Token) -> Token:
    return Token(text, first.start, last.end)


def _space_frame(words: list[str], i: int) -> tuple[int, int] | None:
    """(length, index of "space") of "give|leave AMOUNT (free) space|room to|around|round"
    at ``i``, or None."""
    if words[i] not in ("give", "leave"):
        return None
    k = i + 1
    amount = max((len(a) for a in _AMOUNTS if tuple(words[k:k + len(a)]) == a), default=0)
    if not amount:
        return None
    k += amount
    if words[k:k + 1] == ["free"]:
        k += 1
    if words[k:k + 1] not in (["space"], ["room"], ["distance"]):
        return None  # "give big distance to X" (set N's grid) is the same frame
    if words[k + 1:k + 2] not in (["to"], ["around"], ["round"], ["for"]):
        return None
    return k + 2 - i, k


def learner_forms(toks: list[Token]) -> list[Token]:
    """Rewrite the learner and restated-stop frames of the module docstring."""
    words = [t.text for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(toks):
        w, t = words[i], toks[i]
        prev = words[i - 1] if i else ""
        nxt = words[i + 1] if i + 1 < len(words) else ""
        # "move until the X" / "go untill the X" -> "move to the X"
        if w in ("until", "untill", "till") and prev in _MOVERS and nxt in _DETS:
            out.append(Token("to", t.start, t.end))
        elif w == "untill":
            out.append(Token("until", t.start, t.end))
        # "do one full lap round the table" -> "do one lap ...": a lap is a whole one
        elif w in ("full", "complete", "whole", "entire") and prev in ("a", "one") and \
                nxt in ("lap", "loop", "circle", "circuit") and \
                i >= 2 and words[i - 2] in ("do", "make", "doing", "making"):
            out.append(Token(nxt, t.start, toks[i + 1].end))
            i += 1
        # "she dont like ..." -> "she does not like ..." (the tokenizer reads "dont" as "do not")
        elif w == "do" and prev in ("she", "he") and nxt == "not":
            out.append(Token("does", t.start, t.end))
        # "next the fridge" -> "next to the fridge"
        elif w == "next" and nxt in _DETS and prev not in _ORDINAL_BEFORE:
            out.append(t)
            out.append(Token("to", t.start, t.end))
        # "stop at TV for moment before you carry on" -> "... for a moment ...": the article
        # a learner drops before a while (only where the while closes its clause)
        elif w == "for" and nxt in ("moment", "minute", "second", "sec", "bit") and \
                words[i + 2:i + 3] in ([], ["."], [","], ["!"], ["before"], ["then"], ["and"]):
            out.append(t)
            out.append(Token("a", t.start, t.end))
        # "stay away of" / "keep far of" -> "... from"
        elif w == "of" and prev in ("away", "far"):
            out.append(Token("from", t.start, t.end))
        # "go trough the kitchen" -> "go through the kitchen"
        elif w == "trough" and prev in _MOVERS and nxt in _DETS:
            out.append(Token("through", t.start, t.end))
        # "give lot of space to X" / "leave much free space around X" -> "leave lots of
        # space around X"
        elif (frame := _space_frame(words, i)) is not None:
            n, sp = frame
            out.append(Token("leave", t.start, t.end))
            out.append(Token("lots", toks[i + 1].start, toks[sp - 1].end))
            out.append(Token("of", toks[i + 1].start, toks[sp - 1].end))
            out.append(Token("space", toks[sp].start, toks[sp].end))
            out.append(Token("around", toks[i + n - 1].start, toks[i + n - 1].end))
            i += n
            continue
        # "carry on out to the door" -> "carry on to the door"
        elif w == "out" and nxt == "to" and words[i - 2:i] in (["carry", "on"], ["go", "on"]):
            out.append(_tok("to", t, toks[i + 1]))
            i += 2
            continue
        # "Starting from X, I'd like you to go ..." -> "Starting from X, go ..."
        elif w == "," and "starting" in words[max(0, i - 12):i] and (wish := max(
                (len(s) for s in _WISHES if tuple(words[i + 1:i + 1 + len(s)]) == s),
                default=0)) and i + 1 + wish < len(toks):
            out.append(t)
            k = i + 1 + wish
            out.append(_tok(words[k], toks[i + 1], toks[k]))
            i = k + 1
            continue
        else:
            out.append(t)
        i += 1
    return out
