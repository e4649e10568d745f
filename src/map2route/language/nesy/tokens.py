"""Stage 1 of the NeSy-Route query parser: tokens, spelling, stems and clauses.

Normalises a query (lower case, hyphens split, "n't" expanded, casual spellings and
abbreviations expanded), corrects misspelt words against the parser's vocabulary
(rapidfuzz's OSA distance), reads plurals as singulars (:mod:`map2route.language.inflection`), strips the "from ... to ..." phrase that
names the route's ends, and cuts the tokens into clauses.

Hand-written rules, not a grammar library: the queries are informal (typos, fragments,
self-corrections), and each rule here is a short, tested pattern over tokens; a grammar
(lark) or spaCy's Matcher would need these same patterns plus a parse that fragments break.
"""

from __future__ import annotations

import re

from rapidfuzz import process
from rapidfuzz.distance import OSA

from map2route.language.inflection import singular_word
from map2route.language.nesy.lexicon import (
    ABBREVIATIONS,
    AGENT_WORDS,
    AMBIGUOUS_AGENT_WORDS,
    CLASS_FALSE_FRIENDS,
    CLASS_WORDS,
    EVERYTHING_SELF,
    EVERYTHING_WORDS,
    EXCEPTION_WORDS,
    FLIPPABLE_NEGATIVES,
    NEGATIVE_CUES,
    NEGATORS,
    OBJECTIVE_WORDS,
    POSITIVE_CUES,
    ROUTE_PREPOSITIONS,
    mapping,
    phrase_tuple,
    words,
)
from map2route.language.nesy.wordnet import is_common_word

LIST_GLUE = words("list_glue")
_STOP_AFTER_TO = words("stop_after_to")
#: Words allowed between a negator and the cue it composes with ("is not to be used").
FILLER = words("filler")
#: "the only thing to avoid is X": words between "only" and its prohibition.
ONLY_GLUE = words("only_glue")
#: Modifiers that keep their own class in a compound ("bare yard", "grassy verge").
ADJECTIVES = words("adjectives")
ROAD = 3
DEVELOPED = 2
#: Classes whose noun names the surface of a developed-space head ("gravel forecourt",
#: "grass yard"): the surface, not the use, is the land cover.
SURFACE_CLASSES = {0, 1}
#: Heads that name a parcel, not a cover: the modifier says what grows there.
PARCEL_HEADS = words("parcel_heads")
TREE = 4
#: What may follow a route word that has no object of its own ("drive across if it helps").
STRANDED_NEXT = words("stranded_next")
#: Words between a restriction and what it names ("only where it is grass").
RESTRICT_GLUE = words("restrict_glue")
COPULA = words("copula")
#: Generic nouns after a class word ("agricultural land", "rangeland areas").
LAND_NOUNS = words("land_nouns")
#: A clause without cues that carries one of these repeats the previous clause's polarity
#: ("rocky ground is no problem; grassy slopes too").
ELLIPSIS = words("ellipsis")
#: Words that may trail an elliptic clause ("and the woods too I guess").
HEDGES = words("hedges")
#: Negators that also act as determiners ("no farmland"): never a postposed predicate.
DETERMINER_CUES = words("determiner_cues")
#: Negators that cancel an objective word right after them ("not in a hurry", "no rush").
OBJECTIVE_NEGATORS = words("objective_negators")
#: Casual spellings and apostrophe-less contractions, normalised before matching.
_CASUAL = mapping("casual")
#: Contrast words that split clauses ("however" only when not parenthetical).
_CONTRAST = words("contrast")
#: "anything but X" = "anything except X": "but" after these words is no contrast.
_BUT_EXCEPT_AFTER = words("but_except_after")
#: Common words one edit away from a lexicon word, never spelling-corrected.
_NO_CORRECTION = words("no_correction")


_STOPWORDS = words("stopwords")


def unknown_noun(token: str) -> bool:
    """A word WordNet may be asked about: alphabetic, 4+ letters, in no lexicon table."""
    return len(token) >= 4 and token.isalpha() and token not in _STOPWORDS and \
        token not in _VOCAB and singular_word(token) not in _VOCAB_STEMS


def _stem_phrase(phrase: str) -> tuple[str, ...]:
    return tuple(singular_word(w) for w in phrase.split())


AGENT_SORTED = sorted([*((_stem_phrase(p), (a,), w) for a, words in AGENT_WORDS.items()
                          for p, w in words),
                        *((_stem_phrase(p), agents, 2) for p, agents in
                          AMBIGUOUS_AGENT_WORDS.items())], key=lambda paw: -len(paw[0]))
FALSE_FRIENDS_SORTED = sorted((_stem_phrase(p) for p in CLASS_FALSE_FRIENDS), key=lambda p: -len(p))
CLASS_SORTED = sorted(((_stem_phrase(p), c) for c, ps in CLASS_WORDS.items() for p in ps),
                       key=lambda pc: -len(pc[0]))
