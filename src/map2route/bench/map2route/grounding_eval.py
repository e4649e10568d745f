"""Score a grounder on instructions with expected stage targets (the held-out human set).

Each JSON line holds ``scene``, ``start`` ``[x, y]``, ``instruction`` and ``targets``: one
descriptor per stage in order: an object id, ``room:<id>``, ``circle:<object id>``,
``walls:<room id>``, ``between:<id>,<id>`` (sorted), ``start``, or the single ``error`` when the
instruction must be refused. An optional ``constraints`` list holds one ``kind:ref`` per
constraint reference other than Path-Shape: ``kind`` is a ConstraintKind value or alternatives
joined by ``|`` (``far|must_avoid`` for "keep away from"), ``ref`` an object id, ``room:<id>``
or ``*`` (any reference, e.g. windows or walls). A line without the key is not scored on
constraints.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from map2route.errors import Map2RouteError
from map2route.routeir.model import ConstraintKind

if TYPE_CHECKING:
    from map2route.grounding.grounder import Grounder
    from map2route.routeir.model import RouteIR
    from map2route.semantic_map.model import SemanticMap


def stage_descriptors(ir: RouteIR) -> list[str]:
    """One descriptor per stage of ``ir`` (see the module docstring)."""
    shapes: dict[int, dict[str, Any]] = {}
    for c in ir.constraints:
        if c.kind is ConstraintKind.PATH_SHAPE and c.temporal_scope:
            shapes[c.temporal_scope[0]] = c.region.construction
    out = []
    for i, st in enumerate(ir.stages):
        con = st.target.construction
        if i in shapes and con.get("op") in ("goal_region", "room"):
            base = con["object"] if con.get("op") == "goal_region" else f"room:{con['room']}"
            out.append(f"{base}+shape")
        elif i in shapes:
            sc = shapes[i]
            ref = str(sc.get("ref") or sc.get("room") or "")
            key = ref.split(":", 1)[-1]
            out.append(f"circle:{key}" if sc.get("op") == "circle" else f"walls:{key}")
        elif con.get("op") == "goal_region":
            out.append(str(con["object"]))
        elif con.get("op") == "room":
            out.append(f"room:{con['room']}")
        elif con.get("op") == "start_region":
            out.append("start")
        elif con.get("op") == "between":
            pair = sorted(_ref_id(str(con[k])) for k in ("a", "b"))
            out.append("between:" + ",".join(pair))
        else:
            out.append(str(con.get("op", "?")))
    return out


def _ref_id(ref: str) -> str:
    """``o:ID`` -> ``ID``, ``r:ID`` -> ``room:ID``; other handles (windows, walls) unchanged."""
    kind, _, key = ref.partition(":")
    return {"o": key, "r": f"room:{key}"}.get(kind, ref)


def _construction_refs(con: Any) -> list[str]:
    """Every entity a region construction record names, depth first."""
    if isinstance(con, dict):
        if con.get("op") == "goal_region":
            return [str(con["object"])]
        if con.get("op") == "room":
            return [f"room:{con['room']}"]
        out: list[str] = []
        for key, val in con.items():
            if key in ("ref", "a", "b") and isinstance(val, str):
                out.append(_ref_id(val))
            elif key == "entities" and isinstance(val, list):
                out.extend(_ref_id(str(v)) for v in val)
            elif isinstance(val, (dict, list)):
                out.extend(_construction_refs(val))
        return out
    if isinstance(con, list):
        return [r for item in con for r in _construction_refs(item)]
    return []


def constraint_descriptors(ir: RouteIR) -> list[str]:
    """``kind:ref`` for each reference of each constraint except Path-Shape (``kind:*`` if none)."""
    out: list[str] = []
    for c in ir.constraints:
        if c.kind is ConstraintKind.PATH_SHAPE:
            continue
        refs = _construction_refs(c.region.construction) or ["*"]
        out.extend(f"{c.kind.value}:{r}" for r in dict.fromkeys(refs))
    return out


def constraints_match(expected: list[str], got: list[str]) -> bool:
    """Whether each expected ``kind:ref`` pairs off with a distinct produced one, none left over."""
    left = list(got)
    for exp in expected:
        kinds, _, ref = exp.partition(":")
        if ref == "*":  # any reference: takes every reference of that kind (all the windows)
            same = [g for g in left if g.partition(":")[0] in kinds.split("|")]
            if not same:
                return False
            left = [g for g in left if g not in same]
            continue
        for i, g in enumerate(left):
            gk, _, gr = g.partition(":")
            if gk in kinds.split("|") and gr == ref:
                del left[i]
                break
        else:
            return False
    return not left


@dataclass
class CaseResult:
    """One instruction: what was expected, what came out, and how long grounding took."""

    instruction: str
    expected: list[str]
    got: list[str]
    error: str
    elapsed_s: float
    expected_constraints: list[str] | None = None
    got_constraints: tuple[str, ...] = ()
    phenomenon: str = ""

    @property
    def correct(self) -> bool:
        """Every stage target right (or refused when it must be)."""
        if self.expected == ["error"]:
            return bool(self.error)
        return not self.error and self.got == self.expected

    @property
    def destination_correct(self) -> bool:
        """The final stage right (or refused when it must be)."""
        if self.expected == ["error"]:
            return bool(self.error)
        return not self.error and bool(self.got) and self.got[-1] == self.expected[-1]

    @property
    def constraints_correct(self) -> bool:
        """The constraint kinds and references right (True when the line does not score them)."""
        if self.expected_constraints is None or self.expected == ["error"]:
            return self.correct if self.expected == ["error"] else True
        return not self.error and constraints_match(self.expected_constraints,
                                                    list(self.got_constraints))

    @property
    def fully_correct(self) -> bool:
        """Stages and constraints both right."""
        return self.correct and self.constraints_correct


def evaluate_file(path: str | Path, grounder: Grounder,
                  scenes: Callable[[str], SemanticMap]) -> list[CaseResult]:
    """Ground every line of ``path``; ``scenes`` maps a scene name to its map."""
    results = []
    cache: dict[str, SemanticMap] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if row["scene"] not in cache:
            cache[row["scene"]] = scenes(row["scene"])
        m = cache[row["scene"]]
        t0 = time.perf_counter()
        cons: tuple[str, ...] = ()
        try:
            g = grounder.ground(row["instruction"], m, tuple(row["start"]))
            got, err = stage_descriptors(g.routeir), ""
            cons = tuple(constraint_descriptors(g.routeir))
        except Map2RouteError as e:
            got, err = [], str(e).splitlines()[0]
        exp_c = row.get("constraints")
        results.append(CaseResult(row["instruction"], list(row["targets"]), got, err,
                                  time.perf_counter() - t0,
                                  None if exp_c is None else list(exp_c), cons,
                                  str(row.get("phenomenon", ""))))
    return results
