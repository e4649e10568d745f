"""Scope clauses composed from parts the scope rules already read, put into one plain form.

A rule that holds only while the robot is somewhere or doing something is said as an
introducer, a subject with its helper verb, a motion or place phrase and its object, in any
combination: "while you're on your way to the fridge", "each time you are crossing the
kitchen", "when you'll be passing through the lounge", "the moment you get into the bedroom",
"whenever going through the bathroom", "crossing the kitchen, ...", "any time you're coming
back from your first stop", "once you're heading to that second one". The scope rules
(:mod:`.scopes` and the lexicon's scope lists, :mod:`.event_scopes`, :mod:`.leg_scopes`,
:mod:`.anaphoric_scopes`) each read a listed few of these combinations; a writer who crosses
the parts differently was refused. :func:`scope_leads` takes the parts apart and writes the
plain form those rules read, whatever the combination:

* introducer: "while", "whilst", "when", "as", "whenever", "each / every / any time" (the
  time in the place), or "once", "the moment", "as soon as" (from then on), or none at the
  start of a sentence before a bare participle ("Crossing the kitchen, ...");
* subject and helper: "you're / you are / you'll be / you will be", "you", "you get", none;
* the phrase, by what it scopes: being in a room ("in", "inside", "into") -> "while in R"
  ("once in R"); passing through it ("crossing", "cutting / going / walking / passing
  through") -> "while going through R"; a leg to a stop ("on your way to", "heading / going
  to", "headed for") -> "on the way to X" ("... there" -> "on the way there"); a leg back
  from a stop ("coming back from", "on your way back from") -> "on the way back from X";
  the way back ("on your way back", "coming back") -> "on the way back"; leaving a room
  ("leaving", "coming / getting out of") -> "as you leave R" / "as you come out of R" ("once
  you leave R" after a from-then-on introducer);
* a stop named by its order after a leg phrase: "that second one", "your first stop", "the
  last one" -> "the second stop", "the first stop", "the last one" (the plain forms read).

A scope said after its rule ("keep away from the TV each time you're crossing the kitchen") is
moved before it, with a comma, the order the scope rules read best; there a stop named by its
order ("... while you're going to your first stop") is refused naming the scope, as the plain
form after a rule is read as another leg downstream. A comma is put after a scope that runs
into a negated rule ("and once you leave the R don't go near X"), which otherwise opens a new
request.

Each is rewritten only where a rule goes with it in the same sentence (a rule word opens the
words after it, or the sentence started with a rule and the scope ends it), so "when you go
to the fridge, open it" is left as it was. A combination already in its plain form is left
alone, so the modules that read those keep reading them as before. Tokens are replaced by
tokens that keep the character spans of the words they stand for, so a later refusal still
points into the original text and no word is dropped unseen. The word lists are closed and
small, so this is written by hand like the rest of the parser.
"""

from __future__ import annotations

from map2route.language.errors import ParseError
from map2route.language.parser import words as W
from map2route.language.parser.anaphoric_scopes import _room_at
from map2route.language.parser.rule_scan import scan_appending
from map2route.language.tokens import Token

__all__ = ["scope_leads"]

_ENDS = frozenset({".", "!", "?", ";"})
_OPEN = frozenset({*_ENDS, ",", "and", "but", "then", "so", "also", "oh", "just", "plus",
                   "-", ":", "("})
#: Introducers: the time in the place (durative) or from then on (punctual).
_DURATIVE = (("while",), ("whilst",), ("when",), ("as",), ("whenever",), ("each", "time"),
             ("every", "time"), ("any", "time"))
_PUNCTUAL = (("once",), ("the", "moment"), ("as", "soon", "as"))
#: Subject and helper: (words, form the phrase takes after them).
_SUBJECTS = ((("you", "are"), "be"), (("you", "will", "be"), "be"), (("u", "are"), "be"),
             (("you", "get"), "get"), (("u", "get"), "get"), (("you",), "fin"),
             (("u",), "fin"))
