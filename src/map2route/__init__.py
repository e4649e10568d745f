"""map2route: language-grounded route planning over semantic maps.

The core (semantic map, RouteIR, planning, grounding, benchmarks) is pure Python and never
imports rclpy; only :mod:`map2route.ros` does.
"""

from __future__ import annotations

from map2route.errors import Map2RouteError

__all__ = ["Map2RouteError", "__version__"]
__version__ = "0.1.0"
