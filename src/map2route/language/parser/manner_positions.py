"""Stage 0, early: manner and position words said at a goal or along the route.

People say how to stop at a place and how to move on the way in everyday words the later
stages do not read: "wait in front of it", "sit tight there facing it", "hang on there",
"remain stationary there until further notice" (how to stop); "make one round around the
cart", "do a lap round the couch, like a full circle", "a complete loop" (a circle);
"swing wide around the counter", "leave a bit of room between you and it as you go round"
(room kept round a thing); "hug the window as much as you can", "keep to the window side of
the big room" (staying near a thing); "right in the middle between the two armchairs, like
exactly halfway", "dead centre between" (a midpoint); "swing past the TV stand, don't stop,
just have a look" (a pass); "go slow near the beds", "drive slowly", "take it nice and easy
going to", "no rush" (speed); "face the window when you get there" (facing); "don't go
between the couch and the TV, go round the side" (the same rule said again).

The RouteIR has a goal, a circle stage, near / far / clearance / avoid constraints and
geometry targets, but no slot for speed, waiting or facing. So each construction here is
either rewritten onto the phrasing the later stages already read for what it says (a circle
verb, "keep clear of", "give X plenty of room", "hug the X side", "halfway between", "wait
by it", "wait there", "go to") or, when it only says *how* (speed, facing, how exactly to
stand, the restated detour, how hard to hug), taken out and reported as context with its
character span, so the map things it names are still reported (never a stage, never a
constraint, never silently dropped). Rewritten tokens keep the span of the words they stand
for, so a refusal still points into the original text. Nothing with a negation in it is
read as manner except the restated "don't stop" of a pass.

Each rule is a construction over closed word classes (a verb of staying, a circle noun, a
keep-room noun, a speed adverb), read by position; never one rule per sentence.
Hand-written for the same reason as the rest of the parser: the tests are closed word
classes, each checked in ``test/language/test_manner_positions.py``.
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["manner_positions"]

Context = list[tuple[str, tuple[int, int]]]
#: A rule's reading at a token: how many tokens it spans, the words it stands for (each
#: ``(word, first, last)``: the tokens ``first..last`` of the span it takes), and the token
#: ranges (relative) reported as context.
Reading = tuple[int, list[tuple[str, int, int]], list[tuple[int, int]]]

_ENDS = frozenset({".", "!", "?"})
_GLUE = frozenset({",", ";", "and", "just", "then", "but", "oh", "so"})
_CUTS = _ENDS | {",", ";", ":", "(", ")", "-"}
#: Verbs of staying at a stop.
_DWELL = frozenset({"wait", "stop", "stand", "stay", "park", "halt", "pause", "remain",
                    "sit", "tight", "there", "here", "yourself", "urself", "put", "up",
                    "still", "quiet", "chill", "hover", "linger", "idle"})
_FRONT_LEADS = frozenset({"right", "just", "directly", "straight", "bang", "squarely"})
_PRONOUNS = frozenset({"it", "them", "that", "this", "those", "these", "him", "her"})
_DETS = frozenset({"the", "a", "an", "that", "this", "those", "these", "your", "my", "our",
                   "both", "all"})
#: Circle nouns ("a lap", "one round", "a full circle").
_LOOPS = frozenset({"lap", "laps", "round", "circle", "circuit", "loop", "ring", "turn",
                    "orbit"})
_WHOLE = frozenset({"full", "complete", "whole", "entire", "proper", "single", "little",
                    "quick", "big", "wide", "nice"})
_ONE = frozenset({"a", "one", "1", "another"})
_AROUND = frozenset({"around", "round"})
#: Room nouns kept round a thing ("a bit of room", "some space").
_ROOM = frozenset({"room", "space", "gap", "clearance", "margin", "distance", "berth"})
_SOME = (("a", "bit", "of"), ("a", "little", "bit", "of"), ("a", "touch", "of"),
         ("a", "tad", "of"), ("a", "little"), ("some",), ("a", "bit"), ("a",),
         ("a", "good"), ("a", "decent"), ("enough",), ("plenty", "of"), ("lots", "of"),
         ("loads", "of"), ("a", "lot", "of"), ("much", "free"), ("much",), ("more",),
         ("some", "free"), ("enough", "free"), ("a", "lot", "of", "free"), ("free",))
_LEAVE = frozenset({"leave", "leaving", "leaves", "keep", "keeping", "allow", "allowing"})
_GIVE = _LEAVE | {"give", "giving", "gives"}
#: How hard to keep near ("as much as you can"): said with a near verb.
_HOW_HARD = (("as", "much", "as", "you", "can"), ("as", "much", "as", "possible"),
             ("as", "best", "you", "can"), ("as", "much", "as", "u", "can"),
             ("where", "you", "can"), ("wherever", "you", "can"), ("if", "you", "can"),
             ("the", "best", "you", "can"))
_NEAR_VERBS = frozenset({"hug", "hugging", "hugs", "close", "closer", "near", "nearer"})
#: Speed and care adverbs; "go slow near the beds": speed said of a place (context).
_SPEED = frozenset({"slow", "slowly", "carefully", "gently", "gingerly", "steadily",
                    "quietly", "cautiously", "softly", "leisurely", "unhurriedly"})
_SPEED_PAIRS = (("nice", "and", "slow"), ("nice", "and", "slowly"), ("nice", "and", "easy"),
                ("nice", "and", "gently"), ("real", "slow"), ("really", "slowly"),
                ("really", "slow"), ("very", "slowly"), ("very", "slow"),
                ("extra", "slowly"), ("extra", "slow"), ("super", "slow"),
                ("a", "bit", "slower"), ("slow", "and", "steady"), ("at", "a", "crawl"),
                ("at", "walking", "pace"), ("at", "a", "snail's", "pace"))
_MOVES = frozenset({"go", "drive", "walk", "move", "head", "roll", "come", "make", "travel",
                    "proceed", "ride", "trundle", "get", "going", "driving", "moving",
                    "walking", "heading", "rolling", "travelling", "traveling", "coming"})
_PLACE_PREPS = frozenset({"near", "around", "round", "by", "past", "through", "in",
                          "beside", "next", "along", "over", "across", "inside", "into"})
_NO_RUSH = (("no", "rush"), ("no", "hurry"), ("there", "is", "no", "rush"),
            ("there", "is", "no", "hurry"), ("no", "need", "to", "rush"),
            ("no", "need", "to", "hurry"), ("do", "not", "rush"), ("do", "not", "hurry"))
_EASY = (("take", "it", "nice", "and", "easy"), ("take", "it", "easy"),
         ("take", "it", "slow"), ("take", "it", "nice", "and", "slow"),
         ("take", "it", "slowly"))
_GOING = frozenset({"going", "getting", "heading", "walking", "driving", "on", "over",
                    "coming", "moving", "rolling"})
#: Facing at the stop ("face the window when you get there", "wait there facing it").
_WAY_TO = (("on", "your", "way", "to"), ("on", "the", "way", "to"), ("as", "you", "go", "to"),
           ("when", "you", "go", "to"), ("while", "going", "to"), ("going", "to"),
           ("on", "ur", "way", "to"), ("en", "route", "to"))
_FACE = frozenset({"face", "facing", "faces"})
_ARRIVE = (("when", "you", "get", "there"), ("when", "you", "arrive"),
           ("once", "you", "are", "there"), ("when", "you", "are", "there"),
           ("once", "you", "get", "there"), ("once", "there"), ("when", "there"),
           ("when", "you", "get", "to", "it"), ("once", "you", "arrive"))
_MID = frozenset({"halfway", "midway", "half-way"})
_EXACT = frozenset({"exactly", "precisely", "right", "just", "about", "roughly", "dead",
                    "bang", "smack", "pretty", "much", "more", "or", "less"})
_DEAD = frozenset({"dead", "bang", "smack", "slap", "right", "exactly", "plumb"})
_CENTRE = frozenset({"centre", "center", "middle"})
#: A stop at a place said without moving ("remain stationary there").
_STILL = frozenset({"stationary", "motionless", "still", "put", "in", "place"})
#: Leg words that open a clause ("from the trolley on to the door keep to ...").
_SCOPE_WORDS = frozenset({"from", "while", "when", "as", "until", "till", "once", "after",
                          "before", "during", "leg", "bit", "part", "stretch", "whilst"})
_LEG_TAILS = (("on", "the", "way"), ("on", "your", "way"), ("the", "whole", "way"),
              ("all", "the", "way"), ("the", "whole", "time"), ("please",), ("pls",))
_SIDE_DETOUR = (("round", "the", "side"), ("around", "the", "side"),
                ("round", "the", "outside"), ("around", "the", "outside"),
                ("round", "the", "back"), ("around", "the", "back"),
                ("round", "the", "other", "way"), ("around", "the", "other", "way"),
                ("round", "instead"), ("around", "instead"), ("round", "it"),
                ("around", "it"), ("round", "them"), ("around", "them"),
                ("the", "long", "way", "round"), ("the", "long", "way", "around"),
                ("the", "other", "way"))


def _at(words: list[str], k: int, *seq: str) -> bool:
    return tuple(words[k:k + len(seq)]) == seq


def _longest(words: list[str], k: int,
             seqs: tuple[tuple[str, ...], ...]) -> int:
    return max((len(s) for s in seqs if _at(words, k, *s)), default=0)


def _np(words: list[str], k: int) -> int:
    """Length of a plain noun phrase at ``k`` ("it", "the counter top", "the dog bed"), 0
    when there is none."""
    if k < len(words) and words[k] in _PRONOUNS:
        return 1
    if k < len(words) and words[k] in _DETS:
        j = k + 1
        while j < len(words) and words[j] in ("big", "little", "small", "kitchen", "other",
                                              "two", "both", "whole", "same"):
            hit = head_lexicon().match(words[j:j + head_lexicon().max_len])
            if hit is not None:
                break
            j += 1
        hit = head_lexicon().match(words[j:j + head_lexicon().max_len])
        if hit is not None:
            return j + hit[0] - k
        return 0
    hit = head_lexicon().match(words[k:k + head_lexicon().max_len])  # "around dog bed"
    return hit[0] if hit is not None and hit[2] != "room" else 0


def _clause_end(words: list[str], k: int) -> int:
    while k < len(words) and words[k] not in _CUTS:
        k += 1
    return k


def _sentence_before(words: list[str], k: int) -> list[str]:
    s = k
    while s and words[s - 1] not in _ENDS:
        s -= 1
    return words[s:k]


# --- how to stop ------------------------------------------------------------------------------
def _front(words: list[str], k: int) -> Reading | None:
    """"wait in front of it" -> "wait by it" (the front kept as context); "stay there in
    front," -> "stay there"."""
    j = k + (words[k] in _FRONT_LEADS)
    if not _at(words, j, "in", "front"):
        return None
    if k == 0 or words[k - 1] not in _DWELL:
        return None
    if _at(words, j + 2, "of") and words[j + 3:j + 4] and words[j + 3] in _PRONOUNS:
        return j + 3 - k, [("by", 0, j + 2 - k)], [(0, j + 3 - k)]
    if words[k - 1] in ("there", "here") and (j + 2 >= len(words) or words[j + 2] in _CUTS):
        return j + 2 - k, [], [(0, j + 2 - k)]
    return None


