"""Destination and motion frames: the many ways people say "go to X" and "stop at X".

People rarely write "go to the sofa". They "pop over to", "make their way to", "nip to" it;
they "stop next to", "park in front of", "wait across from", "go and stand by" it; "I need you
at" it, "could you be at" it; they "leave the kitchen and" go somewhere, "come out of" a room
"into" another, or "come back to where they started". Listing each sentence (one rule per
phrasing) does not carry to the next writer, so this module reads frames built from small
word classes instead:

* a motion verb (:data:`MOTION_VERBS`, with reflexive and multi-word ones: "make your way",
  "get yourself"), any number of direction particles (:data:`PARTICLES`: "on over", "back
  over", "up", "across") and a goal preposition ("to"; "for" after "make a beeline");
* a staying verb (:data:`STAY_VERBS`: stop, stand, wait, park, halt, finish, end up, come to a
  stop, position yourself, be ...), optionally after a serial "go (over) (and)", then a
  position phrase (:data:`POSITIONS`: next to, in front of, at the foot of, facing, across
  from, on the far side of ...);
* start frames ("leave X and ...", "come out of X and/into ...", "From here, ...");
* the ways to say come back (a motion verb, "back", and an optional "here" / "to me" / "to
  where you started");
* geometry targets said without a room ("the corner by the window", "the corner farthest
  from the door").

Each frame is rewritten onto the phrasing the parser already reads ("go to X", "come back",
"the corner of the room nearest to X") and records what was said in :attr:`.Marks.moves`
(``{"move": "frame", "text": <the words said>, "about": <how they were read>}``), so a
consumed word is never silently lost: a position ("in front of", "behind") is kept as a
said-as note on the stage it places, a start as context. The frames fire only where the
words after them are a noun phrase (or the come-back words), so anything else falls through
to the older rules or a refusal.
"""

from __future__ import annotations

from map2route.language.parser import motion_targets as MT
from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.rewrites import Rewriter, Rule

# --- word classes -----------------------------------------------------------------------------
#: Verbs of moving somewhere; each may be followed by particles and "to". Multi-word ones
#: carry their reflexive ("get yourself to", "take yourself over to"). No gerunds: "while
#: heading to X" opens a scope, read by the scope rules.
MOTION_VERBS: tuple[tuple[str, ...], ...] = tuple(
    tuple(v.split()) for v in (
        "make your way", "make my way", "make it", "wend your way", "find your way", "get yourself",
        "take yourself", "bring yourself", "move yourself", "drag yourself", "get",
        "go", "head", "walk", "come", "run",
        "nip", "pop", "hop", "scoot", "hurry", "rush", "dash", "zip", "mosey", "wander",
        "stroll", "amble", "saunter", "trot", "roll", "wheel", "step", "move", "travel",
        "drive", "navigate", "proceed", "continue", "jog", "shuffle", "toddle", "trundle",
        "zoom", "cruise", "glide"))
#: Verbs whose goal preposition is "for" ("make a beeline for", "head straight for").
BEELINE: tuple[tuple[str, ...], ...] = (("make", "a", "beeline"), ("make", "for"),
                                        ("make", "tracks"), ("off", "you", "go", "to"),
                                        ("head", "for"), ("head", "straight", "for"),
                                        ("go", "straight", "for"), ("make", "straight", "for"))
#: Direction particles between a motion verb and its "to": they add no place of their own
#: on one floor ("head on down to", "pop back over to", "go across to").
PARTICLES = frozenset({"on", "over", "across", "up", "down", "along", "round", "around",
                       "off", "out", "right", "ahead", "forward", "forwards"})
#: Verbs of staying at a place; with a position phrase after them they end the route there.
#: "stay"/"remain" also say keep-near constraints ("stay close to the wall"), so they are read
#: as a stop only when they open their sentence and the sentence ends with their place.
STAY_VERBS: tuple[tuple[str, ...], ...] = tuple(
    tuple(v.split()) for v in (
        "come to a stop", "come to a halt", "come to rest", "end up", "wind up", "end",
        "finish up", "finish", "pull up", "position yourself", "put yourself",
        "park yourself", "place yourself", "plant yourself", "station yourself",
        "get yourself", "stop off", "stop", "stand", "wait", "park", "halt", "sit", "stay", "remain",
        "be", "settle", "rest", "hover", "hang out", "hang around", "stand still"))
_GUARDED_STAY = frozenset({("stay",), ("remain",), ("be",), ("rest",), ("hover",),
                           ("hang", "out"), ("hang", "around"), ("sit",)})
#: Position phrases that place a stop relative to a thing; the thing is the stage and the
#: phrase is kept as a said-as note ("in front of the TV": a stop at the TV, said in front).
POSITIONS: tuple[tuple[str, ...], ...] = tuple(sorted((
    tuple(p.split()) for p in (
        "next to", "beside", "by", "near", "close to", "close by", "nearby", "near to",
        "in front of", "behind", "under", "underneath", "beneath", "facing", "opposite",
        "across from", "alongside", "at", "against", "in front", "up against",
        "at the foot of", "at the end of", "at the head of", "at the side of",
        "at the front of", "at the back of", "at the far end of", "at the near end of",
        "on the far side of", "on the other side of", "on the near side of",
        "at the far side of", "at the other side of", "to the left of", "to the right of",
        "on the left of", "on the right of", "on the left side of", "on the right side of",
        "just by", "just beside", "just next to", "just in front of", "just behind",
        "right by", "right next to", "right beside", "right in front of", "right behind",
        "right at", "directly in front of", "directly behind", "directly opposite",
        "somewhere near", "somewhere by", "over by", "over near", "down by", "inside",
        "just inside", "right inside")), key=len,
    reverse=True))
