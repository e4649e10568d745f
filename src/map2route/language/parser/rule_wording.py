"""Rule wording: the everyday words people use for a route rule, read onto the wording the
constraint frames (:mod:`.constraint_frames`, :mod:`.constraints`) already read.

People word keep-away, keep-close, don't-run-over, don't-squeeze-between and clearance rules
with free combinations of a few word classes, so each class is a table here, not a sentence:

* *How much room* ("a nice wide gap", "a good amount of clearance", "a generous clearance", "a
  respectful distance", "half a metre"): a determiner, size words, an amount ("lots of", "a
  good amount of") and a room noun (berth, room, space, clearance, distance, gap, margin,
  buffer), said after a verb of giving room (give, keep, leave, allow, maintain) or opening a
  sentence ("Wide berth around both lamps"): read as "plenty of room" (which
  :func:`.constraint_frames.give_room` reads as keeping away from the thing).
* *How close* after stay / keep / stick ("right up against", "in close to", "tight to", "nice
  and tight to", "alongside"): read as "close to"; "cling to" as "stay close to".
* *Getting between* after a negator, with the words people put in between ("don't try to fit
  between", "don't you go squeezing between", "never try and nip between"): read as "do not
  squeeze between" (:func:`.rewrites.dont_pass_between`).
* *Entering*, said as an idiom ("poke your nose into", "don't even think about going into"):
  read as "go into" / "do not go into".
* Restatements after a rule, which add no place and are reported as context, never dropped:
  "go around instead" after a don't-go-between, "not even to cut through" after a
  don't-go-into.
* Emphatic "do" before a rule verb ("do leave a wide berth"), the texted "n" for "and" before a
  rule ("... n dont bump into the cart") and "the TV on its stand" (a description: the TV on
  the TV stand).

Every rewritten token keeps the character span of the words it stands for (so refusals and the
constraint's text still point at what was said), and a phrase only fires when all of its parts
are in the tables: anything else is left for the later rules, which refuse what they cannot
read. Hand-written, as the rest of the parser, so that nothing is guessed and nothing is
dropped.
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["rule_wording"]

_ENDS = frozenset({".", "!", "?", ";"})


def _s(*phrases: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(p.split()) for p in phrases)


def _at(words: list[str], k: int, options: tuple[tuple[str, ...], ...]) -> int:
    """Length of the longest of ``options`` found at ``k`` (0 when none)."""
    return max((len(o) for o in options if tuple(words[k:k + len(o)]) == o), default=0)


def _tok(text: str, toks: list[Token], a: int, b: int) -> Token:
    """A token ``text`` spanning the tokens ``a:b``."""
    return Token(text, toks[a].start, toks[b - 1].end)


# --- how much room -------------------------------------------------------------------------
#: Words that size the room ("a nice wide gap", "a really generous clearance").
_SIZE = frozenset({"nice", "good", "wide", "big", "bigger", "wider", "generous", "decent",
                   "healthy", "respectful", "safe", "large", "huge", "fair", "reasonable",
                   "sensible", "proper", "real", "really", "very", "extra", "ample", "broad",
                   "comfortable", "lovely", "massive", "wee", "little", "bit", "and", "more",
                   "enough", "some", "plenty", "lots", "loads", "heaps", "tons", "of", "lot",
                   "amount", "deal", "great", "safety", "clear"})
#: Room nouns.
_ROOM_NOUNS = frozenset({"berth", "room", "space", "clearance", "distance", "gap", "margin",
                         "buffer"})
#: Verbs that give room to a thing ("give X lots of room", "keep a wide berth round X").
_ROOM_VERBS = frozenset({"give", "giving", "gave", "keep", "keeping", "leave", "leaving",
                         "allow", "allowing", "maintain", "maintaining"})
#: After the room phrase, the preposition that names the thing ("around", "from").
_ROOM_PREPS = frozenset({"around", "round", "from", "to", "for", "near", "between", "off"})
#: Measures of room ("half a metre", "two feet", "a couple of metres").
_COUNTS = _s("half a", "a", "one", "two", "three", "a couple of", "a few", "1", "2", "3",
             "one and a half", "a metre and a", "half")
_UNITS = frozenset({"metre", "metres", "meter", "meters", "m", "foot", "feet", "ft", "yard",
                    "yards", "step", "steps", "arm's", "arms"})
_OWN = frozenset({"the", "that", "this", "its", "their", "your", "my", "his", "her", "our"})


#: Room phrases the constraint frames read as said (their table of amounts and room nouns).
_READ = frozenset(_s(*(f"{a}{n}" for a in (
    "", "a wide ", "a big ", "a good ", "wide ", "lots of ", "plenty of ", "some ", "more ",
    "extra ", "enough ", "a lot of ", "a bit of ", "a little ", "a little bit of ", "loads of ",
    "a fair bit of ", "a decent amount of ", "a safe ")
    for n in ("berth", "room", "space", "clearance", "distance"))))


def _amount(words: list[str], k: int) -> int:
    """Length of a room phrase at ``k`` ("a nice wide gap", "a good amount of clearance",
    "half a metre"), 0 when none: an optional article, size and amount words, a room noun."""
    q = k + (words[k:k + 1] in (["a"], ["an"]))
    while q < len(words) and words[q] in _SIZE:
        q += 1
    if q < len(words) and words[q] in _ROOM_NOUNS and q > k:
        return q + 1 - k
    c = _at(words, k, _COUNTS)
    if c and k + c < len(words) and words[k + c] in _UNITS:
        n = c + 1
        n += words[k + n:k + n + 1] == ["length"]  # "an arm's length"
        return n
    return 0


def _names_thing(words: list[str], k: int) -> bool:
    """Whether a thing's name follows the preposition at ``k`` within a few words ("round the
    beds", "from all the chairs"): only then is the room phrase a rule the later stages read."""
    lex = head_lexicon()
    return any(lex.match(words[q:q + lex.max_len]) is not None
               for q in range(k + 1, min(len(words), k + 6)) if words[q] not in _ENDS)


