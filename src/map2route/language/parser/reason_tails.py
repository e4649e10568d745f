"""Reasons, asides and chatter that say WHY, not WHERE, said around a request in words that
the earlier reason rules (:mod:`.state_reasons`, :mod:`.reason_moves`, the reason rule of
:mod:`.constraint_frames`, :mod:`.deed_reasons`) do not take:

* a clause with its own subject and verb after a request and a comma, dash or chatter mark
  ("lol", "yeah"): "give the sofas plenty of room, your wheels keep catching on them", "the
  chairs stick out", "the telly on it isn't screwed down", "the space is very small and you
  will hit something", "the laptop charger cable runs across the floor there and you'll yank
  it right off the table", "I come after with the laundry", ", is open and I dont want you go
  outside";
* the same after a spoken request with no comma, when the subject is the speaker's or a
  person's ("keep away from the sofa my husband is napping on it", "dont go through the
  bedroom you dont need to");
* a reason opened by a connective the other rules do not list ("cos it stinks a bit", "as
  it's running and it shakes a lot");
* a state said first and joined to the request by "so" ("The kettle's still hot, so stay away
  from the kettle").

Such a clause is taken out of the route and reported as context with its span (the map things
it names are in that text, never made into stages or constraints). A clause is read so only
when it holds nothing of a route: no keep-away or scope word, no "then", no stop or wait, no
place of the route said of the walker ("you" with a move verb and a map thing), no "the one"
or relative that would make it a description, and no thing placed by a preposition right
after its copula ("it's in the kitchen" says where, so it stays for the later rules). A tail
ends at its sentence's end or where a further request begins (", and in the bedroom don't
..."), so a route part said after it is still read.

Hand-written, like the rest of the parser: the cue words are closed classes and each rewrite
keeps the character spans of the words it takes out.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.aside_clauses import is_aside
from map2route.language.parser.heads import head_lexicon, heads_in
from map2route.language.tokens import Token

__all__ = ["asked", "reason_tails", "take_out"]

Context = list[tuple[str, tuple[int, int]]]

_ENDS = frozenset({".", "!", "?", ";"})
#: Marks after which a tail may start (besides a comma or dash).
_CHATTER = frozenset({"lol", "yeah", "haha", "tbh", "honestly", "ugh", "btw"})
_SEPS = frozenset({",", "-", "--", "\u2013", "\u2014", ":"}) | _CHATTER
#: Words of a request before the tail (the sentence must ask something first).
_REQUEST = W.MOVE_VERBS | frozenset({
    "keep", "stay", "avoid", "give", "leave", "hug", "stick", "steer", "mind", "never", "not",
    "wait", "stop", "circle", "lap"})
#: Connectives that open a reason.
_BECAUSE = frozenset({"because", "cos", "coz", "cuz", "cause", "'cause", "bc", "since", "as"})
#: Subjects that are people or the thing's state ("it", "they", "someone").
_PRONOUNS = frozenset({"it", "they", "he", "she", "someone", "somebody", "i", "we",
                       "everything", "nobody", "people"})
#: People's subjects, the only ones read after a spoken request with no mark.
_PEOPLE = frozenset({"i", "we", "he", "she", "someone", "somebody", "my", "our", "his",
                     "her", "their"})
_DETS = frozenset({"the", "my", "your", "his", "her", "our", "their", "its", "this", "that"})
#: Finite verbs and auxiliaries that show a clause ("is", "will", "keep", "has").
_FINITE = frozenset({
    "is", "are", "was", "were", "'s", "will", "would", "could", "can", "might", "may",
    "should", "must", "has", "have", "had", "do", "does", "did", "keep", "keeps", "gets",
    "get", "got", "tends", "tend", "looks", "seems", "needs", "belongs", "bites", "wobbles",
    "come", "comes", "stick", "sticks", "runs", "run", "tip", "tips", "fall", "falls",
    "break", "breaks", "hate", "hates", "love", "loves", "like", "likes", "want", "wants",
    "need", "sleep", "sleeps", "bark", "barks", "stinks", "smells", "leaks", "shakes"})
#: Words that make a clause part of the route or a description, never a reason.
_ROUTE = frozenset({
    "away", "avoid", "avoiding", "clear", "berth", "distance", "clearance", "between",
    "stop", "wait", "while", "until", "till", "when", "whenever", "once", "which",
    "where", "whichever", "one", "ones", "first", "second", "last", "next", "please", "pls",
    "route", "way", "towards", "toward", "via", "past", "through", "destination", "close",
    "closer", "near", "nearer", "far", "farther", "further"}) | W.RANK_WORDS
#: Words that are route words only before what they say of the route ("after the sofa",
#: "on the left") and not as adverbs ("I come after", "right off the table").
_MAYBE_ROUTE = frozenset({"after", "before", "left", "right", "then"})
_COPULAS = frozenset({"is", "are", "was", "were", "'s"})
#: Words that say which thing a pronoun is ("it's big", "they're the two by the door").
_WHICH = frozenset(W.SIZE_ADJ) | frozenset(W.COMPARATIVE) | frozenset(W.ORDINALS) | \
    (frozenset(W.NUMBERS) - {"a", "an", "one"})
#: Auxiliaries a person's clause with no mark before it must have ("my husband is napping").
_AUXES = frozenset({"is", "are", "was", "were", "'s", "will", "would", "has", "have", "had",
                    "do", "does", "did", "can", "could", "might", "may", "keeps", "gets"})
#: A last word that leaves a relative clause open ("the bed I sleep in").
_STRANDED = frozenset({"in", "on", "at", "by", "with", "to", "from", "under", "near", "next",
                       "into", "onto", "for", "of", "about"})
#: Caution words: a reason naming a thing not said before needs one before it.
_CAUTION = frozenset({"keep", "stay", "avoid", "never", "not", "give", "mind", "steer",
                      "clear", "away", "berth", "room", "space", "distance", "careful",
                      "leave", "between"})
#: Plural nouns of amount that look like verbs ("give it loads of room").
_AMOUNTS = frozenset({"loads", "lots", "bits", "heaps", "tons", "plenty", "inches", "metres",
                      "meters", "feet", "steps", "seconds", "minutes", "times"})
_PLACE_PREPS = frozenset({"in", "on", "at", "by", "near", "beside", "next", "under",
                          "behind", "inside", "opposite", "in front"})
#: Where a further request starts inside the sentence (", and in the bedroom don't ...").
_OPENERS = _REQUEST | frozenset({"then", "on", "in", "while", "when", "once", "after",
                                 "before", "until", "please", "also", "oh", "do", "dont",
                                 "and", "but", "from", "for", "go"})
#: Surfaces a reason may name without placing anything on the route.
_SURFACES = frozenset({"floor", "ground", "carpet", "rug"})


def _heads(words: list[str], a: int, b: int) -> list[tuple[int, str]]:
    """The map heads named in ``words[a:b]``, with where each starts (surfaces aside)."""
    return [(k, h) for k, h in heads_in(words, a, b) if h not in _SURFACES]


def _head_ends(words: list[str], k: int) -> bool:
    """Whether a map thing's name ends right before ``k`` ("keep away from the sofa|")."""
    lex = head_lexicon()
    for a in range(max(0, k - lex.max_len), k):
        hit = lex.match(words[a:k])
        if hit is not None and hit[0] == k - a:
            return True
    return False


