"""Errands that send the walker somewhere, and rooms told apart by how they are reached.

Run first in :func:`.human.human_forms`, on the tokens as typed. People give a robot chores,
not routes; the chore names the place. The phrasings, each a class rather than one sentence:

* a deed done at a thing: "water the plant", "check on the telly", "have a look at the
  washing machine", "empty the bin", "turn off the lamp", "put the kettle on", "tidy up the
  dresser", "collect the newspaper" -> "visit the plant", "grab the newspaper" (the deed
  itself is the speaker's business; the place is the stop); only with a thing the lexicon
  knows right after it, never after a negator;
* a state checked at a thing: "check the window's shut", "make sure the lamp is off" ->
  "visit the window" (the state is context: the map cannot check it); "... and see what's the
  matter" after a stop is context;
* where a carried thing goes: "throw this in the bin", "drop it off at the counter", "put it
  on the table", "take the rubbish out to the bin" -> "go to the bin" (what the robot
  carries is no stop of its own unless it was fetched first, as "grab X ..., throw it in Y"
  already reads);
* onward into the next room: "go through to the dog bed", "come through into the kitchen"
  -> "go to ...", "go into ..." (the place after "to" is where to go, not a room crossed);
* a ride or a tour: "take me to X", "take yourself (off) to X" -> "go to X"; "Take a little
  tour for me:" opening a list is a heading, reported as context;
* a verb corrected in passing: "Take me to - well, take yourself to - X", "fetch, or rather
  just go to, the kettle" -> "go to X", the first verb reported as context;
* "nip into the kitchen", "pop and grab X" -> "go into ...", "go and grab X";
* a room named by a thing in it: "the teddy bear room", "the teddy bear's room" -> "the room
  with the teddy bear";
* a room reached only through another: "the bedroom you can only get to through X", "the
  bedroom that can only be reached by going through X" -> "the bedroom that can only be
  reached through X" (which :func:`.relation_rewrites.reached_only_through` reads as a room
  sharing a door with X, its "only" reported);
* the room passed on the way to another: "the bedroom you have to walk through to get to X",
  "the bedroom that you go through on your way to X" -> "the bedroom adjacent to X" (a room
  walked through into X shares a door with it), the way it was said reported as context;
* the same said in a sentence of its own: "To get to X you have to go through another bedroom
  first. Go to the dresser in that first bedroom." -> the first sentence is context and "that
  first bedroom" becomes "the bedroom adjacent to X" (X's own tokens, spans kept).

Hand-written like the rest of the parser, so that every rewrite keeps the character spans of
what it read (a refusal still points into the original text) and nothing is guessed: a form
that does not match exactly is left for the later stages to read or refuse.
"""

from __future__ import annotations

from map2route.language.parser.destination_tokens import crossed_into
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["errand_reach"]

Context = list[tuple[str, tuple[int, int]]]

_ENDS = (".", "!", "?", ";")
_DETS = frozenset({"the", "a", "an", "that", "this", "my", "your", "our", "his", "her",
                   "their", "those", "these", "both", "any", "each", "every", "all"})
_NEGATORS = frozenset({"not", "never", "dont", "no", "without", "nor"})
#: Words after which a deed opens a request ("please water ...", "go and check on ...").
_OPENERS = frozenset({",", ":", "-", "and", "then", "please", "pls", "plz", "go", "to", "also",
                      "can", "could", "would", "will", "you", "u", "ya", "just", "first",
                      "next", "finally", "lastly", "quickly", "now", "later", "afterwards",
                      "after", "that", "need", "want", "gonna", "me", "us", "kindly", "ok",
                      "okay", "so", "dear", "pop", "nip", "run"})
