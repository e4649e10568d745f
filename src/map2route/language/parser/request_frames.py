"""The frames people wrap a request in, put onto the forms the rules read.

Each frame says how the request is asked, not where to go, so each is either taken out (and
reported as context) or respelt as the plain request it stands for:

* a speaker's scene said in one breath with the request, an apposition inside: "I'm on the
  couch in the big living room, the one with the dog bed, right, and I need you to go ..." /
  "I'm in the small living room, in the armchair, and I'd like you to ..." -> "I'm on the couch
  ..., the one with the dog bed. I need you to go ..." (the scene readers take a sentence of
  its own; the ", and" joined it to the request, so "am" was read as part of the route);
* a thing's state run on into the request: "Washing machine is beeping again, can you go see
  it?" -> "Washing machine is beeping again. can you go see it?" (the statement is read as
  a sentence of its own, the question as the request);
* a light verb announcing a list: "Do this in order: A, then B" / "I need you do this: ..." /
  "Do: microwave, then toaster" -> "A, then B"; "do the rounds: first A, then B" ->
  "first A, then B" (not "do the kitchen rounds": a room as the job's topic is a scope for
  the rules after it, which is not read here; it is left to be refused);
* a lap said with "of": "do a full lap of the table" / "do full lap of table" -> "do a lap
  around the table"; a lap said again after "go round X": "go round the table, like do a full
  lap of it, and then ..." -> "go round the table, and then ..." (one lap, not two);
* a hedge between a verb of standing and its place: "go stand sort of next to X", "stop like,
  halfway between A and B", "wait kind of by X" -> "go stand next to X", ...: "sort of" says
  the speaker is not fussy, not another place;
* "over" between a thing picked and where it is: "the dresser, the one in here over by the
  bedroom door" -> "... the one in here by the bedroom door" (not a move "over by" the door);
* a way of approaching a place said with "at": "don't come at it through the bedrooms" ->
  "don't go through the bedrooms";
* an announcement of the job: "Little errand run for you." / "Quick job for you." is context
  (not "Little kitchen errand run", for the reason above); "First stop is X, then Y" / "Your only stop is X" -> "go to X, then Y" /
  "go to X" (so that "First stop is whichever chair is nearest the fridge" reads too);
* "go park yourself next to X" -> "go stand next to X" (the verbs said with "yourself" are
  one of standing; "park yourself in a room" is left to :mod:`.room_places`);
* a speed said before the next request: "Slowly please, keep wide space from the table" ->
  "keep wide space from the table" (the speed is context: routes hold no speed);
* a preface that explains before asking: "Let me explain the house to you first, since you're
  new." is context when it names no route verb (the sentences after it are read as usual).

Runs on the normalised tokens (lower case, "i am", "do not", ":" read as ","). Hand-written
like the rest of the parser (see :mod:`.normalise`): the frames are closed classes of words.
"""

from __future__ import annotations

from map2route.language.parser.destination_tokens import Context, take
from map2route.language.tokens import Token

__all__ = ["request_frames"]

_ENDS = frozenset({".", "!", "?", ";"})
#: Words that open a spoken sentence before the speaker's scene ("okay so I'm ...").
_LEADS = frozenset({"okay", "ok", "so", "right", "well", "alright", "now", "and", ",", "oh",
                    "um", "uh", "er", "hey", "hi"})
#: Verbs that make a clause a request: a scene with one of these is not only a scene.
_ROUTE_VERBS = frozenset({"go", "head", "come", "walk", "move", "stop", "wait", "keep", "stay",
                          "avoid", "visit", "drive", "get", "find", "do"})
#: Words after "I'm" that say where the speaker is ("I'm in", "I'm sitting on"); not "I'm
#: nearly certain I left X in Y, and I want you to ...", a belonging's place.
_PLACED = frozenset({"in", "on", "at", "by", "next", "near", "beside", "sitting", "sat",
                     "standing", "stood", "lying", "over", "just", "right", "here", "still",
                     "currently", "now", "up", "down", "out"})
#: "and I'd like you (to)", "and I need you (to)", "and I want you (to)": the request's start.
_ASKS = (("i", "would", "like", "you"), ("i", "need", "you"), ("i", "want", "you"),
         ("i", "would", "love", "you"), ("can", "you"), ("could", "you"),
         ("i", "want"), ("i", "need"), ("id", "like", "you"))
#: Words a spoken apposition ends on before ", and": "the one with the dog bed, right, and".
_TAGS = frozenset({"right", "yeah", "yes", "ok", "okay"})
#: Words that may stand before a light-verb list frame ("I need you (to) do this in order").
_FRAME_OPENERS = frozenset({*_ENDS, ",", "to", "you", "please", "so", "now", "then", "first"})
#: Verbs a learner puts straight after "I need you" ("I need you go to X").
_BARE_VERBS = frozenset({"go", "do", "come", "stop", "stand", "wait", "head", "make", "take",
                         "visit", "find", "check", "bring", "park"})