#: Positions a plain motion verb takes as its goal ("go next to the sofa", "come in front of
#: the TV"); not "by"/"past"/"behind"/"along" (ways of passing) nor "near" alone after a
#: negation (read by the constraint rules, and refused here).
_GO_POSITIONS: tuple[tuple[str, ...], ...] = (
    ("next", "to"), ("right", "next", "to"), ("in", "front", "of"), ("right", "in", "front", "of"),
    ("near", "to"), ("close", "to"), ("beside",), ("right", "beside",), ("up", "close", "to"),
    ("opposite",), ("across", "from"), ("near",))
#: Parts of a thing said after "to the" ("go to the far side of the table"): a stop at the
#: thing, the part kept as a note; only before an object, never a room (a room's side is a
#: place of its own the parser does not read).
PARTS: tuple[tuple[str, ...], ...] = tuple(sorted((
    tuple(p.split()) for p in (
        "far side of", "other side of", "near side of", "left side of", "right side of",
        "front of", "back of", "foot of", "head of", "end of", "far end of", "side of")),
    key=len, reverse=True))
#: Relations of a corner said without its room ("the corner by the window"), as the corner
#: rule reads them (a corner ranked by distance to the thing).
CORNER_RELATIONS: dict[tuple[str, ...], tuple[str, ...]] = {
    ("by",): ("nearest", "to"), ("next", "to"): ("nearest", "to"),
    ("beside",): ("nearest", "to"), ("near",): ("nearest", "to"),
    ("nearest",): ("nearest",), ("nearest", "to"): ("nearest", "to"),
    ("closest", "to"): ("nearest", "to"), ("closest",): ("nearest",),
    ("farthest", "from"): ("farthest", "from"), ("furthest", "from"): ("farthest", "from"),
    ("farthest", "away", "from"): ("farthest", "from"),
    ("opposite",): ("farthest", "from")}
#: Where "back" goes when it means the start ("back to me", "back to where you started").
BACK_TAILS: tuple[tuple[str, ...], ...] = tuple(sorted((
    tuple(p.split()) for p in (
        "here", "home", "to me", "here to me", "to here", "over here", "to where i am",
        "to where you started", "to where you began", "to where you were",
        "to where you started from", "to your starting point", "to the starting point",
        "to your start", "to the start", "to your starting position", "to the beginning",
        "to base", "to where we started", "to us")), key=len, reverse=True))
#: Sentence openers that name the start as where the walker already is.
FROM_HERE: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split()) for p in ("from where you are", "from where you are standing",
                               "from where you 're standing", "from where you 're",
                               "from your current position", "from your current spot",
                               "from here", "from where you stand", "starting from here",
                               "starting here"))
_DETS = ("the", "a", "an", "that", "this", "its", "their", "your", "my", "our")
_ENDS = (".", "!", "?", ";")
#: Degrees before a position ("stand a bit in front of the sofa"): how close, noted with it.
_DEGREES: tuple[tuple[str, ...], ...] = (("a", "bit"), ("a", "little"), ("a", "little", "bit"),
                                         ("slightly",), ("somewhat",))
#: Positions that "stay"/"remain" also use for keep-near constraints.
_NEARISH = frozenset(p for p in POSITIONS if p[-1] in ("near", "to", "by", "alongside", "against",
                                                       "nearby") and p != ("next", "to"))
#: Words that make a near-phrase span the walk, not end it ("the whole way", "while ...").
_SCOPE_WORDS = frozenset({"whole", "while", "when", "until", "till", "way", "during", "all",
                          "throughout", "time", "always", "entire", "as"})
_ASK = ("you", "please", "to", "and", ",", "then", "kindly", "just", "now")


# --- helpers ------------------------------------------------------------------------------------
_match = MT.longest_phrase_at


def _np_at(rw: Rewriter, k: int) -> bool:
    """Whether a noun phrase (a determiner, a pronoun, or a known head) starts at ``k``."""
    if rw.w(k) in _DETS or rw.w(k) in ("it", "them") and rw.w(k + 1) in (*_ENDS, ",", "and",
                                                                         "then", ""):
        return True
    return head_lexicon().match(rw.words[k:k + head_lexicon().max_len]) is not None


def _head_kind_after(rw: Rewriter, k: int) -> str:
    """The kind of the first head within a few words of ``k`` ("object", "room", "")."""
    for j in range(k, min(k + 5, len(rw.words))):
        if rw.w(j) in _ENDS or rw.w(j) in (",", "and", "then"):
            return ""
        hit = head_lexicon().match(rw.words[j:j + head_lexicon().max_len])
        if hit is not None:
            return hit[2]
    return ""


