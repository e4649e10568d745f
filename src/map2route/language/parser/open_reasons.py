"""Reasons, asides and chatter in OPEN vocabulary, said around a request: a clause that says
why, what the speaker did or thinks, or what the robot should look at, and nothing of where to
go. The earlier reason rules (:mod:`.reason_tails`, :mod:`.state_reasons`,
:mod:`.deed_reasons`) want their verb from a closed list; people use any verb at all ("you
scuffed it last week", "you always clip them", "they're gross", "its leaves snap off if u bump
it", "the floor by the window got soaked when it rained"). This module reads such clauses by
their shape instead of their words:

* a clause with its own subject (a pronoun, "there is", "nothing"/"someone", or a noun phrase
  with a determiner) and a verb of ANY kind, said after a request and a mark (comma, dash,
  "lol", "tho", "and", "so", "because") or, in a spoken request with no mark, right after the
  thing the rule names ("keep away from the bag both ways its leaking");
* a sentence opened by a hedge ("Pretty sure I left the door open last night", "Apparently
  the toilet's been making noises", "I reckon somebody's left it open", "As far as I know,
  the milk has gone off");
* a participle phrase that says a thing's state after its name ("that baseball bat propped up
  in there", "the plant sitting on the edge"), and the looking-about chatter ("and have a
  look", "so have a listen", ", no need to stop").

Each such span becomes context (reported with its span), never stages or constraints, and a
map thing named inside it stays in that context. The guards matter more than the coverage: a
clause is left for the later rules when it places a thing ("I think it's in the back bedroom",
"it's sitting on the counter"), sends the walker ("you'll go through the kitchen", "come back
out"), says a rule (keep-away words, "don't", "between"), says which thing ("the one with
..."), or carries a route word ("then", "past", "first", "until", a scope "while you're ...").

Hand-written, like the rest of the parser: the shapes are read from closed classes of
function words (pronouns, determiners, auxiliaries, hedges, particles) so that the content
verb may be any word; each rewrite keeps the character spans of the words it takes out.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.aside_clauses import is_aside
from map2route.language.parser.heads import heads_in, name_ends
from map2route.language.parser.reason_tails import asked, take_out
from map2route.language.tokens import Token

__all__ = ["open_reasons"]

Context = list[tuple[str, tuple[int, int]]]

_ENDS = frozenset({".", "!", "?", ";"})
_MARKS = frozenset({",", "-", "--", "\u2013", "\u2014", ":"})
#: Chatter marks and connectives after which a reason clause may open.
_CHATTER = frozenset({"lol", "haha", "tho", "though", "yeah", "honestly", "tbh", "ugh", "btw",
                      "obviously", "because", "cos", "coz", "cuz", "cause", "'cause", "bc",
                      "since", "as", "and", "but", "so", "plus"})
#: Words that say which thing a pronoun is ("it's big", "they're the two by the door").
_WHICH = frozenset(W.SIZE_ADJ) | frozenset(W.COMPARATIVE) | frozenset(W.ORDINALS) | \
    (frozenset(W.NUMBERS) - {"a", "an", "one"})
#: Caution words: a reason naming a thing not said before needs one before it.
_CAUTION = frozenset({"keep", "stay", "avoid", "never", "not", "give", "mind", "steer",
                      "clear", "away", "berth", "room", "space", "distance", "careful",
                      "leave", "between", "hug", "stick"})
#: Words of a request before the clause (the sentence must ask something first).
_REQUEST = W.MOVE_VERBS | frozenset({
    "keep", "stay", "avoid", "give", "leave", "hug", "stick", "steer", "mind", "never", "not",
    "wait", "stop", "circle", "lap", "berth", "away", "clear"})
#: Subjects that stand alone.
_PRONOUNS = frozenset({"i", "we", "he", "she", "it", "they", "someone", "somebody",
                       "anyone", "anybody", "everyone", "everybody", "nobody", "nothing",
                       "everything", "something", "anything", "people", "mum", "dad",
                       "it'll", "they're", "they'll", "we're", "we'll", "i'll", "he'll",
                       "she'll", "i'm", "i'd", "they've", "we've", "i've"})
_WALKER = frozenset({"you", "u", "ya", "you're", "you'll", "you've", "youre", "youll"})
_DETS = frozenset({"the", "my", "your", "his", "her", "our", "their", "its", "this", "that",
                   "a", "an", "some", "those", "these", "ur"})
#: Adverbs between a subject and its verb ("you always clip them").
_ADVERBS = frozenset({"always", "never", "usually", "just", "still", "obviously", "really",
                      "probably", "already", "sometimes", "often", "even", "literally",
                      "actually", "totally", "also", "definitely", "apparently", "clearly",
                      "basically", "only", "kind", "sort", "of", "kinda", "sorta"})
#: Hedges that open a statement sentence without a subject of their own.
_HEDGES = (("pretty", "sure"), ("i", "am", "pretty", "sure"), ("i", "am", "sure"),
           ("apparently",), ("as", "far", "as", "i", "know"), ("no", "doubt"),
           ("turns", "out"), ("looks", "like"), ("seems", "like"), ("i", "think"),
           ("i", "reckon"), ("i", "guess"), ("i", "believe"), ("i", "suspect"), ("i", "bet"),
           ("i", "swear"), ("fyi",), ("just", "so", "you", "know"), ("heads", "up"))
#: Words that make a clause part of the route, a rule, or a description.
_ROUTE = frozenset({
    "away", "avoid", "avoiding", "berth", "distance", "clearance", "between", "stop", "wait",
    "until", "till", "whichever", "where", "route", "towards", "toward", "via", "past",
    "through", "thru", "destination", "closest", "nearest", "farthest", "furthest", "not",
    "never", "dont", "don't", "then", "first", "second", "third", "next", "last", "while",
    "once", "side", "left", "right", "way", "near", "close", "far"}) | W.RANK_WORDS
#: Nouns of time after "last"/"next" ("last week"): not ranks of the route.
_TIMES = frozenset({"week", "time", "night", "year", "month", "weekend", "summer", "winter",
                    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                    "sunday", "christmas", "morning", "evening", "visit"})
_COPULAS = frozenset({"is", "are", "was", "were", "'s", "be", "been", "sits", "sitting",
                      "stands", "standing", "lies", "lying", "hangs", "hanging", "sat", "stood",
                      "kept", "lives"})
_PLACE_PREPS = frozenset({"in", "on", "at", "by", "near", "beside", "next", "under", "behind",
                          "inside", "opposite", "against", "over", "into", "onto", "round",
                          "around", "outside", "beneath", "above", "below", "up"})
#: Surfaces a reason may name without placing anything on the route.
_SURFACES = frozenset({"floor", "ground", "carpet", "rug", "wall"})
#: Where a further request starts after a mark (", and in the bedroom don't ...").
_OPENERS = _REQUEST | frozenset({"then", "in", "while", "when", "once", "after", "before",
                                 "until", "please", "also", "oh", "do", "dont", "and", "but",
                                 "from", "go", "just", "on", "whatever"})
_PARTICLES = frozenset({"up", "down", "out", "over", "off", "about", "around", "open", "in",
                        "there", "here", "right", "all", "against", "on", "the", "a", "edge",
                        "of", "it", "wall", "floor", "sideways", "loose", "shut", "badly"})


def _walker_move(words: list[str], a: int, b: int) -> bool:
    """Whether ``words[a:b]`` sends the walker ("you'll go", "you end up cutting") or says a
    move into a place ("to get to the bed")."""
    for q in range(a, b):
        w = words[q]
        if w in W.MOVE_VERBS or w in ("end", "cutting", "cut", "come", "came"):
            if any(words[x] in _WALKER for x in range(max(a, q - 3), q)):
                return True
            if any(h not in _SURFACES for _, h in heads_in(words, q + 1, min(b, q + 5))):
                return True
    return False


def _route_word(words: list[str], a: int, b: int) -> bool:
    sub = False  # inside "whenever anyone walks past": others' moves, not the walker's
    for q in range(a, b):
        w = words[q]
        if w in ("when", "whenever", "if") and q + 1 < b and words[q + 1] not in _WALKER:
            sub = True
        if sub and w in ("past", "through", "near", "close", "way", "by"):
            continue
        if w in ("last", "next") and q + 1 < b and words[q + 1] in _TIMES:
            continue
        if w == "left" and q > a and words[q - 1] in _PRONOUNS | _WALKER | {
                "have", "has", "had", "'ve", "someone", "somebody", "just"}:
            continue  # "I left the door open": a deed, not a side
        if w == "right" and q + 1 < b and words[q + 1] not in ("side", "of", "hand", ","):
            continue  # "right next to it", "right off": an intensifier
        if w == "then" and q > a and words[q - 1] in ("by", "since", "till", "until"):
            continue
        if w == "not" and q > a and words[q - 1] in ("can", "could", "do", "does", "did", "is",
                                                     "are", "was", "were", "will", "would",
                                                     "have", "has", "had", "should"):
            # "you obviously can not lift it", "I do not want it knocked": a negated verb of
            # the reason; a rule for the walker ("do not go") keeps its move verb (guarded)
            if not (q + 1 < b and words[q + 1] in W.MOVE_VERBS):
                continue
        if w in _ROUTE:
            return True
        if w in ("one", "ones") and q > a and words[q - 1] in ("the", "that", "this", "which"):
            return True
    return False


def _places(words: list[str], a: int, b: int, subject: int) -> bool:
    """Whether the clause places a thing ("it's in the back bedroom", "I think they're on
    the table"): a copula or posture verb right before a place preposition and a map thing."""
    for q in range(max(a, subject), b):
        if words[q] not in _COPULAS:
            continue
        r = q + 1
        while r < b and words[r] in ("probably", "still", "just", "right", "over", "somewhere",
                                     "all", "usually", "now"):
            r += 1
        if r < b and words[r] in _PLACE_PREPS and any(
                h not in _SURFACES for _, h in heads_in(words, r + 1, min(b, r + 7))):
            return True
    return False


def _clean(words: list[str], a: int, b: int, subject: int) -> bool:
    """Whether ``words[a:b]`` holds nothing of a route (see the module docstring)."""
    if b <= a or _route_word(words, a, b) or _walker_move(words, a, b):
        return False
    if _places(words, a, b, subject):
        return False
    if words[subject] in ("it", "they", "its", "it'll", "they're") and set(words[a:b]) & _WHICH:
        return False  # "Go to the sofa, it's big": says which one, for the later rules
    for q in range(a, b):
        # "I mean the sink": a correction; "I want you at the table": a request
        if words[q] in ("mean", "meant") or words[q] in ("want", "need", "like", "wanna") and \
                words[q + 1:q + 2] and words[q + 1] in _WALKER:
            return False
        if words[q] in ("i'm", "am", "we're") and words[q + 1:q + 2] and \
                words[q + 1] in _PLACE_PREPS:
            return False  # "I'm in the kitchen": where the speaker is
        # the walker placed ("you'll be in the kitchen by then", "u at the sofa")
        if words[q] in _WALKER and any(words[x] in _PLACE_PREPS and any(
                h not in _SURFACES for _, h in heads_in(words, x + 1, min(b, x + 6)))
                for x in range(q + 1, min(b, q + 5))):
            return False
    # a scope said for the walker ("when you're in the kitchen") ends a reason, never in it
    return not any(words[q] in ("when", "whenever", "if") and q + 1 < b and
                   words[q + 1] in _WALKER and heads_in(words, q + 1, b) for q in range(a, b))


#: Words a reason's subject phrase never holds (a list, a relative, a description).
_NOT_NP = frozenset({"and", "or", "that", "which", "who", "where", "with", "w", "whose",
                     "one", "ones", "then", "plus", "from", "to"})
#: Auxiliaries, and past forms of common verbs that do not end in -ed.
_AUX = frozenset({"is", "are", "was", "were", "'s", "'re", "has", "have", "had", "will",
                  "would", "can", "could", "might", "may", "must", "should", "does", "do",
                  "did", "got", "gets", "keeps", "fell", "broke", "came", "ran", "hit", "made",
                  "spilt", "stuck", "froze", "snapped", "tore", "went", "left", "stank",
                  "leaked", "bit", "caught", "sat", "lay", "stood"})


def _finite(words: list[str], v: int) -> bool:
    """Whether ``words[v]`` is a finite verb after a noun phrase: an auxiliary or past form,
    a word in -ed or -s that names no map thing, or any word before a particle ("its leaves
    snap off")."""
    w = words[v]
    if w in _AUX:
        return True
    if not w.isalpha() or w in _DETS | _PLACE_PREPS | _NOT_NP or heads_in(words, v, v + 1):
        return False
    if w.endswith(("ed", "s")) and not w.endswith(("ss", "us", "is")):
        return True
    return words[v + 1:v + 2] in (["off"], ["out"], ["over"], ["up"], ["down"], ["apart"])


def _verb(words: list[str], k: int, b: int) -> int | None:
    """Where the verb of a clause whose subject starts at ``k`` is (any word of the verb's
    place), or None."""
    w = words[k]
    if w == "there" and k + 1 < b and words[k + 1] in ("is", "are", "was", "were", "'s"):
        return k + 1
    if w in _PRONOUNS or w in _WALKER:
        v = k + 1
    elif w in _DETS:
        # a short noun phrase ("the floor by the window", "its leaves"), never a list or a
        # description ("the sofa and the TV", "the loo that has ..."), then a finite verb
        if k + 1 >= b or not words[k + 1].isalpha() or words[k + 1] in _NOT_NP:
            return None
        v = k + 2  # the word after the determiner is a noun ("its leaves snap off")
        while v < b and v < k + 7 and words[v].isalpha() and not _finite(words, v):
            if words[v] in _NOT_NP:
                return None
            if words[v] in _PLACE_PREPS and words[v + 1:v + 2] not in (["it"], ["them"]) and \
                    any(h not in _SURFACES for _, h in heads_in(words, k, v)):
                return None  # "the painting in the kitchen": a thing placed, not a state
            v += 1
        if v == k + 1 or v >= b or not _finite(words, v):
            return None
    else:
        return None
    while v < b and words[v] in _ADVERBS:
        v += 1
    if v >= b or not words[v].isalpha() and words[v] not in ("'s", "'re", "'ll", "'ve"):
        return None
    if words[v] in _DETS - {"its"} or words[v] in ("to", "and", "or", "of", "with", "who",
                                                   "that", "which") or \
            heads_in(words, v, v + 1):
        return None
    return v


def _end(words: list[str], a: int) -> int:
    """Where a clause that starts at ``a`` ends: its sentence's end, or a mark or "and" that
    starts a further request."""
    q = a
    while q < len(words) and words[q] not in _ENDS:
        if words[q] in _MARKS and q + 1 < len(words) and (
                words[q + 1] in _OPENERS or words[q + 1] in _WALKER):
            return q
        if words[q] in ("and", "but", "so") and q + 1 < len(words) and words[q + 1] in (
                _REQUEST - {"not", "never"}) | {"then", "do", "dont", "please", "just"}:
            return q
        if q > a and words[q] in ("while", "until", "till", "once") or \
                q > a and words[q] in ("when", "whenever") and words[q + 1:q + 2] and \
                words[q + 1] in _WALKER:
            return q
        q += 1
    return q


def _hedge(words: list[str], k: int) -> int:
    """How many words of a hedge open at ``k`` (0: none)."""
    for h in _HEDGES:
        if tuple(words[k:k + len(h)]) == h:
            n = len(h)
            n += 1 if words[k + n:k + n + 1] in ([","], ["that"]) else 0
            return n
    return 0


def _bound(words: list[str], k: int, a: int, s: int, b: int, verb: int) -> bool:
    """Whether a clause after a request says which thing instead of why."""
    if a == k and words[k - 1] not in _MARKS and (
            words[b - 1] in _PLACE_PREPS | {"with", "to", "for", "from"} or
            words[verb] not in _AUX):
        return True  # "the chair i left my jacket on": a relative clause with no "that"
    first = next((q for q in range(k - 1, -1, -1) if words[q] in _ENDS), -1) + 1
    said = {x for _, x in heads_in(words, first, k)}
    new = [x for _, x in heads_in(words, s, b) if x not in _SURFACES and x not in said]
    # "Go to the desk, the lamp on it is broken": says which desk
    return bool(new) and not set(words[first:k]) & _CAUTION


def _clause_at(words: list[str], k: int, ends: frozenset[int]) -> tuple[int, int] | None:
    """The reason ``(start, end)`` that opens at ``k``, or None."""
    start = k == 0 or words[k - 1] in _ENDS
    a = k
    while a < len(words) and words[a] in _CHATTER and a - k < 2:
        a += 1
    if a >= len(words):
        return None
    if a > k and words[a] in ("check", "see") and words[a - 1] in ("and", ","):
        a += 1  # "and check nothing's fallen on the floor": what to look at, said as a clause
        a += 1 if words[a:a + 1] in (["that"], ["if"], ["whether"]) else 0
        if a >= len(words) or words[a:a + 1] not in (["nothing"], ["everything"], ["something"], ["anything"],
                                  ["nobody"], ["it"], ["they"]):
            return None
    # "when the sun's out it messes with your sensors": the world's condition, not a scope
    sub = 1 if a < len(words) and words[a] in ("when", "whenever", "if") and words[a + 1:a + 2] and \
        words[a + 1] not in _WALKER | _ENDS and a == k > 0 and words[k - 1] in _MARKS else 0
    a += sub
    if a >= len(words):
        return None
    h = _hedge(words, a)
    if start:
        if not h:
            return None
    elif not (words[k - 1] in _MARKS or a > k or k in ends):
        return None
    elif not asked(words, k, _REQUEST):
        return None
    elif a == k and words[k - 1] not in _MARKS and words[k] not in _PRONOUNS:
        return None  # no mark: only a pronoun's clause right after the thing named
    if start and words[k] in ("so", "and", "but", "as"):
        return None
    s = a + h
    if s >= len(words):
        return None
    if a > k and words[a - 1] in ("and", "but", "so", "plus", "as") and not h and \
            words[s] in _DETS:
        return None  # "the sofa and the floor lamp are": a list, not a clause
    if words[s] in _WALKER and (a > 0 and words[a - 1] == "as" or any(
            x not in _SURFACES for _, x in heads_in(words, s, _end(words, s)))):
        return None  # "as close as you can to the sink": the walker's clause names no thing
    if words[s] in _WALKER and not h:
        # the walker as a reason's subject only with a past or habitual verb ("you scuffed
        # it last week", "you always clip them", "you got stuck there last time")
        v0 = s + 1
        while v0 < len(words) and words[v0] in _ADVERBS:
            v0 += 1
        if v0 >= len(words) or not (words[v0].endswith("ed") or words[v0] in (
                "got", "hit", "knocked", "broke", "can", "could", "have") or v0 > s + 1):
            return None
    b = _end(words, s)
    verb = _verb(words, s, b)
    if verb is None and h and s < b:
        verb = s  # "pretty sure, definitely", "apparently so"
    if verb is None or not _clean(words, k if not start else a, b, s):
        return None
    if k and words[k - 1] in (",", "-") and a == k and (b == len(words) or words[b] in _ENDS) \
            and is_aside(words[a:b]):
        return None  # a clause naming nothing at all: the aside cut of parse.py reports it
    if not start and _bound(words, k, a, s, b, verb):
        return None
    if sub and not ((b == len(words) or words[b] in _ENDS) and any(
            words[q] in ("it", "they", "that", "this") for q in range(verb + 2, b))):
        return None  # a condition is a reason only with its own consequence after it
    # "the stool is broken, so stay away from it": the thing the reason is about is the
    # antecedent of what follows, so the clause stays for the rules that resolve it
    if any(h not in _SURFACES for _, h in heads_in(words, s if not start else a,
                                                    verb if not start else b)) and any(
            w in ("it", "them", "there") for w in words[b:b + 10]):
        return None
    return (k, b)


def _statement(words: list[str], k: int) -> bool:
    """Whether the sentence at ``k`` is a bare statement after a request sentence ("The tap
    has been dripping all week", "the sheets were just washed"): a subject that is not
    "there" (an introduction) and a verb after which no map thing is named (a thing named
    there may say which one: "It has a lamp on it")."""
    if k == 0 or words[k] in ("there", "here", "so", "and", "but", "as", "if", "when",
                              "while", "once") or words[k] in _WALKER or not asked(words, k - 1, _REQUEST):
        return False
    e = next((q for q in range(k, len(words)) if words[q] in _ENDS), len(words))
    v = _verb(words, k, e)
    if v is None or words[v] in ("is", "are", "'s", "was", "were", "has", "have", "got") and \
            words[v + 1:v + 2] and (words[v + 1] in _DETS | _PLACE_PREPS | {"got"} or
                                    words[v + 1] in W.NUMBERS):
        return False  # "It has a lamp on it", "The bed is the ...": which one, or where
    return not any(h not in _SURFACES for _, h in heads_in(words, v, e))


def _looks(words: list[str], k: int) -> int:
    """Length of a looking-about aside at ``k`` ("and have a look", ", no need to stop")."""
    q = k
    if words[q] in ("and", "so", "then") or words[q] in _MARKS:
        q += 1
    if q >= len(words):
        return 0
    q += 1 if words[q:q + 1] == ["just"] else 0
    if words[q:q + 2] in (["have", "a"], ["take", "a"]):
        r = q + 2
        r += 1 if words[r:r + 1] in (["quick"], ["little"], ["good"], ["proper"]) else 0
        if words[r:r + 1] in (["look"], ["listen"], ["peek"], ["gander"], ["squiz"]) and \
                (r + 1 >= len(words) or words[r + 1] in _ENDS | _MARKS | {"too", "please"}):
            return r + 1 - k
    if words[q:q + 3] in (["no", "need", "to"],):
        r = q + 3
        while r < len(words) and words[r] not in _ENDS | _MARKS:
            r += 1
        if r - q <= 6 and not heads_in(words, q, r) and not set(words[q:r]) & {"go", "into"}:
            return r - k
    return 0


def _state_after(words: list[str], k: int) -> int:
    """Length of a participle phrase at ``k`` saying a thing's state right after its name
    ("propped up in there", "lying about"): it picks nothing, so it names no map thing but a
    surface."""
    w = words[k]
    if not w.endswith("ed") or len(w) <= 4 or w in W.MOVE_VERBS or \
            w in ("including", "facing", "during", "nearest", "standing", "sitting", "lying",
                  "hanging", "placed", "located", "positioned", "set", "closed", "opposite"):
        return 0
    r = k + 1
    while r < len(words) and words[r] in _PARTICLES:
        r += 1
    if r == k + 1 or r < len(words) and words[r] not in _ENDS | _MARKS | {"and", "but"}:
        return 0
    if any(h not in _SURFACES for _, h in heads_in(words, k, r)):
        return 0
    return r - k


def open_reasons(toks: list[Token]) -> tuple[list[Token], Context]:
    """Take the reasons of the module docstring out of ``toks``; returns the tokens and the
    reasons (text and character span) as context."""
    words = [t.text.lower() for t in toks]
    context: Context = []
    out: list[Token] = []
    ends = name_ends(words)
    k = 0
    while k < len(toks):
        look = _looks(words, k) if asked(words, k, _REQUEST) or k and words[k] == "so" else 0
        state = 0
        if not look and k in ends:
            state = _state_after(words, k)
        span = (k, k + look) if look else (k, k + state) if state else \
            _clause_at(words, k, ends)
        if span is None:
            out.append(toks[k])
            k += 1
            continue
        got = take_out(out, toks, span, _MARKS, lead=not state)
        if got is not None:
            context.append(got)
        k = span[1]
    return out, context
