"""Repairs of parses whose structure came out wrong: extra stages, stages out of order, a scope
on the wrong leg or on the wrong room.

Each pass reads a construction, never one sentence, and each is checked by
``test/language/test_wrong_parses.py`` and the class table ``breadth_wrong_parses.json``:

* a fronted description picked up by an anaphor: "kitchen chair closest to the fridge - go
  stand next to that one", "The sofa in the lounge: go and wait next to it", "bed nearest the
  dog bed, go there": one stage (the description), not the description and then "that one";
* terse fronting, a thing and then its room with no verb: "Plunger, small bathroom.",
  "1) Sink, in whichever room has the most paintings.": the room says where the thing is (an
  ``in_room``), it is no stage of its own;
* a room said before a point in it, after a comma: "Wait for me in the kitchen, roughly
  halfway between the fridge and the plant": one stage, the point, in the room (as
  :func:`.annotator_rewrites.room_then_point` reads it after "and");
* "through A then B" before a later stop: "go thru the big lounge then the little bedroom,
  then into the bathroom and stop at the toilet": B is passed through like A;
* a pass said after the goal with a "while going" tail: "Head to the toilet, and swing past the
  desk as you go through the bedroom": the pass is on the way, so it comes first;
* a fronted gerund scope: "Going through the big bathroom, stick close to the side table":
  the room scopes the preference, it is no pass stage;
* "on the way there" after an out-and-back: "run to the fridge and come straight back ...,
  keep away from the stool on the way there": the leg out (to the fridge), not the way back;
* "then back to it" after two stops ("Go to the sofa, then the fridge, then back to it"): the
  walker is at the fridge, so "it" is the stop before (the sofa), a stage of its own;
* a room said after a between pair ("don't pass between the sofa and the TV in the living
  room"): where the rule holds, as a spatial scope;
* "this room" / "in here" after the speaker said which room they are in ("I'm sitting on the
  couch in the living room. ... on your way out of this room don't go near the TV in here"):
  the speaker's room (the route starts where the speaker is, so it is the start room, named).

And token passes (:func:`token_repairs`): "into the bathroom after it" in a list of rooms
walked through ("go thru the lounge then the bedroom, into the bathroom after it and stop at
the toilet") is "then into the bathroom" (the "it" is the room before, not a thing); and
:func:`scene_then_request`: a narrated sentence that turns into a request
after ", so" ("I'm at the desk, and my brother is on the sofa watching the telly, so whatever
you do, don't walk between the sofa and the telly") is two sentences: the scene (context) and
the request, which was dropped with the scene before (also with no "so" when a ban on going
follows the comma: ", don't go walking between ..."; "go walking" is "walk" after a negation),
two spellings of one word: "half way", "in between"; and "on your way out" with no "of" is
the way out of the room the walk starts in.

Hand-written like the rest of the parser: the constructions are a closed set read off clause
kinds, reference kinds and the few words between clauses, and each needs an exact, checkable
answer.
"""

from __future__ import annotations

import re

from map2route.language.parser import words as W
from map2route.language.parser.model import (
    Clause,
    Modifier,
    RefExpr,
    place_in_room,
    room_then_object,
)
from map2route.language.parser.speaker_scene import SPEAKER, WALKER, said_here, scene
from map2route.language.tokens import Token

__all__ = ["drop_restated", "repair_stages", "scene_then_request", "token_repairs"]

_STAGES = ("goal", "pass", "circle")
_CONSTRAINTS = ("near", "far", "avoid", "clearance", "relative")
#: Words that may open a fronted description before its head ("1)", "the", "that").
_FRONT = re.compile(r"[\s(\d).:\-\u2013\u2014*]*(?:(?:the|a|an|that|this)\s+)?")
#: The anaphors that pick a fronted description up.
_ANAPHORS = ("it", "there", "that one", "this one", "that", "this", "that spot")
#: The marks between a fronted description and the request that picks it up.
_AFTER_FRONT = re.compile(r"\s*[-\u2013\u2014:,.;!?]+\s*(?:(?:please|pls|now|so|ok|okay|and|then|"
                          r"just|right|yeah|yes|yep)\s*,?\s+)*")
