"""The shared output writers: markdown, CSV, JSON and PNG."""

from __future__ import annotations

import json
from pathlib import Path

from matplotlib.figure import Figure

from map2route.bench.report import csv_text, markdown_table, write_json, write_png


def test_markdown_table() -> None:
    assert markdown_table(["a", "b"], [[1, "x"], [2.5, "y"]]) == (
        "| a | b |\n| --- | --- |\n| 1 | x |\n| 2.5 | y |\n")


def test_csv_text_quotes_what_needs_it() -> None:
    assert csv_text(["k", "v"], [["a,b", 1]]) == 'k,v\r\n"a,b",1\r\n'


def test_write_json_and_png(tmp_path: Path) -> None:
    path = write_json(tmp_path / "s.json", {"hcs": 0.5}, indent=2)
    assert json.loads(path.read_text()) == {"hcs": 0.5} and path.read_text().startswith("{\n  ")
    fig = Figure(figsize=(2, 2))
    fig.subplots().plot([0, 1], [0, 1])
    png = write_png(fig, tmp_path / "f.png", dpi=50)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.png", "s.json"]
