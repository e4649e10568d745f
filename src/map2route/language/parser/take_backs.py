"""Things the speaker takes back or says again about the route, read as what they finally
meant.

Read on the tokens just before :func:`.retractions.retractions` in
:func:`.human.human_forms`:

* a rule withdrawn by what follows it ("Don't go through the kitchen... oh hang on, you'll
  have to, there's no other way round.", "Avoid the lounge. Hmm, scratch that, you can't
  avoid it, it's on the way.", "don't go near the bin. Oh, never mind that, it doesn't
  matter."): the rule and the withdrawal are context. A withdrawal that says the thing must
  be done ("you'll have to", "you can't avoid it") keeps the place said in the route's text
  as a mention without a rule, so that a later "in there" still finds its room;
* a stop denied after a pass ("go past the armchair on the way (don't stop at it)", "go
  past the TV, no need to stop", "walk past the cart but do not stop there", "go by the sofa
  dont stop just go by it"): the pass already says the robot goes by without stopping, so
  the denial (and a pass said again of "it") is context;
* a restatement of the stop just named ("... not the toilet, the sink. The sink in that same
  bathroom."): a sentence without a verb that names again the head the sentence before
  ended on says which one it is, so it is read as that thing's description ("the one in that
  same bathroom"), one stage, never a second one;
* a manner said again of the goal ("go to the bed - I mean just go next to it, you can't get
  on it", "I mean next to it not on it", "well, beside it, not on it", "I mean near the
  armchair, not on top of it"): a goal is always reached beside its thing, so the
  restatement is context, with the ability remark that may close it.

Hand-written (no model), like the rest of the package: each rule is a token pattern guarded
by what would make the span part of the route (a rule opener, a pass word, the same head,
a goal verb), and every word moved out is reported as context, never dropped.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

Context = list[tuple[str, tuple[int, int]]]

_ENDS = (".", "!", "?")
_BOUNDS = (*_ENDS, ",", ";", ":", "(", ")")
#: Words that open a rule ("keep away from", "don't go through", "avoid the lounge").
_RULE_OPENERS = frozenset({"keep", "stay", "avoid", "steer", "never", "give", "mind"})
#: Words that may stand before a withdrawal ("oh hang on, ...", "hmm, well, ...").
_SOFT = frozenset({"oh", "ah", "hmm", "wait", "hang", "hold", "on", "actually", "well", "no",
                   "sorry", "oops", "er", "erm", "um", "uh", "ok", "okay", "just", ",",
                   "correction", ":"})
#: Withdrawals that say the thing ruled out must be done after all.
_MUST: tuple[tuple[str, ...], ...] = (
    ("you", "will", "have", "to"), ("you", "have", "to"), ("you", "will", "need", "to"),
    ("you", "need", "to"), ("you", "must"), ("you", "can", "not", "avoid", "it"),
    ("you", "can", "not", "avoid", "that"), ("there", "is", "no", "other", "way"),
    ("there", "is", "no", "way", "round", "it"), ("there", "is", "no", "way", "around", "it"))
#: Withdrawals that drop the rule.
_DROP: tuple[tuple[str, ...], ...] = (
    ("never", "mind", "that"), ("never", "mind", "it"), ("never", "mind"),
    ("forget", "that"), ("forget", "it"), ("scratch", "that"), ("ignore", "that"),
    ("cancel", "that"), ("it", "does", "not", "matter"), ("that", "does", "not", "matter"),
    ("that", "is", "fine"), ("it", "is", "fine"), ("that", "is", "ok"), ("it", "is", "ok"),
    ("that", "is", "okay"), ("it", "is", "okay"), ("do", "not", "worry", "about", "that"),
    ("do", "not", "worry", "about", "it"))
_PASS_WORDS = frozenset({"past", "pass", "passing", "by", "via"})
#: A denied stop ("don't stop at it", "no need to stop there", "without stopping").
_DENIALS: tuple[tuple[str, ...], ...] = (
    ("do", "not", "stop"), ("no", "need", "to", "stop"), ("you", "do", "not", "have", "to",
                                                          "stop"),
    ("you", "do", "not", "need", "to", "stop"), ("without", "stopping"), ("not", "stopping"),
    ("no", "stopping"), ("never", "stop"), ("you", "need", "not", "stop"),
    ("you", "needn't", "stop"), ("you", "need", "n't", "stop"), ("needn't", "stop"),
    ("need", "not", "stop"))
_DENIAL_TAILS: tuple[tuple[str, ...], ...] = (
    ("at", "it"), ("at", "them"), ("by", "it"), ("there",), ("in", "it"), ("at", "all"))
_PREPS: tuple[tuple[str, ...], ...] = (
    ("next", "to"), ("near",), ("beside",), ("by",), ("close", "to"), ("in", "front", "of"),
    ("up", "to"), ("alongside",), ("nearby",))
_ON: tuple[tuple[str, ...], ...] = (("on", "top", "of"), ("on",), ("onto",), ("in",))
_GOAL_VERBS = frozenset({"go", "head", "walk", "move", "get", "drive", "come", "sit", "stand",
                         "proceed", "navigate"})


def _at(words: list[str], k: int, seqs: tuple[tuple[str, ...], ...]) -> int:
    return max((len(s) for s in seqs if tuple(words[k:k + len(s)]) == s), default=0)


def _note(notes: Context, toks: list[Token]) -> None:
    toks = [t for t in toks if t.text not in _BOUNDS]
    if toks:
        notes.append((" ".join(t.text for t in toks), (toks[0].start, toks[-1].end)))


def _end(words: list[str], k: int) -> int:
    return next((q for q in range(k, len(words)) if words[q] in _ENDS), len(words))


def take_backs(toks: list[Token]) -> tuple[list[Token], Context]:
    """Read the withdrawn rules, denied stops, restated stops and re-said manners of
    ``toks`` (see the module docstring); returns the tokens left and the context."""
    notes: Context = []
    toks = _withdrawn_rules(_swapped_rooms(toks, notes), notes)
    toks = _denied_stops(toks, notes)
    toks = _restated_stops(_sentence_rejections(_unmarked_pairs(toks), notes))
    return _resaid_manners(toks, notes), notes


# --- "no sorry not the sofa the dog bed": the pair without its comma ------------------------
_LEADS = frozenset({"no", "nah", "nope", "sorry", "wait", "actually", "oops", "oh"})


def _np_after(words: list[str], k: int) -> int | None:
    """The end of "the (adjectives) HEAD" at ``k`` (a known head, not a pronoun), else None."""
    lex = head_lexicon()
    if words[k:k + 1] not in (["the"], ["a"], ["an"]):
        return None
    k += 1
    while k < len(words) and words[k] in (*W.SIZE_ADJ, *W.FILLER_ADJ):
        k += 1
    hit = lex.match(words[k:k + lex.max_len])
    return None if hit is None or hit[2] == "pronoun" else k + hit[0]


def _unmarked_pairs(toks: list[Token]) -> list[Token]:
    """"no sorry not the sofa the dog bed" -> "... not the sofa , the dog bed": after a
    correction's lead, a rejected thing and the thing meant, said with no comma between."""
    words = [t.text for t in toks]
    for k in range(1, len(words) - 2):
        if words[k] != "not" or words[k - 1] not in _LEADS:
            continue
        e = _np_after(words, k + 1)
        if e is not None and _np_after(words, e) is not None:
            return [*toks[:e], Token(",", toks[e - 1].end, toks[e - 1].end), *toks[e:]]
    s = 0
    for k in range(2, len(words) - 2):
        # "the big one on the floor not the little one on the table": the contrast unmarked
        if words[k - 1] in _ENDS:
            s = k
        if words[k:k + 2] == ["not", "the"] and words[k - 1] not in _BOUNDS and \
                "one" in words[k + 2:k + 5] and any(
                    (words[q:q + 2] == ["the", "one"] or words[q:q + 3][::2] == ["the", "one"])
                    and words[q - 1] in _BOUNDS for q in range(max(s, 1), k - 1)):
            return [*toks[:k], Token(",", toks[k - 1].end, toks[k - 1].end), *toks[k:]]
    return toks


