"""GroundedProgram v2 <-> RouteIR: hand-written official documents, and round trips."""

from __future__ import annotations

import json

import numpy as np
import pytest

from map2route.cli import main
from map2route.grounding.errors import GroundingError
from map2route.grounding.program_v2 import (
    grounded_program_to_routeir,
    routeir_to_grounded_program,
)
from map2route.grounding.sandbox import run_in_process
from map2route.routeir.model import ConstraintKind

from .conftest import START
from .test_official_api import OFFICIAL_PROGRAM


def _ref(kind, rid, **extra):
    return {"kind": kind, "id": rid, **extra}


def official_doc():
    """A v2 document as the official grounder writes it: refs name entities and rooms, no cells."""
    return {
        "schema_version": 2, "status": "success", "failure_reason": None,
        "segments": [
            {"id": "s1", "segment_id": "s1",
             "start_reference": _ref("position", "task_start", center=[55, 65]),
             "action": {"type": "go_to", "target": _ref("entity", "sofa_0", category="sofa")},
             "constraints": [
                 {"constraint_id": "s1_c0", "kind": "forbid", "refs": [_ref("room", "1")],
                  "argument_roles": ["region"], "hardness": "hard", "segment_scope": [],
                  "spatial_scope": None, "source_text": "never enter the kitchen"},
                 {"constraint_id": "s1_c1", "kind": "require_visit_in_order",
                  "refs": [_ref("entity", "arm_chair_0"), _ref("entity", "side_table_0")],
                  "argument_roles": ["region", "region"], "hardness": "hard",
                  "segment_scope": ["s1"], "spatial_scope": None}]},
            {"id": "s2", "segment_id": "s2",
             "start_reference": _ref("entity", "sofa_0"),
             "action": {"type": "go_to", "target": _ref("room", "2")},
             "constraints": [
                 {"constraint_id": "s2_c0", "kind": "prefer_relative", "relation": "farther_from",
                  "refs": [_ref("entity", "bed_0"), _ref("entity", "dresser_0")],
                  "argument_roles": ["farther_ref", "closer_ref"], "hardness": "soft",
                  "segment_scope": ["s2"], "spatial_scope": _ref("room", "2")},
                 {"constraint_id": "s2_c1", "kind": "prefer_near",
                  "refs": [_ref("entity", "house_plant_0")], "argument_roles": ["reference"],
                  "hardness": "soft", "segment_scope": ["s1", "s2"], "spatial_scope": None}]}],
        "bindings": {"sofa": _ref("entity", "sofa_0")}, "diagnostics": ["from the official grounder"]}


def test_official_document_reads_into_routeir(house):
    ir = grounded_program_to_routeir(official_doc(), house)
    g = house.grid
    # the start position is a cell (row 55, col 65): its centre in metres
    assert ir.start == pytest.approx(g.cell_to_world(55, 65))
    sofa = next(o for o in house.objects if o.id == "sofa_0")
    assert np.array_equal(ir.stages[0].target.mask(g), house.goal_region_mask(sofa))
    assert np.array_equal(ir.stages[1].target.mask(g), np.asarray(house.room_ids == 2))
    assert [w.object_ids for w in ir.stages[0].waypoints] == [("arm_chair_0",), ("side_table_0",)]
    forbid, rel, near = ir.constraints
    assert forbid.kind is ConstraintKind.MUST_AVOID and forbid.temporal_scope is None
    assert forbid.label == "never enter the kitchen"
    assert np.array_equal(forbid.region.mask(g), np.asarray(house.room_ids == 1))
    # farther from the bed than the dresser = closer to the dresser than to the bed
    assert rel.kind is ConstraintKind.RELATIVE and rel.temporal_scope == (1,)
    assert rel.region.object_ids == ("dresser_0",) and rel.other.object_ids == ("bed_0",)
    assert rel.spatial_scope is not None
    assert near.kind is ConstraintKind.NEAR and near.temporal_scope == (0, 1)
    assert ir.metadata["grounded_program"]["diagnostics"] == ["from the official grounder"]


def test_official_document_exports_back_with_its_ids(house):
    doc = routeir_to_grounded_program(grounded_program_to_routeir(official_doc(), house))
    assert [s["id"] for s in doc["segments"]] == ["s1", "s2"]
    ids = [(s["id"], c["constraint_id"], c["kind"]) for s in doc["segments"]
           for c in s["constraints"]]
    # each constraint stays in the segment that declared it (visits first within a segment)
    assert ids == [("s1", "s1_c1", "require_visit_in_order"), ("s1", "s1_c0", "forbid"),
                   ("s2", "s2_c0", "prefer_relative"), ("s2", "s2_c1", "prefer_near")]
    rel = doc["segments"][1]["constraints"][0]
    assert rel["relation"] == "farther_from" and rel["argument_roles"] == ["farther_ref", "closer_ref"]
    assert [(r["kind"], r["id"]) for r in rel["refs"]] == [("entity", "bed_0"), ("entity", "dresser_0")]
    assert doc["segments"][1]["constraints"][1]["segment_scope"] == ["s1", "s2"]
    assert doc["segments"][0]["constraints"][1]["scope"]["is_global"] is True
    assert doc["bindings"] == {"sofa": _ref("entity", "sofa_0")}


