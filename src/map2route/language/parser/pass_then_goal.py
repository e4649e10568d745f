"""A pass and a goal joined by "and": "go past the shelf and over to the couch", "go through the
kitchen and to the fridge", "walk past the TV and across to the window".

The core grammar carries the first verb's kind over an "and" ("go past the TV and the sofa" is
two passes), so the goal after "and to" was read as a second pass: a wrong parse. A goal
preposition right after the "and" ("to", "over to", "across to", "on to", "up to", "down to",
"round to") starts a goal of its own, as ", then over to the couch" already does; so
:func:`pass_then_goal` reads that "and" as "then" (the same span, so refusals still point into
the original text).

"on your way" right before a verb ("go to the sofa and on your way pass the fridge") was read as
"your way" to a goal, so the pass became a second goal after the sofa; :func:`on_your_way`
reads it as "on the way", which the grammar already reads as a stop met before the goal; and a
"but" before it as "and" (", but on the way stop at X" put X after the goal).

"end up back at the sink (where you started)", "then back at the sink": "back" was read as a
return to the start and "at the sink" as a stop after it, two stages for one;
:func:`back_at` reads "back at the X" there as "back to the X", which is one return to X.

"the vase on the dresser back in this room": "back in" after a thing says where it is (the room
the walk was in before), not a return; :func:`back_in_room` reads it as "in" (one token over
both words' span, so nothing is dropped), where "back" had made the room a stop of its own.

Closed constructions read off a few words, so it is hand-written like the rest of the
parser ("go by the plant and over to the sofa" is left as it is read: "go by" is also a
visit); an "and" after a goal ("go to the sofa and to the TV") or before a bare noun phrase is
left alone.
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["back_at", "back_in_room", "on_your_way", "pass_then_goal"]

#: Prepositions that make a stop a pass ("past the shelf", "through the kitchen").
_PASS_PREPS = ("past", "through", "thru", "via")
#: What opens a goal right after "and" ("and over to the couch").
_GOAL_LEADS = ("over", "across", "on", "up", "down", "round", "around", "along")
#: Words that end the stretch an "and" may look back over.
_STOPS = (".", "!", "?", ";", ",", "then", "and", "but", "to", "into", "towards", "toward")


def pass_then_goal(toks: list[Token]) -> list[Token]:
    """"go past the shelf and over to the couch" -> "go past the shelf then over to the couch"."""
    words = [t.text for t in toks]
    out = list(toks)
    for k, w in enumerate(words):
        if w != "and":
            continue
        lead = words[k + 1] if k + 1 < len(words) else ""
        if not (lead == "to" or lead in _GOAL_LEADS and words[k + 2:k + 3] == ["to"]):
            continue
        b = k - 1
        while b >= 0 and words[b] not in _STOPS and words[b] not in _PASS_PREPS:
            b -= 1
        if b >= 0 and words[b] in _PASS_PREPS:
            out[k] = Token("then", toks[k].start, toks[k].end)
    return out



#: Words after "on your way" that keep it as it is ("on your way to / back / through ...").
_WAY_ON = frozenset({"to", "back", "there", "here", "out", "in", "into", "home", "over",
                     "through", "across", "up", "down", "past", "round", "around", "from",
                     ",", ".", "!", "?", ";", "and", "then", "you", "so", "as", "now"})


def on_your_way(toks: list[Token]) -> list[Token]:
    """"and on your way pass the fridge" -> "and on the way pass the fridge"."""
    out = list(toks)
    for k in range(len(toks) - 3):
        if k > 0 and toks[k - 1].text == "but" and toks[k].text == "on" and \
                toks[k + 1].text in ("the", "your") and toks[k + 2].text == "way":
            # "go to the bed, but on the way stop at X": "but" joins as "and" does (it split
            # the stop from its "on the way", so the stop came after the goal)
            out[k - 1] = Token("and", toks[k - 1].start, toks[k - 1].end)
        if [t.text for t in toks[k:k + 3]] == ["on", "your", "way"] and \
                toks[k + 3].text not in _WAY_ON and k > 0 and toks[k - 1].text in ("and", "but"):
            out[k + 1] = Token("the", toks[k + 1].start, toks[k + 1].end)
    return out


#: Words before "back at the X" that make it the route's return to X ("end up back at").
_BACK_LEADS = frozenset({"then", "and", ",", "up", "finish", "finishing", "end", "ending",
                         "come", "coming", "go", "get", "head", "be", "arrive", "lastly",
                         "finally", "last"})


def back_at(toks: list[Token]) -> list[Token]:
    """"then end up back at the sink" -> "then end up back to the sink"."""
    out = list(toks)
    for k in range(1, len(toks) - 2):
        if toks[k].text == "back" and toks[k + 1].text == "at" and \
                toks[k + 2].text in ("the", "my", "your", "that", "this") and \
                toks[k - 1].text in _BACK_LEADS:
            out[k + 1] = Token("to", toks[k + 1].start, toks[k + 1].end)
    return out


def back_in_room(toks: list[Token]) -> list[Token]:
    """"the vase on the dresser back in this room" -> "the vase on the dresser in this room"."""
    lex = head_lexicon()
    out: list[Token] = []
    k = 0
    while k < len(toks):
        t = toks[k]
        if t.text == "back" and 0 < k and k + 2 < len(toks) and \
                toks[k + 1].text in ("in", "inside") and \
                toks[k + 2].text in ("this", "that", "the", "here", "there") and \
                lex.match([toks[k - 1].text]) is not None:
            out.append(Token(toks[k + 1].text, t.start, toks[k + 1].end))
            k += 2
            continue
        out.append(t)
        k += 1
    return out
