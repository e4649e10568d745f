"""Natural-language NeSy-Route queries: a template writer, an LLM writer with the paper's
self-check (Eq. 4), and the offline parser our solver uses (query -> agent, objective,
explicit permissions -> vectors).

A query configuration is ``sigma = (agent, objective, C_start/end, C_allowed)`` (section 3.3.1);
``C_allowed`` holds the conditionally traversable classes the query explicitly permits. Every
query states its permissions in words; start and end classes appear only in a "from ... to ..."
phrase, which the parser strips before reading permissions.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rapidfuzz import process
from rapidfuzz.distance import OSA

from map2route.nesy.errors import NesyError
from map2route.nesy.kb import (
    CLASS_NAMES,
    TRAVERSABILITY,
    Agent,
    Objective,
    Vectors,
    derive_vectors,
)
from map2route.nesy.lexicon import (
    ABBREVIATIONS,
    AGENT_PLACE_HEADS,
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
    RESTRICT_AFTER,
    RESTRICT_BEFORE,
    ROAM_VERBS,
    ROUTE_PREPOSITIONS,
    SETTING_WORDS,
    WORDNET_AGENTS,
    WORDNET_CLASSES,
)
from map2route.nesy.wordnet import is_common_word, noun_category

if TYPE_CHECKING:
    from map2route.llm import ChatClient


@dataclass(frozen=True)
class QuerySpec:
    """A sampled configuration sigma (section 3.3.1)."""

    agent: Agent
    objective: Objective
    allowed: frozenset[int]
    start_class: int
    end_class: int
    #: Classes the query forbids, always traversable ones included.
    excluded: frozenset[int] = frozenset()

    def vectors(self) -> Vectors:
        """Ground-truth vectors ``f_KB(sigma)`` (Eq. 3)."""
        return derive_vectors(self.agent, self.objective, self.allowed, excluded=self.excluded)


@dataclass(frozen=True)
class ParsedQuery:
    """What the offline parser read from a query."""

    agent: Agent
    objective: Objective
    allowed: frozenset[int]
    agent_found: bool
    objective_found: bool
    #: Classes the query forbids, always traversable ones included.
    excluded: frozenset[int] = frozenset()

    def vectors(self) -> Vectors:
        return derive_vectors(self.agent, self.objective, self.allowed, excluded=self.excluded)


# --- the template writer ------------------------------------------------------------------------
AGENT_NOUNS = {
    Agent.PEDESTRIAN: ["a hiker", "a pedestrian", "a field surveyor on foot", "a rescue worker on foot",
                       "a jogger", "a walker", "a backpacker", "an ecologist walking the site"],
    Agent.CAR: ["a car", "an off-road vehicle", "an ambulance", "a delivery van", "a truck",
                "a patrol car", "a 4x4", "a fire engine"],
    Agent.DRONE: ["a drone", "a UAV", "a quadcopter", "a survey drone", "an unmanned aerial vehicle"],
    Agent.BOAT: ["a boat", "a rescue boat", "a kayak", "a patrol vessel", "a motorboat", "a canoe"],
}
OBJECTIVE_PHRASES = {
    Objective.FASTEST: ["the fastest route", "the quickest way", "a route that gets there as fast as "
                        "possible", "the route with the least travel time", "the quickest path"],
    Objective.COMFORT: ["the most comfortable route", "the most pleasant way", "the smoothest, most "
                        "comfortable path", "an easy and comfortable route"],
    Objective.SAFEST: ["the safest route", "the least risky path", "the safest possible way",
                       "a route that minimises risk"],
    Objective.SHORTEST: ["the shortest route", "the most direct path", "the route of minimum "
                         "distance", "the shortest path"],
}
CLASS_PHRASES = {
    0: ["bare land", "bare ground", "barren land", "bare soil"],
    1: ["rangeland", "grassland", "meadows", "grass and scrub"],
    2: ["developed areas", "paved developed land", "built-up areas"],
    3: ["roads", "the road network", "streets"],
    4: ["trees", "forest", "woodland", "wooded areas"],
    5: ["water", "open water", "the lake"],
    6: ["agricultural land", "farmland", "crop fields", "cultivated fields"],
    7: ["buildings", "rooftops", "built structures"],
}
PLACE_PHRASES = {
    0: ["the bare land", "the patch of bare ground"], 1: ["the rangeland", "the grassland"],
    2: ["the developed area", "the built-up area"], 3: ["the road", "the main road"],
    4: ["the forest", "the woods"], 5: ["the water", "the lake"],
    6: ["the farmland", "the fields"], 7: ["the building", "the building block"],
}
ALLOW_TEMPLATES = ["It may cross {x}.", "Crossing {x} is permitted.", "Passing through {x} is allowed.",
                   "It is fine to go over {x}.", "Travel across {x} is acceptable."]
DENY_TEMPLATES = ["It must stay out of {x}.", "{X} is off limits.", "It must not enter {x}.",
                  "Avoid {x}."]
ONLY_DEFAULT = ["Keep to the always-passable terrain only.", "No other terrain is permitted."]


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def write_query(spec: QuerySpec, rng: random.Random) -> str:
    """A natural-language query for ``spec`` from varied templates (no LLM needed)."""
    who = rng.choice(AGENT_NOUNS[spec.agent])
    goal = rng.choice(OBJECTIVE_PHRASES[spec.objective])
    src = rng.choice(PLACE_PHRASES[spec.start_class])
    dst = rng.choice(PLACE_PHRASES[spec.end_class])
    if spec.start_class == spec.end_class:
        src, dst = f"one side of {src[4:]}", "the other side"
    opener = rng.choice([
        f"Plan {goal} for {who} from {src} to {dst}.",
        f"{who[0].upper() + who[1:]} must travel from {src} to {dst} and needs {goal}.",
        f"Find {goal} for {who} going from {src} to {dst}.",
        f"We are sending {who} from {src} to {dst}; we want {goal}.",
    ])
    parts = [opener]
    cond = sorted(TRAVERSABILITY[spec.agent][1])
    allowed = [c for c in cond if c in spec.allowed]
    denied = [c for c in cond if c not in spec.allowed]
    if allowed:
        x = _join([rng.choice(CLASS_PHRASES[c]) for c in allowed])
        parts.append(rng.choice(ALLOW_TEMPLATES).format(x=x, X=x[0].upper() + x[1:]))
    if denied and (not allowed or rng.random() < 0.6):
        x = _join([rng.choice(CLASS_PHRASES[c]) for c in denied])
        parts.append(rng.choice(DENY_TEMPLATES).format(x=x, X=x[0].upper() + x[1:]))
    elif not allowed and cond:
        parts.append(rng.choice(ONLY_DEFAULT))
    return " ".join(parts)


# --- the LLM writer with self-check (Eq. 4) ------------------------------------------------------
WRITER_PROMPT = (
    "Write one realistic route-planning request (2-4 sentences, a small mission scenario) for "
    "this configuration. Agent: {agent}. Objective: {objective}. Start on {start}; end on {end}. "
    "The agent may explicitly use these normally-restricted terrains: {allowed}. It must not use: "
    "{denied}. State every permission and restriction in plain words. Reply with the text only."
)
CHECK_PROMPT = (
    "Read the route-planning request and answer with JSON only: {{\"agent\": one of "
    "pedestrian|car|drone|boat, \"objective\": one of fastest|comfort|safest|shortest, "
    "\"allowed\": list of the terrains the text explicitly permits, from "
    "bareland|rangeland|tree|agriculture|building}}.\n\nRequest: {query}"
)


def _spec_words(spec: QuerySpec) -> dict[str, str]:
    cond = sorted(TRAVERSABILITY[spec.agent][1])
    allowed = [CLASS_NAMES[c] for c in cond if c in spec.allowed] or ["none"]
    denied = [CLASS_NAMES[c] for c in cond if c not in spec.allowed] or ["none"]
    return {"agent": spec.agent.value, "objective": spec.objective.value,
            "start": CLASS_NAMES[spec.start_class], "end": CLASS_NAMES[spec.end_class],
            "allowed": ", ".join(allowed), "denied": ", ".join(denied)}


def self_infer(client: ChatClient, query: str) -> Vectors | None:
    """``P_self(Q)``: ask the model to re-derive the configuration, then the KB gives vectors.

    Returns:
        The re-derived vectors, or None if the reply is not the asked-for JSON.
    """
    reply = client.complete([{"role": "user", "content": CHECK_PROMPT.format(query=query)}])
    match = re.search(r"\{.*\}", reply, flags=re.S)
    if not match:
        return None
    try:
        data: Any = json.loads(match.group(0))
        agent = Agent(str(data["agent"]).lower())
        objective = Objective(str(data["objective"]).lower())
        allowed = {CLASS_NAMES.index(str(n).lower()) for n in data.get("allowed", [])}
        return derive_vectors(agent, objective, allowed)
    except (KeyError, ValueError, TypeError, NesyError):
        return None


def llm_write_query(client: ChatClient, spec: QuerySpec, *, attempts: int = 3) -> str:
    """Write ``Q = M(sigma)`` with an LLM and keep it only if ``P_self(Q)`` matches the KB.

    Raises:
        NesyError: if no attempt passes the self-check.
    """
    gt = spec.vectors()
    prompt = WRITER_PROMPT.format(**_spec_words(spec))
    for attempt in range(attempts):
        query = client.complete([{"role": "user", "content": prompt}],
                                temperature=0.7 if attempt else 0.3).strip()
        if query and self_infer(client, query) == gt:
            return query
    msg = (f"the LLM writer produced no query whose self-inferred vectors match the KB for "
           f"{spec.agent.value}/{spec.objective.value} after {attempts} attempts; check the model "
           f"or use the template writer (omit --llm-config)")
    raise NesyError(msg)


# --- the offline parser -------------------------------------------------------------------------
_LIST_GLUE = {"and", "or", "the", "a", ",", "also", "both", "either"}
_STOP_AFTER_TO = {"in", "by", "as", "with", "while", "and", "but", "for", "using", "via",
                  "through", "across", "over", "on", "is", "are"}
#: Words allowed between a negator and the cue it composes with ("is not to be used").
_FILLER = {"be", "is", "are", "to", "a", "an", "at", "all", "really", "been", "it", "ever",
           "we", "you", "they", "i", "he", "she", "the", "any", "even", "so", "too", "being",
           "get"}
#: "the only thing to avoid is X": words between "only" and its prohibition.
_ONLY_GLUE = {"thing", "things", "to", "is", "we", "you", "must", "need", "have", "should", "one",
              "place", "terrain", "area", "it", "i", "they", "really", "restriction", "rule"}
#: Modifiers that keep their own class in a compound ("bare yard", "grassy verge").
_ADJECTIVES = {"bare", "sandy", "rocky", "grassy", "wooded", "forested", "paved", "agricultural",
               "cultivated", "arable", "barren", "leafy", "dusty", "overgrown", "ploughed",
               "plowed", "fallow", "urban", "developed", "tilled", "planted", "built", "stony"}
_ROAD = 3
_DEVELOPED = 2
#: Classes whose noun names the surface of a developed-space head ("gravel forecourt",
#: "grass yard"): the surface, not the use, is the land cover.
_SURFACE_CLASSES = {0, 1}
#: Heads that name a parcel, not a cover: the modifier says what grows there.
_PARCEL_HEADS = {"paddock", "field", "block"}
_TREE = 4
#: What may follow a route word that has no object of its own ("drive across if it helps").
_STRANDED_NEXT = {"", ",", "if", "when", "whenever", "as", "freely", "there", "where", "(", ")",
                  ":"}
#: Words between a restriction and what it names ("only where it is grass").
_RESTRICT_GLUE = {"the", "a", "an", "it", "is", "are", "there", "where", "on", "in", "over",
                  "across", "through", "its", "their", "to", "using", "use"}
_COPULA = {"is", "are", "was", "were", "be", "seems", "seem", "both", "all", "too", "also"}
#: Generic nouns after a class word ("agricultural land", "rangeland areas").
_LAND_NOUNS = {"land", "lands", "ground", "area", "areas", "terrain", "zone", "zones", "region",
               "regions", "patch", "patches", "surface", "surfaces", "cover", "covered",
               "plain", "plains", "flats", "pan", "strip", "strips", "bit", "bits", "margin",
               "margins", "edge", "edges", "rows", "slope", "slopes", "stretch", "stretches"}
#: A clause without cues that carries one of these repeats the previous clause's polarity
#: ("rocky ground is no problem; grassy slopes too").
_ELLIPSIS = {"too", "also", "likewise", "either", "as well"}
#: Words that may trail an elliptic clause ("and the woods too I guess").
_HEDGES = {"i", "guess", "think", "suppose", "reckon", "probably", "maybe", "then", "please",
           "surely", "presumably", "imagine"}
#: Negators that also act as determiners ("no farmland"): never a postposed predicate.
_DETERMINER_CUES = {"no", "not", "never", "without", "nor", "neither", "none"}
#: Negators that cancel an objective word right after them ("not in a hurry", "no rush").
_OBJECTIVE_NEGATORS = {"not", "no", "never", "without"}
#: Casual spellings and apostrophe-less contractions, normalised before matching.
_CASUAL = {"thru": "through", "u": "you", "ur": "your", "pls": "please", "plz": "please",
           "dont": "do not", "doesnt": "does not", "didnt": "did not", "isnt": "is not",
           "arent": "are not", "wont": "will not", "cant": "can not", "shouldnt": "should not",
           "mustnt": "must not", "couldnt": "could not", "wouldnt": "would not", "tho": "though",
           "ok'd": "approved", "okayed": "approved", "n": "and", "&": "and"}
#: Contrast words that split clauses ("however" only when not parenthetical).
_CONTRAST = {"but", "however", "whereas", "while", "though", "although", "yet"}
#: "anything but X" = "anything except X": "but" after these words is no contrast.
_BUT_EXCEPT_AFTER = {"anything", "everything", "all", "anywhere", "terrain", "everywhere"}
#: Common words one edit away from a lexicon word, never spelling-corrected.
_NO_CORRECTION = {"horses", "horse", "riders", "rider", "wooden", "later", "hours", "worse",
                  "forget", "forever", "formal", "either", "bridge", "builder", "moored",
                  "rather", "father", "mother", "further", "leaves", "driver", "drivers",
                  "drives", "fields", "heaven", "rooted", "though", "through", "thought"}


def _stem(word: str) -> str:
    """Light plural stemmer for lexicon matching: paddocks -> paddock, lorries -> lorry."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    if word.endswith(("ss", "us", "is", "ous")):
        return word
    return word[:-1] if word.endswith("s") else word


