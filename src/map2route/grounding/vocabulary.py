"""Words for things: the benchmark's categories, room types, synonyms and category groups.

Shared by the API (``entities("couch")`` finds sofas) and the offline parser. Categories are
the snake_case names of ``src/map2route/data/categories.txt``; a *group* is a word that names
several categories ("table" covers dining, coffee and side tables and desks).
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

from map2route.semantic_map.model import RoomType

if TYPE_CHECKING:
    from map2route.semantic_map.model import SemanticMap


@lru_cache(maxsize=1)
def categories() -> tuple[str, ...]:
    """The benchmark's object categories (snake_case), in file order."""
    text = resources.files("map2route").joinpath("data/categories.txt").read_text("utf-8")
    return tuple(line.strip() for line in text.splitlines() if line.strip())


#: Other words for one category (lower case, spaces between words).
SYNONYMS: dict[str, str] = {
    "couch": "sofa", "settee": "sofa", "loveseat": "sofa", "love seat": "sofa",
    "tv": "television", "telly": "television", "tv set": "television", "monitor": "television",
    "refrigerator": "fridge", "icebox": "fridge", "freezer": "fridge",
    "plant": "house_plant", "houseplant": "house_plant", "potted plant": "house_plant",
    "pot plant": "house_plant", "flower pot": "house_plant",
    "armchair": "arm_chair", "easy chair": "arm_chair", "recliner": "arm_chair",
    "bin": "garbage_can", "trash can": "garbage_can", "trash bin": "garbage_can",
    "wastebasket": "garbage_can", "waste basket": "garbage_can", "rubbish bin": "garbage_can",
    "dustbin": "garbage_can", "garbage bin": "garbage_can",
    "tv stand": "tv_stand", "tv cabinet": "tv_stand", "tv table": "tv_stand",
    "media console": "tv_stand", "entertainment center": "tv_stand",
    "counter": "counter_top", "countertop": "counter_top", "kitchen counter": "counter_top",
    "worktop": "counter_top",
    "nightstand": "side_table", "night stand": "side_table", "bedside table": "side_table",
    "end table": "side_table",
    "dining table": "dining_table", "kitchen table": "dining_table",
    "coffee maker": "coffee_machine", "espresso machine": "coffee_machine",
    "washer": "washing_machine", "dryer": "clothes_dryer", "tumble dryer": "clothes_dryer",
    "hamper": "laundry_hamper", "laundry basket": "laundry_hamper",
    "bookshelf": "shelf", "bookcase": "shelf", "shelves": "shelf", "shelving unit": "shelf",
    "chest of drawers": "dresser", "wardrobe": "dresser", "closet": "dresser",
    "footstool": "ottoman", "pouf": "ottoman", "hassock": "ottoman",
    "bar stool": "stool", "picture": "painting", "artwork": "painting", "poster": "painting",
    "sculpture": "statue", "figurine": "statue", "phone": "cell_phone", "mobile": "cell_phone",
    "remote": "remote_control", "clock": "alarm_clock", "lavatory": "toilet", "loo": "toilet",
    "wc": "toilet", "basin": "sink_basin", "washbasin": "sink", "wash basin": "sink",
    "stove": "pot", "vacuum": "vacuum_cleaner", "hoover": "vacuum_cleaner",
    "computer": "laptop", "notebook computer": "laptop", "teddy": "teddy_bear",
    "safe box": "safe", "strongbox": "safe", "microwave oven": "microwave",
    "frying pan": "pan", "skillet": "pan", "tissues": "tissue_box", "soap": "soap_bar",
    "garbage": "garbage_can", "trash": "garbage_can", "pet bed": "dog_bed", "doggy bed": "dog_bed", "doggie bed": "dog_bed",
    "decor": "table_top_decor", "decoration": "table_top_decor", "ornament": "table_top_decor",
    "standing lamp": "floor_lamp", "waste bin": "garbage_can", "television stand": "tv_stand",
    "toilet roll": "toilet_paper", "table decoration": "table_top_decor",
    "tabletop decor": "table_top_decor", "roll of paper towels": "paper_towel_roll",
    "paper towels": "paper_towel_roll", "kitchen sink": "sink", "bathroom sink": "sink_basin",
    "mirror": "painting", "rug": "table_top_decor",
}

#: Object categories that ProcTHOR maps hold beyond the benchmark's list (the shipped scenes
#: have coffee tables and room decor): named in instructions, found by ``entities``.
EXTRA_CATEGORIES: dict[str, str] = {
    "coffee table": "coffee_table", "cocktail table": "coffee_table",
    "room decor": "room_decor",
}

