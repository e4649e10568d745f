"""A room said as where to go, then the thing in it said as the stop: one stage.

People name the room first and then the thing they want in it: "go to the bedroom with the
most books and wait by the window in there", "pls go 2 the lounge n check on the dog bed in
there", "Go through the kitchen into the living room and check on the window in there", "go
to the bathroom ... - wait no sorry, the loo off the bedroom that hasnt got a window. go to the
sink in there". The room is where the thing is (its ``in_room``), never a stop of its own; the
parse made it one whenever the merges before (:func:`~.human.merge_room_then_object`,
:func:`~.stage_rewrites.merge_room_then_stop`) did not know the joining words ("n", a sentence
break before "in there"), the thing's kind (a window) or the room's clause kind (the room
reached by "into" after a room passed through: "through A into B").

:func:`room_then_thing` merges such a pair after the parse:

* a goal at one room, then a goal at a thing (object, group or window) whose room is that room
  said again ("in there", "in it", "in that room", "in that bathroom") or that names no room
  and is joined by "and" / "n" / "&" / "," in the same sentence;
* a room passed *into* ("into the living room") right after a room passed through, then a
  thing in it as above: "go through the kitchen into the living room and check on the window
  in there" keeps the kitchen as the pass and puts the window in the living room;
* a geometry stop (a middle, a halfway point) whose things a sentence placed "in there", in
  the room just gone to: one stop, in that room;
* "the loo" said with what describes a room ("the loo off the bedroom", "the loo that hasn't
  got a dresser") and then a thing "in there": the loo is the bathroom (:mod:`.loo_rooms`
  reads it so only after "in" / "into" / "leave").

:func:`plural_rules` reads a rule said about a thing type in the plural, topic first ("Sofas -
keep away from them, both directions", "Chairs: don't go near them"): the plural is what the
rule's "them" names, not a stop. :func:`room_topic_rules` reads a room said first as where a
rule holds ("the first bedroom u go thru on the way, stay away from the tv stand"), not a stop.
:func:`shared_legs` gives a rule joined by "and" to a rule under a fronted leg ("On the way to
the lamp stay close to the table, and don't go anywhere near the bed") that same leg.

The phrasings are a closed set of joining words and anaphors read off the clause spans, so
this is hand-written like the rest of the parser.
"""

from __future__ import annotations

import re

from map2route.language.parser.model import Clause, Modifier, RefExpr, norm_text

__all__ = ["plural_rules", "room_then_thing", "room_topic_rules", "shared_legs"]

_THINGS = ("object", "group", "window")
#: Words that join a room and the stop in it within one sentence ("and", texting "n" / "&").
_JOIN = re.compile(r"[\s,]*(?:and|n|an|&|\+)(?:\s+then)?\b[\s,]*"
                   r"(?:(?:go|head|walk|get|come|move|carry\s+on)\s+)?(?:over\s+)?$|[\s,]+$")
#: The room's own clause of meeting, said before "and" ("the bedroom you'd go into first on
#: the way and stop at the bed in it", "the bedroom passed through first"): part of the
#: room's words, not a second visit.
_OWN_CLAUSE = re.compile(
    r"^\s*(?:(?:(?:that|which)\s+)?you(?:'d|'ll|'re)?(?:\s+(?:would|will|are|going|to|gonna|be))*"
    r"\s+[a-z]+|[a-z]+ed|gone|met)(?:\s+(?:to|into|through|past|by|across))?(?:\s+(?:first|second|third|next))?"
    r"(?:\s+(?:on|along)\s+(?:the|your)\s+way(?:\s+there)?)?(?:\s+from\s+here)?"
    r"(?=\s*,?\s*and\b)")
#: What keeps two stops apart: a second visit, a return, an order word.
_APART = re.compile(r"\b(?:again|back|return|first|before|after\s+that|afterwards|also)\b")
#: Words for the toilet that also name its room (see :mod:`.loo_rooms`).
_LOO = frozenset({"loo", "lav", "lavatory", "lavvy", "wc", "restroom"})
#: What a bathroom has: "go to the loo with the dresser and stop at the toilet" is the room.
_BATH = frozenset({"toilet", "sink", "bathtub", "shower", "plunger", "toilet_paper", "towel",
                   "shower_curtain", "shower_head", "soap_bar"})
