"""Openers and headers: a line that announces the shape of the task, or where the walk starts,
before the stages.

People who write a route for someone else often open with a header that says what kind of job
it is and how many stops it has ("Two stops for this one.", "Three things, in order.", "Few
stops, in this order:", "Kitchen round, in this order:", "Laptop sweep, three stops, this
order:", "two things pls, ...", "Okay this one's a bit of a trek.", "Rules: ..."), or with a
start scene ("Coming in from outside through the kitchen door: ...", "From where you are now,
by the sofa, go ...", "Now dear, I'm sitting ..."), and a caller far away says where they are
after asking to be found ("come find me, I'm in the kitchen by the fridge"). This pass, run
first in :func:`.human.human_forms` on the tokens as typed, reads those by word class:

* a header: at a sentence's opening and before any word of going, a run of parts separated by
  commas, each a topic ("kitchen round", "laptop sweep", "small kitchen job": size words and
  names of the map before a job noun; not a room alone, "Small bathroom, two stops.", which
  scopes the rules after it and is left refused), a count of stops
  ("two stops", "a few things", "just one stop", "a two-stop job") with its tails ("for this
  one", "pls", "this time"), or an order ("in this order", "this order"), with at least a
  topic or a count, ended by a sentence end, a colon or a comma; taken out as context (its
  places become context references, never stages);
* a sentence that only says the job's size ("this one's a bit of a trek", "quick one", "this is
  a two-stop job"), before any word of going: context;
* a label before a colon ("Rules:", "Notes:", "Ticket 7:"): context;
* "route it through X" -> "on the way go through X" (a pass on the way to what was named;
  "route yourself through X" -> "go through X"), "it" taken out as context;
* "do" before a numbered list ("do 1 dog bed 2 the desk"): context;
* a start said with an arrival ("coming in (from outside) through the kitchen door:",
  "starting in the bathroom with the plunger:"), and a start said as an apposition ("from where
  you are now, by the sofa,"): context;
* vocatives and fillers that open a scene sentence ("now dear, I'm sitting ...", "right so from
  the kitchen ..."): context, so the scene sentence is read as one;
* "after" opening a sentence before a verb of going ("After go to the fridge", "After, the
  fridge": learner English for "afterwards") -> "then";
* "(come) find me, I'm in the kitchen by the fridge" -> "go to the fridge in the kitchen": the
  caller's place is the stop (the sets' convention for "come back to me").

:func:`check_count` then compares a header's count of stops with the stops the parse found and
refuses a mismatch, naming the header ("Two stops. The fridge, the sofa and the bed.").

Hand-written like the rest of the parser: headers and openers are short closed classes (job
nouns, count nouns, order phrases, arrival verbs) that a test checks by hand; nothing is dropped
(what is taken out is returned as context with its character span), and every other word is
left to the later stages, which refuse what they cannot read.
"""

from __future__ import annotations

import re

from map2route.language.errors import ParseError
from map2route.language.parser import words as W
from map2route.language.parser.destination_tokens import ENDS, Context, head_at, take, tok
from map2route.language.parser.model import Clause
from map2route.language.tokens import Token

__all__ = ["check_count", "openers"]

#: Words that open a sentence without adding to it.
_FILLERS = frozenset({"ok", "okay", "so", "um", "uh", "erm", "right", "alright", "well", "hey",
                      "hi", "hello", "hiya", "now", "and", "oh", "pls", "please", "then"})
#: Who the writer speaks to ("Now dear, ...", "Robot, ...").
_VOCATIVES = frozenset({"dear", "love", "robot", "buddy", "mate", "pal", "darling", "sweetie",
                        "hun", "honey", "folks"})
#: Nouns of a job a header names ("kitchen round", "laptop sweep").
_JOBS = frozenset({"round", "run", "sweep", "trip", "job", "tour", "loop", "circuit", "check",
                   "errand", "mission", "route", "walk", "patrol", "lap"})
#: Nouns of what a header counts ("two stops", "three things").
_COUNTED = frozenset({"stop", "stops", "thing", "things", "place", "places", "leg", "legs",
                      "errand", "errands", "task", "tasks", "spot", "spots", "destination",
                      "destinations", "point", "points", "visit", "visits", "job", "jobs"})
#: What a count says of stops, for :func:`check_count` (not "things": one may be a rule).
_STOPS = frozenset({"stop", "stops", "place", "places", "destination", "destinations", "spot",
                    "spots", "leg", "legs", "visit", "visits"})
