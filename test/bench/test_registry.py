"""The one registry, and the layering it keeps: bench imports the domain, never the reverse."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import map2route
from map2route.bench.errors import BenchmarkError
from map2route.bench.registry import AGENTS, METHODS, make_agent, make_method
from map2route.streets.errors import StreetError

SRC = Path(map2route.__file__).parent


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at its top or inside a function."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_every_map2route_method_and_groke_agent_is_registered() -> None:
    table3 = {"g2r-llm", "g2r-llm-schema", "g2r-llm-direct-id", "g2r-llm-toolcall",
              "g2r-llm-ltl", "g2r-llm-r0", "g2r-llm-r1", "g2r-llm-r2", "g2r-llm-r3",
              "g2r-llm-global-t", "g2r-llm-global-s", "g2r-llm-global-ts", "g2r-llm-hard-only"}
    assert set(METHODS) == {"shortest", "oracle", "human", "g2r"} | table3
    assert AGENTS == ("heuristic", "heuristic-oracle-length", "offline", "llm")
    assert type(make_agent("offline")).__name__ == "OfflineAgent"
    assert make_method("human").name == "human"


def test_unknown_names_are_clear_errors() -> None:
    with pytest.raises(BenchmarkError, match="did you mean oracle"):
        make_method("orcale")
    with pytest.raises(StreetError, match="choose one of heuristic, heuristic-oracle-length, offline, llm"):
        make_agent("nope")
    with pytest.raises(StreetError, match="--llm-url"):
        make_agent("llm")


def test_no_domain_package_imports_bench() -> None:
    above = {"bench", "cli", "ros"}
    offenders = sorted(
        f"{p.relative_to(SRC)} imports {m}"
        for p in SRC.rglob("*.py") if p.relative_to(SRC).parts[0] not in above
        for m in _imports(p) if m == "map2route.bench" or m.startswith("map2route.bench."))
    assert offenders == []


def test_nothing_the_registry_imports_imports_it_back() -> None:
    registry = SRC / "bench" / "registry.py"
    imported = [m for m in _imports(registry) if m.startswith("map2route.bench.")]
    files = [SRC.joinpath(*m.split(".")[1:]).with_suffix(".py") for m in imported]
    files = [f for f in files if f.is_file()]
    assert files, "the registry imports the method modules"
    for f in files:
        assert "map2route.bench.registry" not in _imports(f), f
