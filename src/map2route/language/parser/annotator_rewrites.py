"""Token rewrites of stage 0a (:mod:`.human`) for the annotator register of sets J and K.

People annotating a route for a benchmark write "Visit the following in this order: 1) ...",
"walk through the first bedroom without stopping", "only then go to ...", "do not go into the
kitchen at any point", "stay away from the dog bed itself", "once you are inside the bathroom,
...", "while you are in there" a sentence after the room was named, "do not pass between the
table and the TV stand in that room", "the bedroom whose dining table has a plant on it", "the
basketball lying on the floor of the bedroom", "the bedroom you enter from that living room",
"but not next to a bed" and "when you are done, come back"; people talking to a home robot
(set K) say "then you're done.", "head back to wherever you started", "stop somewhere about
halfway between", "swing by X", "go past X", "keep going to X". Each rule rewrites the window onto
a phrasing the parser already reads, keeping character spans (see :mod:`.rewrites`); what it
cannot rewrite is left as it is, so the parser still refuses it by name.
"""

from __future__ import annotations

import re

from map2route.language.inflection import singular_word
from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.model import Clause, Modifier
from map2route.language.parser.rewrites import _NEGATED_PREPS, Rewriter, Rule

_ENDS = (".", "!", "?", ";")
_DETS = ("the", "a", "an", "that", "this")


def _room_at(rw: Rewriter, k: int) -> int:
    """Length of a room head (not the bare word "room") at ``k``; 0 if none."""
    hit = head_lexicon().match(rw.words[k:k + head_lexicon().max_len])
    return hit[0] if hit is not None and hit[2] == "room" and hit[1] != "room" else 0


def _sentence_open(rw: Rewriter, i: int) -> int:
    """Index of the first token of the sentence holding ``i``."""
    k = i
    while k > 0 and rw.w(k - 1) not in _ENDS:
        k -= 1
    return k


def _splice(rw: Rewriter, a: int, b: int, words: list[str]) -> None:
    """Replace input tokens ``a:b`` by ``words`` (spanning token ``b - 1``), so that the other
    rules read the rewritten words (a rule that returns ``i`` after this is tried again)."""
    like = rw.toks[b - 1]
    rw.toks[a:b] = [rw.new(w, like) for w in words]
    rw.words[a:b] = list(words)


# --- "when you are done, come back": the end of the errands, not a place -----------------
_WHENS = (("when",), ("once",), ("after",), ("as", "soon", "as"), ("now", "that"))
_DONE = (("you", "are", "done"), ("you", "are", "finished"), ("you", "have", "finished"),
         ("you", "are", "through"), ("you", "finish"), ("you", "have", "done", "that"),
         ("done",), ("finished",))
_DONE_TAILS = (("here",), ("there",), ("with", "that"), ("with", "this"), ("with", "it"),
               ("with", "all", "that"), ("with", "those"), ("with", "all", "of", "that"))


def _longest(rw: Rewriter, k: int, options: tuple[tuple[str, ...], ...]) -> int:
    return max((len(o) for o in options if rw.at(k, *o)), default=0)


_DONE_SENTENCES = (("then", "you", "are", "done"), ("then", "you", "are", "finished"),
                   ("and", "then", "you", "are", "done"), ("and", "you", "are", "done"),
                   ("that", "is", "it"), ("that", "is", "all"), ("then", "we", "are", "done"),
                   ("and", "that", "is", "it"), ("you", "are", "done"))


def done_sentence(rw: Rewriter, i: int) -> int | None:
    """"... third the big sofa. Then you're done." / "..., and that's it.": the end of the
    list said again; nothing to do."""
    n = _longest(rw, i, _DONE_SENTENCES)
    if not n or rw.w(i + n) not in ("", *_ENDS) or not rw.out:
        return None
    if rw.out[-1].text == ",":
        rw.out.pop()
    elif rw.out[-1].text not in _ENDS:
        return None
    return i + n + (1 if rw.out and rw.out[-1].text in _ENDS and rw.w(i + n) else 0)


