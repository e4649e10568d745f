"""Every benchmark of map2route, one subpackage each, over one shared runner and one registry.

- :mod:`.map2route`: the Map2Route benchmark (episodes, Table II metrics, methods, runs).
- :mod:`.groke`: GROKE street following on Map2Seq.
- :mod:`.mapping`: the semantic-map builder over scenes and detector noise levels.
- :mod:`.planner`: planner speed, and planner tuning on the dev episodes.
- :mod:`.nesy`: NeSy-Route.

Shared: :mod:`map2route.execution` (executors: the local pool or Ray; resumable JSON Lines
results; the progress bar), :mod:`.report` (JSON, CSV, PNG and markdown outputs),
:mod:`.registry` (methods and agents by name), :mod:`.errors`.
Domain packages (planning, grounding, mapping, streets, nesy, ...) never import this package;
the CLI does.

Public names here: :class:`BenchmarkError`, :class:`ResultsFile`, :func:`progress_bar`.
"""

from __future__ import annotations

from map2route.bench.errors import BenchmarkError
from map2route.execution.results import ResultsFile, progress_bar

__all__ = ["BenchmarkError", "ResultsFile", "progress_bar"]
