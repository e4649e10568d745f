"""Benchmark episodes: the versioned JSON Lines format ``map2route.episode/1``.

One episode per line. Each carries what a method may read (``instruction``, ``start``,
``scene``) and the annotation the paper evaluates with (paper 000, III): the ground-truth
RouteIR, the canonical Path-Shape reference trajectories and the reference metadata.

Line layout::

    {"schema_version": "map2route.episode/1", "id": "scene_a/easy/003", "scene": "scene_a",
     "split": "easy" | "hard" | "dev",
     "start": {"x": m, "y": m, "yaw": rad, "row": int, "col": int},
     "instruction": "Go to the sofa, then ...",
     "routeir": {... map2route.routeir/1 ...},
     "path_shape_references": [{"constraint": k, "points": [[x, y], ...]}],
     "reference": {"depth": int, "candidate_instances": int, "hard_constraints": int,
                   "soft_constraints": int, "rooms_traversed": int,
                   "trajectory_length_m": float, "shortest_length_m": float | null,
                   "referring_expressions": [{"text", "object_ids", "depth", "candidates"}]},
     "metadata": {...}}
"""

from __future__ import annotations

import difflib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np

from map2route.bench.errors import BenchmarkError
from map2route.files import atomic_write_text
from map2route.routeir import RouteIRError, routeir_from_json, routeir_to_json, validation_problems

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from numpy.typing import NDArray

    from map2route.routeir import RouteIR

EPISODE_SCHEMA = "map2route.episode/1"
SPLITS = ("easy", "hard", "dev", "human")


class EpisodeJSON(TypedDict):
    """The raw shape of one episode line."""

    schema_version: str
    id: str
    scene: str
    split: str
    start: dict[str, float]
    instruction: str
    routeir: dict[str, Any]
    path_shape_references: list[dict[str, Any]]
    reference: dict[str, Any]
    metadata: dict[str, Any]


@dataclass(frozen=True)
class StartPose:
    """The start pose: map-frame metres and radians, plus the cell that holds it."""

    x: float
    y: float
    yaw: float
    row: int
    col: int


@dataclass(frozen=True)
class ReferringExpression:
    """One referring expression of the instruction and what it resolves to.

    Attributes:
        text: the phrase as written in the instruction.
        object_ids: the map objects it identifies (one object, or the objects of a region).
        depth: reference depth: how many entities the resolution chain goes through.
        candidates: instances of the head category in the scene before disambiguation.
    """

    text: str
    object_ids: tuple[str, ...]
    depth: int
    candidates: int


@dataclass(frozen=True)
class ReferenceInfo:
    """Reference metadata for Fig. 2 statistics and SPL."""

    depth: int = 0
    candidate_instances: int = 0
    hard_constraints: int = 0
    soft_constraints: int = 0
    rooms_traversed: int = 0
    trajectory_length_m: float = 0.0
    shortest_length_m: float | None = None
    referring_expressions: tuple[ReferringExpression, ...] = ()


@dataclass(frozen=True, eq=False)
class Episode:
    """One benchmark episode.

    Attributes:
        id: unique id, ``<scene>/<split>/<index>`` for generated episodes.
        scene: scene folder name under ``maps/``.
        split: ``easy``, ``hard`` or ``dev``.
        start: start pose.
        instruction: the instruction text (the only language a method sees).
        routeir: ground-truth RouteIR (never shown to a method other than oracle/shortest).
        path_shape_references: constraint index -> canonical reference trajectory tau_ref,
            ``(N, 2)`` float64 map metres, in order.
        reference: reference metadata.
        metadata: provenance (generator, seed, constructs used).
    """

    id: str
    scene: str
    split: str
    start: StartPose
    instruction: str
    routeir: RouteIR
    path_shape_references: dict[int, NDArray[np.float64]] = field(default_factory=dict)
    reference: ReferenceInfo = field(default_factory=ReferenceInfo)
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def start_xy(self) -> tuple[float, float]:
        return (self.start.x, self.start.y)

    @property
    def difficulty(self) -> str:
        """``easy`` or ``hard``; dev episodes report the difficulty they were generated with."""
        if self.split != "dev":
            return self.split
        return str(self.metadata.get("difficulty", "easy"))


