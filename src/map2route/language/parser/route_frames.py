"""Stage 0a, first pass: how people lay out a route of several stops, as word classes.

Writers give the same route structure in many surface forms: list markers ("a)", "(b)",
"1st", "Stop 2:", "Step 3:", "One:", bullets and arrows, which the tokenizer drops), list
headers ("Do these in order:", "Here's the plan:"), sequencing adverbs ("secondly",
"thereafter", "followed by", "last of all"), returns ("make your way back", "then back to
me"), pass-throughs ("take the route through", "by going through", "go by X on your way to
Y", "and keep going into") and stops on the way ("with a stop at X on the way"). Instead of
one rule per sentence, each rule here reads one *frame* whose slots are filled from the
lexicons below, and rewrites it onto the one form the later rules already read (", then",
"go to start", "go through X, then go to Y", "stop at X on the way"). Token spans are kept,
so a refusal still points into the original text; words that only announce the structure
(a header, "in this order") are recorded as context (a "said as" note), never dropped.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.rewrites import Rewriter
from map2route.language.tokens import Token

__all__ = ["EARLY"]

_ENDS = (".", "!", "?")
#: Where an item of a list may begin: after these (or at the start of the text).
_ITEM_BEFORE = ("", ":", ",", ";", ".", "and", "!", "?")
_DETS = ("the", "a", "an", "my", "your", "that", "this")
#: Letter and roman markers of list items ("a)", "(ii)"), in their order.
_LETTERS = ("a", "b", "c", "d", "e", "f", "g", "h")
_ROMAN = ("i", "ii", "iii", "iv", "v", "vi")
#: Digit ordinals the tokenizer keeps as one word ("1st the fridge").
_DIGIT_ORDINALS = {"1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "6th": 6}
#: Words that name one item of a list before its number ("Stop 2:", "Step 1:").
_LIST_NOUNS = ("stops", "places", "things", "errands", "destinations", "tasks", "spots")
_ITEM_NOUNS = ("stop", "step", "item", "task", "errand", "leg", "waypoint", "destination")
#: Ordinals that open a later item of a list said without a header ("second the sofa").
_LATER_ORDINALS = ("second", "secondly", "third", "thirdly", "fourth", "fourthly", "fifth",
                   "next", "last", "lastly", "final", "finally")

#: Headers that announce a list of stops; each may be followed by "(in order)" and must end
#: with ":" (or "-" dropped by the tokenizer before a list of bare items, see :func:`header`).
_HEADERS: tuple[tuple[str, ...], ...] = tuple(tuple(h.split()) for h in (
    "please do these in order", "do these in order", "do these things in order",
    "do the following in order", "do these", "can you do this for me", "could you do this for me",
    "do this for me", "here is the plan", "here is my plan", "the plan", "plan",
    "here are your stops", "here are the stops", "here are your errands", "your stops",
    "here is your route", "here is the route", "your route", "the route", "itinerary",
    "your itinerary", "in this order", "in that order", "in the following order",
    "in order", "stops", "errands", "tasks", "to do", "todo", "the order",
    "here is what i need", "here is what i want", "this is what i need", "what i need",
    "what i need you to do", "here is what i need you to do", "here is what to do",
    "checklist", "the list", "list", "agenda", "schedule", "your route is", "the route is",
    "the plan is", "your stops are", "the stops are"))
#: "(in order)" after a header.
_IN_ORDER = (("(", "in", "order", ")"), ("in", "order"), ("in", "this", "order"))
#: Leads before a header ("Ok, do these in order:").
_HEADER_LEADS = ("ok", "okay", "so", "alright", "right", ",", "hi", "hey", "now")

#: Sequencing adverbs and phrases that mean "then" between two stops.
_THEN: tuple[tuple[str, ...], ...] = tuple(tuple(p.split()) for p in (
    "followed by", "and thereafter", "thereafter", "subsequently", "and subsequently",
    "last of all", "and last of all", "and after that", "after which", "and afterwards",
    "secondly", "thirdly", "and thirdly", "and secondly", "and finally", "and lastly",
    "when you are done", "when you are finished", "when you are done there",
    "when you are finished there", "once you are done", "once you are done there",
    "once you are finished", "once you are there", "when you get there", "once you get there",
    "after you have done that", "when that is done", "once that is done", "after that",
    "afterwards", "after this"))
#: Openers of a first item that add nothing but its being first ("To begin, ...").
_FIRST: tuple[tuple[str, ...], ...] = tuple(tuple(p.split()) for p in (
    "to begin", "to start", "to start with", "to begin with", "first off", "first of all",
    "first things first", "for starters"))

#: Verbs of going that take a "back" (the lexicon's move verbs plus "make your way").
_BACK_VERBS = ("come", "go", "head", "get", "walk", "run", "hurry", "return", "turn", "coming",
               "going", "heading", "returning", "walking")
#: Verbs of ending that a "back here" makes a return ("finish (up) back here").
_END_VERBS = ("finish", "end", "wind", "ending", "finishing")
#: The place a return goes to: where the walk began.
_BACK_TARGETS: tuple[tuple[str, ...], ...] = tuple(tuple(p.split()) for p in (
    "here", "over here", "to me", "to here", "home", "again", "to start", "to the start",
    "to the starting point", "to the starting position", "to the starting place",
    "to the starting spot", "to the start point", "to your starting point",
    "to your starting position", "to where you started", "to where you were",
    "to where you are now", "to where you began", "to where i am", "to the beginning",
    "to where you started from", "to your start", "to base", "to this spot", "to this place",
    "to this point", "to this position", "to this location", "to the same spot",
    "where you started", "where you were", "where you began"))
#: What may follow a complete return ("..., then back here afterwards.").
_BACK_ENDS = ("", ".", "!", "?", ",", ";", "and", "then", "afterwards", "afterward", "after",
              "please", "ok", "okay", "thanks", "when", "once", "too", "at", "to")

#: Words that open a pass-through (the thing after them is passed, not stopped at).
_PASS_WORDS = ("through", "via", "past", "across")
#: After a passed place, these open the goal ("through the kitchen to the fridge").
_GOAL_AFTER_PASS: tuple[tuple[str, ...], ...] = tuple(tuple(p.split()) for p in (
    "to get to", "to get into", "to reach", "to get over to", "and on into", "and on to",
    "on into", "into", "to"))
#: "and keep going into Y": the place before it was only gone through.
_KEEP_GOING: tuple[tuple[str, ...], ...] = tuple(tuple(p.split()) for p in (
    "and keep going into", "and keep going to", "and keep going until you reach",
    "and keep going until you get to", "and carry on into", "and carry on to",
    "and continue into", "and continue on into", "and continue to", "and go on into",
    "and on into", "and keep walking into", "and keep walking to"))
#: Move verbs whose "into X" a following "keep going" turns into a pass ("go into the kitchen
#: and keep going into the living room").
_INTO_VERBS = ("go", "walk", "head", "move", "come", "step", "get")

#: Speech: "like" and "you know" as hesitation between a sequencer and the next stop.
_HESITATION_AFTER = ("then", "and", "so", ",", "first")


def _at(rw: Rewriter, k: int, seq: tuple[str, ...]) -> bool:
    return tuple(rw.words[k:k + len(seq)]) == seq


def _longest(rw: Rewriter, k: int, table: tuple[tuple[str, ...], ...]) -> int:
    return max((len(p) for p in table if _at(rw, k, p)), default=0)


def _note(rw: Rewriter, a: int, b: int, what: str) -> None:
    """Record words that only announce the route's structure as context ("said as")."""
    toks = rw.toks[a:b]
    if toks:
        rw.context.append((f"{what}: " + " ".join(t.text for t in toks),
                           (toks[0].start, toks[-1].end)))