def done_clause(rw: Rewriter, i: int) -> int | None:
    """"When you are done, come back to your starting point." -> "come back ...": being done
    only says that the next step comes last (its order is already the order said)."""
    n = _longest(rw, i, _WHENS)
    m = _longest(rw, i + n, _DONE) if n else 0
    if not m:
        return None
    k = i + n + m
    k += _longest(rw, k, _DONE_TAILS)
    if rw.w(k) == ",":
        k += 1
    nxt = rw.w(k)
    if nxt in ("", *_ENDS) or nxt in ("with", "at", "the"):
        return None
    if rw.out and rw.out[-1].text == "," and rw.w(i - 1) == ",":
        rw.out.pop()
        rw.emit("and", "then", like=rw.toks[i])
    return k


# --- "once you are inside the bathroom, ...": being in a room opens a scope --------------
_INSIDE_OPENERS = (("once",), ("as", "soon", "as"), ("after",), ("when",), ("whenever",),
                   ("while",), ("now", "that"))
_INSIDE = ("inside", "within", "into")


def inside_scope(rw: Rewriter, i: int) -> int | None:
    """"Once you are inside the bathroom, keep away from the plunger" / "as soon as you are in
    the kitchen" / "once you're within the bedroom" -> "when you are in the bathroom"."""
    n = _longest(rw, i, _INSIDE_OPENERS)
    if not n or not rw.at(i + n, "you", "are"):
        return None
    k = i + n + 2
    if rw.w(k) in ("now", "still", "already", "finally"):
        k += 1
    prep = rw.w(k)
    if prep not in (*_INSIDE, "in") or (prep == "in" and rw.w(i) in ("when", "while")):
        return None
    det = 1 if rw.w(k + 1) in _DETS else 0
    if not _room_at(rw, k + 1 + det):
        return None
    rw.emit("when", "you", "are", "in", like=rw.toks[i])
    return k + 1


# --- "while you are in there" a sentence after the room was named ------------------------
_THERE_OPENERS = (("while", "you", "are"), ("when", "you", "are"), ("whenever", "you", "are"),
                  ("once", "you", "are"), ("as", "long", "as", "you", "are"), ("while",),
                  ("when",))
_THERE = (("in", "there"), ("inside", "there"), ("in", "that", "room"),
          ("in", "that", "same", "room"), ("in", "the", "same", "room"), ("in", "this", "room"),
          ("inside", "that", "room"), ("in", "it"), ("inside", "it"))
#: Words that may stand between a room's determiner and the room ("the smaller living room").
_ROOM_ADJ = ("larger", "smaller", "largest", "smallest", "bigger", "biggest", "big", "small",
             "large", "first", "second", "third", "last", "other")
_LOOKBACK = 80


def _room_before(rw: Rewriter, i: int, same_sentence: bool) -> tuple[int, int] | None:
    """Token span of the room named last before ``i`` (with its size or order word and a
    following "with (the|a) X"), within ``_LOOKBACK`` tokens."""
    lo = _sentence_open(rw, i) if same_sentence else max(0, i - _LOOKBACK)
    for k in range(i - 1, lo - 1, -1):
        size = _room_at(rw, k)
        if not size or (k and rw.w(k - 1) in ("living", "dining")):
            continue
        a = k - 1 if k and rw.w(k - 1) in _ROOM_ADJ else k
        b = k + size
        if rw.w(b) == "with" and rw.w(b + 1) in ("the", "a", "an"):
            extra = rw.head_at(b + 2)
            if extra and b + 2 + extra <= i:
                b += 2 + extra
        return a, b
    return None


