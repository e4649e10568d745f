"""The runner every benchmark shares: a resumable JSON Lines results file and a progress bar.

A results file holds one JSON object per line, each with a key (an episode id; a scene, noise
level and image width)::

    OUT/results.jsonl   one line per finished item, appended one whole line at a time

- **Resumable.** :meth:`ResultsFile.rows` reads what an earlier run finished; a benchmark skips
  those keys and runs the rest.
- **No torn rows.** :meth:`ResultsFile.append` writes each row with one ``os.write`` on an
  ``O_APPEND`` descriptor, so a killed run leaves at most one half-written last line. Reading
  drops it (and any other line that is not JSON); the next append first cuts it off (atomically).
- **No duplicate rows.** A key read twice keeps its last row; :meth:`ResultsFile.upsert` (a
  failed item run again) rewrites the file atomically without the old row.

:func:`progress_bar` is the one progress display (rich, on stderr so ``--json`` output on stdout
stays clean). Tables, CSV, PNG and JSON outputs are in :mod:`map2route.bench.report`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from map2route.files import atomic_write_bytes, atomic_write_text

#: The file name every benchmark's results go to.
RESULTS_NAME = "results.jsonl"

Row = dict[str, Any]


def dumps_row(row: Row) -> str:
    """One results line: compact JSON, non-ASCII text kept readable, newline-terminated."""
    return json.dumps(row, separators=(",", ":"), ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class ResultsFile:
    """A JSON Lines results file whose rows are told apart by ``key(row)``.

    Attributes:
        path: the ``.jsonl`` file (created, with its folder, on the first write).
        key: the row's identity (an episode id, or a tuple).
    """

    path: Path
    key: Callable[[Row], Hashable]

    def rows(self) -> list[Row]:
        """The complete rows in file order, one per key (the last one written wins).

        A missing file has none; a line that is not JSON (a torn last line) is skipped.
        """
        if not self.path.is_file():
            return []
        by_key: dict[Hashable, Row] = {}
        for line in self.path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            k = self.key(row)
            by_key.pop(k, None)  # a later row of the same key takes the later place
            by_key[k] = row
        return list(by_key.values())

    def append(self, row: Row) -> None:
        """Add ``row`` as one whole line (after cutting off a torn last line, if any)."""
        self.drop_torn_tail()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            # One os.write of the whole line: a crash leaves at most one torn line.
            os.write(fd, dumps_row(row).encode("utf-8"))
        finally:
            os.close(fd)

    def upsert(self, row: Row) -> list[Row]:
        """Replace the row with ``row``'s key (moving it to the end) or append it.

        Returns:
            The rows now in the file, in file order.
        """
        rows = self.rows()
        k = self.key(row)
        if any(self.key(r) == k for r in rows):
            rows = [r for r in rows if self.key(r) != k] + [row]
            self.write_all(rows)
        else:
            self.append(row)
            rows.append(row)
        return rows

    def write_all(self, rows: Iterable[Row]) -> None:
        """Replace the file with ``rows`` atomically (temp file, then ``os.replace``)."""
        atomic_write_text(self.path, "".join(dumps_row(r) for r in rows))

    def drop_torn_tail(self) -> None:
        """Cut a half-written last line off the file (rewritten atomically)."""
        if not self.path.is_file():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            atomic_write_bytes(self.path, data[: data.rfind(b"\n") + 1])


class Ticker:
    """What :func:`progress_bar` yields: ``advance`` the bar, optionally with a new label."""

    def __init__(self, progress: Progress | None, task: Any) -> None:
        self._progress = progress
        self._task = task

    def advance(self, n: int = 1, *, label: str | None = None) -> None:
        if self._progress is None:
            return
        if label is not None:
            self._progress.update(self._task, description=escape(label))
        self._progress.advance(self._task, n)


@contextmanager
def progress_bar(label: str, total: int, *, enabled: bool = True,
                 transient: bool = False) -> Iterator[Ticker]:
    """A rich progress bar on stderr: label, bar, done/total, elapsed and remaining time.

    Args:
        label: the text left of the bar (``advance(label=...)`` changes it).
        total: the number of steps.
        enabled: ``False`` shows nothing (``--json`` runs).
        transient: remove the bar when done.
    """
    if not enabled:
        yield Ticker(None, None)
        return
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=transient) as bar:
        yield Ticker(bar, bar.add_task(escape(label), total=total))