_STOPWORDS = {"this", "that", "there", "here", "then", "than", "with", "from", "into", "they",
              "them", "their", "your", "what", "when", "where", "which", "while", "would",
              "could", "should", "about", "after", "before", "please", "thanks", "just", "also",
              "only", "very", "much", "some", "more", "most", "other", "over", "down", "back",
              "will", "have", "been", "were", "does", "done", "make", "need", "want", "like",
              "going", "route", "path", "trip", "mission", "agent", "task", "region", "area",
              "point", "place", "zone", "side", "edge", "start", "goal", "end", "time", "ride"}


def _unknown_noun(token: str) -> bool:
    """A word WordNet may be asked about: alphabetic, 4+ letters, in no lexicon table."""
    return len(token) >= 4 and token.isalpha() and token not in _STOPWORDS and \
        token not in _VOCAB and _stem(token) not in _VOCAB_STEMS


def _stem_phrase(phrase: str) -> tuple[str, ...]:
    return tuple(_stem(w) for w in phrase.split())


_AGENT_SORTED = sorted([*((_stem_phrase(p), (a,), w) for a, words in AGENT_WORDS.items()
                          for p, w in words),
                        *((_stem_phrase(p), agents, 2) for p, agents in
                          AMBIGUOUS_AGENT_WORDS.items())], key=lambda paw: -len(paw[0]))
