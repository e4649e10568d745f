"""Token rewrites of stage 0a (:mod:`.human`) for relations people say in whole clauses
(fresh sets L and M, issue 19).

* Room adjacency: "the bathroom that connects to that bedroom", "the bathroom attached to
  the bedroom", "the bedroom you can get to straight from the kitchen", "the bedroom you can
  reach directly from the kitchen" -> "adjacent to X" (rooms joined by a door: the map's room
  adjacency) (:func:`joined_room`, :func:`room_reached_from`).
* Geometry targets said with a clause: "the point exactly halfway between A and B" (a
  midpoint; :func:`point_halfway`), "the corner of the kitchen where the fridge is" (the corner
  nearest to the fridge; :func:`corner_where`).
* Possession and support: "the dresser that has a plant on top", "the
  bedroom where the table has five chairs around it" (:func:`room_where_has`); :func:`on_top`
  runs on the tokens before the rules.
* "keep close to the wall(s)", "stick to the walls" -> a near constraint on the walls
  (:func:`near_walls`), never the wall-following shape.
* "the front doorway" / "the front door" keep the doorway (:func:`front_door`).
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.reference_frames import sized_head
from map2route.language.parser.rewrites import Rewriter
from map2route.language.parser.route_rewrites import _after_room
from map2route.language.tokens import Token

_ENDS = (".", "!", "?", ";")
_DETS = ("the", "a", "an", "that", "this", "its", "their")
_JOINED = ("connects", "connect", "connecting", "attached", "joins", "joined", "links",
           "linked", "linking", "attaches")
_OFF_VERBS = ("leads", "lead", "leading", "opens", "open", "opening", "branches", "goes")
_REACH = (("get", "to"), ("get", "into"), ("reach",), ("go", "into"), ("go", "to"),
          ("walk", "into"), ("walk", "to"), ("enter",), ("step", "into"), ("come", "into"),
          ("access",), ("get", "in", "to"))
_STRAIGHT = ("straight", "directly", "right", "immediately", "only")


def _pop_relative(rw: Rewriter) -> None:
    while rw.out and rw.out[-1].text in ("that", "which", "is", "are", "'s", "directly"):
        rw.out.pop()


def joined_room(rw: Rewriter, i: int) -> int | None:
    """A room "that connects to X", "attached to X", "that is joined to X", "connecting with
    X" -> "adjacent to X"."""
    k = i + (1 if rw.w(i) in ("directly", "right") else 0)
    if rw.w(k) in _OFF_VERBS and rw.w(k + 1) == "off" and rw.w(k + 2) in _DETS and \
            _after_room(rw):
        # "the bedroom that leads off the living room", "opens off the hall"
        _pop_relative(rw)
        rw.emit("adjacent", "to", like=rw.toks[i])
        return k + 2
    if rw.w(k) not in _JOINED or not _after_room(rw):
        return None
    k += 1 + (1 if rw.w(k + 1) in ("directly", "straight", "right") else 0)
    if rw.w(k) not in ("to", "with", "onto", "into"):
        return None
    _pop_relative(rw)
    rw.emit("adjacent", "to", like=rw.toks[i])
    return k + 1


def room_reached_from(rw: Rewriter, i: int) -> int | None:
    """A room "(that) you can get to straight from X", "you can reach directly from X",
    "(directly) reachable / accessible from X" -> "adjacent to X" (a room reached straight
    from another shares a door with it)."""
    k = i + (1 if rw.w(i) in ("that", "which") else 0)
    k += 1 if k > i and rw.w(k) in ("is", "'s") else 0
    a = k + (1 if rw.w(k) in _STRAIGHT else 0)
    if rw.w(a) in ("reachable", "accessible") and rw.w(a + 1 + (rw.w(a + 1) in _STRAIGHT)) \
            == "from" and _after_room(rw):
        # "the bedroom (directly) reachable / accessible (straight) from the kitchen"
        k = a + 1 + (rw.w(a + 1) in _STRAIGHT)
        if rw.w(k + 1) not in _DETS:
            return None
        _pop_relative(rw)
        rw.emit("adjacent", "to", like=rw.toks[i])
        return k + 1
    if rw.w(k) != "you" or not _after_room(rw):
        return None
    k += 1
    k += 1 if rw.w(k) in ("can", "could", "will", "would", "'ll", "may") else 0
    k += 1 if rw.w(k) in _STRAIGHT else 0
    n = next((len(p) for p in _REACH if rw.at(k, *p)), 0)
    if not n:
        return None
    k += n
    k += 1 if rw.w(k) in _STRAIGHT else 0
    if rw.w(k) != "from" or rw.w(k + 1) not in _DETS:
        return None
    _pop_relative(rw)
    rw.emit("adjacent", "to", like=rw.toks[i])
    return k + 1


