"""Score a grounder on instructions with expected stage targets (the held-out human set).

Each JSON line holds ``scene``, ``start`` ``[x, y]``, ``instruction`` and ``targets``: one
descriptor per stage in order: an object id, ``room:<id>``, ``circle:<object id>``,
``walls:<room id>``, ``start``, or the single ``error`` when the instruction must be refused.
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
        else:
            out.append(str(con.get("op", "?")))
    return out


@dataclass
class CaseResult:
    """One instruction: what was expected, what came out, and how long grounding took."""

    instruction: str
    expected: list[str]
    got: list[str]
    error: str
    elapsed_s: float

    @property
    def correct(self) -> bool:
        if self.expected == ["error"]:
            return bool(self.error)
        return not self.error and self.got == self.expected


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
        try:
            g = grounder.ground(row["instruction"], m, tuple(row["start"]))
            got, err = stage_descriptors(g.routeir), ""
        except Map2RouteError as e:
            got, err = [], str(e).splitlines()[0]
        results.append(CaseResult(row["instruction"], list(row["targets"]), got, err,
                                  time.perf_counter() - t0))
    return results
