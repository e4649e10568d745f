"""The layout's rules hold: layered imports without cycles (import-linter), files a reader can hold.

The contracts live in pyproject.toml (``[tool.importlinter]``); ``make lint`` runs them too. The
second test shows that they fail when broken: an upward import planted in a copy of the tree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "map2route"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
MAX_LINES = 800

needs_import_linter = pytest.mark.skipif(not LINT_IMPORTS.exists(),
                                         reason="import-linter is not installed (dev extra)")


def _lint_imports(src_root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(src_root)}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


@needs_import_linter
def test_import_contracts_are_kept() -> None:
    run = _lint_imports(ROOT / "src")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "broken" not in run.stdout.lower().replace("0 broken", "")


@needs_import_linter
def test_import_contracts_fail_on_an_upward_import(tmp_path: Path) -> None:
    copy = tmp_path / "src" / "map2route"
    shutil.copytree(SRC, copy, ignore=shutil.ignore_patterns("__pycache__"))
    grid = copy / "semantic_map" / "grid.py"
    grid.write_text(grid.read_text() + "\nimport map2route.bench  # planted: bottom -> top\n")
    run = _lint_imports(tmp_path / "src")
    assert run.returncode != 0
    assert "map2route.semantic_map.grid -> map2route.bench" in run.stdout


def test_no_source_file_is_longer_than_the_ceiling() -> None:
    long = {str(p.relative_to(ROOT)): n for p in sorted(SRC.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}, f"files over {MAX_LINES} lines: {long}"
