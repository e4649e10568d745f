"""Scene commands: ``render``, ``scenes stats``, ``demo`` (owned by the foundation)."""

from __future__ import annotations