# --- "Not the little one on the dresser, the big one ...": a sentence that rejects ------------
def _sentence_rejections(toks: list[Token], notes: Context) -> list[Token]:
    """A sentence after another that opens "Not the ... ," / "Not one of the ones ..." and
    says no verb: the rejection says again which thing the sentence before meant (context);
    the positive description after its comma ("the big one on the TV stand") is kept, and is
    read as that thing's description (a fragment of the sentence before)."""
    words = [t.text for t in toks]
    for i in range(1, len(words) - 2):
        if words[i - 1] not in _ENDS or words[i] != "not" or words[i + 1] not in (
                "the", "one", "any", "either"):
            continue
        e = _end(words, i)
        body = set(words[i:e])
        if body & (W.MOVE_VERBS | _RULE_OPENERS | {"stop", "do", "i", "you", "is", "are"}):
            continue
        c = next((q for q in range(i, e) if words[q] == ","), e)
        if not {"one", "ones"} & set(words[i:c]):
            continue  # "Not the dresser, the armchair.": a swapped stop, read by retractions
        if words[i + 1:i + 3] == ["the", "one"] or words[c + 1:c + 4] == ["the", "other", "one"]:
            continue  # "Not the one by the desk, the one by ...": the negated partitives
        r = c + 1
        while r < e and words[r] in ("dear", "love", "mate", "though", ","):
            r += 1
        if c < e and words[r:r + 1] != ["the"]:
            continue
        _note(notes, toks[i:r])
        if c >= e:
            return [*toks[:i], *toks[e + (1 if e < len(words) else 0):]]
        # the pick said after it: a correction's fragment, so the phrase it narrows is reported
        return [*toks[:i], Token("i", toks[i].start, toks[i].end),
                Token("mean", toks[i].start, toks[i].end), *toks[r:]]
    return toks


