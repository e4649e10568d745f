"""A scene set first, then a request that picks from it or points back at it.

People often lay out the scene before they ask ("There are two stools in this house: one in
the kitchen, and one in a bedroom. Go to the second one."). Read here, each rewritten onto a
phrasing the later passes already read, before :mod:`.introductions` and :mod:`.set_intros`:

* a pseudo-cleft that names the goal: "Where I'd like you to stop is the X ...", "The place I
  want you to end up is the X ...", "The X is where I need you" -> "go to the X ..." (any
  verb phrase after "you to": the clause only says that the X is the goal);
* "..., that's where I want you (to <any verb phrase>)" -> "... . go there";
* a set of N things listed member by member ("there are two Xs (in this house): one in A,
  and one in B") and then picked by order or by the member's room ("the second one", "the
  bedroom one") -> "the X in B"; the set's sentence (its count a check on the map) is context;
* a count of rooms of which only one has (or lacks) something ("This house has four bedrooms,
  and only one of them has a stool", "Of the four bathrooms, only one has ...") and then
  pointed at ("that room", "that one", "in there") -> "the bedroom that has a stool";
* "a room with more Xs than any other (room)" -> "a room with the most Xs";
* "The R has / contains a X ..." before a request that points back -> "In the R there is a
  X ..." (what :mod:`.introductions` reads);
* "In the R, <any participle> <place>, there's a X": the participle clause says where the X
  stands, not where to go (context).

Hand-written like the rest of the parser (see :mod:`.normalise`): each shape is closed around
an open slot (any verb phrase, any participle, any member phrase) guarded by what makes the
words part of the route; every word is kept (moved, with its span) or reported as context, and
a shape that does not match exactly is left as typed so that the later stages read or refuse
it by name.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.introductions import lead_end, sentence_end
from map2route.language.tokens import Token

Context = list[tuple[str, tuple[int, int]]]

_ENDS = (".", "!", "?", ";")
_LEADS = frozenset({"um", "umm", "uh", "er", "erm", "so", "ok", "okay", "right", "now", "well",
                    "oh", "and", ",", "hey", "alright", "anyway", "yeah", "then", "also"})
_SUBJECTS = frozenset({"i", "we"})
#: Words of a wish ("I'd really like", "we need", "I want").
_WISH = frozenset({"would", "really", "like", "want", "wanted", "need", "needed", "do",
                   "actually", "ideally", "just", "have", "got"})
_NEGATION = frozenset({"not", "never", "no", "n't", "nowhere"})
#: Words of a verb phrase that make the place something other than where to be ("where I
#: want you to keep away from", "to go round", "to go past").
_NOT_A_GOAL = frozenset({"avoid", "away", "clear", "out", "from", "past", "through", "thru",
                         "round", "around", "between", "skip", "miss", "across", "pass",
                         "circle", "via", "along", "by", "under", "over", "off"})
_ARTICLES = ("the", "a", "an", "my", "that", "this", "our")
_ORDINALS = {"first": 0, "second": 1, "third": 2, "1st": 0, "2nd": 1, "3rd": 2}
_PLACING = frozenset({"in", "on", "by", "next", "beside", "near", "under", "inside", "at",
                      "behind", "against", "underneath", "upstairs", "downstairs"})
_AND = frozenset({",", "and", "n", "&", "+", "plus"})
_HAVE = frozenset({"has", "have", "contains", "contain"})
_IRREGULAR_PARTICIPLES = frozenset({"set", "put", "hidden", "stuck", "kept", "left", "built",
                                    "shoved", "jammed", "wedged", "tucked", "squeezed"})


def _t(word: str, like: Token) -> Token:
    return Token(word, like.start, like.end)


def _said(toks: list[Token]) -> tuple[str, tuple[int, int]]:
    return " ".join(t.text for t in toks), (toks[0].start, toks[-1].end)


def _starts(words: list[str]) -> list[int]:
    return [k for k in range(len(words)) if k == 0 or words[k - 1] in _ENDS]


def _head(words: list[str], k: int) -> tuple[int, str, str]:
    hit = head_lexicon().match(words[k:k + head_lexicon().max_len])
    return (hit[0], hit[1], hit[2]) if hit else (0, "", "")


def _number(w: str) -> bool:
    return w in W.NUMBERS or w.isdigit()


def _has_head(words: list[str], a: int, b: int) -> bool:
    return any(_head(words, x)[0] for x in range(a, b))


def _wish_to(words: list[str], k: int, e: int) -> int:
    """``k`` at "I would like you (to <verb phrase>)": where that ends (``e`` when it runs
    to ``e``), or -1 when the words are no wish of where the robot should be."""
    if k >= e or words[k] not in _SUBJECTS:
        return -1
    x = k + 1
    while x < e and words[x] in _WISH:
        x += 1
    if x == k + 1 or x >= e or words[x] != "you":
        return -1
    if any(w in _NEGATION or w in _NOT_A_GOAL for w in words[k:e]) or \
            _has_head(words, x + 1, e):
        return -1
    return e


# --- "Where I'd like you to stop is the X" ---------------------------------------------------
def _clefts(toks: list[Token], context: Context) -> list[Token]:
    words = [t.text for t in toks]
    for s in reversed(_starts(words)):
        e = sentence_end(words, s)
        k = lead_end(words, s, e, _LEADS)
        c = k + (1 if words[k:k + 1] == ["where"] else
                 2 if words[k:k + 2] in (["the", "place"], ["the", "spot"]) else 0)
        if c == k:
            continue
        c += words[c:c + 1] in (["that"], ["where"])
        v = next((x for x in range(c, e) if words[x] == "is"), None)
        if v is None or v + 1 >= e or _wish_to(words, c, v) != v or \
                words[v + 1] not in _ARTICLES or not _head(words, v + 2)[0] and \
                not _head(words, v + 3)[0]:
            continue
        context.append(_said(toks[k:v + 1]))
        toks = [*toks[:k], _t("go", toks[v]), _t("to", toks[v]), *toks[v + 1:]]
        words = [t.text for t in toks]
    return toks


# --- "..., that's where I want you to end up" / "The X is where I need you" ------------------
def _thats_where(toks: list[Token], context: Context) -> list[Token]:
    words = [t.text for t in toks]
    for s in reversed(_starts(words)):
        e = sentence_end(words, s)
        for x in range(s, e - 2):
            if words[x:x + 2] in (["is", "where"], ["'s", "where"]):
                break
        else:
            continue
        if _wish_to(words, x + 2, e) != e:
            continue
        k = lead_end(words, s, x, _LEADS)
        if any(w in W.MOVE_VERBS for w in words[k:x]) or \
                words[k:k + 1] and words[k] in _ARTICLES and \
                words[k + 1:k + 1 + _head(words, k + 1)[0]] and any(
                    words[y:y + _head(words, k + 1)[0]] ==
                    words[k + 1:k + 1 + _head(words, k + 1)[0]] for y in range(s)):
            continue  # "Go to the toilet, that's where I want you": said of a request
        if words[x - 1:x] == ["that"] and (x - 1 == k or words[x - 2] == ","):
            # "..., that's where I want you" / "That's where I want you to end up."
            a = x - 1 if x - 1 == k else x - 2
            context.append(_said(toks[x - 1:e]))
            go = [_t("go", toks[x]), _t("there", toks[x])]
            toks = [*toks[:a], *([_t(".", toks[a])] if a != k else []), *go, *toks[e:]]
        elif words[k:k + 1] and words[k] in _ARTICLES and _head(words, k + 1)[0] and \
                "," not in words[k:x]:
            # "The bed in the back bedroom is where I need you."
            context.append(_said(toks[x:e]))
            toks = [*toks[:k], _t("go", toks[x]), _t("to", toks[x]),
                    *([_t("the", toks[k])] if words[k] != "the" else []),
                    *toks[k + (words[k] not in ("the", "a", "an")):x], *toks[e:]]
        else:
            continue
        words = [t.text for t in toks]
    return toks


# --- "more Xs than any other" ------------------------------------------------------------------
def _more_than_any(toks: list[Token], context: Context) -> list[Token]:
    words = [t.text for t in toks]
    for x in range(len(words) - 1, 0, -1):
        if words[x] != "more" or words[x - 1] not in ("with", "has", "have", "got", "contains"):
            continue
        n = _head(words, x + 1)[0]
        t = x + 1 + n
        if not n or words[t:t + 3] != ["than", "any", "other"]:
            continue
        f = t + 3 + (words[t + 3:t + 4] in (["room"], ["one"], ["rooms"]))
        context.append(_said(toks[t:f]))
        toks = [*toks[:x], _t("the", toks[x]), _t("most", toks[x]), *toks[x + 1:t], *toks[f:]]
        words = [t.text for t in toks]
    return toks


# --- "There are two Xs: one in A, and one in B. Go to the second one." -----------------------
def _singular(tok: Token, n_words: list[Token]) -> list[Token]:
    *lead, last = n_words
    w = last.text
    for cut in (2, 1):  # "boxes", "stools"
        if len(w) > cut and w.endswith("es"[-cut:]):
            words = [t.text for t in lead] + [w[:-cut]]
            if head_lexicon().match(words) is not None:
                return [*lead, _t(w[:-cut], last)]
    return n_words


def _members(words: list[str], k: int, e: int) -> list[tuple[int, int]] | None:
    """The member phrases of "one in A, and one in B" at ``k`` (each without its "one")."""
    out: list[tuple[int, int]] = []
    x = k
    while x < e:
        if words[x] != "one":
            return None
        y = x + 1
        while y < e and not (words[y] == "one" and words[y - 1] in _AND):
            y += 1
        b = y
        while b > x + 1 and words[b - 1] in _AND:
            b -= 1
        if b == x + 1 or not _has_head(words, x + 1, b):
            return None
        out.append((x + 1, b))
        x = y
    return out if len(out) >= 2 else None


def _member_words(toks: list[Token], a: int, b: int, context: Context) -> list[Token]:
    """A member phrase without the speaker's own words ("here ... with me")."""
    words = [t.text for t in toks]
    keep = list(toks[a:b])
    if words[a] == "here":
        context.append(_said(toks[a:a + 1]))
        keep = keep[1:]
    if words[b - 2:b] in (["with", "me"], ["by", "me"], ["near", "me"]):
        context.append(_said(toks[b - 2:b]))
        keep = keep[:-2]
    return keep


