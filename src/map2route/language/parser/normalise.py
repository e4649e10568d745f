"""Stage 0 of the parser: rewrite equivalent phrasings of a token list onto one form.

Shorthand is spelt out, fillers and politeness dropped, form labels ("Goal:") removed,
"check whether X has Y: if it does ... if not ..." turned into "if ... otherwise ...", and a
clause-final "come back" into "go to start". Spans are kept, so every later stage can point
into the original text. Hand-written: each rule is a token-window test, and the rewrites keep
the character spans that a grammar library's tree would have to carry through by hand.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.tokens import Token
from map2route.language.vocabulary import ROOM_WORD_TYPES


def normalise(toks: list[Token]) -> list[Token]:
    """Rewrite equivalent phrasings onto one form, keeping spans.

    ``check whether X has Y: if it does, A, if not, B`` -> ``if X has Y, A, otherwise B``;
    chat shorthand (``u``, ``pls``, ``teh``) and ``go too the`` are spelt out; interjections
    and politeness (``um``, ``could you``, ``if it's not too much trouble``) are dropped;
    a clause-final ``come back (here)`` / ``return`` becomes ``go to start``.
    """
    toks = _drop_fillers(toks)
    out: list[Token] = []
    i = 0
    words = [t.text for t in toks]

    def at(k: int, *seq: str) -> bool:
        return tuple(words[k:k + len(seq)]) == seq

    while i < len(toks):
        t = toks[i]
        lab = _label_length(words, i)
        if lab and (not out or out[-1].text in (".", ";", "!", "?", ",")):
            # "Goal: the fridge.", "Stop 2: the sofa", "Constraint: avoid X": a form's field name
            i += lab
            continue
        if words[i] in ("avoid", "via") and at(i + 1, ":"):
            out.append(t)  # "Avoid: the bathroom"
            i += 2
            continue
        if (at(i, "check", "whether") or at(i, "check", "if") or at(i, "see", "whether")
                or at(i, "see", "if") or at(i, "find", "out", "whether")):
            n = 3 if at(i, "find") else 2
            out.append(Token("if", t.start, toks[i + n - 1].end))
            i += n
            continue
        if t.text == ":":
            out.append(Token(",", t.start, t.end))
            i += 1
            continue
        answer = _answer(toks, words, i)
        if answer is not None:
            out.append(answer[0])
            i += answer[1]
        else:
            out.append(t)
            i += 1
    return out


#: Answers to a check ("check whether X has Y: if it does, A, if not, B").
_NO_ANSWERS = (("if", "it", "does", "not"), ("if", "it", "does", "n't"), ("if", "not"),
               ("if", "there", "is", "not"), ("if", "there", "is", "none"),
               ("if", "there", "are", "none"), ("if", "it", "has", "not"), ("if", "it", "is", "not"))
_YES_ANSWERS = (("if", "it", "does"), ("if", "so"), ("if", "yes"), ("if", "there", "is"),
                ("if", "it", "has"), ("if", "it", "is"))


def _answer(toks: list[Token], words: list[str], i: int) -> tuple[Token, int] | None:
    """``if not`` -> ``otherwise``, a bare ``if it does,`` -> ``then``: (token, length)."""
    for pat in _NO_ANSWERS:
        if tuple(words[i:i + len(pat)]) == pat:
            return Token("otherwise", toks[i].start, toks[i + len(pat) - 1].end), len(pat)
    for yes in _YES_ANSWERS:
        if tuple(words[i:i + len(yes)]) == yes and (
                i + len(yes) >= len(toks) or words[i + len(yes)] == ","):
            return Token("then", toks[i].start, toks[i + len(yes) - 1].end), len(yes)
    return None


#: Field names of operator-style instructions ("Goal: the fridge", "Waypoint 2: the sofa").


def _label_length(words: list[str], i: int) -> int:
    """Tokens of a field label ``Goal:`` / ``First stop:`` / ``Waypoint 2:`` at ``i`` (0: none)."""
    for n in range(1, 4):
        if i + n < len(words) and words[i + n] == ":":
            label = words[i:i + n]
            if all(w in W.LABEL_WORDS for w in label) and any(
                    w not in W.ORDINALS and not w.isdigit() for w in label) and \
                    label[0] not in ("avoid", "via"):
                return n + 1
            return 0
    return 0


def _drop_fillers(toks: list[Token]) -> list[Token]:
    """Spell out shorthand, drop filler words/phrases and rewrite a final "come back"."""
    spelt: list[Token] = []
    for n, t in enumerate(toks):
        nxt = W.SHORTHAND.get(toks[n + 1].text, toks[n + 1].text) if n + 1 < len(toks) else ""
        word = W.SHORTHAND.get(t.text, t.text)
        if t.text in ("too", "2") and (nxt in ("the", "a", "an", "my", "your", "this", "that")
                                       or (t.text == "2" and n > 0 and
                                           toks[n - 1].text in W.MOVE_VERBS)):
            word = "to"  # "go too the fridge", "go 2 the bin""
        for part in word.split(" "):
            spelt.append(Token(part, t.start, t.end))
    spelt = _spoken_forms(spelt)
    words = [t.text for t in spelt]
    out: list[Token] = []
    i = 0
    while i < len(spelt):
        # "come back here afterwards": a time adverb ends the return as a stop would
        ends = {"", ".", ",", ";", "!", "?", "and", "then", "please", "afterwards",
                "afterward"}
        n = max((len(p) for p in W.BACK if tuple(words[i:i + len(p)]) == p and
                 (words[i + len(p)] if i + len(p) < len(words) else "") in ends), default=0)
        if n and words[i] != "back" or (n and (not out or out[-1].text in (
                ",", "then", "and", "finally", "lastly"))):
            t0, t1 = spelt[i], spelt[i + n - 1]
            out.extend(Token(w, t0.start, t1.end) for w in ("go", "to", "start"))
            i += n
            continue
        n = max((len(p) for p in W.FILLER_PHRASES if tuple(words[i:i + len(p)]) == p), default=0)
        if words[i] in ("go", "come") and i + 1 < len(words) and (
                words[i + 1] in W.ERRAND_VERBS or (words[i + 1] == "and" and i + 2 < len(words)
                                                 and words[i + 2] in W.ERRAND_VERBS)):
            n = 1 if words[i + 1] != "and" else 2  # "go and find the X", "go see the X"
        if n:
            i += n
            continue
        if words[i] in W.FILLER_WORDS and not (words[i] in ("like", "well") and out and
                                              out[-1].text not in (",", ".", "so")):
            i += 1
            continue
        if words[i] in ("so", "robot", "is") and (not out or out[-1].text in (",", ".", "!", "?")):
            i += 2 if words[i] == "is" and i + 1 < len(words) and words[i + 1] == "to" else 1
            continue
        out.append(spelt[i])
        i += 1
    return out


#: Verbs an emphatic "do" stands before ("Do keep close to the wall", "Do give the chairs a
#: wide berth"): the "do" adds nothing; "do not" is never this.
_EMPHATIC = ("keep", "stay", "give", "avoid", "try", "remember", "make", "be", "stop", "wait",
             "go", "come", "take", "steer", "mind", "watch")
_SENT_ENDS = (".", "!", "?", ";", ":")


def _spoken_forms(toks: list[Token]) -> list[Token]:
    """Typed speech read as it is meant: a sentence-initial emphatic "do" before a verb is
    dropped ("Do keep close to the wall"); "on the way back" / "on your way back" with no place
    after it is "on the way to start" (the return stage)."""
    out: list[Token] = []
    words = [t.text for t in toks]
    i = 0
    while i < len(toks):
        t = toks[i]
        opens = not out or out[-1].text in _SENT_ENDS or (
            out[-1].text == "," and len(out) > 1 and out[-2].text in W.FILLER_WORDS)
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if opens and t.text == "do" and nxt in _EMPHATIC and (
                words[i + 2] if i + 2 < len(words) else "") not in ("not", "n't"):
            i += 1
            continue
        if t.text == "either" and nxt in ROOM_WORD_TYPES and "or" not in words[i + 2:i + 5]:
            out.append(Token("any", t.start, t.end))  # "don't go through either bathroom"
            i += 1
            continue
        if words[i:i + 2] == ["on", "the"] or words[i:i + 2] == ["on", "your"]:
            if words[i + 2:i + 4] == ["way", "back"] and (
                    words[i + 4] if i + 4 < len(words) else ",") in (",", ".", ";"):
                out += [Token(w, t.start, toks[i + 3].end) for w in
                        ("on", "the", "way", "to", "start")]
                i += 4
                continue
        out.append(t)
        i += 1
    return out