_VAGUE = (("a", "couple", "of"), ("couple", "of"), ("a", "few"), ("few",), ("some",),
          ("several",), ("a", "handful", "of"))
_SIZE = frozenset({"small", "big", "little", "large", "quick", "short", "long", "easy", "simple",
                   "main", "usual", "first", "last", "final", "tiny", "biggest", "smallest"})
#: Tails of a count ("two stops for this one", "three things pls").
_TAILS = (("for", "this", "one"), ("this", "time"), ("for", "you"), ("in", "total"),
          ("for", "this", "morning"), ("for", "this", "afternoon"), ("for", "this", "evening"),
          ("for", "tonight"), ("for", "now"), ("for", "today"), ("for", "later"),
          ("today",), ("pls",), ("please",), ("total",), ("altogether",), ("only",))
#: Phrases that say the order is the order given.
_ORDERS = (("in", "this", "order"), ("in", "that", "order"), ("this", "order"),
           ("in", "order"), ("in", "sequence"), ("in", "the", "order", "given"),
           ("in", "the", "following", "order"), ("order", "matters"),
           ("one", "after", "another"), ("one", "after", "the", "other"), ("one", "by", "one"))
#: Words of a sentence that only says the job's size ("this one's a bit of a trek").
_SIZE_SENTENCE = frozenset({"this", "one", "is", "a", "an", "bit", "of", "trek", "long", "quick",
                            "easy", "short", "simple", "little", "fairly", "pretty", "quite",
                            "journey", "haul", "walk", "trip", "run", "job", "mission", "stop",
                            "stops", "just", "only", "really", "very", "today", "time", "for",
                            "you", "here", "it", "s", "'s", "big", "small", "tiny"})
_SIZE_NOUNS = frozenset({"trek", "one", "journey", "haul", "walk", "trip", "run", "job",
                         "mission"})
#: Labels of a block of rules or notes ("Rules: ...").
_LABELS = frozenset({"rules", "notes", "note", "constraints", "restrictions", "conditions",
                     "extra", "extras", "also", "ps", "p.s"})
#: Nouns of a numbered task's label ("Ticket 7:", "Task 3.").
_TICKETS = frozenset({"ticket", "task", "job", "item", "request", "route", "instruction",
                      "number", "no", "case", "run"})
#: Words that say an arrival ("coming in through the kitchen door").
_ARRIVALS = (("coming", "in"), ("coming",), ("entering",), ("arriving",), ("walking", "in"),
             ("rolling", "in"), ("starting", "in"), ("starting", "at"), ("starting", "by"),
             ("starting", "next", "to"), ("starting", "beside"), ("starting", "near"),
             ("starting", "out", "in"), ("starting", "out", "at"))
_NEAR_PREPS = (("next", "to"), ("by",), ("at",), ("near",), ("beside",), ("on",), ("in", "front",
               "of"), ("over", "by"), ("over", "at"), ("right", "by"), ("right", "next", "to"))
_SPEAKER = (("i", "am"), ("we", "are"))
_PLACE_LEAD = frozenset({"over", "just", "still", "sitting", "standing", "lying", "sat", "stood",
                         "right", "waiting", "here", "now", "currently"})


def _going() -> frozenset[str]:
    return frozenset(W.MOVE_VERBS | {"go", "walk", "head", "move", "visit", "proceed", "stop",
                                     "come", "return", "drive", "roll", "take", "pass",
                                     "avoid", "keep", "stay", "navigate", "find"})


def _match(words: list[str], k: int, phrases: tuple[tuple[str, ...], ...]) -> int:
    """Length of the longest phrase of ``phrases`` at ``words[k:]`` (0 if none)."""
    return max((len(p) for p in phrases if tuple(words[k:k + len(p)]) == p), default=0)


def _is_number(w: str) -> bool:
    return w in W.NUMBERS or w.isdigit()


def _count(words: list[str], k: int) -> tuple[int, int | None]:
    """A count of stops at ``k`` ("two stops", "a few things", "just one stop", "a two stop
    job"): its length and the number said (None when vague); (0, None) if none."""
    q = k + _match(words, k, (("just",), ("only",)))
    if words[q:q + 1] in (["a"], ["an"]) and q + 2 < len(words) and _is_number(words[q + 1]) \
            and words[q + 2] == "stop" and words[q + 3:q + 4] != [] and words[q + 3] in _JOBS:
        return q + 4 - k, _number(words[q + 1])  # "a two-stop job"
    vague = _match(words, q, _VAGUE)
    n = q + vague
    said = None
    if not vague:
        if words[n:n + 1] == [] or not _is_number(words[n]):
            return 0, None
        said = _number(words[n])
        n += 1
    if words[n:n + 1] == [] or words[n] not in _COUNTED:
        return 0, None
    n += 1
    while (t := _match(words, n, _TAILS)):
        n += t
    return n - k, said


