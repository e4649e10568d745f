"""The three-level NeSy-Route evaluator (section 4.2), with the official scorer's semantics.

Ground truth: the official release layout (``Task1/queries.json``,
``Task{2,3}/evaluation/{split}.parquet``, ``Task3/labels/labels.parquet``) or our internal
cache layout (``task1/queries.json``, ``task{2,3}/task{2,3}.parquet``); see
:mod:`map2route.nesy.official`. Predictions: the official format (JSON Lines of
``query_id``/``sample_id`` with ``traverse_vector``, ``cost_vector``, ``region_vector``,
``trajectory`` as integer ``[x, y]``); our older ``V_trav``/``V_pref``/``V_reg`` names are
accepted too.

Which samples count (as the official scorer, so the numbers agree on the same files):

- only samples that have a prediction are scored; the others are reported as ``missing``
  and counted nowhere (the official ``--strict`` run requires none to be missing);
- Task 1/2: a prediction or ground truth whose vectors are not 8 long is skipped; TM, FM and
  RM are means over the rest, PR the mean tau-b over the samples where it is defined;
- Task 3: a prediction that is not a non-empty list of integer ``[x, y]`` is an evaluation
  error: it counts in AR's denominator as non-adherent and in nothing else; AR is over the
  matched samples, CR over the adherent samples A* could join, VR over the non-adherent
  ones, CD over the samples without an error.

Task 2 and 3 are reported per difficulty split and as ``avg`` (the mean of the splits, how
Tables 5-6 average); Task 1 over all samples. TM, FM, RM, AR and VR print as percentages
(the official scorer reports fractions: ours = 100 x theirs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from rich.table import Table

from map2route.nesy.dataset import SPLITS, label_of, load_labels, load_samples, progress
from map2route.nesy.errors import NesyError
from map2route.nesy.kb import NUM_CLASSES, Vectors, cost_map
from map2route.nesy.metrics import (
    full_match,
    preference_correlation,
    region_match,
    score_trajectory,
    traversability_match,
)
from map2route.nesy.official import prediction_key, prediction_vector, prediction_waypoints

if TYPE_CHECKING:
    from numpy.typing import NDArray

TASK_METRICS = {1: ("TM", "PR", "FM"), 2: ("RM", "TM", "PR"), 3: ("AR", "VR", "CR", "CD")}
#: Metrics printed as percentages (the rest as ratios / pixels).
PERCENT = {"TM", "FM", "RM", "AR", "VR"}


@dataclass
class TaskResult:
    """Scores of one task: metric -> value per split (``all`` for Task 1, else splits + avg).

    ``counts`` are the scored (matched) samples per split; ``missing`` the ground-truth
    samples without a prediction; ``unknown`` predictions for no sample; ``skipped`` Task 1/2
    samples with a vector that is not 8 long; ``errors`` Task 3 predictions that could not
    be read; ``skipped_pr`` samples where PR is undefined.
    """

    task: int
    n: int
    table: dict[str, dict[str, float | None]]
    counts: dict[str, int] = field(default_factory=dict)
    skipped_pr: int = 0
    missing: int = 0
    unknown: int = 0
    skipped: int = 0
    errors: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"task": self.task, "n": self.n, "counts": self.counts, "metrics": self.table,
                "skipped_pr": self.skipped_pr, "missing_predictions": self.missing,
                "unknown_predictions": self.unknown, "skipped_predictions": self.skipped,
                "evaluation_errors": self.errors}


def index_predictions(rows: list[dict[str, Any]], task: int) -> dict[str, dict[str, Any]]:
    """Predictions by the id they answer (see :func:`map2route.nesy.official.prediction_key`).

    Raises:
        NesyError: a prediction without an id, or two for one id.
    """
    out: dict[str, dict[str, Any]] = {}
    name = "query_id" if task == 1 else "sample_id"
    for n, row in enumerate(rows, start=1):
        key = prediction_key(row, task)
        if key is None:
            raise NesyError(f"prediction {n} has no {name}; each prediction names its {name}")
        if key in out:
            raise NesyError(f"two predictions for {name} {key}; keep one per sample")
        out[key] = row
    return out


def _mean(values: list[float]) -> float | None:
    return float(np.mean(values)) if values else None


def _pct(values: list[float]) -> float | None:
    m = _mean(values)
    return None if m is None else 100.0 * m


def _by_split(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {s: [] for s in SPLITS}
    for r in rows:
        out.setdefault(str(r.get("difficulty", "easy")).lower(), []).append(r)
    return out


@dataclass
class _Tally:
    skipped: int = 0
    skipped_pr: int = 0
    errors: int = 0


def _vector_scores(rows: list[dict[str, Any]], preds: dict[str, dict[str, Any]],
                   with_region: bool, tally: _Tally) -> tuple[dict[str, float | None], int]:
    tm: list[float] = []
    fm: list[float] = []
    pr: list[float] = []
    rm: list[float] = []
    for r in rows:
        p = preds[r["sample_id"]]
        trav = prediction_vector(p, "traverse_vector")
        pref = prediction_vector(p, "cost_vector")
        reg = prediction_vector(p, "region_vector") if with_region else None
        gt_ok = len(r["V_trav"]) == len(r["V_pref"]) == NUM_CLASSES and (
            not with_region or len(r.get("V_reg") or []) == NUM_CLASSES)
        if trav is None or pref is None or (with_region and reg is None) or not gt_ok:
            tally.skipped += 1
            continue
        tm.append(float(traversability_match(trav, r["V_trav"])))
        fm.append(float(full_match(trav, pref, r["V_trav"], r["V_pref"])))
        tau = preference_correlation(pref, r["V_pref"], r["V_trav"])
        if tau is None:
            tally.skipped_pr += 1
        else:
            pr.append(tau)
        if with_region and reg is not None:
            rm.append(region_match(reg, r["V_reg"]))
    out: dict[str, float | None] = {"TM": _pct(tm), "PR": _mean(pr), "FM": _pct(fm)}
    if with_region:
        out["RM"] = _pct(rm)
    return out, len(tm)


def _trajectory_scores(rows: list[dict[str, Any]], preds: dict[str, dict[str, Any]],
                       labels: dict[str, NDArray[np.uint8]], bar: Any, task: Any,
                       tally: _Tally) -> dict[str, float | None]:
    ar: list[float] = []
    vr: list[float] = []
    cr: list[float] = []
    cd: list[float] = []
    for r in rows:
        bar.advance(task)
        try:
            waypoints = prediction_waypoints(preds[r["sample_id"]])
        except NesyError:
            tally.errors += 1
            ar.append(0.0)
            continue
        w = cost_map(label_of(r, labels), Vectors(tuple(r["V_trav"]), tuple(r["V_pref"])))
        s = score_trajectory(w, waypoints, r["gt_path"])
        ar.append(float(s.adherent))
        if s.cost_ratio is not None:
            cr.append(s.cost_ratio)
        if s.violation_ratio is not None:
            vr.append(s.violation_ratio)
        if np.isfinite(s.chamfer):
            cd.append(s.chamfer)
    return {"AR": _pct(ar), "VR": _pct(vr), "CR": _mean(cr), "CD": _mean(cd)}


def evaluate(data: Path, task: int, predictions: list[dict[str, Any]]) -> TaskResult:
    """Score predictions for Task ``task`` of the dataset in ``data``.

    Raises:
        NesyError: unreadable dataset, duplicate or id-less predictions, or no prediction
            matching any sample.
    """
    rows = load_samples(data, task)
    preds = index_predictions(predictions, task)
    known = {r["sample_id"] for r in rows}
    matched = [r for r in rows if r["sample_id"] in preds]
    if not matched:
        what = "query_id" if task == 1 else "sample_id"
        msg = (f"no prediction matches a Task {task} sample of {data} (by {what}, e.g. "
               f"{rows[0]['sample_id'] if rows else '-'})")
        raise NesyError(msg)
    tally = _Tally()
    unknown = sum(1 for k in preds if k not in known)
    missing = len(rows) - len(matched)
    table: dict[str, dict[str, float | None]] = {}
    counts: dict[str, int] = {}
    if task == 1:
        scores, n = _vector_scores(matched, preds, False, tally)
        return TaskResult(1, len(rows), {"all": scores}, {"all": n}, tally.skipped_pr, missing,
                          unknown, tally.skipped)
    labels = load_labels(data) if task == 3 else {}
    with progress() as bar:
        bar_task = bar.add_task(f"task {task}", total=len(matched))
        for split, split_rows in _by_split(matched).items():
            if not split_rows:
                continue
            if task == 2:
                scores, counts[split] = _vector_scores(split_rows, preds, True, tally)
                bar.advance(bar_task, len(split_rows))
            else:
                counts[split] = len(split_rows)
                scores = _trajectory_scores(split_rows, preds, labels, bar, bar_task, tally)
            table[split] = scores
    table["avg"] = {m: _mean([v for s in SPLITS if (v := table.get(s, {}).get(m)) is not None])
                    for m in TASK_METRICS[task]}
    return TaskResult(task, len(rows), table, counts, tally.skipped_pr, missing, unknown,
                      tally.skipped, tally.errors)


# --- tables -------------------------------------------------------------------------------------
def _fmt(metric: str, v: float | None) -> str:
    if v is None:
        return "-"
    if metric == "PR":
        return f"{v:.3f}"
    return f"{v:.2f}"


def markdown_table(result: TaskResult, method: str) -> str:
    """The result laid out like Tables 4 (Task 1) / 5 (Task 2) / 6 (Task 3) of the paper."""
    names = TASK_METRICS[result.task]
    if result.task == 1:
        head = "| Method | " + " | ".join(f"{m}" for m in names) + " |"
        sep = "|---" * (len(names) + 1) + "|"
        row = f"| {method} | " + " | ".join(_fmt(m, result.table["all"][m]) for m in names) + " |"
        return "\n".join([head, sep, row])
    cols = [*SPLITS, "avg"]
    head = "| Method | " + " | ".join(f"{s.capitalize()} {m}" for s in cols for m in names) + " |"
    sep = "|---" * (len(cols) * len(names) + 1) + "|"
    row = f"| {method} | " + " | ".join(_fmt(m, result.table.get(s, {}).get(m))
                                         for s in cols for m in names) + " |"
    return "\n".join([head, sep, row])


def rich_table(result: TaskResult, method: str) -> Table:
    """A rich table: one row per difficulty split (and avg), one column per metric."""
    names = TASK_METRICS[result.task]
    titles = {1: "Task 1: Textual Constraint Understanding",
              2: "Task 2: Text-Image Constraint Alignment",
              3: "Task 3: Constrained Route Planning"}
    table = Table(title=f"{titles[result.task]} - {method} (N={result.n})")
    table.add_column("split")
    table.add_column("n", justify="right")
    for m in names:
        table.add_column(m + (" (lower better)" if m in ("VR", "CR", "CD") else ""),
                         justify="right")
    rows = ["all"] if result.task == 1 else [*SPLITS, "avg"]
    for s in rows:
        n = str(result.counts.get(s, "")) if s != "avg" else ""
        table.add_row(s, n, *[_fmt(m, result.table.get(s, {}).get(m)) for m in names])
    return table
