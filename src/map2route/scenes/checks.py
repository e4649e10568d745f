"""Checks a shipped scene must pass: every room reachable from every other on the traversable layer."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from scipy import ndimage

if TYPE_CHECKING:
    from map2route.semantic_map.model import SemanticMap


def traversable_components(m: SemanticMap) -> tuple[np.ndarray, int]:
    """8-connected components of the traversable layer: ``(labels, count)``; 0 = not traversable."""

    labels, count = ndimage.label(m.traversable, structure=np.ones((3, 3), dtype=bool))
    return labels, int(count)


def unreachable_rooms(m: SemanticMap) -> list[int]:
    """Rooms with no cell in the largest traversable component (empty list: all connected).

    The robot's centre can move between any two rooms exactly when both hold cells of one
    8-connected component; small pockets (behind furniture) are allowed, so the check uses the
    largest component.
    """
    labels, count = traversable_components(m)
    if count == 0:
        return [r.id for r in m.rooms]
    sizes = np.bincount(labels.ravel())
    sizes[0] = 0
    main = int(np.argmax(sizes))
    in_main = set(np.unique(m.room_ids[labels == main]).tolist())
    return [r.id for r in m.rooms if r.id not in in_main]


def impassable_doors(m: SemanticMap) -> list[str]:
    """Doors between two rooms whose rooms are not joined on the traversable layer."""
    labels, _ = traversable_components(m)
    out = []
    for d in m.doors:
        a, b = d.room_ids
        if a < 0 or b < 0:
            continue
        la = set(np.unique(labels[(m.room_ids == a) & (labels > 0)]).tolist())
        lb = set(np.unique(labels[(m.room_ids == b) & (labels > 0)]).tolist())
        if not la & lb:
            out.append(d.id)
    return out
