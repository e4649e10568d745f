"""Stage 0a rewrites (:mod:`.rewrites`) for references that need the route or the rooms.

"the first bedroom you enter", "the plant you pass", "the next living room", "pass through
three different bedrooms", "a room you have not visited yet", "the room just before the
bathroom", "another bedroom", "the target room", "the current bathroom", "the adjacent
bedroom", "connected to the kitchen through a door", "the two garbage cans in order from
farthest to nearest", "if you encounter the counter top, keep your distance from it". Each is
rewritten onto a phrasing the parser reads, with a mark (:class:`.rewrites.Marks`) that
:func:`.human.apply_marks` turns into the modifier the grounding writer needs (a ``route``
ranking: the API's ``kth_along_route``; ``before``; ``different``; ``target``; ``ordered``).
"""

from __future__ import annotations

from map2route.language.inflection import singular_word
from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.rewrites import Rewriter


def counted_set(rw: Rewriter, i: int) -> int | None:
    """"pass through three different bedrooms" -> "pass through the bedroom, then pass
    through the bedroom, then ...", each the next one along the route that differs from the
    ones before."""
    verb = 3 if rw.at(i, "go", "through") or rw.at(i, "pass", "through") or \
        rw.at(i, "walk", "through") else 2 if rw.w(i) in ("visit", "enter", "cross") else 0
    if not verb:
        return None
    k = i + verb - 1
    n = W.NUMBERS.get(rw.w(k), 0) if rw.w(k) not in ("a", "an", "one") else 0
    if not 2 <= n <= 6:
        return None
    k += 1
    k += 1 if rw.w(k) in ("different", "distinct", "separate") else 0
    size = rw.head_at(k)
    if not size:
        return None
    head = [rw.new(singular_word(w), tok) for w, tok in
            zip(rw.words[k:k + size], rw.toks[k:k + size], strict=True)]
    for item in range(n):
        if item:
            rw.emit(",", "then", like=rw.toks[k])
        rw.out.extend(rw.toks[i:i + verb - 1])
        rw.emit("the", like=rw.toks[k])
        rw.out.extend(head)
    # every item starts at the same character: each is the next one along the route, and
    # differs from the ones before it
    rw.marks.route_order[rw.toks[k].start] = 1
    rw.marks.different.add(rw.toks[k].start)
    return k + size


# --- route-order references, "another", the destination --------------------------------
#: Verbs of meeting something on the way ("the first bedroom you enter").
_MEET_VERBS = ("pass", "enter", "encounter", "reach", "meet", "see", "cross", "visit", "come",
               "walk", "go", "find", "get", "hit", "arrive", "run", "bump")
#: Particles after them ("you pass through", "you come across", "you get to").
_MEET_PARTICLES = ("through", "by", "into", "across", "upon", "to", "past", "on", "at", "in")
#: Tails that say "along the route" again.
_ROUTE_TAILS = (("along", "the", "way"), ("on", "the", "way"), ("along", "the", "route"),
                ("on", "your", "way"), ("along", "your", "route"), ("along", "your", "way"),
                ("in", "the", "sequence"), ("on", "the", "route"), ("on", "your", "route"))
#: What after "the second HEAD" makes the ordinal a ranking the parser reads itself.
_ORDINAL_TAKEN = ("closest", "nearest", "farthest", "furthest", "largest", "smallest", "biggest",
                  "from", "to", "of", "on", "one", "ones", "in order")
_NOT_YET = (("have", "not", "yet"), ("have", "not"), ("haven't",), ("did", "not"),
            ("have", "never"))


def _meet_clause(rw: Rewriter, j: int) -> int:
    """End of "(that) you (will) pass through (along the way)" at ``j`` (``j`` if none)."""
    k = j + (1 if rw.w(j) in ("that", "which") else 0)
    if rw.w(k) != "you":
        return j
    k += 1
    k += 1 if rw.w(k) in ("will", "'ll", "first", "then") else 0
    if rw.w(k) not in _MEET_VERBS and not (rw.w(k) == "are" and rw.w(k + 1) in (
            "entering", "passing", "crossing", "going", "walking")):
        return j
    k += 2 if rw.w(k) == "are" else 1
    # "the first sofa you reach in the living room", "... you reach to the bathroom": "in the"
    # and "to the" open a phrase of their own, no particle
    k += 1 if rw.w(k) in _MEET_PARTICLES and not (
        rw.w(k) in ("in", "inside", "on", "to") and rw.w(k + 1) in ("the", "a", "an")) else 0
    k += 1 if rw.w(k) in ("first", "next") else 0  # "the bedroom you enter first"
    return _route_tail(rw, k)