def _prev(rw: Rewriter) -> str:
    return rw.out[-1].text if rw.out else ""


def _separator(rw: Rewriter, like: Token) -> None:
    """End the item before: drop its trailing separator and say ", then" (nothing before the
    first item)."""
    colon = False
    while rw.out and rw.out[-1].text in (",", ";", "and", ":"):
        colon = colon or rw.out.pop().text == ":"
    if rw.out and rw.out[-1].text not in _ENDS and not colon:
        rw.emit(",", "then", like=like)


def _np_end(rw: Rewriter, k: int) -> int:
    """End of the noun phrase at ``k`` (determiner, up to three words, a head), else ``k``."""
    j = k + (rw.w(k) in _DETS)
    for n in range(j, min(j + 4, len(rw.words))):
        hit = rw.head_at(n)
        if hit:
            return n + hit
    return k


# --- lists --------------------------------------------------------------------------------
def header(rw: Rewriter, i: int) -> int | None:
    """"Do these in order:", "Here's the plan:", "Stops (in order):": a list header at the start
    of a sentence; dropped and recorded, the items read as stops in order."""
    if _prev(rw) not in ("", *_ENDS):
        return None
    k = i
    while rw.w(k) in _HEADER_LEADS:
        k += 1
    if rw.w(k) == "here" and rw.w(k + 1) == "'s":
        k += 1  # "here's the plan": "'s" read as "is"
        n = _longest(rw, k + 1, _HEADERS)
        n = n + 1 if n else 0
    else:
        n = _longest(rw, k, _HEADERS)
    counted = rw.w(k) in W.NUMBERS and rw.w(k + 1) in _LIST_NOUNS
    if counted:
        n = 2
    if not n:
        return None
    e = k + n
    e += _longest(rw, e, _IN_ORDER)
    if rw.w(e) == "please":
        e += 1
    if rw.w(e) == "for" and rw.w(e + 1) in ("me", "you", "today", "now"):
        e += 2  # "Errands for you:"
    if rw.w(e) in ("first", "firstly") and n > 1:
        _note(rw, i, e, "list header")  # "Here's the plan - first the fridge" (dash dropped)
        return e
    if counted and rw.w(e) == "." and (rw.w(e + 1).isdigit() or rw.w(e + 1) == "("):
        pass  # "Three stops please. 1. ..."
    elif rw.w(e) != ":" or rw.w(e + 1) in ("", *_ENDS) or counted and \
            (rw.w(e + 1) in _LATER_ORDINALS + ("first", "then") or rw.w(e + 1).isdigit()):
        return None  # "Two stops: first the ...": read by the announced-list rules
    _note(rw, i, e, "list header")
    rw.__dict__["rf_list"] = True  # its "2)" items follow items without a separator
    return e + 1


