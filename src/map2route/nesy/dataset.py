"""The NeSy-Route generator (section 3.3) and the dataset files it writes and reads.

By default :func:`generate` writes the official release layout (:mod:`.official`:
``Task1/queries.json``, ``Task{2,3}/evaluation/{split}.parquet``,
``Task3/labels/labels.parquet``) plus ``images/images.parquet`` and ``manifest.json``. Our
cache layout (``fmt="ours"``; ``[x, y] = [col, row]`` pixel points, row 0 at the image top)::

    DIR/manifest.json          counts, resolution, sources, difficulty thresholds, timings
    DIR/labels/labels.parquet  tile_id, label (PNG bytes, ids 0-8), source, resolution_m, ...
    DIR/images/images.parquet  tile_id, image (PNG bytes, aerial RGB with numbered regions),
                               imagery (synthetic | orthophoto)
    DIR/task1/queries.json     [{sample_id, query, vectors: {V_trav, V_pref}, agent, ...}]
    DIR/task2/task2.parquet    sample_id, tile_id, query, vectors (JSON: V_reg, V_trav, V_pref),
                               num_classes, difficulty
    DIR/task3/task3.parquet    sample_id, tile_id, query, vectors (JSON: V_trav, V_pref),
                               start_point, end_point, gt_trajectory, gt_cost, complexity,
                               difficulty

Images are stored once per tile (a sample names its image) instead of once per sample, and
say whether they are synthetic (rendered from the mask) or real orthophotos. The readers
take either layout (see :func:`load_samples`).
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
import pandas as pd
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from map2route.files import atomic_write_bytes, atomic_write_text
from map2route.nesy import official
from map2route.nesy.errors import NesyError
from map2route.nesy.kb import (
    CLASS_NAMES,
    NUM_CLASSES,
    TRAVERSABILITY,
    Agent,
    Objective,
    Vectors,
    class_costs,
    derive_vectors,
)
from map2route.nesy.landcover import (
    TILE_SIZE,
    decode_mask,
    draw_regions,
    encode_png,
    rasterize_osm,
    read_mask,
    render_aerial,
    tiles,
)
from map2route.nesy.queries import QuerySpec, write_query
from map2route.nesy.regions import complexity, find_regions, selective_filter
from map2route.nesy.stages import ASTAR_PARTIAL, solve_ground_truth, write_queries_llm

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.execution.executors import Executor
    from map2route.llm import ChatClient
    from map2route.nesy.regions import Complexity, Regions

#: Task 2 difficulty by the number of classes M in the image (section 4.1).
TASK2_SPLITS = ((1, 4, "easy"), (5, 6, "medium"), (7, NUM_CLASSES, "hard"))
#: Task 3 difficulty by complexity-score quantiles: the paper's split sizes are 60/25/15 %.
TASK3_QUANTILES = (0.60, 0.85)
SPLITS = official.SPLITS
#: How every output names its images: a real orthophoto, or a picture drawn from the mask.
ORTHOPHOTO = "orthophoto"
SYNTHETIC = "synthetic"
IMAGERY_NOTE = ("synthetic images are rendered from the label mask (class colours and texture): "
                "not photographs, and a perception method sees the answer in them; use "
                "--source with OpenEarthMap-style image/label pairs for real imagery")


@dataclass(frozen=True, eq=False)
class Tile:
    """One 1024x1024 land-cover tile with its regions (section 3.3.2)."""

    tile_id: str
    labels: NDArray[np.uint8]
    regions: Regions
    complexity: Complexity
    source: str
    resolution_m: float
    #: A real orthophoto (RGB) of the tile, or None: the image is then rendered (synthetic).
    image: NDArray[np.uint8] | None = None

    @property
    def present(self) -> frozenset[int]:
        return self.regions.classes_present

    def region_numbers(self) -> dict[int, int]:
        """Class index -> the number shown on the image (primary regions in reading order)."""
        order = sorted(self.regions.anchors, key=lambda c: self.regions.anchors[c])
        return {c: i + 1 for i, c in enumerate(order)}

    def region_vector(self) -> list[int]:
        """Ground-truth ``V_reg``: the shown region number of each class, 0 if absent."""
        nums = self.region_numbers()
        return [nums.get(c, 0) for c in range(NUM_CLASSES)]


def difficulty_by_classes(m: int) -> str:
    """Task 2 split of an image with ``m`` classes."""
    for lo, hi, name in TASK2_SPLITS:
        if lo <= m <= hi:
            return name
    return "easy"


def progress() -> Any:

    # on stderr, so `--json` output on stdout stays parseable
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=Console(stderr=True))


# --- tiles ----------------------------------------------------------------------------------
def _mask_sources(source: str) -> list[Path]:
    p = Path(source)
    if p.is_dir():
        return sorted(p.glob("*.png"))
    if p.suffix.lower() == ".png":
        return [p]
    return []


def build_tiles(sources: list[str], *, resolution_m: float, min_area: int, probe_erosions: int,
                min_classes: int = 2) -> list[Tile]:
    """Tiles from OSM extracts, PNG masks, and real orthophotos with their masks.

    Sources: ``helsinki``, ``rural`` or a ``.osm.pbf`` (rasterised at ``resolution_m``, cut
    into 1024x1024 tiles, images later rendered from the mask: synthetic); a PNG mask or a
    folder of them (used as they are, synthetic images); a folder in OpenEarthMap's layout,
    ``images/`` and ``labels/`` with GeoTIFF/PNG pairs of one name, directly or one region
    folder down (the orthophoto is the tile's image). Each tile is filtered (selective
    morphological filter) and its regions found; tiles with fewer than ``min_classes``
    classes are dropped.

    Raises:
        NesyError: if a source cannot be read or no tile is usable.
    """
    raw: list[tuple[str, NDArray[np.uint8], str, float, NDArray[np.uint8] | None]] = []
    for src in sources:
        pairs = orthophoto_pairs(Path(src))
        if pairs:
            for image_path, label_path in pairs:
                image, labels = read_orthophoto_pair(image_path, label_path)
                raw.append((label_path.stem, labels, str(image_path), float("nan"), image))
            continue
        masks = _mask_sources(src)
        if masks:
            for m in masks:
                raw.append((m.stem, read_mask(m), m.name, float("nan"), None))
            continue
        lc = rasterize_osm(src, resolution_m=resolution_m)
        stem = Path(src).name.split(".")[0].lower()
        for r, c in tiles(lc.labels):
            raw.append((f"{stem}_r{r}_c{c}", lc.labels[r:r + TILE_SIZE, c:c + TILE_SIZE],
                        lc.source, lc.resolution_m, None))
    out: list[Tile] = []
    with progress() as bar:
        task = bar.add_task("regions", total=len(raw))
        for tile_id, labels, source, res, photo in raw:
            filtered = selective_filter(labels, min_area=min_area)
            regions = find_regions(filtered, probe_erosions=probe_erosions)
            if len(regions.classes_present) >= min_classes:
                out.append(Tile(tile_id, filtered, regions, complexity(regions), source, res,
                                photo))
            bar.advance(task)
    if not out:
        msg = f"no usable tile (>= {min_classes} land-cover classes) in sources {sources}"
        raise NesyError(msg)
    return out


_IMAGE_SUFFIXES = (".tif", ".tiff", ".png")


def orthophoto_pairs(folder: Path) -> list[tuple[Path, Path]]:
    """(image, label) files of one name under ``images/`` and ``labels/`` (OpenEarthMap layout).

    Looks in ``folder`` and in each of its sub-folders (OpenEarthMap has one per region).
    An empty list when ``folder`` has no such pair.
    """
    if not folder.is_dir():
        return []
    out = []
    for root in [folder, *sorted(d for d in folder.iterdir() if d.is_dir())]:
        images = {p.stem: p for p in sorted((root / "images").glob("*"))
                  if p.suffix.lower() in _IMAGE_SUFFIXES} if (root / "images").is_dir() else {}
        labels = {p.stem: p for p in sorted((root / "labels").glob("*"))
                  if p.suffix.lower() in _IMAGE_SUFFIXES} if (root / "labels").is_dir() else {}
        out += [(images[k], labels[k]) for k in sorted(images.keys() & labels.keys())]
    return out


def read_orthophoto_pair(image_path: Path, label_path: Path
                         ) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """An RGB orthophoto and its 8-class mask (OpenEarthMap ids 0-8) of the same size.

    Raises:
        NesyError: an unreadable file, a mask with ids above 8, an image that is not 8-bit
            RGB, or sizes that differ.
    """
    labels = decode_mask(label_path.read_bytes(), name=str(label_path))
    image = cv2.imread(str(image_path), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise NesyError(f"orthophoto {image_path} is not a readable image")
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] < 3:
        msg = (f"orthophoto {image_path} is {image.dtype} with shape {image.shape}; give 8-bit "
               f"RGB images (OpenEarthMap's are)")
        raise NesyError(msg)
    rgb: NDArray[np.uint8] = np.ascontiguousarray(image[..., 2::-1], dtype=np.uint8)  # BGR(A)
    if rgb.shape[:2] != labels.shape:
        msg = (f"orthophoto {image_path} is {rgb.shape[1]}x{rgb.shape[0]} but its mask "
               f"{label_path} is {labels.shape[1]}x{labels.shape[0]}; they must be one size")
        raise NesyError(msg)
    return rgb, labels


# --- sampling -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Sample:
    """One generated sample (shared by Task 2 and Task 3; its query also feeds Task 1)."""

    sample_id: str
    tile_index: int
    spec: QuerySpec
    query: str
    writer: str
    start: tuple[int, int]
    end: tuple[int, int]


def _endpoints(tile: Tile, start_cls: int, end_cls: int) -> tuple[tuple[int, int],
                                                                 tuple[int, int]]:
    anchors = tile.regions.anchors
    if start_cls != end_cls:
        return anchors[start_cls], anchors[end_cls]
    probe = np.argwhere(tile.regions.probes[start_cls])
    a = np.asarray(anchors[start_cls])
    far = probe[int(np.argmax(((probe - a) ** 2).sum(axis=1)))]
    return (int(a[0]), int(a[1])), (int(far[0]), int(far[1]))


def _valid_pairs(tile: Tile, vectors: Vectors) -> list[tuple[int, int, float]]:
    """(start class, end class, anchor distance) of primary regions connected under Eq. 6."""
    comp = tile.regions.connected(vectors.trav)
    prim = tile.regions.primary
    classes = [c for c in prim if vectors.trav[c] and comp[prim[c]] >= 0]
    pairs = []
    for s in classes:
        for e in classes:
            if comp[prim[s]] != comp[prim[e]]:
                continue
            if s == e and len(classes) > 1:
                continue
            a, b = _endpoints(tile, s, e)
            d = float(np.hypot(a[0] - b[0], a[1] - b[1]))
            if d >= 32:
                pairs.append((s, e, d))
    return pairs


def sample_specs(tiles_: list[Tile], count: int, *, seed: int, starts_per_end: int,
                 ) -> list[tuple[int, QuerySpec]]:
    """Sample ``count`` (tile, sigma) pairs whose image covers the query (C_I >= C_allowed).

    Pairs are drawn with probability growing with the squared anchor distance (the paper
    prefers distant but connected pairs). Up to ``starts_per_end`` samples share one
    (tile, agent, objective, allowed, end class), so one cost field serves them all.

    Raises:
        NesyError: if no tile supports any configuration.
    """
    rng = random.Random(seed)
    out: list[tuple[int, QuerySpec]] = []
    failures = 0
    while len(out) < count:
        agent = rng.choice(list(Agent))
        objective = rng.choice(list(Objective))
        cond = sorted(TRAVERSABILITY[agent][1])
        allowed = frozenset(c for c in cond if rng.random() < 0.5)
        vectors = derive_vectors(agent, objective, allowed)
        order = list(range(len(tiles_)))
        rng.shuffle(order)
        placed = False
        for ti in order[:12]:
            tile = tiles_[ti]
            if not allowed <= tile.present:
                continue
            pairs = _valid_pairs(tile, vectors)
            if not pairs:
                continue
            ends = sorted({e for _, e, _ in pairs})
            end = rng.choice(ends)
            cands = [(s, d) for s, e, d in pairs if e == end]
            rng.shuffle(cands)
            cands.sort(key=lambda sd: -sd[1] * rng.random())
            for s, _d in cands[:starts_per_end]:
                out.append((ti, QuerySpec(agent, objective, allowed, s, end)))
            placed = True
            break
        if not placed:
            failures += 1
            if failures > 50 * count + 1000:
                raise NesyError("the tiles support no sampled configuration; add more maps")
    return out[:count]


# --- writing --------------------------------------------------------------------------------
def _xy(p: tuple[int, int]) -> list[int]:
    return [int(p[1]), int(p[0])]


def _parquet(path: Path, rows: list[dict[str, Any]]) -> None:
    buf = io.BytesIO()
    pd.DataFrame(rows).to_parquet(buf, index=False)
    atomic_write_bytes(path, buf.getvalue())


def _spec_json(spec: QuerySpec) -> dict[str, Any]:
    return {"agent": spec.agent.value, "objective": spec.objective.value,
            "allowed": [CLASS_NAMES[c] for c in sorted(spec.allowed)],
            "excluded": [CLASS_NAMES[c] for c in sorted(spec.excluded)],
            "start_class": CLASS_NAMES[spec.start_class], "end_class": CLASS_NAMES[spec.end_class]}


def _official_vectors(v: Vectors) -> dict[str, list[int]]:
    return {"traverse_vector": list(v.trav), "cost_vector": list(v.pref)}


def _image_rows(tiles_: list[Tile], images: dict[str, tuple[NDArray[np.uint8], str]],
                key: str, name: Any) -> list[dict[str, Any]]:
    return [{key: name(t), "image": encode_png(images[t.tile_id][0]),
             "imagery": images[t.tile_id][1]} for t in tiles_]


def _tile_meta(t: Tile) -> dict[str, Any]:
    cx = t.complexity
    return {"source": t.source, "resolution_m": t.resolution_m, "num_classes": len(t.present),
            "complexity": cx.score, "h_inter": cx.h_inter, "h_intra": cx.h_intra,
            "h_count": cx.h_count, "c_topo": cx.c_topo}


def image_name(t: Tile) -> str:
    """The ``source_image_name`` of a tile in the official layout."""
    return f"{t.tile_id}.png"


def _write_official(out: Path, rows1: list[dict[str, Any]], rows2: list[dict[str, Any]],
                    rows3: list[dict[str, Any]], tiles_: list[Tile],
                    images: dict[str, tuple[NDArray[np.uint8], str]]) -> None:
    """The official release layout (:mod:`map2route.nesy.official`) plus our images file."""
    names = {t.tile_id: image_name(t) for t in tiles_}
    official.write_task1(out, rows1)
    for task, rows in ((2, rows2), (3, rows3)):
        for split in SPLITS:
            part = [r for r in rows if r["difficulty"] == split]
            if not part:
                continue
            official.write_split(out, task, split, [
                {"sample_id": f"{split}_{k:06d}", "source_image_name": names[r["tile_id"]], **r}
                for k, r in enumerate(part, start=1)])
    official.write_labels(out, {image_name(t): t.labels for t in tiles_})
    _parquet(out / "images" / "images.parquet",
             [{**row, **_tile_meta(t)} for row, t in
              zip(_image_rows(tiles_, images, "source_image_name", image_name), tiles_,
                  strict=True)])


def _write_ours(out: Path, rows1: list[dict[str, Any]], rows2: list[dict[str, Any]],
                rows3: list[dict[str, Any]], tiles_: list[Tile],
                images: dict[str, tuple[NDArray[np.uint8], str]]) -> None:
    """Our cache layout (module docstring): one file per task, vectors as JSON text."""
    def vec(r: dict[str, Any], region: bool = False) -> dict[str, list[int]]:
        out_ = {"V_trav": r["traverse_vector"], "V_pref": r["cost_vector"]}
        return {"V_reg": r["region_vector"], **out_} if region else out_

    skip = {"traverse_vector", "cost_vector", "region_vector"}
    task1 = [{"sample_id": f"t1_{i:06d}", "vectors": vec(r),
              **{k: v for k, v in r.items() if k not in skip}} for i, r in enumerate(rows1)]
    atomic_write_text(out / "task1" / "queries.json", json.dumps(task1, indent=1))
    _parquet(out / "task2" / "task2.parquet", [
        {"sample_id": f"nesy_{i:06d}", "vectors": json.dumps(vec(r, True)),
         **{k: v for k, v in r.items() if k not in skip}} for i, r in enumerate(rows2)])
    _parquet(out / "task3" / "task3.parquet", [
        {"sample_id": f"nesy_{i:06d}", "vectors": json.dumps(vec(r)),
         **{k: v for k, v in r.items() if k not in skip}} for i, r in enumerate(rows3)])
    _parquet(out / "labels" / "labels.parquet",
             [{"tile_id": t.tile_id, "label": encode_png(t.labels), **_tile_meta(t)}
              for t in tiles_])
    _parquet(out / "images" / "images.parquet",
             _image_rows(tiles_, images, "tile_id", lambda t: t.tile_id))


@dataclass(frozen=True)
class GenerateReport:
    """What :func:`generate` wrote and how long each stage took (seconds)."""

    out: Path
    task1: int
    task2: int
    task3: int
    tiles: int
    seconds: dict[str, float]
    #: Kinds of image written: ``synthetic`` (rendered from the mask) and/or ``orthophoto``.
    imagery: tuple[str, ...] = ()


def generate(out: Path, *, count: int, sources: list[str], seed: int = 0,
             resolution_m: float = 0.5, min_area: int = 64, probe_erosions: int = 12,
             starts_per_end: int = 3, task1_count: int | None = None, workers: int | None = None,
             llm: ChatClient | None = None,
             weights: tuple[float, float, float, float] = (0.25, 0.25, 0.25, 0.25),
             fmt: str = "official", executor: Executor | None = None) -> GenerateReport:
    """Generate a NeSy-Route dataset (section 3.3) into ``out``.

    Args:
        out: dataset folder (created).
        count: Task 2 / Task 3 samples.
        sources: OSM extracts and/or PNG masks (see :func:`build_tiles`).
        seed: sampling seed.
        resolution_m: metres per pixel for OSM rasterisation.
        min_area: selective-filter threshold in pixels.
        probe_erosions: erosion steps of a probe region.
        starts_per_end: samples sharing one end region and cost field.
        task1_count: Task 1 queries (default ``count // 3``, as 3,607 vs 10,821 in the paper).
        workers: processes for the A* ground truth (default: CPU count).
        executor: where the A* groups run (default: a local pool of ``workers`` processes).
            Solved groups are kept in ``out/.partial/astar.jsonl`` until the dataset is
            written, so a killed run resumes there (on either executor).
        llm: optional writer; queries that fail its self-check fall back to templates.
        weights: lambda_1..4 of Eq. 8.
        fmt: ``official`` (the release layout, :mod:`map2route.nesy.official`) or ``ours``
            (our cache layout, module docstring).

    Raises:
        NesyError: on unusable sources or a sample without a ground-truth path.
    """
    if count < 1:
        raise NesyError(f"--count must be >= 1, got {count}")
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    tiles_ = build_tiles(sources, resolution_m=resolution_m, min_area=min_area,
                         probe_erosions=probe_erosions)
    if weights != (0.25, 0.25, 0.25, 0.25):
        tiles_ = [Tile(t.tile_id, t.labels, t.regions, complexity(t.regions, weights=weights),
                       t.source, t.resolution_m, t.image) for t in tiles_]
    timings["tiles"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    specs = sample_specs(tiles_, count, seed=seed, starts_per_end=starts_per_end)
    rng = random.Random(seed + 1)
    samples: list[Sample] = []
    llm_fallbacks = 0
    by_llm = write_queries_llm(llm, [s for _, s in specs], executor) if llm is not None else {}
    for i, (ti, spec) in enumerate(specs):
        writer = "template"
        if i in by_llm:
            query, writer = by_llm[i], "llm"
        else:  # the template writer, in sample order (its draws do not depend on the LLM's)
            llm_fallbacks += llm is not None
            query = write_query(spec, rng)
        start, end = _endpoints(tiles_[ti], spec.start_class, spec.end_class)
        samples.append(Sample(f"nesy_{i:06d}", ti, spec, query, writer, start, end))
    timings["sampling"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    paths = solve_ground_truth(tiles_, samples, workers=workers or os.cpu_count() or 1,
                               executor=executor, resume=out / ASTAR_PARTIAL)
    missing = [s.sample_id for s, p in zip(samples, paths, strict=True) if p is None]
    if missing:
        msg = (f"{len(missing)} samples have no ground-truth path (e.g. {missing[0]}); the "
               f"region graph and the pixel grid disagree - report this with the seed")
        raise NesyError(msg)
    timings["astar"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    used = sorted({s.tile_index for s in samples})
    scores = np.asarray([tiles_[s.tile_index].complexity.score for s in samples])
    lo, hi = (float(np.quantile(scores, q)) for q in TASK3_QUANTILES)

    def split3(d: float) -> str:
        return "easy" if d <= lo else "medium" if d <= hi else "hard"

    n1 = min(len(samples), task1_count if task1_count is not None else max(1, count // 3))
    images: dict[str, tuple[NDArray[np.uint8], str]] = {}
    for ti in used:
        t = tiles_[ti]
        nums = t.region_numbers()
        overlay = [(nums[c], t.regions.probes[c], t.regions.anchors[c]) for c in nums]
        base = t.image if t.image is not None else render_aerial(t.labels, seed=ti)
        images[t.tile_id] = (draw_regions(base, overlay),
                             ORTHOPHOTO if t.image is not None else SYNTHETIC)
    rows1, rows2, rows3 = [], [], []
    for i, (s, path) in enumerate(zip(samples, paths, strict=True)):
        assert path is not None
        t = tiles_[s.tile_index]
        v = s.spec.vectors()
        local = derive_vectors(s.spec.agent, s.spec.objective, s.spec.allowed, present=t.present,
                               excluded=s.spec.excluded)
        common = {"query_id": official.query_id(i + 1), "query": s.query, **_spec_json(s.spec),
                  "writer": s.writer, "imagery": images[t.tile_id][1]}
        if i < n1:
            rows1.append({**common, **_official_vectors(v)})
        rows2.append({**common, **_official_vectors(local), "region_vector": t.region_vector(),
                      "num_classes": len(t.present),
                      "difficulty": difficulty_by_classes(len(t.present)), "tile_id": t.tile_id})
        w = class_costs(v).astype(np.int64)[t.labels[path[:, 0], path[:, 1]] - 1]
        rows3.append({**common, **_official_vectors(v), "start_point": _xy(s.start),
                      "end_point": _xy(s.end), "gt_trajectory": [[int(c), int(r)] for r, c in path],
                      "gt_cost": int(w.sum()), "complexity": t.complexity.score,
                      "difficulty": split3(t.complexity.score), "tile_id": t.tile_id})
    used_tiles = [tiles_[ti] for ti in used]
    if fmt == "official":
        _write_official(out, rows1, rows2, rows3, used_tiles, images)
    elif fmt == "ours":
        _write_ours(out, rows1, rows2, rows3, used_tiles, images)
    else:
        raise NesyError(f"unknown output format {fmt!r}; use official or ours")
    timings["write"] = time.perf_counter() - t0
    manifest = {
        "format": "nesy-route-official" if fmt == "official" else "map2route.nesy/1",
        "counts": {"task1": n1, "task2": len(rows2), "task3": len(rows3), "tiles": len(used)},
        "imagery": sorted({kind for _img, kind in images.values()}),
        "imagery_note": IMAGERY_NOTE,
        "sources": sources, "resolution_m": resolution_m, "seed": seed,
        "min_area": min_area, "probe_erosions": probe_erosions, "starts_per_end": starts_per_end,
        "complexity_weights": list(weights), "task3_thresholds": [lo, hi],
        "task2_splits": [list(x) for x in TASK2_SPLITS], "points": "[x, y] = [col, row], row 0 top",
        "class_order": list(CLASS_NAMES), "llm_fallbacks": llm_fallbacks,
        "seconds": {k: round(v, 2) for k, v in timings.items()},
    }
    atomic_write_text(out / "manifest.json", json.dumps(manifest, indent=1))
    shutil.rmtree(out / ASTAR_PARTIAL.parent, ignore_errors=True)  # the dataset is complete
    return GenerateReport(out, n1, len(rows2), len(rows3), len(used), timings,
                          tuple(sorted({kind for _img, kind in images.values()})))


# --- reading (the official release and our cache) -----------------------------------------------
def _first(paths: list[Path], what: str, folder: Path) -> Path:
    if not paths:
        msg = f"no {what} found under {folder}; expected e.g. {folder}/{what}"
        raise NesyError(msg)
    return sorted(paths)[0]


def _vectors_of(row: dict[str, Any]) -> dict[str, list[int]]:
    """V_trav / V_pref / V_reg from a ``vectors`` field (JSON text or mapping) or own columns."""
    raw = row.get("vectors", row.get("gt_vectors", row.get("answer")))
    data: dict[str, Any] = {}
    if isinstance(raw, (str, bytes)):
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as err:
            raise NesyError(f"sample {row.get('sample_id')}: vectors is not JSON ({err})") from err
    elif isinstance(raw, dict):
        data = dict(raw)
    out: dict[str, list[int]] = {}
    for key, aliases in (("V_trav", ("V_trav", "traverse_vector")),
                         ("V_pref", ("V_pref", "cost_vector")),
                         ("V_reg", ("V_reg", "region_vector"))):
        for a in aliases:
            value = data.get(a, row.get(a))
            if value is not None:
                out[key] = [int(v) for v in list(value)]
                break
    if "V_trav" not in out or "V_pref" not in out:
        msg = f"sample {row.get('sample_id')}: no V_trav / V_pref in its vectors ({list(data)})"
        raise NesyError(msg)
    return out


def _point(v: Any) -> tuple[int, int]:
    """``[x, y]`` (list, array or JSON text) -> ``(row, col)``."""
    if isinstance(v, str):
        v = json.loads(v)
    arr = np.asarray(v, dtype=np.float64).reshape(-1)
    return int(round(arr[1])), int(round(arr[0]))


def _trajectory(v: Any) -> NDArray[np.int32]:
    if isinstance(v, str):
        v = json.loads(v)
    pts = np.asarray([np.asarray(p, dtype=np.float64).reshape(-1) for p in v], dtype=np.float64)
    return np.round(pts[:, ::-1]).astype(np.int32).reshape(-1, 2)


def load_samples(folder: Path, task: int) -> list[dict[str, Any]]:
    """The samples of Task ``task`` in ``folder`` as dicts with parsed vectors and points.

    The official release layout (:mod:`map2route.nesy.official`) is read when ``folder`` has a
    ``Task1``/``Task2``/``Task3`` folder; otherwise our cache layout: Task 1 ``queries.json``
    (a list, or ``{"samples": [...]}``) anywhere under ``folder``, Task 2 / 3 the first
    ``task2*.parquet`` / ``task3*.parquet``.

    Raises:
        NesyError: missing files or fields, naming which.
    """
    if not folder.is_dir():
        raise NesyError(f"dataset folder {folder} does not exist")
    if task not in (1, 2, 3):
        raise NesyError(f"--task must be 1, 2 or 3, got {task}")
    if official.is_official(folder):
        return official.load_tasks(folder, task)
    if task == 1:
        path = _first(list(folder.rglob("queries.json")) + list(folder.rglob("task1*.json")),
                      "task1/queries.json", folder)
        data = json.loads(path.read_text(encoding="utf-8"))
        rows: list[Any] = (data.get("samples") or data.get("data") or []) \
            if isinstance(data, dict) else list(data)
    else:
        path = _first(list(folder.rglob(f"task{task}*.parquet")), f"task{task}/task{task}.parquet",
                      folder)
        rows = pd.read_parquet(path).to_dict(orient="records")
    out = []
    for i, row in enumerate(rows):
        row = dict(row)
        row["sample_id"] = str(row.get("sample_id", row.get("id", i)))
        row.update(_vectors_of(row))
        if task == 3:
            for key in ("start_point", "end_point", "gt_trajectory"):
                if key not in row:
                    raise NesyError(f"task 3 sample {row['sample_id']} has no {key} in {path}")
            row["start"] = _point(row["start_point"])
            row["end"] = _point(row["end_point"])
            row["gt_path"] = _trajectory(row["gt_trajectory"])
        out.append(row)
    return out


def load_labels(folder: Path) -> dict[str, NDArray[np.uint8]]:
    """Label masks by image id: ``source_image_name`` (official) or ``tile_id`` (our cache).

    Raises:
        NesyError: if no labels file exists or it lacks an id or a label column.
    """
    if official.is_official(folder):
        return official.load_labels(folder)
    path = _first(list(folder.rglob("labels*.parquet")), "labels/labels.parquet", folder)
    df = pd.read_parquet(path)
    id_col = next((c for c in ("tile_id", "image_id", "sample_id", "id") if c in df), None)
    lab_col = next((c for c in ("label", "mask", "labels", "gt_mask") if c in df), None)
    if id_col is None or lab_col is None:
        msg = f"{path} needs an id column (tile_id/image_id) and a label column (label/mask)"
        raise NesyError(msg)
    out = {}
    for key, blob in zip(df[id_col], df[lab_col], strict=True):
        data = blob["bytes"] if isinstance(blob, dict) else blob
        out[str(key)] = decode_mask(bytes(data), name=f"label {key}")
    return out


def label_of(row: dict[str, Any], labels: dict[str, NDArray[np.uint8]]) -> NDArray[np.uint8]:
    """The mask of one sample: its own ``label`` bytes, or the labels entry of its image."""
    if "label" in row and row["label"] is not None:
        blob = row["label"]
        return decode_mask(bytes(blob["bytes"] if isinstance(blob, dict) else blob))
    for key in ("source_image_name", "tile_id", "image_id", "sample_id"):
        if key in row and str(row[key]) in labels:
            return labels[str(row[key])]
    msg = (f"no label mask for sample {row.get('sample_id')} (image "
           f"{row.get('source_image_name', row.get('tile_id'))})")
    raise NesyError(msg)
