"""Generate ProcTHOR houses offline (no Unity) and choose the benchmark scenes like the paper.

``procthor.generation.HouseGenerator`` drives an AI2-THOR controller. Structure, doors, floor and
wall objects only need the controller to answer; they are computed in Python. We give it
:class:`StandInController`, which answers every action with an empty successful event, and
replace its small-object stage (which asks Unity's physics to drop objects onto receptacles)
with :func:`map2route.scenes.small_objects.place_small_objects`.

Two details make generation reproducible by seed:

- ``select_room`` of ProcTHOR's floor-plan grower iterates a ``set`` of room objects, whose
  order follows memory addresses; :func:`_deterministic_select_room` sorts it by room id first.
- string hashing is salted per process, so workers run with ``PYTHONHASHSEED=0``.

Scene choice (paper 000, Sec. III-B): survey the floor area of ``pool`` seeds (the structure
stage only, which is cheap), take the 120 largest, sample 40 of them uniformly with ``seed``
for the test set and 4 further ones for the development set.
"""

from __future__ import annotations

import random
import sys
import types
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from shapely.geometry import Polygon

from map2route.scenes.errors import SceneError
from map2route.scenes.small_objects import place_small_objects

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

#: How many of the largest houses the test scenes are sampled from (paper: 120).
LARGEST_POOL = 120
TEST_SCENES = 40
DEV_SCENES = 4
SPLIT = "train"


class _Event:
    """An empty, successful AI2-THOR event."""

    def __init__(self) -> None:
        self.metadata: dict[str, Any] = {"objects": [], "actionReturn": [],
                                         "lastActionSuccess": True, "errorMessage": ""}
        self.third_party_camera_frames: list[Any] = []

    def __bool__(self) -> bool:
        return True


