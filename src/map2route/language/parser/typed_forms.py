"""Typed shortcuts of a state said after a request, written out: ", floor's still wet in the
middle" -> ", the floor's still wet in the middle" (a surface said without its article, read
then as the reason it is by :mod:`.reason_moves` / :mod:`.constraint_frames`).

Run first in :func:`.human.human_forms`, on the tokens as typed; only the article is added
(with the surface word's span), so nothing is read that was not said.
"""

from __future__ import annotations

from map2route.language.tokens import Token

#: Surfaces a reason names ("floor's wet", "carpet is being cleaned").
_SURFACES = frozenset({"floor", "floors", "ground", "carpet", "rug", "tiles"})
_COPULAS = frozenset({"'s", "is", "are", "was", "were"})


def surface_articles(toks: list[Token]) -> list[Token]:
    """", floor's still wet" -> ", the floor's still wet": a surface after a comma, before a
    copula, gets the article a reason's subject is read with (and its "'s" before a state is
    "is")."""
    out: list[Token] = []
    for n, t in enumerate(toks):
        nxt = toks[n + 1].text if n + 1 < len(toks) else ""
        after = toks[n + 2].text if n + 2 < len(toks) else ""
        if t.text in _SURFACES and out and out[-1].text in (",", "the") and nxt in _COPULAS:
            if out[-1].text == ",":
                out.append(Token("the", t.start, t.end))
            out.append(t)
            if nxt == "'s" and after in _STATE_WORDS:
                # "floor's still wet": the verb, not a possessive
                out.append(Token("is", toks[n + 1].start, toks[n + 1].end))
                toks[n + 1] = Token("", toks[n + 1].start, toks[n + 1].end)
            continue
        if t.text:
            out.append(t)
    return out


#: Words after a surface's "'s" that make it "is" ("floor's still wet", "carpet's being
#: cleaned"), never a possessive.
_STATE_WORDS = frozenset({"still", "wet", "not", "too", "very", "really", "slippery", "sticky",
                          "dirty", "being", "been", "just", "all", "covered", "freshly"})
