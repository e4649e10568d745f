"""Stage 4 of the parser: one clause's body -> goals, must-pass rooms and constraints.

A clause body is tried against each kind in order, the first that reads it wins: avoid
("avoid X", "never go into X"), clearance ("keep away from the walls"), path shapes ("circle
X", "follow the walls of ROOM"), relative preferences ("favour A over B", "stay closer to A
than B"), near/far preferences ("stay close to X"), must-pass rooms ("go through X"), and
finally goals ("go to X, Y and Z"). Each kind opens with phrases from
``lexicons/instructions.yaml`` and reads its targets with :meth:`ConstraintReader.targets`.

Hand-written: the kinds overlap in their first words ("stay away from" vs "stay close to",
"go through" vs "go to") and are decided by what follows, in the precedence above. A lark
grammar with these as alternatives would be ambiguous and need the same precedence as
hand-ordered callbacks; the ordered readers below say it directly.
"""

from __future__ import annotations

from dataclasses import dataclass

from map2route.language.errors import ParseError
from map2route.language.parser import words as W
from map2route.language.parser.lexical_frames import absent_why
from map2route.language.parser.model import Clause, Modifier, RefExpr
from map2route.language.parser.references import ReferenceReader

#: Words before the first target of a clause ("go to the", "head over to the").
_TARGET_LEAD = ("to", "at", "by", "the", "over", "into", "towards", "toward", "up", "back",
                "down", "across", "onto", "in", "inside", "near", "past", "through", "via")
#: Words between targets ("the sofa, then the desk and finally the bed").
_TARGET_JOIN = (",", "and", "then", "or", "finally", "lastly", "next", "also", "after", "that",
                "afterwards", "eventually", "there", "here", "instead", "first", "too", "as",
                "well")
#: Discourse and modal words before a clause's verb ("please", "you should", "I want").
_BODY_LEAD = ("please", "now", "then", "first", "next", "finally", "lastly", "also", "and", ",",
              "afterwards", "so", "but", "you", "should", "must", "need", "can", "i", "want",
              "would", "like", "could", "let", "us", "robot", "just", "okay", "ok", "secondly",
              "thirdly")
#: Words of a goal clause before its target ("go straight over to", "make your way to").
_GOAL_LEAD = ("your", "way", "yourself", "me", "over", "up", "down", "off", "on", "straight",
              "directly", "right", "quickly", "then", "a", "visit", "trip", "stop", "look", "for",
              "go", "and", "out", "in", "to")
#: Hedges after a preference verb ("stay pretty close", "keep the robot well away").
_PREF_HEDGES = ("well", "pretty", "really", "very", "fairly", "as", "relatively", "quite",
                "somewhat", "route", "path", "your", "the", "a", "bit", "little", "slightly",
                "reasonably", "always", "mostly", "yourself", "it", "to", "by", "robot",
                "route's")
_SHAPE_WORDS = ("loop", "loops", "circle", "circles", "lap", "laps", "circuit", "orbit",
                "go", "walk", "move", "drive", "travel", "head", "navigate", "turn",
                "spin", "ring", "revolution", "pass")


@dataclass(frozen=True)
class Body:
    """A clause body: tokens ``[i, j)``, its text and character span."""

    i: int
    j: int
    text: str
    sp: tuple[int, int]


