"""Sub-instruction decomposition: an instruction becomes atomic sub-goals (GROKE, Sec. 3.1).

Each sub-goal is one action, ``MOVE_FORWARD``, ``TURN_LEFT``, ``TURN_RIGHT`` or ``STOP``, with
the landmark condition that says where it happens: a count of traffic lights or intersections
("at the second light", "through two lights"), a street shape ("at the T", "where the road
veers right", "at the end of the block"), a POI ("past the Starbucks"), or a fraction of the
block ("halfway down the block"). GROKE asks an LLM for this split; the rules here are the
offline equivalent: split into clauses, find the action verb, then read its condition.
Regular expressions are written by hand because no library parses route directions: each
one is a small closed phrasing ("at the second light", "halfway down the block") whose
alternatives read best next to the groups they fill; number words come from
:mod:`map2route.language.numbers`, other word lists from ``lexicons/directions.yaml``.
Moved here from ``streets/subgoals.py`` (which re-exports it): it reads language only, the
street graph is :mod:`map2route.streets`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import Enum

from map2route.language import lexicon
from map2route.language.numbers import cardinals, ordinals
from map2route.language.street_refs import clean_text, ordinal_turn, through_it


class Action(str, Enum):
    """The four atomic actions of GROKE's sub-goals."""

    MOVE_FORWARD = "MOVE_FORWARD"
    TURN_LEFT = "TURN_LEFT"
    TURN_RIGHT = "TURN_RIGHT"
    STOP = "STOP"


@dataclass(frozen=True)
class Condition:
    """Where a sub-goal happens.

    Attributes:
        feature: ``light``, ``intersection``, ``t`` (T junction / end of the road), ``veer``
            (a bend), ``block`` (a fraction of the block), or '' (none).
        count: which one ("second" = 2; "next" = 1 counted from here), 0 = unspecified.
        relative: True when the count runs from the current position ("next", "following",
            "through two lights"); False when it runs from the last turn ("the second light").
        passing: True when the feature is passed ("through", "past", "cross"), not reached.
        relation: for landmarks: ``at``, ``past``, ``before``; for STOP also ``few`` (a few
            steps on), ``fraction`` (``fraction`` of the way along the block).
        fraction: 0..1 for ``block`` conditions ("halfway" = 0.5); for ``few`` the number
            of steps (nodes).
        landmark: the clause text naming a POI, matched fuzzily against POI names and tags.
        side: ``left``/``right`` when the clause says on which side the landmark is.
        double: "a double light": two crossings close together count as one.
        too_far: for STOP, the clause naming where the goal has been passed ("If you reach
            Fragrance Shop, you're too far").

        branch: for an intersection, the side its side street leaves to ("two left side
            streets", "the street on your right"); '' = either.
    """

    feature: str = ""
    count: int = 0
    relative: bool = False
    passing: bool = False
    relation: str = "at"
    fraction: float = 0.0
    landmark: str = ""
    side: str = ""
    double: bool = False
    too_far: str = ""
    branch: str = ""


@dataclass(frozen=True)
class SubGoal:
    """One atomic sub-goal: an action, its natural-language text and its condition."""

    action: Action
    text: str
    condition: Condition = field(default_factory=Condition)

    def describe(self) -> str:
        """A one-line description, e.g. ``TURN_LEFT: turn left at the second light``."""
        return f"{self.action.value}: {self.text}"


#: Counts: one to ten and "a", "single", "couple", "another" (``lexicons/directions.yaml``).
NUMBER_WORDS: dict[str, int] = {
    **{w: n for w, n in cardinals(10).items() if n > 0},
    **{str(k): int(v) for k, v in lexicon.table("directions", "quantity_words").items()}}
#: "first"/"1st" to "eighth"/"8th".
ORDINAL_WORDS: dict[str, int] = ordinals(8)
RELATIVE_WORDS = tuple(sorted(lexicon.words("directions", "relative_words")))

_FEATURE = (r"(?P<feat>traffic lights?|stop ?lights?|lights?|signals?|intersections?|"
            r"cross ?streets?|corners?|blocks?|streets?|junctions?|crossings?|t-intersections?|"
            r"t intersections?|t-junctions?|(?<=\s)t\b|sets?\b(?! of))")
_COUNTER = (r"(?P<cnt>next|following|upcoming|subsequent|another|first|second|third|fourth|"
            r"fifth|sixth|seventh|eighth|1st|2nd|3rd|4th|5th|6th|7th|8th|one|two|three|four|"
            r"five|six|seven|eight|nine|ten|a|an|single|couple of|\d+)")
_FEATURE_RE = re.compile(
    rf"\b(?:the\s+|a\s+|an\s+)?(?:{_COUNTER}\s+)?(?:more\s+|other\s+)?(?:(?:set|pair)s? of\s+|"
    rf"(?:\w+[- ]way|big|large|huge|small|little|major|busy|wide|double|short|long|first|next|"
    rf"more|side|cross|left|right)\s+)*{_FEATURE}")
_TURN_RE = re.compile(
    r"\b(?:turn|make|take|hang|hook|go|bear|veer|swing|head|hand|hanging|making|taking|turning)"
    r"\s+(?:(?:a|an|another|your|the|quick|slight|sharp|hard|soft|immediate|first|second|"
    r"left|right|one|more|to|to the|again|next|following|third|wide|gentle|available|"
    r"possible)\s+){0,3}?(?P<dir>left|right)\b(?!\s+(?:side\b(?!\s*streets?)|corner|"
    r"hand side))"
    r"|\b(?P<dir2>left|right)\s+turn\b"
    r"|^(?P<dir4>left|right)\s+(?=at\b|on\b|onto\b)"
    r"|\b(?:turn|go|make)\s+(?P<dir3>left|right)")
