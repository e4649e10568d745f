"""Errand framings, asides and reasons said around a real request, that carry no route.

Run first in :func:`.human.human_forms`, on the tokens as typed. People asking a robot to run
an errand frame it ("Bit of a tour this one.", "You'll be carrying a full tray for this one,
so be careful.", "You'll end up going through a couple of bathrooms to get there"), say why
("just mopped the kitchen and the middle's still wet so ...", "tho u got stuck in there last
week", "its been going off for ages", "its leaves snap off if u bump it"), what they want to
learn there ("go check if the kitchen bin is full"), where their thing was left ("think i
left my keys on the dresser .. can u go over there"), and add asides ("(there's only one
pillow out there)", "thanks so much", "go the normal way" after a "don't cut through X",
"like all the way round it"). Each phrasing is a class read here:

* a check said as the errand: "go check if the X is full", "go and see whether the X is
  still on" -> "go to the X": the thing checked is the stop; the predicate is context;
* a forecast of the walk said by "you will be VERBing" / "you will end up" / "you'll
  probably find" as a sentence of its own, beside a request: context, never a stage;
* a header that sizes the job: "Bit of a tour this one.", "Quite a trek this time.":
  context;
* a state said first, "just mopped the kitchen and the middle's still wet so while ur in
  there stay close to the counter": the state is context, and "in there" is the room it
  named (the span of that room, read again);
* a thing said first with its state, then a caution on "it": "the stool in the kitchen
  wobbles so keep clear of it" -> "keep clear of the stool in the kitchen" (the state is
  context);
* a reason told of the past or of a state after a request, opened by "tho", "as", a comma or
  right after the thing ("tho u got stuck in there last week", "its been going off for ages",
  "its leaves snap off if u bump it"): context, when it names nothing on the map;
* the speaker's thing left somewhere, "think i left my keys on the dresser in the bedroom
  .. can u go over there": the place is the stop ("there" reads the place's words again)
  and the sentence is context (the things it names are reported);
* a way-aside after a prohibition, "don't cut through the bathroom, go the normal way",
  "don't go between X and Y, go round the other side", "take the long way round if u have
  to": it restates the rule, so it is context;
* a lap said with "do a lap round X" -> "go around X", and its restatement "like all the way
  round it" (context); "bring urself back to", "take yourself over to": the walker moving;
* a request run on into its rule by "pls" ("go to the bed pls dont go in X"): the comma it
  leaves unsaid; "dont actually go": "actually" is context;
* thanks with an intensifier ("thanks so much", "thank you so much") and a parenthesis that
  only comments ("(there's only one pillow out there)", "(thats where im standing)").

Hand-written, like the rest of the parser: the words are closed classes, every rewrite keeps
the character spans of what it read, whatever is taken out is returned as context (never
dropped), and a form that does not match exactly is left to the later stages to read or
refuse.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon, heads_in
from map2route.language.tokens import Token

__all__ = ["errand_asides"]

Context = list[tuple[str, tuple[int, int]]]

_ENDS = frozenset({".", "!", "?", ";"})
_CHECK = frozenset({"check", "see"})
_IF = frozenset({"if", "whether"})
_GO = frozenset({"go", "pop", "nip", "run", "come", "head", "dash"})
_COPULA = frozenset({"is", "are", "'s", "has", "have"})
#: Where a checked predicate ends (the request going on).
_PRED_END = _ENDS | frozenset({",", "then", "and", "pls", "please", "plz", "for", "n", "&"})
_FORECAST = frozenset({"be", "end", "probably", "likely", "prob", "find", "see", "notice"})
_SIZING = (("bit", "of", "a"), ("a", "bit", "of", "a"), ("quite", "a"), ("bit", "of"),
           ("it", "is", "a", "long", "way"), ("its", "a", "long", "way"),
           ("it", "is", "quite", "a", "way"), ("its", "quite", "a", "way"))
_CHORES = frozenset({"mopped", "cleaned", "washed", "hoovered", "vacuumed", "polished",
                     "waxed", "scrubbed", "painted", "done"})
_THERE = (("in", "there"), ("in", "here"))
#: Past forms and perfect auxiliaries that tell what happened before (a reason, not a route).
_PAST = frozenset({"got", "knocked", "fell", "broke", "hit", "bumped", "ran", "tipped",
                   "spilled", "spilt", "crashed", "been", "went", "was", "were", "had",
                   "scratched", "smashed", "dropped", "tripped", "caught", "snagged", "did"})
_TIMES = (("last", "week"), ("last", "time"), ("yesterday",), ("the", "other", "day"),
          ("for", "ages"), ("earlier",), ("this", "morning"), ("last", "night"),
          ("again",), ("before",), ("once",))
_TAIL_OPEN = frozenset({"tho", "though", "as", "cos", "coz", "cuz", "because", "since", "bc"})
_SUBJECTS = frozenset({"u", "you", "it", "its", "he", "she", "they", "we", "i"})
_NEG = frozenset({"don't", "dont", "not", "never", "avoid", "no"})
_WAY_ADJ = frozenset({"normal", "usual", "long", "other", "regular", "standard", "proper",
                      "longer", "right"})
_WAY_NOUN = frozenset({"way", "side", "route"})
_THANKS = (("thanks", "so", "much"), ("thank", "you", "so", "much"), ("thanks", "a", "lot"),
           ("thank", "you", "very", "much"), ("thanks", "very", "much"),
           ("thanks", "a", "million"), ("much", "appreciated"))
_LEFT = frozenset({"left", "lost", "dropped", "forgot", "put"})
_HEDGE = frozenset({"think", "i", "pretty", "sure", "reckon", "guess", "must", "have",
                    "might", "probably", "prob", "'ve", "had", "believe", "am"})
_COMMENT_OPEN = (("there", "is", "only"), ("there", "are", "only"), ("thats", "where"),
                 ("that", "is", "where"), ("it", "is", "on"), ("its", "on"),
                 ("you", "can", "not", "miss"), ("you", "cannot", "miss"), ("only", "one"),
                 ("i", "am", "standing"), ("i", "am", "sat"), ("i", "am", "there"),
                 ("check", "he"), ("check", "she"), ("check", "it"), ("check", "that"),
                 ("check", "if"), ("check", "whether"), ("see", "if"), ("see", "whether"))


def _t(text: str, at: Token) -> Token:
    return Token(text, at.start, at.end)


def _ctx(toks: list[Token], a: int, b: int) -> tuple[str, tuple[int, int]]:
    return (" ".join(t.text for t in toks[a:b]), (toks[a].start, toks[b - 1].end))


def _heads(words: list[str], a: int, b: int) -> list[int]:
    """Where each map head named in ``words[a:b]`` starts."""
    return [k for k, _ in heads_in(words, a, b)]


def _sentence_end(words: list[str], k: int) -> int:
    return next((q for q in range(k, len(words)) if words[q] in _ENDS), len(words))


def _seq(words: list[str], k: int, seqs: tuple[tuple[str, ...], ...]) -> int:
    for s in seqs:
        if tuple(words[k:k + len(s)]) == s:
            return len(s)
    return 0


def _has_request(words: list[str], a: int, b: int) -> bool:
    return any(w in W.MOVE_VERBS or w in ("keep", "stay", "avoid", "stop", "wait")
               for w in words[a:b])


def _checks(toks: list[Token], ctx: Context) -> list[Token]:
    """"go check if the X is full" -> "go to the X"."""
    words = [t.text for t in toks]
    for i in range(1, len(words) - 3):
        if words[i] not in _CHECK or words[i + 1] not in _IF:
            continue
        g = i - 1
        if words[g] in ("and", "n", "&") and g > 0:
            g -= 1
        if words[g] not in _GO:
            continue
        cop = next((q for q in range(i + 2, min(len(words), i + 10))
                    if words[q] in _COPULA | _PRED_END), None)
        if cop is None or words[cop] not in _COPULA or not _heads(words, i + 2, cop):
            continue
        end = next((q for q in range(cop + 1, len(words)) if words[q] in _PRED_END),
                   len(words))
        if end - cop > 4 or _heads(words, cop + 1, end) or end == cop + 1:
            continue
        ctx.append(_ctx(toks, g + 1, i + 2))
        ctx.append(_ctx(toks, cop, end))
        out = [*toks[:g + 1], _t("to", toks[i]), *toks[i + 2:cop], *toks[end:]]
        return _checks(out, ctx)
    return toks


def _sentences_out(toks: list[Token], ctx: Context) -> list[Token]:
    """Forecasts ("You'll be carrying a full tray ...") and sizing headers ("Bit of a tour
    this one.") said as sentences of their own beside a request."""
    words = [t.text for t in toks]
    k = 0
    while k < len(words):
        end = _sentence_end(words, k)
        a = k + (1 if words[k:k + 1] in (["ok"], ["okay"], ["so"], ["right"]) else 0)
        if words[a:a + 1] == [","]:
            a += 1
        out = False
        if words[a:a + 2] == ["you", "will"] and words[a + 2:a + 3] and \
                words[a + 2] in _FORECAST and \
                (words[a + 2] != "be" or words[a + 3:a + 4] and words[a + 3].endswith("ing") and
                 words[a + 3][:-3] not in W.MOVE_VERBS) and \
                not any(words[h - 1] in ("the", "that", "this") for h in _heads(words, a, end)):
            out = True  # a definite thing said ("you'll need to cut through the X") is route
        elif _seq(words, a, _SIZING) and end - a <= 14 and not _heads(words, a, end) and \
                (not _has_request(words, a, end) or words[end - 2:end] in (
                    ["this", "one"], ["this", "time"], ["today"]) or
                 _seq(words, a, _SIZING) > 3 and words[a + 3:a + 5] != ["to", "the"]):
            out = True
        rest = _has_request(words, 0, k) or _has_request(words, end, len(words))
        if out and rest and end > a:
            ctx.append(_ctx(toks, a, end))
            stop = end + 1 if end < len(words) else end
            toks = [*toks[:k], *toks[stop:]]
            words = [t.text for t in toks]
            continue
        k = end + 1
    return toks


def _chores(toks: list[Token], ctx: Context) -> list[Token]:
    """"just mopped the kitchen and ... so while ur in there stay close to X": the state is
    context, "in there" the room it named."""
    words = [t.text for t in toks]
    for k in range(len(words)):
        if words[k] not in _CHORES or k and words[k - 1] in ("you", "u"):
            continue
        a = k
        while a > 0 and words[a - 1] in ("just", "i", "have", "'ve", "we", "has", "had"):
            a -= 1
        if a and words[a - 1] not in _ENDS | {","}:
            continue
        end = _sentence_end(words, k)
        so = next((q for q in range(k + 1, end) if words[q] == "so"), None)
        if so is None:
            continue
        lex = head_lexicon()
        q = k + 1 + (1 if words[k + 1:k + 2] in (["the"], ["my"], ["our"]) else 0)
        hit = lex.match(words[q:q + lex.max_len])
        if hit is None or hit[2] != "room":
            continue
        room = toks[q:q + hit[0]]
        there = next((x for x in range(so + 1, end - 1)
                      if tuple(words[x:x + 2]) in _THERE), None)
        if there is None:
            continue
        ctx.append(_ctx(toks, a, so + 1))
        new = [_t("the", toks[there + 1]), *room]
        return [*toks[:a], *toks[so + 1:there + 1], *new, *toks[there + 2:]]
    return toks


_CAUTIONS = frozenset({"keep", "stay", "steer", "avoid", "give", "mind"})
_STATE_VERBS = frozenset({"wobbles", "wobbly", "leaks", "leaking", "sticks", "tips", "bites",
                          "breaks", "falls", "squeaks", "rocks", "bangs",
                          "swings", "scratches", "snaps", "drips", "creaks", "moves"})


def _topic_state(toks: list[Token], ctx: Context) -> list[Token]:
    """"the stool in the kitchen wobbles so keep clear of it": the thing said first with its
    state, then a caution on "it" -> "keep clear of the stool in the kitchen"; the state is
    context."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    for k in range(len(words) - 6):
        if k and words[k - 1] not in _ENDS or words[k] not in ("the", "that", "this", "my"):
            continue
        hit = lex.match(words[k + 1:k + 1 + lex.max_len])
        if hit is None or hit[2] != "object":
            continue
        e = k + 1 + hit[0]
        if words[e:e + 2] in (["in", "the"], ["on", "the"], ["by", "the"]):
            more = lex.match(words[e + 2:e + 2 + lex.max_len])
            if more is None:
                continue
            e = e + 2 + more[0]
        if e >= len(words) or words[e] not in _STATE_VERBS:
            continue
        end = _sentence_end(words, e)
        so = next((q for q in range(e + 1, end) if words[q] == "so"), None)
        if so is None or so + 1 >= end or words[so + 1] not in _CAUTIONS or \
                _heads(words, e, so) or set(words[e:so]) & _NEG:
            continue
        it = next((q for q in range(so + 2, end) if words[q] == "it"), None)
        if it is None or _heads(words, so + 1, it):
            continue
        ctx.append(_ctx(toks, e, so + 1))
        return [*toks[:k], *toks[so + 1:it], *toks[k:e], *toks[it + 1:]]
    return toks


def _past_tails(toks: list[Token], ctx: Context) -> list[Token]:
    """"... tho u got stuck in there last week", "its been going off for ages", "tho its
    leaves snap off if u bump it": a reason said after a request."""
    words = [t.text for t in toks]
    for k in range(1, len(words) - 1):
        opener = words[k] in _TAIL_OPEN
        s = k + 1 if opener else k
        if s >= len(words) or words[s] not in _SUBJECTS:
            continue
        if not opener and words[k - 1] not in (",", "-") and not _heads(words, max(0, k - 3), k):
            continue
        # "keep away from the bin in there it stinks": a state of "it" run on, unmarked
        run_on = words[s] == "it" and s + 1 < len(words) and words[k - 1] in ("there", "here") \
            and words[s + 1].endswith("s") and not words[s + 1].endswith(("ss", "is"))
        if not opener and words[s] not in ("its", "u") and not run_on:
            continue
        start = next((q for q in range(k - 1, -1, -1) if words[q] in _ENDS), -1) + 1
        if not _has_request(words, start, k):
            continue
        end = _sentence_end(words, s)
        if words[end - 2:end] == ["both", "ways"]:
            continue
        cut = next((q for q in range(s + 1, end) if words[q] in (",",) or
                    words[q] in ("and", "then", "so") and q + 1 < end and
                    words[q + 1] in W.MOVE_VERBS | {"keep", "stay", "dont", "don't"}), end)
        span = words[s:cut]
        if _heads(words, s, cut) or len(span) < 3 - run_on or any(w in _NEG for w in span):
            continue
        past = any(w in _PAST or w.endswith("ed") and w not in ("need", "feed", "bed")
                   for w in span[1:3])
        timed = any(_seq(words, q, _TIMES) for q in range(s, cut))
        its_state = words[s] == "its" and (words[s + 1] in _PAST or
                                           words[s + 1].endswith(("ing", "s")))
        if not (past and (timed or words[s] in ("its", "it")) or its_state or run_on or
                opener and words[s] == "its" or timed and past):
            continue
        if not (past or its_state or opener or run_on):
            continue
        ctx.append(_ctx(toks, k, cut))
        return _past_tails([*toks[:k], *toks[cut:]], ctx)
    return toks


def _left_there(toks: list[Token], ctx: Context) -> list[Token]:
    """"think i left my keys on the dresser in the bedroom .. can u go over there": the
    sentence is context, "there" the place's words read again."""
    words = [t.text for t in toks]
    for k in range(len(words) - 4):
        if words[k] not in _LEFT or words[k + 1] not in ("my", "our", "the"):
            continue
        a = k
        while a > 0 and words[a - 1] in _HEDGE:
            a -= 1
        if a and words[a - 1] not in _ENDS | {","} or "i" not in words[a:k]:
            continue
        lex = head_lexicon()
        hit = lex.match(words[k + 2:k + 2 + lex.max_len])
        if hit is None:
            continue
        p = k + 2 + hit[0]
        if p >= len(words) or words[p] not in ("on", "by", "in", "near", "next", "under",
                                                "beside", "at"):
            continue
        q = p + 1 + (1 if words[p:p + 2] == ["next", "to"] else 0)
        end = _sentence_end(words, q)
        spot = lex.match(words[q + 1:q + 1 + lex.max_len]) if words[q:q + 1] == ["the"] \
            else None
        if spot is None or spot[2] != "object" or _has_request(words, q, end):
            continue  # a room ("I left my watch in the bedroom. Go there."): the thing's
        nxt = end + 1
        while nxt < len(words) and words[nxt] in _ENDS:
            nxt += 1
        stop = _sentence_end(words, nxt)
        there = next((x for x in range(nxt, stop) if words[x] == "there" and
                      words[x - 1] in ("over", "go", "to") and
                      (x + 1 == stop or words[x + 1] in ("so", "and", "then", ",", "please",
                                                         "pls", "for"))), None)
        if there is None or not _has_request(words, nxt, there):
            continue
        ctx.append(_ctx(toks, a, end))
        place = [Token(t.text, t.start, t.end) for t in toks[q:end]]
        if words[there - 1] != "to":
            place = [_t("to", toks[there]), *place]
        return [*toks[:a], *toks[nxt:there], *place, *toks[there + 1:]]
    return toks


def _way_asides(toks: list[Token], ctx: Context) -> list[Token]:
    """", go the normal way", ", go round the other side", ", take the long way round if u
    have to" after a prohibition in the same sentence: the rule said again."""
    words = [t.text for t in toks]
    for k in range(1, len(words) - 2):
        if words[k] not in ("go", "take", "come"):
            continue
        q = k + 1
        if words[q] in ("round", "around"):
            q += 1
        if words[q:q + 1] != ["the"] or words[q + 1:q + 2] == [] or \
                words[q + 1] not in _WAY_ADJ or words[q + 2:q + 3] == [] or \
                words[q + 2] not in _WAY_NOUN:
            continue
        end = q + 3
        if words[end:end + 1] in (["round"], ["around"], ["instead"]):
            end += 1
        n = _seq(words, end, (("if", "you", "have", "to"), ("if", "u", "have", "to"),
                              ("if", "you", "need", "to"), ("if", "u", "need", "to")))
        end += n
        stop = _sentence_end(words, k)
        if end < stop and words[end] not in (",", "just", "but", "and", "pls", "please"):
            continue
        start = next((x for x in range(k - 1, -1, -1) if words[x] in _ENDS), -1) + 1
        later = words[end:stop]
        if not (set(words[start:k]) & _NEG or set(later) & _NEG):
            continue
        a = k - 1 if words[k - 1] in (",", "-", "just") else k
        ctx.append(_ctx(toks, k, end))
        return _way_asides([*toks[:a], *toks[end:]], ctx)
    return toks


def _laps(toks: list[Token], ctx: Context) -> list[Token]:
    """"do a lap round X" -> "go around X"; ", like all the way round it" / ", the whole way
    round" after a lap: its restatement."""
    words = [t.text for t in toks]
    out = list(toks)
    for k in range(len(words) - 3):
        if words[k] == "do" and words[k + 1] in ("a", "one") and \
                words[k + 2] in ("lap", "circuit", "loop") and \
                words[k + 3] in ("round", "around", "of"):
            ctx.append(_ctx(toks, k, k + 3))
            out = [*toks[:k], _t("go", toks[k]), _t("around", toks[k + 2]), *toks[k + 4:]]
            return _laps(out, ctx)
    for k in range(1, len(words) - 3):
        if words[k] != ",":
            continue
        a = k + 1
        if words[a] == "like":
            a += 1
        n = _seq(words, a, (("all", "the", "way", "round", "it"),
                            ("all", "the", "way", "around", "it"),
                            ("the", "whole", "way", "round"), ("the", "whole", "way", "around"),
                            ("all", "the", "way", "round"), ("all", "the", "way", "around")))
        if not n:
            continue
        end = a + n
        start = next((x for x in range(k - 1, -1, -1) if words[x] in _ENDS), -1) + 1
        if not any(words[x] in ("round", "around") for x in range(start, k)):
            continue
        ctx.append(_ctx(toks, k + 1, end))
        return _laps([*toks[:k], *toks[end:]], ctx)
    return out


def _small_talk(toks: list[Token], ctx: Context) -> list[Token]:
    """"bring urself back to", "take yourself over to"; "thanks so much"; "dont actually go";
    a parenthesis that only comments."""
    words = [t.text for t in toks]
    for k in range(len(words) - 2):
        if words[k] in ("bring", "take", "get") and \
                words[k + 1] in ("urself", "yourself", "yerself", "ursef"):
            ctx.append(_ctx(toks, k, k + 2))
            verb = "come" if words[k + 2] in ("back", "here") else "go"
            return _small_talk([*toks[:k], _t(verb, toks[k]), *toks[k + 2:]], ctx)
        neg = 2 if words[k + 1:k + 3] == ["do", "not"] else 1 if words[k + 1] == "never" else 0
        if words[k] in ("pls", "please", "plz") and k and words[k - 1].isalpha() and \
                _heads(words, max(0, k - 3), k) and \
                neg and k + neg + 1 < len(words) and \
                (words[k + neg + 1] in W.MOVE_VERBS or words[k + neg + 1] in ("actually",
                                                                              "really")):
            # "go to the bed pls dont go in X": the request's end, unmarked
            return _small_talk([*toks[:k + 1], _t(",", toks[k]), *toks[k + 1:]], ctx)
        if words[k] == "not" and words[k + 1] in ("actually", "really") and \
                words[k + 2] in W.MOVE_VERBS:
            ctx.append(_ctx(toks, k + 1, k + 2))
            return _small_talk([*toks[:k + 1], *toks[k + 2:]], ctx)
    for k in range(len(words)):
        n = _seq(words, k, _THANKS)
        if n and (k + n == len(words) or words[k + n] in _ENDS | {","}):
            ctx.append(_ctx(toks, k, k + n))
            return _small_talk([*toks[:k], *toks[k + n:]], ctx)
        if words[k] == "(" and _seq(words, k + 1, _COMMENT_OPEN):
            end = next((q for q in range(k + 1, len(words)) if words[q] == ")"), None)
            if end is None or _has_request(words, k + 1 + (words[k + 1] in _CHECK), end):
                continue
            ctx.append(_ctx(toks, k + 1, end))
            return _small_talk([*toks[:k], *toks[end + 1:]], ctx)
    return toks


def errand_asides(toks: list[Token]) -> tuple[list[Token], Context]:
    """Read the framings, asides and reasons of the module docstring; returns the tokens
    and what was taken out as context (each with its character span)."""
    ctx: Context = []
    toks = _small_talk(toks, ctx)
    toks = _checks(toks, ctx)
    toks = _left_there(toks, ctx)
    toks = _sentences_out(toks, ctx)
    toks = _chores(toks, ctx)
    toks = _way_asides(toks, ctx)
    toks = _laps(toks, ctx)
    toks = _topic_state(toks, ctx)
    toks = _past_tails(toks, ctx)
    return toks, ctx
