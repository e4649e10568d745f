"""The token rewrites of stage 0a (:mod:`.human`), one small rule per human phrasing.

A rule looks at the token at ``i`` of a :class:`Rewriter`; when its phrasing starts there it
appends the rewritten tokens to ``out`` (each carrying the character span of the words it stands
for) and returns where reading goes on; otherwise it returns ``None`` and the next rule is tried.
:data:`.human.RULES` is the order they are tried in: the first that fires wins, and a token
no rule takes is copied. Route-order references and the rules about rooms are in
:mod:`.route_rewrites`. Every rule looks at a bounded window of tokens, so the pass stays linear.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from map2route.language.inflection import singular_word
from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

_LEAVE_VERBS = ("leave", "exit", "are leaving", "leaving", "exiting")
#: "heading out of the kitchen", "get out of the bedroom": a leaving said with "out of".
_OUT_VERBS = ("head", "heading", "go", "going", "get", "getting", "walk", "walking", "move",
              "moving", "come", "coming", "step", "stepping", "drive", "driving")
_BETWEEN_VERBS = ("pass", "walk", "go", "move", "cut", "squeeze", "drive", "travel", "come")
_BETWEEN_GERUNDS = ("passing", "going", "walking", "moving", "cutting", "squeezing")
_COMPARATIVES = ("larger", "bigger", "smaller", "largest", "biggest", "smallest")
_SUPERLATIVES = ("closest", "nearest", "farthest", "furthest")
_LIST_NOUNS = ("places", "stops", "destinations", "locations", "things", "spots", "points",
               "objects", "targets")
_INDEFINITE = ("a", "an", "one", "two", "three", "four", "five", "six", "some", "no")
_ON_IT = (("on", "it"), ("on", "top"), ("in", "it"), ("inside", "it"), ("next", "to", "it"))
_LIST_BEFORE = (":", ",", ".", ";", "and")
#: Verbs of having that a coordinated list may follow ("that contains a desk and a TV").
_HAVING = ("containing", "contains", "contain", "has", "have", "holding", "holds", "having")


@dataclass
class Marks:
    """What a rewrite leaves for after the parse (:func:`.human.apply_marks`), each keyed by
    the start character of the reference it concerns."""

    #: Rooms of "not in a bedroom".
    negated_rooms: set[int] = field(default_factory=set)
    #: Coordinated ``with`` items that belong to one head.
    with_groups: list[list[int]] = field(default_factory=list)
    #: Geometry targets: "midpoint" or "corner".
    points: dict[int, str] = field(default_factory=dict)
    #: Route-order references: the ordinal along the route ("the second bedroom you enter": 2;
    #: 0 for "the room just before X": the room next to X reached first).
    route_order: dict[int, int] = field(default_factory=dict)
    #: Route-order references said with a verb of meeting ("the plant you pass"): a stop at
    #: one right after a goal ("walk to the sofa and stop at the plant you pass") is on the way
    #: to that goal.
    passed: set[int] = field(default_factory=set)
    #: Sets visited one by one in order of distance ("the two garbage cans in order from
    #: farthest to nearest"): (``nearest`` or ``farthest``, how many; 0: all).
    ordered: dict[int, tuple[str, int]] = field(default_factory=dict)
    #: References with nothing on or in them ("a bed with nothing on it").
    empty: set[int] = field(default_factory=set)
    #: References that must differ from every earlier one of their head ("three different
    #: bedrooms").
    different: set[int] = field(default_factory=set)
    #: References to the route's destination: "named" ("the target room": the room the route
    #: ends in) or "bare" ("the destination": where it ends).
    target: dict[int, str] = field(default_factory=dict)
    #: Legs named by the stop they lead to ("on the way to the second stop"): the ordinal of
    #: that goal stage (-1: the last), keyed by the start of the "on the way" words.
    stage_legs: dict[int, int] = field(default_factory=dict)
    #: Picks from a set said just before ("Of the two, go to the bed ..."), keyed by the
    #: start of the pick's clause: its goal is in the room goal said before.
    set_picks: set[int] = field(default_factory=set)
    #: Negated relations other than rooms ("the chair that is not under a table").
    negated: set[int] = field(default_factory=set)
    #: The discourse moves taken out of the route or attached to a head (:mod:`.moves`):
    #: ``{"move", "text", "about"}`` each, in reading order.
    moves: list[dict[str, str]] = field(default_factory=list)
    #: Words read as another phrasing of the same meaning (:mod:`.constraint_frames`):
    #: ``{"text": said, "as": read}`` each, in reading order.
    said_as: list[dict[str, str]] = field(default_factory=list)


@dataclass
class Rewriter:
    """One rewrite pass over ``toks``: the rules append to ``out`` and note ``marks``."""

    toks: list[Token]
    marks: Marks
    out: list[Token] = field(default_factory=list)
    list_items: int = 0
    in_list: bool = False
    #: A "connected to X" was read; its "through a door" tail is part of it.
    connected: bool = False
    #: A list announced by a count ("Three stops, please:") was read; its items are said with
    #: ordinals.
    announced: bool = False
    #: Words a rule took out of the route that the parse reports as context (asides, states,
    #: a scene said inside a sentence), each with its character span.
    context: list[tuple[str, tuple[int, int]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.words = [t.text for t in self.toks]

    def w(self, k: int) -> str:
        return self.words[k] if 0 <= k < len(self.words) else ""

    def at(self, k: int, *seq: str) -> bool:
        return tuple(self.words[k:k + len(seq)]) == seq

    def sentence_end(self, k: int) -> int:
        """Index of the end mark (".", "!", "?", ";") of the sentence holding ``k``, or the
        token count."""
        while k < len(self.words) and self.words[k] not in (".", "!", "?", ";"):
            k += 1
        return k

    def new(self, text: str, like: Token) -> Token:
        return Token(text, like.start, like.end)

    def emit(self, *texts: str, like: Token) -> None:
        self.out.extend(Token(text, like.start, like.end) for text in texts)

    def head_at(self, k: int) -> int:
        """Length of the head word(s) at ``k`` (0 if none)."""
        hit = head_lexicon().match(self.words[k:k + head_lexicon().max_len])
        return hit[0] if hit is not None else 0

    def run(self, rules: tuple[Rule, ...]) -> list[Token]:
        """Apply ``rules`` (the first that fires at a token wins) over the tokens."""
        i = 0
        while i < len(self.toks):
            for rule in rules:
                nxt = rule(self, i)
                if nxt is not None:
                    i = nxt
                    break
            else:
                self.out.append(self.toks[i])
                i += 1
        return self.out


#: A rewrite rule: the index reading goes on at when it fired, else None.
Rule = Callable[[Rewriter, int], "int | None"]


# --- several destinations -----------------------------------------------------------------
def list_header(rw: Rewriter, i: int) -> int | None:
    """"Visit three places in order: 1. the fridge, 2. the sofa": the header is dropped."""
    j = i + 1 + (rw.at(i + 1, "the", "following"))
    nxt = rw.w(j)
    counted = nxt in W.NUMBERS or nxt.isdigit() or nxt in ("these", "following")
    # "visit these in order:", "visit the following in order:": the noun may go unsaid
    bare = nxt in ("these", "following") and rw.w(j + 1) in ("in", ":")
    if rw.w(i) not in W.MOVE_VERBS | {"visit"} or not counted or (
            rw.w(j + 1) not in _LIST_NOUNS and not bare):
        return None
    k = j + 1 + (not bare)
    while rw.w(k) in ("in", "this", "that", "order", "the", "following", "as", "follows"):
        k += 1
    if rw.w(k) != ":":
        return None
    rw.in_list = True
    while rw.out and rw.out[-1].text == "please":
        rw.out.pop()  # "Please visit these in order:": the politeness goes with the header
    return k + 1


def announced_list(rw: Rewriter, i: int) -> int | None:
    """"Three stops, please: first the toaster, second the sink, and last the bat": a list
    announced by a count at the start of a sentence; its items are said with ordinals
    (:func:`ordinal_item`)."""
    if rw.out and rw.out[-1].text not in (".", "!", "?", ";"):
        return None
    if not (rw.w(i) in W.NUMBERS or rw.w(i).isdigit()) or rw.w(i + 1) not in _LIST_NOUNS:
        return None
    k = i + 2
    while rw.w(k) in (",", "please", "in", "this", "that", "order", "to", "visit", "make", "after",
                      "more"):
        k += 1
    if rw.w(k) != ":" or rw.w(k + 1) not in _ITEM_ORDINALS:
        return None
    rw.announced = True
    return k + 1


#: Words that open an item of an announced list ("first the toaster, then the sink").
_ITEM_ORDINALS = (*W.ORDINALS, "last", "lastly", "finally", "then", "next")


def _start_list_item(rw: Rewriter, t: Token) -> None:
    """Replace the separator before a list item with ", then go to" (the first: "go to")."""
    while rw.out and rw.out[-1].text in (",", "and", ";"):
        rw.out.pop()
    if rw.list_items:
        rw.emit(",", "then", like=t)
    rw.emit("go", "to", like=t)
    rw.list_items += 1


def ordinal_item(rw: Rewriter, i: int) -> int | None:
    """An item of an announced list: "first the toaster" -> "go to the toaster", "second the
    sink" -> ", then go to the sink"."""
    if not rw.announced or rw.w(i) not in _ITEM_ORDINALS or \
            rw.w(i + 1) not in ("the", "a", "an") or not (rw.out and rw.out[-1].text in (
                ":", ",", ";", "and")) and rw.list_items:
        return None
    _start_list_item(rw, rw.toks[i])
    return i + 1


