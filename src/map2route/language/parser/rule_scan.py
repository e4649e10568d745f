"""The token scan that several rewrite passes share: at each token, try the pass's rules in
order; the first that fires consumes its tokens, and a token no rule takes is kept.

Two rule shapes exist among the passes: a rule that returns the tokens it writes and where
to go on (``rule(toks, words, k, *extra) -> (written, next) | None``: :func:`scan_writing`),
and a rule that appends to the output itself and returns how many tokens it took
(``rule(words, toks, i, out) -> n``, 0 when it does not fire: :func:`scan_appending`).
Hand-written: a ten-line loop, kept in one place so a pass cannot drift from the others.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from map2route.language.tokens import Token

__all__ = ["scan_appending", "scan_writing"]

WritingRule = Callable[..., "tuple[list[Token], int] | None"]
AppendingRule = Callable[[list[str], list[Token], int, list[Token]], int]


def scan_writing(toks: list[Token], words: list[str], rules: Sequence[WritingRule],
                 *extra: Any) -> list[Token]:
    """Apply rules of the shape ``rule(toks, words, k, *extra) -> (written, next) | None``."""
    out: list[Token] = []
    k = 0
    while k < len(toks):
        for rule in rules:
            got = rule(toks, words, k, *extra)
            if got is not None:
                out += got[0]
                k = got[1]
                break
        else:
            out.append(toks[k])
            k += 1
    return out


def scan_appending(toks: list[Token], words: list[str],
                   rules: Sequence[AppendingRule]) -> list[Token]:
    """Apply rules of the shape ``rule(words, toks, i, out) -> n`` (0: the rule did not fire)."""
    out: list[Token] = []
    i = 0
    while i < len(toks):
        for rule in rules:
            n = rule(words, toks, i, out)
            if n:
                i += n
                break
        else:
            out.append(toks[i])
            i += 1
    return out
