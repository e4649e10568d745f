"""Run-on starts: a start said before the request with no mark between them.

Spoken and typed-fast instructions say where the walker is and then what to do without a
full stop or a comma: "youre at the front door um go into the first bedroom", "ok you're in
the kitchen go to the bigger of the two bathrooms", "you are at the fridge when you're heading
out of the kitchen stay close to the wall", "from the kitchen go to the bedroom with two
beds", "from the kitchen you go through the living rooms". The later stages read the start
when it is its own sentence ("You are at the front door.") or set off by a comma ("From the
kitchen, go to ..."); this pre-pass puts that mark where the request begins: the first verb
of a request (or a clause opener: "when", "while", "then", "please") that follows the start's
place, by word class, never a list of sentences. A "you" before that verb in a from-start
("from the kitchen you go through ...") is the walker the imperative already means.
The other note forms of the same register are put in the words the later stages read, by
word class too: a run of correction words with no marks ("X no wait sorry I mean Y"), a reason
said tersely after a keep-away ("its smelly", "floor is wet in middle", "chairs sticking
out"), "and last come back", a sentence of "no" and a place ("no bedrooms."), a room with no
article opening a scope ("Inside bedroom stay ..."), and a numbered item's room after a comma
("2. table w/ the lamps, living room").
Hand-written for the same reason as :mod:`.normalise`.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

_ENDS = (".", "!", "?", ";")
_LEADS = W.FILLER_WORDS | {"so", "and", ",", "right", "alright", "now"}
#: "you are <at/in/by/standing ...>": how a start statement goes on after "you are".
_SCENE = ("standing", "sitting", "located", "currently", "now", "in", "at", "next", "near",
          "by", "beside", "inside", "starting", "right", "parked", "waiting")
_SUBJECTS = (("you", "are"), ("i", "am"), ("we", "are"))
#: Verbs that open an imperative request (base forms; "-ing" forms go on a start).
_REQUEST_VERBS = frozenset({
    "go", "walk", "head", "move", "come", "drive", "navigate", "proceed", "visit", "find",
    "check", "return", "make", "take", "get", "stop", "wait", "pass", "cross", "enter",
    "leave", "exit", "continue", "follow", "bring", "run", "roll", "travel", "avoid",
    "keep", "stay", "stick", "try", "never"})
#: Clause openers that begin the request part of a run-on ("..., when you leave ...").
_OPENERS = ("when", "while", "once", "whenever", "then", "please", "can", "could", "would")
#: Words after which a verb is not the start of a new clause ("the way you go", "next to").
_BOUND = frozenset({"you", "i", "we", "to", "that", "which", "who", "and", "can", "could",
                    "will", "would", "not", "the", "a", "an", "this", "your", "my", "its",
                    "where", "should", "must", "may", "might", "do", "did", "does"})
#: "from the kitchen go ...", "starting at the sofa go ...": the starts read by
#: :func:`.stage_rewrites.start_scope` once a comma follows the place.
_FROM_LEADS = (("from",), ("starting", "from"), ("starting", "at"), ("beginning", "from"),
               ("beginning", "at"), ("coming", "from"), ("coming", "out", "of"))
_DETS = ("the", "a", "an", "this", "that", "my", "our", "your")


def _verb_at(words: list[str], k: int) -> bool:
    """Whether a request starts at ``k``: a request verb or opener not bound to the words
    before it ("do not go" is one: "do" followed by "not")."""
    w = words[k]
    prev = words[k - 1] if k else ""
    if prev in _BOUND or prev in (",", *_ENDS):
        return False
    if w == "do" and k + 1 < len(words) and words[k + 1] == "not":
        return True
    return w in _REQUEST_VERBS or w in _OPENERS


def _name_ends(words: list[str], k: int) -> bool:
    """Whether a thing's or room's name ends right before ``k``."""
    lex = head_lexicon()
    for n in range(1, min(lex.max_len, k) + 1):
        hit = lex.match(words[k - n:k])
        if hit is not None and hit[0] == n:
            return True
    return False


def _back_over_fillers(words: list[str], k: int, floor: int) -> int:
    while k - 1 > floor and words[k - 1] in W.FILLER_WORDS:
        k -= 1
    return k


def run_on_starts(toks: list[Token]) -> list[Token]:
    """Put the full stop after a run-on "you are at X" and the comma after a run-on "from X"
    (see the module docstring); other tokens are kept as they are."""
    words = [t.text for t in toks]
    marks: dict[int, str] = {}  # token index -> the mark to put before it
    drop: set[int] = set()
    a = 0
    while a < len(words):
        b = a
        while b < len(words) and words[b] not in _ENDS:
            b += 1
        i = a
        while i < b and words[i] in _LEADS:
            i += 1
        subj = next((len(p) for p in _SUBJECTS if tuple(words[i:i + len(p)]) == p), 0)
        lead = next((len(p) for p in _FROM_LEADS if tuple(words[i:i + len(p)]) == p), 0)
        if subj and i + subj < b and words[i + subj] in _SCENE:
            c = next((q for q in range(i, b) if words[q] == ","), b)  # a comma parts them
            k = next((k for k in range(i + subj + 2, c) if _verb_at(words, k)), None)
            if k is not None:
                marks[_back_over_fillers(words, k, i + subj + 1)] = "."
        elif lead and i + lead < b and words[i + lead] in _DETS:
            c = next((q for q in range(i, b) if words[q] == ","), b)
            for k in range(i + lead + 2, c):
                you = words[k] == "you" and k + 1 < b and words[k + 1] in _REQUEST_VERBS
                if you or (_verb_at(words, k) and words[k] not in _OPENERS[:4]):
                    marks[_back_over_fillers(words, k, i + lead + 1)] = ","
                    if you:
                        drop.add(k)
                    break
        for k in range(i + 2, b - 1):
            # "go through the living rooms right stop at the plant": a spoken "right" between
            # a thing's name and the next request is a pause, not a direction
            if words[k] == "right" and words[k + 1] in _REQUEST_VERBS and _name_ends(words, k):
                marks[k] = ","
                drop.add(k)
        a = b + 1
    if not marks:
        return toks
    out: list[Token] = []
    for n, t in enumerate(toks):
        if n in marks:
            out.append(Token(marks[n], t.start, t.start))
        if n not in drop:
            out.append(t)
    return out


def last_step(toks: list[Token]) -> list[Token]:
    """"... and last come back here", ", last go to the sofa": "last" before a request verb
    is the order word "lastly" (before a noun it stays the adjective: "the last bedroom")."""
    words = [t.text for t in toks]
    return [Token("lastly", t.start, t.end) if t.text == "last" and 0 < n < len(toks) - 1
            and words[n - 1] in ("and", ",", "then") and words[n + 1] in _REQUEST_VERBS
            else t for n, t in enumerate(toks)]


# --- reasons said tersely -------------------------------------------------------------------
#: Words of a keep-away / stay-near request that a reason may follow.
_KEEPS = frozenset({"avoid", "away", "clear", "not", "never", "close", "near", "far", "off",
                    "out", "squeeze", "careful", "past"})
_BE = ("is", "are", "was", "were")
_INTENSIFIERS = ("really", "very", "so", "too", "still", "all", "super", "kinda", "quite")
_SURFACE_NOUNS = frozenset({"floor", "ground", "carpet", "rug"})


def _noun_len(words: list[str], k: int) -> int:
    """Length of a thing's name at ``k`` (a head of the lexicon or a floor word), else 0."""
    if words[k] in _SURFACE_NOUNS:
        return 1
    hit = head_lexicon().match(words[k:k + head_lexicon().max_len])
    return hit[0] if hit else 0