#: Deeds done at a thing, each with the particles that may close it after the thing.
_DEEDS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("water",), ()), (("check", "on"), ()), (("look", "in", "on"), ()),
    (("have", "a", "look", "at"), ()), (("have", "a", "quick", "look", "at"), ()),
    (("have", "a", "little", "look", "at"), ()), (("take", "a", "look", "at"), ()),
    (("take", "a", "quick", "look", "at"), ()), (("have", "a", "peek", "at"), ()),
    (("look", "at"), ()), (("peek", "at"), ()),
    (("empty",), ("out",)), (("clean",), ("up",)), (("tidy",), ("up",)), (("dust",), ()),
    (("turn", "off"), ()), (("turn", "on"), ()), (("switch", "off"), ()), (("switch", "on"), ()),
    (("turn",), ("off", "on")), (("switch",), ("off", "on")), (("put",), ("on",)),
    (("collect",), ()), (("retrieve",), ()), (("feed",), ()), (("tend", "to"), ()),
    (("straighten",), ("up", "out")), (("plump", "up"), ()),
    (("plump",), ("up",)), (("charge",), ("up",)), (("wipe", "down"), ()),
    (("wipe",), ("down",)),
)
#: Deeds read only with their closing particle ("put the kettle on", "turn the lamp off").
_NEED_CLOSER = frozenset({("put",), ("turn",), ("switch",), ("plump",),
                          ("straighten",), ("charge",), ("wipe",)})
_CLOSE_AFTER = frozenset({*_ENDS, ",", "and", "then", "for", "please", "-", "pls", "in",
                          "by", "now", "again", "first"})
#: Things carried: "throw this in the bin", "drop it off at the counter".
_CARRY_VERBS = frozenset({"throw", "put", "drop", "chuck", "toss", "stick", "pop", "leave",
                          "dump", "place", "set", "lay", "shove", "bin", "stash"})
_CARRIED = frozenset({"it", "this", "that", "them", "these", "those"})
_WASTE = frozenset({"rubbish", "trash", "garbage", "recycling", "litter", "bins", "waste"})
_CARRY_PREPS = (("off", "at"), ("off", "in"), ("off", "by"), ("down", "on"), ("down", "in"),
                ("down", "by"), ("away", "in"), ("in", "at"), ("into",), ("in",), ("onto",),
                ("on",), ("at",), ("by",), ("next", "to"), ("beside",), ("out", "to"),
                ("over", "to"), ("to",))
_SELF = frozenset({"me", "yourself", "urself", "us", "yourselves", "ya", "it"})
_SELF_PARTS = frozenset({"off", "over", "along", "down", "up", "out", "back", "on", "across",
                         "round", "around"})
#: "nip into the kitchen", "nip and grab X", "nip over to the fridge".
_NIP_AFTER = frozenset({"and", "into", "to", "over", "out", "down", "up", "round", "across",
                        "through", "in", "along", "back"})
_THROUGH_TO_VERBS = frozenset({"go", "come", "head", "walk", "pop", "nip", "get", "wander",
                               "make"})
_TOURS = frozenset({"tour", "trip", "round", "walk", "wander", "spin", "stroll", "loop"})
_TOUR_ADJ = frozenset({"little", "quick", "short", "wee", "small", "brief", "nice"})
_MARKERS = frozenset({"well", "or", "rather", "i", "mean", "sorry", "actually", "no", "make",
                      "that", "scratch", "wait", "just", "erm", "um", "uh", "oh", "ok",
                      "okay", "let", "me", "rephrase", "correction", "more", "like"})
_GO_WORDS = frozenset({"go", "and", "just", "to", "take", "yourself", "me", "fetch", "get",
                       "grab", "bring", "head", "walk", "over", "on", "off", "come", "nip",
                       "pop", "run", "collect", "pick", "up", "round"})
_THROUGH = frozenset({"through", "thru", "via"})
_YOU = frozenset({"you", "u", "ya", "one", "we"})
_CAN = frozenset({"can", "could", "may", "might"})
_GET_TO = (("get", "to"), ("get", "into"), ("get", "in"), ("go", "to"), ("go", "into"),
           ("come", "to"), ("come", "into"), ("reach",), ("enter",), ("access",),
           ("be", "reached"), ("be", "accessed"), ("be", "entered"), ("be", "got", "to"),
           ("reached",), ("accessed",), ("entered",), ("get", "at"))
