"""What is said around a request, taken off before any rule reads the request: polite frames
("Would you be a love and go to X?", "If it's no trouble, ...", "Would it be possible to ...",
"Any chance you could ..."), wordy time tails ("... for a sec", "... when you've a minute",
"... whenever you can") and hedges on a reason or a situation ("pretty sure the floor's wet",
"the kids are in there, if I remember right", "I reckon you clipped one").

Each of these is a frame other rules already read in one form: the rules for reasons, asides
and requests read "go to X", "the floor's still wet", "I left my phone on X"; the frames are
said around them in any combination. So this pass is run first, on the tokens, and composes:
it takes a frame off wherever a clause may start (or, for a tail, wherever a clause may end),
and the clause inside is then read by the rules that know it. Only closed classes are taken
(terms of endearment, trouble words, time nouns, hedge phrases) and only in frame position, so
"the pretty vase", "wait there for a bit" and "stay a bit away from X" are left as they are.
Nothing dropped names a place, a thing or a rule; everything else stays to be read or refused.

Hand-written: a few token-window tests over closed word classes, checked by
``test/language/test_grid_said_around.py`` (a grid that crosses them).
"""

from __future__ import annotations

from map2route.language.tokens import Token

__all__ = ["said_around"]

_ENDS = (".", "!", "?", ";", ",", "-", ":")
_OPENS = (*_ENDS, "and", "but", "so", "because", "since", "as", "cause", "cos", "please")
_ASKERS = ("would", "could", "can", "will")
_ENDEAR = ("love", "dear", "star", "darling", "sweetheart", "doll", "gem", "pet", "angel",
           "treasure", "sweetie", "lamb", "poppet")
_TROUBLE = ("trouble", "bother", "hassle", "problem", "bovver")
_TIME = ("sec", "second", "secs", "bit", "minute", "moment", "mo", "tick", "jiffy", "min")
_CHANCE = ("chance", "minute", "moment", "sec", "second", "mo", "min")
#: Verbs of waiting: "wait there for a bit" is a wait's length, not a tail.
_WAITS = ("wait", "waiting", "stay", "staying", "stop", "pause", "hang", "hold", "sit", "linger",
          "rest", "park", "remain", "hover", "idle", "stand", "keep")
#: Words that open a clause with its own subject, after a hedge.
_SUBJECTS = ("i", "you", "we", "he", "she", "they", "it", "there", "the", "my", "our", "your",
             "someone", "somebody", "that", "this", "his", "her", "their", "its", "a")
_HEDGES_FRONT = (("pretty", "sure"), ("i", "reckon"), ("i", "am", "pretty", "sure"),
                 ("i", "am", "fairly", "sure"), ("i", "am", "sure"), ("i", "believe"),
                 ("i", "guess"), ("i", "suppose"), ("i", "think"), ("fairly", "sure"),
                 ("if", "i", "remember", "right"), ("if", "i", "remember", "rightly"),
                 ("if", "i", "recall"), ("as", "far", "as", "i", "know"))
_HEDGES_BACK = (("if", "i", "remember", "right"), ("if", "i", "remember", "rightly"),
                ("if", "i", "recall"), ("i", "am", "fairly", "sure"),
                ("i", "am", "pretty", "sure"), ("i", "think"), ("i", "reckon"),
                ("i", "believe"), ("i", "guess"), ("as", "far", "as", "i", "know"))


def _frame(w: list[str], i: int) -> int:
    """Length of a polite frame starting at ``i`` (0: none)."""
    def at(k: int, *seq: str) -> bool:
        return tuple(w[k:k + len(seq)]) == seq
    k = i + 2 if w[i:i + 1] and w[i] in _ASKERS and at(i + 1, "you") else i
    if at(k, "be") and w[k + 1:k + 2] in (["a"], ["an"]) and k + 3 < len(w) and (
            w[k + 2] in _ENDEAR and w[k + 3] == "and"):
        return k + 4 - i  # "(would you) be a love and", "be an angel and"
    if at(i, "sorry", "to"):
        for rest in (("be", "a", "pain"), ("bother", "you"), ("trouble", "you"), ("ask",)):
            if at(i + 2, *rest):
                k = i + 2 + len(rest)
                k += 1 if at(k, ",") else 0
                return k + (1 if at(k, "but") else 0) - i  # "sorry to be a pain, but"
    if at(i, "i", "would") and i + 2 < len(w) and w[i + 2] in ("love", "like"):
        for said in (("you", "to"), ("for", "you", "to"), ("it", "if", "you", "could"),
                     ("it", "if", "you", "would")):
            if at(i + 3, *said):
                return 3 + len(said)  # "I'd love you to", "I'd like it if you could"
    if at(i, "if", "it", "is"):
        k = i + 3
        for lead in (("no",), ("not", "too", "much"), ("not", "much", "of", "a"),
                     ("not", "any"), ("not", "a")):
            if at(k, *lead) and k + len(lead) < len(w) and w[k + len(lead)] in _TROUBLE:
                k += len(lead) + 1
                k += 2 if at(k, "for", "you") else 0
                return k - i + (1 if at(k, ",") else 0)  # "if it's no trouble (for you),"
    for lead in (("would", "it", "be", "possible"), ("is", "it", "possible"),
                 ("would", "it", "be", "ok"), ("would", "it", "be", "okay")):
        if at(i, *lead):
            k = i + len(lead) + (2 if at(i + len(lead), "for", "you") else 0)
            if at(k, "to"):
                return k + 1 - i  # "would it be possible (for you) to"
    if at(i, "any", "chance"):
        for rest in (("you", "could"), ("you", "can"), ("you", "would"), ("of", "you")):
            if at(i + 2, *rest):
                return 2 + len(rest)  # "any chance you could"
    return 0


