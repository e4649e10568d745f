"""Token rewrites of stage 0a (:mod:`.human`) for how people say the walk, its start and its
stop (fresh sets P and Q, issue 19).

* Where the walk starts, said inside the request: "walk from the front door to the stool",
  "go from the toilet in the bathroom over to the sofa" -> the start is context, never a stage
  (:func:`walk_from`).
* Picks out of a set: "Out of all the potted plants, go to the one farthest from X" -> "go
  to the potted plant farthest from X" (:func:`out_of_all`); "next to one of the beds" -> "next
  to a bed" (:func:`one_of_the`); "I need you at the one that's ..." -> "go to the one that's
  ..." (:func:`need_you_at`).
* Parts of a thing that stand for the thing: "the foot of the bed", "the end of the sofa"
  -> "the bed" (:func:`part_of_thing`); "the bathroom on the far side" -> "the bathroom"
  (:func:`far_side`).
* "stand halfway between A and B" -> the midpoint between A and B (:func:`stand_halfway`).
* Room to give: "give X lots of room", "leave them plenty of room", "don't squeeze past X"
  -> "keep clear of X" (:func:`give_room`, :func:`squeeze_past`).
* Comparatives said of one of two: "the floor lamp nearer the window" -> "nearest to the
  window" (:func:`nearer`).
* Participles of support and contact: "a bat propped on it" -> "a bat on it"; "the chair that
  isn't pushed up to the table" -> "the chair that is not next to the table"
  (:func:`propped_on`, :func:`not_pushed_up`).
* "pictures on its walls" -> "pictures": the walls of the room hold them, no wall-following
  (:func:`on_its_walls`); "go out into the kitchen" -> "go into the kitchen" (:func:`out_into`).
* "... . Stop next to the arm chair there." after a room goal: one stage, the thing in that
  room (:func:`stop_there`).
"""

from __future__ import annotations

import re

from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.model import Clause, place_in_room, room_then_object
from map2route.language.parser.rewrites import Rewriter
from map2route.language.parser.route_rewrites import _after_room

_ENDS = (".", "!", "?", ";")
_DETS = ("the", "a", "an", "that", "this", "its", "their", "your")
_WALK = ("walk", "go", "head", "come", "move", "run", "travel", "way", "proceed", "make",
         "get", "navigate", "wander", "stroll")
#: words after which a "to" is part of a relation, not the goal ("next to", "closest to")
_REL_TO = ("next", "close", "closest", "nearest", "near", "adjacent", "connected", "attached",
           "closer", "nearer", "up", "back", "due", "opposite")
_GOAL_PREPS = (("over", "to"), ("across", "to"), ("on", "to"), ("to",), ("through",),
               ("into",), ("toward",), ("towards",), ("up", "to"), ("down", "to"),
               ("all", "the", "way", "to"))


def _head_len(rw: Rewriter, k: int) -> int:
    hit = head_lexicon().match(rw.words[k:k + head_lexicon().max_len])
    return hit[0] if hit else 0


def _goal_prep(rw: Rewriter, k: int) -> int:
    """Length of a goal preposition at ``k`` ("over to": 2), 0 if none."""
    if rw.w(k - 1) in _REL_TO:
        return 0
    for seq in _GOAL_PREPS:
        if rw.at(k, *seq):
            return len(seq)
    return 0


def walk_from(rw: Rewriter, i: int) -> int | None:
    """"walk from X to Y", "go from X over to Y", "make your way from X through R to Y": X is
    where the walk starts (context); the rest is read as said."""
    if rw.w(i) != "from" or rw.w(i - 1) not in _WALK or rw.w(i + 1) not in _DETS:
        return None
    k, heads = i + 1, 0
    while k < len(rw.words) and rw.w(k) not in _ENDS and rw.w(k) != ",":
        if heads and _goal_prep(rw, k):
            break
        heads += 1 if _head_len(rw, k) else 0
        k += 1
    if not heads or k >= len(rw.words) or not _goal_prep(rw, k):
        return None
    a, b = rw.toks[i + 1], rw.toks[k - 1]
    rw.context.append((" ".join(rw.words[i + 1:k]), (a.start, b.end)))
    if rw.at(k, "through") or rw.at(k, "into"):
        return k
    n = _goal_prep(rw, k)
    rw.emit("to", like=rw.toks[k + n - 1])
    return k + n


