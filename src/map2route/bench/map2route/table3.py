"""The paper's Table III (Grounding2Route ablations) from one command: run each variant, tabulate.

Each row is a registry method (:data:`~map2route.bench.map2route.llm_methods.VARIANTS`) run
into ``OUT/<method>/`` by the ordinary resumable driver; the rows share the LLM response cache,
so only the first row and the rows with a larger repair budget send requests. The table has
the paper's columns: the configuration (Grounding, IR, Repair, Soft Cons.) then HCS, the five
soft-preference metrics, PL and SPL, over all selected episodes (``--split`` narrows them).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from map2route.bench.map2route.llm_methods import LLMGrounding2Route
from map2route.bench.map2route.run import RunSpec, run_benchmark
from map2route.bench.map2route.scoring import EpisodeScore, summarize
from map2route.bench.report import csv_text, markdown_table, write_json
from map2route.semantic_map.io import atomic_write_text

if TYPE_CHECKING:
    from collections.abc import Callable

    from map2route.execution.executors import Executor

#: Table III's rows as methods, in the paper's order (R = 3 is the first row when the config's
#: repair_rounds is 3, as in the paper).
TABLE3_METHODS = ("g2r-llm", "g2r-llm-schema", "g2r-llm-direct-id", "g2r-llm-toolcall",
                  "g2r-llm-ltl", "g2r-llm-r0", "g2r-llm-r1", "g2r-llm-r2", "g2r-llm-global-t",
                  "g2r-llm-global-s", "g2r-llm-global-ts", "g2r-llm-hard-only")

#: Metric columns: key, header, format (the configuration columns come first).
METRICS = (("hcs", "HCS ↑", "{:.3f}"), ("near", "Near ↓", "{:.2f}"), ("far", "Far ↑", "{:.2f}"),
           ("relative", "Relative ↑", "{:.2f}"), ("path_shape", "Path-Shape ↑", "{:.2f}"),
           ("clearance", "Clearance ↑", "{:.2f}"), ("pl", "PL ↓", "{:.1f}"),
           ("spl", "SPL ↑", "{:.2f}"))
CONFIG_HEADER = ("Grounding", "IR", "Repair", "Soft Cons.")


@dataclass
class Table3Row:
    method: str
    columns: tuple[str, str, str, str]
    metrics: dict[str, Any]
    llm: dict[str, Any]
    model: str


def run_table3(episodes: Path, maps_root: Path, out_dir: Path, *, grounding_config: str | None,
               planner_config: str | None = None, methods: tuple[str, ...] = TABLE3_METHODS,
               split: str | None = None, limit: int | None = None, progress: bool = True,
               before: Callable[[LLMGrounding2Route, RunSpec, Path], None] | None = None,
               executor: Executor | None = None) -> list[Table3Row]:
    """Run every method of Table III into ``out_dir/<method>`` (resuming) and return its rows.

    Args:
        before: called with each method, its spec and its folder before it runs (the CLI
            prints the cost estimate there).
        executor: where the episodes run (``None``: threads of this process, as
            :func:`~map2route.bench.map2route.run.run_benchmark` runs API-bound methods).
    """
    rows: list[Table3Row] = []
    options = {"grounding_config": grounding_config} if grounding_config else {}
    for name in methods:
        spec = RunSpec(method=name, episodes_path=episodes, maps_root=maps_root,
                       planner_config=planner_config, options=dict(options))
        method = spec.make()
        assert isinstance(method, LLMGrounding2Route)
        if before is not None:
            before(method, spec, out_dir / name)
        results = run_benchmark(spec, out_dir / name, split=split, limit=limit,
                                progress=progress, method=method, executor=executor)
        summary = summarize(EpisodeScore.from_json(r) for r in results).get("all", {})
        llm = {k: sum(float(r.get(k) or 0) for r in results)
               for k in ("llm_calls", "cache_hits", "prompt_tokens", "completion_tokens",
                         "cost_usd", "spent_usd")}
        rows.append(Table3Row(name, method.columns(), summary, llm, method.model))
    return rows


def _cell(value: Any, fmt: str) -> str:
    return "–" if value is None else fmt.format(value)


def table3_markdown(rows: list[Table3Row]) -> str:
    """Table III in markdown, the paper's layout plus the episode count and the method name."""
    header = [*CONFIG_HEADER, *(h for _, h, _ in METRICS), "n", "method"]
    body = [[*r.columns, *(_cell(r.metrics.get(k), f) for k, _, f in METRICS),
             r.metrics.get("episodes", 0), f"`{r.method}`"] for r in rows]
    return markdown_table(header, body)


def write_table3(out_dir: Path, rows: list[Table3Row]) -> dict[str, Path]:
    """``table3.md`` (with a title naming the model), ``table3.csv`` and ``table3.json``."""
    model = ", ".join(sorted({r.model for r in rows}))
    paths = {"markdown": out_dir / "table3.md", "csv": out_dir / "table3.csv",
             "json": out_dir / "table3.json"}
    out_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(paths["markdown"], f"Table III (Grounding2Route ablations), model "
                      f"`{model}`\n\n" + table3_markdown(rows))
    keys = [k for k, _, _ in METRICS]
    atomic_write_text(paths["csv"], csv_text(
        ["method", "grounding", "ir", "repair", "soft", "episodes", *keys],
        [[r.method, *r.columns, r.metrics.get("episodes", 0),
          *["" if r.metrics.get(k) is None else f"{r.metrics[k]:.6g}" for k in keys]]
         for r in rows]))
    write_json(paths["json"], [{"method": r.method, "columns": list(r.columns),
                                "metrics": r.metrics, "llm": r.llm, "model": model}
                               for r in rows])
    return paths
