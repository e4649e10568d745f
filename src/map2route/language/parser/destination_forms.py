"""Several destinations said the way people say them, put into the forms the later stages read.

Run early in :func:`.human.human_forms`, on the tokens as typed (after
:func:`.correction_forms.correction_forms` and :func:`.ordinal_forms.next_ones`). Each pass reads
one construction by its word classes, never one sentence:

* errand headers: "I've got a couple of errands for you:", "so there's a few places I want you to
  go,", "go to 2 places." (a quantity and a list noun announcing the stops) are taken out as
  context; so are order tails ("..., in that order please", "..., kitchen first" when the
  kitchen is already the first stop) and closers ("then done");
* vias said with a verb of going and "past"/"by"/"through" ("swing past the TV", "drive by the
  fridge", "cut through the kitchen") -> "pass ...", with "without stopping" / "don't stop"
  after them kept as context (they say the same); "swing by" / "pop by" stay stops unless
  said without stopping ("go by the armchair without stopping");
* errands said with "do"/"take a trip to" ("do the kitchen first") -> "go to";
* a place said first and sent to after ("the second bedroom on your way, go there", "the third
  dresser you come to, that's where I want you", "pick either of the sofas and go there") ->
  "go to <place>";
* the picks among places (route ordinals, partitives, corrections, corners) are read by
  :mod:`.destination_picks`, run last.

Also: ", after that living room" (a sequencer before a bare place) -> ", then living room";
"back to where we are" -> "back to where you started"; "the very first sink" -> "the first
sink".

Hand-written, like the rest of the parser: each pass is a small reading of one phrasing that a
test checks by hand; nothing is dropped that says where to go (what is taken out is returned as
context, with its character span), and spans are kept so a refusal points into the text.
"""

from __future__ import annotations

from map2route.language.errors import ParseError
from map2route.language.parser import words as W
from map2route.language.parser.destination_picks import destination_picks
from map2route.language.parser.destination_tokens import ENDS as _ENDS
from map2route.language.parser.destination_tokens import FILLERS as _FILLERS
from map2route.language.parser.destination_tokens import Context
from map2route.language.parser.destination_tokens import head_at as _head
from map2route.language.parser.destination_tokens import opens as _opens
from map2route.language.parser.destination_tokens import sentence_end as _sentence_end
from map2route.language.parser.destination_tokens import take as _take
from map2route.language.parser.destination_tokens import tok as _tok
from map2route.language.parser.destination_tokens import words_of as _words
from map2route.language.tokens import Token


def destination_forms(toks: list[Token]) -> tuple[list[Token], Context]:
    """Rewrite the phrasings of several destinations (see the module docstring); returns the
    tokens and what was taken out as context.

    Raises:
        ParseError: the centre of a group of things ("the middle of the chairs"), or a place
            said first that is placed relative to another room of the route ("the bedroom
            after the bathroom - go there").
    """
    ctx: Context = []
    toks = [Token("you", t.start, t.end) if t.text == "u" else t for t in toks]  # typed "u"
    for step in (_sequence_words, _errand_headers, _order_tails, _via_verbs, _errand_verbs,
                 _go_there):
        toks = step(toks, ctx)
    return destination_picks(toks, ctx), ctx


# --- sequence words --------------------------------------------------------------------------
#: "where we are": the speaker and the walker start together.
_WE_START = (("where", "we", "are"), ("where", "we", "were"), ("where", "we", "started"),
             ("where", "we", "began"), ("where", "we", "are", "now"))