def _lead(w: list[str], i: int) -> int:
    """Length of a time tail said first, before a comma: "Whenever you have a sec, ..."."""
    n = _tail(w, i, front=True)
    return n + 1 if n and w[i + n:i + n + 1] == [","] else 0


def _tail(w: list[str], i: int, front: bool = False) -> int:
    """Length of a time tail at ``i`` that closes its clause (0: none)."""
    def at(k: int, *seq: str) -> bool:
        return tuple(w[k:k + len(seq)]) == seq
    n = 0
    if at(i, "for", "a") and i + 2 < len(w) and w[i + 2] in _TIME:
        n = 3
    elif w[i] in ("when", "whenever", "once") and at(i + 1, "you"):
        k = i + 2
        for verb in (("have", "got", "a"), ("have", "a"), ("get", "a"), ("got", "a"),
                     ("have", "got", "the"), ("have", "the"), ("get", "the")):
            if at(k, *verb) and k + len(verb) < len(w) and w[k + len(verb)] in _CHANCE:
                n = k + len(verb) + 1 - i
                break
        else:
            if at(k, "can"):
                n = 3
            elif at(k, "are", "free"):
                n = 4
    if not n or (i + n < len(w) and w[i + n] not in (*_ENDS, "please", "for")):
        return 0
    if front:
        return n
    j = i - 1
    while j >= 0 and w[j] not in _ENDS:
        if w[j] in _WAITS:
            return 0  # "wait by the sofa for a bit": the wait's length
        j -= 1
    return n


def _hedge(w: list[str], i: int, front: bool) -> int:
    """Length of a hedge at ``i``: before a clause with its own subject, or closing one after a
    comma (0: none)."""
    for h in _HEDGES_FRONT if front else ():
        n = len(h)
        if tuple(w[i:i + n]) == h and i + n < len(w) and (
                w[i + n] in _SUBJECTS or (w[i + n] == "," and h[0] == "if")):
            return n + (1 if w[i + n] == "," else 0)
    for h in _HEDGES_BACK:
        n = len(h)
        # after a comma, or (a hedge no clause could end with) right before the stop
        if tuple(w[i:i + n]) == h and (i + n == len(w) or w[i + n] in _ENDS) and i and (
                w[i - 1] == "," or (len(h) > 2 and w[i + n:i + n + 1] != [","])):
            return n
    return 0


#: Words that make a clause a caution (a rule that a reason may follow).
_CAUTION = ("keep", "stay", "steer", "avoid", "not", "never", "mind", "berth", "careful")
#: Words that give a clause after ";" a request or rule of its own: never a reason.
_RULES = ("go", "head", "come", "keep", "stay", "avoid", "steer", "not", "never", "then", "?")
#: ... and, after "the one", a verb of its own: never only a description of which.
_MOVES = (*_RULES, "stop", "pass", "wait", "is", "are", "was", "were", "'s")


def _reason_join(w: list[str], i: int) -> bool:
    """Whether the ";" (or ".") at ``i`` joins a reason, or a "the one ..." saying which, to the
    caution before it: then it is the comma the readers of both know ("keep away from X; the
    drawers are hanging open", "keep away from the TV. The one by the window.")."""
    j = i - 1
    while j >= 0 and w[j] not in (".", "!", "?", ";"):
        j -= 1
    if not any(x in _CAUTION for x in w[j + 1:i]) or i + 1 >= len(w):
        return False
    k = i + 1
    while k < len(w) and w[k] not in (".", "!", "?", ";"):
        k += 1
    clause = w[i + 1:k]
    if clause[:2] in (["the", "one"], ["the", "ones"]):
        # "keep away from the TV; the one by the window.": which TV, as after a comma
        return len(clause) > 2 and not any(x in _MOVES for x in clause)
    if w[i + 1] not in _SUBJECTS:
        return False
    # a reason after ";" only: a sentence of its own may give a stage ("Your final
    # destination is the lamp."), so it is left to the readers of sentences
    return w[i] == ";" and not any(x in _RULES for x in clause)


def said_around(toks: list[Token]) -> list[Token]:
    """``toks`` without the polite frames, time tails and hedges said around a request."""
    w = [t.text for t in toks]
    keep = [True] * len(toks)
    i = 0
    while i < len(toks):
        opens = i == 0 or w[i - 1] in _OPENS or not keep[i - 1]
        n = (_frame(w, i) or _lead(w, i)) if opens else 0
        n = n or _hedge(w, i, opens)
        n = n or (_tail(w, i) if i and w[i - 1] not in _ENDS else 0)
        if n:
            for k in range(i, i + n):
                keep[k] = False
            if i and w[i - 1] == "," and (i + n == len(w) or w[i + n] in _ENDS) and keep[i - 1]:
                keep[i - 1] = False  # ", if I remember right." : its comma too
            i += n
            continue
        i += 1
    kept = [t for t, k in zip(toks, keep, strict=True) if k]
    w = [t.text for t in kept]
    return [Token(",", t.start, t.end) if w[i] in (";", ".") and _reason_join(w, i) else t
            for i, t in enumerate(kept)]
