"""The NeSy-Route benchmark: the three-level evaluator (official semantics) and our methods.

:mod:`.evaluate` scores predictions for Task 1/2/3 on the official release layout or ours;
:mod:`.methods` holds the built-in methods (our neuro-symbolic solver, the ``[S, E]`` probe,
the straight-line baseline); :mod:`.llm_agent` the LLM query-parsing agent (its prompt and
reply reading in :mod:`.llm_prompt`) on the shared LLM machinery of :mod:`map2route.llm`. The domain code (KB, search, metrics, files) is
:mod:`map2route.nesy`; nothing there imports this package.
"""

from __future__ import annotations
