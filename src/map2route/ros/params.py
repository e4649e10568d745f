"""Node parameters: declared in one table per node, defaults read from ``config/<node>.yaml``.

The YAML files are ordinary ROS 2 parameter files (``<node>: ros__parameters: {...}``), so the
same file serves ``ros2 run ... --params-file``, the launch files and the in-process runner.
The code holds no second copy of a default: a parameter missing from the file is a bug that
stops start-up with its name.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rcl_interfaces.msg import ParameterDescriptor, SetParametersResult

from map2route.config import read_yaml
from map2route.errors import Map2RouteError
from map2route.paths import config_dir


class NodeConfigError(Map2RouteError):
    """A node's parameter file or a parameter value is missing or invalid."""


Check = Callable[[Any], str | None]


@dataclass(frozen=True)
class Param:
    """One declared parameter: name, type, a check returning a reason when invalid, help."""

    name: str
    type: type
    description: str
    check: Check | None = None
    read_only: bool = False


def positive(value: Any) -> str | None:
    return None if value > 0 and math.isfinite(value) else f"must be a positive number, got {value}"


def non_negative(value: Any) -> str | None:
    return None if value >= 0 and math.isfinite(value) else f"must be >= 0, got {value}"


def non_empty(value: Any) -> str | None:
    return None if str(value).strip() else "must not be empty"


def one_of(*choices: str) -> Check:
    def check(value: Any) -> str | None:
        return None if value in choices else f"must be one of {list(choices)}, got {value!r}"
    return check


def config_file(name: str) -> Path:
    """``config/<name>`` of the repository, or of the installed ``map2route`` share folder."""
    path = config_dir() / name
    if path.is_file():
        return path
    try:
        from ament_index_python.packages import get_package_share_directory  # noqa: PLC0415 - ament_index is only there on a ROS install

        shared = Path(get_package_share_directory("map2route")) / "config" / name
    except Exception:  # ament index absent or package not installed: report the repo path
        return path
    return shared if shared.is_file() else path


def file_defaults(node_name: str, file_name: str) -> dict[str, Any]:
    """The ``ros__parameters`` of ``node_name`` in ``config/<file_name>``.

    Raises:
        NodeConfigError: the file is missing, not YAML, or has no section for the node.
    """
    path = config_file(file_name)
    data = read_yaml(path, what="parameter file", error=NodeConfigError,
                     hint="; it ships in config/") or {}
    section = data.get(node_name, data.get("/**", {})) if isinstance(data, dict) else {}
    params = section.get("ros__parameters") if isinstance(section, dict) else None
    if not isinstance(params, dict):
        raise NodeConfigError(f"{path} has no '{node_name}: ros__parameters:' section")
    return params


def _coerce(spec: Param, value: Any) -> Any:
    if spec.type is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def declare(node: Any, specs: tuple[Param, ...], file_name: str) -> dict[str, Any]:
    """Declare ``specs`` on ``node`` with defaults from ``config/<file_name>``; validate them.

    Later ``set_parameters`` calls are validated by the same checks and refused with a reason.

    Returns:
        The current value of every parameter, by name.

    Raises:
        NodeConfigError: a default is missing from the file, or a value fails its check.
    """
    defaults = file_defaults(node.get_name(), file_name)
    values: dict[str, Any] = {}
    by_name = {s.name: s for s in specs}
    for spec in specs:
        if spec.name not in defaults:
            raise NodeConfigError(f"parameter {spec.name!r} of {node.get_name()} has no default "
                                  f"in config/{file_name}; add it there")
        default = _coerce(spec, defaults[spec.name])
        descriptor = ParameterDescriptor(description=spec.description, read_only=spec.read_only)
        value = _coerce(spec, node.declare_parameter(spec.name, default, descriptor).value)
        reason = _check(spec, value)
        if reason:
            raise NodeConfigError(f"parameter {spec.name!r} of {node.get_name()} {reason}")
        values[spec.name] = value

    def on_set(params: list[Any]) -> SetParametersResult:
        for p in params:
            spec = by_name.get(p.name)
            if spec is None:
                continue
            reason = _check(spec, _coerce(spec, p.value))
            if reason:
                return SetParametersResult(successful=False, reason=f"{p.name} {reason}")
        return SetParametersResult(successful=True)

    node.add_on_set_parameters_callback(on_set)
    return values


def _check(spec: Param, value: Any) -> str | None:
    if spec.type is float and not isinstance(value, float):
        return f"must be a number, got {value!r}"
    if spec.type in (int, str, bool) and type(value) is not spec.type:
        return f"must be a {spec.type.__name__}, got {value!r}"
    return spec.check(value) if spec.check else None


def run_node(factory: Callable[[], Any], args: list[str] | None = None) -> int:
    """``with rclpy.init(): rclpy.spin(factory())`` with a clean exit on Ctrl-C or shutdown.

    A :class:`Map2RouteError` raised while building the node is printed as one line
    (``Error: ...``) and gives exit status 1.
    """

    import rclpy  # noqa: PLC0415 - ROS 2 is an optional extra
    from rclpy.executors import ExternalShutdownException  # noqa: PLC0415 - ROS 2 is an optional extra

    # Jazzy's rclpy.init() returns None (the context-manager form of STYLE.md came later),
    # so shut down in ``finally`` instead.
    rclpy.init(args=args)
    try:
        rclpy.spin(factory())
    except (KeyboardInterrupt, ExternalShutdownException):
        return 0
    except Map2RouteError as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    finally:
        rclpy.try_shutdown()
    return 0
