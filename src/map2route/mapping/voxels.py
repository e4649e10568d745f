"""Integer voxel keys: the one conversion between 3D points and voxels of a given size.

A key packs the voxel indices ``(ix, iy, iz)`` into one int64 (21 bits each, offset so that
negative indices work), which lets numpy ``unique`` and Python sets deduplicate voxels fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

_BITS = 21
_OFF = 1 << (_BITS - 1)
_MASK = (1 << _BITS) - 1


def encode(points: NDArray[np.floating], voxel_m: float) -> NDArray[np.int64]:
    """Keys of the voxels holding ``(N, 3)`` points."""
    idx = np.floor(np.asarray(points, dtype=np.float64)[:, :3] / voxel_m).astype(np.int64) + _OFF
    return (idx[:, 0] << (2 * _BITS)) | (idx[:, 1] << _BITS) | idx[:, 2]


def decode(keys: NDArray[np.int64], voxel_m: float) -> NDArray[np.float64]:
    """Voxel centres ``(N, 3)`` of ``keys``."""
    k = np.asarray(keys, dtype=np.int64)
    idx = np.stack([(k >> (2 * _BITS)) & _MASK, (k >> _BITS) & _MASK, k & _MASK], axis=1) - _OFF
    return (idx.astype(np.float64) + 0.5) * voxel_m


class VoxelCloud:
    """An accumulated point cloud, one point per voxel: the first one that fell in it.

    Keeping a real point rather than the voxel centre matters when the cloud is projected
    into the panorama: centres sit up to ``voxel_m * sqrt(3) / 2`` off the surface.
    """

    def __init__(self, voxel_m: float) -> None:
        self.voxel_m = voxel_m
        self._seen: set[int] = set()
        self._chunks: list[NDArray[np.float64]] = []
        self._points: NDArray[np.float64] | None = np.zeros((0, 3))

    def __len__(self) -> int:
        return len(self._seen)

    def add(self, points: NDArray[np.floating]) -> int:
        """Add ``(N, 3)`` points; return how many new voxels they filled."""
        if len(points) == 0:
            return 0
        pts = np.asarray(points, dtype=np.float64)[:, :3]
        keys, first = np.unique(encode(pts, self.voxel_m), return_index=True)
        seen = self._seen
        new = np.fromiter((k not in seen for k in keys.tolist()), dtype=bool, count=len(keys))
        if new.any():
            seen.update(keys[new].tolist())
            self._chunks.append(pts[first[new]])
            self._points = None
        return int(new.sum())

    def points(self) -> NDArray[np.float64]:
        """One point per voxel of everything added so far, ``(N, 3)``."""
        if self._points is None:
            pts = np.concatenate(self._chunks) if self._chunks else np.zeros((0, 3))
            self._chunks = [pts]
            self._points = pts
        return self._points