def _room_phrase(toks: list[Token], words: list[str], out: list[Token], k: int) -> int:
    """Read a room phrase at ``k`` as "plenty of room" (see the module docstring); returns the
    index reading goes on at, or 0 when none fires."""
    if k and (words[k - 1] in _OWN or words[k - 1] in _SIZE or words[k - 1] in ("a", "an")):
        return 0  # "the room", "the gap between": a place; or inside an amount already
    n = _amount(words, k)
    if not n:
        return 0
    lead = [t.text for t in out[-9:]]
    cut = max((i for i, w in enumerate(lead) if w in _ENDS or w == ","), default=-1)
    # the verb right before ("keep a nice wide gap"), or "give" before the thing given room
    gave = [i for i, w in enumerate(lead) if i > cut and w in ("give", "giving", "gave")]
    verb = bool(lead) and lead[-1] in _ROOM_VERBS or bool(gave) and any(
        head_lexicon().match(lead[i:i + 1]) is not None for i in range(gave[0] + 1, len(lead)))
    opens = not out or out[-1].text in _ENDS or out[-1].text in (",", ":", "and", "also")
    if not verb and not opens:
        return 0
    after = words[k + n:k + n + 1] != [] and words[k + n] in _ROOM_PREPS and \
        _names_thing(words, k + n)
    if not after and not (gave and lead[-1] not in _ROOM_VERBS):
        return 0  # room from a thing named after it, or given to one named before it
    measure = words[k + n - 1] not in _ROOM_NOUNS
    if measure and words[k + n:k + n + 1] != ["off"]:
        return 0  # "keep a metre from X", "a metre away from X": read as said
    read = tuple(words[k:k + n]) in _READ  # "a wide berth", "lots of room": read as said
    if verb and read:
        return 0
    if not verb:  # "Wide berth around both floor lamps": the verb is left out
        if measure:
            return 0
        out.append(_tok("keep", toks, k, k + 1))
    if read:
        out.extend(toks[k:k + n])
        return k + n
    out.extend(_tok(w, toks, k, k + n) for w in ("a", "wide", "berth"))
    if words[k + n:k + n + 1] == ["off"]:  # "keep half a metre off the chairs"
        out.append(_tok("from", toks, k + n, k + n + 1))
        return k + n + 1
    return k + n


# --- how close -----------------------------------------------------------------------------
_STAY = frozenset({"stay", "staying", "keep", "keeping", "stick", "sticking", "remain",
                   "remaining"})
