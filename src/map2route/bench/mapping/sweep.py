"""``map2route bench mapping``: the semantic-map builder over many scenes and noise levels.

For each scene :func:`run_sweep` simulates one drive into ``OUT/bags/SCENE`` (a bag a finished
simulation left there is reused), then for each detector noise level ``R`` (miss rate =
false-positive rate = label noise = ``R``, fixed seed) builds ``OUT/built/SCENE_nR``, scores it
against the true scene (:func:`~map2route.mapping.score.score_map`, with the objects the drive
showed and, given episodes, the downstream HCS of :func:`~map2route.bench.mapping.downstream.downstream_hcs`)
and appends one row to ``OUT/results.jsonl``. Rows already there (same scene, noise and image
width, no error) are not recomputed, so an interrupted sweep resumes; a failed scene is a row
with an ``error`` and is tried again on the next run. :func:`summarize` reduces the rows per
noise level; :func:`write_plots` draws ``noise.png`` and ``scenes.png``. Nothing here imports
rclpy.
"""

from __future__ import annotations

import json
import math
import shutil
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from matplotlib.figure import Figure

from map2route.bench.map2route.episode import load_episodes
from map2route.bench.mapping.downstream import BUILT_MAP_GOAL_MARGIN_M, downstream_hcs
from map2route.bench.report import write_png
from map2route.execution.executors import Executor
from map2route.execution.results import RESULTS_NAME, ResultsFile
from map2route.files import atomic_write_text
from map2route.mapping.bag import instance_pixels
from map2route.mapping.builder import build_from_bag
from map2route.mapping.detectors import make_detector
from map2route.mapping.errors import MappingError
from map2route.mapping.score import score_map, shown_objects
from map2route.mapping.simulate import SimConfig, simulate
from map2route.semantic_map.io import load_scene, save_scene

if TYPE_CHECKING:
    from map2route.bench.map2route.episode import Episode
    from map2route.mapping.builder import BuildConfig
    from map2route.semantic_map.model import SemanticMap

#: The issue's targets: recall of tall objects and room accuracy at least this, built faster
#: than real time (drive seconds / build wall seconds above this).
RECALL_TALL_TARGET = 0.95
ROOM_ACCURACY_TARGET = 0.95
BUILD_SPEED_TARGET = 1.0

#: The score numbers of a row (all floats, ``None`` when undefined, e.g. no tall object).
SCORE_KEYS = ("precision", "recall", "recall_tall", "recall_tall_observable", "recall_tall_seen",
              "room_accuracy", "room_type_accuracy", "traversability_iou", "centroid_error_m",
              "room_ari", "room_pq")
#: The numbers :func:`summarize` averages per noise level.
METRIC_KEYS = (*SCORE_KEYS, "abs_room_count_error", "hcs_true", "hcs_built", "build_speed",
               "drive_s", "simulate_wall_s", "build_wall_s")


@dataclass(frozen=True)
class SimInfo:
    """What one scene's simulation gave (kept beside the bag so a reused bag has it too)."""

    drive_s: float
    wall_s: float
    image_width: int


def noise_tag(noise: float) -> str:
    """``0.2`` -> ``"0.2"``: the noise level in folder names (``SCENE_n0.2``)."""
    return f"{noise:g}"


def _clean(v: Any) -> Any:
    """JSON has no NaN: an undefined score is ``null``."""
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def _key(row: dict[str, Any]) -> tuple[str, float, int]:
    return (str(row["scene"]), round(float(row["noise"]), 6), int(row["image_width"]))


# --- results.jsonl (the shared runner's resumable results file) ------------------------------
def results_file(path: Path) -> ResultsFile:
    """The sweep's results file at ``path``: one row per (scene, noise level, image width)."""
    return ResultsFile(path, key=_key)


