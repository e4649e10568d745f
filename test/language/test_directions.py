"""Sub-goal decomposition of typical Map2Seq phrasings."""

from __future__ import annotations

import pytest

from map2route.language.directions import Action, decompose, split_clauses


def actions(text: str) -> list[tuple[str, str, int, bool]]:
    return [(g.action.value, g.condition.feature, g.condition.count, g.condition.relative)
            for g in decompose(text)]


def test_through_one_light_then_turn_at_the_next() -> None:
    assert actions("Go straight through one light and turn right at the next. Stop.") == [
        ("MOVE_FORWARD", "light", 1, True), ("TURN_RIGHT", "light", 1, True),
        ("STOP", "", 0, False)]


@pytest.mark.parametrize(("text", "expected"), [
    ("Turn left at the second light.", ("TURN_LEFT", "light", 2, False)),
    ("Make a left at the T.", ("TURN_LEFT", "t", 1, False)),
    ("Take a right at the 3rd set of lights.", ("TURN_RIGHT", "light", 3, False)),
    ("Go through two more lights.", ("MOVE_FORWARD", "light", 2, True)),
    ("Where the road veers right, bear right.", ("TURN_RIGHT", "veer", 1, True)),
], ids=["ordinal", "t-junction", "set-of-lights", "more", "veer"])
def test_first_subgoal(text: str, expected: tuple[str, str, int, bool]) -> None:
    assert actions(text)[0] == expected


def test_condition_before_the_verb() -> None:
    # "At the next intersection, turn right": reach the next intersection, then turn there.
    assert actions("At the next intersection, turn right.")[:2] == [
        ("MOVE_FORWARD", "intersection", 1, True), ("TURN_RIGHT", "", 0, False)]


def test_side_phrases_are_not_turns() -> None:
    goals = decompose("Pass the bank on your right. Stop in front of Starbucks on the left.")
    assert [g.action for g in goals] == [Action.MOVE_FORWARD, Action.STOP]
    assert goals[1].condition.landmark and goals[1].condition.side == "left"


def test_stop_conditions() -> None:
    half = decompose("Turn left and stop halfway down the block.")[-1]
    assert half.action == Action.STOP and half.condition.fraction == 0.5
    past = decompose("Stop just past the Dunkin' Donuts.")[-1].condition
    assert past.relation == "past" and "dunkin" in past.landmark
    before = decompose("Stop just before the next light.")[-1].condition
    assert (before.feature, before.relation) == ("light", "before")


def test_end_of_the_block_is_not_a_stop() -> None:
    goals = decompose("Go to the end of the block and turn right at the first light.")
    assert goals[0].action == Action.TURN_RIGHT or goals[1].action == Action.TURN_RIGHT
    assert goals[-1].action == Action.STOP


def test_checks_are_skipped_and_stop_is_added() -> None:
    goals = decompose("Turn right at the light. If you reach a park, you went too far.")
    assert [g.action for g in goals] == [Action.TURN_RIGHT, Action.STOP]


def test_split_clauses() -> None:
    assert split_clauses("Walk to the light, then turn left and stop.") == [
        "walk to the light", "turn left", "stop"]


def test_bus_stop_and_stop_light_are_not_stops() -> None:
    goals = decompose("Walk past the bus stop and turn left at the stop light.")
    assert [g.action for g in goals] == [Action.MOVE_FORWARD, Action.TURN_LEFT, Action.STOP]
    assert goals[1].condition.feature == "light"


def test_elliptic_second_turn() -> None:
    assert actions("Turn right at the first set of lights and left at the following set.")[:2] \
        == [("TURN_RIGHT", "light", 1, False), ("TURN_LEFT", "light", 1, True)]


def test_side_corner_is_a_landmark_not_a_crossing() -> None:
    goals = decompose("Pass The Dutch on the left corner and go through the first light.")
    assert goals[0].condition.feature == "" and goals[1].condition.feature == "light"


def test_blocks_and_steps_in_stops() -> None:
    blocks = decompose("Go forward for 2.5 blocks to reach the goal.")[-1].condition
    assert (blocks.feature, blocks.count, blocks.fraction) == ("block", 2, 0.5)
    steps = decompose("Turn right and stop 3 steps after turning.")[-1].condition
    assert (steps.relation, steps.fraction) == ("few", 3.0)