#: Ways of saying "close to" after stay / keep / stick.
_CLOSE = _s(*(f"{d}{c}" for d in ("", "right ", "really ", "nice and ", "real ", "very ")
              for c in ("up against", "against", "in close to", "in close by", "in tight to",
                        "tight to", "tight against", "tight by", "snug to", "snug against",
                        "up close to", "up close against", "close in to", "closely to",
                        "alongside", "right alongside", "in close beside", "tight beside")))
_CLING = _s("cling to", "clinging to", "cling close to", "hug close to", "hugging close to")


def _close(toks: list[Token], words: list[str], out: list[Token], k: int) -> int:
    if not out or out[-1].text not in _STAY:
        c = _at(words, k, _CLING)
        if not c:
            return 0
        verb = "staying" if words[k].endswith("ing") else "stay"
        out.extend([_tok(verb, toks, k, k + c - 1), _tok("close", toks, k, k + c - 1),
                    _tok("to", toks, k + c - 1, k + c)])
        return k + c
    n = _at(words, k, _CLOSE)
    if not n:
        return 0
    out.extend(_tok(w, toks, k, k + n) for w in ("close", "to"))
    return k + n


# --- getting between -----------------------------------------------------------------------
_NEG = _s("do not", "dont", "never", "please do not", "please never", "do not ever",
          "never ever", "under no circumstances are you to", "under no circumstances should you",
          "under no circumstances", "you are not to", "you must not", "you should not")
#: Words people put between the negator and the verb ("don't you go squeezing", "don't try
#: to fit", "never even try and nip").
_FILL = _s("you", "even", "ever", "just", "go", "try to", "try and", "try", "you go",
           "you try to", "you try and", "go and", "be", "go trying to", "attempt to")
_SQUEEZE = frozenset({"squeeze", "squeezing", "fit", "fitting", "nip", "nipping", "sneak",
                      "sneaking", "slip", "slipping", "weave", "weaving", "thread", "threading",
                      "cut", "cutting", "go", "going", "walk", "walking", "drive", "driving",
                      "pass", "passing", "get", "getting", "wiggle", "wiggling", "shimmy",
                      "shimmying", "come", "coming", "move", "moving", "wander", "wandering"})
_GAP_WORDS = _s("yourself", "through", "through the gap", "through the space", "in", "into the gap",
                "in the gap", "through the middle", "your way", "your way through")


def _between(toks: list[Token], words: list[str], out: list[Token], k: int) -> int:
    neg = _at(words, k, _NEG)
    if not neg:
        return 0
    q = k + neg
    fill = 0
    while (f := _at(words, q, _FILL)) and fill < 3:
        q += f
        fill += 1
    if q >= len(words) or words[q] not in _SQUEEZE:
        return 0
    q += 1
    q += _at(words, q, _GAP_WORDS)
    if words[q:q + 1] != ["between"] or not fill and q == k + neg + 1 and words[k + neg] in (
            "pass", "walk", "go", "move", "cut", "squeeze", "drive", "come") and \
            words[k:k + neg] in (["do", "not"], ["never"], ["please", "do", "not"], ["dont"]):
        return 0  # "(please) don't walk between": read as said
    if words[k:k + neg] in (["do", "not"], ["never"]):
        out.extend(toks[k:k + neg])
    else:
        out.extend([_tok("do", toks, k, k + neg), _tok("not", toks, k, k + neg)])
    out.append(_tok("squeeze", toks, k + neg, q))
    return q


_NEGATED = frozenset({"not", "never", "avoid", "avoiding", "squeeze", "no"})


def _two_of(toks: list[Token], words: list[str], out: list[Token], k: int) -> int:
    """"don't squeeze between the two beds" -> "... between the bed and the other bed": the
    gap between two things of one kind (only in a rule, so "halfway between the two beds"
    is left to the readers of points)."""
    if not out or out[-1].text != "between":
        return 0
    said = set()
    for t in reversed(out):
        if t.text in _ENDS:
            break
        said.add(t.text)
    if not said & _NEGATED:
        return 0
    q = k + _at(words, k, _s("the two", "both the", "both", "the", "those two", "these two"))
    lex = head_lexicon()
    hit = lex.match(words[q:q + lex.max_len])
    if q == k or hit is None or not hit[3] or hit[2] == "room":
        return 0
    one = hit[1].split("_")
    again = lex.match(one)
    if again is None or again[1] != hit[1] or again[0] != len(one):
        return 0
    span = (toks[k].start, toks[q + hit[0] - 1].end)
    for w in ("the", *one, "and", "the", "other", *one):
        out.append(Token(w, *span))
    return q + hit[0]


