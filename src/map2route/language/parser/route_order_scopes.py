"""Rooms and legs told by the route, as a rule's scope or as a stage.

People place a rule, or a stop, by where it falls on the walk rather than by what is in the
room: "in the first bedroom u go thru keep away from X" (no comma, texting), "In the living
room you go through just before the bathroom, ...", "in the bedroom right after that
bathroom", "You'll go through two bedrooms on the way: in the first one ..., and in the
second one ...", "carry on into the one after that", "the chair you passed in the living
room", "the bedroom you walked through to get there", "Whenever you're in my room" (the room
the speaker said they are in), "Going there, keep away from X."

Run first of all the passes in :func:`.human.human_forms`, on the tokens as typed. Each
phrasing is rewritten onto the one the later stages already read, keeping the character
spans so that a refusal still points into the original text:

* a room opening a rule ("in/inside/within/through the [ORDINAL] ROOM", "when/while/as
  you [are] VERB [through] the [ORDINAL] ROOM") followed by a relative clause with its own
  subject, any verb ("(that|which) you|u [are|will] VERB [particle] [first]") -> "... the
  [ORDINAL] ROOM you pass through ," (the comma added when the writer left it out and a rule
  follows); the clause must make the room a place on the walk (an ordinal, a particle of
  passing, or a verb like "cross"): "in the bedroom you sleep in" is left alone;
* "the ROOM [(that) you VERB [particle]] (just|right) before|after (the|that|this) ROOM2" ->
  "the ROOM just before the ROOM2" (read by :func:`.route_rewrites.room_just_before`: the
  room beside ROOM2, the one of them reached first) or "the ROOM adjacent to the ROOM2";
  never a stop at ROOM2; "in the ROOM before that" with no room is refused (the parser cannot
  tell which place "that" is; "after that" is left alone: it is often "then");
* "in the ORDINAL one" after "NUMBER ROOMs" said with a verb of passing ("You'll go through
  two bedrooms") -> "in the ORDINAL ROOM you pass through";
* "(into|to|through) the one after that|it" -> "... the next one" (read by
  :func:`.ordinal_forms.next_ones` after a route-ordered room);
* "the X (that) you passed|crossed|walked through|went past|came by [on the way
  (there|here)] [to get there]" -> "the X you pass" (a thing met on the way back along the
  walk said); with an ordinal ("the bedroom you passed first") it is refused: on the way
  back the order is reversed, which the grounding's route order cannot say;
* "my room" after "I'm/I am ... in the ROOM ..." in an earlier sentence -> that room's
  words (the speaker's room);
* "Going there|over, RULE" -> "On the way there , RULE";
* "Once you've left X and you're heading to Y, RULE" -> "once you have left X , RULE", the
  leg restated by where it goes ("and you're heading to Y") taken out as context;
* "until you reach that first sofa" -> "... that sofa" when one sofa was said before;
* "you cross the bathroom on the way there, and in there RULE" -> "in the bathroom RULE",
  the walk told taken out as context.

Anything not matched exactly is left alone for the later stages, which read it or refuse
it. The constructions are closed (a preposition, a room word, a clause with its own
subject), so they are written by hand like the rest of the parser; the verb of the clause
is any word, guarded by what makes the room part of the walk (an ordinal or a particle of
passing) and by what must follow it (a comma or a rule's verb).
"""

from __future__ import annotations

from map2route.language.errors import ParseError
from map2route.language.inflection import singular_word
from map2route.language.parser.destination_tokens import Context, take
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["route_order_scopes"]

_ORDINALS = {"first": "first", "1st": "first", "second": "second", "2nd": "second",
             "third": "third", "3rd": "third", "fourth": "fourth", "4th": "fourth",
             "next": "next"}
_BEFORE = frozenset({".", ",", ";", "!", "?", ":", "-", "(", ")", "and", "but", "then", "so",
                     "oh", "also", "plus", "um", "uh", "ok", "okay", "now", "please", "pls",
                     "yeah", "right"})