_SIDE_RE = re.compile(r"\b(?:on|to)\s+(?:the|your)\s+(?:near\s+|far\s+)?(?P<side>left|right)\b"
                      r"|\b(?P<side2>left|right)[- ](?:hand )?side\b")
_TAKE_STREET_RE = re.compile(
    r"\b(?:take|make|turn (?:onto|into|down)|go down|head down)\s+(?:the\s+|a\s+)?(?:\w+\s+){0,2}?"
    r"(?:street|side ?street|road|turn|avenue|opening|path)\s+(?:on|to)\s+(?:the|your)\s+"
    r"(?P<dir>left|right)\b")
#: "turn at the left side street", "turn down the next right-hand side street".
_SIDE_STREET_TURN_RE = re.compile(
    r"\b(?:turn|go|head|walk)\s+(?:at|onto|into|down|on)\s+(?:the\s+)?(?:first\s+|next\s+)?"
    r"(?P<dir>left|right)(?:[- ]hand)?[- ]side ?streets?\b")
#: Which branch of a fork: "take the fork to the left", "keep right at the fork", "the right
#: path of the Y", "bear to the left where the road splits".
_FORK_TURN_RE = re.compile(
    r"\b(?:take|keep|stay|go|bear|veer|head|follow|taking|keeping|staying|going|bearing)\s+"
    r"(?:(?:to\s+)?the\s+)?(?P<a>left|right)(?:[- ]hand)?(?:\s+(?:fork|path|branch|side|road|one)"
    r"\b|(?=\s+(?:at|where|when|on)\s+(?:the|a)\s+(?:fork|y|split)\b))"
    r"|\b(?:take|follow|taking|following)\s+(?:the\s+)?(?:fork|path|branch|road)\s+(?:to|on)\s+"
    r"(?:the|your)\s+(?P<b>left|right)\b")
_MASK_SIDE_RE = re.compile(
    r"\bon\s+(?:the|your)\s+(?:near\s+|far\s+)?(?:left|right)\b"
    r"|(?<!turn )(?<!veer )(?<!bear )(?<!curve )(?<!go )(?<!head )(?<!veers )(?<!curves )"
    r"\bto\s+(?:the|your)\s+(?:near\s+|far\s+)?(?:left|right)\b")
_STOP_RE = re.compile(r"\b(?:(?<!bus )(?<!bus-)stop(?! ?lights?\b| ?signs?\b|s\b)|stopping|halt|finish|finishing|destination|ending point|end point|"
                      r"end (?:up|here|there|at|just|right|in|by|near|on|before|after|"
                      r"your|the route|the walk)|you(?:'ll| will| have)? (?:have )?(?:arrive|"
                      r"arrived|reach(?:ed)? (?:your|the) (?:destination|goal|end)(?! of))|"
                      r"you(?:'re| are) (?:there|done)|goal)\b")
_PASS_RE = re.compile(r"\b(?:through|past|pass|passing|passed|cross|crossing|go thru|thru|"
                      r"(?:go|walk|drive|head) by|"
                      r"beyond|ignore|ignoring|skip|after)\b")
_TO_RE = re.compile(r"\b(?:to|until|till|reach|reaching|toward|towards|up to|at)\b")
_HALF_RE = re.compile(r"\b(?:half ?way|half|1/2|middle|midway|mid-block|mid block|center of "
                      r"the block)\b")
_FRACTION_RE = re.compile(r"\b(?P<num>\d)/(?P<den>\d)\b|\b(?P<word>third|quarter)s?\b")
_FEW_RE = re.compile(r"\b(?:few|couple|several|little|short|shortly|just|immediately|right|"
                     r"soon|steps?|feet|meters|yards)\b")
_LANDMARK_PREP_RE = re.compile(
    r"\b(?:at|past|after|before|by|near|in front of|next to|beside|across from|opposite|"
    r"reach|reaching|until|till|outside|front of|between|with|facing|see|passing|pass|"
    r"towards?|front|adjacent to|alongside|along)\b")
_BEFORE_RE = re.compile(r"\b(?:before|prior to|short of|just shy of|not quite)\b")
_PAST_RE = re.compile(r"\b(?:past|after|beyond|passing|just passed)\b")
_VEER_RE = re.compile(r"\b(?:veers?|curves?|bends?|slight|fork|forks|bear|veering|curving)\b")
_T_RE = re.compile(r"\b(?:t-intersection|t intersection|t-junction|the t\b|a t\b|end of the "
                   r"(?:road|street)|dead[- ]end|road ends|street ends|it ends|can(?:'t|not) go straight|"
                   r"can no longer go straight)")
_STEPS_RE = re.compile(r"\b(?:(?P<n>\d+|one|two|three|four|a|few|couple)\s+(?:of\s+)?|"
                       r"a few\s+|a couple(?: of)?\s+|several\s+)(?:more\s+|small\s+|short\s+)?"
                       r"(?:steps?|paces?|feet)\b")
_BLOCKS_RE = re.compile(r"\b(?P<n>\d+(?:\.\d+)?|one|two|three|four|five)(?P<half> and a half)?"
                        r" blocks?\b")
