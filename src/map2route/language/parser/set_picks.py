"""A set-up sentence that introduces a set of things, then a pick from that set.

People say which things they mean before they pick one:

* "There are two chairs at the table in the bedroom with the teddy bear. Go to whichever one
  is closer to the bed." -> "Go to the chair at the table in the bedroom with the teddy bear,
  the one that is closer to the bed."
* "ok so there's two tables in this house, right? Go to the one that hasn't got a plant on
  it." -> "Go to the table that has not got a plant on it."
* "right so the kitchen table's got a bunch of chairs round it, go to the one that's closest
  to the front door." / "The kitchen contains five chairs. Proceed to the one ..." (a thing
  or room that *has* the set: the set stands at the thing, or in the room).
* "In the bedroom that has two windows there are two beds; find the bigger of the two" ->
  "find the bigger bed in the bedroom that has two windows".
* "There are two bedrooms with a window. Go and stand beside whichever of their beds is
  bigger." -> "... beside the bigger bed in a bedroom with a window" (the set's own things).
* "There's a table in the bedroom with the armchair, and on that table there are two lamps.
  Go to whichever of those two lamps is nearer the bed." (the set stands on a thing said
  just before).

* "The baseball bat is in one of the rooms, and there's a dog bed in that same room. Go to
  that dog bed." -> "Go to the dog bed in the room with the baseball bat."
* "find the bigger of the two, and then go to whichever chair is nearest to it": a pick that
  is only found is where the request is measured from ("find" is context).
* "There are a few tables around the house, so just to be clear: I want you at the dining
  table ...": a set-up before a request that names the set's kind itself is context only.

The set-up sentence is context (its things are references of the pick, never stages); "the
one", "whichever (one) (of them / of those two Xs / of their Xs) is ...", "the bigger one",
"the biggest of them" and "that one" in the next sentence are read as the set's head with the
set-up's description. Size words rank by floor area (footprints and room polygons, which the
map has; the grounder's ``kth_largest`` / ``kth_smallest``), as elsewhere in the parser;
"taller" (the grounder ranks by no height) and other words the map cannot check are left to
the later stages, which refuse them by name.

Hand-written like the rest of the parser (see :mod:`.normalise`): the set-up shapes are few
and closed, and every word of them is either moved into the pick (spans kept, so a refusal
still points into the original text) or reported as context; nothing is dropped.
"""

from __future__ import annotations

from map2route.language.inflection import singular_word
from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token
from map2route.language.vocabulary import GROUPS

Context = list[tuple[str, tuple[int, int]]]

_ENDS = (".", "!", "?", ";")
_LEADS = W.FILLER_WORDS | {"so", "right", "and", "now", ",", "oh", "look", "listen"}
#: Counts of a set: "two", "2", "a couple of", "a bunch of", "all those".
_COUNTS = (("a", "couple", "of"), ("a", "few"), ("a", "bunch", "of"), ("lots", "of"),
           ("loads", "of"), ("a", "lot", "of"), ("a", "load", "of"), ("several",),
           ("all", "those"), ("all", "these"), ("all", "the"), ("couple", "of"), ("a", "pair", "of"),
           ("a", "few", "different"), ("various",), ("multiple",))
_ABOUT = ("like", "about", "around", "roughly", "maybe", "exactly", "only", "just")
#: Words after a set that only say "in this home" or ask for agreement.
_TAGS = (("in", "this", "house"), ("in", "the", "house"), ("in", "this", "home"),
         ("in", "the", "home"), ("in", "this", "place"), ("in", "the", "place"),
         ("in", "this", "flat"), ("in", "the", "flat"), ("in", "the", "apartment"),
         ("around", "the", "house"), ("round", "the", "house"), ("about", "the", "house"),
         ("around", "the", "place"), ("about", "the", "place"), ("all", "over", "the", "place"),
         ("all", "over", "the", "house"), ("all", "over", "the", "shop"), ("in", "here"),
         ("here",), (",", "right"), (",", "yeah"), (",", "yes"), ("right",), ("yeah",),
         (",", "ok"), (",", "okay"), (",", "you", "know"), (",",))
