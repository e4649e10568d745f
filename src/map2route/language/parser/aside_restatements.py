"""Three sentence shapes that restate or place what another part of the instruction said.

* Separable "run over": "mind the dog bed, don't run it over", "don't drive the rug over"
  -> "do not run over the dog bed" (the thing named by "mind / careful with / watch the X"
  before the prohibition is the thing not to run over; "V it over" alone -> "V over it").
* A via restated as "don't stop": "Don't stop there, just go by it", "No need to stop at it,
  just go past": said after a "go past / swing by X", it adds nothing the via did not say, so
  the sentence is kept as context (only when the instruction already has such a via).
* Someone's placing of the thing: "Someone left it on the couch in the lounge", "the kids put
  it on the bed" -> "it is on the couch in the lounge" (where "it", the thing just named,
  is: a description, never a stage); after a comma the comma becomes a sentence end, as it
  does before "it's (on the floor) in the bedroom ..." said after "swing past X on your way,"
  (elsewhere a comma description, "Go to the sofa, it's in the living room", is refused).
* An errand on the way added with "but": "Go to the table, but swing past the ball on your
  way" -> "..., and swing past ...": the "but" contrasts nothing the route keeps.

Hand-written, like the rest of the parser, so that every rewrite keeps the character spans (a
refusal still points into the original text) and nothing is guessed: the windows are closed
lists of words, and anything else is left for the later rules (which refuse it).
"""

from __future__ import annotations

from map2route.language.tokens import Token

__all__ = ["restatements"]

_ENDS = (".", "!", "?", ";")
_OVER_VERBS = ("run", "drive", "roll", "knock", "trample")
_MIND = (("mind",), ("careful", "with"), ("be", "careful", "with"), ("watch",),
         ("watch", "out", "for"), ("look", "out", "for"))
#: "run it over" and "run over it": the same prohibition ("mind the ball, don't drive over it").
_IT_OVER = (["it", "over"], ["over", "it"])
_NEG = (("do", "not"), ("please", "do", "not"), ("try", "not", "to"), ("never",))
_VIA_WORDS = frozenset({"past", "by", "passing", "via"})
_STOP_LEADS = (("do", "not", "stop"), ("no", "need", "to", "stop"), ("you", "need", "not", "stop"))
_STOP_WHERE = (("there",), ("at", "it"), ("at", "them"), ("there", "though"))
_JUST_PASS = (("just", "go", "by", "it"), ("just", "go", "past", "it"), ("just", "go", "past"),
              ("just", "go", "by"), ("just", "pass", "it"), ("just", "pass", "by", "it"),
              ("just", "drive", "past", "it"), ("just", "drive", "by", "it"))
_SUBJECTS = (("someone",), ("somebody",), ("i",), ("we",), ("he",), ("she",), ("they",),
             ("the", "kids"), ("the", "children"), ("my", "son"), ("my", "daughter"),
             ("my", "husband"), ("my", "wife"), ("the", "cat"), ("the", "dog"))
_AUX = frozenset({"has", "have", "had", "must", "might", "may", "probably", "just"})
_PLACED = frozenset({"left", "put", "dropped", "placed", "set"})
_PLACE_PREPS = frozenset({"on", "in", "under", "by", "next", "beside", "near", "behind"})


def _at(words: list[str], k: int, options: tuple[tuple[str, ...], ...]) -> int:
    """Length of the first of ``options`` found at ``k`` (0 when none)."""
    return next((len(o) for o in options if tuple(words[k:k + len(o)]) == o), 0)


def _sentence_end(words: list[str], k: int) -> int:
    while k < len(words) and words[k] not in _ENDS:
        k += 1
    return k


