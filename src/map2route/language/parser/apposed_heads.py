"""A thing described twice in apposition, its head said again: "Go to the sofa in the big living
room, the sofa beside the window", "after that the sofa in big living room, the sofa beside the
window".

After a comma, "the X" plus a description, right after a stop at "the X ...", is the same
stop described further (people add what picks it out), not a second stop at another X: it was
read as two stops. :func:`merge_apposed_heads` puts the second description into the first
stop. Only when the descriptions say different kinds of things (a room and a neighbour): two
descriptions of one kind ("the cup on the table, the cup on the counter") may name two things
and are left as they are; so is anything joined by "and" / "then" or a second visit asked for
("again"). Hand-written like the other stage repairs.
"""

from __future__ import annotations

import re

from map2route.language.parser.model import Clause

__all__ = ["merge_apposed_heads"]

_COMMA = re.compile(r"\s*[,\u2013\u2014-]\s*")
_AGAIN = re.compile(r"\b(?:again|back|twice|another|other|second|then|also)\b")


def _apposed(prev: Clause, c: Clause, text: str) -> bool:
    if prev.kind != "goal" or c.kind != "goal" or len(prev.refs) != 1 or len(c.refs) != 1:
        return False
    a, b = prev.refs[0], c.refs[0]
    if a.head != b.head or a.plural or b.plural or not a.modifiers or not b.modifiers or \
            a.head_kind not in ("object", "group", "window"):
        return False
    if c.span[0] != b.span[0] or not b.text.lower().startswith("the ") or \
            not _COMMA.fullmatch(text[prev.span[1]:c.span[0]]):
        return False
    if _AGAIN.search(text[c.span[0]:c.span[1]].lower()):
        return False
    return not {m.kind for m in a.modifiers} & {m.kind for m in b.modifiers}


def merge_apposed_heads(clauses: list[Clause], text: str) -> list[Clause]:
    """The stages with each apposed description merged into the stop before it."""
    out: list[Clause] = []
    for c in clauses:
        prev = out[-1] if out else None
        if prev is not None and _apposed(prev, c, text):
            ref = prev.refs[0]
            ref.modifiers.extend(c.refs[0].modifiers)
            ref.span = (ref.span[0], c.refs[0].span[1])
            ref.text = text[ref.span[0]:ref.span[1]]
            prev.span = (prev.span[0], c.span[1])
            continue
        out.append(c)
    return out