#: "has got", "'s got", "contains": a thing or room that has the set.
_HAVE = (("has", "got"), ("'s", "got"), ("is", "got"), ("have", "got"), ("has",), ("contains",),
         ("holds",))
#: Where a set stands against the thing that has it ("round it", "in it").
_AT_IT = {"round": "at", "around": "at", "at": "at", "by": "by", "on": "on", "in": "in",
          "near": "near", "beside": "beside", "next": "next", "under": "under"}
_PLACE_OPENERS = ("in", "on", "at", "round", "around", "by", "near", "beside", "under")
_SIZES = frozenset(W.SIZE_ADJ) | frozenset(W.COMPARATIVE) | W.RANK_WORDS
_THAT = ("that", "this", "the", "those", "these")


def _t(word: str, like: Token) -> Token:
    return Token(word, like.start, like.end)


def _sentences(words: list[str]) -> list[tuple[int, int]]:
    """(start, end) of each sentence; ``end`` is the index of its end mark (or the length)."""
    out = []
    a = 0
    for k, w in enumerate(words):
        if w in _ENDS:
            out.append((a, k))
            a = k + 1
    if a < len(words):
        out.append((a, len(words)))
    return out


def _count(words: list[str], k: int) -> int:
    """Length of a count of two or more at ``k`` ("like five", "a bunch of"; 0 if none)."""
    k0 = k
    if words[k:k + 1] and words[k] in _ABOUT and k + 1 < len(words) and (
            words[k + 1] in W.NUMBERS or words[k + 1].isdigit()):
        k += 1
    n = next((len(p) for p in _COUNTS if tuple(words[k:k + len(p)]) == p), 0)
    if n:
        return k - k0 + n
    w = words[k] if k < len(words) else ""
    if (w.isdigit() and int(w) >= 2) or W.NUMBERS.get(w, 0) >= 2:
        return k - k0 + 1
    return 0


def _strip_tags(words: list[str], a: int, b: int) -> int:
    """The end of ``words[a:b]`` without its trailing tags (", right", "in this house")."""
    changed = True
    while changed and b > a:
        changed = False
        for tag in _TAGS:
            if b - len(tag) >= a and tuple(words[b - len(tag):b]) == tag:
                b -= len(tag)
                changed = True
                break
    return b


class _Set:
    """A set said by a set-up: its head (plural as said), where it is, and the set-up's
    span of tokens."""

    def __init__(self, head: list[Token], desc: list[Token], kind: str,
                 single: bool = False) -> None:
        self.head = head
        self.desc = _with_words(desc)
        self.kind = kind
        self.single = single  # one thing ("a dog bed in that same room"): "that dog bed"

    def head_words(self) -> list[str]:
        words = [t.text for t in self.head]
        return [*words[:-1], singular_word(words[-1])]


_HAS = (("that", "is", "got"), ("that", "'s", "got"), ("that", "has", "got"), ("that", "has"),
        ("which", "has"), ("which", "is", "got"), ("that", "have", "got"), ("that", "have"))


def _with_words(desc: list[Token]) -> list[Token]:
    """"the bedroom that's got the armchair in it" -> "the bedroom with the armchair": said
    inside a pick, a room's own relative clause is said as "with" so that it stays on the
    room (the pick's own comparison follows it)."""
    words = [t.text for t in desc]
    lex = head_lexicon()
    out = list(desc)
    for k in range(1, len(words)):
        has = next((len(p) for p in _HAS if tuple(words[k:k + len(p)]) == p), 0)
        prev = lex.match(words[k - 1:k])
        if not has or prev is None or prev[2] != "room":
            continue
        q = k + has
        while q < len(words) and words[q] not in (",", "in", "and", "that", "which"):
            q += 1
        drop = 2 if words[q:q + 2] == ["in", "it"] and q + 2 == len(words) else 0
        return [*out[:k], _t("with", out[k]), *out[k + has:q], *out[q + drop:]]
    return out