def out_of_all(rw: Rewriter, i: int) -> int | None:
    """"Out of all the potted plants, go to the one farthest from X" -> "go to the potted
    plant farthest from X" (also "Of all the beds, ...")."""
    k = i + (2 if rw.at(i, "out", "of") else 1 if rw.w(i) == "of" else 0)
    if k == i or rw.w(k) != "all" or (i and rw.w(i - 1) not in _ENDS + (",",)):
        return None
    k += 1 + (1 if rw.w(k + 1) == "of" else 0)
    k += 1 if rw.w(k) in ("the", "these", "those") else 0
    n = _head_len(rw, k)
    if not n or rw.w(k + n) != ",":
        return None
    head = rw.toks[k:k + n]
    j = k + n + 1
    while j < len(rw.words) and rw.w(j) not in _ENDS and not rw.at(j, "the", "one"):
        j += 1
    if not rw.at(j, "the", "one"):
        return None
    rw.out.extend(rw.toks[k + n + 1:j + 1])
    last = head[-1].text
    sing = last[:-1] if last.endswith("s") and head_lexicon().match(
        [t.text for t in head[:-1]] + [last[:-1]]) else last
    rw.out.extend(head[:-1])
    rw.emit(sing, like=rw.toks[j + 1])
    return j + 2


def one_of_the(rw: Rewriter, i: int) -> int | None:
    """"next to one of the beds" -> "next to a bed" (not "one of the two beds", a count)."""
    if not rw.at(i, "one", "of", "the") or rw.w(i - 1) in ("the", "which", "any"):
        return None
    n = _head_len(rw, i + 3)
    if not n:
        return None
    last = rw.w(i + 3 + n - 1)
    if not last.endswith("s"):
        return None
    rw.emit("a", like=rw.toks[i])
    rw.out.extend(rw.toks[i + 3:i + 3 + n - 1])
    rw.emit(last[:-1] if not last.endswith("ches") else last[:-2], like=rw.toks[i + 3 + n - 1])
    return i + 3 + n


def need_you_at(rw: Rewriter, i: int) -> int | None:
    """"I need you at the one that's ...", "I want you by the sink" -> "go to ..."."""
    if rw.w(i) != "i" or rw.w(i + 1) not in ("need", "want", "'d") or rw.w(i + 2) != "you":
        return None
    k = i + 3
    if rw.at(k, "next", "to"):
        k += 2
    elif rw.w(k) in ("at", "by", "beside", "near"):
        k += 1
    else:
        return None
    rw.emit("go", "to", like=rw.toks[i])
    return k


_PARTS = ("foot", "head", "end", "edge", "side", "front", "back", "base", "corner")


def part_of_thing(rw: Rewriter, i: int) -> int | None:
    """"the foot of the bed", "the end of the sofa" -> "the bed": a stop at a part of a thing
    is a stop at the thing (never "the corner of ROOM", a geometry target)."""
    if rw.w(i) != "the" or rw.w(i + 1) not in _PARTS or rw.w(i + 2) != "of" or \
            rw.w(i + 3) not in ("the", "a", "that", "this"):
        return None
    hit = head_lexicon().match(rw.words[i + 4:i + 4 + head_lexicon().max_len])
    if hit is None or hit[2] != "object" or (rw.w(i + 1) == "corner"):
        return None
    return i + 3