_EXACT = ("exactly", "precisely", "right", "just", "about", "roughly", "approximately")


def point_halfway(rw: Rewriter, i: int) -> int | None:
    """"the point exactly halfway between A and B", "the spot right in the middle between A and
    B", "the exact midpoint between A and B" -> "the area between A and B", made a midpoint
    after the parse."""
    if rw.w(i) == "the" and rw.w(i + 1) in ("exact", "precise", "very") and \
            rw.w(i + 2) in ("midpoint", "middle", "centre", "center"):
        # "the exact midpoint between A and B", "the very middle between A and B"
        k = i + 3 + (1 if rw.w(i + 3) == "point" else 0)
        if rw.w(k) != "between":
            return None
        rw.emit("the", like=rw.toks[i])
        rw.emit("area", "between", like=rw.toks[k])
        rw.marks.points[rw.toks[i].start] = "midpoint"
        return k + 1
    if rw.at(i, "the", "middle", "of", "the", "room", "between"):
        # "in the middle of the room between A and B": the room is the one the two are in
        rw.emit("the", like=rw.toks[i])
        rw.emit("area", "between", like=rw.toks[i + 5])
        rw.marks.points[rw.toks[i].start] = "midpoint"
        return i + 6
    if rw.w(i) != "the" or rw.w(i + 1) not in ("point", "spot", "place", "position"):
        return None
    k = i + 2
    k += 1 if rw.w(k) in ("that", "which") and rw.w(k + 1) in ("is", "'s") else 0
    k += 1 if rw.w(k) in ("is", "'s") else 0
    if rw.w(k) not in _EXACT:
        return None
    k += 1
    k += 1 if rw.w(k) == "in" and rw.w(k + 1) == "the" else 0
    k += 1 if rw.w(k) == "the" else 0
    if rw.w(k) not in ("halfway", "midway", "middle") or rw.w(k + 1) != "between":
        return None
    rw.emit("the", like=rw.toks[i])
    rw.emit("area", "between", like=rw.toks[k + 1])
    rw.marks.points[rw.toks[i].start] = "midpoint"
    return k + 2


_WHERE_VERBS = ("is", "are", "sits", "sit", "stands", "stand", "meet", "meets")


def corner_where(rw: Rewriter, i: int) -> int | None:
    """"the corner of the kitchen where the fridge is" -> "the kitchen nearest to the fridge",
    made a corner after the parse; "where the armchair and the floor lamp are": the corner
    nearest to the armchair near the floor lamp (one anchor naming both)."""
    if rw.w(i) != "the" or rw.w(i + 1) != "corner" or rw.w(i + 2) not in ("of", "in"):
        return None
    k = i + 3
    k += 1 if rw.w(k) in _DETS else 0
    j = k
    while j < min(len(rw.words), k + 8) and rw.w(j) not in ("where", *_ENDS, ","):
        j += 1
    if rw.w(j) != "where" or rw.w(j + 1) not in _DETS:
        return None
    e = j + 1
    while e < len(rw.words) and rw.w(e) not in (*_WHERE_VERBS, *_ENDS, ","):
        e += 1
    if rw.w(e) not in _WHERE_VERBS:
        return None
    rw.marks.points[rw.toks[i].start] = "corner"
    rw.out.append(rw.toks[i])
    rw.out.extend(rw.toks[k:j])
    rw.emit("nearest", "to", like=rw.toks[j])
    ands = [n for n in range(j + 1, e) if rw.w(n) == "and"]
    for n in range(j + 1, e):
        # "where the armchair and the floor lamp are": the corner by both, read as the
        # armchair near the floor lamp (one anchor that names both)
        rw.out.append(rw.new("near", rw.toks[n]) if len(ands) == 1 and n == ands[0]
                      else rw.toks[n])
    # "where the fridge is (located / placed)"
    return e + 1 + (1 if rw.w(e + 1) in ("located", "placed", "positioned", "kept") else 0)


def on_top(toks: list[Token]) -> list[Token]:
    """"the dresser that has a plant on top (of it)", "a vase and a laptop on top" -> "... on
    it", before the rules run (a list of things on top is read by the rules that read "on
    it"); "on top of the table" is left as it is."""
    out: list[Token] = []
    k = 0
    while k < len(toks):
        w = [t.text for t in toks[k:k + 4]]
        if w[:2] == ["on", "top"] and (not out or out[-1].text not in (
                "is", "are", "sits", "sitting", "the", "standing", "lying")):
            tail = 2
            if w[2:4] in (["of", "it"], ["of", "them"]):
                tail = 4
            elif w[2:3] == ["of"]:
                out.append(toks[k])
                k += 1
                continue
            out.append(Token("on", toks[k].start, toks[k].end))
            out.append(Token("it", toks[k + 1].start, toks[k + tail - 1].end))
            k += tail
            continue
        out.append(toks[k])
        k += 1
    return out