def _route_tail(rw: Rewriter, k: int) -> int:
    for tail in _ROUTE_TAILS:
        if rw.at(k, *tail):
            return k + len(tail)
    return k


def _not_yet_visited(rw: Rewriter, j: int) -> int:
    """End of "(that) you have not (yet) visited / passed through (before|yet)" at ``j``."""
    k = j + (1 if rw.w(j) in ("that", "which") else 0)
    if rw.w(k) != "you":
        return j
    k += 1
    neg = next((len(t) for t in _NOT_YET if rw.at(k, *t)), 0)
    if not neg or rw.w(k + neg) not in ("visited", "passed", "entered", "been", "gone", "seen",
                                        "visit", "pass", "enter", "crossed"):
        return j
    k += neg + 1
    k += 1 if rw.w(k) in ("through", "in", "into", "to", "by") else 0
    k += 1 if rw.w(k) in ("yet", "before", "already") else 0
    return k


def route_order(rw: Rewriter, i: int) -> int | None:
    """"the first bedroom you enter", "the second bedroom you pass through along the way",
    "the next living room", "the plant you pass", "the third room along the route", "the first
    sink" -> "the bedroom" with its place along the route marked (read after the parse as a
    ``route`` ranking: the k-th met, by walking distance from where the route is then); "a
    room you have not visited yet" -> "a room" marked different from every earlier one."""
    if rw.w(i) not in ("the", "a", "an", "any"):
        return None
    k = i + 1
    nth = 0
    if rw.w(k) in W.ORDINALS and rw.w(i) == "the":
        nth, k = W.ORDINALS[rw.w(k)], k + 1
    elif rw.w(k) == "next" and rw.w(i) == "the":
        nth, k = 1, k + 1
    size = rw.head_at(k)
    if not size:
        return None
    end = k + size
    met = _meet_clause(rw, end)
    if met == end and rw.w(i) == "the" and nth:
        met = _route_tail(rw, end)  # "the third room along the route" (an ordinal needed:
        # "the tv on the way to the bed" is a scope)
    fresh = _not_yet_visited(rw, end)
    if fresh > end:
        rw.marks.different.update((rw.toks[i].start, rw.toks[k].start))
        rw.out.extend(rw.toks[i:end])
        return fresh
    if met == end and not nth:
        return None
    if met == end and (rw.w(end) in _ORDINAL_TAKEN or rw.at(end, "in", "order")):
        return None  # "the second chair from the left", "the first one": read elsewhere
    for at in (rw.toks[i].start, rw.toks[k].start):  # a reference may start at its head
        rw.marks.route_order[at] = nth or 1
        if met > end:
            rw.marks.passed.add(at)
    rw.out.append(rw.toks[i])
    rw.out.extend(rw.toks[k:end])
    return met


def room_just_before(rw: Rewriter, i: int) -> int | None:
    """"the room just before the bathroom" (on the way there) -> "the room adjacent to the
    bathroom", marked to be the one of them reached first walking from where the route is
    (the one it is in counts)."""
    hit = head_lexicon().match(rw.words[i + 1:i + 1 + head_lexicon().max_len])
    n = 1 if rw.w(i + 1) in ("room", "area") else hit[0] if hit and hit[2] == "room" else 0
    if rw.w(i) != "the" or not n or \
            rw.w(i + 1 + n) not in ("just", "right", "immediately", "directly") or \
            rw.w(i + 2 + n) != "before":
        return None  # "the living room just before the bathroom" too (.route_order_scopes)
    k = i + 3 + n
    k += 1 if rw.w(k) in ("entering", "reaching") else 2 if rw.at(k, "you", "enter") else 0
    if rw.w(k) not in ("the", "your", "this"):
        return None
    rw.marks.route_order[rw.toks[i].start] = 0
    rw.out.extend(rw.toks[i:i + 1 + n])
    rw.emit("adjacent", "to", like=rw.toks[i + 2 + n])
    return k


