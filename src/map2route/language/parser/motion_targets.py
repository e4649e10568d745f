"""Destination frames that name the place rather than the motion (the second half of
:mod:`.motion_frames`, which runs these rules with its own).

* a place noun around a thing: "the spot in front of the TV", "the area next to the sofa",
  "where the plant is", "wherever the dog bed is" (the thing is the stop, the place noun and
  its relation kept as a said-as note); "the space between A and B" (a midpoint);
* a room's corner said with the room first: "the kitchen corner nearest to the fridge";
* labels of the last stop: "Final destination: the bed", "Your last stop is X", "The last
  place to go is X", "End your route at X";
* how far to walk: "go as far as X", "keep going until you reach X", "walk until you get to X";
* openers that only frame the request: "let's", "time to";
* "before coming back (here)": the walk back after the stop just said.

Each rewrite emits the phrasing the parser reads and notes what was said
(:func:`.motion_frames` ``_note`` format: ``{"move": "frame", "text", "about"}``).
"""

from __future__ import annotations

import re

from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.model import Clause, Modifier
from map2route.language.parser.rewrites import Rewriter, Rule

_DETS = ("the", "a", "an", "that", "this", "its", "their", "your", "my", "our")
_ENDS = (".", "!", "?", ";")
#: Nouns for a place around a thing ("the spot in front of the TV").
PLACE_NOUNS = frozenset({"spot", "area", "space", "place", "point", "position", "patch",
                         "bit", "part"})
#: Relations a place noun takes before its thing.
PLACE_RELATIONS: tuple[tuple[str, ...], ...] = tuple(sorted((
    tuple(p.split()) for p in (
        "in front of", "next to", "beside", "by", "near", "behind", "right in front of",
        "right next to", "right by", "just in front of", "close to", "opposite",
        "across from", "at the foot of", "at the end of", "under", "underneath")),
    key=len, reverse=True))
#: Nouns and openers of a label naming the last (or next) stop.
_LABEL_ADJ = frozenset({"final", "last", "next", "first", "ultimate", "end", "only"})
_LABEL_NOUN = frozenset({"destination", "stop", "goal", "target", "place", "spot", "point",
                         "location", "stopping"})
_LABEL_TAIL = (("to", "go"), ("to", "be"), ("to", "visit"), ("of", "the", "route"),
               ("of", "your", "route"), ("point",), ("for", "today"))
#: "," is a spaced dash too ("Final destination - the bed"): the tokenizer makes it a comma.
_LABEL_COPULA = (("is",), ("will", "be"), ("should", "be"), (":",), ("=",), (",",),
                 ("is", "going", "to", "be"))
#: "end your route at X", "finish your walk beside X".
_END_VERBS = frozenset({"end", "finish", "complete", "conclude", "stop"})
_WALK_NOUNS = frozenset({"route", "walk", "trip", "journey", "run", "path", "tour", "task"})
#: "until you reach X" and its kin.
_UNTIL_ARRIVE = (("reach",), ("get", "to"), ("arrive", "at"), ("come", "to"), ("hit",),
                 ("are", "at"), ("end", "up", "at"))
_KEEP_GOING = (("keep", "going"), ("keep", "walking"), ("keep", "moving"), ("keep", "on"),
               ("carry", "on"), ("go", "on"), ("continue",), ("walk",), ("go",), ("head",),
               ("move",), ("keep", "heading"), ("drive",), ("keep", "driving"))


def longest_phrase_at(rw: Rewriter, k: int,
                      table: tuple[tuple[str, ...], ...]) -> tuple[str, ...] | None:
    """The longest phrase of ``table`` said at ``k`` (``None`` if none is); shared with
    :mod:`.motion_frames`."""
    best = None
    for p in table:
        if rw.at(k, *p) and (best is None or len(p) > len(best)):
            best = p
    return best


_match = longest_phrase_at


def _head_len(rw: Rewriter, k: int) -> int:
    hit = head_lexicon().match(rw.words[k:k + head_lexicon().max_len])
    return hit[0] if hit else 0


def _np_at(rw: Rewriter, k: int) -> bool:
    return rw.w(k) in _DETS or _head_len(rw, k) > 0