def go_to_these(rw: Rewriter, i: int) -> int | None:
    """"Go to these in order - fridge, sofa, bed": the verb stays, "these in order" is the
    header."""
    if rw.w(i) not in ("these", "the") or rw.w(i - 1) != "to" or \
            rw.w(i + (rw.w(i) == "the") + 1) not in ("in", ":") :
        return None
    k = i + 1 + (rw.w(i) == "the" and rw.w(i + 1) == "following")
    if rw.w(i) == "the" and k == i + 1:
        return None
    n = _longest(rw, k, _IN_ORDER)
    e = k + n
    said = e
    e += rw.w(e) in (":", ",")  # "in order - fridge, ...": the spaced dash a comma
    if e == i + 1 or rw.w(e) in ("", *_ENDS):
        return None
    _note(rw, i, said, "list header")
    return e


def item_marker(rw: Rewriter, i: int) -> int | None:
    """A marker of a list item other than "1." / "1)" (read by :mod:`.rewrites`): "a)",
    "(b)", "ii)", "1st", "Stop 2:", "Step 1:", "One:", and a bare "2" before "the". Each later
    item becomes ", then ITEM"."""
    w, k = rw.w(i), i
    dash = rw.w(i + 1 + (w in _ITEM_NOUNS)) == ","  # "Step 1 - fridge": the dash a comma
    if w == "(" and rw.w(i + 2) == ")" and (rw.w(i + 1) in _LETTERS + _ROMAN):
        k = i + 3
    elif w in _LETTERS + _ROMAN and rw.w(i + 1) == ")" and _prev(rw) not in ("(",) and \
            (w != "i" or not rw.out or _prev(rw) in _ITEM_BEFORE):
        k = i + 2
    elif w in _DIGIT_ORDINALS and _prev(rw) in _ITEM_BEFORE and rw.w(i + 1) not in ("one",):
        k = i + 1 + (rw.w(i + 1) in (":", ","))
    elif w in _ITEM_NOUNS and (rw.w(i + 1).isdigit() or rw.w(i + 1) in W.NUMBERS) and \
            rw.w(i + 2) == ":":
        k = i + 3
    elif w in _ITEM_NOUNS and (rw.w(i + 1).isdigit() or rw.w(i + 1) in W.NUMBERS) and \
            _prev(rw) in _ITEM_BEFORE and (
                rw.w(i + 2 + dash) in _DETS or rw.head_at(i + 2 + dash)):
        k = i + 2 + dash  # "Step 1 - fridge" (the spaced dash read as a comma)
    elif (w in W.NUMBERS or w.isdigit()) and rw.w(i + 1) == ":" and \
            _prev(rw) in _ITEM_BEFORE and rw.w(i + 2) in _DETS + ("back", "go"):
        k = i + 2
    elif w.isdigit() and rw.w(i + 1) == ")" and rw.__dict__.get("rf_list") and rw.out and \
            rw.w(i - 1) != "(":
        k = i + 2
    elif w.isdigit() and len(w) == 1 and rw.w(i + 1 + dash) in ("the", "go") and \
            _prev(rw) in ("", ",", ";") and rw.w(i - 1) != "(":
        k = i + 1 + dash  # "2 the sofa", "1 - the desk, 2 - the dresser"
    elif w.isdigit() and int(w) == rw.__dict__.get("bare_items", 0) + 1 and \
            rw.head_at(i + 1) and (_prev(rw) in ("", ",", ";") or _after_item(rw)):
        rw.__dict__["bare_items"] = int(w)  # "#1 fridge #2 sofa", "1/ fridge 2/ sofa"
        k = i + 1
    if k == i:
        return None
    _separator(rw, rw.toks[i])
    return k


def later_ordinal(rw: Rewriter, i: int) -> int | None:
    """"First the fridge, second the sofa, third the bed", "your last stop is the window":
    an ordinal opening a later item; ", then" (the order is the items' order)."""
    w = rw.w(i)
    if w not in _LATER_ORDINALS or _prev(rw) not in (",", ";", "and", ".") or \
            rw.w(i - 1) in ("the", "your", "my") or w == "next" and rw.w(i + 1) == "to":
        return None  # "and next to the bed" is a relation
    k = i + 1 + (w == "next" and rw.w(i + 1) == "up")  # "Next up, the sofa"
    if rw.w(k) == ",":
        k += 1
    if rw.w(k) in ("stop", "one") and rw.w(k + 1) in ("is", ":", ","):
        k += 2
    elif rw.w(k) == "stop" and (rw.w(k + 1) in _DETS or rw.head_at(k + 1)):
        k += 1
    elif rw.w(k) == "is":
        k += 1
    if rw.w(k) not in _DETS and not rw.head_at(k) and rw.w(k) not in ("go", "back", "to"):
        return None
    _separator(rw, rw.toks[i])
    if rw.w(k) not in ("go", "to", "back") and rw.w(i - 1) != "then":
        rw.emit("go", "to", like=rw.toks[i])
    elif rw.w(k) == "to":
        rw.emit("go", like=rw.toks[i])
    return k