def _cleaned(row: dict[str, Any]) -> dict[str, Any]:
    return {k: _clean(v) for k, v in row.items()}


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a results file (none when it is missing; a torn last line is dropped)."""
    return results_file(path).rows()


def write_rows(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    """Write all ``rows`` atomically (temp file in the same folder, then ``os.replace``), so an
    interrupted sweep never leaves a half-written results file."""
    results_file(path).write_all(_cleaned(r) for r in rows)


def _upsert(results: ResultsFile, rows: list[dict[str, Any]], row: dict[str, Any]) -> None:
    """Replace the row with ``row``'s key (an earlier error) or append it, here and on disk."""
    key = _key(row)
    rows[:] = [r for r in rows if _key(r) != key] + [row]
    results.upsert(_cleaned(row))


# --- the pipeline steps (module functions so tests can stand in for them) ----------------------
def simulate_scene(truth: SemanticMap, bag: Path, config: SimConfig) -> SimInfo:
    """Simulate a drive through ``truth`` into the bag folder ``bag``."""
    t0 = time.perf_counter()
    res = simulate(truth, bag, config=config, progress=False)
    return SimInfo(drive_s=res.duration_s, wall_s=time.perf_counter() - t0,
                   image_width=config.image_width)


def build_map(bag: Path, name: str, noise: float, *, seed: int,
              config: BuildConfig | None) -> tuple[SemanticMap, float, float]:
    """Build a map from ``bag`` with the ground-truth detector at noise level ``noise``;
    returns ``(map, drive seconds, build wall seconds)``."""
    det = make_detector("ground_truth", miss_rate=noise, false_positive_rate=noise,
                        label_noise=noise, seed=seed)
    res = build_from_bag(bag, name=name, detector=det, config=config, progress=False)
    return res.map, res.bag_duration_s, res.wall_s


def shown_in_bag(bag: Path, config: SimConfig) -> set[str]:
    """The true object ids some panorama of the drive showed (for ``recall_tall_seen``)."""
    ids, max_px, width = instance_pixels(bag)
    return shown_objects(ids, max_px, width, config.seen_min_px)


def score_built(built: SemanticMap, truth: SemanticMap, *, shown: set[str] | None,
                episodes: list[Episode] | None) -> dict[str, Any]:
    """The score numbers of a row: :data:`SCORE_KEYS`, ``unseen_tall`` (a count) and, with
    episodes, ``hcs_true``, ``hcs_built``, ``grounded`` and ``episodes``."""
    s = score_map(built, truth, shown=shown)
    out: dict[str, Any] = {k: _clean(float(getattr(s, k))) for k in SCORE_KEYS}
    out["unseen_tall"] = len(s.unseen_tall) if shown is not None else None
    out.update(room_count_error=s.room_count_error,
               abs_room_count_error=abs(s.room_count_error), rooms_built=s.rooms_built,
               rooms_true=s.rooms_true)
    out.update(hcs_true=None, hcs_built=None, grounded=None, episodes=0)
    if episodes:
        down = downstream_hcs(built, truth, episodes, goal_margin_m=BUILT_MAP_GOAL_MARGIN_M)
        out.update(hcs_true=_clean(down.hcs_true), hcs_built=_clean(down.hcs_built),
                   grounded=down.grounded, episodes=len(down.episodes))
    return out


# --- bags -------------------------------------------------------------------------------------
def _bag_info_path(bag: Path) -> Path:
    return bag.with_name(bag.name + ".json")


def _complete_bag(bag: Path, image_width: int) -> SimInfo | None:
    """The info of a bag a finished simulation left at ``bag`` at this width, else ``None``."""
    info = _bag_info_path(bag)
    if not (bag.is_dir() and info.is_file()):
        return None
    try:
        raw = json.loads(info.read_text(encoding="utf-8"))
        got = SimInfo(drive_s=float(raw["drive_s"]), wall_s=float(raw["wall_s"]),
                      image_width=int(raw["image_width"]))
    except (ValueError, KeyError, TypeError):
        return None
    return got if got.image_width == image_width else None