def _note(rw: Rewriter, a: int, b: int, about: str) -> None:
    rw.marks.moves.append({"move": "frame", "text": " ".join(rw.words[a:b]), "about": about})


def _negative(rw: Rewriter) -> bool:
    """Whether the sentence written so far keeps away from what follows ("don't walk
    through", "avoid", "stay clear of")."""
    k = len(rw.out)
    while k and rw.out[k - 1].text not in _ENDS:
        k -= 1
    return any(t.text in ("not", "n't", "never", "avoid", "without", "clear", "away", "don't",
                          "dont", "avoiding") for t in rw.out[k:])


def place_around(rw: Rewriter, i: int) -> int | None:
    """"the spot in front of the TV" -> "the TV"; "the space between A and B" -> "the area
    between A and B" (a midpoint); "where the plant is" / "wherever the dog bed is" -> "the
    plant"."""
    if rw.w(i) in ("where", "wherever") and rw.w(i - 1) in ("to", "over", "by", "at") and \
            rw.w(i + 1) in ("the", "a", "my", "your", "our"):
        n = _head_len(rw, i + 2)
        k = i + 2
        while not n and k < i + 5 and rw.w(k).isalpha():
            k += 1
            n = _head_len(rw, k)
        end = k + n
        if not n or rw.w(end) not in ("is", "are", "sits", "stands") or \
                rw.w(end + 1) not in ("", *_ENDS, ",", "and", "then"):
            return None
        _note(rw, i, end + 1, "the place of the thing")
        rw.out.extend(rw.toks[i + 1:end])
        return end + 1
    if rw.w(i) != "the" or rw.w(i + 1) not in PLACE_NOUNS:
        return None
    k = i + 2
    if rw.w(k) in ("right", "just", "exactly") and rw.w(k + 1) == "between":
        k += 1
    if rw.w(k) == "between":
        if not rw.out or rw.out[-1].text not in ("to", "in", "at") or _negative(rw):
            return None  # "avoid the area between A and B": the gap, read elsewhere
        rw.emit("the", like=rw.toks[i])
        rw.emit("area", "between", like=rw.toks[k])
        rw.marks.points[rw.toks[i].start] = "midpoint"
        _note(rw, i, k + 1, "the point between")
        return k + 1
    rel = _match(rw, k, PLACE_RELATIONS)
    if rel is None or not _np_at(rw, k + len(rel)) or _negative(rw):
        return None
    b = k + len(rel)
    hit = head_lexicon().match(rw.words[b + 1:b + 1 + head_lexicon().max_len])
    if rw.w(b) in _DETS and hit is not None and hit[2] == "room":
        return None  # "the area next to the kitchen": a place the parser does not read
    _note(rw, i, b, "the thing; placed " + " ".join(rel))
    return b


def room_corner(rw: Rewriter, i: int) -> int | None:
    """"the kitchen corner nearest to the fridge" -> "the kitchen nearest to the fridge", made
    a corner after the parse (as "the corner of the kitchen nearest to the fridge")."""
    if rw.w(i) != "the":
        return None
    hit = head_lexicon().match(rw.words[i + 1:i + 1 + head_lexicon().max_len])
    if hit is None or hit[2] != "room" or hit[3] or rw.w(i + 1 + hit[0]) != "corner":
        return None
    k = i + 1 + hit[0]
    rw.marks.points[rw.toks[i].start] = "corner"
    _note(rw, i, k + 1, "the corner of the room")
    rw.out.extend(rw.toks[i:k])
    return k + 1