def _ends_in_head(rw: Rewriter, a: int, b: int) -> bool:
    """Whether the words ``a``..``b`` end with a head ("the small kitchen", not "the dog bed
    alone")."""
    lex = head_lexicon()
    hits = (lex.match(rw.words[j:b]) for j in range(max(a, b - lex.max_len), b))
    return any(hit is not None and hit[0] == b - j
               for j, hit in zip(range(max(a, b - lex.max_len), b), hits, strict=True))


def _note(rw: Rewriter, a: int, b: int, about: str) -> None:
    """Record the words ``a``..``b`` as said, and how they were read."""
    rw.marks.moves.append({"move": "frame", "text": " ".join(rw.words[a:b]), "about": about})


def _negated(rw: Rewriter) -> bool:
    """Whether the words just written negate what follows ("don't", "try not to")."""
    last = [t.text for t in rw.out[-3:]]
    return any(w in ("not", "n't", "never", "don't", "dont", "without") for w in last)


def _sentence_start(rw: Rewriter, i: int) -> bool:
    return i == 0 or rw.w(i - 1) in (*_ENDS, ":")


def _stops_at_it(rw: Rewriter, k: int) -> bool:
    """Whether the sentence from ``k`` goes on "and stop (beside it | when you get to it |
    there)": "head towards the bed and stop beside it" ends at the bed."""
    end = rw.sentence_end(k)
    words = rw.words[k:end]
    if "and" not in words:
        return False
    rest = words[words.index("and") + 1:]
    return bool(rest) and rest[0] in ("stop", "wait", "halt", "park", "stand") and \
        rest[-1] in ("it", "there") and len(rest) <= 7


def _path_after(rw: Rewriter, k: int) -> bool:
    """Whether the clause from ``k`` goes on to a goal or a span of the walk ("go near the
    wall to the kitchen", "... the whole time"): the position is then a path, not a stop."""
    j = k
    while j < len(rw.words) and rw.w(j) not in (*_ENDS, ",", "and", "then"):
        if rw.w(j) in ("to", "into", "until", "till", "towards", "toward") or \
                rw.w(j) in _SCOPE_WORDS:
            return True
        j += 1
    return False


def _gerund_of(verb: str) -> str:
    """The -ing form of a one-word motion verb ("pop" -> "popping", "amble" -> "ambling")."""
    if verb.endswith("e") and not verb.endswith(("ee", "ye")):
        return verb[:-1] + "ing"
    if len(verb) <= 4 and verb[-1] in "pgtn" and verb[-2] in "aeiou" and verb[-3] not in "aeiou":
        return verb + verb[-1] + "ing"
    return verb + "ing"


#: Gerunds of the one-word motion verbs, read only after "would you mind" (where the parser
#: otherwise meets them as scopes: "while heading to X").
_GERUNDS = frozenset(_gerund_of(v[0]) for v in MOTION_VERBS if len(v) == 1)


def _gerund(rw: Rewriter, i: int) -> bool:
    """Whether ``i`` is a motion gerund after "mind" ("would you mind popping over to X")."""
    if rw.w(i) not in _GERUNDS:
        return False
    back = [t.text for t in rw.out[-8:]]
    return "mind" in back and not any(w in _ENDS for w in back[back.index("mind"):])


def _particles(rw: Rewriter, k: int) -> int:
    while rw.w(k) in PARTICLES:
        k += 1
    return k


# --- the frames -------------------------------------------------------------------------------
def motion_to(rw: Rewriter, i: int) -> int | None:
    """MOTION_VERB PARTICLE* to NP -> "go to NP" ("pop on over to", "nip to", "get yourself
    over to", "make a beeline for"). Plain "go/walk/head/come/move to" is left to the rules
    that read it already."""
    if rw.out and rw.out[-1].text in ("to", "not", "n't", "never"):
        return None  # "want to go ...": the verb belongs to a frame read elsewhere
    verb = _match(rw, i, BEELINE)
    gerund = _gerund(rw, i)
    if gerund:
        verb = None
    if verb is not None:
        k = i + len(verb)
        if rw.w(k) != "for" and verb[-1] not in ("for", "to"):
            return None
        k += 0 if verb[-1] in ("for", "to") else 1
    else:
        verb = (rw.w(i),) if gerund else _match(rw, i, MOTION_VERBS)
        if verb is None:
            return None
        k = _particles(rw, i + len(verb))
        k += 1 if rw.at(k, "here", "to") else 0  # "come over here to the table"
        if rw.w(k) in ("through", "via", "past") and _np_at(rw, k + 1) and \
                verb[0] not in ("go", "walk", "head", "move", "travel", "drive", "run") and \
                not gerund and not _negated(rw):
            # "make your way through the living room", "nip past the sofa": a pass
            _note(rw, i, k + 1, "go " + ("via" if rw.w(k) == "past" else rw.w(k)))
            rw.emit("go", like=rw.toks[i])
            rw.emit("via" if rw.w(k) == "past" else rw.w(k), like=rw.toks[k])
            return k + 1
        if rw.w(k - 1) == "across" and _room_then_to(rw, k) and not _negated(rw):
            _note(rw, i, k, "go through")  # "make your way across the living room to X"
            rw.emit("go", like=rw.toks[i])
            rw.emit("through", like=rw.toks[k - 1])
            return k
        if rw.w(k) in ("towards", "toward") and _np_at(rw, k + 1) and _stops_at_it(rw, k + 1):
            _note(rw, i, k + 1, "go to (the stop is said after it)")
            rw.emit("go", "to", like=rw.toks[i])
            return k + 1
        if rw.w(k) in ("till", "until", "til") and rw.w(k + 1) in _DETS:
            _note(rw, i, k + 1, "go to")  # "go till the front door"
            rw.emit("go", "to", like=rw.toks[i])
            return k + 1
        pos = _match(rw, k, _GO_POSITIONS)
        if pos is not None and verb[0] in ("go", "come", "get", "move") and \
                not gerund and _np_at(rw, k + len(pos)) and not _negated(rw) and \
                rw.w(k + len(pos)) not in ("it", "them") and not _path_after(rw, k + len(pos)):
            # "go next to the sofa", "come near to the washing machine": a stop placed so
            _note(rw, i, k + len(pos), "go to; placed " + " ".join(pos))
            rw.emit("go", "to", like=rw.toks[i])
            return k + len(pos)
        if rw.w(k) != "to" or rw.w(k - 1) == "out":
            return None
        if k == i + 1 and not gerund and verb[0] in ("go", "walk", "head", "come", "move", "get", "run",
                                      "proceed", "navigate", "travel", "drive"):
            return None  # already the parser's own phrasing
        if k == i + 2 and verb[0] in ("go", "walk", "head", "come", "move", "get", "run") and \
                rw.w(i + 1) == "over":
            return None  # "head over to": read already
        k += 1
    if not _np_at(rw, k) or ":" in rw.words[k:rw.sentence_end(k)]:
        return None  # "head for the bedrooms: ...": a header the list rules read
    _note(rw, i, k, "go to")
    rw.emit("go", "to", like=rw.toks[i])
    return k


