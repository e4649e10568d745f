"""Legs named by the stop they lead to ("on the way to the second stop", "between those two
stops", "on that last bit"): the rewrites in :mod:`.stage_rewrites` and :mod:`.discourse_refs`
mark where the words were and which stop (``Marks.stage_legs``); once the route's stages are
known, :func:`tie_stage_legs` ties each such rule to the leg that ends at that stop, or refuses
a stop the route lacks."""

from __future__ import annotations

from map2route.language.errors import ParseError
from map2route.language.parser.model import Clause
from map2route.language.parser.rewrites import Marks

__all__ = ["tie_stage_legs"]


def tie_stage_legs(clauses: list[Clause], marks: Marks) -> None:
    """Give each "on the way to the Nth stop" constraint the leg to the Nth stage (-1: the last;
    a lap counts as a stop) instead of the leg to the stage said last before it.

    Raises:
        ParseError: the Nth stop of a route with fewer ("the third stop" of two): no leg to tie
            the rule to, and the leg said last (what an untied rule gets) would be a guess.
    """
    if not marks.stage_legs:
        return
    goals = [c for c in clauses if c.kind in ("goal", "pass", "circle") and c.refs]
    for s, k in sorted(marks.stage_legs.items()):
        # the constraint the words end ("keep away from the cart on the first leg": its span
        # stops just before them), else the first on "the way there" that ends after them
        leg = [c for c in clauses if c.kind not in ("goal", "pass") and
               c.during == {"this": True}]
        c = next((c for c in leg if 0 <= s - c.span[1] <= 2), None) or next(
            (c for c in leg if c.span[1] > s), None)
        if c is None or not goals and k < 0:
            continue
        if k > len(goals):
            where = goals[-1].refs[0].text.lower() if goals else "the sofa"
            raise ParseError(f"did not understand which leg {c.text!r} is on: it names stop {k} "
                             f"of a route with {len(goals)}; name the stop it leads to (e.g. "
                             f"'on the way to {where}')", c.text, c.span)
        c.during = {"until": goals[k - 1 if k > 0 else -1].refs[0]}
