"""Words for the episode generator: category synonyms, numbers and phrasing variants.

Kept apart from the generator so the vocabulary can grow without touching its logic.
"""

from __future__ import annotations

import random

from map2route.language import inflection

#: How people name a category; the first entry is the plain name.
SYNONYMS: dict[str, tuple[str, ...]] = {
    "sofa": ("sofa", "couch"),
    "television": ("TV", "television", "TV set"),
    "garbage_can": ("garbage can", "trash bin", "trash can", "waste bin"),
    "house_plant": ("house plant", "houseplant", "potted plant"),
    "fridge": ("fridge", "refrigerator"),
    "arm_chair": ("armchair", "arm chair"),
    "counter_top": ("countertop", "kitchen counter", "counter"),
    "tv_stand": ("TV stand", "television stand"),
    "side_table": ("side table", "end table"),
    "floor_lamp": ("floor lamp", "standing lamp"),
    "desk_lamp": ("desk lamp", "lamp"),
    "dining_table": ("dining table",),
    "laundry_hamper": ("laundry hamper", "laundry basket"),
    "washing_machine": ("washing machine", "washer"),
    "clothes_dryer": ("clothes dryer", "dryer"),
    "sink_basin": ("sink basin", "basin"),
    "toilet_paper": ("toilet paper", "toilet roll"),
    "remote_control": ("remote control", "remote"),
    "cell_phone": ("cell phone", "phone"),
    "alarm_clock": ("alarm clock", "clock"),
    "dog_bed": ("dog bed", "pet bed"),
    "coffee_machine": ("coffee machine", "coffee maker"),
    "paper_towel_roll": ("paper towel roll", "roll of paper towels"),
    "table_top_decor": ("table decoration", "tabletop decor"),
}

#: Categories large enough to walk to, pass by, or keep away from.
LANDMARKS = frozenset({
    "arm_chair", "bed", "cabinet", "chair", "clothes_dryer", "coffee_machine", "counter_top",
    "desk", "desk_lamp", "dining_table", "dog_bed", "dresser", "floor_lamp", "fridge",
    "garbage_can", "house_plant", "laundry_hamper", "microwave", "ottoman", "safe", "shelf",
    "side_table", "sink", "sofa", "stool", "television", "toilet", "tv_stand", "vacuum_cleaner",
    "washing_machine", "sink_basin", "toaster", "statue", "vase", "painting",
})

#: Categories never used as a reference (structure, not objects).
EXCLUDED = frozenset({"wall", "doorway", "doorframe", "window"})

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")
ORDINALS = ("first", "second", "third")


def noun(category: str, rng: random.Random) -> str:
    """A surface word for ``category`` (a synonym picked by ``rng``)."""
    options = SYNONYMS.get(category, (category.replace("_", " "),))
    return rng.choice(options)


def plural(word: str) -> str:
    """The plural of a noun (``window`` -> ``windows``), from :mod:`map2route.language.inflection`."""
    return inflection.plural(word)


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def count_phrase(n: int, word: str) -> str:
    """``two windows``, ``one window``, ``no windows``."""
    number = NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else str(n)
    return f"{number} {word if n == 1 else plural(word)}"


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


# Phrasing variants; ``{X}`` is a referring expression.
FIRST_GOAL = ("Go to {X}.", "Head to {X}.", "Walk over to {X}.", "Make your way to {X}.",
              "Navigate to {X}.", "Please go to {X}.", "Your first stop is {X}.",
              "Start by going to {X}.")
NEXT_GOAL = ("Then go to {X}.", "After that, head to {X}.", "Next, visit {X}.",
             "Then continue to {X}.", "From there, walk to {X}.", "Afterwards, go to {X}.")
LAST_GOAL = ("Finally, go to {X}.", "End at {X}.", "Finish at {X}.", "Lastly, head to {X}.",
             "Your final destination is {X}.")
BEFORE_GOAL = ("Before going to {B}, visit {A}.", "Go to {B}, but visit {A} first.",
               "Visit {A} before you go to {B}.")
AFTER_GOAL = ("Go to {B} after you have been to {A}.", "After visiting {A}, go to {B}.",
              "Once you have reached {A}, head to {B}.")
PASS_ROOM = ("pass through {R}", "go through {R}", "walk through {R}", "cross {R}")
AVOID_ROOM = ("Do not enter {R}.", "Stay out of {R}.", "Avoid {R} entirely.",
              "Never go into {R}.", "Keep out of {R}.")
AVOID_ROOM_SCOPED = ("On the way to {X}, do not pass through {R}.",
                     "While heading to {X}, stay out of {R}.")
AVOID_ZONE = ("Do not walk into the area around {O}.", "Keep out of the space right around {O}.",
              "Avoid the area next to {O}.")
NEAR = ("stay close to {O}", "keep near {O}", "stay as close as possible to {O}",
        "hug {O}", "remain close to {O}")
FAR = ("keep away from {O}", "stay far from {O}", "keep your distance from {O}",
       "steer clear of {O}", "stay as far as possible from {O}")
RELATIVE = ("stay closer to {A} than to {B}", "keep nearer to {A} than to {B}",
            "favour {A} over {B}, staying closer to it",
            "stay farther from {B} than from {A}")
CLEARANCE = ("keep a safe distance from walls and furniture",
             "stay well clear of obstacles", "keep to the middle of open space",
             "give walls and furniture a wide berth")
CIRCLE = ("walk around {O} {DIR}", "circle {O} {DIR}", "make one {DIR} loop around {O}")
WALLS = ("walk along the walls of {R} {DIR}", "patrol {R} {DIR} along its walls",
         "follow the walls of {R} {DIR}")
SPATIAL_SCOPE = ("while crossing {R}", "when you are in {R}", "inside {R}",
                 "while you pass through {R}", "whenever you are in {R}")
TEMPORAL_SCOPE = ("on the way to {X}", "while heading to {X}", "until you reach {X}",
                  "as you go to {X}")
CONDITIONAL = ("If {R} contains {a} {C}, go to the {C} there; otherwise, go to {X}.",
               "Check whether {R} has {a} {C}: if it does, go to that {C}, if not, go to {X}.",
               "If there is {a} {C} in {R}, head to it; otherwise head to {X}.")