_OPEN_PREPS = frozenset({"in", "inside", "within", "through", "thru", "across"})
_YOU = frozenset({"you", "u", "ya", "youll", "you'll"})
_AUX = frozenset({"will", "'ll", "are", "'re", "re", "have", "'ve", "ve", "then", "first",
                  "just", "would", "'d", "d", "should", "must", "gonna"})
_PARTICLES = frozenset({"through", "thru", "into", "across", "past", "by", "in", "to", "out",
                        "on", "upon", "at", "inside"})
#: Words a rule opens with ("keep away from", "hug the", "don't go near", "give X room").
_RULE_OPENERS = frozenset({"keep", "stay", "stick", "avoid", "hug", "give", "steer", "do",
                           "don't", "dont", "never", "try", "remain", "mind", "watch",
                           "leave", "be", "please", "pls", "make", "not", "go", "move",
                           "drive", "walk", "careful", "no", "you"})
#: Past verbs of meeting a thing on a walk already made ("the chair you passed").
_PAST_MEET = frozenset({"passed", "crossed", "entered", "met", "walked", "went", "came",
                        "drove", "rolled"})
#: Of those, the ones that say passing only with a particle ("walked through", "went past").
_PAST_NEEDS_PARTICLE = frozenset({"walked", "went", "came", "drove", "rolled"})
#: Particles of passing: what makes "the bedroom you VERB ..." a place on the walk.
_PASSAGE = frozenset({"through", "thru", "into", "across", "past", "by"})
#: Verbs that say passing without a particle ("the first bedroom you cross").
_PASSAGE_VERBS = frozenset({"cross", "enter", "pass", "traverse", "reach", "hit", "meet"})
_RULE_TAIL = (("on", "the", "way", "there"), ("on", "the", "way", "here"),
              ("on", "the", "way", "in"), ("on", "the", "way"), ("on", "your", "way", "there"),
              ("to", "get", "there"), ("to", "get", "here"), ("earlier",), ("before",))


def _t(text: str, like: Token) -> Token:
    return Token(text, like.start, like.end)


def _opens(words: list[str], k: int) -> bool:
    return k == 0 or words[k - 1] in _BEFORE


def _room_at(words: list[str], k: int) -> int:
    """Length of a room word at ``k`` (0 when none)."""
    lex = head_lexicon()
    hit = lex.match(words[k:k + lex.max_len])
    return hit[0] if hit is not None and hit[2] == "room" and hit[1] != "room" else 0


def _subject_clause(words: list[str], k: int) -> int:
    """End of "(that|which) you|u [aux] VERB [particle] [first]" at ``k`` (``k`` if none). The
    verb is any word that names nothing of the map."""
    j = k + (1 if words[k:k + 1] in (["that"], ["which"], ["what"]) else 0)
    if words[j:j + 1] == [] or words[j] not in _YOU:
        return k
    j += 1
    while j < len(words) and words[j] in _AUX:
        j += 1
    if j >= len(words) or words[j] in _BEFORE or head_lexicon().match(words[j:j + 1]):
        return k
    j += 1  # the verb
    if j < len(words) and words[j] in _PARTICLES and not (
            words[j] in ("in", "on", "to", "at", "inside") and
            words[j + 1:j + 2] in (["the"], ["a"], ["an"], ["that"], ["this"])):
        j += 1
        if words[j:j + 1] in (["into"], ["through"], ["thru"]):  # "come out into"
            j += 1
    if words[j:j + 1] in (["first"], ["next"]):
        j += 1
    for tail in (("along", "the", "way"), ("on", "the", "way"), ("on", "your", "way")):
        if tuple(words[j:j + len(tail)]) == tail:
            j += len(tail)
    return j


