"""Reasons said around a request in words the map does not know: people, pets by name, states,
said natively or the way learners and quick typists say them.

The earlier reason rules (:mod:`.state_reasons`, :mod:`.reason_tails`, :mod:`.open_reasons`)
want a subject they know and a finite verb. People also say:

* a pet by its name, a person or a pet with no determiner: "Biscuit gets anxious", "dog get
  nervous when something go between", "grandma sleeping";
* a learner's bare verb or a dropped copula: "my son play his game there", "the vase wobble",
  "Milo nervous", "he playing games";
* a state with no subject at all: "floor still wet", "cold air coming", "wet paint";
* a purpose: "so Biscuit sees you", "just so the camera can see the plant";
* in brackets, after "cos" / "coz" / "since" / "as", with no mark right after the thing the
  rule names ("dont bump armchair in there grandma sleeping"), as a sentence of its own after
  the request, or before it and joined by "so" or a dash ("Cold air coming, so keep away from
  the window", "Grandma's asleep - dont bump the armchair").

Each such clause says why, never where: it is taken out of the route and reported as context
with its span, and a map thing named in it ("Milo naps on the sofa") stays in that context, so
it is neither a stop, nor a rule, nor dropped. The guards keep everything else for the later
rules: a clause with a route word (a move or keep-away verb, "don't", "between", "then", a
rank), a walker ("you" other than a purpose's "sees you"), a clause that says where a thing is
("the lamp is on the desk") or which one ("the one with ..."), or a relative clause with no
"that" ("the chair grandma sits in").

A clause after "because" / "cos" / "since" / "as" that is a bare request ("keep away from the
TV, because go to the bin") is refused by name: it might be a further stop said badly, and
reading it either way would be a guess.

Hand-written, like the rest of the parser: the shapes are read from closed classes of function
words (pronouns, determiners, auxiliaries, marks) so that the content words may be any words.
"""

from __future__ import annotations

from map2route.language.errors import ParseError
from map2route.language.parser import words as W
from map2route.language.parser.heads import heads_in, name_ends
from map2route.language.parser.reason_tails import asked, take_out
from map2route.language.tokens import Token

__all__ = ["said_reasons"]

Context = list[tuple[str, tuple[int, int]]]

_ENDS = frozenset({".", "!", "?", ";"})
_MARKS = frozenset({",", "-", "--", "\u2013", "\u2014", "(", ")"})
#: Connectives that open a reason after the request.
_BECAUSE = frozenset({"because", "cos", "coz", "cuz", "cause", "'cause", "bc", "since", "as"})
#: Words of a request (the sentence, or one before it, must ask something first).
_REQUEST = W.MOVE_VERBS | frozenset({
    "keep", "stay", "avoid", "give", "leave", "hug", "stick", "steer", "mind", "never", "not",
    "dont", "don't", "wait", "stop", "circle", "lap", "berth", "away", "clear", "passing",
    "need", "want"})
#: Words that make a clause part of the route, a rule or a description: never in a reason.
_ROUTE = frozenset({
    "away", "avoid", "avoiding", "berth", "distance", "clearance", "between", "stop", "wait",
    "until", "till", "whichever", "where", "which", "that", "who", "route", "towards",
    "toward", "via", "past", "through", "thru", "destination", "not", "never", "dont",
    "don't", "then", "first", "second", "third", "next", "last", "while", "once", "side",
    "left", "right", "way", "near", "close", "far", "keep", "stay", "give", "one", "ones",
    "you", "u", "you're", "youre", "you'll", "please", "pls", "and", "but", "or", "if",
    "when", "after", "before", "to", "with", "w", "of", "clear", "steer", "mind", "no", "go",
    "passing", "without", "mean", "meant", "same", "sorry", "actually",
    "instead", "also", "exactly", "final", "middle", "during", "leg", "stretch", "whole",
    "followed", "here", "i", "i'm", "me", "we", "thing", "wrong", "oops", "nah",
    "hmm", "correction", "scratch", "forget", "fine", "ok", "okay", "as", "than",
    "only", "possible", "lots", "plenty", "round", "around", "across", "along", "each",
    "every", "both", "either", "neither", "other", "another", "any", "these",
    "those", "what", "how", "why", "whose", "whom"}) | W.RANK_WORDS
