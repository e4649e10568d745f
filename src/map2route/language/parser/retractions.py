"""Self-corrections said with the speaker's own leads, negated alternatives ("not the one
...") and restatements that only say what the thing is not.

Read on the tokens as typed, first of the discourse passes of :func:`.human.human_forms`:

* a run of correction leads that takes back what was just said, in any of the ways people
  say it ("No, hang on, I've got that backwards, I mean ...", "Oh, no, I tell a lie, ...",
  "my mistake, I meant ...", "correction: ...", "nah ...", "No, sorry, scratch that - ...",
  "actually no, simpler: ...") -> "no wait ,", the one lead the later passes read (the thing
  after it takes the place of the one before); a goal verb right after the leads ("No wait,
  go to the fridge") goes, the new place being said as the corrected phrase;
* a constraint taken back by another ("keep away from the table - actually no, keep away
  from the chairs"): the first constraint and the leads are context; the second is read;
* a negated alternative after a description ("the toilet in the bathroom off the bedroom,
  not the one off the living room", "the plant on the floor not the one on the table", "(the
  big bathroom, not the little one)", "not any of the others", "not one of the four round the
  table"), with the "the other one" / "the other side" that may follow it: the positive
  description already picks the thing, so the alternative is a confirmation, reported as
  context (the places it names stay in the parse's context references), never dropped;
* a restatement that only says how, not where ("go to the sofa. not ON it, just next to
  it", "Not the desk itself, just the room", "well, not the whole bathroom, I mean the
  sink", ", the odd one out,"): context, or the correction it opens.

Hand-written (no model), like the rest of the package: each rule is a token pattern that
keeps character spans, and only words that say nothing of where to go are moved to context.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.contrast_repairs import CONTRAST_ADJ, contrast_pairs, emphatic_tails
from map2route.language.parser.cut_offs import cut_off_requests
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

Context = list[tuple[str, tuple[int, int]]]

_ENDS = (".", "!", "?")
_OPEN = (*_ENDS, ",", ";", ":", "(", ")")
#: Leads that take back what was said (one of them makes a run a correction).
_TAKE_BACK: tuple[tuple[str, ...], ...] = (
    ("no",), ("nope",), ("nah",), ("correction",), ("scratch", "that"), ("strike", "that"),
    ("i", "tell", "a", "lie"), ("my", "mistake"), ("my", "bad"), ("my", "error"),
    ("i", "have", "got", "that", "backwards"), ("i", "got", "that", "backwards"),
    ("i", "have", "got", "that", "wrong"), ("i", "got", "that", "wrong"),
    ("i", "had", "that", "wrong"), ("i", "have", "that", "wrong"), ("that", "is", "wrong"),
    ("i", "said", "that", "wrong"), ("i", "was", "wrong"), ("forget", "that"),
    ("cancel", "that"), ("ignore", "that"), ("on", "second", "thought"),
    ("on", "second", "thoughts"), ("on", "reflection"), ("wrong", "room"), ("wrong", "one"))
#: Words that may stand in a run of leads without making it a correction.
_SOFT: tuple[tuple[str, ...], ...] = (
    ("wait",), ("sorry",), ("actually",), ("hang", "on"), ("hold", "on"), ("oh",), ("ah",),
    ("oops",), ("hmm",), ("er",), ("err",), ("erm",), ("um",), ("uh",), ("well",), ("ok",),
    ("okay",),
    ("to", "clarify"), ("to", "be", "clear"), ("just", "to", "be", "clear"), ("to", "be", "exact"),
    ("to", "be", "precise"), ("let", "me", "rephrase"), ("last", "bit"), ("simpler",), ("even", "simpler"), ("better",), (",",), (":",), (";",))
#: What may close a run before the new phrase ("I mean the ...", "make that the ...").
_CLOSERS: tuple[tuple[str, ...], ...] = (
    ("i", "mean"), ("i", "meant"), ("make", "that"), ("make", "it"), ("it", "should", "be"),
    ("it", "is"), ("rather",))
_GOAL_VERBS: tuple[tuple[str, ...], ...] = (
    ("go", "to"), ("head", "to"), ("go", "over", "to"), ("walk", "to"), ("move", "to"),
    ("go", "and", "stand", "by"), ("go", "stand", "by"), ("get", "to"), ("go", "into"),
    ("navigate", "to"), ("proceed", "to"), ("head", "for"), ("head", "over", "to"),
    ("walk", "over", "to"))
_DETS = ("the", "a", "an", "that")
_ONE_ADJS = frozenset(W.SIZE_ADJ) | frozenset(W.COMPARATIVE) | W.RANK_WORDS | W.FILLER_ADJ | \
    frozenset({"other", "left", "right", "main"})
#: Words that open a constraint clause ("keep away from", "don't go through").
_CONSTRAINT_OPENERS = frozenset({"keep", "stay", "avoid", "give", "steer", "leave", "mind"})
_NEGATORS = (("do", "not"), ("never",), ("dont",))


def _at(words: list[str], k: int, seqs: tuple[tuple[str, ...], ...]) -> int:
    return max((len(s) for s in seqs if tuple(words[k:k + len(s)]) == s), default=0)


def _note(notes: Context, toks: list[Token]) -> None:
    toks = [t for t in toks if t.text not in (",", ";", ":", "(", ")", *_ENDS)]
    if toks:
        notes.append((" ".join(t.text for t in toks), (toks[0].start, toks[-1].end)))


def _has_head(words: list[str]) -> bool:
    lex = head_lexicon()
    return any((hit := lex.match(words[k:k + lex.max_len])) is not None and hit[2] != "pronoun"
               for k in range(len(words)))


def _constraint_at(words: list[str], k: int) -> bool:
    return words[k:k + 1] and words[k] in _CONSTRAINT_OPENERS or bool(_at(words, k, _NEGATORS))


def retractions(toks: list[Token]) -> tuple[list[Token], Context]:
    """Read the corrections, negated alternatives and restatements of ``toks`` (see the
    module docstring); returns the tokens left and the words moved to context."""
    notes: Context = []
    toks = cut_off_requests(toks, notes)  # "go to X and get the- no wait, scratch that, go ..."
    toks = emphatic_tails(contrast_pairs(toks, notes, _known), notes)  # "not X, the Y"
    toks = _said_again(_restatements(toks, notes), notes)
    toks = _alternatives(toks, notes)
    toks = _leads(toks, notes)
    return _terse(toks, notes), notes


# --- runs of correction leads ----------------------------------------------------------------
def _run(words: list[str], i: int, inner: bool) -> tuple[int, bool]:
    """The end of a run of leads from ``i`` and whether it takes anything back (``inner``:
    the run follows a comma, where "not the whole X, I mean ..." may open it; a sentence
    "Not X, I meant Y." is read by the discourse stage)."""
    k, back = i, False
    while k < len(words):
        n = _at(words, k, _TAKE_BACK)
        if n:
            back = True
            k += n
            if n > 1 and words[k:k + 1] == ["."] and k + 1 < len(words):
                k += 1  # "Strike that. Go to the fridge."
            continue
        n = _at(words, k, _SOFT) or (_rejection(words, k) if inner or k > i else 0)
        if not n:
            break
        back = back or words[k] == "not"
        k += n
    return k, back


def _rejection(words: list[str], k: int) -> int:
    """"not the whole bathroom ," / "not the bathroom itself ," before "I mean ...": the
    rejection a correction opens with (its length, or 0)."""
    if words[k:k + 1] != ["not"]:
        return 0
    comma = next((q for q in range(k + 1, min(k + 8, len(words))) if words[q] == ","), None)
    if comma is None or words[comma + 1:comma + 3] not in (["i", "mean"], ["i", "meant"],
                                                           ["the", "one"], ["the", "other"]):
        return 0
    body = words[k + 1:comma]
    if set(body) & (_CLAUSE_WORDS | W.MOVE_VERBS) or not _has_head(body):
        return 0
    if words[comma + 1] == "the" and {"one", "ones"} & set(body):
        return 0  # "not the one with the hamper, the other one": an exclusion read later
    return comma + 1 - k


def _leads(toks: list[Token], notes: Context) -> list[Token]:
    words = [t.text for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(toks):
        opens = i == 0 or words[i - 1] in _OPEN
        if not opens or words[i] in (",", ":", ";"):
            out.append(toks[i])
            i += 1
            continue
        k, back = _run(words, i, words[i - 1] == ",")
        lead = [w for w in words[i:k] if w not in (",", ":", ";")]
        plain = lead in (["no"], ["no", "wait"], ["wait", "no"], ["no", "sorry"],
                         ["sorry", "no"], ["actually", "no"], ["no", "actually"])
        back = back or bool(k > i and _at(words, k, _CLOSERS[:2]))  # "sorry, I mean the bin"
        if not back or i == 0:
            out.append(toks[i])
            i += 1
            continue
        close = k + _at(words, k, _CLOSERS)
        close += 1 if words[close:close + 1] == ["just"] else 0  # "scratch that, just ..."
        verb = _at(words, close, _GOAL_VERBS)
        new = close + verb if verb and words[close + verb:close + verb + 1] and \
            words[close + verb] in _DETS else close
        end = next((q for q in range(new, len(words)) if words[q] in _ENDS), len(words))
        if words[new:new + 1] and words[new] in _DETS and _room_fixed(
                out, toks[new:end], _rejected(words, i, k), notes):
            # "the bed in the bedroom with X. Actually, no, the other bedroom": the room
            _note(notes, toks[i:new])
            i = end + (1 if end < len(words) and out and out[-1].text in _ENDS else 0)
            continue
        if plain and not _at(words, k, _CLOSERS) and not _constraint_at(words, k) and \
                _old_constraint(out) is None:
            out.append(toks[i])  # "no wait, the sofa": read by the later passes as it is
            i += 1
            continue
        old = _old_constraint(out)
        if old is not None and words[new:new + 1] and words[new] in _DETS:
            # "give the cart a wide berth, actually no, make that the telly(, give ...)"
            q = _np_end(words, new, end)
            if q is not None and _object_fixed(out, old, toks[new:q], notes):
                _note(notes, toks[i:new])
                i = q
                if words[i:i + 1] == [","] and _constraint_at(words, i + 1):
                    r = next((x for x in range(i + 1, len(words)) if words[x] in
                              (*_ENDS, ",", ";")), len(words))
                    _note(notes, toks[i + 1:r])  # the same constraint said again
                    i = r
                continue
        if words[new:new + 1] and words[new] in _DETS and (
                _has_head(words[new:end] + ["x"]) or _one_at(words, new) is not None):
            _note(notes, toks[i:new])
            out += [Token(w, toks[i].start, toks[k - 1].end) for w in ("no", "wait", ",")]
            one = _one_at(words, new)
            if one is not None and words[one + 1:one + 2] == [","] and \
                    words[one + 2:one + 3] and words[one + 2] in _PREPS - {"to", "up"}:
                # "the other one, in the bathroom you get to ...": said of that one
                out += toks[new:one + 1]
                i = one + 2
                continue
            i = new
            continue
        if _constraint_at(words, close):
            old = _old_constraint(out)
            if old is not None:
                _note(notes, out[old:])
                _note(notes, toks[i:close])
                del out[old:]
                i = close
                continue
        out.append(toks[i])
        i += 1
    return out


def _rejected(words: list[str], i: int, k: int) -> str:
    """The head a run of leads rejects ("No, not that bedroom, ..."), or ""."""
    lex = head_lexicon()
    for q in range(i, k):
        if words[q] == "not":
            for x in range(q + 1, k):
                hit = lex.match(words[x:x + lex.max_len])
                if hit is not None and hit[2] != "pronoun":
                    return str(hit[1])
    return ""


def _room_fixed(out: list[Token], new: list[Token], rejected: str, notes: Context) -> bool:
    """"Go to the bed in the bedroom with the teddy. Actually, no, the other bedroom, the one
    with the safe." -> "Go to the bed in the other bedroom, the one with the safe.": a new
    room (or "the one" after "not that bedroom") takes the place of the room the goal thing
    was said to be in, not of the thing."""
    lex = head_lexicon()
    words = [t.text for t in new]
    if words[:2] == ["the", "one"] and rejected:
        new = [new[0], *[Token(w, new[1].start, new[1].end) for w in rejected.split("_")],
               *new[2:]]
        words = [t.text for t in new]
    room = next((h for k in range(min(len(words), 4))
                 if (h := lex.match(words[k:k + lex.max_len])) is not None), None)
    if room is None or room[2] != "room":
        return False
    texts = [t.text for t in out]
    b = len(texts)
    while b > 0 and texts[b - 1] in (",", *_ENDS):
        b -= 1
    s = b
    while s > 0 and texts[s - 1] not in _ENDS:
        s -= 1
    thing = next((k for k in range(s, b) if (h := lex.match(texts[k:k + lex.max_len]))
                  is not None and h[2] not in ("room", "pronoun")), None)
    if thing is None:
        return False
    for k in range(thing + 1, b - 1):
        if texts[k] != "in" or texts[k + 1] not in ("the", "that", "a"):
            continue
        r = k + 2
        while r < b and texts[r] in _ONE_ADJS:
            r += 1
        hit = lex.match(texts[r:r + lex.max_len])
        if hit is None or hit[1] != room[1]:
            return False
        stop = next((q for q in range(r, b) if texts[q] in (",", ";", "and", "then")), b)
        _note(notes, out[k + 1:stop])
        out[k + 1:stop] = new
        return True
    return False


def _one_at(words: list[str], a: int) -> int | None:
    """Where "one" stands in "the (other|bigger|...) one" at ``a``, else None."""
    k = a + 1
    while k < len(words) and k < a + 3 and (words[k] in _ONE_ADJS):
        k += 1
    return k if words[k:k + 1] in (["one"], ["ones"]) else None


def _np_end(words: list[str], a: int, end: int) -> int | None:
    """Where the noun phrase "the HEAD" at ``a`` ends, when a clause boundary follows it."""
    lex = head_lexicon()
    k = a + 1
    while k < end and words[k] in W.FILLER_ADJ | set(W.SIZE_ADJ):
        k += 1
    hit = lex.match(words[k:k + lex.max_len])
    if hit is None or hit[2] == "pronoun":
        return None
    q = k + hit[0]
    return q if q >= len(words) or words[q] in (*_ENDS, ",", ";") else None


def _object_fixed(out: list[Token], old: int, new: list[Token], notes: Context) -> bool:
    """Put ``new`` in the place of the first thing the constraint at ``old`` names."""
    words = [t.text for t in out]
    lex = head_lexicon()
    for k in range(old + 1, len(words)):
        hit = lex.match(words[k:k + lex.max_len])
        if hit is None or hit[2] == "pronoun":
            continue
        det = k
        while det > old and words[det - 1] in (*_DETS, *W.FILLER_ADJ, *W.SIZE_ADJ):
            det -= 1
        _note(notes, out[det:k + hit[0]])
        out[det:k + hit[0]] = new
        while out and out[-1].text in (",", ";", ":"):
            out.pop()
        return True
    return False


def _old_constraint(out: list[Token]) -> int | None:
    """Where the constraint clause just said (before a correction's leads) starts in
    ``out``: after a sentence end, a comma or an "and", at a constraint opener."""
    words = [t.text for t in out]
    b = len(words)
    while b > 0 and words[b - 1] in (",", ";", ":", *_ENDS):
        b -= 1
    for k in range(b - 1, -1, -1):
        if words[k] in _ENDS or words[k] in (";", ":"):
            return k + 1 if _constraint_at(words, k + 1) else None
        if (k == 0 or words[k - 1] in (",", "and", "but", "then")) and _constraint_at(words, k):
            return k
    return 0 if _constraint_at(words, 0) else None


# --- negated alternatives --------------------------------------------------------------------
_NOT_OPENERS: tuple[tuple[str, ...], ...] = (
    ("not", "the"), ("not", "any", "of"), ("not", "one", "of"), ("not", "either", "of"),
    ("not", "either"), ("not", "a"))
_OTHER_TAILS = ("one", "ones", "side", "end")
#: Words that make a negated phrase a clause of its own ("not the one I want").
_CLAUSE_WORDS = frozenset({"i", "you", "we", "want", "is", "are", "was", "go", "stop", "wait",
                           "do", "does", "keep", "stay", "avoid", "mean", "meant"})


def _ends_head(words: list[str], i: int) -> bool:
    """Whether a noun head ends right before ``i``."""
    if words[i - 1:i] in (["one"], ["ones"]):
        return True
    lex = head_lexicon()
    return any(i - n >= 0 and (hit := lex.match(words[i - n:i])) is not None and hit[0] == n
               and hit[2] != "pronoun" for n in range(1, lex.max_len + 1))


#: Words a negated alternative may hold besides heads ("not the big one over by the bed").
_ALT_WORDS = frozenset({"the", "a", "an", "one", "ones", "other", "others", "of", "any",
                        "either", "with", "without", "on", "in", "at", "by", "near", "beside",
                        "next", "to", "off", "from", "round", "around", "over", "under",
                        "between", "inside", "front", "that", "those", "these", "it", "them",
                        "is", "are", "has", "got", "no", "all", "both", "just", "whole",
                        "up", "far", "end", "side", "corner"})


def _known(body: list[str]) -> bool:
    """Whether every word of a negated alternative is one the parser knows (a word it does
    not know keeps the refusal that names it: moving it to context would hide it)."""
    lex = head_lexicon()
    k = 0
    while k < len(body):
        hit = lex.match(body[k:k + lex.max_len])
        if hit is not None:
            k += hit[0]
            continue
        w = body[k]
        if not (w in _ALT_WORDS or w in W.NUMBERS or w in W.SIZE_ADJ or w in W.COMPARATIVE or
                w in W.RANK_WORDS or w in W.FILLER_ADJ or w in CONTRAST_ADJ):
            return False
        k += 1
    return True


def _described(words: list[str], i: int, body: list[str], initial: bool) -> bool:
    """Whether the goal phrase before ``i`` already says which thing it is (more than a bare
    "the plant": "the plant, not the one by the window" is an exclusion the later passes
    read), and does not forbid it ("keep away from the sofa, not the bed" is left alone). A
    size said in the alternative ("not the small one") is a contrast only where the phrase
    before says a size too ("the big bathroom, not the little one")."""
    s = i
    while s > 0 and words[s - 1] not in _ENDS:
        s -= 1
    if initial:  # "The mug. Not the one on the table, the other one": the sentence before
        s -= 1
        while s > 0 and words[s - 1] not in _ENDS:
            s -= 1
    before = words[s:i]
    if not before or set(before) & (_CONSTRAINT_OPENERS | {"not", "never", "dont", "away",
                                                             "clear"}):
        return False
    lex = head_lexicon()
    heads = [k for k in range(len(before))
             if (hit := lex.match(before[k:k + lex.max_len])) is not None and
             hit[2] != "pronoun"]
    sizes = set(W.SIZE_ADJ) | set(W.COMPARATIVE)
    if set(body[:3]) & sizes and not set(before) & sizes:
        return False
    if heads and not {"one", "ones"} & set(body):
        said = lex.match(before[heads[-1]:heads[-1] + lex.max_len])
        first = next((hit for k in range(len(body))
                      if (hit := lex.match(body[k:k + lex.max_len])) is not None), None)
        if said is not None and first is not None and first[1] != said[1]:
            return True  # "the counter, not the table": another kind of thing
    if set(before) & sizes and "of" in before and {"one", "ones"} & set(body):
        return True  # "the bigger of the two, not the narrow one"
    return initial or len(heads) > 1 or bool(heads) and bool(set(before) & (sizes | {"one"}))


def _picked_after(words: list[str], end: int) -> bool:
    """Whether the alternative is followed by the pick it leaves ("not the one in the kitchen,
    the one by the desk", "..., I mean the one ...", "..., but the one ..."): read by the
    negated partitives of the later passes."""
    if words[end:end + 1] != [","]:
        return False
    nxt = words[end + 1:end + 5]
    return nxt[:1] in (["but"], ["those"]) or nxt[:2] in (["i", "mean"], ["i", "meant"]) or \
        nxt[:1] == ["the"] and "one" in nxt[1:4] and nxt[1] != "other"


def _alternatives(toks: list[Token], notes: Context) -> list[Token]:
    words = [t.text for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(toks):
        n = _at(words, i, _NOT_OPENERS)
        initial = i > 0 and words[i - 1] in _ENDS
        comma = i > 0 and words[i - 1] in (",", "(", ";")
        bare = i > 0 and not comma and not initial and _ends_head(words, i)
        end = i + n
        while end < len(words) and words[end] not in (*_ENDS, ",", ";", ")", "("):
            end += 1
        body = words[i + 1:end]
        # ", the other one" / ", the other side": the member the alternative leaves
        other = words[end:end + 1] == [","] and words[end + 1:end + 3] == ["the", "other"] and \
            bool(words[end + 3:end + 4]) and words[end + 3] in _OTHER_TAILS and \
            (end + 4 >= len(words) or words[end + 4] in (*_ENDS, ",", ";", ")"))
        if not n or not (comma or bare or initial and other) or \
                not _described(words, i, body, initial) or _picked_after(words, end) or \
                set(body) & _CLAUSE_WORDS or set(body) & W.MOVE_VERBS or not _known(body) or \
                body[-1:] in (["it"], ["there"]) and "with" not in body:
            out.append(toks[i])
            i += 1
            continue
        stop = end + 4 if other else end
        _note(notes, toks[i:stop])
        if out and out[-1].text == "," and (stop >= len(words) or words[stop] in _ENDS):
            out.pop()
        i = stop
        if (not out or out[-1].text in _ENDS) and words[i:i + 1] == [","]:
            i += 1  # "Not the one on the table, the other one — it's ...": a new sentence
        if out and out[-1].text == "(" and words[i:i + 1] == [")"]:
            out.pop()
            i += 1
    return out


# --- restatements ----------------------------------------------------------------------------
_PREPS = frozenset({"on", "in", "at", "by", "near", "beside", "next", "to", "inside", "onto",
                    "under", "behind", "against", "up"})
_JUST = frozenset({"just", "but", "only", "simply", "i", "mean"})
_ROOMISH = frozenset({"room", "place", "spot", "area", "it", "itself", "whole", "thing"})


def _restatements(toks: list[Token], notes: Context) -> list[Token]:
    """"go to the sofa. not ON it, just next to it" / ", the odd one out,": a part that
    only says again how to be at the thing named before is context."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    drop: set[int] = set()
    for a in range(1, len(words)):
        if words[a - 1] not in (*_ENDS, ",") or a in drop:
            continue
        if words[a:a + 4] == ["the", "odd", "one", "out"] and words[a - 1] == ",":
            _note(notes, toks[a:a + 4])
            drop.update(range(a - 1, a + 4))
            continue
        one = _one_at(words, a) if words[a] == "the" and words[a - 1] == "," else None
        if one is not None and one > a + 1 and words[a - 2:a - 1] == ["one"] and \
                "not" not in words[max(a - 6, 0):a] and \
                (one + 1 >= len(words) or words[one + 1] in _ENDS):
            # "the bigger one, the long one": the same one said again
            _note(notes, toks[a:one + 1])
            drop.update(range(a - 1, one + 1))
            continue
        b = next((q for q in range(a, len(words)) if words[q] in _ENDS), len(words))
        seen = {hit[1] for k in range(a) if (hit := lex.match(words[k:k + lex.max_len]))}
        if not seen or not restated(words, a, b, seen):
            continue
        _note(notes, toks[a:b])
        drop.update(range(a, b + (1 if b < len(words) else 0)))
        if words[a - 1] == ",":
            drop.add(a - 1)
    return [t for k, t in enumerate(toks) if k not in drop]


def _terse(toks: list[Token], notes: Context) -> list[Token]:
    """"telly. go stand next to the telly." / "The mug. ... Go to that mug.": a sentence
    that is only a head, named again later as the goal of a request, says it again."""
    lex = head_lexicon()
    words = [t.text for t in toks]
    out: set[int] = set()
    a = 0
    while a < len(words):
        b = next((q for q in range(a, len(words)) if words[q] in _ENDS), len(words))
        k = a + (1 if words[a:a + 1] in (["the"], ["a"]) else 0)
        hit = lex.match(words[k:k + lex.max_len])
        if b < len(words) and hit is not None and hit[2] != "pronoun" and k + hit[0] == b:
            # the first request after it (statements between: "it's in the same room as
            # ...") must go to that head, and not back to it ("Fridge. Sofa. Then go back to
            # the fridge." is a list of stops)
            c = b + 1
            while c < len(words):
                d = next((q for q in range(c, len(words)) if words[q] in _ENDS), len(words))
                sent = words[c:d]
                if set(sent) & (W.MOVE_VERBS | {"stand", "wait"}) or \
                        (hit2 := lex.match(sent[sent[:1] in (["the"], ["a"]):][:lex.max_len]
                                           )) is not None and hit2[0] + (
                                               sent[:1] in (["the"], ["a"])) == len(sent):
                    if not {"back", "again", "then", "return"} & set(sent) and any(
                            (h := lex.match(sent[q:q + lex.max_len])) is not None and
                            h[1] == hit[1] and q and sent[q - 1] in ("the", "that", "this")
                            for q in range(len(sent))):
                        _note(notes, toks[a:b])
                        out.update(range(a, b + 1))
                    break
                c = d + 1
        a = b + 1
    return [t for k, t in enumerate(toks) if k not in out]


def _said_again(toks: list[Token], notes: Context) -> list[Token]:
    """"... the toilet in the bathroom with the plunger in it? That's the little bathroom you
    get into through the bedroom with the TV, not the big one.": a sentence "that is the X
    ..." about a place the sentence before named says again which one it is (context)."""
    lex = head_lexicon()
    words = [t.text for t in toks]
    drop: set[int] = set()
    a = 0
    prev: set[str] = set()
    while a < len(words):
        b = next((q for q in range(a, len(words)) if words[q] in _ENDS), len(words))
        sent = words[a:b]
        heads = {str(h[1]) for k in range(len(sent))
                 if (h := lex.match(sent[k:k + lex.max_len])) is not None and h[2] != "pronoun"}
        if sent[:3] in (["that", "is", "the"], ["it", "is", "the"]) and prev:
            k = 3
            while k < len(sent) and sent[k] in _ONE_ADJS:
                k += 1
            hit = lex.match(sent[k:k + lex.max_len])
            if hit is not None and hit[1] in prev and not {"not", "never"} & set(sent[:k]):
                _note(notes, toks[a:b])
                drop.update(range(a, b + 1))
        prev = heads
        a = b + 1
    return [t for k, t in enumerate(toks) if k not in drop]



def restated(words: list[str], a: int, b: int, seen: set[str]) -> bool:
    """Whether ``words[a:b]`` only says again, with "not", how to be at a thing named before
    ("not ON it, just next to it", "not the desk itself, just the room")."""
    body = [w for w in words[a:b] if w not in (",",)]
    if body[:1] != ["not"] and not (body[:1] and body[0] in _PREPS and "not" in body and
                                    "it" in body):
        return False  # "not ON it, next to it" / "Next to it, not behind it."
    lex = head_lexicon()
    k = 1
    while k < len(body):
        hit = lex.match(body[k:k + lex.max_len])
        if hit is not None and hit[2] != "pronoun":
            if hit[1] not in seen and body[k] not in _ROOMISH:
                return False
            k += hit[0]
            continue
        if body[k] not in _PREPS | _JUST | _ROOMISH | {"the", "not", "a", "over", "right",
                                                        "directly", "exactly"}:
            return False
        k += 1
    return True
