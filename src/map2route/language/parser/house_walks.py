"""Rooms picked by the walk through the house, and room-to-room motion that adds no stage
(round J, class J5).

The parser reads "go to the first bedroom you get to", "the bedroom you get to through the
bathroom", "the bedroom next to it" and "the table with one chair". People say the walk
between them in words no rule read, and those were refused (or a room was read as a stage):

* motion through the whole house, which is the route itself and names no place: "head on
  through the house to X", "go right across the house to X", "walk through the flat until
  you reach X", "carry on across the house and stop at X", "go on through the house and into
  X", "go thru the house 2 X", "go on through to X" -> "head to X",
  "go into X", "stop at X" (the walk is context; a bare "and just keep going" closing a
  clause is context too) (:func:`_house_motion`);
* where a route-order count starts, said as a condition: "If you come in from the kitchen
  (side), go to the second one you get to" -> "from the kitchen, go to the second one you
  get to" (where the leg comes in from, which the parser reports; the count is the
  ``route`` ranking; "the second one" after "there's two armchairs in the living room" is
  read by :mod:`.set_picks`) (:func:`_come_in`);
* a room picked by the room it opens into: "go through from that bathroom into the bedroom
  it opens into" -> "go into the bedroom adjacent to the bathroom" ("through from that
  bathroom" is context, where the leg starts; "it" is that bathroom); "the bedroom it opens
  into / leads into" -> "the bedroom next to it" (next to the room the route is in); "the
  bedroom that opens off / leads off the bathroom" and "the bedroom (that) the bathroom opens
  into" -> "the bedroom adjacent to the bathroom" (rooms joined by a door, which the
  grounding checks) (:func:`_opens_into`);
* the next room of a kind along the walk: "the bedroom after that one", "the next bedroom
  along", "the next one along" -> "the next bedroom" (a ``route`` ranking from where the route
  is then; "the next one along" itself is left to the later stages); a restating correction after a room already counted along the route ("the second
  living room you walk through - not the one you come into from outside, the next one
  along", "the second bedroom, the one after it") is context: it says the same pick again
  (:func:`_next_along`);
* "the bedroom you come to after the bathroom" is refused by its words (a room placed after
  another room of the route: no grounding verb checks it) (:func:`_after_room`);
* a thing picked by what is on or at it: "the one that hasn't got anything (sitting) on it"
  -> "the one that has nothing on it"; "that has a single chair (tucked in) under it" ->
  "with one chair"; "(two tables) with chairs round them" -> "with chairs"
  (:func:`_described`).

Anything else is left for the later stages to read or refuse: "the middle one" of rooms,
"the one by the kitchen" of a room with no count to restate, a room counted on an earlier leg.
Tokens are moved, renamed or taken out as context (with their character spans), never dropped,
so a refusal still points into the original text. The constructions are closed word lists
around the head lexicon's room words, so the module is written by hand like the rest of the
parser.
"""

from __future__ import annotations

from map2route.language.errors import ParseError
from map2route.language.parser.destination_tokens import (
    Context,
    crossed_into,
    head_at,
    take,
    tok,
    words_of,
)
from map2route.language.parser.rule_scan import scan_writing
from map2route.language.tokens import Token

__all__ = ["house_walks"]

_ENDS = (".", "!", "?", ";")
_WALK = frozenset({"go", "head", "walk", "carry", "keep", "proceed", "move", "continue",
                   "come", "make", "wander", "cut"})
_ADVERBS = frozenset({"on", "right", "straight", "all", "just", "along", "the", "way",
                      "your", "going", "walking", "heading", "over"})
_THROUGH = frozenset({"through", "thru", "across"})
_HOUSE = frozenset({"house", "flat", "apartment", "home", "place"})
_TO = {"to": "to", "2": "to", "into": "into", "towards": "to", "toward": "to", "till": "to",
       "until": "to", "til": "to"}
_YOU = frozenset({"you", "u", "ya"})
_REACH = (("reach",), ("get", "to"), ("get", "into"), ("come", "to"), ("arrive", "at"),
          ("hit",), ("find",))
