"""Hypothesis-fuzzed RouteIR documents, scene files and episode lines (issue 16).

Every generated input must either load into a valid value or be refused with the package's own
error, without allocating for the sizes it claims (a traced-memory bound, not a clock: see
``_PEAK_BYTES``); nothing else (a ``KeyError``, a ``MemoryError``, a numpy warning turned error,
a hang) may escape. Seeded (``derandomize``) and small so CI stays fast; the example counts are
per test.
"""

from __future__ import annotations

import copy
import json
import math
import tracemalloc
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from map2route.bench.errors import BenchmarkError
from map2route.bench.map2route.episode import load_episodes
from map2route.paths import PACKAGE_ROOT
from map2route.routeir import RouteIR, RouteIRError, Stage, routeir_from_json, routeir_to_json
from map2route.routeir.regions import object_goal_region
from map2route.semantic_map import MapError, load_scene, save_scene
from map2route.semantic_map.synthetic import two_room_house

FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])
#: Values a hostile or broken writer puts where a number, list or string belongs.
ODD = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-10**15, max_value=10**15),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
    st.lists(st.integers(min_value=-5, max_value=10**13), max_size=3),
    st.just([[0, 10**12]]), st.just({}), st.just([]),
)


def _mutate(doc: object, path: list[int | str], value: object) -> object:
    """Put a copy of ``value`` at the node ``path`` leads to (indices wrap; a dead end stops)."""
    value = copy.deepcopy(value)
    node = doc
    for i, key in enumerate(path):
        last = i == len(path) - 1
        if isinstance(node, dict) and node:
            k = list(node)[key % len(node)] if isinstance(key, int) else key
            if last or not isinstance(node[k], (dict, list)):
                node[k] = value
                return doc
            node = node[k]
        elif isinstance(node, list) and node:
            k = key % len(node) if isinstance(key, int) else 0
            if last or not isinstance(node[k], (dict, list)):
                node[k] = value
                return doc
            node = node[k]
        else:
            return doc
    return doc


#: Traced memory a fuzzed RouteIR document may take to load or refuse. Measured: 0.07 MB at most
#: over 300 examples; a document that claims a 10^6 x 10^6 grid and is believed would take
#: terabytes, so 16 MB separates "checked the sizes first" from "allocated what it was told".
_PEAK_BYTES = 16_000_000

PATHS = st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=6)


# --- RouteIR -----------------------------------------------------------------------------------
_M = two_room_house()
_IR_DOC = routeir_to_json(RouteIR(
    stages=(Stage(target=object_goal_region(_M, _M.get_object("fridge_0")), label="the fridge"),),
    constraints=(), grid=_M.grid, start=(0.5, 0.3), scene=_M.name))


@FUZZ
@given(mutations=st.lists(st.tuples(PATHS, ODD), min_size=1, max_size=4))
def test_fuzzed_routeir_loads_or_is_refused(mutations) -> None:
    doc = json.loads(json.dumps(_IR_DOC))
    for path, value in mutations:
        _mutate(doc, path, value)
    tracemalloc.start()
    try:
        ir = routeir_from_json(doc)
    except RouteIRError as err:
        assert str(err)
    else:
        assert ir.grid.rows * ir.grid.cols <= 100_000_000
        assert ir.start is None or all(math.isfinite(v) for v in ir.start)
        for s in ir.stages:
            assert s.target.cells.shape[1] == 2
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < _PEAK_BYTES, f"{peak / 1e6:.1f} MB traced while loading {mutations!r}"


@FUZZ
@given(runs=st.lists(st.lists(st.integers(min_value=-10**13, max_value=10**13),
                              min_size=0, max_size=3), max_size=6))
def test_fuzzed_runs_never_allocate_past_the_grid(runs) -> None:
    doc = json.loads(json.dumps(_IR_DOC))
    doc["stages"][0]["target"]["runs"] = runs
    try:
        ir = routeir_from_json(doc)
    except RouteIRError:
        return
    assert ir.stages[0].target.size <= _M.grid.rows * _M.grid.cols


# --- scenes ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def saved_scene(tmp_path_factory) -> Path:
    return save_scene(_M, tmp_path_factory.mktemp("fuzz") / "two_room_house")


@FUZZ
@given(mutations=st.lists(st.tuples(PATHS, ODD), min_size=1, max_size=3))
def test_fuzzed_semantics_loads_or_is_refused(saved_scene, tmp_path_factory, mutations) -> None:
    folder = tmp_path_factory.mktemp("s")
    for f in saved_scene.iterdir():
        (folder / f.name).write_bytes(f.read_bytes())
    doc = json.loads((saved_scene / "semantics.json").read_text())
    for path, value in mutations:
        _mutate(doc, path, value)
    (folder / "semantics.json").write_text(json.dumps(doc))
    try:
        m = load_scene(folder)
    except MapError as err:
        assert str(err)
    else:
        for o in m.objects:
            assert all(math.isfinite(v) for v in o.center)
            assert len(o.footprint) >= 3


@FUZZ
@given(value=ODD, key=st.sampled_from(["resolution", "origin", "negate", "free_thresh",
                                       "image"]))
def test_fuzzed_map_yaml_loads_or_is_refused(saved_scene, tmp_path_factory, value, key) -> None:
    folder = tmp_path_factory.mktemp("y")
    for f in saved_scene.iterdir():
        (folder / f.name).write_bytes(f.read_bytes())
    meta = yaml.safe_load((saved_scene / "map.yaml").read_text())
    meta[key] = value
    (folder / "map.yaml").write_text(yaml.safe_dump(meta))
    try:
        m = load_scene(folder)
    except MapError:
        return
    assert m.grid.resolution > 0 and math.isfinite(m.grid.resolution)


# --- episodes ----------------------------------------------------------------------------------
_EPISODE = json.loads((PACKAGE_ROOT / "episodes" / "dev.jsonl").read_text(
    encoding="utf-8").splitlines()[0])


@FUZZ
@given(mutations=st.lists(st.tuples(PATHS, ODD), min_size=1, max_size=3),
       raw=st.one_of(st.just(b""), st.binary(max_size=12)))
def test_fuzzed_episode_lines_load_or_are_refused(tmp_path_factory, mutations, raw) -> None:
    doc = json.loads(json.dumps(_EPISODE))
    for path, value in mutations:
        _mutate(doc, path, value)
    p = tmp_path_factory.mktemp("e") / "e.jsonl"
    p.write_bytes(json.dumps(doc).encode("utf-8") + b"\n" + raw.replace(b"\n", b" ") + b"\n")
    try:
        eps = load_episodes(p)
    except BenchmarkError as err:
        assert str(err)
    else:
        for ep in eps:
            assert ep.routeir.stages
            assert math.isfinite(ep.start.x) and math.isfinite(ep.start.y)
