"""``--executor``, ``--address``, ``--max-in-flight``: where a long benchmark's chunks run."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def executor_options(fn: F) -> F:
    """Add the executor options (see :mod:`map2route.bench.executors`) to a command."""
    fn = click.option("--max-in-flight", type=click.IntRange(1), default=None,
                      help="Ray: most chunks running at once across the cluster, the bound on "
                           "concurrent LLM calls [the cluster's CPUs].")(fn)
    fn = click.option("--address", default=None, metavar="HOST:PORT",
                      help="Ray: the cluster head (ray start --head), 'auto' or ray://HOST:10001 "
                           "[start Ray on this machine].")(fn)
    fn = click.option("--executor", type=click.Choice(["local", "ray"]), default="local",
                      show_default=True,
                      help="local: a process pool of --workers; ray: Ray tasks (the ray extra).")(fn)
    return fn