def sentence_marker(rw: Rewriter, i: int) -> int | None:
    """"1. Go to the fridge. 2. ...": the marker of a whole sentence is dropped."""
    if rw.w(i).isdigit() and rw.w(i + 1) in (".", ")") and \
            (not rw.out or rw.out[-1].text in _LIST_BEFORE) and rw.w(i + 2) in W.OPENERS:
        return i + 2
    return None


def list_item(rw: Rewriter, i: int) -> int | None:
    """"1. the fridge, 2. the sofa" -> "go to the fridge, then go to the sofa"."""
    if not (rw.w(i).isdigit() and rw.w(i + 1) in (".", ")") and
            (not rw.out or rw.out[-1].text in _LIST_BEFORE or
             (rw.in_list and rw.w(i + 1) == ")"))):
        return None
    _start_list_item(rw, rw.toks[i])
    return i + 2


# --- scopes -------------------------------------------------------------------------------
def leave_scope(rw: Rewriter, i: int) -> int | None:
    """"As you leave the bedroom, ..." / "While still in the kitchen, ..." / "while we're
    (still) in the kitchen" / "(for) as long as you are in the kitchen" -> "while in"."""
    if rw.w(i) == "for" and rw.at(i + 1, "as", "long", "as"):
        k, long = i + 4, True
    elif rw.w(i) == "as" and rw.at(i + 1, "long", "as"):
        k, long = i + 3, True
    elif rw.w(i) in ("as", "when", "while"):
        k, long = i + 1, False
    else:
        return None
    if k + 1 >= len(rw.words):
        return None
    if not long and rw.w(k) == "you" and (rw.w(k + 1) in _LEAVE_VERBS or
                                          rw.at(k + 1, "are", "leaving")):
        rw.emit("while", "in", like=rw.toks[i])
        while rw.w(k) in ("you", "are", "leave", "leaving", "exit", "exiting"):
            k += 1
        return k
    # "when you're heading out of the kitchen", "as you get out of the bedroom": leaving
    out = k + 1 + (rw.w(k + 1) == "are")
    if not long and rw.w(k) == "you" and rw.w(out) in _OUT_VERBS and \
            rw.at(out + 1, "out", "of") and rw.w(out + 3) in ("the", "this", "that"):
        rw.emit("while", "in", like=rw.toks[i])
        return out + 3
    m = k
    if rw.w(m) in ("you", "we"):
        if rw.w(m + 1) != "are":
            return None
        m += 2
    m += 1 if rw.w(m) == "still" else 0
    if m == k or rw.w(m) not in ("in", "inside"):
        return None
    rw.emit("while", "in", like=rw.toks[i])
    return m + 1


