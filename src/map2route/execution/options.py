"""``--executor``, ``--address``, ``--max-in-flight``: where a long command's chunks run.

Every long command takes the same three options (:func:`executor_options`) and turns them into
an :class:`~map2route.execution.executors.Executor` with :func:`make_executor`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from map2route.execution.executors import EXECUTORS

F = TypeVar("F", bound=Callable[..., Any])


def executor_options(fn: F) -> F:
    """Add ``--executor``, ``--address`` and ``--max-in-flight`` to a click command.

    The command receives ``executor`` (``local`` or ``ray``), ``address`` (``str | None``) and
    ``max_in_flight`` (``int | None``); see :mod:`map2route.execution.executors`.
    """
    fn = click.option("--max-in-flight", type=click.IntRange(1), default=None,
                      help="Ray: most chunks running at once across the cluster, the bound on "
                           "concurrent LLM calls [the cluster's CPUs; LLM runs: the config's "
                           "concurrency].")(fn)
    fn = click.option("--address", default=None, metavar="HOST:PORT",
                      help="Ray: the cluster head (ray start --head), 'auto' or ray://HOST:10001 "
                           "[start Ray on this machine].")(fn)
    fn = click.option("--executor", type=click.Choice(list(EXECUTORS)), default="local",
                      show_default=True,
                      help="local: a process pool of --workers; ray: Ray tasks (the ray extra).")(fn)
    return fn