def beyond_it(rw: Rewriter, i: int) -> int | None:
    """"the bedroom beyond it", "the room past the kitchen" -> "adjacent to it": the room on
    the other side of a room is one that shares a door with it."""
    if rw.w(i) not in ("beyond", "past") or rw.w(i + 1) not in ("it", "that", "this", "the") \
            or not _after_room(rw):
        return None
    if rw.w(i + 1) == "the" and not (hit := head_lexicon().match(
            rw.words[i + 2:i + 2 + head_lexicon().max_len])) or \
            rw.w(i + 1) == "the" and hit is not None and hit[2] != "room":
        return None
    rw.emit("adjacent", "to", like=rw.toks[i])
    return i + 1


def room_got_to_through(rw: Rewriter, i: int) -> int | None:
    """"the bathroom you get to through the bedroom", "the bathroom you reach via the
    bedroom" -> "the bathroom adjacent to the bedroom" (a room entered from another shares a
    door with it; the room passed is part of the reference, not a stage)."""
    k = i + (1 if rw.w(i) in ("that", "which") else 0)
    if rw.w(k) != "you" or not _after_room(rw):
        return None
    k += 1 + (1 if rw.w(k + 1) in ("can", "could", "would", "will") else 0)
    k += 2 if rw.w(k) in ("get", "go", "walk", "come") and rw.w(k + 1) in ("to", "into") \
        else 1 if rw.w(k) in ("reach", "enter", "access") else 0
    if rw.w(k) not in ("through", "thru", "via", "from") or rw.w(k + 1) not in _DETS:
        return None
    rw.emit("adjacent", "to", like=rw.toks[i])
    return k + 1


def through_room_to(rw: Rewriter, i: int) -> int | None:
    """"go through the kitchen to the fridge" -> "go through the kitchen, then to the
    fridge": the room is passed, the thing after "to" is the goal."""
    if rw.w(i) != "to" or rw.w(i + 1) not in _DETS or not _after_room(rw):
        return None
    back = [t.text for t in rw.out[-7:]]
    if "through" not in back or any(w in back[back.index("through"):] for w in (
            ",", ".", "and", "to", "from", "of")):
        return None
    k = len(back) - back[::-1].index("through") - 1
    if k == 0 or back[k - 1] not in _WALK + ("then", "cut", "pass", "cross"):
        return None
    rw.emit(",", "then", "to", like=rw.toks[i])
    return i + 1


def back_at_end(rw: Rewriter, i: int) -> int | None:
    """"fridge, then the bed ..., then back", "(3) back here" -> "back to the start": the
    last stop of a terse list is where the walk began."""
    if rw.w(i) != "back" or rw.w(i - 1) not in ("then", ",", "and", ")") or \
            rw.w(i + 1 + (rw.w(i + 1) in ("here", "again"))) not in ("", ".", "!"):
        return None
    rw.emit("back", "to", "the", "start", like=rw.toks[i])
    return i + 1 + (rw.w(i + 1) in ("here", "again"))


def middle_of_room(rw: Rewriter, i: int) -> int | None:
    """"the middle of the largest bedroom", "the centre of the kitchen" -> "the largest
    bedroom", made the room's centre after the parse (a ``centroid`` point)."""
    if rw.w(i) != "the" or rw.w(i + 1) not in ("middle", "centre", "center") or \
            rw.w(i + 2) != "of" or rw.w(i + 3) not in ("the", "that", "this", "your"):
        return None
    k = i + 4
    if rw.w(k).endswith(("er", "est")) and rw.w(k + 1) in ("of", "from") and \
            rw.w(k + 2) == "the":
        # "the middle of the bigger of the two living rooms": the partitive is read next
        q = k + 3 + (rw.w(k + 3).isdigit() or rw.w(k + 3) in ("two", "three", "both"))
        hit = head_lexicon().match(rw.words[q:q + head_lexicon().max_len])
        if hit is None or hit[2] != "room":
            return None
        for t in (rw.toks[i], rw.toks[i + 3], rw.toks[k]):
            rw.marks.points[t.start] = "centroid"
        return i + 3
    while k < i + 7 and rw.w(k).isalpha() and not _head_len(rw, k):
        k += 1
    hit = head_lexicon().match(rw.words[k:k + head_lexicon().max_len])
    if hit is None or hit[2] != "room" or hit[3] or rw.w(k + hit[0]) == "between":
        return None  # "the middle of the room between A and B": a midpoint
    for t in (rw.toks[i], rw.toks[i + 4]):  # the ref starts at "the" or at its adjective
        rw.marks.points[t.start] = "centroid"
    rw.out.append(rw.toks[i])
    return i + 4