_BY_GOING = (("by", "going", "through"), ("by", "passing", "through"),
             ("by", "walking", "through"), ("by", "cutting", "through"),
             ("by", "going", "thru"), ("by", "coming", "through"), ("by", "crossing"),
             ("by", "way", "of"), ("after", "going", "through"),
             ("after", "passing", "through"), ("through",), ("thru",), ("via",), ("from",))
_MUST = (("have", "to"), ("need", "to"), ("have", "got", "to"), ("got", "to"), ("must",),
         ("gotta",), ("would", "have", "to"), ("will", "have", "to"), ("'d", "have", "to"))
_PASS_VERBS = frozenset({"walk", "go", "pass", "cut", "come", "get", "cross", "drive", "move",
                         "head", "travel"})
_TO_REACH = (("to", "get", "to"), ("to", "reach"), ("to", "get", "into"),
             ("to", "get", "through", "to"), ("on", "your", "way", "to"),
             ("on", "the", "way", "to"), ("before", "you", "get", "to"),
             ("before", "you", "reach"), ("before", "reaching"), ("to", "get", "in", "to"),
             ("on", "ur", "way", "to"), ("to", "go", "to"), ("to", "go", "into"))
_FIRST_ROOM = frozenset({"first", "other", "same"})


def errand_reach(toks: list[Token]) -> tuple[list[Token], Context]:
    """Rewrite the phrasings of the module docstring; returns the tokens and what was taken
    out as context (text and character span)."""
    context: Context = []
    toks = _reach_sentence(toks, context)
    toks = _verb_corrections(toks, context)
    toks = _take_self(toks, context)
    toks = _reach_rooms(_thing_rooms(toks), context)
    toks = _carry_to(_state_checks(toks, context))
    toks = _deeds(toks)
    return toks, context


def _words(toks: list[Token]) -> list[str]:
    return [t.text for t in toks]


def _at(words: list[str], k: int, phrase: tuple[str, ...]) -> bool:
    return tuple(words[k:k + len(phrase)]) == phrase


def _longest(words: list[str], k: int,
             phrases: tuple[tuple[str, ...], ...]) -> tuple[str, ...] | None:
    hits = [p for p in phrases if _at(words, k, p)]
    return max(hits, key=len) if hits else None


def _head_len(words: list[str], k: int) -> tuple[int, str] | None:
    """Length and kind of a head the lexicon knows at ``k``."""
    hit = head_lexicon().match(words[k:k + head_lexicon().max_len])
    return (hit[0], hit[2]) if hit else None


def _np_end(words: list[str], k: int) -> int | None:
    """End of "DET (ADJ) HEAD" at ``k`` (one adjective or count word allowed), or None."""
    if k >= len(words) or words[k] not in _DETS:
        return None
    for q in (k + 1, k + 2):
        if q == k + 2 and (words[k + 1] in _DETS or not words[k + 1].isalnum()):
            return None  # "make that the sink": one adjective or count word, no more
        hit = _head_len(words, q)
        if hit:
            return q + hit[0]
    return None


def _room_before(words: list[str], k: int) -> bool:
    """Whether a room word ends just before ``k`` ("the bedroom | you can only ...")."""
    for n in range(1, 4):
        hit = _head_len(words, k - n) if k - n >= 0 else None
        if hit and hit[0] == n and hit[1] == "room":
            return True
    # "the room with the teddy bear's room", "the teddy bear room": a room word last
    return k > 0 and words[k - 1] in ("room", "one")


def _text(toks: list[Token]) -> str:
    return " ".join(t.text for t in toks)


def _span(toks: list[Token]) -> tuple[int, int]:
    return toks[0].start, toks[-1].end


def _emit(words: tuple[str, ...], a: Token, b: Token) -> list[Token]:
    return [Token(w, a.start, b.end) for w in words]


# --- deeds -----------------------------------------------------------------------------------

def _clause_start(words: list[str], k: int) -> bool:
    return k == 0 or words[k - 1] in _ENDS or words[k - 1] in _OPENERS


def _negated(words: list[str], k: int) -> bool:
    return any(w in _NEGATORS for w in words[max(0, k - 3):k])