def _opener(words: list[str], i: int) -> int:
    """Length of what opens a scope room at ``i``: "in", "inside", "through", or "when|while|
    as|once you [are] VERB [through|into|across]" (any verb: "when you're crossing", "as you
    roll through"); 0 when none."""
    if words[i] in _OPEN_PREPS:
        return 1
    if words[i] not in ("when", "while", "as", "once") or words[i + 1:i + 2] == [] or \
            words[i + 1] not in _YOU:
        return 0
    j = i + 2
    while j < len(words) and words[j] in _AUX:
        j += 1
    if j >= len(words) or words[j] in _BEFORE or words[j] == "the" or \
            head_lexicon().match(words[j:j + 1]):
        return 0
    j += 1
    j += 1 if words[j:j + 1] and words[j] in ("through", "thru", "into", "across", "in",
                                               "inside") else 0
    return j - i


def _rule_follows(words: list[str], k: int) -> bool:
    return k < len(words) and (words[k] in (",", "-", ":") or words[k] in _RULE_OPENERS)


def _scope_room(toks: list[Token], words: list[str], i: int, out: list[Token]) -> int | None:
    """"in the first bedroom u go thru keep away ...", "In the living room you go through just
    before the bathroom, ...": the scope room said by the walk."""
    o = _opener(words, i)
    if not o or not _opens(words, i) or words[i + o:i + o + 1] != ["the"]:
        return None
    k = i + o + 1
    nth = _ORDINALS.get(words[k]) if k < len(words) else None
    k += 1 if nth else 0
    size = _room_at(words, k)
    if not size:
        return None
    end = k + size
    clause = _subject_clause(words, end)
    j = clause
    j += 1 if words[j:j + 1] in (["just"], ["right"], ["immediately"], ["directly"]) else 0
    if words[j:j + 1] in (["before"], ["after"]):
        if words[j + 1:j + 2] in (["that"], ["this"], ["it"]) and not _room_at(words, j + 2):
            if words[j] == "after" or o > 1:
                return None  # "as you leave the bedroom after that": "after that" is "then"
            a, b = toks[i].start, toks[j + 1].end
            msg = (f"did not understand the route-order room {_span(toks, i, j + 2)!r}: "
                   f"it is placed {words[j]} a place the offline parser cannot tell; name "
                   "the room it is next to, or use the hybrid or llm grounder")
            raise ParseError(msg, _span(toks, i, j + 2), (a, b))
        det = j + 1
        if words[det:det + 1] not in (["the"], ["that"], ["this"]) or \
                not _room_at(words, det + 1):
            return None
        other = _room_at(words, det + 1)
        out.extend(toks[i:k])
        out.extend(toks[k:end])
        if words[j] == "before":
            out += [_t("just", toks[j]), _t("before", toks[j]), _t("the", toks[det])]
        else:
            out += [_t("adjacent", toks[j]), _t("to", toks[j]), _t("the", toks[det])]
        out.extend(toks[det + 1:det + 1 + other])
        if not _rule_follows(words, det + 1 + other) or words[det + 1 + other] != ",":
            out.append(_t(",", toks[det + other]))
        return det + 1 + other
    if clause == end or not _rule_follows(words, clause):
        return None
    said = words[end:clause]
    if not nth and not _PASSAGE & set(said) and not _PASSAGE_VERBS & set(said):
        return None  # "in the bedroom you sleep in": a description, not a place on the walk
    if words[clause] == ",":
        return None  # already the phrasing the later stages read
    out.extend(toks[i:end])
    out += [_t("you", toks[end]), _t("pass", toks[clause - 1]),
            _t("through", toks[clause - 1]), _t(",", toks[clause - 1])]
    return clause


def _span(toks: list[Token], a: int, b: int) -> str:
    return " ".join(t.text for t in toks[a:b])


def _counted_rooms(words: list[str], upto: int) -> list[str] | None:
    """The room word of the last "NUMBER ROOMs" said with a verb of passing before ``upto``
    ("you'll go through two bedrooms")."""
    for k in range(upto - 1, 0, -1):
        if words[k] in ("two", "three", "four", "2", "3", "4", "a", "few", "several", "some"):
            size = _room_at(words, k + 1)
            hit = head_lexicon().match(words[k + 1:k + 1 + size])
            if size and hit is not None and hit[3] and any(
                    w in ("through", "thru", "cross", "pass", "across", "past")
                    for w in words[max(0, k - 4):k]):
                return [*words[k + 1:k + size], singular_word(words[k + size])]
        # "the first bedroom you come to, ... the one after that / the first one"
        if words[k] == "the" and words[k + 1] in _ORDINALS:
            size = _room_at(words, k + 2)
            if size and _subject_clause(words, k + 2 + size) > k + 2 + size:
                return words[k + 2:k + 2 + size]
    return None


