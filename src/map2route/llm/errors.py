"""The error type of the LLM client."""

from __future__ import annotations

from map2route.errors import Map2RouteError


class LLMError(Map2RouteError):
    """An OpenAI-compatible endpoint could not be reached or gave an unusable answer."""
