"""What the instruction parser produces: clauses whose arguments are referring expressions.

An :class:`InstructionParse` holds :class:`Clause` objects in route order; their arguments are
:class:`RefExpr` referring expressions, nested through :class:`Modifier` as they nest in the
sentence. ``to_json`` of each is what ``map2route parse --json`` prints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from map2route.language.vocabulary import GROUPS


@dataclass
class Modifier:
    """A post- or pre-modifier of a referring expression.

    ``kind`` is one of ``in_room``, ``on``, ``with``, ``near``, ``next_to``, ``far_from``,
    ``rank``, ``between``, ``in_corner``, ``adjacent``, ``start_room``, ``size``, ``other``
    ("the other bedroom"), ``different`` (none of the earlier stage targets: "three different
    bedrooms"), ``target`` (the route's destination: "the target room"), ``empty`` (nothing
    stands on or in it: "a bed with nothing on it") or ``ordered`` (a set
    visited one by one in order of distance, ``rank`` nearest/farthest, ``count`` how many);
    ``rank`` may also be ``most``/``fewest`` with the counted thing in ``refs`` ("the room
    with the most beds"), ``route`` (the k-th met along the route, ``refs`` the goal it is on
    the way to, if any: "the first bedroom you enter"; an ``origin`` modifier beside it says
    where the count starts: "the first bedroom you hit coming out of the kitchen") or
    ``before`` ("the room just before the bathroom");
    ``refs`` are the nested expressions; ``rank`` is nearest/farthest/largest/smallest with
    ``k`` the ordinal; ``count`` the number in "with two windows"; ``negated`` for "without",
    "not in", "not near", "not on", "not next to";
    ``floating``: an ``in ROOM`` after a ranking anchor ("the chair nearest to the bed in the
    bedroom"): it restricts the ranked head, and the anchor too when the anchor is there.
    """

    kind: str
    refs: list[RefExpr] = field(default_factory=list)
    rank: str = ""
    k: int = 1
    count: int | None = None
    negated: bool = False
    span: tuple[int, int] = (0, 0)
    floating: bool = False

    def clone(self) -> Modifier:
        """A deep copy (faster than ``copy.deepcopy`` for the parser's chart)."""
        return Modifier(self.kind, [r.clone() for r in self.refs], self.rank, self.k, self.count,
                        self.negated, self.span, self.floating)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "span": list(self.span)}
        if self.floating:
            out["floating"] = True
        if self.rank:
            out["rank"] = self.rank
            out["k"] = self.k
        if self.count is not None:
            out["count"] = self.count
        if self.negated:
            out["negated"] = True
        if self.refs:
            out["refs"] = [r.to_json() for r in self.refs]
        return out


@dataclass
class RefExpr:
    """A referring expression: ``the chair nearest to the bed in the bedroom``.

    Attributes:
        text, span: the words and their character span in the instruction.
        head: a benchmark category (``chair``), a group word (``table``), a room type
            (``bedroom``), ``room``, ``window``, ``door``, ``wall``, ``start`` or ``here``.
        head_kind: ``object``, ``group``, ``room``, ``window``, ``door``, ``wall``, ``start``,
            ``target`` ("the destination": where the route's last stage so far ends).
        definite: "the X" (must be unique) versus "a X" (any one).
        plural: "the windows", "all chairs" (a set, not one entity).
        modifiers: in source order.
        fuzzy: the unknown word the head was fuzzily matched from, if any.
    """

    text: str
    span: tuple[int, int]
    head: str
    head_kind: str
    definite: bool = True
    plural: bool = False
    modifiers: list[Modifier] = field(default_factory=list)
    fuzzy: str = ""

    def clone(self) -> RefExpr:
        """A deep copy (faster than ``copy.deepcopy`` for the parser's chart)."""
        return RefExpr(self.text, self.span, self.head, self.head_kind, self.definite,
                       self.plural, [m.clone() for m in self.modifiers], self.fuzzy)

    def is_start_room(self) -> bool:
        """Whether this names the room the walk starts in ("your starting room", "this room")."""
        return any(m.kind == "start_room" for m in self.modifiers)

    def depth(self) -> int:
        """Nesting depth: 1 for a bare head, plus one per level of nested references."""
        inner = [r.depth() for mod in self.modifiers for r in mod.refs]
        return 1 + (max(inner) if inner else 0)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text, "span": list(self.span), "head": self.head,
                               "head_kind": self.head_kind, "definite": self.definite,
                               "plural": self.plural,
                               "modifiers": [mod.to_json() for mod in self.modifiers]}
        if self.fuzzy:
            out["fuzzy_from"] = self.fuzzy
        return out


