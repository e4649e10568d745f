"""Sub-goal decomposition, kept at its old import path: it lives in
:mod:`map2route.language.directions` (it reads language only)."""

from __future__ import annotations

from map2route.language.directions import (
    NUMBER_WORDS,
    ORDINAL_WORDS,
    RELATIVE_WORDS,
    Action,
    Condition,
    SubGoal,
    decompose,
    normalise,
    split_clauses,
)

__all__ = ["NUMBER_WORDS", "ORDINAL_WORDS", "RELATIVE_WORDS", "Action", "Condition", "SubGoal",
           "decompose", "normalise", "split_clauses"]