def _verb_at(words: list[str], k: int, b: int) -> bool:
    """Whether ``words[k]`` is the finite verb of a clause (an auxiliary, or a verb form
    that is not a map thing's name and not a route word)."""
    if k >= b:
        return False
    w = words[k]
    if w in _FINITE:
        return True
    if not w.isalpha() or w in _ROUTE | _PLACE_PREPS | _DETS | _AMOUNTS or \
            w in ("and", "or", "to", "a"):
        return False
    if _heads(words, k, k + 1):
        return False
    return w.endswith(("s", "ed")) and not w.endswith("ss")


def _subject(words: list[str], k: int, b: int) -> int | None:
    """Where the verb of a clause whose subject starts at ``k`` is, or None."""
    w = words[k]
    if w == "you":  # a consequence ("you will hit something") or "you do not need to"
        if words[k + 1:k + 2] and words[k + 1] in ("will", "would", "could", "might", "may",
                                                    "can"):
            return k + 1
        if words[k + 1:k + 5] in (["do", "not", "need", "to"], ["do", "not", "have", "to"]):
            return k + 1 if k + 5 == b else None
        return None
    if w == "there" and words[k + 1:k + 2] and words[k + 1] in ("is", "are", "'s"):
        return k + 1
    if w in _PRONOUNS or w == "its":
        return k + 1 if _verb_at(words, k + 1, b) or w == "its" else None
    if w in ("is", "are") and k > 0:  # learner English: ", is open" (the thing said before)
        nxt = words[k + 1:k + 2]
        return k if nxt and nxt[0].isalpha() and nxt[0] not in _DETS | {
            "to", "a", "an", "where", "which", "what", "there", "here"} else None
    if w in _DETS:
        for v in range(k + 2, min(b, k + 7)):
            if words[v] in _ROUTE | _ENDS | {",", "that", "which", "who", "where"}:
                return None  # a relative makes it a description
            if words[v] in _PLACE_PREPS and words[v + 1:v + 2] not in (["it"], ["them"]):
                return None  # "the painting in the kitchen": a thing placed, not a state
            if _verb_at(words, v, b) or words[v].endswith("'ll"):
                return v
    return None