#: Words naming several categories; the parser keeps the word, the API matches any member.
GROUPS: dict[str, tuple[str, ...]] = {
    "table": ("dining_table", "coffee_table", "side_table", "desk", "tv_stand"),
    "lamp": ("desk_lamp", "floor_lamp"),
    "light": ("desk_lamp", "floor_lamp"),
    "seat": ("chair", "arm_chair", "sofa", "stool", "ottoman"),
    "cupboard": ("cabinet", "dresser", "shelf"),
    "storage": ("cabinet", "dresser", "shelf", "drawer"),
    "appliance": ("fridge", "microwave", "toaster", "coffee_machine", "washing_machine",
                  "clothes_dryer", "kettle"),
    "furniture": ("sofa", "arm_chair", "chair", "bed", "desk", "dining_table", "dresser",
                  "shelf", "side_table", "tv_stand", "cabinet", "ottoman", "stool"),
}

#: How people name room types.
ROOM_WORDS: dict[str, RoomType] = {
    "kitchen": RoomType.KITCHEN, "kitchenette": RoomType.KITCHEN,
    "living room": RoomType.LIVING_ROOM, "livingroom": RoomType.LIVING_ROOM,
    "lounge": RoomType.LIVING_ROOM, "sitting room": RoomType.LIVING_ROOM,
    "family room": RoomType.LIVING_ROOM, "den": RoomType.LIVING_ROOM,
    "front room": RoomType.LIVING_ROOM, "tv room": RoomType.LIVING_ROOM,
    "bedroom": RoomType.BEDROOM, "bed room": RoomType.BEDROOM, "guest room": RoomType.BEDROOM,
    "master bedroom": RoomType.BEDROOM, "sleeping room": RoomType.BEDROOM,
    "bathroom": RoomType.BATHROOM, "bath room": RoomType.BATHROOM,
    "restroom": RoomType.BATHROOM, "washroom": RoomType.BATHROOM, "toilet room": RoomType.BATHROOM,
    "lavatory room": RoomType.BATHROOM, "wc room": RoomType.BATHROOM,
}

#: Words for structure that the map keeps outside the object list.
STRUCTURE_WORDS: dict[str, str] = {
    "window": "window", "windows": "window", "door": "door", "doors": "door",
    "doorway": "door", "doorways": "door", "entrance": "door", "exit": "door",
    "wall": "wall", "walls": "wall",
}


#: Places people name that a map never has (its rooms are kitchens, living rooms, bedrooms and
#: bathrooms): the parser refuses them by name instead of fuzzily reading "garage" as "garbage".
ABSENT_PLACES: frozenset[str] = frozenset({
    "garage", "garden", "yard", "backyard", "front yard", "attic", "basement", "cellar",
    "hallway", "hall", "corridor", "office", "home office", "study", "balcony", "porch",
    "patio", "pantry", "gym", "nursery", "library", "foyer", "entryway", "lobby", "terrace",
    "driveway", "shed", "garden shed", "dining room", "laundry room", "utility room",
    "mud room", "mudroom", "storage room", "game room", "playroom", "play room", "stairs",
    "staircase", "upstairs", "downstairs", "roof", "pool", "sauna", "closet room",
})


def nearest_names(word: str, m: SemanticMap, limit: int = 3) -> list[str]:
    """The names in ``m`` (its object categories and room types, as people say them) that
    look most like ``word``: what a refusal suggests instead."""
    from rapidfuzz import fuzz, process

    names = sorted({c.replace("_", " ") for c in m.categories()
                    if c not in ("wall", "doorway", "doorframe", "window")}
                   | {r.type.words for r in m.rooms})
    got = process.extract(word.lower(), names, scorer=fuzz.WRatio, limit=limit)
    return [g[0] for g in got]


def category_phrases() -> dict[str, str]:
    """Every phrase (lower case words) that names one category, to its category."""
    out: dict[str, str] = {}
    for cat in categories():
        out[cat.replace("_", " ")] = cat
    out.update(EXTRA_CATEGORIES)
    out.update(SYNONYMS)
    return out


def resolve_category(word: str) -> tuple[str, ...]:
    """The categories a word names: one for a category or synonym, several for a group.

    Plural ``s``/``es`` is stripped when the plural itself is unknown. Returns ``()`` if unknown.
    """
    key = word.strip().lower().replace("_", " ")
    phrases = category_phrases()
    for cand in (key, singular(key)):
        if cand in phrases:
            return (phrases[cand],)
        if cand in GROUPS:
            return GROUPS[cand]
        if cand in STRUCTURE_WORDS:
            return (STRUCTURE_WORDS[cand],)
    return ()


def singular(phrase: str) -> str:
    """A rough English singular of the last word (``benches`` -> ``bench``, ``shelves`` stays)."""
    words = phrase.split(" ")
    last = words[-1]
    if last.endswith("ies") and len(last) > 4:
        last = last[:-3] + "y"
    elif last.endswith(("ches", "shes", "sses", "xes")):
        last = last[:-2]
    elif last.endswith("s") and not last.endswith("ss") and len(last) > 3:
        last = last[:-1]
    words[-1] = last
    return " ".join(words)