#: Verbs of going past a thing without stopping ("pass the fridge", "swing by the fridge on
#: your way"); "stop by" / "drop by" are visits (a stop), so they are not here.
PASS_VERBS: tuple[tuple[str, ...], ...] = (("pass", "by"), ("swing", "by"), ("swing", "past"),
                                           ("pass",), ("walk", "by"))


def pass_by(rw: Rewriter, i: int) -> int | None:
    """"pass (by) the fridge", "swing by X on your way to Y" -> "go via ..." (a pass stage). Only as
    a request (sentence start, after "and"/"then"/","): "you'll pass the sofa" is told, and
    "don't pass between ..." / "pass through ..." are read by other rules."""
    verb = _match(rw, i, PASS_VERBS)
    if verb is None or not (_sentence_start(rw, i) or rw.w(i - 1) in (
            "and", "then", ",", "first", "please", "just", "you")):
        return None
    if verb == ("walk", "by") and not rw.at(i + len(verb), "the") or \
            rw.w(i - 1) == "you" and rw.w(i - 2) not in ("can", "could", "would", "will"):
        return None
    k = i + len(verb)
    if not _np_at(rw, k) or _head_kind_after(rw, k) not in ("object", "room"):
        return None
    if verb[0] == "swing":
        # "swing by X" alone is a short visit (a stop); only "on your way to Y" makes it a
        # pass on the way
        end = rw.sentence_end(k)
        if not any(rw.at(j, "on", d, "way", "to") for j in range(k, end)
                   for d in ("your", "the", "my")):
            return None
    _note(rw, i, k, "go via")
    rw.emit("go", like=rw.toks[i])
    rw.emit("via", like=rw.toks[k - 1])
    return k


#: Words before a "to" that make it part of a relation, not of a way of going.
_RELATION_TO = frozenset({"next", "close", "closer", "closest", "near", "nearer", "nearest",
                          "adjacent", "opposite", "right", "due"})


