"""Reference frames, part two: the phrase a later word refers back to, and corrections of a
pick.

"the plant, not the one by the window", "no wait, the other one", "not the big one, the small
one", "Go to the one nearest the door, the fridge I mean": each later word is about the goal
phrase of its sentence (or of the sentence before), found by :func:`goal_head`. The rules here
are run by :func:`.reference_frames.reference_frames` with the others of that pass.
"""

from __future__ import annotations

from map2route.language.inflection import singular_word
from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.rewrites import Rewriter
from map2route.language.tokens import Token

ENDS = (".", "!", "?", ";")
DETS = ("the", "a", "an")

#: Leads of a self-correction that cancel what was said ("wait, no", "no no").
_CANCEL = ("no", "nope", "wait", "sorry", "actually", "oops", ",", "hmm", "oh")
_GOAL_VERBS = (("go", "to"), ("head", "to"), ("walk", "to"), ("move", "to"), ("go", "into"),
               ("head", "over", "to"), ("go", "over", "to"), ("get", "to"))


def after_head(rw: Rewriter, i: int) -> bool:
    """Whether the words just before ``i`` end a noun head ("the racket" | "the one")."""
    if rw.w(i - 1) in ("one", "ones"):
        return True
    lex = head_lexicon()
    return any(i - n >= 0 and (hit := lex.match(rw.words[i - n:i])) is not None and hit[0] == n
               for n in range(1, lex.max_len + 1))


def goal_head(rw: Rewriter) -> tuple[int, int] | None:
    """Where the head of the goal phrase of the current sentence sits in ``rw.out`` (index,
    length): the first head after the sentence's verb of motion ("go to the plant by the
    window": the plant, not the window). None when the sentence has no such verb yet."""
    texts = [t.text for t in rw.out]
    start = len(texts)
    while start > 0 and texts[start - 1] not in ENDS:
        start -= 1
    verb = next((k for k in range(start, len(texts)) if texts[k] in W.MOVE_VERBS), None)
    if verb is None:
        return None
    lex = head_lexicon()
    for k in range(verb + 1, len(texts)):
        hit = lex.match(texts[k:k + lex.max_len])
        if hit is not None and hit[2] != "pronoun":
            return k, hit[0]
    return None


def note(rw: Rewriter, a: int, b: int) -> None:
    """Record tokens ``a``..``b-1`` as context: said, not a place of the route."""
    toks = [t for t in rw.toks[a:b] if t.text != ","]
    if toks:
        rw.context.append((" ".join(t.text for t in toks), (toks[0].start, toks[-1].end)))


def sentence_start(rw: Rewriter, i: int) -> bool:
    k = i - 1
    while k >= 0 and rw.w(k) in W.FILLER_WORDS | {"so", "oh", "ok", "okay"}:
        k -= 1
    return k < 0 or rw.w(k) in (*ENDS, ":")


# --- corrections --------------------------------------------------------------------------
def contrast(rw: Rewriter, i: int) -> int | None:
    """"the plant by the window, not the big one, the small one" / "Go to the big bedroom.
    Not the big one, the small one." -> the last head said with the kept word ("the small
    plant by the window", "the small bedroom"); the excluded word is taken out of that phrase
    and the contrast is recorded as context. "..., not the other one" after a pick said in
    full is the same pick again: context."""
    if not rw.at(i, "not", "the") or rw.w(i - 1) not in (",", *ENDS):
        return None
    j = i + 2
    if rw.w(j) == "other" and rw.w(j + 1) in ("one", "ones") and \
            rw.w(j + 2) in ("", *ENDS) and _picked(rw):
        note(rw, i, j + 2)
        if rw.out and rw.out[-1].text == ",":
            rw.out.pop()
        return j + 2
    old = rw.w(j)
    if rw.w(j + 1) != "one" or rw.w(j + 2) != "," or rw.w(j + 3) != "the" or \
            rw.w(j + 5) != "one" or rw.w(j + 6) not in ("", *ENDS):
        return None
    new = rw.w(j + 4)
    if old not in W.SIZE_ADJ and old not in W.COMPARATIVE or \
            new not in W.SIZE_ADJ and new not in W.COMPARATIVE:
        return None
    at = goal_head(rw) if rw.w(i - 1) == "," else previous_goal_head(rw)
    if at is None:
        return None
    h = at[0]
    texts = [t.text for t in rw.out]
    prefix = h
    while prefix > 0 and texts[prefix - 1] not in ("the", "a", "an", *ENDS, ","):
        prefix -= 1
    adjs = [x for x in range(prefix, h) if texts[x] == old]
    said = rw.new(new, rw.toks[j + 4])
    if adjs:
        rw.out[adjs[0]] = said
    else:
        rw.out.insert(h, said)
    note(rw, i, j + 6)
    if rw.out[-1].text == ",":
        rw.out.pop()
    if rw.w(i - 1) in ENDS:
        return j + 7 if rw.w(j + 6) in ENDS else j + 6
    return j + 6