_THROUGH_VERBS = ("walking", "going", "moving", "heading", "passing", "crossing", "travelling",
                  "traveling", "cutting", "making")
_THROUGH_VERBS_FINITE = ("walk", "go", "move", "head", "pass", "cross", "travel", "cut", "get",
                         "make", "come")


def while_walking(rw: Rewriter, i: int) -> int | None:
    """"while you're walking through the living room", "while you go through the living
    room", "as you pass through the hall", "when you walk across the kitchen" -> "while in
    the living room" (a spatial scope, never a stage)."""
    if rw.w(i) not in ("while", "as", "when", "whenever") or rw.w(i + 1) != "you":
        return None
    if rw.w(i + 2) == "are" and rw.w(i + 3) in _THROUGH_VERBS:
        k = i + 4
    elif rw.w(i + 2) in _THROUGH_VERBS_FINITE:
        k = i + 3
    else:
        return None
    k += 1 if rw.w(k) == "your" and rw.w(k + 1) == "way" else 0
    k += 1 if rw.w(k) == "way" else 0
    if rw.w(k - 1) in ("cross", "crossing") and rw.w(k) in ("the", "a", "an"):
        rw.emit("while", like=rw.toks[i])  # "when you cross the hall"
        rw.emit("in", like=rw.toks[k - 1])
        return k
    if rw.w(k) not in ("through", "across", "in", "inside"):
        return None
    rw.emit("while", like=rw.toks[i])
    rw.emit("in", like=rw.toks[k])
    return k + 1