NEG_SORTED = sorted(set(NEGATIVE_CUES), key=lambda p: -len(p.split()))
POS_SORTED = sorted(set(POSITIVE_CUES), key=lambda p: -len(p.split()))
OBJECTIVE_STEMS = [(p, o, w, _stem_phrase(p))
                    for p, o, w in sorted(OBJECTIVE_WORDS, key=lambda pow_: -len(pow_[0].split()))]
EXC_SORTED = sorted(EXCEPTION_WORDS, key=lambda p: -len(p.split()))
NEGATOR_SET = set(NEGATORS)
EXCEPTION_FIRST = {p.split()[0] for p in EXCEPTION_WORDS}
FLIPPABLE_SET = set(FLIPPABLE_NEGATIVES)
CUE_WORDS = {p for p in (*NEGATIVE_CUES, *POSITIVE_CUES) if " " not in p}
#: Every word the tables know; unknown words are spelling-corrected towards the content words.
_VOCAB = {w for table in (NEGATIVE_CUES, POSITIVE_CUES, EXCEPTION_WORDS, EVERYTHING_WORDS,
                          EVERYTHING_SELF) for p in table for w in p.split()}
_CONTENT = {w for words in AGENT_WORDS.values() for p, _ in words for w in p.split()} | \
    {w for p in AMBIGUOUS_AGENT_WORDS for w in p.split()} | \
    {w for p, _, _ in OBJECTIVE_WORDS for w in p.split()} | \
    {w for ps in CLASS_WORDS.values() for p in ps for w in p.split()}
_VOCAB |= _CONTENT | ROUTE_PREPOSITIONS | FILLER
_VOCAB_STEMS = {singular_word(w) for w in _VOCAB}
_TARGETS_BY_LETTER: dict[str, list[str]] = {}
for _w in sorted(_CONTENT):
    if len(_w) >= 5 and _w.isalpha():
        _TARGETS_BY_LETTER.setdefault(_w[0], []).append(_w)
#: Cue words corrected at one edit only ("forbiden", "alowed"): at two, "traversal" would
#: become "traversable".
_CUE_TARGETS_BY_LETTER: dict[str, list[str]] = {}
for _w in sorted(w for w in CUE_WORDS if len(w) >= 7 and w.isalpha()):
    _CUE_TARGETS_BY_LETTER.setdefault(_w[0], []).append(_w)


def _correct(token: str) -> str:
    """Spelling correction of an unknown word of 6+ letters towards the lexicons' content words
    (optimal string alignment distance 1, 2 from 9 letters; the first letter must agree).

    A five-letter word is corrected only by swapping two adjacent letters ("drnoe" -> "drone",
    "feild" -> "field"): one substitution in a short word too often makes another real word.
    """
    if len(token) < 5 or not token.isalpha() or token in _VOCAB or token in _NO_CORRECTION \
            or singular_word(token) in _VOCAB_STEMS or is_common_word(token):
        return token  # a real word ("follow") is no typo of a lexicon word ("fallow")
    if len(token) == 5:
        # a swap of adjacent letters ("drnoe"), or a doubled letter written once ("baren")
        return next((w for w in _TARGETS_BY_LETTER.get(token[0], [])
                     if (len(w) == 5 and sorted(w) == sorted(token)
                         and OSA.distance(token, w) == 1)
                     or (len(w) == 6 and any(w[k] == w[k + 1] and w[:k] + w[k + 1:] == token
                                             for k in range(5)))), token)
    cutoff = 1 if len(token) < 9 else 2
    best = process.extractOne(token, _TARGETS_BY_LETTER.get(token[0], []),
                              scorer=OSA.distance, score_cutoff=cutoff) or \
        process.extractOne(token, _CUE_TARGETS_BY_LETTER.get(token[0], []),
                           scorer=OSA.distance, score_cutoff=1)
    if best is None or _inflection_of(token, str(best[0])):
        return token
    return str(best[0])


_INFLECTIONS = phrase_tuple("inflections")


def _inflection_of(token: str, target: str) -> bool:
    """Whether ``token`` differs from ``target`` only in an inflectional ending ("camped" vs
    "camper", "cruiser" vs "cruise"): another word, not a typo of it."""
    k = 0
    while k < min(len(token), len(target)) and token[k] == target[k]:
        k += 1
    return k >= 4 and any(token[k:] == a and target[k:] == b for a in ("", *_INFLECTIONS)
                          for b in ("", *_INFLECTIONS) if a != b)