def _noun_phrase_end(words: list[str], k: int, stop: tuple[str, ...]) -> int:
    while k < len(words) and words[k] not in stop and words[k] not in _ENDS:
        k += 1
    return k


def _desc_ok(words: list[str]) -> bool:
    """A description of a set: places and relatives, no request verbs."""
    return not any(w in W.MOVE_VERBS or w in ("i", "you", "go", "want") for w in words)


def _read_set(toks: list[Token], a: int, e: int) -> _Set | None:
    """The set a set-up sentence ``toks[a:e]`` introduces, if it is one."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    k = a
    while k < e and words[k] in _LEADS:
        k += 1
    if words[k:k + 3] == ["you", "know", "how"]:
        k += 3  # "You know how the kitchen table's got all those chairs round it?"
    place: list[Token] = []
    # "In the kitchen there's ...", "on that table there are two lamps"
    if k < e and words[k] in _PLACE_OPENERS and words[k + 1:k + 2] and words[k + 1] in _THAT:
        there = next((q for q in range(k + 2, e) if words[q] == "there"), None)
        if there is None or not any(lex.match(words[q:q + lex.max_len])
                                    for q in range(k + 2, there)):
            return None
        if not _desc_ok(words[k:there]) or "," in words[k:there]:
            return None
        place = toks[k:there]
        k = there
    if words[k:k + 1] == ["there"] and words[k + 1:k + 2] and words[k + 1] in ("is", "are"):
        return _there_set(toks, k + 2, e, place)
    if place:
        return None
    if words[k:k + 1] not in (["the"], ["this"], ["that"], ["our"]):
        return _bare_set(toks, k, e)
    return _owner_set(toks, k, e)


def _there_set(toks: list[Token], k: int, e: int, place: list[Token]) -> _Set | None:
    """After "there are": "two chairs at the table", "a table with four chairs round it"."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    c = _count(words, k)
    if c:
        k += c
        hit = lex.match(words[k:k + lex.max_len])
        if hit is None or hit[2] not in ("object", "group", "room"):
            return None
        end = _strip_tags(words, k + hit[0], e)
        desc = toks[k + hit[0]:end]
        if not _desc_ok([t.text for t in desc]):
            return None
        return _Set(toks[k:k + hit[0]], _at_words(desc) + place, hit[2])
    # "there is a table with four chairs round it" (in the kitchen)
    if words[k:k + 1] not in (["a"], ["an"], ["one"]):
        return None
    hit = lex.match(words[k + 1:k + 1 + lex.max_len])
    if hit is None or words[k + 1 + hit[0]:k + 2 + hit[0]] != ["with"]:
        return None
    thing = toks[k:k + 1 + hit[0]]
    q = k + 2 + hit[0]
    c = _count(words, q)
    sub = lex.match(words[q + c:q + c + lex.max_len]) if c else None
    if sub is None or sub[2] not in ("object", "group"):
        return None
    head = toks[q + c:q + c + sub[0]]
    q += c + sub[0]
    rel = words[q:q + 2]
    if len(rel) < 2 or rel[0] not in _AT_IT or rel[1] != "it" or \
            _strip_tags(words, q + 2, e) != q + 2:
        return None
    at = _t(_AT_IT[rel[0]], toks[q])
    return _Set(head, [at, _t("the", thing[0]), *thing[1:], *place], sub[2])


