"""Detections made outside the builder: a JSONL file (or topic) of 2D boxes and masks per panorama.

A lab runs its own detector (YOLO-World, YOLOE, Grounded-SAM, ...) on the panoramas and
writes one JSON object per panorama, one per line::

    {"stamp": 1717000000.5, "width": 960, "height": 320,
     "detections": [{"label": "chair", "score": 0.87, "box": [x0, y0, x1, y1],
                     "mask": {"size": [320, 960], "counts": [5120, 12, 308, ...]}}]}

- ``stamp``: the panorama's header stamp in seconds (matched within ``tolerance_s``);
- ``width``/``height``: the panorama the detections were made on (the cropped one the
  builder fuses; a detection on another size is an error, not rescaled);
- ``box``: pixel corners, ``x1``/``y1`` exclusive; used as the mask when ``mask`` is absent;
- ``mask`` (optional): COCO's uncompressed run-length encoding, column-major: ``counts``
  alternates runs of 0 and 1 starting with 0.

:class:`ExternalDetector` reads such a file (or takes records one by one from a topic,
:meth:`ExternalDetector.add`) and answers :meth:`detect` for the panorama with that stamp.
:func:`map2route.mapping.driver_bag.write_sim_detections` is a small deterministic detector that writes the format from a
simulator bag's instance ids (what a perfect detector would write), so the path is tested end
to end without weights.
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from map2route.mapping.detection import Detection, Frame
from map2route.mapping.errors import MappingError

if TYPE_CHECKING:
    from numpy.typing import NDArray


def rle_encode(mask: NDArray[np.bool_]) -> dict[str, Any]:
    """COCO uncompressed RLE of a 2D bool mask (column-major runs, starting with 0s)."""
    flat = np.asarray(mask, dtype=bool).ravel(order="F")
    change = np.flatnonzero(np.diff(flat.astype(np.int8))) + 1
    bounds = np.concatenate([[0], change, [flat.size]])
    counts = np.diff(bounds).tolist()
    if flat.size and flat[0]:
        counts = [0, *counts]
    return {"size": [int(mask.shape[0]), int(mask.shape[1])], "counts": [int(c) for c in counts]}


def rle_decode(rle: dict[str, Any]) -> NDArray[np.bool_]:
    """The mask of :func:`rle_encode`'s format.

    Raises:
        MappingError: counts that do not add up to the size, or compressed (string) counts.
    """
    try:
        h, w = (int(v) for v in rle["size"])
        counts = rle["counts"]
    except (KeyError, TypeError, ValueError) as err:
        msg = f"a mask needs \"size\": [h, w] and \"counts\": [...], got {str(rle)[:80]}"
        raise MappingError(msg) from err
    if isinstance(counts, str):
        msg = ("compressed RLE strings are not supported; write uncompressed counts "
               "(a list of run lengths)")
        raise MappingError(msg)
    runs = np.asarray(counts, dtype=np.int64)
    if runs.size == 0 or (runs < 0).any() or int(runs.sum()) != h * w:
        msg = f"mask counts add up to {int(runs.sum())}, not {h} x {w} = {h * w} pixels"
        raise MappingError(msg)
    values = np.arange(runs.size) % 2 == 1
    return np.repeat(values, runs).reshape((h, w), order="F")


def _detection(raw: dict[str, Any], shape: tuple[int, int], where: str) -> Detection | None:
    try:
        label = str(raw["label"]).strip().lower().replace(" ", "_")
        score = float(raw.get("score", 1.0))
    except (KeyError, TypeError, ValueError) as err:
        msg = f"{where}: a detection needs a \"label\" (and a numeric \"score\"), got {raw!r}"
        raise MappingError(msg) from err
    if "mask" in raw and raw["mask"] is not None:
        mask = rle_decode(raw["mask"])
        if mask.shape != shape:
            msg = f"{where}: a {mask.shape} mask on a {shape} panorama"
            raise MappingError(msg)
    elif "box" in raw:
        try:
            x0, y0, x1, y1 = (int(round(float(v))) for v in raw["box"])
        except (TypeError, ValueError) as err:
            msg = f"{where}: \"box\" must be [x0, y0, x1, y1] pixels, got {raw['box']!r}"
            raise MappingError(msg) from err
        mask = np.zeros(shape, dtype=bool)
        mask[max(0, y0): max(0, y1), max(0, x0): max(0, x1)] = True
    else:
        msg = f"{where}: a detection needs a \"box\" or a \"mask\""
        raise MappingError(msg)
    if not mask.any():
        return None
    return Detection(mask=mask, label=label, score=score)


@dataclass
class ExternalDetector:
    """Detections from outside, by panorama stamp (see the module docstring).

    Args:
        tolerance_s: a record belongs to the panorama whose stamp is this close.
        live: records arrive while building (a topic): the builder holds a panorama until
            its record came (:meth:`ready`); from a file all records are there up front.
    """

    tolerance_s: float = 0.005
    live: bool = False
    name: str = "external"
    _stamps: list[float] = field(default_factory=list, repr=False)
    _records: list[dict[str, Any]] = field(default_factory=list, repr=False)
    unmatched: int = 0

    @classmethod
    def from_jsonl(cls, path: str | Path, *, tolerance_s: float = 0.005) -> ExternalDetector:
        """All records of a JSONL file.

        Raises:
            MappingError: the file is missing or a line is not a record.
        """
        p = Path(path)
        if not p.is_file():
            msg = f"detections file {str(p)!r} does not exist; pass --detections FILE.jsonl"
            raise MappingError(msg)
        det = cls(tolerance_s=tolerance_s)
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                try:
                    rec = json.loads(line)
                except ValueError as err:
                    msg = f"{p}:{n}: not JSON ({err})"
                    raise MappingError(msg) from err
                det.add(rec, where=f"{p}:{n}")
        return det

    def add(self, record: dict[str, Any], *, where: str = "detections") -> None:
        """One panorama's record (checked now; masks decoded when used).

        Raises:
            MappingError: no numeric stamp, width or height, or no detections list.
        """
        try:
            stamp = float(record["stamp"])
            int(record["width"]), int(record["height"])
            dets = record["detections"]
        except (KeyError, TypeError, ValueError) as err:
            msg = (f"{where}: a record needs \"stamp\" (seconds), \"width\", \"height\" and "
                   f"\"detections\"; got keys {sorted(record) if isinstance(record, dict) else record!r}")
            raise MappingError(msg) from err
        if not isinstance(dets, list):
            msg = f"{where}: \"detections\" must be a list"
            raise MappingError(msg)
        i = bisect.bisect(self._stamps, stamp)
        self._stamps.insert(i, stamp)
        self._records.insert(i, {**record, "_where": where})

    def _find(self, t: float) -> dict[str, Any] | None:
        i = bisect.bisect_left(self._stamps, t)
        best = None
        for j in (i - 1, i):
            if 0 <= j < len(self._stamps) and abs(self._stamps[j] - t) <= self.tolerance_s and (
                    best is None or abs(self._stamps[j] - t) < abs(self._stamps[best] - t)):
                best = j
        return self._records[best] if best is not None else None

    def ready(self, t: float) -> bool:
        """Whether the record of the panorama at ``t`` is in (always, from a file)."""
        return not self.live or self._find(t) is not None

    def detect(self, frame: Frame) -> list[Detection]:
        """The detections recorded for ``frame.stamp`` (none when no record matches).

        Raises:
            MappingError: the frame has no stamp, or the record is for another image size.
        """
        if frame.stamp is None:
            msg = "the external detector needs each panorama's stamp"
            raise MappingError(msg)
        rec = self._find(frame.stamp)
        if rec is None:
            self.unmatched += 1
            return []
        shape = (int(rec["height"]), int(rec["width"]))
        if shape != frame.rgb.shape[:2]:
            msg = (f"{rec['_where']}: detections made on a {shape[1]}x{shape[0]} image, the "
                   f"panorama at {frame.stamp:.3f} s is {frame.rgb.shape[1]}x{frame.rgb.shape[0]}")
            raise MappingError(msg)
        out = []
        for raw in rec["detections"]:
            d = _detection(raw, shape, rec["_where"])
            if d is not None:
                out.append(d)
        return out


def detection_record(stamp: float, shape: tuple[int, int], dets: list[Detection]
                     ) -> dict[str, Any]:
    """One panorama's record of the module docstring's format."""
    return {"stamp": stamp, "width": int(shape[1]), "height": int(shape[0]),
            "detections": [{"label": d.label, "score": round(float(d.score), 4),
                            "box": list(d.box), "mask": rle_encode(d.mask)} for d in dets]}