# --- a swapped room --------------------------------------------------------------------------
def _room_np(words: list[str], k: int) -> tuple[int, str] | None:
    """The end and head of "the (adjectives) ROOM" at ``k``, else None."""
    lex = head_lexicon()
    if words[k:k + 1] not in (["the"], ["that"], ["this"]):
        return None
    q = k + 1
    while q < len(words) and q < k + 4 and lex.match(words[q:q + lex.max_len]) is None:
        q += 1
    hit = lex.match(words[q:q + lex.max_len])
    return (q + hit[0], str(hit[1])) if hit is not None and hit[2] == "room" else None


def _swapped_rooms(toks: list[Token], notes: Context) -> list[Token]:
    """"the window in the kitchen - wait, not the kitchen, the lounge with the cart" / "the bed
    in the middle bedroom that's furthest from X - sorry, no, not the middle one, I meant the
    bedroom off the kitchen": the room the thing was said to be in is swapped, the thing and
    what else was said of it kept."""
    words = [t.text for t in toks]
    for i in range(2, len(words) - 4):
        if words[i] != "not" or words[i - 1] not in (*_LEADS, ","):
            continue
        b = i
        while b > 0 and words[b - 1] in (*_LEADS, ","):
            b -= 1
        if not {w for w in words[b:i]} & _LEADS or words[b - 1:b] in ([], *[[e] for e in _ENDS]):
            continue
        c = next((q for q in range(i + 1, min(i + 6, len(words))) if words[q] == ","), None)
        if c is None:
            continue
        n = c + 1 + _at(words, c + 1, (("i", "mean"), ("i", "meant")))
        new = _room_np(words, n)
        if new is None:
            continue
        rejected = _room_np(words, i + 1)
        one = words[c - 1] == "one" and words[i + 1] == "the" and words[i + 2:c - 1]
        s = max((q for q in range(b) if words[q] in _ENDS), default=-1) + 1
        old = None
        for q in range(b - 2, s - 1, -1):
            if words[q] != "in":
                continue
            room = _room_np(words, q + 1)
            if room is None or (rejected is not None and (room[1] != rejected[1] or
                                                          room[0] != b)):
                continue
            if rejected is None and not (one and set(words[i + 2:c - 1]) <= set(
                    words[q + 1:room[0]]) and room[1] == new[1]):
                continue
            old = (q + 1, room[0])
            break
        if old is None:
            continue
        e = next((q for q in range(new[0], len(words)) if words[q] in (*_ENDS, ",", ";")),
                 len(words))
        _note(notes, toks[old[0]:old[1]])
        _note(notes, toks[b:n])
        return [*toks[:old[0]], *toks[n:e], *toks[old[1]:b], *toks[e:]]
    return toks