def stay_at(rw: Rewriter, i: int) -> int | None:
    """[go|come [over] [and]] STAY_VERB POSITION NP -> "go to NP" (a stop at NP), the
    position kept as a note: "stop next to the arm chair", "go and stand in front of the
    TV", "park yourself by the fridge", "could you be at the sofa"."""
    k = i
    lead = _match(rw, k, MOTION_VERBS)
    n_lead = len(lead) if lead is not None else 0
    serial = lead is not None and (
        rw.w(k) in ("go", "come", "run", "hop", "pop", "nip", "head", "walk") or
        _particles(rw, k + n_lead) > k + n_lead)  # "bring yourself over next to X"
    if serial:
        k = _particles(rw, k + n_lead)
        k += 1 if rw.w(k) == "and" else 0
    if serial and k > i + 1 and rw.w(k - 1) in ("up", "over", "round", "across") and \
            _match(rw, k, POSITIONS) not in (None, ("at",)):
        # "come up beside the bed", "go over by the window": the particle ends the motion
        after = _match(rw, k, POSITIONS) or ()
        b = k + len(after)
        if _np_at(rw, b) and not _negated(rw) and rw.w(b) not in ("it", "them"):
            _note(rw, i, b, "go to; placed " + " ".join(after))
            rw.emit("go", "to", like=rw.toks[i])
            return b
        return None
    verb = _match(rw, k, STAY_VERBS)
    if verb is None or (serial and k == i + 1 and rw.w(k) not in ("stand", "wait", "stop",
                                                                   "sit", "park", "stay")):
        return None
    if _negated(rw):
        return None  # "don't stand near X", "try not to stop by X": a constraint
    if verb in _GUARDED_STAY and not serial:
        if verb == ("be",):
            if not (_sentence_start(rw, i) or rw.w(i - 1) in _ASK):
                return None
        elif not _sentence_start(rw, i) and rw.w(i - 1) not in (",", "please", "then", "and"):
            return None
    k += len(verb)
    k += 2 if rw.at(k, "for", "me") or rw.at(k, "for", "us") else 0  # "wait for me by X"
    k += 1 if rw.w(k) in ("there", "right", "just") and rw.w(k + 1) in ("by", "next", "in",
                                                                         "at") else 0
    deg = _match(rw, k, _DEGREES)
    k += len(deg) if deg and _match(rw, k + len(deg), POSITIONS) else 0  # "a bit in front of"
    if rw.w(k) in ("exactly", "directly", "halfway", "midway") and rw.w(k + 1) == "between":
        k += 1
    if rw.w(k) == "between" and _np_at(rw, k + 1) and not _negated(rw) and \
            verb not in _GUARDED_STAY:
        # "stand between the sofa and the TV": the point between them
        _note(rw, i, k + 1, "go to the point between")
        rw.emit("go", "to", like=rw.toks[i])
        rw.emit("the", like=rw.toks[k])
        rw.emit("area", "between", like=rw.toks[k])
        rw.marks.points[rw.toks[k].start] = "midpoint"
        return k + 1
    pos = _match(rw, k, POSITIONS)
    if pos is None:
        # "wait in the corner by the window", "stand in the middle of the kitchen"
        if rw.w(k) == "in" and rw.w(k + 1) == "the" and \
                rw.w(k + 2) in ("corner", "middle", "centre", "center"):
            _note(rw, i, k + 1, "go to")
            rw.emit("go", "to", like=rw.toks[i])
            return k + 1
        return None
    b = k + len(pos)
    if not _np_at(rw, b):
        return None
    if verb in _GUARDED_STAY and verb != ("be",) and pos in _NEARISH:
        # "stay close to the wall": a keep-near constraint, unless it is the whole instruction
        # ("Stay by the window.": nothing else to keep near on the way)
        end = rw.sentence_end(b)
        if i != 0 or any(w not in _ENDS for w in rw.words[end:]) or any(
                w in ("and", ",", "while", "when", "as", "until", "then", "during")
                for w in rw.words[b:end]):
            return None
    if pos == ("at",) and not serial and verb in (("stop",), ("wait",), ("finish",),
                                                  ("end",), ("park",)):
        return None  # "stop at X", "wait at X": read already
    # the last word that ends a way of going; a "to" of a relation ("the lamp next to the
    # armchair" in a sentence before) reaches no stop
    last = next((t.text for n, t in reversed(list(enumerate(rw.out)))
                 if t.text in ("via", "past", "through") or t.text in _ARRIVE_VERBS or
                 t.text == "to" and not (n and rw.out[n - 1].text in _RELATION_TO)), "")
    if rw.w(b) in ("it", "them") and (last == "to" or last in _ARRIVE_VERBS):
        # "go to the window and stop in front of it": the stop just reached, placed there
        while rw.out and rw.out[-1].text in ("and", "then", ","):
            rw.out.pop()
        _note(rw, i, b + 1, "the stop before; placed " + " ".join(pos))
        return b + 1
    _note(rw, i, b, "go to" if pos in (("at",), ("by",), ("next", "to"), ("beside",)) else
          "go to; placed " + " ".join(pos))
    rw.emit("go", "to", like=rw.toks[i])
    return b


def part_of_object(rw: Rewriter, i: int) -> int | None:
    """"to the far side of the table", "to the foot of the bed" -> "to the table", the part
    kept as a note (only before an object)."""
    if rw.w(i) != "the" or rw.w(i - 1) != "to":
        return None
    part = _match(rw, i + 1, PARTS)
    if part is None or part == ("side", "of") and rw.w(i + 2) != "of":
        return None
    k = i + 1 + len(part)
    if rw.w(k) not in _DETS or _head_kind_after(rw, k) != "object":
        return None
    _note(rw, i, k, "the thing; placed at its " + " ".join(part[:-1]))
    return k


def corner_without_room(rw: Rewriter, i: int) -> int | None:
    """"the corner by the window", "the corner farthest from the door" -> "the corner of the
    room nearest to the window" (made a corner after the parse): the corner is ranked by its
    distance to the thing."""
    if rw.w(i) != "the" or rw.w(i + 1) != "corner":
        return None
    rel = _match(rw, i + 2, tuple(CORNER_RELATIONS))
    if rel is None:
        return None
    k = i + 2 + len(rel)
    if not _np_at(rw, k):
        return None
    _note(rw, i, k, "the corner " + " ".join(CORNER_RELATIONS[rel]))
    rw.marks.points[rw.toks[i].start] = "corner"
    rw.out.append(rw.toks[i])
    rw.emit("room", *CORNER_RELATIONS[rel], like=rw.toks[i + 1])
    return k


