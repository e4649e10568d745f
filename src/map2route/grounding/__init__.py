"""Grounding: instruction -> grounding program -> verified RouteIR (paper 000, IV-A to IV-C).

Public names:

- :class:`GroundingAPI` (``api``): the read-only semantic-map API programs compose.
- :func:`check_program`, :class:`SandboxRunner`, :func:`run_in_process` (``sandbox``).
- :func:`verify` (``verifier``): structured :class:`GroundingIssue` values.
- :func:`parse_instruction` (``parser``) and :func:`write_program` (``writer``): the offline
  grounder's front end.
- :class:`OfflineGrounder`, :class:`LLMGrounder`, :func:`make_grounder`, :func:`repair_loop`
  (``grounder``).
"""

from __future__ import annotations

from map2route.grounding.api import GroundingAPI, api_reference
from map2route.grounding.config import GroundingConfig, load_config
from map2route.grounding.errors import GroundingError, GroundingIssue
from map2route.grounding.grounder import (
    Grounding,
    LLMGrounder,
    OfflineGrounder,
    make_grounder,
    repair_loop,
)
from map2route.grounding.parser import ParseError, parse_instruction
from map2route.grounding.sandbox import SandboxRunner, check_program, run_in_process
from map2route.grounding.verifier import verify
from map2route.grounding.writer import write_program

__all__ = [
    "Grounding",
    "GroundingAPI",
    "GroundingError",
    "GroundingIssue",
    "LLMGrounder",
    "OfflineGrounder",
    "ParseError",
    "SandboxRunner",
    "api_reference",
    "check_program",
    "GroundingConfig",
    "load_config",
    "make_grounder",
    "parse_instruction",
    "repair_loop",
    "run_in_process",
    "verify",
    "write_program",
]