def in_order_of_distance(rw: Rewriter, i: int) -> int | None:
    """"the second dog bed in order of distance (from you)" -> "the second closest dog bed"."""
    if rw.w(i) != "the" or rw.w(i + 1) not in W.ORDINALS:
        return None
    size = rw.head_at(i + 2)
    end = i + 2 + size
    if not size or not rw.at(end, "in", "order", "of", "distance"):
        return None
    rw.out.extend(rw.toks[i:i + 2])
    rw.emit("closest", like=rw.toks[end])
    rw.out.extend(rw.toks[i + 2:end])
    return end + 4


def another(rw: Rewriter, i: int) -> int | None:
    """"another bedroom" -> "a other bedroom": one that is not the one just named (objects)
    or the one the route is in (rooms)."""
    if rw.w(i) == "another" and rw.head_at(i + 1):
        rw.emit("a", "other", like=rw.toks[i])
        return i + 1
    return None


def destination(rw: Rewriter, i: int) -> int | None:
    """"the target room", "the destination room", "the target bed", "the (final)
    destination" -> the reference with a mark: after the parse it names where the route ends
    (the room of the final stage's target, or that target)."""
    if rw.w(i) not in ("the", "your", "this"):
        return None
    k = i + 1 + (1 if rw.w(i + 1) in ("final", "last", "current") else 0)
    if rw.w(k) not in ("target", "destination", "goal"):
        return None
    size = rw.head_at(k + 1)
    if not size and rw.w(k + 1) in ("is", "will", "should", ":", "being", "lies", "=", "-"):
        return None  # "your final destination is the dresser": says which, read elsewhere
    rw.marks.target[rw.toks[i].start] = "named" if size else "bare"
    rw.emit("the", like=rw.toks[i])
    if size:
        rw.out.extend(rw.toks[k + 1:k + 1 + size])
        return k + 1 + size
    rw.emit("room", like=rw.toks[k])  # read as a place; made the target itself after
    return k + 1


def _room_head(rw: Rewriter, k: int) -> int:
    """Length of a room word at ``k`` ("bathroom", "living room"; 0 if none)."""
    hit = head_lexicon().match(rw.words[k:k + head_lexicon().max_len])
    return hit[0] if hit is not None and hit[2] == "room" else 0


def current_room(rw: Rewriter, i: int) -> int | None:
    """"the current bathroom", "your current living room" -> "the bathroom you are in"."""
    if rw.w(i) not in ("the", "your") or rw.w(i + 1) != "current":
        return None
    size = _room_head(rw, i + 2)
    if not size:
        return None
    rw.emit("the", like=rw.toks[i])
    rw.out.extend(rw.toks[i + 2:i + 2 + size])
    rw.emit("you", "are", "in", like=rw.toks[i + 1])
    return i + 2 + size


def adjacent_room(rw: Rewriter, i: int) -> int | None:
    """"the adjacent bedroom", "the connected bathroom" -> "the bedroom next to it" (next to
    the room the route is in)."""
    if rw.w(i) not in ("the", "an", "a") or rw.w(i + 1) not in (
            "adjacent", "connected", "neighbouring", "neighboring", "adjoining"):
        return None
    size = _room_head(rw, i + 2)
    if not size:
        return None
    rw.out.append(rw.toks[i])
    rw.out.extend(rw.toks[i + 2:i + 2 + size])
    rw.emit("next", "to", "it", like=rw.toks[i + 1])
    return i + 2 + size


_JOIN_VERBS = ("connected", "leads", "leading", "opens", "opening", "borders", "bordering",
               "adjoins", "adjoining", "joined")
_DOOR_WORDS = ("door", "doorway", "doors", "doorways", "opening")


def _after_room(rw: Rewriter) -> bool:
    """Whether the tokens written last end in a room word (past "that is", "directly")."""
    k = len(rw.out)
    while k and rw.out[k - 1].text in ("that", "which", "is", "are", "'s", "directly", "only"):
        k -= 1
    last = [t.text for t in rw.out[max(k - 2, 0):k]]
    hits = [head_lexicon().match(last[j:]) for j in range(len(last))]
    return any(h is not None and h[2] == "room" and h[0] == len(last) - j
               for j, h in enumerate(hits))


