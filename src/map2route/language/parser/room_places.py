"""Room places: how people say a room by the rooms it joins, and a place in a room.

Each rewrite puts one way of saying it onto the form the later stages already read, keeping
character spans (a word taken out is folded into the span of a word beside it):

* "come back out into the living room" / "come back out to the bed" -> "come back into ..." /
  "come back to ...": "out" says only that the robot leaves the room it is in; "come back
  through the bedroom into the bathroom" -> "come through ...": the bedroom is passed, not a
  stop to come back to; "come back out and <request>" -> "<request>": leaving the room is
  no stop;
* the place nouns without their article, as learners say them ("go to corner where bat is",
  "middle of four chairs around table", "bedroom on other side of kitchen", "through bedroom",
  "corner with bat in it") -> "the corner", "the middle", "around the table", "the other side
  of the kitchen", "through the bedroom", "with the bat";
* "the middle of those three chairs" -> "... of the three chairs": the group is the one just
  pointed at;
* "the bedroom that opens (straight) off the kitchen", learners' "that is open from the
  kitchen" -> "the bedroom off the kitchen";
* the relation said backwards, "the bedroom that the bathroom with the washer opens off", learners'
  "the bedroom where the bathroom with washer is open from it" -> "the bedroom off the bathroom
  with the washer" (the same two rooms sharing a door);
* "park yourself in the bathroom" -> "wait in the bathroom" (a room: in a corner or by a thing
  it is read already);
* "the corner where the bat is leaning / propped / standing" -> "the corner where the bat is";
* "through the kitchen into the bedroom on the other side of it": "it" is the kitchen gone
  through, said again; and "through A into B" said as the route's end ("Go through the bedroom
  into the bathroom with the washer.", "... and wait there", "..., and after that go to X") ->
  "through A to B": B is where to stop, not a room passed (a thing said after it, "and stop by
  the window in there", keeps "into" for :mod:`.room_then_thing`).

After the parse, :func:`restated_rooms` reads a room said again right after it by a size ("come
back out into the living room next to it, the smaller one, and stop halfway between ..."): one
room, the smaller of those next to it, not two stops.

"The corner between the two windows" / "between the fridge and the window" is refused by name:
no grounding verb picks a corner by two things, and "nearest" to both is not what "between"
says.

The frames are a closed list of a few words each, so they are written by hand like the rest of
the parser.
"""

from __future__ import annotations

import re

from map2route.language.errors import ParseError
from map2route.language.parser.model import Clause
from map2route.language.tokens import Token
from map2route.language.vocabulary import ROOM_WORD_TYPES

__all__ = ["restated_rooms", "room_place_forms"]

#: Place nouns a learner says without "the" ("go to corner", "in middle of").
_PLACES = ("corner", "middle", "centre", "center")
#: Words before such a noun that want an article after them.
_BEFORE_PLACE = ("to", "in", "into", "of", "at", "on", "towards", "toward", "by")
#: Words after such a noun that make it a place of something ("in middle of kitchen", "corner
#: where bat is"); "the floor is wet in middle" is left as said.
_PLACE_TAILS = ("of", "between", "where", "with", "by", "near", "next", "that", "which")
#: Words that already determine the noun ("the far corner", "a corner", "that corner").
_DETS = ("the", "a", "an", "this", "that", "each", "every", "one", "its", "my", "your")
#: Stranded relation verbs, said after the room they relate ("that X opens off").
_STRANDED = (("opens", "off", "of"), ("opens", "off"), ("opens", "onto"), ("opens", "into"),
             ("is", "open", "from"), ("is", "open", "to"), ("opens", "from"),
             ("leads", "off"), ("comes", "off"))
#: A relation said with its verb after "that" ("the bedroom that opens straight off X").
_OPENS_OFF = (("opens", "straight", "off"), ("opens", "right", "off"), ("opens", "off"),
              ("is", "open", "straight", "from"), ("is", "open", "from"),
              ("leads", "off"), ("is", "off"), ("is", "just", "off"), ("is", "right", "off"))
#: Nouns of a place in or of a room ("the middle of kitchen", "the other side of kitchen").
_PARTS = ("middle", "centre", "center", "corner", "side", "end")
#: Words after "those three" that point back at things named before ("those three things"),
#: read by :mod:`.introductions` as they are.
_GENERIC = ("things", "items", "objects", "ones", "bits", "pieces", "and", "then", "of", "or")
#: Posture verbs of a thing in a corner ("where the bat is leaning").
_POSTURES = ("leaning", "propped", "standing", "sitting", "lying", "stood", "sat")
#: Ends of a route-final "through A into B" (see the module doc).
_END = (".", "!", "?")
_STAY = (("and", "wait", "there"), ("and", "stay", "there"), ("and", "stop", "there"))
_NEXT = ((",", "and", "after", "that"), ("and", "after", "that"), (",", "after", "that"))


