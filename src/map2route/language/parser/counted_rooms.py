"""Rooms picked by counting along the route, among rooms of one kind said before: one form.

People say how many rooms of a kind the walk crosses, then pick one of them by its place in
that count, and scope a rule, a stop or a pass to it. The intro, the pick and what it scopes
vary on their own axes, and each is normalised here onto the one form the later passes read
(:mod:`.route_order_scopes` and :mod:`.leg_phrasings`: "you will go through two bedrooms on
the way" as context, "in the second bedroom you pass through , RULE" as a ranked scope room):

* the intro: "You'll pass three bedrooms to get there", "You have to cross two bathrooms",
  "On the way you'll pass through a couple of bedrooms", "you will go through two bedrooms
  on way" -> "you will go through two|three bedrooms on the way" (the room word and its count
  are kept for the picks after it; "a couple of" is two);
* the pick after an intro: "in the second one", "in the second of those", "in second one",
  "in that second bedroom", "once you're in the second one", "when you reach the second of
  those" -> "in the second bedroom you pass through"; "the last one" is the count said ("the
  last of two bedrooms" is the second), so it is read only after a count ("a few bedrooms"
  leaves "last" unread, refused later by name);
* with no intro, the pick says the walk itself: "when you get to the second bedroom" ->
  "in the second bedroom you pass through";
* a stop in that room, said after the destination ("Go to the armchair. ... In the second
  one, stop at the dresser for a moment") is a stop on the way there: -> "on the way , stop
  at the dresser in the second bedroom you pass through ..." (the form that puts a stop
  before the goal said before it); "only go through it (, don't stop)" -> "on the way , go
  through the ORDINAL ROOM you pass through" (a pass before that goal).

Refused by name: "the last ROOM you go through" with no count said (the grounder's route
order counts from the start: which room is last is known only with the count); a pick among rooms counted without their kind ("You'll pass through three
rooms to get there. In the first of those, ..."): the route order the grounder has counts
rooms of one kind (``kth_along_route`` of a room type), so which room "the first of those" is
cannot be checked; the message asks for the kind ("the first living room you go through").

Hand-written like the rest of the parser: the intro and pick shapes are closed (a subject and
modal, a verb of passing, a count, a room word; a preposition, an ordinal, "one" or "of
those"); every word is kept with its span, moved, or reported as context, and a shape that
does not match exactly is left as typed for the later passes to read or refuse.
"""

from __future__ import annotations

from map2route.language.errors import ParseError
from map2route.language.inflection import singular_word
from map2route.language.parser.destination_tokens import Context, take
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["counted_rooms"]

_ENDS = frozenset({".", "!", "?", ";"})
#: What a sentence part may open with before the intro or the pick.
_OPENS = frozenset({*_ENDS, ",", ":", "-", "and", "then", "so", "but", "also", "plus", "ok",
                    "okay", "right", "now"})
_FILLERS = frozenset({"um", "uh", "er", "erm", "uhm"})
#: Subject and modal of a forecast of the walk ("you'll", "you have to", "you will need to").
_SUBJECTS = (("you", "will", "have", "to"), ("you", "will", "need", "to"),
             ("you", "are", "going", "to"), ("you", "have", "to"), ("you", "need", "to"),
             ("you", "must"), ("you", "will"), ("you", "are", "gonna"), ("u", "will"),
             ("u", "have", "to"))
#: Verbs of passing with the particle they need (None: none needed).
_PASS_VERBS = {"go": ("through", "thru"), "walk": ("through", "thru"),
               "cut": ("through", "thru"), "get": ("through", "thru"),
               "pass": ("through", "thru", None), "cross": (None,), "traverse": (None,),
               "move": ("through", "thru"), "roll": ("through", "thru")}
_COUNTS = {"two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4,
             "4th": 4}
_ORDINAL_WORDS = {1: "first", 2: "second", 3: "third", 4: "fourth"}
_LAST = frozenset({"last", "final"})
_TAILS = (("on", "the", "way", "there"), ("on", "your", "way", "there"), ("on", "the", "way"),
          ("on", "your", "way"), ("on", "way"), ("along", "the", "way"),
          ("to", "get", "there"), ("to", "get", "to", "it"))
