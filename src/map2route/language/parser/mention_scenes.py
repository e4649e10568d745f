"""Scene and where-things-are sentences in the forms people say them, put onto the forms the
scene and introduction readers already read.

A speaker often says where they are, where the robot is, or where something was left before
the request that uses it: "ok so you're at the kitchen counter, go ...", "now then, I'm over by
the telly - go to the fridge and come back to me", "I'm nearly certain I've lost my hearing aid
somewhere near the fridge. Go and have a look.", "right so the kids left a teddy bear somewhere
in the bedroom, and I want you to go and find it". The readers take "I'm by the telly. Go ...",
"my hearing aid is near the fridge. Go to it." and "there is a teddy bear in the bedroom. Go to
it." (:mod:`.human`, :mod:`.introductions`); each axis of the spoken forms is put onto those:

* the discourse opener of such a sentence ("now then,", "alright,", "right so", "so um") is
  dropped;
* a hedge before it ("I think", "I'm nearly certain", "maybe") or after it (", I think") is
  dropped: the robot goes all the same;
* who left the thing and how ("I left my X", "I've lost my X", "the kids left the X", "I
  dropped a X") becomes a statement of where it is ("my X is", "the X is", "there is a X");
  "is lying", "are sitting" become "is", "are";
* a vague place ("somewhere near the fridge", "lying around in the lounge", "right beside the
  bed", "over by the TV") becomes the place ("near the fridge", "in the lounge", ...);
  "Somewhere in the bedroom there's a X" becomes "In the bedroom there's a X";
* the joint between such a sentence and the request (", go", ": go", " - go", ", and I want
  you to go") becomes a full stop, so the scene is a sentence of its own, as the scene readers
  want: "You start at the bed: go to the telly" had made a stop at the start and at the bed;
* "go and have a look" after a where-it-is sentence is "go there".

Left to the readers that already take them: "I left my watch (somewhere) in the bedroom" and
"I left my watch on the dresser ... go over there" (a map thing left somewhere: the errand
and mention readers), "Starting from the bed, walk ..." (its comma), the openers those readers
look for ("ok so", "um so"), and "Somewhere in R there's a X" followed by more than the thing
(an aside after the thing lost the room: set AV15, refused by name as before).

Each rewrite keeps the character spans (a merged token spans the words it stands for; an added
"is" is zero-width), so a later refusal still points into the original text. The shapes are
closed classes of a few words, written by hand like the rest of the parser; a sentence that is
not a scene or a where-it-is statement is left alone.
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["mention_scenes"]

_ENDS = frozenset({".", "!", "?", ";"})
#: Openers said before a scene sentence, longest first; each may be followed by a comma.
_OPENERS = (("now", "then"), ("all", "right"), ("right", "so"), ("so", "um"), ("ok", "so"),
            ("okay", "so"), ("alright",), ("so",), ("um",), ("uh",), ("right", "then"))
#: The openers the later readers do not take themselves: only these are dropped (the others,
#: "ok so", "um so", are kept for the readers that look for them: set AM15, I20).
_UNREAD_OPENERS = frozenset({("now", "then"), ("all", "right"), ("right", "so"), ("so", "um"),
                             ("alright",), ("right", "then")})
#: Hedges said before a where-it-is sentence.
_HEDGES = (("i", "am", "nearly", "certain"), ("i", "am", "pretty", "sure"),
           ("i", "am", "fairly", "sure"), ("i", "am", "quite", "sure"), ("i", "am", "sure"),
           ("i", "think"), ("i", "reckon"), ("maybe",), ("probably",), ("i", "guess"))
#: Who put the thing there and how: the words before its determiner.
_PUT = (("i", "have", "lost"), ("i", "have", "left"), ("i", "have", "dropped"),
        ("the", "kids", "left"), ("the", "kids", "have", "left"), ("i", "left"),
        ("i", "lost"), ("i", "dropped"), ("i", "put"), ("i", "forgot"))
#: Words that open the place of a where-it-is sentence.
_PLACE_WORDS = frozenset({"on", "by", "in", "near", "next", "beside", "under", "over",
                          "somewhere", "right", "at", "lying", "sitting", "behind"})
#: "is lying", "are sitting": how it is there, which adds nothing to where.
_POSTURE = frozenset({"lying", "sitting", "resting", "laying", "sat"})
#: Sentence openings that make a scene or where-it-is sentence.
#: ("In the kitchen, go ..." is a scope, not a scene: only "Somewhere in" is taken.)
_SCENE_STARTS = (("i", "am"), ("we", "are"), ("you", "are"), ("you", "start"),
                 ("starting", "from"), ("my",), ("there", "is"), ("there", "are"))
#: Words a request after the joint opens with.
_REQUEST = frozenset({"go", "head", "come", "find", "could", "can", "please", "first", "walk",
                      "stop", "wait", "get", "move", "would"})


def _at(words: list[str], i: int, seqs: tuple[tuple[str, ...], ...]) -> tuple[str, ...] | None:
    """The first of ``seqs`` that ``words`` has at ``i``."""
    return next((s for s in seqs if tuple(words[i:i + len(s)]) == s), None)


def _sentence_end(words: list[str], i: int) -> int:
    while i < len(words) and words[i] not in _ENDS:
        i += 1
    return i


def _mention_start(words: list[str], i: int) -> bool:
    """Whether a scene or where-it-is sentence (after its opener and hedge) starts at ``i``."""
    return _at(words, i, _SCENE_STARTS) is not None or _at(words, i, _PUT) is not None or \
        words[i:i + 2] == ["somewhere", "in"]


def _lead(words: list[str], i: int) -> tuple[int, list[int]]:
    """Past the openers and hedges of the sentence starting at ``i``, when a scene or
    where-it-is sentence follows them (else ``i``), and the positions of the words among them
    that are kept (openers the later readers take)."""
    k, kept = i, list[int]()
    while True:
        o = _at(words, k, _OPENERS) or _at(words, k, _HEDGES)
        if o is None:
            break
        n = len(o) + (1 if words[k + len(o):k + len(o) + 1] == [","] else 0)
        if o in _OPENERS and o not in _UNREAD_OPENERS:
            kept += range(k, k + n)
        k += n
    return (k, kept) if k > i and _mention_start(words, k) else (i, [])


def _put_as_statement(toks: list[Token], words: list[str], i: int, out: list[Token]) -> int:
    """"I left my X on ..." -> "my X is on ..." (see the module docstring); returns where
    reading goes on (``i`` when the sentence is not one)."""
    put = _at(words, i, _PUT)
    if put is None:
        return i
    d = i + len(put)
    if words[d:d + 1] not in (["my"], ["the"], ["a"], ["an"], ["our"], ["his"], ["her"]):
        return i
    e = d + 1
    while e < len(words) and words[e] not in _PLACE_WORDS and words[e] not in _ENDS | {","}:
        e += 1
    if e == d + 1 or e >= len(words) or words[e] not in _PLACE_WORDS or \
            not _map_thing(words, e, _sentence_end(words, e)):
        return i  # no place the map has ("I've lost my keys on")
    if words[d] not in ("a", "an") and _map_thing(words, d + 1, e) and (
            _there_after(words, e) or "in" in words[e:e + 1 + (words[e] == "somewhere")]):
        # "I left my watch on the dresser ... go over there": the errand reader takes it (the
        # place is the stop; as "my watch is on the dresser" the watch would be), and "I left
        # my watch (somewhere) in the bedroom" is a mention it reads (test_human_g)
        return i
    plural = words[e - 1].endswith("s") and not words[e - 1].endswith("ss")
    be = "are" if plural else "is"
    if words[d] in ("a", "an"):
        # "I left a dumbbell in the bedroom" -> "there is a dumbbell in the bedroom"
        out += [Token("there", toks[i].start, toks[d - 1].end),
                Token(be, toks[d].start, toks[d].start)]
        out += toks[d:e]
    else:
        out.append(Token(words[d], toks[i].start, toks[d].end))
        out += toks[d + 1:e]
        out.append(Token(be, toks[e].start, toks[e].start))
    return e


def _map_thing(words: list[str], a: int, b: int) -> bool:
    """Whether ``words[a:b]`` (a belonging's name) names a thing the map has ("my phone")."""
    return any(head_lexicon().match(words[k:b]) for k in range(a, b))


def _there_after(words: list[str], e: int) -> bool:
    """Whether the request after the sentence that reaches ``e`` points with "there"."""
    stop = _sentence_end(words, _sentence_end(words, e) + 1)
    return "there" in words[e:stop]


def _thing_ends(words: list[str], k: int) -> bool:
    """Whether "somewhere in R there is a X" at ``k`` ends with the thing (the sentence's end
    or the joint to the request follows it): a longer sentence is left to the later readers,
    which lost the room of one with an aside after the thing (set AV15)."""
    end = _sentence_end(words, k)
    t = next((x for x in range(k, end) if words[x:x + 2] in (["there", "is"],
                                                             ["there", "are"])), None)
    if t is None or words[t + 2:t + 3] not in (["a"], ["an"]):
        return False
    hit = head_lexicon().match(words[t + 3:t + 3 + head_lexicon().max_len])
    after = t + 3 + (hit[0] if hit else 0)
    return bool(hit) and (after == end or _joint(words, after) > 0 or
                          words[after:after + 3] == [",", "i", "think"])


def _vague(words: list[str], k: int) -> int:
    """How many words at ``k`` only blur a place ("somewhere", "right" before "beside",
    "lying around", "over" before "by", "sitting")."""
    n = 0
    while k + n < len(words):
        w, nxt = words[k + n], words[k + n + 1:k + n + 2]
        if w == "somewhere" and nxt and nxt[0] in ("in", "near", "on", "by", "around"):
            n += 1
        elif w in _POSTURE and nxt and nxt[0] in _PLACE_WORDS | {"around"}:
            n += 1
        elif w == "around" and nxt and nxt[0] in ("in", "on", "by", "near"):
            n += 1
        elif w == "right" and nxt and nxt[0] in ("beside", "by", "next", "near", "on"):
            n += 1
        elif w == "over" and nxt and nxt[0] in ("by", "near", "beside"):
            n += 1
        else:
            break
    return n


def _joint(words: list[str], k: int) -> int:
    """The length of the joint at ``k`` between a scene sentence and its request (", and I
    want you to", ",", ":"), 0 when there is none."""
    if words[k:k + 1] not in ([","], [":"]):
        return 0
    if words[k + 1:k + 6] == ["and", "i", "want", "you", "to"]:
        return 6
    return 1 if k + 1 < len(words) and words[k + 1] in _REQUEST else 0


def _one_sentence(toks: list[Token], words: list[str], i: int, out: list[Token]) -> int:
    """Rewrite the sentence starting at ``i`` into ``out`` when it is a scene or where-it-is
    sentence; returns where reading goes on."""
    k, kept = _lead(words, i)
    if k == i and not _mention_start(words, i):
        return i
    somewhere = words[k:k + 2] == ["somewhere", "in"]
    if somewhere and not _thing_ends(words, k):
        return i  # "Somewhere in R there's a X lying on the floor - my grandson's, ...": AV15
    if words[k] != "starting":  # "Starting from X" is read only at a sentence's start
        out += [toks[x] for x in kept]
    k += 1 if somewhere else 0  # "Somewhere in the bedroom there's a X" -> "In the bedroom ..."
    j = _put_as_statement(toks, words, k, out)
    statement = j > k or somewhere or words[k:k + 1] == ["my"] or words[k:k + 2] in (
        ["there", "is"], ["there", "are"])
    end = _sentence_end(words, j)
    marked = False  # only the sentence's first comma or colon can be the joint (I20)
    while j < end:
        n = _vague(words, j) if statement else 0
        if n:
            j += n
            continue
        if words[j:j + 3] == [",", "i", "think"] and (j + 3 >= len(words) or words[j + 3] in
                                                     _ENDS | {",", ":"}):
            j += 3  # a trailing hedge
            continue
        if statement and words[j:j + 3] == ["one", "of", "the"]:
            # "on one of the beds" -> "on a beds": one, not picked (the head reads the plural)
            out.append(Token("a", toks[j].start, toks[j + 2].end))
            j += 3
            continue
        n = 0 if marked else _joint(words, j)
        if n == 1 and words[k] == "starting":
            n = 0  # "Starting from the bed, walk to ...": read as it is (test_human_lm)
        marked = marked or words[j] in (",", ":")
        if n:
            out.append(Token(".", toks[j].start, toks[j + n - 1].end))
            look = _look_len(words, j + n) if statement else 0
            if look:
                _have_a_look(toks, j + n, look, out)
            return j + n + look
        out.append(toks[j])
        j += 1
    n = _look_len(words, end + 1) if statement and end < len(words) else 0
    if n:
        out.append(toks[end])
        _have_a_look(toks, end + 1, n, out)
        return end + 1 + n
    return end


_LOOK = (("go", "and", "have", "a", "look"), ("could", "you", "go", "and", "have", "a", "look"),
         ("please", "go", "and", "have", "a", "look"), ("have", "a", "look"))


def _look_len(words: list[str], i: int) -> int:
    look = _at(words, i, _LOOK)
    return len(look) if look is not None and (
        i + len(look) >= len(words) or words[i + len(look)] in _ENDS) else 0


def _have_a_look(toks: list[Token], i: int, n: int, out: list[Token]) -> None:
    """"... . Go and have a look." -> "... . Go there." (the where-it-is sentence before;
    ``n`` words from ``i``)."""
    out += [Token("go", toks[i].start, toks[i + n - 3].end),
            Token("there", toks[i + n - 2].start, toks[i + n - 1].end)]


def mention_scenes(toks: list[Token]) -> list[Token]:
    """Put scene and where-it-is sentences onto the forms the readers take (see the module
    docstring)."""
    words = [t.text for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(toks):
        if i == 0 or words[i - 1] in _ENDS:
            j = _one_sentence(toks, words, i, out)
            if j > i:
                i = j
                continue
        out.append(toks[i])
        i += 1
    return out
