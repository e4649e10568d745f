"""Room contents: a room or a thing picked out by what it holds or by what stands there, in
the many ways people say it, put onto the one form the rules read ("ROOM with X", "ROOM
without X", "the table with N chairs at it").

The rules read "the bathroom with the dryer", "the bedroom without a bed", "the bedroom that
has no bed", "the bathroom that's got the dryer in it" and "the bathroom where the dryer is".
People say the same pick with a hedge inside it, another verb, another word order or a
relativiser the rules do not take, and each of those was refused (round O, grid
``test/language/data/grid_room_contents.py``):

* a hedge said inside the clause: "the living room, you know, where the two tall lamps are"
  (not after the anchor of a relation: "the little one just off the living room, you know,
  where the lamps are" may describe either room, :func:`_anchor_before`),
  "the bathroom with like four paintings on the walls", "the bedroom that actually has a bed"
  -> the clause without it ("you know", "like", "actually", "really" name nothing and pick
  nothing);
* "only" / "just" before the verb of a count: "the table that's only got three chairs round
  it" -> "that's got only three chairs round it" (where the count reader takes "only");
  "only" before a thing that is not counted ("the room that only has the trolley") is left
  as said: it says nothing else is there, which no grounding test checks;
* "a single chair" -> "one chair" (a count); "the bigger of our two settees" -> "the bigger
  of the two settees";
* "the one" as the head of a clause ("the small living room, the one without dining table"),
  and a misspelt room ("bathrom where is the dryer");
* learners' "without dining table" -> "without a dining table" ("without" before a bare
  head would open a clause of its own); "a bedroom with three chairs round a table" -> "with
  a table with three chairs round it";
* "where" with another verb of being there: "the bedroom where the bigger settee ended up",
  "the bathroom where the dryer lives", "where the two tall lamps are", "the table where the
  three chairs are" -> "ROOM with X";
* an absence said with "where": "the bedroom where there's no bed" -> "the bedroom without
  bed";
* "whichever ROOM hasn't got X in it" / "has no X" / "doesn't have X" -> "the ROOM that
  hasn't got X in it" (one room picked by what it lacks);
* the zero relative: "the bathroom the trolley is in", learners' "bathroom trolley is in" ->
  "the bathroom with the trolley" (and not a stop at the trolley).

Tokens keep their character spans; a hedge taken out is dropped with the comma around it
(it names nothing), every other word is kept or renamed in place, so a later refusal still
points into the original text. Closed word lists around the head lexicon: written by hand
like the rest of the parser.
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["room_content_forms"]

#: Words that open a content clause after a head.
_RELATIVES = ("where", "that", "which", "with", "without")
#: Clause ends: a content clause runs no further.
_ENDS = (".", "!", "?", ";", ",", ":", "-", "and", "then", "but", "so", "to", "into")
#: Hedges that name nothing inside a content clause.
_HEDGES = ("like", "actually", "really")
#: Verbs of holding, after which "only" / a hedge may stand.
_HOLD = ("has", "have", "got", "is", "does", "had")
#: Verbs of being there that end a "where X ..." clause (longest first).
_THERE_VERBS: tuple[tuple[str, ...], ...] = (
    ("ended", "up"), ("end", "up"), ("is", "kept"), ("are", "kept"), ("got", "put"),
    ("is",), ("are",), ("lives",), ("live",), ("sits",), ("sit",), ("stands",), ("stand",),
    ("lies",), ("went",), ("stays",))
#: Words that may stand before a thing's head in its noun phrase.
_NP_WORDS = ("the", "a", "an", "our", "my", "his", "her", "their", "your", "two", "three",
             "four", "five", "six", "2", "3", "4", "5", "6", "big", "bigger", "biggest",
             "small", "smaller", "smallest", "little", "large", "larger", "tall", "old",
             "new", "of", "one", "some", "both")
#: Counts after "only" ("that's only got three chairs").
_COUNTS = ("one", "two", "three", "four", "five", "six", "1", "2", "3", "4", "5", "6", "a")
#: Possessives before the count of a partitive ("the bigger of our two settees").
_POSSESSIVES = ("our", "my", "your", "his", "her", "their")
#: Verbs after "whichever ROOM" that say what it holds or lacks.
_WHICHEVER_VERBS = ("has", "have", "does", "is", "got")


def _new(text: str, a: Token, b: Token | None = None) -> Token:
    return Token(text, a.start, (b or a).end)


def _head_end(words: list[str]) -> tuple[str, str]:
    """(kind, head) of a head that ends ``words`` (("room", "bathroom"), ("object", "table"))
    or ("", "")."""
    lex = head_lexicon()
    for n in range(min(len(words), lex.max_len), 0, -1):
        hit = lex.match(words[-n:])
        if hit is not None and hit[0] == n:
            return hit[2], hit[1]
    return "", ""


def _head_at(words: list[str], k: int) -> tuple[int, str]:
    """(length, kind) of the head starting at ``k``, or (0, "")."""
    hit = head_lexicon().match(words[k:k + head_lexicon().max_len])
    return (hit[0], hit[2]) if hit is not None else (0, "")


def _after_head(out: list[Token]) -> str:
    """The kind of the head the output ends with ("the bathroom"; "one" for "the one", a
    head said before; a misspelt room, "bathrom", as its room), skipping one comma."""
    words = [t.text for t in out[-6:]]
    if words[-1:] == [","]:
        words = words[:-1]
    if any(w in ("corner", "corners") for w in words):
        return ""  # "the corner of the kitchen where the fridge is": a corner's anchor
    if words[-2:-1] in (["the"], ["that"]) and words[-1:] == ["one"]:
        return "one"  # "the small living room, the one without dining table"
    kind = _head_end(words)[0]
    if not kind and words and words[-1].isalpha():
        near = head_lexicon().fuzzy(words[-1])  # "bathrom where is the dryer"
        kind = near[1] if near is not None and near[1] == "room" else ""
    return kind


#: Prepositions that make a room the anchor of a relation ("just off the small living room").
_ANCHORING = ("off", "from", "of", "near", "beside", "by", "past", "behind")


def _anchor_before(out: list[Token]) -> bool:
    """Whether the head the output ends with is the anchor of a relation ("the little one
    just off the small living room, you know, where the two tall lamps are"): a clause set
    off after it may describe the first head as well as the anchor, so the comma stays and
    the rules that read (or refuse) it decide."""
    words = [t.text for t in out[-7:]]
    while words and words[-1] == ",":
        words.pop()
    for k in range(len(words) - 1, 0, -1):
        if words[k] in ("the", "a", "an", "that", "this"):
            before = words[k - 1]
            return before in _ANCHORING or words[k - 2:k] == ["next", "to"]
    return False


def _thing_np(words: list[str], k: int) -> tuple[int, int] | None:
    """(end of the head, end of the verb) of "X is / ended up / lives" at ``k``: a noun
    phrase of describing words and a thing's head, then a verb of being there."""
    j = k
    while j < min(len(words), k + 6):
        n, kind = _head_at(words, j)
        if n and kind != "room" and words[j] not in _NP_WORDS:
            for verb in _THERE_VERBS:
                if tuple(words[j + n:j + n + len(verb)]) == verb:
                    return j + n, j + n + len(verb)
            return None
        if words[j] not in _NP_WORDS and not (n and kind != "room"):
            return None
        j += 1
    return None


def _where(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int | None:
    """"HEAD where X ended up / lives / is" -> "HEAD with X"; "where there's no X" ->
    "without X"."""
    k = i + 1 + (words[i + 1:i + 2] == ["like"])
    if words[k:k + 1] == ["there"] and words[k + 1:k + 2] in (["is"], ["are"]) and \
            words[k + 2:k + 3] == ["no"]:
        out.append(_new("without", toks[i], toks[k + 2]))
        return k + 3
    if words[k:k + 1] in (["is"], ["are"]):
        # learners' "where is (like) the dryer": the thing after its verb
        j = k + 1 + (words[k + 1:k + 2] == ["like"])
        e = j
        while e < min(len(words), j + 5) and words[e] in _NP_WORDS:
            e += 1
        n, kind = _head_at(words, e)
        if not n or kind == "room" or (e + n < len(words) and words[e + n] not in _ENDS):
            return None
        out.append(_new("with", toks[i], toks[k]))
        out.extend(toks[j:e + n])
        return e + n
    span = _thing_np(words, k)
    if span is None:
        return None
    head_end, verb_end = span
    out.append(_new("with", toks[i]))
    out.extend(toks[k:head_end])
    return verb_end


def _round_a(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int | None:
    """"with three chairs round a table" -> "with a table with three chairs round it": the
    room holds the table the chairs stand round."""
    j = i
    while j < min(len(words), i + 3) and words[j] in _NP_WORDS and words[j] not in (
            "the", "a", "an"):
        j += 1
    n, kind = _head_at(words, j)
    r = j + n
    if j == i or not n or kind == "room" or words[r:r + 1] not in (["round"], ["around"]) \
            or words[r + 1:r + 2] not in (["a"], ["the"]):
        return None
    m, kind2 = _head_at(words, r + 2)
    if not m or kind2 == "room":
        return None
    out.extend(toks[r + 1:r + 2 + m])  # "a table"
    out.append(_new("with", toks[r]))
    out.extend(toks[i:r + 1])  # "three chairs round"
    out.append(_new("it", toks[r + 1]))
    return r + 2 + m


def _content(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int | None:
    """The verb or preposition ``words[i]`` of a content clause and what follows it, when it
    is said in a form put onto another: "with three chairs round a table", learners'
    "without dining table" (no article: "without" would open a clause of its own)."""
    if words[i] in ("with", "has", "have"):
        j = _round_a(words, toks, i + 1, [*out, toks[i]])
        if j is not None:
            out.append(toks[i])
            _round_a(words, toks, i + 1, out)
            return j
    hit = head_lexicon().match(words[i + 1:i + 1 + head_lexicon().max_len])
    if words[i] == "without" and hit is not None and not hit[3] and \
            words[i + 1] not in _NP_WORDS:  # "without windows" is read as it is
        out += [toks[i], _new("a", toks[i + 1])]
        return i + 1
    return None


def _zero_relative(words: list[str], toks: list[Token], i: int,
                   out: list[Token]) -> int | None:
    """"ROOM (the) X is in" -> "ROOM with (the) X": a room said by the thing it holds with
    no relative word ("the bathroom the trolley is in", "bathroom trolley is in")."""
    span = _thing_np(words, i)
    if span is None:
        return None
    head_end, verb_end = span
    if words[head_end:verb_end] not in (["is"], ["are"]) or words[verb_end:verb_end + 1] != \
            ["in"] or (verb_end + 1 < len(words) and words[verb_end + 1] not in _ENDS):
        return None
    if words[i] not in _NP_WORDS and i + 1 < head_end:
        return None
    out.append(_new("with", toks[i]))
    out.extend(toks[i:head_end])
    return verb_end + 1


def room_content_forms(toks: list[Token]) -> list[Token]:
    """Rewrite the content clauses of the module docstring."""
    words = [t.text for t in toks]
    toks = [_new("the", t) if w in _POSSESSIVES and words[k - 1:k] == ["of"] and
            words[k - 2:k - 1] and words[k - 2].endswith(("er", "est")) and
            words[k + 1:k + 2] and words[k + 1] in _COUNTS[1:] else t
            for k, (w, t) in enumerate(zip(words, toks, strict=True))]
    words = [t.text for t in toks]  # "the bigger of our two settees": of the two
    out: list[Token] = []
    clause = False  # inside a content clause after a head
    i = 0
    while i < len(toks):
        w, t = words[i], toks[i]
        if w == "you" and words[i + 1:i + 2] == ["know"] and _after_head(out) and \
                not _anchor_before(out):
            k = i + 2 + (words[i + 2:i + 3] == [","])
            if words[k:k + 1] and words[k] in _RELATIVES:
                if out and out[-1].text == ",":
                    out.pop()  # "the living room, you know, where ...": one phrase
                i = k
                continue
        if w == "whichever" and _head_at(words, i + 1)[1] == "room" and out and \
                out[-1].text not in (".", "!", "?", ";", ":", ","):
            # not "Whichever bedroom has the dog bed, that's the one with ...": a set pick
            n = _head_at(words, i + 1)[0]
            v = i + 1 + n
            if words[v:v + 1] and words[v] in _WHICHEVER_VERBS and not (
                    words[v] == "is" and words[v + 1:v + 2] and words[v + 1] != "in"):
                # "whichever bedroom is closer" is a pick by distance, read elsewhere; "is" here
                # only says where a thing is ("whichever bathroom is in ...")
                out.append(_new("the", t))
                out.extend(toks[i + 1:i + 1 + n])
                out.append(_new("that", toks[i + n]))
                clause = True
                i += 1 + n
                continue
        if w in _RELATIVES and _after_head(out):
            clause = True
            if w == "where" and out[-1].text != ",":
                j = _where(words, toks, i, out)
                if j is not None:
                    i = j
                    continue
            j = _content(words, toks, i, out)
            if j is not None:
                i = j
                continue
            out.append(t)
            i += 1
            continue
        if not clause and out and _after_head(out) == "room" and out[-1].text != "," and \
                _head_end([t.text for t in out[-4:]])[1] != "room" and words[i - 1:i] != ["the"]:
            # "the room the toilet is in" is the room of a thing, read by its own rule
            j = _zero_relative(words, toks, i, out)
            if j is not None:
                i = j
                continue
        if clause:
            nxt = words[i + 1:i + 2]
            if w in _ENDS:
                clause = False
            elif w in _HEDGES and nxt and (nxt[0] in _HOLD or nxt[0] in _NP_WORDS or
                                           _head_at(words, i + 1)[0]):
                i += 1  # "that actually has a bed", "with like four paintings"
                continue
            elif w in ("only", "just") and nxt and nxt[0] in _HOLD:
                v = i + 1 + (words[i + 1:i + 3] == ["is", "got"])
                if words[v + 1:v + 2] and words[v + 1] in _COUNTS:
                    # "that's only got three chairs" -> "that's got only three chairs"
                    out.extend(toks[i + 1:v + 1])
                    out.append(_new("only", t))
                    i = v + 1
                    continue
            elif w == "in" and nxt == ["it"] and words[i + 2:i + 3] in (["to"], ["into"]):
                i += 2  # "through the bedroom with the desk in it to the fridge": "in it"
                continue  # says again that the desk is in the room; "to" opens the goal
            elif w in ("has", "have") and (j := _content(words, toks, i, out)) is not None:
                i = j
                continue
            elif w == "a" and nxt == ["single"]:
                out.append(_new("one", t, toks[i + 1]))  # "a single chair": one chair
                i += 2
                continue
        out.append(t)
        i += 1
    return out