def _owner_set(toks: list[Token], k: int, e: int) -> _Set | None:
    """"the kitchen table's got a bunch of chairs round it", "The kitchen contains five
    chairs": the set stands at the thing, or in the room, that has it."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    adj = k + 1
    while adj < e and words[adj] in W.SIZE_ADJ:
        adj += 1  # "the big bedroom's got two beds in it"
    hit = lex.match(words[adj:adj + lex.max_len])
    if hit is None:
        return None
    have = 0
    q = adj + hit[0]
    while q < e:
        have = next((len(p) for p in _HAVE if tuple(words[q:q + len(p)]) == p), 0)
        if have and _count(words, q + have):
            break
        q += 1
    if not have or q >= e:
        return None
    owner = toks[k:q]
    if not _desc_ok(words[k:q]) or "," in words[k:q]:
        return None
    q += have
    q += _count(words, q)
    sub = lex.match(words[q:q + lex.max_len])
    if sub is None or sub[2] not in ("object", "group"):
        return None
    head = toks[q:q + sub[0]]
    q += sub[0]
    rest = words[q:_strip_tags(words, q, e)]
    owner_words = [_t("the", owner[0]), *owner[1:]]
    if rest == []:
        prep = "in" if hit[2] == "room" else "at"
        return _Set(head, [_t(prep, owner[0]), *owner_words], sub[2])
    if len(rest) == 2 and rest[0] in _AT_IT and rest[1] == "it" and rest[0] != "next":
        return _Set(head, [_t(_AT_IT[rest[0]], toks[q]), *owner_words], sub[2])
    return None


def _same_room_set(toks: list[Token], a: int, e: int) -> _Set | None:
    """"The baseball bat is in one of the rooms, and there's a dog bed in that same room":
    the thing of the second clause, in the room with the thing of the first."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    k = a
    while k < e and words[k] in _LEADS:
        k += 1
    if words[k:k + 1] not in (["the"], ["my"], ["a"]):
        return None
    hit = lex.match(words[k + 1:k + 1 + lex.max_len])
    if hit is None or hit[2] == "room":
        return None
    thing = toks[k + 1:k + 1 + hit[0]]
    q = k + 1 + hit[0]
    if words[q:q + 1] not in (["is"], ["'s"], ["sits"], ["lives"]):
        return None
    one = next((x for x in range(q + 1, e - 3) if words[x:x + 3] == ["in", "one", "of"]), None)
    if one is None or words[one + 3:one + 4] != ["the"]:
        return None
    room = lex.match(words[one + 4:one + 4 + lex.max_len])
    if room is None or room[2] != "room":
        return None
    room_toks = toks[one + 4:one + 4 + room[0]]
    place = toks[q + 1:one]
    if not _desc_ok([t.text for t in place]):
        return None
    r = one + 4 + room[0]
    if words[r:r + 5] not in (["and", "there", "is", "a", words[r + 4] if r + 4 < e else ""],
                              [",", "and", "there", "is", words[r + 4] if r + 4 < e else ""]):
        return None
    r += 4 if words[r] == "," else 3
    if words[r:r + 1] not in (["a"], ["an"]):
        return None
    sub = lex.match(words[r + 1:r + 1 + lex.max_len])
    if sub is None:
        return None
    head = toks[r + 1:r + 1 + sub[0]]
    tail = words[r + 1 + sub[0]:e]
    same = lex.match(tail[3:])
    if tail[:1] != ["in"] or tail[1:2] not in (["that"], ["the"]) or tail[2:3] != ["same"] or \
            same is None or same[2] != "room" or 3 + same[0] != len(tail):
        return None
    rw = [t.text for t in room_toks]
    room_words = [*room_toks[:-1], _t(singular_word(rw[-1]), room_toks[-1])]
    desc = [_t("in", toks[one]), _t("the", toks[one + 1]), *room_words,
            _t("with", toks[k]), _t("the", toks[k]), *thing, *place]
    return _Set(head, desc, sub[2], single=True)