_LAP_ADJ = frozenset({"full", "whole", "complete", "proper", "entire"})
#: Verbs of standing or stopping a hedge may follow ("go stand sort of next to").
_STANDING = frozenset({"stand", "stop", "wait", "yourself", "park", "go", "come", "sit", "be",
                       "get", "end", "finish"})
#: Words that place the robot after the hedge.
_PLACING = frozenset({"next", "by", "beside", "near", "at", "in", "halfway", "midway", "between",
                      "right", "close", "on", "somewhere", "roughly", "about", "opposite",
                      "around", "round"})
_HEDGES = (("sort", "of"), ("kind", "of"), ("sorta",), ("kinda",), ("like", ","), ("like",))
_SIZES = frozenset({"a", "one", "little", "quick", "small", "short", "easy", "simple", "wee"})
_JOB_NOUNS = frozenset({"errand", "errands", "job", "jobs", "run", "task", "tasks", "round",
                        "rounds", "chores"})
#: "first stop is X" -> "go to X" (said in order already: a "first" would move it before a
#: pass said earlier, "On your way in, go past the window. First stop is the safe");
#: "next stop is X" -> "then go to X"; "only stop is X" -> "go to X"
_STOP_ORDERS = {"first": (), "next": ("then",), "second": ("then",),
                "third": ("then",), "last": ("finally",), "final": ("finally",), "only": (),
                "": ()}
#: Verbs said with "yourself" for standing somewhere ("go park yourself next to X").
_SELF_VERBS = frozenset({"park", "plant", "station", "position", "put", "place"})
_SPEEDS = frozenset({"slowly", "slow", "carefully", "gently"})
_EXPLAIN = frozenset({"explain", "describe"})
#: Spoken fillers (the parser's normalisation drops them later; these frames run before it).
_FILLERS = frozenset({"um", "uh", "er", "erm", "like"})


def _prev(out: list[Token]) -> str:
    """The word before, fillers skipped ("go round X, like do a lap of it": ",")."""
    k = len(out) - 1
    while k >= 0 and out[k].text in _FILLERS:
        k -= 1
    return out[k].text if k >= 0 else "."


