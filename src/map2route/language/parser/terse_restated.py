"""A terse request said first and then again in full: "Fridge please. Go to the fridge and wait
there.", "fridge pls. go to fridge ...", "The sofa, please! Head over to the sofa.".

The fragment sentence (a bare thing with only polite words around it) and the full sentence
after it name one stop: people say what they want and then say it properly. It was read as two
stops at the same thing. :func:`drop_terse_restated` drops the fragment's stage when the next
stage, opening the next sentence, has the same head and the fragment described nothing more
(a fragment that says more, "Fridge in the kitchen please. Go to the fridge.", is left as it
is). The fragment is returned for the parse's context (``restated: ...``), so nothing is
dropped unreported. Hand-written like the other stage repairs.
"""

from __future__ import annotations

import re

from map2route.language.parser.model import Clause

__all__ = ["drop_terse_restated"]

_POLITE = re.compile(r"(?:\s|please|pls|plz|pleas|thanks|thank you|now|[,!.])*")
_ENDS = ".!?"
#: A second visit asked for: "Fridge please. Go to the fridge again." keeps both stops.
_AGAIN = re.compile(r"\b(?:again|back|twice|another|return)\b")


def _sentence(text: str, a: int, b: int) -> tuple[int, int]:
    """The sentence around ``text[a:b]``: from after the end mark before it to its end mark."""
    lo = max(text.rfind(e, 0, a) for e in _ENDS) + 1
    his = [p for p in (text.find(e, b) for e in _ENDS) if p >= 0]
    return lo, (min(his) + 1 if his else len(text))


def _terse(c: Clause, text: str) -> tuple[int, int] | None:
    """The sentence of ``c`` when it is only its thing with polite words, else None."""
    ref = c.refs[0]
    lo, hi = _sentence(text, *ref.span)
    rest = text[lo:ref.span[0]] + " " + text[ref.span[1]:hi]
    return (lo, hi) if _POLITE.fullmatch(rest.lower()) else None


def drop_terse_restated(clauses: list[Clause], text: str) -> tuple[list[Clause], list[str]]:
    """The stages without a terse fragment restated by the next sentence, and the fragments."""
    out: list[Clause] = []
    said: list[str] = []
    for n, c in enumerate(clauses):
        nxt = clauses[n + 1] if n + 1 < len(clauses) else None
        if nxt is not None and c.kind == nxt.kind == "goal" and len(c.refs) == len(nxt.refs) == 1 \
                and not c.refs[0].modifiers and not c.refs[0].plural and not nxt.refs[0].plural \
                and c.refs[0].head == nxt.refs[0].head and c.refs[0].head_kind != "start":
            got = _terse(c, text)
            if got is not None and not text[got[1]:nxt.span[0]].strip() and \
                    not _AGAIN.search(text[nxt.span[0]:nxt.span[1]].lower()) and \
                    _sentence(text, *nxt.refs[0].span)[0] == got[1]:
                said.append(f"restated: {text[got[0]:got[1]].strip()}")
                continue
        out.append(c)
    return out, said