def there_scope(rw: Rewriter, i: int) -> int | None:
    """"Go around the cart in the smaller living room ... . While you are in there, keep away
    from the TV" -> "while you are in the smaller living room": the room named last before it,
    in an earlier sentence (the same sentence is :func:`.register_rewrites.in_there`'s); left
    as it is (and refused) when no room was named."""
    n = _longest(rw, i, _THERE_OPENERS)
    m = _longest(rw, i + n, _THERE) if n else 0
    if not m or (rw.at(i + n, "in", "it") and rw.w(i + n + 2) not in (",", "keep", "stay")):
        return None
    if _room_before(rw, i, same_sentence=True) and rw.at(i + n, "in", "there"):
        return None
    span = _room_before(rw, i, same_sentence=False)
    if span is None:
        return None
    like = rw.toks[i + n + m - 1]
    rw.out.extend(rw.toks[i:i + n])
    rw.emit("in", "the", like=like)
    rw.out.extend(rw.new(w, like) for w in rw.words[span[0]:span[1]])
    return i + n + m


def between_in_that_room(rw: Rewriter, i: int) -> int | None:
    """"Do not pass between the dining table and the TV stand in that room." -> "... while in
    the bedroom": a gap forbidden in the room named before."""
    m = _longest(rw, i, _THERE)
    if not m or rw.w(i + m) not in ("", *_ENDS, ","):
        return None
    lo = _sentence_open(rw, i)
    if "between" not in rw.words[lo:i] or not any(
            w in ("not", "never", "avoid") for w in rw.words[lo:i]):
        return None
    span = _room_before(rw, lo, same_sentence=False)
    if span is None:
        return None
    rw.emit("while", "in", "the", like=rw.toks[i])
    rw.out.extend(rw.new(w, rw.toks[i + m - 1]) for w in rw.words[span[0]:span[1]])
    return i + m


def wherever(rw: Rewriter, i: int) -> int | None:
    """"head back to wherever you started" -> "to where you started"."""
    if rw.w(i) == "wherever" and rw.w(i + 1) in ("you", "we", "i") and \
            rw.w(i + 2) in ("started", "began", "start", "begin"):
        rw.emit("where", like=rw.toks[i])
        return i + 1
    return None


_ABOUT = (("somewhere", "about"), ("somewhere", "around"), ("somewhere",), ("about",),
          ("roughly",), ("approximately",), ("more", "or", "less"), ("around",), ("just",),
          ("somewhere", "roughly"), ("right",), ("exactly",))


def about_halfway(rw: Rewriter, i: int) -> int | None:
    """"stop somewhere about halfway between X and Y" -> "stop halfway between X and Y" (a
    midpoint is a small area already)."""
    n = _longest(rw, i, _ABOUT)
    if not n or rw.w(i + n) not in ("halfway", "midway") or rw.w(i + n + 1) != "between":
        return None
    return i + n


_BY_VERBS = (("swing", "by"), ("stop", "by"), ("drop", "by"), ("pop", "by"), ("swing", "past"),
             ("pop", "over", "to"), ("swing", "over", "to"), ("drop", "in", "at"))


def swing_by(rw: Rewriter, i: int) -> int | None:
    """"swing by the baseball bat" / "pop over to the fridge" -> "go to" (a visit)."""
    n = _longest(rw, i, _BY_VERBS)
    if not n or rw.w(i + n) not in ("the", "a", "an", "that", "this"):
        return None
    rw.emit("go", like=rw.toks[i])
    rw.emit("to", like=rw.toks[i + n - 1])
    return i + n


# --- lists, stops and orders --------------------------------------------------------------
_FOLLOWING_NOUNS = ("places", "stops", "things", "objects", "locations", "spots", "points",
                    "destinations", "items", "targets")
_ORDER_WORDS = ("in", "this", "that", "the", "order", "given", "exact", "same", "listed",
                "as", "follows", "below", "sequence", "strictly")


def following_header(rw: Rewriter, i: int) -> int | None:
    """"Visit the following in this order: 1) ..." / "Go to the following, in order:" ->
    the header is dropped and the numbered items are the stops."""
    if rw.w(i) not in W.MOVE_VERBS | {"visit"}:
        return None
    k = i + 1 + (1 if rw.w(i + 1) == "to" else 0)
    if not rw.at(k, "the", "following"):
        return None
    k += 2 + (1 if rw.w(k + 2) in _FOLLOWING_NOUNS else 0)
    if rw.w(k) == ",":
        k += 1
    while rw.w(k) in _ORDER_WORDS:
        k += 1
    if rw.w(k) != ":":
        return None
    rw.in_list = True
    return k + 1