#: What opens a pick: "in", or "when/once/while you are in", "when you reach|get to|get into".
_OPENERS = (("once", "you", "are", "in"), ("when", "you", "are", "in"),
            ("while", "you", "are", "in"), ("once", "you", "get", "into"),
            ("when", "you", "get", "into"), ("once", "you", "get", "to"),
            ("when", "you", "get", "to"), ("once", "you", "reach"), ("when", "you", "reach"),
            ("once", "in"), ("in",), ("inside",))
_OF_THOSE = (("of", "those"), ("of", "them"), ("of", "these"), ("one",))
#: A stop said in the picked room ("stop at the dresser", "wait by the sink").
_STOPS = (("stop", "at"), ("stop", "by"), ("stop", "beside"), ("stop", "next", "to"),
          ("wait", "at"), ("wait", "by"), ("pause", "at"), ("pause", "by"))
#: Words of a clause that places a room on the walk ("you walk into", "on the way").
_ROUTE_CLAUSE = frozenset({"you", "u", "will", "are", "go", "walk", "pass", "come", "get",
                           "through", "thru", "into", "in", "to", "on", "the", "way", "along",
                           "cross", "enter", "reach", "hit"})
_ONLY_THROUGH = (("only", "go", "through", "it"), ("just", "go", "through", "it"))
#: "don't stop" said after "only go through it": the same pass, said again.
_NO_STOP = ((",", "do", "not", "stop"), (",", "not", "stop"), (",", "no", "stop"),
            (",", "no", "stopping"), (",", "without", "stopping"), ("without", "stopping"),
            ("and", "do", "not", "stop"))


def _t(text: str, like: Token) -> Token:
    return Token(text, like.start, like.end)


def _at(words: list[str], k: int, seqs: tuple[tuple[str, ...], ...]) -> int:
    for s in seqs:
        if tuple(words[k:k + len(s)]) == s:
            return len(s)
    return 0


def _room(words: list[str], k: int) -> tuple[int, str, bool] | None:
    """A room word at ``k``: its length, its singular words, whether it is a room of a kind
    (not "room" itself)."""
    lex = head_lexicon()
    hit = lex.match(words[k:k + lex.max_len])
    if hit is None or hit[2] != "room":
        return None
    said = words[k:k + hit[0]]
    return hit[0], " ".join([*said[:-1], singular_word(said[-1])]), hit[1] != "room"


class _Intro:
    """The rooms an intro counted: their room word (singular), the count ("a couple of" is
    two; a vague "a few" makes no intro), whether they are of a kind, and the words said."""

    def __init__(self, room: str, count: int, typed: bool, said: str) -> None:
        self.room, self.count, self.typed, self.said = room, count, typed, said


def _intro(toks: list[Token], words: list[str], k: int, out: list[Token],
           ctx: Context) -> tuple[int, _Intro] | None:
    """"[on (the) way (,)] you'll VERB [through] COUNT ROOMs [TAIL]" at ``k``: how the walk
    runs, reported as context (it is no stage); the count is kept for the picks after it. A
    filler before it, and the sentence end or "and" after it when the words before it end
    the same way, go with it ("... desk and um you'll go through two bedrooms and um in the
    first one ..." reads "... desk and in the first one ...")."""
    if k and words[k - 1] not in _OPENS and words[k - 1] not in _FILLERS:
        return None
    lead = _at(words, k, (("on", "the", "way"), ("on", "way"), ("on", "your", "way")))
    s = k + lead + (1 if lead and words[k + lead:k + lead + 1] == [","] else 0)
    n = _at(words, s, _SUBJECTS)
    if not n:
        return None
    v = s + n
    parts = _PASS_VERBS.get(words[v]) if v < len(words) else None
    if parts is None:
        return None
    c = v + 1
    if c < len(words) and words[c] in [p for p in parts if p]:
        c += 1
    elif None not in parts:
        return None
    count: int
    if words[c:c + 3] == ["a", "couple", "of"] or words[c:c + 2] == ["couple", "of"]:
        count, r = 2, c + (3 if words[c] == "a" else 2)
    elif c < len(words) and words[c] in _COUNTS:
        count, r = _COUNTS[words[c]], c + 1
    else:
        return None
    room = _room(words, r)
    if room is None or not words[r + room[0] - 1].endswith("s"):
        return None
    e = r + room[0]
    tail = _at(words, e, _TAILS)
    if tail and words[e + tail:e + tail + 1] == ["to"] and tail == 3:
        tail = 0  # "on the way to the kitchen": the leg is said, left to the later passes
    end = e + tail
    _filler_before(out, ctx)
    take(toks, k, end, ctx)
    said = " ".join(t.text for t in toks[k:end])
    if end < len(words) and (not out or out[-1].text in _ENDS) and words[end] in _ENDS:
        end += 1  # the intro's own sentence: its full stop goes with it
    elif out and out[-1].text == "and" and words[end:end + 1] == ["and"]:
        end += 1
    return end, _Intro(room[1], count, room[2], said)