class StandInController:
    """Answers every controller action with an empty successful event (no Unity)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.last_event = _Event()

    def step(self, *args: Any, **kwargs: Any) -> _Event:
        self.last_event = _Event()
        return self.last_event

    def reset(self, *args: Any, **kwargs: Any) -> _Event:
        return self.step()

    def stop(self) -> None:
        """Nothing to stop."""


def _install_import_shims() -> None:
    """Let ``procthor.generation`` import without ``ai2thor`` and ``moviepy``.

    procthor imports ``ai2thor.controller.Controller`` (only for type hints and to start Unity
    when no controller is given) and ``moviepy.editor`` (only to write videos). Neither is used
    here, so when they are not installed we register minimal modules in their place.
    """
    try:
        import ai2thor.controller  # noqa: F401, PLC0415 - optional dependency (scenes extra)
    except ImportError:
        pkg = types.ModuleType("ai2thor")
        ctl = types.ModuleType("ai2thor.controller")
        ctl.Controller = StandInController  # type: ignore[attr-defined]
        pkg.controller = ctl  # type: ignore[attr-defined]
        sys.modules.setdefault("ai2thor", pkg)
        sys.modules.setdefault("ai2thor.controller", ctl)
    try:
        import moviepy.editor  # noqa: F401, PLC0415 - optional dependency (scenes extra)
    except ImportError:
        mp = types.ModuleType("moviepy")
        editor = types.ModuleType("moviepy.editor")
        editor.ImageSequenceClip = object  # type: ignore[attr-defined]
        sys.modules.setdefault("moviepy", mp)
        sys.modules.setdefault("moviepy.editor", editor)


def _deterministic_select_room(original: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def select_room(rooms: Any) -> Any:
        return original(sorted(rooms, key=lambda r: r.room_id))

    return select_room


def _corners(rect: tuple[float, float, float, float]) -> frozenset[tuple[float, float]]:
    x0, z0, x1, z1 = rect
    return frozenset(((x0, z0), (x0, z1), (x1, z1), (x1, z0)))


def _edges(rect: tuple[float, float, float, float]
           ) -> tuple[tuple[tuple[float, float], tuple[float, float]], ...]:
    x0, z0, x1, z1 = rect
    a, b, c, d = (x0, z0), (x0, z1), (x1, z1), (x1, z0)
    return tuple(tuple(sorted(pair)) for pair in ((a, b), (b, c), (c, d), (d, a)))  # type: ignore[misc]


def _join_neighboring_rectangles(self: Any, rects: set[Any]) -> set[Any]:  # noqa: SLF001 - patching procthor
    """ProcTHOR's ``_join_neighboring_rectangles``, same result, without its quadratic loop.  # noqa: SLF001 - patching procthor

    The original compares every pair of rectangles by building corner sets (minutes for a large
    house). Here the neighbours sharing exactly two corners come from an edge index. ProcTHOR
    later draws from the returned set in iteration order, so merged rectangles are inserted in
    the original's order: for each ``rect1`` its partners in the order of ``rects - {rect1}``,
    which (for 8 or more rectangles, where CPython copies the table and deletes ``rect1``) is
    the order of ``rects.copy()``; smaller sets take the original path. The merge formula is
    kept exactly, including its use of ``x1_1`` twice in the minimum. ``test_generate`` checks
    result and order against the original (kept as ``original_join_neighboring_rectangles``).  # noqa: SLF001 - patching procthor
    """
    orig_rects = rects.copy()
    out: set[Any] = set()
    base = list(rects.copy())
    if len(rects) < 8:
        partners_of = {r: [q for q in rects - {r} if len(_corners(r) & _corners(q)) == 2]
                       for r in base}
    else:
        # Distinct axis-aligned rectangles share exactly two corners iff they share an edge.
        position = {r: i for i, r in enumerate(base)}
        by_edge: dict[tuple[tuple[float, float], tuple[float, float]], list[Any]] = {}
        for r in base:
            for e in _edges(r):
                by_edge.setdefault(e, []).append(r)
        partners_of = {}
        for r in base:
            near = {q for e in _edges(r) for q in by_edge[e] if q != r}
            partners_of[r] = sorted(near, key=position.__getitem__)
    for rect1 in base:
        x0_0, z0_0, x1_0, z1_0 = rect1
        for rect2 in partners_of[rect1]:
            x0_1, z0_1, x1_1, z1_1 = rect2
            out.add((min(x0_0, x1_0, x1_1, x1_1), min(z0_0, z1_0, z0_1, z1_1),
                     max(x0_0, x1_0, x0_1, x1_1), max(z0_0, z1_0, z0_1, z1_1)))
    return out - orig_rects


@contextmanager
def _procthor() -> Iterator[types.ModuleType]:
    """Import ``procthor.generation`` with the shims and patches above applied."""
    _install_import_shims()
    try:
        import procthor.generation as gen  # noqa: PLC0415 - optional dependency (scenes extra)
        import procthor.generation.floorplan_generation as fpg  # noqa: PLC0415 - optional dependency (scenes extra)
    except ImportError as err:
        msg = (f"Cannot import the ProcTHOR generator ({err}); install the scenes extra: "
               "pip install -e '.[scenes]'")
        raise SceneError(msg) from err
    if not getattr(fpg.select_room, "_map2route", False):
        patched = _deterministic_select_room(fpg.select_room)
        patched._map2route = True  # type: ignore[attr-defined]  # noqa: SLF001
        fpg.select_room = patched
    import procthor.generation.objects as objs  # noqa: PLC0415 - optional dependency (scenes extra)

    polygon_class = objs.OrthogonalPolygon
    if polygon_class._join_neighboring_rectangles is not _join_neighboring_rectangles:  # noqa: SLF001 - patching procthor
        polygon_class.original_join_neighboring_rectangles = (
            polygon_class._join_neighboring_rectangles)  # noqa: SLF001 - patching procthor
        polygon_class._join_neighboring_rectangles = _join_neighboring_rectangles  # noqa: SLF001 - patching procthor
    original_small = gen.add_small_objects
    gen.add_small_objects = lambda **kwargs: None
    try:
        yield gen
    finally:
        gen.add_small_objects = original_small


@dataclass(frozen=True)
class HouseSurvey:
    """The structure of one seed's house: enough to rank houses by floor area."""

    seed: int
    room_spec: str
    rooms: int
    floor_area_m2: float