_GET = frozenset({"get", "come", "walk", "go", "reach", "hit", "arrive"})
_SIDE = frozenset({"side", "end", "door", "doorway", "way"})


def _room(words: list[str], k: int) -> int:
    """Length of a room word at ``k`` (0 if none)."""
    hit = head_at(words, k)
    return hit[0] if hit is not None and hit[2] == "room" else 0


def _at(words: list[str], k: int, seqs: tuple[tuple[str, ...], ...]) -> int:
    return next((len(s) for s in seqs if tuple(words[k:k + len(s)]) == s), 0)


def _house_motion(toks: list[Token], words: list[str], k: int,
                  ctx: Context) -> tuple[list[Token], int] | None:
    """"head on through the house to X" -> "head to X" (see the module docstring)."""
    if words[k] not in _WALK:
        return None
    j = k + 1
    if words[k] == "make" and words[j:j + 2] == ["your", "way"]:
        j += 2
    while j < len(words) and words[j] in _ADVERBS and j - k < 5:
        j += 1
    house = words[j:j + 1] and words[j] in _THROUGH and words[j + 1:j + 2] == ["the"] and \
        words[j + 2:j + 3] and words[j + 2] in _HOUSE
    if house:
        e = j + 3
    elif words[j:j + 1] and words[j] in ("through", "thru") and words[k] != "cut" and \
            words[j + 1:j + 2] and words[j + 1] in ("to", "into") and \
            words[j + 2:j + 3] in (["the"], ["a"]) and not crossed_into(words, j + 1):
        e = j + 1  # "go on through to the bedroom": "through" says no room
    else:
        return None
    if e < len(words) and words[e] in ("until", "till", "til") and \
            words[e + 1:e + 2] and words[e + 1] in _YOU:
        n = _at(words, e + 2, _REACH)
        if not n:
            return None
        take(toks, k, e + 2 + n, ctx)
        return [tok("go", toks[k]), tok("to", toks[e + 1 + n])], e + 2 + n
    if e < len(words) and words[e] in _TO:
        take(toks, k, e, ctx)
        to = words[e] if words[e] == "into" else "to"
        if house and words[e + 1:e + 3] == ["the", "last"] and _room(words, e + 3):
            # "through the house to the last bedroom": the one farthest along the walk
            return [tok("go", toks[k]), tok(to, toks[e]), toks[e + 1],
                    tok("farthest", toks[e + 2])], e + 3
        return [tok("go", toks[k]), tok(to, toks[e])], e + 1
    if e < len(words) and words[e] == "and" and house:
        nxt = e + 1
        if words[nxt:nxt + 1] and words[nxt] in ("into", "to", "on"):
            take(toks, k, nxt, ctx)
            return [tok("go", toks[k])], nxt
        take(toks, k, nxt, ctx)  # "carry on across the house and stop at X"
        return [], nxt
    return None


def _keep_going(toks: list[Token], words: list[str], k: int,
                ctx: Context) -> tuple[list[Token], int] | None:
    """"... and just keep going." closing a clause: the walk goes on, no place named."""
    if words[k] != "and":
        return None
    j = k + 1 + (words[k + 1:k + 2] == ["just"])
    if words[j:j + 2] not in (["keep", "going"], ["carry", "on"], ["keep", "walking"]):
        return None
    e = j + 2
    if e < len(words) and words[e] not in (*_ENDS, ","):
        return None
    take(toks, k, e, ctx)
    return [], e


