"""Rules scoped by an event of the route said with a motion verb or a condition.

People scope a rule by what the robot is doing when it holds, in their own verbs, where the
parser reads only a few fixed scope phrases ("while going through the R", "while you are in
the R", "after the X"):

* passing through a room, said as an event or a condition: "if you come in through the living
  room, don't ...", "when you cut thru the lounge ...", "if you go through the kitchen",
  "each time you walk across the hall", "as you come through the kitchen" -> "while going
  through the R" (the rule holds in that room); "the one with X" there is the room type named
  last ("the living room with a window ... when you go through the one with the armchair");
* entering or being in a room: "as you come into the bathroom", "when you get in to the
  kitchen", "as you enter the bedroom", "on entering the living room", "all the time you are
  in that room" -> "while you are in the R";
* coming (back) out of a room: "as you come back out of the bathroom", "once you've come out
  of the kitchen", "when you get out of the bedroom" -> "after the X", X the stop made in that
  room (the stop said to be in it, else the one stop whose thing stands only in such a room:
  the toilet in the bathroom); where no such stop was made the words are left to the parser,
  which reads them in the room left, as the sets do;
* leaving a stop on the way to the next one: "once you've left the armchair and you're heading
  to the stool, ..." -> "after the armchair" (the next stop, already named, is not a second
  place of the rule; heading to a room is left to the parser, as it may say the stop's room);
* a bare "as you go through" after a rule: the room the rule names ("give the kitchen table a
  wide berth as you go through": the kitchen), refused where it names none or several;
* leaving a stop: "when you leave the corner keep away from X" -> "once you leave the corner"
  (the route after that stop);
* a room scope said with "on the way": "In (the) bedroom on the way, do not go close to the
  bed" -> "In the bedroom, ..." (the rule holds in that room, which the route passes);
* "while you're in there" where no room was named before (only a stop, "the same room as the
  basketball"): the rule's room cannot be placed, so the parse is refused naming those words
  rather than read over the whole route.

Each is read only where a rule follows it in the same sentence (a rule word: "keep", "don't",
"give", "avoid", ...), so "if you go through the kitchen, go to the fridge" stays a condition
the parser reads (or refuses) as before. Tokens are replaced by tokens that keep the character
spans of the words they stand for, so a later refusal still points into the original text. The
verbs and leads are a closed list, so this is written by hand like the rest of the parser.
"""

from __future__ import annotations

from map2route.language.errors import ParseError
from map2route.language.parser.anaphoric_scopes import _hit, _last_room, _room_at, _room_thing
from map2route.language.parser.room_stops import entered_stop
from map2route.language.parser.rule_scan import scan_appending
from map2route.language.tokens import Token

__all__ = ["event_scopes"]

_ENDS = frozenset({".", "!", "?", ";"})
_LEADS = (("if",), ("when",), ("whenever",), ("as",), ("while",), ("once",), ("each", "time"),
          ("every", "time"), ("any", "time"), ("if", "ever"))
_YOU = frozenset({"you", "u", "ya"})
#: Words between "you" and the verb: "if you do go", "when you have to go", "if you happen to".
_AUX = (("do",), ("ever",), ("have", "to"), ("happen", "to"), ("end", "up"), ("are",),
        ("have",), ("need", "to"), ("should",))
_MOVE = frozenset({"come", "go", "walk", "pass", "cut", "head", "roll", "drive", "get", "move",
                   "coming", "going", "walking", "passing", "cutting", "heading", "rolling",
                   "driving", "getting", "moving", "went", "came", "cross", "crossing",
                   "step", "stepping", "make", "making"})
_THROUGH = frozenset({"through", "thru", "via", "across"})
_INTO = (("into",), ("in", "to"), ("inside",))
#: The time spent in a room: "all the time you are in that room".
_ALL_TIME = (("all", "the", "time", "you", "are", "in"), ("all", "time", "you", "are", "in"),
             ("the", "whole", "time", "you", "are", "in"), ("as", "long", "as", "you", "are",
                                                          "in"),
             ("for", "as", "long", "as", "you", "are", "in"))
_ENTER = frozenset({"enter", "entering", "enters"})
_OUT = (("out", "of"), ("back", "out", "of"))
_DETS = frozenset({"the", "that", "this", "your"})
#: Words that open the rule the event scopes.
_RULE = frozenset({"keep", "stay", "avoid", "give", "steer", "do", "don't", "dont", "never",
                   "try", "mind", "watch", "hug", "stick", "be", "please", "pls", "remain",
                   "leave", "go", "slow", "careful", "make", "no"})