_FALSE_FRIENDS_SORTED = sorted((_stem_phrase(p) for p in CLASS_FALSE_FRIENDS), key=lambda p: -len(p))
_CLASS_SORTED = sorted(((_stem_phrase(p), c) for c, ps in CLASS_WORDS.items() for p in ps),
                       key=lambda pc: -len(pc[0]))
_NEG_SORTED = sorted(set(NEGATIVE_CUES), key=lambda p: -len(p.split()))
_POS_SORTED = sorted(set(POSITIVE_CUES), key=lambda p: -len(p.split()))
_OBJECTIVE_STEMS = [(p, o, w, _stem_phrase(p))
                    for p, o, w in sorted(OBJECTIVE_WORDS, key=lambda pow_: -len(pow_[0].split()))]
_EXC_SORTED = sorted(EXCEPTION_WORDS, key=lambda p: -len(p.split()))
_NEGATOR_SET = set(NEGATORS)
_EXCEPTION_FIRST = {p.split()[0] for p in EXCEPTION_WORDS}
_FLIPPABLE_SET = set(FLIPPABLE_NEGATIVES)
_CUE_WORDS = {p for p in (*NEGATIVE_CUES, *POSITIVE_CUES) if " " not in p}
#: Every word the tables know; unknown words are spelling-corrected towards the content words.
_VOCAB = {w for table in (NEGATIVE_CUES, POSITIVE_CUES, EXCEPTION_WORDS, EVERYTHING_WORDS,
                          EVERYTHING_SELF) for p in table for w in p.split()}
_CONTENT = {w for words in AGENT_WORDS.values() for p, _ in words for w in p.split()} | \
    {w for p in AMBIGUOUS_AGENT_WORDS for w in p.split()} | \
    {w for p, _, _ in OBJECTIVE_WORDS for w in p.split()} | \
    {w for ps in CLASS_WORDS.values() for p in ps for w in p.split()}
_VOCAB |= _CONTENT | ROUTE_PREPOSITIONS | _FILLER
_VOCAB_STEMS = {_stem(w) for w in _VOCAB}
_TARGETS_BY_LETTER: dict[str, list[str]] = {}
for _w in sorted(_CONTENT):
    if len(_w) >= 5 and _w.isalpha():
        _TARGETS_BY_LETTER.setdefault(_w[0], []).append(_w)
#: Cue words corrected at one edit only ("forbiden", "alowed"): at two, "traversal" would
#: become "traversable".
_CUE_TARGETS_BY_LETTER: dict[str, list[str]] = {}
for _w in sorted(w for w in _CUE_WORDS if len(w) >= 7 and w.isalpha()):
    _CUE_TARGETS_BY_LETTER.setdefault(_w[0], []).append(_w)


def _correct(token: str) -> str:
    """Spelling correction of an unknown word of 6+ letters towards the lexicons' content words
    (optimal string alignment distance 1, 2 from 9 letters; the first letter must agree).

    A five-letter word is corrected only by swapping two adjacent letters ("drnoe" -> "drone",
    "feild" -> "field"): one substitution in a short word too often makes another real word.
    """
    if len(token) < 5 or not token.isalpha() or token in _VOCAB or token in _NO_CORRECTION \
            or _stem(token) in _VOCAB_STEMS or is_common_word(token):
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


_INFLECTIONS = ("ed", "er", "ers", "es", "ing", "ly", "s", "d", "r")


def _inflection_of(token: str, target: str) -> bool:
    """Whether ``token`` differs from ``target`` only in an inflectional ending ("camped" vs
    "camper", "cruiser" vs "cruise"): another word, not a typo of it."""
    k = 0
    while k < min(len(token), len(target)) and token[k] == target[k]:
        k += 1
    return k >= 4 and any(token[k:] == a and target[k:] == b for a in ("", *_INFLECTIONS)
                          for b in ("", *_INFLECTIONS) if a != b)


def _tokens(text: str) -> list[str]:
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


def _find(tokens: list[str], phrase: str) -> list[int]:
    words = phrase.split()
    n, first = len(words), words[0]
    return [i for i, t in enumerate(tokens[:len(tokens) - n + 1])
            if t == first and tokens[i:i + n] == words]


def _find_stems(stems: list[str], phrase: tuple[str, ...]) -> list[int]:
    n, first = len(phrase), phrase[0]
    return [i for i, t in enumerate(stems[:len(stems) - n + 1])
            if t == first and tuple(stems[i:i + n]) == phrase]


def _strip_from_to(tokens: list[str]) -> list[str]:
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


def _clauses(tokens: list[str]) -> list[tuple[list[str], bool]]:
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
_REPLY_OPENERS = {"it", "they", "that", "those", "this", "these", "he", "she", "we", "you",
                  "yes", "yeah", "yep", "sure", "absolutely", "certainly", "indeed", "also",
                  "of", "definitely", "correct", "affirmative", "negative"}
_REPLY_NO = {"no", "nope", "negative", "never"}
#: Restriction words before or after a list ("roads only", "only roads").
_RESTRICTS = RESTRICT_AFTER + RESTRICT_BEFORE


def _answer_sign(clause: list[str]) -> int:
    """Sign of a short reply to a question about terrain ("No.", "Yes, it may.", "It is.",
    "Also fine.", "Those are off limits."), 0 when the clause is no reply: a reply has at most
    six words and no land-cover mention, or opens with "no" and has at most eight words and
    no positive cue ("No, stick to the road.")."""
    if clause and clause[0] in _REPLY_NO and len(clause) <= 8 and \
            not any(s > 0 for _, s in _cue_positions(clause)):
        return -1  # "No, stick to the road."
    if not clause or len(clause) > 6 or _mentions(clause):
        return 0
    cues = _cue_positions(clause)
    if cues:
        return cues[0][1]
    return 1 if clause[0] in _REPLY_OPENERS else 0