def _number(w: str) -> int | None:
    return int(w) if w.isdigit() else W.NUMBERS.get(w)


def _topic(words: list[str], k: int) -> int:
    """A header's topic at ``k``: size words and names of the map before a job noun ("kitchen
    round", "small kitchen job"). A room alone before a count ("Small bathroom, two stops.")
    is not one: it says where the whole job is, a scope for the rules after it that this pass
    cannot give, so it is left to be refused."""
    n = k
    while n < len(words) and words[n] in _SIZE:
        n += 1
    named = 0
    while (hit := head_at(words, n)) is not None and named < 2:
        n += hit[0]
        named += 1
    if n < len(words) and words[n] in _JOBS and n > k:
        return n + 1 - k
    return 0


def _header(words: list[str], k: int) -> tuple[int, int | None, str]:
    """A header at ``k`` (see the module docstring): its length up to and with its end mark,
    its count of stops (None when not said) and the noun counted; (0, None, "") if none."""
    n, seen, said, noun = k, False, None, ""
    if words[k:k + 1] in (["your"], ["my"], ["our"], ["the"]) and words[k + 1:k + 2] != [] and \
            words[k + 1] in _COUNTED and words[k + 1].endswith("s"):
        # "Your jobs for this morning, in order:": the list's own name
        seen, noun, n = True, words[k + 1], k + 2
        while (t := _match(words, n, _TAILS)):
            n += t
        n += words[n:n + 1] == [","]
    while n < len(words):
        c, num = _count(words, n)
        if c:
            seen, said, noun, n = True, num if said is None else said, _noun(words, n, c), n + c
        elif (t := _topic(words, n)):
            seen, n = True, n + t
        elif (o := _match(words, n, _ORDERS)):
            n += o
        else:
            break
        if n < len(words) and words[n] == ",":
            n += 1
    if not seen:
        return 0, None, ""
    if n >= len(words) or words[n] in (*ENDS, ":", "-", ";"):
        return min(n + 1, len(words)) - k, said, noun
    if words[n - 1] == "," or words[n:n + 2] in (["1", ")"], ["1", "."]):
        # "couple of errands pls 1) ...": the list's first mark ends the header too
        return n - k, said, noun
    return 0, None, ""


def _noun(words: list[str], k: int, length: int) -> str:
    return next((w for w in words[k:k + length] if w in _COUNTED), "")


def _sentence_end(words: list[str], k: int) -> int:
    while k < len(words) and words[k] not in ENDS:
        k += 1
    return k


def _size_sentence(words: list[str], k: int) -> int:
    """"this one's a bit of a trek." / "quick one." / "this is a two stop job.": its length."""
    e = _sentence_end(words, k)
    body = words[k:e]
    if not body or len(body) > 9 or e >= len(words):
        return 0
    if not all(w in _SIZE_SENTENCE or _is_number(w) for w in body):
        return 0
    if not any(w in _SIZE_NOUNS - {"one"} for w in body) and not (
            "one" in body and any(w in _SIZE for w in body)):
        return 0  # "This one." answers a question; "Quick one." sizes the job
    return e + 1 - k


