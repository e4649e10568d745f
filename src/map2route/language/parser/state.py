"""The parser's state over one instruction: tokens, the words it used, and its chart.

Every reading stage (:mod:`.references`, :mod:`.constraints`, :mod:`.clauses`) is a class
over :class:`ParserState`; the parser is their composition. Besides the token helpers, this
holds the *chart*: every noun phrase read at a token position in a given context (nested or
not, under a ranking word or not, the head a "one" refers back to) is stored with the side
effects its reading had (tokens marked used, unknown words, absent places, the last head). A
second request for it replays those effects instead of reading it again. Without the chart, a
chain of post-modifiers that a nested phrase may or may not take ("the chair next to the bed
far from the desk next to ...") is read once per way of attaching them: exponential in the
chain's length. With it every (position, context) is read once, so the parser is polynomial
(about cubic in the tokens of one clause).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from map2route.language.parser import words as W
from map2route.language.parser.discourse import discourse
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.human import human_forms
from map2route.language.parser.normalise import normalise
from map2route.language.tokens import Token, tokenize

if TYPE_CHECKING:
    from map2route.language.parser.model import Clause, Modifier, RefExpr

#: Attachment policies, most likely first: which modifier kinds a *nested* noun phrase keeps.
ATTACHMENTS: dict[str, frozenset[str]] = {
    "local": frozenset({"in_room", "on", "with", "start_room", "adjacent", "in_corner",
                        "next_to", "near"}),
    "low": frozenset({"in_room", "on", "with", "start_room", "adjacent", "in_corner", "next_to",
                      "near", "far_from", "rank", "between"}),
    "high": frozenset({"start_room", "with"}),
}

#: A noun phrase's chart key: start, clause end, nested?, under a ranking word?, last head.
ChartKey = tuple[int, int, bool, bool, "tuple[str, str] | None"]


@dataclass
class Effects:
    """What reading one noun phrase did to the parser's state (replayed on a chart hit)."""

    used: set[int] = field(default_factory=set)
    unknown: list[str] = field(default_factory=list)
    absent: list[tuple[str, int]] = field(default_factory=list)
    last_head: tuple[str, str] | None = None

    def merge(self, inner: Effects) -> None:
        """Add the effects of a phrase read inside this one."""
        self.used |= inner.used
        self.unknown.extend(inner.unknown)
        self.absent.extend(inner.absent)
        if inner.last_head is not None:
            self.last_head = inner.last_head


