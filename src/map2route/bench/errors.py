"""The error type of the benchmark package."""

from __future__ import annotations

from map2route.errors import Map2RouteError


class BenchmarkError(Map2RouteError):
    """An episode file, a benchmark run or a recorded route cannot be read, scored or run."""