def _simulate_bag(truth: SemanticMap, bag: Path, config: SimConfig) -> SimInfo:
    """Simulate into a temporary folder and rename it to ``bag`` only when done: a bag at
    ``bag`` with its info file is always complete (an interrupted one is simulated anew)."""
    # The bag's files are named after its folder, so it is written as partial/SCENE and the
    # folder moved: the MCAP inside is SCENE.mcap, not a hidden partial name.
    partial = bag.with_name(f".{bag.name}.partial") / bag.name
    for stale in (partial.parent, bag):
        if stale.exists():
            shutil.rmtree(stale)
    _bag_info_path(bag).unlink(missing_ok=True)
    partial.parent.mkdir(parents=True, exist_ok=True)
    info = simulate_scene(truth, partial, config)
    partial.rename(bag)
    partial.parent.rmdir()
    atomic_write_text(_bag_info_path(bag), json.dumps(info.__dict__))
    return info


def _remove_bag(bag: Path) -> None:
    if bag.exists():
        shutil.rmtree(bag)
    _bag_info_path(bag).unlink(missing_ok=True)


# --- the sweep --------------------------------------------------------------------------------
def sim_config_for(image_width: int, config_path: str | Path | None = None) -> SimConfig:
    """The simulator settings of ``config/mapping.yaml`` (overlaid with ``config_path``) at
    panorama width ``image_width`` (crop to a third of it: 120 degrees, as on the robot)."""
    cfg = SimConfig.from_yaml(config_path)
    return replace(cfg, image_width=image_width, crop_rows=image_width // 3)


def run_sweep(scenes: Sequence[str], *, maps: Path, out: Path,
              noises: Sequence[float] = (0.0,), image_width: int = 960,
              episodes: Path | None = None, keep_bags: bool = False,
              sim_config: SimConfig | None = None, build_config: BuildConfig | None = None,
              seed: int = 0, on_step: Callable[[str], None] | None = None,
              executor: Executor | None = None) -> list[dict[str, Any]]:
    """Run the pipeline over ``scenes`` (folders under ``maps``) and noise levels ``noises``.

    Args:
        sim_config: simulator settings (default: ``config/mapping.yaml`` at ``image_width``);
            its ``image_width`` is the one rows are keyed by.
        on_step: called once per stage (simulate, then build and score per noise level) with a
            short description, also for stages a resumed run skips (a progress bar's tick).
            Scenes run by ``executor`` tick all their stages when the scene comes back.
        executor: where the scenes run, one scene (its drive and every noise level) per chunk
            (``None``: here, one after another). Workers write bags and built maps under
            ``out``, so on a cluster ``out`` is a shared folder.

    Returns:
        The rows of ``scenes`` x ``noises`` at this width, in that order (resumed rows included).

    Raises:
        MappingError: a noise level is outside [0, 1].
    """
    bad = [r for r in noises if not 0.0 <= r <= 1.0]
    if bad:
        msg = f"noise levels must be in [0, 1], got {bad}"
        raise MappingError(msg)
    levels = sorted(set(float(r) for r in noises))
    sim_cfg = sim_config or sim_config_for(image_width)
    width = sim_cfg.image_width
    tick = on_step or (lambda _what: None)
    results = results_file(out / RESULTS_NAME)
    rows = results.rows()
    by_scene: dict[str, list[Episode]] | None = None
    if episodes is not None:
        by_scene = {}
        for ep in load_episodes(episodes):
            by_scene.setdefault(ep.scene, []).append(ep)
    job = _SweepJob(maps, out, tuple(levels), sim_cfg, build_config, seed, keep_bags)

    chunks: list[list[tuple[str, list[float], list[Episode] | None]]] = []
    for scene in scenes:
        done = {_key(r) for r in rows if not r.get("error")}
        todo = [r for r in levels if (scene, round(r, 6), width) not in done]
        if not todo:
            for _ in range(1 + 2 * len(levels)):
                tick(f"{scene}: done before")
            continue
        eps = by_scene.get(scene, []) if by_scene is not None else None
        if executor is None:
            _scene_rows(job, scene, todo, eps, lambda row: _upsert(results, rows, row), tick)
        else:
            chunks.append([(scene, todo, eps)])
    if chunks and executor is not None:

        def record(done: list[tuple[str, list[dict[str, Any]]]]) -> None:
            for scene, new in done:
                for row in new:
                    _upsert(results, rows, row)
                for _ in range(1 + 2 * len(levels)):
                    tick(f"{scene}: done")

        executor.map_chunks(_sweep_chunk, chunks, init=_init_sweep, initargs=(job,),
                            on_result=record)
    order = {k: i for i, k in enumerate((s, round(r, 6), width) for s in scenes for r in levels)}
    return sorted((r for r in rows if _key(r) in order), key=lambda r: order[_key(r)])


@dataclass(frozen=True)
class _SweepJob:
    """What every scene of a sweep shares (shipped once per worker)."""

    maps: Path
    out: Path
    levels: tuple[float, ...]
    sim_cfg: SimConfig
    build_config: BuildConfig | None
    seed: int
    keep_bags: bool


_SWEEP: dict[str, _SweepJob] = {}


def _init_sweep(job: _SweepJob) -> None:
    _SWEEP["job"] = job


def _sweep_chunk(chunk: list[tuple[str, list[float], list[Episode] | None]]
                 ) -> list[tuple[str, list[dict[str, Any]]]]:
    """Run a chunk of scenes in a worker; their rows come back to the driver."""
    out: list[tuple[str, list[dict[str, Any]]]] = []
    for scene, todo, eps in chunk:
        rows: list[dict[str, Any]] = []
        _scene_rows(_SWEEP["job"], scene, todo, eps, rows.append, lambda _what: None)
        out.append((scene, rows))
    return out


def _scene_rows(job: _SweepJob, scene: str, todo: list[float], eps: list[Episode] | None,
                emit: Callable[[dict[str, Any]], None], tick: Callable[[str], None]) -> None:
    """Simulate one scene (or reuse its bag), build and score it at the ``todo`` levels.

    Each row (or error row) goes to ``emit`` as soon as it is known.
    """
    width, levels = job.sim_cfg.image_width, job.levels
    bag = job.out / "bags" / scene
    tick(f"{scene}: simulate")
    try:
        truth = load_scene(job.maps / scene)
        info = _complete_bag(bag, width) or _simulate_bag(truth, bag, job.sim_cfg)
        shown = shown_in_bag(bag, job.sim_cfg)
    except Exception as err:  # one bad scene must not stop the sweep
        for r in todo:
            emit(_error_row(scene, r, width, err, stage="simulate"))
        for _ in range(2 * len(levels)):
            tick(f"{scene}: failed")
        return
    for r in levels:
        if r not in todo:
            tick(f"{scene} n{noise_tag(r)}: done before")
            tick(f"{scene} n{noise_tag(r)}: done before")
            continue
        tick(f"{scene} n{noise_tag(r)}: build")
        stage = "build"
        try:
            built, drive_s, build_s = build_map(bag, f"{scene}_n{noise_tag(r)}", r,
                                                seed=job.seed, config=job.build_config)
            _save_built(built, job.out / "built" / f"{scene}_n{noise_tag(r)}")
            tick(f"{scene} n{noise_tag(r)}: score")
            stage = "score"
            scores = score_built(built, truth, shown=shown, episodes=eps)
        except Exception as err:  # record it, go on with the next level
            if stage == "build":
                tick(f"{scene} n{noise_tag(r)}: failed")
            emit(_error_row(scene, r, width, err, stage=stage))
            continue
        row: dict[str, Any] = {
            "scene": scene, "noise": r, "image_width": width,
            "drive_s": round(drive_s, 3), "simulate_wall_s": round(info.wall_s, 3),
            "build_wall_s": round(build_s, 3),
            "build_speed": round(drive_s / build_s, 3) if build_s > 0 else None,
            **scores}
        emit(row)
    if not job.keep_bags:
        _remove_bag(bag)


def _save_built(m: SemanticMap, folder: Path) -> None:
    if folder.exists():
        shutil.rmtree(folder)  # a rebuilt map replaces the old one whole (no stale files)
    save_scene(m, folder)


def _error_row(scene: str, noise: float, width: int, err: BaseException, *,
               stage: str) -> dict[str, Any]:
    text = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    if not isinstance(err, MappingError):
        text = f"{type(err).__name__}: {text}"
    return {"scene": scene, "noise": noise, "image_width": width, "stage": stage,
            "error": text}


# --- summary ----------------------------------------------------------------------------------
def _finite(values: Iterable[Any]) -> list[float]:
    return [float(v) for v in values
            if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)]