def _facing(words: list[str], k: int) -> Reading | None:
    """"wait there facing it", "and face the window when you get there": facing at the stop,
    context (the thing faced is reported with it)."""
    if words[k] not in _FACE or k == 0:
        return None
    n = _np(words, k + 1)
    if not n:
        return None
    e = k + 1 + n
    e += _longest(words, e, _ARRIVE)
    if e < len(words) and words[e] not in _CUTS and not _at(words, e, "until") and \
            not _at(words, e, "till") and not _at(words, e, "and"):
        return None
    before = words[k - 1]
    if before in ("there", "here", "it") or before in _DWELL and before not in (
            "stand", "stop", "park", "sit", "wait", "yourself", "urself"):
        return e - k, [], [(0, e - k)]
    if before in ("and", ",") and e > k + 1 + n or before == "and" and k > 1 and \
            words[k - 2] in ("there", "here"):
        # "go to the bed and face the window when you get there": the "and" goes with it
        return e - k, [], [(0, e - k)]
    return None


def _hang_on(words: list[str], k: int) -> Reading | None:
    """"hang on there" -> "wait there"; "remain stationary there" -> "wait there"; "until
    further notice": how long (context)."""
    if words[k] == "hang" and words[k + 1:k + 2] == ["on"] and \
            words[k + 2:k + 3] in (["there"], ["here"]):
        return 2, [("wait", 0, 1)], []
    if words[k] in ("remain", "stay", "keep") and words[k + 1:k + 2] and \
            words[k + 1] in _STILL and words[k + 1] != "put" and \
            not (words[k + 1] == "in" and words[k + 2:k + 3] != ["place"]):
        n = 2 + (words[k + 1] == "in")
        if words[k + n:k + n + 1] in (["there"], ["here"]):
            return n, [("wait", 0, n - 1)], [(1, n)]
    if _at(words, k, "until", "further", "notice") or _at(words, k, "till", "further", "notice"):
        return 3, [], [(0, 3)]
    return None


