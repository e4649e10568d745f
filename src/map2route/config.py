"""Reading YAML configuration: the one helper every package's config loader goes through.

A loader reads its file with :func:`read_yaml`, picks its section, and builds its typed
configuration (a frozen dataclass) with :func:`dataclass_from_mapping`, which checks every key
at once and raises the package's own error with one line per problem:

    planner config config/planner.yaml: 2 problems
      - unknown key 'lamda_near' (did you mean 'lambda_near'?)
      - 'start_snap_radius_m' must be a number, got 'far'

The defaults live in ``config/*.yaml``, not in code (docs/STYLE: configuration in one place).
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import yaml

from map2route.errors import Map2RouteError

T = TypeVar("T")


def read_yaml(path: str | Path, *, what: str, error: type[Map2RouteError] = Map2RouteError,
              hint: str = "") -> Any:
    """The parsed YAML document at ``path`` (``None`` for an empty file).

    Args:
        path: the file.
        what: what the file is, for messages (``"planner config"``).
        error: the package's error type to raise.
        hint: what to do about a missing file (appended to its message).

    Raises:
        error: the file is missing or unreadable (``cannot read {what} ...``), or not YAML
            (``{what} ... is not valid YAML: ...``, with the line and column).
    """
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError as err:
        msg = f"cannot read {what} {file}: it does not exist{hint}"
        raise error(msg) from err
    except UnicodeDecodeError as err:
        msg = f"{what} {file} is not UTF-8 text (byte {err.start}: {err.reason})"
        raise error(msg) from None
    except OSError as err:
        msg = f"cannot read {what} {file}: {err.strerror or err}"
        raise error(msg) from err
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        problem = getattr(err, "problem", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        msg = f"{what} {file} is not valid YAML: {where}{problem or err}"
        raise error(msg) from err


def overlay(base: Mapping[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``top``'s keys put over it, nested mappings merged key by key (a user file
    holds only what it changes: ``build: {fusion: {merge_iou: 0.3}}``)."""
    out = dict(base)
    for k, v in top.items():
        sub = base.get(k)
        out[k] = overlay(sub, v) if isinstance(v, Mapping) and isinstance(sub, Mapping) else v
    return out


def require_mapping(raw: Any, *, where: str, error: type[Map2RouteError] = Map2RouteError,
                    expected: str = "") -> dict[str, Any]:
    """``raw`` as a dict with string keys, or ``error`` saying what ``where`` should hold."""
    if isinstance(raw, dict) and all(isinstance(k, str) for k in raw):
        return dict(raw)
    shape = f" ({expected})" if expected else ""
    msg = f"{where}: expected a mapping{shape}, got {type(raw).__name__}"
    raise error(msg)


def dataclass_from_mapping(cls: type[T], values: Mapping[str, Any], *, where: str,
                           error: type[Map2RouteError] = Map2RouteError,
                           ignore_unknown: bool = False, hint: str = "") -> T:
    """``cls(**values)`` after checking every key and value against ``cls``'s fields.

    Numbers are converted to the field's type (an int for a float field, a list for a tuple
    field); a field whose value is itself a dataclass instance is taken as it is.

    Args:
        cls: a dataclass.
        values: the parsed section.
        where: the file and section, for messages.
        error: the package's error type.
        ignore_unknown: accept keys that are not fields (a shared ROS parameter file).
        hint: where the parameters are documented (appended to the message).

    Raises:
        error: listing every unknown key (with the nearest field name), every missing required
            field and every value of the wrong type, one per line.
    """
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}  # type: ignore[arg-type]
    try:
        hints = typing.get_type_hints(cls)
    except NameError:  # an annotation names a typing-only import: check keys, not types
        hints = {}
    problems: list[str] = []
    if not ignore_unknown:
        for key in sorted(set(values) - set(fields)):
            close = difflib.get_close_matches(key, list(fields), n=1)
            problems.append(f"unknown key {key!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
    for name in sorted(set(fields) - set(values)):
        f = fields[name]
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            problems.append(f"missing key {name!r}")
    kwargs: dict[str, Any] = {}
    for name, value in values.items():
        if name not in fields:
            continue
        converted, problem = _convert(value, hints.get(name, Any))
        if problem:
            problems.append(f"{name!r} {problem}, got {value!r}")
        else:
            kwargs[name] = converted
    if problems:
        head = f"{where}: {len(problems)} problem{'s' if len(problems) > 1 else ''}"
        msg = "\n  - ".join([head, *problems]) + (f"\n{hint}" if hint else "")
        raise error(msg)
    return cls(**kwargs)


def _convert(value: Any, kind: Any) -> tuple[Any, str]:
    """``value`` as type ``kind`` and ``""``, or ``(None, problem)``."""
    origin = typing.get_origin(kind)
    if kind is Any or (isinstance(kind, type) and dataclasses.is_dataclass(kind)
                       and isinstance(value, kind)):
        return value, ""
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(kind)
        if value is None and type(None) in args:
            return None, ""
        problems = []
        for arg in args:
            if arg is type(None):
                continue
            converted, problem = _convert(value, arg)
            if not problem:
                return converted, ""
            problems.append(problem)
        finite = [p for p in problems if "finite" in p]  # a number, just not a usable one
        if finite:
            return None, finite[0]
        return None, f"must be {' or '.join(_name(a) for a in args)}"
    if kind is bool:
        return (value, "") if isinstance(value, bool) else (None, "must be true or false")
    if kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return (value, "") if ok else (None, "must be a whole number")
    if kind is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        if ok and not math.isfinite(value):
            return None, "must be finite (a number, not .nan or .inf)"
        return (float(value), "") if ok else (None, "must be a number")
    if kind is str:
        return (value, "") if isinstance(value, str) else (None, "must be text")
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            return None, "must be a list"
        args = typing.get_args(kind)
        item_kinds = [args[0]] * len(value) if len(args) == 2 and args[1] is Ellipsis else list(args)
        if len(item_kinds) != len(value):
            return None, f"must be a list of {len(item_kinds)}"
        out = []
        for i, (item, item_kind) in enumerate(zip(value, item_kinds, strict=True)):
            converted, problem = _convert(item, item_kind)
            if problem:
                return None, f"item {i} {problem}"
            out.append(converted)
        return tuple(out), ""
    if origin in (dict, Mapping) or kind is dict:
        return (dict(value), "") if isinstance(value, dict) else (None, "must be a mapping")
    return value, ""


def _name(kind: Any) -> str:
    return {bool: "true or false", int: "a whole number", float: "a number",
            str: "text"}.get(kind, getattr(kind, "__name__", str(kind)))
