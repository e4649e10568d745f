"""Where long work runs, and where its results go: the bottom layer every long command shares.

- :mod:`.executors`: the :class:`Executor` interface, the local process pool (the default) and
  Ray (``--executor ray``), plus :func:`chunked`;
- :mod:`.results`: the resumable JSON Lines results file and the one progress bar;
- :mod:`.options`: the ``--executor``/``--address``/``--max-in-flight`` click options;
- :mod:`.errors`: :class:`ExecutionError`.

It sits below every domain package (import-linter), so the benchmarks, the NeSy-Route
generator and any sweep run their chunks the same way. Ray is imported only when chosen.
"""

from __future__ import annotations

from map2route.execution.errors import ExecutionError
from map2route.execution.executors import (
    Executor,
    LocalExecutor,
    RayExecutor,
    chunked,
    make_executor,
)
from map2route.execution.results import ResultsFile, progress_bar

__all__ = ["ExecutionError", "Executor", "LocalExecutor", "RayExecutor", "ResultsFile",
           "chunked", "make_executor", "progress_bar"]
