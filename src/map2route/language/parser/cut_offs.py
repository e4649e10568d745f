"""A request broken off mid-phrase and taken back: "go to the kitchen and get the- no wait,
scratch that, just go over to the toaster".

When speakers stop on a bare determiner ("get the-", "grab a-", "bring my-") and take it back
("no wait, scratch that", "no, forget that", "actually no"), what they take back is the whole
unfinished request, not only the phrase it broke off in: the kitchen above is no stop, and the
new request ("just go over to the toaster") stands in its place. Later passes read a run of
correction leads as replacing the last phrase, which kept the first request's room as a
stop. This pass, run first among the correction passes, reads that shape: a determiner, right
after it a run of leads with at least one that takes back ("no", "scratch that", ...), then a
move verb (after an optional "just" / "instead" / "simply"). The broken request, from the
start of its clause (the sentence's start, or the last comma / "then" / ";" before it) up to
the new verb, is moved to context with the leads, never dropped. A run followed by a bare
phrase ("get the- no wait, the toaster") is left for the later passes, as before.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.tokens import Token

__all__ = ["cut_off_requests"]

Context = list[tuple[str, tuple[int, int]]]

_ENDS = frozenset({".", "!", "?"})
_DETS = frozenset({"the", "a", "an", "my", "your", "some", "that", "this"})
_STRONG = (("no",), ("nope",), ("nah",), ("scratch", "that"), ("forget", "that"),
           ("strike", "that"), ("cancel", "that"), ("ignore", "that"), ("forget", "it"))
_SOFT = (("wait",), ("sorry",), ("actually",), ("hang", "on"), ("hold", "on"), ("oh",),
         ("oops",), ("um",), ("uh",), ("erm",), (",",), ("-",), (";",))
_JUST = frozenset({"just", "instead", "simply", "rather"})


def _at(words: list[str], k: int, seqs: tuple[tuple[str, ...], ...]) -> int:
    return max((len(s) for s in seqs if tuple(words[k:k + len(s)]) == s), default=0)


def _note(notes: Context, toks: list[Token]) -> None:
    toks = [t for t in toks if t.text not in (",", ";", ":", "-", *_ENDS)]
    if toks:
        notes.append((" ".join(t.text for t in toks), (toks[0].start, toks[-1].end)))


def _new_verb(words: list[str], d: int) -> int:
    """Where the new request's verb stands after the run of leads at ``d`` (0 if no run that
    takes back, or no move verb after it)."""
    k, back = d, False
    while k < len(words):
        n = _at(words, k, _STRONG)
        if n:
            back, k = True, k + n
            continue
        n = _at(words, k, _SOFT)
        if not n:
            break
        k += n
    if not back or k == d:
        return 0
    k += words[k:k + 1] != [] and words[k] in _JUST
    return k if words[k:k + 1] != [] and words[k] in W.MOVE_VERBS else 0


def cut_off_requests(toks: list[Token], notes: Context) -> list[Token]:
    """Move each request broken off on a determiner and taken back to ``notes``."""
    words = [t.text.lower() for t in toks]
    for d in range(1, len(words) - 1):
        if words[d] not in _DETS:
            continue
        verb = _new_verb(words, d + 1)
        if not verb:
            continue
        s = d
        while s > 0 and words[s - 1] not in _ENDS | {",", ";", "then"}:
            s -= 1
        if not any(w in W.MOVE_VERBS for w in words[s:d]):
            continue  # no request broken off: leave the leads to the later passes
        _note(notes, toks[s:verb])
        return cut_off_requests(toks[:s] + toks[verb:], notes)
    return toks
