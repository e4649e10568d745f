"""Stage 3 of the parser: referring expressions (noun phrases) and their chart.

A noun phrase is ``[det] [ordinal] [superlative] [adjectives] HEAD [post-modifiers]``; the head
is the longest match in :mod:`.heads` (fuzzy for unknown words), or a pronoun, "you", "here",
or a start phrase ("the room you start in", "your starting point"). Post-modifiers
(:mod:`.modifiers`) each take a nested noun phrase. :meth:`ReferenceReader.np` reads every
(position, context) once through the chart of :class:`~.state.ParserState`.

Hand-written rather than a lark grammar: which modifiers a nested phrase keeps depends on the
attachment policy and on words around it ("that is", "and"), and a phrase must be read from
any token of a clause (scopes and clause bodies ask for one at many places); a grammar would
need the same decisions as callbacks, and Earley parsing of every span costs more than the chart.
"""

from __future__ import annotations

from dataclasses import dataclass

from map2route.language.parser import words as W
from map2route.language.parser.model import Modifier, RefExpr
from map2route.language.parser.modifiers import ModifierReader
from map2route.language.parser.state import ChartKey, Effects
from map2route.language.vocabulary import ABSENT_PLACES, ABSENT_THINGS, ROOM_WORD_TYPES

#: A head match: (tokens, head, kind, plural).
HeadMatch = tuple[int, str, str, bool]
#: Words that start a post-modifier after "and" ("the room with a bed and with a lamp").
_MODIFIER_STARTS = frozenset({"in", "inside", "within", "on", "nearest", "closest", "farthest",
                              "furthest", "near", "next", "beside", "by", "far", "with",
                              "between", "that", "which", "connected", "adjacent", "located"})


@dataclass
class PreHead:
    """What comes before the head: articles, a superlative, size and "other"."""

    definite: bool = True
    plural: bool = False
    rank: str = ""
    k: int = 1
    size_rank: str = ""
    other: bool = False