def openers(toks: list[Token]) -> tuple[list[Token], Context]:
    """Take out the headers and start openers of ``toks`` as context, and read "come find me,
    I'm by X" (see the module docstring); returns the tokens and the context."""
    ctx: Context = []
    toks = _list_marks(toks)
    words = [t.text for t in toks]
    going = _going()
    first_going = next((i for i, w in enumerate(words) if w in going), len(words))
    out: list[Token] = []
    i = 0
    while i < len(toks):
        opens = i == 0 or words[i - 1] in (*ENDS, ";", ":")
        if opens:
            k = i
            while k < len(words) and (words[k] in _FILLERS or words[k] == "," and k > i):
                k += 1
            span = _opener(words, k, first_going)
            if span:
                take(toks, i, k + span, ctx)
                i = k + span
                continue
            if words[k:k + 1] != [] and words[k] in _LATER_LABELS and \
                    words[k + 1:k + 2] in ([":"], [")"]) and k + 2 < len(words):
                out.extend([*toks[i:k], tok("then", toks[k])])  # "second: the desk"
                i = k + 2
                continue
            if words[k:k + 1] in (["after"], ["afterwards"]) and words[k + 1:k + 2] != [] and \
                    (words[k + 1] in going or words[k + 1] == ","):
                out.extend([*toks[i:k], tok("then", toks[k])])  # "After go to X": then
                i = k + 1
                continue
            voc = _vocative(words, i)
            if voc:
                take(toks, i, i + voc, ctx)
                i += voc
                continue
        r = _match(words, i + 1, _ROUTE_OBJECTS) if words[i] == "route" else 0
        if r and words[i + 1 + r:i + 2 + r] in (["through"], ["via"], ["past"], ["by"]):
            # "route it through X": on the way (to it), go through X
            back = words[i + 1] in ("it", "this") and i > 0
            out.extend(tok(w, toks[i]) for w in (("on", "the", "way", "go") if back else ("go",)))
            take(toks, i + 1, i + 1 + r, ctx)
            i += 1 + r
            continue
        found = _find_me(toks, words, i)
        if found is not None:
            new, used, said = found
            out.extend(new)
            ctx.extend(said)
            i = used
            continue
        out.append(toks[i])
        i += 1
    return out, ctx


#: Word labels of a later item of a list ("first: the statue. second: the desk. last: ..."):
#: each is "then" ("first:" is read as a sequencer already).
_LATER_LABELS = frozenset({"second", "third", "fourth", "fifth", "sixth", "next", "last",
                           "lastly", "finally", "then", "after", "afterwards", "2nd", "3rd",
                           "4th", "5th"})


#: What "route ... through X" routes ("route it through the lounge").
_ROUTE_OBJECTS = (("it",), ("yourself",), ("the", "trip"), ("your", "way"), ("the", "run"),
                  ("this",), ("the", "route"), ("your", "route"))
_MARK_BEFORE = frozenset({*ENDS, ":", ",", ";", "do", "-", *_FILLERS})


def _list_marks(toks: list[Token]) -> list[Token]:
    """The marks of a numbered list said as "(1) ... (2) ..." or bare "1 dog bed 2 the desk"
    -> "1) ... 2) ...", the form the list rules read; only a run 1, 2, ... in order whose "1"
    opens a clause (never "between 1 and 2", "2 beds")."""
    words = [t.text for t in toks]
    marks: list[int] = []
    want = 1
    for k, w in enumerate(words):
        if w == str(want) and (want > 1 or k == 0 or words[k - 1] in _MARK_BEFORE or
                               words[k - 1] == "(" and (k < 2 or words[k - 2] in _MARK_BEFORE)):
            nxt = words[k + 1] if k + 1 < len(words) else ""
            paren = words[k - 1] == "(" and nxt == ")"
            if not paren and nxt in (".", ")") or nxt in W.NUMBERS or nxt.isdigit() or \
                    want > 1 and words[k - 1] in ("and", "to", "or", "between", "from"):
                if want == 1:
                    return toks  # a list the list rules read already, or not a list
                break
            marks.append(k)
            want += 1
    if len(marks) < 2:
        return toks
    out: list[Token] = []
    for k, t in enumerate(toks):
        if t.text == "(" and k + 1 in marks:
            continue
        out.append(t)
        if k in marks and words[k + 1:k + 2] != [")"]:
            out.append(Token(")", t.end, t.end))
    return out


def _opener(words: list[str], k: int, first_going: int) -> int:
    """Length of a header, size sentence, label, "do" or arrival at ``k`` (0 if none)."""
    if words[k:k + 1] == []:
        return 0
    if words[k] in _LABELS and words[k + 1:k + 2] == [":"]:
        return 2
    if words[k] in _TICKETS and _is_number(words[k + 1] if k + 1 < len(words) else "") and \
            words[k + 2:k + 3] in ([":"], ["."], ["-"]):
        return 3  # "Ticket 7:"

    if words[k] == "do" and (_is_number(words[k + 1] if k + 1 < len(words) else "") or
                             words[k + 1:k + 2] == ["("] and k + 2 < len(words) and
                             _is_number(words[k + 2])):
        return 1
    if k < first_going:
        h = _header(words, k)[0] or _size_sentence(words, k)
        if h:
            return h
    if (a := _match(words, k, _ARRIVALS)):
        e = k + a
        while e < len(words) and words[e] not in (*ENDS, ":", ",") and words[e] not in _going():
            e += 1
        if e < len(words) and words[e] == ":" or \
                e < len(words) and words[e] in (*ENDS, ",") and words[k] == "coming" and e > k + a:
            return e + 1 - k
    if words[k:k + 4] == ["from", "where", "you", "are"]:
        e = k + 4 + _match(words, k + 4, (("now",), ("right", "now"), ("at", "the", "moment")))
        if words[e:e + 1] == [","] and _match(words, e + 1, _NEAR_PREPS):
            f = e + 1
            while f < len(words) and words[f] not in (",", *ENDS):
                f += 1
            if words[f:f + 1] == [","]:
                return f + 1 - k
    return 0