# --- JSON --------------------------------------------------------------------------------------
def episode_to_json(ep: Episode) -> EpisodeJSON:
    """The JSON document of one episode line."""
    ref = ep.reference
    return {
        "schema_version": EPISODE_SCHEMA,
        "id": ep.id,
        "scene": ep.scene,
        "split": ep.split,
        "start": {"x": ep.start.x, "y": ep.start.y, "yaw": ep.start.yaw,
                  "row": ep.start.row, "col": ep.start.col},
        "instruction": ep.instruction,
        "routeir": routeir_to_json(ep.routeir),
        "path_shape_references": [
            {"constraint": int(k), "points": np.round(v, 4).tolist()}
            for k, v in sorted(ep.path_shape_references.items())],
        "reference": {
            "depth": ref.depth, "candidate_instances": ref.candidate_instances,
            "hard_constraints": ref.hard_constraints, "soft_constraints": ref.soft_constraints,
            "rooms_traversed": ref.rooms_traversed,
            "trajectory_length_m": round(ref.trajectory_length_m, 4),
            "shortest_length_m": None if ref.shortest_length_m is None
            else round(ref.shortest_length_m, 4),
            "referring_expressions": [
                {"text": r.text, "object_ids": list(r.object_ids), "depth": r.depth,
                 "candidates": r.candidates} for r in ref.referring_expressions],
        },
        "metadata": dict(ep.metadata),
    }


def episode_from_json(data: Any, *, where: str = "episode") -> Episode:
    """Validate one raw episode document into an :class:`Episode`.

    Raises:
        BenchmarkError: naming ``where`` and what is wrong (unknown schema version, a missing
            field, a malformed RouteIR).
    """
    if not isinstance(data, dict):
        raise BenchmarkError(f"{where}: an episode must be a JSON object, got {type(data).__name__}")
    version = data.get("schema_version")
    if version != EPISODE_SCHEMA:
        msg = (f"{where}: schema_version {version!r}; this map2route reads {EPISODE_SCHEMA!r} "
               "(official Map2Route episode files are read with `--official`)")
        raise BenchmarkError(msg)
    missing = [k for k in ("id", "scene", "split", "start", "instruction", "routeir")
               if k not in data]
    if missing:
        raise BenchmarkError(f"{where}: missing field(s) {missing}")
    if data["split"] not in SPLITS:
        raise BenchmarkError(f"{where}: split {data['split']!r} is not one of {list(SPLITS)}")
    wrong = [f"{k!r} must be {what}" for k, kind, what in (
        ("start", dict, "an object"), ("reference", dict, "an object"),
        ("metadata", dict, "an object"), ("path_shape_references", list, "a list"),
        ("instruction", str, "a string"), ("id", str, "a string"))
        if data.get(k) is not None and not isinstance(data[k], kind)]
    if wrong:
        raise BenchmarkError(f"{where} ({str(data.get('id'))[:80]!r}): " + "; ".join(wrong))
    try:
        s = data["start"]
        start = StartPose(x=float(s["x"]), y=float(s["y"]), yaw=float(s.get("yaw", 0.0)),
                          row=int(s["row"]), col=int(s["col"]))
        ir = routeir_from_json(data["routeir"])
        refs = {int(r["constraint"]): np.asarray(r["points"], dtype=np.float64).reshape(-1, 2)
                for r in data.get("path_shape_references", [])}
        rd = data.get("reference", {}) or {}
        exprs = tuple(ReferringExpression(text=str(e["text"]),
                                          object_ids=tuple(str(i) for i in e["object_ids"]),
                                          depth=int(e.get("depth", 1)),
                                          candidates=int(e.get("candidates", 1)))
                      for e in rd.get("referring_expressions", []))
        shortest = rd.get("shortest_length_m")
        ref = ReferenceInfo(depth=int(rd.get("depth", 0)),
                            candidate_instances=int(rd.get("candidate_instances", 0)),
                            hard_constraints=int(rd.get("hard_constraints", 0)),
                            soft_constraints=int(rd.get("soft_constraints", 0)),
                            rooms_traversed=int(rd.get("rooms_traversed", 0)),
                            trajectory_length_m=float(rd.get("trajectory_length_m", 0.0)),
                            shortest_length_m=None if shortest is None else float(shortest),
                            referring_expressions=exprs)
    except RouteIRError as err:
        raise BenchmarkError(f"{where} ({data.get('id')!r}): {err}") from err
    except (KeyError, TypeError, ValueError) as err:
        msg = f"{where} ({data.get('id')!r}): malformed field ({type(err).__name__}: {err})"
        raise BenchmarkError(msg) from err
    for k in refs:
        if not 0 <= k < len(ir.constraints):
            msg = (f"{where} ({data['id']!r}): path_shape_references names constraint {k}, "
                   f"but the RouteIR has {len(ir.constraints)} constraints")
            raise BenchmarkError(msg)
    if not (math.isfinite(start.x) and math.isfinite(start.y)):
        raise BenchmarkError(f"{where} ({data['id']!r}): start pose is not finite")
    bad = [f"reference RouteIR: {p}" for p in validation_problems(ir)]
    bad += [f"path_shape_references[{k}] has NaN or infinite points"
            for k, v in refs.items() if not np.isfinite(v).all()]
    if not all(math.isfinite(v) for v in (start.yaw, ref.trajectory_length_m,
                                          ref.shortest_length_m or 0.0)):
        bad.append("start yaw or a reference length is NaN or infinite")
    if bad:
        raise BenchmarkError(f"{where} ({data['id']!r}): " + "; ".join(bad))
    return Episode(id=str(data["id"]), scene=str(data["scene"]), split=str(data["split"]),
                   start=start, instruction=str(data["instruction"]), routeir=ir,
                   path_shape_references=refs, reference=ref,
                   metadata=dict(data.get("metadata", {}) or {}))