def _bare_set(toks: list[Token], k: int, e: int) -> _Set | None:
    """"ok so 3 bedrooms, right?": a counted plural said on its own (and its tags)."""
    words = [t.text for t in toks]
    c = _count(words, k)
    if not c:
        return None
    hit = head_lexicon().match(words[k + c:k + c + head_lexicon().max_len])
    if hit is None or _strip_tags(words, k + c + hit[0], e) != k + c + hit[0]:
        return None
    return _Set(toks[k + c:k + c + hit[0]], [], hit[2])


def _at_words(desc: list[Token]) -> list[Token]:
    """"chairs round the table" -> "at the table": a set round a thing stands at it."""
    return [_t("at", t) if t.text in ("round", "around") and n + 1 < len(desc) and
            desc[n + 1].text in _THAT else t for n, t in enumerate(desc)]


def _first_clause_set(toks: list[Token], a: int, e: int) -> tuple[int, _Set] | None:
    """"There's a table in the bedroom with the armchair, and on that table there are two
    lamps": the thing of the first clause, then the set standing on it. Returns where the
    second clause starts and the set (its place is the first clause's thing)."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    k = a
    while k < e and words[k] in _LEADS:
        k += 1
    if words[k:k + 3] not in (["there", "is", "a"], ["there", "is", "one"]):
        return None
    hit = lex.match(words[k + 3:k + 3 + lex.max_len])
    if hit is None:
        return None
    cut = next((q for q in range(k + 3, e - 1) if words[q] == "," and words[q + 1] == "and"),
               None)
    if cut is None or not _desc_ok(words[k + 3:cut]):
        return None
    thing = toks[k + 3:cut]
    q = cut + 2
    if words[q:q + 1] and words[q] in _PLACE_OPENERS and words[q + 1:q + 3] == \
            ["that", words[k + 3]] and words[q + 2 + hit[0]:q + 3 + hit[0]] == ["there"]:
        inner = _read_set(toks, q + 2 + hit[0], e)
        if inner is None or inner.desc:
            return None
        inner.desc = _with_words([toks[q], _t("the", toks[q + 1]), *thing])
        return q, inner
    return None


def _pick(words: list[str], j: int) -> tuple[str, int, int, str] | None:
    """A pick at ``j``: (form, start, end of the pick words, size or rank word). Forms:
    ``one`` ("the one ..."), ``size`` ("the bigger one", "the biggest of them"),
    ``which`` ("whichever (one) (of those two Xs) is"), ``that`` ("that one")."""
    w = words[j] if j < len(words) else ""
    nxt = words[j + 1] if j + 1 < len(words) else ""
    if w == "the" and nxt == "one" and words[j + 2:j + 3] != ["of"] and \
            words[j + 2:j + 4] != ["and", "only"]:
        return "one", j, j + 2, ""
    if w == "the" and nxt in _SIZES:
        if words[j + 2:j + 3] == ["one"]:
            return "size", j, j + 3, nxt
        if words[j + 2:j + 3] in (["of"], ["from"]):
            q = j + 3
            if words[q:q + 1] in (["them"], ["those"], ["these"], ["all"]):
                return "size", j, q + 1 + (words[q] == "all"), nxt
            count = words[q + 1] if q + 1 < len(words) else ""
            if words[q:q + 1] in (["the"], ["those"]) and (
                    count in W.NUMBERS or count in ("both", "lot") or count.isdigit()):
                if not head_lexicon().match(words[q + 2:q + 2 + head_lexicon().max_len]):
                    return "size", j, q + 2, nxt
    if w in ("whichever", "which"):
        q = j + 1
        if words[q:q + 1] == ["one"]:
            q += 1
        if words[q:q + 1] == ["of"]:
            q += 1
            if words[q:q + 1] in (["them"], ["those"], ["these"], ["their"], ["its"], ["the"]):
                q += 1
            if words[q:q + 1] and (words[q] in W.NUMBERS or words[q].isdigit()
                                   or words[q] == "both"):
                q += 1
        if words[q:q + 1] in (["is"], ["'s"], ["are"]):
            return "which", j, q, ""
        hit = head_lexicon().match(words[q:q + head_lexicon().max_len])
        if hit is not None and q > j + 1 and words[q + hit[0]:q + hit[0] + 1] in (
                ["is"], ["'s"], ["are"]):
            return "which", j, q + hit[0], " ".join(words[q:q + hit[0]])
    if w == "that" and nxt == "one":
        return "that", j, j + 2, ""
    if w == "the" and nxt in _NTH and words[j + 2:j + 4] in (["one"] + [y] for y in _YOU):
        return "nth", j, j + 3, nxt  # "the second one you get to": counted along the route
    return None


_NTH = frozenset({"first", "second", "third", "1st", "2nd", "3rd"})
_YOU = ("you", "u")
_MEET = frozenset({"get", "come", "reach", "walk", "hit", "pass", "meet", "see", "go"})


def _meet_end(words: list[str], t: int) -> int:
    """End of "you get to" / "you come across" / "you pass" at ``t``."""
    if words[t + 1:t + 2] == [] or words[t + 1] not in _MEET:
        return t
    m = t + 2
    return m + (words[m:m + 1] in (["to"], ["into"], ["across"], ["past"], ["by"], ["upon"]))


#: First words of a pick's own clause that the later stages read after "the one" ("the one
#: closest to the door", "the one that has not got a plant on it"); anything else is said
#: straight after the description, so that a word the parser cannot check is refused.
_READ_AFTER_ONE = _SIZES | frozenset(_PLACE_OPENERS) | frozenset(
    {"next", "closest", "right", "directly", "just", "with", "without", "has", "have", "not",
     "got", "does", "facing", "opposite", "against", "beside", "nearest", "furthest"})


def _apposable(words: list[str], k: int) -> bool:
    """Whether the pick's clause from ``k`` may follow as ", the one ..." (see
    :data:`_READ_AFTER_ONE`)."""
    while k < len(words) and words[k] in ("that", "which", "is", "'s", "are"):
        k += 1
    return k < len(words) and words[k] in _READ_AFTER_ONE


def _clause_end(words: list[str], k: int) -> int:
    while k < len(words) and words[k] not in (",", "and", "then", *_ENDS):
        k += 1
    return k


def _resolve(toks: list[Token], sets: _Set, a: int, e: int) -> list[Token] | None:
    """The sentence ``toks[a:e]`` with each pick from ``sets`` read as its head and
    description; None when it has no pick."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    out: list[Token] = []
    found = False
    j = a
    while j < e:
        p = _pick(words, j)
        said_head = [t.text for t in sets.head]
        n_own = len(said_head)
        if p is not None and p[0] == "that" and not sets.single:
            p = None  # "that one" of a set of two says nothing of which
        if p is None and sets.single and words[j] in ("that", "this") and \
                words[j + 1:j + 1 + n_own] in (said_head, sets.head_words()):
            p = "that", j, j + 1 + n_own, ""  # "Go to that dog bed"
        if p is None:
            out.append(toks[j])
            j += 1
            continue
        form, s, t, word = p
        head = [_t(w, toks[s]) for w in sets.head_words()]
        desc = list(sets.desc)
        if form == "which" and word:
            said = word.split()
            hit = lex.match(said)
            own = lex.match([t.text for t in sets.head])
            if hit is None or own is None:
                return None
            if hit[1] != own[1]:
                if sets.kind != "room":
                    return None  # "whichever of their beds": only a set of rooms has things
                said_toks = toks[t - len(said):t]
                desc = [_t("in", toks[s]), _t("a", toks[s]), *head, *desc]
                head = [*said_toks[:-1], _t(singular_word(said[-1]), said_toks[-1])]
        found = True
        if form == "one":
            if desc and _apposable(words, t) and any(x.text == "and" for x in desc):
                out += [toks[s], *head, *desc, _t(",", toks[s]), toks[s], toks[s + 1]]
            else:
                out += [toks[s], *head, *desc]
                if desc and words[t:t + 1] not in (["that"], ["which"], [","], *([x] for x in _ENDS)):
                    out += [_t("that", toks[s + 1]), _t("is", toks[s + 1])]
            j = t
        elif form == "size":
            out += [toks[s], toks[s + 1], *head, *desc]
            j = t
        elif form == "nth":
            m = _meet_end(words, t)
            if m == t:
                return None
            out += [toks[s], toks[s + 1], *head, *toks[t:m], *desc]
            j = m
        elif form == "that":
            out += [_t("the", toks[s]), *head, *desc]
            j = t
        else:  # whichever ... is REST
            r = t + 1
            size = r < len(words) and words[r] in _SIZES and \
                words[r + 1:r + 2] in ([], [","], ["and"], ["then"], *([x] for x in _ENDS))
            if size:
                out += [_t("the", toks[s]), toks[r], *head, *desc]
                j = r + 1
            else:
                if _clause_end(words, r) == r:
                    return None
                out += [_t("the", toks[s]), *head, *desc]
                if desc and _apposable(words, r) and any(t.text == "and" for t in desc):
                    out += [_t(",", toks[s]), _t("the", toks[s]), _t("one", toks[s])]
                out += [_t("that", toks[t]), toks[t]]
                j = r
    return out if found else None


