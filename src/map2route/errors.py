"""The root of map2route's exception tree."""

from __future__ import annotations


class Map2RouteError(Exception):
    """A domain error a user can act on.

    Every subpackage derives its own error type from this one (``MapError``, ``RouteIRError``,
    ``NoRouteError``, ``GroundingError``, ...). The CLI prints ``Error: {message}`` for these
    and exits with status 1; anything else is a bug and keeps its traceback.
    """