def route_order_scopes(toks: list[Token]) -> tuple[list[Token], Context]:
    """Rewrite the phrasings of the module docstring; returns the tokens and what was taken
    out as context (the leg restated: "and you're heading to the kitchen").

    Raises:
        ParseError: a route-order room placed before or after "that" with no room, or a
            thing ranked by the order of a walk already made.
    """
    toks = _speaker_room(toks)
    words = [t.text.lower() for t in toks]
    out: list[Token] = []
    ctx: Context = []
    i = 0
    while i < len(toks):
        w = words[i]
        nxt = _left_heading(toks, words, i, out, ctx)
        if nxt is not None:
            i = nxt
            continue
        told = _told_room(words, i)
        if told is not None:
            e, told_room = told
            there = next((k for k in range(e, min(len(words), e + 12))
                          if words[k:k + 2] == ["in", "there"] and words[k - 1] in _BEFORE), None)
            if there is not None and not any(_room_at(words, k) for k in range(e, there)):
                take(toks, i, e, ctx)
                out.extend(toks[e:there + 1])
                out += [_t("the", toks[there + 1]), *(_t(r, toks[there + 1]) for r in told_room)]
                i = there + 2
                continue
        # "until you reach that first sofa": the one sofa said before
        if w == "that" and words[i + 1:i + 2] == ["first"]:
            lex = head_lexicon()
            hit = lex.match(words[i + 2:i + 2 + lex.max_len])
            said_at = [k for k in range(i) if hit is not None and
                    (lex.match(words[k:k + lex.max_len]) or (0, ""))[1] == hit[1]]
            if hit is not None and len(said_at) == 1:
                out.append(Token("that", toks[i].start, toks[i + 1].end))
                i += 2
                continue
        nxt = _scope_room(toks, words, i, out)
        if nxt is not None:
            i = nxt
            continue
        # "in the first one" after "you'll go through two bedrooms"
        if w in _OPEN_PREPS and words[i + 1:i + 2] == ["the"] and \
                words[i + 2:i + 3] and words[i + 2] in _ORDINALS and \
                words[i + 3:i + 4] == ["one"]:
            said = _counted_rooms(words, i)
            if said is not None:
                out += [toks[i], toks[i + 1], toks[i + 2], *(_t(r, toks[i + 3]) for r in said),
                        _t("you", toks[i + 3]), _t("pass", toks[i + 3]),
                        _t("through", toks[i + 3])]
                if words[i + 4:i + 5] and words[i + 4] in _RULE_OPENERS:
                    out.append(_t(",", toks[i + 3]))
                i += 4
                continue
        # "carry on into the one after that"
        if w in ("into", "to", "through", "thru") and words[i + 1:i + 3] == ["the", "one"] \
                and words[i + 3:i + 4] == ["after"] and \
                words[i + 4:i + 5] in (["that"], ["it"], ["this"]) and \
                any(x in _ORDINALS for x in words[max(0, i - 12):i]):
            out += [toks[i], toks[i + 1], _t("next", toks[i + 2]),
                    Token("one", toks[i + 3].start, toks[i + 4].end)]
            i += 5
            continue
        # "the second bedroom, the one after it" -> "the next bedroom"
        if w == "the" and words[i + 1:i + 2] and words[i + 1] in ("second", "third", "2nd",
                                                                   "3rd"):
            size = _room_at(words, i + 2)
            e = i + 2 + size
            if size and words[e:e + 4] in ([",", "the", "one", "after"],
                                           ["-", "the", "one", "after"]) and \
                    words[e + 4:e + 5] in (["it"], ["that"], ["this"]):
                out += [toks[i], _t("next", toks[i + 1]), *toks[i + 2:e - 1],
                        Token(toks[e - 1].text, toks[e - 1].start, toks[e + 4].end)]
                i = e + 5
                continue
        nxt = _past_meet(toks, words, i, out)
        if nxt is not None:
            i = nxt
            continue
        nxt = _going_there(toks, words, i, out)
        if nxt is not None:
            i = nxt
            continue
        out.append(toks[i])
        i += 1
    return out, ctx