#: Verbs that only single a thing out ("find the bigger of the two, and then go to the chair
#: nearest to it"): the thing found is where the next request is measured from.
_SPOT = ("find", "spot", "identify", "locate")
_THEN = (",", "and", "then")


def _found_then(out: list[Token], context: Context) -> list[Token]:
    """"find the bigger bed ..., and then go to whichever chair is nearest to it" -> "go to
    whichever chair is nearest to the bigger bed ...": "find" reported as context."""
    words = [t.text for t in out]
    for k, w in enumerate(words):
        if w not in _SPOT or words[k + 1:k + 2] != ["the"]:
            continue
        end = next((q for q in range(k + 1, len(words)) if words[q] in _THEN + _ENDS), None)
        if end is None or words[end] in _ENDS:
            return out
        nxt = end
        while nxt < len(words) and words[nxt] in _THEN:
            nxt += 1
        if nxt >= len(words) or words[nxt] not in W.MOVE_VERBS:
            return out
        stop = next((q for q in range(nxt, len(words)) if words[q] in _ENDS), len(words))
        it = next((q for q in range(nxt, stop) if words[q] == "it" and
                   words[q - 1] in ("to", "from", "of", "near", "by", "beside")), None)
        if it is None:
            return out
        context.append((" ".join(words[k:k + 1] + words[end:nxt]).replace(" ,", ","),
                        (out[k].start, out[k].end)))
        return [*out[:k], *out[nxt:it], *out[k + 1:end], *out[it + 1:]]
    return out


