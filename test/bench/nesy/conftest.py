"""A small generated NeSy-Route dataset (official layout) for the LLM agent's tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from map2route.cli import main
from map2route.nesy.landcover import encode_png

pytest.importorskip("pandas")


def _masks(folder: Path) -> Path:
    folder.mkdir()
    for k in range(2):
        m = np.zeros((120, 120), dtype=np.uint8)
        m[0:30, :] = 3  # developed
        m[0:30, 80:] = 1  # bareland
        m[8:22, 8:22] = 8  # a building block
        m[30:36, :] = 4  # road
        m[36:60, :] = 7  # agriculture
        m[60:90, :] = 2  # rangeland
        m[90:, :] = 6  # water
        m[90:, 80 - 15 * k:] = 5  # trees
        m[45:75, 55:60] = 4  # a track down to the lake
        (folder / f"tile{k}.png").write_bytes(encode_png(m))
    return folder


@pytest.fixture(scope="session")
def nesy_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Twelve Task 2/3 samples and four Task 1 queries on two masks (synthetic imagery)."""
    root = tmp_path_factory.mktemp("nesy_llm")
    out = root / "data"
    rc = main(["nesy", "generate", "--out", str(out), "--count", "12", "--source",
               str(_masks(root / "masks")), "--workers", "1", "--seed", "5"])
    assert rc == 0
    return out