@dataclass
class Clause:
    """One instruction clause.

    ``kind``: ``goal`` (go to / visit), ``pass`` (go through a room), ``avoid``, ``near``,
    ``far``, ``relative``, ``clearance``, ``circle``, ``follow_wall``, ``if``, ``mention``
    ("there is a box in the bedroom": names a referent for a later "it", no stage).
    ``refs``: the targets (several for "visit the sofa, the desk and the bed"); ``other``:
    Relative's B; ``within``: spatial scope; ``during``: temporal scope, a reference to the
    stage target it is tied to (``{"until": ref}``, ``{"after": ref}``, ``{"this": True}``).
    For ``if``: ``condition`` and ``then``/``orelse`` clause lists.
    """

    kind: str
    span: tuple[int, int]
    text: str
    refs: list[RefExpr] = field(default_factory=list)
    other: RefExpr | None = None
    within: RefExpr | None = None
    during: dict[str, Any] | None = None
    direction: str = ""
    laps: int = 1
    condition: dict[str, Any] | None = None
    then: list[Clause] = field(default_factory=list)
    orelse: list[Clause] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "span": list(self.span), "text": self.text}
        if self.refs:
            out["refs"] = [r.to_json() for r in self.refs]
        if self.other is not None:
            out["other"] = self.other.to_json()
        if self.within is not None:
            out["spatial_scope"] = self.within.to_json()
        if self.during is not None:
            out["temporal_scope"] = {k: (v.to_json() if isinstance(v, RefExpr) else v)
                                     for k, v in self.during.items()}
        if self.direction:
            out["direction"] = self.direction
        if self.laps != 1:
            out["laps"] = self.laps
        if self.condition is not None:
            out["condition"] = {k: (v.to_json() if isinstance(v, RefExpr) else v)
                                for k, v in self.condition.items()}
            out["then"] = [c.to_json() for c in self.then]
            out["otherwise"] = [c.to_json() for c in self.orelse]
        return out


@dataclass
class InstructionParse:
    """The whole instruction: clauses in route order, plus words the parser did not use."""

    instruction: str
    clauses: list[Clause]
    unknown_words: list[str] = field(default_factory=list)
    attachment: str = "local"
    #: Scene-setting sentences ("You are standing next to a bed."): read as context, no stage.
    context: list[str] = field(default_factory=list)
    #: The places those sentences name ("I'm sitting on the sofa in the living room": the
    #: sofa in the living room): reported, never stages or constraints.
    context_refs: list[RefExpr] = field(default_factory=list)
    #: The discourse moves read ("it tips over easily": a statement about the garbage can;
    #: "careful with the plunger": a caution), each ``{"move", "text", "about"}``.
    discourse: list[dict[str, str]] = field(default_factory=list)

    def references(self) -> list[RefExpr]:
        """Every top-level referring expression of every clause (nested ones inside)."""
        out: list[RefExpr] = []

        def walk(cs: list[Clause]) -> None:
            for c in cs:
                out.extend(c.refs)
                for r in (c.other, c.within):
                    if r is not None:
                        out.append(r)
                if c.condition:
                    out.extend(v for v in c.condition.values() if isinstance(v, RefExpr))
                walk(c.then)
                walk(c.orelse)

        walk(self.clauses)
        return out

    def to_json(self) -> dict[str, Any]:
        stages: list[dict[str, Any]] = []
        constraints: list[dict[str, Any]] = []
        for c in self.clauses:
            (stages if c.kind in ("goal", "pass", "circle", "follow_wall", "if")
             else constraints).append(c.to_json())
        out = {"instruction": self.instruction, "attachment": self.attachment,
               "stages": stages, "constraints": constraints,
               "references": [r.to_json() for r in self.references()],
               "max_reference_depth": max((r.depth() for r in self.references()), default=0),
               "unknown_words": self.unknown_words, "context": self.context}
        if self.context_refs:
            out["context_references"] = [r.to_json() for r in self.context_refs]
        if self.discourse:
            out["discourse"] = [dict(d) for d in self.discourse]
        return out


