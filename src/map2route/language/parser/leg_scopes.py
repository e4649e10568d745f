"""Rules scoped to a leg of the route said by its ends, its order or what happens on it:
"on the way back to the sofa", "on that last bit back to the door", "in the second part of
the way", "on the leg between the fridge and the toilet", "for the segment from A to B",
"from the cart on (to the door)", "after you grab the bin", "until you've got the remote",
"while you're doing it" (the whole route), "while you're crossing that one" (a room said
before).

Run first of the leg passes in :func:`.human.human_forms`, on the tokens as typed. Each
phrasing is rewritten onto the scope phrasing the later stages already read, keeping the
character spans so that a later refusal still points into the original text:

* "on the/that way back to X" -> "on the way to X" (the leg that ends at X); "... back to
  me/here" -> "on the way back"; "on the way back from X" -> "after you reach X";
* "on/for/in the (last|first|2nd|...) (bit|leg|part|stretch|segment|...) [of the way]
  [back] to X" -> "on the way to X"; without "to X" -> "on the <ordinal> leg";
* "on/for the (leg|part|bit|stretch|segment|...) between/from A and/to B" -> "on the way
  from A to B" (the leg that ends at B); "between the two Xs" -> "on the way to the X" (the
  second X, the last said before the rule);
* "from A on(wards) [to B]" opening a rule -> "after you reach A" / "on the way from A to B";
* "after/once you (grab|get|pick up|collect|fetch|'ve got) X" -> "after you reach X";
  "until/till you('ve) (got|grabbed|picked up|...) X" -> "until you reach X"; a comma left
  between such a scope opened mid-sentence ("... and after X, keep ...") and its rule is
  taken out, since the list reader would take "after X ," for one more stop; "but" opening
  a scoped rule ("..., but on the way keep ...") is read as "and" (the scope was lost with it);
* "while you're doing it/that", "as you do so", "the whole time you're doing this" -> "the
  whole way" (the whole route);
* after the parse, "as you leave the small living room keep away from the sofa in the big
  living room" (read in the room left) where a stop was made in the room left: the leg that
  leaves it (:func:`leave_room_legs`);
* "while you're crossing/in that one/that room/it" -> "... that <room>", the room said last
  before it (read by the anaphoric scopes pass as that room).

Anything not matched exactly is left alone for the later stages, which read it or refuse it
(nothing is dropped here: every folded word is the scope's own wording). Closed
constructions of a few words, so written by hand like the rest of the parser.
"""

from __future__ import annotations

import re

from map2route.language.inflection import singular_word
from map2route.language.parser.destination_tokens import tok
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.model import Clause, RefExpr, all_stages
from map2route.language.parser.rule_scan import scan_writing
from map2route.language.tokens import Token

__all__ = ["leave_room_legs", "leg_scopes"]

_OPENERS = frozenset({"on", "for", "during", "along", "over", "in"})
_DETS = frozenset({"the", "that", "this", "your", "my"})
_PIECES = frozenset({"bit", "leg", "part", "stretch", "section", "segment", "piece", "stage",
                     "portion", "trip", "walk"})
_ORDINALS = {"first": "first", "1st": "first", "second": "second", "2nd": "second",
             "third": "third", "3rd": "third", "fourth": "fourth", "4th": "fourth",
             "last": "last", "final": "last", "next": "next"}
_WHOLES = frozenset({"way", "route", "trip", "journey", "walk", "run"})
_BEFORE = frozenset({".", ",", ";", "!", "?", ":", "-", "(", ")", "and", "but", "then", "so",
                     "oh", "also", "plus", "um", "uh", "ok", "okay", "now", "please", "pls"})
#: Verbs of getting a thing (an errand's stop), read as reaching it.
_GET = (("picked", "up"), ("pick", "up"), ("grab",), ("grabbed",), ("get",), ("got",),
        ("collect",), ("collected",), ("fetch",), ("fetched",), ("take",), ("took",),
        ("have", "got"), ("have", "grabbed"), ("have", "reached"), ("reached",),
        ("have", "picked", "up"), ("have", "collected"), ("have", "fetched"))
_RULE_VERBS = frozenset({"keep", "stay", "stick", "avoid", "hug", "give", "steer", "do", "don't",
                         "dont", "never", "try", "remain", "mind", "watch", "leave", "be",
                         "please", "pls", "go", "make", "not"})
_DOING = (("you", "are", "doing", "it"), ("you", "are", "doing", "that"),
          ("you", "are", "doing", "this"), ("you", "are", "doing", "so"),
          ("you", "do", "it"), ("you", "do", "that"), ("you", "do", "this"),
          ("you", "do", "so"))  # "while doing so" (no "you"): the leg just said, read already
