"""The benchmark's object vocabulary and the mapping from AI2-THOR object types to it.

The vocabulary is the 97 snake_case names of ``data/categories.txt`` (the Map2Route benchmark's
categories, derived from AI2-THOR object types). :func:`to_category` turns an AI2-THOR /
ProcTHOR ``objectType`` (``ArmChair``, ``TVStand``) into that spelling (``arm_chair``,
``tv_stand``). Regular names are split at lower->upper case boundaries; the few irregular ones
are listed in :data:`IRREGULAR_TYPES`. Types with no vocabulary counterpart keep their
snake_case name (``coffee_table``) so nothing is silently renamed into something else.
"""

from __future__ import annotations

import re
from functools import lru_cache

from map2route.paths import data_dir
from map2route.semantic_map.model import RoomType

#: Categories that are building structure, not objects: left out of object counts, renders,
#: detections and map scores.
STRUCTURE_CATEGORIES: tuple[str, ...] = ("wall", "window", "doorframe", "doorway")

#: AI2-THOR types whose snake_case spelling in the benchmark is not the regular split, or which
#: the benchmark names by the part people refer to (a ShelvingUnit's shelves).
IRREGULAR_TYPES: dict[str, str] = {
    "TVStand": "tv_stand",
    "CD": "cd",
    "CounterTop": "counter_top",
    "Countertop": "counter_top",
    "BasketBall": "basket_ball",
    "ShelvingUnit": "shelf",
    "Shelf": "shelf",
    "SinkBasin": "sink_basin",
    "TableTopDecor": "table_top_decor",
    "GarbageCan": "garbage_can",
    "GarbageBag": "garbage_bag",
    "Doorway": "doorway",
    "Doorframe": "doorframe",
    "Television": "television",
}

#: How a user may spell each room type; values are :class:`RoomType` members.
ROOM_TYPE_WORDS: dict[str, RoomType] = {
    "kitchen": RoomType.KITCHEN,
    "living room": RoomType.LIVING_ROOM,
    "living_room": RoomType.LIVING_ROOM,
    "livingroom": RoomType.LIVING_ROOM,
    "lounge": RoomType.LIVING_ROOM,
    "bedroom": RoomType.BEDROOM,
    "bed room": RoomType.BEDROOM,
    "bathroom": RoomType.BATHROOM,
    "bath room": RoomType.BATHROOM,
    "restroom": RoomType.BATHROOM,
    "washroom": RoomType.BATHROOM,
}

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


@lru_cache(maxsize=1)
def vocabulary() -> tuple[str, ...]:
    """The benchmark's 97 category names, in file order."""
    path = data_dir() / "categories.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    return tuple(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def in_vocabulary(category: str) -> bool:
    """Whether ``category`` is one of the benchmark's names."""
    return category in _vocabulary_set()


@lru_cache(maxsize=1)
def _vocabulary_set() -> frozenset[str]:
    return frozenset(vocabulary())


def to_category(object_type: str) -> str:
    """The benchmark spelling of an AI2-THOR object type.

    Args:
        object_type: an AI2-THOR ``objectType`` such as ``"HousePlant"`` or ``"TVStand"``.

    Returns:
        ``"house_plant"``, ``"tv_stand"``; a type outside the vocabulary keeps its regular
        snake_case spelling (``"CoffeeTable"`` -> ``"coffee_table"``).
    """
    name = object_type.strip()
    if name in IRREGULAR_TYPES:
        return IRREGULAR_TYPES[name]
    return _CAMEL_BOUNDARY.sub("_", name).lower()


def room_type_from_words(text: str) -> RoomType:
    """Parse how people name a room type (``"living room"``, ``"LivingRoom"``, ``"restroom"``).

    Raises:
        MapError: for an unknown room word, listing the known ones.
    """
    key = " ".join(text.strip().lower().split())
    if key in ROOM_TYPE_WORDS:
        return ROOM_TYPE_WORDS[key]
    return RoomType.parse(text)
