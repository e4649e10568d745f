"""How people describe a target and what they say about the way, rewritten onto forms the
parser reads (stage 0a, :mod:`.human`).

Token transforms, run on the tokens as typed (:func:`early_forms`):

- a thing said first and then pointed at ("The dining table: stay away from it.", "the
  teddy bear on the bed in the smaller bedroom, go there please") -> the thing in place of
  the pronoun ("stay away from the dining table", "go to the teddy bear on the bed ...");
- "between them" / "between the two of them" after two things were named -> "between the X
  and the Y";
- "until you reach it" -> "until you reach" the goal said last (the head of the phrase after
  the last "to");
- "keep well back from X" -> "keep away from X".

Rewrite rules (:data:`RULES`, tried before the other late rules):

- "in front of" after a thing -> "facing" ("the chair in front of the desk");
- "in the corner of ROOM" after a thing is a corner modifier of the thing, left for the
  modifier reader (the corner rewrite of a stop must not take it);
- "close by" / "near here" after a thing -> "nearby";
- an object relative clause with its preposition last ("the table that the laptop is on",
  "the counter the toaster is sitting on") -> "the table with the laptop on it";
- "that shares a room with X", "in the room of X", "in the same room with X" -> "in the same
  room as X";
- "keep away the X" (the "from" left out) -> "keep away from the X"; "don't stray far from X"
  -> "stay close to X";
- "follow the sofa to the TV" (a thing that is neither a room nor a wall) -> "go to the TV
  staying close to the sofa";
- "the round table": a shape adjective before a head is read as the head alone (never as a
  loop around it); recorded in :attr:`.rewrites.Marks.said_as`;
- "the least distant bathroom" -> "the nearest bathroom";
- "the chair that isn't at / in front of / behind the desk": a negated relation, read as
  (not) next to;
- "..., and while doing so stay far from X": "while doing so" is the way already meant;
- "keep at least a meter (of clearance) from X", "stay 2 feet away from X" -> "stay away
  from X", the amount recorded as said (as "give X lots of room" is read);
- "do not cross / step / run between A and B" -> "avoid the area between A and B";
- ", the TV is on" after a request: a state of a thing, context (never a goal);
- "go to the kitchen, or the living room": a choice the parser cannot make; refused, naming
  the alternative.

Hand-written for the same reason as the rest of the parser: each phrasing is a short word
pattern around a head the lexicon already knows, and a refusal must point at the words.
"""

from __future__ import annotations

from map2route.language.errors import ParseError
from map2route.language.parser import words as W
from map2route.language.parser.anaphor_forms import _goal_head
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.introductions import sentence_span as _sentence_span
from map2route.language.parser.rewrites import Rewriter, Rule
from map2route.language.tokens import Token

_ENDS = (".", "!", "?", ";")
_DETS = ("the", "a", "an", "that", "this", "my", "your")
#: Verbs of a request: a fronted thing is pointed at from a sentence with one of these.
_REQUEST = frozenset(W.MOVE_VERBS) | {"stay", "keep", "avoid", "steer", "go", "walk", "head",
                                      "visit", "stop", "wait", "stand", "pass", "circle"}
#: Words that make the words before a comma a clause, not a thing said first.
_CLAUSE_WORDS = _REQUEST | {"is", "are", "you", "i", "we", "please", "then", "and", "if",
                            "when", "while", "after", "before", "until", "do", "not", "don't"}


def _head_at(words: list[str], k: int, end: int) -> int:
    hit = head_lexicon().match(words[k:min(end, k + head_lexicon().max_len)])
    return hit[0] if hit is not None else 0