def your_nth_stop(rw: Rewriter, i: int) -> int | None:
    """"..., your second stop is the bed, and your last stop is the window": a later item said
    as a sentence about the stop."""
    if rw.w(i) not in ("your", "the") or rw.w(i + 1) not in _LATER_ORDINALS or \
            _prev(rw) not in (",", "and", ";"):
        return None
    k = i + 2 + (rw.w(i + 2) in ("stop", "one", "destination"))
    if rw.w(k) != "is" or rw.w(k + 1) not in _DETS:
        return None
    _separator(rw, rw.toks[i])
    rw.emit("go", "to", like=rw.toks[i])
    return k + 1


def postfix_ordinal(rw: Rewriter, i: int) -> int | None:
    """"the fridge first, the sofa second and the bed last": an ordinal after an item; the
    items are in that order already, so it ends the item (", then")."""
    if rw.w(i) not in ("second", "third", "last", "next") or \
            rw.w(i + 1) not in ("", ",", "and", ".", ";") or not rw.out or \
            rw.head_at(i) or not any(rw.head_at(k) for k in range(max(0, i - 3), i)):
        return None
    if rw.w(i - 1) in ("the", "your", "my", "stop"):
        return None
    _note(rw, i, i + 1, "said as order")
    k = i + 1
    while rw.w(k) in (",", "and"):
        k += 1
    if rw.w(k) in _DETS:
        _separator(rw, rw.toks[i])
        rw.emit("go", "to", like=rw.toks[i])
    return k


def first_opener(rw: Rewriter, i: int) -> int | None:
    """"To begin, go to ...", "First off, the fridge.": the first item's opener."""
    n = _longest(rw, i, _FIRST)
    lead = _prev(rw) == "," and rw.w(i - 2) in _HEADER_LEADS + tuple(W.FILLER_WORDS)
    if not n or _prev(rw) not in ("", *_ENDS, ":") and not lead or rw.w(i + n) not in (
            ",", *W.MOVE_VERBS, *_DETS):
        return None  # "So, to start, go to ...": not a return to the start
    k = i + n + (rw.w(i + n) == ",")
    rw.emit("first", like=rw.toks[i])
    if rw.w(k) in _DETS:
        rw.emit("go", "to", like=rw.toks[i])
    return k


def begin_by(rw: Rewriter, i: int) -> int | None:
    """"Begin by going to X" / "Start off by going to X" -> "first go to X"."""
    if rw.w(i) not in ("begin", "start") or _prev(rw) not in ("", *_ENDS):
        return None
    k = i + 1 + (rw.w(i + 1) == "off")
    if rw.w(k) != "by" or rw.w(k + 1) not in ("going", "heading", "walking", "visiting",
                                              "stopping"):
        return None
    verb = {"going": "go", "heading": "head", "walking": "walk", "visiting": "visit",
            "stopping": "stop"}[rw.w(k + 1)]
    rw.emit("first", verb, like=rw.toks[i])
    return k + 2


def sequencer(rw: Rewriter, i: int) -> int | None:
    """"secondly", "thereafter", "followed by", "last of all", "once you're done": "then"."""
    n = _longest(rw, i, _THEN)
    if not n or rw.w(i) == "when" and _prev(rw) not in (",", "and", "", *_ENDS) or \
            _prev(rw) in ("only", "just", "right", "immediately", "shortly", "soon"):
        return None  # "and only after that": read by the rules that keep its "only"
    k = i + n + (rw.w(i + n) == ",")
    if rw.w(i) in ("when", "once", "after", "afterwards") and rw.w(k) not in W.MOVE_VERBS:
        return None  # "once you are there, keep away from X" scopes what follows
    tail = rw.words[i:i + n]
    while rw.out and rw.out[-1].text in (",", "and"):
        rw.out.pop()
    if rw.out and rw.out[-1].text not in _ENDS:
        rw.emit(",", like=rw.toks[i])
    rw.emit("then", like=rw.toks[i])
    if tail[-1] in ("by", "thereafter", "secondly", "thirdly", "all", "subsequently") and \
            rw.w(k) in _DETS:
        rw.emit("go", "to", like=rw.toks[i])
    elif rw.w(k) == "to":
        rw.emit("go", like=rw.toks[i])
    return k


def sentence_final_then(rw: Rewriter, i: int) -> int | None:
    """"Go to the sofa after that.": a sequencer closing its sentence; the stage order says it
    already (recorded as said)."""
    n = 2 if _at(rw, i, ("after", "that")) else 1 if rw.w(i) in ("afterwards", "next") else 0
    if not n or rw.w(i + n) not in _ENDS or not any(rw.head_at(k)
                                                    for k in range(max(0, i - 3), i)):
        return None
    _note(rw, i, i + n, "said as order")
    return i + n


def after_as_then(rw: Rewriter, i: int) -> int | None:
    """Non-native "go fridge first, after go sofa", "and after to the bathroom": "after" with
    no object of its own, before a verb or "to", is "then"."""
    if rw.w(i) != "after" or rw.w(i + 1) not in ("go", "to", "come", "head", "walk") or \
            _prev(rw) not in (",", "and"):
        return None
    while rw.out and rw.out[-1].text in (",", "and"):
        rw.out.pop()
    rw.emit(",", "then", like=rw.toks[i])
    if rw.w(i + 1) == "to":
        rw.emit("go", like=rw.toks[i])
    return i + 1