def test_too_far_check_is_kept_on_the_stop() -> None:
    goals = decompose("Stop at the pharmacy. If you reach Chase, you've gone too far.")
    assert [g.action for g in goals] == [Action.STOP]
    assert "chase" in goals[0].condition.too_far


def test_take_the_nth_street_on_a_side() -> None:
    assert actions("Take the second street on the left.")[0] == ("TURN_LEFT", "intersection", 2,
                                                                 False)
    assert actions("Take the first side street on the right.")[0] == (
        "TURN_RIGHT", "intersection", 1, False)


def test_street_names_are_not_counts() -> None:
    assert actions("Pass 4th Street Food Coop on the right.")[0] == ("MOVE_FORWARD", "", 0, False)


def test_left_side_street_is_a_turn_but_left_side_is_not() -> None:
    assert actions("Take the left side street just ahead.")[0][0] == "TURN_LEFT"
    assert actions("Pass the bank on the left side.")[0][0] == "MOVE_FORWARD"


def test_crossing_passed_before_the_turn_in_one_clause() -> None:
    text = "Continue down the block going through the light before making a left at the light."
    assert actions(text)[:2] == [("MOVE_FORWARD", "light", 1, False),
                                 ("TURN_LEFT", "light", 1, False)]
    assert decompose(text)[0].condition.passing


def test_left_or_right_describes_a_crossing() -> None:
    text = "At the following light where you can only turn left or right, turn right."
    assert [a[0] for a in actions(text)] == ["MOVE_FORWARD", "TURN_RIGHT", "STOP"]


def test_go_left_at_a_fork_is_a_veer() -> None:
    assert actions("There will be a fork in the road. Go to the left.")[0] == (
        "TURN_LEFT", "veer", 1, True)


def test_a_motion_after_a_turn_is_its_own_subgoal() -> None:
    # "drive two blocks" says what comes after the turn, not where the turn is.
    goals = decompose("Make a right and drive two blocks. Stop.")
    assert goals[0].action == Action.TURN_RIGHT
    assert goals[0].condition.feature == ""
    assert (goals[1].action, goals[1].condition.feature, goals[1].condition.count) == (
        Action.MOVE_FORWARD, "intersection", 2)


def test_reaching_the_end_of_the_street_is_no_stop() -> None:
    goals = decompose("Keep going until you reach the end of the street, then turn right. "
                      "Stop at the bank.")
    assert [g.action for g in goals] == [Action.MOVE_FORWARD, Action.TURN_RIGHT, Action.STOP]
    assert goals[0].condition.feature == "t"
    assert decompose("Walk on until you reach the end.")[-1].text != "stop"


def test_a_landmark_place_before_a_bare_turn_is_where_the_turn_happens() -> None:
    goals = decompose("Pass a bus stop. At the Capital One on the right corner, turn left. "
                      "Stop there.")
    assert [g.action for g in goals] == [Action.MOVE_FORWARD, Action.TURN_LEFT, Action.STOP]
    assert goals[1].text == "turn left at the capital one on the right corner"
    # A light stays a move of its own: walk to it, then turn where you stand.
    goals = decompose("At the next light, turn right. Stop.")
    assert [g.action for g in goals] == [Action.MOVE_FORWARD, Action.TURN_RIGHT, Action.STOP]


def test_a_turn_to_ignore_is_no_turn() -> None:
    goals = decompose("Continue straight. Ignore a right turn. At the next intersection, "
                      "turn right. Stop there.")
    assert [g.action for g in goals].count(Action.TURN_RIGHT) == 1


def test_an_abbreviation_period_does_not_end_the_sentence() -> None:
    goals = decompose("Turn right. Stop just after No. 6 Store on the left.")
    assert goals[-1].text == "stop just after no 6 store on the left"


def test_the_turn_just_made_and_initialisms() -> None:
    goals = decompose("Turn right at the deli. After you turn right, go straight and stop "
                      "in front of Sweetgreen.")
    assert [g.action for g in goals] == [Action.TURN_RIGHT, Action.STOP]
    # "shortly after bear left" is a new turn, not the one just made.
    goals = decompose("Pass CVS and then at the light shortly after bear left. Stop.")
    assert Action.TURN_LEFT in [g.action for g in goals]
    goals = decompose("Go straight past P.S. Burgers and take a right. Stop.")
    assert goals[0].text == "go straight past ps burgers"