_EXIT_RE = re.compile(r"\b(?:out of|exit|exiting|leave|leaving|clear of)\s+(?:the\s+)?$")
_IN_INTERSECTION_RE = re.compile(r"\b(?:middle|center|centre) of (?:the|this|that) "
                                 r"(?:next |following )?(?:intersection|crossing|light|lights|junction)|\bin the "
                                 r"(?:intersection|crossing)\b")
_END_OF_BLOCK_RE = re.compile(r"\b(?:the )?end of (?:the |this |that )?block\b|\bblock'?s end\b")
_CLAUSE_SPLIT_RE = re.compile(
    r"(?<=[.!?;])\s+|,\s*(?:and\s+)?then\s+|\s+and\s+then\s+|\bthen\s+|,\s+and\s+|\s+and\s+"
    r"(?=(?:turn|make|take|go|stop|continue|walk|head|hang|proceed|cross|pass|keep|end|"
    r"drive|travel|move|follow|bear|veer)\b)"
    r"|,\s+(?=(?:turn|make|take|go|stop|continue|walk|head|hang|proceed|cross|pass|keep)\b)"
    r"|,?\s+and\s+(?=at\s+the\b)"
    r"|(?:,\s+|,?\s+and\s+)(?:then\s+)?(?=(?:left|right)\s+(?:at|on|onto)\b)"
    # "turn right and immediately left", "make a left and a quick right": two turns.
    r"|,?\s+and\s+(?=(?:then\s+)?(?:(?:immediately|quickly|right away|promptly)\s+"
    r"(?:turn\s+|make\s+an?\s+|take\s+an?\s+|go\s+)?(?:to\s+the\s+)?"
    r"|(?:an?\s+)(?:quick|immediate)\s+)(?:left|right)\b)")
_BARE_TURN_RE = re.compile(r"^(?:(?:immediately|quickly|right away|promptly)\s+|(?:an?\s+)"
                           r"(?:quick|immediate)\s+)(?P<dir>left|right)\b(?!\s+(?:side|corner|"
                           r"hand))")
_MOTION_RE = re.compile(r"\b(?:go|going|walk|walking|head|heading|continue|continuing|proceed|"
                        r"pass|passing|cross|crossing|keep|move|travel|follow|get|begin|start)\b")
#: "You went too far" (a check bounding the stop); "not too far away" is a distance.
_TOO_FAR_RE = re.compile(r"\b(?<!not )(?:too far|gone past|overshot|went past)\b(?!\s+away)")
#: A bare "go on": "go straight", "continue through it", "keep going through both".
_GO_ON_RE = re.compile(r"^(?:go|walk|continue|keep going|head|proceed)\s+(?:straight|forward|"
                       r"through|across|on)\b(?:\s+(?:through|across)\s+(?:it|both|them))?$")
_FORK_RE = re.compile(r"\b(?:fork|forks|y in the road|splits?|(?:the|a) y\b)")
_IF_RE = re.compile(r"^\s*(?:if|when you see|should you|in case)\b")
#: A description, not an action: "you will see a park", "there will be a playground after
#: the second light", "the following 2 sets of lights will be very close together", "the next
#: light is a double". It says what the walker meets; it moves nobody.
_DESCRIPTION_RE = re.compile(
    # An opening distance ("half a block down, there will be ..."), not a crossing.
    r"^(?:(?![^,]*\b(?:lights?|intersections?|corners?|streets?|crossings?|turn\w*)\b)"
    r"[a-z0-9/' -]{1,40},\s*)?(?:(?:and|but|also|then|now|here)\s+)?(?:"
    r"you(?:'ll|'d| will| would| should| may| might| can| could)?\s+(?:also\s+|now\s+|then\s+)?"
    r"(?:see|notice|find|spot|observe|have)\b"
    r"|there(?:'s|'ll be| is| are| will be| should be| would be| may be| might be| could be)\b"
    r"|(?:it|this|that)(?:'s|'ll be| is| will be| should be| would be| may be| might be)\b"
    r"|(?:the|a|an|both|two)\s+(?:\w+[\s-]+){0,6}?(?:will|should|would|may|might|could)\s+(?:be|have)\b"
    r"|(?:the|a|an|both|two)\s+(?:\w+[\s-]+){0,6}?(?:is|are|has|have)\s+(?:a|an|the|on|to|at|in|"
    r"very|two|both|also|just|right|directly|immediately|close|near|next)\b"
    # "the fourth light has Valley National Bank on the corner": what a crossing has.
    r"|(?:the|that|this)\s+(?:\w+[\s-]+){0,2}?(?:lights?|intersections?|corners?|crossings?)"
    r"\s+(?:has|have|will have|should have)\b)")
#: "the light immediately after", "lights right after", "the one just after": the very next.
_RIGHT_AFTER_RE = re.compile(r"\b(?:immediately|right|just|directly|shortly|quickly|soon)"
                             r"\s+(?:after(?:wards?)?|following|afterwards)\b(?!\s+(?:the|it|that|this|"
                             r"passing|you|turning|crossing))"
                             r"|\bright away\b|\bright after that\b|\bimmediately\b$")


def _count_of(word: str | None) -> tuple[int, bool]:
    """Return (count, relative) for a counter word; (0, False) when absent."""
    if not word:
        return 0, False
    w = word.strip()
    if w in RELATIVE_WORDS:
        return 1, True
    if w in ORDINAL_WORDS:
        return ORDINAL_WORDS[w], False
    if w.startswith("couple"):
        return 2, True
    if w.isdigit():
        return int(w), True
    if w in ("a", "an", "single"):
        return 1, False
    return NUMBER_WORDS.get(w, 0), True