def _match_cues(clause: list[str], tables: list[tuple[int, list[str]]]) -> list[tuple[int, int, int,
                                                                                      str]]:
    """(start, end, sign, phrase) of cue phrases, longest first, earlier tables first."""
    taken = [False] * len(clause)
    cues: list[tuple[int, int, int, str]] = []
    # the longest phrase wins across tables ("lifted the restrictions" over "restrictions")
    ordered = sorted(((sign, phrase) for sign, phrases in tables for phrase in phrases),
                     key=lambda sp: -len(sp[1].split()))
    for sign, phrase in ordered:
        n = len(phrase.split())
        for i in _find(clause, phrase):
            if not any(taken[i:i + n]):
                for m in range(i, i + n):
                    taken[m] = True
                cues.append((i, i + n, sign, phrase))
    return sorted(cues)


def _nothing_forbidden(clause: list[str]) -> set[int]:
    """Positions of prohibitions whose object is "nothing" ("avoid nothing", "nothing is off
    limits"): they permit everything."""
    out: set[int] = set()
    for i in _find(clause, "nothing"):
        if i + 1 < len(clause) and clause[i + 1] in ("else", "more"):
            continue
        for phrase in _FLIPPABLE_SET:
            for q in _find(clause, phrase):
                if q + len(phrase.split()) == i or (
                        0 < q - i <= 3 and all(t in _FILLER for t in clause[i + 1:q])):
                    out.add(q)
    return out


_DESCRIPTIVE_CUES = {"traversable", "passable", "drivable", "driveable", "walkable", "navigable",
                     "crossable", "accessible"}
_RESTRICTION_NOUNS = {"restriction", "restrictions", "ban", "bans", "closed", "restricted",
                      "no fly zone", "exclusion zone"}
_LIFTING = {"lifted", "waived", "rescinded", "revoked", "cancelled", "canceled", "withdrawn"}


def _cue_positions(clause: list[str], *, everything: bool = False) -> list[tuple[int, int]]:
    """(position, +1 / -1) of polarity cues after composition.

    A negator composes with the next cue when only filler words lie between: with a
    prohibition it permits ("not forbidden", "no obstacle", "can not avoid"), with a
    permission it forbids ("do not use", "is not okay"). Exception words ("except", "unless",
    "other than") take the sign opposite to the statement they qualify: the cue before them,
    else an "everything" word (negative), else the cue after them.
    """
    raw = _match_cues(clause, [(0, _EXC_SORTED), (-1, _NEG_SORTED), (1, _POS_SORTED)])
    # "(conditionally) traversable classes" describes terrain, it permits nothing
    # ("Traversable terrain includes A, B" still permits: only a quantified phrase describes)
    raw = [c for c in raw if not (c[3] in _DESCRIPTIVE_CUES and c[1] < len(clause) and
                                   clause[c[1]] in _TERRAIN_HEADS and
                                   set(clause[max(0, c[0] - 3):c[0]]) &
                                   _DESCRIBING_QUANTIFIERS)]
    composed: list[tuple[int, int, int, str]] = []
    i = 0
    while i < len(raw):
        p, e, s, ph = raw[i]
        if ph in _NEGATOR_SET and i + 1 < len(raw):
            q, e2, s2, ph2 = raw[i + 1]
            if q - e <= 3 and all(t in _FILLER for t in clause[e:q]) and s2 != 0 and (
                    s2 > 0 or ph2 in _FLIPPABLE_SET):
                composed.append((p, e2, -s2, ph + " " + ph2))
                i += 2
                continue
        composed.append((p, e, s, ph))
        i += 1
    nothing = _nothing_forbidden(clause)
    composed = [(p, e, 1 if p in nothing else s, ph) for p, e, s, ph in composed]
    # "restrictions over the woods were lifted": a later lifting verb cancels the restriction
    lifted = [p for p, _e, _s, ph in composed if ph in _LIFTING]
    restricting = [p for p, _e, _s, ph in composed if ph in _RESTRICTION_NOUNS]
    composed = [(p, e, 1 if (ph in _RESTRICTION_NOUNS and any(q > p for q in lifted)) or
                 (ph in _LIFTING and any(q < p for q in restricting)) else s, ph)
                for p, e, s, ph in composed]
    out: list[tuple[int, int]] = []
    for k, (p, _e, s, _ph) in enumerate(composed):
        if s == 0:
            before = [c[2] for c in composed[:k] if c[2] != 0]
            after = [c[2] for c in composed[k + 1:] if c[2] != 0]
            if before:
                s = -before[-1]
            elif everything:
                s = -1
            elif after:
                s = -after[0]
            else:
                s = -1
        out.append((p, s))
    return out


def _mentions(clause: list[str]) -> list[tuple[int, int, int]]:
    """(start, end, class index) of land-cover mentions, longest phrase first, no overlaps.

    Phrases match on plural stems; in a noun compound of two mentions ("farm buildings",
    "forest road") the head, the last one, names the class.
    """
    stems = [_stem(t) for t in clause]
    taken = [False] * len(clause)
    for friend in _FALSE_FRIENDS_SORTED:
        for i in _find_stems(stems, friend):
            for m in range(i, i + len(friend)):
                taken[m] = True
    found: list[tuple[int, int, int]] = []
    for phrase, cls in _CLASS_SORTED:
        n = len(phrase)
        for i in _find_stems(stems, phrase):
            if not any(taken[i:i + n]):
                for m in range(i, i + n):
                    taken[m] = True
                found.append((i, i + n, cls))
    # a noun no table lists, by what WordNet says it is a kind of ("veld" is a grassland)
    for i, t in enumerate(clause):
        if not taken[i] and _unknown_noun(t):
            known = noun_category(_stem(t), WORDNET_CLASSES)
            if known is not None:
                taken[i] = True
                found.append((i, i + 1, known))
    found.sort()
    out: list[tuple[int, int, int]] = []
    for mention in found:
        if out and out[-1][1] == mention[0]:
            # a compound: the head names the class, except after an adjective ("bare yard"),
            # before a way ("forest trails" are about the forest) and when a surface noun
            # qualifies developed space ("gravel forecourt")
            # "grassland bareland farmland" is a list: a "-land" word is no modifier
            if clause[out[-1][1] - 1].endswith("land"):
                out.append(mention)
                continue
            if clause[out[-1][1] - 1] in _ADJECTIVES or mention[2] == _ROAD or (
                    mention[2] == _DEVELOPED and out[-1][2] in _SURFACE_CLASSES) or (
                    # "pine plantation" is forest, "wheat paddocks" are crops
                    out[-1][2] == _TREE and _stem(clause[mention[1] - 1]) == "plantation") or (
                    _stem(clause[mention[1] - 1]) in _PARCEL_HEADS and mention[1] - mention[0] == 1):
                continue
            # the compound spans both words ("farm fields")
            mention = (out.pop()[0], mention[1], mention[2])
        out.append(mention)
    # a class word naming a facility is a place name ("the beach hotel", "the farm shop")
    out = [m for m in out if not (m[1] < len(clause) and clause[m[1]] in _FACILITY_NOUNS)]
    return _identities(clause, out)


