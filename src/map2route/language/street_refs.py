"""Crossings named by a pronoun in street directions (used by :mod:`directions`).

"Go straight until the large intersection. Go straight through it", "when you reach a light
with The Garret on the corner, go through it", "The following light will have Butcher's
Daughter, go through that as well": the crossing is the one the text just reached or
described, and the clause passes it.
"""

from __future__ import annotations

import re

_THROUGH_IT_RE = re.compile(
    r"^(?:go|walk|continue|keep going|head|proceed|cross|pass)\s+(?:straight\s+|right\s+)?"
    r"(?:through|across|past)\s+(?P<what>it|that|this|them|both(?: of them)?)\b")


def through_it(clause: str, feature: str) -> tuple[str, int] | None:
    """``(feature, count)`` passed by a clause like "go through it" ("them", "both": two);
    ``None`` when the clause is not one or no crossing was named before it."""
    m = _THROUGH_IT_RE.search(clause)
    if m is None or feature not in ("light", "intersection", "t"):
        return None
    count = 2 if m.group("what") in ("them", "both", "both of them") else 1
    return feature, count