def _feature_name(raw: str) -> str:
    f = raw.replace("-", " ")
    if f.startswith(("traffic", "stop", "light", "signal", "set")):
        return "light"
    if f in ("t",) or f.startswith(("t intersection", "t junction")):
        return "t"
    if f.startswith("block"):
        return "block"
    return "intersection"


#: A turn said not to be taken: "ignore the left turn", "don't turn right", "skip the right".
_IGNORE_TURN_RE = re.compile(r"^\s*(?:ignore|skip|avoid|don't|do not|never)\b")
#: Words that make the turn verb after them the turn just made: "after turning left",
#: "after you turn right" (not "shortly after take a right": an imperative).
_AFTER_TURN_RE = re.compile(r"\b(?:after|once|having)\s+(?:you\s+|you've\s+)?$")
#: A turn someone *could* take describes a street, it orders nothing.
_PASSED_TURN_RE = re.compile(r"\b(?:past|pass|passing|passed|by|beyond)\s+(?:a|an|the|one)\s+$")
_COULD_TURN_RE = re.compile(r"\b(?:could|would|might)\s+(?:also\s+|only\s+)?$")
def normalise(text: str) -> str:
    """Lower-case, straighten quotes and spaces, keep sentence punctuation."""
    t = clean_text(text).lower().replace("\u2019", "'").replace("\u2018", "'")
    t = t.replace("\u201c", '"')
    t = t.replace("\u201d", '"').replace("&", " and ")
    return re.sub(r"\s+", " ", t).strip()


def split_clauses(text: str) -> list[str]:
    """Split an instruction into clauses at sentence ends and action-chaining conjunctions.

    A clause that is only a direction after a turn ("... and immediately left", "then a
    quick right") gets its verb back: "turn left immediately".
    """
    parts = _CLAUSE_SPLIT_RE.split(normalise(text))
    clauses = [p.strip(" ,.;!?") for p in parts if p and p.strip(" ,.;!?")]
    return [_BARE_TURN_RE.sub(r"turn \g<dir> immediately", c) for c in clauses]


_AT_PLACE_RE = re.compile(r"^at\s+(?:the|a|an|this|that)\b")
#: A turn clause that starts with its turn (within this many characters) takes a place said
#: just before it: "at the following light with X on the corner, turn left".
LEADING_TURN_CHARS = 16


def _attach_places(clauses: list[str]) -> list[str]:
    """Move a bare landmark clause ("at the Capital One on the corner") behind the next turn.

    The clause split cuts "At the Capital One on the right corner, turn left" into a place and
    a bare turn; the place says where the turn happens, so the turn clause becomes "turn left
    at the capital one on the right corner". A place that is a light, intersection or T stays a
    move of its own: walking to it and then turning where one stands already does the same.
    """
    out: list[str] = []
    k = 0
    while k < len(clauses):
        clause = clauses[k]
        if (k + 1 < len(clauses) and _AT_PLACE_RE.search(clause)
                and not _STOP_RE.search(clause) and not _MOTION_RE.search(clause)
                and not _turn_direction(clause)[0] and not _T_RE.search(clause)
                and not _features(clause)):
            turn = _TURN_RE.search(clauses[k + 1])
            if turn is not None and turn.start() <= LEADING_TURN_CHARS:
                nxt = clauses[k + 1]
                out.append(f"{nxt[:turn.end()]} {clause}{nxt[turn.end():]}")
                k += 2
                continue
        out.append(clause)
        k += 1
    return out


def _features(clause: str) -> list[tuple[int, int, str, int, bool]]:
    """All feature mentions: (start, end, feature, count, relative)."""
    out = []
    for m in _FEATURE_RE.finditer(clause):
        feat = _feature_name(m.group("feat"))
        count, relative = _count_of(m.group("cnt"))
        if (m.group("feat").startswith(("street", "avenue")) and m.group("cnt")
                and m.group("cnt")[0].isdigit() and not m.group("cnt").isdigit()):
            continue  # "4th Street", "2nd Avenue": a street name, not a count
        if feat == "intersection" and m.group("feat").startswith(("street", "corner")):
            # "a street" counts as an intersection only with a counter word, and "the left
            # corner" says where a landmark is, not where to go.
            side_street = m.group("feat").startswith("street") and re.search(
                r"\bside\s+$", clause[:m.start("feat")])
            if side_street and count == 0:
                count = 1  # "pass the left side street": a crossing, counted as one
            if count == 0 and ("corner" not in m.group("feat") or re.search(
                    r"\b(?:left|right|near|far|opposite|same|other)\s+(?:\w+\s+)?$",
                    clause[max(0, m.start() - 20):m.start() + (len(m.group(0)) -
                                                               len(m.group("feat")))])):
                continue
        out.append((m.start(), m.end(), feat, count, relative))
    if len(out) > 1:
        # "Duane Reade is on the corner at the second light": the uncounted corner says
        # where the place is; the light says where to go.
        out = [f for f in out if not (f[3] == 0 and "corner" in clause[f[0]:f[1]]
                                      and clause[max(0, f[0] - 7):f[0]].endswith("on "))] or out
    return out