_CROSSING = (("crossing",), ("going", "through"), ("passing", "through"), ("walking", "through"),
             ("driving", "through"), ("in",), ("inside",))


def _opens(words: list[str], k: int) -> bool:
    return k == 0 or words[k - 1] in _BEFORE


def _at(words: list[str], k: int, seqs: tuple[tuple[str, ...], ...]) -> int:
    for s in sorted(seqs, key=len, reverse=True):
        if tuple(words[k:k + len(s)]) == s:
            return len(s)
    return 0


def _toks(texts: str, like: Token, end: Token | None = None) -> list[Token]:
    return [tok(x, like, end) for x in texts.split()]


def _you(words: list[str], k: int) -> int:
    """Length of "you" / "you 've" / "you have" / "u" at ``k`` (0 when none)."""
    if words[k:k + 1] not in (["you"], ["u"]):
        return 0
    return 1


def _way_back(toks: list[Token], words: list[str], k: int) -> tuple[list[Token], int] | None:
    """"on the/that way back to X" -> "on the way to X"; "... to me" -> "on the way back";
    "on the way back from X" -> "after you reach X"."""
    if not (words[k] in ("on", "along") and words[k + 1:k + 2] and words[k + 1] in _DETS and
            words[k + 2:k + 4] == ["way", "back"] and _opens(words, k)):
        return None
    nxt = words[k + 4:k + 5]
    if nxt in (["to"], ["towards"]):
        if words[k + 5:k + 6] in (["me"], ["here"], ["you"], ["us"]):
            return _toks("on the way back", toks[k], toks[k + 5]), k + 6
        return _toks("on the way to", toks[k], toks[k + 4]), k + 5
    if nxt == ["from"] and words[k + 5:k + 6] and words[k + 5] in _DETS:
        return _toks("after you reach", toks[k], toks[k + 4]), k + 5
    if words[k + 1] == "that":  # "on that way back, ...": the leg just said
        return _toks("on the way there", toks[k], toks[k + 3]), k + 4
    return None


def _ordinal_piece(toks: list[Token], words: list[str], k: int
                   ) -> tuple[list[Token], int] | None:
    """"on that last bit (back) to X" -> "on the way to X"; "in the second part of the way"
    -> "on the second leg"."""
    if not (words[k] in _OPENERS and words[k + 1:k + 2] and words[k + 1] in _DETS and
            words[k + 2:k + 3] and words[k + 2] in _ORDINALS and words[k + 3:k + 4] and
            words[k + 3] in _PIECES and _opens(words, k)):
        return None
    n = k + 4
    if words[n:n + 2] in (["of", "the"], ["of", "your"]) and words[n + 2:n + 3] and \
            words[n + 2] in _WHOLES:
        n += 3
    back = words[n:n + 1] == ["back"]
    n += back
    if words[n:n + 1] in (["to"], ["towards"]) and words[n + 1:n + 2] not in (
            ["me"], ["here"], ["you"], ["us"]):
        return _toks("on the way to", toks[k], toks[n]), n + 1
    if words[n:n + 1] in (["to"], ["towards"]):
        n += 2  # "the last bit back to me": the walk back, the last leg
    if n == k + 4 and not back:
        return None  # "on the last leg": read already
    return _toks(f"on the {_ORDINALS[words[k + 2]]} leg", toks[k], toks[n - 1]), n


def _leg_ends(toks: list[Token], words: list[str], k: int) -> tuple[list[Token], int] | None:
    """"on the leg between A and B" / "for the segment from A to B" -> "on the way from A to
    B"; "on the leg between the two stools" -> "on the way to the stool"."""
    if not (words[k] in _OPENERS and words[k + 1:k + 2] and words[k + 1] in _DETS and
            words[k + 2:k + 3] and words[k + 2] in _PIECES and
            words[k + 3:k + 4] in (["between"], ["from"]) and _opens(words, k)):
        return None
    if words[k + 4:k + 5] in (["stop"], ["stops"], ["stage"], ["stages"]):
        return None  # "between stops 1 and 2": the anaphoric scopes read it
    if words[k + 3] == "between" and words[k + 4:k + 6] in (["the", "two"], ["those", "two"],
                                                            ["these", "two"]):
        noun = words[k + 6:k + 7]
        if noun and singular_word(noun[0]) != noun[0]:
            return (_toks("on the way to the", toks[k], toks[k + 5])
                    + [tok(singular_word(noun[0]), toks[k + 6])]), k + 7
        return None
    sep = "and" if words[k + 3] == "between" else "to"
    for m in range(k + 5, min(k + 12, len(words))):
        if words[m] in (".", ",", ";", "!", "?"):
            return None
        if words[m] == sep:
            # "from dog bed to fridge": the articles a terse writer leaves out, put back
            a = [] if words[k + 4] in _DETS | {"those", "these"} else [tok("the", toks[k + 4])]
            b = [] if words[m + 1] in _DETS | {"those", "these", "me", "here"} else \
                [tok("the", toks[m + 1])]
            return (_toks("on the way from", toks[k], toks[k + 3]) + a + toks[k + 4:m]
                    + [tok("to", toks[m])] + b), m + 1
    return None