_NO_STOP = (("without", "stopping"), ("without", "pausing"), ("without", "halting"),
            ("without", "waiting"), ("but", "do", "not", "stop"), ("but", "without", "stopping"),
            ("and", "do", "not", "stop"), ("but", "never", "stop"), (",", "do", "not", "stop"),
            (",", "but", "do", "not", "stop"), (",", "without", "stopping"))
_NO_STOP_TAILS = ("there", "in", "it", "anywhere", "inside", "at", "all")
_THROUGH = ("through", "across", "past", "via", "by")


def without_stopping(rw: Rewriter, i: int) -> int | None:
    """"walk straight through the first bedroom without stopping" -> "walk through the first
    bedroom": crossing a room already says not to stop in it."""
    n = _longest(rw, i, _NO_STOP)
    if not n or not any(w in _THROUGH for w in rw.words[_sentence_open(rw, i):i]):
        return None
    k = i + n
    while rw.w(k) in _NO_STOP_TAILS and k < i + n + 2:
        k += 1
    if rw.w(k) not in ("", *_ENDS, ",", "and"):
        return None
    if rw.out and rw.out[-1].text == "," and rw.w(k) in (",", "and"):
        rw.out.pop()
    return k


_ONLY_THEN = (("and", "only", "then"), ("only", "then"), ("and", "only", "after", "that"),
              ("only", "after", "that"), ("and", "only", "afterwards"), ("only", "afterwards"))


def only_then(rw: Rewriter, i: int) -> int | None:
    """"Stop at the desk first, and only then go to the box" -> "..., and then go to"."""
    n = _longest(rw, i, _ONLY_THEN)
    if not n:
        return None
    if rw.w(i) == "and":
        rw.out.append(rw.toks[i])
    rw.emit("then" if rw.w(i + n - 1) == "then" else "after" if rw.w(i + n - 2) == "after"
            else "then", like=rw.toks[i + n - 1])
    if rw.w(i + n - 2) == "after":
        rw.emit("that", like=rw.toks[i + n - 1])
    return i + n


_HEADER_VERBS = ("head", "go", "walk", "move", "proceed", "continue", "make")
_HEADER_PREPS = ("for", "to", "toward", "towards", "into")


def rooms_header(rw: Rewriter, i: int) -> int | None:
    """"From there, head for the bedrooms: walk through the first ..., and stop at ... in the
    second one" -> "From there, walk through ...": a colon after a plural room announces the
    steps that follow, which name the rooms again."""
    k = i + (2 if rw.at(i, "make", "your", "way") else 0) + (1 if rw.w(i) == "make" else 0)
    if rw.w(i) not in _HEADER_VERBS or rw.w(k + 1) not in _HEADER_PREPS or \
            rw.w(k + 2) not in ("the", "both", "all"):
        return None
    k += 3 + (1 if rw.at(k + 3, "two") or rw.at(k + 3, "the") else 0)
    size = _room_at(rw, k)
    if not size or not rw.w(k + size - 1).endswith("s") or rw.w(k + size) != ":":
        return None
    return k + size + 1


_STRAIGHT = ("straight", "right", "directly")


def straight_through(rw: Rewriter, i: int) -> int | None:
    """"walk straight through the bedroom" / "go right across the hall" -> "through" (the
    way through is the planner's)."""
    if rw.w(i) in _STRAIGHT and rw.w(i + 1) in ("through", "across", "past") and \
            rw.w(i - 1) in (*_WAYS, *_HEADER_VERBS, "cross", "cut", "run"):
        return i + 1
    return None


_ONE_ORDERS = ("first", "second", "third", "fourth", "last", "other", "next", "final")


