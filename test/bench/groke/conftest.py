"""The synthetic street grid of test/streets/conftest.py, as a Touchdown/Map2Seq folder."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

# test/ folders are not packages (pytest --import-mode=importlib), so the grid is loaded by path.
_SPEC = importlib.util.spec_from_file_location(
    "streets_grid", Path(__file__).resolve().parents[2] / "streets" / "conftest.py")
assert _SPEC is not None and _SPEC.loader is not None
streets_grid = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(streets_grid)


@pytest.fixture
def city_folder(tmp_path: Path):
    """A function writing the grid as a Touchdown/Map2Seq folder with given instances."""
    return lambda instances: streets_grid.write_touchdown_folder(tmp_path / "map2seq", instances)