def terse_reasons(toks: list[Token]) -> list[Token]:
    """A reason after a keep-away said the short way, put in the words the reason readers
    know: "..., floor is wet in middle" -> "..., the floor is wet in middle"; "..., chairs
    sticking out" -> "..., the chairs are sticking out"; "keep away from the bin its smelly"
    -> "... it is smelly" ("its" typed for "it's" before a word that names no thing)."""
    words = [t.text for t in toks]
    out: list[Token] = []
    sent = 0  # where the current sentence starts
    k = 0
    while k < len(toks):
        t, w = toks[k], words[k]
        if w in _ENDS:
            sent = k + 1
        keeps = bool(_KEEPS & set(words[sent:k]))
        nxt = words[k + 1] if k + 1 < len(words) else ""
        after = words[k + 2] if k + 2 < len(words) else ""
        if keeps and w == "its" and nxt.isalpha() and head_lexicon().match([nxt]) is None and \
                after not in _BE and (after in ("", ",", *_ENDS) or nxt in _INTENSIFIERS):
            out.extend([Token("it", t.start, t.end), Token("is", t.start, t.end)])
            k += 1
            continue
        n = _noun_len(words, k) if keeps and k and words[k - 1] == "," else 0
        be = words[k + n] if n and k + n < len(words) else ""
        if n and (be in _BE or be.endswith("ing") and be.isalpha()):
            out.append(Token("the", t.start, t.start))
            out.extend(toks[k:k + n])
            if be not in _BE:  # "chairs sticking out": the verb's "are" left unsaid
                plural = words[k + n - 1].endswith("s")
                out.append(Token("are" if plural else "is", toks[k + n].start,
                                 toks[k + n].start))
            k += n
            continue
        out.append(t)
        k += 1
    return out


