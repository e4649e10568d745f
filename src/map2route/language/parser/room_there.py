"""A rule kept in a room named before: "Give the toilet in there a wide berth", "Keep away from
the bed in that room", "In there, stay away from the stool".

"While you are in there" is read already (:mod:`.register_rewrites`, :mod:`.annotator_rewrites`);
said as a place of the kept-away thing ("the toilet in there") inside a rule other than "keep
away from X in there.", or as a bare opener ("In there, ..."), it was read wrongly: "in there"
/ "in that room" became a ``room`` reference of the thing and the rule lost its room scope, and
a bare "In there," made a second stop at the goal. :func:`room_there` rewrites both onto the
scope form the parser reads: "give the toilet a wide berth while in the bathroom", "while in
the kitchen, stay away from the stool", the room being the one named last before the rule
(for "the bathroom off the bedroom", the bathroom). A room scope opened after "and" in the
middle of a sentence (", and in the second living room you cross, stay close to the sofa") was
read as a stop at that room and an unscoped rule; :func:`and_room_scope` starts a new sentence
there (the "and" read as its boundary), where the scope opener is read already. Tokens are moved, never dropped, and keep
their character spans, so a later refusal still points into the original text.

After a thing only "in there" is read so ("the dog bed in that room" says which dog bed, as
set T reads it: a description, no scope). Only a clause that opens with a rule word (keep, stay, give, avoid, do not, ...) is read, and
only when a room was named before; "go to the dresser in there" (a stop's place) and anything
else is left as it was. Closed word lists, so it is written by hand like the rest of the
parser.
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["and_room_scope", "room_there"]

_THERE = (("in", "there"), ("inside", "there"), ("in", "that", "room"), ("in", "this", "room"),
          ("in", "that", "same", "room"), ("inside", "that", "room"))
_ENDS = (".", "!", "?", ";")
_BREAKS = (*_ENDS, ",", "and", "but", "then", "-", ":")
_FILLERS = ("please", "also", "oh", "just", "so", "and", "but", "then", "though", "now")
#: Words that open a rule about a thing (never a stop).
_RULE_WORDS = ("give", "keep", "stay", "avoid", "leave", "steer", "hug", "don't", "dont", "do",
               "never", "try", "remain")
_ROOM_ADJ = ("larger", "smaller", "largest", "smallest", "bigger", "biggest", "big", "small",
             "large", "first", "second", "third", "last", "other")


def _at(words: list[str], i: int) -> int:
    return max((len(p) for p in _THERE if tuple(words[i:i + len(p)]) == p), default=0)


def _room(words: list[str], end: int) -> list[str] | None:
    """The words of the room named last before ``end`` (two sentences back at most), with a
    size word before it; the outer room of "the bathroom off the bedroom"."""
    lex = head_lexicon()
    ends = 0
    for k in range(end - 1, -1, -1):
        if words[k] in _ENDS:
            ends += 1
            if ends > 2:
                return None
            continue
        hit = lex.match(words[k:k + lex.max_len])
        if hit is None or hit[2] != "room" or hit[1] == "room" or \
                (k and words[k - 1] in ("living", "dining")):
            continue
        if k >= 3 and words[k - 2:k] == ["off", "the"]:
            outer = lex.match(words[k - 3:k - 3 + lex.max_len])
            if outer is not None and outer[2] == "room" and outer[1] != "room":
                k, hit = k - 3, outer
        a = k - 1 if k and words[k - 1] in _ROOM_ADJ else k
        return words[a:k + hit[0]]
    return None


def _rule_clause(words: list[str], j: int) -> int | None:
    """The start of the clause ending at ``j`` when it opens with a rule word, else None."""
    a = j
    while a > 0 and words[a - 1] not in _BREAKS:
        a -= 1
    k = a
    while k < j and words[k] in _FILLERS:
        k += 1
    return a if k < j and words[k] in _RULE_WORDS else None


def _rule_start(words: list[str], k: int) -> bool:
    """Whether the clause at ``k`` opens with a rule word (after fillers)."""
    while k < len(words) and words[k] in _FILLERS:
        k += 1
    return k < len(words) and words[k] in _RULE_WORDS


def room_there(toks: list[Token]) -> list[Token]:
    """Rewrite the phrasings of the module docstring onto "... while in the ROOM"."""
    words = [t.text for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(toks):
        n = _at(words, i)
        lead = i  # "Oh and, in there, ...": fillers may open the sentence before it
        while lead and (words[lead - 1] in _FILLERS or words[lead - 1] == ","):
            lead -= 1
        # ", and in there, keep ...": "and" opens a clause of its own, as a sentence would
        opener = n and (lead == 0 or words[lead - 1] in _ENDS or "and" in words[lead:i]) and \
            words[i + n:i + n + 1] == [","] and (lead < i or _rule_start(words, i + n + 1))
        if n and opener:
            room = _room(words, i)
            if room is not None:  # "In there, stay away from X" -> "while in the ROOM, ..."
                like = toks[i + n - 1]
                out.append(Token("while", toks[i].start, toks[i].end))
                out += [Token(w, like.start, like.end) for w in ("in", "the", *room)]
                i += n
                continue
        if n and i and words[i + 1] == "there" and head_lexicon().match(words[i - 1:i]):
            a = _rule_clause(words, i)
            room = _room(words, a) if a is not None else None
            if room is not None:  # "give X in there a wide berth" -> "give X a wide berth
                b = i + n          # while in the ROOM"
                while b < len(toks) and words[b] not in _BREAKS:
                    b += 1
                like = toks[i + n - 1]
                out += toks[i + n:b]
                out.append(Token("while", toks[i].start, toks[i].end))
                out += [Token(w, like.start, like.end) for w in ("in", "the", *room)]
                i = b
                continue
        out.append(toks[i])
        i += 1
    return out


_STOP_AT = (*_ENDS, "and", "but", "then", "go", "head", "drive", "walk", "come", "return")


def and_room_scope(toks: list[Token]) -> list[Token]:
    """", and in the kitchen(,) keep away from X" -> ". in the kitchen(,) keep away from X"."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    out: list[Token] = []
    i = 0
    while i < len(toks):
        if words[i] == "and" and words[i + 1:i + 2] in (["in"], ["inside"], ["within"]) and \
                words[i + 2:i + 3] in (["the"], ["that"], ["this"], ["each"], ["every"]):
            k, room = i + 2, False
            while k < len(toks) and (words[k] not in (",", *_STOP_AT, *_RULE_WORDS) or
                                     words[k - 1] == "you" and words[k] not in _ENDS):
                hit = lex.match(words[k:k + lex.max_len])
                room = room or (hit is not None and hit[2] == "room")
                k += 1
            k += words[k:k + 1] == [","]
            while k < len(toks) and words[k] in _FILLERS:
                k += 1
            if room and k < len(toks) and words[k] in _RULE_WORDS:
                start = out.pop() if out and out[-1].text == "," else toks[i]
                out.append(Token(".", start.start, toks[i].end))
                i += 1
                continue
        out.append(toks[i])
        i += 1
    return out
