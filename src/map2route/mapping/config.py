"""``config/mapping.yaml``: the one home of the builder's and the simulator's defaults.

:func:`mapping_yaml` reads and checks the file (a ``build:`` and a ``simulate:`` section);
:class:`~map2route.mapping.builder.BuildConfig` and
:class:`~map2route.mapping.simulate.SimConfig` are built from it by their ``from_yaml``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypedDict

from map2route.config import dataclass_from_mapping, overlay, read_yaml, require_mapping
from map2route.mapping.errors import MappingError
from map2route.paths import config_dir


class MappingYAML(TypedDict):
    """The raw shape of ``mapping.yaml``."""

    build: dict[str, Any]
    simulate: dict[str, Any]


_CACHE: dict[tuple[str, float], MappingYAML] = {}


def mapping_yaml(path: str | Path | None = None) -> MappingYAML:
    """``config/mapping.yaml``, overlaid with the user file ``path`` when given.

    A user file may hold only the keys it changes (``build: {fusion: {merge_iou: 0.3}}``).

    Raises:
        MappingError: a file is missing, not YAML, or the shipped file lacks a section.
    """
    base = _read(config_dir() / "mapping.yaml", shipped=True)
    if path is None:
        return base
    top = _read(Path(path), shipped=False)
    merged = overlay(dict(base), dict(top))
    return {"build": merged["build"], "simulate": merged["simulate"]}


def _read(p: Path, *, shipped: bool) -> MappingYAML:
    key = (str(p.resolve()), p.stat().st_mtime if p.is_file() else 0.0)
    if key not in _CACHE:
        raw = read_yaml(p, what="mapping config", error=MappingError,
                        hint="; it ships as config/mapping.yaml") or {}
        sections = ("build", "simulate")
        if not isinstance(raw, dict) or (shipped and not all(isinstance(raw.get(s), dict)
                                                             for s in sections)):
            msg = f"mapping config {str(p)!r} needs a `build:` and a `simulate:` section"
            raise MappingError(msg)
        extra = sorted(set(raw) - set(sections))
        if extra:
            msg = f"mapping config {str(p)!r}: unknown section(s) {extra}; use build: and simulate:"
            raise MappingError(msg)
        _CACHE[key] = {"build": dict(raw.get("build") or {}),
                       "simulate": dict(raw.get("simulate") or {})}
    return _CACHE[key]


def construct(cls: Any, values: dict[str, Any], *, where: str) -> Any:
    """``cls(**values)``, every key and value checked (:func:`map2route.config.dataclass_from_mapping`).

    Raises:
        MappingError: naming ``where`` and every unknown, missing or mistyped parameter.
    """
    section = require_mapping(values, where=where, error=MappingError)
    return dataclass_from_mapping(cls, section, where=where, error=MappingError,
                                  hint="see config/mapping.yaml and docs/mapping.md for the "
                                       "parameters")