def come_back(rw: Rewriter, i: int) -> int | None:
    """MOTION_VERB [yourself] [straight|right] back [TAIL] -> "come back": "make your way back
    to me", "come back here to me", "nip back here", "head straight back to where you
    started". A "back to the kitchen" (a place) is left as said."""
    verb = _match(rw, i, MOTION_VERBS)
    if verb is None:
        return None
    k = _particles(rw, i + len(verb))  # "come on back"
    k += 1 if rw.w(k) in ("straight", "right", "directly") else 0
    if rw.w(k) != "back":
        return None
    k += 1
    tail = _match(rw, k, BACK_TAILS)
    end = k + (len(tail) if tail else 0)
    if rw.w(end) not in (*_ENDS, ",", "and", "then", "afterwards", "after", "please", "") \
            or tuple(rw.words[i:end]) in W.BACK:
        return None  # "back to the sofa": a place; "come back here": read already
    _note(rw, i, end, "come back")
    rw.emit("come", "back", like=rw.toks[i])
    return end


def leave_and(rw: Rewriter, i: int) -> int | None:
    """"leave the kitchen and go to X", "come out of the bathroom and ...", "go out of the
    kitchen into the living room": the place left is where the walk starts (context), not a
    stage nor a room the goal is in."""
    back = [w for w in rw.words[max(0, i - 4):i] if w not in ("have", "'ve", "just")]
    if back[-1:] == ["you"] and back[-2:-1] in (["once"], ["when"], ["after"], ["as"]):
        return None  # "once you (have) left the bathroom, stay near X": a scope, not the start
    if rw.at(i, "leave") or rw.at(i, "exit"):
        k = i + 1
    elif rw.w(i) in ("come", "go", "get", "walk", "head", "step") and rw.at(i + 1, "out", "of"):
        k = i + 3
    else:
        return None
    if rw.w(k) not in _DETS:
        return None
    j = k
    while j < min(k + 8, len(rw.words)) and rw.w(j) not in (*_ENDS, ",", "and", "into", "through",
                                                            "via", "by", "then"):
        j += 1
    if j == k + 1 or not _ends_in_head(rw, k, j) or rw.w(j) not in (",", "and", "into", "then"):
        return None  # "leave the dog bed alone and ...": not a start
    nxt = j + 1 + (1 if rw.w(j + 1) in ("then", "and") else 0)
    if rw.w(j) == "into":
        nxt = j
    elif not (_match(rw, nxt, MOTION_VERBS) or _match(rw, nxt, STAY_VERBS)):
        return None
    rw.context.append((" ".join(rw.words[k:j]), (rw.toks[k].start, rw.toks[j - 1].end)))
    _note(rw, i, j, "start: " + " ".join(rw.words[k:j]))
    if rw.w(j) == "into":
        rw.emit("go", like=rw.toks[i])
        return j
    return nxt


def from_here(rw: Rewriter, i: int) -> int | None:
    """"From where you are, go to X" / "From here, ...": the start is where the walker is
    already (the route's default); kept as context."""
    if not _sentence_start(rw, i):
        return None
    got = _match(rw, i, FROM_HERE)
    if got is None:
        return None
    k = i + len(got)
    k += 1 if rw.w(k) == "," else 0
    if not (_match(rw, k, MOTION_VERBS) or _match(rw, k, STAY_VERBS) or
            rw.w(k) in ("please", "can", "could", "would")):
        return None
    rw.context.append((" ".join(got), (rw.toks[i].start, rw.toks[i + len(got) - 1].end)))
    _note(rw, i, i + len(got), "start: where you are")
    return k


#: Ways to say the walk ends where the next words say ("stop when you reach X", "you are done
#: once you get to X").
_DONE_LEADS: tuple[tuple[str, ...], ...] = (
    ("stop",), ("halt",), ("wait",), ("finish",), ("end",), ("you", "are", "done"),
    ("you", "are", "finished"), ("you", "can", "stop"), ("your", "job", "is", "done"),
    ("that", "is", "it"), ("you", "are", "there"))


def stop_when_reach(rw: Rewriter, i: int) -> int | None:
    """"stop when you get to the dresser", "you're done once you reach X" -> "go to X"."""
    lead = _match(rw, i, _DONE_LEADS)
    if lead is None:
        return None
    j = i + len(lead)
    if rw.w(j) not in ("when", "once", "as") or \
            rw.w(j + 1) != "you" and not rw.at(j + 1, "soon", "as", "you"):
        return None
    k = j + (4 if rw.w(j + 1) == "soon" else 2)
    arrive = next((n for p, n in ((("get", "to"), 2), (("reach",), 1), (("arrive", "at"), 2),
                                  (("get", "there"), 1), (("arrive", "there"), 1),
                                  (("come", "to"), 2), (("hit",), 1)) if rw.at(k, *p)), 0)
    if arrive and rw.w(k + arrive) in ("it", "there") and rw.w(k + arrive + 1) in ("", *_ENDS) \
            and any(t.text == "to" for t in rw.out):
        while rw.out and rw.out[-1].text in ("and", "then", ","):
            rw.out.pop()  # "... and stop when you get to it": the stop before
        _note(rw, i, k + arrive + 1, "the stop before")
        return k + arrive + 1
    if not arrive or not _np_at(rw, k + arrive):
        return None
    _note(rw, i, k + arrive, "go to")
    rw.emit("go", "to", like=rw.toks[i])
    return k + arrive


