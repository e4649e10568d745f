"""The opaque handles a grounding program holds, and the marker that exposes an API verb.

A program never sees cells or coordinates: :class:`Entity` (an object, room, window, door or
the start), :class:`Area` (a set of cells), :class:`Shape`, :class:`Segment`,
:class:`Preference`, :class:`Predicate` and :class:`Task` are all it gets back from the verbs
of :class:`~map2route.grounding.api.GroundingAPI`. :func:`exposed` marks a verb as visible to
programs in one of the six categories of paper 000 (IV-A).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from map2route.grounding.errors import GroundingIssue, ProgramIssue

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from map2route.routeir.model import ConstraintKind

CATEGORIES = ("scene", "selection", "ranking", "logic", "region", "route")
CATEGORY_TITLES = {
    "scene": "Scene and room queries",
    "selection": "Selection and set operations",
    "ranking": "Ranking and spatial predicates",
    "logic": "Logic and comparison",
    "region": "Region and waypoint construction",
    "route": "Route construction",
}


def exposed(category: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a :class:`GroundingAPI` method as visible to programs, in one of six categories."""
    assert category in CATEGORIES, category

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn._api_category = category  # type: ignore[attr-defined]
        return fn

    return mark


def issue(code: str, message: str, candidates: Iterable[str] = ()) -> ProgramIssue:
    """The error a program gets: a :class:`GroundingIssue` with ``code``, message and the
    nearest valid names."""
    return ProgramIssue(GroundingIssue(code=code, message=message, candidates=tuple(candidates)))


# --- handles ---------------------------------------------------------------------------------
class Entity:
    """An opaque handle to an object, room, window, door or the start place."""

    __slots__ = ("_kind", "_key", "_category", "_label")

    def __init__(self, kind: str, key: str, category: str, label: str) -> None:
        self._kind = kind
        self._key = key
        self._category = category
        self._label = label

    @property
    def kind(self) -> str:
        """``object``, ``room``, ``window``, ``door`` or ``place``."""
        return self._kind

    @property
    def category(self) -> str:
        """Object category (``chair``), room type (``bedroom``), ``window``, ``door``, ``start``."""
        return self._category

    @property
    def label(self) -> str:
        return self._label

    @property
    def ref(self) -> str:
        """A stable key (``o:Chair|2|1``, ``r:3``) used in traces."""
        return f"{self._kind[0]}:{self._key}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Entity) and other.ref == self.ref

    def __hash__(self) -> int:
        return hash(self.ref)

    def __repr__(self) -> str:
        return f"<{self._label}>"


class Area:
    """An opaque handle to a set of map cells (a region) with its label and construction."""

    __slots__ = ("_mask", "_label", "_construction", "_object_ids")

    def __init__(self, mask: NDArray[np.bool_], label: str, construction: dict[str, Any],
                 object_ids: tuple[str, ...] = ()) -> None:
        self._mask = mask
        self._label = label
        self._construction = construction
        self._object_ids = object_ids

    @property
    def label(self) -> str:
        return self._label

    def __repr__(self) -> str:
        return f"<area {self._label}>"


class Shape:
    """An ordered path shape (circle an object, follow the walls): waypoints plus a reference path."""

    __slots__ = ("_waypoints", "_path", "_label")

    def __init__(self, waypoints: tuple[Area, ...], path: Area, label: str) -> None:
        self._waypoints = waypoints
        self._path = path
        self._label = label

    @property
    def label(self) -> str:
        return self._label

    def __repr__(self) -> str:
        return f"<shape {self._label}>"


class Segment:
    """One leg of the route: a target region, optional ordered waypoints and path shape.

    A segment built the official way (``segment("s1", start, target, constraints)``) also
    keeps its id, start reference, the target as given (for ``target_of``) and its constraints.
    """

    __slots__ = ("_target", "_waypoints", "_shape", "_label", "_id", "_start", "_ref",
                 "_clauses")

    def __init__(self, target: Area, waypoints: tuple[Area, ...], shape: Shape | None,
                 label: str, *, seg_id: str = "", start: Any = None, ref: Any = None,
                 clauses: tuple[Preference, ...] = ()) -> None:
        self._target = target
        self._waypoints = waypoints
        self._shape = shape
        self._label = label
        self._id = seg_id
        self._start = start
        self._ref = ref
        self._clauses = clauses

    @property
    def label(self) -> str:
        return self._label

    def __repr__(self) -> str:
        return f"<segment to {self._label}>"


class Preference:
    """A must-avoid requirement or a soft preference, with its scopes."""

    __slots__ = ("_kind", "_region", "_other", "_within", "_during", "_weight", "_label",
                 "_meta")

    def __init__(self, kind: ConstraintKind, region: Area, other: Area | None,
                 within: Area | None, during: tuple[Segment, ...] | None, weight: float,
                 label: str, meta: dict[str, Any] | None = None) -> None:
        self._kind = kind
        self._region = region
        self._other = other
        self._within = within
        self._during = during
        self._weight = weight
        self._label = label
        #: Official GroundedProgram fields (constraint_id, kind, source_text, segment_scope ...).
        self._meta = dict(meta or {})

    @property
    def kind(self) -> str:
        return self._kind.value

    @property
    def label(self) -> str:
        return self._label

    def __repr__(self) -> str:
        return f"<{self._kind.value} {self._label}>"


class Visit:
    """An official ``require_visit`` / ``require_visit_in_order`` / ``prefer_path_shape``
    clause: regions the segment it is passed to must pass (in order), optionally as a shape."""

    __slots__ = ("_regions", "_shape", "_meta")

    def __init__(self, regions: tuple[Area, ...], shape: Shape | None,
                 meta: dict[str, Any]) -> None:
        self._regions = regions
        self._shape = shape
        self._meta = meta

    @property
    def kind(self) -> str:
        return str(self._meta.get("kind", ""))

    def __repr__(self) -> str:
        return f"<{self.kind} of {len(self._regions)} regions>"


class Predicate:
    """A test on one entity, for :meth:`GroundingAPI.where`; combine with all_of/any_of/not_."""

    __slots__ = ("_test", "_label")

    def __init__(self, test: Callable[[Entity], bool], label: str) -> None:
        self._test = test
        self._label = label

    @property
    def label(self) -> str:
        return self._label

    def __repr__(self) -> str:
        return f"<predicate {self._label}>"


class Task:
    """The finished route specification a program returns through ``task(...)``."""

    __slots__ = ("_segments", "_preferences", "_meta")

    def __init__(self, segments: tuple[Segment, ...], preferences: tuple[Preference, ...],
                 meta: dict[str, Any] | None = None) -> None:
        self._segments = segments
        self._preferences = preferences
        #: Official GroundedProgram fields (segment ids and starts, bindings), for export.
        self._meta = dict(meta or {})

    def __repr__(self) -> str:
        return f"<task with {len(self._segments)} segments, {len(self._preferences)} constraints>"


EntityLike = Entity | Sequence[Entity]
RegionLike = Entity | Area | Sequence[Entity]


def encode(v: Any) -> Any:
    """A traced value as JSON: entities by their ``ref``, lists element by element."""
    if isinstance(v, Entity):
        return v.ref
    if isinstance(v, (list, tuple)):
        return [encode(x) for x in v]
    return v
