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

from map2route.nesy.errors import NesyError
from map2route.nesy.kb import (
    CLASS_NAMES,
    TRAVERSABILITY,
    Agent,
    Objective,
    Vectors,
    derive_vectors,
)

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

    def vectors(self) -> Vectors:
        """Ground-truth vectors ``f_KB(sigma)`` (Eq. 3)."""
        return derive_vectors(self.agent, self.objective, self.allowed)


@dataclass(frozen=True)
class ParsedQuery:
    """What the offline parser read from a query."""

    agent: Agent
    objective: Objective
    allowed: frozenset[int]
    agent_found: bool
    objective_found: bool

    def vectors(self) -> Vectors:
        return derive_vectors(self.agent, self.objective, self.allowed)


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
AGENT_WORDS: dict[Agent, list[tuple[str, int]]] = {
    Agent.PEDESTRIAN: [(w, 3) for w in [
        "hiker", "hikers", "pedestrian", "pedestrians", "on foot", "jogger", "runner", "walker",
        "backpacker", "trekker", "person walking", "someone walking", "surveyor on foot",
        "walking tour", "stroll"]] + [(w, 1) for w in [
        "hike", "hiking", "walk", "walks", "walking", "trekking", "trek", "wander"]],
    Agent.CAR: [(w, 3) for w in [
        "car", "cars", "vehicle", "vehicles", "truck", "van", "suv", "jeep", "4x4", "ambulance",
        "fire engine", "fire truck", "sedan", "minibus", "bus", "pickup", "automobile", "lorry",
        "motorbike", "motorcycle", "convoy", "limousine", "limo", "taxi", "cab", "camper",
        "camper van", "hatchback", "tractor", "lorries"]] + [(w, 1) for w in [
        "drive", "driving", "drives", "ride", "driver"]] + [(w, 0) for w in [
        "car park", "parking lot"]],
    Agent.DRONE: [(w, 3) for w in [
        "drone", "drones", "uav", "uavs", "quadcopter", "unmanned aerial vehicle",
        "unmanned aerial", "uas", "multicopter",
        "aircraft"]] + [(w, 1) for w in ["fly", "flight", "flying", "overfly", "overflown"]],
    Agent.BOAT: [(w, 3) for w in [
        "boat", "boats", "kayak", "canoe", "vessel", "ferry", "ship", "dinghy", "sailboat",
        "motorboat", "raft", "pontoon", "yacht", "coast guard", "motor launch", "river patrol",
        "kayaker", "canoeist", "rower", "sailor", "speedboat", "tugboat", "barge",
        "steamer", "lifeboat"]] + [(w, 1) for w in [
        "paddling", "paddle", "rowing", "sail", "sailing", "cruise", "harbour", "harbor",
        "upriver", "downriver", "buoy", "marina", "mooring"]],
}
# multi-word phrases first; "shortest time" must win over "shortest"
OBJECTIVE_WORDS: list[tuple[str, Objective, int]] = [
    ("shortest time", Objective.FASTEST, 5), ("least time", Objective.FASTEST, 5),
    ("minimum time", Objective.FASTEST, 5), ("travel time", Objective.FASTEST, 4),
    ("least risky", Objective.SAFEST, 5), ("least dangerous", Objective.SAFEST, 5),
    ("minimum distance", Objective.SHORTEST, 5), ("minimum risk", Objective.SAFEST, 5),
    ("minimal risk", Objective.SAFEST, 5), ("time matters", Objective.FASTEST, 5),
    ("personal best", Objective.FASTEST, 4), ("as soon as possible", Objective.FASTEST, 5),
    ("least distance", Objective.SHORTEST, 5), ("minimal distance", Objective.SHORTEST, 5),
    ("most direct", Objective.SHORTEST, 5),
    *[(w, Objective.FASTEST, 3) for w in ["fastest", "quickest", "quickly", "fast", "quick",
                                          "hurry", "rush", "asap", "rapidly", "speed",
                                          "soonest", "speedy", "swift", "swiftest",
                                          "urgently", "fastest"]],
    *[(w, Objective.COMFORT, 3) for w in ["comfortable", "comfort", "pleasant", "nicest",
                                          "smoothest", "smooth", "relaxed", "relaxing",
                                          "easiest", "calm", "gentle", "leisurely", "comfy",
                                          "relaxing", "effortless", "cosy", "cozy"]],
    *[(w, Objective.SAFEST, 3) for w in ["safest", "safe", "safety", "risk", "risky", "danger",
                                         "dangerous", "hazard", "hazards", "secure",
                                         "hazardous", "safely"]],
    *[(w, Objective.SHORTEST, 3) for w in ["shortest", "direct", "closest", "distance"]],
]
CLASS_WORDS: dict[int, list[str]] = {
    0: ["bare land", "bare ground", "bare soil", "bare earth", "bare rock", "bare dirt",
        "bareland", "barren", "bare", "dirt", "sand", "gravel", "rock", "rocky", "mudflat",
        "mudflats", "scree", "desert", "bare patch", "bare patches", "wasteland",
        "boulder fields", "boulder field", "clearings", "clearing", "gravel lots"],
    1: ["rangeland", "grassland", "grassy", "grass", "meadow", "meadows", "pasture", "scrub",
        "shrubland", "shrubs", "heath", "verges", "verge", "prairie", "savanna", "scrubland",
        "lawn", "lawns", "parkland", "moor", "moorland", "steppe", "bush", "bushland",
        "grassy fields", "grass fields", "grassy field", "common grassland"],
    2: ["developed", "built up", "paved", "pavement", "plaza", "urban", "tarmac", "sidewalk",
        "sidewalks", "squares"],
    3: ["road", "roads", "street", "streets", "highway"],
    4: ["trees", "tree", "forest", "forests", "forested", "wood", "woods", "woodland", "wooded",
        "canopy", "tree cover", "jungle", "treetops", "treetop", "grove", "groves",
        "thicket", "timber"],
    5: ["water", "lake", "river", "sea", "bay", "pond"],
    6: ["farmland", "farm", "farms", "field", "fields", "crop", "crops", "cropland", "agricultural",
        "agriculture", "cultivated", "arable", "orchard", "orchards", "plantation",
        "plantations", "paddy", "paddies", "vineyard", "vineyards", "farm land", "cornfield",
        "cornfields", "croplands", "allotments", "allotment", "ploughed fields",
        "plowed fields", "hayfields"],
    7: ["buildings", "building", "rooftops", "rooftop", "roofs", "roof", "houses", "house",
        "structures", "structure", "built structures", "rooftop", "homes", "blocks",
        "buildings", "sheds", "shed", "barns", "barn", "huts", "hut", "garages", "warehouses"],
}
NEGATIVE_CUES = [
    "must not", "may not", "can not", "cannot", "can't", "cant", "should not", "shouldn't",
    "must never", "do not", "don't", "does not", "doesn't", "not allowed", "not permitted",
    "rather not", "stay off", "stay out", "stay away", "keep away", "keep off", "keep out",
    "keep clear", "stay clear", "staying clear", "staying off", "staying out", "clear of",
    "off limits", "forbidden", "prohibited", "banned", "avoid", "avoiding",
    "never", "no", "not", "nor", "without", "except", "restricted to", "only on", "stick to",
    "sticking to", "keeping to", "keep to", "out of bounds", "must avoid", "refuses",
    "refuse", "too dense", "stay away from", "keep off of", "barred", "disallowed",
    "not cleared", "isn't", "aren't", "is not", "are not", "protected", "neither may",
    "nor may", "neither", "won't", "will not", "excluding", "other than",
]
POSITIVE_CUES = [
    "may", "can", "could", "allowed", "allow", "permitted", "permit", "fine", "ok", "okay",
    "acceptable", "cleared", "open to", "is open", "are open", "free to", "able to",
    "welcome", "no problem", "be used", "use", "using", "yes", "authorised", "authorized",
    "approved", "fair game", "permission", "handle", "is fine", "are fine", "go ahead",
    "anything goes", "goes", "passable", "accessible", "traversable", "unrestricted",
]
ROUTE_PREPOSITIONS = {"over", "through", "across", "via", "into", "above", "onto", "along"}
EVERYTHING_WORDS = ["everything", "anything", "any terrain", "all terrain", "all terrains",
                    "unrestricted", "every terrain type",
                    "all land cover", "every terrain", "anything goes",
                    "no restrictions", "no restriction", "every kind of terrain", "anywhere"]