_TOLD_VERBS = frozenset({"cross", "go", "pass", "walk", "cut", "drive", "come", "roll",
                         "head", "get"})
_TOLD_TAILS = (("on", "the", "way", "there"), ("on", "your", "way", "there"),
               ("on", "the", "way"), ("on", "your", "way"), ("to", "get", "there"))


def _told_room(words: list[str], i: int) -> tuple[int, list[str]] | None:
    """"you cross the bathroom on the way there", "you'll have to go through the kitchen to
    get there" (how the walk runs, told, not asked): where it ends and its room's words."""
    if words[i] not in _YOU or not (i == 0 or words[i - 1] in (";", ",", ".", "and", "-", ":")):
        return None
    v = i + 1
    for aux in (("will", "have", "to"), ("will", "need", "to"), ("have", "to"), ("need", "to"),
                ("will",), ("'ll",), ("must",), ("can",)):
        if tuple(words[v:v + len(aux)]) == aux:
            v += len(aux)
            break
    if words[v:v + 1] == [] or words[v] not in _TOLD_VERBS:
        return None
    r = v + 1 + (1 if words[v + 1:v + 2] in (["through"], ["thru"], ["across"]) else 0)
    if words[r:r + 1] != ["the"] or not _room_at(words, r + 1):
        return None
    e = r + 1 + _room_at(words, r + 1)
    n = next((len(x) for x in _TOLD_TAILS if tuple(words[e:e + len(x)]) == x), 0)
    if not n or words[e + n:e + n + 1] not in ([","], [";"], ["."], ["-"], ["and"]):
        return None
    return e + n, words[r + 1:e]


_HEADING = (("heading",), ("going",), ("on", "your", "way"), ("making", "your", "way"),
            ("headed",), ("moving",), ("driving",), ("walking",), ("off",))


def _left_heading(toks: list[Token], words: list[str], i: int, out: list[Token],
                  ctx: Context) -> int | None:
    """"Once you've left the armchair and you're heading to the kitchen, RULE" -> "once you
    have left the armchair , RULE" with "and you're heading to the kitchen" (the leg after
    the armchair, said again by where it goes) as context."""
    if words[i] not in ("once", "after", "when", "as") or not _opens(words, i) or \
            words[i + 1:i + 2] != ["you"]:
        return None
    v = i + 2 + (1 if words[i + 2:i + 3] in (["have"], ["'ve"]) else 0)
    if words[v:v + 1] not in (["left"], ["leave"]):
        return None
    a = next((k for k in range(v + 1, min(len(words), v + 8)) if words[k] == "and"), None)
    if a is None or words[a + 1:a + 2] != ["you"]:
        return None
    h = a + 2 + (1 if words[a + 2:a + 3] in (["are"], ["'re"], ["re"]) else 0)
    n = next((len(x) for x in _HEADING if tuple(words[h:h + len(x)]) == x), 0)
    if not n or words[h + n:h + n + 1] not in (["to"], ["towards"], ["for"], ["into"],
                                               ["back"]):
        return None
    e = h + n + 1
    while e < len(words) and e < h + n + 8 and words[e] not in (",", ".", ";", "!", "?"):
        if words[e] in _RULE_OPENERS and words[e] != "you":
            break
        e += 1
    if not head_lexicon().match(words[h + n + 1:e]) and not any(
            head_lexicon().match(words[k:e]) for k in range(h + n + 1, e)):
        return None
    out.extend(toks[i:a])
    take(toks, a, e, ctx)
    if words[e:e + 1] != [","]:
        out.append(_t(",", toks[e - 1]))
    return e