# --- one head, several things -------------------------------------------------------------
def _np_at(rw: Rewriter, k: int) -> int:
    """Length of ``[a|an|one|two] HEAD`` at ``k`` (0 if none; a list item may be bare: "a
    toilet, sink and plunger")."""
    det = 1 if rw.w(k) in _INDEFINITE else 0
    size = rw.head_at(k + det)
    if not size and det and rw.w(k + 1).isalpha() and rw.w(k + 1) not in W.OPENERS and \
            head_lexicon().fuzzy(rw.w(k + 1)) is not None:
        size = 1  # "a basketball" (basket ball), read by the parser's fuzzy head match
    return det + size if size else 0


def _coordination(rw: Rewriter, k: int) -> tuple[list[tuple[int, int]], int, int] | None:
    """``a lamp, a book and a vase [on it]`` at ``k``: the item spans, where the shared tail
    ("on it") starts and where it ends; None unless two or more items are joined by
    ``and``/``nor``."""
    n = _np_at(rw, k)
    if not n:
        return None
    items = [(k, k + n)]
    j = k + n
    while j < len(rw.words) and rw.w(j) in (",", "and", "nor"):
        sep = 2 if rw.at(j, ",", "and") else 1
        n = _np_at(rw, j + sep)
        if not n:
            break
        items.append((j + sep, j + sep + n))
        last = rw.w(j + sep - 1) in ("and", "nor")
        j = j + sep + n
        if last:
            break
    if len(items) < 2 or rw.w(items[-1][0] - 1) not in ("and", "nor"):
        return None
    tail = next((len(t) for t in _ON_IT if rw.at(j, *t)), 0)
    return items, j, j + tail


def coordination(rw: Rewriter, i: int) -> int | None:
    """"a table with a lamp, a book and a vase on it": one table with three things on it;
    "that has neither a desk nor a teddy bear": with no desk and with no teddy bear; "that
    contains both a desk and a TV": with a desk and with a TV."""
    w = rw.w(i)
    neither = w == "neither"
    having = w in _HAVING
    if w not in ("with", "without") and not neither and not having:
        return None
    start = i + 1 + (1 if having and rw.w(i + 1) == "both" else 0)
    co = _coordination(rw, start)
    if co is None:
        return None
    items, tail_a, tail_b = co
    if having:
        # "the bedroom that contains both a bat and a TV stand": "with" each of them
        w = "with"
        while rw.out and rw.out[-1].text in ("that", "which"):
            rw.out.pop()
    if neither:
        while rw.out and rw.out[-1].text in ("has", "have", "that", "which", "with"):
            rw.out.pop()
    group: list[int] = []
    for n_item, (a, b) in enumerate(items):
        if n_item:
            rw.emit("and", like=rw.toks[a - 1])
        # each "with" takes its item's span, so the parse can be regrouped
        rw.emit("without" if w == "without" else "with", like=rw.toks[a])
        group.append(rw.toks[a].start)
        if neither:
            rw.emit("no", like=rw.toks[i])
            rw.out.extend(rw.toks[a + 1:b])
        else:
            rw.out.extend(rw.toks[a:b])
        rw.out.extend(rw.toks[tail_a:tail_b])
    rw.marks.with_groups.append(group)
    return tail_b


def same_room(rw: Rewriter, i: int) -> int | None:
    """"in the same room as (both) the bear and the desk" -> "in the room with a bear and
    with a desk"."""
    if rw.w(i) != "in" or not rw.at(i + 1, "the", "same", "room", "as"):
        return None
    k = i + 5 + (1 if rw.w(i + 5) == "both" else 0)
    items: list[tuple[int, int]] = []
    while k < len(rw.words):
        det = 1 if rw.w(k) in ("the", "a", "an") else 0
        size = rw.head_at(k + det)
        if not size:
            break
        items.append((k + det, k + det + size))
        k += det + size
        if rw.w(k) not in (",", "and"):
            break
        k += 2 if rw.at(k, ",", "and") else 1
    if not items or rw.w(k) in ("and", ","):
        return None
    rw.out.append(rw.toks[i])
    rw.emit("the", like=rw.toks[i + 1])
    rw.emit("room", like=rw.toks[i + 3])
    group = []
    for n_item, (a, b) in enumerate(items):
        if n_item:
            rw.emit("and", like=rw.toks[a - 1])
        rw.emit("with", "a", like=rw.toks[a])
        rw.out.extend(rw.toks[a:b])
        group.append(rw.toks[a].start)
    rw.marks.with_groups.append(group)
    return k


