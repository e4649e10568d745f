"""A hand-checkable ProcTHOR-style house: a 4 x 3 m bedroom and a 3 x 3 m kitchen.

Bedroom ``room|1``: x 0..4, z 0..3, a Bed_14 (1.40 x 2.40 m) centred at (1.5, 1.5), yaw 0; a
window in its south wall (z = 0) 2..3 m along that wall from its first corner
(4, 0), i.e. x 2 -> 1 (ProcTHOR measures holes from the first polygon point). Kitchen ``room|2``: x 4..7, z 0..3, a
Countertop_I_8x2 (2.44 x 0.61 m) centred at (5.5, 2.6), yaw 0, with an Apple_1 on it, and a
Sink_1 at (6.5, 0.5) turned 90 degrees. A 1 m door in the shared wall x = 4 from z 1 to 2.
"""

from __future__ import annotations

from typing import Any

import pytest


def _wall(room: int, x0: float, z0: float, x1: float, z1: float) -> dict[str, Any]:
    return {"id": f"wall|{room}|{min(x0, x1):.2f}|{min(z0, z1):.2f}|{max(x0, x1):.2f}|{max(z0, z1):.2f}",
            "roomId": f"room|{room}",
            "polygon": [{"x": x0, "y": 0, "z": z0}, {"x": x1, "y": 0, "z": z1},
                        {"x": x0, "y": 2.5, "z": z0}, {"x": x1, "y": 2.5, "z": z1}]}


def _walls(room: int, x0: float, x1: float) -> list[dict[str, Any]]:
    return [_wall(room, x0, 0, x0, 3), _wall(room, x0, 3, x1, 3), _wall(room, x1, 3, x1, 0),
            _wall(room, x1, 0, x0, 0)]


def make_house() -> dict[str, Any]:
    """A fresh copy of the two-room test house."""
    floor = lambda x0, x1: [{"x": x0, "y": 0, "z": 0}, {"x": x0, "y": 0, "z": 3},  # noqa: E731
                            {"x": x1, "y": 0, "z": 3}, {"x": x1, "y": 0, "z": 0}]
    return {
        "rooms": [{"id": "room|1", "roomType": "Bedroom", "floorPolygon": floor(0, 4)},
                  {"id": "room|2", "roomType": "Kitchen", "floorPolygon": floor(4, 7)}],
        "walls": _walls(1, 0, 4) + _walls(2, 4, 7),
        "doors": [{"id": "door|1|2", "room0": "room|1", "room1": "room|2",
                   "wall0": "wall|1|4.00|0.00|4.00|3.00", "wall1": "wall|2|4.00|0.00|4.00|3.00",
                   "assetId": "Doorway_1",
                   "boundingBox": {"min": {"x": 1.0, "y": 0, "z": 0},
                                   "max": {"x": 2.0, "y": 2.1, "z": 0}}}],
        "windows": [{"id": "window|1|0", "room0": "room|1", "room1": "room|1",
                     "wall0": "wall|1|0.00|0.00|4.00|0.00",
                     "wall1": "wall|exterior|0.00|0.00|4.00|0.00",
                     "assetId": "Window_Hung_48x32",
                     "boundingBox": {"min": {"x": 2.0, "y": 1.0, "z": 0},
                                     "max": {"x": 3.0, "y": 1.9, "z": 0}}}],
        "objects": [
            {"id": "1|0", "assetId": "Bed_14", "position": {"x": 1.5, "y": 0.3633, "z": 1.5},
             "rotation": {"x": 0, "y": 0, "z": 0}},
            {"id": "2|0", "assetId": "Countertop_I_8x2",
             "position": {"x": 5.5, "y": 0.4687, "z": 2.6}, "rotation": {"x": 0, "y": 0, "z": 0},
             "children": [{"id": "small|2|0", "assetId": "Apple_1",
                           "position": {"x": 5.0, "y": 0.994, "z": 2.6},
                           "rotation": {"x": 0, "y": 0, "z": 0}}]},
            {"id": "2|1", "assetId": "Sink_1", "position": {"x": 6.5, "y": 0.523, "z": 0.5},
             "rotation": {"x": 0, "y": 90, "z": 0}},
        ],
        "metadata": {"roomSpecId": "hand-made"},
    }


@pytest.fixture
def house_json() -> dict[str, Any]:
    return make_house()