_PREPOSITIONS = frozenset({"from", "to", "into", "through", "thru", "in", "at", "of", "past",
                           "by", "near", "via", "toward", "towards", "onto", "out"})


def _at(words: list[str], k: int, seq: tuple[str, ...]) -> bool:
    return tuple(words[k:k + len(seq)]) == seq


def _room_at(words: list[str], k: int) -> int:
    """Length of a room word at ``k`` ("kitchen", "living room"), or 0."""
    for n in (2, 1):
        if " ".join(words[k:k + n]) in ROOM_WORD_TYPES:
            return n
    return 0


def _clause_end(words: list[str], k: int) -> int:
    """Index of the first clause-ending mark or "and" at or after ``k``."""
    while k < len(words) and words[k] not in (*_END, ",", ";", "and", "then"):
        k += 1
    return k


def _final_into(words: list[str], i: int) -> bool:
    """Whether "into" at ``i`` (after "through <room>") ends the route's leg: the room
    phrase after it runs to a sentence end, "and wait there" or ", and after that"."""
    end = _clause_end(words, i + 1)
    if "there" in words[i + 1:end] or "into" in words[i + 1:end]:
        return False
    return end >= len(words) or words[end] in _END or \
        any(_at(words, end, s) for s in (*_STAY, *_NEXT))


def _through_room(words: list[str], i: int) -> tuple[int, int] | None:
    """(start, length) of the room said in "through (the) ROOM" right before ``i``."""
    for n in (2, 1):
        k = i - n
        if k >= 1 and " ".join(words[k:i]) in ROOM_WORD_TYPES:
            det = 1 if words[k - 1] in ("the", "that", "this") else 0
            if words[k - 1 - det] == "through":
                return k, n
    return None


def _stranded(words: list[str], i: int) -> tuple[int, int] | None:
    """(index of the stranded verb, its length) for "that|where X ... opens off (it)" from
    ``i`` ("that"/"where"), the relation ending its clause; or None."""
    for k in range(i + 2, min(i + 10, len(words))):
        if words[k] in (*_END, ",", ";"):
            return None
        for s in _STRANDED:
            if _at(words, k, s):
                n = len(s) + (1 if words[k + len(s):k + len(s) + 1] == ["it"] else 0)
                after = words[k + n] if k + n < len(words) else "."
                if after in (*_END, ",", ";", "and", "then") and \
                        (words[i + 1] in ("the", "a") or _room_at(words, i + 1)):
                    return k, n
                return None
    return None


def _refuse_guesses(toks: list[Token], words: list[str]) -> None:
    """Raise :class:`ParseError` naming "the corner between A and B" (module doc)."""
    for i, w in enumerate(words):
        if w == "corner" and words[i + 1:i + 2] == ["between"]:
            said = " ".join(x for x in words[i:i + 6] if x.isalnum())
            msg = (f"did not understand {said!r}: no grounding verb picks a corner by the two "
                   "things it lies between; say 'the corner nearest the window' (one thing), "
                   "or use the hybrid or llm grounder")
            raise ParseError(msg, "corner between", (toks[i].start, toks[i + 1].end))