_FACILITY_NOUNS = {"hotel", "shop", "cafe", "restaurant", "pub", "inn", "bar", "station",
                   "office", "school", "museum", "library", "club", "lodge", "gate", "entrance",
                   "centre", "center", "market", "stop", "bridge", "viewpoint", "trailhead",
                   "hostel", "motel", "resort", "kiosk", "clinic", "hospital", "depot", "port",
                   "terminal", "visitor", "headquarters", "hq", "base", "campsite", "campground",
                   "bakery", "store", "mall", "cinema", "theatre", "theater",
                   "academy", "university", "college", "stadium", "apartments"}


#: Copulas of "X is Y" ("the festival field is hard standing grassland").
_IS = {"is", "are", "was", "were"}
#: Words that end a description "X is <description> Y" (a preposition makes Y another place).
_NOT_DESCRIPTION = {"of", "in", "on", "with", "by", "near", "next", "beside", "behind", "to",
                    "from", "for", "over", "through", "across", "into", "and", "or", "but",
                    "than", "like", "not", "no", "never", "beyond", "around", "past", "after"}


def _identities(clause: list[str], mentions: list[tuple[int, int, int]]
                ) -> list[tuple[int, int, int]]:
    """"X is (a) Y" with two mentions describes X as Y: the predicate names the class, so the
    subject is dropped ("the festival field is grassland" is about grassland)."""
    out: list[tuple[int, int, int]] = []
    for k, m in enumerate(mentions):
        nxt = mentions[k + 1] if k + 1 < len(mentions) else None
        if nxt is not None and m[1] < len(clause) and clause[m[1]] in _IS and \
                nxt[0] - m[1] <= 4 and not any(
                    t in _NOT_DESCRIPTION or not t.isalpha() or t in _CUE_WORDS
                    for t in clause[m[1] + 1:nxt[0]]):
            continue
        out.append(m)
    return out


def _governing(cues: list[tuple[int, int]], pos: int, postposed: frozenset[int] = frozenset()
               ) -> int:
    """Sign of the cue that governs a mention: the last one before it, else the first after.

    A cue postposed to an earlier mention ("trees ok buildings not ok": "ok" belongs to
    "trees") does not govern a later one when another cue can.
    """
    before = [(p, s) for p, s in cues if p < pos]
    free = [(p, s) for p, s in before if p not in postposed]
    after = [(p, s) for p, s in cues if p > pos]
    if free:
        return free[-1][1]
    if after:
        return after[0][1]
    return before[-1][1]


def _postposed(clause: list[str], cues: list[tuple[int, int]],
               mentions: list[tuple[int, int, int]]) -> frozenset[int]:
    """Positions of cues that directly follow a mention, copulas aside ("the forest is fine")."""
    ends = {e for _, e, _ in mentions}
    starts = {b for b, _, _ in mentions}
    out = set()
    for p, _s in cues:
        k = p
        while k > 0 and clause[k - 1] in _COPULA | _LAND_NOUNS:
            k -= 1
        determiner = clause[p] in _DETERMINER_CUES and p + 1 < len(clause) and (
            p + 1 in starts or clause[p + 1] in ("the", "a", "an", "any"))
        if k in ends and clause[p] not in _EXCEPTION_FIRST and not determiner:
            out.add(p)
    return frozenset(out)


_MOTION_VERBS = ROAM_VERBS | {"drive", "driving", "drives", "walk", "walking", "walks", "ride",
                             "riding", "rides", "hike", "hiking", "run", "running", "jog",
                             "jogging", "go", "going", "travel", "travelling", "traveling",
                             "continue", "proceed", "tread", "step"}


def _motion_on(window: list[str]) -> bool:
    """"drive on dirt", "walk on the grass": a motion verb with "on" before the mention."""
    return any(t == "on" and k and window[k - 1] in _MOTION_VERBS or
               (t == "on" and k > 1 and window[k - 2] in _MOTION_VERBS and
                window[k - 1] in ("out", "about", "around"))
               for k, t in enumerate(window))


def _motion_onto_pronoun(clause: list[str], end: int) -> bool:
    """"the grassland ... I'll walk on it": a route word or "on" before a pronoun later in the
    clause, not negated, refers back to the mention; so does a route word left without an
    object ("the field is hard, drive across if it helps")."""
    for k in range(end, len(clause)):
        nxt = clause[k + 1] if k + 1 < len(clause) else ""
        pronoun = clause[k] in (*ROUTE_PREPOSITIONS, "on") and nxt in ("it", "them")
        stranded = clause[k] in ROUTE_PREPOSITIONS and nxt in _STRANDED_NEXT
        if (pronoun or stranded) and \
                not set(clause[max(end, k - 4):k]) & (_DETERMINER_CUES | _NEGATOR_SET):
            return True
    return False


_QUANTIFIERS = {"all", "any", "every", "each"}
_NEGATIVE_WORDS = {p for p in NEGATIVE_CUES if " " not in p}
_TERRAIN_HEADS = {"class", "classes", "terrain", "terrains", "surface", "surfaces", "ground",
                  "cover", "covers", "type", "types", "category", "categories", "landcover",
                  "landcovers"}


def _has_everything(clause: list[str], mentions: list[tuple[int, int, int]]) -> tuple[int, int]:
    """Span of the first "everything" phrase in the clause, or (-1, -1): a listed phrase, or a
    quantifier before a terrain noun with up to three words between ("all conditional
    classes", "any drivable terrain")."""
    hits = [(i, i + len(w.split())) for w in EVERYTHING_WORDS for i in _find(clause, w)]
    mentioned = {k for b, e, _ in mentions for k in range(b, e)}
    for i, t in enumerate(clause):
        if t in _QUANTIFIERS:
            for k in range(i + 1, min(i + 5, len(clause))):
                if clause[k] in _TERRAIN_HEADS:
                    hits.append((i, k + 1))
                    break
                if k in mentioned or not clause[k].isalpha() or clause[k] in _NEGATIVE_WORDS:
                    break
    return min(hits) if hits else (-1, -1)


def _only_complement(clause: list[str], cues: list[tuple[int, int]],
                     mentions: list[tuple[int, int, int]], conditional: frozenset[int]) -> bool:
    """"only the grassland is off limits" / "the only thing to avoid is X": all else permitted."""
    for oi in _find(clause, "only"):
        # "avoid only the bog"
        if oi and clause[oi - 1] not in _NEGATOR_SET and any(
                s < 0 and 0 < oi - p <= 3 and not set(clause[p:oi]) & {",", ":", "(", ")"}
                for p, s in cues):
            return True
        neg_after = [p for p, s in cues if p > oi and s < 0]
        if not neg_after or any(t in ",:()" for t in clause[oi:neg_after[0]]):
            continue
        if set(clause[oi + 1:neg_after[0]]) <= _ONLY_GLUE:
            return True
        first = next((m for m in mentions if m[0] > oi), None)
        if first is not None and first[0] - oi <= 3 and first[2] in conditional and \
                not any(oi < p < neg_after[0] and s > 0 for p, s in cues) and \
                neg_after[0] > first[0]:
            return True
    return False