class ConstraintReader(ReferenceReader):
    """Reads a clause body into clauses: :meth:`clause_body`."""

    def targets(self, i: int, j: int) -> tuple[list[RefExpr], int]:
        """``the sofa, the desk and the bed`` -> three expressions, and the token after them."""
        refs: list[RefExpr] = []
        k = i
        while k < j:
            k0 = k
            by_way = bool(refs) and self.at(k, "by", "way", "of")
            k += 3 if by_way else 0  # "go to the bed by way of the kitchen"
            while self.w(k) in _TARGET_LEAD and k < j and \
                    self._start_phrase(k, j) is None and not (
                    self.w(k) == "the" and (self.lex.match(self.words[k + 1:j]) is not None
                                            or self.w(k + 1) in ("one", "ones"))):
                k += 1
            got = self.np(k, j, 0)
            if got is None:
                break
            if refs and (by_way or any(self.w(x) in ("through", "via", "thru")
                                       for x in range(k0, k))):
                self.via.add(id(got[0]))  # "head to the bedroom through the kitchen"
                self.mark(k0, k)
            refs.append(got[0])
            k = got[1]
            while self.w(k) in _TARGET_JOIN:
                if self.w(k) in ("there", "here", "instead", "too"):
                    self.mark(k, k + 1)
                k += 1
        return refs, k

    def clause_body(self, i: int, j: int) -> list[Clause]:
        """The clauses ``[i, j)`` says, once scopes and conditionals are taken off."""
        i = self._body_start(i, j)
        if i >= j:
            return []
        body = Body(i, j, self._text(i, j), self.span(i, j))
        readers = (self._negated_move, self._avoid, self._clearance_clause, self._shape,
                   self._favour, self._preference, self._hug, self._berth, self._pass)
        for reader in readers:
            got = reader(body)
            if got is not None:
                return got
        return self._goals(body)

    def _body_start(self, i: int, j: int) -> int:
        """Skip discourse words, "start by", "from there", "your destination is"."""
        while i < j and self.w(i) in _BODY_LEAD:
            if self.w(i) == "need" and self.w(i + 1) == "to":
                i += 1
            i += 1
        if self.at(i, "start", "by") or self.at(i, "begin", "by") or self.at(i, "start", "with"):
            i += 2
        n = self.at_any(i, W.CONTINUATION_OPENERS)
        if n:
            i += n
            while self.w(i) == ",":
                i += 1
        if i >= j:
            return i
        i += self.at_any(i, W.DESTINATION_OPENERS)
        if self.w(i) == "to" and self.w(i + 1) in W.OPENERS:
            i += 1
        return i

    # --- avoid and clearance ------------------------------------------------------------
    def _negated_move(self, b: Body) -> list[Clause] | None:
        """"never go into X", "do not walk through X": a hard avoid."""
        i, j = b.i, b.j
        neg = self.at_any(i, W.NEGATIONS)
        if neg and self.w(i + neg) in W.MOVE_VERBS and self.w(i + neg + 1) in (
                "into", "through", "in", "inside", "across", "via", "within"):
            k0 = i + neg + 2
            refs, _ = self.targets(k0 + self.at_any(k0, W.AROUND), j)
            if refs:
                return [Clause("avoid", b.sp, b.text, refs=[r]) for r in refs]
        return None

    def _avoid(self, b: Body) -> list[Clause] | None:
        """"avoid X" (hard), "do not go near X" (far), "avoid the walls" (clearance)."""
        i, j, sp, text = b.i, b.j, b.sp, b.text
        n = self.at_any(i, W.AVOID_OPENERS)
        if not n:
            return None
        near_words = self.w(i + n - 1) in ("near", "to") or self.at(i, "do", "not", "go", "past")
        if self.w(i) in ("avoid", "avoiding") and self.w(i + 1) in (
                "getting", "going", "coming", "being") and \
                self.w(i + 2) in ("close", "near", "too"):
            k = i + 2
            while self.w(k) in ("close", "near", "too", "to"):
                k += 1
            refs, _ = self.targets(k, j)
            return [Clause("far", sp, text, refs=refs)] if refs else []
        around = self.at_any(i + n, W.AROUND)
        refs, _ = self.targets(i + n + around, j)
        if not refs:
            if self.at_any(i + n, W.CLEARANCE_OBJECTS):
                return [Clause("clearance", sp, text)]
            raise ParseError(f"could not tell what to avoid in {text!r}", self.w(i + n),
                             self.span(i + n, i + n + 1))
        if near_words:
            return [Clause("far", sp, text, refs=refs)]
        if refs[0].head in ("wall",) or refs[0].head_kind == "wall":
            return [Clause("clearance", sp, text)]
        return [Clause("avoid", sp, text, refs=[r]) for r in refs]

    def _clearance_clause(self, b: Body) -> list[Clause] | None:
        words = " ".join(self.words[b.i:b.j])
        if any(cue in words for cue in W.CLEARANCE_CUES):
            return [Clause("clearance", b.sp, b.text)]
        return None

    # --- path shapes ---------------------------------------------------------------------
    def _shape(self, b: Body) -> list[Clause] | None:
        """"circle the sofa twice", "walk around the table", "follow the walls of ROOM"."""
        i, j, sp, text = b.i, b.j, b.sp, b.text
        direction = ""
        for t in range(i, j):
            if self.w(t) in W.CLOCKWISE:
                direction = W.CLOCKWISE[self.w(t)]
                self.mark(t, t + 1)
        n = self._shape_start(i, j)
        if n:
            refs, _ = self.targets(i + n, j)
            refs = [r for r in refs if r.head_kind != "wall"]
            if refs and refs[0].head_kind == "room":
                return [Clause("follow_wall", sp, text, refs=refs[:1], direction=direction)]
            if refs:
                return [Clause("circle", sp, text, refs=refs[:1],
                               direction=direction or "counterclockwise",
                               laps=self._laps(i, j))]
        if self.w(i) in ("patrol", "tour", "sweep", "lap", "perimeter") or \
                self.at(i, "follow") or self.at(i, "walk", "along") or \
                self.at(i, "go", "along") or self.at(i, "move", "along") or \
                "perimeter" in self.words[i:j] or \
                ("walls" in self.words[i:j] and self.w(i) in W.MOVE_VERBS | {"along"} and
                 not self._hung_on_walls(i, j)):
            return [Clause("follow_wall", sp, text, refs=self._walled_room(i, j)[:1],
                           direction=direction)]
        return None

    def _walled_room(self, i: int, j: int) -> list[RefExpr]:
        """The room whose walls to follow: a target, else the phrase after "of"/"in"; that
        phrase also wins when it names the start room the target scan lost ("the walls of
        your starting room": the scan finds the bare word "room")."""
        refs, _ = self.targets(i + 1, j)
        rooms = [r for r in refs if r.head_kind == "room"]
        for t in range(i, j):
            if self.w(t) in ("of", "in"):
                got = self.np(t + 1, j, 0)
                if got is not None and got[0].head_kind == "room" and (
                        not rooms or got[0].is_start_room() and not rooms[0].is_start_room()):
                    self.mark(t, got[1])
                    return [got[0]]
        return rooms

    def _shape_start(self, i: int, j: int) -> int:
        """Tokens before the object of "circle X", "make one loop around X", "walk round X"."""
        if self.w(i) in ("circle", "orbit", "circumnavigate", "encircle", "circling", "loop",
                         "lap") and self.w(i + 1) not in ("around", "round", "of"):
            k = i + 1
            while self.w(k) in ("once", "twice", "fully", "completely", "all"):
                k += 1
            return k - i
        for t in range(i, min(j, i + 8)):
            if self.w(t) in ("around", "round") and t > i and \
                    any(self.w(x) in _SHAPE_WORDS for x in range(i, t)):
                k = t + 1
                if self.w(k) == "the" and self.w(k + 1) == "outside" and self.w(k + 2) == "of":
                    k += 3
                self.mark(i, k)
                return k - i
        return 0

    def _laps(self, i: int, j: int) -> int:
        """"twice", "two loops", "3 times", "a couple of laps" in ``[i, j)`` (1 by default)."""
        for t in range(i, j):
            if self.w(t) == "twice":
                self.mark(t, t + 1)
                return 2
            if self.w(t) == "thrice":
                self.mark(t, t + 1)
                return 3
            if self.w(t + 1) in ("times", "loops", "laps", "circles", "rounds", "circuits") and \
                    (self.w(t).isdigit() or self.w(t) in W.NUMBERS) and \
                    self.w(t) not in ("a", "an"):
                n = int(self.w(t)) if self.w(t).isdigit() else int(W.NUMBERS[self.w(t)])
                self.mark(t, t + 2)
                return max(1, min(n, 5))
        return 1

    # --- preferences ---------------------------------------------------------------------
    def _favour(self, b: Body) -> list[Clause] | None:
        """"favour A over B": relative, A preferred."""
        n = self.at_any(b.i, W.FAVOUR_VERBS)
        if not n:
            return None
        a = self.np(b.i + n, b.j, 0)
        if a is None:
            return None
        m2 = self.at_any(a[1], W.FAVOUR_OVER)
        if not m2:
            return None
        other = self.np(a[1] + m2, b.j, 0)
        if other is None:
            return None
        return [Clause("relative", b.sp, b.text, refs=[a[0]], other=other[0])]

    def _preference(self, b: Body) -> list[Clause] | None:
        """"stay closer to A than B" (relative), "stay close to X" (near), "keep away from X"."""
        k = self._pref_lead(b.i)
        if k is None:
            return None
        got = self._closer_than(b, k)
        if got is not None:
            return got
        n = self.at_any(k, W.NEAR_PHRASES)
        if n:
            refs, _ = self.targets(k + n, b.j)
            if refs:
                return [Clause("near", b.sp, b.text, refs=refs)]
        n = self.at_any(k, W.FAR_PHRASES)
        if n:
            refs, _ = self.targets(k + n, b.j)
            if refs:
                if refs[0].head_kind == "wall" or refs[0].head in ("furniture",):
                    return [Clause("clearance", b.sp, b.text)]
                return [Clause("far", b.sp, b.text, refs=refs)]
        return None

    def _closer_than(self, b: Body, k: int) -> list[Clause] | None:
        """"closer to A than (to) B" / "farther from B than A" at ``k``."""
        n = self.at_any(k, W.CLOSER_TO)
        m = self.at_any(k, W.FARTHER_FROM)
        if not (n or m):
            return None
        a = self.np(k + (n or m), b.j, 0)
        if a is None or self.w(a[1]) != "than":
            return None
        kk = a[1] + 1
        while self.w(kk) in ("to", "from", "you", "are", "do", "it", "is"):
            kk += 1
        other = self.np(kk, b.j, 0)
        if other is None:
            return None
        if n:
            return [Clause("relative", b.sp, b.text, refs=[a[0]], other=other[0])]
        return [Clause("relative", b.sp, b.text, refs=[other[0]], other=a[0])]

    def _pref_lead(self, i: int) -> int | None:
        """Where the relation of a preference starts: after "stay (pretty)", "keep the robot"."""
        n = self.at_any(i, W.PREFERENCE_LEADS)
        if not n:
            return None
        k = i + n
        while self.w(k) in _PREF_HEDGES:
            if self.w(k) == "to" and self.w(k + 1) in ("the", "a"):
                break
            if self.w(k) in ("the", "a") and self.w(k + 1) not in ("bit", "little", "safe",
                                                               "good", "distance"):
                break
            if self.w(k) == "a" and self.w(k + 1) in ("safe", "good", "distance"):
                break
            k += 1
        return k

    def _hung_on_walls(self, i: int, j: int) -> bool:
        """"the one with the paintings on the walls": the walls hold things, no path."""
        k = self.words.index("walls", i, j)
        return self.w(k - 1) in ("the", "its") and self.w(k - 2) in ("on", "of", "against")

    def _hug(self, b: Body) -> list[Clause] | None:
        """"hug the walls" (follow the wall), "stick to the sofa" (near)."""
        i = b.i
        if not (self.at(i, "hug") or self.at(i, "stick", "to") or self.at(i, "skirt")):
            return None
        refs, _ = self.targets(i + (2 if self.at(i, "stick", "to") else 1), b.j)
        if refs and refs[0].head_kind == "wall":
            return [Clause("follow_wall", b.sp, b.text, refs=[])]
        if refs:
            return [Clause("near", b.sp, b.text, refs=refs)]
        return None

    def _berth(self, b: Body) -> list[Clause] | None:
        """"give walls a wide berth", "giving the furniture a wide berth"."""
        i = b.i
        if self.w(i) not in ("give", "giving") or "berth" not in self.words[i:b.j]:
            return None
        berth = self.words.index("berth", i)
        refs, _ = self.targets(i + 1, berth)
        obj = i + 1 + (1 if self.w(i + 1) in W.DETS else 0)
        if refs and refs[0].head_kind == "wall" or self.w(obj) in ("obstacles", "furniture",
                                                                   "everything"):
            return [Clause("clearance", b.sp, b.text)]
        if refs:
            return [Clause("far", b.sp, b.text, refs=refs)]
        return None

    # --- stages --------------------------------------------------------------------------
    def _pass(self, b: Body) -> list[Clause] | None:
        """Must-pass rooms: "go through the kitchen", "cross the living room"."""
        n = self.at_any(b.i, W.PASS_OPENERS)
        if n:
            refs, _ = self.targets(b.i + n, b.j)
            if refs:
                return [Clause("pass", b.sp, b.text, refs=[r]) for r in refs]
        return None

    def _goals(self, b: Body) -> list[Clause]:
        """"go to X, Y and Z" (one goal each), "go between A and B"; else a ParseError."""
        k = b.i
        while k < b.j and (self.w(k) in W.MOVE_VERBS or self.w(k) in _GOAL_LEAD) and \
                not self._np_starts(k, b.j):
            k += 1
        between = self._between_goal(b, k)
        if between is not None:
            return between
        refs, _ = self.targets(k, b.j)
        if not refs:
            raise self._not_understood(b, k)
        out = [Clause("pass" if id(r) in self.via else "goal",
                      b.sp if len(refs) == 1 else r.span,
                      b.text if len(refs) == 1 else r.text, refs=[r]) for r in refs]
        for x in range(1, len(out)):
            if id(out[x].refs[0]) in self.via and id(out[x - 1].refs[0]) not in self.via:
                # a trailing "through/via ROOM" is passed before the target it follows
                out[x - 1], out[x] = out[x], out[x - 1]
        return out

    def _between_goal(self, b: Body, k: int) -> list[Clause] | None:
        """"go between the sofa and the TV": the corridor joining them is the stage target."""
        if not (self.w(k) == "between" or self.at(k, "in", "between")):
            return None
        kb = k + (2 if self.w(k) == "in" else 1)
        a = self.np(kb, b.j, 1)
        if a is None or self.w(a[1]) != "and":
            return None
        other = self.np(a[1] + 1, b.j, 1)
        if other is None:
            return None
        self.mark(k, other[1])
        ref = RefExpr(self._text(k, other[1]), self.span(k, other[1]), "between", "between",
                      modifiers=[Modifier("between", [a[0], other[0]],
                                          span=self.span(k, other[1]))])
        return [Clause("goal", b.sp, b.text, refs=[ref])]

    def _not_understood(self, b: Body, k: int) -> ParseError:
        """The error for a clause that names nothing: the first unknown word, or a place no
        map has."""
        skip = W.DETS | W.FILLER_ADJ | {"to", "at", "by", "of", "into", "towards", "toward",
                                        "in", "on", "near", "over", "up", "back", "and", "then"}
        bad_i = next((t for t in range(k, b.j) if self.w(t).isalpha() and self.w(t) not in skip),
                     next((t for t in range(b.i, b.j) if self.w(t).isalpha()), b.i))
        absent = [(w, t) for w, t in self.absent if b.i <= t < b.j]
        if absent:
            place, t = absent[0]
            return ParseError(f"did not understand {place!r} in {b.text!r}: {absent_why(place)}",
                              place, self.span(t, t + len(place.split())))
        bad = self.w(bad_i)
        return ParseError(f"did not understand {bad!r} in {b.text!r}: it names no object "
                          "category, room or relation known here (say e.g. 'the chair nearest "
                          "to the bed')", bad, self.span(bad_i, bad_i + 1))