# --- circles --------------------------------------------------------------------------------
def _loop_verb(words: list[str], k: int) -> Reading | None:
    """"make one round around the cart", "do like one full circle around the stool" -> "go
    round ..." (a circle stage)."""
    if words[k] not in ("make", "do", "doing", "making", "take", "give", "go"):
        return None
    j = k + 1
    j += words[j:j + 1] == ["like"]
    if not (words[j:j + 1] and words[j] in _ONE):
        return None
    j += 1
    while j < len(words) and words[j] in _WHOLE:
        j += 1
    if not (words[j:j + 1] and words[j] in _LOOPS and words[j + 1:j + 2] and
            words[j + 1] in _AROUND):
        return None
    if words[k] == "go" and words[j] != "circle":
        return None
    return j + 1 - k, [("go", 0, j - k)], []


def _loop_apposition(words: list[str], k: int) -> Reading | None:
    """", like a full circle", ", a complete loop," after a circle: said again (context)."""
    if words[k] != "," or k == 0:
        return None
    j = k + 1
    j += words[j:j + 1] in (["like"], ["so"], ["i", "mean"], ["just"])
    if words[j:j + 1] and words[j] in _ONE:
        j += 1
    elif words[j:j + 1] == ["all"] and words[j + 1:j + 3] == ["the", "way"]:
        j += 3
    else:
        return None
    while j < len(words) and words[j] in _WHOLE:
        j += 1
    if not (words[j:j + 1] and words[j] in _LOOPS - {"turn"}):
        return None
    j += 1
    if j < len(words) and words[j] not in _CUTS:
        return None
    said = _sentence_before(words, k)
    if not any(w in _AROUND or w in ("circle", "circling", "lap", "loop") for w in said):
        return None
    return j - k, [], [(1, j - k)]