def _picked(rw: Rewriter) -> bool:
    """Whether the goal phrase of the current sentence already singles its thing out (said
    with more than its head: "the bed closest to the window", "the big bed"), so that "not
    the other one" after it adds nothing."""
    at = goal_head(rw)
    if at is None:
        return False
    texts = [t.text for t in rw.out]
    before = texts[at[0] - 1] if at[0] else ""
    after = [w for w in texts[at[0] + at[1]:] if w != ","]
    return bool(after) or before not in ("the", "a", "an", "that", "this")


def previous_goal_head(rw: Rewriter) -> tuple[int, int] | None:
    """:func:`goal_head` of the sentence just ended ("Go to the big bedroom. Not the big
    one, ...")."""
    if not rw.out or rw.out[-1].text not in ENDS:
        return None
    end = rw.out.pop()
    try:
        return goal_head(rw)
    finally:
        rw.out.append(end)


def correction_one(rw: Rewriter, i: int) -> int | None:
    """"the bed, no wait, the other one" -> "the bed, no wait, the other bed": inside one
    sentence the "one" of a correction is the head it corrects (as :mod:`.discourse` does
    across sentences)."""
    n = max((len(p) for p in W.CORRECTIONS if rw.at(i, *p)), default=0)
    if not n or rw.w(i - 1) not in (",", *ENDS):
        return None
    j = i + n + (1 if rw.w(i + n) == "," else 0)
    if rw.w(j) != "the":
        return None
    one = next((x for x in range(j + 1, min(j + 4, len(rw.words)))
                if rw.w(x) in ("one", "ones")), None)
    if one is None or any(rw.head_at(x) for x in range(j + 1, one)):
        return None
    at = goal_head(rw) if rw.w(i - 1) == "," else previous_goal_head(rw)
    if at is None:
        return None
    head = [t.text for t in rw.out[at[0]:at[0] + at[1]]]
    head = [*head[:-1], singular_word(head[-1])]
    rw.out.extend(rw.toks[i:one])
    rw.emit(*head, like=rw.toks[one])
    return one + 1


def cancel_then_goal(rw: Rewriter, i: int) -> int | None:
    """"Go to the table. Wait, no, go to the sofa." / "..., sorry, go to the sofa": a
    cancelling lead before a new goal -> "no wait, the sofa", the correction the discourse
    stage reads (the sofa takes the table's place)."""
    if not (sentence_start(rw, i) or rw.w(i - 1) == ",") or rw.w(i) not in _CANCEL[:5]:
        return None
    k = i
    while rw.w(k) in _CANCEL:
        k += 1
    leads = rw.words[i:k]
    if "no" not in leads and "nope" not in leads:
        return None
    verb = max((len(v) for v in _GOAL_VERBS if rw.at(k, *v)), default=0)
    said = previous_goal_head(rw) if sentence_start(rw, i) else goal_head(rw)
    if not verb or rw.w(k + verb) not in DETS or not rw.head_at(k + verb + 1) or said is None:
        return None
    if any(w in ("also", "too", "then", "first") for w in rw.words[k:k + verb + 8]):
        return None  # an addition, not a replacement
    rw.emit("no", "wait", ",", like=rw.toks[i])
    return k + verb


def dash_sorry(rw: Rewriter, i: int) -> int | None:
    """"Head to the bedroom - sorry, the bathroom" (the dash is gone from the tokens): the
    correction lead right after a head gets its comma back."""
    if rw.w(i) in ("sorry", "oops") and rw.w(i - 1) not in (",", *ENDS, "") and \
            after_head(rw, i) and rw.w(i + 1) in (",", "the", "i"):
        rw.emit(",", like=rw.toks[i])
        rw.out.append(rw.toks[i])
        return i + 1
    return None


def dash_no(rw: Rewriter, i: int) -> int | None:
    """"Go to the sofa - no - the armchair" (dashes gone): "no" right after a head and
    before another one is a correction -> ", no wait, the armchair"."""
    if rw.w(i) != "no" or rw.w(i - 1) in (",", *ENDS, "") or not after_head(rw, i) or \
            rw.w(i + 1) != "the" or not any(rw.head_at(x) for x in range(i + 2, i + 5)):
        return None
    rw.emit(",", "no", "wait", ",", like=rw.toks[i])
    return i + 1


#: Words after "or" that make it a correction, not a choice ("..., or actually the toilet").
_OR_FIX = ("actually", "wait", "no", "sorry", "rather")