# --- geometry targets ---------------------------------------------------------------------
def midpoint(rw: Rewriter, i: int) -> int | None:
    """"the midpoint between X and Y", "(the point) halfway between X and Y" -> "the area
    between X and Y", made a midpoint after the parse."""
    w = rw.w(i)
    k = i + (1 if w == "the" else 0)
    k += 1 if rw.w(k) in ("point", "spot") else 0
    if (rw.w(k), rw.w(k + 1)) in (("midpoint", "between"), ("halfway", "between"),
                                   ("midway", "between"), ("middle", "between")):
        k += 2
    elif w == "the" and rw.w(k) in ("centre", "center") and rw.at(k + 1, "point", "between"):
        k += 3
    else:
        return None
    rw.emit("the", like=rw.toks[i])
    rw.emit("area", "between", like=rw.toks[k - 1])
    rw.marks.points[rw.toks[i].start] = "midpoint"
    return k


def corner(rw: Rewriter, i: int) -> int | None:
    """"the corner of the kitchen farthest from the door" -> "the kitchen farthest from the
    door", made a corner after the parse."""
    if rw.w(i) != "the" or rw.w(i + 1) != "corner" or rw.w(i + 2) not in ("of", "in"):
        return None
    rw.marks.points[rw.toks[i].start] = "corner"
    rw.out.append(rw.toks[i])
    return i + 3 + (1 if rw.w(i + 3) == "the" else 0)


# --- stages said the human way ------------------------------------------------------------
def then_to(rw: Rewriter, i: int) -> int | None:
    """"go through the doorway and then to the statue": "then to X" is a new goal."""
    if rw.w(i) == "then" and rw.w(i + 1) == "to" and rw.w(i - 1) in ("and", ","):
        rw.out.append(rw.toks[i])
        rw.emit("go", like=rw.toks[i])
        return i + 1
    return None


def stand_next_to(rw: Rewriter, i: int) -> int | None:
    """"and stand next to the toilet" -> "and go to the toilet"."""
    if rw.w(i) in ("stand", "wait", "stay", "stop") and rw.w(i - 1) in ("and", ",", "then") \
            and (rw.at(i + 1, "next", "to") or rw.w(i + 1) in ("by", "beside")) and \
            not (rw.w(i - 1) == "and" and rw.w(i - 2) in _GO_AND):  # go_and_stand's
        rw.emit("go", "to", like=rw.toks[i])
        return i + (3 if rw.w(i + 1) == "next" else 2)
    return None


def _sentence_opens_with(words: list[str], i: int, first: tuple[str, ...]) -> bool:
    """Whether the sentence holding token ``i`` opens with one of ``first``."""
    k = i
    while k > 0 and words[k - 1] not in (".", "!", "?", ";"):
        k -= 1
    return words[k] in first


def find_and_go_there(rw: Rewriter, i: int) -> int | None:
    """"find the plant in the kitchen and go there": one stage, not a second "it"."""
    if rw.w(i) != "and" or rw.w(i + 1) not in ("go", "walk", "head"):
        return None
    there = rw.at(i + 2, "there")
    if not there and not rw.at(i + 2, "to", "it"):
        return None
    after = i + 3 if there else i + 4
    if rw.w(after) not in ("", ".", "!") or \
            not _sentence_opens_with(rw.words, i, ("find", "locate", "look")):
        return None
    return after


def nearby(rw: Rewriter, i: int) -> int | None:
    """"There is a plunger nearby" (after naming a place): near that place."""
    if rw.w(i) == "nearby" and _sentence_opens_with(rw.words, i, ("there",)):
        rw.emit("near", "it", like=rw.toks[i])
        return i + 1
    return None


def go_and_stand(rw: Rewriter, i: int) -> int | None:
    """"go and stand in the middle between ..." / "go and wait by the sink": one stage."""
    if rw.w(i) in ("stand", "stop", "wait") and i > 1 and rw.w(i - 1) == "and" and \
            rw.w(i - 2) in _GO_AND and \
            (rw.w(i + 1) in ("in", "at", "by", "beside", "near") or rw.at(i + 1, "next", "to")):
        rw.out.pop()  # the "and"
        rw.emit("to", like=rw.toks[i + 1])
        return i + (3 if rw.w(i + 1) == "next" else 2)
    return None


#: Motion verbs of "go and stand by X" (one stage: the place X).
_GO_AND = ("go", "come", "walk")