def _from_on(toks: list[Token], words: list[str], k: int) -> tuple[list[Token], int] | None:
    """"from the cart on to the door, keep ..." -> "on the way from the cart to the door";
    "from the sofa on(wards), stay ..." -> "after you reach the sofa ..."."""
    if words[k] != "from" or not _opens(words, k) or words[k + 1:k + 2] not in (
            ["the"], ["that"], ["this"]):
        return None
    for m in range(k + 2, min(k + 8, len(words))):
        if words[m] in (".", ",", ";", "!", "?", "to", "and"):
            return None
        if words[m] in ("on", "onwards", "onward"):
            break
    else:
        return None
    rest = words[m + 1:m + 2]
    if rest in (["to"], ["towards"]) and words[m + 2:m + 3] in (["the"], ["that"], ["this"]):
        return (_toks("on the way from", toks[k], toks[k]) + toks[k + 1:m]
                + [tok("to", toks[m], toks[m + 1])]), m + 2
    if rest == [","] and words[m + 2:m + 3] and words[m + 2] in _RULE_VERBS or \
            rest and rest[0] in _RULE_VERBS:
        return _toks("after you reach", toks[k]) + toks[k + 1:m], m + 1 + (rest == [","])
    return None


def _after_get(toks: list[Token], words: list[str], k: int) -> tuple[list[Token], int] | None:
    """"after/once you grab X" -> "after you reach X"; "until you've got X" -> "until you
    reach X" (not "got to", "get to": read already)."""
    if words[k] not in ("after", "once", "until", "till", "til") or not _opens(words, k):
        return None
    n = k + 1 + _you(words, k + 1)
    if n == k + 1:
        return None
    g = _at(words, n, _GET)
    if not g or words[n + g:n + g + 1] in (["to"], ["there"], ["back"]) or \
            words[n:n + 1] == ["take"] and words[n + 1:n + 2] != ["the"]:
        return None
    lead = "until" if words[k] in ("until", "till", "til") else "after"
    return _toks(f"{lead} you reach", toks[k], toks[n + g - 1]), n + g


def _whole_time(toks: list[Token], words: list[str], k: int) -> tuple[list[Token], int] | None:
    """"while you're doing it", "as you do so", "the whole time you're doing this" -> "the
    whole way"."""
    n = 0
    if words[k] in ("while", "as", "whilst"):
        n = 1
    elif words[k:k + 3] in (["the", "whole", "time"], ["all", "the", "time"]):
        n = 3
    if not n:
        return None
    d = _at(words, k + n, _DOING)
    end = k + n + d
    if not d or words[end:end + 1] not in ([], ["."], [","], [";"], ["!"], ["and"], ["but"]) \
            and words[end] not in _RULE_VERBS:
        return None
    return _toks("the whole way", toks[k], toks[end - 1]), end


def _last_room(toks: list[Token], words: list[str], k: int) -> str | None:
    """The room word said last before ``k`` ("bedroom", "living room")."""
    lex = head_lexicon()
    for a in range(k - 1, -1, -1):
        for n in (2, 1):
            hit = lex.match(words[a:a + n])
            if hit is not None and hit[0] == n and hit[2] == "room":
                two = lex.match(words[a - 1:a + 1]) if a and n == 1 else None
                if two is not None and two[0] == 2 and two[2] == "room":
                    break  # "living rooms": the two words, read at the word before
                said = words[a:a + n]
                if hit[3] and said[-1].endswith("s"):  # "the two living rooms": one of them
                    said = [*said[:-1], said[-1][:-1]]
                return " ".join(said)
    return None


def _crossing_that(toks: list[Token], words: list[str], k: int
                   ) -> tuple[list[Token], int] | None:
    """"while you're crossing that one" -> "while you're crossing that bedroom"."""
    if words[k] not in ("while", "as", "when") or words[k + 1:k + 3] != ["you", "are"]:
        return None
    c = _at(words, k + 3, _CROSSING)
    m = k + 3 + c
    if not c or words[m:m + 2] not in (["that", "one"], ["that", "room"], ["it"]):
        return None
    room = _last_room(toks, words, k)
    if room is None:
        return None
    size = 1 if words[m] == "it" else 2
    return (toks[k:m] + [tok("that", toks[m])]
            + _toks(room, toks[m + size - 1])), m + size


def _room_of(ref: RefExpr) -> str | None:
    if ref.head_kind == "room":
        return ref.head
    rooms = [r.head for m in ref.modifiers if m.kind == "in_room" for r in m.refs
             if r.head_kind == "room"]
    return rooms[0] if rooms else None