#: A thing, then its room: "Plunger, small bathroom", "Sink, in the room with ...".
_THING_ROOM = re.compile(r"\s*(?:[,:\-\u2013\u2014]\s*)+(?:in|inside|within)?\s*")
#: Hedges between a room and the point in it ("in the kitchen, roughly halfway between").
_ROOM_POINT = re.compile(r"[\s,]*(?:(?:roughly|about|around|approximately|right|exactly|just|"
                         r"somewhere|more\s+or\s+less|pretty\s+much)\s+)*")
#: "go thru A then B": the second room of a through-list.
_THEN = re.compile(r"\s*,?\s*(?:and\s+)?then\s+")
#: A tail that puts a pass on the way to the goal said before it.
_ON_THE_WAY = re.compile(r"\s*,?\s*(?:(?:as|while|when)\s+you(?:'re|\s+are)?\s+(?:go|going|"
                         r"walk|walking|cross|crossing|pass|passing|head|heading|come|coming|"
                         r"make|making|move|moving|get|getting)\b|on\s+(?:your|the)\s+way\b)")
_GERUND_SCOPE = re.compile(r"(?:going|walking|passing|heading|coming|moving|crossing|cutting)"
                           r"(\s+(?:through|thru|across|via|over))?\s")
_WAY_THERE = re.compile(r"\b(?:way|going|getting|heading|walking)\s+(?:over\s+)?there\b")
_RETURN = re.compile(r"\b(?:back|return|returning)\b")
_SPEAKER = scene(SPEAKER + "|" + WALKER, anchored=True)


def _verbless(c: Clause, text: str) -> bool:
    """Whether ``c`` is a bare description: nothing but list marks before its reference."""
    return len(c.refs) == 1 and c.span[0] <= c.refs[0].span[0] and \
        _FRONT.fullmatch(text[c.span[0]:c.refs[0].span[0]]) is not None


def _between(a: Clause, b: Clause, text: str) -> str:
    return text[a.span[1]:b.span[0]].lower() if a.span[1] <= b.span[0] else "\0"


def _fronted(clauses: list[Clause], text: str) -> list[Clause]:
    """Terse fronting and fronted descriptions picked up by an anaphor (see the module)."""
    out: list[Clause] = []
    for c in clauses:
        prev = out[-1] if out else None
        if prev is not None and prev.kind == "goal" and c.kind == "goal" and \
                _verbless(prev, text) and len(c.refs) == 1 and \
                prev.refs[0].head_kind in ("object", "group"):
            ref = c.refs[0]
            gap = _between(prev, c, text)
            tail = text[c.span[1]:].lstrip(" \t")
            if ref.head_kind == "room" and _verbless(c, text) and \
                    _THING_ROOM.fullmatch(gap) and (not tail or tail[0] in ".!?\n") and \
                    not any(m.kind == "in_room" for m in prev.refs[0].modifiers):
                # "Plunger, small bathroom.": where the thing is
                prev.refs[0].modifiers.append(Modifier("in_room", [ref], span=ref.span))
                prev.span = (prev.span[0], c.span[1])
                continue
            if ref.text.lower() in _ANAPHORS and _AFTER_FRONT.fullmatch(gap) and \
                    not _AGAIN.search(text[c.span[0]:ref.span[0]].lower()):
                # ("..., then the fridge, then back to it": a return, a stage of its own)
                # "kitchen chair closest to the fridge - go stand next to that one"
                prev.span = (prev.span[0], c.span[1])
                continue
        out.append(c)
    return out


def _after_it(clauses: list[Clause], text: str) -> list[Clause]:
    """"into the bathroom after it and stop at the toilet" (read by :func:`into_after_it`):
    one stage, the toilet in the bathroom."""
    out: list[Clause] = []
    for c in clauses:
        prev = out[-1] if out else None
        if prev is not None and room_then_object(prev, c) and re.fullmatch(
                r"\s*,?\s*after\s+(?:it|that|this)\s*,?\s*(?:and\s+)?(?:then\s+)?",
                _between(prev, c, text)):
            out[-1] = place_in_room(prev, c)
            continue
        out.append(c)
    return out