def survey_seed(seed: int) -> HouseSurvey | None:
    """Floor area of the house ``seed`` would generate, from the structure stage alone.

    Replays the first random draws of ``HouseGenerator.sample`` (seeding, sampling variables,
    room spec, rejection-sampled floor plan), so the full generation of the same seed builds
    the same floor plan (checked in :func:`generate_house`). ``None`` if no floor plan fits.
    """

    with _procthor() as gen:
        from procthor.utils.types import InvalidFloorplan, SamplingVars  # noqa: PLC0415 - optional dependency (scenes extra)

        random.seed(seed)
        np.random.seed(seed)
        sampling_vars = SamplingVars.sample()
        room_spec = gen.PROCTHOR10K_ROOM_SPEC_SAMPLER.sample()
        for _ in range(10):
            try:
                structure = gen.sample_house_structure(
                    interior_boundary=None, room_ids=set(room_spec.room_type_map),
                    room_spec=room_spec,
                    interior_boundary_scale=sampling_vars.interior_boundary_scale)
                break
            except InvalidFloorplan:
                continue
        else:
            return None
    area = sum(Polygon([p0 for p0, _ in poly]).area for poly in structure.xz_poly_map.values())
    return HouseSurvey(seed=seed, room_spec=room_spec.room_spec_id,
                       rooms=len(room_spec.room_type_map), floor_area_m2=round(float(area), 3))


def generate_house(seed: int, *, small_objects: bool = True) -> dict[str, Any]:
    """Generate the ProcTHOR house JSON of ``seed`` (deterministic) with small objects placed.

    Raises:
        SceneError: if ProcTHOR cannot build a floor plan for this seed.
    """

    with _procthor() as gen:
        generator = gen.HouseGenerator(split=SPLIT, seed=seed,
                                       room_spec_sampler=gen.PROCTHOR10K_ROOM_SPEC_SAMPLER,
                                       controller=StandInController())
        try:
            house, _ = generator.sample()
        except Exception as err:  # ProcTHOR raises bare Exception for rejected floor plans
            msg = f"ProcTHOR could not generate a house for seed {seed}: {err}"
            raise SceneError(msg) from err
    data: dict[str, Any] = house.data
    data.setdefault("metadata", {})["map2route"] = {"seed": seed, "split": SPLIT,
                                                    "generator": "procthor.HouseGenerator"}
    if small_objects:
        place_small_objects(data, seed=seed)
    return data


def choose_scenes(surveys: Sequence[HouseSurvey], *, seed: int, largest: int = LARGEST_POOL,
                  n_test: int = TEST_SCENES, n_dev: int = DEV_SCENES
                  ) -> tuple[list[HouseSurvey], list[HouseSurvey]]:
    """Test and dev houses: ``n_test`` sampled uniformly from the ``largest`` by floor area,
    ``n_dev`` more from the rest of those (disjoint).

    Raises:
        SceneError: if the pool is too small.
    """
    ranked = sorted(surveys, key=lambda s: (-s.floor_area_m2, s.seed))[:largest]
    if len(ranked) < n_test + n_dev:
        msg = (f"A pool of {len(surveys)} houses is too small to choose {n_test} test and "
               f"{n_dev} dev scenes from the {largest} largest; raise --pool")
        raise SceneError(msg)
    rng = random.Random(seed)
    picked = rng.sample(ranked, n_test + n_dev)
    return picked[:n_test], picked[n_test:]


def scene_name(seed: int) -> str:
    """Folder name of the scene generated from ``seed``."""
    return f"procthor_{seed:05d}"