def _come_in(toks: list[Token], words: list[str], k: int,
             ctx: Context) -> tuple[list[Token], int] | None:
    """"If you come in from the kitchen (side), go to the second one you get to" -> "from the
    kitchen, go to the second one you get to" (where the walk comes in; a count along the
    route later in the sentence needs it)."""
    if words[k] not in ("if", "when", "coming") or k and words[k - 1] not in (*_ENDS, ","):
        return None
    j = k + (0 if words[k] == "coming" else 1)
    if words[k] != "coming":
        if words[j:j + 1] == [] or words[j] not in _YOU:
            return None
        j += 1
        if words[j:j + 1] not in (["come"], ["walk"], ["enter"], ["are"]):
            return None
        j += 1 + (words[j:j + 2] == ["are", "coming"])
    if words[j:j + 1] == ["in"]:
        j += 1
    if words[j:j + 2] != ["from", "the"]:
        return None
    n = _room(words, j + 2)
    if not n:
        return None
    r = j + 2 + n
    e = r + (words[r:r + 1] != [] and words[r] in _SIDE)
    if words[e:e + 1] != [","]:
        return None
    q = e  # the count it starts: "... the second one you get to" later in the sentence
    while q < len(words) and words[q] not in _ENDS:
        if words[q] in _YOU and words[q + 1:q + 2] and words[q + 1] in _GET:
            take(toks, k, j, ctx)
            take(toks, r, e, ctx)
            return toks[j:r], e
        q += 1
    return None


def _opens_into(toks: list[Token], words: list[str], k: int,
                ctx: Context) -> tuple[list[Token], int] | None:
    """"go through from that bathroom into the bedroom it opens into" -> "go into the bedroom
    adjacent to that bathroom"; "the bedroom it opens into" -> "the bedroom next to it"; "the
    bedroom that opens off the bathroom" -> "the bedroom adjacent to the bathroom"."""
    if words[k] in _WALK and words[k + 1:k + 3] in (["through", "from"], ["thru", "from"]) and \
            words[k + 3:k + 4] in (["that"], ["the"], ["this"]):
        n = _room(words, k + 4)
        r = k + 4 + n
        if n and words[r:r + 2] in (["into", "the"], ["to", "the"]):
            m = _room(words, r + 2)
            t = r + 2 + m
            it = _it_opens(words, t)
            if m and it:
                # "it" is the room gone from: its words said again where "it" stands
                take(toks, k + 1, r, ctx)
                at = toks[t + it - 1]  # "it opens into": each word said again in order
                return [toks[k], toks[r], *toks[r + 1:t], tok("adjacent", toks[t + it - 3]),
                        tok("to", toks[t + it - 2]), tok("the", at),
                        *(tok(w, at) for w in words[k + 4:r])], t + it
    if not _room(words, k) or k and words[k - 1] not in ("the", "a"):
        return None
    t = k + _room(words, k)
    it = _it_opens(words, t)
    if it:
        return [*toks[k:t], tok("next", toks[t]), tok("to", toks[t + 1]),
                tok("it", toks[t + it - 1])], t + it
    q = t + (words[t:t + 1] in (["that"], ["which"]))
    if words[q:q + 1] == ["the"] and (m := _room(words, q + 1)) and \
            words[q + 1 + m:q + 2 + m] in (["opens"], ["leads"]) and \
            words[q + 2 + m:q + 3 + m] in (["into"], ["onto"], ["to"]) and \
            (q + 3 + m >= len(words) or words[q + 3 + m] not in ("the", "a", "that")):
        # "the bedroom (that) the bathroom opens into" -> "the bedroom adjacent to the bathroom"
        take(toks, q + 1 + m, q + 3 + m, ctx)
        return [*toks[k:t], tok("adjacent", toks[t]), tok("to", toks[q]),
                *toks[q:q + 1 + m]], q + 3 + m
    if words[q:q + 1] in (["opens"], ["leads"], ["comes"]) and \
            words[q + 1:q + 2] == ["off"] and words[q + 2:q + 3] in (["the"], ["that"]) and \
            _room(words, q + 3):
        return [*toks[k:t], tok("adjacent", toks[q]), tok("to", toks[q + 1])], q + 2
    return None


def _it_opens(words: list[str], t: int) -> int:
    """Length of "(that) it opens into / leads into / opens onto" at ``t`` (0 if none)."""
    q = t + (words[t:t + 1] in (["that"], ["which"]))
    if words[q:q + 1] == ["it"] and words[q + 1:q + 2] in (["opens"], ["leads"]) and \
            words[q + 2:q + 3] in (["into"], ["onto"], ["to"]) and \
            (q + 3 >= len(words) or words[q + 3] not in ("the", "a", "that")):
        return q + 3 - t
    return 0