def read_lines(path: Path) -> list[tuple[int, str]]:
    """The non-blank lines of a JSON Lines file with their 1-based numbers.

    Raises:
        BenchmarkError: the file is unreadable or a line is not UTF-8 (naming the line).
    """
    try:
        data = path.read_bytes()
    except OSError as err:
        raise BenchmarkError(f"Cannot read episode file {str(path)!r}: {err.strerror}") from None
    out: list[tuple[int, str]] = []
    for lineno, raw in enumerate(data.split(b"\n"), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            msg = (f"{path}:{lineno}: not UTF-8 text (byte {err.start}: {err.reason}); episode "
                   "files are UTF-8 JSON Lines")
            raise BenchmarkError(msg) from None
        if line.strip():
            out.append((lineno, line))
    return out


def check_episode_lines(path: Path, lines: Sequence[tuple[int, str]]) -> None:
    """Validate episode lines as a benchmark run reads them: every episode, no duplicate id.

    Raises:
        BenchmarkError: listing every problem (file and line of each).
    """
    problems: list[str] = []
    seen: dict[str, int] = {}
    for lineno, line in lines:
        where = f"{path}:{lineno}"
        try:
            ep = episode_from_json(json.loads(line), where=where)
        except json.JSONDecodeError as err:
            problems.append(f"{where}: not valid JSON ({err.msg})")
            continue
        except BenchmarkError as err:
            problems.append(str(err))
            continue
        if ep.id in seen:
            problems.append(f"{where}: duplicate episode id {ep.id!r} (first on line "
                            f"{seen[ep.id]}); each episode is scored once, so ids must be unique")
        else:
            seen[ep.id] = lineno
    if problems:
        raise BenchmarkError(_problem_list(path, problems))


def _problem_list(path: Path, problems: list[str], limit: int = 40) -> str:
    shown = problems[:limit]
    more = f"\n  - ... and {len(problems) - limit} more" if len(problems) > limit else ""
    return (f"Episode file {str(path)!r} has {len(problems)} problem(s):\n  - "
            + "\n  - ".join(shown) + more)


def dumps_episode(ep: Episode) -> str:
    """One JSON line (no trailing newline)."""
    return json.dumps(episode_to_json(ep), separators=(",", ":"))


def write_episodes(path: str | Path, episodes: Iterable[Episode]) -> Path:
    """Write episodes as JSON Lines atomically and return the path."""

    out = Path(path)
    atomic_write_text(out, "".join(dumps_episode(ep) + "\n" for ep in episodes))
    return out


def load_episodes(path: str | Path, *, split: str | None = None,
                  ids: Sequence[str] | None = None) -> list[Episode]:
    """Read a JSON Lines episode file.

    Args:
        path: the ``.jsonl`` file.
        split: keep only episodes of this difficulty (``easy``/``hard``) or split (``dev``).
        ids: keep only these episode ids (in file order).

    Raises:
        BenchmarkError: the file is missing, a line is not JSON, or an episode is malformed;
            the message names the file and line number.
    """
    p = Path(path)
    if not p.is_file():
        msg = (f"Episode file {str(p)!r} does not exist; generate it with "
               "`map2route episodes generate` or pass --episodes PATH")
        raise BenchmarkError(msg)
    wanted = None if ids is None else set(ids)
    out: list[Episode] = []
    seen: set[str] = set()
    all_ids: list[str] = []
    problems: list[str] = []
    for lineno, line in read_lines(p):
        where = f"{p}:{lineno}"
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as err:
            problems.append(f"{where}: not valid JSON ({err.msg})")
            continue
        if wanted is not None and (not isinstance(raw, dict) or raw.get("id") not in wanted):
            all_ids.append(str(raw.get("id")) if isinstance(raw, dict) else "")
            continue
        try:
            ep = episode_from_json(raw, where=where)
        except BenchmarkError as err:
            problems.append(str(err))
            continue
        if ep.id in seen:
            problems.append(f"{where}: duplicate episode id {ep.id!r}")
            continue
        seen.add(ep.id)
        if split is not None and split not in (ep.split, ep.difficulty):
            continue
        out.append(ep)
    if problems:
        raise BenchmarkError(_problem_list(p, problems))
    if wanted is not None:
        missing = sorted(wanted - seen)
        if missing:

            close = difflib.get_close_matches(missing[0], sorted(seen | set(all_ids)), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise BenchmarkError(f"No episode {missing[0]!r} in {str(p)!r}{hint}")
    return out