def _pick(words: list[str], k: int, intro: _Intro | None
          ) -> tuple[int, int, int, int, int] | None:
    """A pick at ``k``: (length of its opener, the ordinal, where its room word starts and
    ends, where the pick ends), or None; an ordinal 0 is "last" with no count said. After an
    intro: "(the|that) ORD (one|of those|ROOM)" and ESL "ORD one"; with none: "when you get
    to|reach the ORD ROOM", and "in the ORD ROOM on the way|you walk into|you pass ," (read
    by the later passes already; taken here so that a stop or "only go through it" after it,
    or a filler before it, is read too)."""
    o = _at(words, k, _OPENERS)
    if not o:
        return None
    d = k + o
    det = 1 if words[d:d + 1] in (["the"], ["that"]) else 0
    w = words[d + det] if d + det < len(words) else ""
    if w in _ORDINALS:
        nth = _ORDINALS[w]
    elif w in _LAST and intro is not None:
        nth = intro.count
    elif w in _LAST and intro is None:
        nth = 0  # no count said: refused by the caller, if the pick's shape is whole
    else:
        return None
    a = d + det + 1
    if intro is not None:
        tail = _at(words, a, _OF_THOSE)
        room = _room(words, a) if not tail else None
        if not tail and (room is None or room[1] != intro.room and room[2]):
            return None
        e = a + (tail or (room[0] if room else 0))
        return o, nth, a, e, e
    if det and words[d] != "the":
        return None
    room = _room(words, a)
    if room is None or not room[2]:
        return None
    if o >= 3:  # "when you get to the second bedroom"
        return o, nth, a, a + room[0], a + room[0]
    # "in the first bedroom on the way|you walk into|you pass ," (read already; taken here so
    # that a stop or "only go through it" after it, or a filler before it, is read too)
    e = a + room[0]
    c = e
    while c < len(words) and c - e < 6 and words[c] in _ROUTE_CLAUSE:
        c += 1
    return (o, nth, a, e, c) if c > e and words[c:c + 1] == [","] else None


def _filler_before(out: list[Token], ctx: Context) -> None:
    """"and um in the second one": the filler between "and" and the pick is context (left in,
    it hides the scope from the later passes)."""
    while out and out[-1].text in _FILLERS:
        ctx.append((out[-1].text, (out[-1].start, out[-1].end)))
        out.pop()


def _goal_before(words: list[str], k: int) -> bool:
    """Whether a stop was asked for before ``k`` ("go to the X", "head for the X"): the
    picked room is on the way there. A heading ("make your way toward the bedrooms") is no
    stop: a stop said after it is the first stop, not one on the way."""
    return any(words[i] in ("to", "for", "into") and i + 1 < k and
               words[i + 1] not in ("get", "be", "see", "check", "do", "make") and
               any(w in _MOVES for w in words[max(0, i - 4):i]) for i in range(k))


_MOVES = frozenset({"go", "head", "get", "take", "make", "walk", "come", "move", "drive"})


