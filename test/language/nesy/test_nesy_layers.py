"""Layering: the language package imports nothing above it, and nesy never imports bench."""

from __future__ import annotations

import subprocess
import sys


def _loaded(module: str) -> set[str]:
    code = (f"import sys, {module}; "
            "print('\\n'.join(m for m in sys.modules if m.startswith('map2route')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_language_imports_nothing_above_it() -> None:
    mods = _loaded("map2route.language.nesy")
    # map2route itself loads map2route.errors (the root exception)
    base = {"map2route", "map2route.errors"}
    assert all(m in base or m.startswith("map2route.language") for m in mods), mods


def test_nesy_never_imports_bench() -> None:
    mods = _loaded("map2route.nesy.dataset")
    assert "map2route.nesy.official" in mods
    assert not any(m.startswith("map2route.bench") for m in mods)
