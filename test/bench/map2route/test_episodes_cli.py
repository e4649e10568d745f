"""The ``map2route episodes`` commands end to end on the two-room house."""

from __future__ import annotations

import json

import pytest

from map2route.cli import main


def test_stats_prints_fig2_quantities_and_writes_the_figure(tmp_path, two_room_episodes, capsys) -> None:
    fig = tmp_path / "stats.png"
    code = main(["episodes", "stats", "--episodes", str(two_room_episodes), "--figure", str(fig),
                 "--json"])
    assert code == 0
    stats = json.loads(capsys.readouterr().out)
    assert set(stats) == {"easy", "hard"}
    assert stats["easy"]["episodes"]["count"] == 4
    assert stats["hard"]["hard_constraints"]["mean"] + stats["hard"]["soft_constraints"]["mean"] >= 5
    assert fig.stat().st_size > 1000


def test_show_prints_the_annotation(two_room_episodes, capsys) -> None:
    first = json.loads(two_room_episodes.read_text().splitlines()[0])
    assert main(["episodes", "show", first["id"], "--episodes", str(two_room_episodes)]) == 0
    out = capsys.readouterr().out
    assert first["instruction"] in out and "stage 1:" in out


def test_generate_writes_deterministic_files(tmp_path, two_room_scene, capsys) -> None:
    pytest.importorskip("map2route.planning", reason="generation plans with plan_route")
    outs = []
    for name in ("a", "b"):
        out = tmp_path / name
        code = main(["episodes", "generate", "--scenes", str(two_room_scene), "--out", str(out),
                     "--workers", "1", "--seed", "5"])
        assert code == 0
        outs.append((out / "test.jsonl").read_text())
    assert outs[0] == outs[1]
    lines = outs[0].splitlines()
    assert len(lines) == 25
    splits = [json.loads(line)["split"] for line in lines]
    assert splits.count("easy") == 18 and splits.count("hard") == 7
    assert "Wrote 25 test episodes (18 easy, 7 hard)" in capsys.readouterr().out


def test_generate_without_index_says_what_to_pass(tmp_path, capsys) -> None:
    code = main(["episodes", "generate", "--scenes", str(tmp_path), "--out", str(tmp_path / "o")])
    assert code == 1
    assert "index.json does not exist" in capsys.readouterr().err


def test_generate_names_missing_scene_folders(tmp_path, two_room_scene, capsys) -> None:
    (two_room_scene / "index.json").write_text(json.dumps({"test": ["two_room_house", "gone"]}))
    code = main(["episodes", "generate", "--scenes", str(two_room_scene), "--out", str(tmp_path)])
    assert code == 1
    assert "no scene folder" in capsys.readouterr().err