def _sequence_words(toks: list[Token], ctx: Context) -> list[Token]:
    """", after that living room" -> ", then living room" (a sequencer before a bare place,
    never "after that living room"); "back to where we are" -> "... where you started"; "the
    very first sink" -> "the first sink" (an intensifier of the ordinal)."""
    words = _words(toks)
    out: list[Token] = []
    i = 0
    while i < len(toks):
        w = words[i]
        if w == "after" and words[i + 1:i + 2] in (["that"], ["this"]) and \
                (i == 0 or words[i - 1] in (*_ENDS, ",", "and", ";")):
            hit = _head(words, i + 2)
            if hit is not None:
                out.append(_tok("then", toks[i], toks[i + 1]))
                i += 2
                continue
        we = next((t for t in _WE_START if tuple(words[i:i + len(t)]) == t), None)
        if we is not None and out and out[-1].text == "to":
            out += [toks[i], _tok("you", toks[i + 1]), _tok("started", toks[i + 2],
                                                             toks[i + len(we) - 1])]
            i += len(we)
            continue
        if w == "very" and out and out[-1].text == "the" and words[i + 1:i + 2] != [] and \
                (words[i + 1] in W.ORDINALS or words[i + 1] in ("last", "next") or
                 words[i + 1] in W.RANK_WORDS):
            out.append(Token(words[i + 1], toks[i].start, toks[i + 1].end))
            i += 2
            continue
        out.append(toks[i])
        i += 1
    return out


# --- errand headers and closers -------------------------------------------------------------
_LEADS = (("i", "have", "got"), ("i", "have"), ("i", "got"), ("i", "need", "you", "to", "do"),
          ("i", "need"), ("there", "is"), ("there", "are"), ("here", "are"), ("we", "have"),
          ("we", "have", "got"), ("you", "have"), ("go", "to"), ("visit",), ("run",), ("do",),
          ("i", "want", "you", "to", "do"), ("i", "want", "you", "to", "visit"))
_VAGUE = (("a", "couple", "of"), ("couple", "of"), ("couple",), ("a", "few"), ("few",),
          ("some",), ("several",), ("a", "bunch", "of"), ("a", "few", "more"))
_ERRAND_NOUNS = frozenset({"errands", "things", "places", "stops", "tasks", "jobs", "spots",
                           "errand", "destinations", "locations"})
_HEADER_TAIL = frozenset({"for", "you", "to", "do", "today", "run", "i", "want", "need", "go",
                          "visit", "please", "me", "that", "hit", "check"})


def _errand_headers(toks: list[Token], ctx: Context) -> list[Token]:
    """"I've got a couple of errands for you:" / "go to 2 places." -> context."""
    words = _words(toks)
    out: list[Token] = []
    i = 0
    while i < len(toks):
        if _opens(words, i):
            k = i
            while k < len(words) and words[k] in _FILLERS:
                k += 1
            lead = next((len(p) for p in sorted(_LEADS, key=len, reverse=True)
                         if tuple(words[k:k + len(p)]) == p), 0)
            q = k + lead
            vague = next((len(p) for p in sorted(_VAGUE, key=len, reverse=True)
                          if tuple(words[q:q + len(p)]) == p), 0)
            counted = not vague and (words[q:q + 1] != [] and
                                     (words[q] in W.NUMBERS or words[q].isdigit()))
            n = q + vague + (1 if counted else 0)
            if (vague or counted) and words[n:n + 1] != [] and words[n] in _ERRAND_NOUNS:
                e = n + 1
                while e < len(words) and words[e] in _HEADER_TAIL:
                    e += 1
                sep = words[e] if e < len(words) else ""
                # a count with ":" opens a numbered list the list rules read themselves
                if sep in (",", ".", "-") or sep == ":" and vague:
                    _take(toks, i, e + 1, ctx)
                    i = e + 1
                    continue
        out.append(toks[i])
        i += 1
    return out


#: Tails that say the order again ("..., in that order please").
_ORDER_TAILS = (("in", "that", "order"), ("in", "this", "order"), ("in", "that", "sequence"),
                ("in", "this", "sequence"), ("in", "the", "order", "given"))
#: Sentence closers that add no stop ("first kitchen. then living room. then done").
_CLOSERS = (("then", "done"), ("and", "done"), ("done",), ("then", "finished"), ("finished",))