#: Move verbs: a clause of its own subject may use them ("the dog gets nervous", "cold air
#: coming"); a clause with no subject that opens with one is a request.
_MOVES = W.MOVE_VERBS | W.SHAPE_VERBS
#: Words that say which thing a pronoun is ("it's big", "it's the bigger one").
_WHICH = frozenset(W.SIZE_ADJ) | frozenset(W.COMPARATIVE)
#: Pronoun subjects.
_PRONOUNS = frozenset({"he", "she", "it", "it's", "they", "they're", "someone",
                       "somebody", "he's", "she's"})
#: People and pets a reason speaks of (with or without a determiner).
_ANIMATE = frozenset({
    "kids", "kid", "children", "child", "baby", "toddler", "grandma", "grandpa", "granny",
    "nan", "nana", "mom", "mum", "dad", "mother", "father", "wife", "husband", "sister",
    "brother", "son", "daughter", "cat", "cats", "dog", "dogs", "puppy", "kitten", "guest",
    "guests", "friend", "roommate", "partner", "neighbour", "neighbor", "grandson",
    "granddaughter", "boy", "girl", "boys", "girls", "parrot", "bird", "hamster", "rabbit"})
_DETS = frozenset({"the", "my", "our", "your", "his", "her", "their", "a", "an", "this",
                   "that", "ur", "its"})
#: Auxiliaries, copulas and modals: any clause with one of them has a verb.
_AUX = frozenset({"is", "are", "was", "were", "'s", "'re", "has", "have", "had", "will",
                  "would", "can", "could", "might", "may", "must", "should", "does", "do",
                  "did", "'ll", "gets", "get", "got", "keeps", "maybe", "just", "still",
                  "always", "usually", "really", "already", "again"})
#: States said with no verb ("floor still wet", "Milo nervous", "the vase wobbly").
_STATES = frozenset({
    "wet", "open", "loose", "wobbly", "broken", "hot", "asleep", "awake", "nervous", "anxious",
    "scared", "sick", "ill", "sleeping", "napping", "everywhere", "slippery", "sticky",
    "fresh", "dirty", "messy", "full", "busy", "shy", "upset",
    "angry", "grumpy", "tired", "stuck", "tacky", "drying"})
#: States a reason with no subject must hold ("floor still wet", "cold air coming").
#: ("cold air coming" is left out: see test_grid_said_reasons.py, BA11)
_SUBJECTLESS = frozenset({"wet", "loose", "wobbly", "broken", "hot", "slippery",
                          "sticky", "tacky", "drying", "mopped", "everywhere", "open", "asleep",
                          "sleeping", "napping", "painted", "cleaned", "spilt", "spilled",
                          "busy", "dirty", "messy", "leaking", "dripping", "smashed"})
#: Bare verbs of a thing's state a learner says ("the vase wobble", "lamp fall easy").
_THING_VERBS = frozenset({"wobble", "fall", "break", "tip", "leak", "drip", "shake", "come",
                          "hang", "slide", "roll", "spill", "move", "fell", "broke"})
#: Bare verbs of people and pets a learner says after a name ("Biscuit nap in there").
_BARE = frozenset({"nap", "naps", "sleep", "sleeps", "play", "plays", "get", "gets", "eat",
                   "eats", "sit", "sits", "hate", "hates", "watch", "watches", "cry", "cries",
                   "bark", "barks", "bite", "bites", "scratch", "scratches", "jump", "jumps",
                   "scream", "screams", "panic", "panics", "hide", "hides", "love", "loves"})
#: States said right after a thing's name with no mark ("dont go into the kitchen wet paint").
_UNMARKED_STATES = frozenset({"wet", "wobbly", "broken", "hot", "asleep", "sleeping",
                              "napping", "slippery", "sticky", "tacky", "drying", "loose"})
_PREPS = frozenset({"in", "on", "at", "by", "under", "from", "into", "onto", "for", "about",
                    "near", "beside", "behind", "inside"})