def _room_point(clauses: list[Clause], text: str) -> list[Clause]:
    """"Wait for me in the kitchen, roughly halfway between X and Y": the point, in the room."""
    out: list[Clause] = []
    for c in clauses:
        prev = out[-1] if out else None
        ref = c.refs[0] if c.kind == "goal" and len(c.refs) == 1 else None
        if prev is not None and ref is not None and ref.head_kind == "point" and \
                prev.kind == "goal" and len(prev.refs) == 1 and \
                prev.refs[0].head_kind == "room" and not prev.refs[0].plural and \
                "," in text[prev.span[1]:ref.span[0]] and \
                _ROOM_POINT.fullmatch(text[prev.span[1]:ref.span[0]].lower()) and \
                not any(m.kind == "in_room" for m in ref.modifiers):
            room = prev.refs[0]
            rooms = [Modifier("in_room", [room], span=room.span)]
            for m in ref.modifiers:
                for r in m.refs if m.kind == "between" else []:
                    if not any(x.kind == "in_room" for x in r.modifiers):
                        r.modifiers.extend(rooms)
            ref.modifiers.extend(rooms)
            c.span = (prev.span[0], c.span[1])
            out[-1] = c
            continue
        out.append(c)
    return out


def _through_then(clauses: list[Clause], text: str) -> list[Clause]:
    """"go thru A then B, ... stop at X": B is passed through as A is."""
    for n, c in enumerate(clauses[1:], 1):
        prev = clauses[n - 1]
        later = [x for x in clauses[n + 1:] if x.kind == "goal" and x.span[0] > c.span[1]]
        if prev.kind == "pass" and c.kind == "goal" and _verbless(c, text) and \
                c.refs[0].head_kind == "room" and prev.refs and \
                prev.refs[0].head_kind == "room" and later and \
                _THEN.fullmatch(_between(prev, c, text)) and \
                not any(ch in text[c.span[1]:later[0].span[0]] for ch in ".!?;"):
            c.kind = "pass"
    return clauses


def _pass_on_the_way(clauses: list[Clause], text: str) -> list[Clause]:
    """"Head to the toilet, and swing past the desk as you go through the bedroom": the pass
    comes before the goal it is on the way to."""
    out = list(clauses)
    for n in range(1, len(out)):
        goal, p = out[n - 1], out[n]
        if goal.kind == "goal" and p.kind == "pass" and p.refs and \
                p.refs[0].head_kind in ("object", "group") and \
                re.fullmatch(r"[\s,]*and\s*", _between(goal, p, text)) and \
                _ON_THE_WAY.match(text[p.span[1]:].lower()):
            out[n - 1], out[n] = p, goal
    return out


def _gerund_scope(clauses: list[Clause], text: str) -> list[Clause]:
    """"Going through the big bathroom, stick close to the side table": a scope, no stage."""
    out: list[Clause] = []
    for n, c in enumerate(clauses):
        nxt = clauses[n + 1] if n + 1 < len(clauses) else None
        said = text[c.span[0]:c.span[1]].lower()
        if c.kind in ("pass", "goal") and len(c.refs) == 1 and \
                c.refs[0].head_kind == "room" and nxt is not None and \
                nxt.kind in _CONSTRAINTS and nxt.within is None and \
                (m := _GERUND_SCOPE.match(said)) is not None and \
                (c.kind == "pass" or m.group(1) is not None) and \
                re.fullmatch(r"\s*,\s*", _between(c, nxt, text)):
            nxt.within = c.refs[0]
            continue
        out.append(c)
    return out


def _way_there(clauses: list[Clause], text: str) -> None:
    """"... and come straight back. Keep away from the stool on the way there": the leg out."""
    for c in clauses:
        if c.kind not in _CONSTRAINTS or c.during != {"this": True}:
            continue
        end = min((text.find(m, c.span[1]) for m in ".!?\n" if text.find(m, c.span[1]) >= 0),
                  default=len(text))
        start = max(text.rfind(m, 0, c.span[0]) for m in ".!?\n") + 1
        if not _WAY_THERE.search(text[start:end].lower()):
            continue
        before = [s for s in clauses if s.kind in _STAGES and s.refs and s.span[0] < c.span[0]]
        if len(before) >= 2 and (before[-1].refs[0].head_kind == "start" or _RETURN.search(
                text[before[-1].span[0]:before[-1].span[1]].lower())):
            c.during = {"until": before[-2].refs[0]}


