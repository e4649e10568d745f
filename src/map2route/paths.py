"""Where map2route finds its shipped data: scenes, config files, and the shared folder."""

from __future__ import annotations

import os
from pathlib import Path

#: The repository (or colcon share) root that holds ``maps/`` and ``config/``.
PACKAGE_ROOT = Path(__file__).resolve().parents[2]


def maps_dir() -> Path:
    """Folder of shipped scenes (``MAP2ROUTE_MAPS`` overrides)."""
    return Path(os.environ.get("MAP2ROUTE_MAPS", PACKAGE_ROOT / "maps"))


def config_dir() -> Path:
    """Folder of YAML parameter files (``MAP2ROUTE_CONFIG`` overrides)."""
    return Path(os.environ.get("MAP2ROUTE_CONFIG", PACKAGE_ROOT / "config"))


def shared_dir() -> Path:
    """The project's shared data folder beside the repository (``MAP2ROUTE_SHARED`` overrides)."""
    return Path(os.environ.get("MAP2ROUTE_SHARED", PACKAGE_ROOT.parent / "shared"))


def data_dir() -> Path:
    """Data files that ship inside the Python package."""
    return Path(__file__).resolve().parent / "data"