def _deeds(toks: list[Token]) -> list[Token]:
    """"water the plant", "put the kettle on" -> "visit the plant", "visit the kettle"."""
    words = _words(toks)
    out: list[Token] = []
    k = 0
    while k < len(toks):
        hit = _deed_at(words, k) if _clause_start(words, k) and not _negated(words, k) \
            else None
        if hit is None:
            out.append(toks[k])
            k += 1
            continue
        n, end, close = hit
        # a thing collected is fetched ("collect the mug from the kitchen"), the rest visited
        verb = "grab" if words[k] in ("collect", "retrieve") else "visit"
        out += _emit((verb,), toks[k], toks[k + n - 1])
        out += toks[k + n:end]
        k = end + close
    return out


def _deed_at(words: list[str], k: int) -> tuple[int, int, int] | None:
    """A deed at ``k``: the verb's length, where its thing ends, and 1 when a closing
    particle follows the thing ("put the kettle on"); None when there is none."""
    for verb, closers in sorted(_DEEDS, key=lambda d: -len(d[0])):
        if len(verb) == 1 and words[k:k + 1] == list(verb) and \
                words[k + 1:k + 2] and words[k + 1] in closers:
            verb = (verb[0], words[k + 1])  # the particle before the thing: "tidy up the X"
            closers = ()
        elif not _at(words, k, verb):
            continue
        end = _np_end(words, k + len(verb))
        if end is None:
            continue
        close = end < len(words) and words[end] in closers and \
            (end + 1 == len(words) or words[end + 1] in _CLOSE_AFTER)
        if verb in _NEED_CLOSER and not close:
            continue  # "put the mug on the table", "turn left": not a deed
        return len(verb), end, int(close)
    return None


# --- carried things --------------------------------------------------------------------------

def _carry_to(toks: list[Token]) -> list[Token]:
    """"throw this in the bin", "drop it off at the counter", "take the rubbish out to the
    bin" -> "go to the bin"."""
    words = _words(toks)
    out: list[Token] = []
    k = 0
    while k < len(toks):
        hit = _carry_at(words, k) if _clause_start(words, k) and not _negated(words, k) \
            else None
        if hit is None:
            out.append(toks[k])
            k += 1
            continue
        out += _emit(("go", "to"), toks[k], toks[hit - 1])
        k = hit
    return out


def _carry_at(words: list[str], k: int) -> int | None:
    """Where the place a carried thing is taken to starts, for a carry at ``k``."""
    w = words[k]
    q = k + 1
    if w in _CARRY_VERBS and q < len(words) and words[q] in _CARRIED:
        q += 1
    elif w in ("take", "carry", "bring", "throw", "put") and words[q:q + 1] in (["the"], ["my"],
                                                                               ["this"]) \
            and words[q + 1:q + 2] and words[q + 1] in _WASTE:
        q += 2  # "take the rubbish out to the bin": no thing of the map is carried
    else:
        return None
    prep = _longest(words, q, _CARRY_PREPS)
    if prep is None or prep == ("to",) and w not in ("take", "carry", "bring"):
        return None
    q += len(prep)
    return q if _np_end(words, q) is not None else None


# --- a ride, a tour, a verb corrected ------------------------------------------------------