def _end(words: list[str], k: int) -> int:
    """Where a tail that starts at ``k`` ends: its sentence's end, or a comma or "and"
    that starts a further request."""
    q = k
    while q < len(words) and words[q] not in _ENDS:
        if words[q] in (",", "-") and q + 1 < len(words) and words[q + 1] in _OPENERS | {
                "it", "they", "its"}:
            return q
        if words[q] == "and" and q + 1 < len(words) and words[q + 1] in _REQUEST | {
                "then", "on", "in", "while", "when", "do", "dont", "never", "please"}:
            return q
        if q > k and words[q] in ("while", "when", "until", "till", "once") and not (
                words[q] == "when" and words[q + 1:q + 2] in (["it"], ["they"])):
            return q  # a scope said after the reason ("it stinks while in the bathroom")
        q += 1
    return q


def _clean(words: list[str], a: int, verb: int, b: int, k: int | None = None) -> bool:
    """Whether ``words[a:b]`` (a clause with its verb at ``verb``) holds nothing of a route;
    ``k``: where a tail said after a request starts (a thing it names that the sentence has
    not named needs a caution before it: "Go to the desk, the lamp on it is broken" is left
    to say which desk; after a chatter mark, "lol the toilet's blocked", it is chatter)."""
    tail = words[a:b]
    if not tail or set(tail) & _ROUTE or any(
            w == "then" and words[q - 1] not in ("by", "till", "until", "since") or
            w in _MAYBE_ROUTE - {"then"} and (q + 1 == b or words[q + 1] in (
                "the", "you", "that", "this", "it", "of", "side", "hand", ",", "turn"))
            for q, w in enumerate(words[a:b], a)):
        return False
    # "I want you keeping close to ...": a wish for the walker is a request (not a negated one)
    if any(words[q] in ("want", "need", "like", "wanna") and words[q + 1:q + 2] in (
            ["you"], ["u"]) and "not" not in words[max(a, q - 2):q] for q in range(a, b)):
        return False
    if words[a] in ("it", "they", "its", "is", "are") and set(tail) & _WHICH:
        return False  # "Go to the sofa, it's big": says which one, for the later rules
    heads = _heads(words, a, b)
    # "stop one is the painting ...": which thing, said by naming it
    if words[verb] in _COPULAS and words[verb + 1:verb + 2] in (["the"], ["a"], ["an"]) and \
            any(n > verb for n, _ in heads):
        return False
    if k is not None and heads:
        start = next((q for q in range(k - 1, -1, -1) if words[q] in _ENDS), -1) + 1
        said = {h for _, h in _heads(words, start, k)}
        if any(h not in said for _, h in heads) and not set(words[start:k]) & _CAUTION:
            return False
    # an infinitive of a request ("is to head over to the coffee machine")
    if any(words[q] in W.MOVE_VERBS and words[q - 1] in ("to", "is", "are") and
           any(n > q for n, _ in heads) for q in range(a + 1, b)):
        return False
    # "it's in the kitchen", "they are by the bed": a place said right after the copula
    after = words[verb + 1:verb + 3]
    if after and after[0] in _PLACE_PREPS and heads and \
            after not in (["on", "it"], ["in", "it"], ["on", "them"]):
        first = next((n for n, _ in heads if n > verb), None)
        if first is not None and first <= verb + 4:
            return False
    # the walker sent somewhere ("you go to the kitchen", "want you to walk to the bed")
    for q in range(a, b):
        if words[q] in ("you", "u") and any(
                words[x] in W.MOVE_VERBS for x in range(q + 1, min(b, q + 4))) and any(
                n > q for n, _ in heads):
            return False
    return not (words[a] in ("i", "we") and any(words[x] in W.MOVE_VERBS and words[x - 1] in (
        "you", "to") for x in range(a + 1, b)) and heads)


