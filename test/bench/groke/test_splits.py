"""The dev / unread split is a fixed function of the instance id."""

from __future__ import annotations

import pytest

from map2route.bench.groke.splits import UnreadRowsError, dev_rows, is_unread, part_of


def test_split_is_fixed_by_the_seeded_hash() -> None:
    # Pinned: changing the seed or the rule changes these and must be a deliberate act.
    assert [i for i in range(1, 20) if is_unread(str(i))] == [6, 7, 8, 12, 16]
    assert part_of("7") == "unread" and part_of("1") == "dev"
    share = sum(is_unread(str(i)) for i in range(10_000)) / 10_000
    assert 0.18 < share < 0.22


def test_dev_rows_refuses_a_file_with_unread_rows(tmp_path) -> None:
    """Failure analyses read dev rows only: a file holding one unread row is refused whole."""
    dev = tmp_path / "dev.jsonl"
    dev.write_text('{"id": "1", "unread": false}\n\n{"id": "2", "unread": false}\n')
    assert [r["id"] for r in dev_rows(dev)] == ["1", "2"]
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text('{"id": "1", "unread": false}\n{"id": "3", "unread": true}\n')
    with pytest.raises(UnreadRowsError, match="--part dev"):
        dev_rows(mixed)