_LIST_GLUE = {"and", "or", "the", "a", ",", "also", "both"}
_STOP_AFTER_TO = {"in", "by", "as", "with", "while", "and", "but", "for", "using", "via",
                  "through", "across", "over", "on", "is", "are"}


_AGENT_SORTED = sorted(((p, a, w) for a, words in AGENT_WORDS.items() for p, w in words),
                       key=lambda paw: -len(paw[0].split()))
_NEG_SORTED = sorted(NEGATIVE_CUES, key=lambda p: -len(p.split()))
_POS_SORTED = sorted(POSITIVE_CUES, key=lambda p: -len(p.split()))
_CLASS_SORTED = sorted(((p, c) for c, ps in CLASS_WORDS.items() for p in ps),
                       key=lambda pc: -len(pc[0].split()))


def _tokens(text: str) -> list[str]:
    """Lower-case word tokens; hyphens split words, possessive 's is dropped."""
    norm = re.sub(r"(\w)'s\b", r"\1", text.lower()).replace("-", " ")
    return re.findall(r"[a-z0-9]+(?:'[a-z0-9]+)*|[.;:!?,()]", norm)


def _find(tokens: list[str], phrase: str) -> list[int]:
    words = phrase.split()
    n, first = len(words), words[0]
    return [i for i, t in enumerate(tokens[:len(tokens) - n + 1])
            if t == first and tokens[i:i + n] == words]


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