# --- spoken corrections run on ---------------------------------------------------------------
#: Words of a spoken self-correction ("no wait sorry I mean", "ah no sorry", "wait no").
_FIX_WORDS = frozenset({"no", "wait", "sorry", "actually", "oops", "nope", "ah", "uh", "um",
                        "er", "erm", "hmm", "oh", "i", "mean"})
#: At least one of these makes a run of such words a correction ("no" alone negates).
_FIX_CORE = frozenset({"wait", "sorry", "mean", "oops", "nope", "actually"})


def run_on_fixes(toks: list[Token]) -> list[Token]:
    """"the couch in the big living room no wait sorry I mean the one in ..." -> "..., no
    wait, sorry, i mean, the one in ...": a run of correction words said with no marks is set
    off by commas (the correction readers take it from there). "i" only as "i mean"."""
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        e = k
        while e < len(words) and words[e] in _FIX_WORDS and (
                words[e] != "i" or e + 1 < len(words) and words[e + 1] == "mean") and (
                words[e] != "mean" or e and words[e - 1] == "i"):
            e += 1
        run = words[k:e]
        if e - k >= 2 and _FIX_CORE & set(run) and k and words[k - 1].isalnum() and \
                e < len(words) and words[e].isalnum():
            out.append(Token(",", toks[k].start, toks[k].start))
            for q in range(k, e):
                if q > k and words[q] in ("sorry", "i", "actually", "oops", "nope"):
                    out.append(Token(",", toks[q].start, toks[q].start))
                out.append(toks[q])
            if words[e - 1] != "mean":  # "i mean the one in ...": read as said
                out.append(Token(",", toks[e].start, toks[e].start))
            k = e
            continue
        out.append(toks[k])
        k += 1
    return out


# --- terse sentences ---------------------------------------------------------------------------
def terse_sentences(toks: list[Token]) -> list[Token]:
    """Sentences said in note form: "no bedrooms." (a whole sentence of "no" and a place) ->
    "avoid the bedrooms."; "Inside bedroom stay close to wall" -> "Inside the bedroom ..." (a
    room opening a scope with no article)."""
    lex = head_lexicon()
    words = [t.text for t in toks]
    out: list[Token] = []
    start = True  # at a sentence start
    k = 0
    while k < len(toks):
        w = words[k]
        if start and w in _LEADS - {","}:
            out.append(toks[k])
            k += 1
            continue
        hit = lex.match(words[k + 1:k + 1 + lex.max_len]) if start else None
        if hit is not None and w == "no":
            e = k + 1 + hit[0]
            e += e < len(words) and words[e] == "please"
            if e == len(words) or words[e] in _ENDS:
                out.append(Token("avoid", toks[k].start, toks[k].end))
                out.append(Token("the", toks[k + 1].start, toks[k + 1].start))
                out.extend(toks[k + 1:e])
                k = e
                start = False
                continue
        if hit is not None and hit[2] == "room" and w in ("in", "inside", "within"):
            out.append(toks[k])
            out.append(Token("the", toks[k + 1].start, toks[k + 1].start))
            k += 1
            start = False
            continue
        start = w in _ENDS
        out.append(toks[k])
        k += 1
    return out