class ParserState:
    """Tokens of one instruction and what the parser has used of them."""

    #: Gerunds that open a preference cut off a goal ("..., staying near the wall").
    _GERUND_PREFS = ("staying", "keeping", "avoiding", "hugging", "remaining", "sticking",
                     "passing", "circling", "without", "making", "giving")
    #: Discourse words skipped before a clause opener.
    _SKIP = ("then", "and", "finally", "lastly", "next", "afterwards", "also", "please", "but",
             "now", "so", "first", "secondly", "thirdly", ",")

    def __init__(self, text: str, attachment: str) -> None:
        self.text = text
        toks, scene, self.marks = human_forms(tokenize(text), text)
        dropped: list[list[Token]] = []
        self.toks = discourse(normalise(toks), dropped)
        #: Sentences read as context, not route: scene-setting ones ("You are standing next
        #: to a bed.") and statements that name a place ("He left it on the table."); each
        #: with its character span, so that the places it names are reported too.
        self.context = [c for c, _ in scene]
        self.context_spans = [sp for _, sp in scene]
        for sent in dropped:
            body = [t for t in sent if t.text not in (".", "!", "?")]
            while body and body[0].text == ",":
                body = body[1:]
            while body and body[-1].text == ",":
                body = body[:-1]
            if body:
                self.context.append(" ".join(t.text for t in body))
                self.context_spans.append((body[0].start, body[-1].end))
        self.words = [t.text for t in self.toks]
        self.inner = ATTACHMENTS[attachment]
        self.attachment = attachment
        self.lex = head_lexicon()
        self.used: set[int] = set()
        self.unknown: list[str] = []
        self.last_head: tuple[str, str] | None = None
        self.via: set[int] = set()
        #: Spans of the places an "until you reach X" scope names: a leg's end, never a
        #: stage of its own ("on the way to X" does make X a stage).
        self.reached: set[tuple[int, int]] = set()
        self.absent: list[tuple[str, int]] = []
        self.chart: dict[ChartKey, tuple[tuple[RefExpr, int] | None, Effects]] = {}
        self._effects: list[Effects] = []

    # --- the stages' entry points each other stage calls (defined in the subclasses) ------
    def np(self, i: int, end: int, nested: int = 0,
           under_rank: bool = False) -> tuple[RefExpr, int] | None:
        """A noun phrase at ``i``: :meth:`.references.ReferenceReader.np`."""
        raise NotImplementedError

    def modifier(self, ref: RefExpr, j: int, end: int,
                 nested: int) -> tuple[Modifier, int] | None:
        """A post-modifier at ``j``: :meth:`.modifiers.ModifierReader.modifier`."""
        raise NotImplementedError

    def clause(self, i: int, j: int) -> list[Clause]:
        """One clause span: :meth:`.clauses.ClauseReader.clause`."""
        raise NotImplementedError

    # --- helpers ---------------------------------------------------------------------
    def w(self, i: int) -> str:
        """Token ``i`` ("" past either end)."""
        return self.words[i] if 0 <= i < len(self.words) else ""

    def at(self, i: int, *seq: str) -> bool:
        """Whether the tokens from ``i`` on are ``seq``."""
        return all(self.w(i + k) == s for k, s in enumerate(seq))

    def comparator(self, k: int) -> tuple[str, int]:
        """A count comparison at token ``k`` ("more than", "at least", ...): its operator
        (``""`` if none) and the index after it."""
        for words, op in W.COMPARATORS:
            if self.at(k, *words):
                return op, k + len(words)
        return "", k

    def at_any(self, i: int, options: list[tuple[str, ...]]) -> int:
        """Length of the first option matching at ``i`` (0 if none); longest options first."""
        w = self.w(i)
        best = 0
        for opt in options:
            n = len(opt)
            if n > best and opt[0] == w and tuple(self.words[i:i + n]) == opt:
                best = n
        if best:
            self.mark(i, i + best)
        return best

    def span(self, i: int, j: int) -> tuple[int, int]:
        """Character span of tokens ``[i, j)`` in the instruction (tokens past the end: an
        empty span at the end, as for "avoid" with nothing after it)."""
        j = min(j, len(self.toks))
        if j <= i:
            p = self.toks[i].start if i < len(self.toks) else len(self.text)
            return p, p
        return self.toks[i].start, self.toks[j - 1].end

    def mark(self, i: int, j: int) -> None:
        """Tokens ``[i, j)`` were understood (what ``unused_words`` leaves out)."""
        self.used.update(range(i, j))
        if self._effects:
            self._effects[-1].used.update(range(i, j))

    def note_unknown(self, word: str) -> None:
        """``word`` was skipped as unknown (an adjective or typo the parser cannot read)."""
        self.unknown.append(word)
        if self._effects:
            self._effects[-1].unknown.append(word)

    def note_absent(self, place: str, i: int) -> None:
        """A place no map has ("the garage") was named at token ``i``."""
        self.absent.append((place, i))
        if self._effects:
            self._effects[-1].absent.append((place, i))

    def set_last_head(self, head: tuple[str, str]) -> None:
        """The head a later "the one in the bedroom" refers back to."""
        self.last_head = head
        if self._effects:
            self._effects[-1].last_head = head

    def replay(self, effects: Effects) -> None:
        """Apply what a noun phrase read from the chart did when it was first read."""
        self.mark_all(effects.used)
        for word in effects.unknown:
            self.note_unknown(word)
        for place, i in effects.absent:
            self.note_absent(place, i)
        if effects.last_head is not None:
            self.set_last_head(effects.last_head)

    def mark_all(self, tokens: set[int]) -> None:
        """:meth:`mark` for a set of token indices."""
        self.used |= tokens
        if self._effects:
            self._effects[-1].used |= tokens

    def _text(self, i: int, j: int) -> str:
        """The instruction's text of tokens ``[i, j)``."""
        a, b = self.span(i, j)
        return self.text[a:b]

    def _than_follows(self, i: int, end: int) -> bool:
        """Whether a ``than`` follows in the clause: "closer to A than to B" is Relative."""
        return "than" in self.words[i:end]

    def _next_is_room(self, i: int, end: int) -> bool:
        """Whether a room word heads the phrase at ``i`` (after determiners)."""
        j = i
        while self.w(j) in W.DETS:
            j += 1
        hm = self.lex.match(self.words[j:end])
        return hm is not None and hm[2] == "room"

    def _after_skips(self, t: int) -> int:
        """The first token from ``t`` that is not a discourse word ("then", "and", ",")."""
        while self.w(t) in self._SKIP or self.at(t, "after", "that") or self.at(t, "after",
                                                                                 "this"):
            t += 2 if self.w(t) == "after" else 1
        return t

    def _verb_follows(self, t: int) -> bool:
        """Whether ``t`` holds a verb form ("going", "entering", "touching", "you go")."""
        w = self.w(t)
        return (w.endswith("ing") and self.lex.match([w]) is None) or w in W.MOVE_VERBS or \
            w in ("you", "ever", "getting")

    def _opens_clause(self, t: int) -> bool:
        """Whether a clause may start at ``t`` (a verb, "if", "do not", a gerund)."""
        w = self.w(t)
        return w in W.OPENERS or w in self._GERUND_PREFS or w in ("do", "never", "if", "otherwise",
                                                               "else", "visit", "once")

    def _is_pref(self, i: int) -> bool:
        """Whether a preference ("stay", "keep", "do not", "never") starts at ``i``."""
        return self.w(i) in W.PREF_VERBS or self.at(i, "do", "not") or self.w(i) == "never"

    def _np_starts(self, k: int, j: int) -> bool:
        """Whether a head word (not "to the ...") starts at ``k``."""
        if self.w(k) in ("to", "at", "by", "the", "into", "towards", "toward"):
            return False
        return self.lex.match(self.words[k:j]) is not None and self.w(k) not in ("stop", "end",
                                                                                 "back")
