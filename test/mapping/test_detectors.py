"""The ground-truth detector and its noise; the open-vocabulary plug-in's error."""

from __future__ import annotations

import numpy as np
import pytest

from map2route.mapping.detectors import Frame, GroundTruthDetector, make_detector
from map2route.mapping.errors import MappingError


def _frame() -> Frame:
    ids = np.zeros((20, 40), dtype=np.uint16)
    ids[5:15, 5:15] = 1
    ids[5:15, 20:30] = 2
    return Frame(rgb=np.zeros((20, 40, 3), np.uint8), instance_ids=ids,
                 labels=("background", "bed", "chair"))


def test_perfect_detector_returns_every_mask() -> None:
    dets = GroundTruthDetector(min_pixels=10).detect(_frame())
    assert sorted(d.label for d in dets) == ["bed", "chair"]
    assert dets[0].mask.sum() == 100


def test_miss_rate_one_drops_everything_and_label_noise_changes_labels() -> None:
    assert GroundTruthDetector(miss_rate=1.0).detect(_frame()) == []
    dets = GroundTruthDetector(label_noise=1.0, min_pixels=10).detect(_frame())
    assert all(d.label not in ("bed", "chair") for d in dets)


def test_bad_rates_and_missing_weights_are_clear_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(MappingError, match="miss_rate"):
        GroundTruthDetector(miss_rate=1.5)
    with pytest.raises(MappingError, match="weights"):
        make_detector("open_vocabulary", weights=tmp_path)
    with pytest.raises(MappingError, match="instance_ids"):
        GroundTruthDetector().detect(Frame(rgb=np.zeros((4, 8, 3), np.uint8)))