def ordinal_one(rw: Rewriter, i: int) -> int | None:
    """"stop at the dog bed in the second one" -> "in the second bedroom": "one" stands for the
    room named last (within ``_LOOKBACK`` tokens); refused as before when none was."""
    if rw.w(i) not in ("in", "into", "through", "inside", "across") or rw.w(i + 1) != "the" or \
            rw.w(i + 2) not in _ONE_ORDERS or rw.w(i + 3) != "one":
        return None
    for k in range(i - 1, max(0, i - _LOOKBACK) - 1, -1):
        size = _room_at(rw, k)
        if size and not (k and rw.w(k - 1) in ("living", "dining")):
            room = [*rw.words[k:k + size - 1], singular_word(rw.w(k + size - 1))]
            _splice(rw, i + 3, i + 4, room)
            return i
    return None


_PAST_VERBS = ("go", "walk", "head", "move", "travel", "run")


def go_past(rw: Rewriter, i: int) -> int | None:
    """"Go past the TV in the living room, then stop at the sofa" -> "go via the TV ...": a
    thing walked past on the way (a ``pass`` stage, as "going past X on the way" is); not
    after a negation ("do not go past X" is a constraint)."""
    k = i + 1 + (1 if rw.w(i + 1) in ("right", "straight") else 0)
    if rw.w(i) not in _PAST_VERBS or rw.w(k) != "past" or \
            rw.w(k + 1) not in ("the", "a", "an", "that", "this"):
        return None
    before = rw.out[-1].text if rw.out else ""
    if before not in ("", *_ENDS, ",", "and", "then", "first", "please", "so", "just"):
        return None
    rw.emit("go", like=rw.toks[i])
    rw.emit("via", like=rw.toks[k])
    return k + 1


_KEEP_GOING = (("keep", "going", "to"), ("keep", "going", "toward"), ("keep", "going", "towards"),
               ("carry", "on", "to"), ("continue", "on", "to"), ("keep", "walking", "to"),
               ("keep", "on", "going", "to"))


def keep_going(rw: Rewriter, i: int) -> int | None:
    """"and keep going to the biggest bed" -> "and go to the biggest bed"."""
    n = _longest(rw, i, _KEEP_GOING)
    if not n:
        return None
    rw.emit("go", like=rw.toks[i])
    rw.emit("to", like=rw.toks[i + n - 1])
    return i + n


_HOUSE = ("house", "home", "apartment", "flat", "place", "scene", "map")
#: Words that open the thing's own description after "in the house" ("the bed in the house
#: with nothing on it"): the description is the thing's, never the house's.
_OWN_TAIL = ("with", "without", "nearest", "closest", "farthest", "furthest", "next", "near",
             "that", "which", "located", "on", "beside", "by")


def in_the_house(rw: Rewriter, i: int) -> int | None:
    """"the biggest bed in the house, which is in the next bedroom" -> "the biggest bed,
    which ...": the whole map is where every thing is, and the relative clause after it is
    the bed's; so is a description right after it ("the bed in the house with nothing on it",
    "the largest side table in the scene"; a bare "in the house" is left: the parser reads it
    as harmless)."""
    k = i + 2 + (1 if rw.w(i + 2) in ("whole", "entire") else 0)
    if rw.w(i) not in ("in", "of") or rw.w(i + 1) != "the" or rw.w(k) not in _HOUSE or \
            not any(x + rw.head_at(x) == i for x in range(max(0, i - 3), i)):
        return None
    rel = k + 1 + (1 if rw.w(k + 1) == "," else 0)
    if (rw.w(rel) not in ("which", "that") or rw.w(rel + 1) not in ("is", "are")) and \
            rw.w(k + 1) not in _OWN_TAIL and not (rw.w(k) in ("scene", "map") and
                                                  rw.w(k + 1) in (".", ",", "")):
        return None
    return k + 1