def _side(clause: str) -> str:
    m = _SIDE_RE.search(clause)
    if not m:
        return ""
    return m.group("side") or m.group("side2") or ""


def _turn_direction(clause: str) -> tuple[str, int]:
    """('left'|'right'|'', position) of the first turn phrase that is not a side phrase."""
    m = _TAKE_STREET_RE.search(clause) or _SIDE_STREET_TURN_RE.search(clause)
    if m:
        return m.group("dir"), m.start()
    m = _FORK_TURN_RE.search(clause)
    if m and (_FORK_RE.search(clause) or re.search(r"\b(?:path|branch)\b", clause)):
        return m.group("a") or m.group("b"), m.start()
    masked = _MASK_SIDE_RE.sub(lambda m: " " * len(m.group(0)), clause)
    # "where you can only turn left or right" describes the crossing; it is not a turn.
    masked = re.sub(r"\b(?:turn\s+)?(?:left|right)\s+or\s+(?:left|right)\b",
                    lambda m: " " * len(m.group(0)), masked)
    masked = re.sub(r"\b(?:left|right)(?=\s+(?:corner|side(?!\s*streets?)|hand side)\b)",
                    lambda m: " " * len(m.group(0)), masked)
    for m in _TURN_RE.finditer(masked):
        if _IGNORE_TURN_RE.search(masked[:m.start()]):
            # "Ignore the left and right turn as you continue": a turn not to take.
            return "", -1
        if _COULD_TURN_RE.search(masked[:m.start()]) or _PASSED_TURN_RE.search(
                masked[:m.start()]):
            # "past the first street that you could turn left on": a street described;
            # "go straight past a right turn": a turn passed, not taken.
            continue
        if _AFTER_TURN_RE.search(masked[:m.start()]) and re.match(
                r"(?:turn|turning|turned|making|made)\b", m.group(0)):
            # "After turning left, take a step": the turn just made, not a new one.
            continue
        d = m.group("dir") or m.group("dir2") or m.group("dir3") or m.group("dir4")
        start = m.start()
        return d, start
    return "", -1


_FILLER_WORDS = lexicon.words("directions", "filler_words")


def _landmark_text(clause: str) -> str:
    """The clause kept for fuzzy POI matching, or '' when it names nothing: no landmark
    preposition, or only pronouns and filler words ("stop immediately after it")."""
    if not _LANDMARK_PREP_RE.search(clause):
        return ""
    words = re.findall(r"[a-z0-9']+", clause)
    if not any(w not in _FILLER_WORDS and len(w) > 2 for w in words):
        return ""
    return clause


_BRANCH_RE = re.compile(r"^\s*(?:\w+\s+){0,3}?(?P<a>left|right)[- ](?:hand\s+)?side\s+streets?\b"
                        r"|^\s*(?:\w+\s+){0,3}?(?:side\s+)?streets?\s+(?:on|to)\s+(?:the|your)\s+"
                        r"(?P<b>left|right)\b")


def _branch(tail: str, start: int, end: int) -> str:
    """'left'/'right' when the feature at ``tail[start:end]`` is a side street on that side
    ("pass two left side streets", "the first street on your right"), else ''."""
    m = _BRANCH_RE.search(tail[start:end + 25])
    if not m:
        return ""
    return m.group("a") or m.group("b") or ""


def _fraction(clause: str) -> float:
    if _HALF_RE.search(clause):
        return 0.5
    m = _FRACTION_RE.search(clause)
    if m:
        if m.group("num"):
            den = int(m.group("den")) or 1
            return min(1.0, int(m.group("num")) / den)
        return 1.0 / 3.0 if m.group("word") == "third" else 0.25
    return 0.0


Feature = tuple[int, int, str, int, bool]


def _condition(clause: str, *, after: int, last_feature: str, for_stop: bool,
               nearest_last: bool = False) -> Condition:
    """Read the condition of an action whose verb ends at ``after`` in ``clause``.

    ``nearest_last`` picks the feature mentioned last (closest to a verb that follows it).
    """
    tail = clause[after:] if after >= 0 else clause
    feats = [f for f in _features(tail) if not _EXIT_RE.search(tail[max(0, f[0] - 20):f[0]])]
    if not for_stop and any(f[2] != "block" or f[3] for f in feats):
        # "down the block ... through the light": an uncounted block is no crossing.
        feats = [f for f in feats if f[2] != "block" or f[3]]
    if nearest_last:
        feats = feats[::-1]
    if for_stop:
        early = _few_steps(tail, feats)
        if early is None:
            early = _in_intersection(tail)
        if early is not None:
            return early
    side = _side(tail)
    landmark = _landmark_text(tail)
    if _END_OF_BLOCK_RE.search(tail) and all(f[2] == "block" for f in feats):
        return Condition(feature="intersection", count=1, relative=False, landmark=landmark,
                         side=side)
    if _T_RE.search(tail) and not any(f[2] == "t" for f in feats):
        return Condition(feature="t", count=1, relative=False, landmark=landmark, side=side)
    if for_stop:
        in_block = _stop_in_block(tail, landmark, side)
        if in_block is not None:
            return in_block
    if feats:
        return _feature_condition(tail, feats[0], for_stop=for_stop, landmark=landmark,
                                  side=side)
    return _featureless_condition(tail, last_feature, for_stop=for_stop, landmark=landmark,
                                  side=side)


