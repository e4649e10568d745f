"""Token rewrites of stage 0a (:mod:`.human`) for the spoken register of fresh set H.

People who vary their register say "which chair's the farthest from you? Go to that one.",
"you'll have to cut through the bathroom", "I need you at the sink", "stay away from the
table while you're in there", "one of the chairs around the kitchen table", "the chair that's
tucked into the corner" and end a sentence with "though". Each rule rewrites the window onto a
phrasing the parser already reads, keeping character spans (see :mod:`.rewrites`).
"""

from __future__ import annotations

from map2route.language.inflection import singular_word
from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.rewrites import Rewriter

_ENDS = (".", "!", "?", ";")
#: Modal leads that only say the route must do something ("you'll have to", "you need to").
_MODALS = (("you", "will", "have", "to"), ("you", "will", "need", "to"),
           ("you", "are", "going", "to", "have", "to"), ("you", "are", "going", "to", "need", "to"),
           ("you", "would", "have", "to"), ("you", "need", "to"), ("you", "have", "to"),
           ("you", "must"), ("you", "will", "want", "to"))
#: Verbs of crossing a room that a modal lead may open ("you'll have to cut through X").
_CROSS = ("cut", "go", "pass", "walk", "move", "head", "travel", "cross", "traverse")
#: "while you're in there": the openers of a scope whose room is a place named before.
_THERE_SCOPES = (("while", "you", "are", "in", "there"), ("when", "you", "are", "in", "there"),
                 ("whenever", "you", "are", "in", "there"), ("once", "you", "are", "in", "there"),
                 ("while", "in", "there"), ("when", "in", "there"),
                 ("while", "you", "are", "inside", "there"), ("as", "long", "as", "you", "are",
                                                              "in", "there"))
#: Verbs of being placed in a corner ("the chair that's tucked into the corner").
_PLACED = ("tucked", "pushed", "wedged", "squeezed", "sitting", "standing", "placed", "set",
           "stuck", "shoved")
#: "I need you at the sink": a wish that names where the walker should be.
_WISHES = (("i", "need", "you"), ("i", "want", "you"), ("i", "would", "like", "you"),
           ("we", "need", "you"))
_WISH_PREPS = ("at", "by", "beside", "near", "next", "in", "inside")
#: Words of a question whose answer the next sentence points at ("... ? Go to that one.").
_ANAPHORS = (("that", "one"), ("this", "one"), ("that",), ("it",), ("there",))


def _sentence_start(rw: Rewriter, i: int) -> bool:
    """Whether token ``i`` opens a sentence (fillers before it do not count)."""
    k = i - 1
    while k >= 0 and rw.w(k) in W.FILLER_WORDS | {",", "so"}:
        k -= 1
    return k < 0 or rw.w(k) in _ENDS


def modal_lead(rw: Rewriter, i: int) -> int | None:
    """"Make your way to the desk. You'll have to cut through the bathroom." -> "... . On the
    way, cut through the bathroom" (a room crossed after the goal is said is crossed on the way
    to it); any other modal lead ("You'll need to avoid the TV") is dropped."""
    if rw.w(i) != "you":
        return None
    n = max((len(m) for m in _MODALS if rw.at(i, *m)), default=0)
    if not n:
        return None
    if not _sentence_start(rw, i) and not (
            rw.w(i - 1) == "," and rw.w(i + n) in _CROSS and
            rw.w(i + n + 1) in ("through", "across", "via")):
        return None  # after a comma only "..., you'll have to go through X"
    if rw.w(i + n) in _CROSS and rw.w(i + n + 1) in ("through", "across", "via") and \
            any(t.text in _ENDS for t in rw.out):
        rw.emit("on", "the", "way", ",", like=rw.toks[i])
    return i + n


def though_tail(rw: Rewriter, i: int) -> int | None:
    """"Keep out of the bathrooms though." / "..., though.": a closing "though" adds nothing."""
    if rw.w(i) in ("though", "tho") and rw.w(i + 1) in ("", *_ENDS, ","):
        if rw.out and rw.out[-1].text == ",":
            rw.out.pop()
        return i + 1
    return None


def in_there(rw: Rewriter, i: int) -> int | None:
    """"stay away from the table while you're in there" -> "... while in the kitchen", the
    room named last before it (the goal's room); left as it is when no room was named."""
    n = max((len(p) for p in _THERE_SCOPES if rw.at(i, *p)), default=0)
    if not n:
        return None
    lex = head_lexicon()
    for k in range(i - 1, -1, -1):
        hit = lex.match(rw.words[k:k + lex.max_len])
        if hit is not None and hit[2] == "room" and hit[1] != "room":
            there = rw.toks[i + n - 1]
            rw.out.extend(rw.toks[i:i + n - 1])
            rw.emit("the", like=there)
            rw.out.extend(rw.new(w, there) for w in rw.words[k:k + hit[0]])
            return i + n
        if rw.w(k) in _ENDS:
            break
    return None


def placed_in_corner(rw: Rewriter, i: int) -> int | None:
    """"the chair that's tucked into the corner of the bedroom" -> "that's in the corner of
    the bedroom" (the corner rule reads the rest)."""
    if rw.w(i) in _PLACED and rw.w(i + 1) in ("into", "in", "inside") and \
            rw.w(i + 2) in ("the", "a") and rw.w(i + 3) in ("corner", "corners"):
        rw.emit("in", like=rw.toks[i + 1])
        if rw.w(i + 2) == "a":
            rw.emit("the", like=rw.toks[i + 2])
            return i + 3
        return i + 2
    return None