def connected_to(rw: Rewriter, i: int) -> int | None:
    """A room "(that is) (directly) connected to the kitchen (through a door)", "connected by
    a doorway to", "that leads to", "that borders" -> "adjacent to the kitchen" (rooms joined
    by a door)."""
    k = i + (1 if rw.w(i) == "directly" else 0)
    if rw.w(k) not in _JOIN_VERBS or not _after_room(rw):
        return None
    k += 1 + (1 if rw.w(k + 1) == "directly" else 0)
    if rw.w(k) in ("by", "through", "via") and rw.w(k + 1) in ("a", "an", "the", "one") and \
            rw.w(k + 2) in _DOOR_WORDS:
        k += 3
    if rw.w(k - 1) in ("borders", "bordering", "adjoins", "adjoining"):
        k -= 1  # no "to" after them
    elif rw.w(k) not in ("to", "into", "onto", "with"):
        return None
    while rw.out and rw.out[-1].text in ("that", "which", "is", "are", "'s", "directly"):
        rw.out.pop()
    rw.emit("adjacent", "to", like=rw.toks[i])
    rw.connected = True
    return k + 1


def door_tail(rw: Rewriter, i: int) -> int | None:
    """The "through a door" of a "connected to X through a door" just read: said already."""
    if not rw.connected:
        return None
    if rw.w(i) in (".", ";", "!", "?"):
        rw.connected = False
        return None
    if rw.w(i) in ("through", "by", "via") and rw.w(i + 1) in ("a", "an", "the", "one") and \
            rw.w(i + 2) in ("door", "doorway", "doorways", "doors"):
        rw.connected = False
        return i + 3
    return None


_NEAR_WORDS = ("nearest", "closest")
#: Words after which "the two living rooms" names places to go to or keep from (not a count
#: inside "a room with a sofa and two beds").
_COUNTED_AFTER = ("to", "visit", "visiting", "reach", "avoid", "avoiding", "from", "past")
_FAR_WORDS = ("farthest", "furthest")
_FROM_YOU = (("from", "you"), ("from", "your", "current", "position"),
             ("from", "your", "position"), ("from", "where", "you", "are"),
             ("from", "your", "current", "location"), ("to", "you"))


def _order_phrase(rw: Rewriter, k: int) -> tuple[str, int] | None:
    """"(in order) from nearest to farthest (from you)", "in order of (their) distance":
    ``(nearest|farthest, end)``, or None."""
    k += 2 if rw.at(k, "in", "order") else 0
    rank = ""
    if rw.w(k) == "from" and rw.w(k + 2) == "to":
        pair = (rw.w(k + 1), rw.w(k + 3))
        if pair[0] in _NEAR_WORDS and pair[1] in _FAR_WORDS:
            rank = "nearest"
        elif pair[0] in _FAR_WORDS and pair[1] in _NEAR_WORDS:
            rank = "farthest"
        k += 4
    elif rw.w(k - 1) == "order" and rw.w(k) == "of":
        k += 1 + (1 if rw.w(k + 1) == "their" else 0)
        rank = {"increasing": "nearest", "decreasing": "farthest"}.get(rw.w(k), "nearest")
        k += 1 if rw.w(k) in ("increasing", "decreasing") else 0
        if rw.w(k) != "distance":
            return None
        k += 1
    if not rank:
        return None
    return rank, k + next((len(t) for t in _FROM_YOU if rw.at(k, *t)), 0)


def ordered_visits(rw: Rewriter, i: int) -> int | None:
    """"the two garbage cans in order from farthest to nearest", "every chair from nearest
    to farthest", "all the bathrooms in order of their distance from you" -> "all the garbage
    cans", marked to be visited one by one in that order of distance from where the route is
    (the first N when a number is said); "the two living rooms" are the two nearest."""
    k = i
    if rw.w(k) in ("all", "every", "each"):
        k += 1
    k += 1 if rw.w(k) == "the" else 0
    count = W.NUMBERS.get(rw.w(k), 0) if rw.w(k) not in ("a", "an", "one") else 0
    k += 1 if count else 0
    if k == i or not rw.head_at(k):
        return None
    end = k + rw.head_at(k)
    order = _order_phrase(rw, end)
    hit = head_lexicon().match(rw.words[k:end])
    if order is None and count >= 2 and hit is not None and hit[3] and rw.out and \
            rw.out[-1].text in _COUNTED_AFTER:
        order = ("nearest", end)  # "the two living rooms": the two nearest, nearest first
    if order is None:
        return None
    for at in (rw.toks[i].start, rw.toks[k].start):
        rw.marks.ordered[at] = (order[0], count)
    rw.emit("all", "the", like=rw.toks[i])
    rw.out.extend(rw.toks[k:end])
    return order[1]