# --- entering, said as an idiom ------------------------------------------------------------
_NOSE = _s(*(f"{g}{v} {o} nose {p}" for g in ("", "go ", "going ")
             for v in ("poke", "poking", "stick", "sticking")
             for o in ("your", "its", "his", "her", "the robot's")
             for p in ("into", "in", "inside")))
_EVEN_THINK = _s("even think about", "even think of", "even consider", "dare")
_GOING = {"going": "go", "walking": "walk", "heading": "head", "driving": "drive",
          "entering": "enter", "cutting": "cut", "coming": "come", "wandering": "wander",
          "touching": "touch", "stepping": "step", "getting": "get", "squeezing": "squeeze"}


def _enter(toks: list[Token], words: list[str], out: list[Token], k: int) -> int:
    n = _at(words, k, _NOSE)
    if n:
        out.extend(_tok(w, toks, k, k + n) for w in ("go", "into"))
        return k + n
    if out and out[-1].text == "not" and (e := _at(words, k, _EVEN_THINK)) and \
            words[k + e:k + e + 1] and words[k + e] in _GOING:
        out.append(_tok(_GOING[words[k + e]], toks, k, k + e + 1))
        return k + e + 1
    return 0


# --- restatements after a rule (context) -------------------------------------------------
_AROUND = _s(*(f"{v} {a}{o}{t}" for v in ("go", "drive", "walk", "come", "head", "take")
               for a in ("around", "round", "the long way round", "the long way around",
                         "the long way")
               for o in ("", " it", " them")
               for t in (" instead", "")))
_NOT_EVEN = _s(*(f"not even {w}" for w in (
    "to cut through", "to cut through it", "to go through", "to go through it",
    "to pass through", "to pass through it", "to cut across", "to cut across it",
    "for a second", "for a moment", "for a minute", "briefly", "once", "a little bit",
    "to get through", "for a shortcut", "as a shortcut", "to take a shortcut")))
_RULE_WORDS = frozenset({"between", "not", "never", "avoid", "out", "away", "clear", "room",
                         "close", "near", "berth", "distance", "over"})
#: Words of a rule a reason may follow (a bare "not" may negate anything: "not fetch, you
#: can't carry anything").
_REASON_AFTER = (_RULE_WORDS - {"not", "never"}) | {"squeeze", "into", "through", "touch",
                                                    "enter", "bump", "knock", "mind"}
#: "..., you'll get stuck", "..., you keep clipping the bed frames": what the walker would do
#: otherwise, said after a rule: a reason (the modal or habit word after "you" says so).
_YOU_HOW = frozenset({"will", "would", "might", "may", "could", "can", "keep", "always",
                      "tend", "often", "sometimes", "usually", "just", "never",
                      "kept", "nearly", "almost", "did", "once"})
_ROUTE_WORDS = frozenset({"go", "head", "walk", "drive", "come", "stop", "visit", "then",
                          "wait", "finish", "end", "return", "turn", "to"})


_WHO = frozenset({"you", "he", "she", "they", "it", "we", "i"})
_OR = _s("or", "or else", "otherwise")


def _you_reason(words: list[str], k: int) -> int:
    """Length of a reason at ``k`` up to the clause end (0 if none): "(or) you'll get stuck",
    "or he'll never forgive you", "they tip if you so much as breathe on them"."""
    o = _at(words, k, _OR)
    s = k + o
    who = words[s].split("'")[0] if s < len(words) else ""
    if who not in _WHO or (who == words[s] and words[s + 1:s + 2] == []):
        return 0
    how = "will" if who != words[s] else words[s + 1]  # "he'll", "they'd"
    e = s + 1
    while e < len(words) and words[e] not in _ENDS and words[e] != ",":
        if words[e] in _ROUTE_WORDS:
            return 0
        e += 1
    if how not in _YOU_HOW and not (who != "you" and "if" in words[s + 2:e]):
        return 0  # a modal or habit ("you'll", "he keeps"), or "it tips if ..."
    return e - k if e > s + 1 + (who == words[s]) else 0