#: Words that open a further request after a reason ("..., so pls dont go in").
_NEXT = _REQUEST | frozenset({"in", "no", "pls", "please", "do", "dont", "don't", "just"})
_PURPOSE_VERBS = frozenset({"see", "sees", "saw", "know", "knows", "notice", "notices",
                            "hear", "hears", "catch", "spot", "spots", "check", "find"})


def _verbish(w: str) -> bool:
    """Whether ``w`` can be a reason's verb or state."""
    return w in _AUX or w in _STATES or w in _THING_VERBS or w.endswith(("ing", "ed")) or (
        w.endswith("s") and not w.endswith(("ss", "us", "is")))


#: Capitalised words that are no names.
_NOT_NAMES = frozenset({"there", "this", "what", "which", "who", "why", "how", "these",
                        "those", "yes", "yeah", "hi", "hello", "thanks", "alright", "right",
                        "well", "now", "oh", "hey", "sir", "dear", "love", "robot"})


def _name(words: list[str], raw: list[str], a: int, b: int) -> bool:
    """Whether ``words[a]`` is a pet's or a person's name ("Biscuit gets anxious", "Milo
    nervous"): a capitalised word of no closed class and no map thing, before a verb or a
    state. At a sentence's start, where every word has a capital, only before "is" / "gets" /
    a verb in -s or -ing."""
    w = words[a]
    if not w.isalpha() or len(w) < 3 or not raw[a][:1].isupper() or w in _NOT_NAMES or \
            w in _ROUTE | _MOVES | _STATES | _AUX | _DETS | _PRONOUNS | _PREPS | _ANIMATE or \
            w.endswith(("ing", "ly", "ed")) or heads_in(words, a, a + 1):
        return False
    nxt = words[a + 1] if a + 1 < b else ""
    if a == 0 or words[a - 1] in _ENDS or raw[a - 1:a] == ["I"]:
        return nxt in ("is", "'s", "gets", "was", "keeps", "has") or nxt in _BARE or \
            nxt.endswith("ing") and nxt not in _ROUTE
    return bool(nxt) and nxt not in _ROUTE and (
        nxt in _AUX - {"just", "still", "maybe"} or _verbish(nxt) or nxt in _BARE)


def _subject(words: list[str], raw: list[str], a: int, b: int) -> tuple[int, str] | None:
    """Where the predicate after a reason's subject at ``a`` starts, and the subject's kind
    (``pronoun``, ``animate``, ``name``, ``thing``, ``none``), or None."""
    w = words[a]
    if w in _PRONOUNS:
        return a + 1, "pronoun"
    k = a + 1 if w in _DETS else a
    if k < b and words[k] in _ANIMATE and not any(q == k for q, _ in heads_in(words, k, b)):
        return k + 1, "animate"  # "the dog", never "the dog bed"
    if k == a and _name(words, raw, a, b):
        return a + 1, "name"
    if k > a and k < b and words[k].isalpha() and words[k] not in _ROUTE:
        # "the vase", "the statue on it", "your camera"
        q = k + 1
        if words[q:q + 2] in (["on", "it"], ["on", "them"], ["in", "it"]):
            q += 2
        return q, "thing"
    return a, "none"


