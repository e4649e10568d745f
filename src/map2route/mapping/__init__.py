"""The SysNav-style semantic-map builder: lidar + panorama -> our semantic map; its simulator.

Simulation (:mod:`.scene3d`, :mod:`.sensors`, :mod:`.drive`, :mod:`.simulate`) renders a
scene into a Mid-360-like scan and Theta Z1-like panoramas along a drive, into an MCAP bag
(:mod:`.bag`). The builder (:mod:`.builder`) fuses detections (:mod:`.detectors`) with the
cloud (:mod:`.camera`, :mod:`.fusion`), derives the grid layers (:mod:`.layers`) and objects
(:mod:`.objects`); :mod:`.score` compares a built map with the truth; :mod:`.sdf` exports a
Gazebo world. Nothing here imports rclpy.
"""

from __future__ import annotations

from map2route.mapping.errors import MappingError

__all__ = ["MappingError"]
