"""Why-clauses of finding something out, and a return to the speaker at a named place.

Run first in :func:`.human.human_forms`, on the tokens as typed. The phrasings, each a class:

* a complement of finding out, said after (or beside) the request: "I want to see whether the
  light reaches", "need to know if it's blocked again", "(and) see whether I left the seat
  up", "have a look if the remote's there", "want to see on the cam if it's the cracked one".
  A verb of finding out (see, check, know, find out, have / take a look, tell me) followed by
  "whether" / "if" says what the walker is sent to learn, not where to go: the clause is taken
  out of the route and reported as context (the things it names are reported too), never
  dropped. "if" after any other word (a condition on the route) is left alone;
* an "on the way" scope run straight into its clause: "on the way to the dog bed stop at
  the plant", "on the way walk past the table", "on the way to the second one keep away from
  the bin" (the list's second stop), "on the way back keep away from the tv stand" -> "on the way to the dog bed ,
  stop at the plant": the comma the scope readers expect, put where the clause's verb starts;
* a room scope run into its request by "please": "while you're still in the kitchen please
  stay away from the table" -> "... kitchen , please stay away ...";
* a return to the speaker who names where they are: "come back here to me at the table",
  "then back to me by the desk", "come straight back here to the counter", "back to me here
  at the desk" -> "back to the table": the named place is the stop (the
  speaker is there), not a stop at the start and another at the place; so is "come back to
  the sofa where you are now", "return to the front door where you started": the "where you
  are" tail says the named place is the start, and is reported as context.

Hand-written, like the rest of the parser: the verbs are a closed class, each rewrite keeps
the character spans of what it read, and a form that does not match exactly is left to the
later stages to read or refuse.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.destination_tokens import tok
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["finding_out"]

_ENDS = (".", "!", "?", ";")
#: Verbs of finding out (as word sequences), before "whether" / "if".
_FIND_OUT: tuple[tuple[str, ...], ...] = tuple(tuple(p.split()) for p in (
    "find out", "have a look", "have a quick look", "take a look", "take a quick look",
    "tell me", "let me know", "see", "check", "know", "look", "figure out", "work out"))
#: What may stand between such a verb and "whether" ("see on the cam if").
_BETWEEN = frozenset({"on", "the", "cam", "camera", "for", "me", "us", "my", "your", "ur",
                      "and"})
#: What may open the clause before the verb ("I want to", "need to", "just", "and").
_OPENERS: tuple[tuple[str, ...], ...] = tuple(tuple(p.split()) for p in (
    "i want to", "i need to", "i would like to", "i'd like to", "i wanna", "we want to",
    "we need to", "want to", "need to", "wanna", "would like to", "i have to", "have to",
    "so i can", "so that i can", "so we can", "i can", "to"))
#: What closes the clause after a ",": the request going on.
_GOES_ON = frozenset({"then", "would", "could", "please", "pls", "plz", "thx", "thanks",
                      "ok", "okay", "and", "but"})
_ME = frozenset({"me", "us"})
_AT = frozenset({"at", "by", "on", "in", "beside", "near"})
_HERE = ("here", "over")
#: Words before a noun ("the second stop", "a quick visit"): the verb class read as a noun.
_NOUN_LEAD = frozenset({"the", "a", "an", "second", "first", "third", "last", "next", "final",
                        "that", "this", "your", "my", "one", "quick", "short", "other"})
#: Imperative verbs that open the clause an "on the way ..." scope is run into.
_SCOPED_VERBS = frozenset({"stop", "wait", "keep", "stay", "stick", "avoid", "hug", "pop",
                           "swing", "pause", "park", "give", "steer", "do", "don't", "never",
                           "try", "remain", "make", "pass", "go", "visit", "check", "take",
                           "mind"})



def _seq_at(words: list[str], k: int, seqs: tuple[tuple[str, ...], ...]) -> int:
    """Length of the longest of ``seqs`` at ``k`` (0 if none)."""
    best = 0
    for s in seqs:
        if tuple(words[k:k + len(s)]) == s:
            best = max(best, len(s))
    return best


def _check_at(words: list[str], k: int) -> int | None:
    """Index just past "whether" / "if" when a finding-out clause opens at ``k``."""
    j = k + (words[k] == "just")
    lead = _seq_at(words, j, _OPENERS)
    j += lead
    n = _seq_at(words, j, _FIND_OUT)
    if not n or not lead and (not k or words[k - 1] in _ENDS):
        return None  # "Check whether the TV is on.": the request itself (a state check)
    j += n
    m = j
    while m < len(words) and m - j < 4 and words[m] in _BETWEEN:
        m += 1
    return m + 1 if m < len(words) and words[m] in ("whether", "if") else None


def _clause_end(words: list[str], j: int) -> int:
    """Index where the finding-out clause started before ``j`` ends."""
    while j < len(words):
        w = words[j]
        if w in _ENDS or w == "then":
            return j
        if w == "," and j + 1 < len(words) and (words[j + 1] in _GOES_ON or
                                                words[j + 1] in W.MOVE_VERBS):
            return j
        j += 1
    return j


def _branches(words: list[str], j: int) -> bool:
    """Whether the sentence from ``j`` on branches on what is found ("...: if it does, go to
    that bed, if not, ..."): the check is a condition of the route, read by the parser."""
    end = next((q for q in range(j, len(words)) if words[q] in _ENDS), len(words))
    rest = words[j:end]
    return ":" in rest or bool({"if", "otherwise", "else", "unless"} & set(rest[1:]))


def _checks(toks: list[Token], context: list[tuple[str, tuple[int, int]]]) -> list[Token]:
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        prev = words[k - 1] if k else ""
        opens = not prev or prev in (*_ENDS, ",", "and", "n", "&", "(")
        past = _check_at(words, k) if opens else None
        if past is None or past >= len(toks) or words[past] in _ENDS:
            out.append(toks[k])
            k += 1
            continue
        end = _clause_end(words, past)
        if _branches(words, past):
            out.append(toks[k])  # "check whether X has a Y: if it does, ...": a condition
            k += 1
            continue
        if out and out[-1].text in ("and", "n", "&"):
            out.pop()  # "... and see whether ...": the "and" joined the clause
        a, b = toks[k].start, toks[end - 1].end
        context.append((" ".join(words[k:end]), (a, b)))
        k = end
    return out


def _back_to_me_at(toks: list[Token]) -> list[Token]:
    """"back (here) to me at the table", "back here to the counter", "back to me here at the
    desk", "back over here to the sofa" -> "back to the table": "here" or "to me" then a
    place said with "to" or a word of place."""
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    lex = head_lexicon()
    while k < len(toks):
        if words[k] != "back":
            out.append(toks[k])
            k += 1
            continue
        j = k + 1
        said = False  # "here" or "me" said: the place named next is where the speaker is
        while j < len(words) and j - k < 5:
            if words[j] in _HERE:
                said = said or words[j] == "here"
                j += 1
            elif words[j] == "to" and j + 1 < len(words) and words[j + 1] in _ME:
                said, j = True, j + 2
            else:
                break
        det = j + 1
        ok = (said and det < len(words) and words[j] in (*_AT, "to") and
              words[det] in ("the", "my", "our"))
        if ok and lex.match(words[det + 1:det + 1 + lex.max_len]) is not None:
            out += [toks[k], tok("to", toks[j]), tok("the", toks[det])]
            k = det + 1
            continue
        out.append(toks[k])
        k += 1
    return out


#: Verbs of moving that open the clause an "on the way" scope is run into ("on the way walk
#: past the table"), besides :data:`_SCOPED_VERBS`.
_WAY_MOVES = frozenset({"walk", "drive", "head", "cut", "roll", "nip", "duck", "wander"})
_ORDINALS = frozenset({"first", "second", "third", "fourth", "fifth", "last", "next", "final"})


def _way_comma(toks: list[Token]) -> list[Token]:
    """"on the way to the bed stop at ..." -> "on the way to the bed , stop at ...";
    "on the way walk past X" -> "on the way , walk past X"; "on the way to the second one"
    -> "on the way to the second stop" (the list's stop, said with "one")."""
    toks = list(toks)
    for k in range(len(toks) - 6):
        if [t.text for t in toks[k:k + 5]] == ["on", "the", "way", "to", "the"] and \
                toks[k + 5].text in _ORDINALS and toks[k + 6].text == "one":
            toks[k + 6] = tok("stop", toks[k + 6])
    words = [t.text for t in toks]
    cut: set[int] = set()
    for k in range(len(words) - 3):
        if words[k] not in ("on", "along") or words[k + 1:k + 3] != ["the", "way"]:
            continue
        j = k + 3
        if j < len(words) and words[j] in ("back", "there", "home"):
            j += 1
        elif j < len(words) and words[j] == "to":
            j += 1
            while j < len(words) and j - k < 10 and (words[j] not in _SCOPED_VERBS or
                                                     words[j - 1] in _NOUN_LEAD) and \
                    words[j] not in (*_ENDS, ","):
                j += 1
        if j < len(words) and (words[j] in _SCOPED_VERBS or words[j] in _WAY_MOVES and
                               j == k + 3) and words[j - 1] not in _NOUN_LEAD and \
                words[j - 1] != ",":
            cut.add(j)
    out: list[Token] = []
    for k, t in enumerate(toks):
        if k in cut:
            out.append(tok(",", t))
        out.append(t)
    return out


#: Openers of a room scope run into its request with "please" ("while you're in the
#: kitchen please keep away from ...") and the words that say it is a room being crossed.
_SCOPE_OPENERS = frozenset({"while", "whilst", "when", "whenever", "once"})
_SCOPE_PLACE = frozenset({"in", "through", "crossing", "across", "inside", "thru"})


def _scope_please_comma(toks: list[Token]) -> list[Token]:
    """"while you're (still) in the kitchen please keep away from X" -> "while you're (still)
    in the kitchen , please keep away from X": the comma the scope readers expect, before the
    "please" that opens the request (a clause that crosses a room, nothing else)."""
    words = [t.text for t in toks]
    cut: set[int] = set()
    for k, w in enumerate(words):
        if w not in _SCOPE_OPENERS:
            continue
        for j in range(k + 1, min(len(words) - 1, k + 10)):
            if words[j] in (*_ENDS, ",", "and", "then"):
                break
            if words[j] == "please" and words[j + 1] in _SCOPED_VERBS:
                if _SCOPE_PLACE & set(words[k + 1:j]):
                    cut.add(j)
                break
    return [t2 for k, t in enumerate(toks) for t2 in ((tok(",", t), t) if k in cut else (t,))]


#: The tail of a return target that says it is the start ("where you are now").
_WHERE_YOU = frozenset({"are", "were", "started", "began", "begin", "start", "stand",
                        "standing", "now", "right", "currently", "from", "at", "stood"})


#: The speaker's own place said after the thing a return goes to ("the fridge where I'm
#: standing", "the counter where I am"): the speaker is there, so the tail is context.
_SPEAKER_HERE = frozenset({"sitting", "sat", "standing", "stood", "waiting", "lying", "at",
                           "now", "right", "currently"})


def _speaker_here(words: list[str], k: int) -> int:
    """1 for "where I am" / "where I'm standing" at ``k`` (one word longer than "where you
    are"), else 0."""
    return int(words[k:k + 3] in (["where", "i", "am"], ["where", "i", "'m"]) and
               (k + 3 >= len(words) or words[k + 3] in _SPEAKER_HERE or
                not words[k + 3].isalpha()))


def _where_you_are(toks: list[Token], context: list[tuple[str, tuple[int, int]]]
                   ) -> list[Token]:
    """"back to the sofa where you are now" -> "back to the sofa" (the tail is context)."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    out: list[Token] = []
    k = 0
    while k < len(toks):
        speaker = _speaker_here(words, k)
        if speaker or words[k] == "where" and k + 2 < len(words) and words[k + 1] in ("you", "u") \
                and words[k + 2] in _WHERE_YOU:
            # the speaker's place is the stop whatever the verb ("come over to the fridge
            # where I'm standing"); "where you are" only after a return
            goes = ("back", "return", "to") if speaker else ("back", "return")
            back = [n for n in range(max(0, k - 8), k) if words[n] in goes]
            named = back and any(lex.match(words[n:n + lex.max_len]) is not None
                                 for n in range(back[-1], k))
            if named:
                j = k + 2 + speaker
                while j < len(words) and (words[j] in _WHERE_YOU or
                                          speaker and words[j] in _SPEAKER_HERE):
                    j += 1
                context.append((" ".join(words[k:j]), (toks[k].start, toks[j - 1].end)))
                k = j
                continue
        out.append(toks[k])
        k += 1
    return out


def finding_out(toks: list[Token]) -> tuple[list[Token], list[tuple[str, tuple[int, int]]]]:
    """Rewrite the phrasings of the module docstring; returns the tokens and what was taken
    out as context (text and character span)."""
    context: list[tuple[str, tuple[int, int]]] = []
    toks = _where_you_are(_back_to_me_at(_checks(toks, context)), context)
    return _scope_please_comma(_way_comma(toks)), context
