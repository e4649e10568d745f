"""Reading the YAML files the Gazebo export takes its settings from, with named errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from map2route import config
from map2route.gazebo.errors import GazeboError


def read_yaml(path: Path) -> dict[str, Any]:
    """The mapping in ``path`` (through the shared loader, :func:`map2route.config.read_yaml`).

    Raises:
        GazeboError: the file cannot be read or is not a YAML mapping.
    """
    data = config.read_yaml(path, what="config", error=GazeboError)
    return config.require_mapping(data, where=str(path), error=GazeboError)


def section(data: dict[str, Any], path: Path, *keys: str) -> dict[str, Any]:
    """``data[keys[0]][keys[1]]...`` as a dict.

    Raises:
        GazeboError: naming the missing section and the file.
    """
    node: Any = data
    for k in keys:
        if not isinstance(node, dict) or k not in node:
            raise GazeboError(f"{path} has no '{'.'.join(keys)}' section")
        node = node[k]
    if not isinstance(node, dict):
        raise GazeboError(f"{path}: '{'.'.join(keys)}' is not a mapping")
    return dict(node)