def _order_tails(toks: list[Token], ctx: Context) -> list[Token]:
    """", in that order (please)", ", kitchen first" (already the first stop) and "then
    done" -> context."""
    words = _words(toks)
    out: list[Token] = []
    i = 0
    while i < len(toks):
        end = _sentence_end(words, i)
        tail = next((t for t in _ORDER_TAILS if tuple(words[i:i + len(t)]) == t), None)
        if tail is not None and out and out[-1].text in (",", "-") and \
                all(w in ("please", ",") for w in words[i + len(tail):end]):
            _take(toks, i, end, ctx)
            out.pop()
            i = end
            continue
        if _opens(words, i) and any(tuple(words[i:end]) == c for c in _CLOSERS) and i > 0:
            _take(toks, i, end + 1, ctx)
            i = end + 1
            continue
        if words[i] == "," and i + 1 < end:
            k = i + 1 + (words[i + 1] == "the")
            hit = _head(words, k)
            f = k + hit[0] + 1 if hit is not None else end
            if hit is not None and words[f - 1:f] == ["first"] and \
                    all(w in ("please", ",") for w in words[f:end]) and \
                    _first_head(words, i) == hit[1]:
                _take(toks, i, end, ctx)
                i = end
                continue
        out.append(toks[i])
        i += 1
    return out


def _first_head(words: list[str], k: int) -> str | None:
    """The first head said in the sentence before ``k``."""
    s = k
    while s > 0 and words[s - 1] not in _ENDS:
        s -= 1
    for n in range(s, k):
        hit = _head(words, n)
        if hit is not None:
            return hit[1]
    return None


# --- vias and errand verbs ------------------------------------------------------------------
#: Verbs of going that make a via with "past" / "by" / "through" ("swing past the TV").
_VIA_VERBS = frozenset({"swing", "drive", "nip", "pop", "roll", "zip", "cruise", "scoot",
                        "cut", "duck", "zoom", "go", "wander", "stroll"})
_NO_STOP = (("without", "stopping"), ("do", "not", "stop"), ("but", "do", "not", "stop"),
            ("no", "need", "to", "stop"), ("without", "stopping", "there"),
            ("do", "not", "stop", "there"), ("but", "do", "not", "stop", "there"),
            ("stopping", "nowhere"), ("without", "stopping", "anywhere"),
            ("not", "stopping", "anywhere"), ("do", "not", "stop", "anywhere"))
#: Words that make a sentence hold a via ("go past the TV on your way").
_VIA_WORDS = frozenset({"past", "pass", "passing", "through", "via"})


#: Verbs whose "by" is passing, never a stop ("drive by the fridge").
_DRIVE_BY = frozenset({"drive", "roll", "cruise", "zoom", "zip"})


def _no_stop_after(words: list[str], i: int) -> bool:
    """Whether "without stopping" / "don't stop" follows ``i`` in its sentence."""
    end = _sentence_end(words, i)
    return any(tuple(words[n:n + len(s)]) == s for n in range(i, end) for s in _NO_STOP)


def _via_verbs(toks: list[Token], ctx: Context) -> list[Token]:
    """"swing past / drive by / cut through X" -> "pass / pass through X"; "without stopping"
    after such a via -> context."""
    words = _words(toks)
    out: list[Token] = []
    i = 0
    via_end = -1
    while i < len(toks):
        w = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        det = words[i + 2] if i + 2 < len(words) else ""
        verb = w in _VIA_VERBS and not (w == "go" and nxt != "by")
        if verb and nxt in ("past", "by", "through") and det in ("the", "a", "your", "that"):
            if w in ("go", "cut", "duck") and nxt == "past":
                verb = False  # "go past", read as it is
            if nxt == "by" and w not in _DRIVE_BY and not _no_stop_after(words, i):
                verb = False  # "swing by the fridge": a stop, unless said without stopping
            if verb:
                via_end = _sentence_end(words, i)
                if nxt == "through":  # "through the kitchen" is read on below
                    out.append(_tok("pass", toks[i]))
                    i += 1
                    continue
                out.append(_tok("pass", toks[i], toks[i + 1]))
                i += 2
                continue
        stop = next((s for s in sorted(_NO_STOP, key=len, reverse=True)
                     if tuple(words[i:i + len(s)]) == s), None)
        if stop is not None and (i < via_end or _VIA_WORDS & set(
                words[i:_sentence_end(words, i)])):
            b = i + len(stop)
            _take(toks, i, b, ctx)
            if out and out[-1].text == "," and words[b:b + 1] == [","]:
                b += 1
                b += words[b:b + 1] == ["but"]  # "X, stopping nowhere, but go past Y"
            i = b
            continue
        out.append(toks[i])
        i += 1
    return out


