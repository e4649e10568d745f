"""The episode format: round trip and the errors a user sees for bad files."""

from __future__ import annotations

import json

import numpy as np
import pytest

from map2route.bench.errors import BenchmarkError
from map2route.bench.map2route.episode import (
    EPISODE_SCHEMA,
    dumps_episode,
    episode_from_json,
    load_episodes,
)


def test_round_trip_keeps_every_field(two_room_episodes) -> None:
    eps = load_episodes(two_room_episodes)
    assert len(eps) == 6
    for ep in eps:
        again = episode_from_json(json.loads(dumps_episode(ep)))
        assert dumps_episode(again) == dumps_episode(ep)
        assert again.routeir.stages[0].target.size == ep.routeir.stages[0].target.size
        for k, ref in ep.path_shape_references.items():
            np.testing.assert_allclose(again.path_shape_references[k], ref, atol=1e-4)


def test_split_filter_and_ids(two_room_episodes) -> None:
    assert {e.split for e in load_episodes(two_room_episodes, split="hard")} == {"hard"}
    first = json.loads(two_room_episodes.read_text().splitlines()[0])["id"]
    (ep,) = load_episodes(two_room_episodes, ids=[first])
    assert ep.id == first


def test_unknown_id_suggests_close_ids(two_room_episodes) -> None:
    with pytest.raises(BenchmarkError, match="did you mean two_room_house/easy/00"):
        load_episodes(two_room_episodes, ids=["two_room_house/easy/00"])


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", r"episodes.jsonl:1: not valid JSON"),
        (json.dumps({"schema_version": "map2route.episode/0"}), r"schema_version 'map2route.episode/0'"),
        (json.dumps({"schema_version": EPISODE_SCHEMA, "id": "a"}), r"missing field\(s\)"),
    ],
    ids=["bad-json", "old-schema", "missing-fields"],
)
def test_bad_lines_name_file_line_and_problem(tmp_path, line, message) -> None:
    p = tmp_path / "episodes.jsonl"
    p.write_text(line + "\n")
    with pytest.raises(BenchmarkError, match=message):
        load_episodes(p)


def test_missing_file_says_how_to_make_one(tmp_path) -> None:
    with pytest.raises(BenchmarkError, match="map2route episodes generate"):
        load_episodes(tmp_path / "nope.jsonl")