def _listed_sets(toks: list[Token], context: Context) -> list[Token]:
    words = [t.text for t in toks]
    for s in reversed(_starts(words)):
        e = sentence_end(words, s)
        k = lead_end(words, s, e, _LEADS)
        if words[k:k + 2] in (["there", "are"], ["there", "is"], ["we", "have"],
                              ["i", "have"]):
            c = k + 2 + (words[k + 2:k + 3] == ["got"])
        else:
            continue
        if c >= e or not _number(words[c]) or words[c] in ("a", "an", "one"):
            continue
        n, _, kind = _head(words, c + 1)
        if not n or kind not in ("object", "group"):
            continue
        h = c + 1 + n
        colon = next((x for x in range(h, e) if words[x] in (":", ",", "-")
                      and words[x + 1:x + 2] == ["one"]), None)
        if colon is None:
            continue
        members = _members(words, colon + 1, e)
        if members is None or _has_head(words, h, colon) and "with" not in words[h:colon]:
            continue
        f = e + 1
        if f >= len(words):
            continue
        g = sentence_end(words, f)
        picked = _pick(words, f, g, members)
        if picked is None:
            continue
        i, pa, pb = picked
        said: Context = []
        desc = [_t("it", t) if t.text == "them" else t for t in toks[h:colon]
                if words[h:colon] and "with" in words[h:colon]]
        member = _member_words(toks, *members[i], said)
        phrase = [_t("the", toks[c]), *_singular(toks[c], toks[c + 1:h]), *desc, *member]
        kept = {id(t) for t in phrase}
        context.append(_said([t for t in toks[k:e] if id(t) not in kept]))
        toks = [*toks[:s], *toks[f:f + (pa - f)], *phrase, *toks[pb:]]
        words = [t.text for t in toks]
    return toks