# --- returns ------------------------------------------------------------------------------
def _back_target(rw: Rewriter, k: int) -> int:
    """Length of the return target at ``k`` ("here", "to where you started"), 0 if none; -1
    when there is none and the return ends there ("and back.")."""
    n = _longest(rw, k, _BACK_TARGETS)
    if n and rw.w(k + n) in _BACK_ENDS and rw.w(k + n) != "to":
        return n
    return -1 if rw.w(k) in _BACK_ENDS and rw.w(k) != "to" else 0


def come_back(rw: Rewriter, i: int) -> int | None:
    """"make your way back", "go back to where you were", "(then) back to me", "return back
    here", "come straight back": a stop where the walk began ("go to start")."""
    if rw.w(i).endswith("ing") and _prev(rw) == "before":
        return None  # "visit X before coming back here": motion_targets.before_coming_back
    k = i
    if rw.w(k) in ("return", "returning") and rw.w(k + 1) == "to":
        n = _back_target(rw, k + 1)
        if n > 0:  # "return to this spot": no "back" needed
            rw.emit("go", "to", "start", like=rw.toks[i])
            return k + 1 + n
        return None
    if rw.w(k) in _END_VERBS and (rw.w(k + 1) == "back" or rw.w(k + 1) == "up" and
                                  rw.w(k + 2) == "back"):
        k += 1 + (rw.w(k + 1) == "up")  # "finish up back here": the last stop is the start
    elif _at(rw, k, ("make", "your", "way")) or _at(rw, k, ("find", "your", "way")):
        k += 3
    elif rw.w(k) in _BACK_VERBS:
        k += 1
        k += _at(rw, k, ("around", "and")) * 2
        k += rw.w(k) in _BACK_VERBS and k > i + 1
    elif rw.w(k) == "back" and (_prev(rw) in ("then", ",", "and", ")", ":", ";", "", *_ENDS)
                                or _prev(rw) in W.FILLER_WORDS or _after_item(rw)):
        if _prev(rw) not in ("then", ",", "and", ")", ":", ";", "", *_ENDS):
            rw.emit(",", "then", like=rw.toks[i])  # "fridge -> sofa -> back here"
    else:
        return None
    k += rw.w(k) in ("straight", "right", "directly", "on")
    if rw.w(k) != "back" or _at(rw, k + 1, ("and", "forth")):
        return None  # "back and forth" is a manner of walking
    n = _back_target(rw, k + 1)
    if not n:
        return None
    # a return right after "then"/"," is its own stage; after a goal with "and" too
    rw.emit("go", "to", "start", like=rw.toks[i])
    return k + 1 + max(n, 0)


def _after_item(rw: Rewriter) -> bool:
    """Whether the words just read end with a thing's name ("... the sofa")."""
    words = [t.text for t in rw.out[-3:]]
    return any(_head_len(words[k:]) == len(words) - k > 0
               for k in range(len(words)))


def _head_len(words: list[str]) -> int:
    hit = head_lexicon().match(words)
    return hit[0] if hit else 0


# --- passes -------------------------------------------------------------------------------
def route_through(rw: Rewriter, i: int) -> int | None:
    """"take the route through X", "take the way via X" -> "go through X"; "walk across the
    bedroom into ..." -> "walk through the bedroom ..."."""
    if rw.w(i) == "take" and rw.w(i + 1) in ("the", "a") and \
            rw.w(i + 2) in ("route", "way", "path") and rw.w(i + 3) in ("through", "via"):
        rw.emit("go", "through", like=rw.toks[i])
        return i + 4
    if rw.w(i) == "across" and rw.w(i - 1) in ("walk", "go", "head", "move", "cut") and \
            rw.w(i + 1) in _DETS:
        e = _np_end(rw, i + 1)
        if e > i + 1 and rw.w(e) in ("into", "to"):
            rw.emit("through", like=rw.toks[i])
            return i + 1
    return None


def pass_then_goal(rw: Rewriter, i: int) -> int | None:
    """"through the kitchen to the bedroom", "via the kitchen to the fridge", "past the fridge
    and the toaster to the sink", "cut through the kitchen to get to the bedroom": after the
    passed places, "to" opens the goal (", then go to")."""
    n = _longest(rw, i, _GOAL_AFTER_PASS)
    if not n or rw.w(i + n) not in _DETS and not rw.head_at(i + n):
        return None  # a learner's bare head is a goal too: "through bedroom to fridge"
    back = [t.text for t in rw.out[-12:]]
    opener = max((k for k, w in enumerate(back) if w in _PASS_WORDS), default=-1)
    if opener < 0 or any(w in (",", ".", ";", "then", "to", "from", "of", "stop", "in", "into",
                               "and") or w in W.MOVE_VERBS for w in back[opener + 1:]):
        return None
    if not _after_item(rw) or opener == len(back) - 1:
        return None  # "across to the bed": no place passed
    if any(w in ("door", "doorway", "doors", "entrance", "opening") for w in back[opener:]):
        return None  # "through the door into/to the bedroom": the door rules read it
    if "into" in rw.words[i:i + n] and rw.w(_np_end(rw, i + n)) not in ("", *_ENDS, ";"):
        return None  # "through X into Y, then into Z": Y is passed too (the other rules)
    rw.emit(",", "then", "go", "to", like=rw.toks[i])
    return i + n