# --- withdrawn rules -------------------------------------------------------------------------
def _rule_start(words: list[str], b: int) -> int | None:
    """Where the rule that ends at ``b`` (exclusive) starts: its sentence's (or clause's)
    first word, when that opens a rule ("keep ...", "do not ...", "and stay away ...")."""
    s = b
    while s > 0 and words[s - 1] not in _ENDS:
        s -= 1
        if words[s - 1] in (",", "and", "but", ";") and _opens_rule(words, s, b):
            return s
    return s if _opens_rule(words, s, b) else None


def _opens_rule(words: list[str], s: int, b: int) -> bool:
    k = s
    while k < b and words[k] in ("please", "and", "but", "also", "just", "so"):
        k += 1
    return k < b and (words[k] in _RULE_OPENERS or words[k:k + 2] == ["do", "not"])


def _withdrawn_rules(toks: list[Token], notes: Context) -> list[Token]:
    words = [t.text for t in toks]
    i = 0
    while i < len(words):
        bare = words[i] in ("oh", "no", "hmm", "actually") and i and words[i - 1] not in _SOFT
        if words[i] not in (*_ENDS, ",", ";") and not bare or i + 1 >= len(words):
            i += 1
            continue
        b = i
        while b > 0 and words[b - 1] in _ENDS:
            b -= 1  # "the kitchen . . . oh hang on"
        start = _rule_start(words, b)
        k = i + (0 if bare else 1)
        while k < len(words) and words[k] in _ENDS:
            k += 1
        lead = k
        while k < len(words) and words[k] in _SOFT and not (
                words[k] == "no" and words[k + 1:k + 2] in (["other"], ["way"], ["need"])):
            k += 1
        led = any(w not in (",", ":") for w in words[lead:k])
        must = _at(words, k, _MUST)
        drop = _at(words, k, _DROP) or (_fine_at(words, k) if led else 0)
        if start is None or not (must or drop):
            i += 1
            continue
        w = k + (must or drop)
        if drop and not must and w < len(words) and words[w] not in (
                *_BOUNDS, "then", "anyway", "now", "actually", "after", "just", "stay", "keep"):
            i += 1  # "it is fine if you pass the table": a condition, not a withdrawal
            continue
        if must and words[w:w + 1] not in ([","], ["."], ["!"], ["it"], ["that"]) and \
                words[k:k + 2] != ["there", "is"]:
            i += 1  # "you have to go round it": a new request, not a withdrawal
            continue
        e = _end(words, w)
        asked = next((q for q in range(w, e) if _asks(words, q, q == w)), None)
        if asked is not None:
            e = asked  # "forget that, stay away from X": the rule said instead is kept
        cut_to = e + (1 if e < len(words) and words[e] in _ENDS else 0)
        if e == w and words[w:w + 1] == [","]:
            cut_to = w + 1
        _note(notes, toks[start:b])
        _note(notes, toks[lead:cut_to])
        keep = toks[:start]
        rest = _there_named(toks[cut_to:], _room_in(toks[start:b]))
        toks = keep + rest
        words = [t.text for t in toks]
        i = len(keep)
    return toks


