"""Generate the whole benchmark: ``test.jsonl`` and ``dev.jsonl`` over the scenes of
``maps/index.json``, one :class:`~map2route.bench.map2route.generate.EpisodeGenerator` per scene.

The split plan (25 episodes per test scene, 70 % Easy; 50 dev episodes) follows paper 000, IV.
"""

from __future__ import annotations

import json
import zlib
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING, Any

from map2route.bench.errors import BenchmarkError
from map2route.bench.map2route.episode import dumps_episode
from map2route.bench.map2route.generate import EpisodeGenerator
from map2route.execution.results import progress_bar
from map2route.files import atomic_write_text
from map2route.semantic_map import load_scene

if TYPE_CHECKING:
    from map2route.bench.map2route.episode import Episode
    from map2route.bench.map2route.generate import Planner
    from map2route.semantic_map import SemanticMap


def difficulty_plan(n: int, n_easy: int) -> list[str]:
    """``n`` difficulties with ``n_easy`` Easy first, then Hard (the paper annotates Hard after)."""
    return ["easy"] * n_easy + ["hard"] * (n - n_easy)


def scene_plans(index: dict[str, Any], *, per_scene: int = 25, easy_fraction: float = 0.7,
                dev_total: int = 50) -> list[tuple[str, str, list[str]]]:
    """(scene, split, difficulties) for every scene of ``maps/index.json``.

    Test scenes get ``per_scene`` episodes each; ``easy_fraction`` of all of them are Easy,
    spread as evenly as possible (40 scenes: 700 Easy as 18 and 17 per scene, 300 Hard).
    Dev scenes share ``dev_total`` episodes, the same fraction Easy.
    """
    test = list(index.get("test", []))
    dev = list(index.get("dev", []))
    plans: list[tuple[str, str, list[str]]] = []
    if test:
        easy_total = int(round(easy_fraction * per_scene * len(test)))
        base, extra = divmod(easy_total, len(test))
        for i, scene in enumerate(test):
            n_easy = min(per_scene, base + (1 if i < extra else 0))
            plans.append((scene, "test", difficulty_plan(per_scene, n_easy)))
    if dev:
        base, extra = divmod(dev_total, len(dev))
        for i, scene in enumerate(dev):
            n = base + (1 if i < extra else 0)
            plans.append((scene, "dev", difficulty_plan(n, int(round(easy_fraction * n)))))
    return plans


def generate_for_scene(m: SemanticMap, split: str, difficulties: list[str], *, seed: int,
                       planner: Planner | None = None, planner_config: Any = None,
                       ) -> tuple[list[Episode], dict[str, int]]:
    """Episodes for one scene, and the rejected draws by reason (``missing``: episodes given up).

    Episode ``i`` of the scene gets the id ``<scene>/<easy|hard|dev>/<i:03d>``.
    """
    gen = EpisodeGenerator(m, planner=planner, planner_config=planner_config)
    out: list[Episode] = []
    missing = 0
    for i, difficulty in enumerate(difficulties):
        ep_split = difficulty if split == "test" else "dev"
        ep_seed = _stable_seed(seed, m.name, i)
        ep = None
        for retry in range(3):
            ep = gen.generate(episode_id=f"{m.name}/{ep_split}/{i:03d}", split=ep_split,
                              difficulty=difficulty, seed=ep_seed + retry * 7919)
            if ep is not None:
                break
        if ep is not None:
            out.append(ep)
        else:
            missing += 1
    return out, {**gen.rejected, "missing": missing}


def _stable_seed(seed: int, scene: str, i: int) -> int:
    return (seed * 1_000_003 + zlib.crc32(scene.encode()) + i * 7_919) % (2**31)


def _scene_job(args: tuple[str, str, str, list[str], int]) -> tuple[str, list[str], dict[str, int]]:
    """Worker: generate one scene's episodes; returns JSON lines (pickling arrays is slower)."""
    maps_root, scene, split, difficulties, seed = args
    m = load_scene(f"{maps_root}/{scene}")
    episodes, dropped = generate_for_scene(m, split, difficulties, seed=seed)
    return split, [dumps_episode(e) for e in episodes], dropped


def generate_benchmark(maps_root: str, out_dir: str, *, seed: int = 0, workers: int = 2,
                       scenes: list[str] | None = None, progress: bool = True) -> dict[str, Any]:
    """Generate ``test.jsonl`` and ``dev.jsonl`` over the scenes of ``maps_root/index.json``.

    Args:
        maps_root: folder with ``index.json`` and the scene folders.
        out_dir: where the two files go (written atomically when all scenes are done).
        seed: benchmark seed; the same seed and scenes give byte-identical files.
        workers: processes (one scene per task).
        scenes: restrict to these scene names (for quick runs).

    Returns:
        Counts per split and the number of dropped draws.

    Raises:
        BenchmarkError: ``index.json`` is missing or malformed.
    """
    index_path = Path(maps_root) / "index.json"
    if not index_path.is_file():
        msg = (f"{index_path} does not exist; episodes are generated over the shipped scenes "
               "listed there (pass --scenes FOLDER)")
        raise BenchmarkError(msg)
    try:
        index = json.loads(index_path.read_text())
    except json.JSONDecodeError as err:
        raise BenchmarkError(f"{index_path} is not valid JSON ({err.msg})") from err
    plans = scene_plans(index)
    if scenes is not None:
        plans = [p for p in plans if p[0] in set(scenes)]
    if not plans:
        raise BenchmarkError(f"{index_path} lists no test or dev scenes to generate from")
    missing = [scene for scene, _, _ in plans if not (Path(maps_root) / scene / "map.yaml").is_file()]
    if missing:
        msg = (f"{index_path} lists scene(s) with no scene folder under {maps_root}: "
               f"{', '.join(missing)}; build them or fix index.json")
        raise BenchmarkError(msg)
    jobs = [(str(maps_root), scene, split, diffs, seed) for scene, split, diffs in plans]
    results: dict[int, tuple[str, list[str], dict[str, int]]] = {}
    with progress_bar("episodes", len(jobs), enabled=progress) as bar:
        if workers <= 1:
            for i, job in enumerate(jobs):
                results[i] = _scene_job(job)
                bar.advance()
        else:
            with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
                futures = {pool.submit(_scene_job, job): i for i, job in enumerate(jobs)}
                for fut in as_completed(futures):
                    results[futures[fut]] = fut.result()
                    bar.advance()
    by_split: dict[str, list[str]] = {"test": [], "dev": []}
    rejected: dict[str, int] = {}
    for i in range(len(jobs)):  # scene order, not completion order: deterministic files
        split, lines, d = results[i]
        by_split[split].extend(lines)
        for k, v in d.items():
            rejected[k] = rejected.get(k, 0) + v
    out = Path(out_dir)
    counts: dict[str, Any] = {"rejected": rejected}
    for split, lines in by_split.items():
        if lines:
            atomic_write_text(out / f"{split}.jsonl", "".join(line + "\n" for line in lines))
        counts[split] = len(lines)
        if split == "test":
            counts["easy"] = sum('"split":"easy"' in line for line in lines)
            counts["hard"] = sum('"split":"hard"' in line for line in lines)
    return counts
