"""The outputs every benchmark writes: JSON, CSV and PNG files (atomically), markdown tables.

A reader never sees half a file: each writer renders to memory and hands the bytes to
:func:`~map2route.semantic_map.io.atomic_write_bytes` (a temp file, then ``os.replace``).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from matplotlib.backends.backend_agg import FigureCanvasAgg

from map2route.files import atomic_write_bytes, atomic_write_text

if TYPE_CHECKING:
    from pathlib import Path

    from matplotlib.figure import Figure


def write_json(path: Path, data: Any, *, indent: int = 1) -> Path:
    """``data`` as indented JSON at ``path``."""
    atomic_write_text(path, json.dumps(data, indent=indent))
    return path


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A CSV document (``csv`` module quoting, ``\\r\\n`` line ends) of ``header`` and ``rows``."""
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(header)
    writer.writerows(rows)
    return buf.getvalue()


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A GitHub markdown table: a header row, the ``---`` row, one row per item."""
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def write_png(fig: Figure, path: Path, *, dpi: int = 120) -> Path:
    """Render a matplotlib figure to PNG at ``path``.

    The caller closes a pyplot figure; a bare :class:`~matplotlib.figure.Figure` gets an Agg
    canvas here when it has none (no pyplot state, no display needed).
    """
    if type(fig.canvas).__name__ == "FigureCanvasBase":
        FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    atomic_write_bytes(path, buf.getvalue())
    return path