def far_side(rw: Rewriter, i: int) -> int | None:
    """"the bathroom on the far side" -> "the bathroom" (the room beyond: the next room)."""
    if not (rw.at(i, "on", "the", "far", "side") or rw.at(i, "on", "the", "other", "side")):
        return None
    if rw.w(i + 4) == "of":
        return None
    return i + 4


def stand_halfway(rw: Rewriter, i: int) -> int | None:
    """"stand halfway between A and B", "wait midway between A and B" -> "go to the area
    between A and B", made a midpoint after the parse."""
    if rw.w(i) in ("stand", "wait", "stop") and rw.at(i + 1, "at", "the") and \
            rw.w(i + 3 + (rw.w(i + 3) in ("exact", "very"))) in ("point", "spot", "midpoint") \
            and rw.w(i - 1) in (",", ".", "and", "then", "please", ""):
        # "..., stand at the point halfway between A and B": the point is read as said
        rw.emit("go", "to", like=rw.toks[i])
        return i + 2
    if rw.w(i) not in ("stand", "wait", "stop", "position") or \
            rw.w(i + 1) not in ("halfway", "midway") or rw.w(i + 2) != "between":
        return None
    if [t.text for t in rw.out[-2:]] == ["go", "and"]:
        del rw.out[-1]  # "go and stand halfway between": one stage
    else:
        rw.emit("go", like=rw.toks[i])
    rw.emit("to", "the", like=rw.toks[i + 1])
    rw.emit("area", "between", like=rw.toks[i + 2])
    rw.marks.points[rw.toks[i + 1].start] = "midpoint"
    return i + 3


_ROOM_WORDS = ("room", "space", "clearance")
_LOTS = (("lots", "of"), ("plenty", "of"), ("a", "lot", "of"), ("loads", "of"), ("enough",),
         ("extra",), ("more",), ("a", "little", "more"), ("some",))


def _lots(rw: Rewriter, k: int) -> int:
    for seq in _LOTS:
        if rw.at(k, *seq):
            return len(seq)
    return 0


def give_room(rw: Rewriter, i: int) -> int | None:
    """"give the chair lots of room", "leave them plenty of room" -> "keep clear of the chair"
    / "keep clear of them"."""
    if rw.w(i) not in ("give", "leave", "allow"):
        return None
    k = i + 1
    while k < len(rw.words) and k < i + 12 and rw.w(k) not in _ENDS + (",",) and \
            not _lots(rw, k):
        k += 1
    n = _lots(rw, k)
    if not n or k == i + 1 or rw.w(k + n) not in _ROOM_WORDS or any(
            w in ("walls", "wall", "furniture", "obstacles", "everything", "me", "yourself")
            for w in rw.words[i + 1:k]):
        return None
    rw.emit("keep", "clear", "of", like=rw.toks[i])
    rw.out.extend(rw.toks[i + 1:k])
    return k + n + 1


def squeeze_past(rw: Rewriter, i: int) -> int | None:
    """"don't squeeze past the chairs", "do not brush past X" -> "keep clear of X"."""
    k = i + (2 if rw.at(i, "do", "n't") or rw.at(i, "do", "not") else 1 if rw.w(i) in (
        "never", "dont") else 0)
    if k == i or rw.w(k) not in ("squeeze", "brush", "scrape", "bump", "rub") or \
            rw.w(k + 1) not in ("past", "by", "against", "into"):
        return None
    rw.emit("keep", "clear", "of", like=rw.toks[i])
    return k + 2


_KNOCK = ("knock", "tip", "kick", "bump", "topple", "disturb", "trip")