def past_list(rw: Rewriter, i: int) -> int | None:
    """"go past the fridge and the toaster": each coordinated thing is passed ("and past")."""
    if rw.w(i) != "and" or rw.w(i + 1) not in _DETS:
        return None
    back = [t.text for t in rw.out[-8:]]
    opener = max((k for k, w in enumerate(back) if w in ("past", "via", "through") or
                  w == "of" and back[k - 2:k] == ["by", "way"]), default=-1)
    if opener < 0 or any(w in (",", ".", "and", "to", "then", "between") or w in W.MOVE_VERBS
                         for w in back[opener + 1:]):
        return None  # "through the gap between A and B": the "and" is the gap's
    e = _np_end(rw, i + 1)
    if e == i + 1 or rw.w(e) not in ("to", "", *_ENDS, ","):
        return None
    word = back[opener]
    rw.emit(*(("and", "via") if word in ("via", "of") else ("and", "go", word)), like=rw.toks[i])
    return i + 1


def keep_going(rw: Rewriter, i: int) -> int | None:
    """"go into the kitchen and keep going into the living room": the first room is gone
    through (its "into" becomes "through"), the second is the goal."""
    n = _longest(rw, i, _KEEP_GOING)
    if not n:
        return None
    back = [t.text for t in rw.out[-7:]]
    for k in range(len(back) - 1, 0, -1):
        if back[k] == "into" and back[k - 1] in _INTO_VERBS:
            j = len(rw.out) - len(back) + k
            rw.out[j] = Token("through", rw.out[j].start, rw.out[j].end)
            break
        if back[k] in (",", ".", "and", "then"):
            break
    rw.emit(",", "then", "go", "to", like=rw.toks[i])
    return i + n


def by_going_through(rw: Rewriter, i: int) -> int | None:
    """"Get to the desk by going through the living room" -> "go through the living room, then
    get to the desk": the pass comes first on the route."""
    if not (_at(rw, i, ("by", "going", "through")) or _at(rw, i, ("by", "cutting", "through"))
            or _at(rw, i, ("by", "going", "via")) or _at(rw, i, ("by", "walking", "through"))):
        return None
    e = _np_end(rw, i + 3)
    if e == i + 3 or rw.w(e) not in ("", *_ENDS):
        return None
    # the goal clause said before: back to the sentence start
    s = len(rw.out)
    while s > 0 and rw.out[s - 1].text not in _ENDS:
        s -= 1
    goal = rw.out[s:]
    if not goal or goal[0].text not in W.MOVE_VERBS:
        return None
    del rw.out[s:]
    rw.emit("go", "through", like=rw.toks[i])
    rw.out.extend(rw.toks[i + 3:e])
    rw.emit(",", "then", like=rw.toks[i])
    rw.out.extend(goal)
    return e


#: Verbs whose "by X" passes X ("passing by the sofa"); not "go by" / "swing by" / "stop by",
#: which are visits ("go by the store on your way home").
_BY_VERBS = ("pass", "passing", "going", "walking", "walk", "drive", "driving", "moving")


#: Verbs whose "past X on your way to Y" passes X ("swing past the fridge on your way").
_PAST_VERBS = ("go", "swing", "walk", "head", "come", "pass", "drive", "move", "cut")


def go_by_on_way(rw: Rewriter, i: int) -> int | None:
    """"Pass by the fridge on your way to the sink", "go to the sofa going by the fridge",
    "pass by the dresser on the way": passing *by* a thing passes it ("passing")."""
    by = rw.w(i + 1) == "by" and rw.w(i) in _BY_VERBS
    if not (by or rw.w(i + 1) == "past" and rw.w(i) in _PAST_VERBS) or \
            rw.w(i + 2) not in _DETS:
        return None
    e = _np_end(rw, i + 2)
    if e == i + 2:
        return None
    way = _at(rw, e, ("on", "your", "way", "to")) or _at(rw, e, ("on", "the", "way", "to"))
    if rw.w(i) in ("walk", "drive") and not way or not by and not way:
        return None  # "walk by the window and wait": a place to stand
    if way:
        # "go by X on your way to Y" -> "go to Y, passing X"
        f = _np_end(rw, e + 4 + (rw.w(e + 4) in _DETS) * 0)
        if f == e + 4:
            return None
        rw.emit("go", "to", like=rw.toks[e + 3])
        rw.out.extend(rw.toks[e + 4:f])
        rw.emit(",", "passing", like=rw.toks[i])
        rw.out.extend(rw.toks[i + 2:e])
        return f
    tail = e + (2 if _at(rw, e, ("on", "the")) and rw.w(e + 2) == "way" else 0)
    if tail == e and rw.w(i) in ("pass", "passing"):
        return None  # a bare "passing by X" is read by the landmark rules
    if rw.w(i) in ("going", "walking") and _prev(rw) != ",":
        rw.emit(",", like=rw.toks[i])  # "go to the sofa going by the fridge"
    rw.emit("passing", like=rw.toks[i])
    rw.out.extend(rw.toks[i + 2:e])
    if tail > e:
        _note(rw, e, e + 3, "said as on the way")
        return e + 3
    return e


