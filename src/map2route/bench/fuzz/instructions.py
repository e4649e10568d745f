"""Seeded fuzz instructions for the offline parser and grounder.

Every instruction is built from a ``random.Random(seed)``, so a seed and a count name the same
list on every machine. The words are real: the language package's lexicons (verbs, scope and
preposition phrases, ordinals, object categories and their synonyms) and the shipped episodes'
instructions; the shapes are what breaks parsers: referring expressions in the style people
write (ordinals, "that is farthest from you", partitives, relative clauses, route-order
references), chains of up to 60 post-modifiers on one noun, word soup, junk and unicode, and
text up to (and a few past) the instruction length limit.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from map2route.language import lexicon
from map2route.language.parser import MAX_INSTRUCTION_CHARS
from map2route.language.vocabulary import category_phrases
from map2route.paths import PACKAGE_ROOT

#: The kinds of instruction, each with its share of the list (they sum to 1).
KINDS: dict[str, float] = {
    "episode": 0.20,  # a shipped episode's instruction, mutated
    "refs": 0.20,  # referring expressions in the style people write
    "chain": 0.15,  # one noun with a long chain of post-modifiers
    "soup": 0.10,  # lexicon words in random order
    "junk": 0.10,  # punctuation, digits, unicode, control characters, long tokens
    "mixed": 0.15,  # the above glued together up to the length limit
    "long": 0.08,  # clauses repeated up to the length limit
    "over": 0.02,  # longer than the limit: must be refused by name
}
#: Odd characters: accents, CJK, RTL, emoji, combining marks, zero-width and control characters.
UNICODE = ["é", "ü", "ß", "ø", "İ", "ı", "ﬁ", "æ", "文", "字", "ش", "ع", "\u200f", "\u200b",
           "\ufeff", "\u0301", "\u0338", "😀", "🛋️", "🚪", "\u00a0", "\t", "\r", "\x00", "\x07",
           "\u2028", "\ud7ff", "Ⅻ", "½", "３", "№", "‽", "«", "»", "—", "…", "’", "“", "”"]
PUNCT = list(".,;:!?()[]{}<>/\\|\"'`~@#$%^&*-_=+")
#: Referring-expression frames; {c}, {d} are categories, {r} a room, {o} an ordinal.
REF_FRAMES = [
    "the {c}", "the {c} near the {d}", "the {c} in the {r}", "the {o} {c} from the {d}",
    "the {c} that is farthest from you", "the {c} closest to the {d} in the {r}",
    "the {c} near the {r} that is farthest from you in terms of straight-line distance",
    "one of the {c}s next to the {d}", "the {c} which is on the {d}", "the {c} you passed",
    "the {c} between the {d} and the {c}", "the {o} largest {c} in the {r}",
    "the {c} with a {d} on it", "the {c} that you saw first", "both {c}s in the {r}",
    "the {c} to the left of the {d}", "the {c} opposite the {d}", "any {c} except the {o} one",
]
CLAUSE_FRAMES = [
    "go to {x}", "then visit {x}", "avoid {x}", "stay close to {x}", "keep away from {x}",
    "pass through {x}", "circle {x} clockwise", "if there is {x}, go to {y}, otherwise go to {z}",
    "on the way to {x}, stay far from {y}", "after {x}, head to {y}", "finally stop at {x}",
    "while in {x}, avoid {y}", "stay closer to {x} than to {y}", "follow the wall of {x}",
]
GLUE = [". ", ", then ", "; ", " and then ", ", ", " ", "\n", " - ", "!! ", "... "]


def _leaves(x: Any) -> Iterator[str]:
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for k, v in x.items():
            yield str(k)
            yield from _leaves(v)
    elif isinstance(x, list):
        for v in x:
            yield from _leaves(v)


@dataclass(frozen=True)
class Words:
    """The real words the instructions are made of."""

    phrases: tuple[str, ...]
    categories: tuple[str, ...]
    rooms: tuple[str, ...]
    ordinals: tuple[str, ...]
    modifiers: tuple[str, ...]
    episodes: tuple[tuple[str, str], ...]  # (scene, instruction)


@cache
def words() -> Words:
    """The lexicons' phrases and categories and the shipped episodes' instructions."""
    phrases = sorted({p for name in ("instructions", "vocabulary", "directions", "tokens")
                      for p in _leaves(lexicon.load(name)) if 0 < len(p) < 40})
    cats = sorted(set(category_phrases()) | set(category_phrases().values()))
    rooms = ["kitchen", "bedroom", "bathroom", "living room", "hallway", "room", "corridor"]
    ordinals = ["first", "second", "third", "fourth", "last", "next", "2nd", "3rd", "fifth"]
    mods = sorted({p for key in ("near_preps", "next_to_preps", "far_from_preps",
                                 "location_preps", "on_preps", "possession_preps")
                   for p in _leaves(lexicon.load("instructions").get(key, []))})
    episodes: list[tuple[str, str]] = []
    for f in sorted((PACKAGE_ROOT / "episodes").glob("*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip():
                doc = json.loads(line)
                episodes.append((str(doc["scene"]), str(doc["instruction"])))
    return Words(tuple(phrases), tuple(cats), tuple(rooms), tuple(ordinals),
                 tuple(mods or ["near", "next to", "in", "on", "far from"]), tuple(episodes))


def _ref(rng: random.Random, w: Words) -> str:
    return rng.choice(REF_FRAMES).format(c=rng.choice(w.categories), d=rng.choice(w.categories),
                                         r=rng.choice(w.rooms), o=rng.choice(w.ordinals))


def _clause(rng: random.Random, w: Words) -> str:
    return rng.choice(CLAUSE_FRAMES).format(x=_ref(rng, w), y=_ref(rng, w), z=_ref(rng, w))


def _mutate(rng: random.Random, text: str) -> str:
    """Drop, repeat, swap or misspell a few words; change case; splice in odd characters (a
    third of the texts are left whole, so the route path also plans)."""
    toks = text.split()
    for _ in range(rng.choice([0, 0, 0, 1, 2, 3, 4, 6])):
        if not toks:
            break
        k = rng.randrange(len(toks))
        op = rng.randrange(6)
        if op == 0:
            del toks[k]
        elif op == 1:
            toks.insert(k, toks[k])
        elif op == 2:
            j = rng.randrange(len(toks))
            toks[k], toks[j] = toks[j], toks[k]
        elif op == 3 and len(toks[k]) > 3:
            i = rng.randrange(len(toks[k]) - 1)
            t = toks[k]
            toks[k] = t[:i] + t[i + 1] + t[i] + t[i + 2:]
        elif op == 4:
            toks[k] = toks[k].upper()
        else:
            toks[k] += rng.choice(UNICODE + PUNCT)
    return " ".join(toks)


def _episode(rng: random.Random, w: Words) -> str:
    return _mutate(rng, rng.choice(w.episodes)[1]) if w.episodes else _clause(rng, w)


def _refs(rng: random.Random, w: Words) -> str:
    return rng.choice(GLUE).join(_clause(rng, w) for _ in range(rng.randint(1, 6)))


def _chain(rng: random.Random, w: Words) -> str:
    words_ = [rng.choice(["go to", "avoid", "visit", "stay near"]), "the", rng.choice(w.categories)]
    for _ in range(rng.randint(5, 60)):
        words_ += [rng.choice(w.modifiers), rng.choice(["the", "a", "the " + rng.choice(w.ordinals)]),
                   rng.choice(w.categories)]
    return " ".join(words_)


def _soup(rng: random.Random, w: Words) -> str:
    return " ".join(rng.choice(w.phrases) for _ in range(rng.randint(1, 120)))


def _junk(rng: random.Random, w: Words) -> str:
    parts: list[str] = []
    for _ in range(rng.randint(1, 80)):
        r = rng.random()
        if r < 0.3:
            parts.append("".join(rng.choice(UNICODE) for _ in range(rng.randint(1, 8))))
        elif r < 0.5:
            parts.append("".join(rng.choice(PUNCT) for _ in range(rng.randint(1, 8))))
        elif r < 0.6:
            parts.append(str(rng.choice([0, -1, 10**rng.randint(1, 30), 3.14, float("nan")])))
        elif r < 0.65:
            parts.append(rng.choice("abcxyz") * rng.randint(50, 400))  # one long token
        else:
            parts.append(rng.choice(w.phrases))
    return rng.choice(["", " ", "  "]).join(parts)


def _mixed(rng: random.Random, w: Words) -> str:
    out = ""
    limit = rng.randint(200, MAX_INSTRUCTION_CHARS)
    while len(out) < limit:
        out += rng.choice(GLUE) + rng.choice([_episode, _refs, _chain, _soup, _junk])(rng, w)
    return out


def _long(rng: random.Random, w: Words) -> str:
    clause = _clause(rng, w)
    out = clause
    while len(out) + len(clause) + 2 <= MAX_INSTRUCTION_CHARS:
        out += rng.choice(GLUE) + clause
    return out


def _over(rng: random.Random, w: Words) -> str:
    out = _long(rng, w)
    while len(out) <= MAX_INSTRUCTION_CHARS:
        out += " " + _clause(rng, w)
    return out


_MAKERS: dict[str, Callable[[random.Random, Words], str]] = {
    "episode": _episode, "refs": _refs, "chain": _chain, "soup": _soup, "junk": _junk,
    "mixed": _mixed, "long": _long, "over": _over,
}


def fuzz_instructions(count: int, *, seed: int = 16,
                      scene: str | None = None) -> list[tuple[str, str]]:
    """``count`` ``(kind, instruction)`` pairs, the same for the same ``seed`` and ``scene``.

    Every kind but ``over`` is at most :data:`MAX_INSTRUCTION_CHARS` long; ``over`` is longer.
    ``scene``: the ``episode`` kind draws from that scene's episodes (all when it has none),
    so its references can resolve and the route path plans.
    """
    rng = random.Random(seed)
    w = words()
    own = tuple(e for e in w.episodes if e[0] == scene)
    if own:
        w = dataclasses.replace(w, episodes=own)
    kinds = list(KINDS)
    out: list[tuple[str, str]] = []
    for kind in rng.choices(kinds, weights=[KINDS[k] for k in kinds], k=count):
        text = _MAKERS[kind](rng, w)
        if kind != "over":
            text = text[:MAX_INSTRUCTION_CHARS]
        out.append((kind, text))
    return out

