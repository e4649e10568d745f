"""The human-style split: same checks as the templated episodes, human wording."""

from __future__ import annotations

import json
import random

from map2route.bench.map2route.episode import load_episodes
from map2route.bench.map2route.human import HumanEpisodeGenerator, generate_human, humanise_sentence
from map2route.bench.map2route.scoring import score_route
from map2route.language.parser import parse_instruction


class _Always(random.Random):
    """Takes every optional rewrite."""

    def random(self) -> float:
        return 0.0


def test_humanise_sentence_keeps_the_meaning():
    templated = ("Go to the sofa. Whenever you are in the kitchen, keep away from the second "
                 "closest chair to the fridge.")
    out = humanise_sentence(templated, _Always())
    assert "While still in the kitchen, " in out
    assert "the second of the chairs closest to the fridge" in out
    a, b = parse_instruction(templated).to_json(), parse_instruction(out).to_json()
    assert a["stages"][0]["refs"][0]["head"] == b["stages"][0]["refs"][0]["head"]
    ca, cb = a["constraints"][0], b["constraints"][0]
    assert (ca["kind"], ca["spatial_scope"]["head"]) == (cb["kind"], cb["spatial_scope"]["head"])
    assert ca["refs"][0]["modifiers"][0]["k"] == cb["refs"][0]["modifiers"][0]["k"] == 2


def test_human_episodes_are_checked_and_read(two_room_map, planner):
    gen = HumanEpisodeGenerator(two_room_map, planner=planner)
    made = 0
    for seed in range(6):
        ep = gen.generate(episode_id=f"t/human/{seed}", split="human",
                          difficulty="hard" if seed % 2 else "easy", seed=seed)
        if ep is None:
            continue
        made += 1
        assert ep.split == "human" and ep.difficulty == "human"
        assert ep.instruction.startswith(("You are standing", "You start", "You are currently"))
        route = planner(two_room_map, ep.routeir, ep.start_xy)
        assert score_route(ep, two_room_map, route.points).success
        parse = parse_instruction(ep.instruction)
        assert parse.context  # the scene-setting sentence is context, not a stage
    assert made >= 3


def test_generate_human_writes_the_split(tmp_path):
    from map2route.paths import maps_dir

    out = tmp_path / "human.jsonl"
    n = generate_human(maps_dir(), out, scenes=["procthor_00540"], per_scene=2)
    assert n == 2
    eps = load_episodes(out)
    assert [e.id for e in eps] == ["procthor_00540/human/000", "procthor_00540/human/001"]
    assert all(json.loads(line)["split"] == "human" for line in out.read_text().splitlines())