def _vocative(words: list[str], i: int) -> int:
    """A run of fillers with a vocative or "right so" before a comma or a scene sentence
    ("now dear, I'm ...", "right so from the kitchen ..."): its length (0 if none)."""
    k = i
    while k < len(words) and (words[k] in _FILLERS or words[k] in _VOCATIVES or
                              words[k] == "my" and words[k + 1:k + 2] != [] and
                              words[k + 1] in _VOCATIVES):
        k += 1
    run = words[i:k]
    if not any(w in _VOCATIVES for w in run) and run[:2] != ["right", "so"]:
        return 0
    if words[k:k + 1] == [","]:
        return k + 1 - i
    if _match(words, k, (*_SPEAKER, ("you", "are"), ("from", "the"))):
        return k - i
    return 0


def _find_me(toks: list[Token], words: list[str], i: int
             ) -> tuple[list[Token], int, Context] | None:
    """"find me, I'm in the kitchen by the fridge" at ``i`` -> "go to the fridge in the
    kitchen" (tokens with their own spans), the index after it and what was taken out."""
    if words[i:i + 2] != ["find", "me"] or words[i + 2:i + 3] != [","]:
        return None
    k = i + 3
    s = _match(words, k, _SPEAKER)
    if not s:
        return None
    k += s
    while k < len(words) and words[k] in _PLACE_LEAD:
        k += 1
    e = k
    while e < len(words) and words[e] not in (*ENDS, ",", ";", "and", "but"):
        e += 1
    room: list[Token] = []
    thing: list[Token] = []
    n = k
    said: Context = []
    if words[n:n + 1] == ["in"] and (hit := head_at(words, n + 2 if words[n + 1:n + 2] == [
            "the"] else n + 1)) is not None and hit[2] == "room":
        r = (n + 2 if words[n + 1] == "the" else n + 1) + hit[0]
        room = toks[n:r]
        n = r
    p = _match(words, n, _NEAR_PREPS)
    if p:
        take(toks, n, n + p, said)
        thing = toks[n + p:e]
    elif n < e:
        return None
    if not thing and not room:
        return None
    if not thing:
        thing, room = room[1:], []
    take(toks, i + 2, k, said)
    new = [tok("go", toks[i]), tok("to", toks[i + 1]), *thing, *room]
    return new, e, said


_HEADER_COUNT = re.compile(r"^(?:[a-z]+ )*?(?:just |only )?([a-z]+|\d+) (" + "|".join(
    sorted(_STOPS)) + r")\b")
_STOP_KINDS = ("goal", "circle", "visit")


def check_count(clauses: list[Clause], context: list[str],
                spans: list[tuple[int, int]], text: str) -> None:
    """Refuse a parse whose stops contradict the count a header gave ("Two stops. The fridge,
    the sofa and the bed."): the header is named, so the writer can see which to mend.

    Raises:
        ParseError: the header's count of stops is not the number of stops parsed.
    """
    for said, span in zip(context, spans, strict=False):
        m = _HEADER_COUNT.match(said)
        if m is None or said.split()[0] in ("from", "between", "on", "after", "before"):
            continue
        want = _number(m.group(1))
        if want is None or want < 2:
            continue
        stops = [c for c in clauses if c.kind in _STOP_KINDS]
        every = [c for c in clauses if c.refs or c.kind in _STOP_KINDS]
        if want in (len(stops), len(every)):
            continue
        words = text[span[0]:span[1]]
        raise ParseError(f"did not understand {words!r} in {text!r}: it says {want} "
                         f"{m.group(2)} but the route read has {len(stops)}; say each stop, "
                         "or mend the count", words, span)