#: Things that stand in one type of room only (the stop "in the bathroom" without saying so).
_ONLY_IN = {"toilet": "bathroom", "bathtub": "bathroom", "shower": "bathroom",
            "toilet_paper": "bathroom", "plunger": "bathroom", "fridge": "kitchen",
            "microwave": "kitchen", "stove_burner": "kitchen", "toaster": "kitchen",
            "coffee_machine": "kitchen", "kettle": "kitchen", "bed": "bedroom"}
#: Words of a scene sentence ("you're starting at the toilet"): its thing is no stop.
_SCENE = frozenset({"start", "starting", "started", "sat", "sitting", "standing", "am", "are",
                    "stood", "from"})
_GOING = frozenset({"heading", "going", "walking", "moving", "making", "on", "off", "travelling"})


def _tok(word: str, like: list[Token]) -> Token:
    return Token(word, like[0].start, like[-1].end)


def _seq(words: list[str], k: int, seqs: tuple[tuple[str, ...], ...]) -> int:
    return max((len(s) for s in seqs if tuple(words[k:k + len(s)]) == s), default=0)


def _rule_follows(words: list[str], k: int, *, before: bool) -> bool:
    """Whether a rule follows ``k`` in its sentence (its first word, after an optional comma or
    "then"), or, with ``before``, the sentence ends at ``k`` after a rule ("don't go near the
    TV when you come through the lounge")."""
    b = k
    while b < len(words) and b < k + 10 and words[b] not in _ENDS:
        if words[b] in _RULE and (b == k or words[b - 1] in (",", "then", "-", "and")):
            return True
        b += 1
    if before and (k >= len(words) or words[k] in _ENDS):
        a = k - 1
        while a >= 0 and words[a] not in _ENDS:
            if words[a] in _RULE:
                return True
            a -= 1
    return False


def _room_end(words: list[str], k: int) -> int:
    """End of "the R" / "that R" / "that room" at ``k`` (0 if none)."""
    if words[k:k + 1] == [] or words[k] not in _DETS:
        return 0
    n = _room_at(words, k + 1)
    if n:
        return k + 1 + n
    if words[k] in ("that", "this") and words[k + 1:k + 2] == ["room"] and \
            _last_room(words, k) is not None:  # "that room": the room named last, if any
        return k + 2
    return 0


def _lead(words: list[str], i: int) -> int:
    """Length of a lead and its "you" (and helper words) at ``i``: "if you", "when u do"."""
    if i and words[i - 1] not in (_ENDS | {",", "and", "but", "so", "then", "-", "also",
                                           "oh", "just", "please", "pls", "(", ":"}):
        return 0
    n = _seq(words, i, _LEADS)
    if not n or words[i + n:i + n + 1] == [] or words[i + n] not in _YOU:
        return 0
    n += 1
    return n + _seq(words, i + n, _AUX)