def _reason(words: list[str], raw: list[str], a: int, b: int, purpose: bool = False) -> bool:
    """Whether ``words[a:b]`` is a reason (or, with ``purpose``, the clause of "so ...")."""
    if b <= a or b - a > 14:
        return False
    body = words[a:b]
    allowed = _PURPOSE_VERBS | {"you", "u", "i"} if purpose else frozenset()
    if any(w in _ROUTE and w not in allowed for w in body):
        return False
    if any(not (w.isalpha() or w in ("'s", "'re", "'ll", "'m") or "'" in w) for w in body):
        return False
    if body[-1] in _PREPS:
        return False  # "the chair grandma sits in": a relative clause with no "that"
    got = _subject(words, raw, a, b)
    if got is None:
        return False
    v, kind = got
    pred = words[v:b]
    if not pred:
        return False
    if kind == "none" and any(w in _MOVES and (q == 0 or not w.endswith("ing"))
                              for q, w in enumerate(body)):
        return False
    if kind == "none":
        # a state with no subject: short, with a state word, and no preposition or determiner
        # ("open the fridge" is a request)
        # ("Kitchen floor is wet", "Window is open" say a map thing's state: the later rules
        # read those, the thing being what a following "it" may point back at)
        # nor a copula ("carpet is wet" has a subject: the terse-reason rules read it)
        return len(body) <= 4 and any(w in _SUBJECTLESS for w in body) and not any(
            w in _PREPS or w in _DETS or w in ("is", "are", "'s") for w in body) and (body[0] in _SUBJECTLESS or not body[0].endswith(
                ("ing", "ed"))) and not heads_in(words, a, a + 1)
    if kind == "thing" and not heads_in(words, a, v) and pred[0] not in _AUX and not purpose:
        return False  # "the red one": an unknown noun needs a plain verb after it
    if not (_verbish(pred[0]) or pred[0] in _BARE or kind != "thing" and pred[0] in _STATES):
        return False  # "the dog bed in the lounge", "the statue on the TV stand": no verb
    if pred[0] in ("is", "are", "'s", "was", "were") and pred[1:2] and pred[1] in _PREPS and \
            (kind == "thing" or heads_in(words, v, b)):
        return False  # "the lamp is on the desk", "it's in the back bedroom": where a thing is
    if kind == "pronoun" and set(pred) & _WHICH:
        return False  # "Go to the sofa, it's big": says which one
    if purpose:  # "so Biscuit sees you"; "just so you know" is a hedge, "so you can" a move
        return words[a] not in ("you", "u") and (any(w in _PURPOSE_VERBS for w in pred) or
                                                 pred[0] in ("can", "could", "will"))
    return True


def _thing_sentence(words: list[str], raw: list[str], a: int, e: int) -> bool:
    """Whether the sentence ``words[a:e]`` says a map thing's state ("The drawers are hanging
    open."): left to the sentence readers (:mod:`.animate_scenes`' ``thing_state``), as the
    thing may be what a later sentence points back at."""
    got = _subject(words, raw, a, e)
    return got is not None and got[1] == "thing" and bool(heads_in(words, a, got[0]))


def _sentence_end(words: list[str], k: int) -> int:
    while k < len(words) and words[k] not in _ENDS:
        k += 1
    return k


def _clause_end(words: list[str], a: int) -> int:
    """Where a reason opened at ``a`` ends: the sentence's end, a closing bracket, or a mark
    before "then" / "and then" / a further request."""
    q = a
    while q < len(words) and words[q] not in _ENDS:
        if words[q] == ")":
            return q
        if words[q] in (",", "-", "--", "\u2013", "\u2014") and q + 1 < len(words) and (
                words[q + 1] in ("then", "and", "but", "so", "after", "before") or
                words[q + 1] in _NEXT):
            return q
        if words[q] == "so" and q + 1 < len(words) and words[q + 1] in _NEXT:
            return q
        q += 1
    return q


def _refuse_request(toks: list[Token], words: list[str], k: int) -> None:
    """"..., because go to the bin": a connective of reason before a bare request."""
    a = k + 1
    if a < len(words) and words[a] in (W.MOVE_VERBS | {"wait", "stop", "head", "keep",
                                                          "stay"}):
        b = _clause_end(words, a)
        if b > a and heads_in(words, a, b):
            span = (toks[k].start, toks[b - 1].end)
            said = " ".join(t.text for t in toks[k:b])
            raise ParseError(
                f"did not understand {said!r}: a request after {toks[k].text!r} may be a further "
                "stop or the reason for the rule before it; say 'then ...' for a stop, or give "
                "the reason as a statement", said, span)


def _after_thing(words: list[str], k: int, ends: frozenset[int]) -> bool:
    """Whether a clause with no mark may open at ``k``: right after a map thing's name, or
    after "there" / "in there" / "it" ("on the way its wobbly" is left: see the grid test)."""
    return k > 0 and (words[k - 1] in ("there", "it", "them", "berth") or k in ends)


