"""Token rewrites read before the discourse moves (:mod:`.moves`), from fresh sets N and O
(issue 19). Each one is a class of phrasing, not a sentence:

* a reason said after the request ("..., I want to read there later", "... so you don't knock
  it", "... because the floor is wet", "..., the middle of the floor is still wet from
  mopping") is context: it says why, never where (:func:`_reasons`);
* "keep going" / "carry on" with nothing after it adds nothing to the route (:func:`_keep_going`);
* a numbered list ("1) toaster 2) the couch 3) ...") is a list of stops (:func:`_numbered`);
* a self-correction said with "no wait, the one ..." / "sorry, the one ..." / "actually, the
  sofa" is read as the "I mean ..." correction :mod:`.moves` already reads (:func:`_fixes`);
* "with A and B on it" / "that has A and B on it" names two things on one head, never a
  second stop, and a participle between a thing and where it is ("a book *lying* on it")
  says nothing more (:func:`_things_on`);
* "on your way out of the kitchen" is "as you leave the kitchen"; "leave the kitchen through
  the door" is a pass through that door (:func:`_ways`);
* a question that picks a thing ("Which bin is in the same room as a bed? Go to that one.")
  is the description of the "that one" that follows (:func:`_which`).

Each rewrite keeps the character spans of the words it reads.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.move_words import _DESCRIBING
from map2route.language.tokens import Token

_ENDS = (".", "!", "?", ";")
Context = list[tuple[str, tuple[int, int]]]

#: "I want to read there later", "I'd like to sit there": the speaker's own plan.
_PLANS = tuple((*s, *v, "to") for s in (("i",), ("we",))
               for v in (("want",), ("need",), ("would", "like"), ("plan",), ("am", "going"),
                         ("are", "going"), ("am", "planning"), ("am", "hoping"),
                         ("hope",), ("wanna",)))
#: Subjects after "so" that make it a reason ("so you don't knock it", "so that ...").
_SO_SUBJECTS = frozenset({"that", "you", "it", "we", "i", "they", "nothing", "he", "she",
                          "there", "no"})
_BECAUSE = frozenset({"because", "cause", "'cause", "since", "bc", "cuz", "coz"})
_COPULAS = frozenset({"is", "are", "was", "were", "'s", "gets", "looks", "seems"})
#: A state's subject is a noun phrase ("the floor", "its door"); "it's big" is left to
#: :mod:`.moves` (a pronoun's state may say which one).
_STATE_LEADS = frozenset({"the", "a", "an", "its", "their", "my", "our"})
#: Surfaces a reason may name without naming a place of the route.
_SURFACES = frozenset({"floor", "ground", "carpet", "rug"})
_ROUTE = W.MOVE_VERBS | W.SHAPE_VERBS | frozenset({
    "here", "back", "home", "start", "around", "round", "through", "past", "via", "avoid",
    "stay", "keep", "near", "close", "far", "between", "towards", "toward", "along", "across",
    "stop", "wait", "in", "on", "at", "by", "next", "beside", "behind", "under", "inside",
    "left", "right", "where", "which", "destination", "goal"})


def _tok(t: Token, *texts: str) -> list[Token]:
    return [Token(x, t.start, t.end) for x in texts]


def _record(ctx: Context, toks: list[Token]) -> None:
    body = [t for t in toks if t.text not in (",", *_ENDS)]
    if body:
        ctx.append((" ".join(t.text for t in body), (body[0].start, body[-1].end)))


def _sentence_end(words: list[str], k: int) -> int:
    return next((q for q in range(k, len(words)) if words[q] in _ENDS), len(words))


def _new_heads(words: list[str], a: int, b: int) -> set[str]:
    """Heads named in ``words[a:b]`` and not before ``a`` (surfaces aside)."""
    lex = head_lexicon()

    def heads(x: int, y: int) -> set[str]:
        out, k = set(), x
        while k < y:
            hit = lex.match(words[k:min(y, k + lex.max_len)])
            if hit is None:
                k += 1
                continue
            out.add(hit[1])
            k += hit[0]
        return out
    return heads(a, b) - heads(0, a) - _SURFACES


def _reason_at(words: list[str], k: int) -> bool:
    """Whether a reason opens at ``k`` (inside a sentence that asks something before it)."""
    w = words[k]
    before = words[max(0, k - 1)]
    if k == 0 or before in _ENDS:
        return False
    if w in _BECAUSE or words[k:k + 3] == ["in", "order", "to"]:
        return True
    if w == "so" and words[k + 1:k + 2] and words[k + 1] in _SO_SUBJECTS:
        return True
    if before == "," and any(tuple(words[k:k + len(p)]) == p and
                             words[k + len(p):k + len(p) + 1] != ["you"] and
                             words[k + len(p):k + len(p) + 1] and
                             words[k + len(p)] not in W.MOVE_VERBS for p in _PLANS):
        return True
    return before == "," and _state(words, k)


def _state(words: list[str], k: int) -> bool:
    """", the middle of the floor is still wet", ", the floor is slippery": a state of things said
    after a request, with nothing of a route after its verb."""
    if words[k] not in _STATE_LEADS:
        return False
    end = _sentence_end(words, k)
    verb = next((q for q in range(k + 1, min(end, k + 8)) if words[q] in _COPULAS), None)
    if verb is None or set(words[k + 1:verb]) & (_ROUTE | {","}):
        return False
    tail = words[verb + 1:end]
    if len(tail) > 3 and tail[-3] in ("in", "on", "around", "by", "near") and \
            tail[-2] == "the" and tail[0] not in ("in", "on", "around", "by", "near", "the"):
        tail = tail[:-3]  # "is still wet in the middle": where the state is, said last
    return bool(tail) and not set(tail) & (_ROUTE | _DESCRIBING | {
        ",", "and", "then", "the", "one", "your", "where"})


def _reason_end(words: list[str], k: int) -> int:
    """Where a reason at ``k`` ends: at its sentence's end, or at a comma before the next
    request ("because it is comfy, then go to the sofa")."""
    end = _sentence_end(words, k)
    for q in range(k + 1, end):
        nxt = words[q + 1:q + 3]
        if words[q] == "," and nxt and (nxt[0] in W.MOVE_VERBS or nxt[0] == "then" or
                                        nxt == ["and", "then"] or
                                        nxt[0] == "and" and nxt[1:] and nxt[1] in W.MOVE_VERBS):
            return q
    return end


_NOT_WORDS = frozenset({"not", "never", "no"})


def _around(words: list[str], a: int, b: int) -> tuple[int, int] | None:
    """The span of "go around" / "walk round" in ``words[a:b]`` (a move verb, then
    "around" or "round")."""
    for q in range(a, b - 1):
        if words[q] in W.MOVE_VERBS and words[q + 1] in ("around", "round"):
            return q, q + 2
    return None


def _keeps_clear(words: list[str], k: int, end: int) -> bool:
    """A reason that says not to touch ("so you don't knock it", "so as not to bump it",
    "so that nothing falls")."""
    return bool(set(words[k:end]) & _NOT_WORDS) or words[k + 1:k + 2] == ["nothing"]


def _avoid(out: list[Token], a: int, n: int) -> list[Token]:
    """``out`` with its ``n`` tokens at ``a`` ("go around") read as "avoid"."""
    return [*out[:a], *_tok(out[a], "avoid"), *out[a + n:]]


def _last_head(words: list[str], b: int) -> str:
    lex = head_lexicon()
    last, k = "", 0
    while k < b:
        hit = lex.match(words[k:min(b, k + lex.max_len)])
        if hit is None:
            k += 1
            continue
        last = hit[1]
        k += hit[0]
    return last


def _reasons(toks: list[Token], ctx: Context, records: list[dict[str, str]]) -> list[Token]:
    """Reasons to the end of their sentence are context; a state of things (", the floor is
    wet") is recorded as the statement move :mod:`.moves` records, about the head named
    last before it."""
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        end = _reason_end(words, k)
        start = max((q + 1 for q in range(k) if words[q] in (",", *_ENDS)), default=0)
        around = _around(words, start, k)
        # a reason said with "because" / "since" may name things ("since the chairs are
        # out"): reported as context with them, never left unread
        if _reason_at(words, k) and end > k + 1 and \
                (words[k] in _BECAUSE or not _new_heads(words, k, end)) and \
                set(words[:k]) & (W.OPENERS | _ROUTE) and \
                (around is None or _keeps_clear(words, k, end)):
            if around is not None:
                # "go around it so you don't knock it": a detour round a thing, not a
                # circle: "avoid it" (a reason that is no keeping clear is left to a refusal)
                out = _avoid(out, len(out) - (k - around[0]), around[1] - around[0])
            _record(ctx, toks[k:end])
            if words[k - 1] == "," and _state(words, k):
                records.append({"move": "statement", "text": " ".join(words[k:end]),
                                "about": _last_head(words, k)})
            if out and out[-1].text == ",":
                out.pop()
            k = end
            continue
        out.append(toks[k])
        k += 1
    return out


_GOING = frozenset({"going", "walking", "moving", "heading", "on"})
_GOING_TAIL = frozenset({"straight", "on", "ahead", "forward", "forwards", "for", "a", "bit",
                         "then", "along"})


def _keep_going(toks: list[Token], ctx: Context) -> list[Token]:
    """"and keep going.", ", carry on,": a clause that only says to go on."""
    words = [t.text for t in toks]
    drop: set[int] = set()
    for k, w in enumerate(words):
        n = 0
        if w == "keep" and words[k + 1:k + 2] and words[k + 1] in _GOING:
            n = 2 + (words[k + 1] == "on" and words[k + 2:k + 3] in (["going"], ["walking"]))
        elif words[k:k + 2] in (["carry", "on"], ["go", "on"]):
            n = 2
        if not n:
            continue
        e = k + n
        while e < len(words) and words[e] in _GOING_TAIL:
            e += 1
        if e < len(words) and words[e] not in (",", *_ENDS):
            continue
        a = k
        while a > 0 and words[a - 1] in ("and", "then", ",", "just"):
            a -= 1
        if a == 0 or words[a - 1] in _ENDS:
            if e >= len(words) or words[e] in _ENDS:
                continue  # the whole sentence: left to say it (a refusal, not a guess)
            a = k
        _record(ctx, toks[k:e])
        drop.update(range(a, e))
    return [t for k, t in enumerate(toks) if k not in drop]


def _numbered(toks: list[Token]) -> list[Token]:
    """"1) toaster 2) the couch 3) the bed": an instruction that opens with marker 1 and
    goes on with 2, 3, ... (each with ")", "." or ":"): each marker after the first is
    "then" (a list after "go:" is left to the older rules)."""
    words = [t.text for t in toks]
    marks = [k for k in range(len(words) - 1) if words[k].isdigit() and
             words[k + 1] in (")", ".", ":") and (k == 0 or words[k - 1] not in W.NUMBERS)]
    nums = [int(words[k]) for k in marks]
    if len(marks) < 2 or nums != list(range(1, len(nums) + 1)) or marks[0] != 0:
        return toks
    out: list[Token] = []
    for k, t in enumerate(toks):
        if k in marks:
            if k > marks[0] and out and out[-1].text not in _ENDS:
                out.extend(_tok(t, *([] if out[-1].text == "," else [","]), "then"))
        elif k - 1 in marks:
            continue
        else:
            out.append(t)
    return out


_FIXES = frozenset({"no", "nope", "wait", "sorry", "actually", "oops", "rather", "correction",
                    "hang", "on", "hmm", "er", "um", "uh", "oh", "my", "bad", "make", "that",
                    "scratch", "or", "i", "mean", "meant", ","})
_FIX_CORE = frozenset({"no", "nope", "wait", "sorry", "actually", "oops", "rather",
                       "correction"})


def _fixes(toks: list[Token]) -> list[Token]:
    """", no wait, the one in the bedroom" -> ", i mean the one in the bedroom"."""
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        if words[k] == "," and k > 0 and words[k + 1:k + 2] and words[k + 1] in _FIX_CORE:
            e = k + 1
            while e < len(words) and words[e] in _FIXES:
                e += 1
            said = words[k + 1:e]
            if e < len(words) and words[e] in ("the", "a", "an") and \
                    "mean" not in said and "meant" not in said and \
                    not set(words[e:_sentence_end(words, e)]) & W.MOVE_VERBS:
                out.append(toks[k])
                out.extend(_tok(toks[k + 1], "i", "mean"))
                k = e
                continue
        out.append(toks[k])
        k += 1
    return out


_LYING = frozenset({"lying", "laying", "sitting", "resting", "standing", "placed", "kept",
                    "left", "sat", "perched"})
_ON = frozenset({"on", "in", "under", "inside", "beside", "by", "next", "near"})
_DETS = frozenset({"the", "a", "an", "some", "two", "three", "four", "five"})


def _np_end(words: list[str], k: int, fuzzy: bool = False) -> int | None:
    """The end of a "the (adjectives) thing" at ``k`` that names a known head (with
    ``fuzzy``, a one-word head the reference reader's fuzzy match reads: "a basketball")."""
    lex = head_lexicon()
    if k >= len(words) or words[k] not in _DETS:
        return None
    for s in range(k + 1, min(len(words), k + 4)):
        hit = lex.match(words[s:s + lex.max_len])
        if hit is not None:
            return s + hit[0]
    if fuzzy and k + 1 < len(words) and words[k + 1].isalpha():
        fz = lex.fuzzy(words[k + 1])
        if fz is not None and fz[1] == "object":
            return k + 2
    return None


def _things_on(toks: list[Token]) -> list[Token]:
    """"with A and B on it" -> "with A and with B on it"; "that has A and B on it" -> "with
    A and with B on it"; "a book lying on it" -> "a book on it"."""
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        w = words[k]
        e1 = _np_end(words, k + 1) if w == "with" else None
        if w in ("that", "which") and words[k + 1:k + 2] in (["has"], ["have"]):
            e1 = _np_end(words, k + 2)
        if e1 is not None and words[e1:e1 + 1] == ["and"]:
            e2 = _np_end(words, e1 + 1)
            if e2 is not None and words[e2:e2 + 1] and \
                    (words[e2] in _ON or words[e2] in _ENDS or words[e2] == ","):
                start = k + (1 if w == "with" else 2)
                out.extend(_tok(toks[k], "with"))
                out.extend(toks[start:e1 + 1])
                out.extend(_tok(toks[e1], "with"))
                k = e1 + 1
                continue
        if w in _LYING and k > 0 and words[k + 1:k + 2] and words[k + 1] in _ON and \
                head_lexicon().match([words[k - 1]]) is not None:
            k += 1
            continue
        out.append(toks[k])
        k += 1
    return out


_WAY_OUT = (("on", "your", "way", "out", "of"), ("on", "the", "way", "out", "of"),
            ("on", "your", "way", "out", "from"), ("on", "the", "way", "out", "from"),
            ("when", "leaving"), ("while", "leaving"), ("on", "leaving"),
            ("as", "you", "come", "out", "of"), ("as", "you", "go", "out", "of"),
            ("as", "you", "walk", "out", "of"), ("as", "you", "get", "out", "of"))
_LEAVE = (("leave",), ("exit",), ("get", "out", "of"), ("go", "out", "of"), ("walk", "out", "of"))


def _ways(toks: list[Token], ctx: Context) -> list[Token]:
    words = [t.text for t in toks]
    lex = head_lexicon()
    out: list[Token] = []
    k = 0
    while k < len(toks):
        n = next((len(p) for p in _WAY_OUT if tuple(words[k:k + len(p)]) == p), 0)
        if n:
            out.extend(_tok(toks[k], "as", "you", "leave"))
            k += n
            continue
        n = next((len(p) for p in _LEAVE if tuple(words[k:k + len(p)]) == p), 0)
        if n and words[k + n:k + n + 1] == ["the"]:
            hit = lex.match(words[k + n + 1:k + n + 1 + lex.max_len])
            e = k + n + 1 + (hit[0] if hit else 0)
            if hit is not None and hit[2] == "room" and \
                    words[e:e + 1] and words[e] in ("through", "via", "by"):
                _record(ctx, toks[k:e])
                out.extend(_tok(toks[k], "go", "through"))
                k = e + 1
                continue
        out.append(toks[k])
        k += 1
    return out


_WHICH_BACK = (("that", "one"), ("this", "one"), ("it",), ("there",), ("that",))


def _which(toks: list[Token], ctx: Context) -> list[Token]:
    """"Which bin is in the same room as a bed? Go to that one." -> "Go to the bin that is
    in the same room as a bed." (also "Which chair has a cushion? ...")."""
    words = [t.text for t in toks]
    if not words or words[0] != "which":
        return toks
    q = _sentence_end(words, 0)
    if q >= len(words) or words[q] != "?":
        return toks
    lex = head_lexicon()
    hit = lex.match(words[1:1 + lex.max_len])
    if hit is None or words[1 + hit[0]:2 + hit[0]] not in (["is"], ["has"], ["are"], ["have"]):
        return toks
    end = _sentence_end(words, q + 1)
    for k in range(q + 1, end):
        n = next((len(p) for p in _WHICH_BACK if tuple(words[k:k + len(p)]) == p), 0)
        if n and k > q + 1 and words[k - 1] in ("to", "at", "by", "reach", "find", "visit"):
            _record(ctx, toks[0:q])
            desc = [*_tok(toks[0], "the"), *toks[1:1 + hit[0]], *_tok(toks[0], "that"),
                    *toks[1 + hit[0]:q]]
            return [*toks[q + 1:k], *desc, *toks[k + n:]]
    return toks


_CLEAR_OPENERS = frozenset({"avoid", "keep", "stay", "steer", "do", "never"})


def _there_is(toks: list[Token], ctx: Context) -> list[Token]:
    """"There's a basketball on the floor in that bedroom, avoid it." -> "In that bedroom,
    avoid the basketball.": a thing placed in a room, then kept clear of by "it", is kept
    clear of in that room (the placing sentence is context)."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    for s0 in range(len(words) - 3):
        if (s0 and words[s0 - 1] not in _ENDS) or words[s0:s0 + 2] not in (
                ["there", "is"], ["there", "are"]):
            continue
        e1 = _np_end(words, s0 + 2, fuzzy=True)
        if e1 is None:
            continue
        c = next((q for q in range(e1, len(words)) if words[q] in (",", *_ENDS)), len(words))
        room = next((q for q in range(e1, c - 1) if words[q] == "in" and
                     words[q + 1] in ("the", "that", "this") and
                     (m := lex.match(words[q + 2:c])) is not None and m[2] == "room" and
                     q + 2 + m[0] == c), None)
        if room is None or c >= len(words) - 1 or words[c + 1] not in _CLEAR_OPENERS:
            continue
        end = _sentence_end(words, c + 1)
        its = [q for q in range(c + 1, end) if words[q] in ("it", "them")]
        if len(its) != 1:
            continue
        _record(ctx, toks[s0:c])
        thing = [*_tok(toks[s0 + 2], "the"), *toks[s0 + 3:e1]]
        return [*toks[:s0], *toks[room:c], *_tok(toks[c], ","), *toks[c + 1:its[0]], *thing,
                *toks[its[0] + 1:]]
    return toks


def before_moves(toks: list[Token], records: list[dict[str, str]]
                 ) -> tuple[list[Token], Context]:
    """All the rewrites of this module, in order; returns the tokens and the context taken
    out (reasons, the rooms left by a door, the question of a pick); a state of things is
    appended to ``records`` as a statement."""
    ctx: Context = []
    toks = _numbered(toks)
    toks = _which(toks, ctx)
    toks = _fixes(toks)
    toks = _reasons(toks, ctx, records)
    toks = _there_is(toks, ctx)
    toks = _keep_going(toks, ctx)
    toks = _things_on(toks)
    toks = _ways(toks, ctx)
    return toks, ctx