_LEFT_RE = re.compile(r"\b(?:leav\w*|exit\w*|out\s+of)\s*$", re.IGNORECASE)


def _bare(text: str) -> str:
    return " ".join(w for w in text.lower().split() if w not in ("the", "that", "this", "a"))


def leave_room_legs(clauses: list[Clause], text: str) -> list[Clause]:
    """After the parse: a rule said "as you leave the kitchen" is read in that room
    (``within``), as the sets write it ("as you exit the kitchen keep close to the counter");
    where the rule's thing is placed in another room ("as you leave the small living room keep
    away from the sofa in the big living room"), a stop was made in the room left (the TV in
    the small living room) and another stop follows, it holds on the leg that leaves the room:
    the leg to the stop after that one."""
    stages = [s for s in all_stages(clauses) if s.refs]
    for c in clauses:
        room = c.within
        if c.kind in ("goal", "pass", "circle", "follow_wall") or room is None or \
                room.head_kind != "room" or c.during or \
                not _LEFT_RE.search(text[max(0, room.span[0] - 30):room.span[0]]):
            continue
        elsewhere = [r for ref in c.refs for m in ref.modifiers if m.kind == "in_room"
                     for r in m.refs if r.head_kind == "room" and _bare(r.text) != _bare(room.text)]
        left = [s for s in stages if s.span[0] < c.span[0] and _room_of(s.refs[0]) == room.head]
        if elsewhere and left and stages.index(left[-1]) + 1 < len(stages):
            # ``until`` that stop: unambiguous where two stops share a head ("the TV in the
            # living room, then the TV in the bedroom")
            c.during = {"until": stages[stages.index(left[-1]) + 1].refs[0]}
            c.within = None
    return clauses


_RULES = (_way_back, _ordinal_piece, _leg_ends, _from_on, _after_get, _whole_time,
          _crossing_that)


_SCOPE_OPENERS = frozenset({"on", "after", "until", "till", "for", "during", "between",
                            "along", "once", "in"})
_PLEASE = frozenset({"please", "pls", "plz", "plse", "kindly"})


def _drop_scope_comma(out: list[Token]) -> list[Token]:
    """Take out the comma between a scope opened mid-sentence ("... and after you reach the
    toilet , keep ...") and the rule verb after it, and a "please" between a scope that opens
    a clause and its rule ("for the part from A to B please stay near X": the politeness
    word, not a part of the leg)."""
    words = [t.text for t in out]
    drop: set[int] = set()
    for k, w in enumerate(words):
        if w in _SCOPE_OPENERS and _opens(words, k):
            for m in range(k + 1, min(k + 14, len(words) - 1)):
                if words[m] in (".", ";", "!", "?", ","):
                    break
                if words[m] in _PLEASE and words[m + 1] in _RULE_VERBS - _PLEASE:
                    drop.add(m)
                    break
        if w not in ("after", "until") or k == 0 or words[k - 1] not in ("and", "but", "then"):
            continue
        for m in range(k + 1, min(k + 10, len(words) - 1)):
            if words[m] in (".", ";", "!", "?"):
                break
            if words[m] == ",":
                if words[m + 1] in _RULE_VERBS:
                    drop.add(m)
                break
    return [tok("and", t) if n in _but_scopes(words) else t
            for n, t in enumerate(out) if n not in drop]


_BUT_OPENERS = frozenset({"on", "after", "until", "till", "while", "whilst", "as", "when",
                          "once", "during", "along"})


def _but_scopes(words: list[str]) -> set[int]:
    """Where "but" opens a scoped rule ("go to the stool, but on the way keep away from the
    toilet", "..., but while you're in the kitchen stay near X"): read as "and" (the rule is
    added to the route, no contrast with a stop), so that the scope is not lost with it."""
    out: set[int] = set()
    for k, w in enumerate(words):
        if w != "but" or words[k + 1:k + 2] == [] or words[k + 1] not in _BUT_OPENERS or \
                words[k + 2:k + 3] in (["that"], ["this"], ["which"]) and \
                words[k + 3:k + 4] not in ([p] for p in _PIECES):  # "but on that bit": a scope
            continue
        for m in range(k + 2, min(k + 16, len(words))):
            if words[m] in (".", ";", "!", "?"):
                break
            if words[m] in _RULE_VERBS - _PLEASE - {"go", "be", "make"}:
                out.add(k)
                break
    return out


def leg_scopes(toks: list[Token]) -> list[Token]:
    """Rewrite the leg-scope phrasings of the module docstring."""
    words = [t.text for t in toks] + [""] * 8
    return _drop_scope_comma(scan_writing(toks, words, _RULES))