def _thing_end(words: list[str], k: int) -> int:
    """End of "(the|a) THING" at ``k`` (``k`` when none)."""
    det = 1 if words[k:k + 1] in (["the"], ["a"], ["that"]) else 0
    lex = head_lexicon()
    hit = lex.match(words[k + det:k + det + lex.max_len])
    return k + det + hit[0] if hit is not None and hit[2] != "room" else k


def counted_rooms(toks: list[Token]) -> tuple[list[Token], Context]:
    """Rewrite the intros and picks of the module docstring; returns the tokens and what was
    taken out as context.

    Raises:
        ParseError: a pick among rooms counted without their kind ("three rooms").
    """
    words = [t.text for t in toks]
    out: list[Token] = []
    ctx: Context = []
    intro: _Intro | None = None
    k = 0
    while k < len(toks):
        got = _intro(toks, words, k, out, ctx)
        if got is not None:
            k, intro = got
            continue
        opens = k == 0 or words[k - 1] in _OPENS or words[k - 1] in _FILLERS
        pick = _pick(words, k, intro) if opens else None
        if pick is None:
            out.append(toks[k])
            k += 1
            continue
        o, nth, a_room, e_room, e = pick
        if not nth:
            a, b = toks[k + o].start, toks[e_room - 1].end
            span = " ".join(t.text for t in toks[k + o:e_room])
            raise ParseError(
                f"did not understand {span!r}: the last of the rooms the walk passes is "
                "known only once their number is, and the route order the grounder has "
                "counts from the start; say which one it is (e.g. 'the second bedroom you go "
                "through', or 'you'll go through two bedrooms ... in the last one'), or use "
                "the hybrid or llm grounder", span, (a, b))
        if intro is not None and not intro.typed:
            a, b = toks[k + o].start, toks[e - 1].end
            span = " ".join(t.text for t in toks[k + o:e])
            raise ParseError(
                f"did not understand {span!r}: it counts among rooms said without their kind "
                f"({intro.said!r}), and the route order the grounder has counts rooms of one "
                "kind; say which room it is (e.g. 'the first living room you go through'), "
                "or use the hybrid or llm grounder", span, (a, b))
        # the room word: the intro's, or the one the pick says ("when you get to the second
        # bedroom")
        room = intro.room if intro is not None else " ".join(words[a_room:e_room])
        head = toks[k + o:e_room]
        # the opener ("once you're in", "when you reach") is read as "in", over its words
        at = Token("in", toks[k].start, toks[k + o - 1].end)
        _filler_before(out, ctx)
        said = [_t("the", head[0]), _t(_ORDINAL_WORDS[nth], toks[a_room - 1]),
                *(_t(x, head[-1]) for x in room.split())]
        # "you pass through" over the clause that said so ("you walk into", "on the way")
        clause = toks[e_room:e] or [head[-1]]
        said += [Token(x, clause[0].start, clause[-1].end) for x in ("you", "pass", "through")]
        j = e + (1 if words[e:e + 1] == [","] else 0)
        s = _at(words, j, _STOPS)
        only = _at(words, j, _ONLY_THROUGH)
        if (s or only) and _goal_before(words, k) and (k == 0 or words[k - 1] in _OPENS or
                                                       words[k - 1] in _FILLERS):
            way = [_t(x, at) for x in ("on", "the", "way")] + [_t(",", toks[e - 1])]
            if s:  # a stop in the room: on the way, stop at THING in the ROOM
                t_end = _thing_end(words, j + s)
                if t_end > j + s:
                    out += [*way, *toks[j:t_end], at, *said]
                    k = t_end
                    continue
            else:  # "only go through it": a pass through the room on the way
                # "only go through it": the walk through it, the "it" the room said
                last = j + only + _at(words, j + only, _NO_STOP)
                out += [*way, Token("go", toks[j].start, toks[j + 1].end),
                        Token("through", toks[j + 2].start, toks[last - 1].end), *said]
                k = last
                continue
        out += [at, *said]
        out.append(_t(",", toks[e - 1]) if words[e:e + 1] != [","] else toks[e])
        k = e + (1 if words[e:e + 1] == [","] else 0)
    return out, ctx