def _take_self(toks: list[Token], context: Context) -> list[Token]:
    """"take me to X", "take yourself off to X" -> "go to X"; "Take a little tour for me:"
    before a list -> context."""
    words = _words(toks)
    out: list[Token] = []
    k = 0
    while k < len(toks):
        if words[k] == "take" and words[k + 1:k + 2] and words[k + 1] in _SELF:
            q = k + 2
            while q < len(words) and words[q] in _SELF_PARTS and q < k + 4:
                q += 1
            if words[q:q + 1] in (["to"], ["into"]) and _np_end(words, q + 1) is not None:
                out += _emit(("go", words[q]), toks[k], toks[q])
                k = q + 1
                continue
        if words[k] in _THROUGH_TO_VERBS and words[k + 1:k + 2] in (["through"], ["thru"]) \
                and words[k + 2:k + 3] in (["to"], ["into"]) and \
                _np_end(words, k + 3) is not None:
            # onward, not across; but a room left for another room is crossed ("go through
            # into the living room, then into the bathroom")
            out += _emit(("go", "through" if crossed_into(words, k + 2) else words[k + 2]),
                         toks[k], toks[k + 2])
            k += 3
            continue
        if words[k] in ("nip", "pop") and _clause_start(words, k) and \
                words[k + 1:k + 2] and words[k + 1] in _NIP_AFTER:
            out.append(Token("go", toks[k].start, toks[k].end))
            k += 1
            continue
        if words[k] == "take" and _clause_start(words, k):
            q = k + 1 + (words[k + 1:k + 2] in (["a"], ["an"]))
            q += q < len(words) and words[q] in _TOUR_ADJ
            if q < len(words) and words[q] in _TOURS and q > k + 1:
                q += 1
                q += 2 if words[q:q + 2] in (["for", "me"], ["for", "us"]) else 0
                q += 1 if words[q:q + 1] in (["around"], ["round"]) and \
                    words[q + 1:q + 2] in ([":"], ["-"], [","]) else 0
                if words[q:q + 1] in ([":"], ["-"], [","], ["."]):
                    context.append((_text(toks[k:q]), _span(toks[k:q])))
                    k = q + 1
                    continue
        out.append(toks[k])
        k += 1
    return out


def _go_phrase(words: list[str], k: int) -> int:
    """End of a run of go and fetch words at ``k`` ("take yourself to", "go and fetch")."""
    q = k
    while q < len(words) and words[q] in _GO_WORDS and q < k + 5:
        q += 1
    return q


def _verb_corrections(toks: list[Token], context: Context) -> list[Token]:
    """"Take me to - well, take yourself to - X", "fetch, or rather just go to, the kettle"
    -> "take yourself to X", "go to the kettle": the first verb is context."""
    words = _words(toks)
    out: list[Token] = []
    k = 0
    while k < len(toks):
        a = _go_phrase(words, k) if _clause_start(words, k) else k
        if words[k] == "to" and words[k - 1:k] == ["you"]:  # "I'd like you to fetch, well, ..."
            a = k  # the request's "to" stays: the corrected verb comes after it
        if a > k and words[a:a + 1] in ([","], ["-"]):
            m = a + 1
            while m < len(words) and words[m] in _MARKERS and m < a + 6:
                m += 1
            m += words[m:m + 1] in ([","], ["-"])
            b = _go_phrase(words, m)
            if m > a + 1 and b > m and words[b - 1] in ("to", "into") and \
                    words[b:b + 1] in ([","], ["-"]) and _np_end(words, b + 1) is not None:
                context.append((_text(toks[k:m]), _span(toks[k:m])))
                out += toks[m:b]
                k = b + 1
                continue
        out.append(toks[k])
        k += 1
    return out


# --- rooms by how they are reached ----------------------------------------------------------

def _thing_rooms(toks: list[Token]) -> list[Token]:
    """"the teddy bear room", "the teddy bear's room" -> "the room with the teddy bear": a room
    named by a thing in it (a room word after an object word, nothing between)."""
    words = _words(toks)
    out: list[Token] = []
    k = 0
    while k < len(toks):
        hit = _head_len(words, k + 1) if words[k] == "the" else None
        q = k + 1 + hit[0] if hit else k
        q += hit is not None and words[q:q + 1] == ["'s"]
        if hit and hit[1] in ("object", "group") and words[q:q + 1] == ["room"] and \
                words[q + 1:q + 2] != ["with"]:
            thing = toks[k + 1:k + 1 + hit[0]]
            out += [toks[k], toks[q], Token("with", toks[k + 1].start, toks[q - 1].end),
                    Token("the", toks[k].start, toks[k].end), *thing]
            k = q + 1
            continue
        out.append(toks[k])
        k += 1
    return out