def request_frames(toks: list[Token]) -> tuple[list[Token], Context]:
    """``toks`` with the frames of the module docstring put in the forms the rules read;
    returns the tokens and what was taken out as context."""
    ctx: Context = []
    toks = _scene_then_request(toks)
    words = [t.text for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(toks):
        prev = _prev(out)
        n = _list_frame(words, i, prev)
        if n:
            take(toks, i, i + n, ctx)  # "do this in order:", "do the rounds:"
            i += n
            continue
        lap = _lap(words, i, prev)
        if lap:
            n, again = lap
            if again:  # "go round X, like do a full lap of it": said twice, one lap
                take(toks, i, i + n, ctx)
                while out and out[-1].text in (",", *_FILLERS):
                    out.pop()
                i += n
                continue
            t0, t1 = toks[i], toks[i + n - 2]
            out += [Token(w, t0.start, t1.end) for w in ("do", "a", "lap", "around")]
            i += n - 1  # the object stays
            continue
        n = _hedge(words, i, prev)
        if words[i] == "over" and prev in ("here", "one") and words[i + 1:i + 2] and \
                words[i + 1] in ("by", "near", "beside", "next"):
            n = 1  # "the one in here over by the door": by the door
        if n:
            i += n  # "go stand sort of next to": the place is the same
            continue
        if words[i] in ("come", "get") and words[i + 1:i + 4] in (
                ["at", "it", "through"], ["at", "it", "via"]):
            out.append(Token("go", toks[i].start, toks[i + 2].end))  # "come at it through"
            i += 3
            continue
        if words[i] == "id" and words[i + 1:i + 2] == ["like"] and prev in (*_ENDS, ",", "and"):
            out += [Token(w, toks[i].start, toks[i].end) for w in ("i", "would")]  # "id like u"
            i += 1
            continue
        if words[i] in ("need", "want") and prev == "i" and words[i + 1:i + 2] in (
                ["you"], ["u"]) and words[i + 2:i + 3] and words[i + 2] in _BARE_VERBS:
            # "I need you do this", "I want you go to X" (a learner's "to" left out)
            out += [toks[i], toks[i + 1], Token("to", toks[i + 1].end, toks[i + 1].end)]
            i += 2
            continue
        n = _announcement(words, i, prev)
        if n:
            take(toks, i, i + n, ctx)  # "Little kitchen errand run for you."
            i += n
            continue
        stop = _stop_is(words, i, prev)
        if stop:
            n, said = stop  # "First stop is X" -> "go to X"
            out += [Token(w, toks[i].start, toks[i + n - 1].end) for w in said]
            i += n
            continue
        if words[i] in _SELF_VERBS and words[i + 1:i + 2] == ["yourself"] and \
                words[i + 2:i + 3] and words[i + 2] in ("next", "by", "beside", "near") and \
                prev in ("go", "and", "just", "then", ",", *_ENDS):
            out.append(Token("stand", toks[i].start, toks[i + 1].end))  # "go park yourself by"
            i += 2
            continue
        n = _manner_lead(words, i, prev)
        if n:
            take(toks, i, i + n, ctx)  # "Slowly please, keep wide space from the table"
            i += n
            continue
        n = _explaining(words, i)
        if n:
            take(toks, i, i + n, ctx)
            i += n
            continue
        out.append(toks[i])
        i += 1
    return out, ctx


def _scene_then_request(toks: list[Token]) -> list[Token]:
    """"I'm on X, <apposition>, (right,) and I need you to ...": a full stop for the ", and"
    (see the module docstring)."""
    words = [t.text for t in toks]
    cut: dict[int, int] = {}  # first token replaced -> one past the last
    i = 0
    while i < len(words):
        if i and words[i - 1] not in _ENDS:
            i += 1
            continue
        k = i
        while k < len(words) and words[k] in _LEADS:
            k += 1
        if words[k:k + 2] not in (["i", "am"], ["you", "are"]) or \
                words[k + 2:k + 3] == [] or words[k + 2] not in _PLACED:
            state = _state_then_ask(words, k)
            if state:
                cut[state[0]] = state[1]
            i = k + 1
            continue
        j = k + 2
        while j < len(words) and words[j] not in _ENDS and words[j] not in _ROUTE_VERBS:
            if words[j] == "," and _ask_after(words, j):
                cut[j] = _ask_after(words, j)
                break
            j += 1
        i = j + 1
    if not cut:
        return toks
    out: list[Token] = []
    i = 0
    while i < len(toks):
        if i in cut:
            out.append(Token(".", toks[i].start, toks[cut[i] - 1].end))
            i = cut[i]
            continue
        out.append(toks[i])
        i += 1
    return out


def _state_then_ask(words: list[str], k: int) -> tuple[int, int] | None:
    """"Washing machine is beeping again, can you go see it?": a statement run on into a
    question asking for the request; the comma and the token after the question's start
    (None if the sentence at ``k`` is not one)."""
    j = k
    while j < len(words) and words[j] not in _ENDS and words[j] not in _ROUTE_VERBS:
        if words[j] == "," and words[j + 1:j + 3] in (["can", "you"], ["could", "you"],
                                                       ["can", "u"], ["could", "u"]):
            clause = words[k:j]
            if any(w in ("is", "are") for w in clause[1:3]) and clause[0] not in (
                    "i", "you", "it", "there", "if", "when", "while", "once", "this", "that"):
                return j, j + 1
            return None
        j += 1
    return None


def _ask_after(words: list[str], j: int) -> int:
    """At the comma ``j``: the index of the request after ", (right,) and" (0: none)."""
    k = j + 1
    if words[k:k + 2] and words[k] in _TAGS and words[k + 1:k + 2] == [","]:
        k += 2
    if words[k:k + 1] != ["and"]:
        return 0
    k += 1
    said = [(m, "you" if w == "u" else w) for m, w in enumerate(words[k:k + 12], k)
            if w not in (",", "um", "uh", "er", "erm")]
    return k if any(tuple(w for _, w in said[:len(a)]) == a for a in _ASKS) else 0


def _list_frame(words: list[str], i: int, prev: str) -> int:
    """Length of a light-verb list frame at ``i``: "do this in order ,", "do this ,", "do ,"
    (a colon is read as a comma), "do the rounds ,"; 0 if none."""
    if words[i] != "do" or prev not in _FRAME_OPENERS:
        return 0
    k = i + 1
    if words[k:k + 1] in (["this"], ["these"]):  # not "while you do it, ..."
        k += 1
        if words[k:k + 1] == ["all"]:
            k += 1
        if words[k:k + 2] == ["in", "order"]:
            k += 2
        elif words[k:k + 3] in (["in", "this", "order"], ["in", "that", "order"]):
            k += 3
        if words[k:k + 1] not in ([","], [":"]) or words[k + 1:k + 2] and (
                words[k + 1].isdigit() or words[k + 1] == "(") or \
                words[i + 1:i + 4] == ["these", "in", "order"]:
            return 0  # "do these in order: 1) ..." / ": - the sink": a list's header, read there
        return k + 1 - i
    if words[k:k + 1] in ([","], [":"]) and prev in _ENDS:
        return k + 1 - i  # "Do: microwave, then toaster"
    m = k + (words[k:k + 1] == ["the"])
    while m < len(words) and words[m] in _SIZES | {"usual", "daily", "morning", "evening"}:
        m += 1  # not "the kitchen rounds": see _announcement
    if words[m:m + 1] == ["rounds"] and words[m + 1:m + 2] in ([","], [":"]):
        return m + 2 - i  # "do the rounds: first ..."
    return 0


def _lap(words: list[str], i: int, prev: str) -> tuple[int, bool] | None:
    """At "do (a|one) (full) lap of X": the tokens up to the object's first word and whether
    it restates a lap said just before ("go round X, like do a full lap of it")."""
    if words[i] != "do":
        return None
    k = i + 1
    if words[k:k + 1] in (["a"], ["one"]):
        k += 1
    if words[k:k + 1] and words[k] in _LAP_ADJ:
        k += 1
    if words[k:k + 2] != ["lap", "of"] or k + 2 >= len(words):
        return None
    n = k + 3 - i
    if words[k + 2] == "it" and prev == ",":
        m = i - 1
        while m >= 0 and words[m] not in _ENDS:
            if words[m] in ("round", "around") and m and words[m - 1] in (
                    "go", "walk", "drive", "head", "come", "circle"):
                return n, True
            m -= 1
    return n, False


def _hedge(words: list[str], i: int, prev: str) -> int:
    """Length of a hedge between a verb of standing and its place ("stand sort of next to",
    "stop like, halfway"); 0 if none."""
    if prev not in _STANDING:
        return 0
    for h in _HEDGES:
        n = len(h)
        if tuple(words[i:i + n]) == h and words[i + n:i + n + 1] and words[i + n] in _PLACING:
            return n
    return 0


def _announcement(words: list[str], i: int, prev: str) -> int:
    """Length of a sentence that only announces the job ("Little kitchen errand run for
    you.", "Quick job for you."); 0 if none."""
    if prev not in _ENDS:
        return 0
    k = i
    while k < len(words) and words[k] in _SIZES:
        k += 1
    # a room named as the job's topic ("Little kitchen errand run", "do the bathroom rounds")
    # says where the whole job is: a scope for the rules after it that the offline parser
    # cannot give (:mod:`.openers` leaves such a header to be refused), so it is not taken
    jobs = k
    while k < len(words) and words[k] in _JOB_NOUNS:
        k += 1
    if k == jobs or k == i + 1 and words[i] in ("run", "round", "rounds"):
        return 0
    for tail in (("for", "you"), ("for", "u"), ("today",), ("please",), ("pls",)):
        k += len(tail) if tuple(words[k:k + len(tail)]) == tail else 0
    return k + 1 - i if words[k:k + 1] and words[k] in (*_ENDS, ":") else 0


def _stop_is(words: list[str], i: int, prev: str) -> tuple[int, tuple[str, ...]] | None:
    """"(your) first stop is X" and the like at a sentence start: the tokens and the request
    they stand for ("go to"); None if none."""
    if prev not in _ENDS:
        return None
    k = i + (words[i] == "your")
    order = words[k] if k < len(words) and words[k] in _STOP_ORDERS else ""
    k += bool(order)
    if words[k:k + 2] != ["stop", "is"]:
        return None
    return k + 2 - i, (*_STOP_ORDERS.get(order, ()), "go", "to")


def _manner_lead(words: list[str], i: int, prev: str) -> int:
    """Length of "slowly please ," opening a sentence before another request (the speed is
    not a place; the route notation holds no speed); 0 if none."""
    if prev not in _ENDS or words[i] not in _SPEEDS:
        return 0
    k = i + 1 + (words[i + 1:i + 2] in (["please"], ["pls"]))
    return k + 1 - i if words[k:k + 1] == [","] else 0


def _explaining(words: list[str], i: int) -> int:
    """Length of a sentence that says the speaker will explain first ("let me explain the
    house to you first, since you're new.") and asks nothing; 0 if none."""
    lead = i
    while lead and words[lead - 1] in _LEADS:
        lead -= 1
    if (lead and words[lead - 1] not in _ENDS) or words[i:i + 2] != ["let", "me"] or \
            words[i + 2:i + 3] == [] or words[i + 2] not in _EXPLAIN:
        return 0
    k = i + 3
    while k < len(words) and words[k] not in _ENDS:
        if words[k] in _ROUTE_VERBS:
            return 0
        k += 1
    return k + 1 - i if k < len(words) else 0
