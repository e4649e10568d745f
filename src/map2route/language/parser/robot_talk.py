"""Requests said about the robot in the third person: "The robot should drive to the fridge".

People who write instructions for a robot they are describing rather than addressing put it
in the subject ("The robot should drive over to the refrigerator", "The robot must not enter
the kitchen"), in the object of a placing verb ("Position the robot at the point halfway
between ...", "Send the robot to the safe", "Park the robot next to the hamper") or in a
wish ("I want the robot to go to the sofa", "Have the robot go to the bed"). Each says what
"Go to ..." / "Do not enter ..." says to the robot directly, so :func:`robot_talk` rewrites
the words about the robot onto that second-person form, keeping the character spans (a later
refusal still points into the original text). It also reads "come to a stop" as "stop".

Only "the robot" / "robot" followed by a modal, or standing as the object of a closed list of
placing verbs or of a wish, is rewritten: "keep the robot away from X" and anything else about
the robot is left for the later stages (which refuse it, naming the span). The phrasings are a
closed class of a few words each, so they are written by hand like the rest of the parser.
"""

from __future__ import annotations

from map2route.language.tokens import Token

__all__ = ["robot_talk"]

#: Modals after "the robot" ("the robot should go", "the robot needs to go"), with their length.
_MODALS = (("should",), ("must",), ("will",), ("shall",), ("can",), ("needs", "to"),
           ("need", "to"), ("has", "to"), ("is", "to"), ("ought", "to"), ("is", "going", "to"),
           ("is", "supposed", "to"), ("should", "be", "able", "to"))
#: Placing verbs whose object is the robot ("position the robot at ...").
_PLACERS = ("position", "send", "park", "move", "put", "place", "drive", "steer", "take",
            "bring", "navigate", "direct", "get")
#: What may follow "PLACER the robot": the place it is put.
_PLACE_PREPS = ("to", "at", "next", "beside", "by", "near", "in", "into", "over", "up",
                "in front of", "right", "directly", "close", "towards", "toward", "back")
#: Wishes whose object is the robot ("I want the robot to go ...", "have the robot go ...").
_WISHES = (("i", "want"), ("i", "would", "like"), ("i", "'d", "like"), ("i", "need"),
           ("we", "want"), ("we", "need"), ("get",), ("have",), ("make",), ("let",),
           ("please", "have"), ("please", "get"), ("please", "make"), ("please", "let"))
#: Words a request's sentence may open with before the robot ("so", ",").
_OPEN = ("", ".", "!", "?", ";", ",", "and", "then", "so", "now", "first", "please", ":")


def _at(words: list[str], i: int, seq: tuple[str, ...]) -> bool:
    return tuple(words[i:i + len(seq)]) == seq


def _robot(words: list[str], i: int) -> int:
    """The length of "the robot" / "robot" / "our robot" at ``i`` (0 when none)."""
    if words[i:i + 1] == ["robot"]:
        return 1
    if words[i:i + 1] in (["the"], ["our"], ["your"], ["this"]) and words[i + 1:i + 2] == ["robot"]:
        return 2
    return 0


def robot_talk(toks: list[Token]) -> list[Token]:
    """Rewrite the third-person requests of the module docstring onto "go ..." forms."""
    words = [t.text for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(toks):
        prev = words[i - 1] if i else ""
        r = _robot(words, i)
        # "the robot should (not) VERB" -> "(do not) VERB"
        if r and prev in _OPEN:
            m = max((len(p) for p in _MODALS if _at(words, i + r, p)), default=0)
            if m:
                k = i + r + m
                if words[k:k + 1] == ["not"] or words[k:k + 1] == ["never"]:
                    if words[k] == "not":
                        out.append(Token("do", toks[i].start, toks[k - 1].end))
                    out.append(toks[k])
                    k += 1
                if k < len(toks) and words[k] not in _OPEN:
                    i = k
                    continue
        # "position the robot at X" -> "go to X"
        if words[i] in _PLACERS and prev in _OPEN:
            r = _robot(words, i + 1)
            k = i + 1 + r
            if r and k < len(toks) and words[k] in _PLACE_PREPS:
                out.append(Token("go", toks[i].start, toks[k - 1].end))
                if words[k] == "at":
                    out.append(Token("to", toks[k].start, toks[k].end))
                    k += 1
                i = k
                continue
        # "I want the robot to go ..." / "have the robot go ..." -> "go ..."
        w = max((len(p) for p in _WISHES if _at(words, i, p)), default=0)
        if w and prev in _OPEN:
            r = _robot(words, i + w)
            k = i + w + r
            if r:
                k += words[k:k + 1] == ["to"]
                if k < len(toks) and words[k] not in _OPEN:
                    i = k
                    continue
        # "come to a stop" -> "stop"
        if _at(words, i, ("come", "to", "a", "stop")) or _at(words, i, ("come", "to", "a", "halt")):
            out.append(Token("stop", toks[i].start, toks[i + 3].end))
            i += 4
            continue
        out.append(toks[i])
        i += 1
    return out
