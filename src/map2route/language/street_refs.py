"""Small readings of street directions used by :mod:`map2route.language.directions`.

- Periods inside names end no sentence: initialisms ("P.S. Burgers"), abbreviations before a
  number or a lower-case word ("No. 6 Store"), and "St." before a name ("St. George's Church",
  "Bleecker St. Pizza"; "... Bleecker St. Turn right" still ends one). "sidestreet" is
  "side street".
- A crossing named by a pronoun: "Go straight until the large intersection. Go straight
  through it", "when you reach a light with The Garret on the corner, go through it", "The
  following light will have Butcher's Daughter, go through that as well": the crossing is the
  one the text just reached or described, and the clause passes it.
- An ordinal turn: "take the second right", "continue to your second possible right turn",
  "turn right at the third sidestreet": the N-th crossing ahead with a street to that side.
"""

from __future__ import annotations

import re

from map2route.language import lexicon
from map2route.language.numbers import ordinals

_INITIALISM_RE = re.compile(r"\b((?:[A-Za-z]\.){2,})")
_ABBREVIATION_RE = re.compile(r"\b(No|no|St|st|Ave|ave|Dr|Mt|Mr|Mrs|Jr|Bros|Co)\.(?=\s+[a-z0-9])")
_SAINT_RE = re.compile(r"\b(St|Mt)\.(?=\s+(?!(?:" + "|".join(sorted(lexicon.words(
    "directions", "sentence_openers"))) + r")\b)[A-Z])")
_SIDESTREET_RE = re.compile(r"\b([Ss])idestreet(s?)\b")

_THROUGH_IT_RE = re.compile(
    r"^(?:go|walk|continue|keep going|head|proceed|cross|pass)\s+(?:straight\s+|right\s+)?"
    r"(?:through|across|past)\s+(?P<what>it|that|this|them|both(?: of them)?)\b")

_ORDINAL_WORDS = {w: n for w, n in ordinals(4).items() if n >= 2}
_ORDINAL_TURN_RE = re.compile(
    r"\b(?P<nth>" + "|".join(_ORDINAL_WORDS) + r")\s+(?:possible\s+|available\s+)?"
    r"(?:(?:left|right)(?:\b(?!\s*-?\s*hand)|\s+turn)|(?:(?:left|right)[- ])?side ?street)")


def clean_text(text: str) -> str:
    """The instruction with the periods of names dropped and "sidestreet" split."""
    t = _INITIALISM_RE.sub(lambda m: m.group(1).replace(".", ""), text)
    t = _SAINT_RE.sub(r"\1", _ABBREVIATION_RE.sub(r"\1", t))
    return _SIDESTREET_RE.sub(r"\1ide street\2", t)


def through_it(clause: str, feature: str) -> tuple[str, int] | None:
    """``(feature, count)`` passed by a clause like "go through it" ("them", "both": two);
    ``None`` when the clause is not one or no crossing was named before it."""
    m = _THROUGH_IT_RE.search(clause)
    if m is None or feature not in ("light", "intersection", "t"):
        return None
    count = 2 if m.group("what") in ("them", "both", "both of them") else 1
    return feature, count


def ordinal_turn(clause: str) -> int:
    """N of "the N-th right / left / side street" (N >= 2) in a turn clause, else 0."""
    m = _ORDINAL_TURN_RE.search(clause)
    return _ORDINAL_WORDS[m.group("nth")] if m else 0
