"""Spoken boundaries: the full stops a transcribed request leaves out, put back by word class.

People speaking to the robot (and speech recognition writing them down) run request, rule
and reason together with no punctuation: "go park by the dog bed um just dont go in the kitchen
on your way the floor is still wet from the mop", "keep away from the box i keep tripping on
it", "stay away from the dog bed shes asleep", and number a spoken list with words: "one go to
the fridge. two the toilet. three come back to me". The later stages read each of these when a
writer's full stop parts them ("... living room. Don't go in the kitchen on your way. The floor
is still wet."; "1. go to the fridge. 2. the toilet"). This pre-pass puts that mark back where
a clause ends, found by what follows it, never by a list of sentences:

* a filler ("um", "uh", "like", "yeah", ...) after a word that may end a clause, followed
  (past more fillers and "just") by a request verb or a negated rule ("dont go", "never");
* a reason opener after a word that may end a clause: "there is" (typed "theres"), a
  pronoun subject ("shes", "they are"), "I" with a verb of saying/habit ("i think", "i keep",
  "i literally"), or a subject noun phrase with "is"/"are" ("the floor is", "the chairs are");
* a number word that opens a sentence ("one go to ...", "two the toilet ...") and the next
  number words of the same count, each before a request verb or an article: "1." etc.

Only a sentence with no comma is read this way: a writer who types commas types the stops.
Hand-written for the same reason as :mod:`.normalise`.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.tokens import Token

_ENDS = (".", "!", "?", ";")
#: Verbs that open an imperative request or rule (base forms).
_REQUESTS = frozenset({
    "go", "walk", "head", "move", "come", "drive", "navigate", "proceed", "visit", "find",
    "return", "stop", "wait", "pass", "cross", "enter", "leave", "exit", "continue",
    "avoid", "keep", "stay", "steer", "give", "never", "swing", "park"})
#: Words after which the next word cannot open a new clause (it is bound to them).
_BOUND = frozenset({
    "you", "i", "we", "to", "that", "which", "who", "and", "or", "but", "can", "could",
    "will", "would", "not", "the", "a", "an", "this", "these", "those", "your", "my", "its",
    "where", "should", "must", "may", "might", "do", "did", "does", "is", "are", "was",
    "were", "be", "of", "in", "on", "at", "by", "from", "with", "near", "into", "onto",
    "past", "through", "between", "around", "round", "over", "under", "behind", "beside",
    "for", "if", "when", "while", "as", "than", "then", "so", "just", "also", "please",
    "what", "how", "because", "cause", "since", "until", "till", "like", "one",
    "two", "three", "four", "five", "first", "second", "third", "last", "next", "other",
    "whether", "wherever", "whatever", "whichever", "check", "see", "look", "sure", "along",
    "think", "guess", "reckon", "know", "hope", "bet", "said", "says",
    *W.FILLER_WORDS})
#: Pronoun subjects that open a reason ("shes asleep", "they tip over").
_PRONOUNS = frozenset({"shes", "hes", "she", "he", "they", "theyre"})
#: What "I" says when it opens a reason rather than a relative clause ("the chair i sit on").
_I_VERBS = frozenset({"think", "keep", "literally", "guess", "reckon"})
_BE = ("is", "are", "was", "were")
#: Clause openers a filler may stand before ("and um when you get there ...").
_OPENERS = ("when", "while", "until", "till", "once", "whenever")
#: How "I am" goes on when it says where the speaker is ("im on the couch").
_PLACED = ("on", "in", "at", "by", "next", "near", "sitting", "standing", "lying")
_NUMBERS = ("one", "two", "three", "four", "five", "six")
_ARTICLES = ("the", "a", "an", "my", "that")


def _opens_request(words: list[str], k: int) -> bool:
    """Whether a request or a negated rule starts at ``k`` (past "just")."""
    while k < len(words) and words[k] in ("just", "so", "now"):
        k += 1
    if k >= len(words):
        return False
    if words[k] == "do" and k + 1 < len(words) and words[k + 1] == "not":
        return True
    return words[k] in _REQUESTS


def _subject_be(words: list[str], k: int) -> bool:
    """"the floor is", "the chairs are", "the floor round it is": an article, up to three
    words with no bound word among them, then a form of "be"."""
    if words[k] != "the":
        return False
    for n in range(k + 2, min(k + 6, len(words))):
        if words[n] in _BE:  # and a state follows: "is still wet", not "is on", "is ."
            return n + 1 < len(words) and words[n + 1].isalpha() and \
                words[n + 1] not in _BOUND
        if words[n] in _BOUND and words[n] not in ("round", "around") or words[n] in _ENDS:
            return False
    return False


def _reason_at(words: list[str], k: int) -> bool:
    """Whether a reason (or the speaker's place) is said from ``k`` on."""
    w = words[k]
    nxt = words[k + 1] if k + 1 < len(words) else ""
    if w == "there" and nxt == "is":
        return True
    if w in _PRONOUNS and nxt not in ("", *_ENDS):
        return True
    if w == "i" and nxt in _I_VERBS:
        return True
    if w == "i" and nxt == "am" and k + 2 < len(words) and words[k + 2] in _PLACED:
        return True
    return _subject_be(words, k)


def _ends_clause(words: list[str], k: int) -> bool:
    """Whether a clause may end right before ``k``: a word not bound to what follows."""
    return k > 0 and words[k - 1] not in _BOUND and words[k - 1].isalnum()


def _numbered(words: list[str], a: int, b: int, marks: dict[int, str]) -> None:
    """"one go to the fridge two the toilet": number words in order, each opening a clause."""
    i = a
    while i < b and words[i] in ("ok", "okay", "so", "and", "right", "alright"):
        i += 1
    if i >= b or words[i] not in _NUMBERS:
        return
    first = _NUMBERS.index(words[i])
    nxt = words[i + 1] if i + 1 < b else ""
    if nxt not in _REQUESTS and nxt not in _ARTICLES and not _opens_request(words, i + 1):
        return
    marks[i] = "#" + str(first + 1)
    want = first + 1
    for k in range(i + 2, b - 1):
        if want < len(_NUMBERS) and words[k] == _NUMBERS[want] and _ends_clause(words, k) and (
                words[k + 1] in _REQUESTS or words[k + 1] in _ARTICLES[:3]
                or _opens_request(words, k + 1)):
            marks[k] = "#" + str(want + 1)
            want += 1


def _clause_marks(words: list[str], a: int, b: int, marks: dict[int, str],
                  drop: set[int]) -> None:
    """The stops of one unpunctuated sentence ``words[a:b]``: "." before a filler that parts
    two requests or a reason said as its own sentence, "," before "theres ..." and
    "i keep ...", which the reason readers take after a comma."""
    for k in range(a + 2, b):
        if k in marks or k - 1 in drop:
            continue
        w = words[k]
        if w in W.FILLER_WORDS:
            j = k
            while j < b and words[j] in W.FILLER_WORDS:
                j += 1
            if words[k - 1] == "and" and _ends_clause(words, k - 1) and (
                    j < b and words[j] in _OPENERS or _opens_request(words, j)):
                # "... everywhere and um when you get in", "to me and like until you get"
                marks[k - 1] = "."
                drop.update(range(k, j))
            elif _ends_clause(words, k) and _opens_request(words, j) and (
                    w != "like" or j > k + 1 or words[j] != "like"):
                marks[k] = "."
        elif _ends_clause(words, k) and _reason_at(words, k):
            # "theres food all over it", "i keep X": the reason readers take these after a
            # comma; "theres a candle on it" (an article) names a thing: its own sentence
            after = words[k + 2] if k + 2 < b else ""
            comma = w == "there" and after not in _ARTICLES or w == "i" and words[k + 1] != "am"
            marks[k] = "," if comma else "."


def spoken_boundaries(toks: list[Token]) -> list[Token]:
    """Put back the full stops of a spoken run-on and number a spoken list (see the module
    docstring); other tokens are kept as they are."""
    words = [t.text for t in toks]
    marks: dict[int, str] = {}  # token index -> "." or "," before it, or "#N": it is item N
    drop: set[int] = set()
    a = 0
    while a < len(words):
        b = a
        while b < len(words) and words[b] not in _ENDS:
            b += 1
        _numbered(words, a, b, marks)
        if "," not in words[a:b]:
            _clause_marks(words, a, b, marks, drop)
        a = b + 1
    if not marks:
        return toks
    out: list[Token] = []
    for n, t in enumerate(toks):
        m = marks.get(n)
        if n in drop:
            continue
        if m is None:
            out.append(t)
        elif m in (".", ","):
            out.extend([Token(m, t.start, t.start), t])
        else:
            if n and words[n - 1] not in _ENDS:
                out.append(Token(".", t.start, t.start))
            out.extend([Token(m[1:], t.start, t.end), Token(".", t.end, t.end)])
    return out