#: Verbs that take "over to X" without moving there ("look over to the window", "hand it
#: over to me"): never read as motion by the frame below.
_NOT_MOTION = frozenset({"look", "glance", "peek", "peer", "stare", "point", "turn", "lean",
                         "reach", "hand", "pass", "throw", "toss", "send", "call", "shout",
                         "yell", "wave", "nod", "gesture", "move", "switch", "change", "pull",
                         "push", "slide", "swing", "carry", "bring", "take", "hold", "read",
                         "listen", "talk", "speak", "think", "come", "go", "walk", "head"})
_FRAME_PARTICLES = frozenset({"over", "across", "round", "along", "on"})


def frame_motion_verb(rw: Rewriter, i: int) -> int | None:
    """An imperative verb the lexicon does not list, in the motion frame "VERB over/across/round
    to NP" ("shoot over to the fridge", "scurry over to the hamper"): the frame says it is a
    way of going there; read as "go to", the verb noted as said."""
    w = rw.w(i)
    if not (w.isalpha() and len(w) > 2) or w in _NOT_MOTION or w in W.OPENERS or \
            w in W.FILLER_WORDS or head_lexicon().match([w]) is not None:
        return None
    if not (_sentence_start(rw, i) or rw.w(i - 1) in ("and", "then", ",", "please", "just")):
        return None
    if rw.w(i + 1) not in _FRAME_PARTICLES:
        return None
    k = _particles(rw, i + 1)
    if rw.w(k) != "to" or not _np_at(rw, k + 1) or _negated(rw):
        return None
    _note(rw, i, k + 1, f"go to ('{w}' read as a way of going, by its frame)")
    rw.emit("go", "to", like=rw.toks[i])
    return k + 1


#: Softening adverbs between a modal request and its verb ("could you possibly make your way
#: to X", "would you kindly stand by Y"): politeness, no route content.
SOFTENERS = frozenset({"possibly", "maybe", "perhaps", "kindly", "please", "just", "quickly",
                       "now", "also"})


def softened_request(rw: Rewriter, i: int) -> int | None:
    """"could you possibly / maybe / kindly VERB ..." -> "could you VERB ...": the adverb is
    noted as politeness."""
    if rw.w(i) not in SOFTENERS or rw.w(i - 1) != "you" or \
            rw.w(i - 2) not in ("can", "could", "would", "will", "might"):
        return None
    k = i
    while rw.w(k) in SOFTENERS:
        k += 1
    if k == i or not (_match(rw, k, MOTION_VERBS) or _match(rw, k, STAY_VERBS) or
                      _match(rw, k, BEELINE)):
        return None
    if rw.w(i) in ("please", "just") and k == i + 1:
        return None  # read already
    _note(rw, i, k, "politeness")
    return k


_POLITE_TAILS = (("please",), ("thanks",), ("thank", "you"), ("ta",), ("cheers",))


def bare_back(rw: Rewriter, i: int) -> int | None:
    """A bare "back" closing a terse list, with politeness after it or "straight" before it
    ("the fridge and back, please", "then straight back") -> "back to the start"."""
    a = i + (rw.w(i) in ("straight", "right"))
    if rw.w(a) != "back" or rw.w(i - 1) not in ("then", ",", "and", ")", "&"):
        return None
    where = _match(rw, a + 1, BACK_TAILS) or ()
    k = a + 1 + len(where)
    j = k + (rw.w(k) == ",")
    polite = _match(rw, j, _POLITE_TAILS) or ()
    if rw.w(j + len(polite)) not in ("", *_ENDS) or (rw.w(k) == "," and not polite):
        return None
    if a == i and not polite and len(where) < 2:
        return None  # a plain "then back (here)": read already
    end = j + len(polite) if polite else k
    _note(rw, i, end, "back to the start")
    rw.emit("back", "to", "the", "start", like=rw.toks[a])
    return end


def _room_then_to(rw: Rewriter, k: int) -> bool:
    """Whether a room's noun phrase starts at ``k`` and "to" follows it ("the living room to"),
    or the ", then go to" :mod:`.route_frames` made of that "to"."""
    if rw.w(k) not in _DETS:
        return False
    j = k + 1
    while j < k + 4 and rw.w(j).isalpha() and head_lexicon().match(
            rw.words[j:j + head_lexicon().max_len]) is None:
        j += 1
    hit = head_lexicon().match(rw.words[j:j + head_lexicon().max_len])
    e = j + hit[0] if hit is not None else j
    return hit is not None and hit[2] == "room" and (
        rw.w(e) == "to" or rw.at(e, ",", "then", "go", "to"))


def across_room(rw: Rewriter, i: int) -> int | None:
    """"walk across the living room to the window" -> "walk through the living room to the
    window": crossing a room on the way to a stop is passing through it."""
    if rw.w(i) != "across" or not _match(rw, i - 1, MOTION_VERBS) or \
            not _room_then_to(rw, i + 1):
        return None
    _note(rw, i, i + 1, "through")
    rw.emit("through", like=rw.toks[i])
    return i + 1