def _next_along(toks: list[Token], words: list[str], k: int,
                ctx: Context) -> tuple[list[Token], int] | None:
    """"the bedroom after that one", "the next bedroom along" -> "the next bedroom"; a
    restating "- not the one ..., the next one along" after a counted room is context."""
    if words[k] == "the" and (n := _room(words, k + 1)) and \
            words[k + 1 + n:k + 4 + n] in (["after", "that", "one"], ["after", "this", "one"]):
        e = k + 4 + n
        take(toks, k + 1 + n, e, ctx)
        return [toks[k], tok("next", toks[k + 1 + n]), *toks[k + 1:k + 1 + n]], e
    if words[k] == "the" and words[k + 1:k + 2] == ["next"] and (n := _room(words, k + 2)) and \
            words[k + 2 + n:k + 3 + n] == ["along"]:
        take(toks, k + 2 + n, k + 3 + n, ctx)
        return toks[k:k + 2 + n], k + 3 + n
    if words[k] == "," and words[k + 1:k + 4] == ["the", "one", "after"] and \
            _counted_before(words, k):
        f = k + 4 + (words[k + 4:k + 5] in (["it"], ["that"]))
        f += words[f - 1] == "that" and words[f:f + 1] == ["one"]
        if f > k + 4 and (f >= len(words) or words[f] in (*_ENDS, ",")):
            take(toks, k, f, ctx)  # "the second bedroom, the one after it": said again
            return [], f
    if words[k] in ("-", ",", "\u2013", "\u2014") and words[k + 1:k + 4] == ["not", "the", "one"]:
        e = k + 4
        while e < len(words) and words[e] not in _ENDS and e - k < 14:
            if words[e:e + 4] in ([",", "the", "next", "one"], ["but", "the", "next", "one"]):
                f = e + 4 + (words[e + 4:e + 5] == ["along"])
                if (f >= len(words) or words[f] in (*_ENDS, ",")) and _counted_before(words, k):
                    take(toks, k, f, ctx)
                    return [], f
                return None
            e += 1
    return None


def _counted_before(words: list[str], k: int) -> bool:
    """Whether the room said just before ``k`` was counted along the route ("the second
    living room you walk through")."""
    b = k - 1
    while b >= 0 and words[b] not in (*_ENDS, ",") and k - b < 12:
        if words[b] == "the" and words[b + 1:b + 2] and words[b + 1] in (
                "second", "third", "fourth", "2nd", "3rd", "4th") and _room(words, b + 2):
            return True
        b -= 1
    return False


def _after_room(toks: list[Token], words: list[str], k: int,
                ctx: Context) -> tuple[list[Token], int] | None:
    """"the bedroom you come to after the bathroom": a room placed after another room of the
    route, which no grounding verb checks (it need not share a door with it) -> refused by
    its words (a bare "go to the bedroom after the bathroom" is a visit after a visit and is
    left to the later stages)."""
    if words[k] != "the" or not (n := _room(words, k + 1)):
        return None
    q = k + 1 + n
    if not (words[q:q + 1] and words[q] in _YOU and words[q + 1:q + 2] and
            words[q + 1] in _GET):
        return None
    q += 2 + (words[q + 2:q + 3] in (["to"], ["into"]))
    if words[q:q + 2] != ["after", "the"] or not (m := _room(words, q + 2)):
        return None
    a, b = toks[k].start, toks[q + 1 + m].end
    said = " ".join(words[k:q + 2 + m])
    msg = (f"did not understand the route-order reference {said!r}: it is placed after "
           "another room of the route, which the offline parser does not read; name the "
           "place by what is near it or in it, or use the hybrid or llm grounder")
    raise ParseError(msg, said, (a, b))