def _clauses(tokens: list[str]) -> list[list[str]]:
    """Split on sentence ends, semicolons and contrast words (but, however, while, whereas)."""
    out: list[list[str]] = [[]]
    for t in tokens:
        if t in (".", ";", "!", "?", "but", "however", "whereas", "while", "though", "although",
                 "yet"):
            out.append([])
        else:
            out[-1].append(t)
    return [c for c in out if c]


def _cue_positions(clause: list[str]) -> list[tuple[int, int]]:
    """(position, +1 / -1) of polarity cues; negatives are matched first and mask positives."""
    taken = [False] * len(clause)
    cues: list[tuple[int, int]] = []
    for sign, phrases in ((-1, _NEG_SORTED), (1, _POS_SORTED)):
        for phrase in phrases:
            n = len(phrase.split())
            for i in _find(clause, phrase):
                if not any(taken[i:i + n]):
                    if sign < 0 and phrase == "no" and i + 1 < len(clause) and \
                            clause[i + 1] in ("problem", "restrictions", "restriction"):
                        continue
                    for m in range(i, i + n):
                        taken[m] = True
                    cues.append((i, sign))
    return sorted(cues)


def _mentions(clause: list[str]) -> list[tuple[int, int, int]]:
    """(start, end, class index) of land-cover mentions, longest phrase first, no overlaps."""
    taken = [False] * len(clause)
    found: list[tuple[int, int, int]] = []
    for phrase, cls in _CLASS_SORTED:
        n = len(phrase.split())
        for i in _find(clause, phrase):
            if not any(taken[i:i + n]):
                for m in range(i, i + n):
                    taken[m] = True
                found.append((i, i + n, cls))
    return sorted(found)


def _governing(cues: list[tuple[int, int]], pos: int) -> int:
    """Sign of the cue that governs a mention: the last one before it, else the first after."""
    before = [s for p, s in cues if p < pos]
    return before[-1] if before else min(cues, key=lambda ps: ps[0] - pos)[1]


def _permissions(tokens: list[str], agent: Agent) -> frozenset[int]:
    conditional = TRAVERSABILITY[agent][1]
    allowed: set[int] = set()
    denied: set[int] = set()
    for clause in _clauses(_strip_from_to(tokens)):
        cues = _cue_positions(clause)
        segments = [0]
        for i, t in enumerate(clause):
            if t in (",", ":", "(", ")"):
                segments.append(i)
        seg_of = [sum(1 for s in segments[1:] if s <= i) for i in range(len(clause))]
        if any(_find(clause, w) for w in EVERYTHING_WORDS) and (
                any(s > 0 for _, s in cues) or _find(clause, "no restrictions")
                or _find(clause, "unrestricted")):
            allowed |= set(conditional)
        previous: tuple[int, int] | None = None  # (end, sign) of the last mention
        for pos, end, cls in _mentions(clause):
            if cls not in conditional:
                previous = None
                continue
            # 1) a cue in the mention's own comma segment: the one before it, else after it;
            # 2) "over / through / across X"; 3) a list shares the sign of its first item
            # ("over grassland, farmland and bare ground"); 4) the nearest cue in the clause
            same = [(p, s) for p, s in cues if seg_of[p] == seg_of[pos]]
            window = clause[max(0, pos - 3):pos]
            if same:
                sign = _governing(same, pos)
            elif ROUTE_PREPOSITIONS & set(window):
                sign = 1
            elif previous is not None and previous[1] != 0 and \
                    set(clause[previous[0]:pos]) <= _LIST_GLUE:
                sign = previous[1]
            elif cues:
                sign = _governing(cues, pos)
            else:
                sign = 0
            previous = (end, sign)
            if sign > 0:
                allowed.add(cls)
            elif sign < 0:
                denied.add(cls)
    return frozenset(allowed - denied)


def parse_query(text: str) -> ParsedQuery:
    """Read agent, objective and explicit permissions from a query, offline.

    Unrecognised agent or objective falls back to pedestrian / shortest, flagged in the result.
    """
    tokens = _tokens(text)
    scores = dict.fromkeys(Agent, 0)
    used = [False] * len(tokens)
    for phrase, agent_of, weight in _AGENT_SORTED:
        n = len(phrase.split())
        for i in _find(tokens, phrase):
            if not any(used[i:i + n]):
                for m in range(i, i + n):
                    used[m] = True
                scores[agent_of] += weight
    agent = max(scores, key=lambda a: scores[a])
    agent_found = scores[agent] > 0
    if not agent_found:
        agent = Agent.PEDESTRIAN
    taken = [False] * len(tokens)
    obj_scores = dict.fromkeys(Objective, 0)
    for phrase, objective, weight in OBJECTIVE_WORDS:
        n = len(phrase.split())
        for i in _find(tokens, phrase):
            if not any(taken[i:i + n]):
                for m in range(i, i + n):
                    taken[m] = True
                obj_scores[objective] += weight
    objective = max(obj_scores, key=lambda o: obj_scores[o])
    objective_found = obj_scores[objective] > 0
    if not objective_found:
        objective = Objective.SHORTEST
    allowed = _permissions(tokens, agent)
    return ParsedQuery(agent, objective, allowed, agent_found, objective_found)
