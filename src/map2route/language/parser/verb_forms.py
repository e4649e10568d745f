"""Two verb forms the rules read under one spelling only, put in that spelling first:

* a dwell verb the rules' lists lack, said as a request: "Go and sit by the bigger of the two
  couches for a sec, then ..." / "Sit by the sofa, then go to the bed" / "perch next to the
  window". A dozen rules each keep a closed list of dwell verbs (wait, stand, stop, park, ...),
  and every list has "wait", so an imperative "sit" / "perch" / "hover" / "linger" before a
  placing word is read as "wait" (its span kept, so a refusal still points at the word said);
* particles stacked between a verb of coming and where to: "come back over here to me",
  "come back over to me", "head on over to the desk", "go right on over to the sink": the
  rules read "come back here to me", "come back to me", "head to the desk"; "over", "on" and
  "right" there say nothing of the place and are read (left out) here ("over there" is left
  as said: it points at a place said before).

Only the base form after a request opener is rewritten ("I'm sitting on the couch" is the
speaker's place and stays as said), and only before a placing word. Hand-written like the rest
of the parser (see :mod:`.normalise`): the verbs, openers and particles are closed classes.
"""

from __future__ import annotations

from map2route.language.tokens import Token

__all__ = ["verb_forms"]

#: Dwell verbs no rule list holds, read as "wait".
_DWELLS = frozenset({"sit", "perch", "hover", "linger", "loiter", "idle", "settle"})
#: Words after which a clause is a request: the start, "and", "then", "go", "please", ...
_OPENERS = frozenset({".", "!", "?", ";", ",", ":", "-", "and", "then", "go", "come", "please",
                      "pls", "just", "now", "so", "first", "next", "finally", "also", "n"})
#: Words that place the robot after a dwell verb ("sit by", "sit next to", "sit on").
_PLACING = frozenset({"by", "next", "beside", "near", "at", "on", "in", "right", "close",
                      "over", "down", "somewhere", "opposite", "between", "halfway"})
#: Verbs of coming and going that take stacked particles before "to" / "here" / "there".
_COMING = frozenset({"come", "head", "go", "get", "pop", "run", "roll", "swing", "wander",
                     "make", "scoot", "nip", "zip", "drive", "coming", "heading", "going",
                     "getting", "popping", "running", "rolling", "swinging", "wandering",
                     "making", "driving", "came", "headed", "went"})
_PARTICLES = frozenset({"over", "on", "right"})
_AFTER = frozenset({"to", "here", "into", "towards", "toward"})  # not "over there": a place


def verb_forms(toks: list[Token]) -> list[Token]:
    """``toks`` with the two forms above put in the spelling the rules read."""
    words = [t.text.lower() for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(toks):
        w = words[i]
        prev = words[i - 1] if i else "."
        if w in _DWELLS and prev in _OPENERS and words[i + 1:i + 2] and \
                words[i + 1] in _PLACING:
            out.append(Token("wait", toks[i].start, toks[i].end))
            i += 1
            continue
        if w in _COMING or w == "back" and prev in _COMING:
            k = i + 1
            while k < len(words) and words[k] in _PARTICLES:
                k += 1
            if k > i + 1 and k < len(words) and words[k] in _AFTER and \
                    not (words[i + 1] == "on" and k == i + 2 and words[k] != "to"):
                out.append(toks[i])  # the particles between are read and left out
                i = k
                continue
        out.append(toks[i])
        i += 1
    return out