def _few_steps(tail: str, feats: list[Feature]) -> Condition | None:
    """A stop "a few steps" on (past a crossing when one is passed), else None."""
    steps = _STEPS_RE.search(tail)
    if not steps:
        return None
    word = steps.group("n") or "few"
    n = int(word) if word.isdigit() else NUMBER_WORDS.get(word, 2)
    rel_feats = [f for f in feats if f[4] and f[2] in ("light", "intersection")]
    if rel_feats and _PAST_RE.search(tail):
        _s, _e, feat, count, _r = rel_feats[0]
        return Condition(feature=feat, count=count, relative=True, passing=True,
                         relation="few", fraction=float(n), side=_side(tail))
    if not _BEFORE_RE.search(tail):
        return Condition(relation="few", fraction=float(n), landmark=_landmark_text(tail),
                         side=_side(tail))
    return None


def _in_intersection(tail: str) -> Condition | None:
    """A stop "in the middle of the (next) intersection", else None."""
    m_in = _IN_INTERSECTION_RE.search(tail)
    if not m_in:
        return None
    return Condition(feature="intersection", count=1,
                     relative=bool(re.search(r"\b(?:next|following)\b", m_in.group(0))),
                     side=_side(tail))


def _stop_in_block(tail: str, landmark: str, side: str) -> Condition | None:
    """A stop "two and a half blocks" on or "halfway down the block", else None."""
    m = _BLOCKS_RE.search(tail)
    if m:
        word = m.group("n")
        blocks = float(word) if word[0].isdigit() else float(NUMBER_WORDS.get(word, 1))
        if m.group("half"):
            blocks += 0.5
        return Condition(feature="block", count=int(blocks), relation="fraction",
                         fraction=blocks - int(blocks), side=side)
    frac = _fraction(tail)
    if frac and re.search(r"\b(?:block|way|light|intersection|street|down|between|next|corner)\b",
                          tail):
        return Condition(feature="block", relation="fraction", fraction=frac,
                         landmark=landmark, side=side)
    return None


def _feature_condition(tail: str, feature: Feature, *, for_stop: bool, landmark: str,
                       side: str) -> Condition:
    """The condition at the first feature mentioned: passed or reached, counted how."""
    start, _end, feat, count, relative = feature
    if feat == "block":
        if for_stop:
            return Condition(feature="block", relation="fraction", fraction=0.5,
                             landmark=landmark, side=side)
        if not count:
            return Condition(landmark=landmark, side=side)
        feat, relative = "intersection", True
    prefix = tail[:start]
    # Passed or reached: whichever word comes last before the feature decides.
    last_pass = max((m.end() for m in _PASS_RE.finditer(prefix)), default=-1)
    last_to = max((m.end() for m in _TO_RE.finditer(prefix)), default=-1)
    passing = last_pass > last_to and last_pass >= len(prefix) - 40
    double = bool(re.search(r"\bdouble\b", tail))
    branch = _branch(tail, start, _end) if feat == "intersection" else ""
    if not count:
        count, relative = 1, False
    if feat == "t" and passing:
        feat = "intersection"  # passing T-intersections = passing side streets
    if for_stop and _BEFORE_RE.search(prefix):
        return Condition(feature=feat, count=count, relative=relative, relation="before",
                         landmark="", side=side)
    return Condition(feature=feat, count=count, relative=relative, passing=passing,
                     landmark=landmark, side=side, double=double, branch=branch)


def _featureless_condition(tail: str, last_feature: str, *, for_stop: bool, landmark: str,
                           side: str) -> Condition:
    """No feature named: "the next one" (the last feature), a bend, a landmark, a few steps."""
    m = re.search(r"\b(?:the\s+)?(?P<cnt>next|following|second|third|2nd|3rd|first|1st)\s*"
                  r"(?:one)?\s*(?:$|,(?=\s*(?:just|right|with|where|which|past|after|before)))",
                  tail)
    if m and last_feature:
        count, relative = _count_of(m.group("cnt"))
        return Condition(feature=last_feature, count=count, relative=relative)
    if _VEER_RE.search(tail) and not for_stop:
        return Condition(feature="veer", count=1, relative=True, side=side)
    if landmark:
        relation = "at"
        if _BEFORE_RE.search(tail):
            relation = "before"
        elif _PAST_RE.search(tail):
            relation = "past"
        return Condition(relation=relation, landmark=landmark, side=side)
    if for_stop and _FEW_RE.search(tail):
        return Condition(relation="few", side=side)
    return Condition(side=side)


_PARTIAL_MOVE_RE = re.compile(r"\b(?:of the way|way down|down the block|to the next|"
                              r"(?:the|this|that|next) block|toward|towards|before the next)\b")
_LESS_RE = re.compile(r"\b(?:less than|just short of|not quite|under)\b")
_MORE_RE = re.compile(r"\b(?:more than|just over|over|a bit past|a little past|"
                      r"a little more than)\b")
_ALMOST_RE = re.compile(r"\balmost (?:all the way )?(?:to|at|down|until)\b|\bto almost\b"
                        r"|\b(?:nearly|most of the way|almost the whole)\b")
#: "Almost to the light": this fraction of the block.
ALMOST_FRACTION = 0.8
#: "Less than halfway" / "more than halfway": the fraction moves by this much.
FRACTION_NUDGE = 0.1


