"""Write a grounding program (Python over :mod:`map2route.grounding.api`) from a parse.

The offline grounder does not build a RouteIR itself: like an LLM, it writes a program that
the sandbox runs and the verifier checks, so both grounders share every later step. Each
referring expression becomes a few lines of selections (``entities``, ``in_room``, ``where``,
``kth_nearest``, ``unique``), each clause a ``segment`` or ``constraint``.
"""

from __future__ import annotations

from typing import Any

from map2route.language.parser import (
    Clause,
    InstructionParse,
    Modifier,
    RefExpr,
    match_stage,
    norm_text,
)
from map2route.language.vocabulary import GROUPS

_PRED = {"near": "near_to", "next_to": "next_to", "far_from": "far_from"}


class ProgramWriter:
    """Turn one :class:`InstructionParse` into program source.

    Args:
        parse: the parsed instruction.
        strict: use ``unique`` for definite references (a late repair round passes ``False``
            to pick the candidate nearest to the robot instead).
        narrow_groups: read a group word ("lamp", "table") as its first, most common category
            (a repair round for group words that match several categories).
    """

    def __init__(self, parse: InstructionParse, *, strict: bool = True,
                 narrow_groups: bool = False) -> None:
        self.parse = parse
        self.strict = strict
        self.narrow_groups = narrow_groups
        self.lines: list[str] = []
        self.indent = ""
        self.n = 0
        self.here = "start_place()"
        self.segment_of: list[tuple[RefExpr | None, str]] = []
        self.pending_this: list[str] = []
        self.room_here = "start_room()"
        self.mentions: list[tuple[RefExpr, str, bool]] = []
        self.leg_room: dict[str, str] = {}
        #: The variable each stage's target was selected into, by segment variable.
        self.stage_target: dict[str, str] = {}
        self.in_constraints = False

    # --- helpers ---------------------------------------------------------------------
    def var(self, stem: str) -> str:
        self.n += 1
        return f"{stem}{self.n}"

    def emit(self, line: str) -> None:
        self.lines.append(self.indent + line)

    @staticmethod
    def q(text: str) -> str:
        return repr(text[:200])

    # --- references ------------------------------------------------------------------
    def ref(self, r: RefExpr, *, one: bool = True, inherit: dict[str, tuple[str, str]] | None = None,
            scope_room: str | None = None, leg_room: str | None = None) -> str:
        """Emit lines selecting ``r``; return the variable (an entity, or a list if not ``one``)."""
        special = self.special_ref(r, one=one)
        if special is not None:
            return special
        if r.head_kind == "point":
            return self.point_ref(r)
        if r.head_kind == "room":
            return self.room_ref(r, one=one)
        if r.head_kind == "wall":
            v = self.var("walls")
            self.emit(f"{v} = boundary_region({self.room_here}, 0.3)")
            return v
        head = r.head
        if one and r.definite and not r.plural and not r.modifiers:
            # coreference: "go to the dining table, then circle the table"
            for prev, pv, is_list in reversed(self.mentions):
                if prev.head == head or prev.head in GROUPS.get(head, ()):
                    if not is_list:
                        return pv
                    out = self.var(_stem(head) + "_")
                    self.emit(f"{out} = unique({pv}, {self.q(r.text)})")
                    return out
        v = self.var(_stem(head))
        if self.narrow_groups and r.head_kind == "group":
            # repair reading: a group word as its most common category ("lamp" -> desk lamp)
            head = GROUPS[head][0]
        self.emit(f"{v} = entities({self.q(head)})")
        has_room = any(m.kind == "in_room" for m in r.modifiers)
        if inherit and head in inherit and not has_room and not r.modifiers:
            how, holder = inherit[head]
            if how == "room":
                self.emit(f"{v} = in_room({v}, {holder})")
            else:
                self.emit(f"{v} = where({v}, on_top_of({holder}))")
        elif scope_room and r.plural and not has_room:
            self.emit(f"{v} = in_room({v}, {scope_room})")
        elif (scope_room or (leg_room and not r.modifiers)) and not has_room and \
                r.head_kind in ("object", "group") and one and r.definite and \
                not any(m.kind == "rank" for m in r.modifiers):
            # "keep away from the table while in the kitchen": when several match, the one
            # there (if there is one there); a ranked reference keeps its whole-map ranking.
            # Without a spatial scope, a preference scoped to one leg ("go to the armchair in
            # the living room, keeping away from the dining table") prefers the one in the
            # room that leg ends in (bare references only: "the table with a pen on it"
            # keeps its whole-map reading, its modifiers decide).
            local = self.var(_stem(head) + "_in")
            self.emit(f"{local} = in_room({v}, {scope_room or leg_room})")
            self.emit(f"if count({v}) > 1 and count({local}) > 0:")
            self.emit(f"    {v} = {local}")
        ranks: list[Modifier] = []
        for mod in r.modifiers:
            if mod.kind == "rank":
                ranks.append(mod)
            else:
                self.filter(v, mod, head)
        if ranks:
            out = self.rank(v, ranks[0], r)
        elif r.plural or not one:
            if not r.plural:
                self.mentions.append((r, v, True))
            return v
        else:
            out = self.pick(v, r)
        self.mentions.append((r, out, False))
        return out

    def special_ref(self, r: RefExpr, *, one: bool) -> str | None:
        """Emit a reference that is no category: a pronoun, here, the start, the destination,
        an unknown word or the corridor between two things (None for any other)."""
        if r.head_kind == "pronoun":
            if self.mentions:
                prev, pv, is_list = self.mentions[-1]
                if is_list and one:
                    out = self.var("it")
                    self.emit(f"{out} = unique({pv}, {self.q(prev.text)})")
                    return out
                return pv
            v = self.var("it")
            self.emit(f"{v} = {self.here}")
            return v
        if r.head_kind == "here":
            v = self.var("here")
            self.emit(f"{v} = {self.here}")
            return v
        if r.head_kind == "unknown":
            v = self.var("unknown")
            self.emit(f"{v} = []")
            self.mentions.append((r, v, True))
            return v
        if r.head_kind == "between":
            # "go between the sofa and the TV": the corridor joining their centres
            a = self.ref(r.modifiers[0].refs[0])
            b = self.ref(r.modifiers[0].refs[1])
            v = self.var("between")
            self.emit(f"{v} = between_region({a}, {b})")
            return v
        if r.head_kind == "start":
            v = self.var("start")
            self.emit(f"{v} = start_place()")
            return v
        if r.head_kind == "target":
            # "the destination": where the route's last stage so far ends
            v = self.var("destination")
            self.emit(f"{v} = {self.destination(room=False)}")
            return v
        return None

    def point_ref(self, r: RefExpr) -> str:
        """A geometry target: "the midpoint between X and Y", "the centre of a group of
        things", "the corner of ROOM farthest from X", "the middle of ROOM"
        (``midpoint_region`` / ``corner_region`` / ``centre_region``)."""
        v = self.var("point")
        gap = next((m for m in r.modifiers if m.kind == "between"), None)
        if gap is not None and len(gap.refs) == 1:
            # "the middle of the chairs at the table", "halfway between the two beds"
            things = self.ref(gap.refs[0], one=False)
            # the centre of a group may stand under a thing (chairs round a table): a wider disk
            self.emit(f"{v} = midpoint_region({things}, radius_m=1.0)")
            return v
        if gap is not None and r.head in ("midpoint", "centroid"):
            # "the midpoint between X and Y", "the centre of the sofa, the chair and the lamp"
            things = ", ".join(self.ref(x) for x in gap.refs)
            wide = ", radius_m=1.0" if len(gap.refs) > 2 else ""
            self.emit(f"{v} = midpoint_region([{things}]{wide})")
            return v
        room_mod = next(m for m in r.modifiers if m.kind == "in_room")
        room = self.ref(room_mod.refs[0])
        if r.head == "centroid":
            self.emit(f"{v} = centre_region({room})")
            return v
        rank = next((m for m in r.modifiers if m.kind == "rank" and m.refs), None)
        if rank is None:
            self.emit(f"{v} = corner_region({room})")
        else:
            anchor = self.ref(rank.refs[0])
            how = "near" if rank.rank == "nearest" else "away_from"
            self.emit(f"{v} = corner_region({room}, {how}={anchor})")
        return v

    def pick(self, v: str, r: RefExpr) -> str:
        out = self.var(_stem(r.head) + "_")
        if r.definite and self.strict:
            self.emit(f"{out} = unique({v}, {self.q(r.text)})")
        else:
            self.emit(f"{out} = kth_nearest({v}, {self.here}, 1)")
        return out

    def filter(self, v: str, mod: Modifier, head: str = "") -> None:
        if mod.kind == "in_room" and mod.negated:
            # "the plant that is not in a bedroom"
            room = self.ref(mod.refs[0], one=False)
            self.emit(f"{v} = exclude({v}, in_room({v}, {room}))")
        elif mod.kind == "in_room":
            room = self.ref(mod.refs[0], one=False)
            self.emit(f"{v} = in_room({v}, {room})")
        elif mod.kind == "on":
            rec = self.ref(mod.refs[0], one=False)
            self.emit(f"{v} = where({v}, {_negate(f'on_top_of({rec})', mod.negated)})")
        elif mod.kind in _PRED:
            other = self.ref(mod.refs[0], one=False)
            pred = _negate(f"{_PRED[mod.kind]}({other})", mod.negated)
            self.emit(f"{v} = where({v}, {pred})")
        elif mod.kind == "empty":
            # "a bed with nothing on it"
            self.emit(f"{v} = [x for x in {v} if count(objects_on(x)) == 0]")
        elif mod.kind == "ordered" and mod.count:
            # "avoid the two chairs": the two nearest (a stage visits them one by one instead)
            far = ", descending=True" if mod.rank == "farthest" else ""
            here = "start_place()" if self.in_constraints else self.here
            self.emit(f"{v} = order_by_distance({v}, {here}{far})[:{mod.count}]")
        elif mod.kind == "different":
            # "three different bedrooms": none of the earlier stage targets of this head
            prev = [self.stage_target[seg] for pr, seg in self.segment_of
                    if pr is not None and pr.head == head and seg in self.stage_target]
            if prev:
                self.emit(f"{v} = exclude({v}, [{', '.join(prev)}])")
        elif mod.kind == "target":
            # "the target bed": the target of the route's final stage so far
            self.emit(f"{v} = intersection({v}, [{self.destination(room=False)}])")
        elif mod.kind == "between":
            a = self.ref(mod.refs[0])
            b = self.ref(mod.refs[1])
            self.emit(f"{v} = where({v}, between({a}, {b}))")
        elif mod.kind == "in_corner":
            if mod.refs:
                room = self.ref(mod.refs[0], one=False)
                self.emit(f"{v} = in_room({v}, {room})")
            self.emit(f"{v} = where({v}, in_corner())")
        elif mod.kind == "with":
            self.emit(f"{v} = where({v}, {self.has(mod)})")
        elif mod.kind == "adjacent":
            other = self.ref(mod.refs[0], one=False)
            self.emit(f"{v} = where({v}, adjacent_to({other}))")
        elif mod.kind == "start_room":
            self.emit(f"{v} = intersection({v}, [start_room()])")
        elif mod.kind == "other":
            prev = [pv for pr, pv, is_list in self.mentions if not is_list and pr.head == head]
            if prev:
                self.emit(f"{v} = exclude({v}, [{prev[-1]}])")

    def destination(self, *, room: bool) -> str:
        """The target of the last stage written so far (its room when ``room``), or an
        expression that fails naming the reference when no stage came before."""
        last = next(((pr, seg) for pr, seg in reversed(self.segment_of)
                     if pr is not None and seg in self.stage_target and
                     pr.head_kind in ("room", "object", "group") and not pr.plural), None)
        if last is None:
            return "unique([], 'the destination: no stage names it before this reference')"
        pr, seg = last
        if room and pr.head_kind != "room":
            return f"room_of({self.stage_target[seg]})"
        return self.stage_target[seg]

    def has(self, mod: Modifier) -> str:
        thing = mod.refs[0]
        cat = thing.head
        if self.narrow_groups and thing.head_kind == "group":
            # the repair reading applies to "with a lamp" too, not only to "the lamp"
            cat = GROUPS[cat][0]
        if mod.count is not None and mod.count >= 0:
            pred = f"has({self.q(cat)}, exactly={mod.count})"
        elif mod.count is not None:
            # a least count ("several", "more than five"): -N means at least N
            pred = f"has({self.q(cat)}, at_least={-mod.count})"
        else:
            pred = f"has({self.q(cat)})"
        return f"not_({pred})" if mod.negated else pred

    def floating_anchor(self, v: str, anchor: RefExpr) -> str | None:
        """Emit a floating ``in ROOM`` of a ranking anchor (see :class:`Modifier`).

        The room restricts the ranked candidates ``v``; the anchor is the one in that room if
        there is one there, else the unique one anywhere. None when nothing floats.
        """
        fl = [m for m in anchor.modifiers if m.floating]
        rest = [m for m in anchor.modifiers if not m.floating]
        if not fl or any(m.kind == "rank" for m in rest) or anchor.head_kind not in ("object",
                                                                                     "group"):
            return None
        bare = RefExpr(anchor.text, anchor.span, anchor.head, anchor.head_kind, anchor.definite,
                       anchor.plural, rest)
        room = self.ref(fl[0].refs[0], one=False)
        every = self.ref(bare, one=False)
        local = self.var(_stem(anchor.head) + "_in")
        out = self.var(_stem(anchor.head) + "_")
        self.emit(f"{v} = in_room({v}, {room})")
        self.emit(f"{local} = in_room({every}, {room})")
        self.emit(f"if count({local}) > 0:")
        self.emit(f"    {out} = unique({local}, {self.q(anchor.text)})")
        self.emit("else:")
        self.emit(f"    {out} = unique({every}, {self.q(anchor.text)})")
        return out

    def rank(self, v: str, mod: Modifier, r: RefExpr) -> str:
        out = self.var(_stem(r.head) + "_")
        if mod.rank in ("most", "fewest"):
            # "the room with the most beds": count per candidate, keep the extreme ones
            cnt, best = self.var("counts"), self.var("best")
            cat = self.q(mod.refs[0].head)
            pick = "max" if mod.rank == "most" else "min"
            self.emit(f"{cnt} = [count_in(x, {cat}) for x in {v}]")
            self.emit(f"{best} = [x for x, n in zip({v}, {cnt}) if n == {pick}({cnt} + "
                      f"[{'0' if pick == 'max' else '100000'}])]")
            self.emit(f"{out} = unique({best}, {self.q(r.text)})")
            return out
        if mod.rank == "before":
            # "the room just before the bathroom": of the rooms next to it, the one reached
            # first walking from where the route is (the one it is in included)
            here = "start_place()" if self.in_constraints else self.here
            self.emit(f"{out} = kth_nearest({v}, {here}, 1, metric='geodesic')")
            return out
        if mod.rank == "route":
            # "the first bedroom you enter": the k-th met walking on from where the route is
            toward = f", toward={self.ref(mod.refs[0])}" if mod.refs else ""
            here = "start_place()" if self.in_constraints else self.here
            origin = next((m for m in r.modifiers if m.kind == "origin" and m.refs), None)
            if origin is not None:  # "the first bedroom you hit coming out of the kitchen"
                here = self.ref(origin.refs[0])
            self.emit(f"{out} = kth_along_route({v}, {here}, {mod.k}{toward})")
            return out
        if mod.rank in ("nearest", "farthest"):
            anchor = (self.floating_anchor(v, mod.refs[0]) or self.ref(mod.refs[0])) \
                if mod.refs else self.here
            fn = "kth_nearest" if mod.rank == "nearest" else "kth_farthest"
            self.emit(f"{out} = {fn}({v}, {anchor}, {mod.k})")
        else:
            fn = "kth_largest" if mod.rank == "largest" else "kth_smallest"
            self.emit(f"{out} = {fn}({v}, {mod.k})")
        return out

    def room_ref(self, r: RefExpr, *, one: bool) -> str:
        v = self.var("room")
        mods = list(r.modifiers)
        if any(m.kind == "start_room" for m in mods):
            self.emit(f"{v} = [start_room()]")
            mods = [m for m in mods if m.kind != "start_room"]
            if r.head != "room":
                self.emit(f"{v} = intersection({v}, rooms({self.q(r.head)}))")
        elif r.head == "room" and not mods and r.definite:
            self.emit(f"{v} = [{self.room_here}]")
        elif r.head == "room":
            self.emit(f"{v} = rooms()")
        else:
            self.emit(f"{v} = rooms({self.q(r.head)})")
        ranks = [m for m in mods if m.kind == "rank"]
        for mod in mods:
            if mod.kind == "rank":
                continue
            if mod.kind == "with":
                self.emit(f"{v} = where({v}, {self.has(mod)})")
            elif mod.kind in ("adjacent", "next_to", "near") and \
                    mod.refs[0].head_kind == "pronoun":
                # "the bathroom next to it": next to the room of the stop just named
                self.emit(f"{v} = where({v}, adjacent_to({self.room_here}))")
            elif mod.kind in ("adjacent", "next_to", "near"):
                other = self.ref(mod.refs[0], one=False)
                pred = "adjacent_to" if mod.refs[0].head_kind == "room" else "has_near"
                both = next((m.count for m in mod.refs[0].modifiers if m.kind == "ordered"
                             and m.count), 0) if mod.refs[0].plural else 0
                if pred == "has_near":
                    self.emit(f"{v} = [x for x in {v} if count(in_room({other}, x)) > 0]")
                elif both > 1:
                    # "the bathroom between / shared by the two bedrooms": doors to two of them
                    self.emit(f"{v} = [x for x in {v} if count(where({other}, adjacent_to(x)))"
                              f" >= {both}]")
                else:
                    self.emit(f"{v} = where({v}, adjacent_to({other}))")
            elif mod.kind == "far_from":
                other = self.ref(mod.refs[0])
                self.emit(f"{v} = where({v}, far_from({other}))")
            elif mod.kind == "on":
                pass
            elif mod.kind == "other":
                self.emit(f"{v} = exclude({v}, [{self.room_here}])")
            elif mod.kind == "different":
                # "a room you have not visited yet": none of the rooms the route went to
                prev = [self.stage_target[seg] if pr.head_kind == "room" else
                        f"room_of({self.stage_target[seg]})" for pr, seg in self.segment_of
                        if pr is not None and pr.head_kind in ("room", "object", "group")
                        and not pr.plural and seg in self.stage_target]
                if prev:
                    self.emit(f"{v} = exclude({v}, [{', '.join(prev)}])")
            elif mod.kind == "target":
                # "the target room": the room the route's last stage so far ends in
                self.emit(f"{v} = intersection({v}, [{self.destination(room=True)}])")
        if ranks:
            return self.rank(v, ranks[0], r)
        if not one or r.plural:
            return v
        out = self.var("room_")
        if any(m.kind == "different" for m in mods):
            # "a room you have not visited yet": the first such room met on the way
            self.emit(f"{out} = kth_along_route({v}, {self.here}, 1)")
        elif self.strict or len(r.modifiers) > 0:
            self.emit(f"{out} = unique({v}, {self.q(r.text)})")
        else:
            self.emit(f"{out} = kth_nearest({v}, {self.here}, 1)")
        return out

    # --- clauses ---------------------------------------------------------------------
    def write(self) -> str:
        self.emit("segments = []")
        self.emit("constraints = []")
        deferred: list[Clause] = []
        self.attached_shapes = self._attach_shapes()
        for c in self.parse.clauses:
            if any(c is sh for sh in self.attached_shapes.values()):
                continue
            if c.kind == "mention":
                self.ref(c.refs[0])  # selected now so that a later "it" names it
            elif c.kind in ("goal", "pass", "circle", "follow_wall", "if"):
                self.stage(c)
            else:
                deferred.append(c)
        self.in_constraints = True  # route-order references in them count from the start
        for c in deferred:
            self.constraint(c)
        self.emit("task(segments, constraints)")
        return "\n".join(self.lines) + "\n"

    def _attach_shapes(self) -> dict[int, Clause]:
        """Scoped shapes ("loop around X on the way to Y") become waypoints of Y's leg."""
        out: dict[int, Clause] = {}
        goals = [c for c in _flatten(self.parse.clauses) if c.kind in ("goal", "pass")]
        for c in self.parse.clauses:
            if c.kind not in ("circle", "follow_wall") or not c.during:
                continue
            until = c.during.get("until")
            target = None
            if isinstance(until, RefExpr):
                target = match_stage(until, [g for g in goals if id(g) not in out])
            elif c.during.get("this"):
                pos = self.parse.clauses.index(c)
                target = next((g for g in reversed(self.parse.clauses[:pos]) if g in goals), None)
            if target is not None and id(target) not in out:
                out[id(target)] = c
        return out

    def stage(self, c: Clause, inherit: dict[str, tuple[str, str]] | None = None) -> None:
        if c.kind == "if":
            self.conditional(c)
            return
        if c.kind in ("goal", "pass") and c.refs and \
                any(m.kind == "ordered" for m in c.refs[0].modifiers):
            self.ordered_stages(c.refs[0])
            return
        seg = self.var("leg")
        if c.kind in ("goal", "pass"):
            r = c.refs[0]
            shape = ""
            sh = getattr(self, "attached_shapes", {}).get(id(c))
            if sh is not None and sh.refs:
                ring = self.ref(sh.refs[0])
                shape = (f", shape=circle({ring}, {self.q(sh.direction or 'counterclockwise')})"
                         if sh.kind == "circle" else
                         f", shape=follow_wall({ring}, {self.q(sh.direction or 'counterclockwise')})")
            tgt = self.ref(r, inherit=inherit)
            if not self.indent:  # a branch's target may be unbound after the branch
                self.stage_target[seg] = tgt
            self.emit(f"{seg} = segment({tgt}{shape}, label={self.q(r.text)})")
            self._advance(tgt, r)
            if not self.indent and r.head_kind in ("object", "group", "room") and \
                    not r.plural:
                # the room this leg ends in (legs outside conditionals only: always bound);
                # written into the program only when a constraint uses it
                self.leg_room[seg] = tgt if r.head_kind == "room" else f"room_of({tgt})"
        elif c.kind == "circle":
            r = c.refs[0]
            tgt = self.ref(r, inherit=inherit)
            laps = f", laps={c.laps}" if c.laps != 1 else ""
            self.emit(f"{seg} = segment(shape=circle({tgt}, {self.q(c.direction)}{laps}), "
                      f"label={self.q(c.text)})")
            self.here = tgt
        else:
            if c.refs:
                room = self.ref(c.refs[0])
            else:
                room = self.var("room")
                self.emit(f"{room} = {self.room_here}")
            direction = c.direction or "counterclockwise"
            self.emit(f"{seg} = segment(shape=follow_wall({room}, {self.q(direction)}), "
                      f"label={self.q(c.text)})")
            self.room_here = room
        self.emit(f"segments.append({seg})")
        self.segment_of.append((c.refs[0] if c.refs else None, seg))

    def ordered_stages(self, r: RefExpr) -> None:
        """"the two garbage cans in order from farthest to nearest": one stage per item, in
        order of distance from where the route is (the first ``count`` of them when said)."""
        mod = next(m for m in r.modifiers if m.kind == "ordered")
        items = self.ref(RefExpr(r.text, r.span, r.head, r.head_kind, r.definite, True,
                                 [m for m in r.modifiers if m.kind != "ordered"]), one=False)
        order, item, seg = self.var("order"), self.var("item"), self.var("leg")
        far = ", descending=True" if mod.rank == "farthest" else ""
        self.emit(f"{order} = order_by_distance({items}, {self.here}{far})")
        if mod.count:
            self.emit(f"if count({order}) < {mod.count}:")
            self.emit(f"    unique([], {self.q(f'{r.text}: fewer than {mod.count} on the map')})")
            self.emit(f"{order} = {order}[:{mod.count}]")
        else:
            self.emit(f"if count({order}) == 0:")
            self.emit(f"    unique([], {self.q(r.text)})")
        self.emit(f"for {item} in {order}:")
        self.emit(f"    {seg} = segment({item}, label={self.q(r.text)})")
        self.emit(f"    segments.append({seg})")
        last = self.var(_stem(r.head) + "_")
        self.emit(f"{last} = {order}[count({order}) - 1]")
        self.here = last
        if r.head_kind == "room":
            self.room_here = last
        else:
            self.room_here = f"room_of({last})"

    def _advance(self, tgt: str, r: RefExpr) -> None:
        if r.plural or r.head_kind == "between":
            return
        self.here = tgt
        if r.head_kind == "room":
            self.room_here = tgt
        elif r.head_kind != "start":
            self.room_here = f"room_of({tgt})"

    def conditional(self, c: Clause) -> None:
        cond = c.condition or {}
        outer_mentions = list(self.mentions)
        inherit: dict[str, tuple[str, str]] = {}
        thing: RefExpr = cond["ref"]
        if cond["kind"] == "exists":
            things = self.ref(thing, one=False)
            test = f"count({things}) > 0"
        elif cond["kind"] == "inside":
            x = self.ref(thing)
            room = self.ref(cond["room"], one=False)
            test = f"any([inside({x}, r) for r in {room}])"
        else:
            holder: RefExpr = cond["holder"]
            hv = self.ref(holder)
            things = self.ref(thing, one=False)
            if thing.head_kind != "unknown":
                self.mentions.append((thing, things, True))
            if holder.head_kind == "room":
                self.emit(f"{things} = in_room({things}, {hv})")
                inherit[thing.head] = ("room", hv)
            else:
                self.emit(f"{things} = where({things}, on_top_of({hv}))")
                inherit[thing.head] = ("on", hv)
            n = cond.get("count")
            op = cond.get("cmp", "==")
            test = f"count({things}) {op} {n}" if n is not None else f"count({things}) > 0"
        if cond.get("negated"):
            test = f"not_({test})"
        here, room_here = self.here, self.room_here
        mentions = outer_mentions
        if_line = len(self.lines)
        legs_before = len(self.segment_of)
        self.emit(f"if {test}:")
        self.indent += "    "
        before = len(self.lines)
        for t in c.then:
            self.stage(t, inherit) if t.kind in ("goal", "pass", "circle", "follow_wall",
                                                 "if") else self.constraint(t)
        if len(self.lines) == before:
            self.emit("pass")
        # where the robot is after the if: one name bound in both branches
        here_v, room_v = self.var("here"), self.var("room_here")
        self.emit(f"{here_v} = {self.here}")
        self.emit(f"{room_v} = {self.room_here}")
        self.indent = self.indent[:-4]
        # names bound in one branch are not visible in the other or after the if
        self.mentions = list(mentions)
        self.here, self.room_here = here, room_here
        self.emit("else:")
        self.indent += "    "
        for t in c.orelse:
            self.stage(t) if t.kind in ("goal", "pass", "circle", "follow_wall",
                                        "if") else self.constraint(t)
        self.emit(f"{here_v} = {self.here}")
        self.emit(f"{room_v} = {self.room_here}")
        self.indent = self.indent[:-4]
        self.mentions = list(mentions)
        self.here, self.room_here = here_v, room_v
        # legs made in a branch exist only if it ran: bind them all beforehand for scopes
        self.lines[if_line:if_line] = [f"{self.indent}{seg} = None"
                                       for _, seg in self.segment_of[legs_before:]]

    def _during(self, c: Clause) -> str | None:
        d = c.during
        if d is None:
            return None
        if d.get("this"):
            pos = self._clause_stage_index(c)
            return None if pos is None else self.segment_of[pos][1]
        until = d.get("until")
        if isinstance(until, RefExpr):
            # the latest leg with the same words, else the latest with the same head
            for ref, seg in reversed(self.segment_of):
                if ref is not None and norm_text(ref.text) == norm_text(until.text):
                    return seg
            for ref, seg in reversed(self.segment_of):
                if ref is not None and ref.head == until.head:
                    return seg
            if c in self.parse.clauses:
                # "Go to the plunger. Until you reach the bathroom, ...": a place on the way
                # to the stage said before, no stage of its own: that stage's whole leg (the
                # part after the bathroom too: the constraint is kept, never widened)
                pos = self._clause_stage_index(c)
                return None if pos is None else self.segment_of[pos][1]
            return None
        after = d.get("after")
        if isinstance(after, RefExpr):
            for k, (ref, _) in enumerate(self.segment_of):
                if ref is not None and ref.head == after.head:
                    later = [s for _, s in self.segment_of[k + 1:]]
                    return "[" + ", ".join(later) + "]" if later else None
        return None

    def _clause_stage_index(self, c: Clause) -> int | None:
        stages = [x for x in self.parse.clauses if x.kind in ("goal", "pass", "circle",
                                                             "follow_wall")]
        pos = self.parse.clauses.index(c) if c in self.parse.clauses else -1
        before = [x for x in self.parse.clauses[:pos] if x in stages]
        if before and len(before) <= len(self.segment_of):
            return len(before) - 1
        return 0 if self.segment_of else None

    def constraint(self, c: Clause) -> None:
        within = None
        if c.within is not None:
            within = self.ref(c.within)
        args: list[str] = []
        if c.kind == "clearance":
            args = ["'clearance'", "None"]
        during = self._during(c)
        leg_room = self.leg_room.get(during) if within is None and during else None
        gap = next((m for m in c.refs[0].modifiers if m.kind == "between" and len(m.refs) == 2),
                   None) if c.kind == "avoid" and c.refs[0].head_kind == "area" else None
        if gap is not None:
            # "don't pass between the sofa and the TV": the strip joining the two
            a, b = self.ref(gap.refs[0]), self.ref(gap.refs[1])
            x = self.var("gap")
            self.emit(f"{x} = between_region({a}, {b})")
            args = ["'avoid'", x]
        elif c.kind == "avoid":
            x = self.ref(c.refs[0], one=not c.refs[0].plural,
                         scope_room=within if c.refs[0].head_kind != "room" else None,
                         leg_room=leg_room if c.refs[0].head_kind != "room" else None)
            args = ["'avoid'", x]
        elif c.kind in ("near", "far"):
            x = self.ref(c.refs[0], one=not c.refs[0].plural, scope_room=within,
                         leg_room=leg_room)
            args = [self.q(c.kind), x]
        elif c.kind == "relative":
            a = self.ref(c.refs[0], one=not c.refs[0].plural, scope_room=within,
                         leg_room=leg_room)
            assert c.other is not None
            b = self.ref(c.other, one=not c.other.plural, scope_room=within, leg_room=leg_room)
            args = ["'relative'", a, f"other={b}"]
        if within is not None:
            args.append(f"within={within}")
        if during is not None:
            args.append(f"during={during}")
        args.append(f"label={self.q(c.text)}")
        self.emit(f"constraints.append(constraint({', '.join(args)}))")


def _negate(pred: str, negated: bool) -> str:
    return f"not_({pred})" if negated else pred


def _flatten(clauses: list[Clause]) -> list[Clause]:
    out: list[Clause] = []
    for c in clauses:
        out.append(c)
        out.extend(_flatten(c.then))
        out.extend(_flatten(c.orelse))
    return out


def _stem(head: str) -> str:
    return "".join(ch for ch in head if ch.isalnum() or ch == "_")[:16] or "x"


def write_program(parse: InstructionParse, *, strict: bool = True,
                  narrow_groups: bool = False) -> str:
    """The grounding program for ``parse`` (options: see :class:`ProgramWriter`)."""
    return ProgramWriter(parse, strict=strict, narrow_groups=narrow_groups).write()


def describe(parse: InstructionParse) -> dict[str, Any]:
    """The parse as JSON-ready data (what ``map2route parse --json`` prints)."""
    return parse.to_json()
