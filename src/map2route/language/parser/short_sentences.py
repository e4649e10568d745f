"""Sentences too short for the clause readers: "Starting from the kitchen." (where the route
starts, said as a fragment) and a lone "Go." after a terse request ("Telly in the big lounge.
Go.").

"Starting from X" opening a sentence is "Start from X", which the start readers take as where
the walk begins; a sentence that is only "Go" (with "now" or "please") after another sentence
only says to set off, so it is dropped (its one word is a request word the coverage check
does not count). Hand-written: two token rewrites, like the passes of :mod:`.human`.
"""

from __future__ import annotations

from map2route.language.tokens import Token

__all__ = ["short_sentences"]

_ENDS = frozenset({".", "!", "?", ";"})
_NOT_BARE = frozenset({",", ":", ";", "go", "walk", "head", "move", "stop", "come", "drive",
                       "roll", "wait", "then", "and"})
_GO_TAILS = ((), ("now",), ("please",), ("pls",))


def _bare(words: list[str], i: int) -> bool:
    """Whether the sentence from ``i`` to its full stop is a fragment: no comma, colon or
    verb of motion, which the start-scope readers take with their own words."""
    k = i
    while k < len(words) and words[k] not in (".", "!", "?"):
        if words[k] in _NOT_BARE:
            return False
        k += 1
    return k < len(words)


def short_sentences(toks: list[Token]) -> list[Token]:
    """Rewrite "Starting from X" at a sentence start and drop a lone "Go." (see the module)."""
    words = [t.text for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(toks):
        opens = i == 0 or words[i - 1] in _ENDS
        if opens and words[i] == "starting" and i + 1 < len(words) and \
                words[i + 1] in ("from", "at", "off") and _bare(words, i):
            out.append(Token("start", toks[i].start, toks[i].end))
            i += 1
            continue
        if opens and i > 0 and words[i] == "go":
            tail = next((t for t in _GO_TAILS if tuple(words[i + 1:i + 1 + len(t)]) == t and
                         (i + 1 + len(t) == len(words) or words[i + 1 + len(t)] in _ENDS)),
                        None)
            if tail is not None:
                i += 1 + len(tail) + (1 if i + 1 + len(tail) < len(words) else 0)
                continue
        out.append(toks[i])
        i += 1
    return out