def same_ref(a: RefExpr, b: RefExpr) -> bool:
    """Whether a scope's "until X" names the stage target ``a`` (same head word suffices; a
    ``door`` and a ``doorway`` are the same places: the map's doors are its doorways; "the
    lamp" said again of "the desk lamp": a group word names a stage of one of its members)."""
    return a.head == b.head or {a.head, b.head} == _DOORS or \
        b.head_kind == "group" and a.head in GROUPS.get(b.head, ())


_DOORS = frozenset({"door", "doorway"})


def norm_text(text: str) -> str:
    """Lower-case words of ``text`` without articles and demonstratives."""
    return " ".join(w for w in re.findall(r"[a-z0-9]+", text.lower())
                    if w not in ("the", "a", "an", "that", "this"))


def match_stage(until: RefExpr, stages: list[Clause]) -> Clause | None:
    """The stage an "until X" / "on the way to X" names: same words first, else same head."""
    for c in stages:
        if c.refs and norm_text(c.refs[0].text) == norm_text(until.text):
            return c
    for c in stages:
        if c.refs and c.refs[0].head == until.head:
            return c
    for c in stages:
        # "head out to the front door. ... on the way to the door": a door is one of the
        # map's doorways ("the front door" is read as ``doorway``, "the door" as ``door``)
        if c.refs and {c.refs[0].head, until.head} == _DOORS:
            return c
    return None


def all_stages(clauses: list[Clause]) -> list[Clause]:
    """The stage clauses of ``clauses``, conditionals' branches included, in order."""
    out: list[Clause] = []
    for c in clauses:
        if c.kind in ("goal", "pass", "circle", "follow_wall"):
            out.append(c)
        out.extend(all_stages(c.then))
        out.extend(all_stages(c.orelse))
    return out


def room_then_object(prev: Clause | None, c: Clause) -> bool:
    """A goal at one room followed by a goal at one object that names no room of its own: the
    shape of "go into the kitchen and stop at the fridge", which the merges below may read as
    one stage (each says, from the words between, when it is one)."""
    return prev is not None and prev.kind == "goal" and c.kind == "goal" and \
        len(prev.refs) == 1 and len(c.refs) == 1 and \
        prev.refs[0].head_kind == "room" and not prev.refs[0].plural and \
        c.refs[0].head_kind in ("object", "group") and \
        not any(m.kind == "in_room" and not _in_it(m) for m in c.refs[0].modifiers)


def _in_it(m: Modifier) -> bool:
    """"the armchair in it", "the bed inside it": the room said by pronoun (the one before)."""
    return m.kind == "in_room" and len(m.refs) == 1 and m.refs[0].text in ("it", "there")


def place_in_room(prev: Clause, c: Clause) -> Clause:
    """``c``'s object placed in ``prev``'s room, spanning both clauses: the one stage they make."""
    room = prev.refs[0]
    c.refs[0].modifiers[:] = [m for m in c.refs[0].modifiers if not _in_it(m)]
    c.refs[0].modifiers.insert(0, Modifier("in_room", [room], span=room.span))
    c.span = (prev.span[0], c.span[1])
    return c