def dont_knock_over(rw: Rewriter, i: int) -> int | None:
    """"don't knock the stool over", "try not to bump into the vase", "don't trip over the
    cable" -> "keep clear of X" (the thing not to touch, a far constraint)."""
    k = i + (2 if rw.at(i, "do", "n't") or rw.at(i, "do", "not") else 1 if rw.w(i) in (
        "never", "dont") else 0)
    k += 3 if k == i and rw.at(i, "try", "not", "to") else 0
    if k == i or rw.w(k) not in _KNOCK:
        return None
    k += 1 + (1 if rw.w(k + 1) in ("into", "over", "against") else 0)
    if rw.w(k) not in _DETS or not any(_head_len(rw, j) for j in range(k + 1, k + 4)):
        return None
    rw.emit("keep", "clear", "of", like=rw.toks[i])
    j = k
    while j < len(rw.words) and j < k + 6 and rw.w(j) not in _ENDS + (",",):
        if rw.w(j) == "over" and rw.w(j + 1) not in ("there", "by", "near", "next"):
            rw.out.extend(rw.toks[k:j])  # "knock the stool over": the particle goes
            return j + 1
        j += 1
    return k


def nearer(rw: Rewriter, i: int) -> int | None:
    """"the floor lamp nearer the window" -> "the floor lamp nearest to the window": one of
    two picked by a comparative."""
    if rw.w(i) not in ("nearer", "closer") or rw.w(i + 1) not in ("the", "to"):
        return None
    k = len(rw.out)
    last = [t.text for t in rw.out[max(k - 3, 0):k]]
    if not any((h := head_lexicon().match(last[j:])) is not None and h[0] == len(last) - j
               for j in range(len(last))):
        return None
    rw.emit("nearest", "to", like=rw.toks[i])
    return i + (2 if rw.w(i + 1) == "to" else 1)


_PROPPED = ("propped", "leaning", "resting", "perched", "balanced", "lying", "laid",
            "stacked", "sat", "piled")


def propped_on(rw: Rewriter, i: int) -> int | None:
    """"a baseball bat propped on it", "a book lying on it", "a bat leaning up against it" ->
    "a baseball bat on it" (only said of "it" / "them": the thing just named)."""
    if rw.w(i) not in _PROPPED or not _head_len(rw, i - 1) and not rw.w(i - 1).isalpha():
        return None
    k = i + 1 + (1 if rw.w(i + 1) == "up" else 0)
    if rw.w(k) not in ("on", "against", "atop") or rw.w(k + 1) not in ("it", "them"):
        return None
    rw.emit("on", like=rw.toks[k])
    return k + 1


def not_pushed_up(rw: Rewriter, i: int) -> int | None:
    """"the chair that isn't pushed up to the table", "that is not tucked under the desk" ->
    "that is not next to the table"."""
    k = i
    if rw.at(k, "is", "n't") or rw.at(k, "is", "not"):
        k += 2
    elif rw.w(k) == "isn't":
        k += 1
    else:
        return None
    if rw.w(k) not in ("pushed", "tucked", "drawn", "pulled", "placed", "set"):
        return None
    k += 1 + (1 if rw.w(k + 1) in ("up", "in") else 0)
    if rw.w(k) not in ("to", "against", "under", "into", "at"):
        return None
    rw.emit("is", "not", "next", "to", like=rw.toks[i])
    return k + 1


def on_its_walls(rw: Rewriter, i: int) -> int | None:
    """"the bedroom that has the most pictures on its walls" -> "... the most pictures"; "a
    plant on the floor next to a bed" -> "a plant next to a bed" (not "on the floor of
    ROOM", a room)."""
    if rw.w(i) not in ("on", "along") or rw.w(i + 1) not in ("its", "the", "their") or \
            rw.w(i + 2) not in ("walls", "floor", "ground") or rw.w(i + 3) in ("of", "in") or \
            rw.w(i + 2) == "walls" and rw.w(i + 1) == "the":
        return None
    k = len(rw.out)
    if not k or head_lexicon().match([rw.out[-1].text]) is None:
        return None
    return i + 3


