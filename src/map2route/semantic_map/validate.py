"""Validate the raw ``semantics.json`` document before it becomes dataclasses.

:func:`semantics_problems` returns *every* problem, one line each, so a corrupt scene is
reported once with all that is wrong rather than one crash at a time: non-finite numbers,
polygons with fewer than three points or no area, unknown room types and malformed category
names, duplicate ids, references to rooms or objects that do not exist, and ``parent_id``
cycles.

Categories outside the benchmark vocabulary are accepted when they are snake_case, by design
(:mod:`map2route.semantic_map.categories` keeps ProcTHOR types it has no counterpart for, such
as ``coffee_table``); a name no loader could have produced (``Chair``, ``"big chair"``, ``""``)
is an error with the nearest vocabulary names.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Mapping
from typing import Any

from map2route.semantic_map.categories import vocabulary
from map2route.semantic_map.errors import MapError
from map2route.semantic_map.grid import GridSpec
from map2route.semantic_map.model import RoomType

_CATEGORY = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")
#: At most this many problems are listed; the rest are counted.
MAX_LISTED = 40


def semantics_problems(sem: Mapping[str, Any], grid: GridSpec | None = None) -> list[str]:
    """Every problem of a ``semantics.json`` document (an empty list: it is valid).

    Args:
        sem: the parsed document.
        grid: the scene's grid, to check object centres lie on the map (skipped when None).
    """
    problems: list[str] = []
    for key in ("rooms", "objects"):
        if not isinstance(sem.get(key), list):
            problems.append(f"'{key}' must be a list")
    for key in ("doors", "windows"):
        if not isinstance(sem.get(key, []), list):
            problems.append(f"'{key}' must be a list")
    if not isinstance(sem.get("metadata", {}), dict):
        problems.append("'metadata' must be an object")
    if not isinstance(sem.get("name", ""), str):
        problems.append("'name' must be a string")
    if problems:
        return problems
    room_ids = _rooms(sem["rooms"], problems)
    object_ids = _objects(sem["objects"], room_ids, problems, grid)
    _parents(sem["objects"], object_ids, problems)
    for i, d in enumerate(sem.get("doors", [])):
        where = f"doors[{i}] ({_name(d)})"
        if not isinstance(d, dict):
            problems.append(f"{where} must be an object")
            continue
        _segment(d.get("segment"), where, problems)
        ids = d.get("room_ids")
        if not (isinstance(ids, list) and len(ids) == 2):
            problems.append(f"{where} needs 'room_ids': two room ids (-1 for outside)")
        else:
            for rid in ids:
                if rid != -1 and not _is_one_of(rid, room_ids):
                    problems.append(f"{where} joins room {rid!r}, which is not in 'rooms'")
    for i, w in enumerate(sem.get("windows", [])):
        where = f"windows[{i}] ({_name(w)})"
        if not isinstance(w, dict):
            problems.append(f"{where} must be an object")
            continue
        _segment(w.get("segment"), where, problems)
        if not _is_one_of(w.get("room_id"), room_ids):
            problems.append(f"{where} is in room {w.get('room_id')!r}, which is not in 'rooms'")
    return problems


def check_semantics(sem: Mapping[str, Any]) -> None:
    """Raise :class:`MapError` listing every problem of ``sem``."""
    problems = semantics_problems(sem)
    if problems:
        raise MapError(problem_list("semantics.json", problems))


def problem_list(what: str, problems: list[str]) -> str:
    """``what has N problem(s):`` and the problems, one per line, the first :data:`MAX_LISTED`."""
    shown = problems[:MAX_LISTED]
    more = len(problems) - len(shown)
    tail = f"\n  - ... and {more} more" if more else ""
    return f"{what} has {len(problems)} problem(s):\n  - " + "\n  - ".join(shown) + tail


def _is_one_of(value: Any, ids: set[int]) -> bool:
    """Whether ``value`` is one of the room ids (a list or a float is not, and is no crash)."""
    return isinstance(value, int) and not isinstance(value, bool) and value in ids


def _name(entry: Any) -> str:
    return f"id {entry.get('id')!r}" if isinstance(entry, dict) else "?"


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _point_ok(p: Any) -> bool:
    return isinstance(p, (list, tuple)) and len(p) == 2 and _finite(p[0]) and _finite(p[1])


def _polygon(poly: Any, where: str, problems: list[str]) -> None:
    if not isinstance(poly, list) or len(poly) < 3:
        n = len(poly) if isinstance(poly, list) else 0
        problems.append(f"{where} has {n} polygon point(s); a polygon needs at least 3")
        return
    bad = [i for i, p in enumerate(poly) if not _point_ok(p)]
    if bad:
        problems.append(f"{where} has non-finite or malformed points at {bad[:5]} (each point "
                        "is [x, y] in finite metres)")
        return
    area2 = sum(poly[i][0] * poly[i - 1][1] - poly[i - 1][0] * poly[i][1] for i in range(len(poly)))
    if abs(area2) / 2.0 <= 1e-9:
        problems.append(f"{where} has a polygon with no area (its points are on one line)")


def _segment(seg: Any, where: str, problems: list[str]) -> None:
    if not (isinstance(seg, list) and len(seg) == 2 and all(_point_ok(p) for p in seg)):
        problems.append(f"{where} needs 'segment': two [x, y] points in finite metres")


def _rooms(rooms: list[Any], problems: list[str]) -> set[int]:
    ids: set[int] = set()
    for i, r in enumerate(rooms):
        where = f"rooms[{i}] ({_name(r)})"
        if not isinstance(r, dict):
            problems.append(f"{where} must be an object")
            continue
        rid = r.get("id")
        if isinstance(rid, bool) or not isinstance(rid, int) or rid < 0:
            problems.append(f"{where} needs a whole-number 'id' >= 0")
        elif rid in ids:
            problems.append(f"{where} repeats room id {rid}")
        else:
            ids.add(rid)
        try:
            RoomType.parse(str(r.get("type", "")))
        except MapError as err:
            problems.append(f"{where}: {err}")
        _polygon(r.get("polygon"), where, problems)
    return ids


def _objects(objects: list[Any], room_ids: set[int], problems: list[str],
             grid: GridSpec | None) -> set[str]:
    ids: set[str] = set()
    for i, o in enumerate(objects):
        where = f"objects[{i}] ({_name(o)})"
        if not isinstance(o, dict):
            problems.append(f"{where} must be an object")
            continue
        oid = o.get("id")
        if not isinstance(oid, str) or not oid:
            problems.append(f"{where} needs a non-empty string 'id'")
        elif oid in ids:
            problems.append(f"{where} repeats object id {oid!r}")
        else:
            ids.add(oid)
        cat = o.get("category")
        if not isinstance(cat, str) or not _CATEGORY.match(cat):
            close = difflib.get_close_matches(str(cat).lower().replace(" ", "_"), vocabulary(), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            problems.append(f"{where} has unknown category {cat!r}: categories are snake_case "
                            f"names such as 'arm_chair'{hint}")
        _polygon(o.get("footprint"), f"{where} footprint", problems)
        if not _point_ok(o.get("center")):
            problems.append(f"{where} needs 'center': [x, y] in finite metres")
        elif grid is not None and not grid.contains_point(*o["center"]):
            problems.append(f"{where} centre {o['center']} lies outside the map")
        for key in ("z_min", "z_max"):
            if key in o and not _finite(o[key]):
                problems.append(f"{where} has {key} {o[key]!r}; it must be a finite number")
        rid = o.get("room_id")
        if rid is not None and not _is_one_of(rid, room_ids):
            problems.append(f"{where} names unknown room {rid!r} (not in 'rooms')")
    return ids


def _parents(objects: list[Any], object_ids: set[str], problems: list[str]) -> None:
    parent: dict[str, str] = {}
    for o in objects:
        if not isinstance(o, dict) or o.get("parent_id") is None:
            continue
        oid, pid = o.get("id"), o.get("parent_id")
        if not isinstance(pid, str) or pid not in object_ids:
            problems.append(f"object {oid!r} has parent_id {pid!r}, which is not an object")
        elif pid == oid:
            problems.append(f"object {oid!r} is its own parent")
        elif isinstance(oid, str):
            parent[oid] = pid
    reported: set[str] = set()
    for start in parent:
        chain: list[str] = []
        node: str | None = start
        while node is not None and node not in chain and node not in reported:
            chain.append(node)
            node = parent.get(node)
        if node is not None and node in chain:
            cycle = chain[chain.index(node):]
            problems.append("parent_id cycle: " + " -> ".join(repr(c) for c in [*cycle, node]))
        reported.update(chain)