# --- room kept round a thing -----------------------------------------------------------------
def _swing_wide(words: list[str], k: int) -> Reading | None:
    """"swing wide around the counter top", "swing out wide of the cart" -> "keep clear of
    ..." (room kept round the thing)."""
    if words[k] not in ("swing", "swinging", "swings", "go", "going", "steer", "pass", "give"):
        return None
    j = k + 1
    j += words[j:j + 1] in (["out"], ["nice"], ["really"], ["well"], ["extra"])
    if words[j:j + 1] not in (["wide"], ["wider"]):
        return None
    j += 1
    if words[j:j + 1] and words[j] in ("around", "round", "of", "past", "by", "at"):
        j += 1
    if not _np(words, j):
        return None
    return j - k, [("keep", 0, 0), ("clear", 1, j - k - 1), ("of", j - k - 1, j - k - 1)], []


def _room_between_you(words: list[str], k: int) -> Reading | None:
    """"leave a bit of room between you and it" -> "give it plenty of room"; "give it a bit
    of room" -> "give it plenty of room" (how much is not in the route's terms)."""
    if words[k] in _GIVE:
        k_word = "give" if words[k] in _GIVE - _LEAVE else "leave"
    else:
        return None
    if k_word == "leave" or not _np(words, k + 1):
        n = _longest(words, k + 1, _SOME)
        j = k + 1 + n
        if not (words[j:j + 1] and words[j] in _ROOM):
            return None
        j += 1
        if _at(words, j, "between", "you", "and") or _at(words, j, "between", "yourself",
                                                           "and"):
            m = _np(words, j + 3)
            if not m:
                return None
            said = [(k_word if k_word == "give" else "give", 0, 0)]
            said += [(w, j + 3 + q - k, j + 3 + q - k) for q, w in enumerate(words[j + 3:j + 3 + m])]
            said += [("plenty", 1, j - k - 1), ("of", 1, j - k - 1), ("room", j - k, j + 2 - k)]
            return j + 3 + m - k, said, []
        if n and words[k + 1:k + 1 + n] != ["plenty", "of"] and words[j:j + 1] and \
                words[j] in ("round", "around", "from", "to") and _np(words, j + 1):
            said = [(words[k], 0, 0), ("plenty", 1, n), ("of", 1, n), (words[j - 1], j - 1 - k,
                                                                          j - 1 - k)]
            return j - k, said, []
        return None
    if k_word == "give" and _np(words, k + 1):
        m = _np(words, k + 1)
        j = k + 1 + m
        n = _longest(words, j, _SOME)
        if n and words[j:j + n] not in (["plenty", "of"], ["lots", "of"], ["loads", "of"],
                                        ["a", "lot", "of"], ["a"], ["a", "good"]) and \
                words[j + n:j + n + 1] and words[j + n] in _ROOM:
            said = [(w, q, q) for q, w in enumerate(words[k:j])]
            if words[k].endswith("ing") and words[k + 1] in _PRONOUNS:
                # "circle the cart, giving it a bit of space": the later stages read "give it"
                said[:1] = [("and", 0, 0), ("give", 0, 0)]
            said += [("plenty", j - k, j + n - k - 1), ("of", j - k, j + n - k - 1)]
            return j + n - k, said, []
    return None


