"""Places told by their position: where a room lies in the house, a side or corner of a room
told by what stands there, and the point among a group of things said without naming it.

Each position word is read into the reference it modifies (or into the geometry target),
never left over and never a stage of its own. The grounding API has no verb for "the back
of the house" or "the middle bedroom", so each is read by its nearest honest reading on the
verbs it has:

* the far end of the house: "the back / far / end / rear bedroom", "the bedroom (right) at
  the (very) back of the house", "the bedroom which is in the most far end of house", "the
  toilet at the opposite end of the house from here" -> "the farthest ROOM / THING" (a
  ``farthest`` ranking from where the route is: the start, where the speaker is); any head,
  not only a room, may be placed so (:func:`_far_word`, :func:`_house_end`);
* the middle of the house: "the middle bedroom", "the bedroom in the middle of the house" ->
  "the bedroom next to both bedrooms" (the one of its kind with doors onto two others of
  its kind: the middle of a row of them along the walk) (:func:`_middle_room`);
* a room across another: "the living room on the far / other side of the kitchen" -> "the
  living room beyond the kitchen" (a room with a door onto that room) (:func:`_far_side`);
* a corner told by a thing: "the fridge corner of the kitchen" -> "the corner of the kitchen
  by the fridge"; "the corner (diagonally) across from / opposite (to) the sink" -> "the
  corner farthest from the sink" (:func:`_thing_corner`, :func:`_across_corner`);
* a side of a room told by a thing, as a place to be: "wait on the dresser side of the
  bedroom" -> "wait by the dresser in the bedroom", "go to the window side of the kitchen" ->
  "go to the window in the kitchen" (:func:`_thing_side`); as a manner of
  walking ("hug / keep to the X side of ROOM") it is read by :mod:`.manner_positions`;
* the point among things said before, named by a noun of a group or by where they meet:
  "the middle of that (little) bunch / lot / group", "(the spot) in between all (3 / of
  them)", "the gap in the middle of them", "the spot where they'd all meet" -> "the middle
  of them" (their ``centroid``, read by :mod:`.geometry_targets`) (:func:`_group_middle`);
  "..., roughly where they'd all meet" after such a target says it again and is kept as
  context (:func:`_meet_again`);
* a room's own things: "between that room's two windows" -> "between the two windows in that
  room" (:func:`_rooms_own`).

Anything else is left as it was ("the front bedroom" stays a bedroom: the map has no front;
"Right at the far end of the house there's a bedroom" is refused where nothing reads it).
Tokens keep their character spans. The constructions are closed word lists around the head
lexicon's heads, so the module is written by hand like the rest of the parser: a learned
reader could not promise that no word is silently dropped.
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.rewrites import Marks, Rewriter, Rule
from map2route.language.tokens import Token

__all__ = ["RULES", "told_positions"]

_DETS = ("the", "that", "this", "a", "my", "our", "your")
#: Words placing a room at the far end of the house said before it ("the back bedroom").
_FAR_WORDS = ("back", "far", "end", "rear", "furthest", "farthest")
_END_WORDS = ("far", "other", "opposite", "back", "rear", "very", "most")
#: Words a place at the end of the house may open with.
_HOUSE_LEADS = (",", "which", "that", "that's", "thats", "right", "way", "just", "all", "at", "in",
                "on", "to")
_HOUSE = ("house", "flat", "apartment", "home", "place")
_GROUP = ("bunch", "lot", "group", "cluster", "set", "huddle", "pile")
_SMALL = ("little", "small", "tiny")
_COUNTS = ("three", "four", "five", "two", "3", "4", "5", "2", "of")
_AGAIN_HEDGES = ("roughly", "about", "like", "basically", "sort", "kind", "so", "i.e.", "ie",
                 "just", "more", "or", "less", "right", "exactly", "approximately")
#: Words that may follow a bare group noun ("the middle of that bunch, please").
_AFTER_GROUP = (",", ".", "!", "?", ";", "", "and", "so", "then", "please", "pls", "there",
                "for", "to", "in", "on", "-", "now", "thanks", "yeah")
#: Words before a bare "where they'd all meet" that make it the place to be.
_STOP_LEAD = ("stand", "stop", "wait", "park", "go", "be", "sit", "roughly", "about", "just",
              "exactly", "right", "somewhere", "to")


def _head(rw: Rewriter, k: int) -> tuple[int, str, str] | None:
    hit = head_lexicon().match(rw.words[k:k + head_lexicon().max_len])
    return (hit[0], hit[1], hit[2]) if hit is not None else None


def _room(rw: Rewriter, k: int) -> int:
    """Length of a typed room's name at ``k`` ("bedroom", "living room"), else 0."""
    hit = _head(rw, k)
    return hit[0] if hit is not None and hit[2] == "room" and hit[1] != "room" else 0


