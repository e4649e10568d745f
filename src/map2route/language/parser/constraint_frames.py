"""Constraint frames: the many ways people say "keep away from", "stay close to", "stay out
of" and "don't pass between", read onto the few phrasings :mod:`.constraints` already reads.

A frame is a *negator* ("try not to", "be careful not to", "make sure you don't", "you must
not", "no ...ing", "without ...ing", "refrain from ...ing", "I'd rather you didn't") followed by
a *predicate* from a small lexicon (verbs of approach, contact, entering and cutting between,
with their particles), or a positive verb frame ("steer clear of", "hugging", "keeping out
of", "skip", "bypass", "keep off", "go around X, not through it"). Each word class is a table
below, not one rule per sentence: a negator and a predicate combine freely, and every base
verb has its ``-ing`` form derived, so "try not to approach", "no approaching", "without
approaching" and "refrain from approaching" are one entry.

Around them, the same tables serve smaller frames: room given to a thing ("give the lamp plenty
of space", "keep a wide berth around the stools"), cautions after "and" ("mind the vase"),
walking by a thing to a place ("follow the wall to the dresser"), the passive ("the kitchen
must be avoided"), a wish said as a request ("I'd appreciate it if you stayed away from X",
read before the discourse moves by :func:`polite_requests`), a whole-trip scope said with no
comma, "as you pass" and a reason after a keep-away ("- it's wet", ", the dog bites"), which is
context.

A frame only fires when both of its halves are in the tables, so nothing unknown is made
harmless: an unknown verb after "try not to" is still refused. The rewritten tokens keep the
character spans of the words said (so the constraint's text is what was said), and each
rewrite is recorded in :attr:`.rewrites.Marks.said_as` (the words, the phrasing read).
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.rewrites import Rewriter, Rule
from map2route.language.tokens import Token

__all__ = ["RULES", "gerund"]


def _s(*phrases: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(p.split()) for p in phrases)


_GERUND_IRREGULAR = {"cut": "cutting", "set": "setting", "run": "running", "get": "getting",
                     "step": "stepping", "slip": "slipping", "hug": "hugging",
                     "stop": "stopping", "skip": "skipping", "come": "coming",
                     "move": "moving", "squeeze": "squeezing", "drive": "driving",
                     "approach": "approaching", "see": "seeing"}


def gerund(verb: str) -> str:
    """The ``-ing`` form of a base verb of the tables ("cut" -> "cutting")."""
    if verb in _GERUND_IRREGULAR:
        return _GERUND_IRREGULAR[verb]
    if verb.endswith("e") and not verb.endswith("ee"):
        return verb[:-1] + "ing"
    return verb + "ing"


# --- negators ------------------------------------------------------------------------------
#: Negators followed by a base verb ("try not to go near"): all mean "do not". The tokenizer
#: has already split "don't" into "do not" and "I'd" into "i would".
_NEG_BASE = _s(
    "do not", "dont", "never", "please do not", "please never",
    "try not to", "try to not", "try and not", "please try not to",
    "be careful not to", "careful not to", "take care not to", "be sure not to",
    "make sure not to", "making sure not to", "make sure you do not", "make sure you never",
    "make sure that you do not", "make sure you dont", "make sure to not",
    "you must not", "you should not", "you may not", "must not", "should not",
    "you must never", "you should never", "you are not to", "you're not to",
    "i would rather you didn't", "i would prefer you didn't",
    "i would prefer it if you didn't", "i would rather you did not",
    "whatever you do , do not", "whatever you do do not", "whatever you do , never",
    "please make sure you do not", "please be careful not to", "being careful not to",
    "taking care not to", "never ever", "never , ever ,", "do not ever", "please do not ever",
    "do not , under any circumstances ,", "under no circumstances should you",
    "under no circumstances", "at no point should you", "at no point", "do not you dare",
    "let us not", "we do not want you to", "i do not want you to", "it is best not to",
    "better not", "you would better not", "you had better not", "you better not",
    "you shouldn't", "shouldn't", "you mustn't", "mustn't", "you cannot", "cannot",
    "you can not", "can not", "you will not", "will not", "you are not allowed to",
    "you're not allowed to", "you are not supposed to", "you're not supposed to",
    # said by learners of English: "avoid to go near", "no go in kitchen"
    "avoid to", "please avoid to", "no", "please no", "be careful to not", "careful to not",
    "pay attention not to", "pay attention to not", "take care to not")
#: Negators followed by an ``-ing`` form ("no going near", "without touching").
_NEG_GERUND = _s("no", "without", "refrain from", "avoid", "please avoid", "please refrain from",
                 "try to avoid", "try and avoid", "make sure to avoid", "be sure to avoid")
#: Said for weight before a negator ("whatever happens, don't ...", "seriously, never ...").
_EMPHASIS = _s("whatever happens ,", "whatever you do ,", "no matter what ,", "seriously ,",
               "really ,", "and please ,", "please ,", "and remember ,", "remember ,",
               "most importantly ,", "importantly ,", "oh and ,", "also ,", "and also ,",
               "one more thing ,", "just", "and just", "oh , and", "oh and", "though",
               "though ,", "although", "however ,")
#: Negators whose "... pass between" the older rewrite reads itself.
_OLD_GAP_NEG = frozenset({"do not", "never", "please do not", "please never"})
#: A bare "not" negates only right after a conjunction ("..., and not go near the window").
_NOT_AFTER = frozenset({",", "and", "but", "or", "though"})

# --- predicates ----------------------------------------------------------------------------
_APPROACH_VERBS = ("go", "get", "come", "walk", "move", "wander", "stray", "drift", "head",
                   "drive", "run", "step")
_DEGREE = ("", "too ", "anywhere ", "any ", "very ", "so ", "right ", "too much ", "really ")
_CLOSE = ("near", "close to", "closer to", "near to", "nearer to", "close by", "up close to")
#: Approaching or touching a thing: read as "go near" (a soft keep-away, ``far``), except
#: "touch", which the parser reads itself (``avoid``).
_FAR_PRED = (*tuple(f"{v} {d}{c}" for v in _APPROACH_VERBS for d in _DEGREE for c in _CLOSE),
             "approach", "bump into", "bump", "run into", "knock over", "knock into",
             "brush against", "brush past", "brush", "disturb", "crowd", "bang into",
             "come up to", "get up close to", "go up to")
_TOUCH_PRED = ("touch", "run over", "step on", "tread on", "trample", "trample on",  # contact
               "trample over", "walk over", "stand on", "drive over", "roll over")
#: Entering a room: read as "enter".
_ENTER_PRED = tuple(f"{v} {p}" for v in ("go", "walk", "come", "step", "wander", "head", "move",
                                         "cut", "pass")
                    for p in ("into", "in", "inside")) + ("enter", "set foot in", "go in to")
#: Crossing a room: read as "enter" (what "don't go through the kitchen" forbids), also said
#: of the robot taking the speaker ("don't take me through the kitchen").
_THROUGH_PRED = (*(f"{v} through" for v in ("go", "walk", "pass", "cut", "come", "move",
                                            "head", "drive", "wander", "route")),
                 *(f"{v} {o} {p}" for v in ("take", "bring", "lead", "route", "drive")
                   for o in ("me", "us") for p in ("through", "into")))
#: Going by a thing: read as "go past" ("do not go past the TV": keep away from it).
_PAST_PRED = tuple(f"{v} {p}" for v in ("go", "walk", "pass", "move", "head", "come", "cut",
                                        "wander")
                   for p in ("past", "by", "right past", "right by"))
#: Cutting between two things: read as "pass between".
_BETWEEN_PRED = tuple(f"{v} {p}{g}" for v in ("go", "walk", "pass", "cut", "squeeze", "move",
                                              "drive", "come", "slip", "step", "head")
                      for p in ("", "in ", "through the gap ", "through the space ",
                                "through the gap in ", "through the space in ", "in the gap ",
                                "into the gap ", "in the space ", "into the space ")
                      for g in ("between",))

_PRED_TABLE: tuple[tuple[str, tuple[str, ...]], ...] = (
    *((p, ("go", "near")) for p in _FAR_PRED),
    *((p, ("touch",)) for p in _TOUCH_PRED),
    *((p, ("enter",)) for p in _ENTER_PRED),
    *((p, ("enter",)) for p in _THROUGH_PRED),
    *((p, ("go", "past")) for p in _PAST_PRED),
    *((p, ("pass", "between")) for p in _BETWEEN_PRED),
)


def _with_gerund(table: tuple[tuple[str, tuple[str, ...]], ...]
                 ) -> tuple[dict[tuple[str, ...], tuple[str, ...]],
                            dict[tuple[str, ...], tuple[str, ...]]]:
    base: dict[tuple[str, ...], tuple[str, ...]] = {}
    ing: dict[tuple[str, ...], tuple[str, ...]] = {}
    for phrase, canon in table:
        words = tuple(phrase.split())
        base[words] = canon
        ing[(gerund(words[0]), *words[1:])] = canon
    return base, ing


_PRED_BASE, _PRED_ING = _with_gerund(_PRED_TABLE)
#: After a bare "not" ("..., not too close to the bed", "but not between A and B") the verb
#: may be left out.
_BARE_PRED: dict[tuple[str, ...], tuple[str, ...]] = {
    **{tuple(f"{d}{c}".split()): ("go", "near") for d in _DEGREE for c in _CLOSE},
    ("between",): ("pass", "between"), ("in", "between"): ("pass", "between"),
    ("via",): ("enter",), ("by", "way", "of"): ("enter",), ("through",): ("enter",),
}

# --- positive verb frames ------------------------------------------------------------------
#: Keep-away, keep-near and stay-out-of verbs the parser does not read itself, each with the
#: phrasing it is read as; base forms, ``-ing`` forms derived. ``rooms``: the frame only
#: means "stay out of" when a room follows ("skip the kitchen"; "skip the sofa" may mean not
#: stopping there).
_FRAMES: tuple[tuple[str, tuple[str, ...], bool], ...] = (
    *((f"steer {d}clear of", ("stay", "away", "from"), False)
      for d in ("", "well ", "very ", "way ", "totally ", "completely ")),
    ("stay out of the way of", ("stay", "away", "from"), False),
    *((f"{v} {a} of", ("stay", "away", "from"), False)
      for v in ("stay", "keep") for a in ("away", "far", "far away", "well away")),
    ("keep the robot away from", ("stay", "away", "from"), False),
    ("keep out of the way of", ("stay", "away", "from"), False),
    *((f"{v} as {d} as {c} {p}", canon, False)
      for v in ("stay", "keep") for c in ("you can", "possible", "you are able")
      for d, p, canon in (("close", "to", ("stay", "close", "to")),
                          ("near", "to", ("stay", "close", "to")),
                          ("far", "from", ("stay", "away", "from")),
                          ("far away", "from", ("stay", "away", "from")))),
    ("stay out of", ("avoid",), False),
    ("keep out of", ("avoid",), False),
    ("keep off", ("avoid",), False),
    ("stay off", ("avoid",), False),
    ("skip", ("avoid",), True),
    ("bypass", ("avoid",), True),
    ("hug", ("stay", "close", "to"), False),
    ("stick to", ("stay", "close", "to"), False),
    ("follow the wall", ("stay", "close", "to", "the", "wall"), False),
    ("follow the walls", ("stay", "close", "to", "the", "wall"), False),
)
_GERUND_CANON = {"stay": "staying", "avoid": "avoiding"}
#: Base forms the parser reads already ("stay out of the kitchen", "Hug the wall"): only their
#: ``-ing`` forms are rewritten, the base forms are left as they are.
_BASE_READ = frozenset({("stay", "out", "of"), ("keep", "out", "of"), ("hug",), ("stick", "to"),
                        ("follow", "the", "wall"), ("follow", "the", "walls")})


def _frames() -> dict[tuple[str, ...], tuple[tuple[str, ...], bool]]:
    out: dict[tuple[str, ...], tuple[tuple[str, ...], bool]] = {}
    for phrase, canon, rooms in _FRAMES:
        words = tuple(phrase.split())
        if words not in _BASE_READ:
            out[words] = (canon, rooms)
        ing = (_GERUND_CANON.get(canon[0], canon[0]), *canon[1:])
        out[(gerund(words[0]), *words[1:])] = (ing, rooms)
    return out


_FRAME_TABLE = _frames()
#: Verbs whose frame a gapped conjunct continues ("staying close to the wall *and away from*
#: the bed").
_STAY_VERBS = frozenset({"stay", "staying", "keep", "keeping", "stick", "sticking"})
_GAPPED = _s("away from", "clear of", "close to", "far from", "well away from", "near")


# --- helpers -------------------------------------------------------------------------------
def _longest(rw: Rewriter, k: int, table: dict[tuple[str, ...], object]) -> int:
    """Length of the longest key of ``table`` at token ``k`` (0 if none)."""
    best = 0
    for n in range(1, min(9, len(rw.words) - k + 1)):
        if tuple(rw.words[k:k + n]) in table:
            best = n
    return best


def _span_tok(rw: Rewriter, a: int, b: int, text: str) -> Token:
    return Token(text, rw.toks[a].start, rw.toks[b - 1].end)


def _emit(rw: Rewriter, a: int, b: int, canon: tuple[str, ...]) -> None:
    """Emit ``canon`` for the tokens ``a:b`` and record what was said."""
    rw.out.extend(_span_tok(rw, a, b, t) for t in canon)
    said = " ".join(rw.words[a:b])
    read = " ".join(canon)
    if said != read:
        rw.marks.said_as.append({"text": said, "as": read})


def _room_follows(rw: Rewriter, k: int) -> bool:
    k += rw.w(k) in ("the", "a", "any", "that", "this")
    hit = head_lexicon().match(rw.words[k:k + head_lexicon().max_len])
    return hit is not None and hit[2] == "room"


def _after_thing(rw: Rewriter) -> bool:
    """Whether the words read so far end with a thing's name ("go to the fridge"), so that a
    negated request said next with no comma starts a new clause."""
    words = [t.text for t in rw.out[-head_lexicon().max_len:]]
    lex = head_lexicon()
    return any((hit := lex.match(words[-k:])) is not None and hit[0] == k
               for k in range(1, len(words) + 1))


# --- polite requests (read before the discourse moves) ----------------------------------
#: "I'd appreciate it if you stayed away from the window", "it would be great if you could
#: avoid the kitchen": a request said as a wish. Read before the discourse moves, which would
#: otherwise take the sentence for the speaker's own plan or chatter.
_WISH_LEADS = _s(*(f"{s} {v} {o}if you" for s in ("i would", "we would", "it would")
                   for v in ("appreciate", "prefer", "like", "love", "be great", "be nice",
                             "be good", "be best", "be better", "be ideal", "be helpful",
                             "help", "be awesome", "be perfect")
                   for o in ("it ", "")))
_WISH_MODALS = frozenset({"could", "would", "can", "will", "just"})
#: Past forms a wish puts its verb in ("if you stayed away"), read as the request's verb.
_PAST = {"stayed": ("stay",), "kept": ("keep",), "avoided": ("avoid",), "steered": ("steer",),
         "gave": ("give",), "hugged": ("hug",), "stuck": ("stick",), "didn't": ("do", "not"),
         "did": ("do",), "never": ("never",)}
_WISH_VERBS = frozenset({"stay", "keep", "avoid", "steer", "give", "hug", "stick", "do",
                         "never"})


def polite_requests(toks: list[Token]) -> tuple[list[Token], list[dict[str, str]]]:
    """The tokens with each wish-shaped request ("I would appreciate it if you stayed away
    from X") read as the request ("stay away from X"), and what was read so."""
    words = [t.text for t in toks]
    out: list[Token] = []
    said: list[dict[str, str]] = []
    k = 0
    while k < len(toks):
        n = max((len(p) for p in _WISH_LEADS if tuple(words[k:k + len(p)]) == p), default=0)
        q = k + n
        while n and q < len(words) and words[q] in _WISH_MODALS:
            q += 1
        verb = _PAST.get(words[q], (words[q],)) if n and q < len(words) else ()
        if not n or not verb or verb[0] not in _WISH_VERBS:
            out.append(toks[k])
            k += 1
            continue
        out.extend(Token(v, toks[k].start, toks[q].end) for v in verb)
        said.append({"text": " ".join(words[k:q + 1]), "as": " ".join(verb)})
        k = q + 1
    return out, said


# --- rules ---------------------------------------------------------------------------------
def negated_frame(rw: Rewriter, i: int) -> int | None:
    """"try not to go near X", "be careful not to bump into X", "no entering the kitchen",
    "without getting close to X", "refrain from approaching X", "..., and not between A and
    B": a negator of the tables, then a predicate of the tables -> "do not <predicate>"."""
    e = _longest(rw, i, dict.fromkeys(_EMPHASIS))
    if e and (_longest(rw, i + e, dict.fromkeys(_NEG_BASE)) or
              _longest(rw, i + e, dict.fromkeys(_NEG_GERUND))):
        rw.marks.said_as.append({"text": " ".join(rw.words[i:i + e]), "as": ""})
        return i + e  # said for weight: the request after it is read as said
    n = _longest(rw, i, dict.fromkeys(_NEG_BASE))
    g = _longest(rw, i, dict.fromkeys(_NEG_GERUND))
    # after a bare comma only "not too ...": "the chair, not near the bed" may pick a chair;
    # a sentence of its own ("Not near the window.") is a terse request
    bare = rw.w(i) == "not" and (not rw.out or rw.out[-1].text in (*_ENDS, ":") or
                                 rw.out[-1].text in _NOT_AFTER and
                                 (rw.out[-1].text != "," or rw.w(i + 1) == "too"))
    for neg, preds in ((n, _PRED_BASE), (g, _PRED_ING), (1 if bare else 0, _PRED_BASE),
                       (1 if bare else 0, _BARE_PRED)):
        if not neg:
            continue
        m = _longest(rw, i + neg, preds)  # type: ignore[arg-type]
        if not m:
            continue
        canon = preds[tuple(rw.words[i + neg:i + neg + m])]
        lead: tuple[str, ...] = ()
        if rw.w(i) in ("without", "not", "no") and rw.out and rw.out[-1].text not in (
                "and", "but", ".", "!", "?", ";", ":"):
            lead = ("and",)  # "go to the bed without touching X": a second request
        elif _after_thing(rw):
            lead = ("and",)  # "go to the fridge dont go near the stool": a run-on request
        if rw.words[i:i + neg] in (["do", "not"], ["never"]) and \
                tuple(rw.words[i + neg:i + neg + m]) == canon:
            if lead:
                rw.out.append(_span_tok(rw, i, i + 1, "and"))
                return i  # already the phrasing the parser reads, once joined by "and"
            return None
        said = tuple(rw.words[i + neg:i + neg + m])
        if canon == ("pass", "between") and " ".join(rw.words[i:i + neg]) in _OLD_GAP_NEG and \
                said[1:] in (("between",), ("in", "between")):
            return None  # "don't walk (in) between": :func:`.rewrites.dont_pass_between`
        if canon == ("pass", "between"):
            # the gap is read by "avoid the area between A and B"; "between" stays as said
            _emit(rw, i, i + neg + m - 1, (*lead, "avoid", "the", "area"))
            return i + neg + m - 1
        _emit(rw, i, i + neg + m, (*lead, "do", "not", *canon))
        return i + neg + m
    return None


def verb_frame(rw: Rewriter, i: int) -> int | None:
    """"steer clear of X", "hugging the counter", "keeping out of the kitchen", "skip the
    living room", "keep off the bed" -> the phrasing of the same meaning the parser reads."""
    n = _longest(rw, i, _FRAME_TABLE)  # type: ignore[arg-type]
    if not n:
        return None
    canon, rooms = _FRAME_TABLE[tuple(rw.words[i:i + n])]
    if rooms and not _room_follows(rw, i + n):
        return None
    _emit(rw, i, i + n, canon)
    return i + n


#: Positive wrappers before a constraint verb ("make sure to avoid", "be sure to stay away
#: from", "remember to hug the wall"): emphasis, read as the verb itself; the ``-ing``
#: wrappers ("making sure to avoid") give the verb its ``-ing`` form.
_WRAP_BASE = _s("make sure to", "make sure you", "make sure that you", "be sure to",
                "remember to", "try to", "please try to", "be careful to", "take care to",
                "please make sure to", "please remember to", "do try to")
_WRAP_ING = _s("making sure to", "making sure you", "being sure to", "being careful to",
               "taking care to", "trying to")
_CONSTRAINT_VERBS = frozenset({"avoid", "stay", "keep", "steer", "hug", "stick", "bypass",
                               "skip"})


def positive_wrapper(rw: Rewriter, i: int) -> int | None:
    """"make sure to avoid the bedroom", "making sure to stay away from X": the wrapper says
    how much it matters, never where; the verb after it is read as said."""
    for table, ing in ((_WRAP_BASE, False), (_WRAP_ING, True)):
        n = _longest(rw, i, dict.fromkeys(table))
        if n and rw.w(i + n) in _CONSTRAINT_VERBS:
            verb = rw.w(i + n)
            _emit(rw, i, i + n + 1, (gerund(verb) if ing else verb,))
            return i + n + 1
    return None


#: Who or what a reason said after a constraint is about ("- it's wet", ", someone is
#: watching TV", ", as it was just cleaned", "the dog is asleep").
_REASON_SUBJECTS = frozenset({"it", "someone", "somebody", "people", "they", "he", "she",
                              "everyone", "everything", "things"})
_REASON_DETS = frozenset({"the", "my", "our", "his", "her", "their", "its"})
_COPULAS = frozenset({"is", "are", "was", "were", "'s", "gets", "got", "has", "have", "had",
                      "might", "may", "could", "will", "can", "tends", "tend", "keeps"})
#: Words that make the tail a description or a place of the route, not a reason.
_NOT_REASON = frozenset({"the", "one", "a", "an", "where", "which", "that", "in", "on", "at",
                         "by", "near", "next", "beside", "behind", "under", "inside", "to",
                         "from", "go", "walk", "then", "stop", "left", "right", "between",
                         "through", "past", "there", "here", "room", "you", "your", ","})
#: Words of a keep-away or stay-out request that a reason may follow.
_KEEP_WORDS = frozenset({"avoid", "avoiding", "away", "clear", "not", "never", "off", "out", "far",
                         "berth", "distance", "area", "near", "close"})
_ENDS = frozenset({".", "!", "?", ";"})


def _own_verb(rw: Rewriter, subj: int, k: int) -> bool:
    """Whether ``words[k]`` is a verb the subject at ``subj`` does ("bites", "wobble"): an
    ``-s`` form after a singular subject, a bare form after "they"/"people", and neither a
    route word, a keep-away word nor a thing's name."""
    w = rw.w(k)
    if not w.isalpha() or w in _NOT_REASON | _KEEP_WORDS | W.MOVE_VERBS or \
            head_lexicon().match([w]) is not None:
        return False
    plural = rw.words[subj] in ("they", "people", "things")
    return plural or (w.endswith("s") and not w.endswith("ss"))


def reason_tail(rw: Rewriter, i: int) -> int | None:
    """"keep away from the garbage can - it's smelly", "stay out of the living room, someone
    is watching TV", "stay clear of the toilet, as it was just cleaned": a state said after a
    keep-away request says why, never where: it is context (reported, not a stage)."""
    k = i + (rw.w(i) == ",")
    k += rw.w(k) == "as"
    if k == i or rw.w(i) not in (",", "as"):
        if not _after_thing(rw):
            return None  # with no comma, only right after the thing kept away from
    subj = k
    if rw.w(k) in _REASON_DETS:
        k += 1
        while k < subj + 3 and rw.w(k) and rw.w(k) not in _COPULAS | _NOT_REASON:
            k += 1
    elif rw.w(k) in _REASON_SUBJECTS or rw.w(k) == "there" and rw.w(k + 1) in ("is", "are"):
        k += 1
    else:
        return None
    if k == subj:
        return None
    end = next((q for q in range(k, len(rw.words)) if rw.words[q] in _ENDS), len(rw.words))
    if rw.w(k) not in _COPULAS:
        # "the dog bites", "they wobble": a present-tense verb of the subject's own, with
        # nothing of a route after it (after "the", a one-word noun)
        k = subj + 2 if rw.words[subj] in _REASON_DETS else k
        if not _own_verb(rw, subj, k) or end > k + 4:
            return None
        k -= 1  # the verb is read as the tail, after a copula there is none
    # "the cat is sleeping under it": a place said by pronoun is the thing's own
    tail = [w for q, w in enumerate(rw.words[k + 1:end], k + 1)
            if not (w in _NOT_REASON and rw.w(q + 1) in ("it", "them", "there")) and
            not (w in ("it", "them", "there") and q > k + 1 and rw.w(q - 1) in _NOT_REASON)
            and not (w in ("there", "here") and q == end - 1 and q > k + 1)]  # "eating there"
    if rw.w(subj + 1) in ("floor", "ground", "carpet", "rug") and tail[-2:] in (
            ["in", "middle"], ["the", "middle"], ["in", "centre"], ["the", "centre"]):
        tail = tail[:-3 if tail[-3:-2] == ["in"] else -2]  # "the floor is wet in (the) middle"
    if rw.w(subj) == "there" and tail and tail[0] in ("a", "an", "some"):
        tail = tail[1:]  # "there is a hot pan on it": what is there, not a place of the route
    said = []
    for t in reversed(rw.out):
        if t.text in _ENDS:
            break
        said.append(t.text)
    if not tail or set(tail) & _NOT_REASON or not set(said) & _KEEP_WORDS:
        return None
    rw.context.append((" ".join(rw.words[subj:end]), (rw.toks[subj].start, rw.toks[end - 1].end)))
    return end


#: Walking by the wall all the way to a place ("follow the wall to the dresser", "keep
#: hugging the wall until you reach the bed"): a stay-near constraint on the leg to it. (A
#: wall-follow of a room, "follow the walls of the kitchen", has no "to" and is left as is.)
_ALONG_WALL = _s("follow", "hug", "stick to", "keep to", "walk along", "go along", "stay along",
                 "keep along", "move along", "head along", "keep following", "keep hugging",
                 "keep walking along", "stay by", "keep by", "stay next to", "keep next to")
_WALL = _s("the wall", "the walls", "a wall", "the side wall", "the wall side")
_UNTIL = _s("to", "until you reach", "until you get to", "till you reach", "till you get to",
            "all the way to", "up to", "until you are at", "until you arrive at", "toward",
            "towards")


def wall_to(rw: Rewriter, i: int) -> int | None:
    """"follow the wall to the dresser" -> "stay close to the wall on your way to the dresser"
    (a wall kept near on the way, and the dresser a goal)."""
    n = _longest(rw, i, dict.fromkeys(_ALONG_WALL))
    m = _longest(rw, i + n, dict.fromkeys(_WALL)) if n else 0
    if n and not m and rw.words[i:i + n] != ["follow"]:
        # "walk along the counter to the fridge": any thing walked by, not only a wall
        stop = next((q for q in range(i + n + 1, min(len(rw.words), i + n + 7))
                     if _longest(rw, q, dict.fromkeys(_UNTIL))), 0)
        m = stop - (i + n) if stop and _thing(rw, i + n, stop) == stop else 0
    u = _longest(rw, i + n + m, dict.fromkeys(_UNTIL)) if m else 0
    if not u:
        return None
    _emit(rw, i, i + n, ("stay", "close", "to"))
    rw.out.extend(rw.toks[i + n:i + n + m])
    _emit(rw, i + n + m, i + n + m + u, ("on", "your", "way", "to"))
    return i + n + m + u


#: Words that open a constraint request (after a whole-route scope said with no comma).
_REQUEST_OPENERS = frozenset({"avoid", "stay", "keep", "steer", "do", "never", "hug", "stick",
                              "give", "try", "be", "make", "please", "dont"})


def scope_comma(rw: Rewriter, i: int) -> int | None:
    """"..., and for the whole trip stay out of the kitchen": a whole-route scope said inside
    a sentence, then the request with no comma; the comma is put in, as the scope reader
    expects "for the whole trip, stay ..."."""
    if not rw.out or rw.out[-1].text not in ("and", "but", ",", "also"):
        return None
    n = _longest(rw, i, dict.fromkeys(W.WHOLE))
    if not n or rw.w(i + n) not in _REQUEST_OPENERS:
        return None
    rw.out.extend(rw.toks[i:i + n])
    rw.out.append(Token(",", rw.toks[i + n - 1].end, rw.toks[i + n - 1].end))
    return i + n


#: How much room: "a wide berth", "lots of room", "plenty of space", "some room", "room".
_AMOUNT = ("", "a wide ", "a big ", "a good ", "wide ", "lots of ", "plenty of ", "some ",
           "more ", "extra ", "enough ", "a lot of ", "a bit of ", "a little ", "a little bit of ",
           "loads of ", "a fair bit of ", "a decent amount of ", "a safe ")
_ROOM = _s(*(f"{a}{n}" for a in _AMOUNT for n in ("berth", "room", "space", "clearance",
                                                  "distance")))
_ROOM_PREPS = frozenset({"around", "from", "to", "for", "near", "round", "between"})
#: "give the dog bed at least half a metre": a distance given to a thing is kept from it
_DISTANCE_LEADS = _s("at least", "a good", "about", "around", "roughly", "a full", "at least a",
                     "at least a good", "a clear")
_DISTANCE_AMOUNTS = _s("half a", "a", "one", "two", "three", "a couple of", "a few")
_DISTANCE_UNITS = frozenset({"metre", "metres", "meter", "meters", "m", "cm", "centimetres",
                             "centimeters", "foot", "feet", "ft", "yard", "yards", "mm"})


def _distance(rw: Rewriter, k: int) -> int:
    """Length of a distance at ``k`` ("at least half a metre", "40 cm", "a good metre"), or 0."""
    j = k + _longest(rw, k, dict.fromkeys(_DISTANCE_LEADS))
    if rw.w(j).replace(".", "", 1).isdigit():
        j += 1
    elif rw.w(j - 1) != "a" or rw.w(j) in _DISTANCE_UNITS:
        j += _longest(rw, j, dict.fromkeys(_DISTANCE_AMOUNTS))
    return j + 1 - k if j > k and rw.w(j) in _DISTANCE_UNITS else 0


def _thing(rw: Rewriter, k: int, stop: int) -> int:
    """Where a noun phrase that starts at ``k`` and names a thing ends (0 if ``words[k:stop]``
    holds none): a determiner, then words up to the last head."""
    lex, end = head_lexicon(), 0
    q = k
    while q < stop:
        hit = lex.match(rw.words[q:min(stop, q + lex.max_len)])
        if hit is not None:
            q += hit[0]
            end = q
            continue
        q += 1
    return end


_EVERYTHING = frozenset(w for p in W.CLEARANCE_OBJECTS for w in p) - {"the"}


def _clearance_np(rw: Rewriter, a: int, b: int) -> bool:
    """Whether ``words[a:b]`` names walls or furniture at large ("the walls", "obstacles"):
    room from those is the clearance :mod:`.constraints` reads, left as said."""
    return bool(set(rw.words[a:b]) & _EVERYTHING)


def give_room(rw: Rewriter, i: int) -> int | None:
    """"giving the plunger plenty of space", "give the lamp room" -> "staying away from the
    plunger": room given to a thing is distance kept from it (the reading the parser gives
    "give the chair lots of room"). "keep a wide berth around the stools", "leave plenty of
    room around the plant": the same, said with the room first."""
    v = rw.w(i)
    if v in ("give", "giving"):
        for stop in range(i + 2, min(len(rw.words), i + 9)):
            n = _longest(rw, stop, dict.fromkeys(_ROOM)) or _distance(rw, stop)
            if n and _thing(rw, i + 1, stop) == stop and rw.w(stop + n) not in _ROOM_PREPS \
                    and not _clearance_np(rw, i + 1, stop):
                canon = ("staying",) if v == "giving" else ("stay",)
                _emit(rw, i, i + 1, (*canon, "away", "from"))
                rw.out.extend(rw.toks[i + 1:stop])
                rw.marks.said_as.append({"text": " ".join(rw.words[stop:stop + n]),
                                         "as": "away from"})
                return stop + n
        return None
    if v not in ("keep", "leave", "allow", "keeping", "leaving", "allowing", "maintain",
                 "maintaining"):
        return None
    n = _longest(rw, i + 1, dict.fromkeys(_ROOM))
    if not n or rw.w(i + 1 + n) not in _ROOM_PREPS:
        return None
    end = _thing(rw, i + 2 + n, min(len(rw.words), i + 2 + n + 6))
    if not end or _clearance_np(rw, i + 2 + n, end):
        return None
    canon = ("staying",) if v.endswith("ing") else ("stay",)
    _emit(rw, i, i + 2 + n, (*canon, "away", "from"))
    return i + 2 + n


#: "be careful with the lamp", "mind the vase", "watch out for the stool" said after "and":
#: a caution about a thing, which the parser reads as keeping away from it.
_CAREFUL = _s("be careful with", "be careful around", "be careful of", "be careful near",
              "careful around", "careful near", "mind", "watch out for", "look out for",
              "be mindful of", "being careful with", "being careful around")


def careful_with(rw: Rewriter, i: int) -> int | None:
    """"... and be careful with the floor lamp" -> "... and stay away from the floor lamp"
    (a caution opening its own sentence is read by :mod:`.moves`)."""
    if not rw.out or rw.out[-1].text not in ("and", "but", ",", "also", "just", "please"):
        return None
    n = _longest(rw, i, dict.fromkeys(_CAREFUL))
    if not n:
        return None
    k = i + n + (rw.w(i + n) in ("the", "that", "this", "those", "these", "any", "a"))
    hit = head_lexicon().match(rw.words[k:k + head_lexicon().max_len])
    if hit is None or hit[2] == "room":
        return None
    canon = ("staying",) if rw.w(i) == "being" else ("stay",)
    _emit(rw, i, i + n, (*canon, "away", "from"))
    return i + n


def both_of(rw: Rewriter, i: int) -> int | None:
    """"stay away from both the sofa and the table": "both" says the coordination is meant
    whole, which the two constraints already are."""
    if rw.w(i) != "both" or not rw.out or rw.out[-1].text not in ("from", "avoid", "avoiding",
                                                                    "of", "near", "to"):
        return None
    if "and" not in rw.words[i + 2:i + 9]:
        return None
    rw.marks.said_as.append({"text": "both", "as": "and"})
    return i + 1


#: "as you pass" after a keep-away with nothing after it: when the thing is met, which is
#: when a keep-away applies anyway (not "the start", which "you" would otherwise be read as).
_AS_YOU_PASS = _s(*(f"{c} {v}{o}" for c in ("as", "when", "while")
                    for v in ("you pass", "you go past", "you walk past", "you go by",
                              "you walk by", "you pass by", "passing", "you get there",
                              "you are passing", "going past", "walking past", "passing by",
                              "you go through", "you walk through")
                    for o in ("", " it", " them", " by")))


def as_you_pass(rw: Rewriter, i: int) -> int | None:
    """"give the garbage can some space as you pass(, it smells)": the keep-away holds where
    the thing is passed; the words add no place."""
    n = _longest(rw, i, dict.fromkeys(_AS_YOU_PASS))
    if not n or (rw.w(i + n) and rw.w(i + n) not in (",", *_ENDS)):
        return None
    said = set()
    for t in reversed(rw.out):
        if t.text in _ENDS:
            break
        said.add(t.text)
    if not said & _KEEP_WORDS:
        return None
    rw.marks.said_as.append({"text": " ".join(rw.words[i:i + n]), "as": ""})
    return i + n


#: A thing said to be avoided, in the passive ("the TV should be avoided", "the kitchen is
#: off limits"): "avoid the TV".
_PASSIVE = _s(*(f"{m} be avoided" for m in ("should", "must", "has to", "have to", "is to",
                                            "are to", "needs to", "need to", "will")),
              "is off limits", "are off limits", "is off - limits", "are off - limits",
              "is out of bounds", "are out of bounds", "is off-limits", "are off-limits",
              "is to be avoided", "are to be avoided", "is forbidden", "are forbidden",
              "is not allowed", "is a no go", "is a no-go", "is a no - go")


def passive_avoid(rw: Rewriter, i: int) -> int | None:
    """"the kitchen must be avoided" -> "avoid the kitchen"."""
    if rw.w(i) not in ("the", "that", "this", "those", "these", "all", "any") or \
            (rw.out and rw.out[-1].text not in (*_ENDS, ",", ":", "and", "but", "also")):
        return None
    for stop in range(i + 2, min(len(rw.words), i + 8)):
        n = _longest(rw, stop, dict.fromkeys(_PASSIVE))
        if n and _thing(rw, i, stop) == stop:
            rw.out.append(_span_tok(rw, stop, stop + n, "avoid"))
            rw.out.extend(rw.toks[i:stop])
            rw.marks.said_as.append({"text": " ".join(rw.words[stop:stop + n]),
                                     "as": "avoid"})
            return stop + n
    return None


def go_around_room(rw: Rewriter, i: int) -> int | None:
    """"go around the kitchen, not through it" / "... instead of through it": a detour round a
    room, not a circle: "avoid the kitchen"."""
    if rw.w(i) not in ("go", "walk", "head", "move", "going", "walking") or \
            rw.w(i + 1) not in ("around", "round"):
        return None
    k = i + 2
    det = rw.w(k) in ("the", "that", "this")
    hit = head_lexicon().match(rw.words[k + det:k + det + head_lexicon().max_len])
    if hit is None or hit[2] != "room":
        return None
    end = k + det + hit[0]
    q = end + (rw.w(end) == ",")
    for tail in _s("not", "instead of", "rather than", "and not"):
        if tuple(rw.words[q:q + len(tail)]) != tail:
            continue
        r = q + len(tail)
        r += rw.w(r) in ("going", "walking", "cutting", "passing")
        if rw.w(r) in ("through", "into", "across") and rw.w(r + 1) in ("it", "there"):
            _emit(rw, i, i + 2, ("avoid",))
            rw.out.extend(rw.toks[k:end])
            rw.marks.said_as.append({"text": " ".join(rw.words[i:r + 2]), "as": "avoid"})
            return r + 2
    return None


def gapped_keep(rw: Rewriter, i: int) -> int | None:
    """"staying close to the wall and away from the bed": the second conjunct keeps the verb
    of the first (stay/keep/stick), so it is said again."""
    if rw.w(i) != "and":
        return None
    n = next((len(p) for p in _GAPPED if tuple(rw.words[i + 1:i + 1 + len(p)]) == p), 0)
    if not n:
        return None
    verb = ""
    for t in reversed(rw.out):
        if t.text in (",", ".", ";", "!", "?"):
            break
        if t.text in _STAY_VERBS:
            verb = t.text
    if not verb:
        return None
    rw.out.append(rw.toks[i])
    rw.out.append(Token(verb, rw.toks[i + 1].start, rw.toks[i + 1].end))
    return i + 1


#: The rules of this module, tried before the other rewrites.
RULES: tuple[Rule, ...] = (scope_comma, wall_to, negated_frame, positive_wrapper, verb_frame,
                           give_room, careful_with, both_of, as_you_pass, passive_avoid,
                           go_around_room, gapped_keep, reason_tail)