def _pick(words: list[str], f: int, g: int, members: list[tuple[int, int]]
          ) -> tuple[int, int, int] | None:
    """The member picked in ``words[f:g]``: ("the second one" (", the bedroom one"), "the
    bedroom one", "the last one"): its index and the pointer's span."""
    for x in range(f, g - 1):
        if words[x] != "the":
            continue
        y = x + 1
        if words[y] in _ORDINALS or words[y] == "last":
            if words[y + 1:y + 2] != ["one"]:
                continue
            i = len(members) - 1 if words[y] == "last" else _ORDINALS[words[y]]
            if i >= len(members):
                return None
            b = y + 2
            if words[b:b + 2] == [",", "the"]:  # ", the bedroom one": must say the same
                n, head, _ = _head(words, b + 2)
                if n and words[b + 2 + n:b + 3 + n] == ["one"]:
                    if _member_of(words, members, head) != i:
                        return None
                    b += 3 + n
            return i, x, b
        n, head, kind = _head(words, y)
        if n and words[y + n:y + n + 1] == ["one"] and kind == "room":
            j = _member_of(words, members, head)
            return None if j is None else (j, x, y + n + 1)
    return None


def _member_of(words: list[str], members: list[tuple[int, int]], head: str) -> int | None:
    hits = [i for i, (a, b) in enumerate(members)
            if any(_head(words, x)[1] == head for x in range(a, b))]
    return hits[0] if len(hits) == 1 else None


