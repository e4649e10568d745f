"""The generator's long stages, on any executor: A* ground truth (resumable) and LLM queries.

:func:`solve_ground_truth` groups samples that share a tile, a cost table and an end (one cost
field serves the group) and hands the groups to an
:class:`~map2route.execution.executors.Executor` in chunks of four; each solved group is
appended to a resume file as it comes back, so a killed :func:`~map2route.nesy.dataset.generate`
resumes its A* stage on either executor. :func:`write_queries_llm` asks the LLM writer for one
query per sample (on Ray one per task, at most ``--max-in-flight`` at once).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from map2route.execution.executors import Executor, LocalExecutor, chunked
from map2route.execution.results import ResultsFile, progress_bar
from map2route.gridsearch.kernel import warm_up
from map2route.nesy.errors import NesyError
from map2route.nesy.kb import class_costs
from map2route.nesy.queries import QuerySpec, llm_write_query
from map2route.nesy.search import cost_field, path_from_field

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.llm import ChatClient
    from map2route.nesy.dataset import Sample, Tile


# --- ground truth ------------------------------------------------------------------------------
#: Where :func:`generate` keeps the A* paths solved so far (removed once the dataset is written).
ASTAR_PARTIAL = Path(".partial") / "astar.jsonl"

_WORKER_TILES: list[Tile] = []


def _init_worker(tiles_: list[Tile]) -> None:
    global _WORKER_TILES
    _WORKER_TILES = tiles_

    warm_up()


def _solve_group(job: tuple[int, tuple[int, ...], tuple[int, int], list[tuple[int, int]]]
                 ) -> list[NDArray[np.int32] | None]:

    ti, costs, end, starts = job
    tile = _WORKER_TILES[ti]
    table = np.concatenate([[65535], np.asarray(costs)]).astype(np.uint16)
    w = table[tile.labels]
    field = cost_field(w, end)
    out: list[NDArray[np.int32] | None] = []
    for s in starts:
        out.append(path_from_field(w, field, s, end) if np.isfinite(field[s]) else None)
    return out


_Job = tuple[int, tuple[int, ...], tuple[int, int], list[tuple[int, int]]]


def _solve_chunk(chunk: list[tuple[int, _Job]]) -> list[tuple[int, list[NDArray[np.int32] | None]]]:
    """Solve a chunk of ``(position, group)`` jobs in a worker."""
    return [(pos, _solve_group(job)) for pos, job in chunk]


def _group_key(tile: Tile, digest: str, job: _Job) -> str:
    """A group's identity in the resume file: the tile (id and label digest), costs, end, starts."""
    _ti, costs, end, starts = job
    return (f"{tile.tile_id}|{digest}|{','.join(map(str, costs))}|{end[0]},{end[1]}|"
            + ";".join(f"{r},{c}" for r, c in starts))


def solve_ground_truth(tiles_: list[Tile], samples: list[Sample], *, workers: int = 1,
                       executor: Executor | None = None, resume: Path | None = None,
                       ) -> list[NDArray[np.int32] | None]:
    """A*-optimal trajectories (official cost model) for every sample, one field per group.

    Groups (samples sharing a tile, cost table and end) go to ``executor`` in chunks of four
    (default: a local pool of ``workers`` forked processes). With ``resume`` (a JSON Lines
    file) each solved group is appended there as it finishes, and groups already in it are
    not solved again: a killed run resumes, on either executor.
    """
    groups: dict[tuple[int, tuple[int, ...], tuple[int, int]], list[int]] = {}
    for i, s in enumerate(samples):
        costs = tuple(int(v) for v in class_costs(s.spec.vectors()))
        groups.setdefault((s.tile_index, costs, s.end), []).append(i)
    members = list(groups.values())
    jobs: list[_Job] = [(k[0], k[1], k[2], [samples[i].start for i in idx])
                        for k, idx in groups.items()]
    digests = {ti: hashlib.blake2b(tiles_[ti].labels.tobytes() + str(tiles_[ti].labels.shape)
                                   .encode(), digest_size=8).hexdigest()
               for ti in {j[0] for j in jobs}}
    keys = [_group_key(tiles_[j[0]], digests[j[0]], j) for j in jobs]
    saved = ResultsFile(resume, key=lambda row: row["key"]) if resume is not None else None
    done = {r["key"]: r["paths"] for r in saved.rows()} if saved is not None else {}
    results: list[NDArray[np.int32] | None] = [None] * len(samples)
    runner = executor or LocalExecutor(workers, start_method="fork")
    with progress_bar(f"A* ground truth ({runner.name})", len(samples)) as bar:

        def put(pos: int, paths: list[NDArray[np.int32] | None]) -> None:
            for i, p in zip(members[pos], paths, strict=True):
                results[i] = p
            bar.advance(len(members[pos]))

        def record(solved: list[tuple[int, list[NDArray[np.int32] | None]]]) -> None:
            for pos, paths in solved:
                if saved is not None:
                    saved.append({"key": keys[pos], "paths": [
                        None if p is None else np.asarray(p).reshape(-1).tolist() for p in paths]})
                put(pos, paths)

        todo: list[tuple[int, _Job]] = []
        for pos, job in enumerate(jobs):
            old = done.get(keys[pos])
            if old is not None and len(old) == len(job[3]):
                put(pos, [None if p is None else np.asarray(p, dtype=np.int32).reshape(-1, 2)
                          for p in old])
            else:
                todo.append((pos, job))
        runner.map_chunks(_solve_chunk, chunked(todo, 4), init=_init_worker, initargs=(tiles_,),
                          on_result=record)
    return results


# --- LLM queries (parallel on Ray) ---------------------------------------------------------------
_WRITER: dict[str, ChatClient] = {}


def _init_writer(client: ChatClient) -> None:
    _WRITER["client"] = client


def _write_chunk(chunk: list[tuple[int, QuerySpec]]) -> list[tuple[int, str | None]]:
    """LLM queries for a chunk of ``(index, spec)``; ``None`` where the self-check never passed."""
    out: list[tuple[int, str | None]] = []
    for i, spec in chunk:
        try:
            out.append((i, llm_write_query(_WRITER["client"], spec)))
        except NesyError:
            out.append((i, None))
    return out


def write_queries_llm(client: ChatClient, specs: list[QuerySpec], executor: Executor | None
                      ) -> dict[int, str]:
    """The LLM's query for each spec that passed its self-check, by index.

    Locally the requests go one after another in this process (as always); on Ray one spec per
    task, at most ``--max-in-flight`` tasks (default: the cluster's CPUs) at once: the bound
    on concurrent requests across the cluster.
    """
    runner = executor if executor is not None and executor.name != "local" else LocalExecutor(1)
    got: dict[int, str] = {}
    with progress_bar(f"LLM queries ({runner.name})", len(specs)) as bar:

        def record(done: list[tuple[int, str | None]]) -> None:
            got.update((i, q) for i, q in done if q is not None)
            bar.advance(len(done))

        runner.map_chunks(_write_chunk, chunked(list(enumerate(specs)), 1), init=_init_writer,
                          initargs=(client,), on_result=record)
    return got