def _room_in(toks: list[Token]) -> list[Token]:
    """The room a withdrawn rule names ("the kitchen" of "don't go through the kitchen")."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    for k in range(len(words)):
        hit = lex.match(words[k:k + lex.max_len])
        if hit is not None and hit[2] == "room":
            return [Token("the", toks[k].start, toks[k].start), *toks[k:k + hit[0]]]
    return []


def _there_named(toks: list[Token], room: list[Token]) -> list[Token]:
    """"... just stay away from the bin in there then": the "there" of the sentence after a
    withdrawn rule is the room the rule named (its words, with their own spans)."""
    words = [t.text for t in toks]
    e = _end(words, 0)
    if not room or _room_in(toks[:e]):
        return toks
    for k in range(e - 1):
        if words[k] in ("in", "inside") and words[k + 1] == "there":
            return [*toks[:k + 1], *room, *toks[k + 2:]]
    return toks


def _fine_at(words: list[str], k: int) -> int:
    """"the floor lamp is fine" / "the bins are ok": a withdrawal that says the thing of the
    rule is not meant after all (its length)."""
    e = _np_after(words, k)
    if e is not None and words[e:e + 1] in (["is"], ["are"]) and words[e + 1:e + 2] and \
            words[e + 1] in ("fine", "ok", "okay", "alright", "safe"):
        return e + 2 - k
    return 0


def _asks(words: list[str], q: int, first: bool) -> bool:
    """Whether a clause that asks something of the route opens at ``q`` (``first``: right
    after the withdrawal; else after a comma or "and"; past "just"/"then")."""
    if not first and words[q - 1] not in (",", "and", "then", ";"):
        return False
    while words[q:q + 1] and words[q] in ("just", "then", "instead", "so"):
        q += 1
    return bool(words[q:q + 1]) and (words[q] in W.MOVE_VERBS | _RULE_OPENERS or
                                     words[q:q + 2] == ["do", "not"])


# --- denied stops ----------------------------------------------------------------------------
def _denied_stops(toks: list[Token], notes: Context) -> list[Token]:
    words = [t.text for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(words):
        k = i
        if words[k:k + 1] and words[k] in ("(", ","):
            k += 1
        while words[k:k + 1] and words[k] in ("but", "and", "just", "though"):
            k += 1
        n = _at(words, k, _DENIALS)
        s = len(out)
        while n and s > 0 and out[s - 1].text not in (*_ENDS, ";"):
            s -= 1
        if not n or not any(t.text in _PASS_WORDS for t in out[s:]) or not out or \
                out[-1].text in (*_ENDS, ";"):
            out.append(toks[i])
            i += 1
            continue
        q = k + n
        q += _at(words, q, _DENIAL_TAILS)
        if words[q:q + 1] == [")"] and words[i] == "(":
            q += 1
        elif words[q:q + 2] in (["just", "go"], ["just", "pass"]) or words[q:q + 1] == [
                "just"] and words[q + 1:q + 2] and words[q + 1] in _PASS_WORDS:
            r = q + 1
            while r < len(words) and words[r] not in (*_BOUNDS, "and", "then"):
                r += 1
            if words[r - 1] in ("it", "them") or words[r - 2:r] == ["go", "by"]:
                q = r  # "dont stop just go by it": the pass said again
        elif q < len(words) and words[q] not in (*_BOUNDS, "and", "then"):
            out.append(toks[i])
            i += 1
            continue
        _note(notes, toks[i:q])
        by = next((x for x in range(len(out) - 1, s, -1) if out[x].text == "by" and
                   out[x - 1].text in _GOAL_VERBS), None)
        if by is not None:  # "go by the sofa, don't stop": a pass
            out[by] = Token("past", out[by].start, out[by].end)
        if words[i] == "," and words[q:q + 1] == [","]:
            q += 1
            out.append(toks[i])
        i = q
    return out


# --- a stop restated in the sentence after ---------------------------------------------------
def _last_head(words: list[str], b: int) -> tuple[str, int] | None:
    """The head the words before ``b`` end on ("... the sink ." -> sink) and where it starts."""
    lex = head_lexicon()
    for k in range(b - 1, max(b - 4, -1), -1):
        hit = lex.match(words[k:k + lex.max_len])
        if hit is not None and k + hit[0] == b and hit[2] not in ("pronoun", "room"):
            return str(hit[1]), k
    return None


def _restated_stops(toks: list[Token]) -> list[Token]:
    words = [t.text for t in toks]
    lex = head_lexicon()
    for i in range(1, len(words)):
        if words[i - 1] not in _ENDS or words[i] not in ("the", "that"):
            continue
        b = i - 1
        last = _last_head(words, b)
        if last is None or not any(w in ("no", "not", "mean", "meant", "wait", "sorry")
                                   for w in words[max(0, last[1] - 12):last[1]]):
            continue  # only after a correction: the stop it settled on, said again
        hit = lex.match(words[i + 1:i + 1 + lex.max_len])
        e = _end(words, i)
        body = set(words[i:e])
        if hit is None or str(hit[1]) != last[0] or body & (W.MOVE_VERBS | _RULE_OPENERS) or \
                body & {"not", "and", "then", "stop"}:
            continue
        h = toks[i + 1:i + 1 + hit[0]]
        return [*toks[:i + 1], Token("one", h[0].start, h[-1].end), *toks[i + 1 + hit[0]:]]
    return toks


# --- a manner said again of the goal ---------------------------------------------------------
def _goal_before(words: list[str], i: int) -> bool:
    s = i
    while s > 0 and words[s - 1] not in _ENDS:
        s -= 1
    return any(w in _GOAL_VERBS for w in words[s:i]) and not any(
        w in _RULE_OPENERS or w in _PASS_WORDS for w in words[s:i])


def _resaid_manners(toks: list[Token], notes: Context) -> list[Token]:
    words = [t.text for t in toks]
    out: list[Token] = []
    i = 0
    while i < len(words):
        if words[i] != "," or not _goal_before(words, i):
            out.append(toks[i])
            i += 1
            continue
        k = i + 1
        if words[k:k + 2] in (["i", "mean"], ["i", "meant"]):
            k += 2
        elif words[k:k + 2] == ["well", ","]:
            k += 2
        else:
            out.append(toks[i])
            i += 1
            continue
        while words[k:k + 1] and words[k] in ("just", ","):
            k += 1
        if words[k:k + 1] and words[k] in ("go", "get", "stop", "stand", "wait", "park"):
            k += 1
        p = _at(words, k, _PREPS)
        q = k + p
        if p and words[q:q + 1] in (["it"], ["them"]):
            q += 1
        elif p and words[q:q + 1] == ["the"]:
            hit = head_lexicon().match(words[q + 1:q + 1 + head_lexicon().max_len])
            q = q + 1 + hit[0] if hit is not None and hit[2] != "room" else k
        if not p or q == k + p or q < len(words) and words[q] not in (*_BOUNDS, "not"):
            out.append(toks[i])
            i += 1
            continue
        r = q + (1 if words[q:q + 2] == [",", "not"] else 0)
        if words[r:r + 1] == ["not"] and _at(words, r + 1, _ON) and \
                words[r + 1 + _at(words, r + 1, _ON):][:1] in (["it"], ["them"]):
            q = r + 2 + _at(words, r + 1, _ON)  # "next to it, not on it"
        if words[q:q + 4] in ([",", "you", "can", "not"], [",", "you", "obviously", "can"]):
            e = _end(words, q)
            if words[e - 1] in ("it", "obviously") or words[e - 2:e] == ["it", "obviously"]:
                q = e  # ", you can't get on it obviously": why
        _note(notes, toks[i + 1:q])
        on = next((x for x in range(len(out) - 1, 0, -1) if out[x].text in ("on", "onto") and
                   out[x - 1].text in ("sit", "stand", "get", "climb", "lie", "hop")), None)
        if on is not None and "not" in words[i:q]:  # "sit on X, well, next to it, not on it"
            out[on - 1:on + 1] = [Token("go", out[on - 1].start, out[on - 1].end),
                                  Token("to", out[on].start, out[on].end)]
            if out[on - 3:on - 1] and out[on - 2].text == "and" and out[on - 3].text == "go":
                del out[on - 2:on]  # "go and go to" -> "go to"
        i = q
    return out