#: Second verbs of a serial "go stand", "come sit": the place after them is the stage ("go
#: see X" / "go visit X" are read as they are: "see X" is a stage).
_SERIAL_STAY = ("stand", "sit", "wait", "stop", "stay", "rest")
_SERIAL_PREPS = ("in", "at", "by", "beside", "near", "on", "inside", "under")


def serial_verb(rw: Rewriter, i: int) -> int | None:
    """"go stand halfway between X and Y", "come sit on the sofa", "go wait by the door": a
    serial verb, one stage -> "go to ..."."""
    if rw.w(i) not in ("go", "come") or rw.w(i + 1) not in _SERIAL_STAY:
        return None
    k = i + 2
    if rw.at(k, "next", "to"):
        k += 2
    elif rw.w(k) in _SERIAL_PREPS:
        k += 1
    elif rw.w(k) not in ("halfway", "midway", "between"):
        return None
    rw.emit("go", like=rw.toks[i])
    rw.emit("to", like=rw.toks[i + 1])
    return k


# --- negated relative clauses -------------------------------------------------------------
def not_in_room(rw: Rewriter, i: int) -> int | None:
    """"the plant that is not in a bedroom": in_room, negated after the parse."""
    if rw.w(i) not in ("that", "which") or rw.w(i + 1) not in ("is", "are") or \
            not rw.at(i + 2, "not", "in") or i + 4 >= len(rw.words):
        return None
    k = i + 4 + (1 if rw.w(i + 4) in ("a", "an", "the", "any") else 0)
    if k >= len(rw.words):
        return None
    rw.marks.negated_rooms.update((rw.toks[i + 4].start, rw.toks[k].start))
    rw.emit("in", like=rw.toks[i + 3])
    return i + 4


#: "that is not under a table": the relation the parser reads, negated after the parse. A thing
#: under a table has its footprint inside the table's, so "under" reads as "next to".
_NEGATED_PREPS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("next", "to"), ("next", "to")), (("close", "to"), ("near",)), (("under",), ("next", "to")),
    (("beneath",), ("next", "to")), (("beside",), ("next", "to")), (("on",), ("on",)),
    (("near",), ("near",)), (("by",), ("near",)))


def not_relation(rw: Rewriter, i: int) -> int | None:
    """"the chair that is not near the bed" / "that is not on a table" / "that is not under a
    table": the relation, negated after the parse."""
    if rw.w(i) not in ("that", "which") or rw.w(i + 1) not in ("is", "are") or \
            rw.w(i + 2) != "not":
        return None
    hit = next(((said, read) for said, read in _NEGATED_PREPS if rw.at(i + 3, *said)), None)
    if hit is None:
        return None
    det = i + 3 + len(hit[0])
    if rw.w(det) not in ("a", "an", "the", "any") or not rw.head_at(det + 1):
        return None
    rw.marks.negated.add(rw.toks[i + 3].start)
    rw.emit(*hit[1], like=rw.toks[i + 3])
    return det


def does_not_have(rw: Rewriter, i: int) -> int | None:
    """"the bedroom that does not have a desk" -> "without a desk"."""
    if rw.w(i) in ("that", "which") and rw.w(i + 1) in ("does", "do") and \
            rw.w(i + 2) == "not" and rw.w(i + 3) in ("have", "contain", "include", "hold"):
        rw.emit("without", like=rw.toks[i])
        return i + 4
    return None


def has_no(rw: Rewriter, i: int) -> int | None:
    """"the bedroom that has no desk" -> "without a desk"."""
    if rw.w(i) in ("that", "which") and rw.w(i + 1) in ("has", "have") and rw.w(i + 2) == "no":
        rw.emit("without", like=rw.toks[i])
        rw.emit("a", like=rw.toks[i + 2])
        return i + 3
    return None


#: Verbs of having a negated list may follow with "no" ("that has no lamp or plant").
_HAVING_NO = ("has", "have", "having", "contains", "contain", "containing", "holds", "hold",
              "holding", "with")
#: Verbs after "does not" that negate a whole list ("that does not have a lamp or a plant").
_NOT_HAVING = ("have", "contain", "include", "hold")
#: Verbs that negate a whole list by themselves ("that lacks a lamp and a plant").
_LACKING = ("lacks", "lack", "lacking")
_LIST_SEPS = ((",", "and"), (",", "or"), (",", "nor"), ("and",), ("or",), ("nor",), (",",))


