"""Stage 4 of the NeSy-Route query parser: surfaces named by a property, and exclusions.

Queries often name terrain by what it is like ("a continuous paved surface", "open natural
ground", "soft or rough ground") rather than by class. ``surface_groups`` in
``language/lexicons/nesy.yaml`` maps such phrases to class groups; here each group found in a
clause is signed by the cue that governs it (the cue machinery of :mod:`.references`):

- permitted: its classes may be used (a conditionally traversable one becomes allowed);
- forbidden: its classes are excluded, always traversable ones included;
- required (a requirement cue governs it: "requires", "stay strictly on", "X only", "do not
  leave X"): the always traversable classes outside the union of the required groups are
  excluded ("requires a continuous paved surface" leaves a car the road only).

A class the query permits by name still wins over a group that forbids it ("the meadow but
no rough ground"). Hand-written because the rule is a few lines over stage 2's signs; the
phrases live in YAML.
"""

from __future__ import annotations

from map2route.language.nesy.lexicon import RESTRICT_BEFORE, SURFACE_GROUPS, phrases, words
from map2route.language.nesy.references import cue_positions, governing
from map2route.language.nesy.tokens import find, split_clauses, strip_from_to

_REQUIREMENT_CUES = [*phrases("requirement_cues"), *RESTRICT_BEFORE]
_LEAVING = words("leaving_words")
_SURFACE_FILLERS = words("surface_fillers")
_ARTICLES = words("surface_determiners")
#: (token tuple, classes), longest phrase first.
_GROUPS = sorted(((tuple(g["phrase"].split()), frozenset(int(c) for c in g["classes"]))
                  for g in SURFACE_GROUPS), key=lambda g: -len(g[0]))


def _group_mentions(clause: list[str]) -> list[tuple[int, int, frozenset[int]]]:
    """(start, end, classes) of surface phrases; fillers inside a phrase are skipped."""
    kept = [(i, t) for i, t in enumerate(clause) if t not in _SURFACE_FILLERS]
    toks = [t for _i, t in kept]
    used = [False] * len(toks)
    out = []
    for phrase, classes in _GROUPS:
        n = len(phrase)
        for k in range(len(toks) - n + 1):
            if tuple(toks[k:k + n]) == phrase and not any(used[k:k + n]):
                used[k:k + n] = [True] * n
                out.append((kept[k][0], kept[k + n - 1][0] + 1, classes))
    return sorted(out, key=lambda m: m[0])


def _left(clause: list[str], pos: int) -> bool:
    """Whether the surface at ``pos`` is a place being left ("leave the paved surfaces")."""
    k = pos - 1
    while k >= 0 and clause[k] in _ARTICLES:
        k -= 1
    return k >= 0 and clause[k] in _LEAVING


def _required(clause: list[str], pos: int, end: int, cues: list[tuple[int, int]]) -> bool:
    """A requirement cue governs the surface at ``pos``: the nearest cue before it, or a
    postposed "only" later in its comma segment ("paved areas only")."""
    hits = [i for w in _REQUIREMENT_CUES for i in find(clause, w)]
    segment_end = next((k for k in range(end, len(clause)) if clause[k] in (",", ":")),
                       len(clause))
    if "only" in clause[end:segment_end]:  # "paved areas / roads only"
        return True
    before = [i for i in hits if i < pos]
    cue_before = [p for p, _s in cues if p < pos and p not in hits]
    return bool(before) and (not cue_before or before[-1] >= cue_before[-1])


def surface_constraints(tokens: list[str], always: frozenset[int]
                        ) -> tuple[frozenset[int], frozenset[int]]:
    """Classes a query permits and excludes through surface phrases.

    Args:
        tokens: the query's tokens (stage 1).
        always: the agent's always traversable classes (only these a requirement excludes).

    Returns:
        ``(permitted, excluded)``; a class both permitted and excluded is excluded.
    """
    permitted: set[int] = set()
    excluded: set[int] = set()
    required: set[int] | None = None
    # the route's ends ("from a paved area to a linear paved surface") permit nothing
    for clause, _question in split_clauses(strip_from_to(tokens)):
        groups = _group_mentions(clause)
        if not groups:
            continue
        cues = cue_positions(clause)
        for pos, end, classes in groups:
            sign = governing(cues, pos) if cues else 0
            if _left(clause, pos):
                if sign < 0:  # "must not leave the paved surfaces": stay on them
                    required = (required or set()) | set(classes)
                continue
            if _required(clause, pos, end, cues):
                required = (required or set()) | set(classes)
            elif sign > 0:
                permitted |= classes
            elif sign < 0:
                excluded |= classes
    if required is not None:
        excluded |= set(always) - required
        permitted |= required
    return frozenset(permitted - excluded), frozenset(excluded)
