"""Instruction-quality scores against human navigability labels (GROKE's r(NE)).

``map2route bench groke`` writes ``quality.csv``: per instruction both scorings' NE and SR and
``quality = exp(-NE / 100 m)``. This module joins that file with a user's human-label file
(CSV, JSON or JSONL; an id column holding Map2Seq ``instructions_id`` values and one numeric
label column: binary navigable 0/1 or a graded/Likert score) and reports, for each of our
scores against the label, Pearson r (p value, 95 % CI by Fisher's z), Spearman rho and, for
a binary label, the ROC AUC (the point-biserial correlation is Pearson's r on a 0/1 label).

The paper's own number, r(NE) = -0.31 for its LLM navigator on the Map2Seq test instances,
is carried as a reference row; it is not on the same instructions or the same follower.
No labels exist for data this project may read, so the tool is for users who hold some.
Pure logic and a matplotlib figure only: no ROS imports.
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from scipy import stats

from map2route.bench.errors import BenchmarkError
from map2route.bench.report import write_json, write_png

#: Our scores in ``quality.csv``: column -> (display name, which direction is "more navigable").
SCORES: dict[str, tuple[str, str]] = {
    "official_ne_m": ("official NE (m)", "lower"),
    "ne_m": ("panorama NE (m)", "lower"),
    "quality": ("quality", "higher"),
    "official_sr": ("official SR", "higher"),
}
#: GROKE's reported correlation of its navigator's NE with the human labels.
PAPER_REFERENCE = {"name": "GROKE paper (its LLM navigator, test)", "score": "NE",
                   "pearson_r": -0.31}
#: Column names tried, in order, when --id-column / --label-column are not given.
ID_COLUMNS = ("id", "instructions_id", "instruction_id", "instance_id")
LABEL_COLUMNS = ("label", "navigable", "navigability", "human_label", "human", "rating",
                 "likert", "score")
#: Written next to each other in --out.
SUMMARY_NAME = "human_labels.json"
PLOT_NAME = "human_labels.png"
#: How many unmatched ids the summary lists (the counts are always complete).
LIST_IDS = 20


@dataclass
class Labels:
    """A human-label file read into ``id -> label`` (ids repeated in the file are averaged)."""

    path: Path
    id_column: str
    label_column: str
    values: dict[str, float]
    rows: int
    averaged: int = 0  # ids that had more than one label (several annotators)


@dataclass
class Results:
    """``quality.csv`` read into ``id -> {score column: value or None}``."""

    path: Path
    scores: dict[str, dict[str, float | None]] = field(default_factory=dict)


def _norm_id(value: Any) -> str:
    """An id as text: JSON 12 and 12.0 and CSV "12" all become "12"."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _number(text: str) -> float | None:
    text = text.strip()
    return float(text) if text else None


def load_results(path: Path) -> Results:
    """``quality.csv`` of ``map2route bench groke`` (``path`` is the file or its folder)."""
    path = Path(path)
    if path.is_dir():
        path = path / "quality.csv"
    if not path.is_file():
        raise BenchmarkError(f"no quality.csv at {path}: run `map2route bench groke --out DIR` "
                             "first and pass --results DIR (or DIR/quality.csv)")
    reader = csv.DictReader(io.StringIO(path.read_text(encoding="utf-8")))
    missing = [c for c in ("id", *SCORES) if c not in (reader.fieldnames or [])]
    if missing:
        raise BenchmarkError(f"{path} lacks the column(s) {', '.join(missing)}: it is not a "
                             "quality.csv of `map2route bench groke` (rerun it to write one)")
    out = Results(path)
    for row in reader:
        try:
            out.scores[_norm_id(row["id"])] = {c: _number(row[c] or "") for c in SCORES}
        except ValueError as err:
            raise BenchmarkError(f"{path}: a non-numeric score in the row of id {row['id']} "
                                 f"({err}); rewrite it with `map2route bench groke`") from None
    return out