_THRU = ("through", "thru")
#: Phrases by form ("be": participle or place phrase; "fin": finite verb; "get": after
#: "you get"), each with what it scopes. Longest first within a kind is not needed: the
#: longest match wins.
_PHRASES: dict[str, tuple[tuple[tuple[str, ...], str], ...]] = {
    "be": (
        (("in",), "in"), (("inside",), "in"),
        *(((v, t), "through") for v in ("passing", "going", "cutting", "walking", "moving",
                                        "coming", "driving", "rolling") for t in _THRU),
        (("crossing",), "through"),
        (("on", "your", "way", "to"), "to"), (("on", "the", "way", "to"), "to"),
        (("heading", "to"), "to"), (("going", "to"), "to"), (("headed", "to"), "to"),
        (("heading", "for"), "to"), (("headed", "for"), "to"),
        (("making", "your", "way", "to"), "to"),
        (("on", "your", "way", "there"), "there"), (("on", "the", "way", "there"), "there"),
        (("heading", "there"), "there"), (("going", "there"), "there"),
        (("coming", "back", "from"), "from"), (("heading", "back", "from"), "from"),
        (("on", "your", "way", "back", "from"), "from"),
        (("on", "the", "way", "back", "from"), "from"),
        (("on", "your", "way", "back"), "back"), (("on", "the", "way", "back"), "back"),
        (("coming", "back"), "back"), (("heading", "back"), "back"),
        (("leaving",), "leave"), (("coming", "out", "of"), "come_out"),
        (("getting", "out", "of"), "come_out"), (("exiting",), "leave")),
    "fin": (
        *(((v, t), "through") for v in ("pass", "go", "cut", "walk", "move", "come", "drive",
                                        "roll") for t in _THRU),
        (("cross",), "through"),
        (("head", "to"), "to"), (("go", "to"), "to"), (("head", "for"), "to"),
        (("make", "your", "way", "to"), "to"),
        (("head", "there"), "there"), (("go", "there"), "there"),
        (("come", "back", "from"), "from"), (("head", "back", "from"), "from"),
        (("come", "back"), "back"), (("head", "back"), "back"),
        (("leave",), "leave"), (("exit",), "leave"), (("come", "out", "of"), "come_out")),
    "get": (
        (("into",), "in"), (("in", "to"), "in"), (("inside",), "in"),
        (("back", "from"), "from"), (("out", "of"), "come_out")),
}
#: Bare participles that may open a sentence with no introducer ("Crossing the kitchen, ...").
_BARE_START = frozenset({"crossing", "passing", "going", "cutting", "walking", "heading",
                         "coming", "leaving", "moving", "on"})
#: Words that open a rule.
_RULE = frozenset({"keep", "stay", "avoid", "give", "steer", "do", "don't", "dont", "never",
                   "try", "mind", "hug", "stick", "please", "pls", "remain", "leave"})
#: Words that open a reason after a rule and its scope ("... cause the chairs are out").
_REASONS = frozenset({"because", "cause", "'cause", "cos", "coz", "cuz", "since"})
_ORD = frozenset({"first", "second", "third", "fourth", "fifth"})
_LAST = frozenset({"last", "final"})
_DETS = frozenset({"the", "that", "this", "your"})
#: Leads the lexicon lists already ("when you leave" is read as after the room).
_LISTED = frozenset(W.SPATIAL + W.TEMPORAL + W.AFTER + W.ON_THE_WAY)


def _seq(words: list[str], k: int, seqs: tuple[tuple[str, ...], ...]) -> int:
    return max((len(s) for s in seqs if tuple(words[k:k + len(s)]) == s), default=0)


def _phrase(words: list[str], k: int, form: str) -> tuple[int, str]:
    best = (0, "")
    for seq, what in _PHRASES[form]:
        if tuple(words[k:k + len(seq)]) == seq and len(seq) > best[0]:
            best = (len(seq), what)
    return best


def _sentence_end(words: list[str], k: int) -> int:
    while k < len(words) and words[k] not in _ENDS:
        k += 1
    return k


def _rule_after(words: list[str], k: int) -> bool:
    """A rule opens the words after ``k`` in the sentence (after its object, an optional
    comma or "then")."""
    b = k
    while b < len(words) and b < k + 12 and words[b] not in _ENDS:
        if words[b] in _RULE and (words[b - 1] in (",", "then") or b - k <= 8):
            return True
        b += 1
    return False


def _rule_before(words: list[str], i: int, end: int) -> bool:
    """The sentence opened with a rule before ``i`` and the scope runs to its end."""
    a = i - 1
    while a >= 0 and words[a] not in _ENDS:
        a -= 1
    return a + 1 < i and words[a + 1] in _RULE and not any(
        w in _RULE or w == "," for w in words[end:_sentence_end(words, i)])


def _room_follows(words: list[str], k: int) -> bool:
    return k < len(words) and words[k] in _DETS and bool(_room_at(words, k + 1))


def _object(words: list[str], toks: list[Token], k: int, what: str
            ) -> tuple[list[str], int] | None:
    """The object of a leg phrase at ``k`` in its plain form: a stop by its order ("that
    second one" -> "the second stop"), else the words as said (None: not a leg object)."""
    if what in ("there", "back"):
        # "as you come back out of the bathroom": not the way back
        ok = k >= len(words) or words[k] in _ENDS or words[k] in (",", "then") or \
            words[k] in _RULE
        return ([], k) if ok else None
    if words[k:k + 1] and words[k] in _DETS and words[k + 1:k + 2] and \
            words[k + 2:k + 3] in (["one"], ["stop"]):
        if words[k + 1] in _ORD:
            return ["the", words[k + 1], "stop"], k + 3
        if words[k + 1] in _LAST:
            return ["the", "last", "one"], k + 3
    if what in ("in", "through", "leave", "come_out"):
        return ([], k) if _room_follows(words, k) else None
    return [], k