def then_through(rw: Rewriter, i: int) -> int | None:
    """"go through the kitchen, then through the living room": "then through" is a pass."""
    if rw.w(i) == "then" and rw.w(i + 1) in ("through", "via", "past") and \
            rw.w(i - 1) in (",", "and"):
        rw.emit("then", "go", like=rw.toks[i])
        return i + 1
    return None


# --- stops on the way ---------------------------------------------------------------------
def stop_on_the_way(rw: Rewriter, i: int) -> int | None:
    """"stop off at", "make a (quick) stop at", "with a stop at X on the way", "and on the
    way stop at X", "along the way": all onto "stop at X on the way"."""
    if rw.w(i) in ("stop", "stopping") and rw.w(i + 1) == "off" and \
            rw.w(i + 2) in ("at", "by", "in"):
        rw.emit(rw.w(i), like=rw.toks[i])
        return i + 2
    if rw.w(i) in ("make", "with") and rw.w(i + 1) in ("a", "one") and \
            rw.w(i + 2 + (rw.w(i + 2) in ("quick", "short", "brief"))) == "stop":
        k = i + 3 + (rw.w(i + 2) in ("quick", "short", "brief"))
        if rw.w(k) not in ("at", "by"):
            return None
        if rw.w(i) == "with":
            while rw.out and rw.out[-1].text in (",",):
                rw.out.pop()
            rw.emit(",", "stopping", like=rw.toks[i])
        else:
            rw.emit("stop", like=rw.toks[i])
        return k
    if _at(rw, i, ("along", "the", "way")) or _at(rw, i, ("on", "the", "way", "there")) and \
            rw.w(i + 4) in ("", *_ENDS):
        rw.emit("on", "the", "way", like=rw.toks[i])
        return i + 3 + (rw.w(i + 3) == "there")
    if _at(rw, i, ("and", "on", "the", "way", "stop")) and rw.w(i + 5) in ("at", "by"):
        e = _np_end(rw, i + 6)
        if e > i + 6:
            rw.emit("and", "stop", like=rw.toks[i])
            rw.out.extend(rw.toks[i + 5:e])
            rw.emit("on", "the", "way", like=rw.toks[i + 1])
            return e
    return None


# --- speech -------------------------------------------------------------------------------
def hesitation(rw: Rewriter, i: int) -> int | None:
    """"and then like the toilet", "and then you know come back", "... then the sofa i guess":
    hesitations of transcribed speech (recorded, they say nothing about the route)."""
    if rw.w(i) == "like" and _prev(rw) in _HESITATION_AFTER and \
            (rw.w(i + 1) in _DETS or rw.w(i + 1) in W.MOVE_VERBS):
        _note(rw, i, i + 1, "hesitation")
        return i + 1
    if _at(rw, i, ("you", "know")) and _prev(rw) in _HESITATION_AFTER and \
            (rw.w(i + 2) in _DETS or rw.w(i + 2) in W.MOVE_VERBS):
        _note(rw, i, i + 2, "hesitation")
        return i + 2
    if _at(rw, i, ("i", "guess")) and rw.w(i + 2) in ("", *_ENDS) and \
            any(rw.head_at(k) for k in range(max(0, i - 3), i)):
        _note(rw, i, i + 2, "hedge")
        return i + 2
    if rw.w(i) == "then" and rw.w(i + 1) == "and" and rw.w(i + 2) == "then":
        return i + 2  # "and then and then": a repeated sequencer
    return None


def in_order_aside(rw: Rewriter, i: int) -> int | None:
    """"Visit, in order, the fridge, the sofa and the bed": "in order" said inside the
    request; the stages keep the order said (recorded). Not "in order to" (a purpose)."""
    if rw.w(i) != "in" or _prev(rw) not in (",", *W.MOVE_VERBS) and not _after_item(rw):
        return None
    n = _longest(rw, i, ((("in", "order")), ("in", "this", "order"), ("in", "that", "order"),
                         ("in", "the", "following", "order"), ("in", "the", "order", "given"),
                         ("in", "sequence"), ("one", "after", "another")))
    if not n or rw.w(i + n) not in (",", "", *_ENDS) + (_DETS if _prev(rw) in (
            ",", *W.MOVE_VERBS) else ()):  # "..., in this order:" is a header
        return None
    _note(rw, i, i + n, "said as order")
    k = i + n + (rw.w(i + n) == ",")
    if _prev(rw) == "," and rw.w(i + n) not in ("", *_ENDS):
        rw.out.pop()
    return k


def stop_there_sentence(rw: Rewriter, i: int) -> int | None:
    """"Go to the fridge. Stop there. Then ...": a sentence that only says to stop at the place
    just reached is that stage's stop ("go to the fridge and stop there"), not a second one."""
    k = i + 1
    if rw.w(i) != "." or rw.w(k) not in ("stop", "wait", "stay", "halt", "pause"):
        return None
    k += 1 + (rw.w(k + 1) == "right")
    if rw.w(k) != "there" or rw.w(k + 1) not in ("", *_ENDS) or not _after_item(rw):
        return None
    rw.emit("and", like=rw.toks[i])
    return i + 1