def _out_head(rw: Rewriter) -> int:
    """Length of a head ending what is read so far (0 if none)."""
    words = [t.text.lower() for t in rw.out[-head_lexicon().max_len:]]
    for n in range(len(words), 0, -1):
        hit = head_lexicon().match(words[-n:])
        if hit is not None and hit[0] == n:
            return n
    return 0


def _far_word(rw: Rewriter, i: int) -> int | None:
    """"the back / far / end / rear bedroom" -> "the farthest bedroom"."""
    if rw.w(i) not in _FAR_WORDS or rw.w(i - 1) not in _DETS or not _room(rw, i + 1):
        return None
    rw.emit("farthest", like=rw.toks[i])
    return i + 1


def _end_of_house(rw: Rewriter, k: int) -> int:
    """End of "(right / way) at / in the (very / most) far / other / opposite end / back of the
    house (from here)" at ``k`` (0 if none)."""
    k += rw.w(k) in ("right", "way", "just", "all")
    k += rw.at(k, "the", "way")
    if rw.w(k) not in ("at", "in", "on", "to") or rw.w(k + 1) != "the":
        return 0
    e = k + 2
    while rw.w(e) in _END_WORDS and rw.w(e + 1) != "of":
        e += 1
    if rw.w(e) not in ("end", "back") or rw.w(e + 1) != "of" or e == k + 2 and rw.w(e) == "end":
        return 0
    e += 2
    e += rw.w(e) in ("the", "this", "my", "our")
    if rw.w(e) not in _HOUSE:
        return 0
    e += 1
    if rw.w(e) == "from" and rw.w(e + 1) in ("here", "me", "you", "us"):
        e += 2
    return e


def _house_end(rw: Rewriter, i: int) -> int | None:
    """"X (, right / which is) at / in the (very / most) far / other / opposite end / back of
    the house (from here)" after a head -> "the farthest X"; said first, "Right at the far end
    of the house there's a bedroom" -> "there is a farthest bedroom"."""
    if rw.w(i) not in _HOUSE_LEADS:
        return None
    n = _out_head(rw)
    if not n:
        e = _end_of_house(rw, i)
        f = e + (rw.w(e) == ",")
        if not e or rw.w(f) != "there" or rw.w(f + 1) not in ("is", "are") or \
                rw.w(f + 2) not in ("a", "an", "the", "one") or not _room(rw, f + 3):
            return None
        rw.out.extend(rw.toks[f:f + 3])
        rw.out.append(Token("farthest", rw.toks[i].start, rw.toks[e - 1].end))
        return f + 3
    k = i + (rw.w(i) == ",")
    if rw.at(k, "which", "is") or rw.at(k, "that", "is"):
        k += 2
    elif rw.w(k) in ("that's", "thats"):
        k += 1
    e = _end_of_house(rw, k)
    if not e:
        return None
    head = rw.out[-n:]
    del rw.out[-n:]
    if not any(t.text == "farthest" for t in rw.out[-3:]):
        rw.out.append(Token("farthest", rw.toks[k].start, rw.toks[e - 1].end))
    rw.out.extend(head[:-1])  # the head's span takes the words read into it
    rw.out.append(Token(head[-1].text, head[-1].start, rw.toks[e - 1].end))
    return e