def or_actually(rw: Rewriter, i: int) -> int | None:
    """"Go to the sink, or actually the toilet" -> "..., no wait, the toilet"."""
    if rw.w(i) != "or" or rw.w(i - 1) != "," or rw.w(i + 1) not in _OR_FIX:
        return None
    k = i + 1
    while rw.w(k) in _OR_FIX or rw.w(k) == ",":
        k += 1
    if rw.w(k) != "the" or goal_head(rw) is None:
        return None
    rw.emit("no", "wait", like=rw.toks[i])
    return k


#: Sentences that take back the one before ("Scratch that.", "Never mind.").
_TAKE_BACK = (("scratch", "that"), ("never", "mind"), ("forget", "that"), ("cancel", "that"),
              ("ignore", "that"), ("strike", "that"), ("disregard", "that"))


def take_back(rw: Rewriter, i: int) -> int | None:
    """"Go to the chair. Scratch that. Go to the stool." -> "Go to the chair. No wait, the
    stool.": the new goal takes the place of the one taken back (the discourse stage reads
    it and reports the old one as context)."""
    n = next((len(p) for p in _TAKE_BACK if rw.at(i, *p)), 0)
    if not n or not sentence_start(rw, i) or rw.w(i + n) not in (*ENDS, ",") or \
            previous_goal_head(rw) is None:
        return None
    k = i + n + 1
    k += 1 if rw.w(k) in ("just", "instead", "now") else 0
    verb = max((len(v) for v in _GOAL_VERBS if rw.at(k, *v)), default=0)
    if not verb or rw.w(k + verb) not in DETS or not rw.head_at(k + verb + 1):
        return None
    rw.emit("no", "wait", ",", like=rw.toks[i])
    return k + verb


#: Words that may pick a thing in an apposition "the ... one" ("the bedroom, the smaller
#: one").
_APPOSED = frozenset(W.SIZE_ADJ) | frozenset(W.COMPARATIVE) | W.RANK_WORDS | \
    frozenset(("other", "left", "right", "main"))


def apposed_one(rw: Rewriter, i: int) -> int | None:
    """"Go to the bedroom, the smaller one." / "the bedroom - the big one" / "the lamp, the
    other one" / "the bathroom; the one without a window" -> "the smaller bedroom", "the
    other lamp", "the bathroom without a window": an apposition that repicks the goal head
    puts its words on that head (not a second stop)."""
    if rw.w(i) != "the":
        return None
    k = i + 1
    while rw.w(k) in _APPOSED:
        k += 1
    if rw.w(k) != "one" or rw.w(k + 1) == "of" or (k == i + 1 and rw.w(i - 1) != ";"):
        return None
    punct = rw.out[-1] if rw.out and rw.out[-1].text in (",", ";") else None
    if punct is not None:
        rw.out.pop()
    at = goal_head(rw)
    if at is None or at[0] + at[1] != len(rw.out):
        if punct is not None:
            rw.out.append(punct)
        return None
    for x in range(i + 1, k):
        rw.out.insert(at[0] + x - i - 1, rw.toks[x])
    return k + 1


def named_after(toks: list[Token]) -> tuple[list[Token], list[tuple[str, tuple[int, int]]]]:
    """"Go to the one furthest from the kitchen, the bedroom I mean." -> "Go to the bedroom
    furthest from the kitchen": a sentence that says "the one" before naming any head, and
    names it in an afterthought at its end, means that head (the afterthought is recorded as
    context)."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    out: list[Token] = []
    notes: list[tuple[str, tuple[int, int]]] = []
    start = 0
    while start < len(toks):
        end = next((k for k in range(start, len(toks)) if words[k] in ENDS), len(toks))
        sent = words[start:end]
        one = next((k for k in range(len(sent) - 1) if sent[k:k + 2] == ["the", "one"]), None)
        comma = max((k for k in range(len(sent)) if sent[k] == ","), default=None)
        tail = sent[comma + 1:] if comma is not None else []
        while tail[-2:] == ["i", "mean"] or tail[-1:] == ["please"]:
            tail = tail[:-2] if tail[-1] == "mean" else tail[:-1]
        if tail[:2] == ["i", "mean"]:
            tail = tail[2:]
        hit = lex.match(tail[1:]) if tail[:1] == ["the"] else None
        if one is None or comma is None or comma < one or hit is None or \
                hit[0] != len(tail) - 1 or hit[2] == "pronoun" or \
                any(lex.match(sent[k:k + lex.max_len]) for k in range(one)):
            out.extend(toks[start:end + 1])
            start = end + 1
            continue
        head = tail[1:]
        at = start + one
        out.extend(toks[start:at])
        out.append(toks[at])
        out.extend(Token(w, toks[at + 1].start, toks[at + 1].end)
                   for w in [*head[:-1], singular_word(head[-1])])
        out.extend(toks[at + 2:start + comma])
        said = toks[start + comma + 1:end]
        notes.append((" ".join(t.text for t in said), (said[0].start, said[-1].end)))
        out.extend(toks[end:end + 1])
        start = end + 1
    return out, notes