def _side_detour(words: list[str], k: int) -> Reading | None:
    """"don't go between the couch and the TV, go round the side": the detour said again
    after a gap rule (context)."""
    if words[k] not in ("go", "come", "drive", "take") or k == 0:
        return None
    said = _sentence_before(words, k)
    if "between" not in said or not any(w in ("not", "never", "no") for w in said):
        return None
    n = _longest(words, k + 1, _SIDE_DETOUR)
    if not n:
        return None
    e = k + 1 + n
    e += words[e:e + 1] in (["instead"], ["yeah"], ["please"], ["then"])
    if e < len(words) and words[e] not in _CUTS:
        return None
    a = k - (words[k - 1] in ("just", "and"))
    a -= a > 0 and words[a - 1] in (",", "and")
    return e - k, [], [(a - k, e - k)]


# --- staying near -----------------------------------------------------------------------------
def _how_hard(words: list[str], k: int) -> Reading | None:
    """"hug the window as much as you can": how hard (context), said after a near verb."""
    n = _longest(words, k, _HOW_HARD)
    if not n or k == 0:
        return None
    said = _sentence_before(words, k)
    if not any(w in _NEAR_VERBS for w in said[-8:]) or said[-1:] == ["close"]:
        return None
    return n, [], [(0, n)]


def _keep_to_side(words: list[str], k: int) -> Reading | None:
    """"keep to the window side of the big room" -> "hug the window side in the big room";
    "stick to the sink side" -> "hug the sink side" (read by :mod:`.leg_phrasings`)."""
    if words[k] in ("hug", "hugging", "favour", "favor") and words[k + 1:k + 2] == ["the"]:
        j = k  # "hug the dresser side of the room": the verb says "keep to"
    elif words[k] not in ("keep", "stay", "stick", "keeping", "staying", "sticking"):
        return None
    else:
        j = k + 1
        j += words[j:j + 1] in (["over"], ["right"], ["well"])
        if words[j:j + 2] not in (["to", "the"], ["on", "the"]):
            return None
    hit = head_lexicon().match(words[j + 2:j + 2 + head_lexicon().max_len])
    if hit is None or hit[2] == "room":
        return None
    s = j + 2 + hit[0]
    if words[s:s + 1] not in (["side"], ["end"], ["wall"]) or words[s] != "side":
        return None
    said = [("hug", 0, j + 1 - k), ("the", j + 1 - k, j + 1 - k)]
    said += [(w, q - k, q - k) for q, w in zip(range(j + 2, s + 1), words[j + 2:s + 1],
                                                strict=True)]
    if words[s + 1:s + 2] == ["of"] and words[s + 2:s + 3] and words[s + 2] in _DETS:
        e = _clause_end(words, s + 2)
        tail = next((e - len(t) for t in _LEG_TAILS if tuple(words[e - len(t):e]) == t), e)
        opened = words[_clause_start(words, k):k]
        if any(w in _SCOPE_WORDS for w in opened):
            # "from the trolley on to the door keep to the window side of the big room": the
            # leg is said already; the room says which window
            said.append(("in", s + 1 - k, s + 1 - k))
            return s + 2 - k, said, []
        # "keep to the window side of the kitchen": while in the kitchen, near its window
        room = [("while", s + 1 - k, s + 1 - k), ("in", s + 1 - k, s + 1 - k)]
        room += [(w, q - k, q - k) for q, w in zip(range(s + 2, tail), words[s + 2:tail],
                                                    strict=True)]
        room.append((",", s + 1 - k, s + 1 - k))
        # "... on the way": the room is the more narrow leg; the rest is said with it
        return e - k, [*room, *said], [(tail - k, e - k)]
    return s + 1 - k, said, []