def item_rooms(toks: list[Token]) -> list[Token]:
    """A numbered item that names a thing and then, after a comma, only a room: "2. table w/
    the lamps, living room" -> "2. table with the lamps in the living room" (one stop: each
    number is one). Also "w/" ("w" before an article) is "with"."""
    lex = head_lexicon()
    words = [t.text for t in toks]
    out: list[Token] = []
    item = False  # inside a numbered item
    for k, t in enumerate(toks):
        w = words[k]
        nxt = words[k + 1] if k + 1 < len(words) else ""
        if w == "w" and nxt in _DETS:
            out.append(Token("with", t.start, t.end))
            continue
        if w == "." and k and words[k - 1].isdigit():
            item = True
        elif w in _ENDS and not nxt.isdigit():
            item = False
        if item and w == "," and nxt:
            det = nxt in ("the", "a")
            hit = lex.match(words[k + 1 + det:k + 1 + det + lex.max_len])
            e = k + 1 + det + (hit[0] if hit else 0)
            done = e == len(words) or words[e] in _ENDS or (
                words[e].isdigit() and e + 1 < len(words) and words[e + 1] == ".")
            if hit is not None and hit[2] == "room" and done and "," not in words[
                    max(0, k - 8):k] and not any(x in _REQUEST_VERBS for x in words[k - 6:k]):
                out.append(Token("in", t.start, t.end))
                if not det:
                    out.append(Token("the", t.start, t.end))
                continue
        out.append(t)
    return out


# --- a scope's end said again ------------------------------------------------------------------
_RELEASES = (("it", "is", "not", "important"), ("it", "does", "not", "matter"),
             ("it", "is", "fine"), ("it", "is", "ok"), ("it", "is", "okay"),
             ("it", "is", "not", "a", "problem"), ("no", "problem"), ("not", "important"),
             ("does", "not", "matter"), ("it", "is", "alright"), ("it", "does", "n't", "matter"),
             ("whatever",), ("it", "is", "not", "needed"), ("not", "needed"))
_UNTIL = ("until", "till", "til")


def said_release(toks: list[Token]) -> tuple[list[Token], list[tuple[str, tuple[int, int]]]]:
    """"Until you reach the teddy, stay away from the fridge; after it is not important.": the
    end of a scope said once more after "until" (what is free after it) is context; only
    where the sentence already bounds the scope with "until", so no scope is lost."""
    words = [t.text for t in toks]
    ctx: list[tuple[str, tuple[int, int]]] = []
    out: list[Token] = []
    sent = 0
    k = 0
    while k < len(toks):
        w = words[k]
        if w in (".", "!", "?"):
            sent = k + 1
        if w == "after" and k and words[k - 1] in (";", ",", "and") and \
                any(x in _UNTIL for x in words[sent:k]):
            b = k + 1 + (words[k + 1:k + 2] in (["it"], ["that"], ["this"], ["then"]))
            b += words[b:b + 1] == ["point"]
            b += words[b:b + 1] == [","]
            # "after it is not important": "it" is the release's own subject
            e = next((x + len(p) for x in (b, k + 1) for p in _RELEASES
                      if tuple(words[x:x + len(p)]) == p), k)
            if e > k and (e == len(words) or words[e] in _ENDS):
                if out and out[-1].text in (";", ",", "and"):
                    out.pop()
                ctx.append((" ".join(words[k:e]), (toks[k].start, toks[e - 1].end)))
                k = e
                continue
        out.append(toks[k])
        k += 1
    return out, ctx
