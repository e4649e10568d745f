"""grounding's view of the parser: the old import path and the configured length limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.grounding import parser as grounding_parser
from map2route.grounding.config import load_config
from map2route.grounding.errors import GroundingError
from map2route.grounding.grounder import OfflineGrounder, max_instruction_chars
from map2route.language import parser as language_parser


def test_the_old_parser_path_is_the_language_parser() -> None:
    assert grounding_parser.parse_instruction is language_parser.parse_instruction
    assert grounding_parser.ParseError is language_parser.ParseError
    assert grounding_parser.RefExpr is language_parser.RefExpr


def _config_file(tmp_path: Path, value: object) -> Path:
    path = tmp_path / "grounding.yaml"
    path.write_text(f"offline:\n  executor: inprocess\n  max_instruction_chars: {value}\n")
    return path


def test_offline_grounder_takes_its_length_limit_from_the_config(tmp_path: Path) -> None:
    cfg = load_config(_config_file(tmp_path, 20))
    assert max_instruction_chars(cfg) == 20
    g = OfflineGrounder.from_config(cfg)
    assert g.parse("go to the sofa").clauses[0].kind == "goal"
    with pytest.raises(GroundingError, match="limit of 20"):
        g.parse("go to the sofa, then the bed")


@pytest.mark.parametrize("value", ["many", 0, -5, True, 2.5], ids=str)
def test_a_bad_length_limit_is_refused(value: object, tmp_path: Path) -> None:
    with pytest.raises(GroundingError, match="whole number"):
        load_config(_config_file(tmp_path, value))