@pytest.mark.parametrize(("mutate", "words"), [
    (lambda d: d.update(schema_version=1), "schema_version must be 2"),
    (lambda d: d.update(status="failed", failure_reason="x"), "failed upstream"),
    (lambda d: d["segments"][0]["constraints"][0].update(hardness="soft"), "declares 'soft'"),
    (lambda d: d["segments"][0]["constraints"][0].update(kind="prefer_clean"), "unknown kind"),
    (lambda d: d["segments"][0]["constraints"][0].update(segment_scope=["s7"]), "unknown segment"),
    (lambda d: d["segments"][0]["action"].update(target=_ref("region", "midpoint_a_b")),
     "without cells"),
    (lambda d: d["segments"][0]["action"].update(target=_ref("entity", "unicorn_0")), "unicorn_0"),
    (lambda d: d["segments"][1]["constraints"][0].update(refs=[_ref("entity", "bed_0")],
                                                         argument_roles=["closer_ref"]),
     "needs 2 refs"),
])
def test_bad_documents_are_named(house, mutate, words):
    doc = official_doc()
    mutate(doc)
    with pytest.raises(GroundingError, match=words):
        grounded_program_to_routeir(doc, house)


OURS = ("sofa = unique(entities('sofa'))\n"
        "bed = kth_nearest(entities('bed'), sofa)\n"
        "s1 = segment(sofa, label='to the sofa')\n"
        "s2 = segment(bed, shape=circle(unique(entities('dining_table'))))\n"
        "task([s1, s2], [avoid(unique(entities('fridge')), during=s1),\n"
        "                constraint('near', unique(entities('tv_stand')), weight=2.0),\n"
        "                constraint('relative', unique(entities('sink')), other=unique(entities('fridge')), during=[s1, s2]),\n"
        "                constraint('clearance', None, within=unique(rooms('kitchen')))])\n")


@pytest.mark.parametrize("source", [OURS, OFFICIAL_PROGRAM], ids=["ours", "official"])
def test_round_trip_keeps_every_cell_and_scope(house, source):
    res = run_in_process(house, source, START)
    assert res.ok, res.issues
    ir = res.routeir
    doc = json.loads(json.dumps(routeir_to_grounded_program(ir)))
    back = grounded_program_to_routeir(doc, house)
    assert back.start == ir.start and len(back.stages) == len(ir.stages)
    for a, b in zip(ir.stages, back.stages, strict=True):
        assert a.label == b.label and np.array_equal(a.target.cells, b.target.cells)
        assert [w.cells.tolist() for w in a.waypoints] == [w.cells.tolist() for w in b.waypoints]
    assert len(back.constraints) == len(ir.constraints)
    key = lambda c: (c.kind.value, c.temporal_scope or (), c.label)  # noqa: E731
    for a, b in zip(sorted(ir.constraints, key=key), sorted(back.constraints, key=key), strict=True):
        assert (a.kind, a.temporal_scope, a.weight, a.label) == \
            (b.kind, b.temporal_scope, b.weight, b.label)
        assert np.array_equal(a.region.cells, b.region.cells)
        assert (a.other is None) == (b.other is None)
        if a.other is not None:
            assert np.array_equal(a.other.cells, b.other.cells)
        assert (a.spatial_scope is None) == (b.spatial_scope is None)
        if a.spatial_scope is not None:
            assert np.array_equal(a.spatial_scope.cells, b.spatial_scope.cells)
    # and the document is a fixed point
    assert routeir_to_grounded_program(back) == doc


def test_clearance_is_named_in_diagnostics(house):
    doc = routeir_to_grounded_program(run_in_process(house, OURS, START).routeir)
    assert any("clearance" in d for d in doc["diagnostics"])
    kinds = {c["kind"] for s in doc["segments"] for c in s["constraints"]}
    assert kinds <= {"require_visit", "require_visit_in_order", "forbid", "prefer_near",
                     "prefer_far", "prefer_relative", "prefer_path_shape"}
    for s in doc["segments"]:
        for c in s["constraints"]:
            assert len(c["refs"]) == len(c["argument_roles"])
            assert c["hardness"] == ("soft" if c["kind"].startswith("prefer_") else "hard")


def test_cli_program_runs_and_converts(tmp_path, capsys):
    prog = tmp_path / "p.py"
    prog.write_text('def ground():\n'
                    '    bed = unique(entities("bed"))\n'
                    '    set_segment_context("s1", task_start)\n'
                    '    c = constraint("prefer_near", unique(entities("fridge")), source_text="by the fridge")\n'
                    '    return task([segment("s1", task_start, bed, [c])], {"bed": bed})\n')
    out = tmp_path / "v2.json"
    assert main(["program", "two_room_house", str(prog), "--start", "1.0,1.0",
                 "--format", "grounded-program-v2", "-o", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["schema_version"] == 2
    assert doc["bindings"] == {"bed": {"kind": "entity", "id": "bed_0", "category": "bed",
                                       "map2route_ref": "o:bed_0"}}
    (c,) = doc["segments"][0]["constraints"]
    assert (c["constraint_id"], c["source_text"]) == ("s1_c0", "by the fridge")
    capsys.readouterr()
    assert main(["program", "two_room_house", str(out)]) == 0
    ir = json.loads(capsys.readouterr().out)
    assert ir["schema_version"] == "map2route.routeir/1" and len(ir["stages"]) == 1
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n")
    assert main(["program", "two_room_house", str(bad)]) == 1
    assert "forbidden_syntax" in capsys.readouterr().err