def _reach_rooms(toks: list[Token], context: Context) -> list[Token]:
    """"the bedroom you can only get to through X" -> "the bedroom that can only be reached
    through X"; "the bedroom you have to walk through to get to X" -> "the bedroom adjacent
    to X" (the way it was said is context)."""
    words = _words(toks)
    out: list[Token] = []
    k = 0
    while k < len(toks):
        if not _room_before(words, k) or words[k] in _ENDS:
            out.append(toks[k])
            k += 1
            continue
        only = _only_through(words, k)
        if only is not None:
            out += _emit(("that", "can", "only", "be", "reached", "through"), toks[k],
                         toks[only - 1])
            if words[only] == "another":  # a room beside this one is another room
                out.append(Token("a", toks[only].start, toks[only].end))
                only += 1
            k = only
            continue
        passed = _passed_to_reach(words, k)
        if passed is not None:
            context.append((_text(toks[k:passed]), _span(toks[k:passed])))
            out += _emit(("adjacent", "to"), toks[k], toks[passed - 1])
            k = passed
            continue
        out.append(toks[k])
        k += 1
    return out


def _only_through(words: list[str], k: int) -> int | None:
    """End of "(that) you can only get to through" / "that can only be reached by going
    through" at ``k`` (the next word opens the room passed), or None."""
    q = k + (words[k] in ("that", "which"))
    q += words[q] in _YOU if q < len(words) else 0
    q += q < len(words) and words[q] in _CAN
    if words[q:q + 1] != ["only"]:
        return None
    q += 1
    verb = _longest(words, q, _GET_TO)
    if verb is None:
        return None
    q += len(verb)
    by = _longest(words, q, _BY_GOING)
    if by is None:
        return None
    q += len(by)
    return q if _np_end(words, q) is not None or words[q:q + 1] == ["another"] else None


def _passed_to_reach(words: list[str], k: int) -> int | None:
    """End of "(that) you have to walk through to get to" / "that you go through on your way
    to" at ``k`` (the next word opens the room reached), or None."""
    q = k + (words[k] in ("that", "which"))
    if q >= len(words) or words[q] not in _YOU:
        return None
    q += 1
    must = _longest(words, q, _MUST)
    q += len(must) if must else 0
    if q >= len(words) or words[q] not in _PASS_VERBS:
        return None
    q += 1
    if q < len(words) and words[q] in ("through", "thru", "across") or words[q - 1] == "cross":
        q += words[q] in ("through", "thru", "across")
    else:
        return None
    q += words[q:q + 1] == ["first"]
    reach = _longest(words, q, _TO_REACH)
    if reach is None:
        return None
    q += len(reach)
    one = words[q:q + 2] in (["the", "one"], ["the", "room"])  # "the one with the desk"
    return q if one or _np_end(words, q) is not None else None


def _reach_sentence(toks: list[Token], context: Context) -> list[Token]:
    """"To get to X you have to go through another bedroom first. Go to the dresser in that
    first bedroom." -> the first sentence is context; "that first bedroom" is "the bedroom
    adjacent to X"."""
    words = _words(toks)
    k = 0
    while k < len(words):
        if not (k == 0 or words[k - 1] in _ENDS) or words[k] != "to" or k + 1 >= len(words):
            k += 1
            continue
        q = k + 1
        q += 3 if words[q:q + 3] in (["get", "from", "here"], ["go", "from", "here"]) else 1
        if words[k + 1] not in ("get", "go", "reach") or words[q:q + 1] not in (["to"],
                                                                               ["into"]):
            q = q if words[k + 1] == "reach" else -1
        else:
            q += 1
        if q < 0:
            k += 1
            continue
        goal = q
        end = _np_end(words, q)
        if end is None:
            k += 1
            continue
        while end < len(words) and words[end] not in (",", "you", "u", *_ENDS):
            end += 1  # "the bedroom with two windows": the whole reference
        r = end + (words[end:end + 1] == [","])
        if words[r:r + 1] not in (["you"], ["u"]):
            k += 1
            continue
        r += 1
        must = _longest(words, r, _MUST)
        r += len(must) if must else 0
        r += r < len(words) and words[r] in _PASS_VERBS and words[r] != "cross"
        if words[r:r + 1] not in (["through"], ["thru"], ["cross"], ["across"]):
            k += 1
            continue
        r += 1
        if words[r:r + 1] not in (["another"], ["a"], ["one"], ["an"], ["some"]):
            k += 1
            continue
        room = _head_len(words, r + 1)
        if room is None or room[1] != "room":
            k += 1
            continue
        r += 1 + room[0]
        r += words[r:r + 1] == ["first"]
        if words[r:r + 1] not in ([w] for w in _ENDS):
            k += 1
            continue
        first = int(words[r - 1] == "first")
        later = _that_room(words, r + 1, words[r - room[0] - first:r - first])
        if later is None:
            k += 1
            continue
        a, b = later
        context.append((_text(toks[k:r]), _span(toks[k:r])))
        new = [*toks[:k], *toks[r + 1:a]]
        new += [Token("the", toks[a].start, toks[a].end), *toks[b - room[0]:b],
                Token("adjacent", toks[a].start, toks[b - 1].end),
                Token("to", toks[a].start, toks[b - 1].end), *toks[goal:end], *toks[b:]]
        return new
    return toks


