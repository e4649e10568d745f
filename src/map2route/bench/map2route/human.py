"""The human-style split: episodes whose instructions read like people's, not our templates.

The templated split is written from the phrasings the offline parser was tuned on, so it
flatters it. This split draws episodes with the same generator (the same checks: every
referring expression picks out one object or room of its map, the annotated route is planned
and scored before the episode is kept) but words them the way people wrote the real
benchmark's instructions: a scene-setting sentence first ("You are standing in the bedroom
with two windows."), several destinations as a numbered list ("Visit three places in order:
1. ..., 2. ..., 3. ..."), scope clauses opened the way people open them ("While still in the
kitchen, ..."), partitives ("the second of the chairs closest to the fridge") and negated
relative clauses ("the bedroom that has no windows"). Its episodes have ``split: "human"``
and are reported in their own rows (``map2route bench map2route --split human``).
"""

from __future__ import annotations

import random
import re
import zlib
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from map2route.bench.map2route import language as lang
from map2route.bench.map2route.episode import dumps_episode
from map2route.bench.map2route.generate import EpisodeGenerator, _Draft
from map2route.files import atomic_write_text
from map2route.semantic_map import load_scene

if TYPE_CHECKING:
    from map2route.bench.map2route.episode import Episode
    from map2route.semantic_map import SemanticMap

#: How people open a room scope, in place of the templates' phrasings.
_SCOPE_REWRITES = (
    (re.compile(r"\b(?:W|w)henever you are in "), ("While still in ", "while still in ")),
    (re.compile(r"\b(?:W|w)hen you are in "), ("While you are still in ", "while you are still in ")),
)
_PARTITIVE = re.compile(r"\bthe (second|third) (closest|nearest|farthest|furthest) ([a-z]+) to ")
_NEGATED = re.compile(r"\bthe (bedroom|bathroom|kitchen|living room) with no (windows)\b")


def _cased(cap: str, low: str, mt: re.Match[str]) -> str:
    return cap if mt.group(0)[0].isupper() else low


def humanise_sentence(text: str, rng: random.Random) -> str:
    """One templated sentence in a person's wording (same meaning for the offline parser)."""
    for pattern, (cap, low) in _SCOPE_REWRITES:
        if rng.random() < 0.7:
            text = pattern.sub(partial(_cased, cap, low), text)
    if rng.random() < 0.7:
        text = _PARTITIVE.sub(lambda mt: f"the {mt.group(1)} of the "
                                         f"{lang.plural(mt.group(3))} {mt.group(2)} to ", text)
    if rng.random() < 0.7:
        text = _NEGATED.sub(lambda mt: f"the {mt.group(1)} that has no {mt.group(2)}", text)
    return text


class HumanEpisodeGenerator(EpisodeGenerator):
    """:class:`EpisodeGenerator` whose instructions are worded the human way (see module)."""

    def _instruction(self, draft: _Draft, rng: random.Random) -> str:
        stages = draft.stages
        listed = len(stages) >= 2 and all(s.kind == "object" for s in stages) and \
            not any(c in draft.constructs for c in ("ordering",))
        if listed:
            items = ", ".join(f"{k + 1}. {s.sentence_ref}" for k, s in enumerate(stages))
            count = lang.NUMBER_WORDS[len(stages)] if len(stages) < len(lang.NUMBER_WORDS) \
                else str(len(stages))
            opening = [f"Visit {count} places in order: {items}."]
            body = [humanise_sentence(s, rng) for s in draft.sentences]
            rng.shuffle(body)
            text = " ".join(opening + body)
        else:
            text = " ".join(humanise_sentence(s, rng) for s in
                            re.split(r"(?<=[.!?])\s+", super()._instruction(draft, rng)))
        return f"{self._scene_sentence(rng)} {text}"

    def _scene_sentence(self, rng: random.Random) -> str:
        """"You are standing in a bedroom.": context only, it names no stage."""
        room = self.m.room_at(*self._start_xy) if self._start_xy is not None else None
        where = f"in a {room.type.words}" if room is not None else "somewhere in the house"
        return rng.choice((f"You are standing {where}.", f"You start {where}.",
                           f"You are currently {where}."))

    _start_xy: tuple[float, float] | None = None

    def _finish(self, draft: _Draft, rng: random.Random, start: Any, **kwargs: Any) -> Episode:
        self._start_xy = (start.x, start.y)
        return super()._finish(draft, rng, start, **kwargs)


def generate_human(maps_root: str | Path, out_path: str | Path, *, scenes: list[str],
                   per_scene: int = 3, seed: int = 0) -> int:
    """Write ``per_scene`` human-style episodes per scene to ``out_path``; returns the count.

    Episode ``i`` of a scene is ``<scene>/human/<i:03d>``; difficulties alternate Easy and
    Hard (the ``metadata.difficulty`` the draw used), the split is ``human``.
    """
    lines: list[str] = []
    for scene in scenes:
        m: SemanticMap = load_scene(Path(maps_root) / scene)
        gen = HumanEpisodeGenerator(m)
        for i in range(per_scene):
            difficulty = "hard" if i % 2 else "easy"
            ep_seed = (seed * 1_000_003 + zlib.crc32(f"human:{scene}".encode()) + i * 7_919) \
                % (2**31)
            ep = gen.generate(episode_id=f"{scene}/human/{i:03d}", split="human",
                              difficulty=difficulty, seed=ep_seed)
            if ep is not None:
                lines.append(dumps_episode(ep))
    atomic_write_text(Path(out_path), "".join(line + "\n" for line in lines))
    return len(lines)
