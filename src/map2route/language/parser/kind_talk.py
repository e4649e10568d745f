"""How people describe a thing by its kind and by what it holds, put onto forms the parser reads.

Run early in :func:`.human.human_forms`, on the tokens as typed. The phrasings, each a class:

* two things a thing holds, said loosely: "the dresser with (w/) the watch and (+) vase on it" ->
  "... with the watch and the vase on it" (the second thing is held too, not a stop), and
  "the table with both a laptop and a vase on it" -> "... with a laptop and a vase on it";
* a stance verb as a gerund after "would you mind": "Would you mind waiting by the fridge?"
  -> "Would you mind wait by the fridge?" (the request form the hedge reader knows);
* the plain kind said outright: "the ordinary chair" / "the normal bed" (the chair that is not
  an armchair, the bed that is not a dog bed): the category word already says so; the word is
  reported as context ("ordinary chair"), never dropped;
* a set said as what its members hold, then a pick by size: "Two of the beds have a teddy
  bear on them. Go to the bigger of the two." -> "Go to the bigger of the two beds with a
  teddy bear on them." (the statement is reported as context).

Hand-written, like the rest of the parser: each rewrite keeps the character spans of what it
read, and a form that does not match exactly is left to the later stages to read or refuse.
"""

from __future__ import annotations

from map2route.language.parser.destination_tokens import tok
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["kind_talk"]

_ENDS = (".", "!", "?")
_DETS = ("the", "a", "an")
#: What closes a loose pair of held things ("... and vase on it").
_HELD = (("on", "it"), ("on", "them"), ("in", "it"), ("in", "them"), ("on", "top"),
         ("inside", "it"))
#: Gerunds of the verbs of stopping, with the request form.
_STANCE = {"waiting": "wait", "standing": "stand", "stopping": "stop", "parking": "park",
           "staying": "stay", "hanging": "hang", "sitting": "sit"}
_PLAIN = frozenset({"ordinary", "normal", "regular", "plain", "standard", "usual"})
_HAVE = frozenset({"have", "has", "hold"})
_NUMBERS = {"two": 2, "three": 3, "2": 2, "3": 3}



def _head(words: list[str], k: int) -> tuple[int, str, str, bool] | None:
    hit = head_lexicon().match(words[k:k + head_lexicon().max_len])
    return (hit[0], str(hit[1]), str(hit[2]), bool(hit[3])) if hit else None


def kind_talk(toks: list[Token]) -> tuple[list[Token], list[tuple[str, tuple[int, int]]]]:
    """Rewrite the phrasings of the module docstring; returns the tokens and what was taken
    out as context (text and character span)."""
    context: list[tuple[str, tuple[int, int]]] = []
    toks = _held_pair(_mind_gerund(toks))
    toks = _plain_kind(toks, context)
    toks = _set_holds(toks, context)
    return toks, context


def _held_pair(toks: list[Token]) -> list[Token]:
    """"with (both) DET A and B on it" -> "with DET A and the B on it"."""
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        out.append(toks[k])
        if words[k] not in ("with", "w") or k == 0:
            k += 1
            continue
        both = words[k + 1:k + 2] == ["both"]
        a = k + 1 + both
        det = words[a:a + 1] and words[a] in _DETS
        first = _head(words, a + bool(det))
        if first is None:
            k += 1
            continue
        n = a + bool(det) + first[0]
        if words[n:n + 1] not in (["and"], ["+"], ["&"]):
            k += 1
            continue
        b = n + 1
        second = _head(words, b)
        bare = second is not None and bool(det)
        e = b + (second[0] if second else 0)
        held = any(tuple(words[e:e + len(h)]) == h for h in _HELD)
        if bare and held and second is not None and second[2] == "object":
            out += toks[a:b] + [tok("the", toks[b])]
            k = b
            continue
        if both and det:
            k = a  # "both" is said again by "and"
            continue
        k += 1
    return out


def _mind_gerund(toks: list[Token]) -> list[Token]:
    """"would you mind waiting by X" -> "would you mind wait by X"."""
    return [tok(_STANCE[t.text], t) if t.text in _STANCE and k and toks[k - 1].text == "mind"
            else t for k, t in enumerate(toks)]


def _plain_kind(toks: list[Token], context: list[tuple[str, tuple[int, int]]]) -> list[Token]:
    """"the ordinary chair": the word goes to context when an object category follows."""
    words = [t.text for t in toks]
    out: list[Token] = []
    for k, t in enumerate(toks):
        if t.text in _PLAIN and k and words[k - 1] in ("the", "a", "that", "this"):
            hit = _head(words, k + 1)
            if hit is not None and hit[2] == "object":
                context.append((f"{t.text} {hit[1]}", (t.start, toks[k + hit[0]].end)))
                continue
        out.append(t)
    return out


def _set_holds(toks: list[Token], context: list[tuple[str, tuple[int, int]]]) -> list[Token]:
    """"N of the Xs have Y on them. Go to the ADJer of the two / the ADJer one." -> "Go to the
    ADJer of the two Xs with Y on them."."""
    words = [t.text for t in toks]
    for s in range(len(toks)):
        if s and words[s - 1] not in _ENDS or words[s] not in _NUMBERS or \
                words[s + 1:s + 3] != ["of", "the"]:
            continue
        thing = _head(words, s + 3)
        if thing is None or not thing[3]:
            continue
        v = s + 3 + thing[0]
        if words[v:v + 1] == [] or words[v] not in _HAVE:
            continue
        e = v + 1
        while e < len(words) and words[e] not in _ENDS:
            e += 1
        held = toks[v + 1:e]
        if not held or _head(words, v + 1 + (words[v + 1] in _DETS)) is None:
            continue
        # the pick in the next sentence: "the ADJer of the two" / "the ADJer one"
        p = e + 1
        stop = next((q for q in range(p, len(words)) if words[q] in _ENDS), len(words))
        for q in range(p, stop - 1):
            if words[q] != "the" or not words[q + 1].endswith(("er", "est")):
                continue
            if words[q + 2:q + 4] == ["of", "the"] and words[q + 4:q + 5] and \
                    words[q + 4] in _NUMBERS:
                end = q + 5
                pick = [*toks[q:end], *toks[s + 3:v], tok("with", toks[v]), *held]
            elif words[q + 2:q + 3] == ["one"]:
                end = q + 3
                one = toks[q + 2]
                named = [Token(w, one.start, one.end) for w in thing[1].split("_")]
                held = [tok("it", t) if t.text == "them" else t for t in held]
                pick = [*toks[q:q + 2], *named, tok("with", toks[v]), *held]
            else:
                continue
            context.append((" ".join(words[s:e]), (toks[s].start, toks[e - 1].end)))
            return [*toks[:s], *toks[p:q], *pick, *toks[end:]]
    return toks
