"""What a detector sees and says: :class:`Frame`, :class:`Detection`, the :class:`Detector`
protocol (the detectors themselves: :mod:`map2route.mapping.detectors`,
:mod:`map2route.mapping.external`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray


@dataclass(frozen=True, eq=False)
class Frame:
    """One panorama as the detectors see it.

    Attributes:
        rgb: ``(H, W, 3)`` uint8.
        instance_ids: simulator ground truth ``(H, W)`` uint16 (0 = none), or ``None``.
        labels: instance id -> category for ``instance_ids``.
        stamp: the panorama's time (seconds, its header stamp), for detections made
            elsewhere (:mod:`map2route.mapping.external`); ``None`` when unknown.
    """

    rgb: NDArray[np.uint8]
    instance_ids: NDArray[np.uint16] | None = None
    labels: tuple[str, ...] = ()
    stamp: float | None = None


@dataclass(frozen=True, eq=False)
class Detection:
    """One detection: a bool ``(H, W)`` mask, a category, a score in ``[0, 1]``."""

    mask: NDArray[np.bool_] = field(repr=False)
    label: str
    score: float = 1.0

    @property
    def box(self) -> tuple[int, int, int, int]:
        """``(col0, row0, col1, row1)`` of the mask, inclusive-exclusive."""
        rows, cols = np.nonzero(self.mask)
        return int(cols.min()), int(rows.min()), int(cols.max()) + 1, int(rows.max()) + 1


class Detector(Protocol):
    """Anything that detects objects on a panorama."""

    name: str

    def detect(self, frame: Frame) -> list[Detection]:
        """Detections on ``frame`` (masks of ``frame.rgb``'s shape)."""
        ...