def _restated(toks: list[Token], words: list[str], out: list[Token], k: int,
              context: list[tuple[str, tuple[int, int]]]) -> int:
    said = set()
    for t in reversed(out):
        if t.text in _ENDS:
            break
        said.add(t.text)
    if out and words[k] in ("or", "otherwise") and said & _REASON_AFTER and \
            (n := _you_reason(words, k)):  # "don't walk between them or he'll never forgive you"
        context.append((" ".join(words[k:k + n]), (toks[k].start, toks[k + n - 1].end)))
        return k + n
    if not out or out[-1].text not in (",", "-", "—"):
        return 0
    n = _at(words, k, _NOT_EVEN) if said & _RULE_WORDS else 0
    if not n and "between" in said:
        n = _at(words, k, _AROUND)
        if n and words[k + n - 1] not in ("instead", "it", "them") and \
                words[k + n:k + n + 1] not in ([","], *([e] for e in _ENDS), []):
            n = 0  # "go around the table": a stage, not a restatement
    if not n and said & _REASON_AFTER:
        n = _you_reason(words, k)
    if not n:
        return 0
    context.append((" ".join(words[k:k + n]), (toks[k].start, toks[k + n - 1].end)))
    out.pop()  # the comma or dash before it
    return k + n


# --- small words ---------------------------------------------------------------------------
_EMPHATIC_DO = frozenset({"leave", "give", "keep", "stay", "steer", "mind", "watch", "hug",
                          "stick", "avoid", "try"})
_RULE_OPENERS = frozenset({"dont", "do", "don't", "never", "watch", "mind", "keep", "stay",
                           "give", "hug", "stick", "steer", "avoid", "leave", "careful",
                           "be", "look"})
_STAND = _s("on its stand", "on the stand", "on its little stand", "on its own stand")


def _small(toks: list[Token], words: list[str], out: list[Token], k: int) -> int:
    w = words[k]
    if w == "do" and words[k + 1:k + 2] and words[k + 1] in _EMPHATIC_DO and \
            (not out or out[-1].text in (*_ENDS, ",", "and", "but", "also", "please", "so")):
        out.append(_tok(words[k + 1], toks, k, k + 2))  # "do leave ...": emphasis
        return k + 2
    if w == "n" and out and out[-1].text not in _ENDS and words[k + 1:k + 2] and \
            words[k + 1] in _RULE_OPENERS:
        out.append(_tok("and", toks, k, k + 1))  # typed "n" for "and"
        return k + 1
    if w in ("down", "over", "up") and words[k + 1:k + 2] == ["by"] and out and \
            head_lexicon().match([out[-1].text]) is not None:
        out.append(_tok("by", toks, k, k + 2))  # "the plunger down by the wall"
        return k + 2
    n = _at(words, k, _STAND)
    if n and out:
        hit = head_lexicon().match([out[-1].text])
        if hit is not None and hit[1] == "television":
            out.extend([_tok("on", toks, k, k + 1), _tok("the", toks, k + 1, k + n - 1),
                        _tok("tv", toks, k + n - 1, k + n), _tok("stand", toks, k + n - 1,
                                                                   k + n)])
            return k + n
    return 0


def rule_wording(toks: list[Token]) -> tuple[list[Token], list[tuple[str, tuple[int, int]]]]:
    """The tokens with the rule wording of the module docstring read onto the phrasings the
    later stages read, and the restatements taken out as context (each with its span)."""
    words = [t.text for t in toks]
    out: list[Token] = []
    context: list[tuple[str, tuple[int, int]]] = []
    k = 0
    while k < len(toks):
        nxt = (_small(toks, words, out, k) or _two_of(toks, words, out, k) or _room_phrase(toks, words, out, k) or
               _close(toks, words, out, k) or _between(toks, words, out, k) or
               _enter(toks, words, out, k) or _restated(toks, words, out, k, context))
        if nxt:
            k = nxt
            continue
        out.append(toks[k])
        k += 1
    return out, context