def _way_back(clauses: list[Clause], text: str) -> list[Clause]:
    """"then back to the fridge, and on the way back keep away from X": the return was said
    (to the fridge), so "on the way back" is the leg of that return, not a second return."""
    out: list[Clause] = []
    for c in clauses:
        said = text[c.span[0]:c.span[1]].lower()
        stages = [s for s in out if s.kind in _STAGES and s.refs and s.span[0] < c.span[0]]
        if c.kind == "goal" and len(c.refs) == 1 and c.refs[0].head_kind == "start" and \
                re.fullmatch(r"on\s+(?:the|your)\s+way\s+back", said) and len(stages) >= 2 and \
                _RETURN.search(text[stages[-1].span[0]:stages[-1].span[1]].lower()):
            for x in clauses:
                if x.during and x.during.get("until") is c.refs[0]:
                    x.during = {"after": stages[-2].refs[0]}
            continue
        out.append(c)
    return out


def _back_to_it(clauses: list[Clause], text: str) -> None:
    """"Go to the sofa, then the fridge, then back to it": "back to it" cannot be the place the
    walker is at, so "it" is the stop before the last one (the sofa), not the fridge."""
    stages: list[Clause] = []
    for c in clauses:
        if c.kind not in _STAGES or not c.refs:
            continue
        ref = c.refs[0]
        if c.kind == "goal" and len(c.refs) == 1 and ref.head_kind == "pronoun" and \
                c.span[0] <= ref.span[0] and len(stages) >= 2 and \
                all(s.kind == "goal" and s.refs[0].head_kind not in ("pronoun", "start")
                    for s in stages[-2:]) and \
                stages[-1].refs[0].text.lower() != stages[-2].refs[0].text.lower() and \
                _BACK.search(text[c.span[0]:ref.span[0]].lower()):
            back = stages[-2].refs[0].clone()
            back.span = ref.span  # the words read here are "it"; the thing is the one before
            c.refs[0] = back
        stages.append(c)


def _between_in_room(clauses: list[Clause]) -> None:
    """"Don't pass between the sofa and the TV in the living room (with the two armchairs)":
    the room said after the pair is where the rule holds (a spatial scope), as "In the living
    room, don't pass between the sofa and the TV" says it; the gap between two things lies in
    their room, so the rule keeps its meaning, and the TV is still picked in that room."""
    for c in clauses:
        if c.kind in _STAGES or len(c.refs) != 1 or c.within is not None or c.during:
            continue
        gap = c.refs[0]
        pair = gap.modifiers[0].refs if gap.head == "between" and gap.modifiers and \
            gap.modifiers[0].kind == "between" else []
        if len(pair) != 2 or any(m.kind == "in_room" for m in pair[0].modifiers):
            continue
        rooms = [m for m in pair[1].modifiers if m.kind == "in_room" and not m.negated]
        if len(rooms) == 1 and len(rooms[0].refs) == 1 and \
                rooms[0].refs[0].head_kind == "room" and rooms[0].refs[0].head != "room":
            # (a room of a type: "in that room" with none said before names nothing to scope)
            c.within = rooms[0].refs[0]
            pair[0].modifiers.append(rooms[0].clone())  # both ends are in that room


def _speaker_room(clauses: list[Clause], text: str, context_refs: list[RefExpr],
                  spans: list[tuple[int, int]]) -> None:
    """"this room" / "in here" (the start room) named as the room the speaker said they are
    in, when one room was said."""
    said = [sp for sp in spans if _SPEAKER.match(text[sp[0]:sp[1]].lower().replace("\u2019", "'"))]
    rooms: list[RefExpr] = []
    for r in context_refs:
        if not any(a <= r.span[0] and r.span[1] <= b for a, b in said):
            continue
        rooms += [r] if r.head_kind == "room" else [
            x for m in r.modifiers if m.kind == "in_room" for x in m.refs]
    if len({r.head for r in rooms}) != 1 or rooms[0].head == "room":
        return
    room = rooms[0]

    def fix(ref: RefExpr | None) -> None:
        if ref is None:
            return
        if ref.head == "room" and said_here(ref):
            ref.head, ref.head_kind = room.head, room.head_kind
            # what the speaker said of it ("this room, the one with five chairs round it")
            # stays: only the pointer is replaced
            ref.modifiers = [m.clone() for m in room.modifiers] + [
                m for m in ref.modifiers if m.kind != "start_room"]
        for m in ref.modifiers:
            for x in m.refs:
                fix(x)

    stack = list(clauses)
    while stack:
        c = stack.pop()
        stack += [*c.then, *c.orelse]
        for ref in [*c.refs, c.within, c.other]:
            fix(ref)