def _negated_opener(rw: Rewriter, i: int) -> tuple[int, bool] | None:
    """Where the items of a negated list of contents start after the opener at ``i``, and
    whether the opener is the determiner "no" (each item then says "no", or the list ends in
    "or"/"nor"); None when no such opener is at ``i``."""
    rel = rw.w(i) in ("that", "which")
    k = i + (1 if rel else 0)
    w = rw.w(k)
    if w == "without":
        return k + 1, False
    if w in _LACKING and (rel or w == "lacking"):
        return k + 1, False
    if rel and w in ("does", "do") and rw.w(k + 1) == "not" and rw.w(k + 2) in _NOT_HAVING:
        return k + 3, False
    if w in _HAVING_NO and (rel or w in ("with", "having", "containing", "holding")):
        if rw.w(k + 1) == "neither":
            return k + 2, False
        if rw.w(k + 1) == "no":
            return k + 1, True
    return None


def _negated_items(rw: Rewriter, k: int, no_det: bool) -> tuple[list[tuple[int, int, int]], int]:
    """The items ``(start, head start, head end)`` of a negated list at ``k`` and where it
    ends: "no lamp, no plant and no vase", "a lamp or a plant", "a lamp nor a plant", "a lamp
    and without a plant"."""
    items: list[tuple[int, int, int]] = []
    seps: list[str] = []
    j = k
    while True:
        det = 1 if rw.w(j) in ("a", "an", "any", "no") else 0
        size = rw.head_at(j + det)
        if not size or (no_det and not items and rw.w(j) != "no"):
            break
        items.append((j, j + det, j + det + size))
        end = j + det + size
        sep = next((t for t in _LIST_SEPS if rw.at(end, *t)), None)
        if sep is None:
            break
        nxt = end + len(sep)
        if rw.w(nxt) == "without" or rw.at(nxt, "with", "no"):
            nxt += 1  # "... and without a plant", "... and with no plant"
        det = 1 if rw.w(nxt) in ("a", "an", "any", "no") else 0
        if not rw.head_at(nxt + det) or (sep == (",",) and rw.w(nxt) in ("a", "an")):
            break
        seps.append(sep[-1])
        j = nxt
    if len(items) < 2 and not (items and rw.w(k - 1) in _LACKING):
        return [], k  # one item: "without a desk", "that has no desk" are read as they are
    if seps and seps[-1] == ",":
        return [], k
    if no_det and seps[-1] == "and" and any(rw.w(a) != "no" for a, _, _ in items):
        return [], k  # "that has no desk and a lamp": the lamp is not negated
    for tail in (("in", "it"), ("inside", "it"), ("in", "there"), ("inside",)):
        if rw.at(end, *tail):
            return items, end + len(tail)
    return items, end


def negated_list(rw: Rewriter, i: int) -> int | None:
    """"the bathroom that has no candle and no garbage can", "with no desk, lamp or bed",
    "without a candle or a garbage can", "that does not have a desk or a lamp", "that has
    neither a desk nor a lamp", "that lacks a desk and a lamp": each item is negated ->
    "with no candle and with no garbage can" (one head: :attr:`Marks.with_groups`)."""
    opened = _negated_opener(rw, i)
    if opened is None:
        return None
    items, end = _negated_items(rw, *opened)
    if not items:
        return None
    group: list[int] = []
    for n_item, (a, h, b) in enumerate(items):
        if n_item:
            rw.emit("and", like=rw.toks[a - 1])
        rw.emit("with", "no", like=rw.toks[a])
        group.append(rw.toks[a].start)
        rw.out.extend(rw.toks[h:b])
    rw.marks.with_groups.append(group)
    return end


# --- between-avoidance --------------------------------------------------------------------
def dont_pass_between(rw: Rewriter, i: int) -> int | None:
    """"don't pass between the sofa and the TV" -> "avoid the area between ..." ("squeeze in
    between": the same)."""
    gap = 3 if rw.w(i + 2) == "in" else 2
    if rw.w(i) in ("not", "never") and rw.w(i + 1) in _BETWEEN_VERBS and \
            rw.w(i + gap) == "between":
        while rw.out and rw.out[-1].text in ("do", "please"):
            rw.out.pop()
        rw.emit("avoid", "the", "area", like=rw.toks[i])
        return i + gap
    return None


def without_passing_between(rw: Rewriter, i: int) -> int | None:
    """"without passing between the fridge and the counter" -> ", avoiding the area
    between ..."; "avoid passing between ..." -> "avoid the area between ..."."""
    if rw.w(i) not in ("without", "avoid") or rw.w(i + 1) not in _BETWEEN_GERUNDS or \
            rw.w(i + 2) != "between":
        return None
    if rw.w(i) == "without":
        rw.emit(",", "avoiding", like=rw.toks[i])
    else:
        rw.out.append(rw.toks[i])
    rw.emit("the", "area", like=rw.toks[i + 1])
    return i + 2