def after_the_same(rw: Rewriter, i: int) -> int | None:
    """"Go to the fridge. After the fridge, go to the sofa.": "after" the stop just said refers
    back to it; the next stage follows it anyway (recorded, not a second stop)."""
    if rw.w(i) != "after" or _prev(rw) not in _ENDS or rw.w(i + 1) not in _DETS:
        return None
    e = _np_end(rw, i + 1)
    if e == i + 1 or rw.w(e) != ",":
        return None
    said = [t.text for t in rw.out[-1 - (e - i - 2):-1]]
    if said != rw.words[i + 2:e] or rw.w(e + 1) not in W.MOVE_VERBS:
        return None
    _note(rw, i, e, "said as after the stop just named")
    return e + 1


def you_will_pass(rw: Rewriter, i: int) -> int | None:
    """"Go to the bathroom, you'll pass through the bedroom": the pass said as what will happen
    on the way ("passing through")."""
    if _prev(rw) != "," or rw.w(i) != "you" or rw.w(i + 1) not in ("will", "'ll", "would"):
        return None
    k = i + 2
    if _at(rw, k, ("need", "to")) or _at(rw, k, ("have", "to")) or _at(rw, k, ("want", "to")):
        k += 2
    if rw.w(k) not in ("pass", "go", "cut", "walk", "head", "come") or \
            rw.w(k + 1) not in ("through", "past", "via"):
        return None
    rw.emit("passing", like=rw.toks[i])
    return k + 1


def before_that(rw: Rewriter, i: int) -> int | None:
    """"Go to the sofa, but before that, stop at the fridge", "..., but first stop at X": the
    stop comes on the way to the goal just said ("; on the way there, ...")."""
    k = i + (rw.w(i) == "but")
    if k == i and _prev(rw) not in (",", *_ENDS) or k > i and _prev(rw) != ",":
        return None
    n = _longest(rw, k, _BEFORE_THAT)
    if not n and k > i and rw.w(k) == "first" and rw.w(k + 1) in W.MOVE_VERBS:
        n = 1
    if not n:
        return None
    e = k + n + (rw.w(k + n) == ",")
    if rw.w(e) not in W.MOVE_VERBS or not rw.out:
        return None
    if k > i:
        _note(rw, i, k, "said as")  # "but": the stop is an addition to the route said
    while rw.out and rw.out[-1].text in (",", *_ENDS):
        rw.out.pop()
    rw.emit(";", "on", "the", "way", "there", ",", like=rw.toks[k])
    return e


#: "before that" and its variants: before the stage just said.
_BEFORE_THAT: tuple[tuple[str, ...], ...] = tuple(tuple(p.split()) for p in (
    "before that", "before this", "before doing that", "before you do that",
    "before going there", "before you go there", "before you get there", "before you do"))


def both_passed(rw: Rewriter, i: int) -> int | None:
    """"go through both the kitchen and the living room": each is passed (recorded)."""
    if rw.w(i) != "both" or _prev(rw) not in _PASS_WORDS or rw.w(i + 1) not in _DETS:
        return None
    _note(rw, i, i + 1, "said as both")
    return i + 1


def perfect_after(rw: Rewriter, i: int) -> int | None:
    """"Having gone to X, ...", "When you've been to X, ...": X first ("after visiting X")."""
    if rw.w(i) == "having" and rw.w(i + 1) in ("gone", "been", "visited", "reached"):
        k = i + 2
    elif rw.w(i) in ("when", "once") and rw.w(i + 1) == "you" and \
            rw.w(i + 2) == "have" and rw.w(i + 3) in ("gone", "been", "visited", "reached"):
        k = i + 4
    else:
        return None
    if rw.w(k - 1) in ("gone", "been"):
        if rw.w(k) != "to":
            return None
        k += 1
    if _prev(rw) not in ("", ",", *_ENDS) or rw.w(k) not in _DETS:
        return None
    rw.emit("after", "visiting", like=rw.toks[i])
    return k


def verb_first_to(rw: Rewriter, i: int) -> int | None:
    """"Go first to the fridge and second to the sofa": "first" between the verb and its "to"
    opens the list (recorded); the later ordinals are read by :func:`later_ordinal`."""
    if rw.w(i) != "first" or _prev(rw) not in W.MOVE_VERBS or rw.w(i + 1) != "to":
        return None
    _note(rw, i, i + 1, "said as order")
    return i + 1


#: The rules of this pass, tried in this order before the other human rules.
EARLY = (header, go_to_these, item_marker, your_nth_stop, later_ordinal, postfix_ordinal,
         first_opener, begin_by, come_back, sequencer, sentence_final_then, after_as_then,
         route_through, by_going_through, go_by_on_way, then_through, keep_going,
         pass_then_goal, past_list, stop_on_the_way, hesitation, in_order_aside,
         stop_there_sentence, after_the_same, you_will_pass, before_that, both_passed,
         perfect_after, verb_first_to)