def _that_room(words: list[str], k: int, room: list[str]) -> tuple[int, int] | None:
    """Where "that (first) ROOM" / "the first ROOM" / "that one" of ``room`` is said from
    ``k`` on: its start and end."""
    n = len(room)
    for q in range(k, len(words)):
        if words[q] in ("that", "this") and words[q + 1:q + 2] and \
                words[q + 1] in _FIRST_ROOM and words[q + 2:q + 2 + n] == room:
            return q, q + 2 + n
        if words[q] in ("that", "this") and words[q + 1:q + 1 + n] == room:
            return q, q + 1 + n
        if words[q] == "the" and words[q + 1:q + 2] == ["first"] and \
                words[q + 2:q + 2 + n] == room:
            return q, q + 2 + n
    return None


# --- a state checked at a thing ----------------------------------------------------------------
_CHECK = (("check", "that"), ("check",), ("make", "sure"), ("make", "sure", "that"),
          ("see", "that"), ("go", "see", "that"))
_BE = frozenset({"'s", "is", "are", "was", "were", "'re"})
_STATES = frozenset({"shut", "closed", "open", "on", "off", "locked", "unlocked", "clean",
                     "dry", "wet", "full", "empty", "plugged", "unplugged", "working", "ok",
                     "okay", "alright", "tidy", "straight", "still", "there", "upright",
                     "charged", "charging", "running"})
_MATTER = (("what", "'s", "the", "matter"), ("what", "is", "the", "matter"),
           ("what", "'s", "wrong"), ("what", "is", "wrong"), ("what", "'s", "up"),
           ("what", "'s", "going", "on"), ("what", "is", "going", "on"))


def _state_checks(toks: list[Token], context: Context) -> list[Token]:
    """"check the window's shut", "make sure the lamp is off" -> "visit the window" (the
    state asked about is context); "(and) see what's the matter" after a stop -> context."""
    words = _words(toks)
    out: list[Token] = []
    k = 0
    while k < len(toks):
        verb = _longest(words, k, _CHECK) if _clause_start(words, k) else None
        end = _np_end(words, k + len(verb)) if verb else None
        if verb and end is not None and words[end:end + 1] and words[end] in _BE and \
                words[end + 1:end + 2] and words[end + 1] in _STATES:
            out += _emit(("visit",), toks[k], toks[k + len(verb) - 1])
            out += toks[k + len(verb):end]
            context.append((_text(toks[end:end + 2]), _span(toks[end:end + 2])))
            k = end + 2
            continue
        if words[k] == "see" and out and out[-1].text == "and":
            n = _longest(words, k + 1, _MATTER)
            if n is not None and (k + 1 + len(n) == len(words) or
                                  words[k + 1 + len(n)] in (*_ENDS, ",")):
                context.append((_text(toks[k - 1:k + 1 + len(n)]),
                                _span(toks[k - 1:k + 1 + len(n)])))
                out.pop()
                k += 1 + len(n)
                continue
        out.append(toks[k])
        k += 1
    return out
