"""The dev / unread split is a fixed function of the instance id."""

from __future__ import annotations

from map2route.bench.groke.splits import is_unread, part_of


def test_split_is_fixed_by_the_seeded_hash() -> None:
    # Pinned: changing the seed or the rule changes these and must be a deliberate act.
    assert [i for i in range(1, 20) if is_unread(str(i))] == [6, 7, 8, 12, 16]
    assert part_of("7") == "unread" and part_of("1") == "dev"
    share = sum(is_unread(str(i)) for i in range(10_000)) / 10_000
    assert 0.18 < share < 0.22
