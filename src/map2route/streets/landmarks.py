"""Landmark grounding: does a clause name this POI? Fuzzy names (rapidfuzz) and OSM tags.

GROKE links landmarks to OSM POIs with RapidFuzz ``partial_ratio``; names are matched the
same way here, and common category words ("bank", "bus stop", "pharmacy") are matched to
the OSM tags that mean them, so "the bank" finds ``amenity=bank`` without a name.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz import fuzz

from map2route.streets.graph import Poi

#: Minimum rapidfuzz partial_ratio for a POI name to count as named in a clause.
NAME_MATCH_MIN = 88.0
#: Score given to a category-word match (below a clear name match).
KIND_MATCH_SCORE = 80.0

#: Words people use for a kind of place -> OSM tag values that mean it.
KIND_WORDS: dict[str, tuple[str, ...]] = {
    "bank": ("bank", "atm"), "atm": ("atm", "bank"), "pharmacy": ("pharmacy", "chemist"),
    "drug store": ("pharmacy", "chemist"), "drugstore": ("pharmacy", "chemist"),
    "bus stop": ("bus_stop",), "subway": ("subway_entrance", "station", "subway"),
    "station": ("station", "subway_entrance"), "metro": ("subway_entrance", "station"),
    "church": ("place_of_worship", "church"), "cathedral": ("place_of_worship",),
    "synagogue": ("place_of_worship",), "temple": ("place_of_worship",),
    "park": ("park", "garden", "playground"), "playground": ("playground", "park"),
    "garden": ("garden", "park"), "school": ("school", "college", "university", "kindergarten"),
    "university": ("university", "college"), "college": ("college", "university"),
    "hotel": ("hotel", "hostel", "motel"), "restaurant": ("restaurant", "fast_food"),
    "cafe": ("cafe", "coffee"), "coffee": ("cafe", "coffee"), "bar": ("bar", "pub"),
    "pub": ("pub", "bar"), "gas station": ("fuel",), "post office": ("post_office",),
    "parking": ("parking", "parking_entrance"), "garage": ("parking", "parking_entrance"),
    "supermarket": ("supermarket", "grocery"), "grocery": ("supermarket", "grocery",
                                                           "convenience"),
    "deli": ("deli", "convenience"), "bakery": ("bakery",), "pizza": ("pizza",),
    "gym": ("fitness_centre", "sports_centre"), "fitness": ("fitness_centre",),
    "library": ("library",), "museum": ("museum", "gallery"), "gallery": ("gallery", "art"),
    "theater": ("theatre", "cinema"), "theatre": ("theatre", "cinema"), "cinema": ("cinema",),
    "movie": ("cinema",), "fire station": ("fire_station",), "police": ("police",),
    "hospital": ("hospital", "clinic"), "clinic": ("clinic", "doctors"),
    "bike rental": ("bicycle_rental",), "citi bike": ("bicycle_rental",),
    "bike": ("bicycle_rental", "bicycle", "bicycle_parking"),
    "fountain": ("fountain",), "plaza": ("pedestrian", "park", "square"),
    "laundromat": ("laundry", "dry_cleaning"), "laundry": ("laundry", "dry_cleaning"),
    "dry cleaner": ("dry_cleaning", "laundry"), "salon": ("hairdresser", "beauty"),
    "barber": ("hairdresser",), "hair": ("hairdresser",), "nail": ("beauty",),
    "liquor": ("alcohol", "wine"), "wine": ("wine", "alcohol"), "books": ("books",),
    "bookstore": ("books",), "book store": ("books",), "clothes": ("clothes", "boutique"),
    "clothing": ("clothes", "boutique"), "shoe": ("shoes",), "jewelry": ("jewelry",),
    "ice cream": ("ice_cream",), "fast food": ("fast_food",), "mcdonald": ("fast_food",),
    "toilet": ("toilets",), "bench": ("bench",), "post box": ("post_box",),
    "mailbox": ("post_box",), "phone": ("mobile_phone", "telephone"),
    "optician": ("optician",), "dentist": ("dentist",), "doctor": ("doctors", "clinic"),
    "florist": ("florist",), "flower": ("florist",), "hardware": ("hardware", "doityourself"),
    "bicycle": ("bicycle", "bicycle_rental", "bicycle_parking"), "car wash": ("car_wash",),
    "embassy": ("embassy",), "courthouse": ("courthouse",), "townhall": ("townhall",),
    "city hall": ("townhall",), "stadium": ("stadium",), "pool": ("swimming_pool",),
}
_WORD_PATTERNS = {w: re.compile(rf"\b{re.escape(w)}s?\b") for w in KIND_WORDS}
_GENERIC_NAMES = {"the", "bar", "cafe", "deli", "park", "bank", "shop", "store", "hotel",
                  "market", "church", "school", "pizza", "subway", "station"}


@lru_cache(maxsize=65536)
def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9' ]+", " ", name.lower().replace("&", " and ")).strip()


def poi_match_score(poi: Poi, clause: str) -> float:
    """How clearly ``clause`` (normalised, lower-case) names ``poi``: 0..100.

    A name scores its rapidfuzz ``partial_ratio`` against the clause when at or above
    :data:`NAME_MATCH_MIN` (short or generic names need an exact word match); a category word
    that means one of the POI's tag values scores :data:`KIND_MATCH_SCORE`.
    """
    best = 0.0
    name = _norm(poi.name)
    if name and len(name) >= 3:
        if len(name) <= 4 or name in _GENERIC_NAMES:
            if re.search(rf"\b{re.escape(name)}\b", clause):
                best = 95.0
        else:
            score = float(fuzz.partial_ratio(name, clause))
            if score >= NAME_MATCH_MIN:
                best = score
    if best < KIND_MATCH_SCORE:
        values = {str(v).lower() for v in poi.tags.values()}
        for word, tag_values in KIND_WORDS.items():
            if any(v in values for v in tag_values) and _WORD_PATTERNS[word].search(clause):
                best = max(best, KIND_MATCH_SCORE)
                break
    return best
