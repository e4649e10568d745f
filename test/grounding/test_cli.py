"""``map2route route`` and ``map2route parse`` end to end (exit codes and output)."""

from __future__ import annotations

import json

from map2route.cli import main


def test_parse_json(capsys):
    assert main(["parse", "go to the chair nearest to the bed, then avoid the kitchen",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["stages"][0]["refs"][0]["head"] == "chair"
    assert doc["constraints"][0]["kind"] == "avoid"
    assert "kth_nearest" in doc["program"]


def test_parse_failure_names_the_word(capsys):
    assert main(["parse", "go to the zorblax"]) == 1
    assert "zorblax" in capsys.readouterr().err


def test_route_json(capsys):
    code = main(["route", "two_room_house", "go to the fridge, then the chair nearest to the bed",
                 "--start", "1.0,1.0", "--json", "--no-plan"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["routeir"]["schema_version"] == "map2route.routeir/1"
    assert len(doc["routeir"]["stages"]) == 2 and "unique(" in doc["program"]


def test_route_plans_and_reports(capsys):
    code = main(["route", "two_room_house", "go to the fridge", "--start", "1.0,1.0", "--json"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["route"]["length_m"] > 3.0


def test_route_bad_start_is_a_usage_error(capsys):
    assert main(["route", "two_room_house", "go to the fridge", "--start", "nope"]) == 2
    assert "x,y" in capsys.readouterr().err


def test_parse_refuses_an_overlong_instruction_by_name(capsys):
    assert main(["parse", "go to the sofa. " * 200]) == 1
    err = capsys.readouterr().err
    assert "Error:" in err and "3,200 characters" in err
    assert "offline.max_instruction_chars" in err


def test_parse_reports_context_and_refuses_route_order(capsys):
    assert main(["parse", "You start in a bedroom. Go to the fridge.", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["context"] == ["you start in a bedroom"] and len(doc["stages"]) == 1
    # a route-order reference is read now (issue 19); one placed after another room is not
    assert main(["parse", "Go to the room just after the kitchen."]) == 1
    assert "'the room just after the kitchen'" in capsys.readouterr().err