def repair_stages(clauses: list[Clause], text: str, context_refs: list[RefExpr],
                  context_spans: list[tuple[int, int]]) -> list[Clause]:
    """The clauses with the repairs of the module docstring applied."""
    clauses = _fronted(clauses, text)
    clauses = _after_it(clauses, text)
    clauses = _room_point(clauses, text)
    clauses = _through_then(clauses, text)
    clauses = _pass_on_the_way(clauses, text)
    clauses = _gerund_scope(clauses, text)
    _way_there(clauses, text)
    clauses = _way_back(clauses, text)
    _back_to_it(clauses, text)
    _between_in_room(clauses)
    _speaker_room(clauses, text, context_refs, context_spans)
    return clauses


#: What makes "it" a return to an earlier stop: "then back to it", "return to it".
_BACK = re.compile(r"\b(?:back|return|returning)\b")
#: Words between two stops that make the second a real second visit, not a restatement.
_AGAIN = re.compile(r"\b(?:again|back|return|returning|twice|once\s+more|another)\b")
#: What says the second is the first said again: "? like just", "- I mean", ", that is".
_RESTATING = re.compile(r"\?|\b(?:like|i\s+mean|that\s+is|basically|you\s+know|in\s+other\s+"
                        r"words|i\.e)\b")


def drop_restated(clauses: list[Clause], text: str) -> tuple[list[Clause], list[str]]:
    """A stop said again in a row is one stop; each restatement is returned for the parse's
    context (``restated: ...``), so nothing is dropped unreported. Two ways to say it again:

    * with a restating word ("like", "I mean", a question answered) and the same words: "can
      you go to the fridge? like just go stand by the fridge" (:func:`_restates`), or a stop
      verb and the same words: "the sink in that bathroom, stop right at the sink";
    * as the arrival that times the next step: "Go to the safe. Once you have reached the
      safe, return to the counter" (:func:`_arrival`);
    * as "it" / "there" / "that X" right after a stage of the same kind: "Go to the dog bed and
      wait me there", "Stop at that chair", "go to the fridge, after it to the washing
      machine", "go by the plant, just pass it dont stop" (:func:`_pronoun_repeat`).

    "again" / "back" / "twice" between them keeps a visit of its own: a route to a place and
    then to the same place again has no second leg only when it was not asked for."""
    out: list[Clause] = []
    said: list[str] = []
    for c in clauses:
        prev = next((x for x in reversed(out) if x.kind in _STAGES), None)
        if prev is not None and prev.span[1] <= c.span[0] and len(c.refs) == len(prev.refs) == 1 \
                and (_restates(prev, c, text) or _pronoun_repeat(prev, c, text) or
                     _arrival(prev, c, text)) or _through_it_again(out, c, text):
            said.append(f"restated: {text[c.span[0]:c.span[1]].strip()}")
            continue
        out.append(c)
    return out, said


def _restates(prev: Clause, c: Clause, text: str) -> bool:
    """Whether goal ``c`` reads as goal ``prev`` said again with a restating word."""
    between = _between(prev, c, text)
    return c.kind == prev.kind == "goal" and not c.refs[0].plural and \
        prev.refs[0].span != c.refs[0].span and \
        not any(m.kind in ("rank", "different") for m in c.refs[0].modifiers) and \
        c.refs[0].head_kind != "start" and \
        not _AGAIN.search(between) and not _AGAIN.search(text[c.span[0]:c.span[1]].lower()) and (
            c.refs[0].text.lower() == prev.refs[0].text.lower() and
            bool(_RESTATING.search(between + " " + text[c.span[0]:c.refs[0].span[0]].lower())) or
            # the stop at the thing just named, said bare: "the sink in X, stop right at the sink"
            c.refs[0].head == prev.refs[0].head and not c.refs[0].modifiers and
            c.refs[0].text.lower().startswith("the ") and "." not in between and
            bool(_STOP_AT.fullmatch(text[c.span[0]:c.refs[0].span[0]].lower())))