def _middle_room(rw: Rewriter, i: int) -> int | None:
    """"the middle bedroom", "the bedroom in the middle of the house" -> "the bedroom next to
    both bedrooms"."""
    if rw.w(i) == "middle" and rw.w(i - 1) in _DETS:
        n = _room(rw, i + 1)
        if not n:
            return None
        room = rw.toks[i + 1:i + 1 + n]  # "middle" is read into the room's span
        room = [Token(room[0].text, rw.toks[i].start, room[0].end), *room[1:]]
        end = i + 1 + n
        like = room[-1]
    elif rw.at(i, "in", "the", "middle", "of") and _out_head(rw):
        n = _out_head(rw)
        hit = head_lexicon().match([t.text.lower() for t in rw.out[-n:]])
        if hit is None or hit[2] != "room" or hit[1] == "room":
            return None
        e = i + 4 + (rw.w(i + 4) in ("the", "this", "my", "our"))
        if rw.w(e) not in _HOUSE:
            return None
        room, end = list(rw.out[-n:]), e + 1
        rw.out[-n:] = []
        room[-1] = Token(room[-1].text, room[-1].start, rw.toks[e].end)
        like = room[-1]
    else:
        return None
    rw.out.extend(room)
    rw.emit("next", "to", "both", like=like)
    rw.out.extend(rw.new(t.text, like) for t in room[:-1])
    rw.out.append(rw.new(room[-1].text + "s", like))
    return end


def _far_side(rw: Rewriter, i: int) -> int | None:
    """"the living room on the far side of the kitchen" -> "the living room beyond the
    kitchen"."""
    if rw.w(i) not in ("on", "at") or rw.w(i + 1) != "the" or \
            rw.w(i + 2) not in ("far", "other", "opposite") or not rw.at(i + 3, "side", "of"):
        return None
    n = _out_head(rw)
    if not n:
        return None
    hit = head_lexicon().match([t.text.lower() for t in rw.out[-n:]])
    d = i + 5 + (rw.w(i + 5) in _DETS)
    if hit is None or hit[2] != "room" or not _room(rw, d):
        return None
    rw.emit("beyond", like=rw.toks[i + 2])
    return i + 5


def _thing_corner(rw: Rewriter, i: int) -> int | None:
    """"the fridge corner of the kitchen" -> "the corner of the kitchen by the fridge"."""
    if rw.w(i) != "the":
        return None
    hit = _head(rw, i + 1)
    if hit is None or hit[2] == "room" or rw.w(i + 1 + hit[0]) != "corner" or \
            rw.w(i + 2 + hit[0]) != "of":
        return None
    c = i + 1 + hit[0]
    d = c + 2 + (rw.w(c + 2) in _DETS)
    n = _room(rw, d)
    if not n:
        return None
    rw.out.append(rw.toks[i])
    rw.out.extend(rw.toks[c:d + n])
    rw.emit("by", "the", like=rw.toks[i + 1])
    rw.out.extend(rw.toks[i + 1:c])
    return d + n


def _across_corner(rw: Rewriter, i: int) -> int | None:
    """"the corner (that's) (diagonally) across from / opposite (to) X" -> "the corner
    farthest from X"."""
    if rw.w(i - 1) != "corner":
        return None
    k = i
    if rw.at(k, "that", "is") or rw.at(k, "which", "is"):
        k += 2
    elif rw.w(k) in ("that's", "thats"):
        k += 1
    k += rw.w(k) in ("diagonally", "directly", "straight", "right", "kitty-corner")
    if rw.w(k) == "across" and rw.w(k + 1) == "from":
        e = k + 2
    elif rw.w(k) == "opposite":
        e = k + 1 + (rw.w(k + 1) in ("to", "from"))
    else:
        return None
    if rw.w(e) not in _DETS or _head(rw, e + 1) is None:
        return None
    rw.emit("farthest", "from", like=rw.toks[k])
    return e


def _thing_side(rw: Rewriter, i: int) -> int | None:
    """"wait on the dresser side of the bedroom" -> "wait by the dresser in the bedroom"."""
    if rw.w(i) not in ("on", "at", "to") or rw.w(i + 1) != "the" or \
            rw.w(i - 1) not in ("wait", "stand", "stop", "park", "sit", "go", "be", "head",
                                "move", "get", "over"):
        return None
    hit = _head(rw, i + 2)
    if hit is None or hit[2] == "room":
        return None
    s = i + 2 + hit[0]
    d = s + 2 + (rw.w(s + 2) in _DETS)
    if rw.w(s) != "side" or rw.w(s + 1) != "of" or not _room(rw, d):
        return None
    rw.emit("to" if rw.w(i) == "to" else "by", like=rw.toks[i])  # not "go by": a pass
    rw.out.extend(rw.toks[i + 1:s])
    rw.emit("in", like=rw.toks[s])
    return s + 2


