"""Scopes that point back at a room or a leg named elsewhere in the instruction.

People who have just named a room or listed their stops scope a later rule by pointing back
at it instead of naming it again: "when you're crossing that bedroom", "as you leave that
room", "once you get to the last room", "once you're in the bedroom where that one is", "in
the alarm clock room" (a room named by a thing in it), "until you're out of the kitchen",
"between stops 1 and 2", "between the first and second stop", "from stop 2 to stop 3", "on that
second bit", "the last stretch", "when you leave the table for the bedroom", "going from the
dog bed to the dresser, ...", "for any of this", "whilst you are in ...". The parser reads the
plain forms of these already ("while you are in the bedroom", "on the way to the second stop",
"on the second leg", "after the table", "on the way from X to Y", "the whole way");
:func:`anaphoric_scopes` rewrites each pointing phrasing onto its plain form:

* a room word after "that / this / that same" in a scope ("crossing that bedroom") is that
  room ("crossing the bedroom");
* "that room", "this room", "the same room", "the last room", "that last room" in a scope are
  the room named last before it (the speaker's room of "I'm in the bedroom ...", the room of
  the last stop listed); when no room was named the words are left for the parser to refuse.
  "keep away from the X in that room" is left as it was: set T reads it as which X (a
  description), set AE as the rule's room;
* "the ROOM where X is" / "the ROOM X is in" in a scope is the ROOM; "the room where X is",
  "the room X is in" and "the X room" are the room X was said to be in ("the alarm clock on
  the dresser in the bedroom ... the alarm clock room": the bedroom), else "the room with the X";
* "until / till you are out of R", "until you have left R" is the time spent in R;
* a leg named by its stops' numbers or order ("between stops N and N+1", "between the first and
  second stop", "from stop N to stop N+1", "on that second bit / stretch / part") is the leg to
  stop N+1 ("on the way to the second stop"), "the last / final bit" the last leg;
* "when / as / once you leave the X for (the) Y" is the route after the stop X, "once you've
  left that bedroom" the route after the stop said to be in that bedroom;
* "going / heading from X to Y" opening a rule is "on the way from X to Y";
* "once you get to / reach the R" opening a rule is the time in the R (with or without a comma
  after it);
* "after you've been to the X, <rule>" is the route after the stop X, not a second stop, and
  so is ", and after the X, <rule>" (read as a new sentence, as :mod:`.room_there` does);
* "after that / after it / from then on / once you've done that" opening a rule is the route
  after the stop named last ("do a lap round the dog bed, and after that keep away from X"),
  not the whole route;
* "for any of this", "for the whole thing", "for this one" is the whole route.

Tokens are replaced by tokens that keep the character spans of the words they stand for, so a
later refusal still points into the original text and no word is dropped unseen. The word
lists are closed and small, so this is written by hand like the rest of the parser.
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.rule_scan import scan_appending
from map2route.language.tokens import Token

__all__ = ["anaphoric_scopes"]

_ENDS = (".", "!", "?", ";")
_OPEN = frozenset({*_ENDS, ",", "and", "but", "then", "also", "oh", "so", "plus", ":", "-",
                   "(", ")", "just", "please"})
_ORD = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "1st": 1, "2nd": 2,
        "3rd": 3, "4th": 4, "5th": 5}
_NUM = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "one": 1, "two": 2, "three": 3, "four": 4,
        "five": 5}
_ORD_WORD = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}
_STOP = ("stop", "stops")
#: Words for a part of the route named by its order ("that second bit").
_BIT = ("bit", "stretch", "part", "section", "leg", "half", "trip", "run")
_LAST = ("last", "final")
#: Words that open a scope of time in which a room may be pointed at.
_SCOPE_LEADS = frozenset({"while", "whilst", "when", "as", "once", "until", "till", "til",
                          "after", "before", "you", "whenever"})
#: Words right before a room of such a scope ("crossing that bedroom", "out of that room").
_ROOM_PREPS = frozenset({"in", "inside", "within", "through", "thru", "crossing", "cross",
                         "across", "leave", "leaving", "left", "of", "enter", "entering",
                         "into", "reach", "reaching", "to", "traversing", "exit", "exiting",
                         # the arrivals :func:`_arrive` reads ("once you've reached that room")
                         "reached", "entered"})
#: Words between a pointer and its room ("that first lounge": the first living room).
_ROOM_ADJ = frozenset({"first", "second", "third", "other", "big", "small", "bigger", "smaller",
                       "larger", "large", "biggest", "smallest", "largest"})
#: Spans of words before the room that point back at it.
_POINTERS = (("that", "same"), ("this", "same"), ("the", "same"), ("that", "last"),
             ("the", "last"), ("the", "final"), ("that",), ("this",))
_WHOLE = (("for", "any", "of", "this"), ("for", "all", "of", "this"), ("for", "any", "of", "it"),
          ("for", "all", "of", "it"), ("for", "the", "whole", "thing"),
          ("for", "this", "whole", "thing"), ("for", "the", "whole", "job"),
          ("for", "the", "entire", "thing"), ("for", "the", "whole", "lot"),
          ("for", "any", "part", "of", "this"), ("for", "this", "one"),
          ("at", "any", "point", "in", "this"), ("for", "the", "whole", "errand"))
_OUT_OF = (("are", "out", "of"), ("have", "got", "out", "of"), ("have", "gotten", "out", "of"),
           ("get", "out", "of"), ("have", "left"), ("leave"), ("are", "clear", "of"),
           ("have", "come", "out", "of"), ("come", "out", "of"), ("are", "through"))
_UNTIL = ("until", "till", "til", "untill")
_LEAVE = (("leave",), ("have", "left"), ("are", "leaving"), ("head", "off", "from"),
          ("move", "on", "from"))
_FOR = (("for",), ("to", "go", "to"), ("and", "head", "to"), ("and", "go", "to"),
        ("and", "head", "for"), ("to", "head", "to"), ("on", "your", "way", "to"))
_AFTER_THAT = (("after", "that"), ("after", "this"), ("after", "it"), ("from", "then", "on"),
               ("once", "you", "have", "done", "that"), ("after", "you", "have", "done", "that"),
               ("once", "that", "is", "done"), ("once", "you", "are", "done", "there"),
               ("after", "you", "have", "been", "there"), ("once", "you", "have", "been", "there"),
               ("from", "there", "on"), ("after", "that", "stop"), ("after", "that", "one"))
#: Words that open a rule (a scope before them is the rule's).
_RULE_WORDS = frozenset({"keep", "stay", "avoid", "give", "steer", "do", "don't", "dont",
                         "never", "try", "remain", "hug", "stick", "leave", "mind"})
#: Prepositions that make a thing the place of another ("in the X") or a rule's ("from").
_MOD_PREPS = frozenset({"in", "on", "with", "by", "near", "beside", "of", "from", "without",
                        "off", "inside", "under", "next", "to", "between", "and", "through"})
_ARRIVE = (("get", "to"), ("reach",), ("arrive", "at"), ("arrive", "in"), ("get", "into"),
           ("enter",), ("go", "into"), ("make", "it", "to"), ("have", "got", "to"),
           ("have", "reached"), ("have", "gotten", "to"), ("have", "entered"))
_BEEN = (("have", "been", "to"), ("have", "visited"), ("have", "reached"), ("have", "got", "to"),
         ("have", "gotten", "to"), ("are", "done", "at"), ("have", "finished", "at"),
         ("have", "been", "at"), ("have", "stopped", "at"), ("are", "done", "with"),
         ("have", "done"), ("have", "checked"))
_GOING = frozenset({"going", "heading", "travelling", "traveling", "walking", "moving",
                    "driving", "getting"})


def _tok(word: str, like: list[Token]) -> Token:
    return Token(word, like[0].start, like[-1].end)


def _seq(words: list[str], k: int, seqs: tuple[tuple[str, ...] | str, ...]) -> int:
    best = 0
    for s in seqs:
        s = (s,) if isinstance(s, str) else s
        if tuple(words[k:k + len(s)]) == s:
            best = max(best, len(s))
    return best


def _hit(words: list[str], k: int) -> tuple[int, str, str] | None:
    lex = head_lexicon()
    hit = lex.match(words[k:k + lex.max_len]) if 0 <= k < len(words) else None
    return (hit[0], hit[1], hit[2]) if hit else None


def _room_at(words: list[str], k: int) -> int:
    """Length of a room type word at ``k`` ("bedroom", "living room"; not bare "room")."""
    hit = _hit(words, k)
    return hit[0] if hit and hit[2] == "room" and hit[1] != "room" else 0


def _last_room(words: list[str], end: int) -> list[str] | None:
    """The room type named last before ``end`` (the outer room of "the bathroom off the
    bedroom"; "the living room" not read as its "room")."""
    for k in range(end - 1, -1, -1):
        n = _room_at(words, k)
        if not n or k and _room_at(words, k - 1) > 1:
            continue
        if k >= 3 and words[k - 2:k] == ["off", "the"] and _room_at(words, k - 3):
            k -= 3
            n = _room_at(words, k)
        return words[k:k + n]
    return None


def _thing_room(words: list[str], thing: str, end: int) -> list[str] | None:
    """The room the thing ``thing`` (a head) was said to be in before ``end``: "the alarm
    clock on the dresser in the bedroom" -> ["bedroom"]."""
    for k in range(end - 1, -1, -1):
        hit = _hit(words, k)
        if hit is None or hit[1] != thing:
            continue
        b = k + hit[0]
        stop = b + 8
        while b < min(stop, end) and words[b] not in (*_ENDS, ",", "then", "and"):
            if words[b] in ("in", "inside") and words[b + 1:b + 2] in (["the"], ["a"]):
                n = _room_at(words, b + 2)
                if n:
                    return words[b + 2:b + 2 + n]
            b += 1
    return None


def _room_thing(words: list[str], room: list[str], end: int) -> list[str] | None:
    """The words of the thing said to be in ``room`` last before ``end`` ("the bed in the
    bedroom with the alarm clock" -> ["bed"])."""
    n = len(room)
    for k in range(end - n, 1, -1):
        if words[k:k + n] != room or words[k - 2] not in ("in", "inside") or \
                words[k - 1] not in ("the", "a"):
            continue
        for a in range(k - 3, max(-1, k - 7), -1):
            hit = _hit(words, a)
            if hit is not None and hit[2] == "object" and a + hit[0] == k - 2:
                return words[a:a + hit[0]]
        return None
    return None


def _in_scope(words: list[str], k: int) -> bool:
    """Whether the room phrase at ``k`` is the place of a scope ("while you are crossing
    that bedroom", "as you leave that room", "In that room, ...")."""
    if k == 0 or words[k - 1] not in _ROOM_PREPS:
        return False
    before = words[max(0, k - 6):k - 1]
    cut = max((n for n, w in enumerate(before) if w in _ENDS), default=-1)
    before = before[cut + 1:]
    return bool(set(before) & _SCOPE_LEADS) or k == 1 or words[k - 2] in _OPEN


def _where_tail(words: list[str], k: int) -> tuple[int, str | None]:
    """After a room at ``k``: the length of "where X is" / "X is in" / "that X is in" and X's
    head ("that one" / "it": None)."""
    b = k
    if words[b:b + 1] in (["where"], ["that"], ["which"]):
        b += 1
    if words[b:b + 2] in (["that", "one"], ["this", "one"]):
        head, b = None, b + 2
    elif words[b:b + 1] == ["it"]:
        head, b = None, b + 1
    else:
        b += words[b:b + 1] == ["the"]
        hit = _hit(words, b)
        if hit is None or hit[2] == "room":
            return 0, None
        head, b = hit[1], b + hit[0]
    if words[b:b + 2] == ["is", "in"] and words[k:k + 1] != ["where"]:
        return b + 2 - k, head
    if words[b:b + 1] == ["is"] and words[k:k + 1] == ["where"]:
        return b + 1 - k, head
    return 0, None


def _room_pointer(words: list[str], toks: list[Token], i: int,
                  out: list[Token]) -> int:
    """Rewrite a room pointed at in a scope at ``i`` onto "the ROOM"; the words read."""
    if not _in_scope(words, i):
        return 0
    n = _seq(words, i, _POINTERS)
    det = n
    if not n and words[i] == "the":
        det = 1
    if not det:
        return 0
    adj = 1 if n and words[i + det:i + det + 1] and words[i + det] in _ROOM_ADJ and \
        _room_at(words, i + det + 1) else 0
    r = _room_at(words, i + det + adj)
    if r:  # "that bedroom", "that first lounge", "the bedroom where that one is"
        tail, _ = _where_tail(words, i + det + adj + r)
        if not n and not tail:
            return 0
        keep = [w for w in words[i:i + n] if w in _LAST]  # "that last bedroom": the last
        room = [*keep, *words[i + det:i + det + adj + r]]
        det += adj
        end = i + det + r + tail
    elif words[i + det:i + det + 1] == ["room"]:
        tail, head = _where_tail(words, i + det + 1)
        if n:
            room = _last_room(words, i) or []
        elif tail and head is not None:
            room = _thing_room(words, head, i) or []
        else:
            room = []
        if not room:
            return 0
        end = i + det + 1 + tail
    else:
        return 0
    src = toks[i:end]
    out += [_tok(w, src) for w in ("the", *room)]
    return end - i


def _thing_named_room(words: list[str], toks: list[Token], i: int,
                      out: list[Token]) -> int:
    """ "the alarm clock room" -> "the bedroom" (where the alarm clock was said to be) or "the
    room with the alarm clock" (the lexicon's longest match keeps "the tv room" a room)."""
    if words[i] not in ("the", "that"):
        return 0
    hit = _hit(words, i + 1)
    if hit is None or hit[2] != "object":
        return 0
    b = i + 1 + hit[0]
    if words[b:b + 1] != ["room"]:
        return 0
    src = toks[i:b + 1]
    room = _thing_room(words, hit[1], i)
    if room:
        out += [_tok(w, src) for w in ("the", *room)]
    else:
        out += [_tok("the", src), _tok("room", src), _tok("with", src),
                Token("the", toks[i].start, toks[i].end), *toks[i + 1:b]]
    return b + 1 - i


def _num(words: list[str], k: int) -> tuple[int, int]:
    """A stop's number at ``k`` ("1", "one", "first", "the first", "stop 1"): (number, words)."""
    b = k
    b += words[b:b + 1] == ["the"]
    if words[b:b + 1] and words[b] in _STOP:
        b += 1
    w = words[b] if b < len(words) else ""
    if w in _NUM:
        return _NUM[w], b + 1 - k
    if w in _ORD:
        b += 1
        if words[b:b + 1] and words[b] in (*_STOP, "one"):
            b += 1
        return _ORD[w], b - k
    return 0, 0


def _stop_range(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """ "between stops 1 and 2", "between the first and second stop", "from stop 2 to stop 3"
    -> "on the way to the second stop" (the leg that ends at the later stop)."""
    lead = _seq(words, i, (("on", "the", "way"), ("on", "your", "way"), ("going",),
                           ("heading",), ("travelling",)))
    k = i + lead
    if words[k:k + 1] not in (["between"], ["from"]) or not (i == 0 or words[i - 1] in _OPEN):
        return 0
    joint = "and" if words[k] == "between" else "to"
    if words[k] == "between" and words[k + 1:k + 3] in (["the", "two"], ["those", "two"],
                                                        ["these", "two"]) and \
            words[k + 3:k + 4] and words[k + 3] in _STOP:
        # "Between those two stops, ...": the two just said, the leg that joins them
        src = toks[i:k + 4]
        out += [_tok(w, src) for w in ("on", "the", "way", "to", "the", "second", "stop")]
        return k + 4 - i
    if words[k] == "between" and words[k + 1:k + 2] and words[k + 1] in _STOP:
        a, na = _num(words, k + 2)
        na += 1
    else:
        a, na = _num(words, k + 1)
    b0 = k + 1 + na
    if not a or words[b0:b0 + 1] != [joint]:
        return 0
    b, nb = _num(words, b0 + 1)
    end = b0 + 1 + nb
    if words[end:end + 1] and words[end] in _STOP:
        end += 1
    said_stop = any(w in _STOP for w in words[k:end])
    if not b or b != a + 1 or b not in _ORD_WORD or not said_stop:
        return 0
    src = toks[i:end]
    out += [_tok(w, src) for w in ("on", "the", "way", "to", "the", _ORD_WORD[b], "stop")]
    return end - i


def _ordinal_bit(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """ "on that second bit", "for the last stretch", "during the final part" -> "on the
    second leg", "on the last leg"."""
    if words[i] not in ("on", "for", "during", "over", "in") or \
            not (i == 0 or words[i - 1] in _OPEN):
        return 0
    k = i + 1
    if words[k:k + 1] in (["that"], ["this"], ["the"]):
        k += 1
    w = words[k] if k < len(words) else ""
    if w not in _ORD and w not in _LAST or words[k + 1:k + 2] == [] or \
            words[k + 1] not in _BIT or words[k + 1] == "leg" and words[k - 1] == "the":
        return 0
    end = k + 2
    if words[end:end + 1] == ["of"] and words[end + 1:end + 2] == ["the"] and \
            words[end + 2:end + 3] and words[end + 2] in ("trip", "route", "journey", "walk",
                                                          "run", "job", "errand"):
        end += 3
    src = toks[i:end]
    if w in _LAST:
        out += [_tok(x, src) for x in ("on", "the", "last", "leg")]
    else:  # a stop the route lacks is refused there ("on the way to the fourth stop")
        out += [_tok(x, src) for x in ("on", "the", "way", "to", "the", _ORD_WORD[_ORD[w]],
                                       "stop")]
    return end - i


def _out_of(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """ "until you are out of the kitchen" -> "while you are in the kitchen"."""
    if words[i] not in _UNTIL or words[i + 1:i + 2] != ["you"]:
        return 0
    n = _seq(words, i + 2, _OUT_OF)
    if not n:
        return 0
    k = i + 2 + n
    if words[k:k + 1] == ["there"]:
        room, end = _last_room(words, i), k + 1
    else:
        p = _seq(words, k, _POINTERS)
        p = p or (1 if words[k:k + 1] == ["the"] else 0)
        r = _room_at(words, k + p)
        if r:
            room, end = words[k + p:k + p + r], k + p + r
        elif p and words[k + p:k + p + 1] == ["room"] and words[k] != "the":
            room, end = _last_room(words, i), k + p + 1
        else:
            return 0
    if not room:
        return 0
    src = toks[i:end]
    out += [_tok(w, src) for w in ("while", "you", "are", "in", "the", *room)]
    return end - i


def _leave_for(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """ "when you leave the table for the bedroom" -> "after the table"."""
    if words[i] not in ("when", "as", "once", "after") or words[i + 1:i + 2] != ["you"]:
        return 0
    n = _seq(words, i + 2, _LEAVE)
    k = i + 2 + n
    if not n or words[k:k + 1] not in (["the"], ["that"]):
        return 0
    r = _room_at(words, k + 1)
    if r and words[k] == "that":  # "once you've left that bedroom": after its stop
        room = words[k + 1:k + 1 + r]
        thing = _room_thing(words, room, i)
        if thing is None:
            return 0
        src = toks[i:k + 1 + r]
        out += [_tok(w, src) for w in ("after", "the", *thing)]
        return k + 1 + r - i
    hit = _hit(words, k + 1)
    if hit is None or hit[2] not in ("object", "group"):
        return 0
    b = k + 1 + hit[0]
    f = _seq(words, b, _FOR)
    if not f:
        return 0
    c = b + f
    c += words[c:c + 1] in (["the"], ["that"])
    to = _hit(words, c)
    if to is None:
        return 0
    end = c + to[0]
    src = toks[i:end]
    out += [_tok("after", src), *toks[k:b]]
    out[-hit[0] - 1] = Token("the", toks[k].start, toks[k].end)
    return end - i


def _going_from(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """ "going from the dog bed to the dresser(,) don't ..." -> "on the way from ..."."""
    if words[i] not in _GOING or words[i + 1:i + 2] != ["from"] or \
            not (i == 0 or words[i - 1] in _OPEN) or \
            "to" not in words[i + 2:i + 10] or "," in words[i + 2:words.index("to", i + 2)]:
        return 0
    src = toks[i:i + 1]
    out += [_tok(w, src) for w in ("on", "the", "way")]
    return 1


def _last_stop(words: list[str], end: int) -> list[str] | None:
    """The words of the thing named last before ``end`` as a stop, not as the place of
    another thing or the thing of a rule ("round the dog bed in the living room": "dog
    bed")."""
    k = end - 1
    while k >= 0:
        hit = None
        for a in range(max(0, k - 2), k + 1):  # a head ending at k
            h = _hit(words, a)
            if h is not None and a + h[0] == k + 1 and h[1] != "room":
                hit = (a, h)
                break
        if hit is None:
            k -= 1
            continue
        a, h = hit
        d = a - 1
        while d >= 0 and (words[d] in _ORD or words[d] in (*_LAST, "the", "a", "an", "that",
                                                           "big", "small", "other")):
            d -= 1
        if d < 0 or words[d] not in _MOD_PREPS:
            return words[a:k + 1]
        k = a - 1
    return None


def _after_that(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """ "and after that keep away from X" -> "and after the STOP keep away from X"."""
    n = _seq(words, i, _AFTER_THAT)
    if not n or not (i == 0 or words[i - 1] in _OPEN):
        return 0
    k = i + n + (words[i + n:i + n + 1] == [","])
    while k < len(words) and words[k] in ("please", "also", "just", "oh"):
        k += 1
    if k >= len(words) or words[k] not in _RULE_WORDS:
        return 0
    stop = _last_stop(words, i)
    if stop is None:
        return 0
    src = toks[i:i + n]
    out += [_tok(w, src) for w in ("after", "the", *stop)]
    return n


def _arrive(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """ "once you get to the R", "when you reach that room" -> "once you are in ...": the
    room's own scope, read whether a comma follows it or not."""
    if words[i] not in ("once", "when", "after") or words[i + 1:i + 2] != ["you"]:
        return 0
    n = _seq(words, i + 2, _ARRIVE)
    k = i + 2 + n
    if not n or words[k:k + 1] not in (["the"], ["that"], ["this"]) or \
            not any(_room_at(words, j) or words[j] == "room" for j in range(k + 1, k + 4)
                    if j < len(words)):
        return 0
    c = k + 1
    while c < min(len(words), k + 8) and words[c] not in (",", *_ENDS, *_RULE_WORDS):
        c += 1
    c += words[c:c + 1] == [","]
    if words[c:c + 1] == [] or words[c] not in _RULE_WORDS:
        return 0  # "tell me when you get to the kitchen": no rule scoped
    src = toks[i:k]
    out += [_tok(w, src) for w in ("once", "you", "are", "in")]
    return k - i


def _been_to(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """ "after you've been to the teddy bear, steer clear of X" -> "after the teddy bear, ..."
    (the route after that stop, not a second stop at it)."""
    if words[i] not in ("after", "once", "when") or words[i + 1:i + 2] != ["you"]:
        return 0
    n = _seq(words, i + 2, _BEEN)
    k = i + 2 + n
    if not n or words[k:k + 1] not in (["the"], ["that"]):
        return 0
    hit = _hit(words, k + 1)
    if hit is None or hit[2] == "room":
        return 0
    c = k + 1 + hit[0]
    while c < min(len(words), k + 10) and words[c] not in (",", *_ENDS):
        c += 1
    d = c + 1
    while d < len(words) and words[d] in ("please", "also", "just", "oh", "then"):
        d += 1
    if words[c:c + 1] != [","] or d >= len(words) or words[d] not in _RULE_WORDS:
        return 0
    src = toks[i:k]
    out.append(_tok("after", src))
    return k - i


def _and_scope(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """ ", and after the X, keep away from Y" -> ". after the X, keep away from Y": a scope
    opened after "and" mid-sentence was read as a further stop at X."""
    if words[i] != "and" or not out or out[-1].text != "," or \
            words[i + 1:i + 2] not in (["after"], ["once"], ["when"]):
        return 0
    c = i + 2
    while c < min(len(words), i + 14) and words[c] not in (",", *_ENDS, "and", "then"):
        c += 1
    d = c + 1
    while d < len(words) and words[d] in ("please", "also", "just", "oh"):
        d += 1
    if words[c:c + 1] != [","] or d >= len(words) or words[d] not in _RULE_WORDS:
        return 0
    comma = out.pop()
    out.append(Token(".", comma.start, toks[i].end))
    return 1


def _whole(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    n = _seq(words, i, _WHOLE)
    if not n:
        return 0
    src = toks[i:i + n]
    out += [_tok(w, src) for w in ("the", "whole", "way")]
    return n


def _whilst(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """"whilst" is "while"."""
    if words[i] != "whilst":
        return 0
    out.append(Token("while", toks[i].start, toks[i].end))
    return 1


_RULES = (_whilst, _and_scope, _stop_range, _ordinal_bit, _out_of, _leave_for, _going_from, _whole, _after_that,
          _arrive, _been_to, _room_pointer, _thing_named_room)


def anaphoric_scopes(toks: list[Token]) -> list[Token]:
    """Rewrite the pointing scopes of the module docstring onto the forms the parser reads."""
    words = [t.text for t in toks]
    return scan_appending(toks, words, _RULES)