def _clause_start(words: list[str], k: int) -> int:
    while k and words[k - 1] not in _CUTS:
        k -= 1
    return k


# --- geometry targets -------------------------------------------------------------------------
def _exactly_halfway(words: list[str], k: int) -> Reading | None:
    """", like exactly halfway" after a midpoint said another way: said again (context)."""
    if k == 0 or words[k] != "like" and words[k - 1] not in _CUTS | {"and"}:
        return None
    j = k + (words[k] == "like")
    while j < len(words) and words[j] in _EXACT:
        j += 1
    if not (words[j:j + 1] and words[j] in _MID):
        return None
    e = j + 1
    e += words[e:e + 2] == ["between", "them"] and 2
    if e < len(words) and words[e] not in _CUTS | {"and"}:
        return None
    said = _sentence_before(words, k)
    if "between" not in said and not any(w in _MID for w in said):
        return None
    a = k - (words[k - 1] == ",")
    return e - k, [], [(a - k, e - k)]


def _dead_centre(words: list[str], k: int) -> Reading | None:
    """"dead centre between X and Y", "bang in the middle between" -> "halfway between"."""
    if words[k] not in _DEAD:
        return None
    j = k + 1
    j += words[j:j + 2] == ["in", "the"] and 2
    if words[j:j + 1] and words[j] in _CENTRE and words[j + 1:j + 2] == ["of"] and \
            words[k] != "right" and _np(words, j + 2):
        # "stand dead centre of the kitchen", "in the dead centre of": the middle of it
        said = [] if k > 1 and words[k - 2:k] == ["in", "the"] else [("in", 0, 0), ("the", 0, 0)]
        return j + 1 - k, [*said, ("middle", 0, j - k)], []
    if not (words[j:j + 1] and words[j] in _CENTRE) or words[j + 1:j + 2] != ["between"]:
        return None
    if j == k + 1 and words[j] == "middle":
        return None
    return j + 1 - k, [("halfway", 0, j - k)], []


# --- passes --------------------------------------------------------------------------------------
def _just_look(words: list[str], k: int) -> Reading | None:
    """"swing past the TV stand first, don't stop, just have a look if the remote's there,
    then ...": the pass said again (context)."""
    if not _at(words, k, "do", "not", "stop") or k == 0 or words[k - 1] not in _CUTS:
        return None
    said = _sentence_before(words, k)
    if not any(w in ("past", "by", "through") for w in said):
        return None
    j = k + 3
    j += words[j:j + 1] == [","]
    j += words[j:j + 1] == ["just"]
    if words[j:j + 1] in (["have"], ["take"], ["get"]) and words[j + 1:j + 2] == ["a"] and \
            words[j + 2:j + 3] in (["look"], ["peek"], ["peep"], ["glance"], ["quick"]):
        j += 3 + (words[j + 2] == "quick" and words[j + 3:j + 4] in (["look"], ["peek"]))
        if words[j:j + 1] in (["if"], ["whether"], ["to"], ["at"]):
            j = _clause_end(words, j)
    elif j < len(words) and words[j] not in _CUTS:
        return None
    return j - k, [], [(0, j - k)]