# --- token transforms ------------------------------------------------------------------
def fronted_topic(toks: list[Token]) -> list[Token]:
    """"The dining table: stay away from it." -> "stay away from the dining table."; "the
    bear on the bed, go there please" -> "go to the bear on the bed please"."""
    words = [t.text for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(toks):
        if (i == 0 or words[i - 1] in _ENDS) and words[i] in _DETS:
            got = _fronted(words, i)
            if got is not None:
                sep, p = got
                np = toks[i:sep]
                out += toks[sep + 1:p]
                if words[p] == "there":
                    out.append(Token("to", toks[p].start, toks[p].end))
                out += np
                i = p + 1
                continue
        out.append(toks[i])
        i += 1
    return out


def _fronted(words: list[str], i: int) -> tuple[int, int] | None:
    """(the separator, the pronoun) of a thing said first at ``i``, or None."""
    _, end = _sentence_span(words, i)
    sep = next((k for k in range(i + 1, end) if words[k] in (":", ",")), None)
    if sep is None or sep + 1 >= end or any(w in _CLAUSE_WORDS for w in words[i:sep]) or \
            not any(_head_at(words, k, sep) for k in range(i, sep)):
        return None
    k = sep + 1
    while k < end and words[k] in _POLITE:  # "..., can you go there"
        k += 1
    if k >= end or words[k] not in _REQUEST:
        return None
    for p in range(sep + 2, end):
        if words[p] in (",", ":") or words[p] in _DETS and _head_at(words, p + 1, end):
            return None  # another thing named first: the pronoun may be that one's
        if words[p] == "it" or words[p] == "there" and words[p - 1] in _REQUEST:
            return sep, p
    return None


#: Words of a polite request before its verb ("can you go there", "please go there").
_POLITE = frozenset({"can", "could", "would", "will", "you", "please", "just", "now", "then",
                     "so", "kindly"})


_TWO = (("them",), ("the", "two", "of", "them"), ("those", "two"), ("these", "two"),
        ("both", "of", "them"), ("the", "two"))


def between_them(toks: list[Token]) -> list[Token]:
    """"go to the sofa in the same room as the TV, but don't pass between them" -> "...
    between the sofa and the television": the last two things named before, in this sentence
    or the one before."""
    words = [t.text for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(toks):
        n = max((len(p) for p in _TWO if i > 0 and words[i - 1] == "between" and
                 tuple(words[i:i + len(p)]) == p), default=0)
        if n and (n > 2 or i + n == len(words) or words[i + n] in (*_ENDS, ",", "and", "but")):
            things = _last_things(words, i - 1, 2)
            if things is not None:
                like = toks[i]
                for k, head in enumerate(things):
                    out += [Token(w, like.start, toks[i + n - 1].end)
                            for w in ((("and",) if k else ()) + ("the", *head))]
                i += n
                continue
        out.append(toks[i])
        i += 1
    return out


def _last_things(words: list[str], end: int, want: int) -> list[list[str]] | None:
    """The heads of the last ``want`` things named before ``end`` (this sentence or the one
    before), in the order said; None when fewer, or when they are not two different things."""
    a, _ = _sentence_span(words, end)
    if a > 0:
        a, _ = _sentence_span(words, a - 1)
    found: list[tuple[int, list[str]]] = []
    k = a
    while k < end:
        hit = head_lexicon().match(words[k:min(end, k + head_lexicon().max_len)])
        n = hit[0] if hit is not None else 0
        if n and hit is not None and hit[2] != "room":  # "in the same room as": no thing
            if hit[3] and words[k - 1] in ("two", "2", "both"):
                return None  # "there are two armchairs ...": read by .geometry_targets
            found.append((k, words[k:k + n]))
            k += n
            continue
        k += 1
    heads = [h for _, h in found]
    if len(heads) < want or heads[-1] == heads[-2]:
        return None
    return heads[-want:]


_REACH = (("reach",), ("get", "to"), ("arrive", "at"), ("are", "at"), ("get", "there"))


def reached_it(toks: list[Token]) -> list[Token]:
    """"Walk to the dresser. Keep away from the bed until you reach it." -> "... until you
    reach the dresser": the goal said last, never the thing kept away from."""
    words = [t.text for t in toks]
    out: list[Token] = []
    for n, t in enumerate(toks):
        if t.text == "it" and n > 2 and words[n - 2] == "you" and \
                words[n - 3] in ("until", "till", "til", "before") and \
                words[n - 1] in ("reach", "hit") and \
                (head := _goal_head(words, n - 3)) is not None:
            out += [Token(w, t.start, t.end) for w in ("the", *head)]
            continue
        out.append(t)
    return out


_KEEP = ("keep", "stay", "keeping", "staying", "stand", "hang")


def keep_back(toks: list[Token]) -> list[Token]:
    """"keep well back from the dresser" -> "keep away from the dresser" (before the spoken
    frames, which read "well" as a filler)."""
    words = [t.text for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(toks):
        k = i + 1 + (words[i + 1:i + 2] in (["well"], ["way"], ["far"], ["right"]))
        if words[i] in _KEEP and words[k:k + 2] == ["back", "from"]:
            out.append(toks[i])
            out.append(Token("away", toks[i + 1].start, toks[k].end))
            i = k + 1
            continue
        out.append(toks[i])
        i += 1
    return out


def early_forms(toks: list[Token]) -> list[Token]:
    """The token transforms of this module, in order."""
    return keep_back(reached_it(between_them(fronted_topic(toks))))


# --- rewrite rules -----------------------------------------------------------------------
def _after_thing(rw: Rewriter, skip: int = 0) -> bool:
    """Whether the words read so far (less the last ``skip``) end with a thing's head (or
    "is"/"sits" after one)."""
    words = [t.text for t in rw.out[max(0, len(rw.out) - skip - 8):len(rw.out) - skip]]
    while words and words[-1] in ("is", "are", "sits", "stands", "sitting", "standing",
                                  "located", "placed", "that", "which", "right", "just",
                                  "directly"):
        words.pop()
    lex = head_lexicon()
    for n in range(1, min(len(words), lex.max_len) + 1):
        hit = lex.match(words[-n:])
        if hit is not None and hit[0] == n:
            return True
    return False


def front_of(rw: Rewriter, i: int) -> int | None:
    """"the chair in front of the desk" -> "the chair facing the desk"."""
    if rw.at(i, "in", "front", "of") and _after_thing(rw):
        rw.emit("facing", like=rw.toks[i])
        return i + 3
    return None


def corner_of_thing(rw: Rewriter, i: int) -> int | None:
    """"the floor lamp in the corner of the bedroom", "the chair tucked into the corner of
    the kitchen": left for the corner modifier (a corner of the room, where the thing is)."""
    if rw.w(i) in ("the", "a") and rw.w(i + 1) == "corner" and rw.w(i + 2) == "of" and \
            rw.out and rw.out[-1].text == "in" and \
            _after_thing(rw, skip=1):
        rw.out.append(rw.new("the", rw.toks[i]))
        rw.out.append(rw.toks[i + 1])
        return i + 2
    return None


_CLOSE_BY = (("close", "by"), ("near", "here"), ("close", "to", "here"), ("around", "here"),
             ("near", "by"))


def close_by(rw: Rewriter, i: int) -> int | None:
    """"the dresser close by" -> "the dresser nearby"."""
    n = max((len(p) for p in _CLOSE_BY if rw.at(i, *p)), default=0)
    if n and _after_thing(rw) and rw.w(i + n) in ("", *_ENDS, ",", "and", "then", "but",
                                                  "please"):
        rw.emit("nearby", like=rw.toks[i])
        return i + n
    return None


_SUPPORT_VERBS = ("is", "are", "sits", "stands", "lies", "rests")
_SUPPORT_PARTS = ("sitting", "standing", "lying", "resting", "placed", "kept", "put")


def thing_on_it(rw: Rewriter, i: int) -> int | None:
    """"the table that the laptop is on" -> "the table with the laptop on it"."""
    k = i + (rw.w(i) in ("that", "which"))
    if rw.w(k) not in ("the", "a") or not _after_thing(rw) or (k == i and rw.w(i - 1) in _DETS):
        return None
    n = rw.head_at(k + 1)
    if not n:
        return None
    q = k + 1 + n
    if rw.w(q) not in _SUPPORT_VERBS:
        return None
    q += 1 + (rw.w(q + 1) in _SUPPORT_PARTS)
    prep = 3 if rw.at(q, "on", "top", "of") else 1 if rw.w(q) in ("on", "in", "inside") else 0
    if not prep or rw.w(q + prep) not in ("", *_ENDS, ",", "and", "then", "but", "please"):
        return None
    rw.emit("with", like=rw.toks[i])
    rw.out.extend(rw.toks[k:k + 1 + n])
    rw.out.extend(rw.toks[q:q + prep])
    rw.emit("it", like=rw.toks[q + prep - 1])
    return q + prep


_SAME_ROOM = (("that", "shares", "a", "room", "with"), ("which", "shares", "a", "room", "with"),
              ("sharing", "a", "room", "with"), ("in", "the", "room", "of"),
              ("in", "the", "same", "room", "with"), ("that", "is", "in", "the", "room", "of"),
              ("which", "is", "in", "the", "room", "of"))


def shares_room(rw: Rewriter, i: int) -> int | None:
    """"the chair that shares a room with the desk" -> "the chair in the same room as the
    desk"."""
    n = max((len(p) for p in _SAME_ROOM if rw.at(i, *p)), default=0)
    if not n or not _after_thing(rw) or rw.w(i + n) not in _DETS:
        return None
    if rw.at(i + n, "the") and head_lexicon().match(
            rw.words[i + n + 1:i + n + 4]) is None:
        return None
    rw.emit("in", "the", "room", "with", like=rw.toks[i])
    return i + n


def away_the(rw: Rewriter, i: int) -> int | None:
    """"keep away the dining table" -> "keep away from the dining table"."""
    if rw.w(i) in ("away", "clear") and rw.w(i - 1) in ("keep", "stay", "keeping", "staying") \
            and rw.w(i + 1) in ("the", "a") and rw.head_at(i + 2):
        if len(rw.out) > 1 and _after_thing(rw, skip=1):
            rw.out.insert(-1, rw.new(",", rw.toks[i - 1]))  # "go to the fridge keep away ..."
        rw.out.append(rw.toks[i])
        rw.emit("from", like=rw.toks[i])
        return i + 1
    return None


_STRAY = ("stray", "wander", "drift", "go", "get", "move", "venture")


def not_far_from(rw: Rewriter, i: int) -> int | None:
    """"don't stray far from the bed" / "never wander too far from the sofa" -> "stay close
    to the bed"."""
    neg = 2 if rw.at(i, "do", "not") else 1 if rw.w(i) in ("never", "dont") else 0
    if not neg or rw.w(i + neg) not in _STRAY:
        return None
    k = i + neg + 1 + (rw.w(i + neg + 1) in ("too", "very"))
    if rw.w(k) != "far":
        return None
    k += 1 + (rw.w(k + 1) == "away")
    if rw.w(k) != "from" or rw.w(k + 1) not in _DETS:
        return None
    rw.emit("stay", "close", "to", like=rw.toks[i])
    return k + 1


def follow_thing(rw: Rewriter, i: int) -> int | None:
    """"Follow the sofa to the TV" -> "go to the TV , staying close to the sofa"."""
    if rw.w(i) not in ("follow", "following") or rw.w(i + 1) not in ("the", "a"):
        return None
    a = i + 1 + (rw.w(i + 2) == "line")  # "follow the line of the sofa"
    k = a + 1
    hit = head_lexicon().match(rw.words[k:k + head_lexicon().max_len])
    if hit is None or hit[2] in ("room", "wall") or hit[1] in ("wall", "walls"):
        return None
    end = k + hit[0]
    if rw.w(end) not in ("to", "until", "till", "all"):
        return None
    to = end + (2 if rw.at(end, "all", "the", "way") else 0)
    if rw.w(to) not in ("to", "until", "till") or rw.w(to + 1) not in ("the", "a", "you"):
        return None
    stop = to + 1
    while stop < len(rw.words) and rw.w(stop) not in (*_ENDS, ",", "and", "then", "but"):
        stop += 1
    rw.emit("go", "to", like=rw.toks[i])
    q = to + 1
    if rw.at(q, "you", "reach") or rw.at(q, "you", "get", "to"):
        q += 2 + (rw.w(q + 1) == "get")
    rw.out.extend(rw.toks[q:stop])
    rw.emit(",", "staying", "close", "to", like=rw.toks[i])
    rw.out.extend(rw.toks[i + 1:end])
    return stop


_SHAPES = ("round", "circular", "oval", "square", "rectangular")


def shaped_head(rw: Rewriter, i: int) -> int | None:
    """"the round table" -> "the table" (the shape is how the thing looks, not a loop)."""
    if rw.w(i) in _SHAPES and rw.w(i - 1) in _DETS and rw.head_at(i + 1):
        n = rw.head_at(i + 1)
        rw.marks.said_as.append({"text": " ".join(rw.words[i:i + 1 + n]),
                                 "as": " ".join(rw.words[i + 1:i + 1 + n])})
        return i + 1
    return None


_STATES = ("on", "off", "open", "closed", "shut", "running", "playing", "broken", "wet",
           "dirty", "clean", "loud", "empty", "full", "new", "messy", "blocked")


def state_aside(rw: Rewriter, i: int) -> int | None:
    """"go to the sofa, the tv is on" -> "go to the sofa" (the TV's state is context)."""
    if rw.w(i) != "," or not any(t.text in _REQUEST for t in rw.out[-12:]):
        return None
    k = i + 1
    if rw.w(k) not in ("the", "that", "this", "my", "your"):
        return None
    n = rw.head_at(k + 1)
    q = k + 1 + n
    if not n or rw.w(q) not in ("is", "are", "was", "'s") or rw.w(q + 1) not in _STATES or \
            rw.w(q + 2) not in ("", *_ENDS):
        return None
    toks = rw.toks[k:q + 2]
    rw.context.append((" ".join(t.text for t in toks), (toks[0].start, toks[-1].end)))
    return q + 2


#: Words after which "or the X" is no destination ("keep away from the lamp or the desk").
_NOT_GOING = frozenset({"from", "away", "keep", "stay", "avoid", "near", "past", "through",
                        "between", "around", "clear", "touching", "pass", "passing", "via",
                        "close", "across", "along"})


def or_choice(rw: Rewriter, i: int) -> int | None:
    """"go to the kitchen, or the living room": a choice between two places, which the
    parser cannot make; refused, naming the alternative."""
    if rw.w(i) != "or" or rw.w(i + 1) not in ("the", "a", "to") or rw.w(i + 2) in (
            "rather", "not") or rw.at(i, "or", "the", "other"):
        return None
    k = i + 1 + (rw.w(i + 1) == "to")
    k += rw.w(k) in ("the", "a")
    n = rw.head_at(k)
    a, _ = _sentence_span(rw.words, i)
    said = rw.words[a:i]
    if not n or not any(w in W.MOVE_VERBS for w in said) or \
            any(w in ("not", "never", "avoid", "without", "no", "either", "whichever",
                      "dont") for w in said):
        return None
    for w in reversed(said):  # the last verb or preposition said must be one of going to
        if w in _NOT_GOING:
            return None  # "keep away from the lamp or the desk": both
        if w in W.MOVE_VERBS or w == "to":
            break
    b = k + n
    span = (rw.toks[i].start, rw.toks[b - 1].end)
    text = " ".join(rw.words[i:b])
    msg = (f"did not understand {text!r}: two places are offered as a choice, which the "
           "offline parser cannot make; name one of them, or use the hybrid or llm grounder")
    raise ParseError(msg, text, span)


_SURFACES = ("floor", "ground", "carpet", "rug")
_PLACES = ("next", "by", "near", "beside", "close", "in", "under", "against", "facing")


def on_the_floor(rw: Rewriter, i: int) -> int | None:
    """"the box that's on the floor next to the dresser" -> "the box next to the dresser"
    (standing on the floor, as every thing does, adds nothing)."""
    k = i + 2 if rw.w(i) in ("that", "which") and rw.w(i + 1) in ("is", "are") else i
    if k == i or not rw.at(k, "on", "the") or rw.w(k + 2) not in _SURFACES or \
            rw.w(k + 3) not in _PLACES or not _after_thing(rw):
        return None
    return k + 3


def head_word(rw: Rewriter, i: int) -> int | None:
    """"the tv stand under the TV": "stand" ending a head said before it is that head's
    word, never the verb."""
    if rw.w(i) not in ("stand", "stands") or not rw.out:
        return None
    lex = head_lexicon()
    for n in range(1, min(len(rw.out), lex.max_len)):
        words = [t.text for t in rw.out[-n:]] + [rw.w(i)]
        hit = lex.match(words)
        if hit is not None and hit[0] == n + 1:
            rw.out.append(rw.toks[i])
            return i + 1
    return None


def least_far(rw: Rewriter, i: int) -> int | None:
    """"the least distant bathroom" -> "the nearest bathroom"; "the least close" ->
    "the farthest"."""
    if rw.w(i) != "least" or rw.w(i - 1) not in ("the", "a"):
        return None
    if rw.w(i + 1) in ("distant", "far", "remote"):
        rw.emit("nearest", like=rw.toks[i])
        return i + 2
    if rw.w(i + 1) in ("close", "near"):
        rw.emit("farthest", like=rw.toks[i])
        return i + 2
    return None


#: Relations negated in a relative clause the core rule does not take, read as "next to".
_NOT_PLACED = (("at",), ("in", "front", "of"), ("facing",), ("behind",), ("above",),
               ("opposite",), ("across", "from"), ("against",), ("underneath",))


def not_placed(rw: Rewriter, i: int) -> int | None:
    """"the chair that isn't at the desk" -> "the chair (not) next to the desk"."""
    if rw.w(i) not in ("that", "which") or rw.w(i + 1) not in ("is", "are") or \
            rw.w(i + 2) != "not":
        return None
    said = next((p for p in _NOT_PLACED if rw.at(i + 3, *p)), None)
    if said is None:
        return None
    det = i + 3 + len(said)
    if rw.w(det) not in ("a", "an", "the", "any") or not rw.head_at(det + 1):
        return None
    rw.marks.negated.add(rw.toks[i + 3].start)
    rw.emit("next", "to", like=rw.toks[i + 3])
    return det


_WHILE_SO = (("while", "doing", "so"), ("while", "doing", "that"), ("while", "doing", "this"),
             ("while", "you", "do", "so"), ("while", "you", "do", "that"),
             ("as", "you", "do", "so"), ("as", "you", "do", "that"), ("in", "doing", "so"))


def while_so(rw: Rewriter, i: int) -> int | None:
    """"go to the fridge, and while doing so stay far from the table": "while doing so" is
    the way to the goal said before, as a constraint after it already is."""
    n = max((len(p) for p in _WHILE_SO if rw.at(i, *p)), default=0)
    if not n or not rw.out or rw.out[-1].text not in (",", "and", "but"):
        return None
    return i + n + (rw.w(i + n) == ",")


_HEDGES = (("at", "least"), ("a", "minimum", "of"), ("no", "less", "than"), ("about",),
           ("roughly",), ("around",), ("like",), ("at", "a", "distance", "of"))
_AMOUNTS = (("half", "a"), ("a", "couple", "of"), ("a", "few"), ("a", "good"), ("a", "full"),
            ("a", "clear"), ("a",), ("an",))
_UNITS = frozenset({"meter", "meters", "metre", "metres", "m", "foot", "feet", "ft", "yard",
                    "yards", "step", "steps", "pace", "paces", "cm", "centimeters",
                    "centimetres"})
_ROOM_NOUNS = frozenset({"clearance", "space", "room", "distance", "gap", "margin", "buffer"})


def _amount(rw: Rewriter, k: int) -> int:
    """Length of an amount at ``k`` ("half a", "two", "1.5", "a"), 0 if none."""
    n = max((len(p) for p in _AMOUNTS if rw.at(k, *p)), default=0)
    if n:
        return n
    w = rw.w(k)
    return 1 if w in W.NUMBERS or w.replace(".", "", 1).isdigit() else 0


def kept_distance(rw: Rewriter, i: int) -> int | None:
    """"keep at least a meter from the dresser", "keep half a metre clearance from the
    armchair", "stay 2 feet away from the TV" -> "stay away from ..." (distance kept from a
    thing, as "give the chair lots of room" is read); the amount is recorded as said."""
    if rw.w(i) not in _KEEP + ("remain", "maintain", "maintaining"):
        return None
    k = i + 1
    k += max((len(p) for p in _HEDGES if rw.at(k, *p)), default=0)
    n = _amount(rw, k)
    if not n or rw.w(k + n) not in _UNITS:
        return None
    q = k + n + 1
    q += 2 if rw.w(q) == "of" and rw.w(q + 1) in _ROOM_NOUNS else rw.w(q) in _ROOM_NOUNS
    q += rw.w(q) == "away"
    if rw.w(q) not in ("from", "to", "around") or rw.w(q + 1) not in _DETS or \
            not rw.head_at(q + 2):
        return None
    rw.emit("staying" if rw.w(i).endswith("ing") else "stay", "away", "from", like=rw.toks[i])
    rw.marks.said_as.append({"text": " ".join(rw.words[i:q + 1]), "as": "stay away from"})
    return q + 1


_GAP_VERBS = ("cross", "step", "run", "get", "sneak", "slip", "head", "weave", "pass")


def cross_between(rw: Rewriter, i: int) -> int | None:
    """"do not cross between the bed and the dresser" -> "avoid the area between ..."."""
    neg = 2 if rw.at(i, "do", "not") else 1 if rw.w(i) in ("never", "dont") else 0
    if not neg or rw.w(i + neg) not in _GAP_VERBS:
        return None
    k = i + neg + 1 + (rw.w(i + neg + 1) == "in")
    if rw.w(k) != "between":
        return None
    rw.emit("avoid", "the", "area", like=rw.toks[i])
    return k


#: Guards run before the early rules of :mod:`.human` (a head word read as a verb).
GUARDS: tuple[Rule, ...] = (head_word,)

#: The rules of this module, tried before the other late rules of :mod:`.human`.
RULES: tuple[Rule, ...] = (
    head_word, kept_distance, on_the_floor, or_choice, least_far, not_placed, while_so, cross_between, state_aside, follow_thing, not_far_from, away_the, front_of, corner_of_thing,
    close_by, thing_on_it, shares_room, shaped_head,
)
