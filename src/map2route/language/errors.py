"""Errors of the language package."""

from __future__ import annotations

from map2route.errors import Map2RouteError


class LanguageError(Map2RouteError):
    """Base of the language package's errors."""


class LexiconError(LanguageError):
    """A lexicon file is missing, malformed or lacks an entry the code reads."""


class ParseError(LanguageError):
    """The parser could not understand part of the instruction; ``word`` names it."""

    def __init__(self, message: str, word: str = "", span: tuple[int, int] | None = None) -> None:
        super().__init__(message)
        self.word = word
        self.span = span


class InstructionTooLongError(ParseError):
    """The instruction is longer than the parser's limit (see ``max_chars``)."""