def test_not_too_far_is_a_distance_not_an_overshoot_check() -> None:
    goals = decompose("Turn left at the light. At the next light, not too far away, also go "
                      "left. Stop halfway down the block.")
    assert [g.action for g in goals].count(Action.TURN_LEFT) == 2
    goals = decompose("Turn left. Stop at the bank. If you reach the light, you went too far.")
    assert goals[-1].condition.too_far


def test_take_the_next_left_is_a_turn_and_a_street_you_could_turn_on_is_not() -> None:
    goals = decompose("Go straight and take the next left where there is no light. Stop.")
    assert goals[0].action == Action.TURN_LEFT
    goals = decompose("Keep going straight, past the first street that you could turn left "
                      "on. Take the next right. Stop.")
    assert [g.action for g in goals] == [Action.MOVE_FORWARD, Action.TURN_RIGHT, Action.STOP]


def test_a_stop_before_a_turn_is_a_halt_on_the_way() -> None:
    goals = decompose("Go through four traffic lights and stop at the fifth. Turn left at the "
                      "corner and stop in front of the bank.")
    assert [g.action for g in goals][-2:] == [Action.TURN_LEFT, Action.STOP]
    assert goals[-1].text.startswith("stop in front of the bank")


@pytest.mark.parametrize(("text", "expected"), [
    ("Go straight and take the fork to the left.", ("TURN_LEFT", "veer", 1, True)),
    ("Keep right at the fork.", ("TURN_RIGHT", "veer", 1, True)),
    ("Follow the road and take the right path of the Y.", ("TURN_RIGHT", "veer", 1, True)),
    ("Make a wide right at the next light.", ("TURN_RIGHT", "light", 1, True)),
    ("Take the first available left.", ("TURN_LEFT", "", 0, False)),
    ("Turn at the left side street.", ("TURN_LEFT", "intersection", 1, False)),
], ids=["fork-to-the-left", "keep-right-at-fork", "path-of-the-y", "wide", "available",
        "side-street"])
def test_fork_branches_and_turn_modifiers(text: str, expected: tuple[str, str, int, bool]
                                          ) -> None:
    assert [a for a in actions(text) if a[0] != "MOVE_FORWARD"][0] == expected


def test_a_named_place_on_the_corner_does_not_replace_the_counted_light() -> None:
    # The corner says where Duane Reade is; the walk goes to the second light.
    assert actions("Duane Reade is on the corner at the second light. Turn left there.")[:2] == [
        ("MOVE_FORWARD", "light", 2, False), ("TURN_LEFT", "", 0, False)]
    # A bare corner stays the place to go.
    assert actions("Stop on the corner.")[0][:2] == ("STOP", "intersection")


def test_a_turn_passed_is_not_taken() -> None:
    assert actions("Go straight past a right turn and then a traffic light. At the second "
                   "traffic light, take a right.")[0][0] == "MOVE_FORWARD"
    assert "TURN_RIGHT" in [a[0] for a in actions("Take a right turn at the light.")]


def test_a_described_crossing_then_go_straight_passes_it() -> None:
    goals = actions("The next light should have a bakery on the far corner, go straight. "
                    "Turn left at the next light.")
    assert goals[:2] == [("MOVE_FORWARD", "light", 1, True), ("TURN_LEFT", "light", 1, True)]
    # What a crossing has is a description, not a move.
    assert actions("The fourth light has Valley Bank on the corner. Go through two lights.")[
        0] == ("MOVE_FORWARD", "light", 2, True)


def test_stop_here_after_a_description_stops_at_the_described_place() -> None:
    goals = decompose("Turn left. Half a block down, there will be a Duane Reade on your "
                      "right. Stop here.")
    assert goals[-1].action == Action.STOP
    assert goals[-1].condition.relation == "fraction" and goals[-1].condition.fraction == 0.5
    goals = decompose("Turn left. There will be a bank on your right. Stop there.")
    assert "bank" in goals[-1].condition.landmark
    # An opening phrase that names a crossing is not a description's distance.
    assert actions("At the next light, it is a large intersection. Go straight.")[0][:2] == (
        "MOVE_FORWARD", "light")
