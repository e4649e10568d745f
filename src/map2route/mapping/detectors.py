"""Object detectors on the panorama: the interface, a noisy ground-truth detector, and the
plug-in point for an open-vocabulary detector.

A detector turns one :class:`Frame` into :class:`Detection` s (a pixel mask, a category, a
score). SysNav runs YOLOE for boxes and SAM2.1 for masks on a GPU; their weights cannot be
downloaded here, so :class:`OpenVocabularyDetector` checks for them and says what is missing.
:class:`GroundTruthDetector` reads the simulator's instance-id image and degrades it on purpose
(misses, false positives, label noise) so the fusion's robustness can be measured.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from map2route.mapping.detection import Detection, Detector, Frame
from map2route.mapping.errors import MappingError
from map2route.paths import data_dir
from map2route.semantic_map.categories import STRUCTURE_CATEGORIES

__all__ = ["Detection", "Detector", "Frame", "GroundTruthDetector", "OpenVocabularyDetector",
           "make_detector", "vocabulary"]


def vocabulary() -> tuple[str, ...]:
    """The benchmark's object categories (``src/map2route/data/categories.txt``)."""

    text = (data_dir() / "categories.txt").read_text()
    return tuple(line.strip() for line in text.splitlines() if line.strip())


@dataclass
class GroundTruthDetector:
    """Masks from the simulator's instance ids, with configurable noise.

    Args:
        miss_rate: probability of dropping each true detection in each frame.
        false_positive_rate: expected spurious detections per true detection (Poisson per
            frame): a random rectangle below the horizon with a random category.
        label_noise: probability of replacing a detection's category by a random other one.
        min_pixels: masks smaller than this are not reported (too far or mostly hidden).
        ignore: categories never reported (structure rather than objects).
        seed: random seed.
    """

    miss_rate: float = 0.0
    false_positive_rate: float = 0.0
    label_noise: float = 0.0
    min_pixels: int = 30
    ignore: tuple[str, ...] = STRUCTURE_CATEGORIES
    seed: int = 0
    name: str = "ground_truth"
    _rng: np.random.Generator = field(init=False, repr=False)
    _vocab: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        for arg in ("miss_rate", "false_positive_rate", "label_noise"):
            value = getattr(self, arg)
            if not 0.0 <= value <= (10.0 if arg == "false_positive_rate" else 1.0):
                msg = f"{arg} must be a rate in [0, 1], got {value}"
                raise MappingError(msg)
        self._rng = np.random.default_rng(self.seed)
        self._vocab = tuple(c for c in vocabulary() if c not in self.ignore)

    def detect(self, frame: Frame) -> list[Detection]:
        """Detections from ``frame.instance_ids``.

        Raises:
            MappingError: the frame has no instance ids (not a simulator bag).
        """
        if frame.instance_ids is None or not frame.labels:
            msg = ("the ground_truth detector needs the simulator's /sim/instance_ids and "
                   "/sim/instance_labels topics; this bag has none: use a bag from "
                   "`map2route map simulate` or another detector")
            raise MappingError(msg)
        ids = frame.instance_ids
        counts = np.bincount(ids.reshape(-1), minlength=len(frame.labels))
        rng = self._rng
        out: list[Detection] = []
        for k in np.flatnonzero(counts >= self.min_pixels):
            if k == 0 or k >= len(frame.labels) or frame.labels[k] in self.ignore:
                continue
            if rng.random() < self.miss_rate:
                continue
            label = frame.labels[k]
            if rng.random() < self.label_noise:
                label = str(rng.choice([c for c in self._vocab if c != label]))
            out.append(Detection(mask=ids == k, label=label, score=1.0))
        n_fp = rng.poisson(self.false_positive_rate * max(len(out), 1)) if self.false_positive_rate else 0
        rows, cols = ids.shape
        for _ in range(n_fp):
            w = int(rng.uniform(0.02, 0.08) * cols)
            h = max(2, int(rng.uniform(0.5, 1.5) * w * rows / cols * 2))
            r0 = int(rng.integers(rows // 2, max(rows // 2 + 1, rows - h)))
            c0 = int(rng.integers(0, cols - w))
            mask = np.zeros(ids.shape, dtype=bool)
            mask[r0: r0 + h, c0: c0 + w] = True
            out.append(Detection(mask=mask, label=str(rng.choice(self._vocab)), score=0.5))
        return out


@dataclass
class OpenVocabularyDetector:
    """The plug-in point for an open-vocabulary detector (SysNav: YOLOE boxes + SAM2.1 masks).

    Args:
        weights: folder holding ``yoloe.pt`` and ``sam2.1.pt``.
        prompts: categories to detect (default: the benchmark vocabulary).

    Raises:
        MappingError: on construction, when the weights or the ``ultralytics`` package are
            missing (they cannot be downloaded in this environment).
    """

    weights: Path
    prompts: tuple[str, ...] = ()
    name: str = "open_vocabulary"
    _models: Any = field(init=False, repr=False, default=None)

    def __post_init__(self) -> None:
        missing = [f for f in ("yoloe.pt", "sam2.1.pt") if not (Path(self.weights) / f).is_file()]
        if missing:
            msg = (f"open-vocabulary detector weights {missing} are missing in "
                   f"{str(self.weights)!r}; copy YOLOE and SAM2.1 checkpoints there (they are not "
                   "shipped and cannot be downloaded here), or use --detector ground_truth on a "
                   "simulator bag")
            raise MappingError(msg)
        try:
            import ultralytics  # noqa: PLC0415 - optional dependency (open-vocabulary detector weights)
        except ImportError as err:
            msg = ("the open-vocabulary detector needs the `ultralytics` package "
                   "(`pip install ultralytics`) and a GPU build of torch")
            raise MappingError(msg) from err
        weights = Path(self.weights)
        prompts = list(self.prompts or vocabulary())
        yolo = ultralytics.YOLOE(str(weights / "yoloe.pt"))
        yolo.set_classes(prompts, yolo.get_text_pe(prompts))
        self._models = (yolo, ultralytics.SAM(str(weights / "sam2.1.pt")), prompts)

    def detect(self, frame: Frame) -> list[Detection]:
        yolo, sam, prompts = self._models
        result = yolo.predict(frame.rgb[..., ::-1], verbose=False)[0]
        boxes = result.boxes
        if boxes is None or len(boxes) == 0:
            return []
        masks = sam(frame.rgb[..., ::-1], bboxes=boxes.xyxy, verbose=False)[0].masks.data
        out = []
        for mask, cls, score in zip(masks.cpu().numpy(), boxes.cls.tolist(),
                                    boxes.conf.tolist(), strict=False):
            out.append(Detection(mask=mask.astype(bool), label=prompts[int(cls)], score=float(score)))
        return out


def make_detector(name: str, **options: Any) -> Detector:
    """A detector by name: ``ground_truth``, ``open_vocabulary`` or ``external`` (options:
    ``detections``, a JSONL file of :mod:`map2route.mapping.external`; or ``live=True``, records
    fed by :meth:`~map2route.mapping.external.ExternalDetector.add`).

    Raises:
        MappingError: unknown name (naming the known ones) or the detector cannot start.
    """
    if name == "ground_truth":
        return GroundTruthDetector(**options)
    if name == "open_vocabulary":
        return OpenVocabularyDetector(**options)
    if name == "external":
        from map2route.mapping.external import ExternalDetector  # noqa: PLC0415 - imports this module

        path = options.pop("detections", None)
        if path is not None:
            return ExternalDetector.from_jsonl(path, **options)
        return ExternalDetector(**options)
    msg = f"unknown detector {name!r}; choose ground_truth, open_vocabulary or external"
    raise MappingError(msg)