#: Room words a "that ..." anaphor may use for the room just named.
_ROOM_WORDS = frozenset({"room", "one", "place"})


def _anaphoric_room(m: Modifier, room: RefExpr) -> bool:
    """Whether ``m`` places its thing in ``room`` said again: "in there", "in it", "in that
    room", "in this bathroom" (a bare demonstrative room of the same kind)."""
    if m.kind != "in_room" or len(m.refs) != 1:
        return False
    r = m.refs[0]
    words = r.text.lower().split()
    if r.head_kind == "pronoun" or words in (["there"], ["it"], ["here"]):
        return True
    if r.head_kind == "room" and r.head == room.head and norm_text(r.text) == norm_text(room.text):
        return True  # "go to the big bedroom ... finish at the dresser in the big bedroom"
    return r.head_kind == "room" and not r.modifiers and len(words) == 2 and \
        words[0] in ("that", "this", "the") and \
        (r.head == room.head or words[1] in _ROOM_WORDS) and \
        (words[0] != "the" or r.head == room.head)


def _room(c: Clause) -> RefExpr | None:
    """``c``'s one room, when ``c`` is a goal at one room (or a loo said as a room)."""
    if c.kind != "goal" or len(c.refs) != 1 or c.refs[0].plural:
        return None
    ref = c.refs[0]
    return ref if ref.head_kind == "room" and ref.head != "room" or _loo(ref) else None


def _loo(ref: RefExpr) -> bool:
    """"the loo off the bedroom", "the loo that hasn't got a window": a loo word with what
    describes a room (another room it is off, what it has or lacks)."""
    words = re.findall(r"[a-z]+", ref.text.lower())
    return ref.head == "toilet" and any(w in _LOO for w in words[:3]) and bool(ref.modifiers)


def _as_room(ref: RefExpr) -> RefExpr:
    """The loo read as its room (the same span and description)."""
    if ref.head_kind == "room":
        return ref
    return RefExpr(ref.text, ref.span, "bathroom", "room", ref.definite, ref.plural,
                   ref.modifiers, ref.fuzzy)


def _thing(c: Clause) -> RefExpr | None:
    if c.kind != "goal" or len(c.refs) != 1 or c.refs[0].plural:
        return None
    ref = c.refs[0]
    return ref if ref.head_kind in _THINGS else None


def _joined(text: str, a: int, b: int, anaphor: bool) -> bool:
    """Whether the words between a room (ending at ``a``) and the stop (from ``b``) make
    the stop the room's thing: a join word in one sentence (a bare "then" or a new
    sentence keeps two stops, as the sets read "Go to the kitchen. When you get there, go to
    the toaster."), or, for a stop placed "in there", any words without a second visit or an order word."""
    between = _OWN_CLAUSE.sub("", text[a:b].lower())
    if _APART.search(between) or b < a:
        return False
    if not any(ch in between for ch in ".;!?") and _JOIN.fullmatch(between):
        return True
    # "Go to the kitchen. Then go to the fridge in it.": "then" in a new sentence keeps two
    return anaphor and len(between) < 60 and not re.search(
        r"\b(?:go|went)\s+(?:to|into)\b|\bthen\b", between)


def _there_after(text: str, at: int) -> bool:
    """"basketball on the floor in there.": the thing's room said by "in there" after words
    the reference left (its place on the floor), within its sentence."""
    return bool(re.match(r"\s+(?:(?:on|by|near)\s+the\s+floor\s+)?in\s+there\b", text[at:]))


def _place(room: RefExpr, c: Clause, ref: RefExpr, start: int) -> Clause:
    ref.modifiers[:] = [m for m in ref.modifiers if not _anaphoric_room(m, room)]
    ref.modifiers.insert(0, Modifier("in_room", [room], span=room.span))
    c.span = (start, c.span[1])
    return c


