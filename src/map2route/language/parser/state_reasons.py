"""Terse reasons for a caution: the state of something, said after a comma.

Run early in :func:`.human.human_forms`, on the tokens as typed. People who tell the walker to
keep away from something often add why in a few words, with no "because": "keep away from the
walls, paint's still tacky", "stay away from the desk, papers everywhere on it", "keep away
from the tv stand, charger cables all over the floor there", "dont go into the little
bathroom, door's stuck", "keep away from the bed, laundry's piled all over it". Such a tail
says what state a thing is in, not where to go: it is taken out of the route and reported as
context (the places it names are reported too), never dropped.

A tail is read so only when all of these hold, so that a description or a further stop is
never taken for a reason:

* a caution (keep / stay / steer away or clear, avoid, don't, never, mind) comes earlier in
  the same sentence;
* the tail runs from a "," to the end of the sentence (or to ", and" / ", then" / ", but");
* it holds no verb that opens a request (go, stop, keep, ...) and no word that opens a
  relative or a scope (which, that, where, while, ...);
* it says a state: "'s" / "is" / "are" / "was" / "were" within its first three words, or
  "all over" / "everywhere" / "all round".

Hand-written, like the rest of the parser: the cue words are a closed class and each rewrite
keeps the character spans of what it took out.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.tokens import Token

__all__ = ["state_reasons"]

_ENDS = (".", "!", "?", ";")
#: Words that make a sentence a caution.
_CAUTION = frozenset({"keep", "stay", "steer", "avoid", "never", "mind", "not", "don't",
                      "dont", "careful"})
#: Words that open a relative, a scope or an apposition: never a terse reason.
_NOT_REASON = frozenset({"which", "that", "where", "while", "when", "until", "till", "til",
                         "if", "the", "one", "then", "and", "but", "or", "so", "please",
                         "pls", "on", "in", "at", "to", "by", "near", "past", "through",
                         "i", "you", "u", "we", "it", "this", "there", "whichever",
                         "not", "do", "preferably", "ideally", "especially", "even"})
_STATE = frozenset({"'s", "is", "are", "was", "were", "has", "have"})
_SPREAD = (("all", "over"), ("all", "round"), ("all", "around"), ("everywhere",))


def _tail_end(words: list[str], k: int) -> int:
    """Index where the tail starting at ``k`` ends."""
    j = k
    while j < len(words) and words[j] not in _ENDS and not (
            words[j] == "," and j + 1 < len(words) and words[j + 1] in ("and", "then", "but")):
        j += 1
    return j  # a closing "lol" / "thx" goes with the reason


def _is_reason(words: list[str], k: int, end: int) -> bool:
    tail = words[k:end]
    if not tail or tail[0] in _NOT_REASON or not tail[0].isalpha():
        return False
    if any(w in W.MOVE_VERBS or w in _NOT_REASON - {"the", "on", "in", "at", "by", "near",
                                                      "there", "it", "i", "and", "not"}
           for w in tail[1:]):
        return False
    if any(w in ("keep", "stay", "stop", "wait", "go", "avoid", "visit", "head") for w in tail):
        return False
    said = any(w in _STATE for w in tail[1:4])
    spread = any(tuple(tail[n:n + len(s)]) == s for n in range(len(tail)) for s in _SPREAD)
    return said or spread


def state_reasons(toks: list[Token]
                  ) -> tuple[list[Token], list[tuple[str, tuple[int, int]]]]:
    """Take the terse reasons of the module docstring out; returns the tokens and the
    reasons (text and character span) as context."""
    words = [t.text for t in toks]
    context: list[tuple[str, tuple[int, int]]] = []
    out: list[Token] = []
    caution = False
    k = 0
    while k < len(toks):
        w = words[k]
        if w in _ENDS:
            caution = False
        elif w in _CAUTION:
            caution = True
        if w == "," and caution and k + 1 < len(toks):
            end = _tail_end(words, k + 1)
            if _is_reason(words, k + 1, end):
                context.append((" ".join(words[k + 1:end]), (toks[k + 1].start,
                                                               toks[end - 1].end)))
                k = end
                continue
        out.append(toks[k])
        k += 1
    return out, context
