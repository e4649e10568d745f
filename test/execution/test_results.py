"""The shared runner: resumable JSON Lines results without torn or duplicate rows."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from map2route.execution.results import ResultsFile, dumps_row, progress_bar


def _by_id(path: Path) -> ResultsFile:
    return ResultsFile(path, key=lambda row: row["id"])


def test_append_and_read_back_in_order(tmp_path: Path) -> None:
    results = _by_id(tmp_path / "sub" / "results.jsonl")  # the folder is created
    assert results.rows() == []
    for i in ("a", "b", "c"):
        results.append({"id": i, "x": 1.5, "text": "café"})
    assert [r["id"] for r in results.rows()] == ["a", "b", "c"]
    lines = results.path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == '{"id":"a","x":1.5,"text":"café"}'  # one compact line per row


def test_a_torn_last_line_is_skipped_then_cut_before_the_next_append(tmp_path: Path) -> None:
    results = _by_id(tmp_path / "results.jsonl")
    results.append({"id": "a"})
    with results.path.open("a", encoding="utf-8") as fh:
        fh.write('{"id": "b", "x"')  # a killed run's half line
    assert [r["id"] for r in results.rows()] == ["a"]
    results.append({"id": "b"})
    assert results.path.read_text() == '{"id":"a"}\n{"id":"b"}\n'


def test_a_key_written_twice_is_read_once_with_its_last_row(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    path.write_text('{"id": "a", "v": 1}\n{"id": "b", "v": 2}\n{"id": "a", "v": 3}\n')
    assert _by_id(path).rows() == [{"id": "b", "v": 2}, {"id": "a", "v": 3}]


def test_upsert_replaces_a_row_and_moves_it_last(tmp_path: Path) -> None:
    results = _by_id(tmp_path / "results.jsonl")
    results.append({"id": "a", "error": "boom"})
    results.append({"id": "b"})
    rows = results.upsert({"id": "a", "error": None})
    assert rows == [{"id": "b"}, {"id": "a", "error": None}] == results.rows()
    assert len(results.path.read_text().splitlines()) == 2
    assert results.upsert({"id": "c"})[-1] == {"id": "c"}
    assert len(results.path.read_text().splitlines()) == 3


def test_write_all_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    results = _by_id(tmp_path / "results.jsonl")
    results.write_all([{"id": "a"}])
    before = results.path.read_text()

    def crash(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk full"):
        results.write_all([{"id": "a"}, {"id": "b"}])
    assert results.path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["results.jsonl"]  # no temp file left


def test_dumps_row_is_one_json_line() -> None:
    text = dumps_row({"a": [1, 2], "b": None})
    assert text.endswith("\n") and text.count("\n") == 1
    assert json.loads(text) == {"a": [1, 2], "b": None}


def test_progress_bar_counts_and_can_be_off(capsys: pytest.CaptureFixture[str]) -> None:
    with progress_bar("[scene] with brackets", 3) as bar:  # markup in a label is shown as text
        bar.advance()
        bar.advance(2, label="done [x]")
        assert bar._progress is not None
        task = bar._progress.tasks[0]
        assert task.completed == 3 and task.description == r"done \[x]"
    with progress_bar("quiet", 2, enabled=False) as bar:
        bar.advance(2)
    assert capsys.readouterr().out == ""  # the bar never writes to stdout