def _group_middle(rw: Rewriter, i: int) -> int | None:
    """"the middle of that (little) bunch", "in between all 3", "the gap in the middle of
    them", "the spot where they'd all meet" -> "the middle of them"."""
    k = i
    if rw.at(k, "the", "middle", "of") or rw.at(k, "the", "centre", "of") or \
            rw.at(k, "the", "center", "of"):
        g = k + 3
        if rw.w(g) not in ("that", "this", "the"):
            return None
        g += 1
        g += rw.w(g) in _SMALL
        if rw.w(g) not in _GROUP:
            return None
        named = _named_list(rw, g + 1)
        if named:  # "the middle of that little group, table and both chairs,"
            rw.out.extend(rw.toks[k:k + 3])
            rw.out.extend(t if t.text != "both" else rw.new("the", t)  # "both chairs"
                          for t in rw.toks[g + 2:named])
            return named
        if rw.w(g + 1) not in _AFTER_GROUP:
            return None  # "the centre of the group formed by ...": read elsewhere
        rw.out.extend(rw.toks[k:k + 3])
        rw.emit("them", like=rw.toks[g])
        return g + 1
    if rw.w(k) in ("gap", "space", "spot", "point", "place") and rw.w(k - 1) == "the":
        if rw.at(k + 1, "in", "the", "middle", "of") and rw.w(k - 1) == "the" and \
                rw.w(k + 1 + 4) in ("them", "those", "these"):
            rw.out[-1:] = []
            rw.emit("the", like=rw.toks[k])
            rw.out.extend(rw.toks[k + 3:k + 5])
            return k + 5
        m = _meet(rw, k + 1)
        if m:
            rw.out[-1:] = []
            rw.emit("the", "middle", "of", "them", like=rw.toks[k])
            return m
        return None
    if rw.w(k) == "where" and rw.w(k - 1) in _STOP_LEAD:
        m = _meet(rw, k)
        if m:  # "stand roughly where all three would meet"
            rw.emit("in", "the", "middle", "of", "them", like=rw.toks[k])
            return m
    if rw.w(k) in _SMALL and rw.w(k - 1) in ("the", "that", "this") and rw.w(k + 1) in _GROUP \
            and rw.w(k + 2) == "of":  # "the little cluster of chairs": the group's size, said
        rw.out.append(Token(rw.toks[k + 1].text, rw.toks[k].start, rw.toks[k + 1].end))
        return k + 2
    if rw.at(k, "in", "between", "all") or rw.at(k, "between", "all"):
        g = k + 1 + (rw.w(k) == "in")  # at "all"
        nxt = rw.w(g + 1)
        if nxt == "of" and rw.w(g + 2) in ("them", "those", "these"):
            e = g + 3
        elif nxt.isdigit() or nxt in ("three", "four", "five", "two", "3", "4", "5"):
            e = g + 2
            if _head(rw, e) is not None:  # "in between all 4 chairs": the middle of them
                rw.emit("in", "the", "middle", "of", "the", like=rw.toks[k])
                rw.out.append(rw.toks[g + 1])
                return g + 2
        elif nxt in ("them", "those", "these", "three", "four"):
            e = g + 2
        else:
            return None
        rw.emit("in", "the", "middle", "of", "them", like=rw.toks[k])
        return e
    return None


def _named_list(rw: Rewriter, k: int) -> int:
    """End (the closing comma or stop) of ", the table and both chairs" at ``k`` naming a
    group's things (0 if none)."""
    if rw.w(k) != ",":
        return 0
    e, heads = k + 1, 0
    while rw.w(e) not in (",", ".", "!", "?", ";", ""):
        n = _head(rw, e)
        if n is not None and n[2] != "room":
            e += n[0]
            heads += 1
        elif rw.w(e) in ("the", "a", "both", "and", "two", "three", "its", "2", "3", "all"):
            e += 1
        else:
            return 0
    return e if heads >= 1 else 0