def _plain(what: str, punctual: bool) -> tuple[str, ...]:
    return {
        "in": ("once", "in") if punctual else ("while", "in"),
        "through": ("while", "going", "through"),
        "to": ("on", "the", "way", "to"),
        "there": ("on", "the", "way", "there"),
        "from": ("on", "the", "way", "back", "from"),
        "back": ("on", "the", "way", "back"),
        "leave": ("once", "you", "leave") if punctual else ("as", "you", "leave"),
        "come_out": ("once", "you", "are", "out", "of") if punctual else
        ("as", "you", "come", "out", "of"),
    }[what]


def _lead(words: list[str], toks: list[Token], i: int, out: list[Token]) -> int:
    """Rewrite one scope lead at ``i`` (see the module docstring); returns tokens taken."""
    n = _seq(words, i, _DURATIVE)
    p = _seq(words, i, _PUNCTUAL)
    opens = i == 0 or words[i - 1] in _OPEN
    if p >= n and p:
        n, punctual = p, True
    else:
        punctual = False
    if n and words[i:i + 2] == ["any", "time"] and i and words[i - 1] == "at":
        return 0  # "at any time": the whole route
    if n:
        s = max(((len(seq), form) for seq, form in _SUBJECTS
                 if tuple(words[i + n:i + n + len(seq)]) == seq), default=(0, "bare"))
        k = i + n + s[0]
        size, what = _phrase(words, k, "be" if s[1] == "bare" else s[1])
    elif (i == 0 or words[i - 1] in _ENDS) and words[i:i + 1] and words[i] in _BARE_START:
        k, s = i, (0, "bare")
        size, what = _phrase(words, k, "be")
        if what in ("in",):
            return 0
    else:
        return 0
    if not size:
        return 0
    obj = _object(words, toks, k + size, what)
    if obj is None:
        return 0
    plain = _plain(what, punctual)
    if what == "from" and obj[0][1:2] and obj[0][1] in _ORD:
        plain = ("after",)  # "coming back from your first stop": the route after it
    said = tuple(words[i:k + size])
    listed = said == plain or said in _LISTED
    if what == "come_out" and s[1] in ("fin", "get"):
        plain, listed = said, True  # "when you come / get out of the R": event_scopes reads it
    end = obj[1]
    sent = _sentence_end(words, end)
    if opens and _rule_after(words, end):
        rule = next(b for b in range(end, sent) if words[b] in _RULE)
        tail = False
    elif n and _rule_before(words, i, end):
        rule, tail = sent, True
        if obj[0] and (obj[0][1] == "first" or plain == ("after",)):
            # "don't go near the TV while you're going to your first stop": a stop by its
            # order after the rule is read as another leg downstream; refused, not misread
            a, b = toks[i].start, toks[sent - 1].end
            msg = (f"did not understand the scope {_text(toks, i, sent)!r}: a stop named by its "
                   "order in a scope after the rule is not read by the offline parser; put the "
                   "scope first (\"on the way to the first stop, keep away from ...\") or name "
                   "the stop")
            raise ParseError(msg, _text(toks, i, sent), (a, b))
    else:
        return 0
    reason: list[Token] = []
    if tail:
        # "keep away from the TV while you're in the bedroom because I just mopped": the
        # reason is the rule's, not the scope's; it stays after the rule when the scope moves
        # (taken into the scope, it left the rule behind the reason, read as context: a drop)
        why = next((b for b in range(end, sent) if words[b] in _REASONS), sent)
        reason, rule = toks[why:sent], why
    src = toks[i:k + size]
    scope = [Token(w, src[0].start, src[-1].end) for w in plain]
    if obj[0]:
        osrc = toks[k + size:end]
        scope += [Token(w, osrc[0].start, osrc[-1].end) for w in obj[0]]
    rest = toks[end:rule]
    while rest and rest[-1].text in (",", "then"):
        rest = rest[:-1]
    scope += rest
    if listed and not obj[0] and not tail and (rule == end + len(rest) + 1 or
                                               words[rule - 1] == ","):
        return 0  # already plain, with its comma: the modules reading it keep it
    # a comma closes the scope ("while in the kitchen, keep ..."), as the scope rules read it
    comma = [Token(",", scope[-1].end, scope[-1].end)]
    if not tail:
        # the comma only where a rule that opens like a request would otherwise run on ("and
        # once you leave the R don't go near X") or after "after the first stop"; elsewhere the
        # words stay as said
        out += [*scope, *(comma if words[rule] in ("do", "don't", "dont", "never") or
                          rule > end + len(rest) or plain == ("after",) else [])]
        return rule - i
    # "keep away from the TV while you're crossing the kitchen": the scope first, as said
    # most often ("While crossing the kitchen, keep away from the TV")
    a = len(out)
    while a and out[a - 1].text not in _ENDS:
        a -= 1
    body = out[a:]
    while body and body[-1].text == ",":
        body.pop()
    del out[a:]
    out += [*scope, *comma, *body, *reason]
    return sent - i


def _text(toks: list[Token], i: int, j: int) -> str:
    return " ".join(t.text for t in toks[i:j])


def scope_leads(toks: list[Token]) -> list[Token]:
    """Rewrite composed scope clauses onto the plain forms the scope rules read (see the
    module docstring)."""
    words = [t.text for t in toks]
    return scan_appending(toks, words, (_lead,))