def tokenize(text: str) -> list[str]:
    """Normalised word tokens: lower case, line breaks read as sentence ends, possessive 's
    dropped, "n't" expanded, hyphens split words, casual spellings and abbreviations ("veh", "bldgs", "+") expanded, unknown
    words spelling-corrected."""
    norm = text.lower().replace("\u2019", "'")
    # a line break ends a statement: bullet lists and "key: value" forms put one per line
    norm = re.sub(r"[ \t]*\n\s*", " . ", norm.strip())
    norm = re.sub(r"(\w)'s\b", r"\1", norm)
    norm = re.sub(r"\bwon't\b", "will not", norm)
    norm = re.sub(r"\b(can't|cannot)\b", "can not", norm)
    norm = re.sub(r"\bshan't\b", "shall not", norm)
    norm = re.sub(r"(\w)n't\b", r"\1 not", norm)
    # a spaced or long dash separates statements ("trees or dirt - roads only"); a hyphen
    # inside a word only splits it ("bare-land")
    # a pair of spaced dashes encloses an aside ("all terrain - A, B and C - is open")
    norm = re.sub(r"\s+[-\u2013\u2014]\s+([^-\u2013\u2014.;!?]{1,80}?)\s+[-\u2013\u2014]\s+",
                  r" ( \1 ) ", norm)
    # (before a short verdict the dash reads as a colon: "Forest - yes.")
    norm = re.sub(r"(?:\s+[-\u2013\u2014]+\s+|[\u2013\u2014]+)(?=\s*(\w+\s*){1,3}[.;!?,\n]|\s*(\w+\s*){1,2}$)",
                  " : ", norm)
    norm = re.sub(r"\s+[-\u2013\u2014]+\s+|[\u2013\u2014]+", " ; ", norm)
    norm = norm.replace("-", " ").replace("/", " ")
    # "keep her off", "steer the van clear of": the object pronoun splits a phrasal cue
    norm = re.sub(r"\b(keep|keeps|keeping|kept|stay|stays|staying|steer|steering)\s+"
                  r"(?:her|him|them|it|us|me|the (?:vehicle|drone|car|van|boat|truck|team|group|party|"
                  r"uav|walkers?|hikers?))\s+(off|out|away|clear)\b", r"\1 \2",
                  norm)
    tokens = re.findall(r"[a-z0-9]+(?:'[a-z0-9]+)*|[.;:!?,()&+]", norm)
    out: list[str] = []
    for t in tokens:
        if t in _CASUAL:
            out.extend(_CASUAL[t].split())
        elif t in ABBREVIATIONS:
            out.extend(ABBREVIATIONS[t].split())
        else:
            out.append(_correct(t))
    return out


def find(tokens: list[str], phrase: str) -> list[int]:
    words = phrase.split()
    n, first = len(words), words[0]
    return [i for i, t in enumerate(tokens[:len(tokens) - n + 1])
            if t == first and tokens[i:i + n] == words]


def find_stems(stems: list[str], phrase: tuple[str, ...]) -> list[int]:
    n, first = len(phrase), phrase[0]
    return [i for i, t in enumerate(stems[:len(stems) - n + 1])
            if t == first and tuple(stems[i:i + n]) == phrase]


def strip_from_to(tokens: list[str]) -> list[str]:
    """Blank out "from <place> to <place>" so start/end mentions are not read as permissions."""
    out = list(tokens)
    i = 0
    while i < len(out):
        if out[i] == "from":
            j = i + 1
            while j < len(out) and j - i <= 7 and out[j] not in ".;:!?,()" and out[j] != "to":
                j += 1
            if j < len(out) and out[j] == "to" and j - i <= 7:
                k = j + 1
                if k < len(out) and out[k] in ("the", "a", "an"):
                    k += 1
                words = 0
                while k < len(out) and words < 3 and out[k] not in ".;:!?,()" and \
                        out[k] not in _STOP_AFTER_TO:
                    k += 1
                    words += 1
                for m in range(i, k):
                    out[m] = "_"
                i = k
                continue
        i += 1
    return out


def split_clauses(tokens: list[str]) -> list[tuple[list[str], bool]]:
    """Split on sentence ends, semicolons and contrast words (but, however, while, whereas);
    each clause comes with whether it ended with a question mark.

    "anything but X" reads as "anything except X"; a parenthetical ", however," is a comma.
    """
    out: list[tuple[list[str], bool]] = [([], False)]
    for i, t in enumerate(tokens):
        prev = tokens[i - 1] if i else ""
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if t == "but" and prev in _BUT_EXCEPT_AFTER:
            out[-1][0].append("except")
        elif t in _CONTRAST and prev == "," and nxt == ",":
            out[-1][0].append(",")
        elif t in (".", ";", "!", "?") or t in _CONTRAST:
            if t == "?" and out[-1][0]:
                out[-1] = (out[-1][0], True)
            out.append(([], False))
        else:
            out[-1][0].append(t)
    return [c for c in out if c[0]]


#: Words that open a reply to a yes/no question ("Over the forest? Yes.").