def _past_meet(toks: list[Token], words: list[str], i: int, out: list[Token]) -> int | None:
    """"the chair you passed (in the living room)", "the bedroom (that) you walked through to
    get there" -> "the chair you pass", "the bedroom you pass"."""
    if words[i] not in ("that", "which", "you", "u") or not out:
        return None
    lex = head_lexicon()
    if lex.match([out[-1].text.lower()]) is None:
        return None
    j = i + (1 if words[i] in ("that", "which") else 0)
    if words[j:j + 1] not in (["you"], ["u"]):
        return None
    v = j + 1
    v += 1 if words[v:v + 1] in (["had"], ["have"], ["'ve"]) else 0
    if v >= len(words) or words[v] not in _PAST_MEET:
        return None
    end = v + 1
    if words[v] in _PAST_NEEDS_PARTICLE and words[end:end + 1] and words[end] not in _PASSAGE:
        return None  # "the room you came from", "the chair you went for"
    end += 1 if words[end:end + 1] and words[end] in _PASSAGE else 0
    if words[end:end + 1] and words[end] in ("first", "second", "third", "last", "1st", "2nd"):
        msg = (f"did not understand {_span(toks, i, end + 1)!r}: a place ranked by the order "
               "of a walk already made, which the offline parser cannot place on the way "
               "back; name the place by what is in it, or use the hybrid or llm grounder")
        raise ParseError(msg, _span(toks, i, end + 1), (toks[i].start, toks[end].end))
    tail = end
    for seq in _RULE_TAIL:
        if tuple(words[tail:tail + len(seq)]) == seq:
            tail += len(seq)
            break
    out += [_t("you", toks[j]), _t("pass", toks[v])]
    return tail


def _going_there(toks: list[Token], words: list[str], i: int, out: list[Token]) -> int | None:
    """"Going there, keep away from X." -> "On the way there , keep away from X."."""
    if not _opens(words, i):
        return None
    if words[i] in ("going", "heading") and words[i + 1:i + 2] in (["there"], ["over"]) and \
            _rule_follows(words, i + 2):
        out += [_t("on", toks[i]), _t("the", toks[i]), _t("way", toks[i]),
                _t("there", toks[i + 1])]
        if words[i + 2] != ",":
            out.append(_t(",", toks[i + 1]))
        return i + 2
    return None


_I_AM = (("i", "am"), ("i", "'m"), ("im",), ("i", "m"))


def _speaker_room(toks: list[Token]) -> list[Token]:
    """"I'm still in bed, in the bedroom with no window. ... Whenever you're in my room ..."
    -> "... in the bedroom with no window ...": "my room" is the room the speaker said they
    are in (only when one room was said so, in a sentence of its own before)."""
    words = [t.text.lower() for t in toks]
    mine = [k for k in range(len(words) - 1) if words[k:k + 2] == ["my", "room"]]
    if not mine:
        return toks
    said: list[tuple[int, int]] = []
    k = 0
    while k < len(words):
        lead = next((len(s) for s in _I_AM if tuple(words[k:k + len(s)]) == s), 0)
        if lead and _opens(words, k):
            e = k + lead
            while e < len(words) and words[e] not in (".", "!", "?", ";"):
                if words[e] == "the" and _room_at(words, e + 1):
                    f = e + 1
                    while f < len(words) and words[f] not in (".", "!", "?", ";", ",", "-"):
                        f += 1
                    said.append((e, f))
                    break
                e += 1
            k = e
        k += 1
    if len(said) != 1 or said[0][0] > mine[0]:
        return toks
    a, b = said[0]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        if k in mine:
            like = toks[k]
            out += [_t(t.text, like) for t in toks[a:b]]
            out[-(b - a):] = [Token(t.text, like.start if n < 1 else toks[k + 1].start,
                                    like.end if n < 1 else toks[k + 1].end)
                              for n, t in enumerate(toks[a:b])]
            k += 2
            continue
        out.append(toks[k])
        k += 1
    return out