# --- "This house has four bedrooms, and only one of them has a stool" ------------------------
_POINTERS = (("that", "room"), ("that", "one"), ("this", "room"), ("in", "there"),
             ("that", "same", "room"))


def _only_one(toks: list[Token], context: Context) -> list[Token]:
    words = [t.text for t in toks]
    starts = _starts(words)
    for x in range(len(words) - 2):
        s = max([q for q in starts if q <= x] or [0])
        if words[x:x + 2] == ["only", "one"]:
            v = x + 2 + 2 * (words[x + 2:x + 4] == ["of", "them"])
        elif words[x:x + 3] == ["one", "of", "the"] and x == lead_end(words, s, x + 1, _LEADS) and \
                _head(words, x + 3)[2] == "room":
            v = x + 3 + _head(words, x + 3)[0]  # "One of the bedrooms has three lamps in it."
        else:
            continue
        if v >= len(words) or words[v] not in (*_HAVE, "does", "is", "has"):
            continue
        e = next((q for q in range(v, len(words)) if words[q] in (*_ENDS, ",")), len(words))
        # the counted rooms: in this sentence, or the one before it
        prev = max([q for q in starts if q < s] or [s])
        room = (x + 3, _head(words, x + 3)) if words[x] == "one" else \
            next(((q, _head(words, q)) for q in range(prev, x)
                  if _head(words, q)[2] == "room" and q > 0 and
                  _number(words[q - 1])), None)
        if room is None or not _has_head(words, v, e):
            continue
        q, (n, _, _) = room
        a = prev if q < s else s
        f = e + 1 if e < len(words) and words[e] in _ENDS else e
        while f < len(words) and words[f] in (",", *_ENDS):
            f += 1
        if f < len(words) and words[f - 1] == "," and words[f] not in W.MOVE_VERBS:
            continue  # an apposition the pick would have to read as well
        room_words = _singular(toks[q], toks[q:q + n])
        same = tuple(t.text for t in room_words)
        p = next(((y, len(ptr)) for y in range(f, sentence_end(words, f))
                  for ptr in (*_POINTERS, ("that", *same), ("this", *same))
                  if tuple(words[y:y + len(ptr)]) == ptr), None)
        if p is None:
            continue
        y, m = p
        phrase = [_t("the", toks[q]), *room_words, _t("that", toks[v]), *toks[v:e]]
        if words[y] == "in":
            phrase = [toks[y], *phrase]
        kept = {id(t) for t in toks[v:e]}
        context.append(_said([t for t in toks[a:f] if id(t) not in kept and
                              t.text not in (",", *_ENDS)]))
        toks = [*toks[:a], *toks[f:y], *phrase, *toks[y + m:]]
        return toks
    return toks


# --- "The kitchen has a stool ..." / "In the R, tucked behind X, there's a Y" ----------------
def _room_has(toks: list[Token], context: Context) -> list[Token]:
    words = [t.text for t in toks]
    for s in reversed(_starts(words)):
        e = sentence_end(words, s)
        k = lead_end(words, s, e, _LEADS)
        n, _, kind = _head(words, k + 1)
        v = k + 1 + n
        if words[k:k + 1] != ["the"] or kind != "room" or v >= e or \
                words[v] not in ("has", "contains") or words[v + 1:v + 2] not in (["a"], ["an"]):
            continue
        if _head(words, v + 2 + (words[v + 2] in W.FILLER_ADJ))[2] != "object":
            continue
        f = e + 1
        if not any(w == "it" or w in ("that", "this") and words[y + 1:y + 2] in (
                [words[v + 2]], [words[v + 3]], ["one"]) for y, w in enumerate(
                    words[f:sentence_end(words, f)], start=f)):
            if e < len(words) and f < len(words) and all(
                    _named(words[:e], d + 1) for d in range(k, e) if words[d] in _DETS) and not {"you", "please", "i"} & set(words[k:e]) and \
                    not any(w in W.MOVE_VERBS for w in words[k:e]):
                context.append(_said(toks[k:e]))  # "The kitchen has a fridge.": the scene
                toks = [*toks[:s], *toks[e + 1:]]
                words = [t.text for t in toks]
            continue  # only "it" / "that X" point back ("stop there" may be the new room)
        toks = [*toks[:k], _t("in", toks[k]), *toks[k:v], _t("there", toks[v]),
                _t("is", toks[v]), *toks[v + 1:]]
        words = [t.text for t in toks]
    return toks