#: How the rule after "if you meet X," opens for it to hold wherever the route goes: a
#: preference or an avoidance (met or not, it changes nothing where X is not on the way).
_KEEP_AWAY = ("keep", "stay", "avoid", "don't", "do", "never", "give", "steer", "be", "remain",
              "maintain")
_MEET_IF = ("encounter", "see", "pass", "meet", "reach", "approach", "spot", "notice", "find")
_MEET_IF_TWO = (("come", "across"), ("run", "into"), ("walk", "past"), ("pass", "by"),
                ("get", "near"), ("come", "near"), ("go", "past"))


def if_you_meet(rw: Rewriter, i: int) -> int | None:
    """"if you encounter the counter top on the way, keep your distance from it" -> ". there
    is the counter top ; keep your distance from it": what the route meets is named for the
    "it" that follows, and the preference or avoidance holds wherever the route goes (where
    the thing is not on the way it changes nothing). A stage under such a condition ("if you
    see a stool, walk around it") is left alone (refused by name)."""
    if rw.w(i) not in ("if", "when", "whenever", "once") or rw.w(i + 1) != "you":
        return None
    k = i + 2
    two = next((len(t) for t in _MEET_IF_TWO if rw.at(k, *t)), 0)
    if two:
        k += two
    elif rw.w(k) in _MEET_IF:
        k += 1
    else:
        return None
    det = 1 if rw.w(k) in ("a", "an", "the", "any") else 0
    size = rw.head_at(k + det)
    if not size:
        return None
    end = k + det + size
    tail = _route_tail(rw, end)
    if rw.w(tail) != "," or rw.w(tail + 1) not in _KEEP_AWAY:
        return None  # "if you see a stool, walk around it": a stage only if met, not read
    while rw.out and rw.out[-1].text in (",", "and", "but"):
        rw.out.pop()
    rw.emit(".", "there", "is", like=rw.toks[i])
    rw.out.extend(rw.toks[k:end])
    rw.emit(";", like=rw.toks[tail])
    return tail + 1


def first_few_met(rw: Rewriter, i: int) -> int | None:
    """"go to the first two dining tables you encounter (along the way)" -> "go to the dining
    table , then go to the dining table", each the next one met along the route and none an
    earlier one (only as a destination: after "to" or "visit")."""
    if rw.w(i) != "the" or rw.w(i + 1) != "first" or not rw.out or \
            rw.out[-1].text not in ("to", "visit", "visiting", "reach"):
        return None
    n = W.NUMBERS.get(rw.w(i + 2), 0) if rw.w(i + 2) not in ("a", "an", "one") else 0
    size = rw.head_at(i + 3)
    if not 2 <= n <= 6 or not size:
        return None
    end = i + 3 + size
    met = _meet_clause(rw, end)
    met = met if met > end else _route_tail(rw, end)
    head = [rw.new(singular_word(w), tok) for w, tok in
            zip(rw.words[i + 3:end], rw.toks[i + 3:end], strict=True)]
    for item in range(n):
        if item:
            rw.emit(",", "then", "go", "to", like=rw.toks[i + 2])
        rw.emit("the", like=rw.toks[i])
        rw.out.extend(head)
    rw.marks.route_order[rw.toks[i].start] = 1
    rw.marks.different.add(rw.toks[i].start)
    return met


def before_list(rw: Rewriter, i: int) -> int | None:
    """"Before you go charge:\\n1. the safe ...\\n2. ...": a "before you ..." lead that opens a
    numbered list says when the list is done, not where to go: it is context, and the list is
    read as the stops (as after "Visit these in order:")."""
    if rw.out and rw.out[-1].text not in (".", "!", "?", ";") or not rw.at(i, "before", "you"):
        return None
    k = i + 2
    while k < min(len(rw.words), i + 8) and rw.w(k) not in (":", ",", ".", "!", "?", ";"):
        if head_lexicon().match([rw.w(k)]) is not None:
            return None  # "before you go to the sofa: ..." names a place: not a frame
        k += 1
    if rw.w(k) != ":" or not (rw.w(k + 1).isdigit() and rw.w(k + 2) in (".", ")")):
        return None
    rw.context.append((" ".join(rw.words[i:k]), (rw.toks[i].start, rw.toks[k - 1].end)))
    rw.in_list = True
    return k + 1