def _run_over(toks: list[Token]) -> list[Token]:
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        m = _at(words, k, _MIND) if k == 0 or words[k - 1] in (*_ENDS, ",", "and", "oh") else 0
        if m:  # "mind the X, don't run it over"
            c = k + m
            while c < len(words) and words[c] not in (",", *_ENDS):
                c += 1
            n = _at(words, c + 1, _NEG) if c < len(words) and words[c] == "," else 0
            v = c + 1 + n
            if n and words[v:v + 3] in ([o, *p] for o in _OVER_VERBS for p in _IT_OVER) and \
                    words[k + m:k + m + 1] in (["the"], ["that"], ["this"], ["her"], ["his"]):
                neg = toks[c + 1:v]
                out += [Token(neg[0].text, toks[k].start, neg[0].end), *neg[1:],
                        toks[v], Token("over", toks[v + 1].start, toks[v + 2].end),
                        *toks[k + m:c]]
                k = v + 3
                continue
        if words[k] in _OVER_VERBS and words[k + 1:k + 3] == ["it", "over"]:
            out += [toks[k], Token("over", toks[k + 1].start, toks[k + 2].end),
                    Token("it", toks[k + 2].start, toks[k + 2].end)]
            k += 3
            continue
        out.append(toks[k])
        k += 1
    return out


def _stop_restated(toks: list[Token], context: list[tuple[str, tuple[int, int]]]
                   ) -> list[Token]:
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        lead = _at(words, k, _STOP_LEADS) if out and out[-1].text in _ENDS else 0
        if lead and _VIA_WORDS & set(words[:k]):
            w = _at(words, k + lead, _STOP_WHERE)
            c = k + lead + w
            c += 1 if words[c:c + 1] == [","] else 0
            j = _at(words, c, _JUST_PASS)
            e = c + j
            if w and j and (e == len(words) or words[e] in _ENDS):
                context.append((" ".join(words[k:e]), (toks[k].start, toks[e - 1].end)))
                k = e + 1 if e < len(words) else e
                continue
        out.append(toks[k])
        k += 1
    return out


def _placed_it(toks: list[Token]) -> list[Token]:
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        after_end = k > 0 and words[k - 1] in (*_ENDS, ",")
        s = _at(words, k, _SUBJECTS) if after_end else 0
        if s:
            v = k + s
            while v < len(words) and words[v] in _AUX:
                v += 1
            if v + 2 < len(words) and words[v] in _PLACED and words[v + 1] == "it" and \
                    words[v + 2] in _PLACE_PREPS and \
                    _sentence_end(words, v) > v + 3:
                if words[k - 1] == ",":
                    out[-1] = Token(".", out[-1].start, out[-1].end)
                out += [Token("it", toks[k].start, toks[v].end),
                        Token("is", toks[v + 1].start, toks[v + 1].end)]
                k = v + 2
                continue
        out.append(toks[k])
        k += 1
    return out


_BUT_VERBS = frozenset({"swing", "pass", "go", "drive", "stop", "drop", "call", "pop"})
_WAY = (("on", "your", "way"), ("on", "the", "way"))


def _placed_after_comma(toks: list[Token]) -> list[Token]:
    """"X on your way, it's (on the floor) in the Y" -> ". it is ...": a sentence of its own."""
    words = [t.text for t in toks]
    out = list(toks)
    for k in range(1, len(words) - 3):
        if words[k - 1] != "," or words[k:k + 2] != ["it", "is"] or \
                tuple(words[max(k - 4, 0):k - 1]) not in _WAY:
            continue
        j = k + 2 + (3 if words[k + 2:k + 5] == ["on", "the", "floor"] else 0)
        if words[j:j + 1] and words[j] in _PLACE_PREPS and words[j + 1:j + 2] == ["the"]:
            out[k - 1] = Token(".", toks[k - 1].start, toks[k - 1].end)
    return out


def _but_on_the_way(toks: list[Token]) -> list[Token]:
    words = [t.text for t in toks]
    out = list(toks)
    for k in range(1, len(words) - 1):
        if words[k - 1] != "," or words[k] != "but" or words[k + 1] not in _BUT_VERBS:
            continue
        e = _sentence_end(words, k)
        tail = [tuple(words[j:j + 3]) for j in range(k, e)]
        if any(w in tail for w in _WAY):
            out[k] = Token("and", toks[k].start, toks[k].end)
    return out


def restatements(toks: list[Token]) -> tuple[list[Token], list[tuple[str, tuple[int, int]]]]:
    """Rewrite the shapes of the module docstring; returns the tokens and the restating
    sentences kept as context (each with its character span)."""
    context: list[tuple[str, tuple[int, int]]] = []
    toks = _placed_after_comma(_but_on_the_way(_run_over(toks)))
    toks = _stop_restated(_placed_it(toks), context)
    return toks, context