def _meet(rw: Rewriter, k: int) -> int:
    """End of "where they('d / would) all meet" / "where all three meet" at ``k`` (0 if
    none)."""
    if rw.w(k) != "where":
        return 0
    e = k + 1
    if rw.w(e) in ("they", "they'd", "theyd", "those", "these"):
        e += 1
    elif rw.w(e) in ("all", "the") and rw.w(e + 1) in _COUNTS:
        e += 2
    elif rw.w(e) != "all":
        return 0
    e += rw.w(e) in ("'d", "would", "'ll", "will", "d", "kind", "sort")
    e += rw.w(e) == "of" and rw.w(e - 1) in ("kind", "sort")
    e += rw.w(e) == "all"
    if rw.w(e) not in ("meet", "come", "join", "cross", "converge"):
        return 0
    e += 1
    e += rw.w(e) in ("together", "up")
    return e


def _meet_again(rw: Rewriter, i: int) -> int | None:
    """", roughly where they'd all meet", ", like the spot in between all 3", ", like in the
    centre of the three" after a centre target: the same point said again, kept as context."""
    if rw.w(i) != "," or not any(t.text in ("middle", "centre", "center", "midpoint", "halfway",
                                            "midway") for t in rw.out[-16:]):
        return None
    k = i + 1
    while rw.w(k) in _AGAIN_HEDGES:
        k += 1
    k += rw.w(k) == "of" and rw.w(k - 1) in ("sort", "kind")
    if rw.w(k) == "the" and rw.w(k + 1) in ("spot", "point", "place", "bit"):
        k += 2
    elif rw.w(k) in ("park", "stand", "stop", "wait", "be") and rw.w(k + 1) in ("in", "at"):
        k += 1  # ", just park in the middle of those two"
    e = _meet(rw, k)
    if not e:
        j = k + (rw.w(k) == "in")
        if rw.w(j) == "between" and rw.w(j + 1) == "all":
            e = j + 2
        elif rw.w(j) == "the" and rw.w(j + 1) in ("middle", "centre", "center") and \
                rw.w(j + 2) == "of":
            e = j + 3 + (rw.w(j + 3) in ("the", "all"))
        else:
            return None
        if rw.w(e) == "of":
            e += 1
        if rw.w(e) not in (*_COUNTS, "them", "those", "these"):
            return None
        e += 1
        e += rw.w(e - 1) in ("those", "these") and rw.w(e) in _COUNTS
    if rw.w(e) not in (",", ".", "!", "?", ";", "", "and"):
        return None
    a, b = rw.toks[i + 1].start, rw.toks[e - 1].end
    rw.context.append((" ".join(rw.words[i + 1:e]), (a, b)))
    return e


def _rooms_own(rw: Rewriter, i: int) -> int | None:
    """"between that room's two windows" -> "between the two windows in that room"."""
    if rw.w(i) != "between" or rw.w(i + 1) not in ("that", "this", "the"):
        return None
    n = _room(rw, i + 2) or (1 if rw.w(i + 2) == "room" else 0)
    if not n or rw.w(i + 2 + n) not in ("'s", "s") or rw.w(i + 3 + n) not in ("two", "2", "both"):
        return None
    hit = _head(rw, i + 4 + n)
    if hit is None:
        return None
    e = i + 4 + n + hit[0]
    rw.out.append(rw.toks[i])
    rw.emit("the", like=rw.toks[i + 2 + n])
    rw.out.extend(rw.toks[i + 3 + n:e])
    rw.emit("in", like=rw.toks[i + 2 + n])
    rw.out.extend(rw.toks[i + 1:i + 2 + n])
    return e


#: The rules, tried in one pass before the other rewrites of :mod:`.human`.
RULES: tuple[Rule, ...] = (_far_word, _house_end, _middle_room, _far_side, _thing_corner,
                           _across_corner, _thing_side, _group_middle, _meet_again, _rooms_own)


def told_positions(toks: list[Token]) -> tuple[list[Token], list[tuple[str, tuple[int, int]]]]:
    """``toks`` with the positions above rewritten, and the restatements kept as context."""
    rw = Rewriter(toks, Marks())
    out = rw.run(RULES)
    return out, rw.context