def set_picks(toks: list[Token]) -> tuple[list[Token], Context]:
    """Fold each set-up sentence into the picks of the next one (see the module
    docstring); returns the tokens and the set-ups taken out as context."""
    words = [t.text for t in toks]
    sents = _sentences(words)
    # a set-up may also end at a comma before the request ("..., go to the one ...")
    out: list[Token] = []
    context: Context = []
    n = 0
    while n < len(sents):
        a, e = sents[n]
        split = _comma_request(toks, a, e)
        if split is not None:
            ranges = [(a, split, split), (split + 1, e, e)]
        else:
            ranges = [(a, e, e)]
        done = False
        if len(ranges) == 2 or n + 1 < len(sents):
            sa, se, _ = ranges[0]
            first = _first_clause_set(toks, sa, se)
            set_ = first[1] if first is not None else \
                _read_set(toks, sa, se) or _same_room_set(toks, sa, se)
            if set_ is not None:
                ra, re_ = (ranges[1][0], ranges[1][1]) if len(ranges) == 2 else sents[n + 1]
                picked = _resolve(toks, set_, ra, re_)
                named = _named_member(toks, set_, ra, re_) \
                    if picked is None and len(ranges) == 1 else None
                if named is not None:  # the set-up only says there are several (and where)
                    picked = [*toks[ra:named], *set_.desc, *toks[named:re_]]
                if picked is not None:
                    picked = _found_then(picked, context)
                    said = [t for t in toks[sa:se] if t.text != ","]
                    context.append((" ".join(t.text for t in said),
                                    (said[0].start, said[-1].end)))
                    out += picked
                    if re_ < len(toks):
                        out.append(toks[re_])
                    n += 1 if len(ranges) == 2 else 2
                    done = True
        if not done:
            so = _so_clear(toks, a, e)
            if so is not None:
                said = [t for t in toks[a:so] if t.text != ","]
                context.append((" ".join(t.text for t in said), (said[0].start, said[-1].end)))
                a = so
            out += toks[a:e + 1] if e < len(toks) else toks[a:e]
            n += 1
    return out, context


