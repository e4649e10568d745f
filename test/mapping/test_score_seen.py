"""``recall_tall_seen``: recall over the tall objects some panorama of the drive showed."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from map2route.mapping.errors import MappingError
from map2route.mapping.score import score_map, shown_objects


def test_shown_objects_thresholds_pixels_at_960_and_scales_with_width() -> None:
    ids = ["", "a", "b", "c"]
    px = np.array([5000, 25, 19, 80])
    # Instance 0 (no object) is never an object; 20 px at 960 wide.
    assert shown_objects(ids, px, 960, 20) == {"a", "c"}
    # At 1920 wide the same solid angle is 4x the pixels: 80.
    assert shown_objects(ids, px, 1920, 20) == {"c"}
    # An id past the pixel table (never in an image) is not shown.
    assert shown_objects([*ids, "d"], px, 960, 20) == {"a", "c"}


def test_recall_tall_seen_leaves_out_what_no_panorama_showed(two_room_map) -> None:  # type: ignore[no-untyped-def]
    # All 9 objects of the two-room house are taller than 0.3 m. Built: all but chair_0 and
    # bed_0; the drive showed every object but chair_0.
    built = replace(two_room_map, objects=tuple(o for o in two_room_map.objects
                                                if o.id not in ("chair_0", "bed_0")))
    shown = {o.id for o in two_room_map.objects} - {"chair_0"}
    s = score_map(built, two_room_map, open_storage=frozenset(), shown=shown)
    assert s.recall_tall == pytest.approx(7 / 9)
    assert s.recall_tall_seen == pytest.approx(7 / 8)
    assert s.unseen_tall == ("chair_0",)
    plain = score_map(built, two_room_map, open_storage=frozenset())
    assert np.isnan(plain.recall_tall_seen) and plain.unseen_tall == ()


def test_instance_pixels_needs_a_simulator_bag(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("rosbags")
    from map2route.mapping.bag import BagWriter, instance_pixels

    with BagWriter(tmp_path / "bag") as w:
        w.scan(0, np.zeros((3, 4), dtype=np.float32))
    with pytest.raises(MappingError, match="instance"):
        instance_pixels(tmp_path / "bag")