def comma_which(rw: Rewriter, i: int) -> int | None:
    """"the biggest bed, which is in the next bedroom" -> "the biggest bed which is in ...": a
    relative clause after a comma still says where the thing is."""
    if rw.w(i) != "," or rw.w(i + 1) not in ("which", "that") or \
            rw.w(i + 2) not in ("is", "are") or rw.w(i + 3) not in ("in", "inside", "on"):
        return None
    said = [t.text for t in rw.out[-3:]]
    lex = head_lexicon()
    if not any((hit := lex.match(said[x:])) is not None and hit[0] == len(said) - x
               for x in range(len(said))):
        return None
    return i + 1


# --- how a forbidden place is said ---------------------------------------------------------
_ANY_TIME = (("at", "any", "point"), ("at", "any", "time"), ("at", "any", "stage"),
             ("at", "all"), ("ever",), ("whatsoever",), ("under", "any", "circumstances"),
             ("at", "any", "moment"))
_NEGATIONS = ("not", "never", "avoid", "no")


def at_any_point(rw: Rewriter, i: int) -> int | None:
    """"Do not go into the kitchen at any point" / "never enter the bathroom at all" -> the
    prohibition alone (it holds for the whole route anyway)."""
    n = _longest(rw, i, _ANY_TIME)
    if not n or rw.w(i + n) not in ("", *_ENDS, ",", "and", "during", "while", "on"):
        return None
    if rw.w(i) == "ever" and rw.w(i + n) not in ("", *_ENDS, ","):
        return None
    if not any(w in _NEGATIONS for w in rw.words[_sentence_open(rw, i):i]):
        return None
    return i + n


def itself(rw: Rewriter, i: int) -> int | None:
    """"stay away from the dog bed itself" -> "... the dog bed" ("itself" sets the thing
    apart from its room, which the constraint already does)."""
    if rw.w(i) in ("itself", "themselves") and \
            any(k + rw.head_at(k) == i for k in range(max(0, i - 3), i)):
        return i + 1
    return None


_WAYS = ("keep", "stay", "avoid", "do", "never", "try", "remain", "be", "steer", "go", "walk",
         "move", "pass")


def and_in_room(rw: Rewriter, i: int) -> int | None:
    """"Do not go into the kitchen, and in the bedroom with the dog bed, stay away from the dog
    bed" -> "... kitchen. In the bedroom ...": a second sentence whose room opens a scope (the
    room is not a second place to avoid)."""
    if rw.w(i) != "and" or rw.w(i + 1) not in ("in", "inside", "within"):
        return None
    det = 1 if rw.w(i + 2) in _DETS else 0
    k = i + 2 + det + (1 if rw.w(i + 2 + det) in _ROOM_ADJ else 0)
    size = _room_at(rw, k)
    if not size:
        return None
    k += size
    if rw.w(k) == "with" and rw.w(k + 1) in ("the", "a", "an") and rw.head_at(k + 2):
        k += 2 + rw.head_at(k + 2)
    if rw.w(k) != "," or rw.w(k + 1) not in _WAYS:
        return None
    if rw.out and rw.out[-1].text == ",":
        rw.out.pop()
    rw.emit(".", like=rw.toks[i])
    return i + 1


def comma_in_room(rw: Rewriter, i: int) -> int | None:
    """"Walk to the dining table that has only one chair, in the bedroom with the dog bed." ->
    "... chair in the bedroom ...": a room after a comma that closes the sentence says where
    the thing is (not a second stop: that needs "then" or a verb)."""
    if rw.w(i) != "," or rw.w(i + 1) not in ("in", "inside") or rw.w(i + 2) not in _DETS:
        return None
    k = i + 3 + (1 if rw.w(i + 3) in _ROOM_ADJ else 0)
    size = _room_at(rw, k)
    if not size:
        return None
    k += size
    if rw.w(k) == "with" and rw.w(k + 1) in ("the", "a", "an") and rw.head_at(k + 2):
        k += 2 + rw.head_at(k + 2)
    lo = _sentence_open(rw, i)
    said = rw.words[lo:i]
    if rw.w(k) not in ("", *_ENDS) or not said or said[0] not in W.MOVE_VERBS or \
            any(w in ("and", "then", ",", "or") for w in said) or \
            not any(rw.head_at(x) for x in range(lo + 1, i)):
        return None
    return i + 1


