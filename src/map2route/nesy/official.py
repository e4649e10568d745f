"""The official NeSy-Route release layout and prediction format: read and write.

Layout of the Hugging Face release (``Ming1010/NeSy-Route``, evaluation annotations), as its
public scorer reads it:

- ``Task1/queries.json``: a JSON list of ``{query_id, query, traverse_vector, cost_vector}``
  (``query_id`` like ``Q00001``);
- ``Task2/evaluation/{easy,medium,hard}.parquet``: ``sample_id`` (``easy_000001``),
  ``query_id``, ``source_image_name``, ``query``, ``traverse_vector``, ``cost_vector``,
  ``region_vector``;
- ``Task3/evaluation/{easy,medium,hard}.parquet``: ``sample_id``, ``query_id``,
  ``source_image_name``, ``traverse_vector``, ``cost_vector``, ``start_point``, ``end_point``,
  ``gt_trajectory`` (points ``[x, y]``, integers);
- ``Task3/labels/labels.parquet``: ``source_image_name``, ``label`` (a struct whose ``bytes``
  is a single-channel PNG of label ids 0-8), ``width``, ``height``.

Predictions: JSON Lines (or a JSON list, or ``{"predictions"|"results": [...]}``), one object
per sample: Task 1 ``{query_id, traverse_vector, cost_vector}``, Task 2 ``{sample_id,
traverse_vector, cost_vector, region_vector}``, Task 3 ``{sample_id, trajectory: [[x, y], ...]}``
with integer pixels. The ``pred_*`` and ``id`` aliases are accepted; a row with
``"success": false`` is ignored, as the official scorer does.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from PIL import Image

from map2route.files import atomic_write_bytes, atomic_write_text
from map2route.nesy.errors import NesyError
from map2route.nesy.kb import NUM_CLASSES

SPLITS = ("easy", "medium", "hard")
TASK1_FILE = Path("Task1") / "queries.json"
LABELS_FILE = Path("Task3") / "labels" / "labels.parquet"
#: The official field name of each of our vectors.
FIELDS = {"V_trav": "traverse_vector", "V_pref": "cost_vector", "V_reg": "region_vector"}


def is_official(folder: Path) -> bool:
    """Whether ``folder`` holds the official layout (a ``Task1``/``Task2``/``Task3`` folder)."""
    return any((folder / f"Task{n}").is_dir() for n in (1, 2, 3))


def split_file(folder: Path, task: int, split: str) -> Path:
    """``Task{task}/evaluation/{split}.parquet`` under ``folder``."""
    return folder / f"Task{task}" / "evaluation" / f"{split}.parquet"


def query_id(n: int) -> str:
    """The official query id of the ``n``-th query (1-based): ``Q00001``."""
    return f"Q{n:05d}"


def _ints(value: Any, what: str, key: str) -> list[int]:
    try:
        return [int(v) for v in list(value)]
    except (TypeError, ValueError) as err:
        raise NesyError(f"{what}: {key} is not a list of integers ({value!r})") from err


def _row(raw: dict[str, Any], what: str, *, region: bool) -> dict[str, Any]:
    row = dict(raw)
    for ours, theirs in FIELDS.items():
        if ours == "V_reg" and not region:
            continue
        if theirs not in row:
            raise NesyError(f"{what} has no {theirs}")
        row[ours] = _ints(row[theirs], what, theirs)
    return row


def load_task1(folder: Path) -> list[dict[str, Any]]:
    """Task 1 rows of ``Task1/queries.json``, keyed by ``query_id`` (also as ``sample_id``).

    Raises:
        NesyError: a missing file, not JSON, or a row without its id or vectors.
    """
    path = folder / TASK1_FILE
    if not path.is_file():
        raise NesyError(f"no {TASK1_FILE} under {folder}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise NesyError(f"{path} is not JSON ({err.msg})") from err
    if isinstance(data, dict):
        data = next((data[k] for k in ("matches", "queries", "results") if
                     isinstance(data.get(k), list)), None)
    if not isinstance(data, list):
        raise NesyError(f"{path} must hold a JSON list of queries")
    out = []
    for i, raw in enumerate(data):
        if not isinstance(raw, dict) or "query_id" not in raw:
            raise NesyError(f"{path}: entry {i} has no query_id")
        row = _row(raw, f"{path} query {raw['query_id']}", region=False)
        row["sample_id"] = str(row["query_id"])
        out.append(row)
    return out


def load_split(folder: Path, task: int, split: str) -> list[dict[str, Any]]:
    """Rows of one Task 2/3 split file with our keys added (V_*, and for Task 3 the points).

    Returns:
        Rows with ``difficulty = split``; Task 3 rows also get ``start``, ``end`` (row, col)
        and ``gt_path`` (N, 2) (row, col).

    Raises:
        NesyError: a row without its vectors or points.
    """
    path = split_file(folder, task, split)
    rows = pd.read_parquet(path).to_dict(orient="records")
    out = []
    for raw in rows:
        what = f"{path.name} sample {raw.get('sample_id')}"
        row = _row(raw, what, region=task == 2)
        row["sample_id"] = str(row["sample_id"])
        row["difficulty"] = split
        if task == 3:
            for key in ("start_point", "end_point", "gt_trajectory", "source_image_name"):
                if key not in row:
                    raise NesyError(f"{what} has no {key}")
            sx, sy = _ints(row["start_point"], what, "start_point")
            ex, ey = _ints(row["end_point"], what, "end_point")
            row["start"], row["end"] = (sy, sx), (ey, ex)
            gt = np.asarray([_ints(p, what, "gt_trajectory") for p in row["gt_trajectory"]],
                            dtype=np.int32).reshape(-1, 2)
            row["gt_path"] = gt[:, ::-1].copy()
        out.append(row)
    return out


def load_tasks(folder: Path, task: int) -> list[dict[str, Any]]:
    """Every row of Task ``task`` in the official layout (Task 2/3: all split files present).

    Raises:
        NesyError: when no file of that task exists.
    """
    if task == 1:
        return load_task1(folder)
    present = [s for s in SPLITS if split_file(folder, task, s).is_file()]
    if not present:
        msg = (f"no Task{task}/evaluation/{{easy,medium,hard}}.parquet under {folder}; "
               f"download them or run `map2route nesy generate`")
        raise NesyError(msg)
    return [row for s in present for row in load_split(folder, task, s)]


def decode_label(data: bytes, *, name: str) -> NDArray[np.uint8]:
    """A label PNG as the official scorer reads it (Pillow; a palette image gives its indices).

    Raises:
        NesyError: unreadable bytes or not a single-channel image.
    """
    try:
        with Image.open(io.BytesIO(data)) as img:
            arr = np.asarray(img)
    except OSError as err:
        raise NesyError(f"label {name} is not a readable image ({err})") from err
    if arr.ndim != 2:
        raise NesyError(f"label {name} has shape {arr.shape}; a mask has one channel")
    return arr.astype(np.uint8)


def load_labels(folder: Path) -> dict[str, NDArray[np.uint8]]:
    """Masks by ``source_image_name`` from ``Task3/labels/labels.parquet``.

    Raises:
        NesyError: a missing file, column or label bytes.
    """
    path = folder / LABELS_FILE
    if not path.is_file():
        raise NesyError(f"no {LABELS_FILE} under {folder}")
    table = pd.read_parquet(path)
    for col in ("source_image_name", "label"):
        if col not in table:
            raise NesyError(f"{path} has no {col} column")
    out = {}
    for name, blob in zip(table["source_image_name"], table["label"], strict=True):
        data = blob.get("bytes") if isinstance(blob, dict) else blob
        if data is None:
            raise NesyError(f"{path}: no label bytes for {name}")
        out[str(name)] = decode_label(bytes(data), name=str(name))
    return out


# --- writing -----------------------------------------------------------------------------------
def _parquet(path: Path, rows: list[dict[str, Any]]) -> None:
    buf = io.BytesIO()
    pd.DataFrame(rows).to_parquet(buf, index=False)
    atomic_write_bytes(path, buf.getvalue())


def write_task1(folder: Path, rows: list[dict[str, Any]]) -> Path:
    """Write ``Task1/queries.json`` (rows with ``query_id``, ``traverse_vector``, ...)."""
    path = folder / TASK1_FILE
    atomic_write_text(path, json.dumps(rows, indent=1))
    return path


def write_split(folder: Path, task: int, split: str, rows: list[dict[str, Any]]) -> Path:
    """Write one ``Task{task}/evaluation/{split}.parquet``."""
    path = split_file(folder, task, split)
    _parquet(path, rows)
    return path


def write_labels(folder: Path, masks: dict[str, NDArray[np.uint8]]) -> Path:
    """Write ``Task3/labels/labels.parquet``: one single-channel PNG per source image."""
    rows = []
    for name, mask in masks.items():
        buf = io.BytesIO()
        Image.fromarray(np.ascontiguousarray(mask, dtype=np.uint8), mode="L").save(buf, "PNG")
        rows.append({"source_image_name": name,
                     "label": {"bytes": buf.getvalue(), "path": f"{Path(name).stem}.png"},
                     "width": int(mask.shape[1]), "height": int(mask.shape[0])})
    path = folder / LABELS_FILE
    _parquet(path, rows)
    return path


# --- predictions -------------------------------------------------------------------------------
def read_predictions(path: Path) -> list[dict[str, Any]]:
    """Prediction rows from JSON Lines, a JSON list, or ``{"predictions"|"results": [...]}``.

    Rows with ``"success": false`` are dropped (the official rule).

    Raises:
        NesyError: a missing file, a line that is not JSON, or an unknown container.
    """
    if not path.is_file():
        raise NesyError(f"prediction file {path} does not exist")
    text = path.read_text(encoding="utf-8")
    rows: list[Any]
    if path.suffix == ".jsonl" or (text.lstrip()[:1] == "{" and "\n{" in text.strip()):
        rows = []
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as err:
                raise NesyError(f"{path}:{n} is not JSON ({err.msg})") from err
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise NesyError(f"{path} is not JSON ({err.msg})") from err
        if isinstance(data, dict):
            data = next((data[k] for k in ("predictions", "results") if
                         isinstance(data.get(k), list)), [data])
        rows = list(data)
    for n, obj in enumerate(rows, start=1):
        if not isinstance(obj, dict):
            raise NesyError(f"{path}: prediction {n} is not a JSON object")
    return [r for r in rows if r.get("success", True) is not False]


def prediction_key(row: dict[str, Any], task: int) -> str | None:
    """The id a prediction answers: Task 1 ``query_id`` (an int n -> ``Qnnnnn``), else
    ``sample_id``; ``id`` / ``source_id`` aliases as the official scorer accepts them."""
    if task == 1:
        value = row.get("query_id", row.get("source_id", row.get("sample_id")))
        if isinstance(value, int) and not isinstance(value, bool):
            return query_id(value)
    else:
        value = row.get("sample_id", row.get("id"))
    return None if value is None else str(value)


def prediction_vector(row: dict[str, Any], key: str) -> list[Any] | None:
    """A prediction's ``traverse_vector`` / ``cost_vector`` / ``region_vector`` (or its
    ``pred_*`` / our ``V_*`` alias), or None unless it is an 8-element list."""
    ours = {v: k for k, v in FIELDS.items()}[key]
    value = row.get(f"pred_{key}", row.get(key, row.get(ours)))
    if not isinstance(value, (list, tuple)) or len(value) != NUM_CLASSES:
        return None
    return list(value)


def prediction_waypoints(row: dict[str, Any]) -> list[tuple[int, int]]:
    """A Task 3 prediction's waypoints as ``(row, col)``.

    Raises:
        NesyError: no list, an empty list, a point that is not two integers (the official
            scorer rejects ``1.0`` too): the sample is then an evaluation error.
    """
    raw = row.get("trajectory", row.get("pred_trajectory", []))
    if not isinstance(raw, list):
        raise NesyError("trajectory must be a list of [x, y] integer pixels")
    out = []
    for p in raw:
        if not isinstance(p, (list, tuple)) or len(p) != 2 or not all(
                isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in p):
            raise NesyError(f"waypoint {p!r} is not two integers [x, y]")
        out.append((int(p[1]), int(p[0])))
    if not out:
        raise NesyError("trajectory is empty")
    return out
