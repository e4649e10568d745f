"""Stage 1 of the parser: sentence-level clean-up of spoken requests, before clause splitting.

Self-corrections ("the sofa, no wait, the armchair"), verbless follow-up fragments ("Go to the
dresser. The one in the living room.") and sentences that only tell ("I didn't sleep well")
are resolved on the token list here.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token


def _sentences(toks: list[Token]) -> list[list[Token]]:
    """Split at . ! ? (each sentence keeps its closing mark)."""
    out: list[list[Token]] = [[]]
    for t in toks:
        out[-1].append(t)
        if t.text in (".", "!", "?"):
            out.append([])
    return [s for s in out if s]


def _content(sent: list[Token]) -> list[str]:
    return [t.text for t in sent if t.text not in (".", "!", "?", ",", "and", "so", "but")]


def _has_head(words: list[str]) -> bool:
    lex = head_lexicon()
    return any(lex.match(words[k:]) is not None for k in range(len(words)))


def _is_request(words: list[str]) -> bool:
    """Whether a sentence asks for something: it opens with (or is) a verb of the route."""
    return bool(words) and (words[0] in W.OPENERS or words[0] in W.START_WORDS or
                            (words[0] == "you" and len(words) > 1 and words[1] in W.OPENERS))


def _chatter(words: list[str]) -> bool:
    """A sentence that tells, not asks: no route word at all, or a narrated statement."""
    if not words:
        return True
    if _is_request(words):
        return False
    if not _has_head(words) and not any(w in W.OPENERS for w in words):
        return True  # "Good morning.", "hurry!", "Thanks, dear."
    return words[0] in W.NARRATORS or words[:2] == ["it", "is"] or (
        words[0] in ("the", "a") and any(w in W.NARRATORS for w in words))


def _np_tail(sent: list[Token], end: int) -> int:
    """Where the goal phrase before ``end`` starts: after the last ``to`` / move verb, or
    after the ``then`` / comma that opens the last item of a list ("the kettle, then the
    toaster, no wait, the microwave" corrects the toaster, not the kettle)."""
    last = end - 1
    while last >= 0 and sent[last].text == ",":
        last -= 1
    for k in range(last, -1, -1):
        w = sent[k].text
        if w in ("to", "at", "by") and _in_phrase(sent, k):
            continue  # "the chair next to the window": a relation inside the goal phrase
        if w in ("to", "at", "by") or (w in W.MOVE_VERBS and w not in ("back",)):
            return k + 1
        if w in ("then", ",", ";") and k < last:
            return k + 1
    return 0


def _in_phrase(sent: list[Token], k: int) -> bool:
    """Whether the ``to``/``at``/``by`` at ``k`` relates a head said just before it ("the
    chair by the window", "next to the window"), not the goal to its verb."""
    j = k - 1
    while j >= 0 and sent[j].text in ("next", "close", "closest", "nearest", "right", "up"):
        j -= 1
    lex = head_lexicon()
    words = [t.text for t in sent[:j + 1]]
    return any((hit := lex.match(words[j + 1 - n:j + 1])) is not None and hit[0] == n and
               hit[2] != "pronoun" for n in range(1, min(lex.max_len, j + 1) + 1))


def _correct(sent: list[Token], dropped: list[list[Token]] | None = None) -> list[Token]:
    """``go to X, no wait, Y`` -> ``go to Y`` within one sentence; ``X`` is appended to
    ``dropped`` (reported as context)."""
    words = [t.text for t in sent]
    for k in range(1, len(words)):
        n = max((len(p) for p in W.CORRECTIONS if tuple(words[k:k + len(p)]) == p), default=0)
        if not n or (words[k - 1] != "," and words[k] not in ("or", "no")):
            continue
        rest = k + n
        while rest < len(words):
            if words[rest] == ",":
                rest += 1
                continue
            m = max((len(p) for p in W.CORRECTIONS if tuple(words[rest:rest + len(p)]) == p),
                    default=0)
            if not m:
                break
            rest += m
        if rest >= len(words) or not _has_head(words[rest:]):
            continue
        begin = _np_tail(sent, k)
        if begin == 0 or begin >= k:
            continue
        if dropped is not None:
            dropped.append([t for t in sent[begin:k] if t.text != ","])
        return sent[:begin] + sent[rest:]
    return sent


def _one_anaphor(words: list[str]) -> bool:
    """Whether "one" / "ones" stands for a head said before ("the one in the living room"),
    not a count before its own head ("the room with one window")."""
    return any(w in ("one", "ones") and head_lexicon().match(words[k + 1:]) is None
               for k, w in enumerate(words))


def discourse(toks: list[Token], dropped: list[list[Token]] | None = None) -> list[Token]:
    """Sentence-level clean-up of spoken requests, before clause splitting.

    Self-corrections keep only the corrected phrase ("the sofa, no wait, the armchair";
    "Go to the TV stand. No wait, the TV stand in the living room"); a verbless follow-up
    fragment ("Go to the dresser. The one in the living room." / "... the biggest one!")
    replaces the goal phrase of the sentence before; sentences that only tell (greetings,
    "I didn't sleep well", "He left it on the table", "It's urgent!") are dropped when another
    sentence asks for a route. Every dropped sentence, and the phrase a
    correction replaced, are appended to ``dropped`` (the parse reports them as context: never
    dropped silently).
    """
    sents = [_correct(s, dropped) for s in _sentences(toks)]
    out: list[list[Token]] = []
    for s in sents:
        words = _content(s)
        lead = 0
        while lead < len(words) and words[lead] in ("no", "wait", "sorry", "actually", "oops",
                                                   "i", "mean", "rather", "or"):
            lead += 1
        fragment = words[lead:] and not _is_request(words[lead:]) and \
            words[lead] in ("the", "that", "this") and _has_head(words[lead:] + ["x"])
        if out and fragment and (lead or _one_anaphor(words)) and \
                _has_head([w for w in words[lead:] if w not in ("one", "ones")] + ["x"]):
            prev = out[-1]
            end = len(prev) - (1 if prev[-1].text in (".", "!", "?") else 0)
            begin = _np_tail(prev, end)
            if 0 < begin < end:
                body = [t for t in s if t.text not in (".", "!", "?")]
                while body and body[0].text in ("no", "wait", "sorry", "actually", "oops", ",",
                                                "i", "mean", "rather", "or"):
                    body = body[1:]
                old = [t.text for t in prev[begin:end]]
                head = next((old[q:q + m[0]] for q in range(len(old))
                             if (m := head_lexicon().match(old[q:])) is not None), None)
                new: list[Token] = []
                for t in body:
                    if t.text in ("one", "ones") and head:
                        new.extend(Token(h, t.start, t.end) for h in head)
                    else:
                        new.append(t)
                out[-1] = prev[:begin] + new + prev[end:]
                if dropped is not None and lead:
                    dropped.append(prev[begin:end])  # the phrase corrected: context
                continue
        out.append(s)
    keep = [s for s in out if not _chatter(_content(s))]
    if keep and any(_is_request(_content(s)) or _has_head(_content(s)) for s in keep):
        if dropped is not None:
            # every sentence set apart is reported, not only those that name a place ("The
            # cat sleeps." too): nothing is dropped silently
            dropped.extend(s for s in out if _chatter(_content(s)))
        out = keep
    return [t for s in out for t in s]