# --- speed -------------------------------------------------------------------------------------
def _speed(words: list[str], k: int) -> Reading | None:
    """"drive slowly to the fridge" -> "drive to the fridge"; "go slow near the beds": speed
    said of a place, all of it context; "take it nice and easy going to" -> "go to"; "no
    rush,": context."""
    n = _longest(words, k, _EASY)
    if n:
        j = k + n
        if words[j:j + 1] and words[j] in _GOING and words[j + 1:j + 2] in (["to"], ["over"]):
            return j + 1 - k, [("go", 0, j - k)], [(0, n)]
        if words[j:j + 1] and words[j] in _CUTS | {"and"}:
            return n, [], [(0, n)]
        return None
    n = _longest(words, k, _NO_RUSH)
    if n and (k == 0 or words[k - 1] in _CUTS | {"and", "so", "but"}) and \
            words[k + n:k + n + 1] and words[k + n] in _CUTS | {"just"}:
        return n, [], [(0, n)]
    n = _longest(words, k, _SPEED_PAIRS) or (words[k] in _SPEED and 1)
    if n and k and words[k - 1] not in _MOVES and words[k - 1] not in _CUTS and \
            (k + n == len(words) or words[k + n] in _CUTS | {"and", "please", "pls"}) and \
            any(w in _MOVES for w in _sentence_before(words, k)[:-1]) and \
            words[k - 1] not in ("be", "is", "are", "was", "it", "that"):
        # "go to the fridge slowly": said after the goal
        return n, [], [(0, n)]
    if k == 0 or words[k - 1] not in _MOVES:
        return None
    if not n:
        return None
    j = k + n
    a = k - 1
    while a and words[a - 1] in ("just", "and", "please", "oh", "but", "then"):
        a -= 1
    if words[j:j + 1] and words[j] in ("near", "around", "round", "in", "when", "while",
                                      "inside", "whenever") and \
            words[k - 1] in ("go", "drive", "move", "roll") and \
            (a == 0 or words[a - 1] in _CUTS | {"and", "but", "oh", "so", "then"}):
        # "go slow near the beds": a speed rule over a place, all of it context ("go slowly
        # past X" is a pass said slowly: only the adverb is context)
        m = _np(words, j + 1)
        e = j + 1 + m
        w = _longest(words, e, _WAY_TO)
        if m and w:
            # "go slow near the beds on your way to the dresser": the way there is the goal
            return e + w - k, [("go", e - k, e + w - k - 1), ("to", e + w - k - 1,
                                                               e + w - k - 1)], [(a - k, e - k)]
        e = j
        while e < len(words) and words[e] not in _CUTS | {"and", "then"}:
            e += 1
        return e - k, [], [(a - k, e - k)]
    return n, [], [(0, n)]


_RULES = (_front, _facing, _hang_on, _loop_verb, _swing_wide,
          _room_between_you, _side_detour, _how_hard, _keep_to_side, _exactly_halfway,
          _dead_centre, _just_look, _speed)
#: Rules that may take words before the one they are tried at ("..., go round the side",
#: "..., like exactly halfway"): how many at most.
_REACH_BACK = {_side_detour: 3, _exactly_halfway: 1, _speed: 4}


def manner_positions(toks: list[Token]) -> tuple[list[Token], Context]:
    """Read the manner and position words of ``toks`` (see the module docstring); returns
    the tokens (rewritten where a later stage reads the phrasing) and what was taken out as
    context, each with its character span."""
    words = [t.text for t in toks]
    out: list[Token] = []
    context: Context = []
    k = 0
    while k < len(toks):
        got = None
        for rule in _RULES:
            got = rule(words, k)
            if got is not None:
                break
        if got is None:
            out.append(toks[k])
            k += 1
            continue
        n, said, noted = got
        a = k + min([0, *(f for _, f, _ in said), *(f for f, _ in noted)])
        back = k - a
        if back > _REACH_BACK.get(rule, 0) or back > len(out) or \
                any(out[len(out) - back + q] is not toks[a + q] for q in range(back)):
            out.append(toks[k])  # the words before were rewritten: left as they are
            k += 1
            continue
        del out[len(out) - back:]
        for w, f, last in said:
            out.append(Token(w, toks[k + f].start, toks[k + last].end))
        for f, last in noted:
            while f < last and words[k + f] in _GLUE:
                f += 1  # ", and go round the side": the glue is taken, not reported
            if f < last:
                context.append((" ".join(words[k + f:k + last]),
                                (toks[k + f].start, toks[k + last - 1].end)))
        k += n
    return out, context
