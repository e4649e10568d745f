"""The benchmark vocabulary and AI2-THOR type -> category mapping."""

from __future__ import annotations

import pytest

from map2route.semantic_map import MapError, RoomType
from map2route.semantic_map.categories import (
    in_vocabulary,
    room_type_from_words,
    to_category,
    vocabulary,
)


def test_vocabulary_is_the_97_benchmark_names():
    v = vocabulary()
    assert len(v) == 97 and len(set(v)) == 97
    assert v[0] == "alarm_clock" and "house_plant" in v and "wine_bottle" in v


@pytest.mark.parametrize(("thor", "ours"), [
    ("ArmChair", "arm_chair"), ("HousePlant", "house_plant"), ("TVStand", "tv_stand"),
    ("CounterTop", "counter_top"), ("GarbageCan", "garbage_can"), ("CD", "cd"),
    ("BasketBall", "basket_ball"), ("PaperTowelRoll", "paper_towel_roll"),
    ("ShelvingUnit", "shelf"), ("SinkBasin", "sink_basin"), ("Television", "television"),
    ("AlarmClock", "alarm_clock"), ("CoffeeTable", "coffee_table"),
], ids=lambda v: v)
def test_to_category(thor, ours):
    assert to_category(thor) == ours


def test_in_vocabulary():
    assert in_vocabulary("tv_stand") and not in_vocabulary("coffee_table")


@pytest.mark.parametrize(("words", "kind"), [
    ("living room", RoomType.LIVING_ROOM), ("LivingRoom", RoomType.LIVING_ROOM),
    ("Restroom", RoomType.BATHROOM), ("kitchen", RoomType.KITCHEN),
], ids=["spaced", "camel", "synonym", "plain"])
def test_room_words(words, kind):
    assert room_type_from_words(words) is kind


def test_unknown_room_word():
    with pytest.raises(MapError, match="Unknown room type 'garage'"):
        room_type_from_words("garage")