def _partial_block(clause: str) -> Condition | None:
    """A motion clause that ends part of the way down a block ("go 3/4 of the way down the
    block", "continue less than halfway to the next light", "walk almost to the light"), as a
    ``block`` condition with ``relation="fraction"``; ``None`` for any other clause."""
    if not _MOTION_RE.search(clause) or _features_passed(clause):
        return None
    frac = _fraction(clause)
    if frac and not _PARTIAL_MOVE_RE.search(clause):
        return None
    if not frac:
        if not _ALMOST_RE.search(clause) or not re.search(
                r"\b(?:light|lights|intersection|corner|block|end)\b", clause):
            return None
        frac = ALMOST_FRACTION
    if _LESS_RE.search(clause):
        frac -= FRACTION_NUDGE
    elif _MORE_RE.search(clause):
        frac += FRACTION_NUDGE
    frac = min(max(frac, 0.1), 0.95)
    return Condition(feature="block", relation="fraction", fraction=frac,
                     landmark=_landmark_text(clause), side=_side(clause))


def _features_passed(clause: str) -> bool:
    """True when the clause passes a counted light or intersection ("through two lights")."""
    cond = _condition(clause, after=0, last_feature="", for_stop=False)
    return cond.passing and cond.feature in ("light", "intersection")


def _crossing_passed_first(prefix: str, last_feature: str) -> tuple[int, Condition] | None:
    """(end, condition) of a light or intersection passed before the stop verb in one clause
    ("continue through the next intersection and stop ..."), else ``None``."""
    if not _MOTION_RE.search(prefix) and not _PASS_RE.search(prefix):
        return None
    cond = _condition(prefix, after=0, last_feature=last_feature, for_stop=False)
    if not cond.passing or cond.feature not in ("light", "intersection"):
        return None
    feats = [f for f in _features(prefix) if f[2] in ("light", "intersection")]
    if not feats:
        return None
    return feats[0][1], replace(cond, landmark="")


def _count_here(cond: Condition, text: str, last_feature: str, *, from_here: bool
                ) -> Condition:
    """Counts that run from where the walker stands, not from the last turn.

    "Turn left at the lights immediately after" / "at the one right after": the very next
    light (or crossing), whatever the count since the turn. After a description such as "the
    following 2 sets of lights will be very close together", an ordinal ("turn right at the
    second set") counts from here too (``from_here``).
    """
    if cond.relative or cond.relation in ("few", "fraction"):
        return cond
    if cond.feature in ("light", "intersection") and cond.count >= 1 and from_here:
        return replace(cond, relative=True)
    if _RIGHT_AFTER_RE.search(text) and cond.count <= 1 and not cond.passing:
        if cond.feature in ("light", "intersection"):
            return replace(cond, count=1, relative=True)
        if not cond.feature and last_feature and re.search(
                r"\b(?:the (?:one|next one)|lights?|intersection|crossing)\s+"
                r"(?:\w+\s+)?(?:after|following)\b", text):
            return replace(cond, feature=last_feature, count=1, relative=True, landmark="")
    return cond


def decompose(instruction: str) -> list[SubGoal]:
    """Split a navigation instruction into atomic sub-goals.

    Args:
        instruction: free text, e.g. "Go through one light and turn right at the next.".

    Returns:
        Sub-goals in order; the last is always ``STOP`` (added when the text has none).
    """
    goals: list[SubGoal] = []
    last_feature = ""
    too_far = ""
    described = said = ""
    count_from_here = False
    clauses = _attach_places(split_clauses(instruction))
    for k, clause in enumerate(clauses):
        if _IF_RE.search(clause) or _TOO_FAR_RE.search(clause):
            # "If you reach a park, you went too far": a check, not an action; it bounds
            # where the final STOP may be.
            if _TOO_FAR_RE.search(clause):
                too_far = clause
            continue
        direction, pos = _turn_direction(clause)
        stop = _STOP_RE.search(clause)
        if not direction and not stop and _DESCRIPTION_RE.search(clause):
            # "The following 2 sets of lights will be very close together": a check, not a
            # move; a relative count in it makes the next ordinal count from here ("turn
            # right at the second set").
            feats = [f for f in _features(clause) if f[2] in ("light", "intersection")]
            if feats and feats[0][4] and feats[0][3] >= 2:
                count_from_here = True
            for _s, _e, feat, _c, _r in feats:
                last_feature = feat
            described = feats[0][2] if feats else ""
            said = clause
            continue
        previous = clauses[k - 1] if k else ""
        new = _clause_goals(clause, previous, direction, pos, stop, last_feature)
        passed = through_it(clause, described or last_feature) if not new else None
        if passed and not described:
            # "Go to the light. Go through it": the crossing just reached is passed ("come
            # to two lights close together. Go through both of them": the walk stands on
            # the second).
            new = [SubGoal(Action.MOVE_FORWARD, clause, Condition(
                feature=passed[0], count=1, passing=True))]
        if not new and described and (_GO_ON_RE.search(clause) or passed):
            # "The next light has a curry place on the corner, go straight": the crossing
            # just described is passed.
            n = 2 if re.search(r"\b(?:both|them)\b", clause) else 1
            new = [SubGoal(Action.MOVE_FORWARD, clause, Condition(
                feature=described, count=n, relative=True, passing=True))]
        if (len(new) == 1 and new[0].action == Action.STOP and said
                and not new[0].condition.feature and not new[0].condition.landmark
                and new[0].condition.relation == "at"):
            # "Half a block down there will be a Duane Reade on your right. Stop here.":
            # the place described is where to stop.
            cond = _condition(said, after=0, last_feature=last_feature, for_stop=True)
            if cond.relation != "fraction" and not cond.landmark:
                cond = replace(cond, relation="at", landmark=said)
            new = [replace(new[0], condition=cond)]
        described = said = ""
        for k_new, g in enumerate(new):
            adjusted = _count_here(g.condition, g.text, last_feature,
                                   from_here=count_from_here and k_new == 0)
            goals.append(replace(g, condition=adjusted))
        if new:
            count_from_here = False
        for _s, _e, feat, _c, _r in _features(clause):
            if feat in ("light", "intersection"):
                last_feature = feat
    return _end_with_stop(goals, too_far)