#: An arrival at the stop just made, said to time what comes next: "Once you have reached the
#: safe, return to the counter", "When you get to the safe, ...".
#: "you've" / "you're" are written without a space ("Once you've reached the bed").
_ARRIVED = re.compile(r"\b(?:once|when|after|as\s+soon\s+as)\s+(?:you\s*)?(?:have\s+|['’]ve\s+)?"
                      r"(?:reached|reach|get\s+to|got\s+to|arrive\s+at|arrived\s+at|are\s+at|"
                      r"['’]re\s+at|make\s+it\s+to|made\s+it\s+to)\s+(?:the\s+|that\s+)?$")


def _arrival(prev: Clause, c: Clause, text: str) -> bool:
    """Whether goal ``c`` is the arrival at goal ``prev`` said to time the next step ("Go to
    the safe. Once you have reached the safe, return ..."): the same thing, bare."""
    ref, was = c.refs[0], prev.refs[0]
    return c.kind == prev.kind == "goal" and ref.head == was.head and \
        ref.head_kind != "start" and not ref.modifiers and \
        bool(_ARRIVED.search(text[max(prev.span[1], ref.span[0] - 60):ref.span[0]].lower()))


#: A stop said at the place just named: "go to the sink in that bathroom, stop right at the sink".
_STOP_AT = re.compile(r"\s*(?:and\s+)?(?:then\s+)?(?:stop|wait|park|halt)\s+(?:right\s+|just\s+)?"
                      r"(?:at|by|next\s+to|beside)\s+")


def _pronoun_repeat(prev: Clause, c: Clause, text: str) -> bool:
    """Whether ``c`` is "it" / "there" / "that chair" right after ``prev``, a stage of the same
    kind ("Go to the chair furthest from the couch. Stop at that chair.")."""
    ref = c.refs[0]
    pointed = ref.text.lower().split()[:1] in (["that"], ["this"]) and not ref.modifiers and \
        ref.head_kind == prev.refs[0].head_kind in ("object", "group") and \
        ref.head == prev.refs[0].head
    return c.kind in ("goal", "pass") and prev.kind == c.kind and \
        (ref.head_kind == "pronoun" or pointed) and \
        prev.refs[0].head_kind not in ("pronoun", "start") and \
        not _AGAIN.search(text[prev.span[1]:c.span[1]].lower())


def _through_it_again(out: list[Clause], c: Clause, text: str) -> bool:
    """Whether ``c`` is "go (straight) through it" said after the route's one room gone
    through ("you'll have to go through the bathroom with the paintings to get there, that's
    fine, just go straight through it"): that room, said again, not a pass of the stop just
    named."""
    rooms = [x for x in out if x.kind == "pass" and len(x.refs) == 1 and
             x.refs[0].head_kind == "room"]
    return c.kind == "pass" and len(c.refs) == 1 and c.refs[0].head_kind == "pronoun" and \
        len(rooms) == 1 and bool(re.search(r"\bthrough\s+$", text[:c.refs[0].span[0]].lower()))\
        and bool(re.search(r"\bthrough\b", text[:rooms[0].refs[0].span[0]].lower())) and \
        not _AGAIN.search(text[rooms[0].span[1]:c.span[1]].lower())


# --- a scene sentence that turns into a request -------------------------------------------
#: What opens the request after ", so": a prohibition or a keeping-away verb.
_REQUEST_OPENERS = ("do", "don't", "dont", "never", "avoid", "keep", "stay", "please", "try",
                    "make", "be", "mind")
_NARRATED = ("i", "we", "my", "our", "he", "she", "they", "mum", "mom", "dad")


#: Verbs of going that a ban names ("don't walk between ...", "never cut through ...").
_GOING = ("go", "walk", "pass", "cut", "run", "drive", "come", "get", "wander", "squeeze",
          "barge", "roll", "head", "move")
#: "go walking": a gerund of going after "go", and its verb.
_GO_GERUNDS = {"walking": "walk", "wandering": "wander", "running": "run", "driving": "drive",
               "barging": "barge", "charging": "charge", "squeezing": "squeeze",
               "cutting": "cut", "rolling": "roll", "trundling": "trundle"}


def _moving_ban(toks: list[Token], k: int) -> bool:
    """Whether a ban on going opens at ``k`` ("do not go ...", "never walk ...")."""
    words = [t.text for t in toks[k:k + 3]]
    if words[:2] == ["do", "not"]:
        words = words[2:]
    elif words[:1] in (["dont"], ["never"]):
        words = words[1:]
    else:
        return False
    return bool(words) and words[0] in _GOING