def stop_label(rw: Rewriter, i: int) -> int | None:
    """"Final destination - the bed", "Your last stop is X", "The last place to go is X" ->
    "go to X"; "End your route at X", "Finish your walk beside X" -> "go to X"."""
    if i and rw.w(i - 1) not in (*_ENDS, ",", ":", "and", "then", "so"):
        return None
    k = i + (rw.w(i) in ("your", "the", "my", "our"))
    if rw.w(k) in _END_VERBS and rw.w(k + 1) in ("your", "the", "this") and \
            rw.w(k + 2) in _WALK_NOUNS and k == i:
        j = k + 3
        rel = _match(rw, j, (("at",), ("by",), ("beside",), ("next", "to"), ("in", "front", "of"),
                             ("near",), ("in",)))
        if rel is None or not _np_at(rw, j + len(rel)):
            return None
        _note(rw, i, j + len(rel), "go to")
        rw.emit("go", "to", like=rw.toks[i])
        return j + len(rel)
    adj = rw.w(k) in _LABEL_ADJ
    k += adj
    if rw.w(k) not in _LABEL_NOUN or not (adj or k > i):
        return None
    k += 1
    tail = _match(rw, k, _LABEL_TAIL)
    k += len(tail) if tail else 0
    cop = _match(rw, k, _LABEL_COPULA)
    k += len(cop) if cop else 0
    if not _np_at(rw, k) or (cop is None and not adj):
        return None
    _note(rw, i, k, "go to")
    rw.emit("go", "to", like=rw.toks[i])
    return k


def as_far_as(rw: Rewriter, i: int) -> int | None:
    """"go as far as the sofa", "keep going until you reach the bed", "walk until you get to
    the door (and stop)" -> "go to ..."."""
    verb = _match(rw, i, _KEEP_GOING)
    if verb is None or rw.out and rw.out[-1].text in ("not", "n't", "never", "to"):
        return None
    k = i + len(verb)
    k += 1 if rw.w(k) in ("straight", "on", "forward", "ahead") else 0
    if rw.at(k, "as", "far", "as"):
        b = k + 3
    elif rw.w(k) in ("until", "till", "til") and rw.w(k + 1) == "you":
        arrive = _match(rw, k + 2, _UNTIL_ARRIVE)
        if arrive is None:
            return None
        b = k + 2 + len(arrive)
    else:
        return None
    if not _np_at(rw, b):
        return None
    _note(rw, i, b, "go to")
    rw.emit("go", "to", like=rw.toks[i])
    return b


def frame_opener(rw: Rewriter, i: int) -> int | None:
    """"Let's go to the fridge", "Time to head to the kitchen": the opener frames a request."""
    if i and rw.w(i - 1) not in (*_ENDS, ",", "so", "ok", "okay", "right"):
        return None
    n = 2 if rw.at(i, "let", "us") or rw.at(i, "time", "to") else 0
    if rw.at(i, "it", "is", "time", "to"):
        n = 4
    if not n or rw.w(i + n) not in ("go", "head", "walk", "move", "make", "get", "pop",
                                     "visit", "check"):
        return None
    _note(rw, i, i + n, "request")
    return i + n


def before_coming_back(rw: Rewriter, i: int) -> int | None:
    """"visit the TV stand before coming back here" -> "..., then come back here"."""
    if rw.w(i) not in ("before", "then") or rw.w(i + 1) not in ("coming", "heading", "going",
                                                                "getting", "returning"):
        return None
    if rw.w(i + 1) == "returning":
        k = i + 2
    elif rw.w(i + 2) == "back":
        k = i + 3
    else:
        return None
    if not any(t.text in ("to", "visit", "check", "via") for t in rw.out):
        return None
    _note(rw, i, k, "then come back")
    rw.emit(",", "then", like=rw.toks[i])
    rw.emit("come", "back", like=rw.toks[k - 1])
    return k


_ORDINAL_WORDS = frozenset({"first", "second", "third", "fourth", "fifth", "sixth", "next",
                            "last"})


def room_to_room(rw: Rewriter, i: int) -> int | None:
    """"keep walking from bedroom to bedroom and stop at the bed in the third bedroom you come
    to": walking through the rooms of one kind in turn is what the later "the third bedroom
    you come to" counts; the words are noted, the stop is read as said. Only where such an
    ordinal room of the same kind follows in the sentence."""
    verb = _match(rw, i, _KEEP_GOING)
    if verb is None or rw.w(i + len(verb)) != "from":
        return None
    k = i + len(verb) + 1
    n = _head_len(rw, k)
    if not n or rw.words[k:k + n] != rw.words[k + n + 1:k + 2 * n + 1] or \
            rw.w(k + n) != "to":
        return None
    room = rw.words[k:k + n]
    hit = head_lexicon().match(room)
    if hit is None or hit[2] != "room":
        return None
    b = k + 2 * n + 1
    if rw.w(b) not in ("and", ",") or rw.w(b + 1 + (rw.w(b + 1) == "then")) in _ENDS:
        return None
    end = b
    while end < len(rw.words) and rw.w(end) not in _ENDS:
        end += 1
    if not any(rw.w(j) in _ORDINAL_WORDS and rw.words[j + 1:j + 1 + n] == room
               for j in range(b, end)):
        return None
    _note(rw, i, b, "through the " + " ".join(room) + "s in turn, counted by the stop")
    return b + 1 + (rw.w(b + 1) == "then")