def _label_records(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The rows of a CSV/TSV, JSON (a list of objects, or {id: label}) or JSONL file."""
    text = path.read_text(encoding="utf-8")
    suffix = path.suffix.lower()
    if suffix in (".json", ".jsonl", ".ndjson"):
        try:
            if suffix == ".json":
                data = json.loads(text)
            else:
                data = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as err:
            raise BenchmarkError(f"labels file {path} is not valid JSON (line {err.lineno}: "
                                 f"{err.msg})") from None
        if isinstance(data, dict):  # {id: label}
            data = [{"id": k, "label": v} for k, v in data.items()]
        if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
            raise BenchmarkError(f"labels file {path}: expected a list of objects (one per "
                                 "instruction, with an id and a label) or an {id: label} object")
        columns: list[str] = []
        for d in data:
            columns += [k for k in d if k not in columns]
        return data, columns
    reader = csv.DictReader(io.StringIO(text), delimiter="\t" if suffix == ".tsv" else ",")
    return list(reader), [c for c in (reader.fieldnames or []) if c]


def _pick(given: str | None, candidates: tuple[str, ...], columns: list[str], what: str,
          option: str, path: Path, exclude: str = "") -> str:
    if given is not None:
        if given not in columns:
            raise BenchmarkError(f"labels file {path} has no column {given!r} (columns: "
                                 f"{', '.join(columns) or 'none'}); fix {option}")
        return given
    for c in candidates:
        if c in columns and c != exclude:
            return c
    others = [c for c in columns if c != exclude]
    if what == "label" and len(others) == 1:
        return others[0]
    raise BenchmarkError(f"labels file {path} has no {what} column (looked for "
                         f"{', '.join(candidates)}; columns: {', '.join(columns) or 'none'}); "
                         f"name it with {option}")


def load_labels(path: Path, *, label_column: str | None = None,
                id_column: str | None = None) -> Labels:
    """A human-label file: one numeric label per instruction id (repeated ids are averaged)."""
    path = Path(path)
    if not path.is_file():
        raise BenchmarkError(f"labels file {path} not found: pass --labels with a CSV, JSON "
                             "or JSONL file of instruction ids and human labels")
    records, columns = _label_records(path)
    id_col = _pick(id_column, ID_COLUMNS, columns, "id", "--id-column", path)
    label_col = _pick(label_column, LABEL_COLUMNS, columns, "label", "--label-column", path,
                      exclude=id_col)
    sums: dict[str, list[float]] = {}
    for n, rec in enumerate(records, start=1):
        raw_id, raw = rec.get(id_col), rec.get(label_col)
        if raw_id is None or _norm_id(raw_id) == "":
            raise BenchmarkError(f"labels file {path}: row {n} has no {id_col!r}")
        value: float | None = None
        if isinstance(raw, bool):  # JSON true/false: navigable or not
            value = float(raw)
        elif isinstance(raw, int | float):
            value = float(raw)
        elif isinstance(raw, str):
            low = raw.strip().lower()
            if low in ("true", "false"):
                value = float(low == "true")
            else:
                try:
                    value = float(low)
                except ValueError:
                    value = None
        if value is None or not math.isfinite(value):
            raise BenchmarkError(f"labels file {path}: the {label_col!r} of id "
                                 f"{_norm_id(raw_id)} (row {n}) is {raw!r}, not a number; "
                                 "labels must be numeric (navigable 0/1, or a Likert score)")
        sums.setdefault(_norm_id(raw_id), []).append(value)
    return Labels(path, id_col, label_col, {k: sum(v) / len(v) for k, v in sums.items()},
                  rows=len(records), averaged=sum(len(v) > 1 for v in sums.values()))


def fisher_ci(r: float, n: int, level: float = 0.95) -> tuple[float, float] | None:
    """Confidence interval of Pearson's r by Fisher's z: tanh(atanh(r) -+ z_crit / sqrt(n-3))."""
    if n < 4 or not math.isfinite(r):
        return None
    if abs(r) >= 1.0:
        return (r, r)
    z, half = math.atanh(r), float(stats.norm.ppf(0.5 + level / 2)) / math.sqrt(n - 3)
    return (math.tanh(z - half), math.tanh(z + half))


def roc_auc(scores: list[float], labels: list[float]) -> float:
    """ROC AUC of ``scores`` for 0/1 ``labels``: P(a 1 scores above a 0), ties count half.

    Hand-rolled (Mann-Whitney U from average ranks) because scikit-learn is not a dependency
    of map2route; scipy (already one) gives the tie-aware ranks.
    """
    ranks = stats.rankdata(scores)
    pos = [r for r, y in zip(ranks, labels, strict=True) if y == 1]
    n_pos, n_neg = len(pos), len(labels) - len(pos)
    if n_pos == 0 or n_neg == 0:
        raise BenchmarkError("ROC AUC needs both labels 0 and 1")
    return float((sum(pos) - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def _num(v: Any) -> float | None:
    return None if v is None or not math.isfinite(float(v)) else round(float(v), 4)


def score_stats(x: list[float], y: list[float], *, binary: bool,
                lower_is_better: bool = False) -> dict[str, Any]:
    """Pearson r (p, 95 % CI), Spearman rho (p) of a score ``x`` against labels ``y``; for a
    binary label also the ROC AUC (on -x when a lower score means more navigable)."""
    n = len(x)
    out: dict[str, Any] = {"n": n, "pearson_r": None, "pearson_p": None, "ci95": None,
                           "spearman_rho": None, "spearman_p": None}
    if binary:
        out["auc"] = None
    if n < 3:
        out["note"] = f"only {n} joined rows carry this score"
        return out
    if len(set(x)) < 2:
        out["note"] = f"constant ({x[0]:g}) on the joined rows"
        return out
    r, p = stats.pearsonr(x, y)
    rho, rho_p = stats.spearmanr(x, y)
    ci = fisher_ci(float(r), n)
    out.update(pearson_r=_num(r), pearson_p=_num(p), spearman_rho=_num(rho),
               spearman_p=_num(rho_p), ci95=None if ci is None else [_num(c) for c in ci])
    if binary:
        out["auc"] = _num(roc_auc([-v for v in x] if lower_is_better else x, y))
    return out


def compare(results: Results, labels: Labels) -> dict[str, Any]:
    """Join on the instruction id and correlate every score with the label (the summary)."""
    ours, theirs = set(results.scores), set(labels.values)
    joined = sorted(ours & theirs, key=lambda i: (len(i), i))
    if len(joined) < 3:
        raise BenchmarkError(
            f"only {len(joined)} instruction(s) joined between {results.path} "
            f"({len(ours)} ids) and {labels.path} ({len(theirs)} ids, column "
            f"{labels.id_column!r}): a correlation needs at least 3; check that the labels' ids "
            "are the Map2Seq instructions_id values of the run (quality.csv column id)")
    y_all = [labels.values[i] for i in joined]
    if len(set(y_all)) < 2:
        raise BenchmarkError(f"every joined label is {y_all[0]:g}: a correlation needs labels "
                             "that vary; check --label-column")
    binary = set(y_all) <= {0.0, 1.0}
    scores = []
    for col, (name, better) in SCORES.items():
        pairs = [(results.scores[i][col], labels.values[i]) for i in joined]
        x = [float(s) for s, _ in pairs if s is not None]
        y = [lab for s, lab in pairs if s is not None]
        row = score_stats(x, y, binary=binary, lower_is_better=better == "lower")
        scores.append({"score": col, "name": name, "more_navigable": better, **row})
    only_ours = sorted(ours - theirs, key=lambda i: (len(i), i))
    only_theirs = sorted(theirs - ours, key=lambda i: (len(i), i))
    return {
        "results": str(results.path), "labels": str(labels.path),
        "id_column": labels.id_column, "label_column": labels.label_column,
        "label_kind": "binary" if binary else "graded",
        "label_values": sorted(set(y_all)) if len(set(y_all)) <= 10 else None,
        "n_results": len(ours), "n_labels": len(theirs), "label_rows": labels.rows,
        "labels_averaged": labels.averaged, "n_joined": len(joined),
        "unmatched_results": {"n": len(only_ours), "ids": only_ours[:LIST_IDS]},
        "unmatched_labels": {"n": len(only_theirs), "ids": only_theirs[:LIST_IDS]},
        "scores": scores, "reference": dict(PAPER_REFERENCE),
        "note": "label read as: higher = more navigable (NE should correlate negatively, "
                "quality and SR positively); AUC = P(a navigable instruction scores better "
                "than a non-navigable one), on -NE for NE; point-biserial r = Pearson r on "
                "a 0/1 label. The paper's r is on other instructions and another follower.",
        "joined": [{"id": i, "label": labels.values[i], **results.scores[i]} for i in joined],
    }


def plot_labels(summary: dict[str, Any], path: Path) -> Path:
    """Official NE and quality against the label: box plots per class for a binary label,
    scatter plots for a graded one; r in each panel's title."""
    rows = summary["joined"]
    by_col = {s["score"]: s for s in summary["scores"]}
    fig = Figure(figsize=(10, 4))  # no pyplot: no global figure state
    axes = fig.subplots(1, 2)
    rng = np.random.default_rng(0)  # jitter only: the same picture every run
    axis_name = {"official_ne_m": "official NE (m)", "quality": "quality exp(-NE/100 m)"}
    for ax, col in zip(axes, ("official_ne_m", "quality"), strict=True):
        pts = [(r[col], r["label"]) for r in rows if r[col] is not None]
        s = by_col[col]
        r_txt = "r n/a" if s["pearson_r"] is None else f"r = {s['pearson_r']:+.2f}"
        if summary["label_kind"] == "binary":
            groups = [[v for v, lab in pts if lab == k] for k in (0.0, 1.0)]
            ax.boxplot([g or [float("nan")] for g in groups], positions=[0, 1], widths=0.5,
                       showfliers=False)  # every point is drawn over the box
            for k, g in enumerate(groups):
                ax.scatter(k + rng.uniform(-0.12, 0.12, len(g)), g, s=12, alpha=0.6,
                           color="#4477aa")
            ax.set_xticks([0, 1], ["not navigable (0)", "navigable (1)"])
            ax.set_xlabel(f"human label ({summary['label_column']})")
            ax.set_ylabel(axis_name[col])
            if s.get("auc") is not None:
                r_txt += f", AUC = {s['auc']:.2f}"
        else:
            ax.scatter([lab for _, lab in pts], [v for v, _ in pts], s=14, alpha=0.7,
                       color="#4477aa")
            ax.set_xlabel(f"human label ({summary['label_column']})")
            ax.set_ylabel(axis_name[col])
        ax.set_title(f"{axis_name[col]}: n = {len(pts)}, {r_txt}", fontsize=10)
    fig.suptitle(f"our scores vs human labels ({summary['n_joined']} joined; GROKE paper "
                 f"r(NE) = {PAPER_REFERENCE['pearson_r']} on its test set)", fontsize=10)
    fig.tight_layout()
    return write_png(fig, Path(path), dpi=120)


def run_label_comparison(results_path: Path, labels_path: Path, *,
                         label_column: str | None = None, id_column: str | None = None,
                         out: Path | None = None) -> tuple[dict[str, Any], list[Path]]:
    """Read both files, compare, write ``human_labels.json`` and ``human_labels.png`` into
    ``out`` (default: the folder of quality.csv); return the summary and the written paths."""
    results = load_results(results_path)
    labels = load_labels(labels_path, label_column=label_column, id_column=id_column)
    summary = compare(results, labels)
    out = Path(out) if out is not None else results.path.parent
    out.mkdir(parents=True, exist_ok=True)
    written = [write_json(out / SUMMARY_NAME, summary, indent=2),
               plot_labels(summary, out / PLOT_NAME)]
    return summary, written