def out_into(rw: Rewriter, i: int) -> int | None:
    """"go out into the kitchen" -> "go into the kitchen"."""
    if rw.w(i) == "out" and rw.w(i + 1) in ("into", "to") and rw.w(i - 1) in _WALK:
        return i + 1
    return None


_STOP = ("stop", "wait", "stand", "halt", "park")
_STOP_PREPS = (("next", "to"), ("at",), ("by",), ("beside",), ("near",))


def stop_there(rw: Rewriter, i: int) -> int | None:
    """"Go to the bedroom with the dog bed. Stop next to the arm chair there." -> "... . go
    to the arm chair there", merged after the parse into one stage, the thing in that room
    (:func:`merge_stop_there`)."""
    if rw.w(i) not in _STOP or rw.w(i - 1) not in _ENDS:
        return None
    n = next((len(p) for p in _STOP_PREPS if rw.at(i + 1, *p)), 0)
    k = i + 1
    while k < len(rw.words) and rw.w(k) not in _ENDS:
        k += 1
    if not n or rw.w(k - 1) != "there":
        return None
    rw.emit("go", "to", like=rw.toks[i])
    return i + 1 + n


_STOP_THERE = re.compile(r"[\s,]*[.!]\s*(?:stop|wait|stand|halt|park)\s+(?:at|by|beside|near|"
                         r"next\s+to)\s+(?:the\s+|its\s+)?")


def merge_stop_there(clauses: list[Clause], text: str) -> list[Clause]:
    """A room goal, then "Stop next to the arm chair there." (:func:`stop_there`): one stage,
    the arm chair in that room."""
    out: list[Clause] = []
    for c in clauses:
        prev = out[-1] if out else None
        if prev is not None and room_then_object(prev, c) and \
                _STOP_THERE.fullmatch(text[prev.span[1]:c.refs[0].span[0]].lower()) and \
                re.match(r"\s*(?:in\s+)?there\b", text[c.refs[0].span[1]:].lower()):
            out[-1] = place_in_room(prev, c)
            continue
        out.append(c)
    return out


def scene_follow_up(words: list[str]) -> bool:
    """Whether a sentence only says more about the scene just set ("You are standing next to
    a bed. It's the one with the basketball on it.")."""
    return words[:3] in (["it", "'s", "the"], ["it", "is", "the"]) and words[3:4] == [
        "one"] and not any(w in ("go", "walk", "head", "stop") for w in words)


_ERRANDS = ("errands", "errand", "chores", "jobs", "tasks", "todo", "to-do", "itinerary")


def errand_list(rw: Rewriter, i: int) -> int | None:
    """"Errands: (1) the plunger, (2) the tissue box, (3) back here" -> "Stops: 1. the
    plunger, 2. the tissue box, 3. back here" (a list header said with another noun, items
    numbered in brackets)."""
    if rw.w(i) in _ERRANDS and rw.w(i + 1) == ":" and (i == 0 or rw.w(i - 1) in _ENDS):
        rw.emit("stops", like=rw.toks[i])
        return i + 1
    if rw.w(i) == "(" and rw.w(i + 1).isdigit() and rw.w(i + 2) == ")" and \
            int(rw.w(i + 1)) <= 20 and rw.w(i + 3).isalpha():
        rw.emit(rw.w(i + 1), like=rw.toks[i + 1])
        rw.emit(".", like=rw.toks[i + 2])
        return i + 3
    return None


#: Run on their own pass before the other rules (a set-up rule reads the sentence after it).
EARLY = (need_you_at, one_of_the, not_pushed_up, errand_list, room_got_to_through)
RULES = (walk_from, out_of_all, part_of_thing, far_side, stand_halfway,
         give_room, squeeze_past, dont_knock_over, nearer, propped_on, on_its_walls, out_into,
         stop_there, beyond_it, back_at_end, through_room_to,
         middle_of_room)

__all__ = ["EARLY", "RULES", "merge_stop_there", "scene_follow_up"]