def _point_in_room(c: Clause, prev: Clause, text: str) -> bool:
    """A geometry stop whose things were placed in the room just gone to: "Go into the
    smaller living room. There's a sofa, a cart and an armchair in there, and I want you to
    stop right in the middle of those three" (one stop, the middle, in that room)."""
    if c.kind != "goal" or len(c.refs) != 1 or c.refs[0].head_kind != "point":
        return False
    point = c.refs[0]
    if any(m.kind == "in_room" for m in point.modifiers) or not point.modifiers:
        return False
    at = min(c.span)
    between = text[prev.span[1]:at].lower()
    return prev.span[1] <= at and not _APART.search(between) and len(between) < 200 and \
        bool(re.search(r"\bin\s+(?:there|it|that\s+room|here)\b", between))


def room_then_thing(clauses: list[Clause], text: str) -> list[Clause]:
    """Merge a room said as where to go with the thing in it said as the stop (module doc)."""
    out: list[Clause] = []
    for c in clauses:
        for r in c.refs:  # "the toilet in the loo with the dresser": the loo is the bathroom
            for m in r.modifiers:
                if m.kind == "in_room" and len(m.refs) == 1 and m.refs[0].head == "toilet":
                    m.refs[0] = _as_room(m.refs[0])
        prev = out[-1] if out else None
        ref = _thing(c)
        gone = _room(prev) if prev is not None else None
        if prev is not None and ref is None and gone is not None and \
                _point_in_room(c, prev, text):
            into = _as_room(gone)
            point = c.refs[0]
            for m in point.modifiers:
                for member in m.refs:
                    if not any(mm.kind == "in_room" for mm in member.modifiers):
                        member.modifiers.insert(0, Modifier("in_room", [into], span=into.span))
            out[-1] = _place(into, c, point, prev.span[0])
            continue
        if prev is None or ref is None:
            out.append(c)
            continue
        own = [m for m in ref.modifiers if m.kind == "in_room"]
        room = _room(prev)
        if room is not None:
            anaphor = len(own) == 1 and _anaphoric_room(own[0], room) or \
                not own and _there_after(text, ref.span[1])
            # "Go through to the big bedroom. On the way, stop at X and Y, and finish at the
            # dresser in the big bedroom": the stops on the way were said in between
            told_between = anaphor and own and own[0].refs[0].head_kind == "room" and any(
                prev.span[1] <= x.span[0] < c.span[0] for x in out[:-1])
            if (anaphor or not own and (room.head_kind == "room" or ref.head in _BATH)) and \
                    (told_between or _joined(text, prev.span[1], c.span[0], anaphor)):
                out[-1] = _place(_as_room(room), c, ref, prev.span[0])
                continue
        before = out[-2] if len(out) > 1 else None
        if prev.kind == "pass" and len(prev.refs) == 1 and before is not None and \
                before.kind == "pass" and prev.refs[0].head_kind == "room" and \
                not prev.refs[0].plural and \
                re.search(r"\binto\s*$", text[:prev.refs[0].span[0]].lower()):
            into = prev.refs[0]
            anaphor = len(own) == 1 and _anaphoric_room(own[0], into)
            if (anaphor or not own) and _joined(text, max(prev.span[1], into.span[1]),
                                                c.span[0], anaphor):
                out[-1] = _place(into, c, ref, c.span[0])
                continue
        out.append(c)
    return out


#: Between a plural topic and its rule: "Sofas - keep away", "Chairs: don't go near them".
_TOPIC = re.compile(r"\s*(?:[-\u2013\u2014:,]\s*)+")