def _participle(w: str) -> bool:
    return w in _IRREGULAR_PARTICIPLES or len(w) > 4 and w.endswith(("ed", "ing"))


def _fronted_participles(toks: list[Token], context: Context) -> list[Token]:
    words = [t.text for t in toks]
    for s in reversed(_starts(words)):
        e = sentence_end(words, s)
        k = lead_end(words, s, e, _LEADS)
        if words[k:k + 1] not in (["in"], ["inside"]):
            continue
        c = next((x for x in range(k, e) if words[x] == ","), None)
        if c is None or c + 1 >= e or not _participle(words[c + 1]) or \
                _head(words, c + 1)[0] or words[c + 1] in W.MOVE_VERBS:
            continue
        d = next((x for x in range(c + 2, e) if words[x] == ","), None)
        if d is None or words[d + 1:d + 3] != ["there", "is"] and \
                words[d + 1:d + 3] != ["there", "are"]:
            continue
        context.append(_said(toks[c + 1:d]))
        toks = [*toks[:c], *toks[d:]]
        words = [t.text for t in toks]
    return toks


# --- "Two of the bathrooms have a dresser in them. ... the bigger of those two" ---------------
_SET_POINTERS = (("those", "two"), ("those", "three"), ("these", "two"), ("the", "two"),
                 ("them",), ("those",))


def _some_have(toks: list[Token], context: Context) -> list[Token]:
    words = [t.text for t in toks]
    for s in reversed(_starts(words)):
        e = sentence_end(words, s)
        k = lead_end(words, s, e, _LEADS)
        if k >= e or not _number(words[k]) or words[k] in ("one", "a", "an") or \
                words[k + 1:k + 3] != ["of", "the"]:
            continue
        n, _, kind = _head(words, k + 3)
        v = k + 3 + n
        if kind != "room" or v >= e or words[v] not in _HAVE or not _has_head(words, v, e):
            continue
        f = e + 1
        g = sentence_end(words, f)
        p = next(((y, len(ptr)) for y in range(f + 1, g) for ptr in _SET_POINTERS
                  if words[y - 1] == "of" and tuple(words[y:y + len(ptr)]) == ptr), None)
        if p is None:
            continue
        y, m = p
        phrase = [_t("the", toks[k + 1]), *toks[k + 3:v], _t("that", toks[v]), *toks[v:e]]
        context.append(_said([toks[k], toks[k + 1], toks[k + 2]]))
        context.append(_said(toks[y:y + m]))
        toks = [*toks[:s], *toks[f:y], *phrase, *toks[y + m:]]
        words = [t.text for t in toks]
    return toks


# --- "I want you in the R, standing next to its X" --------------------------------------------
_NEXT = (("next", "to"), ("by",), ("beside",), ("near",), ("at",), ("close", "to"))


def _wanted_in_room(toks: list[Token], context: Context) -> list[Token]:
    words = [t.text for t in toks]
    for s in reversed(_starts(words)):
        e = sentence_end(words, s)
        k = lead_end(words, s, e, _LEADS)
        c = next((x for x in range(k, e) if words[x] == ","), e)
        if _wish_to(words, k, c) != c:
            w = next((x for x in range(k, c) if words[x] == "you"), None)
            if w is None or _wish_to(words, k, w + 1) != w + 1 or words[w + 1:w + 2] != ["in"]:
                continue
        else:
            continue
        if c + 2 >= e or not _participle(words[c + 1]) or _head(words, c + 1)[0]:
            continue
        r = next((len(x) for x in _NEXT if tuple(words[c + 2:c + 2 + len(x)]) == x), 0)
        d = c + 2 + r
        if not r or words[d:d + 1] not in (["its"], ["the"]):
            continue
        n, _, kind = _head(words, d + 1)
        if kind != "object" or d + 1 + n != e:
            continue
        context.append(_said(toks[k:w + 1]))
        context.append(_said(toks[c + 1:d + 1]))
        toks = [*toks[:k], _t("go", toks[w]), _t("to", toks[w]), _t("the", toks[d]),
                *toks[d + 1:e], *toks[w + 1:c], *toks[e:]]
        words = [t.text for t in toks]
    return toks