def _span_at(toks: list[Token], words: list[str], raw: list[str], k: int,
             ends: frozenset[int]) -> tuple[int, int, int] | None:
    """A reason ``(take_from, start, end)`` at ``k``, or None."""
    if words[k] in _ENDS or words[k] in _MARKS - {"("}:
        return None
    first = k == 0 or words[k - 1] in _ENDS
    # a sentence of its own after a request, or before one ("Grandma sleep, so keep away")
    if first:
        a = k + 2 if words[k:k + 2] == ["just", "so"] else k
        e = _sentence_end(words, a)
        # the last sentence naming a map thing ("The cat is sleeping on the bed.") may say
        # what the route is about: left to the rules that refuse it by name
        last = e + 1 >= len(words) and bool(heads_in(words, a, e))
        if k > 0 and asked(words, k - 1, _REQUEST) and _reason(words, raw, a, e, a > k) and \
                not _thing_sentence(words, raw, a, e) and not last:
            return k, a, min(e + 1, len(words))
        b = _clause_end(words, a)
        if b < e and words[b] in (",", "-", "so", "--", "\u2013", "\u2014") and \
                _reason(words, raw, a, b):
            nxt = b + 1 if words[b] != "so" else b
            if words[b] == "," and words[b + 1:b + 2] == ["so"]:
                nxt = b + 1
            if words[nxt:nxt + 1] == ["so"]:
                nxt += 1
            # "The dog is asleep on the dog bed, so keep away from it": the thing named is
            # what the rule's pronoun points back at, so the clause stays for those rules
            named = heads_in(words, a, b) and any(
                w in ("it", "them", "there") for w in words[nxt:e])
            if nxt < e and asked(words, e, _REQUEST) and words[nxt] in _NEXT and not named:
                return k, a, nxt
        return None
    if not asked(words, k, _REQUEST):
        return None
    prev = words[k - 1]
    if words[k] in _BECAUSE and (words[k] not in ("as", "since") or prev in _MARKS):
        _refuse_request(toks, words, k)
        b = _clause_end(words, k + 1)
        return (k, k + 1, b) if _reason(words, raw, k + 1, b) else None
    if words[k] in ("so", "just") and prev != "so":
        a = k + 1 if words[k] == "so" else k + 2 if words[k:k + 2] == ["just", "so"] else 0
        if not a:
            return None
        b = _clause_end(words, a)
        return (k, a, b) if _reason(words, raw, a, b, purpose=True) else None
    if words[k] == "(":
        b = _clause_end(words, k + 1)
        if b < len(words) and words[b] == ")" and _reason(words, raw, k + 1, b):
            return k, k + 1, b + 1
        return None
    if prev in _MARKS - {"("} or _after_thing(words, k, ends):
        b = _clause_end(words, k)
        marked = prev in _MARKS
        got = _subject(words, raw, k, b)
        if prev == "," and got is not None and (
                got[1] == "pronoun" and words[k] in ("it", "it's", "its", "they", "they're") or
                got[1] == "thing" and heads_in(words, k, got[0])):
            return None  # ", it tips over easily", ", the lamp on it is broken": the discourse
            #              moves read (and record) a statement about a thing of the map
        if not marked and (got is None or got[1] == "none" and (
                words[k] not in _UNMARKED_STATES or b < len(words) and words[b] not in _ENDS)
                or got[1] == "thing" and not (got[0] < b and _verbish(words[got[0]]))):
            return None
        return (k, k, b) if _reason(words, raw, k, b) else None
    return None


def said_reasons(toks: list[Token], text: str = "") -> tuple[list[Token], Context]:
    """Take the reasons of the module docstring out of ``toks`` (``text``: the instruction as
    typed, whose capitals tell a name); returns the tokens and the reasons (text and character
    span) as context.

    Raises:
        ParseError: a bare request after a connective of reason ("because go to the bin").
    """
    words = [t.text.lower() for t in toks]
    raw = [text[t.start:t.end] if text else t.text for t in toks]
    context: Context = []
    out: list[Token] = []
    ends = name_ends(words)
    k = 0
    while k < len(toks):
        got = _span_at(toks, words, raw, k, ends)
        if got is None:
            out.append(toks[k])
            k += 1
            continue
        _, _, b = got
        # a sentence of its own goes with its full stop, a clause with the mark before it
        first = k == 0 or words[k - 1] in _ENDS
        taken = take_out(out, toks, (k, b), _MARKS | _ENDS if first else _MARKS, lead=not first)
        if taken is not None:
            context.append(taken)
        k = b
    return out, context