#: Frames of wanting the walker somewhere ("I need you by the sink", "I'd like you over by the
#: window", "we need you in the kitchen").
WANT_YOU: tuple[tuple[str, ...], ...] = (
    ("i", "need", "you"), ("i", "want", "you"), ("i", "would", "like", "you"),
    ("i", "would", "love", "you"), ("we", "need", "you"), ("we", "want", "you"),
    ("we", "would", "like", "you"), ("i", "will", "need", "you"), ("i", "need", "you", "to", "be"),
    ("i", "want", "you", "to", "be"), ("i", "would", "like", "you", "to", "be"))


def want_you_at(rw: Rewriter, i: int) -> int | None:
    """WANT_YOU [PARTICLE] POSITION|in NP -> "go to NP" ("I'd like you over by the window")."""
    lead = _match(rw, i, WANT_YOU)
    if lead is None:
        return None
    k = _particles(rw, i + len(lead))
    k += 1 if rw.w(k) in ("right", "just") else 0
    pos = _match(rw, k, POSITIONS) or (("in",) if rw.w(k) in ("in", "inside") else None)
    if pos is None or not _np_at(rw, k + len(pos)):
        return None
    b = k + len(pos)
    if rw.w(b) in ("it", "them"):
        return None
    if pos in _NEARISH and any(w in _SCOPE_WORDS for w in rw.words[b:rw.sentence_end(b)]):
        # "I want you near the wall the whole time": a keep-near constraint, "stay near ..."
        _note(rw, i, b, "stay " + " ".join(pos))
        rw.emit("stay", like=rw.toks[i])
        rw.out.extend(rw.toks[k:b])
        return b
    _note(rw, i, b, "go to" if pos in (("at",), ("by",), ("in",)) else
          "go to; placed " + " ".join(pos))
    rw.emit("go", "to", like=rw.toks[i])
    return b


#: Verbs whose object is a stop ("approach the microwave and stop").
_ARRIVE_VERBS = frozenset({"approach", "reach", "visit", "find"})
_DWELL_VERBS = frozenset({"stop", "wait", "halt", "park", "stay", "stand", "remain"})


def and_stop(rw: Rewriter, i: int) -> int | None:
    """"go to the sofa and stop", "go halfway between A and B and wait": staying at the stop
    just said (one stage, the words noted), at the end of a sentence."""
    if rw.w(i) not in ("and", ",", "then") or rw.w(i + 1) not in _DWELL_VERBS:
        return None
    k = i + 2 + (rw.w(i + 2) in ("there", "here"))
    if rw.w(k) not in ("", *_ENDS):
        return None
    start = len(rw.out)
    while start and rw.out[start - 1].text not in _ENDS:
        start -= 1
    if not any(t.text in ("to", "between") or t.text in _ARRIVE_VERBS for t in rw.out[start:]):
        return None
    _note(rw, i, k, "the stop before")
    return k


#: "once you get there", "when you're there": the stop just said; what follows comes after.
_THERE: tuple[tuple[str, ...], ...] = (
    ("get", "there"), ("arrive",), ("arrive", "there"), ("are", "there"), ("reach", "it"),
    ("get", "to", "it"), ("have", "got", "there"), ("have", "reached", "it"),
    ("have", "arrived"), ("are", "done", "there"), ("have", "been", "there"), ("reach", "there"))


def when_there(rw: Rewriter, i: int) -> int | None:
    """"Head over to the plant. When you get there, come back to me." -> "..., come back to
    me": arriving at the stop said before is no new stage."""
    if rw.w(i) not in ("when", "once", "after") or rw.w(i + 1) != "you":
        return None
    got = _match(rw, i + 2, _THERE)
    if got is None:
        return None
    k = i + 2 + len(got)
    k += 1 if rw.w(k) == "," else 0
    k += 1 if rw.w(k) == "then" else 0
    dwell = rw.w(k) in _DWELL_VERBS
    if (dwell or rw.w(k) in ("", *_ENDS)) and \
            rw.w(k + dwell + (dwell and rw.w(k + 1) == "there")) in ("", *_ENDS) and \
            any(t.text == "to" for t in rw.out):
        # "when you arrive, wait": staying at the stop before, nothing after
        end = k + dwell + (dwell and rw.w(k + 1) == "there")
        while rw.out and rw.out[-1].text in (",", "and", "then", ";"):
            rw.out.pop()
        _note(rw, i, end, "the stop before")
        return end
    if not (_match(rw, k, MOTION_VERBS) or rw.w(k) in ("return", "wait", "stop", "turn")) \
            or not any(t.text == "to" for t in rw.out):
        return None
    _note(rw, i, k, "after the stop before")
    return k


#: The frames in the order they are tried, before every other rule of stage 0a.
RULES: tuple[Rule, ...] = (
    *MT.RULES, softened_request, when_there, and_stop, from_here, leave_and, stop_when_reach,
    come_back, bare_back, across_room, pass_by, stay_at, motion_to, frame_motion_verb,
    part_of_object, corner_without_room)

#: Frames read in the early pass, before the rules that read "I need you at X" as a stop.
EARLY: tuple[Rule, ...] = (want_you_at,)

__all__ = ["EARLY", "MOTION_VERBS", "PARTICLES", "POSITIONS", "RULES", "STAY_VERBS"]
