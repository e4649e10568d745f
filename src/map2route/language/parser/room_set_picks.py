"""Two rooms of a kind said as a set, then each picked by "one": one form.

People name the set first ("Go to both bathrooms:", "Check the
sinks in both bathrooms"), then pick from it with "one" ("the small one", "the one with the
plunger", "the one off the living room", "the one at the back") and the rest of it with "the
other one" / "the second one" / "the other bathroom". The later passes read a room said with
its kind ("the small bathroom", "the bathroom with the plunger", "the other bathroom"); said
with "one", a learner's "sink in small one" was read as the smallest sink. Rewritten here:

* after the set, "(the) ADJ one" -> "the ADJ ROOM"; "(the) one with|off|at|next to|by ..." ->
  "the ROOM with ..."; "(the) other one" -> "the other ROOM"; "the second one" after a first
  pick from the set -> "the other ROOM" (of two, the second said is the other one: a count of
  the list, not of the walk);
* "VERB the THINGs in both ROOMs, first P1, then P2" -> "VERB the THING in P1 , then the
  THING in P2": one stop at the thing in each room, in the order said.

Left as typed (and refused by name later): "Start with the small one and look at the sink,
then the other one": a pick made the topic of a sentence whose thing is said after it.

Hand-written like the rest of the parser: the set is "both ROOMs" ("There are two bathrooms.
... the small one" is read by :mod:`.set_picks`, with its set-up sentence); the picks are a closed list of shapes; the words are kept with their spans
(the room word written for "one" takes the span of "one").
"""

from __future__ import annotations

from map2route.language.inflection import singular_word
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["room_set_picks"]

_ENDS = frozenset({".", "!", "?", ";"})
_SIZES = frozenset({"small", "smaller", "big", "bigger", "large", "larger", "little", "tiny",
                    "main", "smallest", "biggest", "largest"})
_AFTER_ONE = (("with",), ("off",), ("at",), ("next", "to"), ("by",), ("near",), ("beside",),
              ("behind",), ("that",), ("where",))


def _t(text: str, like: Token) -> Token:
    return Token(text, like.start, like.end)


def _room(words: list[str], k: int) -> tuple[int, str] | None:
    """A plural room word of a kind at ``k``: its length and its singular words."""
    lex = head_lexicon()
    hit = lex.match(words[k:k + lex.max_len])
    if hit is None or hit[2] != "room" or hit[1] == "room" or not words[k + hit[0] - 1].endswith(
            "s"):
        return None
    said = words[k:k + hit[0]]
    return hit[0], " ".join([*said[:-1], singular_word(said[-1])])


def _set_at(words: list[str], k: int) -> tuple[int, str] | None:
    """"both ROOMs" at ``k``: its end and the room word. ("There are two ROOMs. ... the
    bigger one" is :mod:`.set_picks`'s: it reads the set-up sentence with its pick.)"""
    if words[k] == "both":
        r = _room(words, k + 1)
        return (k + 1 + r[0], r[1]) if r else None
    return None


def _distributed(toks: list[Token], words: list[str], k: int
                 ) -> tuple[list[Token], int, str] | None:
    """"the THINGs in both ROOMs , first P1" at ``k``: "the THING in" (the "in" standing for
    "in both ROOMs , first"), where P1 starts, and the room word."""
    d = 1 if words[k] == "the" else 0
    lex = head_lexicon()
    hit = lex.match(words[k + d:k + d + lex.max_len])
    if hit is None or hit[2] == "room" or not words[k + d + hit[0] - 1].endswith("s"):
        return None
    e = k + d + hit[0]
    if words[e:e + 2] != ["in", "both"]:
        return None
    got = _set_at(words, e + 1)
    if got is None or words[got[0]:got[0] + 2] not in ([",", "first"], ["-", "first"]):
        return None
    thing = [*words[k + d:e - 1], singular_word(words[e - 1])]
    said = [_t("the", toks[k]), *(_t(x, toks[e - 1]) for x in thing),
            Token("in", toks[e].start, toks[got[0] + 1].end)]
    return said, got[0] + 2, got[1]


def room_set_picks(toks: list[Token]) -> list[Token]:
    """Rewrite the picks of the module docstring."""
    words = [t.text for t in toks]
    out: list[Token] = []
    room: str | None = None
    picked = False
    thing: list[Token] | None = None  # "the sink in" of a distributed pick, for the second
    k = 0
    while k < len(toks):
        if words[k] in _ENDS:
            thing = None
        got = _distributed(toks, words, k)
        if got is not None:
            thing, k, room = got
            out += thing
            picked = False
            continue
        s = _set_at(words, k)
        if s is not None:
            room, picked = s[1], False
            out += toks[k:s[0]]
            k = s[0]
            continue
        n = _pick(words, k, picked, room) if room is not None else None
        if n is not None and room is not None:
            a, b, kind = n
            if thing is not None and picked:  # "then P2": the same thing in it
                out += [_t(t.text, t) for t in thing]
            out += _written(toks, words, k, a, kind, room)
            picked = True
            k = b
            continue
        out.append(toks[k])
        k += 1
    return out


def _pick(words: list[str], k: int, picked: bool, room: str) -> tuple[int, int, str] | None:
    """A pick at ``k``: where its "one" is, where it ends (the words after "one" stay), and
    its kind ("size", "rel", "other")."""
    d = 1 if words[k] == "the" else 0
    if k and words[k - 1] in ("the", "a", "which", "that", "this", "every", "each", "no"):
        return None
    w = words[k + d] if k + d < len(words) else ""
    if w in _SIZES and words[k + d + 1:k + d + 2] == ["one"]:
        return k + d + 1, k + d + 2, "size"
    if w == "other" and words[k + d + 1:k + d + 2] == ["one"]:
        return k + d + 1, k + d + 2, "other"
    said = room.split()
    if w == "other" and picked and words[k + d + 1:k + d + 1 + len(said)] == said:
        return k + d + 1, k + d + 1 + len(said), "said"  # "the other bathroom": as it is
    if w == "second" and picked and words[k + d + 1:k + d + 2] == ["one"]:
        return k + d + 1, k + d + 2, "second"
    if w == "one" and any(tuple(words[k + d + 1:k + d + 1 + len(s)]) == s for s in _AFTER_ONE):
        return k + d, k + d + 1, "rel"
    return None


def _written(toks: list[Token], words: list[str], k: int, a: int, kind: str,
             room: str) -> list[Token]:
    """The pick at ``k`` with its "one" (at ``a``) written as the room."""
    one = toks[a]
    the = toks[k] if words[k] == "the" else one
    if kind == "said":
        return [_t("the", the), _t("other", toks[a - 1]), *toks[a:a + len(room.split())]]
    rooms = [_t(x, one) for x in room.split()]
    if kind == "size":
        return [_t("the", the), toks[a - 1], *rooms]
    if kind in ("other", "second"):
        return [_t("the", the), _t("other", toks[a - 1]), *rooms]
    return [_t("the", the), *rooms]