def _comma_request(toks: list[Token], a: int, e: int) -> int | None:
    """Index of the comma that ends a set-up said in the same sentence as the request
    ("the table's got chairs round it, go to the one ...", "there are three beds in this
    house, dear, and I'd like you to go to the biggest of them")."""
    words = [t.text for t in toks]
    for q in range(a + 3, e - 1):
        if words[q] == "," and any(_pick(words, j) for j in range(q + 1, e)) and \
                _read_set(toks, a, q) is not None:
            return q
    return None


#: Words between a set-up and a request that names the set's kind itself ("There are a few
#: tables around the house, so just to be clear: I want you at the dining table ...").
_SO_CLEAR = (("so", "just", "to", "be", "clear", ":"), ("so", "to", "be", "clear", ":"),
             ("so", "just", "to", "be", "clear", ","), ("so", "to", "be", "clear", ","),
             ("so", "to", "be", "clear"), ("so", "just", "to", "be", "clear"),
             ("but",), ("and",), ("so",))


def _so_clear(toks: list[Token], a: int, e: int) -> int | None:
    """Where the request starts after "There are a few tables around the house, so just to
    be clear: ..." when it names the set's kind itself (the set-up and its connector are
    context); None otherwise."""
    words = [t.text for t in toks]
    for q in range(a + 3, e - 1):
        if words[q] != ",":
            continue
        link = next((len(p) for p in _SO_CLEAR if tuple(words[q + 1:q + 1 + len(p)]) == p), 0)
        if not link:
            continue
        set_ = _read_set(toks, a, q)
        if set_ is not None and not set_.desc and \
                _named_member(toks, set_, q + 1 + link, e) is not None:
            return q + 1 + link
    return None


def _named_member(toks: list[Token], set_: _Set, a: int, e: int) -> int | None:
    """Where ``toks[a:e]`` names a thing of the set's kind itself (the set's head, or a
    kind its group word covers) — the end of its head —, if it does: then the set-up only
    says there are several (its place is said after that head)."""
    lex = head_lexicon()
    own = lex.match([t.text for t in set_.head])
    if own is None:
        return None
    words = [t.text for t in toks]
    members = {own[1], *GROUPS.get(own[1], ())}
    for j in range(a, e):
        hit = lex.match(words[j:j + lex.max_len])
        if hit is None or hit[1] not in members or words[j - 1:j] != ["the"]:
            continue
        # a narrower kind ("tables" -> "the dining table") or one said with what singles it
        # out ("the chair that ...", "the chair nearest ..."); a bare "the chair" of two is not
        if hit[1] != own[1] or words[j + hit[0]:j + hit[0] + 1] and \
                words[j + hit[0]] in _READ_AFTER_ONE | {"that", "which"}:
            return j + hit[0]
    return None