def one_of_around(rw: Rewriter, i: int) -> int | None:
    """"one of the chairs around the kitchen table" -> "a chair next to the kitchen table";
    "the chairs around the table" -> "the chairs next to the table" ("around" after a thing
    is where it stands, not a loop)."""
    if rw.at(i, "one", "of", "the") or rw.at(i, "any", "of", "the"):
        size = rw.head_at(i + 3)
        if size and rw.w(i + 3 + size) in ("around", "surrounding", "round"):
            rw.emit("a", like=rw.toks[i])
            last = i + 3 + size - 1
            rw.out.extend(rw.toks[i + 3:last])
            rw.out.append(rw.new(singular_word(rw.w(last)), rw.toks[last]))
            rw.emit("next", "to", like=rw.toks[last + 1])
            return last + 2
        return None
    if rw.w(i) in ("around", "surrounding") and rw.w(i + 1) in ("the", "a") and \
            rw.head_at(i + 2) and i > 1 and rw.w(i - 2) in ("the", "a", "all", "some") and \
            rw.head_at(i - 1) == 1:
        rw.emit("next", "to", like=rw.toks[i])
        return i + 1
    return None


def wish_at(rw: Rewriter, i: int) -> int | None:
    """"I need you at the sink." / "I need you in the back bedroom" -> "go to the sink" (a
    wish that says where to be)."""
    n = max((len(p) for p in _WISHES if rw.at(i, *p)), default=0)
    if not n or rw.w(i + n) not in _WISH_PREPS:
        return None
    prep = rw.w(i + n)
    if prep == "next" and rw.w(i + n + 1) != "to":
        return None
    rw.emit("go", like=rw.toks[i])
    if prep == "next":
        rw.emit("to", like=rw.toks[i + n])
        return i + n + 2
    if prep in ("at", "in", "inside"):
        rw.emit("to", like=rw.toks[i + n])
        return i + n + 1
    return i + n


def which_question(rw: Rewriter, i: int) -> int | None:
    """"Which chair's the farthest from you? Go to that one." -> "Go to the chair the farthest
    from you.": the question names the thing, the next sentence points at it."""
    if rw.w(i) != "which" or not _sentence_start(rw, i):
        return None
    k = i + 1
    if rw.at(k, "of", "the"):
        k += 2
    size = rw.head_at(k)
    if not size or rw.w(k + size) not in ("'s", "is", "are"):
        return None
    q = next((x for x in range(k + size, min(k + size + 16, len(rw.words)))
              if rw.w(x) in _ENDS), None)
    if q is None or rw.w(q) != "?":
        return None
    rest = rw.words[k + size + 1:q]
    if not any(w in W.RANK_WORDS for w in rest):
        return None
    end = next((x for x in range(q + 1, min(q + 20, len(rw.words))) if rw.w(x) in _ENDS),
               len(rw.words))
    for x in range(q + 1, end):
        m = max((len(a) for a in _ANAPHORS if rw.at(x, *a)), default=0)
        if m and (m == 2 or rw.w(x + 1) in ("", *_ENDS, ",", "please")):
            rw.out.extend(rw.toks[q + 1:x])
            if rw.w(x) == "there":
                rw.emit("to", like=rw.toks[x])
            rw.emit("the", like=rw.toks[x])
            last = k + size - 1
            rw.out.extend(rw.toks[k:last])
            rw.out.append(rw.new(singular_word(rw.w(last)), rw.toks[last]))
            start = k + size + 1
            if rw.w(start) == "the" and rw.w(start + 1) in W.RANK_WORDS:
                start += 1
            rw.out.extend(rw.toks[start:q])
            return x + m
    return None


#: "When you get to the bathroom, keep away from the toilet": arriving at a room, then a way
#: of moving: that way holds in the room.
_ARRIVALS = (("when", "you", "get", "to"), ("once", "you", "get", "to"), ("when", "you", "reach"),
             ("once", "you", "reach"), ("when", "you", "arrive", "at"),
             ("once", "you", "arrive", "at"), ("when", "you", "get", "into"),
             ("once", "you", "get", "into"), ("as", "soon", "as", "you", "get", "to"),
             ("when", "you", "make", "it", "to"))
_WAYS = ("keep", "stay", "avoid", "do", "don't", "never", "try", "remain", "be")


def arrival_scope(rw: Rewriter, i: int) -> int | None:
    """"When you get to the bathroom, keep away from the toilet." -> "When you are in the
    bathroom, ...": a room arrived at, then a way of moving (a scope, not a stage)."""
    n = max((len(p) for p in _ARRIVALS if rw.at(i, *p)), default=0)
    if not n:
        return None
    k = i + n + (1 if rw.w(i + n) in ("the", "a", "that") else 0)
    hit = head_lexicon().match(rw.words[k:k + head_lexicon().max_len])
    if hit is None or hit[2] != "room" or rw.w(k + hit[0]) != "," or \
            rw.w(k + hit[0] + 1) not in _WAYS:
        return None
    rw.emit("when", "you", "are", "in", like=rw.toks[i])
    return i + n


def with_the_count(rw: Rewriter, i: int) -> int | None:
    """"the living room with the two floor lamps" -> "with two floor lamps": a count said
    with "the" is the same count."""
    if rw.w(i) == "the" and rw.w(i - 1) in ("with", "has", "have", "having", "containing") \
            and W.NUMBERS.get(rw.w(i + 1), 0) >= 2 and rw.head_at(i + 2):
        return i + 1
    return None
