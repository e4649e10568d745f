"""A repair said right after a reference, with any lead and in any form, put into the few
forms the discourse stage reads ("no wait , the sink", "no wait , the one on the desk",
"no wait , stay away from the bin", "..., but first go to the plant").

Read on the tokens just after the hedges are taken off (:func:`.said_around.said_around`), in
:func:`.human.human_forms`. The lead is any of "no", "no no", "no sorry", "sorry", "actually
(no)", "wait", "I mean", "or rather", "scratch that", "sorry I say wrong" (or none where the
repair says "not"), after a full stop, a comma, a dash, an ellipsis or run on; the repair is
one of:

* the stop's head: "not the toilet, the sink", "the sink, not the toilet", "not the toilet but
  the sink", "the sink I mean", "make that the sink", "sink" -> "no wait , the sink";
* a modifier of it: "on the desk", "not the one on the bed, the one on the desk", "the one on
  the desk, not the one on the bed" -> "no wait , the one on the desk";
* its room: "in the bedroom", "not the kitchen, the bedroom", "the one in the bedroom, not the
  kitchen" -> "no wait , the one in the bedroom";
* a rule's head ("stay away from the TV - no, the bin") -> "no wait , stay away from the bin";
* the order: "Go to the shelf. Actually no, first go to the plant." / "wait, before that, go
  to the plant" / "no, first the plant, then the shelf" -> "Go to the shelf, but first go to
  the plant."

and, with or without a lead, the contrasts that only say which one it is not:

* "not the one by the window, the other one" / "not the one on the bed - that's a different
  book" / learner "not chair by the table, the other one" -> ", not the one by the window";
* "whichever bed is by the window - that's the one next to the desk" -> ", the one next to the
  desk" (the same thing described again, never a second stop).

Without a lead only "not X, Y" and "Y, not X" repair. What is taken back ("not the toilet", the
lead) is reported as context, never dropped; a repair that names something the sentence before
did not ("not the fridge" after "the toilet"), a bare "on the bed" after a stop's own
preposition ("stop by its bin - no, by the toilet"), a terse list ("Kitchen. No - living
room."), a "not the one M" whose places the sentence before did not name (a contrast, kept
whole by the passes after) and a repair after a sentence of several clauses (which one it takes
back would be a guess; a rule's object is the exception: its verb is said again) are left alone
for the passes after (they refuse by name what they cannot read).
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon, heads_in
from map2route.language.tokens import Token
from map2route.language.vocabulary import ROOM_WORD_TYPES

Context = list[tuple[str, tuple[int, int]]]

_ENDS = (".", "!", "?")
_ROOMS = frozenset(ROOM_WORD_TYPES.values())
#: Leads that take back what was just said, longest first.
_LEADS: tuple[tuple[str, ...], ...] = (
    ("sorry", "i", "say", "wrong"), ("sorry", "i", "said", "wrong"), ("actually", "no"),
    ("no", "no"), ("no", "sorry"), ("no", "wait"), ("scratch", "that"), ("or", "rather"),
    ("i", "mean"), ("i", "meant"), ("no",), ("sorry",), ("actually",), ("wait",))
#: Words that open a modifier said bare after a lead ("- no, on the desk").
_PREPS = ("on", "by", "in", "near", "next", "beside", "under", "at")
#: A rule's verb phrase whose object a repair may replace.
_RULE_VERBS = (("stay", "away", "from"), ("keep", "away", "from"), ("avoid",),
               ("keep", "clear", "of"), ("stay", "clear", "of"))


def _lead(words: list[str], k: int) -> int:
    """How many words of a lead start at ``k`` (with the comma after it), 0 for none."""
    n = 0
    while True:
        hit = next((len(s) for s in _LEADS if tuple(words[k + n:k + n + len(s)]) == s), 0)
        if not hit:
            break
        n += hit
        if k + n < len(words) and words[k + n] == ",":
            n += 1
    if n == 1 and words[k] in ("no", "wait"):
        return 0  # "No bedrooms." is a ban and "wait by the sink" a request, not leads
    return n


def _modified(words: list[str], a: int, b: int) -> bool:
    """Whether the clause ``words[a:b]`` ends on a head with a modifier ("the alarm clock on
    the dresser"), so that a bare "on the bed" after a lead replaces the modifier (after
    "stop by its bin" it would replace the stop's own preposition: not read here)."""
    p = next((q for q in range(b - 1, a - 1, -1) if words[q] in _PREPS), None)
    if p is None:
        return False
    lex = head_lexicon()
    return any((hit := lex.match(words[q:p])) is not None and hit[0] == p - q
               for q in range(a, p))


def _np(words: list[str], a: int, b: int) -> tuple[str, list[str]] | None:
    """``words[a:b]`` as a noun phrase "[the] H": ('head', words) or ('one', modifier words)
    for "[the] one M"; None when it is neither."""
    k = a + (a < b and words[a] == "the")
    if k < b and words[k] == "one" and k + 1 < b and words[k + 1] in _PREPS:
        mod = words[k + 1:b]  # one modifier: a comma or a "not" would start another phrase
        return ("one", mod) if not {",", "not", "that", "but"} & set(mod) else None
    hit = head_lexicon().match(words[k:b - 1]) if b - k > 1 and words[b - 1] == "one" else None
    if hit is not None and hit[0] == b - 1 - k:  # "the bedroom one", "the window one"
        return "one", ["in" if hit[1] in _ROOMS else "by", "the", *words[k:b - 1]]
    hit = head_lexicon().match(words[k:b])
    if hit is not None and hit[0] == b - k:  # the head and nothing after it
        return hit[1], words[k:b]
    return None


def _thing(words: list[str], a: int, b: int) -> tuple[str, list[str], list[str]] | None:
    """``words[a:b]`` as "[the] H [M]", M a modifier opened by a preposition: (H's category,
    H's words, M's words with the article a learner left out put back); None otherwise."""
    k = a + (a < b and words[a] == "the")
    hit = head_lexicon().match(words[k:b])
    if hit is None or (k + hit[0] < b and words[k + hit[0]] not in _PREPS):
        return None
    mod = words[k + hit[0]:b]
    return hit[1], words[k:k + hit[0]], _articled(mod) if mod else []


def _said(words: list[str], a: int, b: int) -> set[str]:
    return {h for _, h in heads_in(words, a, b)}


def _split(words: list[str], a: int, b: int) -> tuple[int, int] | None:
    """Where "X , Y" / "X but Y" splits: (end of X, start of Y)."""
    for q in range(a, b):
        if words[q] in (",", "but"):
            return q, q + 1 + (words[q] == "," and q + 1 < b and words[q + 1] == "but")
    return None


def _meant(words: list[str], a: int, b: int, before: set[str], led: bool,
           modified: bool) -> list[str] | None:
    """The phrase the repair ``words[a:b]`` says is meant, as "the ..." words, or None;
    ``led``: a lead came before it (without one only "not X, Y" and "Y, not X" repair);
    ``modified``: the sentence before ended on a head with a modifier (:func:`_modified`)."""
    if b > a + 1 and words[b - 2:b] == ["i", "mean"]:
        b -= 2
    if words[a:a + 2] == ["make", "that"]:
        a += 2
    if a >= b:
        return None
    if words[a] == "not":
        cut = _split(words, a + 1, b)
        if cut is None:
            return None
        x, y = _np(words, a + 1, cut[0]), _np(words, cut[1], b)
        x_head = x and x[0]
        if x is None or y is None or not _taken_back(x, before):
            return None
        if x_head in _ROOMS and y[0] in _ROOMS and not before <= _ROOMS:
            return ["the", "one", "in", "the", *y[1]]
        return ["the", *y[1]] if y[0] != "one" else ["the", "one", *y[1]]
    cut = _split(words, a, b)
    if cut is not None:  # "Y, not X" / "in the kitchen, not the bathroom": X said before
        if words[cut[1]:cut[1] + 1] != ["not"]:
            return None
        x = _np(words, cut[1] + 1, b)
        if x is None or not _taken_back(x, before):
            return None
        b = cut[0]
    elif not led:
        return None
    if words[a] in _PREPS:
        k = a + 1 + (words[a] == "next" and words[a + 1:a + 2] == ["to"])
        ok = (led or cut is not None) and modified and _thing(words, k, b) is not None
        return ["the", "one", *words[a:b]] if ok else None
    y = _np(words, a, b)
    if y is None or (y[0] in _ROOMS and not before <= _ROOMS):
        # "Walk to the desk in the room next to the kitchen. I mean the bedroom.": a room
        # meant after a thing narrows where the thing is; the discourse stage reads that
        return None
    return ["the", *y[1]] if y[0] != "one" else ["the", "one", *y[1]]


def _taken_back(x: tuple[str, list[str]], before: set[str]) -> bool:
    """Whether "not X" takes back what the sentence before said: its head, or for "the one
    M" the places M names ("on the bed - not the one on the bed, ..."); "not the one in the
    kitchen, the one by the desk" after "the chair" is a contrast, which the passes after keep
    whole (both modifiers)."""
    if x[0] != "one":
        return x[0] in before
    named = {h for _, h in heads_in(x[1], 0, len(x[1]))}
    return bool(named) and named <= before


def _tokens(texts: list[str], at: Token) -> list[Token]:
    return [Token(t, at.start, at.end) for t in texts]


def _rule_verb(words: list[str], a: int, b: int) -> list[str] | None:
    """The rule verb of the clause ``words[a:b]`` when nothing but its object follows it."""
    for q in range(b - 1, a - 1, -1):
        for v in _RULE_VERBS:
            if tuple(words[q:q + len(v)]) == v:
                rest = words[q + len(v):b]
                return list(v) if not {"go", "and", "then", "head", "take"} & set(rest) else None
    return None


def said_repairs(toks: list[Token]) -> tuple[list[Token], Context]:
    """Put the repairs of ``toks`` into the forms the discourse stage reads (see the module
    docstring); returns the tokens and what was said in the repair, as context."""
    words = [t.text for t in toks]
    notes: Context = []
    out: list[Token] = []
    k = 0
    start = prev = 0  # where this sentence starts, and the one before it
    while k < len(toks):
        # a lead opening a sentence repairs the sentence before; one inside it, that sentence
        first = prev if k == start else start
        n = _lead(words, k) if k > 0 else 0
        if n and not (words[k - 1] in (*_ENDS, ",") or words[k + n - 1] == ","):
            n = 0  # "wait by the window" is a request, not a lead
        end = next((q for q in range(k + n, len(words)) if words[q] in _ENDS), len(words))
        fixed = None
        if k > first and (n or _unled(words, k, end)):
            fixed = _repair(words, first, k, k + n, end, n)
        if fixed is not None and k == start and fixed[:2] == [",", "no"] and \
                words[k - 2] not in _ENDS:
            fixed = fixed[1:]  # "Kitchen. No - living room.": the repair keeps its sentence
        elif fixed is not None:  # after a comma, or an ellipsis the reading stops at
            while out and out[-1].text in (*_ENDS, ","):
                out.pop()
        if fixed is not None:
            out += _tokens(fixed, toks[k])
            # labelled, so the note reads as the correction it is, not as a reason or a wish
            notes.append(("said as a correction: " + " ".join(words[k:end]),
                          (toks[k].start, toks[end - 1].end)))
            k = end
            continue
        if words[k] in _ENDS and not (k + 1 < len(words) and words[k + 1] in _ENDS):
            prev, start = start, k + 1
        out.append(toks[k])
        k += 1
    return out, notes


def _unled(words: list[str], k: int, end: int) -> bool:
    """Whether a repair with no lead may start at ``k``: after a pause, or run on as "the one
    ..." / "not the one ..." (not "that is not the one ..."), and saying "not" or "that is"."""
    after_pause = words[k - 1] in (*_ENDS, ",")
    run_on = words[k:k + 2] in (["the", "one"], ["not", "one"]) or \
        words[k:k + 3] == ["not", "the", "one"]
    if not (after_pause or (run_on and words[k - 1] not in ("is", "that", "are", "was"))):
        return False
    return "not" in words[k:end] or words[k:k + 2] == ["that", "is"]


def _opens(words: list[str], k: int) -> bool:
    """Whether ``words[k]`` opens a sentence."""
    return k > 0 and words[k - 1] in _ENDS


def _repair(words: list[str], first: int, at: int, a: int, b: int,
            n: int) -> list[str] | None:
    """The words that replace ``words[at:b]`` (the lead at ``at``, the repair ``a:b``), or None
    when the span is no repair of the sentence ``words[first:at]``."""
    if b - 2 >= a and words[b - 2:b] == [",", "please"]:
        b -= 2
    before = _said(words, first, at)
    if not before or a >= b:
        return None
    clause = words[first:at]
    while clause and clause[-1] in (*_ENDS, ","):
        clause.pop()
    if _opens(words, at) and _np(words, first, first + len(clause)) is not None:
        return None  # "Kitchen. No - living room.": a terse list, read by the passes after
    # "first the B": before the stop just said; a sentence of several clauses ("go to the
    # shelf and look if ...") leaves which one B comes before to a guess: not read here
    one_clause = not {"and", "then", ","} & set(clause)
    order = _order(words, a, b, before) if n and one_clause else None
    if order is not None:
        return order
    other = _not_that_one(words, a, b, before) or _restated(words, a, b)
    if other is not None:
        return other
    meant = _meant(words, a, b, before, n > 0, _modified(words, first, at))
    if meant is None:
        return None
    verb = _rule_verb(words, first, at)
    if verb is not None:
        return [",", "no", "wait", ",", *verb, *meant]
    # after several clauses ("go past the fridge, then go to the lamp. I mean ...") which one
    # "no wait" takes back is the discourse stage's guess: left to the passes after
    return [",", "no", "wait", ",", *meant] if one_clause else None


def _not_that_one(words: list[str], a: int, b: int, before: set[str]) -> list[str] | None:
    """"not (the) one M , (the) other one" / "not the one M - that is a different H" / "not
    chair by the table, the other one" (H said before): the thing is the one not M, said as
    the contrast the discourse stage reads (", not the one M"); what follows the contrast only
    says again that it is another one."""
    if words[a:a + 1] != ["not"]:
        return None
    cut = next((q for q in range(a, b) if words[q] == ","), b)
    x = _np(words, a + 1, cut)
    if x is not None and x[0] == "one":
        mod = x[1]
    else:
        thing = _thing(words, a + 1, cut)
        if thing is None or thing[0] not in before or not thing[2]:
            return None
        mod = thing[2]
    tail = words[cut + 1:b]
    if tail in (["the", "other", "one"], ["other", "one"]) or (
            tail[:4] == ["that", "is", "a", "different"] and len(tail) > 4):
        return [",", "not", "the", "one", *_articled(mod)]
    return None


def _articled(mod: list[str]) -> list[str]:
    """"by armchair" -> "by the armchair" (a learner's modifier, as the contrast reads it)."""
    k = 2 if mod[:2] == ["next", "to"] else 1
    if len(mod) > k and mod[k] not in ("the", "a", "my", "your", "that", "this"):
        return [*mod[:k], "the", *mod[k:]]
    return mod


def _restated(words: list[str], a: int, b: int) -> list[str] | None:
    """"that is (the) one M" after a reference: the same thing described again (", the one
    M"), not another stop."""
    if words[a:a + 2] != ["that", "is"]:
        return None
    x = _np(words, a + 2, b)
    return [",", "the", "one", *x[1]] if x is not None and x[0] == "one" else None


def _order(words: list[str], a: int, b: int, before: set[str]) -> list[str] | None:
    """"first go to the B" / "before that , go to the B" / "first the B , then the A" (A said
    before): the stop B comes first."""
    k = a
    if words[k:k + 3] == ["before", "that", ","]:
        k += 3
    elif words[k:k + 2] == ["before", "that"] or words[k:k + 1] == ["first"]:
        k += 1 if words[k] == "first" else 2
    else:
        return None
    if words[k:k + 3] == ["you", "go", "to"]:
        k += 1
    if words[k:k + 2] == ["go", "to"]:
        k += 2
    cut = next((q for q in range(k, b) if words[q] == ","), b)
    b_np = _thing(words, k, cut)
    if b_np is None:
        return None
    if cut < b:
        if words[cut + 1:cut + 2] != ["then"]:
            return None
        a_np = _np(words, cut + 2, b)
        if a_np is None or a_np[0] not in before:
            return None
    return [",", "but", "first", "go", "to", "the", *b_np[1], *b_np[2]]
