"""Stage 2 of the parser: scopes of a clause span ("while in the kitchen", "on the way to X").

A scope phrase at the start or the end of a span restricts the clause's constraint in space
(``within``: a room) or in time (``during``: ``{"until": X}`` for the leg up to X,
``{"after": X}``, ``{"this": True}`` for the leg the clause belongs to). :meth:`scopes` peels
them off and returns the body that is left.
"""

from __future__ import annotations

from typing import Any

from map2route.language.parser import words as W
from map2route.language.parser.constraints import ConstraintReader
from map2route.language.parser.model import RefExpr


class ScopeReader(ConstraintReader):
    """Reads scope phrases: :meth:`scopes`."""

    def scopes(self, i: int, j: int) -> tuple[int, int, RefExpr | None, dict[str, Any] | None]:
        """Find leading or trailing scope phrases in ``[i, j)``.

        Returns the body ``(start, end)``, the spatial scope (a room) and the temporal scope.
        """
        within: RefExpr | None = None
        during: dict[str, Any] | None = None

        def take(kind: str, value: Any) -> None:
            nonlocal within, during
            if kind == "within":
                within = within or value
            elif kind != "whole":
                during = during or value

        changed = True
        while changed and i < j:
            changed = False
            got = self._scope_at(i, j)
            if got is not None and (got[2] >= j or self.w(got[2]) in (",", ".") or (
                    got[0] != "whole" and self._is_pref(got[2]) and got[2] > i + 1)):
                # "while you are in the kitchen stay close to X": no comma after the scope
                take(got[0], got[1])
                i = got[2] + (1 if self.w(got[2]) == "," else 0)
                changed = True
                continue
            jj = j
            while jj > i and self.w(jj - 1) in (".", "!", "?", ";", ",", "entirely",
                                                "completely", "altogether"):
                jj -= 1
            for t in range(i + 1, jj):
                if self.w(t) not in W.SCOPE_FIRST:
                    continue
                got = self._scope_at(t, jj)
                if got is None or got[2] < jj:
                    continue
                if got[0] == "within" and self.w(t) in ("in", "inside", "within", "across",
                                                        "throughout") and not self._is_pref(i):
                    continue
                take(got[0], got[1])
                j = t - (1 if self.w(t - 1) == "," else 0)
                changed = True
                break
        return i, j, within, during

    def _scope_at(self, t: int, j: int) -> tuple[str, Any, int] | None:
        """A scope phrase at ``t``: (kind, value, token after it), kind one of ``whole``,
        ``this``, ``until``, ``after``, ``within``."""
        n = self.at_any(t, W.WHOLE)
        if n:
            return "whole", None, t + n
        n = self.at_any(t, W.ON_THE_WAY)
        if n and self.w(t + n) not in ("to", "towards", "toward", "over", "there", "through", "thru"):
            # "on the way, stay close to the sofa": the leg just named
            return "this", {"this": True}, t + n
        n = self.at_any(t, W.TEMPORAL)
        if n and self.at(t, "up", "to") and self.w(t - 1).endswith("ed"):
            n = 0  # "the chair pulled up to the desk": where it stands, not a leg's end
        if n:
            ref = self.np(t + n, j, 0)
            if ref is not None:
                if self.w(t) in ("until", "till", "before"):
                    self.reached.add(ref[0].span)  # "until you reach X": X ends the leg
                return "until", {"until": ref[0]}, ref[1]
        n = self.at_any(t, W.AFTER)
        if n and self.w(t + n) in ("that", "this", "which") and (
                self.w(t + n + 1) in W.DETS | {",", ""} or self._opens_clause(t + n + 1)):
            n = 0  # "and after that the bed": a sequence word, not "after visiting X"
        if n:
            ref = self.np(t + n, j, 0)
            if ref is not None:
                return "after", {"after": ref[0]}, ref[1]
        n = self.at_any(t, W.SPATIAL)
        if n:
            ref = self.np(t + n, j, 0)
            if ref is not None and ref[0].head_kind == "room":
                return "within", ref[0], ref[1]
        return None