def _hedged_before(toks: list[Token], context: Context) -> list[Token]:
    """"Before that though, swing by X": the hedge after "before that" says nothing more."""
    words = [t.text for t in toks]
    for x in range(len(words) - 3, 0, -1):
        if words[x:x + 2] == ["before", "that"] and words[x + 2] in ("though", "tho") and \
                words[x - 1] in (",", *_ENDS):
            context.append(_said(toks[x + 2:x + 3]))
            toks = [*toks[:x + 2], *toks[x + 3:]]
    return toks


# --- "Picture the lounge: the couch is in the middle and the telly's by the wall." ----------
_PICTURE = (("picture",), ("imagine",), ("think", "of"), ("look", "at"))


_DETS = frozenset({"the", "a", "an", "its", "their", "his", "her", "this", "that"})
_PARTS = frozenset({"middle", "room", "corner", "side", "end", "edge", "back", "front",
                    "centre", "center", "wall", "floor"})


def _named(words: list[str], k: int) -> bool:
    """Whether the noun phrase at ``k`` is one the map names (or a part of the room)."""
    while k < len(words) and words[k] in W.FILLER_ADJ:
        k += 1
    return k < len(words) and (bool(_head(words, k)[0]) or words[k] in _PARTS)


def _pictured(toks: list[Token], context: Context) -> list[Token]:
    """A room pictured and then described by statements with their own subjects: the scene
    the request is said in (context), never a stage ("picture" is no painting here)."""
    words = [t.text for t in toks]
    for s in reversed(_starts(words)):
        e = sentence_end(words, s)
        k = lead_end(words, s, e, _LEADS)
        p = next((len(x) for x in _PICTURE if tuple(words[k:k + len(x)]) == x), 0)
        r = k + p
        n, _, kind = _head(words, r + 1)
        c = r + 1 + n
        if not p or words[r:r + 1] != ["the"] or kind != "room" or \
                words[c:c + 1] not in ([":"], [","]):
            continue
        rest = words[c + 1:e]
        m, _, mkind = _head(rest, 1)
        if rest[:1] != ["the"] or not m or mkind == "room" or \
                rest[1 + m:2 + m] not in (["is"], ["are"], ["sits"], ["stands"]) or \
                {"you", "your", "i", "me"} & set(rest) or e + 1 >= len(words):
            continue
        if not all(_named(rest, d + 1) for d in range(len(rest)) if rest[d] in _DETS):
            continue  # "the telly's on its stand": a word the map cannot check stays
        context.append(_said(toks[k:e]))
        toks = [*toks[:s], *toks[e + 1:]]
        words = [t.text for t in toks]
    return toks


def _placed_after_comma(toks: list[Token]) -> list[Token]:
    """"There's a stool in one of the bedrooms, right by the dresser. Go to it.": the place
    said after a pause describes the thing introduced (the comma goes)."""
    words = [t.text for t in toks]
    for s in reversed(_starts(words)):
        e = sentence_end(words, s)
        k = lead_end(words, s, e, _LEADS)
        if words[k:k + 2] not in (["there", "is"], ["there", "are"]) or e + 1 >= len(words):
            continue
        for c in range(k + 3, e - 2):
            if words[c] != ",":
                continue
            x = c + 1 + (words[c + 1] in ("right", "just"))
            r = next((len(p) for p in _NEXT if tuple(words[x:x + len(p)]) == p), 0)
            if r and words[x + r:x + r + 1] == ["the"] and \
                    x + r + 1 + _head(words, x + r + 1)[0] == e and \
                    {"it", "there", "that"} & set(words[e + 1:sentence_end(words, e + 1)]):
                toks = [*toks[:c], *toks[c + 1:]]
                words = [t.text for t in toks]
            break
    return toks


def scene_sets(toks: list[Token]) -> tuple[list[Token], Context]:
    """Read a scene set first (see the module docstring); returns the tokens and the words
    that only set the scene, as context."""
    context: Context = []
    toks = _clefts(toks, context)
    toks = _thats_where(toks, context)
    toks = _more_than_any(toks, context)
    toks = _listed_sets(toks, context)
    toks = _only_one(toks, context)
    toks = _some_have(toks, context)
    toks = _wanted_in_room(toks, context)
    toks = _hedged_before(toks, context)
    toks = _pictured(toks, context)
    toks = _placed_after_comma(toks)
    toks = _room_has(toks, context)
    toks = _fronted_participles(toks, context)
    return toks, context
