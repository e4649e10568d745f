"""The error type of the grounding package and the structured issue a repair step reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from map2route.errors import Map2RouteError


@dataclass(frozen=True)
class GroundingIssue:
    """One thing wrong with a grounding program or the RouteIR it produced.

    Attributes:
        code: a stable machine-readable code (``ambiguous_reference``, ``no_referent``,
            ``forbidden_syntax``, ``runtime_error``, ``cpu_limit``, ...).
        message: what is wrong and what to do, for a person or an LLM.
        span: where: ``(line, column)`` in the program, or ``(start, end)`` characters of the
            instruction when ``span_kind`` is ``"instruction"``; ``None`` when unknown.
        span_kind: ``"program"`` or ``"instruction"``.
        candidates: for reference errors, the labels of the objects or rooms that matched.
    """

    code: str
    message: str
    span: tuple[int, int] | None = None
    span_kind: str = "program"
    candidates: tuple[str, ...] = ()
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message,
                "span": None if self.span is None else list(self.span),
                "span_kind": self.span_kind, "candidates": list(self.candidates)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GroundingIssue:
        span = data.get("span")
        return cls(code=str(data["code"]), message=str(data["message"]),
                   span=None if span is None else (int(span[0]), int(span[1])),
                   span_kind=str(data.get("span_kind", "program")),
                   candidates=tuple(str(c) for c in data.get("candidates", ())))

    def render(self) -> str:
        """One line: ``code at line L: message (candidates: ...)``."""
        where = ""
        if self.span is not None:
            where = (f" at line {self.span[0]}" if self.span_kind == "program"
                     else f" at characters {self.span[0]}-{self.span[1]}")
        cands = f" (candidates: {', '.join(self.candidates)})" if self.candidates else ""
        return f"{self.code}{where}: {self.message}{cands}"


class GroundingError(Map2RouteError):
    """An instruction could not be grounded into a valid RouteIR.

    Attributes:
        issues: the structured problems of the last attempt (what a repair step reads).
    """

    def __init__(self, message: str, issues: tuple[GroundingIssue, ...] = ()) -> None:
        super().__init__(message)
        self.issues = issues


class ProgramIssue(Exception):
    """Raised inside a grounding program by the API; carries a :class:`GroundingIssue`.

    Not a :class:`Map2RouteError`: it never leaves the executor, which turns it into an issue.
    """

    def __init__(self, issue: GroundingIssue) -> None:
        super().__init__(issue.message)
        self.issue = issue
