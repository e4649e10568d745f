"""Build the shipped scene set: survey a pool of seeds, choose, generate, import, check, save.

``map2route scenes generate --out maps --pool N --seed S`` runs :func:`build_scene_set`. Output::

    OUT/<scene>/            a scene folder (see map2route.semantic_map.io) + house.json.gz
    OUT/index.json          {"test": [...], "dev": [...], "default": "<name>", "selection": {...}}
    OUT/pool_survey.json    the floor area of every surveyed seed (how the scenes were chosen)
"""

from __future__ import annotations

import gzip
import json
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from map2route.files import atomic_write_bytes, atomic_write_text
from map2route.scenes.checks import unreachable_rooms
from map2route.scenes.errors import SceneError
from map2route.scenes.generate import (
    DEV_SCENES,
    LARGEST_POOL,
    TEST_SCENES,
    HouseSurvey,
    choose_scenes,
    generate_house,
    scene_name,
    survey_seed,
)
from map2route.scenes.procthor import from_procthor_house
from map2route.scenes.small_objects import place_small_objects
from map2route.semantic_map.io import save_scene

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable


@dataclass(frozen=True)
class BuiltScene:
    """What building one scene produced."""

    name: str
    seed: int
    rooms: int
    objects: int
    floor_area_m2: float
    seconds: float


def _progress() -> Any:

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), TimeRemainingColumn())


def _map(fn: Callable[[Any], Any], items: list[Any], workers: int, progress: Any,
         label: str) -> Iterable[Any]:
    """``map(fn, items)`` in ``workers`` fresh processes started with ``PYTHONHASHSEED=0``.

    ProcTHOR draws some choices (materials) from sets of strings, whose order depends on the
    per-process hash salt; spawned workers with a fixed salt make the house JSONs byte-for-byte
    reproducible.
    """

    task = progress.add_task(label, total=len(items))
    previous = os.environ.get("PYTHONHASHSEED")
    os.environ["PYTHONHASHSEED"] = "0"
    try:
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
            for result in pool.map(fn, items, chunksize=1 if len(items) < 100 else 20):
                yield result
                progress.advance(task)
    finally:
        if previous is None:
            os.environ.pop("PYTHONHASHSEED", None)
        else:
            os.environ["PYTHONHASHSEED"] = previous


def cached_house(seed: int, cache: Path | None) -> dict[str, Any]:
    """The ProcTHOR house of ``seed`` before small objects, from ``cache`` when present there."""
    path = cache / f"procthor_house_{seed:05d}.json.gz" if cache is not None else None
    if path is not None and path.is_file():
        loaded: dict[str, Any] = json.loads(gzip.decompress(path.read_bytes()))
        return loaded
    house = generate_house(seed, small_objects=False)
    if path is not None:
        raw = json.dumps(house, sort_keys=True, separators=(",", ":")).encode("utf-8")
        atomic_write_bytes(path, gzip.compress(raw, mtime=0))
    return house


def build_one(seed: int, out: Path, cache: Path | None = None) -> BuiltScene:
    """Generate, import, check and save the scene of ``seed`` under ``out``.

    Raises:
        SceneError: if the house's rooms are not all reachable on the traversable layer.
    """

    t0 = time.perf_counter()
    name = scene_name(seed)
    house = cached_house(seed, cache)
    place_small_objects(house, seed=seed)
    m = from_procthor_house(house, name=name)
    bad = unreachable_rooms(m)
    if bad:
        msg = f"scene {name}: rooms {bad} are not reachable from the others"
        raise SceneError(msg)
    m.metadata.update({"seed": seed, "source": "house.json.gz"})
    folder = save_scene(m, out / name)
    raw = json.dumps(house, sort_keys=True, separators=(",", ":")).encode("utf-8")
    atomic_write_bytes(folder / "house.json.gz", gzip.compress(raw, mtime=0))
    area = round(sum(r.area_m2 for r in m.rooms), 2)
    return BuiltScene(name=name, seed=seed, rooms=len(m.rooms), objects=len(m.objects),
                      floor_area_m2=area, seconds=round(time.perf_counter() - t0, 2))


def _build_one_star(args: tuple[int, str, str | None]) -> BuiltScene | str:
    seed, out, cache = args
    try:
        return build_one(seed, Path(out), Path(cache) if cache else None)
    except SceneError as err:
        return str(err)


def build_scene_set(out: Path, *, pool: int, seed: int, workers: int = 1,
                    limit: int | None = None, cache: Path | None = None, echo: Callable[[str], None] = print
                    ) -> dict[str, Any]:
    """Survey ``pool`` seeds, choose 40 test + 4 dev scenes, build them into ``out``.

    Args:
        out: output folder (``maps/``).
        pool: number of seeds surveyed (``0..pool-1``).
        seed: seed of the uniform choice among the largest houses.
        workers: processes used for surveying and building.
        limit: build only the first ``limit`` chosen scenes (dev first), for a quick set.
        cache: folder caching generated ProcTHOR houses (before small objects) by seed.
        echo: where progress lines go.

    Returns:
        The ``index.json`` document written.

    Raises:
        SceneError: if the pool is too small or too few chosen houses pass the checks.
    """
    t_start = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    with _progress() as progress:
        surveys = [s for s in _map(survey_seed, list(range(pool)), workers, progress,
                                   f"survey {pool} seeds") if s is not None]
    test, dev = choose_scenes(surveys, seed=seed)
    ranked = sorted(surveys, key=lambda s: (-s.floor_area_m2, s.seed))
    chosen = {s.seed for s in test + dev}
    # Houses that fail a check are replaced by the next largest unused ones of the 120.
    spares = [s for s in ranked[:LARGEST_POOL] if s.seed not in chosen]
    order: list[tuple[str, HouseSurvey]] = [("dev", s) for s in dev] + [("test", s) for s in test]
    if limit is not None:
        order = order[:limit]
    built: dict[str, list[BuiltScene]] = {"dev": [], "test": []}
    rejected: list[str] = []
    with _progress() as progress:
        pending = order
        while pending:
            jobs = [(s.seed, str(out), str(cache) if cache else None) for _, s in pending]
            results = list(_map(_build_one_star, jobs, workers, progress,
                                f"build {len(jobs)} scenes"))
            retry: list[tuple[str, HouseSurvey]] = []
            for (split, _), res in zip(pending, results, strict=True):
                if isinstance(res, BuiltScene):
                    built[split].append(res)
                else:
                    rejected.append(res)
                    if not spares:
                        msg = f"Not enough houses pass the checks: {rejected}"
                        raise SceneError(msg)
                    retry.append((split, spares.pop(0)))
            pending = retry
    index = {
        "test": [b.name for b in built["test"]],
        "dev": [b.name for b in built["dev"]],
        "default": (built["dev"] or built["test"])[0].name,
        "selection": {
            "pool": pool, "seed": seed, "largest": LARGEST_POOL,
            "n_test": TEST_SCENES, "n_dev": DEV_SCENES, "rejected": rejected,
            "method": (f"survey floor area of seeds 0..{pool - 1}; sample {TEST_SCENES} test + "
                       f"{DEV_SCENES} dev uniformly from the {LARGEST_POOL} largest"),
            "build_seconds": round(time.perf_counter() - t_start, 1),
        },
        "scenes": {b.name: asdict(b) for b in built["dev"] + built["test"]},
    }
    atomic_write_text(out / "index.json", json.dumps(index, indent=1))
    atomic_write_text(out / "pool_survey.json",
                      json.dumps([asdict(s) for s in ranked], separators=(",", ":")))
    for line in rejected:
        echo(f"rejected: {line}")
    return index
