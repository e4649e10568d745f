"""A compositional parser of English route instructions (the offline grounder's front end).

No map is needed: the parser turns an instruction into an :class:`InstructionParse` of clauses
(goals, must-pass rooms, must-avoids, soft preferences, path shapes, conditionals) whose
arguments are :class:`RefExpr` referring expressions, nested as they nest in the sentence.
:mod:`map2route.grounding.writer` then writes a grounding program from it.

How it works, briefly (hand-written because no general library parses route instructions
into this structure; spaCy-style dependency parsers are heavy and still need these rules):

1. Tokenise with character spans; expand contractions (``don't`` -> ``do not``).
2. Split into clauses at sentence punctuation, ``then``/``after that``/``finally`` and at commas
   or ``and`` followed by a clause opener (a movement or preference verb).
3. Classify each clause by its opener (``go to``, ``avoid``, ``stay far from``, ``circle``,
   ``if ... otherwise``, ``before ...``) and parse its noun phrases.
4. A noun phrase is ``[det] [ordinal] [superlative] [adjectives] HEAD [post-modifiers]``;
   the head is the longest match among category names, synonyms, groups and room words (fuzzy
   matching with rapidfuzz for unknown words); post-modifiers are ``in ROOM``, ``on X``,
   ``nearest to X``, ``next to X``, ``with two windows``, ``between X and Y``, ``in the corner``,
   ``connected to ROOM``, ``you start in``, each taking a nested noun phrase.

Attachment of post-modifiers inside nested phrases is ambiguous in English ("the chair
nearest to the bed in the bedroom"); :data:`ATTACHMENTS` lists the policies the repair loop
tries in turn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from map2route.grounding.vocabulary import (
    ABSENT_PLACES,
    GROUPS,
    ROOM_WORDS,
    STRUCTURE_WORDS,
    category_phrases,
    singular,
)

#: Attachment policies, most likely first: which modifier kinds a *nested* noun phrase keeps.
ATTACHMENTS: dict[str, frozenset[str]] = {
    "local": frozenset({"in_room", "on", "with", "start_room", "adjacent", "in_corner",
                        "next_to", "near"}),
    "low": frozenset({"in_room", "on", "with", "start_room", "adjacent", "in_corner", "next_to",
                      "near", "far_from", "rank", "between"}),
    "high": frozenset({"start_room", "with"}),
}

_NUMBERS = {"no": 0, "zero": 0, "one": 1, "a": 1, "an": 1, "single": 1, "two": 2, "three": 3,
            "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
            "both": 2, "a couple of": 2, "couple": 2, "several": 2, "multiple": 2}
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4,
             "4th": 4, "fifth": 5, "5th": 5, "sixth": 6, "6th": 6}
_DETS = {"the", "a", "an", "any", "some", "that", "this", "your", "my", "one", "each", "every",
         "all", "its", "their", "those", "these", "whichever", "whatever", "our"}
_NEAREST = {"nearest", "closest"}
_FARTHEST = {"farthest", "furthest"}
_LARGEST = {"largest", "biggest", "widest", "roomiest"}
_SMALLEST = {"smallest", "tiniest", "littlest", "narrowest"}
#: Comparatives read as superlatives ("the bigger couch" = the biggest of the couches; with
#: two candidates they are the same, with more the superlative is the usual intent).
_COMPARATIVE = {"closer": "nearest", "nearer": "nearest", "farther": "farthest",
                "further": "farthest", "bigger": "largest", "larger": "largest",
                "wider": "largest", "smaller": "smallest", "tinier": "smallest"}
_SIZE_ADJ = {"big": "largest", "large": "largest", "huge": "largest", "small": "smallest",
             "little": "smallest", "tiny": "smallest"}
_FILLER_ADJ = {"other", "same", "main", "nearby", "whole", "entire", "empty", "wooden", "white",
               "black", "brown", "red", "blue", "green", "grey", "gray", "round", "square",
               "tall", "short", "long", "low", "high", "old", "new", "little", "particular",
               "specific", "lone", "only", "potted", "kitchen's", "actual"}
_REL_INTRO = {"that", "which", "who", "is", "are", "located", "situated", "placed",
              "positioned", "standing", "sitting", "lying", "found", "set", "being", "'s",
              "one", "the", "kept", "stored", "right", "just", "directly", "immediately"}
_ROOM_HEADS = {"room", "rooms", "area", "space"}
_START_WORDS = {"start", "starting", "beginning", "origin", "initial", "current"}

_MOVE_VERBS = {"go", "walk", "head", "move", "navigate", "nav", "goto", "relocate",
               "reposition", "transit", "advance", "proceed", "travel", "drive", "get",
               "come", "return", "visit", "reach", "approach", "stop", "end", "finish",
               "arrive", "pass", "cross", "enter", "continue", "make", "take", "lead", "bring",
               "find", "check", "run", "roll", "wander", "step", "swing", "drop", "pop",
               "stroll", "traverse", "hit", "touch", "tour", "pay", "park", "wrap", "finally",
               "exit", "leave", "back", "going", "visiting", "heading", "walking",
               "reaching", "stopping", "getting", "moving", "arriving", "checking", "coming",
               "returning", "navigating", "proceeding", "travelling", "traveling", "ending",
               "finishing", "entering", "crossing", "approaching", "ends", "finishes", "stops",
               "goes", "visits", "went", "visited", "reached", "stopped", "headed", "walked",
               "see", "fetch", "grab", "wait"}
_PREF_VERBS = {"stay", "keep", "remain", "hug", "stick", "avoid", "steer", "try", "prefer",
               "favor", "favour", "be", "maintain", "give", "do", "don't", "never", "not"}
_SHAPE_VERBS = {"circle", "loop", "orbit", "patrol", "follow", "circumnavigate", "lap"}
_OPENERS = _MOVE_VERBS | _PREF_VERBS | _SHAPE_VERBS | {"if", "before", "after", "once", "when",
                                                       "while", "then", "first", "otherwise",
                                                       "else", "please", "next", "lastly",
                                                       "without", "on", "along", "around"}
_CLOCKWISE = {"clockwise": "clockwise", "counterclockwise": "counterclockwise",
              "anticlockwise": "counterclockwise", "ccw": "counterclockwise", "cw": "clockwise"}
_CONTRACTIONS = {"don't": "do not", "dont": "do not", "doesn't": "does not", "isn't": "is not",
                 "aren't": "are not", "can't": "can not", "won't": "will not",
                 "you're": "you are", "you've": "you have", "it's": "it is",
                 "there's": "there is", "that's": "that is", "you'll": "you will",
                 "let's": "let us", "haven't": "have not", "hasn't": "has not",
                 "counter-clockwise": "counterclockwise", "anti-clockwise": "anticlockwise",
                 "i'd": "i would", "i'm": "i am", "we'd": "we would", "you'd": "you would",
                 "i'll": "i will", "we're": "we are", "what's": "what is", "t.v.": "tv", "tv's": "tv", "living-room": "living room"}

_SPATIAL: list[tuple[str, ...]] = [tuple(x.split()) for x in (
    "while crossing", "while passing through", "while in", "while inside", "while going through",
    "while walking through", "while traversing", "when crossing", "when in", "when inside",
    "when passing through", "when going through", "while you are in", "when you are in",
    "while you cross", "when you cross", "as you cross", "as you pass through",
    "while moving through", "while moving across", "inside", "within", "throughout",
    "anywhere in", "while within", "while you pass through", "when you pass through",
    "during the crossing of", "whenever you are in", "whenever in", "while walking across",
    "across", "while crossing through", "as you go through", "while you go through",
    "while you are inside", "when you go through", "when you walk through", "as you walk through",
    "when traversing", "as you traverse", "while you traverse", "in the area of")]
_TEMPORAL: list[tuple[str, ...]] = [tuple(x.split()) for x in (
    "on the way to", "on your way to", "until you reach", "until you get to", "until",
    "before reaching", "before you reach", "while going to", "while heading to",
    "while walking to", "when going to", "when heading to", "as you go to", "en route to",
    "while you go to", "while you head to", "on the way over to", "while approaching",
    "while moving to", "as you head to", "while making your way to", "before getting to",
    "on the route to", "on the trip to", "on the leg to", "during the leg to", "for the leg to",
    "when walking to", "as you approach", "when approaching", "on your way over to",
    "while travelling to", "while traveling to", "on the path to",
    "while you walk to", "as you walk to", "as you make your way to", "until arriving at",
    "up to", "till you reach", "till")]
_AFTER: list[tuple[str, ...]] = [tuple(x.split()) for x in (
    "after visiting", "after reaching", "after passing", "once you have visited",
    "once you reach", "after you visit", "after you reach", "once past", "after leaving",
    "once you leave", "after you have visited", "once you have reached", "after",
    "once you have passed", "after you have been to", "once you have been to",
    "after you have gone to", "after going to", "once you have gone to", "after stopping at",
    "after you have visited", "after checking", "after you check")]
_WHOLE: list[tuple[str, ...]] = [tuple(x.split()) for x in (
    "for the whole route", "the whole way", "for the entire route", "throughout the route",
    "the entire way", "at all times", "all the way", "the whole time", "throughout",
    "along the way", "along the route", "as much as possible", "as far as possible",
    "wherever possible", "if possible", "if you can", "where possible", "the entire time",
    "for the whole trip", "during the whole route", "on the whole route", "for the full route",
    "whenever you can", "whenever possible", "at every point")]
#: "on the way" with no destination: the leg the clause belongs to.
_ON_THE_WAY: list[tuple[str, ...]] = [tuple(x.split()) for x in (
    "on the way", "on your way", "en route", "on the way there", "on your way there",
    "as you go", "as you go there", "while you go", "while going there", "along your way")]
_SCOPE_FIRST = {x[0] for x in _SPATIAL + _TEMPORAL + _AFTER + _WHOLE + _ON_THE_WAY}
#: "avoid the area around X": the object, not a room called "area".
_AROUND: list[tuple[str, ...]] = [tuple(x.split()) for x in (
    "the area around", "the space around", "the area next to", "the space next to",
    "the space right around", "the area right around", "the area near", "the space near",
    "the area close to", "the space close to", "the immediate area around", "the area surrounding",
    "the space surrounding", "the area by", "the area beside", "the zone around",
    "the region around", "the vicinity of", "the area immediately around",
    "the space immediately around", "the area right next to", "the space right next to")]


#: Count comparisons in conditions ("if there are more than two chairs ...").
_COMPARATORS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("more", "than"), ">"), (("over",), ">"), (("at", "least"), ">="), (("fewer", "than"), "<"),
    (("less", "than"), "<"), (("at", "most"), "<="), (("exactly",), "=="))


@dataclass
class Token:
    """A lower-case word or punctuation mark with its character span in the instruction."""

    text: str
    start: int
    end: int


@dataclass
class Modifier:
    """A post- or pre-modifier of a referring expression.

    ``kind`` is one of ``in_room``, ``on``, ``with``, ``near``, ``next_to``, ``far_from``,
    ``rank``, ``between``, ``in_corner``, ``adjacent``, ``start_room``, ``size``, ``other``
    ("the other bedroom"); ``rank`` may also be ``most``/``fewest`` with the counted thing in
    ``refs`` ("the room with the most beds");
    ``refs`` are the nested expressions; ``rank`` is nearest/farthest/largest/smallest with
    ``k`` the ordinal; ``count`` the number in "with two windows"; ``negated`` for "without";
    ``floating``: an ``in ROOM`` after a ranking anchor ("the chair nearest to the bed in the
    bedroom"): it restricts the ranked head, and the anchor too when the anchor is there.
    """

    kind: str
    refs: list[RefExpr] = field(default_factory=list)
    rank: str = ""
    k: int = 1
    count: int | None = None
    negated: bool = False
    span: tuple[int, int] = (0, 0)
    floating: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "span": list(self.span)}
        if self.floating:
            out["floating"] = True
        if self.rank:
            out["rank"] = self.rank
            out["k"] = self.k
        if self.count is not None:
            out["count"] = self.count
        if self.negated:
            out["negated"] = True
        if self.refs:
            out["refs"] = [r.to_json() for r in self.refs]
        return out


@dataclass
class RefExpr:
    """A referring expression: ``the chair nearest to the bed in the bedroom``.

    Attributes:
        text, span: the words and their character span in the instruction.
        head: a benchmark category (``chair``), a group word (``table``), a room type
            (``bedroom``), ``room``, ``window``, ``door``, ``wall``, ``start`` or ``here``.
        head_kind: ``object``, ``group``, ``room``, ``window``, ``door``, ``wall``, ``start``.
        definite: "the X" (must be unique) versus "a X" (any one).
        plural: "the windows", "all chairs" (a set, not one entity).
        modifiers: in source order.
        fuzzy: the unknown word the head was fuzzily matched from, if any.
    """

    text: str
    span: tuple[int, int]
    head: str
    head_kind: str
    definite: bool = True
    plural: bool = False
    modifiers: list[Modifier] = field(default_factory=list)
    fuzzy: str = ""

    def depth(self) -> int:
        """Nesting depth: 1 for a bare head, plus one per level of nested references."""
        inner = [r.depth() for mod in self.modifiers for r in mod.refs]
        return 1 + (max(inner) if inner else 0)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text, "span": list(self.span), "head": self.head,
                               "head_kind": self.head_kind, "definite": self.definite,
                               "plural": self.plural,
                               "modifiers": [mod.to_json() for mod in self.modifiers]}
        if self.fuzzy:
            out["fuzzy_from"] = self.fuzzy
        return out


@dataclass
class Clause:
    """One instruction clause.

    ``kind``: ``goal`` (go to / visit), ``pass`` (go through a room), ``avoid``, ``near``,
    ``far``, ``relative``, ``clearance``, ``circle``, ``follow_wall``, ``if``, ``mention``
    ("there is a box in the bedroom": names a referent for a later "it", no stage).
    ``refs``: the targets (several for "visit the sofa, the desk and the bed"); ``other``:
    Relative's B; ``within``: spatial scope; ``during``: temporal scope, a reference to the
    stage target it is tied to (``{"until": ref}``, ``{"after": ref}``, ``{"this": True}``).
    For ``if``: ``condition`` and ``then``/``orelse`` clause lists.
    """

    kind: str
    span: tuple[int, int]
    text: str
    refs: list[RefExpr] = field(default_factory=list)
    other: RefExpr | None = None
    within: RefExpr | None = None
    during: dict[str, Any] | None = None
    direction: str = ""
    laps: int = 1
    condition: dict[str, Any] | None = None
    then: list[Clause] = field(default_factory=list)
    orelse: list[Clause] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "span": list(self.span), "text": self.text}
        if self.refs:
            out["refs"] = [r.to_json() for r in self.refs]
        if self.other is not None:
            out["other"] = self.other.to_json()
        if self.within is not None:
            out["spatial_scope"] = self.within.to_json()
        if self.during is not None:
            out["temporal_scope"] = {k: (v.to_json() if isinstance(v, RefExpr) else v)
                                     for k, v in self.during.items()}
        if self.direction:
            out["direction"] = self.direction
        if self.laps != 1:
            out["laps"] = self.laps
        if self.condition is not None:
            out["condition"] = {k: (v.to_json() if isinstance(v, RefExpr) else v)
                                for k, v in self.condition.items()}
            out["then"] = [c.to_json() for c in self.then]
            out["otherwise"] = [c.to_json() for c in self.orelse]
        return out


@dataclass
class InstructionParse:
    """The whole instruction: clauses in route order, plus words the parser did not use."""

    instruction: str
    clauses: list[Clause]
    unknown_words: list[str] = field(default_factory=list)
    attachment: str = "local"

    def references(self) -> list[RefExpr]:
        """Every top-level referring expression of every clause (nested ones inside)."""
        out: list[RefExpr] = []

        def walk(cs: list[Clause]) -> None:
            for c in cs:
                out.extend(c.refs)
                for r in (c.other, c.within):
                    if r is not None:
                        out.append(r)
                if c.condition:
                    out.extend(v for v in c.condition.values() if isinstance(v, RefExpr))
                walk(c.then)
                walk(c.orelse)

        walk(self.clauses)
        return out

    def to_json(self) -> dict[str, Any]:
        stages: list[dict[str, Any]] = []
        constraints: list[dict[str, Any]] = []
        for c in self.clauses:
            (stages if c.kind in ("goal", "pass", "circle", "follow_wall", "if")
             else constraints).append(c.to_json())
        return {"instruction": self.instruction, "attachment": self.attachment,
                "stages": stages, "constraints": constraints,
                "references": [r.to_json() for r in self.references()],
                "max_reference_depth": max((r.depth() for r in self.references()), default=0),
                "unknown_words": self.unknown_words}


def _same_ref(a: RefExpr, b: RefExpr) -> bool:
    """Whether a scope's "until X" names the stage target ``a`` (same head word suffices)."""
    return a.head == b.head


def norm_text(text: str) -> str:
    return " ".join(w for w in re.findall(r"[a-z0-9]+", text.lower())
                    if w not in ("the", "a", "an", "that", "this"))


def match_stage(until: RefExpr, stages: list[Clause]) -> Clause | None:
    """The stage an "until X" / "on the way to X" names: same words first, else same head."""
    for c in stages:
        if c.refs and norm_text(c.refs[0].text) == norm_text(until.text):
            return c
    for c in stages:
        if c.refs and c.refs[0].head == until.head:
            return c
    return None


def _all_stages(clauses: list[Clause]) -> list[Clause]:
    out: list[Clause] = []
    for c in clauses:
        if c.kind in ("goal", "pass", "circle", "follow_wall"):
            out.append(c)
        out.extend(_all_stages(c.then))
        out.extend(_all_stages(c.orelse))
    return out


class ParseError(Exception):
    """The parser could not understand part of the instruction; ``word`` names it."""

    def __init__(self, message: str, word: str = "", span: tuple[int, int] | None = None) -> None:
        super().__init__(message)
        self.word = word
        self.span = span


# --- tokenising --------------------------------------------------------------------------------
_TOKEN_RE = re.compile(r"[a-z0-9]+(?:['\-.][a-z0-9]+)*'?|[,;.:!?()]")


def tokenize(text: str) -> list[Token]:
    """Lower-case tokens with spans; contractions expanded into several tokens with one span."""
    out: list[Token] = []
    for mt in _TOKEN_RE.finditer(text.lower().replace("\u2019", "'")):
        word = mt.group(0)
        if word in _CONTRACTIONS:
            for part in _CONTRACTIONS[word].split(" "):
                out.append(Token(part, mt.start(), mt.end()))
        elif "-" in word and word not in _CONTRACTIONS:
            parts = word.split("-")
            pos = mt.start()
            for part in parts:
                out.append(Token(part, pos, pos + len(part)))
                pos += len(part) + 1
        elif word.endswith("'s") and len(word) > 2:
            out.append(Token(word[:-2], mt.start(), mt.end() - 2))
            out.append(Token("'s", mt.end() - 2, mt.end()))
        else:
            out.append(Token(word.rstrip("'"), mt.start(), mt.end()))
    return out


#: Chat shorthand and common misspellings of function words (content words go to rapidfuzz).
_SHORTHAND = {"u": "you", "ur": "your", "pls": "please", "plz": "please", "pleas": "please",
              "teh": "the", "hte": "the", "th": "the", "thru": "through", "tho": "though",
              "nxt": "next", "rm": "room", "w": "with", "b4": "before",
              "frm": "from", "twords": "towards", "untill": "until", "infront": "in front",
              "ontop": "on top", "closeset": "closest", "nearst": "nearest"}
#: Interjections, greetings and politeness that carry no route content; dropped.
_FILLER_WORDS = {"um", "umm", "uh", "uhh", "uhm", "er", "erm", "hmm", "hm", "hey", "hi",
                 "hello", "thanks", "thx", "ty", "cheers", "kindly", "ok", "okay", "alright",
                 "yeah", "oh", "well", "basically", "like", "dear", "anyway", "anyways"}
_FILLER_PHRASES: list[tuple[str, ...]] = [tuple(x.split()) for x in (
    "if it is not too much trouble", "if you do not mind", "if you would not mind",
    "when you get a chance", "when you have a moment", "thank you", "for me",
    "what i would like you to do is to", "what i would like you to do is",
    "what i need you to do is to", "what i need you to do is", "what i want you to do is to",
    "what i want you to do is", "what i would like you to do", "what i need you to do",
    "what i want you to do", "all i need is for you to", "i would like you to", "i would like to", "i need you to",
    "i want you to", "i would love it if you could", "would you mind", "would you be able to",
    "could you please", "can you please", "would you please", "could you", "can you",
    "would you", "will you", "are you able to", "be a dear and", "do me a favour and",
    "do me a favor and", "would you be so kind as to", "be so kind as to", "be so kind and",
    "if you could", "if you can", "you can", "you should", "i think",
    "go ahead and", "just", "right now", "real quick", "as well", "and stuff")]
#: Verbs of an errand after "go (and)": "go and find the clock", "go see the dog bed".
_ERRAND_VERBS = {"see", "get", "find", "fetch", "grab", "check", "visit", "wait", "look"}
#: "come back (here)" / "return" at the end of a clause: back to where the robot started.
_BACK: list[tuple[str, ...]] = [tuple(x.split()) for x in (
    "come back here", "come back to me", "come back", "go back", "head back", "get back",
    "return here", "return to me", "return", "come back home", "go back home", "head home",
    "come home", "go home", "return home", "back here", "come back over here")]


def _normalise(toks: list[Token]) -> list[Token]:
    """Rewrite equivalent phrasings onto one form, keeping spans.

    ``check whether X has Y: if it does, A, if not, B`` -> ``if X has Y, A, otherwise B``;
    chat shorthand (``u``, ``pls``, ``teh``) and ``go too the`` are spelt out; interjections
    and politeness (``um``, ``could you``, ``if it's not too much trouble``) are dropped;
    a clause-final ``come back (here)`` / ``return`` becomes ``go to start``.
    """
    toks = _drop_fillers(toks)
    out: list[Token] = []
    i = 0
    words = [t.text for t in toks]

    def at(k: int, *seq: str) -> bool:
        return tuple(words[k:k + len(seq)]) == seq

    while i < len(toks):
        t = toks[i]
        lab = _label_length(words, i)
        if lab and (not out or out[-1].text in (".", ";", "!", "?", ",")):
            # "Goal: the fridge.", "Stop 2: the sofa", "Constraint: avoid X": a form's field name
            i += lab
            continue
        if words[i] in ("avoid", "via") and at(i + 1, ":"):
            out.append(t)  # "Avoid: the bathroom"
            i += 2
            continue
        if (at(i, "check", "whether") or at(i, "check", "if") or at(i, "see", "whether")
                or at(i, "see", "if") or at(i, "find", "out", "whether")):
            n = 3 if at(i, "find") else 2
            out.append(Token("if", t.start, toks[i + n - 1].end))
            i += n
            continue
        if t.text == ":":
            out.append(Token(",", t.start, t.end))
            i += 1
            continue
        for pat in (("if", "it", "does", "not"), ("if", "it", "does", "n't"), ("if", "not"),
                    ("if", "there", "is", "not"), ("if", "there", "is", "none"),
                    ("if", "there", "are", "none"), ("if", "it", "has", "not"),
                    ("if", "it", "is", "not")):
            if at(i, *pat):
                out.append(Token("otherwise", t.start, toks[i + len(pat) - 1].end))
                i += len(pat)
                break
        else:
            for yes in (("if", "it", "does"), ("if", "so"), ("if", "yes"), ("if", "there", "is"),
                        ("if", "it", "has"), ("if", "it", "is")):
                if at(i, *yes) and (i + len(yes) >= len(toks) or words[i + len(yes)] == ","):
                    out.append(Token("then", t.start, toks[i + len(yes) - 1].end))
                    i += len(yes)
                    break
            else:
                out.append(t)
                i += 1
    return out


#: Field names of operator-style instructions ("Goal: the fridge", "Waypoint 2: the sofa").
_LABEL_WORDS = {"goal", "goals", "destination", "target", "targets", "constraint", "constraints",
                "stop", "waypoint", "wp", "step", "task", "objective", "mission", "leg", "via",
                "avoid", "note", "final", "last", "next", "then", "requirement", "rule",
                "preference", "order", "orders", "route", "plan", "instruction", "instructions",
                "end", "start", "cmd", "command"} | set(_ORDINALS) | {
                    "one", "two", "three", "four", "five", "1", "2", "3", "4", "5", "6", "#"}


def _label_length(words: list[str], i: int) -> int:
    """Tokens of a field label ``Goal:`` / ``First stop:`` / ``Waypoint 2:`` at ``i`` (0 if none)."""
    for n in range(1, 4):
        if i + n < len(words) and words[i + n] == ":":
            label = words[i:i + n]
            if all(w in _LABEL_WORDS for w in label) and any(
                    w not in _ORDINALS and not w.isdigit() for w in label) and \
                    label[0] not in ("avoid", "via"):
                return n + 1
            return 0
    return 0


def _drop_fillers(toks: list[Token]) -> list[Token]:
    """Spell out shorthand, drop filler words/phrases and rewrite a final "come back"."""
    spelt: list[Token] = []
    for n, t in enumerate(toks):
        nxt = _SHORTHAND.get(toks[n + 1].text, toks[n + 1].text) if n + 1 < len(toks) else ""
        word = _SHORTHAND.get(t.text, t.text)
        if t.text in ("too", "2") and (nxt in ("the", "a", "an", "my", "your", "this", "that")
                                       or (t.text == "2" and n > 0 and
                                           toks[n - 1].text in _MOVE_VERBS)):
            word = "to"  # "go too the fridge", "go 2 the bin""
        for part in word.split(" "):
            spelt.append(Token(part, t.start, t.end))
    words = [t.text for t in spelt]
    out: list[Token] = []
    i = 0
    while i < len(spelt):
        ends = {"", ".", ",", ";", "!", "?", "and", "then", "please"}
        n = max((len(p) for p in _BACK if tuple(words[i:i + len(p)]) == p and
                 (words[i + len(p)] if i + len(p) < len(words) else "") in ends), default=0)
        if n and words[i] != "back" or (n and (not out or out[-1].text in (
                ",", "then", "and", "finally", "lastly"))):
            t0, t1 = spelt[i], spelt[i + n - 1]
            out.extend(Token(w, t0.start, t1.end) for w in ("go", "to", "start"))
            i += n
            continue
        n = max((len(p) for p in _FILLER_PHRASES if tuple(words[i:i + len(p)]) == p), default=0)
        if words[i] in ("go", "come") and i + 1 < len(words) and (
                words[i + 1] in _ERRAND_VERBS or (words[i + 1] == "and" and i + 2 < len(words)
                                                 and words[i + 2] in _ERRAND_VERBS)):
            n = 1 if words[i + 1] != "and" else 2  # "go and find the X", "go see the X"
        if n:
            i += n
            continue
        if words[i] in _FILLER_WORDS and not (words[i] in ("like", "well") and out and
                                              out[-1].text not in (",", ".", "so")):
            i += 1
            continue
        if words[i] in ("so", "robot", "is") and (not out or out[-1].text in (",", ".", "!", "?")):
            i += 2 if words[i] == "is" and i + 1 < len(words) and words[i + 1] == "to" else 1
            continue
        out.append(spelt[i])
        i += 1
    return out


#: Markers of a self-correction: "the sofa, no wait, the armchair", "sorry, I mean".
_CORRECTIONS: list[tuple[str, ...]] = [tuple(x.split()) for x in (
    "no wait", "no sorry", "sorry i mean", "sorry", "no actually", "actually no", "i mean",
    "or rather", "rather", "no i mean", "wait no", "scratch that", "make that", "correction")]
#: Subjects of a narrated statement ("I didn't sleep well", "he left it on the table").
_NARRATORS = {"i", "he", "she", "we", "they", "his", "her", "my", "our", "their", "mr", "mrs",
              "ms"}


def _sentences(toks: list[Token]) -> list[list[Token]]:
    """Split at . ! ? (each sentence keeps its closing mark)."""
    out: list[list[Token]] = [[]]
    for t in toks:
        out[-1].append(t)
        if t.text in (".", "!", "?"):
            out.append([])
    return [s for s in out if s]


def _content(sent: list[Token]) -> list[str]:
    return [t.text for t in sent if t.text not in (".", "!", "?", ",", "and", "so", "but")]


def _has_head(words: list[str]) -> bool:
    lex = _lexicon()
    return any(lex.match(words[k:]) is not None for k in range(len(words)))


def _is_request(words: list[str]) -> bool:
    """Whether a sentence asks for something: it opens with (or is) a verb of the route."""
    return bool(words) and (words[0] in _OPENERS or words[0] in _START_WORDS or
                            (words[0] == "you" and len(words) > 1 and words[1] in _OPENERS))


def _chatter(words: list[str]) -> bool:
    """A sentence that tells, not asks: no route word at all, or a narrated statement."""
    if not words:
        return True
    if _is_request(words):
        return False
    if not _has_head(words) and not any(w in _OPENERS for w in words):
        return True  # "Good morning.", "hurry!", "Thanks, dear."
    return words[0] in _NARRATORS or words[:2] == ["it", "is"] or (
        words[0] in ("the", "a") and any(w in _NARRATORS for w in words))


def _np_tail(sent: list[Token], end: int) -> int:
    """Where the goal phrase before ``end`` starts: after the last ``to`` / move verb."""
    for k in range(end - 1, -1, -1):
        w = sent[k].text
        if w in ("to", "at", "by") or (w in _MOVE_VERBS and w not in ("back",)):
            return k + 1
    return 0


def _correct(sent: list[Token]) -> list[Token]:
    """``go to X, no wait, Y`` -> ``go to Y`` within one sentence."""
    words = [t.text for t in sent]
    for k in range(1, len(words)):
        n = max((len(p) for p in _CORRECTIONS if tuple(words[k:k + len(p)]) == p), default=0)
        if not n or (words[k - 1] != "," and words[k] not in ("or", "no")):
            continue
        rest = k + n
        while rest < len(words):
            if words[rest] == ",":
                rest += 1
                continue
            m = max((len(p) for p in _CORRECTIONS if tuple(words[rest:rest + len(p)]) == p),
                    default=0)
            if not m:
                break
            rest += m
        if rest >= len(words) or not _has_head(words[rest:]):
            continue
        begin = _np_tail(sent, k)
        if begin == 0 or begin >= k:
            continue
        return sent[:begin] + sent[rest:]
    return sent


def _discourse(toks: list[Token]) -> list[Token]:
    """Sentence-level clean-up of spoken requests, before clause splitting.

    Self-corrections keep only the corrected phrase ("the sofa, no wait, the armchair";
    "Go to the TV stand. No wait, the TV stand in the living room"); a verbless follow-up
    fragment ("Go to the dresser. The one in the living room." / "... the biggest one!")
    replaces the goal phrase of the sentence before; sentences that only tell (greetings,
    "I didn't sleep well", "He left it on the table", "It's urgent!") are dropped when another
    sentence asks for a route.
    """
    sents = [_correct(s) for s in _sentences(toks)]
    out: list[list[Token]] = []
    for s in sents:
        words = _content(s)
        lead = 0
        while lead < len(words) and words[lead] in ("no", "wait", "sorry", "actually", "oops",
                                                   "i", "mean", "rather", "or"):
            lead += 1
        fragment = words[lead:] and not _is_request(words[lead:]) and \
            words[lead] in ("the", "that", "this") and _has_head(words[lead:] + ["x"])
        if out and fragment and (lead or "one" in words or "ones" in words) and \
                _has_head([w for w in words[lead:] if w not in ("one", "ones")] + ["x"]):
            prev = out[-1]
            end = len(prev) - (1 if prev[-1].text in (".", "!", "?") else 0)
            begin = _np_tail(prev, end)
            if 0 < begin < end:
                body = [t for t in s if t.text not in (".", "!", "?")]
                while body and body[0].text in ("no", "wait", "sorry", "actually", "oops", ",",
                                                "i", "mean", "rather", "or"):
                    body = body[1:]
                old = [t.text for t in prev[begin:end]]
                head = next((old[q:q + m[0]] for q in range(len(old))
                             if (m := _lexicon().match(old[q:])) is not None), None)
                new: list[Token] = []
                for t in body:
                    if t.text in ("one", "ones") and head:
                        new.extend(Token(h, t.start, t.end) for h in head)
                    else:
                        new.append(t)
                out[-1] = prev[:begin] + new + prev[end:]
                continue
        out.append(s)
    keep = [s for s in out if not _chatter(_content(s))]
    if keep and any(_is_request(_content(s)) or _has_head(_content(s)) for s in keep):
        out = keep
    return [t for s in out for t in s]


# --- the lexicon of heads ----------------------------------------------------------------------
class _Lexicon:
    def __init__(self) -> None:
        self.phrases: dict[tuple[str, ...], tuple[str, str]] = {}
        for phrase, cat in category_phrases().items():
            kind = "window" if cat == "window" else "object"
            self.phrases[tuple(phrase.split())] = (cat, kind)
        for word in GROUPS:
            self.phrases[(word,)] = (word, "group")
        for word, rt in ROOM_WORDS.items():
            self.phrases[tuple(word.split())] = (rt.snake, "room")
        for word, what in STRUCTURE_WORDS.items():
            self.phrases[(word,)] = (what, what)
        for word in _ROOM_HEADS:
            self.phrases[(word,)] = ("room", "room")
        self.max_len = max(len(k) for k in self.phrases)
        self.singles = sorted({" ".join(k) for k in self.phrases})

    def match(self, words: list[str]) -> tuple[int, str, str, bool] | None:
        """Longest head at the start of ``words``: (length, head, kind, plural)."""
        for n in range(min(self.max_len, len(words)), 0, -1):
            key = tuple(words[:n])
            if key in self.phrases:
                head, kind = self.phrases[key]
                plural = key[-1].endswith("s") and not key[-1].endswith("ss") and \
                    tuple(words[:n - 1]) + (singular(key[-1]),) in self.phrases and \
                    singular(key[-1]) != key[-1]
                return n, head, kind, plural
            sing = tuple(words[:n - 1]) + (singular(words[n - 1]),)
            if sing != key and sing in self.phrases:
                head, kind = self.phrases[sing]
                return n, head, kind, True
        return None

    def fuzzy(self, word: str) -> tuple[str, str] | None:
        from rapidfuzz import fuzz, process

        if len(word) < 4:
            return None
        best = process.extractOne(word, self.singles, scorer=fuzz.ratio, score_cutoff=82)
        if best is None:
            return None
        return self.phrases[tuple(best[0].split())]


_LEX: _Lexicon | None = None


def _lexicon() -> _Lexicon:
    global _LEX
    if _LEX is None:
        _LEX = _Lexicon()
    return _LEX


# --- the parser --------------------------------------------------------------------------------
class _Parser:
    def __init__(self, text: str, attachment: str) -> None:
        self.text = text
        self.toks = _discourse(_normalise(tokenize(text)))
        self.words = [t.text for t in self.toks]
        self.inner = ATTACHMENTS[attachment]
        self.attachment = attachment
        self.lex = _lexicon()
        self.used: set[int] = set()
        self.unknown: list[str] = []
        self.last_head: tuple[str, str] | None = None
        self.via: set[int] = set()
        self.absent: list[tuple[str, int]] = []

    # --- helpers ---------------------------------------------------------------------
    def w(self, i: int) -> str:
        return self.words[i] if 0 <= i < len(self.words) else ""

    def at(self, i: int, *seq: str) -> bool:
        return all(self.w(i + k) == s for k, s in enumerate(seq))

    def comparator(self, k: int) -> tuple[str, int]:
        """A count comparison at token ``k`` ("more than", "at least", ...): its operator
        (``""`` if none) and the index after it."""
        for words, op in _COMPARATORS:
            if self.at(k, *words):
                return op, k + len(words)
        return "", k

    def at_any(self, i: int, options: list[tuple[str, ...]]) -> int:
        """Length of the first option matching at ``i`` (0 if none); longest options first."""
        w = self.w(i)
        best = 0
        for opt in options:
            n = len(opt)
            if n > best and opt[0] == w and tuple(self.words[i:i + n]) == opt:
                best = n
        if best:
            self.used.update(range(i, i + best))
        return best

    def span(self, i: int, j: int) -> tuple[int, int]:
        if j <= i:
            p = self.toks[i].start if i < len(self.toks) else len(self.text)
            return p, p
        return self.toks[i].start, self.toks[j - 1].end

    def mark(self, i: int, j: int) -> None:
        self.used.update(range(i, j))

    # --- noun phrases ----------------------------------------------------------------
    def np(self, i: int, end: int, nested: int = 0,
           under_rank: bool = False) -> tuple[RefExpr, int] | None:
        """Parse a noun phrase starting at ``i`` (not beyond ``end``)."""
        start = i
        definite, plural = True, False
        k, rank = 1, ""
        pre: list[Modifier] = []
        # start-room phrases first: "the room you start in", "your starting room", "where you started"
        sr = self._start_phrase(i, end)
        if sr is not None:
            return sr
        while i < end and self.w(i) in _DETS | {"of", "to"} - {"to"}:
            if self.w(i) in ("one", "ones") and i > start and self.last_head is not None and \
                    self.lex.match(self.words[i + 1:end]) is None:
                break  # "the one in the bedroom": one-anaphora, read below
            if self.w(i) in ("a", "an", "any", "some", "one"):
                definite = False
            if self.w(i) in ("all", "every", "each", "those", "these"):
                plural = True
            i += 1
        if self.at(i, "most", "distant") or self.at(i, "most", "remote"):
            rank, i = "farthest", i + 2
        if self.w(i) in _ORDINALS and self.w(i + 1) in (_NEAREST | _FARTHEST | _LARGEST | _SMALLEST):
            k = _ORDINALS[self.w(i)]
            i += 1
        elif self.w(i) == "last" and self.w(i + 1) not in ("room",):
            pass
        if self.w(i) in _NEAREST:
            rank, i = "nearest", i + 1
        elif self.w(i) in _COMPARATIVE and not self._than_follows(i, end):
            rank, i = _COMPARATIVE[self.w(i)], i + 1
        elif self.w(i) in _FARTHEST:
            rank, i = "farthest", i + 1
        elif self.w(i) in _LARGEST:
            rank, i = "largest", i + 1
        elif self.w(i) in _SMALLEST:
            rank, i = "smallest", i + 1
        size_rank = ""
        other = False
        while i < end and (self.w(i) in _FILLER_ADJ or self.w(i) in _SIZE_ADJ):
            if self.w(i) in _SIZE_ADJ and self.lex.match(self.words[i:end]) is None:
                size_rank = _SIZE_ADJ[self.w(i)]
            other = other or self.w(i) == "other"
            i += 1
        for n_abs in (2, 1):
            place = " ".join(self.words[i:i + n_abs])
            if place in ABSENT_PLACES and self.lex.match(self.words[i + n_abs:end]) is None:
                # "the garage": a real place no map has; never read it fuzzily as "garbage"
                self.absent.append((place, i))
                return None
        hm = self.lex.match(self.words[i:end])
        fuzzy_from = ""
        if hm is None and self.w(i) in ("one", "ones") and i > start and self.last_head:
            # "the plant in the living room and then the one in the bedroom": same head
            hm = (1, self.last_head[0], self.last_head[1], self.w(i) == "ones")
        if hm is None and i == start and self.w(i) in ("it", "there", "them", "one", "that"):
            ref = RefExpr(self._text(i, i + 1), self.span(i, i + 1), "it", "pronoun")
            self.mark(i, i + 1)
            return ref, i + 1
        if hm is None and self.w(i) in ("you", "me", "yourself", "us"):
            # "the chair closest to you": where the robot is when told, i.e. the start
            ref = RefExpr(self._text(start, i + 1), self.span(start, i + 1), "start", "start")
            self.mark(start, i + 1)
            return ref, i + 1
        if hm is None and self.w(i) == "here":
            ref = RefExpr(self._text(start, i + 1), self.span(start, i + 1), "here", "here")
            self.mark(start, i + 1)
            return ref, i + 1
        if hm is None and i + 1 < end and self.w(i).isalpha() and self.w(i) not in _OPENERS \
                and self.w(i) not in _REL_INTRO | {"and", "or", "then", "than"} and \
                self.lex.match(self.words[i + 1:end]) is not None and \
                self.lex.fuzzy(self.w(i)) is None:
            # an unknown adjective or a typo of a determiner ("the comfy sofa", "teh sofa")
            self.unknown.append(self.w(i))
            i += 1
            hm = self.lex.match(self.words[i:end])
        if hm is None:
            if i < end and self.w(i) in _START_WORDS and self.w(i + 1) in ("point", "position",
                                                                        "location", "spot",
                                                                        "place"):
                ref = RefExpr(self._text(start, i + 2), self.span(start, i + 2), "start", "start")
                self.mark(start, i + 2)
                return ref, i + 2
            if i < end and self.w(i).isalpha() and self.w(i) not in _OPENERS and \
                    self.w(i) not in _REL_INTRO | {"and", "or", "then"}:
                fz = self.lex.fuzzy(self.w(i))
                if fz is None:
                    return None
                fuzzy_from = self.w(i)
                hm = (1, fz[0], fz[1], False)
            else:
                return None
        n, head, kind, pl = hm
        if head == "room" and kind == "room" and "this" in self.words[start:i] and n == 1:
            # "the sofa in this room": deictic, the room the speaker and robot are in now
            pre.append(Modifier("start_room", span=self.span(start, i + 1)))
        room_mod: Modifier | None = None
        lead_room = ROOM_WORDS.get(self.w(i))
        if n > 1 and lead_room is not None and kind in ("object", "group"):
            # a lexicalised compound "kitchen table" (dining table): still in the kitchen
            room_ref = RefExpr(self._text(i, i + 1), self.span(i, i + 1), lead_room.snake, "room")
            room_mod = Modifier("in_room", [room_ref], span=self.span(i, i + 1))
        if kind == "room" and head != "room":
            nxt = self.lex.match(self.words[i + n:end])
            if nxt is not None and nxt[2] in ("object", "group", "window", "door"):
                # a compound "kitchen chair": the room is a location modifier
                room_ref = RefExpr(self._text(i, i + n), self.span(i, i + n), head, "room")
                room_mod = Modifier("in_room", [room_ref], span=self.span(i, i + n))
                i += n
                n, head, kind, pl = nxt[0], nxt[1], nxt[2], nxt[3]
        i += n
        plural = plural or pl
        self.mark(start, i)
        if nested == 0 and kind in ("object", "group", "room"):
            self.last_head = (head, kind)
        ref = RefExpr("", (0, 0), head, kind, definite, plural, [], fuzzy_from)
        if room_mod is not None:
            ref.modifiers.append(room_mod)
        if rank:
            pre.append(Modifier("rank", [], rank=rank, k=k, span=self.span(start, i)))
        elif size_rank:
            pre.append(Modifier("rank", [], rank=size_rank, k=1, span=self.span(start, i)))
        if other and definite:
            # "the other bedroom": not the one the robot is in (rooms) or last named (objects)
            pre.append(Modifier("other", span=self.span(start, i)))
        ref.modifiers.extend(pre)
        # a pre-nominal superlative may take its reference after the head: "the closest chair to the bed"
        if rank in ("nearest", "farthest") and self.w(i) in ("to", "from"):
            inner = self.np(i + 1, end, nested + 1, under_rank=True)
            if inner is not None:
                ref.modifiers[-1].refs.append(inner[0])
                ref.modifiers[-1].span = self.span(start, inner[1])
                i = inner[1]
        i = self.postmods(ref, i, end, nested, under_rank)
        ref.text = self._text(start, i)
        ref.span = self.span(start, i)
        return ref, i

    def _text(self, i: int, j: int) -> str:
        a, b = self.span(i, j)
        return self.text[a:b]

    def _start_phrase(self, i: int, end: int) -> tuple[RefExpr, int] | None:
        j = i
        while self.w(j) in ("the", "your", "my", "our"):
            j += 1
        pats: list[tuple[str, ...]] = [
            ("room", "you", "start", "in"), ("room", "you", "started", "in"),
            ("room", "you", "are", "in"), ("room", "you", "begin", "in"),
            ("room", "you", "are", "currently", "in"), ("room", "you", "are", "in", "now"),
            ("room", "where", "you", "start"), ("room", "where", "you", "started"),
            ("room", "you", "began", "in"), ("room", "i", "am", "in"),
            ("starting", "room"), ("start", "room"), ("current", "room"), ("initial", "room"),
            ("own", "room"), ("room", "you", "are", "starting", "in"), ("origin", "room"),
        ]
        n = self.at_any(j, pats)
        if n:
            ref = RefExpr(self._text(i, j + n), self.span(i, j + n), "room", "room", True, False,
                          [Modifier("start_room", span=self.span(i, j + n))])
            self.mark(i, j + n)
            ref2 = ref
            k = self.postmods(ref2, j + n, end, 1)
            ref2.text, ref2.span = self._text(i, k), self.span(i, k)
            return ref2, k
        pats2: list[tuple[str, ...]] = [
            ("where", "you", "started"), ("where", "you", "start"), ("where", "you", "began"),
            ("where", "you", "are", "now"), ("where", "you", "are"), ("start",), ("beginning",),
            ("starting", "point"), ("start", "point"), ("starting", "position"),
            ("start", "position"), ("starting", "location"), ("origin",), ("starting", "spot"),
            ("initial", "position"), ("spot", "you", "started"), ("point", "you", "started"),
            ("place", "you", "started"), ("base",), ("home", "base"), ("dock",),
            ("docking", "station"), ("charging", "station"), ("charger",), ("home",),
            ("home", "position"), ("start", "location"), ("starting", "place"),
        ]
        n = self.at_any(j, pats2)
        if n:
            ref = RefExpr(self._text(i, j + n), self.span(i, j + n), "start", "start")
            self.mark(i, j + n)
            return ref, j + n
        return None

    def postmods(self, ref: RefExpr, i: int, end: int, nested: int,
                 under_rank: bool = False) -> int:
        """Attach post-modifiers to ``ref``; nested phrases keep only the policy's kinds."""
        while i < end:
            j = i
            intro = False
            while j < end and (self.w(j) in _REL_INTRO or (self.w(j) == "and" and intro)):
                if self.w(j) in ("that", "which", "who"):
                    intro = True
                j += 1
            if self.w(j) == "and" and j + 1 < end and self._mod_start(j + 1, ref):
                j += 1
                intro = True
            while j < end and self.w(j) in _REL_INTRO:
                j += 1
            got = self._modifier(ref, j, end, nested)
            if got is None:
                return i
            mod, k = got
            if nested and (mod.kind not in self.inner or (intro and self.attachment != "low")):
                return i
            if under_rank and self.attachment == "local" and mod.kind == "in_room":
                # "the chair nearest to the bed in the bedroom": the room restricts the chairs
                # and, where it can, the bed (decided on the map by the program)
                mod.floating = True
            ref.modifiers.append(mod)
            self.mark(i, k)
            i = k
        return i

    def _mod_start(self, j: int, ref: RefExpr) -> bool:
        return self.w(j) in {"in", "inside", "within", "on", "nearest", "closest", "farthest",
                             "furthest", "near", "next", "beside", "by", "far", "with",
                             "between", "that", "which", "connected", "adjacent", "located"}

    def _modifier(self, ref: RefExpr, j: int, end: int, nested: int) -> tuple[Modifier, int] | None:
        w = self.w(j)
        is_room = ref.head_kind == "room"
        # --- start room: "(that) you start in"
        n = self.at_any(j, [("you", "start", "in"), ("you", "started", "in"), ("you", "are", "in"),
                            ("you", "begin", "in"), ("you", "are", "currently", "in"),
                            ("where", "you", "start"), ("where", "you", "started"),
                            ("you", "started", "from"), ("you", "start", "from"),
                            ("you", "are", "standing", "in"), ("you", "began", "in")])
        if n and is_room:
            k = j + n
            if self.w(k) == "now":
                k += 1
            return Modifier("start_room", span=self.span(j, k)), k
        # --- ordinal + rank: "second nearest to X", "nearest the X"
        k, rank = 1, ""
        jj = j
        if self.w(jj) in _ORDINALS and self.w(jj + 1) in _NEAREST | _FARTHEST | _LARGEST | _SMALLEST:
            k = _ORDINALS[self.w(jj)]
            jj += 1
        if self.at(jj, "most", "distant") or self.at(jj, "most", "remote"):
            rank, jj = "farthest", jj + 2
        elif self.w(jj) in _NEAREST:
            rank, jj = "nearest", jj + 1
        elif self.w(jj) in _FARTHEST:
            rank, jj = "farthest", jj + 1
        elif self.w(jj) in ("closer", "nearer", "farther", "further") and \
                self.w(jj + 1) in ("to", "from", "away") and not self._than_follows(jj, end):
            rank, jj = _COMPARATIVE[self.w(jj)], jj + 1
        elif self.w(jj) in _LARGEST | _SMALLEST and jj > j:
            r = "largest" if self.w(jj) in _LARGEST else "smallest"
            return Modifier("rank", rank=r, k=k, span=self.span(j, jj + 1)), jj + 1
        if rank:
            if self.w(jj) in ("to", "from", "away", "of") or self.w(jj) == "the":
                kk = jj + 1 if self.w(jj) in ("to", "from", "of") else jj
                if self.w(jj) == "away" and self.w(jj + 1) == "from":
                    kk = jj + 2
                inner = self.np(kk, end, nested + 1, under_rank=True)
                if inner is None:
                    return None
                return Modifier("rank", [inner[0]], rank=rank, k=k,
                                span=self.span(j, inner[1])), inner[1]
            return Modifier("rank", [], rank=rank, k=k, span=self.span(j, jj)), jj
        # --- location
        n = self.at_any(j, [("in",), ("inside",), ("within",), ("in", "the", "middle", "of"),
                            ("inside", "of"), ("located", "in"), ("of",)])
        if n and not self.at(j, "in", "the", "corner") and not self.at(j, "in", "a", "corner") \
                and not self.at(j, "in", "between"):
            if w == "of" and not self._next_is_room(j + 1, end):
                return None
            inner = self.np(j + n, end, nested + 1)
            if inner is None:
                return None
            if inner[0].head_kind == "pronoun" and self.w(j + n) in ("there", "that", "it"):
                # "the bin in there": the room of the stop just named (the bare "the room")
                inner[0].head, inner[0].head_kind = "room", "room"
            kind = "in_room" if inner[0].head_kind == "room" else "on"
            if inner[0].head_kind in ("start", "here"):
                # "in here", "in the start": the room the robot starts in
                kind = "in_room"
                inner[0].head, inner[0].head_kind = "room", "room"
                inner[0].modifiers.append(Modifier("start_room"))
            return Modifier(kind, [inner[0]], span=self.span(j, inner[1])), inner[1]
        if self.at(j, "in", "the", "corner") or self.at(j, "in", "a", "corner") or \
                self.at(j, "in", "one", "of", "the", "corners"):
            kk = j + (3 if not self.at(j, "in", "one") else 5)
            mod = Modifier("in_corner", span=self.span(j, kk))
            if self.w(kk) == "of":
                inner = self.np(kk + 1, end, nested + 1)
                if inner is not None:
                    mod.refs.append(inner[0])
                    kk = inner[1]
                    mod.span = self.span(j, kk)
            return mod, kk
        n = self.at_any(j, [("on",), ("on", "top", "of"), ("atop",), ("upon",), ("sitting", "on"),
                            ("resting", "on"), ("placed", "on"), ("lying", "on")])
        if n:
            inner = self.np(j + n, end, nested + 1)
            if inner is None:
                return None
            return Modifier("on", [inner[0]], span=self.span(j, inner[1])), inner[1]
        # --- proximity
        n = self.at_any(j, [("next", "to"), ("beside",), ("alongside",), ("adjacent", "to"),
                            ("right", "next", "to"), ("against",), ("by", "the", "side", "of"),
                            ("connected", "to"), ("joined", "to"), ("that", "connects", "to"),
                            ("connecting", "to"), ("leading", "to"), ("off",), ("linked", "to"),
                            ("attached", "to"), ("bordering",), ("that", "leads", "to"), ("at",),
                            ("in", "front", "of"), ("facing",), ("opposite",), ("under",),
                            ("below",), ("beneath",), ("behind",)])
        if n:
            inner = self.np(j + n, end, nested + 1)
            if inner is None:
                return None
            kind = "adjacent" if is_room and inner[0].head_kind == "room" else "next_to"
            return Modifier(kind, [inner[0]], span=self.span(j, inner[1])), inner[1]
        n = self.at_any(j, [("near",), ("close", "to"), ("by",), ("near", "to"), ("nearby",),
                            ("around",), ("closer", "to")])
        if n:
            inner = self.np(j + n, end, nested + 1)
            if inner is None:
                return None
            return Modifier("near", [inner[0]], span=self.span(j, inner[1])), inner[1]
        n = self.at_any(j, [("far", "from"), ("away", "from"), ("far", "away", "from"),
                            ("distant", "from"), ("not", "near")])
        if n:
            inner = self.np(j + n, end, nested + 1)
            if inner is None:
                return None
            return Modifier("far_from", [inner[0]], span=self.span(j, inner[1])), inner[1]
        if w == "between":
            a = self.np(j + 1, end, nested + 1)
            if a is None or self.w(a[1]) != "and":
                return None
            b = self.np(a[1] + 1, end, nested + 1)
            if b is None:
                return None
            return Modifier("between", [a[0], b[0]], span=self.span(j, b[1])), b[1]
        # --- possession: "with two windows", "that has a lamp", "containing a sink", "without a bed"
        n = self.at_any(j, [("with",), ("has",), ("have",), ("having",), ("containing",),
                            ("contains",), ("holding",), ("holds",), ("that", "has"),
                            ("which", "has"), ("without",), ("that", "contains"),
                            ("which", "contains"), ("featuring",), ("includes",),
                            ("including",), ("equipped", "with")])
        if n:
            kk = j + n
            negated = w == "without"
            count: int | None = None
            most = self.at_any(kk, [("the", "most"), ("most",), ("more",), ("the", "fewest"),
                                    ("fewest",), ("fewer",), ("the", "least"), ("least",),
                                    ("less",), ("the", "greatest", "number", "of"),
                                    ("the", "largest", "number", "of"), ("the", "smallest",
                                                                         "number", "of")])
            if most and self.w(kk + most) != "than":
                # "the room with the most beds": rank by how many it holds
                fewest = any(self.w(x) in ("fewest", "fewer", "least", "less", "smallest")
                             for x in range(kk, kk + most))
                inner = self.np(kk + most, end, nested + 1)
                if inner is None:
                    return None
                return Modifier("rank", [inner[0]], rank="fewest" if fewest else "most",
                                span=self.span(j, inner[1])), inner[1]
            if self.w(kk) in ("exactly", "only", "just"):
                kk += 1
            if self.at(kk, "a", "couple", "of"):
                count, kk = 2, kk + 3
            elif self.w(kk) in _NUMBERS or self.w(kk).isdigit():
                count = _NUMBERS.get(self.w(kk), None) if not self.w(kk).isdigit() else int(self.w(kk))
                if self.w(kk) in ("a", "an", "several", "multiple"):
                    count = None if self.w(kk) in ("a", "an") else -2
                kk += 1
            inner = self.np(kk, end, nested + 1)
            if inner is None:
                return None
            if count == 0:
                negated, count = True, None
            return Modifier("with", [inner[0]], count=count, negated=negated,
                            span=self.span(j, inner[1])), inner[1]
        return None

    def _than_follows(self, i: int, end: int) -> bool:
        """Whether a ``than`` follows in the clause: "closer to A than to B" is Relative."""
        return "than" in self.words[i:end]

    def _next_is_room(self, i: int, end: int) -> bool:
        j = i
        while self.w(j) in _DETS:
            j += 1
        hm = self.lex.match(self.words[j:end])
        return hm is not None and hm[2] == "room"

    # --- clauses ---------------------------------------------------------------------
    _SKIP = ("then", "and", "finally", "lastly", "next", "afterwards", "also", "please", "but",
             "now", "so", "first", "secondly", "thirdly", ",")
    _GERUND_PREFS = ("staying", "keeping", "avoiding", "hugging", "remaining", "sticking",
                     "passing", "circling", "without", "making", "giving")

    def _after_skips(self, t: int) -> int:
        while self.w(t) in self._SKIP or self.at(t, "after", "that") or self.at(t, "after",
                                                                                 "this"):
            t += 2 if self.w(t) == "after" else 1
        return t

    def _verb_follows(self, t: int) -> bool:
        """Whether ``t`` holds a verb form ("going", "entering", "touching", "you go")."""
        w = self.w(t)
        return (w.endswith("ing") and self.lex.match([w]) is None) or w in _MOVE_VERBS or \
            w in ("you", "ever", "getting")

    def _opens_clause(self, t: int) -> bool:
        w = self.w(t)
        return w in _OPENERS or w in self._GERUND_PREFS or w in ("do", "never", "if", "otherwise",
                                                               "else", "visit", "once")

    def split(self, i: int, j: int) -> list[tuple[int, int, bool]]:
        """Clause spans ``(start, end, attached)``: cut at . ; ! ?, at ``then``, and at a comma,
        ``and``, ``but`` or ``while`` followed by a clause opener. ``attached`` marks a
        preference that was cut off a goal clause ("..., staying near the wall")."""
        cuts: list[tuple[int, bool]] = [(i, False)]
        in_if = False
        for t in range(i, j):
            w = self.w(t)
            if w == "if":
                in_if = True
            if w in (".", ";", "!", "?"):
                cuts.append((t, False))
                in_if = False
            elif w == "then" and self.w(t - 1) not in ("and",):
                cuts.append((t, False))
            elif w in (",", "and", "but"):
                nxt = self._after_skips(t + 1)
                if self.w(nxt) in self._GERUND_PREFS and not (
                        self.w(nxt) == "without" and not self._verb_follows(nxt + 1)):
                    cuts.append((t, True))
                elif self._opens_clause(nxt) and not (w == "and" and in_if and
                                                     self.w(nxt) not in _MOVE_VERBS):
                    cuts.append((t, False))
                elif w == "," and self.w(t + 1) in ("otherwise", "else"):
                    cuts.append((t, False))
                elif w == "," and in_if and nxt < j:
                    cuts.append((t, False))
                    in_if = False
            elif w == "while" and self.w(t + 1) in self._GERUND_PREFS:
                cuts.append((t, True))
            elif w in self._GERUND_PREFS and w not in ("passing", "making") and t > i and \
                    self.w(t - 1) not in ("while", ",", "and", "but", "avoid", "without") and \
                    not (w == "without" and not self._verb_follows(t + 1)):
                cuts.append((t, True))
            elif w in ("before", "after", "once") and t > i and self.w(t - 1) not in (
                    ",", "and", "then", "but") and not self.at(t, "after", "that") and \
                    self.w(t + 1) in ("going", "visiting", "you", "heading", "reaching",
                                      "walking", "stopping", "passing", "getting", "moving",
                                      "arriving", "checking", "that", "the", "a", "an"):
                cuts.append((t, False))
        cuts.append((j, False))
        out: list[tuple[int, int, bool]] = []
        for (a, att), (b, _) in zip(cuts, cuts[1:], strict=False):
            a2 = a
            while a2 < b and (self.w(a2) in (".", ";", "!", "?", ",", "and", "then", "finally",
                                             "lastly", "next", "afterwards", "also", "please",
                                             "now", "so", "while") or self.at(a2, "after", "that")
                              or self.at(a2, "after", "this")):
                if self.w(a2) == "while" and self.w(a2 + 1) not in self._GERUND_PREFS:
                    break
                a2 += 2 if self.w(a2) == "after" else 1
            if a2 < b:
                out.append((a2, b, att))
        return out

    def clauses(self) -> list[Clause]:
        spans = self.split(0, len(self.words))
        out: list[Clause] = []
        carry_within: RefExpr | None = None
        carry_during: dict[str, Any] | None = None
        k = 0
        first_goal_index = 0
        while k < len(spans):
            i, j, attached = spans[k]
            n = self.at_any(i, [("there", "is"), ("there", "are"), ("you", "will", "see"),
                                ("you", "will", "find"), ("you", "should", "see")])
            if n and self._post_if(i, j) is None:
                # "There's a box in the biggest bedroom. Go to it.": introduces a referent
                got_np = self.np(i + n, j, 0)
                if got_np is not None and got_np[1] >= j - (1 if self.w(j - 1) in (
                        ".", ",", ";") else 0):
                    out.append(Clause("mention", self.span(i, j), self._text(i, j),
                                      refs=[got_np[0]]))
                    k += 1
                    continue
            if self.w(i) == "if" or self.at(i, "but", "if") or self._post_if(i, j) is not None:
                used, clause = self.conditional(spans, k, i + (1 if self.w(i) == "but" else 0))
                out.append(clause)
                k += used
                continue
            # "In the bedroom with one window, go to the shelf": a leading place for the next clause
            if self.w(i) in ("in", "inside", "within") and k + 1 < len(spans):
                place = self.np(i + 1, j, 0)
                if place is not None and place[0].head_kind == "room" and \
                        (place[1] >= j or self.w(place[1]) in (",", ".")):
                    carry_within = place[0]
                    k += 1
                    continue
            # a span that is only a scope applies to the next clause
            body_i, body_j, within, during = self.scopes(i, j)
            if body_i >= body_j:
                after = (during or {}).get("after")
                postposed = not self._sentence_initial(i)
                if isinstance(after, RefExpr) and (k + 1 >= len(spans) or postposed) and out:
                    # postposed "..., after visiting the toilet": that visit comes first
                    pos = max(x for x, c in enumerate(out) if c.kind in ("goal", "pass")) \
                        if any(c.kind in ("goal", "pass") for c in out) else len(out)
                    out.insert(pos, Clause("goal", after.span, after.text, refs=[after]))
                    k += 1
                    continue
                ends_sentence = self.w(j) in (".", "!", "?", ";", "") or j >= len(self.words)
                last = out[-1] if out else None
                if ends_sentence and last is not None and i > 0 and \
                        self.w(i - 1) not in (".", "!", "?", ";"):
                    # "..., while you pass through the bedroom." closes the clause before it
                    if last.kind not in ("goal", "pass", "if"):
                        last.within = last.within or within
                        last.during = last.during or during
                    k += 1
                    continue
                carry_within = within or carry_within
                carry_during = during or carry_during
                k += 1
                continue
            within, during = within or carry_within, during or carry_during
            carry_within = carry_during = None
            lead = self.at_any(body_i, [("before",), ("but", "before"), ("prior", "to"),
                                        ("first", "before")])
            if lead:
                inner = self._clause_body(body_i + lead, body_j)
                postposed = not self._sentence_initial(i)
                if out and k > 0 and (postposed or not k + 1 < len(spans)):
                    # postposed: "visit the chair before going to the desk"
                    out.extend(inner)
                elif k + 1 < len(spans):
                    # preposed: "before going to the desk, visit the chair"
                    nxt = self.clause(*spans[k + 1][:2])
                    out.extend(nxt)
                    out.extend(inner)
                    k += 2
                    continue
                else:
                    out.extend(inner)
                k += 1
                continue
            lead = self.at_any(body_i, [("after",), ("once",), ("when",), ("having",)])
            if lead:
                inner = self._clause_body(body_i + lead, body_j)
                if k > 0 and out and out[-1].kind in ("goal", "pass") and k + 1 >= len(spans):
                    # postposed: "go to the desk after visiting the chair"
                    pos = len(out) - 1
                    out[pos:pos] = inner
                else:
                    out.extend(inner)
                k += 1
                continue
            got = self._clause_body(body_i, body_j)
            after = (during or {}).get("after")
            if isinstance(after, RefExpr) and got and all(c.kind in ("goal", "pass") for c in got):
                # "after visiting the toilet, go to the bed": the toilet is a stage first
                got.insert(0, Clause("goal", after.span, after.text, refs=[after]))
                during = None
            for c in got:
                if within is not None and c.kind not in ("goal", "pass"):
                    c.within = within
                elif within is not None and c.refs and c.refs[0].head_kind in ("object", "group") \
                        and not any(m.kind == "in_room" for m in c.refs[0].modifiers):
                    c.refs[0].modifiers.insert(0, Modifier("in_room", [within], span=within.span))
                if during is not None and (c.kind not in ("goal", "pass") or
                                           during.get("until") is not None):
                    c.during = during
                if attached and c.kind not in ("goal", "pass") and c.during is None:
                    c.during = {"this": True}
            if attached and out and out[-1].kind == "relative" and len(got) == 1 and \
                    got[0].kind in ("near", "far", "relative") and got[0].refs and \
                    got[0].refs[0].head_kind == "pronoun":
                # "favour A over B, staying closer to it inside the bathroom": one preference
                out[-1].within = out[-1].within or got[0].within
                out[-1].during = out[-1].during if got[0].during == {"this": True} else (
                    out[-1].during or got[0].during)
                k += 1
                continue
            if attached and got and all(c.kind == "pass" for c in got) and out and \
                    out[-1].kind == "goal":
                # "go to the TV stand, passing through the kitchen": a must-pass room attached to
                # a goal by a gerund is crossed on the way there, so it comes before that goal
                out[len(out) - 1:len(out) - 1] = got
                k += 1
                continue
            trailing_first = body_j > body_i and self.w(body_j - 1) == "first" or (
                self.w(body_j - 1) in (".", "!") and self.w(body_j - 2) == "first")
            if trailing_first and out and any(x.kind in ("goal", "pass") for x in out) and \
                    all(c.kind in ("goal", "pass") for c in got) and i > 0 and \
                    self.w(i - 1) not in (".", "!", "?", ";"):
                # "go to the chair, but visit the sink first": the sink comes before the chair
                pos = max(x for x, c in enumerate(out) if c.kind in ("goal", "pass", "if"))
                out[pos:pos] = got
                k += 1
                continue
            if self.at(i, "but", "first") or (self.w(i) == "first" and out and
                                              any(x.kind in ("goal", "pass") for x in out)):
                pos = first_goal_index if self.w(i) == "first" else len(out) - 1
                pos = max(0, min(pos, len(out)))
                out[pos:pos] = got
            else:
                out.extend(got)
            k += 1
        # "on the way to the desk, stay near the wall": the desk is a goal too
        goals = _all_stages(out)
        for c in list(out):
            until = (c.during or {}).get("until")
            if isinstance(until, RefExpr) and not any(_same_ref(g.refs[0], until) for g in goals
                                                      if g.refs):
                g = Clause("goal", until.span, until.text, refs=[until])
                out.insert(out.index(c) + 1, g)
                goals.append(g)
        # "on the way to X, walk through the kitchen": that pass comes before X
        for c in [c for c in out if c.kind in ("goal", "pass") and c.during]:
            until = c.during.get("until") if c.during else None
            c.during = None
            if not isinstance(until, RefExpr):
                continue
            hit = match_stage(until, [x for x in _all_stages(out) if x is not c])
            target = next((g for g in out if hit is not None and
                           any(x is hit for x in _all_stages([g]))), None)
            if target is not None and out.index(target) < out.index(c):
                out.remove(c)
                out.insert(out.index(target), c)
        if not any(c.kind in ("goal", "pass", "circle", "follow_wall", "if") for c in out):
            # "stay far from the windows while crossing the bedroom": crossing is the route
            scoped = next((c.within for c in out if c.within is not None), None)
            if scoped is None:
                raise ParseError(f"found no destination in {self.text!r}: say where to go, "
                                 "e.g. 'go to the sofa'")
            out.append(Clause("pass", scoped.span, scoped.text, refs=[scoped]))
        return out

    def clause(self, i: int, j: int) -> list[Clause]:
        """One span -> clauses, with its scopes applied."""
        body_i, body_j, within, during = self.scopes(i, j)
        got = self._clause_body(body_i, body_j) if body_i < body_j else []
        for c in got:
            if c.kind not in ("goal", "pass"):
                c.within = c.within or within
                c.during = c.during or during
        return got

    def conditional(self, spans: list[tuple[int, int, bool]], k: int,
                    i: int) -> tuple[int, Clause]:
        """``if COND[,] [then] A [; otherwise B]`` over one or more clause spans."""
        _, b, _ = spans[k]
        post = self._post_if(i, b)
        then: list[Clause] = []
        if post is not None:
            # "go to the lamp if the bedroom has one": the body comes first
            then.extend(self.clause(i, post))
            cond = self.condition(post + 1, b)
            then_start = b
        else:
            cond_end = b
            for t in range(i + 1, b):
                if self.w(t) in (",", "then") or (t > i + 2 and self.w(t) in _MOVE_VERBS and
                                                  self.w(t) not in ("back", "finally", "get")
                                                  and self.lex.match(self.words[t:b]) is None
                                                  and self.w(t - 1) not in _DETS):
                    cond_end = t
                    break
            cond = self.condition(i + 1, cond_end)
            then_start = cond_end
            while self.w(then_start) in (",", "then") and then_start < b:
                then_start += 1
        if then_start < b:
            then.extend(self.clause(then_start, b))
        orelse: list[Clause] = []
        used = 1
        kk = k + 1
        while kk < len(spans):
            a2, b2, _ = spans[kk]
            n = self.at_any(a2, [("otherwise",), ("else",), ("if", "not"), ("or", "else"),
                                 ("if", "it", "does", "not"), ("if", "there", "is", "not"),
                                 ("if", "there", "is", "none"), ("if", "not", "then"),
                                 ("but", "if", "not"), ("or",), ("and", "otherwise"),
                                 ("but", "otherwise"), ("if", "it", "does", "not", "contain"),
                                 ("if", "it", "does", "not", "have"), ("if", "no"),
                                 ("if", "there", "are", "none"), ("if", "it", "has", "none")])
            if n:
                s = a2 + n
                if self.w(s - 1) == "no":
                    while s < b2 and self.w(s) not in (",",):
                        s += 1
                while s < b2 and self.w(s) in (",", "then", "instead"):
                    s += 1
                if s >= b2 and kk + 1 < len(spans):
                    orelse.extend(self._else_body(*spans[kk + 1][:2]))
                    used = kk - k + 2
                else:
                    orelse.extend(self._else_body(s, b2))
                    used = kk - k + 1
                break
            if not then:
                then.extend(self.clause(a2, b2))
                used = kk - k + 1
                kk += 1
                continue
            break
        thing = cond.get("ref")
        if isinstance(thing, RefExpr) and thing.head_kind != "unknown":
            for c in then:
                if c.refs and c.refs[0].head_kind == "pronoun":
                    # "if there is a dresser in the bedroom, head to it": it is that dresser
                    c.refs[0] = RefExpr(thing.text, c.refs[0].span, thing.head,
                                        thing.head_kind, False, False, list(thing.modifiers))
        end = spans[k + used - 1][1]
        return used, Clause("if", self.span(i, end), self._text(i, end), condition=cond,
                            then=then, orelse=orelse)

    def condition(self, i: int, j: int) -> dict[str, Any]:
        """``the bedroom contains a lamp``, ``there is a lamp in the bedroom``, ``X has no Y``."""
        neg = False
        n = self.at_any(i, [("there", "is"), ("there", "are"), ("you", "see"), ("you", "find"),
                            ("you", "can", "find"), ("there", "exists"), ("there", "exist")])
        if n:
            k = i + n
            if self.w(k) in ("no", "not"):
                neg, k = True, k + 1
            cmp, k = self.comparator(k)
            count = None
            if self.w(k) in _NUMBERS and self.w(k) not in ("a", "an"):
                count, k = _NUMBERS[self.w(k)], k + 1
            while self.w(k) in ("any", "a", "an", "some"):
                k += 1
            thing = self.np(k, j, 0)
            if thing is None:
                raise ParseError(f"could not read the condition {self._text(i, j)!r}",
                                 self.w(k), self.span(k, k + 1))
            self.mark(i, j)
            place = next((m for m in thing[0].modifiers if m.kind == "in_room" and m.refs
                          and m.refs[0].head_kind == "room"), None)
            if count is not None and place is not None:
                # "if there are more than three chairs in the kitchen": a count in a room
                rest = [m for m in thing[0].modifiers if m is not place]
                counted = RefExpr(thing[0].text, thing[0].span, thing[0].head,
                                  thing[0].head_kind, False, True, rest)
                counted_in: dict[str, Any] = {"kind": "contains", "holder": place.refs[0],
                                              "ref": counted, "negated": neg, "count": count}
                if cmp:
                    counted_in["cmp"] = cmp
                return counted_in
            return {"kind": "exists", "ref": thing[0], "negated": neg}
        verb = next((t for t in range(i + 1, j) if self.w(t) in (
            "contains", "has", "holds", "includes", "have", "does", "is", "features", "contain")),
            j)
        holder = self.np(i, verb, 0)
        if holder is None:
            raise ParseError(f"could not read the condition {self._text(i, j)!r}", self.w(i),
                             self.span(i, i + 1))
        ref, k = holder
        n = self.at_any(k, [("contains",), ("has",), ("holds",), ("includes",), ("have",),
                            ("does", "not", "contain"), ("does", "not", "have"),
                            ("has", "no"), ("contain",), ("does", "not", "include"),
                            ("has", "any"), ("is", "in"), ("is", "inside"), ("is", "located", "in"),
                            ("is", "not", "in"), ("has", "got"), ("features",), ("is", "home", "to")])
        if not n:
            raise ParseError(f"could not read the condition {self._text(i, j)!r}: expected "
                             "'contains', 'has' or 'is in'", self.w(k), self.span(k, k + 1))
        if self.w(k) == "is" and self.w(k + 1) in ("in", "inside", "located", "not"):
            neg = self.w(k + 1) == "not"
            room = self.np(k + n, j, 1)
            if room is None:
                raise ParseError("could not read the room of the condition", self.w(k + n))
            self.mark(i, j)
            return {"kind": "inside", "ref": ref, "room": room[0], "negated": neg}
        neg = self.w(k + 1) == "not" or self.at(k, "has", "no")
        kk = k + n
        cmp, kk = self.comparator(kk)
        while self.w(kk) in ("a", "an", "any", "some", "at", "least"):
            kk += 1
        count = None
        if self.w(kk) in _NUMBERS and self.w(kk) not in ("a", "an"):
            count = _NUMBERS[self.w(kk)]
            kk += 1
        thing = self.np(kk, j, 0)
        if thing is None and self.w(kk).isalpha():
            # an unknown category: the map has none, so "contains" is false
            self.unknown.append(self.w(kk))
            thing = (RefExpr(self._text(kk, kk + 1), self.span(kk, kk + 1), self.w(kk),
                             "unknown"), kk + 1)
        if thing is None:
            raise ParseError(f"could not read what the condition looks for in "
                             f"{self._text(i, j)!r}", self.w(kk), self.span(kk, kk + 1))
        self.mark(i, j)
        out: dict[str, Any] = {"kind": "contains", "holder": ref, "ref": thing[0],
                               "negated": neg}
        if count is not None:
            out["count"] = count
            if cmp:
                out["cmp"] = cmp
        return out

    def _sentence_initial(self, i: int) -> bool:
        """Whether only discourse words ("Then,", "Next,") stand between ``i`` and a sentence start."""
        t = i - 1
        while t >= 0 and self.w(t) in (",", "then", "next", "and", "finally", "lastly", "also",
                                       "afterwards", "after", "that", "now", "so", "but"):
            t -= 1
        return t < 0 or self.w(t) in (".", "!", "?", ";")

    def _post_if(self, i: int, j: int) -> int | None:
        """Position of a postposed ``if`` in ``[i, j)`` ("go to X if the room has Y"), or None."""
        for t in range(i + 1, j):
            if self.w(t) == "if" and self.w(t - 1) not in ("as", "even", "only", ",") and \
                    self.w(i) != "if":
                return t
        return None

    def _else_body(self, s: int, e: int) -> list[Clause]:
        if s >= e:
            return []
        try:
            return self.clause(s, e)
        except ParseError:
            refs, _ = self._targets(s, e)
            if not refs:
                raise
            return [Clause("goal", r.span, r.text, refs=[r]) for r in refs]

    def scopes(self, i: int, j: int) -> tuple[int, int, RefExpr | None, dict[str, Any] | None]:
        """Find leading or trailing scope phrases in ``[i, j)``.

        Returns the body ``(start, end)``, the spatial scope (a room) and the temporal scope.
        """
        within: RefExpr | None = None
        during: dict[str, Any] | None = None

        def take(kind: str, value: Any) -> None:
            nonlocal within, during
            if kind == "within":
                within = within or value
            elif kind != "whole":
                during = during or value

        changed = True
        while changed and i < j:
            changed = False
            got = self._scope_at(i, j)
            if got is not None and (got[2] >= j or self.w(got[2]) in (",", ".") or (
                    got[0] != "whole" and self._is_pref(got[2]) and got[2] > i + 1)):
                # "while you are in the kitchen stay close to X": no comma after the scope
                take(got[0], got[1])
                i = got[2] + (1 if self.w(got[2]) == "," else 0)
                changed = True
                continue
            jj = j
            while jj > i and self.w(jj - 1) in (".", "!", "?", ";", ",", "entirely",
                                                "completely", "altogether"):
                jj -= 1
            for t in range(i + 1, jj):
                if self.w(t) not in _SCOPE_FIRST:
                    continue
                got = self._scope_at(t, jj)
                if got is None or got[2] < jj:
                    continue
                if got[0] == "within" and self.w(t) in ("in", "inside", "within", "across",
                                                        "throughout") and not self._is_pref(i):
                    continue
                take(got[0], got[1])
                j = t - (1 if self.w(t - 1) == "," else 0)
                changed = True
                break
        return i, j, within, during

    def _scope_at(self, t: int, j: int) -> tuple[str, Any, int] | None:
        n = self.at_any(t, _WHOLE)
        if n:
            return "whole", None, t + n
        n = self.at_any(t, _ON_THE_WAY)
        if n and self.w(t + n) not in ("to", "towards", "toward", "over", "there"):
            # "on the way, stay close to the sofa": the leg just named
            return "this", {"this": True}, t + n
        n = self.at_any(t, _TEMPORAL)
        if n:
            ref = self.np(t + n, j, 0)
            if ref is not None:
                return "until", {"until": ref[0]}, ref[1]
        n = self.at_any(t, _AFTER)
        if n and self.w(t + n) in ("that", "this", "which") and (
                self.w(t + n + 1) in _DETS | {",", ""} or self._opens_clause(t + n + 1)):
            n = 0  # "and after that the bed": a sequence word, not "after visiting X"
        if n:
            ref = self.np(t + n, j, 0)
            if ref is not None:
                return "after", {"after": ref[0]}, ref[1]
        n = self.at_any(t, _SPATIAL)
        if n:
            ref = self.np(t + n, j, 0)
            if ref is not None and ref[0].head_kind == "room":
                return "within", ref[0], ref[1]
        return None

    def _is_pref(self, i: int) -> bool:
        return self.w(i) in _PREF_VERBS or self.at(i, "do", "not") or self.w(i) == "never"

    def _targets(self, i: int, j: int) -> tuple[list[RefExpr], int]:
        """``the sofa, the desk and the bed`` -> three expressions."""
        refs: list[RefExpr] = []
        k = i
        while k < j:
            k0 = k
            while self.w(k) in ("to", "at", "by", "the", "over", "into", "towards", "toward",
                                "up", "back", "down", "across", "onto", "in", "inside", "near",
                                "past", "through", "via") and k < j and \
                    self._start_phrase(k, j) is None and not (
                    self.w(k) == "the" and (self.lex.match(self.words[k + 1:j]) is not None
                                            or self.w(k + 1) in ("one", "ones"))):
                k += 1
            got = self.np(k, j, 0)
            if got is None:
                break
            if refs and any(self.w(x) in ("through", "via", "thru") for x in range(k0, k)):
                self.via.add(id(got[0]))  # "head to the bedroom through the kitchen"
                self.mark(k0, k)
            refs.append(got[0])
            k = got[1]
            while self.w(k) in (",", "and", "then", "or", "finally", "lastly", "next", "also",
                                "after", "that", "afterwards", "eventually", "there", "here",
                                "instead", "first", "too", "as", "well"):
                if self.w(k) in ("there", "here", "instead", "too"):
                    self.mark(k, k + 1)
                k += 1
        return refs, k

    def _clause_body(self, i: int, j: int) -> list[Clause]:
        while i < j and self.w(i) in ("please", "now", "then", "first", "next", "finally",
                                      "lastly", "also", "and", ",", "afterwards", "so", "but",
                                      "you", "should", "must", "need", "can", "i", "want",
                                      "would", "like", "could", "let", "us", "robot", "just",
                                      "okay", "ok", "secondly", "thirdly"):
            if self.w(i) == "need" and self.w(i + 1) == "to":
                i += 1
            i += 1
        if self.at(i, "start", "by") or self.at(i, "begin", "by") or self.at(i, "start", "with"):
            i += 2
        n = self.at_any(i, [("from", "there"), ("from", "here"), ("from", "that", "point"),
                            ("after", "that"), ("once", "there"), ("when", "done"),
                            ("from", "there", "on")])
        if n:
            i += n
            while self.w(i) == ",":
                i += 1
        if i >= j:
            return []
        n = self.at_any(i, [("your", "first", "stop", "is"), ("your", "final", "destination", "is"),
                            ("your", "last", "stop", "is"), ("your", "next", "stop", "is"),
                            ("your", "destination", "is"), ("the", "destination", "is"),
                            ("your", "goal", "is"), ("the", "goal", "is")])
        if n:
            i += n
        if self.w(i) == "to" and self.w(i + 1) in _OPENERS:
            i += 1
        text = self._text(i, j)
        sp = self.span(i, j)
        w = self.w(i)
        # --- avoid (hard), also the general "never/do not <move> into|through X"
        neg = self.at_any(i, [("never",), ("do", "not"), ("do", "not", "ever"), ("must", "not"),
                              ("should", "not"), ("can", "not"), ("you", "must", "not"),
                              ("please", "do", "not"), ("do", "never")])
        if neg and self.w(i + neg) in _MOVE_VERBS and self.w(i + neg + 1) in (
                "into", "through", "in", "inside", "across", "via", "within"):
            k0 = i + neg + 2
            refs, _ = self._targets(k0 + self.at_any(k0, _AROUND), j)
            if refs:
                return [Clause("avoid", sp, text, refs=[r]) for r in refs]
        n = self.at_any(i, [("avoid",), ("do", "not", "go", "through"), ("do", "not", "enter"),
                            ("never", "enter"), ("do", "not", "pass", "through"),
                            ("stay", "out", "of"), ("keep", "out", "of"), ("without", "entering"),
                            ("without", "going", "through"), ("without", "passing", "through"),
                            ("do", "not", "walk", "through"), ("never", "go", "through"),
                            ("do", "not", "go", "into"), ("do", "not", "cut", "through"),
                            ("never", "pass", "through"), ("skip",), ("bypass",),
                            ("avoid", "going", "through"), ("avoid", "passing", "through"),
                            ("avoid", "entering"), ("avoid", "the", "area", "around"),
                            ("do", "not", "go", "in"), ("do", "not", "step", "into"),
                            ("do", "not", "touch"), ("do", "not", "drive", "through"),
                            ("never", "cross"), ("do", "not", "cross"), ("not", "through"),
                            ("without", "crossing"), ("avoid", "crossing"), ("avoiding",),
                            ("do", "not", "visit"), ("must", "not", "enter"),
                            ("must", "not", "pass", "through"), ("stay", "clear", "of", "the", "area", "around"),
                            ("do", "not", "go", "near"), ("never", "go", "near"),
                            ("do", "not", "get", "close", "to"), ("do", "not", "come", "near"),
                            ("do", "not", "go", "past"), ("do", "not", "pass"),
                            ("do", "not", "drive", "into"), ("do", "not", "walk", "into")])
        if n:
            near_words = self.w(i + n - 1) in ("near", "to") or self.at(i, "do", "not", "go", "past")
            if self.w(i) in ("avoid", "avoiding") and self.w(i + 1) in ("getting", "going",
                                                                         "coming", "being") and \
                    self.w(i + 2) in ("close", "near", "too"):
                k = i + 2
                while self.w(k) in ("close", "near", "too", "to"):
                    k += 1
                refs, _ = self._targets(k, j)
                return [Clause("far", sp, text, refs=refs)] if refs else []
            around = self.at_any(i + n, _AROUND)
            refs, _ = self._targets(i + n + around, j)
            if not refs:
                if self.at_any(i + n, [("obstacles",), ("bumping",), ("collisions",),
                                       ("the", "walls"), ("walls",), ("furniture",),
                                       ("the", "furniture"), ("obstacle",), ("hitting",)]):
                    return [Clause("clearance", sp, text)]
                raise ParseError(f"could not tell what to avoid in {text!r}", self.w(i + n),
                                 self.span(i + n, i + n + 1))
            if near_words:
                return [Clause("far", sp, text, refs=refs)]
            if refs[0].head in ("wall",) or refs[0].head_kind == "wall":
                return [Clause("clearance", sp, text)]
            return [Clause("avoid", sp, text, refs=[r]) for r in refs]
        # --- clearance
        if self._clearance(i, j):
            return [Clause("clearance", sp, text)]
        # --- path shapes
        direction = ""
        for t in range(i, j):
            if self.w(t) in _CLOCKWISE:
                direction = _CLOCKWISE[self.w(t)]
                self.mark(t, t + 1)
        n = self._shape_start(i, j)
        if n:
            refs, _ = self._targets(i + n, j)
            refs = [r for r in refs if r.head_kind != "wall"]
            if refs and refs[0].head_kind == "room":
                return [Clause("follow_wall", sp, text, refs=refs[:1], direction=direction)]
            if refs:
                return [Clause("circle", sp, text, refs=refs[:1],
                               direction=direction or "counterclockwise",
                               laps=self._laps(i, j))]
        if w in ("patrol", "tour", "sweep", "lap", "perimeter") or self.at(i, "follow") or \
                self.at(i, "walk", "along") or self.at(i, "go", "along") or \
                self.at(i, "move", "along") or "perimeter" in self.words[i:j] or \
                ("walls" in self.words[i:j] and self.w(i) in _MOVE_VERBS | {"along"}):
            refs, _ = self._targets(i + 1, j)
            rooms = [r for r in refs if r.head_kind == "room"]
            if not rooms:
                for t in range(i, j):
                    if self.w(t) in ("of", "in"):
                        got = self.np(t + 1, j, 0)
                        if got is not None and got[0].head_kind == "room":
                            rooms = [got[0]]
                            break
            return [Clause("follow_wall", sp, text, refs=rooms[:1], direction=direction)]
        # --- relative: "favour A over B"
        n = self.at_any(i, [("favour",), ("favor",), ("prefer",), ("stick", "to", "the", "side", "of")])
        if n:
            a = self.np(i + n, j, 0)
            if a is not None:
                kk = a[1]
                m2 = self.at_any(kk, [("over",), ("rather", "than"), ("instead", "of"), ("to",)])
                if m2:
                    b = self.np(kk + m2, j, 0)
                    if b is not None:
                        return [Clause("relative", sp, text, refs=[a[0]], other=b[0])]
        # --- relative: "stay closer to A than (to) B", "keep farther from B than A"
        lead_k = self._pref_lead(i, j)
        if lead_k is not None:
            k = lead_k
            n = self.at_any(k, [("closer", "to"), ("nearer", "to"), ("nearer",), ("closer",)])
            m = self.at_any(k, [("farther", "from"), ("further", "from"),
                                ("farther", "away", "from"), ("further", "away", "from")])
            if n or m:
                a = self.np(k + (n or m), j, 0)
                if a is not None:
                    kk = a[1]
                    if self.w(kk) == "than":
                        kk += 1
                        while self.w(kk) in ("to", "from", "you", "are", "do", "it", "is"):
                            kk += 1
                        b = self.np(kk, j, 0)
                        if b is not None:
                            if n:
                                return [Clause("relative", sp, text, refs=[a[0]], other=b[0])]
                            return [Clause("relative", sp, text, refs=[b[0]], other=a[0])]
            n = self.at_any(k, [("close", "to"), ("near",), ("near", "to"), ("next", "to"),
                                ("close", "by"), ("beside",), ("by",), ("alongside",),
                                ("in", "the", "vicinity", "of"), ("within", "reach", "of"),
                                ("tight", "to"), ("as", "close", "as", "possible", "to"),
                                ("as", "near", "as", "possible", "to"), ("nearby",),
                                ("closer", "to"), ("around",), ("right", "next", "to"),
                                ("in", "close", "proximity", "to"), ("close", "with"),
                                ("close", "as", "possible", "to"), ("near", "as", "possible", "to"),
                                ("as", "close", "as", "possible", "to"), ("nearer", "to"),
                                ("as", "near", "as", "possible", "to")])
            if n:
                refs, _ = self._targets(k + n, j)
                if refs:
                    if refs[0].head_kind == "wall":
                        return [Clause("near", sp, text, refs=refs)]
                    return [Clause("near", sp, text, refs=refs)]
            n = self.at_any(k, [("far", "from"), ("away", "from"), ("far", "away", "from"),
                                ("well", "away", "from"), ("clear", "of"), ("distant", "from"),
                                ("as", "far", "as", "possible", "from"), ("a", "safe",
                                                                          "distance", "from"),
                                ("your", "distance", "from"), ("a", "distance", "from"),
                                ("some", "distance", "from"), ("at", "a", "distance", "from"),
                                ("well", "clear", "of"), ("a", "good", "distance", "from"),
                                ("distance", "from"), ("safe", "distance", "from"),
                                ("far", "as", "possible", "from"), ("as", "far", "as", "possible", "from"),
                                ("far", "away", "as", "possible", "from"),
                                ("good", "distance", "from"), ("clear", "from"),
                                ("farther", "from"), ("further", "from"), ("apart", "from"),
                                ("a", "wide", "berth", "to"), ("wide", "of"), ("off",)])
            if n:
                refs, _ = self._targets(k + n, j)
                if refs:
                    if refs[0].head_kind == "wall" or refs[0].head in ("furniture",):
                        return [Clause("clearance", sp, text)]
                    return [Clause("far", sp, text, refs=refs)]
        if self.at(i, "hug") or self.at(i, "stick", "to") or self.at(i, "skirt"):
            refs, _ = self._targets(i + (2 if self.at(i, "stick", "to") else 1), j)
            if refs and refs[0].head_kind == "wall":
                return [Clause("follow_wall", sp, text, refs=[])]
            if refs:
                return [Clause("near", sp, text, refs=refs)]
        if self.w(i) in ("give", "giving") and "berth" in self.words[i:j]:
            # "give walls a wide berth", "giving the furniture a wide berth"
            berth = self.words.index("berth", i)
            refs, _ = self._targets(i + 1, berth)
            obj = i + 1 + (1 if self.w(i + 1) in _DETS else 0)
            if refs and refs[0].head_kind == "wall" or self.w(obj) in ("obstacles", "furniture",
                                                                       "everything"):
                return [Clause("clearance", sp, text)]
            if refs:
                return [Clause("far", sp, text, refs=refs)]
        # --- must-pass rooms: "go through the kitchen", "cross the living room"
        n = self.at_any(i, [("go", "through"), ("pass", "through"), ("walk", "through"),
                            ("cross",), ("traverse",), ("cut", "through"), ("move", "through"),
                            ("travel", "through"), ("head", "through"), ("drive", "through"),
                            ("go", "via"), ("pass", "via"), ("route", "through"), ("via",),
                            ("through",), ("by", "way", "of"), ("going", "through"),
                            ("passing", "through"), ("crossing",), ("go", "across"),
                            ("walk", "across"), ("make", "sure", "to", "pass", "through"),
                            ("make", "sure", "you", "pass", "through")])
        if n:
            refs, _ = self._targets(i + n, j)
            if refs:
                return [Clause("pass", sp, text, refs=[r]) for r in refs]
        # --- goals
        k = i
        verb = False
        while k < j and (self.w(k) in _MOVE_VERBS or self.w(k) in (
                "your", "way", "yourself", "me", "over", "up", "down", "off", "on", "straight",
                "directly", "right", "quickly", "then", "a", "visit", "trip", "stop",
                "look", "for", "go", "and", "out", "in", "to")) and not self._np_starts(k, j):
            verb = verb or self.w(k) in _MOVE_VERBS
            k += 1
        if self.w(k) in ("between", "in") and (self.w(k) == "between" or
                                               self.at(k, "in", "between")):
            # "go between the sofa and the TV": the corridor joining them is the stage target
            kb = k + (2 if self.w(k) == "in" else 1)
            a = self.np(kb, j, 1)
            if a is not None and self.w(a[1]) == "and":
                b = self.np(a[1] + 1, j, 1)
                if b is not None:
                    self.mark(k, b[1])
                    ref = RefExpr(self._text(k, b[1]), self.span(k, b[1]), "between", "between",
                                  modifiers=[Modifier("between", [a[0], b[0]],
                                                      span=self.span(k, b[1]))])
                    return [Clause("goal", sp, text, refs=[ref])]
        refs, kk = self._targets(k, j)
        if refs:
            out = [Clause("pass" if id(r) in self.via else "goal",
                          sp if len(refs) == 1 else r.span,
                          text if len(refs) == 1 else r.text, refs=[r]) for r in refs]
            for x in range(1, len(out)):
                if id(out[x].refs[0]) in self.via and id(out[x - 1].refs[0]) not in self.via:
                    # a trailing "through/via ROOM" is passed before the target it follows
                    out[x - 1], out[x] = out[x], out[x - 1]
            return out
        skip = _DETS | _FILLER_ADJ | {"to", "at", "by", "of", "into", "towards", "toward", "in",
                                      "on", "near", "over", "up", "back", "and", "then"}
        bad_i = next((t for t in range(k, j) if self.w(t).isalpha() and self.w(t) not in skip),
                     next((t for t in range(i, j) if self.w(t).isalpha()), i))
        absent = [(w, t) for w, t in self.absent if i <= t < j]
        if absent:
            place, t = absent[0]
            raise ParseError(f"did not understand {place!r} in {text!r}: the map has no "
                             f"{place}; its rooms are kitchens, living rooms, bedrooms and "
                             "bathrooms", place, self.span(t, t + len(place.split())))
        bad = self.w(bad_i)
        raise ParseError(f"did not understand {bad!r} in {text!r}: it names no object "
                         "category, room or relation known here (say e.g. 'the chair nearest "
                         "to the bed')", bad, self.span(bad_i, bad_i + 1))

    _SHAPE_WORDS = ("loop", "loops", "circle", "circles", "lap", "laps", "circuit", "orbit",
                    "go", "walk", "move", "drive", "travel", "head", "navigate", "turn",
                    "spin", "ring", "revolution", "pass")

    def _shape_start(self, i: int, j: int) -> int:
        """Tokens before the object of "circle X", "make one loop around X", "walk round X"."""
        if self.w(i) in ("circle", "orbit", "circumnavigate", "encircle", "circling", "loop",
                         "lap") and self.w(i + 1) not in ("around", "round", "of"):
            k = i + 1
            while self.w(k) in ("once", "twice", "fully", "completely", "all"):
                k += 1
            return k - i
        for t in range(i, min(j, i + 8)):
            if self.w(t) in ("around", "round") and t > i and \
                    any(self.w(x) in self._SHAPE_WORDS for x in range(i, t)):
                k = t + 1
                if self.w(k) == "the" and self.w(k + 1) == "outside" and self.w(k + 2) == "of":
                    k += 3
                self.mark(i, k)
                return k - i
        return 0

    def _laps(self, i: int, j: int) -> int:
        """"twice", "two loops", "3 times", "a couple of laps" in ``[i, j)`` (1 by default)."""
        for t in range(i, j):
            if self.w(t) == "twice":
                self.mark(t, t + 1)
                return 2
            if self.w(t) == "thrice":
                self.mark(t, t + 1)
                return 3
            if self.w(t + 1) in ("times", "loops", "laps", "circles", "rounds", "circuits") and \
                    (self.w(t).isdigit() or self.w(t) in _NUMBERS) and self.w(t) not in ("a", "an"):
                n = int(self.w(t)) if self.w(t).isdigit() else int(_NUMBERS[self.w(t)])
                self.mark(t, t + 2)
                return max(1, min(n, 5))
        return 1

    def _np_starts(self, k: int, j: int) -> bool:
        if self.w(k) in ("to", "at", "by", "the", "into", "towards", "toward"):
            return False
        return self.lex.match(self.words[k:j]) is not None and self.w(k) not in ("stop", "end",
                                                                                 "back")

    def _pref_lead(self, i: int, j: int) -> int | None:
        n = self.at_any(i, [("stay",), ("keep",), ("remain",), ("be",), ("try", "to", "stay"),
                            ("try", "to", "keep"), ("stick",), ("prefer", "to", "stay"),
                            ("try", "to", "be"), ("keep", "yourself"), ("stay", "as"),
                            ("maintain",), ("keep", "well"), ("staying",), ("keeping",),
                            ("pass",), ("go",), ("walk",), ("move",), ("travel",), ("drive",),
                            ("head",), ("passing",), ("going",), ("route",), ("prefer",),
                            ("favor",), ("favour",), ("try", "to", "pass"), ("try", "to", "go"),
                            ("make", "sure", "to", "stay"), ("make", "sure", "you", "stay"),
                            ("please", "stay"), ("always", "stay"), ("always", "keep"),
                            ("hold",), ("run",), ("remaining",), ("steer",), ("keep", "well"),
                            ("stay", "well")])
        if not n:
            return None
        k = i + n
        while self.w(k) in ("well", "pretty", "really", "very", "fairly", "as", "relatively",
                            "quite", "somewhat", "route", "path", "your", "the", "a", "bit",
                            "little", "slightly", "reasonably", "fairly", "always", "mostly",
                            "yourself", "it", "to", "by", "robot", "route's"):
            if self.w(k) == "to" and self.w(k + 1) in ("the", "a"):
                break
            if self.w(k) in ("the", "a") and self.w(k + 1) not in ("bit", "little", "safe",
                                                               "good", "distance"):
                break
            if self.w(k) == "a" and self.w(k + 1) in ("safe", "good", "distance"):
                break
            k += 1
        return k

    def _clearance(self, i: int, j: int) -> bool:
        words = " ".join(self.words[i:j])
        keys = ("obstacle", "clearance", "middle of the", "centre of the", "center of the",
                "bumping", "collid", "away from walls", "away from the walls",
                "from the walls", "from walls", "off the walls", "wide path", "open space",
                "safe distance from everything", "away from furniture", "from the furniture",
                "away from things", "clear of things", "clear of furniture", "clear of walls",
                "clear of the walls", "from obstacles", "of obstacles", "open areas",
                "middle of open", "middle of the open", "centre of open", "center of open",
                "stay central", "keep central", "do not hug", "never hug", "wide berth to "
                "everything", "away from everything", "clear of everything")
        return any(key in words for key in keys)

    def unused_words(self) -> list[str]:
        stop = {"the", "a", "an", "to", "and", "then", ",", ".", ";", "please", "go", "of",
                "you", "your", "is", "are", "at", "it", "that", "this", "there", "be", "by",
                "in", "on", "from", "with", "than", "as", "while", "when", "if", "or", "for",
                "way", "first", "next", "finally", "after", "before", "up", "over", "i", "me",
                "want", "make", "sure", "get", "do", "not", "can", "will", "should", "must"}
        return list(dict.fromkeys(self.unknown + [
            t.text for n, t in enumerate(self.toks) if n not in self.used and t.text.isalpha()
            and t.text not in stop and t.text not in _OPENERS]))


def parse_instruction(text: str, *, attachment: str = "local") -> InstructionParse:
    """Parse ``text`` into clauses and referring expressions (no map needed).

    Args:
        text: the instruction.
        attachment: a key of :data:`ATTACHMENTS`.

    Raises:
        ParseError: a clause could not be understood; its ``word`` names the culprit.
    """
    if attachment not in ATTACHMENTS:
        msg = f"unknown attachment policy {attachment!r}; use one of {sorted(ATTACHMENTS)}"
        raise ValueError(msg)
    if not text.strip():
        raise ParseError("the instruction is empty")
    p = _Parser(text, attachment)
    clauses = p.clauses()
    for place, t in p.absent:
        if t not in p.used:
            # "the laptop in the dining room": never drop a place silently
            raise ParseError(f"did not understand {place!r} in {text!r}: the map has no "
                             f"{place}; its rooms are kitchens, living rooms, bedrooms and "
                             "bathrooms", place, p.span(t, t + len(place.split())))
    if not clauses:
        raise ParseError(f"found no route clause in {text!r}: say where to go, e.g. "
                         "'go to the sofa'")
    return InstructionParse(text, clauses, p.unused_words(), attachment)
