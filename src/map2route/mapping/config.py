"""``config/mapping.yaml``: the one home of the builder's and the simulator's defaults.

:func:`mapping_yaml` reads and checks the file (a ``build:`` and a ``simulate:`` section);
:class:`~map2route.mapping.builder.BuildConfig` and
:class:`~map2route.mapping.simulate.SimConfig` are built from it by their ``from_yaml``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, TypedDict

from map2route.mapping.errors import MappingError


class MappingYAML(TypedDict):
    """The raw shape of ``mapping.yaml``."""

    build: dict[str, Any]
    simulate: dict[str, Any]


_CACHE: dict[tuple[str, float], MappingYAML] = {}


def _overlay(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in top.items():
        out[k] = _overlay(base[k], v) if isinstance(v, dict) and isinstance(base.get(k), dict) else v
    return out


def mapping_yaml(path: str | Path | None = None) -> MappingYAML:
    """``config/mapping.yaml``, overlaid with the user file ``path`` when given.

    A user file may hold only the keys it changes (``build: {fusion: {merge_iou: 0.3}}``).

    Raises:
        MappingError: a file is missing, not YAML, or the shipped file lacks a section.
    """
    from map2route.paths import config_dir

    base = _read(config_dir() / "mapping.yaml", shipped=True)
    if path is None:
        return base
    top = _read(Path(path), shipped=False)
    merged = _overlay(dict(base), dict(top))
    return {"build": merged["build"], "simulate": merged["simulate"]}


def _read(p: Path, *, shipped: bool) -> MappingYAML:
    import yaml

    if not p.is_file():
        msg = f"mapping config {str(p)!r} does not exist; it ships as config/mapping.yaml"
        raise MappingError(msg)
    key = (str(p.resolve()), p.stat().st_mtime)
    if key not in _CACHE:
        try:
            raw = yaml.safe_load(p.read_text(encoding="utf-8")) or {}
        except UnicodeDecodeError as err:
            msg = f"mapping config {str(p)!r} is not UTF-8 text (byte {err.start}: {err.reason})"
            raise MappingError(msg) from None
        except yaml.YAMLError as err:
            msg = f"mapping config {str(p)!r} is not valid YAML: {err}"
            raise MappingError(msg) from err
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
    """``cls(**values)`` with a message naming ``where`` and the bad or missing keys.

    Raises:
        MappingError: unknown or missing parameters.
    """
    import dataclasses

    names = {f.name for f in dataclasses.fields(cls) if f.init}
    unknown = sorted(set(values) - names)
    missing = sorted(n for n in names - set(values)
                     if next(f for f in dataclasses.fields(cls) if f.name == n).default
                     is dataclasses.MISSING
                     and next(f for f in dataclasses.fields(cls) if f.name == n).default_factory
                     is dataclasses.MISSING)
    if unknown or missing:
        msg = (f"{where}: unknown parameter(s) {unknown} and missing {missing}; "
               "see config/mapping.yaml and docs/mapping.md for the parameters")
        raise MappingError(msg)
    not_finite = sorted(k for k, v in values.items()
                        if any(isinstance(x, float) and not math.isfinite(x)
                               for x in (v if isinstance(v, (list, tuple)) else [v])))
    if not_finite:
        msg = f"{where}: {not_finite} must be finite numbers (not .nan or .inf)"
        raise MappingError(msg)
    return cls(**values)
