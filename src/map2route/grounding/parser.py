"""The instruction parser, kept at its old import path: it lives in :mod:`map2route.language.parser`."""

from __future__ import annotations

from map2route.language.parser import (
    ATTACHMENTS,
    MAX_INSTRUCTION_CHARS,
    Clause,
    InstructionParse,
    InstructionTooLongError,
    Modifier,
    ParseError,
    RefExpr,
    Token,
    match_stage,
    norm_text,
    parse_instruction,
    tokenize,
)

__all__ = ["ATTACHMENTS", "MAX_INSTRUCTION_CHARS", "Clause", "InstructionParse",
           "InstructionTooLongError", "Modifier", "ParseError", "RefExpr", "Token",
           "match_stage", "norm_text", "parse_instruction", "tokenize"]
