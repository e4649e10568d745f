"""Paradigm grid for speaker mentions (scene sentences and where-things-are sentences followed
by commands that use them): see ``data/grid_speaker_mentions.py`` for the axes and the gold.

The test keeps a floor of cells right, no wrong cell, no silent drop, and a named span on every
refusal.
"""

from __future__ import annotations

import pytest
from grid_grading import assert_item_grid, load_grid

from map2route.language.fresh import read_route
from map2route.language.parser.mention_scenes import mention_scenes
from map2route.language.tokens import tokenize

grid = load_grid("grid_speaker_mentions")


# first contact (before any change): recorded once
FIRST_CONTACT = {"right": 101, "refused": 132, "wrong": 7, "drops": 0}
# after mention_scenes (and 'are' in introductions._copular, 'lying' in a walker's scene)
FLOOR = 240


def test_grid_floor_no_wrong_no_drops_named_refusals() -> None:
    # a belonging the map has: the cell's "alt" gold is it or its place
    assert_item_grid(grid.cells(), FLOOR, alt="alt")


@pytest.mark.parametrize(("text", "want"), [
    ("now then, I'm over by the telly - go to the fridge.",
     "i am over by the telly . go to the fridge ."),
    ("I'm nearly certain I've lost my hearing aid somewhere near the fridge. Go and have a look.",
     "my hearing aid is near the fridge . go there ."),
    ("right so the kids left a teddy bear lying around in the lounge, I think, and I want you "
     "to go to it.", "there is a teddy bear in the lounge . go to it ."),
    ("Somewhere in the bedroom there's a baseball bat: find it.",
     "in the bedroom there is a baseball bat . find it ."),
    ("my glasses are sitting on one of the armchairs, go over to it.",
     "my glasses are on a armchairs . go over to it ."),
    # not a scene: left alone
    ("In the kitchen, go to the fridge.", "in the kitchen , go to the fridge ."),
    ("Right, go to the fridge.", "right , go to the fridge ."),
])
def test_mention_scenes_rewrites(text: str, want: str) -> None:
    toks = mention_scenes(tokenize(text))
    assert " ".join(t.text for t in toks) == want
    assert all(0 <= t.start <= t.end <= len(text) for t in toks)  # spans into the text


def test_merged_token_spans_its_words() -> None:
    text = "I left my wallet on the desk. Go to it."
    first = mention_scenes(tokenize(text))[0]
    assert (first.text, text[first.start:first.end]) == ("my", "I left my")


# written after the fix, in other words than the grid's
FREE = [
    ("ok so you're at the kitchen counter, go to the fridge and then the bed.",
     [("goal", "fridge"), ("goal", "bed")]),
    ("Ok, coming in from the living room with the shopping: go and stand by the fridge.",
     [("goal", "fridge")]),
    ("I'm sitting on the couch in the living room that has no windows. Here's what I need: "
     "1. go to the fridge 2. come back to me.", [("goal", "fridge"), ("goal", "sofa")]),
    ("My knitting bag is on one of the chairs in the bedroom that has two chairs in it. Go to "
     "it.", [("goal", "chair")]),
    ("right so the kids left the teddy bear on one of the beds and I want you to go and find "
     "it.", [("goal", "teddy_bear")]),
    ("right so I've dropped my keys by the telly, could you go there?",
     [("goal", "television")]),
    ("alright, there's a teddy bear lying around in the lounge, could you go and fetch it?",
     [("goal", "teddy_bear")]),
    # the errand reader keeps "there" after a map thing left somewhere: the place is the stop
    ("I think I left my watch on the dresser in the bedroom. Would you go over there please?",
     [("goal", "dresser")]),
]


@pytest.mark.parametrize(("text", "want"), FREE)
def test_free_form(text: str, want: list[tuple[str, ...]]) -> None:
    assert read_route(text) == want