#: How long to stay, said after a dwell ("wait there until I say so", "stay for a minute"): it
#: changes no place of the route; noted.
_UNTIL_ME: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split()) for p in (
        "until i say so", "until i call", "until i call you", "until i come", "until i get there",
        "until i am back", "until i return", "until i arrive", "until i come back",
        "until i tell you", "until i am there", "until further notice", "till i say so",
        "till i call", "till i come", "till i get there", "for a minute", "for a moment",
        "for a bit", "for a while", "for a second", "for a few minutes", "for a few seconds",
        "for now", "a moment", "a minute", "a bit"))
_DWELLS = frozenset({"wait", "stay", "stop", "park", "remain", "hang", "stand"})


def dwell_duration(rw: Rewriter, i: int) -> int | None:
    """"Wait there until I say so.", "park by the door for a minute": a duration of the stay."""
    got = _match(rw, i, _UNTIL_ME)
    start = i
    while start and rw.w(start - 1) not in (*_ENDS, ","):
        start -= 1
    if got is None or not any(w in ("wait", "stay", "park", "remain", "hang")
                              for w in rw.words[start:i]):
        return None
    k = i + len(got)
    if rw.w(k) not in ("", *_ENDS, ","):
        return None
    said = [t.text for t in rw.out[-3:]]
    if len(said) >= 2 and said[-1] in ("there", "here") and said[-2] in _DWELLS and \
            (len(said) == 2 or said[-3] in (*_ENDS, ",", "and", "then")) and len(rw.out) > 2:
        # "Wait there until I say so.": staying at the stop before, all of it
        del rw.out[-2:]
        _note(rw, i - 2, k, "the stop before; how long to stay")
        return k
    _note(rw, i, k, "how long to stay")
    return k


def room_then_corner(clauses: list[Clause], text: str) -> list[Clause]:
    """"Go into the kitchen and stand in the corner by the window" / "... in the corner of the
    kitchen farthest from the fridge": one stage, the corner of the room just entered (the
    room said first, with what picks it, replaces the corner's generic "room" or the same
    room said again), as :func:`.annotator_rewrites.room_then_point` does for midpoints."""
    out: list[Clause] = []
    for c in clauses:
        ref = c.refs[0] if c.kind == "goal" and len(c.refs) == 1 else None
        prev = out[-1] if out else None
        if ref is None or ref.head not in ("corner", "centroid") or prev is None or \
                prev.kind != "goal" or len(prev.refs) != 1 or \
                prev.refs[0].head_kind != "room" or prev.refs[0].plural or \
                not re.fullmatch(r"[\s,]*(?:and|n|&)\s*(?:then\s+)?[a-z\s]*",  # "n": texted
                                 text[prev.span[1]:c.span[0]].lower()):
            out.append(c)
            continue
        rooms = [m for m in ref.modifiers if m.kind == "in_room"]
        said = rooms[0].refs[0] if len(rooms) == 1 and len(rooms[0].refs) == 1 else None
        if said is None or said.head not in ("room", prev.refs[0].head) or \
                said.head != "room" and said.modifiers:
            out.append(c)  # another room, or the same kind picked again ("the other ...")
            continue
        room = prev.refs[0]
        ref.modifiers = [Modifier("in_room", [room], span=room.span),
                         *[m for m in ref.modifiers if m.kind != "in_room"]]
        c.span = (prev.span[0], c.span[1])
        out[-1] = c
    return out


#: The rules, tried by :mod:`.motion_frames` after its own.
RULES: tuple[Rule, ...] = (dwell_duration, room_to_room, place_around, room_corner, stop_label, as_far_as, frame_opener,
                           before_coming_back)

__all__ = ["PLACE_NOUNS", "PLACE_RELATIONS", "RULES", "room_then_corner"]