def has_got(rw: Rewriter, i: int) -> int | None:
    """"the dresser that's got a plant on it", "which has got two beds" -> "that has ..."."""
    # "that's got" is tokenized "that is got"
    if rw.w(i) not in ("'s", "is", "has", "have", "'ve") or rw.w(i + 1) != "got" or \
            rw.w(i - 1) not in ("that", "which"):
        return None
    rw.emit("have" if rw.w(i) in ("have", "'ve") else "has", like=rw.toks[i])
    return i + 2


def things_around_it(rw: Rewriter, i: int) -> int | None:
    """"the table with (five) chairs around it", "the table that has chairs around it" ->
    "... chairs near it" (a relation of the chairs, never a circle around the table)."""
    if rw.w(i) not in ("around", "round") or rw.w(i + 1) not in ("it", "them"):
        return None
    last = [t.text for t in rw.out[-5:]]
    if not last or not any(w in ("with", "has", "have", "having") for w in last):
        return None
    hit = head_lexicon().match(last[-1:]) or head_lexicon().match(last[-2:])
    if hit is None or not hit[3]:
        return None  # only a plural: "a table with a chair around it" is not said
    rw.emit("near", like=rw.toks[i])
    return i + 1


def surrounded_by(rw: Rewriter, i: int) -> int | None:
    """"the table (that is) surrounded by chairs" -> "the table with chairs near it"."""
    k = i
    if rw.w(k) in ("that", "which") and rw.w(k + 1) in ("is", "are", "'s"):
        k += 2
    if rw.w(k) != "surrounded" or rw.w(k + 1) != "by" or not rw.out:
        return None
    j = k + 2
    n = rw.head_at(j + (1 if rw.w(j) in ("some", "several", "a", "few") else 0))
    if not n:
        return None
    j += (1 if rw.w(j) in ("some", "several", "a", "few") else 0) + n
    rw.emit("with", like=rw.toks[i])
    rw.out.extend(rw.toks[k + 2:j])
    rw.emit("near", "it", like=rw.toks[k])
    return j


_AROUND = (("around", "it"), ("round", "it"), ("around", "them"), ("at", "it"))


def room_where_has(rw: Rewriter, i: int) -> int | None:
    """"the bedroom where the table has five chairs around it" -> "the bedroom with the table
    with five chairs around it": a room picked by a thing in it that has things."""
    if rw.w(i) != "where" or not _after_room(rw) or rw.w(i + 1) not in _DETS:
        return None
    n = sized_head(rw, i + 2)  # "where the (little) table has ..."
    if not n or rw.w(i + 2 + n) not in ("has", "have") or \
            rw.w(i + 3 + n) == "only" and rw.w(i + 4 + n) in ("a", "an", "the"):
        return None  # "has only a spray bottle and ..." is not read as "with only a ..." either
    rw.emit("with", like=rw.toks[i])
    rw.out.extend(rw.toks[i + 1:i + 2 + n])
    verb = i + 2 + n
    rw.emit("with", like=rw.toks[verb])
    return verb + 1


_KEEP = ("keep", "stay", "stick", "remain", "hug")
_KEEPING = ("keeping", "staying", "sticking", "remaining", "hugging")


def near_walls(rw: Rewriter, i: int) -> int | None:
    """"stick close to the walls", "keep close to the wall", "stick to the walls", "stay
    along the walls", "..., hugging the wall" -> "stay near the walls" ("staying near"): a
    near constraint on the walls, not the wall-following shape ("walk along the walls")."""
    if rw.w(i) not in (*_KEEP, *_KEEPING):
        return None
    k = i + 1
    k += 1 if rw.w(k) in ("close", "near", "closer", "right") else 0
    k += 1 if rw.w(k) in ("close", "near") and rw.w(k - 1) == "right" else 0
    if rw.w(k) in ("to", "along", "by", "against"):
        k += 1
    elif rw.w(k - 1) != "near" and rw.w(i) not in ("hug", "hugging"):
        return None
    if rw.w(k) not in ("the", "a") or rw.w(k + 1) not in ("wall", "walls"):
        return None
    rw.emit("staying" if rw.w(i) in _KEEPING else "stay", "near", like=rw.toks[i])
    return k