def _clause_goals(clause: str, previous: str, direction: str, pos: int,
                  stop: re.Match[str] | None, last_feature: str) -> list[SubGoal]:
    """The sub-goals of one action clause (a turn, a stop, a move, or none)."""
    if direction and (not stop or pos < stop.start()):
        return _turn_goals(clause, previous, direction, pos, stop, last_feature)
    if stop:
        return _stop_goals(clause, stop, last_feature)
    partial = _partial_block(clause)
    if partial is not None:
        # "Go about 3/4 of the way down the block": a move that ends inside the block.
        return [SubGoal(Action.MOVE_FORWARD, clause, partial)]
    cond = _condition(clause, after=0, last_feature=last_feature, for_stop=False)
    if cond.feature in ("light", "intersection", "t") or (
            cond.landmark and _MOTION_RE.search(clause)):
        return [SubGoal(Action.MOVE_FORWARD, clause, cond)]
    return []


def _turn_goals(clause: str, previous: str, direction: str, pos: int,
                stop: re.Match[str] | None, last_feature: str) -> list[SubGoal]:
    """A turn at ``pos`` (with a crossing passed before it and a stop after it, if said)."""
    goals: list[SubGoal] = []
    action = Action.TURN_LEFT if direction == "left" else Action.TURN_RIGHT
    cond = _condition(clause, after=pos, last_feature=last_feature, for_stop=False)
    before = _condition(clause[:pos], after=0, last_feature=last_feature,
                        for_stop=False) if pos > 0 else Condition()
    if cond.feature and before.passing and before.feature in ("light", "intersection"):
        # "going through the light ... before making a left at the light": the
        # crossing passed first comes before the one turned at.
        goals.append(SubGoal(Action.MOVE_FORWARD, clause[:pos], before))
    if cond.feature == "" and not cond.landmark:
        # "At the second light, turn left": the condition precedes the verb.
        cond = _condition(clause[:pos], after=0, last_feature=last_feature,
                          for_stop=False, nearest_last=True)
    if cond.passing:
        cond = replace(cond, passing=False)
    if not cond.feature and not cond.landmark:
        # "Take the second right", "the third sidestreet": crossings with that branch.
        nth = ordinal_turn(clause)
        cond = replace(cond, feature="intersection", count=nth, relative=True,
                       branch=direction) if nth else cond
    if not cond.feature and not cond.landmark and (
            _FORK_RE.search(clause) or _FORK_RE.search(previous)):
        # "There will be a fork in the road. Go to the left.": bear, not turn.
        cond = replace(cond, feature="veer", count=1, relative=True)
    goals.append(SubGoal(action, clause, cond))
    if stop:
        goals.append(SubGoal(Action.STOP, clause[stop.start():],
                             _condition(clause, after=stop.end(),
                                        last_feature=last_feature, for_stop=True)))
    return goals


def _stop_goals(clause: str, stop: re.Match[str], last_feature: str) -> list[SubGoal]:
    """A stop (with a crossing passed before it in the same clause, if said)."""
    goals: list[SubGoal] = []
    prefix = clause[:stop.start()]
    crossed = _crossing_passed_first(prefix, last_feature)
    if crossed is not None:
        # "Go through the light and stop halfway down the block": the crossing is
        # passed first; the stop is read from what follows it.
        goals.append(SubGoal(Action.MOVE_FORWARD, prefix[:crossed[0]], crossed[1]))
        prefix = prefix[crossed[0]:]
    cond = _condition(clause, after=stop.end(), last_feature=last_feature, for_stop=True)
    if cond.feature == "" and not cond.landmark and cond.relation != "few":
        pre = _condition(prefix, after=0, last_feature=last_feature, for_stop=True)
        if pre.feature or pre.landmark or pre.relation == "fraction":
            cond = pre
    goals.append(SubGoal(Action.STOP, clause, cond))
    return goals


def _end_with_stop(goals: list[SubGoal], too_far: str) -> list[SubGoal]:
    """Keep the goals up to the first STOP that no turn follows (later STOPs are
    descriptions; a STOP before a turn is a halt on the way), or add one; a "you went too
    far" check bounds the final STOP."""
    while Action.STOP in {g.action for g in goals}:
        first = next(i for i, g in enumerate(goals) if g.action == Action.STOP)
        if not any(g.action in (Action.TURN_LEFT, Action.TURN_RIGHT) for g in goals[first:]):
            goals = goals[:first + 1]
            break
        # "Go through four lights and stop at the fifth. ... Turn left at the corner and stop
        # in front of X": a stop with a turn after it is a halt on the way, walked to.
        goals[first] = replace(goals[first], action=Action.MOVE_FORWARD)
    else:
        goals.append(SubGoal(Action.STOP, "stop", Condition()))
    if too_far:
        goals[-1] = replace(goals[-1], condition=replace(goals[-1].condition, too_far=too_far))
    return goals