def _restricted_to(clause: list[str], mentions: list[tuple[int, int, int]],
                   cue_at: set[int]) -> set[int]:
    """Starts of the mentions a restriction names ("stick to the pavement and lawns",
    "grass only", "only where it is grass"): the agent is confined to them, so they are
    permitted. A list goes on past a comma only to a mention with no cue of its own ("stick
    to roads, the woods are too dense" names only the roads)."""
    starts = {b: (b, e) for b, e, _ in mentions}
    ends = {e: (b, e) for b, e, _ in mentions}
    out: set[int] = set()
    for phrase in RESTRICT_BEFORE:
        for i in _find(clause, phrase):
            k = i + len(phrase.split())
            while k < len(clause) and k - i <= 5 and k not in starts and \
                    clause[k] in _RESTRICT_GLUE:
                k += 1
            while k in starts:
                out.add(k)
                k = starts[k][1]
                comma = False
                while k < len(clause) and clause[k] in _LIST_GLUE and k not in starts:
                    comma |= clause[k] == ","
                    k += 1
                if comma and k in starts:
                    seg_end = next((m for m in range(k, len(clause)) if clause[m] in ",:()"),
                                   len(clause))
                    if any(k < c < seg_end for c in cue_at):
                        break
    for phrase in RESTRICT_AFTER:
        for i in _find(clause, phrase):
            k = i
            while k in ends:
                b = ends[k][0]
                out.add(b)
                k = b
                while k > 0 and clause[k - 1] in _LIST_GLUE and k not in ends:
                    k -= 1
                # "empty fields, streets only": a comma without "and / or" ends the list
                if "," in clause[k:b] and not {"and", "or"} & set(clause[k:b]):
                    break
    return out


def _narrowed(clause: list[str], after: int, mentions: list[tuple[int, int, int]]) -> bool:
    """"no restrictions on the farmland", "cross-country over the grassland": an everything
    phrase followed by a preposition and a mention names that terrain only."""
    return after < len(clause) and clause[after] in ("on", "over", "across", "for", "in",
                                                      "through") and \
        any(after < b <= after + 3 for b, _, _ in mentions)


def _everything_self(clause: list[str], mentions: list[tuple[int, int, int]]) -> bool:
    """A phrase that permits everything on its own ("go anywhere", "no restrictions"), not
    negated and not narrowed ("do not go anywhere near the woods")."""
    hits = [(i, i + len(w.split())) for w in EVERYTHING_SELF for i in _find(clause, w)]
    # "no terrain restrictions", "no off road limits"
    hits += [(i, k + 1) for i, t in enumerate(clause) if t == "no"
             for k in range(i + 2, min(i + 4, len(clause)))
             if clause[k] in _LIMIT_NOUNS and all(w.isalpha() for w in clause[i + 1:k])]
    for i, after in hits:
        if (after < len(clause) and clause[after] in ("near", "close")) or \
                set(clause[max(0, i - 3):i]) & _NEGATOR_SET:
            continue
        # "no restrictions on the farmland" frees the farmland, not all terrain
        if _narrowed(clause, after, mentions):
            continue
        return True
    return False


_LIMIT_NOUNS = {"restrictions", "restriction", "limits", "limitations", "constraints"}


def _roam_everywhere(clause: list[str], restricted: bool) -> bool:
    """"search everywhere", "roam anywhere": a verb of moving before "everywhere" permits all
    conditional terrain, unless negated ("do not go anywhere near the woods") or the clause
    restricts (``restricted``: "go whatever way, roads and sidewalks only")."""
    if restricted:
        return False
    for w in ("everywhere", "anywhere", "wherever", "anything", "whatever"):
        for i in _find(clause, w):
            # "anywhere near the woods"; "whatever way is fastest" is about the route
            if i + 1 < len(clause) and clause[i + 1] in _NEAR_OR_JOURNEY:
                continue
            # "go through literally anything", "go over whatever"
            if set(clause[max(0, i - 3):i]) & (ROAM_VERBS | ROUTE_PREPOSITIONS) and \
                    not set(clause[max(0, i - 4):i]) & (_NEGATOR_SET | _DETERMINER_CUES):
                return True
    return False


def _heading_sign(clause: list[str], cues: list[tuple[int, int]],
                  mentions: list[tuple[int, int, int]], pos: int) -> int:
    """Sign of a bare verdict heading a list ("Not permitted: A, B"): the last colon before
    the mention, with cues and no mention between it and the previous comma or colon."""
    colon = next((k for k in range(pos - 1, -1, -1) if clause[k] == ":"), -1)
    if colon < 0:
        return 0
    start = next((k + 1 for k in range(colon - 1, -1, -1) if clause[k] in ",:()"), 0)
    if any(start <= b < colon for b, _, _ in mentions):
        return 0
    heading = [s for p, s in cues if start <= p < colon]
    return heading[-1] if heading else 0


def _key_value_sign(clause: list[str], cues: list[tuple[int, int]],
                    mentions: list[tuple[int, int, int]], seg_of: list[int], pos: int,
                    segments: list[int]) -> int:
    """"Trees: no", "Overfly buildings: prohibited": a mention in the segment before a colon
    whose next segment is a bare verdict (cues and filler only, no mention) takes the
    verdict's sign, whatever route word stands before the mention."""
    seg = seg_of[pos]
    if seg + 1 >= len(segments) or clause[segments[seg + 1]] != ":" or \
            any(seg_of[p] == seg for p, _ in cues if p > pos):
        return 0
    nxt = seg + 1
    if any(seg_of[b] == nxt for b, _, _ in mentions):
        return 0
    verdict = [(p, s) for p, s in cues if seg_of[p] == nxt]
    return verdict[0][1] if verdict else 0


