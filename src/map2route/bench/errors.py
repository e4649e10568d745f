"""The error type of the benchmark package."""

from __future__ import annotations

from map2route.errors import Map2RouteError


class BenchmarkError(Map2RouteError):
    """An episode file, a benchmark run or a recorded route cannot be read, scored or run."""


class EndpointError(BenchmarkError):
    """A method's LLM endpoint failed: the run stops (rows so far are kept, a rerun resumes)
    instead of scoring every remaining episode as a failure of the method."""