def next_door(rw: Rewriter, i: int) -> int | None:
    """"the bathroom next door" -> "the bathroom next to it" (next to the room the route is
    in), never a door; "the bedroom next door to the kitchen" -> "next to the kitchen"."""
    if not rw.at(i, "next", "door") or not _after_room(rw):
        return None
    if rw.w(i + 2) in ("to", "from"):  # "the bedroom next door to X": adjacent to X, named
        while rw.out and rw.out[-1].text in ("that", "which", "is", "'s"):
            rw.out.pop()  # "the bedroom that is ...": the room's relation, not the thing's
        rw.emit("adjacent", "to", like=rw.toks[i])
        return i + 3
    rw.emit("next", "to", like=rw.toks[i])
    rw.emit("it", like=rw.toks[i + 1])
    return i + 2


def front_door(rw: Rewriter, i: int) -> int | None:
    """"the front doorway", "the front door" -> "the doorway" (an entrance is a doorway;
    "front" is read here, never dropped)."""
    if rw.w(i) != "front" or rw.w(i + 1) not in ("door", "doorway", "entrance", "entry"):
        return None
    rw.emit("doorway", like=rw.toks[i + 1])
    return i + 2


_OTHER_ONE = (("the", "other", "one"), ("the", "other"), ("the", "other", "one", "instead"))


def not_the_one_with(rw: Rewriter, i: int) -> int | None:
    """"the bathroom, not the one with the washing machine, the other one, ..." -> "the
    bathroom without the washing machine, ...": a pick said by the one it is not."""
    if rw.w(i) != "," or not rw.at(i + 1, "not", "the", "one") or not rw.out:
        return None
    k = i + 4
    if rw.at(k, "that", "has") or rw.at(k, "which", "has"):
        k += 2
    elif rw.w(k) == "with":
        k += 1
    else:
        return None
    end = k
    while end < min(len(rw.words), k + 8) and rw.w(end) not in (",", *_ENDS):
        end += 1
    if rw.w(end) != "," or not any(rw.head_at(j) for j in range(k, end)):
        return None
    n = next((len(p) for p in sorted(_OTHER_ONE, key=len, reverse=True)
              if rw.at(end + 1, *p)), 0)
    if not n:
        return None
    rw.emit("without", like=rw.toks[i + 1])
    rw.out.extend(rw.toks[k:end])
    return end + 1 + n


#: This module's rules, tried before the others (:func:`.human.human_forms`).
_REACHED = ("reached", "accessed", "entered", "got", "gotten", "approached", "get", "reach",
            "access", "enter")
_OPENS = ("opens", "leads", "goes", "gives")
_ONTO = (("onto",), ("into",), ("to",), ("out", "onto"), ("out", "to"), ("out", "into"),
         ("on", "to"))


def reached_only_through(rw: Rewriter, i: int) -> int | None:
    """A room "that can only be reached through X" / "whose only door opens onto X" -> "adjacent
    to X": the room it opens onto is the one beside it. That it has no other way in is said
    about the map, not used to pick: it is reported as context, never dropped."""
    if not _after_room(rw):
        return None
    k = i
    if rw.w(k) in ("that", "which"):
        k += 1
        k += rw.at(k, "you", "can") * 2 or (rw.w(k) == "can")
        k += rw.w(k) == "only"
        k += rw.w(k) == "be"
        k += rw.w(k) == "only"
        if rw.w(k) not in _REACHED:
            return None
        k += 1 + (rw.w(k) in ("got", "gotten", "get") and rw.w(k + 1) in ("to", "into"))
        if rw.w(k) not in ("through", "via", "from") or "only" not in rw.words[i:k]:
            return None
        k += 1
    elif rw.w(k) == "whose":
        k += 1 + (rw.w(k + 1) in ("only", "one", "single"))
        if rw.w(k) not in ("door", "doorway", "entrance", "exit") or rw.w(k + 1) not in _OPENS:
            return None
        k += 2
        n = next((len(p) for p in _ONTO if rw.at(k, *p)), 0)
        if not n:
            return None
        k += n
    else:
        return None
    if rw.w(k) not in _DETS:
        return None
    rw.context.append((" ".join(rw.words[i:k]), (rw.toks[i].start, rw.toks[k - 1].end)))
    rw.emit("adjacent", "to", like=rw.toks[i])
    return k


RULES = (joined_room, reached_only_through, room_reached_from, point_halfway, corner_where, room_where_has,
         near_walls, front_door, not_the_one_with, has_got, things_around_it,
         surrounded_by, next_door)