class ReferenceReader(ModifierReader):
    """Reads noun phrases: :meth:`np`."""

    def np(self, i: int, end: int, nested: int = 0,
           under_rank: bool = False) -> tuple[RefExpr, int] | None:
        """Parse a noun phrase starting at ``i`` (not beyond ``end``), through the chart.

        Returns the expression and the token after it, or None. The caller owns the returned
        object (the chart keeps its own copy).
        """
        key: ChartKey = (i, end, nested > 0, under_rank, self.last_head)
        hit = self.chart.get(key)
        if hit is not None:
            result, effects = hit
            self.replay(effects)
            return None if result is None else (result[0].clone(), result[1])
        self._effects.append(Effects())
        try:
            got = self._read_np(i, end, nested, under_rank)
        finally:
            effects = self._effects.pop()
            if self._effects:
                self._effects[-1].merge(effects)
        self.chart[key] = (None if got is None else (got[0].clone(), got[1]), effects)
        return got

    def _read_np(self, i: int, end: int, nested: int,
                 under_rank: bool) -> tuple[RefExpr, int] | None:
        # start-room phrases first: "the room you start in", "your starting room"
        sr = self._start_phrase(i, end)
        if sr is not None:
            return sr
        start = i
        pre = PreHead()
        i = self._determiners(start, end, pre)
        i = self._pre_rank(i, end, pre)
        i = self._adjectives(i, end, pre)
        if self._absent_place(i, end):
            return None
        hm = self._head_match(start, i, end)
        fuzzy_from = ""
        if hm is None:
            deictic = self._deictic(start, i)
            if deictic is not None:
                return deictic
            fuzzy_from, hm = self.lex.near(self.words[i:end])  # "dinning table"
            if hm is None:
                i, hm = self._skip_unknown_adjective(i, end)
        if hm is None:
            point = self._start_point(start, i, end)
            if point is not None:
                return point
            fuzzy_from, hm = self._fuzzy_head(i, end)
            if hm is None:
                return None
        return self._after_head(start, i, end, hm, fuzzy_from, pre, nested, under_rank)

    def _determiners(self, i: int, end: int, pre: PreHead) -> int:
        start = i
        while i < end and self.w(i) in W.DETS | {"of"}:
            if self.w(i) in ("one", "ones") and i > start and self.last_head is not None and \
                    self.lex.match(self.words[i + 1:end]) is None:
                break  # "the one in the bedroom": one-anaphora, read below
            if self.w(i) in ("a", "an", "any", "some", "one"):
                pre.definite = False
            if self.w(i) in ("all", "every", "each", "those", "these"):
                pre.plural = True
            i += 1
        return i

    def _pre_rank(self, i: int, end: int, pre: PreHead) -> int:
        """A superlative before the head: "the (second) nearest", "the bigger", "most distant"."""
        if self.at(i, "most", "distant") or self.at(i, "most", "remote"):
            pre.rank, i = "farthest", i + 2
        if self.w(i) in W.ORDINALS and self.w(i + 1) in W.RANK_WORDS:
            pre.k = W.ORDINALS[self.w(i)]
            i += 1
        if self.w(i) in W.NEAREST:
            pre.rank, i = "nearest", i + 1
        elif self.w(i) in W.COMPARATIVE and not self._than_follows(i, end):
            pre.rank, i = W.COMPARATIVE[self.w(i)], i + 1
        elif self.w(i) in W.FARTHEST:
            pre.rank, i = "farthest", i + 1
        elif self.w(i) in W.LARGEST:
            pre.rank, i = "largest", i + 1
        elif self.w(i) in W.SMALLEST:
            pre.rank, i = "smallest", i + 1
        return i

    def _adjectives(self, i: int, end: int, pre: PreHead) -> int:
        while i < end and (self.w(i) in W.FILLER_ADJ or self.w(i) in W.SIZE_ADJ):
            if self.w(i) in W.SIZE_ADJ and self.lex.match(self.words[i:end]) is None:
                pre.size_rank = W.SIZE_ADJ[self.w(i)]
            pre.other = pre.other or self.w(i) == "other"
            i += 1
        return i

    def _absent_place(self, i: int, end: int) -> bool:
        """"the garage": a real place no map has; never read it fuzzily as "garbage"."""
        for n_abs in (2, 1):
            place = " ".join(self.words[i:i + n_abs])
            if place in ABSENT_PLACES | ABSENT_THINGS and self.lex.match(self.words[i + n_abs:end]) is None:
                self.note_absent(place, i)
                return True
        return False

    def _head_match(self, start: int, i: int, end: int) -> HeadMatch | None:
        hm = self.lex.match(self.words[i:end])
        if hm is None and self.w(i) in ("one", "ones") and i > start and self.last_head:
            # "the plant in the living room and then the one in the bedroom": same head
            hm = (1, self.last_head[0], self.last_head[1], self.w(i) == "ones")
        return hm

    def _deictic(self, start: int, i: int) -> tuple[RefExpr, int] | None:
        """A pronoun ("it", "there"), the robot ("you": the start) or "here"."""
        if i == start and self.w(i) in ("it", "there", "them", "one", "that"):
            ref = RefExpr(self._text(i, i + 1), self.span(i, i + 1), "it", "pronoun")
            self.mark(i, i + 1)
            return ref, i + 1
        if i == start + 1 and self.w(start) == "that" and self.w(i) in (
                "", ".", "!", "?", ",", ";", "for", "and", "then", "please"):
            # "go get that for me": "that" read as a determiner, with nothing after it
            ref = RefExpr(self._text(start, i), self.span(start, i), "it", "pronoun")
            self.mark(start, i)
            return ref, i
        if self.w(i) in ("you", "me", "yourself", "us"):
            # "the chair closest to you": where the robot is when told, i.e. the start
            ref = RefExpr(self._text(start, i + 1), self.span(start, i + 1), "start", "start")
            self.mark(start, i + 1)
            return ref, i + 1
        if self.w(i) == "here":
            ref = RefExpr(self._text(start, i + 1), self.span(start, i + 1), "here", "here")
            self.mark(start, i + 1)
            return ref, i + 1
        return None

    def _skip_unknown_adjective(self, i: int, end: int) -> tuple[int, HeadMatch | None]:
        """An unknown adjective or a typo of a determiner ("the comfy sofa", "teh sofa")."""
        if i + 1 < end and self.w(i).isalpha() and self.w(i) not in W.OPENERS \
                and self.w(i) not in W.REL_INTRO | {"and", "or", "then", "than"} and \
                self.lex.match(self.words[i + 1:end]) is not None and \
                self.lex.fuzzy(self.w(i)) is None:
            self.note_unknown(self.w(i))
            return i + 1, self.lex.match(self.words[i + 1:end])
        return i, None

    def _start_point(self, start: int, i: int, end: int) -> tuple[RefExpr, int] | None:
        if i < end and self.w(i) in W.START_WORDS and self.w(i + 1) in (
                "point", "position", "location", "spot", "place"):
            ref = RefExpr(self._text(start, i + 2), self.span(start, i + 2), "start", "start")
            self.mark(start, i + 2)
            return ref, i + 2
        return None

    def _fuzzy_head(self, i: int, end: int) -> tuple[str, HeadMatch | None]:
        """A misspelt head ("refridgerator"): (the word, its match), or ("", None)."""
        if i < end and self.w(i).isalpha() and self.w(i) not in W.OPENERS and \
                self.w(i) not in W.REL_INTRO | {"and", "or", "then"}:
            fz = self.lex.fuzzy(self.w(i))
            if fz is not None:
                return self.w(i), (1, fz[0], fz[1], False)
        return "", None

    def _room_compound(self, i: int, end: int,
                       hm: HeadMatch) -> tuple[int, HeadMatch, Modifier | None]:
        """"kitchen table", "kitchen chair": the room word as a location modifier."""
        n, head, kind, _ = hm
        room_mod: Modifier | None = None
        lead_room = ROOM_WORD_TYPES.get(self.w(i))
        if n > 1 and lead_room is not None and kind in ("object", "group"):
            # a lexicalised compound "kitchen table" (dining table): still in the kitchen
            room_ref = RefExpr(self._text(i, i + 1), self.span(i, i + 1), lead_room, "room")
            room_mod = Modifier("in_room", [room_ref], span=self.span(i, i + 1))
        if kind == "room" and head != "room":
            nxt = self.lex.match(self.words[i + n:end])
            if nxt is not None and nxt[2] in ("object", "group", "window", "door"):
                # a compound "kitchen chair": the room is a location modifier
                room_ref = RefExpr(self._text(i, i + n), self.span(i, i + n), head, "room")
                room_mod = Modifier("in_room", [room_ref], span=self.span(i, i + n))
                return i + n, nxt, room_mod
        return i, hm, room_mod

    def _after_head(self, start: int, i: int, end: int, hm: HeadMatch, fuzzy_from: str,
                    pre: PreHead, nested: int, under_rank: bool) -> tuple[RefExpr, int]:
        """Build the expression from its head and read what follows the head."""
        mods: list[Modifier] = []
        if hm[1] == "room" and hm[2] == "room" and "this" in self.words[start:i] and hm[0] == 1:
            # "the sofa in this room": deictic, the room the speaker and robot are in now
            mods.append(Modifier("start_room", span=self.span(start, i + 1)))
        i, hm, room_mod = self._room_compound(i, end, hm)
        n, head, kind, pl = hm
        i += n
        self.mark(start, i)
        if nested == 0 and kind in ("object", "group", "room"):
            self.set_last_head((head, kind))
        ref = RefExpr("", (0, 0), head, kind, pre.definite, pre.plural or pl, [], fuzzy_from)
        if room_mod is not None:
            ref.modifiers.append(room_mod)
        if pre.rank:
            mods.append(Modifier("rank", [], rank=pre.rank, k=pre.k, span=self.span(start, i)))
        elif pre.size_rank:
            mods.append(Modifier("rank", [], rank=pre.size_rank, k=1, span=self.span(start, i)))
        if pre.other and pre.definite:
            # "the other bedroom": not the one the robot is in (rooms) or last named (objects)
            mods.append(Modifier("other", span=self.span(start, i)))
        ref.modifiers.extend(mods)
        # a pre-nominal superlative may take its reference after the head: "the closest chair
        # to the bed"
        if pre.rank in ("nearest", "farthest") and self.w(i) in ("to", "from"):
            inner = self.np(i + 1, end, nested + 1, under_rank=True)
            if inner is not None:
                ref.modifiers[-1].refs.append(inner[0])
                ref.modifiers[-1].span = self.span(start, inner[1])
                i = inner[1]
        i = self.postmods(ref, i, end, nested, under_rank)
        ref.text = self._text(start, i)
        ref.span = self.span(start, i)
        return ref, i

    def _start_phrase(self, i: int, end: int) -> tuple[RefExpr, int] | None:
        """"the room you start in" (a room) or "your starting point" (the start)."""
        j = i
        while self.w(j) in ("the", "your", "my", "our"):
            j += 1
        n = self.at_any(j, W.START_ROOM_PHRASES)
        if n:
            ref = RefExpr(self._text(i, j + n), self.span(i, j + n), "room", "room", True, False,
                          [Modifier("start_room", span=self.span(i, j + n))])
            self.mark(i, j + n)
            k = self.postmods(ref, j + n, end, 1)
            ref.text, ref.span = self._text(i, k), self.span(i, k)
            return ref, k
        n = self.at_any(j, W.START_POINT_PHRASES)
        if n:
            ref = RefExpr(self._text(i, j + n), self.span(i, j + n), "start", "start")
            self.mark(i, j + n)
            return ref, j + n
        return None

    def postmods(self, ref: RefExpr, i: int, end: int, nested: int,
                 under_rank: bool = False) -> int:
        """Attach post-modifiers to ``ref``; nested phrases keep only the policy's kinds."""
        while i < end:
            j, intro = self._relative_intro(i, end)
            got = self.modifier(ref, j, end, nested)
            if got is None:
                return i
            mod, k = got
            if nested and (mod.kind not in self.inner or (intro and self.attachment != "low")):
                return i
            if under_rank and self.attachment == "local" and mod.kind == "in_room":
                # "the chair nearest to the bed in the bedroom": the room restricts the chairs
                # and, where it can, the bed (decided on the map by the program)
                mod.floating = True
            ref.modifiers.append(mod)
            self.mark(i, k)
            i = k
        return i

    def _relative_intro(self, i: int, end: int) -> tuple[int, bool]:
        """Skip "that is", "which are located", "and": (where the modifier starts, whether a
        relative pronoun introduced it)."""
        j = i
        intro = False
        while j < end and (self.w(j) in W.REL_INTRO or (self.w(j) == "and" and intro)):
            if self.w(j) in ("that", "which", "who"):
                intro = True
            j += 1
        if self.w(j) == "and" and j + 1 < end and self.w(j + 1) in _MODIFIER_STARTS:
            j += 1
            intro = True
        while j < end and self.w(j) in W.REL_INTRO:
            j += 1
        return j, intro