# --- relative clauses -----------------------------------------------------------------------
def whose(rw: Rewriter, i: int) -> int | None:
    """"the bedroom whose dining table has a plant on it" -> "the bedroom with the dining table
    with a plant on it"; "the room whose sofa is next to a window" -> "with the sofa next to a
    window" (the thing's own relation, nested under it)."""
    if rw.w(i) != "whose" or not i or not rw.head_at(i - 1) and not _room_at(rw, i - 1):
        return None
    size = rw.head_at(i + 1)
    verb = rw.w(i + 1 + size)
    if not size or verb not in (*_HAVING, *_BEING):
        return None
    rw.emit("with", "the", like=rw.toks[i])
    rw.out.extend(rw.toks[i + 1:i + 1 + size])
    if verb in _HAVING:
        rw.emit("with", like=rw.toks[i + 1 + size])
    return i + 2 + size


_HAVING = ("has", "have", "holds", "contains", "carries")
_BEING = ("is", "are", "stands", "sits")


#: Words between a determiner and a room ("the *other* living room").
_ADJS = frozenset(W.FILLER_ADJ | set(W.SIZE_ADJ) | set(W.COMPARATIVE) | W.RANK_WORDS)
_LYING = ("lying", "sitting", "resting", "standing", "placed", "left", "laying")


def on_the_floor_of(rw: Rewriter, i: int) -> int | None:
    """"the basketball lying on the floor of the bedroom" -> "the basketball in the bedroom"
    (the floor of a room is in it); a bare "lying on the floor" keeps "on the floor"."""
    k = i + (1 if rw.w(i) in _LYING else 0)
    if not rw.at(k, "on", "the", "floor") or rw.w(k + 3) not in ("of", "in"):
        return None
    det = 1 if rw.w(k + 4) in _DETS else 0
    det += 1 if det and rw.w(k + 4 + det) == "same" else 0
    while rw.w(k + 4 + det) in _ADJS:
        det += 1  # "the other living room", "the long living room"
    if not rw.head_at(k + 4 + det):
        return None
    rw.emit("in", like=rw.toks[k])
    return k + 4


def end_of_room(rw: Rewriter, i: int) -> int | None:
    """"the sofa at the (far) end of the long living room" -> "the sofa in the long living
    room": the end of a room is in it (the end of a table is not: left as it is)."""
    if not rw.at(i, "at", "the"):
        return None
    k = i + 2
    if rw.w(k) in ("far", "other", "back", "front"):
        k += 1
    if rw.w(k) not in ("end", "back") or rw.w(k + 1) != "of" or rw.w(k + 2) not in _DETS:
        return None
    r = k + 3
    while rw.w(r) in _ADJS:
        r += 1
    hit = head_lexicon().match(rw.words[r:r + head_lexicon().max_len])
    if hit is None or hit[2] != "room":
        return None
    rw.emit("in", like=rw.toks[i])
    return k + 2


_ENTER_FROM = (("you", "enter", "from"), ("you", "reach", "from"), ("you", "get", "to", "from"),
               ("you", "come", "to", "from"), ("you", "go", "into", "from"),
               ("you", "can", "enter", "from"), ("you", "walk", "into", "from"),
               ("that", "you", "enter", "from"), ("you", "step", "into", "from"),
               ("you", "can", "get", "to", "from"), ("you", "get", "into", "from"),
               ("you", "can", "get", "into", "from"), ("you", "can", "reach", "from"))