def room_place_forms(toks: list[Token]) -> list[Token]:
    """Rewrite the room-place frames of the module docstring.

    Raises:
        ParseError: "the corner between A and B" (module doc).
    """
    words = [t.text for t in toks]
    _refuse_guesses(toks, words)
    out: list[Token] = []
    via: list[Token] = []  # the room of the last "through ROOM into"
    i = 0
    while i < len(toks):
        w, t = words[i], toks[i]
        prev = words[i - 1] if i else ""
        if w == "out" and prev == "back" and words[i + 1:i + 2] in (["into"], ["to"]):
            out.append(Token(words[i + 1], t.start, toks[i + 1].end))  # "back out into"
            i += 2
            continue
        if w == "come" and words[i + 1:i + 3] == ["back", "out"] and \
                words[i + 3:i + 4] in (["and"], [","]) and words[i + 4:i + 5] and \
                words[i + 4] not in (".", "!", "?"):
            # "then come back out and park by the cart": leaving the room is no stop
            out.append(Token(words[i + 4], t.start, toks[i + 4].end))
            i += 5
            continue
        if w == "park" and words[i + 1:i + 3] in (["yourself", "in"], ["yourself", "inside"]) \
                and _room_at(words, i + 3 + (words[i + 3:i + 4] == ["the"])):
            out.append(Token("wait", t.start, toks[i + 1].end))  # "park yourself in the bathroom"
            i += 2
            continue
        if w == "back" and prev == "come" and words[i + 1:i + 2] == ["through"] and \
                words[i + 2:i + 3] and (words[i + 2] in _DETS or _room_at(words, i + 2)):
            out[-1] = Token("come", out[-1].start, t.end)  # "come back through A to B"
            i += 1
            continue
        if w == "around" and words[i + 1:i + 2] and words[i + 1] not in _DETS and \
                any(p in words[max(0, i - 5):i] for p in _PLACES):
            out += [t, Token("the", t.end, t.end)]  # "middle of four chairs around table"
            i += 1
            continue
        if w in ("those", "these") and words[i - 1:i] == ["of"] and \
                words[i - 2:i - 1] and words[i - 2] in _PLACES and i + 2 < len(words) and \
                words[i + 1] in (
                "two", "three", "four", "five", "six") and words[i + 2].isalpha() and \
                words[i + 2] not in _GENERIC:
            out.append(Token("the", t.start, t.end))  # "those three chairs"
            i += 1
            continue
        if w not in _DETS and (_room_at(words, i) and (
                prev == "through" or prev == "of" and words[i - 2:i - 1] and
                words[i - 2] in _PARTS) or prev == "with" and words[i - 2:i - 1] == ["corner"]):
            out += [Token("the", t.start, t.start), t]  # "through bedroom", "corner with bat"
            i += 1
            continue
        noun = i + (1 if w in ("far", "back", "other") else 0)
        if prev in _BEFORE_PLACE and (w in _PLACES or (w in ("far", "back") and words[
                i + 1:i + 2] == ["corner"]) or (w == "other" and words[i + 1:i + 2] == ["side"])) \
                and words[noun + 1:noun + 2] and words[noun + 1] in _PLACE_TAILS:
            out.append(Token("the", t.start, t.start))  # "to corner", "on other side"
            out.append(t)
            i += 1
            continue
        m = next((len(r) for r in _OPENS_OFF if _at(words, i + 1, r)), 0)
        if w in ("that", "which") and m:
            out.append(Token("off", t.start, toks[i + m].end))  # "that opens off X"
            i += m + 1
            continue
        # a relative "that" follows its room; after a preposition it is a determiner ("go
        # through from that bathroom into the bedroom it opens into")
        if w in ("that", "where", "which") and prev not in _PREPOSITIONS and \
                (st := _stranded(words, i)) is not None:
            k, n = st
            out.append(Token("off", t.start, t.end))  # "that X opens off" -> "off X"
            out += toks[i + 1:k - 1]
            out.append(Token(words[k - 1], toks[k - 1].start, toks[k + n - 1].end))
            i = k + n
            continue
        if w == "is" and words[i + 1:i + 2] and words[i + 1] in _POSTURES and \
                "where" in words[max(0, i - 5):i]:
            out.append(Token("is", t.start, toks[i + 1].end))  # "where the bat is leaning"
            i += 2
            continue
        if w == "into" and (room := _through_room(words, i)) is not None:
            via = toks[room[0]:room[0] + room[1]]
            if _final_into(words, i):
                out.append(Token("to", t.start, t.end))  # "through A into B." : B the stop
                if words[i + 1:i + 2] and words[i + 1] not in _DETS:
                    out.append(Token("the", t.end, t.end))  # learners' "into bathroom"
                i += 1
                continue
        if w == "it" and via and words[max(0, i - 3):i] == ["other", "side", "of"]:
            # "the other side of it": the room gone through, said again
            out += [Token("the", t.start, t.start)] if via[0].text not in _DETS else []
            out += [Token(v.text, t.start, t.end) for v in via]
            i += 1
            continue
        out.append(t)
        i += 1
    return out


def restated_rooms(clauses: list[Clause], text: str) -> list[Clause]:
    """A goal at a room, then a goal at a room of the same type said as ", the smaller one":
    one goal, the first room with the second's rank (module doc)."""
    out: list[Clause] = []
    for c in clauses:
        prev = out[-1] if out else None
        if prev is not None and prev.kind == c.kind == "goal" and len(prev.refs) == 1 and \
                len(c.refs) == 1 and prev.refs[0].head_kind == c.refs[0].head_kind == "room" \
                and prev.refs[0].head == c.refs[0].head and c.refs[0].modifiers and \
                all(m.kind == "rank" for m in c.refs[0].modifiers) and \
                re.fullmatch(r"\s*,\s*(?:the\s+)?", text[prev.span[1]:c.span[0]].lower()):
            prev.refs[0].modifiers.extend(c.refs[0].modifiers)
            prev.span = (prev.span[0], c.span[1])
            continue
        out.append(c)
    return out