def _described(toks: list[Token], words: list[str], k: int,
               ctx: Context) -> tuple[list[Token], int] | None:
    """"that hasn't got anything (sitting) on it" -> "that has nothing on it"; "that has a
    single chair (tucked in) under it" -> "with one chair"; "with chairs round them" ->
    "with chairs"."""
    if words[k] not in ("that", "which"):
        return None
    j = k + 1
    neg = 0
    for p in (("has", "not", "got"), ("does", "not", "have"), ("has", "not"), ("hasnt", "got"),
              ("doesnt", "have")):
        if tuple(words[j:j + len(p)]) == p:
            neg = len(p)
            break
    if neg and words[j + neg:j + neg + 1] == ["anything"]:
        a = e = j + neg + 1
        e += words[e:e + 1] in (["sitting"], ["lying"], ["standing"], ["left"], ["put"])
        if words[e:e + 2] in (["on", "it"], ["on", "top"]):
            take(toks, a, e, ctx)  # "sitting": how it would be on it
            return [toks[k], tok("has", toks[j]), tok("nothing", toks[j + neg]),
                    toks[e], toks[e + 1]], e + 2
    if words[j:j + 3] in (["has", "a", "single"], ["has", "just", "one"],
                          ["has", "only", "one"], ["has", "one", "single"]) and \
            (hit := head_at(words, j + 3)) is not None and hit[2] != "room":
        h = j + 3 + hit[0]
        e = h
        e += words[e:e + 1] in (["tucked"], ["pushed"], ["pulled"], ["sitting"], ["set"])
        e += words[e:e + 1] in (["in"], ["up"])
        if words[e:e + 2] in (["under", "it"], ["at", "it"], ["round", "it"], ["around", "it"],
                              ["by", "it"]):
            take(toks, h, e + 2, ctx)
            return [tok("with", toks[j]), tok("one", toks[j + 2]), *toks[j + 3:h]], e + 2
        if e == h and (h >= len(words) or words[h] in (*_ENDS, ",", "and")):
            return [tok("with", toks[j]), tok("one", toks[j + 2]), *toks[j + 3:h]], h
    return None


def _with_round_them(toks: list[Token], words: list[str], k: int,
                     ctx: Context) -> tuple[list[Token], int] | None:
    if words[k] != "with" or not (hit := head_at(words, k + 1)) or hit[2] == "room" or \
            not hit[3]:
        return None
    h = k + 1 + hit[0]
    if words[h:h + 2] in (["round", "them"], ["around", "them"], ["round", "it"],
                          ["around", "it"]):
        take(toks, h, h + 2, ctx)
        return list(toks[k:h]), h + 2
    return None


_MET = frozenset({"encountered", "reached", "entered", "met", "passed"})


def _met_words(toks: list[Token], words: list[str], k: int,
               ctx: Context) -> tuple[list[Token], int] | None:
    """"the second bedroom encountered (along the route)" -> "the second bedroom you reach
    (along the route)"; "the 2nd bathroom u come to" -> "... you come to"."""
    if words[k] in ("u", "ya") and k and _room(words, k - 1) and words[k + 1:k + 2] and \
            words[k + 1] in _GET:
        return [tok("you", toks[k])], k + 1
    if words[k] in _MET and k > 1 and _room(words, k - 1) and \
            words[k - 2] in ("second", "third", "fourth", "2nd", "3rd", "4th", "first", "1st"):
        return [tok("you", toks[k]), tok("reach", toks[k])], k + 1
    return None


def _in_the_house(toks: list[Token], words: list[str], k: int,
                  ctx: Context) -> tuple[list[Token], int] | None:
    """"two tables in the house with chairs" -> "two tables with chairs": every thing is in
    the house (context)."""
    if words[k] != "in" or words[k + 1:k + 2] not in (["the"], ["this"]) or \
            words[k + 2:k + 3] == [] or words[k + 2] not in _HOUSE or \
            words[k + 3:k + 4] != ["with"] or not k or not (hit := head_at(words, k - 1)) or \
            not hit[3]:
        return None
    take(toks, k, k + 3, ctx)
    return [], k + 3


_RULES = (_met_words, _in_the_house, _house_motion, _keep_going, _come_in, _opens_into, _next_along, _after_room,
          _described, _with_round_them)


def house_walks(toks: list[Token]) -> tuple[list[Token], Context]:
    """Rewrite the phrasings of the module docstring; returns the tokens and what was taken
    out as context."""
    words = words_of(toks)
    ctx: Context = []
    return scan_writing(toks, words, _RULES, ctx), ctx
