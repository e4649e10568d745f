"""The shipped episodes' reference numbers are what the generator computes today."""

from __future__ import annotations

import json

import pytest

from map2route.bench.map2route.episode import load_episodes
from map2route.bench.map2route.refresh import recompute_reference, refresh_reference
from map2route.paths import PACKAGE_ROOT, maps_dir
from map2route.semantic_map import load_scene

EPISODES = PACKAGE_ROOT / "episodes" / "test.jsonl"
SCENE = "procthor_00471"  # the scene whose metadata was found stale (9 lengths, 4 room counts)


@pytest.mark.skipif(not (maps_dir() / SCENE).is_dir(), reason="shipped scenes not present")
def test_shipped_reference_numbers_match_the_generator() -> None:
    m = load_scene(maps_dir() / SCENE)
    eps = [e for e in load_episodes(EPISODES) if e.scene == SCENE]
    assert len(eps) == 25
    for ep in eps:
        new = recompute_reference(ep, m)
        ref = ep.reference
        assert ref.rooms_traversed == new["rooms_traversed"], ep.id
        assert ref.trajectory_length_m == pytest.approx(new["trajectory_length_m"], abs=1e-4), ep.id
        assert ref.shortest_length_m == pytest.approx(new["shortest_length_m"], abs=1e-4), ep.id


@pytest.mark.skipif(not (maps_dir() / SCENE).is_dir(), reason="shipped scenes not present")
def test_refresh_rewrites_only_the_reference_numbers(tmp_path) -> None:
    lines = [ln for ln in EPISODES.read_text().splitlines() if f'"scene":"{SCENE}"' in ln][:3]
    stale = [json.loads(ln) for ln in lines]
    stale[0]["reference"]["trajectory_length_m"] += 1.0
    stale[1]["reference"]["rooms_traversed"] += 1
    path = tmp_path / "eps.jsonl"
    path.write_text("\n".join(json.dumps(d, separators=(",", ":")) for d in stale) + "\n")
    changed = refresh_reference(str(path), str(maps_dir()))
    assert changed == {"episodes": 3, "rooms_traversed": 1, "trajectory_length_m": 1,
                       "shortest_length_m": 0}
    assert path.read_text().splitlines() == lines