def _errand_verbs(toks: list[Token], ctx: Context) -> list[Token]:
    """"do the kitchen first", "take a trip to the sofa" -> "go to ..."."""
    words = _words(toks)
    out: list[Token] = []
    i = 0
    while i < len(toks):
        clause = i == 0 or words[i - 1] in (*_ENDS, ",", "and", "then", ";", ":")
        if clause and words[i] == "do" and words[i + 1:i + 2] == ["the"] and \
                _head(words, i + 2) is not None:
            out += [_tok("go", toks[i]), _tok("to", toks[i])]
            i += 1
            continue
        if words[i] in ("take", "make") and words[i + 1:i + 4] in (["a", "trip", "to"],
                                                                 ["a", "run", "to"]):
            out += [_tok("go", toks[i], toks[i + 2]), toks[i + 3]]
            i += 4
            continue
        out.append(toks[i])
        i += 1
    return out


# --- a place said first, then "go there" ------------------------------------------------------
_THERE_TAILS = (("go", "there"), ("go", "there", "please"), ("head", "there"),
                ("that", "is", "where", "i", "want", "you"),
                ("that", "is", "where", "i", "want", "you", "to", "go"),
                ("that", "is", "where", "i", "want", "you", "to", "be"),
                ("that", "is", "where", "you", "should", "go"), ("go", "to", "it"),
                ("is", "where", "you", "should", "go"), ("is", "where", "i", "want", "you"),
                ("is", "where", "i", "want", "you", "to", "go"), ("is", "where", "to", "go"),
                ("is", "where", "you", "are", "going"), ("is", "where", "you", "go"))
_PICK = ("pick", "choose", "select")


def _said_before(words: list[str], i: int, body: list[str]) -> bool:
    """Whether the head of ``body`` was said before ``i`` ("Go to the toilet. The toilet is
    where I want you.": a restatement, read as context elsewhere)."""
    hit = next((h for n in range(len(body)) if (h := _head(body, n)) is not None), None)
    return hit is not None and any((_head(words, n) or (0, ""))[1] == hit[1]
                                   for n in range(i))


def _go_there(toks: list[Token], ctx: Context) -> list[Token]:
    """"the second bedroom on your way, go there" / "pick either of the sofas and go there" ->
    "go to ..."."""
    words = _words(toks)
    out: list[Token] = []
    i = 0
    while i < len(toks):
        end = _sentence_end(words, i)
        start = i
        while start < end and words[start] in _FILLERS:
            start += 1
        pick = words[start] in _PICK if start < end else False
        np = start + pick
        if _opens(words, i) and np < end and (words[np] in ("the", "either", "one") or
                                              words[np] in W.ORDINALS):
            tail = next((t for t in sorted(_THERE_TAILS, key=len, reverse=True)
                         if tuple(words[end - len(t):end]) == t), None)
            if tail is not None:
                cut = end - len(tail)
                sep = cut - 1 if tail[0] != "is" else cut  # "the first bathroom is where ..."
                bw = words[np:sep]
                if sep > np and words[sep] in (",", "-", "and", "is") and \
                        not {",", "is", "are", "but", "and"} & set(bw) and \
                        not _said_before(words, i, bw):  # one new place only
                    body = toks[np:sep]
                    for n in range(len(bw) - 1):
                        if bw[n] in ("after", "before") and bw[n + 1] == "the" and \
                                _head(bw, n + 2) is not None and _head(bw, 1) is not None:
                            text = " ".join(bw)
                            msg = (f"did not understand the route-order reference {text!r}: "
                                   "it is placed relative to another place of the route, "
                                   "which the offline parser does not read; name the place by "
                                   "what is near it or in it, or use the hybrid or llm "
                                   "grounder")
                            raise ParseError(msg, text, (body[0].start, body[-1].end))
                    _take(toks, i, np, ctx)
                    out += [_tok("go", toks[sep], toks[end - 1]),
                            _tok("to", toks[sep], toks[end - 1]), *body]
                    i = end
                    continue
        out.append(toks[i])
        i += 1
    return out
