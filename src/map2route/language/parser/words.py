"""The instruction parser's words, read from ``language/lexicons/instructions.yaml``.

Each name is the role a word set plays in the grammar; the lists themselves are data. What
stays in code are the closed-class words a rule tests one by one ("to", "from", "than"),
where the rule reads more clearly with the word in it than with a name for it.
"""

from __future__ import annotations

from map2route.language import lexicon
from map2route.language.numbers import cardinals, ordinals

_LEX = "instructions"


def _w(key: str) -> frozenset[str]:
    return lexicon.words(_LEX, key)


def _p(key: str) -> list[tuple[str, ...]]:
    return lexicon.phrases(_LEX, key)


def _t(key: str) -> dict[str, str]:
    return {k: str(v) for k, v in lexicon.table(_LEX, key).items()}


# --- numbers ---------------------------------------------------------------------------------
#: Counts: the number words up to ten plus quantity words ("both", "a couple of", "several").
NUMBERS: dict[str, int] = {**cardinals(10), **{k: int(v) for k, v in
                                               lexicon.table(_LEX, "quantity_words").items()}}
#: Ordinals the parser reads ("second nearest", "Stop 2:"): first to sixth.
ORDINALS: dict[str, int] = ordinals(6)

# --- noun phrases ----------------------------------------------------------------------------
DETS = _w("determiners")
NEAREST = _w("nearest")
FARTHEST = _w("farthest")
LARGEST = _w("largest")
SMALLEST = _w("smallest")
RANK_WORDS = NEAREST | FARTHEST | LARGEST | SMALLEST
#: Comparatives read as superlatives ("the bigger couch" = the biggest of the couches; with
#: two candidates they are the same, with more the superlative is the usual intent).
COMPARATIVE = _t("comparatives")
SIZE_ADJ = _t("size_adjectives")
FILLER_ADJ = _w("filler_adjectives")
REL_INTRO = _w("relative_intros")
ROOM_HEADS = _w("room_heads")
START_WORDS = _w("start_words")
START_ROOM_PHRASES = _p("start_room_phrases")
START_POINT_PHRASES = _p("start_point_phrases")
START_ROOM_RELATIVES = _p("start_room_relatives")
LOCATION_PREPS = _p("location_preps")
ON_PREPS = _p("on_preps")
NEXT_TO_PREPS = _p("next_to_preps")
NEAR_PREPS = _p("near_preps")
FAR_FROM_PREPS = _p("far_from_preps")
POSSESSION_PREPS = _p("possession_preps")
COUNT_SUPERLATIVES = _p("count_superlatives")

# --- clause openers --------------------------------------------------------------------------
MOVE_VERBS = _w("move_verbs")
PREF_VERBS = _w("preference_verbs")
SHAPE_VERBS = _w("shape_verbs")
OPENERS = MOVE_VERBS | PREF_VERBS | SHAPE_VERBS | _w("clause_openers")
CLOCKWISE = _t("clockwise")

# --- scopes ----------------------------------------------------------------------------------
SPATIAL = _p("spatial_scopes")
TEMPORAL = _p("temporal_scopes")
AFTER = _p("after_scopes")
WHOLE = _p("whole_route_scopes")
#: "on the way" with no destination: the leg the clause belongs to.
ON_THE_WAY = _p("on_the_way")
SCOPE_FIRST = {x[0] for x in SPATIAL + TEMPORAL + AFTER + WHOLE + ON_THE_WAY}
#: "avoid the area around X": the object, not a room called "area".
AROUND = _p("area_around")
#: Count comparisons in conditions ("if there are more than two chairs ...").
COMPARATORS: tuple[tuple[tuple[str, ...], str], ...] = tuple(
    (tuple(k.split()), v) for k, v in _t("count_comparators").items())

# --- normalising and discourse ---------------------------------------------------------------
#: Chat shorthand and common misspellings of function words (content words go to rapidfuzz).
SHORTHAND = _t("shorthand")
#: Interjections, greetings and politeness that carry no route content; dropped.
FILLER_WORDS = _w("filler_words")
FILLER_PHRASES = _p("filler_phrases")
#: Verbs of an errand after "go (and)": "go and find the clock", "go see the dog bed".
ERRAND_VERBS = _w("errand_verbs")
#: "come back (here)" / "return" at the end of a clause: back to where the robot started.
BACK = _p("come_back")
#: Field names of operator-style instructions ("Goal: the fridge", "Waypoint 2: the sofa").
LABEL_WORDS = _w("label_words") | set(ORDINALS)
#: Markers of a self-correction: "the sofa, no wait, the armchair", "sorry, I mean".
CORRECTIONS = _p("corrections")
#: Subjects of a narrated statement ("I didn't sleep well", "he left it on the table").
NARRATORS = _w("narrators")

# --- clause bodies ---------------------------------------------------------------------------
MENTION_OPENERS = _p("mention_openers")
BEFORE_LEADS = _p("before_leads")
AFTER_LEADS = _p("after_leads")
ELSE_OPENERS = _p("else_openers")
EXISTENCE_OPENERS = _p("existence_openers")
CONTAINMENT_VERBS = _p("containment_verbs")
CONTINUATION_OPENERS = _p("continuation_openers")
DESTINATION_OPENERS = _p("destination_openers")
NEGATIONS = _p("negations")
AVOID_OPENERS = _p("avoid_openers")
CLEARANCE_OBJECTS = _p("clearance_objects")
FAVOUR_VERBS = _p("favour_verbs")
FAVOUR_OVER = _p("favour_over")
CLOSER_TO = _p("closer_to")
FARTHER_FROM = _p("farther_from")
NEAR_PHRASES = _p("near_phrases")
FAR_PHRASES = _p("far_phrases")
PASS_OPENERS = _p("pass_openers")
PREFERENCE_LEADS = _p("preference_leads")
#: Substrings of a clause asking for clearance from everything (matched in its text).
CLEARANCE_CUES: tuple[str, ...] = tuple(str(c) for c in lexicon.load(_LEX)["clearance_cues"])