def entered_from(rw: Rewriter, i: int) -> int | None:
    """"the bedroom you enter from that living room" -> "the bedroom connected to that living
    room": a room entered from another is one with a door onto it."""
    if rw.w(i) not in ("the", "a", "that"):
        return None
    k = i + 1 + (1 if rw.w(i + 1) in _ROOM_ADJ else 0)
    size = _room_at(rw, k) or (1 if rw.w(k) == "room" else 0)
    n = _longest(rw, k + size, _ENTER_FROM) if size else 0
    if not n:
        return None
    b = k + size + n
    det = 1 if rw.w(b) in _DETS else 0
    if rw.w(b + det) in _ROOM_ADJ:
        det += 1
    if not _room_at(rw, b + det):
        return None
    rw.out.extend(rw.toks[i:k + size])
    rw.emit("connected", "to", like=rw.toks[b - 1])
    return b


def but_not(rw: Rewriter, i: int) -> int | None:
    """"the garbage can that is in a bedroom but not next to a bed" -> "... in a bedroom and
    next to a bed", the second relation negated after the parse (as "that is not next to")."""
    if rw.w(i) not in ("but", "and") or rw.w(i + 1) != "not":
        return None
    lo = _sentence_open(rw, i)
    rel = next((k for k in range(i - 1, max(lo, i - 12) - 1, -1)
                if rw.w(k) in ("that", "which") and rw.w(k + 1) in ("is", "are")), None)
    if rel is None or "," in rw.words[rel:i]:
        return None
    hit = next(((said, read) for said, read in _NEGATED_PREPS if rw.at(i + 2, *said)), None)
    if hit is None:
        return None
    det = i + 2 + len(hit[0])
    if rw.w(det) not in ("a", "an", "the", "any") or not rw.head_at(det + 1):
        return None
    rw.emit("and", like=rw.toks[i])
    rw.marks.negated.add(rw.toks[i + 2].start)
    rw.emit(*hit[1], like=rw.toks[i + 2])
    return det


# --- after the parse: a room then a point in it ------------------------------------------
def room_then_point(clauses: list[Clause], text: str) -> list[Clause]:
    """"In the smaller living room, stop at the point midway between the cart and the sofa" /
    "Enter the bedroom with the floor lamp and stop midway between the arm chair and the
    basketball": one stage, the midpoint, whose two things are in that room (an ``in_room``
    on each of them, which the grounder reads, and on the point itself)."""
    out: list[Clause] = []
    for c in clauses:
        ref = c.refs[0] if c.kind in ("goal", "circle") and len(c.refs) == 1 else None
        gap = next((m for m in ref.modifiers if m.kind == "between"), None) if ref else None
        circle = c.kind == "circle" and ref is not None and ref.head_kind in ("object", "group")
        if ref is None or not circle and (gap is None or ref.head != "midpoint"):
            out.append(c)
            continue
        rooms = [m for m in ref.modifiers if m.kind == "in_room"]
        prev = out[-1] if out else None
        if not rooms and prev is not None and prev.kind in ("goal", "pass") and \
                len(prev.refs) == 1 and (prev.kind == "goal" or not circle) and \
                prev.refs[0].head_kind == "room" and not prev.refs[0].plural and \
                re.fullmatch(r"[\s,]*and\s*(?:then\s+)?[a-z\s]*",
                             text[prev.span[1]:c.span[0]].lower()):
            room = prev.refs[0]
            rooms = [Modifier("in_room", [room], span=room.span)]
            ref.modifiers.extend(rooms)
            c.span = (prev.span[0], c.span[1])
            out.pop()
        for r in gap.refs if gap is not None and not circle else []:
            if not any(m.kind == "in_room" for m in r.modifiers):
                r.modifiers.extend(rooms)
        out.append(c)
    return out


#: The rules of this module, tried before those of :data:`.human.RULES`.
RULES: tuple[Rule, ...] = (
    done_sentence, done_clause, wherever, about_halfway, swing_by, inside_scope, there_scope,
    between_in_that_room, following_header, rooms_header, straight_through, ordinal_one,
    without_stopping, go_past, keep_going, in_the_house, comma_which, only_then, at_any_point, itself,
    and_in_room, comma_in_room, whose, on_the_floor_of, end_of_room, entered_from, but_not,
)
