"""Legs of the route, passes through rooms and sides: the ways people scope a rule to a part of
the walk, rewritten onto the scope phrases :mod:`.scopes` reads.

Run on the tokens as typed, early in :func:`.human.human_forms` (:func:`leg_phrasings`), and
after the parse on the clauses (:func:`leg_clauses`). The phrasings, each a class:

* both legs of an out-and-back: "both ways", "there and back", "going and coming back",
  "neither going nor coming back", "in either direction" -> "the whole way";
* one leg by a word for it: "on that part of the journey", "on that leg", "going in", "on the
  way in" -> "on the way there" (the leg of the stop said last); "on that first leg" -> "on the
  first leg"; "till u get to X" -> "until you get to X";
* the walk back: "coming back", "on the return leg", "on the trip back" (said as a scope, before
  a comma or the rule's verb) -> "on the way back"; "on the way back from X", "coming back
  from X" -> "after leaving X"; after the parse, "on the way back" when the route names its
  return stop ("then back to the sofa") is the leg after the stop before that one, not a
  stage of its own at the start (:func:`leg_clauses`);
* the lap of a circle: "while you're going round", "while circling" -> the leg of the circle
  stage (:func:`leg_clauses`);
* a pass through a room said with how often: "each time / every time / both times / whenever
  you go through the R" -> "when you go through the R"; "cut through" -> "go through"; a rule
  on "X in the R as you pass through" -> "X as you pass through the R" (its scope is the R);
  "in the R itself" -> "in the R";
* a side of the walk: "keep over on the X side", "hug the X side", "keep to the X side" ->
  "stay close to the X" (the side of the room the X is on);
* a stop on the way: "(but) stop (off) on the way at X" -> "and on the way , stop at X" (a
  stop before the goal said), and "walk through the house and" before a stop (the walk is
  the route itself);
* an emphatic "do" after a scope ("on the way there do keep well away from X").

Hand-written, like the rest of the parser: the phrasings are closed classes of a few words
each, every rewrite keeps the character spans of what it read (a refusal still points into the
text), and a form that does not match exactly is left for the later stages to read or refuse.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from map2route.language.inflection import singular_word
from map2route.language.parser import words as W
from map2route.language.parser.destination_tokens import Context, take, tok
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.model import Clause, RefExpr, all_stages
from map2route.language.parser.speaker_scene import SPEAKER, WALKER, said_here, scene
from map2route.language.tokens import Token

__all__ = ["leg_clauses", "leg_phrasings"]

_ENDS = (".", "!", "?", ";")


def _seqs(*phrases: str) -> tuple[tuple[str, ...], ...]:
    # longest first, so that "neither going nor coming back" wins over "coming back"
    return tuple(sorted((tuple(p.split()) for p in phrases), key=len, reverse=True))


#: Both legs of an out-and-back (read as the whole way).
_BOTH_WAYS = _seqs(
    "both ways", "in both directions", "both directions", "there and back",
    "on the way there and back", "on the way there and on the way back",
    "going and coming back", "going and coming", "coming and going", "going and returning",
    "neither going nor coming back", "neither going nor coming", "either going or coming back",
    "not going nor coming back", "going there or coming back", "going there and coming back",
    "in either direction", "either direction", "each way", "out and back", "to and fro",
    "on the way out and on the way back", "on the way out and back")
#: One leg, named by a word for it: the leg of the stop said last.
_THIS_LEG = _seqs(
    "on that part of the journey", "on that part of the trip", "on that part of the route",
    "on that part of the walk", "on this part of the journey", "on this part of the trip",
    "for that part of the journey", "for that part of the trip", "for that part",
    "during that part of the journey", "during that part", "on that leg", "on this leg",
    "for that leg", "during that leg", "on that bit", "for that bit", "on the way in",
    "on your way in", "going in", "heading in", "on that stretch", "for that stretch")
#: The walk back said as a scope.
_BACK = _seqs(
    "coming back", "on the return leg", "on the return trip", "on the return journey",
    "on the trip back", "on the journey back", "on the walk back", "on your return",
    "on the return", "heading back", "going back", "when you come back", "as you come back",
    "while coming back", "while you come back", "when coming back", "on the leg back",
    "for the return leg", "during the return leg", "on the return stretch")
#: Verbs that open the rule a scope is run into (the scope ends before them).
_RULE_VERBS = frozenset({"keep", "stay", "stick", "avoid", "hug", "give", "steer", "do", "don't",
                         "never", "try", "remain", "mind", "watch", "leave", "be", "make",
                         "dont", "please", "i", "you"})
#: Opening a scope at the start of a rule: what may come before it.
_OPEN = frozenset({*_ENDS, ",", "and", "but", "then", "also", "oh", "so", "plus", ":", "-",
                   "(", ")"})
#: Verbs of a pass through a room, said with how often.
_THROUGH = {("go", "through"): ("go", "through"), ("pass", "through"): ("pass", "through"),
            ("walk", "through"): ("walk", "through"), ("cut", "through"): ("go", "through"),
            ("come", "through"): ("go", "through"), ("cross",): ("cross",),
            ("are", "in"): ("are", "in"), ("drive", "through"): ("go", "through"),
            ("head", "through"): ("go", "through"), ("travel", "through"): ("go", "through"),
            ("move", "through"): ("go", "through"), ("are", "crossing"): ("cross",),
            ("are", "going", "through"): ("go", "through"),
            ("are", "passing", "through"): ("pass", "through"),
            ("are", "walking", "through"): ("walk", "through"),
            ("are", "cutting", "through"): ("go", "through")}
_HOW_OFTEN = _seqs("each time", "every time", "both times", "whenever", "any time", "anytime",
                   "all the times")
_AS = ("as", "when", "while")
#: Verbs of keeping to a side.
_SIDE_VERBS = _seqs("keep over on", "keep over to", "keep to", "keep on", "stay over on",
                    "stay on", "stay to", "stick to", "stick on", "hug", "keep over towards",
                    "stay over to", "keep towards", "stay towards", "favour", "favor",
                    "keeping to", "keeping over on", "keeping on", "hugging", "sticking to",
                    "staying on", "staying over on")
#: Walking over a thing: running it over.
_TRAMPLE = _seqs("go trampling over", "go trampling on", "trample over", "trample on",
                 "go stomping over", "stomp over", "go tramping over", "tramp over",
                 "go clomping over", "trundle over", "go trundling over")
#: Gerunds of a pass through a room, opening a scope ("Going through the bathroom, ...").
_GERUNDS = {"going": ("go", "through"), "passing": ("pass", "through"),
            "walking": ("walk", "through"), "cutting": ("go", "through"),
            "coming": ("go", "through"), "heading": ("go", "through"),
            "moving": ("go", "through"), "driving": ("go", "through"),
            "crossing": ("cross",), "traversing": ("cross",)}
_GOING_ROUND = _seqs(
    "while you are going round", "while you are going around", "while going round",
    "while going around", "while you go round", "while you go around", "as you go round",
    "as you go around", "when going round", "when going around", "while you are circling",
    "while circling", "as you circle", "when circling", "while you circle",
    "while you are doing the lap", "while doing the lap", "during the lap", "on the lap",
    "while you are lapping", "while you are looping round", "while you are looping around",
    "as you are going round", "as you are going around")


def _at(words: list[str], k: int, seqs: tuple[tuple[str, ...], ...]) -> int:
    for s in seqs:
        if tuple(words[k:k + len(s)]) == s:
            return len(s)
    return 0


def _head(words: list[str], k: int) -> int:
    lex = head_lexicon()
    hit = lex.match(words[k:k + lex.max_len]) if 0 <= k < len(words) else None
    return hit[0] if hit else 0


def _room(words: list[str], k: int) -> int:
    lex = head_lexicon()
    hit = lex.match(words[k:k + lex.max_len]) if 0 <= k < len(words) else None
    return hit[0] if hit and hit[2] == "room" else 0


def _opens(words: list[str], k: int) -> bool:
    return k == 0 or words[k - 1] in _OPEN


def _scope_end(words: list[str], k: int) -> bool:
    """Whether the rule goes on at ``k`` (a comma or the rule's verb, not a stop)."""
    return k < len(words) and (words[k] == "," or words[k] in _RULE_VERBS)


#: Words after which "you" or "I" is the object or a relative clause's subject ("the bed
#: closest to you", "the TV nearest to where you start"), not the subject of the rule.
#: (After a determiner a rule verb is a noun: "the dresser with a watch on it".)
_NO_SUBJECT_BEFORE = frozenset({"to", "from", "near", "by", "at", "with", "of", "behind",
                                "beside", "for", "where", "that", "which", "who", "when",
                                "than", "like", "past", "around", "round"})


def _no_rule_start(words: list[str], j: int) -> bool:
    prev = words[j - 1] if j else ""
    return (words[j] in ("you", "u", "i") and prev in _NO_SUBJECT_BEFORE) or \
        prev in ("a", "an", "the", "this", "that", "your", "my", "his", "her", "their")


def _comma_before_rule(out: list[Token], toks: list[Token], words: list[str], k: int) -> int:
    """Copy ``toks`` from ``k`` up to the rule's verb (at most 10 words, none a sentence end),
    with a comma before that verb; returns where reading goes on."""
    j = k
    while j < len(words) and j - k < 10 and words[j] not in (*_ENDS, ",") and \
            not (words[j] in _RULE_VERBS and j > k and not _no_rule_start(words, j)):
        j += 1
    out += toks[k:j]
    if j < len(words) and words[j] in _RULE_VERBS:
        out.append(tok(",", toks[j]))
    return j


_YOU_WILL = _seqs("you will", "you have to", "you need to", "you must", "you are going to",
                  "you will have to", "you will need to", "you are gonna", "you have got to",
                  "u will", "u have to", "u need to")
_THROUGH_TAILS = _seqs("to get there", "to get to it", "to get to them", "on the way",
                       "on your way", "first", "on the way there", "on your way there")
_ORDINALS = ("first", "second", "third", "fourth", "last", "other")


def _rooms_on_the_way(toks: list[Token], words: list[str], k: int, ctx: Context
                      ) -> tuple[int, str] | None:
    """"You'll go through two other bedrooms (to get there)": how the route runs, reported as
    context; returns where reading goes on and the room word (singular), for a later "in the
    second of those"."""
    n = _at(words, k, _YOU_WILL) if _opens(words, k) or words[k - 1:k] == ["that"] else 0
    v = k + n
    if not n or words[v:v + 2] not in (["go", "through"], ["pass", "through"],
                                        ["walk", "through"], ["cut", "through"]):
        return None
    c = v + 2
    if words[c] not in W.NUMBERS or words[c] in ("a", "an", "no", "zero"):
        return None
    r = c + 1 + (1 if words[c + 1:c + 2] in (["other"], ["more"], ["different"]) else 0)
    hit = head_lexicon().match(words[r:r + head_lexicon().max_len])
    if hit is None or hit[2] != "room" or not hit[3]:
        return None
    e = r + hit[0]
    e += _at(words, e, _THROUGH_TAILS) if words[e:e + 3] != ["on", "the", "way"] or \
        words[e + 3:e + 4] != ["to"] else 0
    take(toks, k, e, ctx)
    return e + (1 if words[e:e + 1] == [","] and words[e + 1:e + 2] == ["and"] else 0), \
        singular_word(hit[1].replace("_", " "))


def leg_phrasings(toks: list[Token]) -> tuple[list[Token], Context]:
    """Rewrite the token phrasings of the module docstring; returns the tokens and what was
    taken out as context."""
    words = [t.text for t in toks]
    out: list[Token] = []
    ctx: Context = []
    through: str | None = None  # the rooms of "you'll go through two bedrooms"
    k = 0
    while k < len(toks):
        passed = _rooms_on_the_way(toks, words, k, ctx)
        if passed is not None:
            k, through = passed
            continue
        if through and words[k:k + 2] == ["in", "the"] and words[k + 2] in _ORDINALS and \
                words[k + 3:k + 5] in (["of", "those"], ["of", "them"], ["of", "these"],
                                       ["one"]):
            out += [toks[k], tok("the", toks[k + 1]),
                    *(tok(x, toks[k + 2]) for x in through.split())]
            k += 5 if words[k + 3] == "of" else 4
            continue
        for rule in _RULES:
            got = rule(toks, words, k)
            if got is not None:
                out += got[0]
                k = got[1]
                break
        else:
            if not (words[k] == "itself" and _room(words, k - 1)):  # "in the bedroom itself"
                out.append(toks[k])
            k += 1
    return out, ctx


Got = tuple[list[Token], int] | None


def _both_ways(toks: list[Token], words: list[str], k: int) -> Got:
    """"both ways", "neither going nor coming back" -> "the whole way"."""
    n = _at(words, k, _BOTH_WAYS)
    if n and (k + n >= len(words) or words[k + n] in (*_ENDS, ",", ")") or
              words[k + n] in _RULE_VERBS):
        return [tok("the", toks[k]), tok("whole", toks[k]), tok("way", toks[k + n - 1])], k + n
    return None


def _one_leg(toks: list[Token], words: list[str], k: int) -> Got:
    """"while you're going round" -> "on the way" (tied to the circle after the parse); "on that
    part of the journey", "going in" -> "on the way there ,"; "on that first leg" -> "on the
    first leg"."""
    n = _at(words, k, _GOING_ROUND)
    if n:
        return [tok(x, toks[k]) for x in ("on", "the", "way")], k + n
    n = _at(words, k, _THIS_LEG)
    if n and _opens(words, k) and _scope_end(words, k + n):
        got = [tok(x, toks[k]) for x in ("on", "the", "way", "there")]
        return got + ([] if words[k + n] == "," else [tok(",", toks[k + n])]), k + n
    if words[k] == "on" and words[k + 1:k + 2] in (["that"], ["this"]) and \
            words[k + 3:k + 4] == ["leg"]:
        return [toks[k], tok("the", toks[k + 1])], k + 2
    if words[k] in ("till", "til", "until") and words[k + 1:k + 2] in (["u"], ["you"]):
        out = [tok("until", toks[k]), tok("you", toks[k + 1])]
        return out, _comma_before_rule(out, toks, words, k + 2)
    return None


def _way_back(toks: list[Token], words: list[str], k: int) -> Got:
    """"coming back from X, ..." -> "after leaving X , ..."; "coming back, ..." -> "on the way
    back , ..."."""
    n = _at(words, k, _BACK)
    out: list[Token] = []
    if n and _opens(words, k) and words[k + n:k + n + 1] == ["from"] and \
            words[k + n + 1:k + n + 2] in (["the"], ["that"], ["this"]):
        out = [tok("after", toks[k]), tok("leaving", toks[k + n])]
        return out, _comma_before_rule(out, toks, words, k + n + 1)
    if words[k] == "on" and words[k + 1:k + 4] in (["the", "way", "back"],
                                                   ["your", "way", "back"]) \
            and words[k + 4:k + 5] == ["from"]:
        out = [tok("after", toks[k]), tok("leaving", toks[k + 4])]
        return out, _comma_before_rule(out, toks, words, k + 5)
    if n and _opens(words, k) and _scope_end(words, k + n):
        out = [tok(x, toks[k]) for x in ("on", "the", "way", "back")]
        return out + ([] if words[k + n] == "," else [tok(",", toks[k + n])]), k + n
    return None


def _how_often(toks: list[Token], words: list[str], k: int) -> Got:
    """"each time you go through the R" -> "when you go through the R"; "as you cut through"
    -> "as you go through"."""
    n = _at(words, k, _HOW_OFTEN)
    if n and _opens(words, k) and words[k + n:k + n + 1] in (["you"], ["u"]):
        verb = next((v for v in _THROUGH if tuple(words[k + n + 1:k + n + 1 + len(v)]) == v),
                    None)
        if verb is not None:
            out = [tok("when", toks[k]), tok("you", toks[k + n])]
            out += [tok(x, toks[k + n + 1]) for x in _THROUGH[verb]]
            return out, k + n + 1 + len(verb)
    if words[k] in _AS and words[k + 1:k + 2] in (["you"], ["u"]) and \
            words[k + 2:k + 4] == ["cut", "through"]:
        return [toks[k], tok("you", toks[k + 1]), tok("go", toks[k + 2]), toks[k + 3]], k + 4
    return None


def _side(toks: list[Token], words: list[str], k: int) -> Got:
    """"keep over on the sink side" -> "stay close to the sink"."""
    n = _at(words, k, _SIDE_VERBS)
    if n and words[k + n:k + n + 1] == ["the"]:
        h = _head(words, k + n + 1)
        b = k + n + 1 + h
        if h and words[b:b + 1] == ["side"] and words[b + 1:b + 3] != ["of", "the"]:
            out = [tok("stay", toks[k]), tok("close", toks[k]), tok("to", toks[k + n - 1])]
            return out + toks[k + n:b], b + 1
    return None


def _stop_on_the_way(toks: list[Token], words: list[str], k: int) -> Got:
    """"but stop (off) on the way at X" -> "and on the way , stop at X"; "walk through the
    house and" before a stop: the walk is the route itself."""
    w = words[k]
    if w in ("but", "and") and words[k + 1:k + 2] == ["stop"]:
        j = k + 2 + (1 if words[k + 2:k + 3] == ["off"] else 0)
        if words[j:j + 4] in (["on", "the", "way", "at"], ["along", "the", "way", "at"]):
            return [tok("and", toks[k]), tok("on", toks[j]), tok("the", toks[j + 1]),
                    tok("way", toks[j + 2]), tok(",", toks[j + 2]), tok("stop", toks[k + 1]),
                    toks[j + 3]], j + 4
    if w in ("walk", "go", "head") and words[k + 1:k + 5] == ["through", "the", "house",
                                                               "and"] and _opens(words, k):
        return [], k + 5
    if w in ("go", "come", "head") and words[k + 1:k + 4] == ["back", "through", "and"]:
        return [], k + 4  # "come back through and park by X": the walk back is the way to X
    return None


def _emphatic(toks: list[Token], words: list[str], k: int) -> Got:
    """"mind you don't ...", "on the way there do keep ...": the rule itself; "go trampling
    over X" -> "run over X"."""
    w, prev = words[k], words[k - 1] if k else ""
    if w == "mind" and words[k + 1:k + 2] == ["you"] and (
            words[k + 2:k + 4] == ["do", "not"] or words[k + 2:k + 3] in (
                ["keep"], ["stay"], ["steer"], ["give"], ["avoid"], ["stick"], ["never"])):
        return [], k + 2
    n = _at(words, k, _TRAMPLE)
    if n:
        return [tok("run", toks[k]), tok("over", toks[k + n - 1])], k + n
    if w == "do" and prev in (",", "and", "please", "there", "back", "but", "so", "way") and \
            words[k + 1:k + 2] in (["keep"], ["stay"], ["give"], ["steer"], ["mind"],
                                   ["try"], ["avoid"]):
        return [], k + 1
    return None


def _in_room_as_you_pass(toks: list[Token], words: list[str], k: int) -> Got:
    """"keep away from the telly in the lounge as you pass through." -> "keep away from the
    telly as you pass through the lounge .": the rule holds in the room it names."""
    if words[k:k + 2] not in (["in", "the"], ["inside", "the"]):
        return None
    r = _room(words, k + 2)
    if not r:
        return None
    a = k + 2 + r
    if words[a:a + 1] not in (["as"], ["when"], ["while"]) or \
            words[a + 1:a + 2] not in (["you"], ["u"]):
        return None
    v = a + 2 + (1 if words[a + 2:a + 3] == ["are"] else 0)
    verb = next((x for x in _THROUGH if tuple(words[v:v + len(x)]) == x and x[-1] == "through"),
                None)
    if verb is None:
        verb = next((x for x in (("passing", "through"), ("going", "through"),
                                 ("walking", "through"), ("cutting", "through"))
                     if tuple(words[v:v + 2]) == x), None)
    if verb is None:
        return None
    e = v + len(verb)
    if e < len(words) and words[e] not in (*_ENDS, ","):
        return None
    got = [tok(words[a], toks[a]), tok("you", toks[a + 1]), tok("go", toks[v]),
           tok("through", toks[e - 1]), *toks[k + 1:a]]
    return got, e


#: Verbs of a relative clause on a room ("the room you start in", "the room you were in").
_ROOM_RELATIVE_VERBS = frozenset({"start", "started", "begin", "began", "are", "were", "came",
                                  "entered", "first"})


def _gerund_room_scope(toks: list[Token], words: list[str], k: int) -> Got:
    """"(While) going through the big bathroom, stick close to X" -> "when you go through the
    big bathroom , stick close to X": a scope, not a pass of its own (a comma or the rule's
    verb follows the room)."""
    if not _opens(words, k):
        return None
    a = k + (1 if words[k] in _AS else 0)
    verb = _GERUNDS.get(words[a]) if a < len(words) else None
    if verb is None:
        return None
    b = a + 1 + (1 if words[a + 1:a + 2] in (["through"], ["across"]) else 0)
    if verb != ("cross",) and b == a + 1:
        return None
    if words[b:b + 1] not in (["the"], ["that"], ["this"]):
        return None
    e = b + 1
    while e < len(words) and e - b < 4 and not _room(words, e):
        e += 1  # "the big bathroom"
    r = _room(words, e)
    if not r or not _scope_end(words, e + r) or (
            words[e + r] in ("you", "u", "i") and words[e + r + 1:e + r + 2] and
            words[e + r + 1] in _ROOM_RELATIVE_VERBS):
        return None  # "while crossing the room you start in, ...": a relative clause follows
    got = [tok("when", toks[k]), tok("you", toks[a]), *(tok(x, toks[a]) for x in verb),
           *toks[b:e + r]]
    if words[e + r] != ",":
        got.append(tok(",", toks[e + r]))
    return got, e + r


#: Verbs of passing a thing on the way ("swing past the desk as you go through the bedroom").
_PAST_VERBS = frozenset({"past", "by"})


def _pass_as_you_go_through(toks: list[Token], words: list[str], k: int) -> Got:
    """"swing past the desk as you go through the bedroom" -> "swing past the desk in the
    bedroom on the way": the thing passed is in that room, and met on the way to the stop."""
    if words[k] not in _AS or words[k + 1:k + 2] not in (["you"], ["u"]):
        return None
    if not any(words[x] in _PAST_VERBS for x in range(max(0, k - 8), k)) or \
            any(words[x] in (*_ENDS, ",") for x in range(max(0, k - 4), k)):
        return None
    v = k + 2
    verb = next((x for x in _THROUGH if tuple(words[v:v + len(x)]) == x and x[-1] == "through"),
                None)
    if verb is None or words[v + len(verb):v + len(verb) + 1] not in (["the"], ["that"]):
        return None
    b = v + len(verb)
    e = b + 1
    while e < len(words) and e - b < 4 and not _room(words, e):
        e += 1
    r = _room(words, e)
    if not r or (e + r < len(words) and words[e + r] not in (*_ENDS, ",")):
        return None
    got = [tok("in", toks[k]), *toks[b:e + r], tok("on", toks[k]), tok("the", toks[k + 1]),
           tok("way", toks[v])]
    return got, e + r


_ROUND_RE = re.compile(r"\b(?:while|as|when|during|on)\s+(?:you(?:'re| are)?\s+|u\s+)?"
                       r"(?:going\s+(?:a)?round|go\s+(?:a)?round|circling|circle|doing\s+the"
                       r"\s+lap|the\s+lap|lapping|looping)\b", re.IGNORECASE)
_BACK_RE = re.compile(r"\b(?:back|return|returning)\b(?:\s+(?:here|over|straight))*\s+to\b",
                      re.IGNORECASE)


def _returns(stage: Clause, text: str) -> bool:
    """Whether ``stage`` was said as the walk back ("then come straight back to the sofa")."""
    head = text.lower().find(stage.refs[0].text.lower(), stage.span[0]) if stage.refs else -1
    end = head if head >= 0 else stage.span[0] + 12
    return _BACK_RE.search(text[max(0, stage.span[0] - 40):end]) is not None


#: A sentence that says where the speaker (the start) is: "I'm sitting on the couch in ...".
_HERE_RE = scene(SPEAKER + "|" + WALKER, anchored=False, to_end=True)


def _start_room(text: str, context_refs: list[RefExpr]) -> RefExpr | None:
    """The one room a scene-setting sentence puts the speaker in ("I'm sitting on the couch in
    the living room": the living room), if it names one."""
    rooms = []
    for ref in context_refs:
        if not _HERE_RE.search(text[:ref.span[0]]):
            continue
        rooms += [ref] if ref.head_kind == "room" else [
            r for m in ref.modifiers if m.kind == "in_room" for r in m.refs
            if r.head_kind == "room"]
    return rooms[0] if len({r.head for r in rooms}) == 1 else None


def leg_clauses(clauses: list[Clause], text: str,
                context_refs: list[RefExpr] | None = None) -> list[Clause]:
    """After the parse: "on the way back" when the route names its return stop is the leg to
    that stop (scoped ``after`` the stop before it), not a stop at the start of its own; a rule
    said "while you're going round" holds on the leg of the circle stage; a rule scoped to
    "this room" ("on your way out of this room") holds in the room the speaker said they are
    in ("I'm on the couch in the living room")."""
    stages = all_stages(clauses)
    start = _start_room(text, context_refs or [])
    for c in clauses:
        if start is not None and c.within is not None and said_here(c.within):
            c.within = start
    for c in [c for c in clauses if c.kind not in ("goal", "pass", "circle", "follow_wall")]:
        until = (c.during or {}).get("until")
        if isinstance(until, RefExpr) and until.head == "start" and \
                not re.search(r"start|begin|origin", until.text, re.IGNORECASE):
            extra = next((g for g in clauses if g.kind == "goal" and g.refs and
                          g.refs[0] is until), None)
            back = [s for s in stages if s is not extra and s.kind == "goal" and s.refs and
                    _returns(s, text)]
            if back:
                k = stages.index(back[-1])
                if k and stages[k - 1].refs:
                    c.during = {"after": stages[k - 1].refs[0]}
                    if extra is not None:
                        clauses.remove(extra)
                        stages.remove(extra)
        if c.during == {"this": True} and re.search(
                r"\bway\s+there\b", text[max(0, c.span[0] - 24):c.span[1] + 24], re.IGNORECASE):
            # "go to X and come back to Y, ... on the way there": the way to X, not back
            before = [s for s in stages if s.span[0] < c.span[0] and s.refs]
            if len(before) > 1 and (before[-1].refs[0].head == "start" or _returns(before[-1], text)):
                c.during = {"until": before[-2].refs[0]}
        if c.during == {"this": True}:
            # the scope is said before the rule or after it
            m = _ROUND_RE.search(text, max(0, c.span[0] - 40), min(len(text), c.span[1] + 40))
            circle = next((s for s in stages if s.kind == "circle" and s.refs), None)
            if m and circle is not None:
                c.during = {"until": circle.refs[0]}
    return clauses


_RULES: tuple[Callable[[list[Token], list[str], int], Got], ...] = (
    _both_ways, _one_leg, _way_back, _how_often, _in_room_as_you_pass, _side, _stop_on_the_way,
    _gerund_room_scope, _pass_as_you_go_through, _emphatic)