def go_walking(toks: list[Token]) -> list[Token]:
    """"don't go walking between X and Y" -> "don't walk between X and Y": "go" and a gerund
    of going after a negation are the verb itself."""
    out: list[Token] = []
    k = 0
    while k < len(toks):
        t = toks[k]
        if t.text == "go" and k + 1 < len(toks) and toks[k + 1].text in _GO_GERUNDS and \
                out and out[-1].text in ("not", "never", "dont"):
            nxt = toks[k + 1]
            out.append(Token(_GO_GERUNDS[nxt.text], t.start, nxt.end))
            k += 2
            continue
        out.append(t)
        k += 1
    return out


def scene_then_request(toks: list[Token]) -> list[Token]:
    """"I'm at the desk, and my brother is on the sofa ..., so whatever you do, don't walk
    between the sofa and the telly." -> the scene ends at ", so" (a sentence of its own, read
    as context) and the request is a sentence of its own."""
    out: list[Token] = []
    start, narrated = True, False
    k = 0
    while k < len(toks):
        t = toks[k]
        if start:
            lead = k
            while lead < len(toks) and toks[lead].text in W.FILLER_WORDS | {",", "oh", "and"}:
                lead += 1
            narrated = lead < len(toks) and toks[lead].text in _NARRATED
        if t.text in (".", "!", "?", "\n"):
            start = True
            out.append(t)
            k += 1
            continue
        start = False
        so = k + 1 < len(toks) and toks[k + 1].text == "so"
        if narrated and t.text == "," and (so or _moving_ban(toks, k + 1)):
            j = k + 1 + so
            if [x.text for x in toks[j:j + 4]] == ["whatever", "you", "do", ","]:
                j += 4
            if j < len(toks) and toks[j].text in _REQUEST_OPENERS:
                out.append(Token(".", t.start, t.end))
                out.extend(toks[k + 1:j])  # "so whatever you do ," opens the request
                k = j
                start = False
                narrated = False
                continue
        out.append(t)
        k += 1
    return out


def into_after_it(toks: list[Token]) -> list[Token]:
    """", into the bathroom after it and stop at X" -> ", then into the bathroom and stop at
    X": "after it" / "after that" said of a room entered next."""
    out: list[Token] = []
    k = 0
    while k < len(toks):
        t = toks[k]
        if t.text == "into":
            j = next((x for x in range(k + 1, min(k + 6, len(toks) - 2))
                      if toks[x].text == "after"), None)
            if j is not None and toks[j + 1].text in ("it", "that", "this") and \
                    toks[j + 2].text in ("and", ",", "then") and \
                    not any(x.text in (",", ".", "and") for x in toks[k + 1:j]):
                out.append(Token("then", t.start, t.end))
                out.extend(toks[k:j])
                k = j + 2
                continue
        out.append(t)
        k += 1
    return out


def split_words(toks: list[Token]) -> list[Token]:
    """"half way" is "halfway" and "in between" is "between" ("wait in the bathroom, roughly
    half way between the toilet and the sink", "right in between the sofa and the TV")."""
    out: list[Token] = []
    for t in toks:
        prev = out[-1].text if out else ""
        if (prev, t.text) in (("half", "way"), ("in", "between")):
            a = out.pop()
            out.append(Token("halfway" if t.text == "way" else "between", a.start, t.end))
            continue
        out.append(t)
    return out


def way_out(toks: list[Token]) -> list[Token]:
    """"on your way out, don't go near the TV": the way out of the room the walk starts in,
    said as "on your way out of this room" (the room :func:`_speaker_room` names)."""
    out: list[Token] = []
    for k, t in enumerate(toks):
        out.append(t)
        nxt = toks[k + 1].text if k + 1 < len(toks) else "."
        if t.text == "out" and k >= 2 and toks[k - 1].text == "way" and \
                toks[k - 2].text in ("your", "the") and nxt in (",", ".", "!", "?", "and", "then",
                                                              "please", "pls"):
            out.extend(Token(w, t.start, t.end) for w in ("of", "this", "room"))
    return out


def token_repairs(toks: list[Token]) -> list[Token]:
    """The token passes of this module, in order."""
    return way_out(into_after_it(scene_then_request(go_walking(split_words(toks)))))