def _permissions(tokens: list[str], agent: Agent) -> frozenset[int]:
    conditional = TRAVERSABILITY[agent][1]
    allowed: set[int] = set()
    denied: set[int] = set()
    last_sign = 0
    last_negated = False
    previous_allowed: set[int] = set()
    clauses = _clauses(_strip_from_to(tokens))
    for ci, (clause, question) in enumerate(clauses):
        mentions = _mentions(clause)
        interjection = all(t in _REPLY_NO or t in ",!" for t in clause) and \
            not clauses[ci - 1][1]  # "..., brilliant idea. No." (no question before it)
        if (any(_find(clause, w) for w in _RETRACTIONS) or interjection) and ci and \
                not any(c in conditional for _b, _e, c in mentions):
            # "nah forget that, roads only": what the previous statement permitted is withdrawn
            denied |= previous_allowed
        before = set(allowed)
        # "Is the drone allowed over the houses? No.": the reply decides the question's terrain
        reply = _answer_sign(clauses[ci + 1][0]) if question and ci + 1 < len(clauses) else 0
        every_at, every_end = _has_everything(clause, mentions)
        cues = _cue_positions(clause, everything=every_at >= 0)
        elliptic = [i for w in _ELLIPSIS for i in _find(clause, w)
                    if all(t in ",:()" or t in _HEDGES for t in clause[i + len(w.split()):])]
        if not cues and last_sign and elliptic:
            cues = [(elliptic[0], last_sign)]
        elif not cues and last_sign and clause[-1] in _AUXILIARIES and mentions and \
                mentions[-1][1] >= len(clause) - 2:
            # "buildings are not forbidden; trees are.": the predicate is elided, and with it
            # the negation it carried
            cues = [(len(clause) - 1, -last_sign if last_negated else last_sign)]
        if cues and set(clause) & _ENDPOINT_WORDS and \
                all(clause[p] in ("not", "no") for p, _ in cues):
            continue  # "I start at the plaza, not the dirt lot" corrects a place
        if cues:
            last_sign = cues[-1][1]
            last_negated = bool(set(clause) & _NEGATOR_SET)
        postposed = _postposed(clause, cues, mentions)
        segments = [0]
        for i, t in enumerate(clause):
            if t in (",", ":", "(", ")"):
                segments.append(i)
        seg_of = [sum(1 for s in segments[1:] if s <= i) for i in range(len(clause))]
        exceptions = [i for w in EXCEPTION_WORDS for i in _find(clause, w)]
        moving = every_at >= 0 and bool(
            set(clause[max(0, every_at - 2):every_at]) & (ROAM_VERBS | ROUTE_PREPOSITIONS)) and \
            not set(clause[max(0, every_at - 4):every_at]) & (_NEGATOR_SET | _DETERMINER_CUES)
        # "no off-road driving on any conditionally traversable terrain is permitted"
        negated_at = any(clause[k] in ("no", "not", "never") and
                         not set(clause[k:every_at]) & {",", ":", ";", "("}
                         for k in range(max(0, every_at - 5), every_at))
        restricted = any(_find(clause, w) for w in _RESTRICTS)
        # "no other off-road terrain is opened"; "cross-country over the grassland";
        # "permitted off-road terrain: heathland only"
        if every_at >= 0 and (negated_at or _narrowed(clause, every_end, mentions) or restricted):
            every_at, moving = -1, False
        if _everything_self(clause, mentions) or moving or (every_at >= 0 and (
                any(s > 0 and not every_at <= p < every_end and (
                    seg_of[p] == seg_of[every_at] or abs(p - every_at) <= 3) for p, s in cues) or
                any(i > every_at for i in exceptions))) or \
                _only_complement(clause, cues, mentions, conditional) or \
                _roam_everywhere(clause, restricted) or _nothing_forbidden(clause):
            allowed |= set(conditional)
        confined = _restricted_to(clause, mentions, {p for p, _ in cues})
        ellipsis_segs = {seg_of[i] for w in _ELLIPSIS for i in _find(clause, w)}
        previous: tuple[int, int] | None = None  # (end, sign) of the last mention
        last_mention_sign = 0
        signed: list[tuple[int, int, int, int, bool]] = []  # (pos, end, cls, sign, own cue)
        for pos, end, cls in mentions:
            if cls not in conditional:
                previous = None
                signed.append((pos, end, cls, 0, False))
                continue
            # 1) a cue in the mention's own comma segment: the one before it, else after it;
            # 2) "over / through / across / cross X"; 3) a list shares the sign of its first
            # item ("over grassland, farmland and bare ground"); 4) the nearest cue in the clause
            same = [(p, s) for p, s in cues if seg_of[p] == seg_of[pos]]
            window = [t for k, t in enumerate(clause[max(0, pos - 3):pos], max(0, pos - 3))
                      if seg_of[k] == seg_of[pos]]
            key_value = _key_value_sign(clause, cues, mentions, seg_of, pos, segments)
            if reply:
                sign = reply
            elif pos in confined:
                sign = 1
            elif key_value:
                sign = key_value
            elif _landmark(clause, pos, end) or _only_at_endpoint(
                    [t for k, t in enumerate(clause) if seg_of[k] == seg_of[pos]]):
                # "the forest on the left", "the wood next to the garden", "rangeland may
                # only be entered at the destination"
                sign = 0
            elif same:
                sign = _governing(same, pos, postposed)
            elif _heading_sign(clause, cues, mentions, pos):
                # "Not permitted: crossing any further cropland"
                sign = _heading_sign(clause, cues, mentions, pos)
            elif seg_of[pos] in ellipsis_segs and seg_of[pos] > 0 and (
                    last_mention_sign or any(p < pos for p, _ in cues)):
                # "gravel and dirt fine, grassland too": the segment repeats the one before
                sign = last_mention_sign or [s for p, s in cues if p < pos][-1]
            elif end - pos == 1 and _stem(clause[pos]) in SETTING_WORDS:
                sign = 0  # "a route through the park" says where, not what is permitted
            elif ROUTE_PREPOSITIONS & set(window) or _motion_onto_pronoun(clause, end) or \
                    _motion_on(window):
                sign = 1
            elif previous is not None and previous[1] != 0 and \
                    set(clause[previous[0]:pos]) <= _LIST_GLUE | _LAND_NOUNS:
                sign = previous[1]
            elif cues:
                sign = _governing(cues, pos, postposed)
            else:
                sign = 0
            previous = (end, sign)
            last_mention_sign = sign or last_mention_sign
            own = bool(reply or pos in confined or key_value or any(p < pos for p, _ in same))
            signed.append((pos, end, cls, sign, own))
        for _pos, _end, cls, sign, _own in _share_postposed(clause, cues, postposed, signed):
            if cls not in conditional:
                continue
            if sign > 0:
                allowed.add(cls)
            elif sign < 0:
                denied.add(cls)
        previous_allowed = allowed - before
    return frozenset(allowed - denied)


#: Self-corrections: what follows replaces what came before ("fastest... actually no, safest").
_CORRECTION_MARKERS = ["actually no", "actually", "i mean", "scratch that", "correction",
                       "on second thought", "on second thoughts", "wait no", "no wait",
                       "make that", "rather"]
#: Retractions of the previous statement ("could cut across the sand? nah, forget that").
_RETRACTIONS = ["forget that", "forget it", "scratch that", "never mind", "nevermind",
                "cancel that", "ignore that", "strike that", "on second thought",
                "on second thoughts"]
#: Words of a route's start or end: a bare "not" beside them corrects a place.
_ENDPOINT_WORDS = {"start", "starting", "begin", "beginning", "depart", "departing", "finish",
                   "finishing", "arrive", "arriving", "destination", "origin", "ending"}
#: Objective words that name a burden: negated they still ask for the objective ("no
#: bumps", "not too strenuous").
_BURDENS = {"bumpy", "bumps", "strain", "strenuous", "effort", "exertion", "tiring", "jolting",
            "jolts", "demanding", "sweaty", "sweat", "stress", "stressful"}
_AUXILIARIES = {"is", "are", "was", "were", "does", "do", "can", "may", "will", "could", "should",
                "might"}
_JOURNEY_NOUNS = {"route", "way", "path", "trip", "flight", "journey", "line", "run", "ride"}
_NEAR_OR_JOURNEY = {"near", "close", *_JOURNEY_NOUNS}
_MOTION_OR_JOURNEY = _MOTION_VERBS | _JOURNEY_NOUNS
#: Words before "(conditionally) traversable classes" that make it a description.
_DESCRIBING_QUANTIFIERS = _QUANTIFIERS | {"other", "conditionally", "no"}
_BEFORE_LANDMARK = ["next to", "near", "beside", "opposite", "close to", "nearby", "near to",
                    "just past", "in front of", "across from", "adjacent to"]
_SIDES = {"left", "right", "north", "south", "east", "west", "northeast", "northwest",
          "southeast", "southwest"}


