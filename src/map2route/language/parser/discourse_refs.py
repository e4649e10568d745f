"""Words that point back into the instruction: "do the same", "that part", "the last bit".

People who give a route in several sentences refer back to what they said before instead of
saying it again:

* a step repeated for another thing or room: "Go around the bed in the bedroom. Do the same in
  the other bedroom." -> "... go around the bed in the other bedroom"; "Go to the bed. Then do
  the same with the dresser." / "the same thing for the desk" / "do that again around the
  sofa" / "do the same for the one in the bathroom" (the verb of the step said last, with the
  new thing; "in ROOM" keeps the old thing and moves it to the new room);
* a leg of the route named by its place in the route or by "that": "for the last bit", "on the
  first stretch", "during the second one", "for that part", "while doing it" (the leg said
  last, or the Nth: :func:`.stage_legs.tie_stage_legs` ties it), and
  "on both" / "for both (of them)" (every leg: the whole way);
* the place said last opening the next step: "Once there, go to the TV", "While you're there,
  circle the table" (the next step starts there; the words are context).

Each rule rewrites the words onto a phrasing the parser reads already, keeping the character
spans of the words it replaces. Hand-written, like the rest of the parser: the constructions
are a closed class of discourse words (same, again, bit, part, both), each checked by a test.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.animate_scenes import animate_statement, thing_state
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.rewrites import Rewriter, Rule
from map2route.language.tokens import Token

__all__ = ["RULES"]

_ENDS = (".", "!", "?", ";")
#: "do the same", "the same thing", "do that again": the step said last, once more.
_SAME = (("do", "the", "same", "thing"), ("do", "the", "same"), ("do", "that", "again"),
         ("do", "it", "again"), ("do", "this", "again"), ("repeat", "that"),
         ("the", "same", "thing"), ("same", "thing"), ("same", "again"))
#: Words that open a step without being its verb ("Then, go ...", "and next ...").
_OPENERS = ("then", "and", ",", "first", "next", "now", "so", "ok", "okay", "please", "after",
            "that", "finally", "also")
_STEP_VERBS = ("go", "walk", "head", "move", "circle", "visit", "loop", "run", "drive", "pass",
               "stop", "come", "get", "travel", "navigate", "proceed")
#: "with the dresser", "for the desk", "around the sofa": the new thing of the step.
_NEW_THING = ("with", "for", "to", "around", "at", "on")
_DETS = ("the", "a", "an", "your", "my", "our", "this", "that")


def _step_said_last(rw: Rewriter) -> tuple[list[Token], list[Token]] | None:
    """The verb words and the thing (determiner and head) of the step said last, from the
    words already read: ("go around", "the bed") for "Go around the bed in the bedroom."."""
    out = rw.out
    e = len(out)
    while e > 0 and out[e - 1].text in (*_OPENERS, *_ENDS):
        e -= 1
    s = e
    while s > 0 and out[s - 1].text not in _ENDS:
        s -= 1
    while s < e and out[s].text in _OPENERS:
        s += 1
    if s >= e or out[s].text not in _STEP_VERBS:
        return None
    k = s + 1
    lex = head_lexicon()
    words = [t.text for t in out]
    while k < e and words[k] not in _DETS and lex.match(words[k:k + lex.max_len]) is None:
        k += 1
    if k >= e or k - s > 3:
        return None
    d = k + (1 if words[k] in _DETS else 0)
    hit = lex.match(words[d:d + lex.max_len])
    if hit is None:
        return None
    return out[s:k], out[k:d + hit[0]]


def same_again(rw: Rewriter, i: int) -> int | None:
    """"Do the same with the dresser" -> "go to the dresser" (the step said last, another
    thing); "do the same in the other bedroom" -> "go around the bed in the other bedroom"."""
    n = next((len(p) for p in _SAME if rw.at(i, *p)), 0)
    if not n:
        return None
    k = i + n + (1 if rw.w(i + n) == "again" else 0)
    prep = rw.w(k)
    if prep not in (*_NEW_THING, "in", "inside"):
        return None
    got = _step_said_last(rw)
    if got is None:
        return None
    verb, thing = got
    like = rw.toks[i]
    rw.emit(*(t.text for t in verb), like=like)
    if prep in ("in", "inside"):
        room = rw.head_at(k + 2) if rw.w(k + 1) in _DETS else 0
        if room and rw.w(k + 2 + room) in _NEW_THING and rw.w(k + 3 + room) in _DETS:
            # "do the same in the living room with the sofa": the sofa in the living room
            new = k + 3 + room
            end = new + 1 + rw.head_at(new + 1)
            rw.out.extend(rw.toks[new:end])
            rw.emit(*rw.words[k:k + 2 + room], like=rw.toks[end - 1])
            return end
        rw.emit(*(t.text for t in thing), like=like)
        return k  # "in the other bedroom" read after it
    k += 1
    if rw.w(k) in ("the", "that") and rw.w(k + 1) in ("one", "ones"):
        # "for the one in the bathroom": the thing said last
        rw.emit(*(t.text for t in thing), like=rw.toks[k + 1])
        return k + 2
    return k


_BITS = ("bit", "part", "piece", "stretch", "leg", "section", "half", "one", "stage")
#: Of those, the ones :func:`.stage_rewrites.stage_leg` does not read after an ordinal.
_NTH_BITS = ("bit", "piece", "half", "one", "stage")


def _nth(word: str) -> int:
    return W.ORDINALS.get(word, 0) or (-1 if word in ("last", "final") else 0)


def leg_named(rw: Rewriter, i: int) -> int | None:
    """"for the last bit", "during the second one" -> "on the way there" tied to that leg;
    "for that part", "while doing it" -> the leg said last; "on both",
    "for both of them" -> the whole way."""
    w = rw.w(i)
    if w in ("for", "on", "during") and rw.w(i + 1) in ("the", "your") and \
            _nth(rw.w(i + 2)) and rw.w(i + 3) in _NTH_BITS and (rw.w(i + 3) != "one" or
                                                          w == "during"):
        # "during the second one" is a leg; "in / on the second one" is a thing
        rw.marks.stage_legs[rw.toks[i].start] = _nth(rw.w(i + 2))
        rw.emit("on", "the", "way", "there", like=rw.toks[i])
        return i + 4
    if w in ("for", "during", "on") and rw.w(i + 1) in ("that", "this") and \
            rw.w(i + 2) in _BITS:
        rw.emit("on", "the", "way", "there", like=rw.toks[i])
        return i + 3
    if w in ("while", "when") and rw.w(i + 1) == "doing" and rw.w(i + 2) in ("it", "that",
                                                                          "this", "so"):
        rw.emit("on", "the", "way", like=rw.toks[i])
        return i + 3
    if w in ("on", "for", "during") and rw.w(i + 1) == "both":
        k = i + 2
        if rw.at(k, "of", "them"):
            k += 2
        elif rw.w(k) in ("legs", "parts", "trips", "ways", "stops"):
            k += 1
        if rw.w(k) not in (*_ENDS, ",", ""):
            return None
        rw.emit("the", "whole", "way", like=rw.toks[i])
        return k
    return None


#: "Once there, ...", "While you're there, ...": at the stop said last, the next step.
_THERE = (("there",), ("once", "there"), ("when", "there"), ("once", "you", "are", "there"),
          ("when", "you", "are", "there"), ("while", "you", "are", "there"),
          ("while", "there"), ("once", "you", "get", "there"), ("when", "you", "get", "there"))


def there_opener(rw: Rewriter, i: int) -> int | None:
    """"Go to the sofa. Once there, go to the television." -> "... . go to the television.":
    the words only say the next step starts where the last one ended (reported as
    context); they are no stop of their own."""
    if rw.out and rw.out[-1].text not in _ENDS:
        return None
    n = next((len(p) for p in sorted(_THERE, key=len, reverse=True) if rw.at(i, *p)), 0)
    if not n or rw.w(i + n) != "," or not rw.out:
        return None
    said = rw.toks[i:i + n]
    rw.context.append((" ".join(t.text for t in said), (said[0].start, said[-1].end)))
    return i + n + 1


RULES: tuple[Rule, ...] = (animate_statement, thing_state, there_opener, same_again,
                           leg_named)