def asked(words: list[str], k: int, request: frozenset[str] = _REQUEST) -> bool:
    """Whether the sentence before ``k`` asks something (a word of ``request``)."""
    q = k - 1
    while q >= 0 and words[q] not in _ENDS:
        if words[q] in request:
            return True
        q -= 1
    return False


def _tail_at(words: list[str], k: int) -> tuple[int, int] | None:
    """The reason ``(start, end)`` that opens at ``k``, or None."""
    if k == 0 or words[k - 1] in _ENDS:
        return None
    before = words[k - 1]
    a = k
    marked = before in _SEPS
    if words[k] in _BECAUSE and words[k + 1:k + 2] and words[k + 1] != "you":
        a = k + 1
    elif not marked:
        # a spoken request with no mark: only a person's clause, or "you do not need to"
        if not (words[k] in _PEOPLE | {"it", "they"} or
                words[k:k + 4] == ["you", "do", "not", "need"]):
            return None
        if not _head_ends(words, k) and (words[k - 1] not in ("it", "them") or
                                         words[k] in ("it", "they")):
            return None  # only right after the thing the request names
    if not asked(words, k):
        return None
    b = _end(words, a)
    verb = _subject(words, a, b)
    if verb is None or not _clean(words, a, verb, b, None if before in _CHATTER else k):
        return None
    if not marked and a == k and words[a] != "you" and (
            words[verb] not in _AUXES or words[b - 1] in _STRANDED):
        return None  # "the bed i sleep in": a relative clause with no "that"
    if before in (",", "-") and (b == len(words) or words[b] in _ENDS) and is_aside(words[k:b]):
        return None  # a clause naming nothing at all: the aside cut of parse.py reports it
    return (k, b)


def _lead_at(words: list[str], k: int) -> tuple[int, int] | None:
    """A state said first and joined to the request by "so" ("The kettle's still hot, so
    stay away from it"): the clause and its "so"."""
    if k and words[k - 1] not in _ENDS:
        return None
    end = next((q for q in range(k, len(words)) if words[q] in _ENDS), len(words))
    so = next((q for q in range(k + 2, end) if words[q] == "so"), None)
    if so is None or words[k] == "there" or not words[so + 1:so + 2] or \
            words[so + 1] not in _REQUEST | {"do", "please"}:
        return None
    comma = so - 1 if words[so - 1] == "," else so  # "The dog is nervous so leave ..."
    verb = _subject(words, k, comma)
    if verb is None or not _clean(words, k, verb, comma):
        return None
    if _heads(words, k, comma) and set(words[comma + 2:end]) & {"it", "them", "there", "that"}:
        return None  # "The dog is asleep on the dog bed, so keep away from it": its antecedent
    return (k, so + 1)


def take_out(out: list[Token], toks: list[Token], span: tuple[int, int], marks: frozenset[str],
             *, lead: bool = True, keep: frozenset[str] = frozenset()
             ) -> tuple[str, tuple[int, int]] | None:
    """``toks[a:b]`` taken out as a context entry (its text without ``marks`` other than
    ``keep``, and its character span); with ``lead``, the mark that opened it (the last token
    of ``out``) goes with it. None when nothing but marks is left."""
    a, b = span
    opened = [out.pop()] if lead and out and out[-1].text in marks else []
    body = [t for t in [*opened, *toks[a:b]] if t.text not in marks - keep]
    return (" ".join(t.text for t in body), (body[0].start, body[-1].end)) if body else None


def reason_tails(toks: list[Token]) -> tuple[list[Token], Context]:
    """Take the reasons of the module docstring out of ``toks``; returns the tokens and the
    reasons (text and character span) as context."""
    words = [t.text for t in toks]
    context: Context = []
    out: list[Token] = []
    k = 0
    while k < len(toks):
        span = _lead_at(words, k) or _tail_at(words, k)
        if span is None:
            out.append(toks[k])
            k += 1
            continue
        got = take_out(out, toks, span, _SEPS, keep=_CHATTER)
        if got is not None:
            context.append(got)
        k = span[1]
    return out, context