def _only_at_endpoint(segment: list[str]) -> bool:
    return "only" in segment and bool(set(segment) & (_ENDPOINT_WORDS | {"end", "goal"}))


def _landmark(clause: list[str], pos: int, end: int) -> bool:
    """A mention that only says where something is: after a locative preposition ("the wood
    next to the garden"), before a side ("pass the forest on the left"), or the destination of
    a motion ("flight across the vineyard to the house")."""
    start = pos - 1 if pos and clause[pos - 1] in ("the", "a", "an", "some") else pos
    if start >= 2 and clause[start - 1] in ("to", "towards", "toward") and (
            clause[start - 2] in _MOTION_OR_JOURNEY or clause[start - 2].endswith("land")
            or any(t in ROUTE_PREPOSITIONS for t in clause[max(0, start - 6):start - 1])):
        return True
    for phrase in _BEFORE_LANDMARK:
        n = len(phrase.split())
        if start >= n and clause[start - n:start] == phrase.split():
            return True
    tail = clause[end:end + 4]
    return len(tail) >= 3 and tail[0] in ("on", "to") and (
        tail[1] in _SIDES or (tail[1] in ("the", "your", "our", "its") and tail[2] in _SIDES))


def _share_postposed(clause: list[str], cues: list[tuple[int, int]], postposed: frozenset[int],
                     signed: list[tuple[int, int, int, int, bool]]
                     ) -> list[tuple[int, int, int, int, bool]]:
    """A predicate after a list is said of the whole list ("dirt, scrub, forest and crops are
    all fair game"): items without a cue of their own before them take its sign."""
    out = list(signed)
    k = 0
    while k < len(out):
        j = k
        while j + 1 < len(out) and \
                set(clause[out[j][1]:out[j + 1][0]]) <= _LIST_GLUE | _LAND_NOUNS:
            j += 1
        last_end = out[j][1]
        # a list ends in a conjunction ("dirt, scrub and crops"); "the park, the woods are
        # okay" is two statements
        between = set(clause[out[j - 1][1]:out[j][0]]) if j > k else set()
        if "," in between and not {"and", "or"} & between:
            k = j
            continue
        first = out[k][0]
        # "no A, B or C may be crossed", "no off-road terrain such as A, B or C may be used"
        head = clause[max(0, first - 7):first]
        negated = bool(first) and (clause[first - 1] in ("no", "neither", "not", "nor") or (
            bool(set(head) & {"no", "neither"}) and
            bool(set(clause[max(0, first - 3):first]) & {"as", "like", "including"})))
        verdict = next((-s if negated else s for p, s in cues if p in postposed and p >= last_end and
                        set(clause[last_end:p]) <= _COPULA | _LAND_NOUNS | {"all", "both"}), 0)
        if verdict and j > k:
            for m in range(k, j + 1):
                pos, end, cls, sign, own = out[m]
                if not own:
                    out[m] = (pos, end, cls, verdict, own)
        k = j + 1
    return out


def parse_query(text: str) -> ParsedQuery:
    """Read agent, objective and explicit permissions from a query, offline.

    Unrecognised agent or objective falls back to pedestrian / shortest, flagged in the result.
    """
    tokens = _tokens(text)
    stems = [_stem(t) for t in tokens]
    scores = dict.fromkeys(Agent, 0)
    used = [False] * len(tokens)
    found: list[tuple[int, int, tuple[Agent, ...], int]] = []
    # "walk from the ute to the waterhole": a vehicle in a from/to phrase is a place
    placed = {k for k, t in enumerate(_strip_from_to(tokens)) if t == "_"}
    for phrase, agents_of, weight in _AGENT_SORTED:
        n = len(phrase)
        for i in _find_stems(stems, phrase):
            if not any(used[i:i + n]):
                for m in range(i, i + n):
                    used[m] = True
                # a vehicle noun before a place noun names a place ("bus stop")
                if weight >= 3 and i + n < len(tokens) and tokens[i + n] in AGENT_PLACE_HEADS:
                    continue
                found.append((i, i + n, agents_of, weight))
    nouns_at = {i for i, _e, _a, w in found if w >= 3}
    if not nouns_at:
        # no listed agent noun: ask WordNet about the unknown nouns ("currach" is a boat)
        for i, t in enumerate(tokens):
            if not used[i] and _unknown_noun(t):
                agent_of = noun_category(_stem(t), WORDNET_AGENTS)
                if agent_of is not None:
                    found.append((i, i + 1, (agent_of,), 2))
    for i, e, agents_of, weight in found:
        # in "ambulance boat" the head names the agent, the modifier only its use
        if weight >= 3 and e in nouns_at:
            continue
        for agent_of in agents_of:
            scores[agent_of] += 1 if i in placed else weight
    top = [a for a in Agent if scores[a] == max(scores.values())]
    if len(top) > 1:
        # a tie ("quad": quad bike or quadcopter) goes to the agent for which the terrain the
        # query talks about is a question at all: its conditionally traversable classes
        talked = {cls for clause, _ in _clauses(tokens) for _b, _e, cls in _mentions(clause)}
        top.sort(key=lambda a: -len(talked & TRAVERSABILITY[a][1]))
    agent = top[0]
    agent_found = scores[agent] > 0
    if not agent_found:
        agent = Agent.PEDESTRIAN
    taken = [False] * len(tokens)
    obj_scores = dict.fromkeys(Objective, 0)
    first_at = dict.fromkeys(Objective, len(tokens))
    # "fastest... actually no, the safest one": words before a self-correction that is
    # followed by another objective word do not count
    corrections = [i for w in _CORRECTION_MARKERS for i in _find(tokens, w)]
    # "no risks" = "no risk": phrases match on stems
    hits = [(ph, o, w, _find_stems(stems, st)) for ph, o, w, st in _OBJECTIVE_STEMS]
    last_hit = max((i for *_x, at in hits for i in at), default=-1)
    # a hit before the last self-correction that precedes the last hit is superseded
    cutoff = max((c for c in corrections if c < last_hit), default=-1)
    for obj_phrase, objective, weight, at in hits:
        n = len(obj_phrase.split())
        for i in at:
            if i < cutoff:
                continue
            if not any(taken[i:i + n]):
                for m in range(i, i + n):
                    taken[m] = True
                # "not in a hurry", "no rush": a negated objective word states no objective
                # ("no risk" still asks for safety); "too risky to enter" describes terrain
                if (objective is not Objective.SAFEST and obj_phrase not in _BURDENS and any(
                        t in _OBJECTIVE_NEGATORS for t in tokens[max(0, i - 2):i])) or \
                        (i and tokens[i - 1] == "too"):
                    continue
                # a manner adverb ("a person can safely walk on") weighs less than a goal
                obj_scores[objective] += weight - 1 if n == 1 and obj_phrase.endswith("ly") \
                    else weight
                first_at[objective] = min(first_at[objective], i)
    # ties go to the objective named first ("Pedestrian, shortest. ... safely ...")
    objective = max(Objective, key=lambda o: (obj_scores[o], -first_at[o]))
    objective_found = obj_scores[objective] > 0
    if not objective_found:
        objective = Objective.SHORTEST
    allowed = _permissions(tokens, agent)
    return ParsedQuery(agent, objective, allowed, agent_found, objective_found)
