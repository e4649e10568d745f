"""Token helpers shared by :mod:`.destination_forms` and :mod:`.destination_picks`: the words
of a token list, the head at a position, a sentence's end, and taking words out as context
(with their character span, so the parse reports them instead of dropping them).
Hand-written with the rest of the parser.
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

ENDS = (".", "!", "?")
#: What a pass took out of the route, each with its character span.
Context = list[tuple[str, tuple[int, int]]]


def words_of(toks: list[Token]) -> list[str]:
    return [t.text for t in toks]


def head_at(words: list[str], k: int) -> tuple[int, str, str, bool] | None:
    lex = head_lexicon()
    return lex.match(words[k:k + lex.max_len]) if 0 <= k < len(words) else None


def take(toks: list[Token], a: int, b: int, ctx: Context) -> None:
    """Note ``toks[a:b]`` as context (the caller leaves them out)."""
    body = [t for t in toks[a:b] if t.text not in (",", ":", ";", "-")]
    if body:
        ctx.append((" ".join(t.text for t in body), (body[0].start, body[-1].end)))


def opens(words: list[str], k: int) -> bool:
    return k == 0 or words[k - 1] in (*ENDS, ";", ":")


def sentence_end(words: list[str], k: int) -> int:
    while k < len(words) and words[k] not in ENDS:
        k += 1
    return k


def tok(text: str, like: Token, end: Token | None = None) -> Token:
    return Token(text, like.start, (end or like).end)


#: Words that open a spoken sentence without adding to it.
FILLERS = frozenset({"ok", "okay", "so", "um", "uh", "erm", "right", "alright", "well", "hey",
                     "hi", ",", "now", "and"})


#: What follows a room left for another one in the same breath ("..., then into the bathroom").
_ONWARD = ([",", "then"], ["then", "into"], [",", "into"], ["and", "then"], ["and", "into"])


def crossed_into(words: list[str], q: int) -> bool:
    """Whether the room after "into" at ``q`` ("go through into the living room, then into
    the bathroom") is left for another: crossed, not where the walk ends."""
    e = q + 1
    while e < len(words) and e - q < 6 and words[e] not in (*ENDS, ",", "then", "and"):
        e += 1
    return words[q] == "into" and words[e:e + 2] in _ONWARD
