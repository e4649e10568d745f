"""Rigid transforms and a small transform tree: what the nodes look poses and clouds up in.

A ROS robot describes its frames as a tree published on ``/tf`` and ``/tf_static``
(REP-105: ``map -> odom -> base_link -> sensor frames``). ``tf2_ros``, which keeps that tree in
ROS 2, is not on PyPI (it is C++ with Python bindings), so this is the part of it map2route
needs, written here: the latest transform of each edge (no interpolation in time; the nodes
look up the newest pose, as a controller does), composition along the tree, and a clear
error naming the missing link. Quaternions are ``(w, x, y, z)`` as in :mod:`transforms3d`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from transforms3d.quaternions import mat2quat, quat2mat

from map2route.control.errors import ControlError

if TYPE_CHECKING:
    from numpy.typing import NDArray


class FrameError(ControlError):
    """A transform between two frames is not known (yet)."""


@dataclass(frozen=True)
class Transform:
    """``p_parent = rotation @ p_child + translation``: a child frame's pose in its parent."""

    translation: tuple[float, float, float] = (0.0, 0.0, 0.0)
    rotation: tuple[float, float, float, float] = (1.0, 0.0, 0.0, 0.0)  # w, x, y, z

    @classmethod
    def planar(cls, x: float, y: float, yaw: float) -> Transform:
        """A transform in the plane: translation ``(x, y, 0)``, rotation ``yaw`` about z."""
        return cls((x, y, 0.0), (math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2)))

    @property
    def matrix(self) -> NDArray[np.float64]:
        """The 3x3 rotation matrix."""
        q = np.asarray(self.rotation, dtype=np.float64)
        norm = float(np.linalg.norm(q))
        if not math.isfinite(norm) or norm < 1e-9:
            raise FrameError(f"a transform's rotation quaternion is not valid: {self.rotation}")
        return quat2mat(q / norm)

    @property
    def yaw(self) -> float:
        """Rotation about z of the child's x axis (its heading in the parent's plane)."""
        r = self.matrix
        return math.atan2(r[1, 0], r[0, 0])

    def __mul__(self, other: Transform) -> Transform:
        """``self * other``: ``other`` expressed in ``self``'s parent frame."""
        r = self.matrix
        t = r @ np.asarray(other.translation) + np.asarray(self.translation)
        q = mat2quat(r @ other.matrix)
        return Transform(tuple(float(v) for v in t), tuple(float(v) for v in q))  # type: ignore[arg-type]

    def inverse(self) -> Transform:
        r = self.matrix.T
        t = -r @ np.asarray(self.translation)
        return Transform(tuple(float(v) for v in t),  # type: ignore[arg-type]
                         tuple(float(v) for v in mat2quat(r)))  # type: ignore[arg-type]

    def apply(self, points: NDArray[np.floating]) -> NDArray[np.float64]:
        """``(N, 3)`` points from the child frame to the parent frame."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
        return pts @ self.matrix.T + np.asarray(self.translation)


@dataclass
class TransformTree:
    """The latest transform of every edge ``parent -> child`` of a frame tree."""

    #: child -> (parent, transform of the child in the parent, stamp in seconds, static)
    edges: dict[str, tuple[str, Transform, float, bool]] = field(default_factory=dict)

    def set(self, parent: str, child: str, transform: Transform, stamp: float = 0.0, *,
            static: bool = False) -> None:
        """Record ``child``'s pose in ``parent`` (a frame has one parent, as in tf2)."""
        parent, child = parent.lstrip("/"), child.lstrip("/")
        if not parent or not child or parent == child:
            raise FrameError(f"a transform needs two different frame names, got {parent!r} -> "
                             f"{child!r}")
        old = self.edges.get(child)
        if old is not None and not static and not old[3] and stamp < old[2]:
            return  # an older message arriving late does not replace a newer one
        self.edges[child] = (parent, transform, stamp, static)

    def _chain(self, frame: str) -> list[str]:
        """``frame`` and its ancestors up to the root."""
        chain, seen = [frame], {frame}
        while chain[-1] in self.edges:
            parent = self.edges[chain[-1]][0]
            if parent in seen:
                raise FrameError(f"the frame tree has a cycle through {parent!r}")
            chain.append(parent)
            seen.add(parent)
        return chain

    def _to_ancestor(self, frame: str, ancestor: str) -> Transform:
        out = Transform()
        while frame != ancestor:
            parent, tf, _stamp, _static = self.edges[frame]
            out = tf * out
            frame = parent
        return out

    def lookup(self, target: str, source: str) -> Transform:
        """The pose of frame ``source`` in frame ``target`` (maps ``source`` points into
        ``target``), through their common ancestor.

        Raises:
            FrameError: the two frames are not connected, naming what is missing.
        """
        target, source = target.lstrip("/"), source.lstrip("/")
        if target == source:
            return Transform()
        up_source, up_target = self._chain(source), self._chain(target)
        common = next((f for f in up_source if f in up_target), None)
        if common is None:
            known = sorted(set(self.edges) | {p for p, *_ in self.edges.values()})
            msg = (f"no transform from {source!r} to {target!r}: {source!r} reaches "
                   f"{up_source[-1]!r} and {target!r} reaches {up_target[-1]!r}; known frames: "
                   f"{known}")
            raise FrameError(msg)
        return self._to_ancestor(target, common).inverse() * self._to_ancestor(source, common)