def _through(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """ "if you come in through the living room, don't ..." -> "while going through ..."."""
    n = _lead(words, i)
    k = i + n
    if not n or words[k:k + 1] == [] or words[k] not in _MOVE:
        return 0
    k += 1
    if words[k - 1] not in ("cross", "crossing"):
        k += words[k:k + 1] in (["in"], ["back"], ["on"], ["right"], ["straight"])
        if words[k:k + 1] == [] or words[k] not in _THROUGH:
            return 0
        k += 1
    if words[k:k + 2] in (["the", "one"], ["that", "one"]):
        # "the living room with a window ... when you go through the one with the armchair"
        room = _last_room(words, i)
        if room is None or not _rule_follows(words, k + 2, before=False):
            return 0
        src = toks[i:k + 2]
        out += [_tok(w, src) for w in ("while", "going", "through", "the", *room)]
        return k + 2 - i
    end = _room_end(words, k)
    if not end or not _rule_follows(words, end, before=words[i] != "if"):
        return 0
    src = toks[i:k]
    out += [_tok(w, src) for w in ("while", "going", "through")]
    return k - i


def _into(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """ "as you come into the bathroom, keep ..." / "on entering the R" -> "while you are in"."""
    if words[i] in ("on", "upon") and words[i + 1:i + 2] == ["entering"]:
        k = i + 2
    elif _seq(words, i, _ALL_TIME):
        k = i + _seq(words, i, _ALL_TIME)
    else:
        n = _lead(words, i)
        k = i + n
        if not n or words[k:k + 1] == []:
            return 0
        if words[k] in _ENTER:
            k += 1
        elif words[k] in _MOVE and _seq(words, k + 1, _INTO):
            k += 1 + _seq(words, k + 1, _INTO)
        else:
            return 0
    end = _room_end(words, k)
    if not end or not _rule_follows(words, end, before=True):
        return 0
    src = toks[i:k]
    out += [_tok(w, src) for w in ("while", "you", "are", "in")]
    return k - i


def _stop_in(words: list[str], room: list[str], end: int) -> list[str] | None:
    """The words of the stop made in ``room`` before ``end``: the thing said to be in it, else
    the one thing named before that stands only in such a room."""
    said = _room_thing(words, room, end) or entered_stop(words, room, end, _hit)
    if said is not None:
        return said
    found: list[list[str]] = []
    k = 0
    while k < end:
        kind = _hit(words, k)
        if kind is None:
            k += 1
            continue
        if kind[2] == "object" and _ONLY_IN.get(kind[1]) == "_".join(room) and \
                not _SCENE & set(words[max(0, k - 5):k]):
            found.append(words[k:k + kind[0]])
        k += kind[0]
    return found[0] if len({tuple(f) for f in found}) == 1 else None


def _out_of(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """ "as you come back out of the bathroom, keep ..." -> "after the toilet"."""
    n = _lead(words, i)
    k = i + n
    if not n or words[k:k + 1] == [] or words[k] not in _MOVE:
        return 0
    o = _seq(words, k + 1, _OUT)
    if not o:
        return 0
    k += 1 + o
    end = _room_end(words, k)
    if not end or words[k] not in ("the", "that", "this") or \
            not _rule_follows(words, end, before=False):
        return 0
    room = words[k + 1:end]
    stop = _stop_in(words, room, i) if room != ["room"] else None
    src = toks[i:end]
    if stop is None:  # no stop made there: "as you get out of the R" is read in the R
        return 0
    out += [_tok(w, src) for w in ("after", "the", *stop, "in", "the", *room)]
    return end - i


def _left_heading(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """ "once you've left the X and you're heading to the Y, <rule>" -> "after the X"."""
    n = _lead(words, i)
    k = i + n
    if not n or words[k - 1] not in ("have", "you", "u") or words[k:k + 1] != ["left"]:
        return 0
    k += 1
    if words[k:k + 1] != ["the"]:
        return 0
    thing = _hit(words, k + 1)
    if thing is None or thing[2] not in ("object", "group"):
        return 0
    b = k + 1 + thing[0]
    if words[b:b + 1] != ["and"] or words[b + 1:b + 2] == [] or words[b + 1] not in _YOU:
        return 0
    c = b + 2 + (words[b + 2:b + 3] == ["are"])
    if words[c:c + 1] == [] or words[c] not in _GOING:
        return 0
    c += 1
    c += _seq(words, c, (("your", "way"), ("off",)))
    if words[c:c + 1] == [] or words[c] not in ("to", "for", "towards", "toward", "over"):
        return 0
    c += 1 + (words[c + 1:c + 2] in (["to"], ["the"]))
    c += words[c:c + 1] == ["the"]
    to = _hit(words, c)
    # only a thing named before (the next stop itself): a room ("heading to the kitchen") may
    # be the only place the next stop's room is said, and is left for the parser to read
    if to is None or to[2] == "room" or not _said_before(words, words[c:c + to[0]], i):
        return 0
    end = c + to[0]
    if not _rule_follows(words, end, before=False):
        return 0
    src = toks[i:end]
    out += [_tok("after", src), _tok("the", src), *toks[k + 1:b]]
    return end - i


def _said_before(words: list[str], name: list[str], end: int) -> bool:
    n = len(name)
    return any(words[k:k + n] == name for k in range(0, end - n + 1))


_THERE = (("while", "you", "are", "in", "there"), ("when", "you", "are", "in", "there"),
          ("whenever", "you", "are", "in", "there"), ("while", "in", "there"),
          ("while", "you", "are", "inside", "there"), ("when", "in", "there"),
          ("while", "u", "are", "in", "there"), ("while", "ur", "in", "there"),
          ("while", "youre", "in", "there"),
          ("all", "the", "time", "you", "are", "in", "there"))


def _unplaced_there(words: list[str], toks: list[Token]) -> None:
    """Refuse "while you're in there" when no room was named before it."""
    for i in range(len(words)):
        n = _seq(words, i, _THERE)
        if n and not any(_room_at(words, k) for k in range(i)):
            a, b = toks[i].start, toks[i + n - 1].end
            span = " ".join(words[i:i + n])
            raise ParseError(
                f"did not understand the room of {span!r}: no room was named before it, so the "
                "offline parser cannot place the rule's room; name the room ('while you are in "
                "the bedroom'), or use the hybrid or llm grounder", span, (a, b))


def _room_word(words: list[str], k: int) -> int:
    """Length of a room word at ``k``, also as the first word of a thing ("the kitchen
    table": the kitchen)."""
    for n in (2, 1):
        hit = _hit(words[:k + n], k)
        if hit is not None and hit[0] == n and hit[2] == "room" and hit[1] != "room":
            return n
    return 0


def _bare_through(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """ "give the kitchen table a wide berth as you go through" (no room after the verb) ->
    "... while going through the kitchen", the room said in the rule; refused where the rule
    names none, rather than read over the whole route."""
    if words[i] not in ("as", "when", "while", "whenever") or words[i + 1:i + 2] == [] or \
            words[i + 1] not in _YOU:
        return 0
    k = i + 2
    if words[k:k + 1] == [] or words[k] not in _MOVE:
        return 0
    k += 1
    if words[k:k + 1] == [] or words[k] not in _THROUGH or \
            not (k + 1 >= len(words) or words[k + 1] in (_ENDS | {",", "and", "-"})):
        return 0
    a = i - 1
    while a >= 0 and words[a] not in _ENDS:
        a -= 1
    rule = [b for b in range(a + 1, i) if words[b] in _RULE]
    if not rule:
        return 0
    rooms = [(b, _room_word(words, b)) for b in range(rule[-1], i) if _room_word(words, b)]
    span = " ".join(words[i:k + 1])
    if len({tuple(words[b:b + n]) for b, n in rooms}) != 1:
        raise ParseError(
            f"did not understand which room {span!r} means: the rule names no one room, so the "
            "offline parser cannot place it; name the room ('as you go through the kitchen'), "
            "or use the hybrid or llm grounder", span, (toks[i].start, toks[k].end))
    b, n = rooms[0]
    src = toks[i:k + 1]
    out += [_tok(w, src) for w in ("while", "going", "through", "the", *words[b:b + n])]
    return k + 1 - i


def _leave_thing(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """ "when you leave the corner keep away from X" -> "once you leave the corner ..." (the
    route after that stop; a room left is read as the sets read it, in that room)."""
    if words[i] not in ("when", "as", "whenever") or words[i + 1:i + 2] == [] or \
            words[i + 1] not in _YOU or words[i + 2:i + 3] not in (["leave"], ["exit"]) or \
            words[i + 3:i + 4] != ["the"]:
        return 0
    hit = _hit(words, i + 4)
    if hit is None or hit[2] not in ("object", "group", "wall", "door"):
        return 0
    b = i + 4 + hit[0]
    if words[b:b + 1] in (["for"], ["to"], ["and"]) or not _rule_follows(words, b, before=False):
        return 0
    src = toks[i:i + 3]
    out += [_tok(w, src) for w in ("once", "you", "leave")]
    return 3


_WAY = (("on", "the", "way"), ("on", "your", "way"), ("along", "the", "way"),
        ("on", "the", "way", "there"), ("on", "your", "way", "there"))


def _in_on_the_way(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """ "In (the) bedroom on the way do not go close to bed" -> "In the bedroom, do not ..."."""
    if words[i] != "in" or (i and words[i - 1] not in _ENDS | {",", "and", "but", "also"}):
        return 0
    k = i + 1 + (words[i + 1:i + 2] == ["the"])
    n = _room_at(words, k)
    if not n:
        return 0
    room = words[k:k + n]
    b = k + n + (words[k + n:k + n + 1] == [","])
    w = _seq(words, b, _WAY)
    if not w:
        return 0
    end = b + w + (words[b + w:b + w + 1] == [","])
    if not _rule_follows(words, end, before=False):
        return 0
    src = toks[i:end]
    out += [_tok(w, src) for w in ("in", "the", *room, ",")]
    return end - i


_RULES = (_left_heading, _leave_thing, _out_of, _into, _through, _bare_through, _in_on_the_way)


def event_scopes(toks: list[Token]) -> list[Token]:
    """Rewrite the event scopes of the module docstring onto the scope phrases the parser
    reads."""
    words = [t.text.lower() for t in toks]
    _unplaced_there(words, toks)
    return scan_appending(toks, words, _RULES)