def summarize(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per noise level: mean and min over the scenes of each of :data:`METRIC_KEYS` (scenes
    where it is undefined left out; ``None`` when no scene has it), the scenes meeting the
    targets, the slowest build; and every failed row.

    Returns:
        ``{"levels": [{"noise", "scenes", "failed", "mean", "min", "recall_tall_ok",
        "room_accuracy_ok", "both_ok", "faster_than_real_time", "slowest_build_speed",
        "slowest_build_scene"}, ...], "failures": [{"scene", "noise", "stage", "error"}, ...]}``
        (levels in increasing noise).
    """
    levels = sorted({round(float(r["noise"]), 6) for r in rows})
    out_levels = []
    for lv in levels:
        at = [r for r in rows if round(float(r["noise"]), 6) == lv]
        ok = [r for r in at if not r.get("error")]
        mean: dict[str, float | None] = {}
        low: dict[str, float | None] = {}
        for k in METRIC_KEYS:
            vals = _finite(r.get(k) for r in ok)
            mean[k] = sum(vals) / len(vals) if vals else None
            low[k] = min(vals) if vals else None

        def meets(r: dict[str, Any], key: str, target: float) -> bool:
            v = r.get(key)
            return isinstance(v, int | float) and v >= target

        speeds = [(float(r["build_speed"]), str(r["scene"])) for r in ok
                  if isinstance(r.get("build_speed"), int | float)]
        slowest = min(speeds) if speeds else None
        out_levels.append({
            "noise": lv, "scenes": len(ok), "failed": len(at) - len(ok),
            "mean": mean, "min": low,
            "recall_tall_ok": sum(meets(r, "recall_tall", RECALL_TALL_TARGET) for r in ok),
            "room_accuracy_ok": sum(meets(r, "room_accuracy", ROOM_ACCURACY_TARGET) for r in ok),
            "both_ok": sum(meets(r, "recall_tall", RECALL_TALL_TARGET)
                           and meets(r, "room_accuracy", ROOM_ACCURACY_TARGET) for r in ok),
            "faster_than_real_time": sum(s > BUILD_SPEED_TARGET for s, _ in speeds),
            "slowest_build_speed": slowest[0] if slowest else None,
            "slowest_build_scene": slowest[1] if slowest else None,
        })
    failures = [{"scene": r["scene"], "noise": r["noise"], "stage": r.get("stage"),
                 "error": r["error"]} for r in rows if r.get("error")]
    return {"levels": out_levels, "failures": failures,
            "targets": {"recall_tall": RECALL_TALL_TARGET, "room_accuracy": ROOM_ACCURACY_TARGET,
                        "build_speed": BUILD_SPEED_TARGET}}


# --- plots ------------------------------------------------------------------------------------
_PLOTTED = (("recall_tall", "recall_tall", "tab:blue"), ("room_accuracy", "room accuracy", "tab:green"),
            ("precision", "precision", "tab:orange"), ("hcs_built", "HCS built map", "tab:red"))


def scenes_at_every_level(rows: Sequence[dict[str, Any]]) -> set[str]:
    """The scenes with a row at every noise level of ``rows`` (error rows left out)."""
    ok = [r for r in rows if not r.get("error")]
    levels = {float(r["noise"]) for r in ok}
    by_scene: dict[str, set[float]] = {}
    for r in ok:
        by_scene.setdefault(str(r["scene"]), set()).add(float(r["noise"]))
    return {s for s, lv in by_scene.items() if lv == levels}


def write_plots(rows: Sequence[dict[str, Any]], out: Path) -> list[Path]:
    """``out/noise.png`` (means vs noise level, per-scene points faint) and ``out/scenes.png``
    (per-scene recall_tall and room accuracy at the lowest noise level, target line at 0.95).
    Uses the Agg canvas directly (no pyplot state, no display needed)."""
    ok = [r for r in rows if not r.get("error")]
    levels = sorted({float(r["noise"]) for r in ok})
    paths: list[Path] = []
    # The curve compares levels, so it uses only the scenes measured at every level (a mean
    # over 40 scenes at 0 against one over 8 at 0.3 would compare scene sets, not noise).
    common = scenes_at_every_level(ok)
    curve = [r for r in ok if r["scene"] in common]

    fig = Figure(figsize=(7, 4.5))
    ax = fig.add_subplot()
    for key, label, color in _PLOTTED:
        xs, ys, mx, my = [], [], [], []
        for lv in levels:
            vals = _finite(r.get(key) for r in curve if float(r["noise"]) == lv)
            xs += [lv] * len(vals)
            ys += vals
            if vals:
                mx.append(lv)
                my.append(sum(vals) / len(vals))
        ax.scatter(xs, ys, color=color, alpha=0.2, s=12)
        ax.plot(mx, my, "-o", color=color, label=f"{label} (mean)")
    ax.axhline(RECALL_TALL_TARGET, color="grey", linestyle=":", linewidth=1,
               label=f"target {RECALL_TALL_TARGET:g}")
    ax.set_xlabel("detector noise R (miss = false positive = label noise rate)")
    ax.set_ylabel("score")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(f"Built semantic maps vs detector noise ({len(common)} scenes at every level)")
    ax.legend(loc="lower left", fontsize="small")
    fig.tight_layout()
    paths.append(out / "noise.png")
    write_png(fig, paths[-1], dpi=110)

    base = levels[0] if levels else 0.0
    at = sorted((r for r in ok if float(r["noise"]) == base), key=lambda r: str(r["scene"]))
    fig = Figure(figsize=(7, max(2.5, 0.22 * len(at) + 1.2)))
    ax = fig.add_subplot()
    ys_pos = list(range(len(at)))
    for key, label, color, marker in (("recall_tall", "recall_tall", "tab:blue", "o"),
                                      ("room_accuracy", "room accuracy", "tab:green", "s")):
        pts = [(float(r[key]), y) for r, y in zip(at, ys_pos, strict=True)
               if isinstance(r.get(key), int | float)]
        ax.scatter([p[0] for p in pts], [p[1] for p in pts], color=color, marker=marker,
                   label=label, s=22)
    ax.axvline(RECALL_TALL_TARGET, color="red", linestyle="--", linewidth=1,
               label=f"target {RECALL_TALL_TARGET:g}")
    ax.set_yticks(ys_pos)
    ax.set_yticklabels([str(r["scene"]) for r in at], fontsize="small")
    ax.set_xlim(-0.02, 1.02)
    ax.invert_yaxis()
    ax.set_xlabel("score")
    ax.set_title(f"Per scene at noise {noise_tag(base)}")
    ax.legend(loc="lower left", fontsize="small")
    fig.tight_layout()
    paths.append(out / "scenes.png")
    write_png(fig, paths[-1], dpi=110)
    return paths