# --- partitives ---------------------------------------------------------------------------
def partitive(rw: Rewriter, i: int) -> int | None:
    """"the second of the two chairs closest to X" -> "the second closest chair to X"; "the
    larger of the two bathrooms" -> "the larger bathroom"."""
    first = rw.w(i + 1)
    if rw.w(i) != "the" or i + 3 >= len(rw.words) or \
            not (first in W.ORDINALS or first in _COMPARATIVES):
        return None
    if first in _COMPARATIVES and rw.w(i + 2) in ("of", "from") and \
            rw.w(i + 3) in ("them", "those", "these", "both"):
        # "the bigger of them", "the bigger from them": the one of a set said before
        rw.out.extend([rw.toks[i], rw.toks[i + 1]])
        rw.emit("one", like=rw.toks[i + 3])
        return i + 4
    if not rw.at(i + 2, "of", "the") and not rw.at(i + 2, "from", "the"):
        return None
    k = i + 4 + (1 if rw.w(i + 4) in W.NUMBERS or rw.w(i + 4) in ("both", "two") else 0)
    if k >= len(rw.words):
        return None
    n = max(rw.head_at(k), 1)  # "the bigger of the two living rooms": a name of two words
    if n > 1 and first in _COMPARATIVES:
        rw.out.extend([rw.toks[i], rw.toks[i + 1], *rw.toks[k:k + n - 1]])
        rw.out.append(rw.new(singular_word(rw.w(k + n - 1)), rw.toks[k + n - 1]))
        return k + n
    head = rw.new(singular_word(rw.w(k)), rw.toks[k])
    if first in W.ORDINALS and rw.w(k + 1) in _SUPERLATIVES:
        rw.out.extend([rw.toks[i], rw.toks[i + 1], rw.toks[k + 1], head])
        if rw.w(k + 2) not in ("to", "from") and rw.head_at(k + 2 + (rw.w(k + 2) in (
                "the", "a", "an"))):
            # "the second of the paintings nearest the armchair": "nearest (to) X"
            far = rw.w(k + 1) in ("farthest", "furthest")
            rw.emit("from" if far else "to", like=rw.toks[k + 1])
        return k + 2
    if first in _COMPARATIVES:
        rw.out.extend([rw.toks[i], rw.toks[i + 1], head])
        return k + 1
    return None


def shortest_distance(rw: Rewriter, i: int) -> int | None:
    """"the TV with the shortest (straight-line) distance to the sink" -> "the TV closest to
    the sink"; "the longest distance from" -> "farthest from"."""
    if rw.w(i) not in ("with", "at", "having") or rw.w(i + 1) != "the" or \
            rw.w(i + 2) not in ("shortest", "smallest", "longest", "largest", "greatest"):
        return None
    k = i + 3
    k += 2 if rw.at(k, "straight", "line") else 1 if rw.w(k) == "euclidean" else 0
    if rw.w(k) != "distance" or rw.w(k + 1) not in ("to", "from"):
        return None
    near = rw.w(i + 2) in ("shortest", "smallest")
    rw.emit("closest" if near else "farthest", "to" if near else "from", like=rw.toks[i + 2])
    return k + 2


def _owner_starts(rw: Rewriter) -> tuple[int, ...]:
    """Start characters the reference the tokens written last may begin at (its determiner
    and the word after it: a goal may leave its "a" out), looking back at most five tokens."""
    for back in range(2, min(len(rw.out), 6) + 1):
        if rw.out[-back].text in ("the", "a", "an", "any"):
            return rw.out[-back].start, rw.out[-back + 1].start
    return ()


def nothing_on_it(rw: Rewriter, i: int) -> int | None:
    """"a bed with nothing on it", "the dresser that has nothing on it": no object stands on
    or in it (marked on the reference; the phrase is consumed)."""
    k = i + (1 if rw.w(i) in ("that", "which") else 0)
    if rw.w(k) not in ("with", "has", "have", "having") or rw.w(k + 1) != "nothing" or \
            rw.w(k + 2) not in ("on", "in", "inside") or rw.w(k + 3) not in ("it", "top"):
        return None
    end = k + 4 + (2 if rw.at(k + 3, "top", "of", "it") else 0)
    starts = _owner_starts(rw)
    if not starts or rw.w(end) in ("and", "or", "nor", "but", "except"):
        return None  # "with nothing on it and no lamp nearby": more than this rule reads
    rw.marks.empty.update(starts)
    return end