def plural_rules(clauses: list[Clause], text: str) -> list[Clause]:
    """"Sofas - keep away from them": the plural said first is what the rule's "them" names,
    not a stop (the rule keeps its own scope; the topic's words are the rule's reference)."""
    out: list[Clause] = []
    for n, c in enumerate(clauses):
        nxt = clauses[n + 1] if n + 1 < len(clauses) else None
        if c.kind == "goal" and len(c.refs) == 1 and c.refs[0].plural and \
                c.refs[0].head_kind in ("object", "group") and nxt is not None and \
                nxt.kind in ("near", "far", "avoid", "clearance") and len(nxt.refs) == 1 and \
                nxt.refs[0].head_kind == "pronoun" and \
                nxt.refs[0].text.lower().split()[-1:] == ["them"] and \
                _TOPIC.fullmatch(text[c.refs[0].span[1]:nxt.span[0]]) and \
                _sentence_start(text, c.refs[0].span[0]):
            nxt.refs[0] = c.refs[0]
            nxt.span = (c.refs[0].span[0], nxt.span[1])
            continue
        out.append(c)
    return out


def _sentence_start(text: str, at: int) -> bool:
    """Whether only a sentence break (or nothing) comes before ``at``."""
    before = text[:at].rstrip().lower()
    return not before or before[-1] in ".!?;:\n" or before.endswith(("also", "and"))


#: A room told as where a rule holds, topic first: "the first bedroom u go thru (on the way)".
_ROOM_TOPIC = re.compile(r"\s*(?:(?:that|which)\s+)?(?:you|u|ya)\s+(?:go|walk|pass|cut|come|head|"
                         r"get|move)\s+(?:thru|through|into|in|across)\s*$")
#: Between that topic and its rule: "on the way, stay away ...", "- keep off ...".
_TOPIC_RULE = re.compile(r"\s*(?:on\s+(?:the|your|ur)\s+way(?:\s+there)?\s*)?(?:[,:\-\u2013\u2014]\s*)+")


def room_topic_rules(clauses: list[Clause], text: str) -> list[Clause]:
    """"the first bedroom u go thru on the way, stay away from the tv stand": the room is where
    the rule holds (its ``within``), not a stop."""
    out: list[Clause] = []
    for c in clauses:
        ref = c.refs[0] if c.kind == "goal" and len(c.refs) == 1 else None
        rule = next((x for x in clauses if x.kind in ("near", "far", "avoid", "clearance") and
                     x.within is None and x.during is None and ref is not None and
                     _TOPIC_RULE.fullmatch(text[c.span[1]:x.span[0]])), None)
        if ref is not None and rule is not None and ref.head_kind == "room" and \
                not ref.plural and _ROOM_TOPIC.fullmatch(text[ref.span[1]:c.span[1]].lower()) \
                and _sentence_start(text, c.span[0]) and \
                re.fullmatch(r"(?:in\s+)?", text[c.span[0]:ref.span[0]].lower()):
            rule.within = ref
            rule.span = (c.span[0], rule.span[1])
            continue
        out.append(c)
    return out


#: Between a rule and the one coordinated with it: ", and don't ...", "and also ...".
_AND_RULE = re.compile(r"\s*,?\s*(?:and|but)\s+(?:also\s+)?")


#: Words that make the second rule hold for the whole route ("and at no point touch the cart").
_WHOLE_ROUTE = re.compile(r"\b(?:at\s+(?:no|any)\s+(?:point|time)|at\s+all\s+times|ever|never|"
                          r"whole|entire|throughout|both\s+(?:ways|directions)|all\s+the\s+"
                          r"(?:way|time)|for\s+the\s+(?:whole|rest))\b")


def shared_legs(clauses: list[Clause], text: str) -> list[Clause]:
    """"On the way to the lamp stay close to the table, and don't go anywhere near the bed":
    the leg said first holds for both rules joined by "and" in its sentence."""
    prev: Clause | None = None
    for c in clauses:
        until = (prev.during or {}).get("until") if prev is not None else None
        if prev is not None and isinstance(until, RefExpr) and until.span[1] <= prev.span[0] and \
                c.kind in ("near", "far", "avoid", "clearance") and c.during is None and \
                c.within is None and prev.span[1] <= c.span[0] and \
                _AND_RULE.fullmatch(text[prev.span[1]:c.span[0]].lower()) and \
                not _WHOLE_ROUTE.search(text[c.span[0]:c.span[1] + 30].lower().split(".")[0]):
            c.during = dict(prev.during or {})
        prev = c if c.kind in ("near", "far", "avoid", "clearance") else None
    return clauses
