"""The parser fuzz benchmark, small and seeded (issue 16: fuzzed instructions finish cleanly).

`map2route bench fuzz-parser` runs 10,000 instructions and times them (docs/limits.md); here
200 of them go through the same `parse` and `route` paths and every outcome must be a result or
a clean `Error:` line, never a traceback. No timing is asserted here (that is the benchmark's).
"""

from __future__ import annotations

import pytest

from map2route.bench.fuzz.instructions import KINDS, fuzz_instructions
from map2route.bench.fuzz.run import Outcome, make_grounder, run_one, summarize
from map2route.cli import main
from map2route.cli.grounding_commands import _load_scene, _parse_start
from map2route.language.parser import MAX_INSTRUCTION_CHARS, ParseError, parse_instruction

SCENE = "procthor_00471"


@pytest.fixture(scope="module")
def outcomes() -> list[Outcome]:
    m = _load_scene(SCENE)
    start = _parse_start(None, m)
    grounder = make_grounder()
    out: list[Outcome] = []
    for kind, text in fuzz_instructions(200, seed=7, scene=m.name):
        out.extend(run_one(grounder, m, start, kind, text))
    return out


def test_the_instructions_are_seeded_and_cover_every_kind() -> None:
    a = fuzz_instructions(200, seed=7, scene=SCENE)
    assert a == fuzz_instructions(200, seed=7, scene=SCENE)
    assert a != fuzz_instructions(200, seed=8, scene=SCENE)
    assert {k for k, _ in a} == set(KINDS)
    for kind, text in a:
        assert (len(text) > MAX_INSTRUCTION_CHARS) == (kind == "over"), kind
    assert any(any(ord(ch) > 127 for ch in t) for _, t in a), "no unicode in the fuzz"


def test_every_fuzzed_instruction_ends_in_a_result_or_a_clean_error(outcomes) -> None:
    bad = [o for o in outcomes if o.status not in ("ok", "error")]
    assert not bad, bad[0].detail
    rows = {r.path: r for r in summarize(outcomes)}
    assert set(rows) == {"parse", "ground", "route"}
    assert all(r.count == 200 and r.tracebacks == 0 for r in rows.values())
    # the fuzz reaches the whole path, not only the refusals
    assert rows["parse"].ok > 0 and rows["route"].ok > 0
    for o in outcomes:
        if o.status == "error":
            assert o.detail and "\n" not in o.detail


def test_an_instruction_over_the_limit_is_refused_by_name(outcomes) -> None:
    over = [o for o in outcomes if o.kind == "over"]
    assert over and all(o.status == "error" for o in over)
    assert all("max_instruction_chars" in o.detail for o in over)


def test_cli_prints_the_table_and_checks_paths(capsys) -> None:
    assert main(["bench", "fuzz-parser", "--count", "12", "--paths", "parse",
                 "--scene", "two_room_house"]) == 0
    out = capsys.readouterr().out
    assert "12 fuzzed instructions" in out and "tracebacks" in out and "parse" in out
    assert main(["bench", "fuzz-parser", "--count", "3", "--paths", "plan"]) != 0


@pytest.mark.parametrize("text", ["avoid", "avoiding", "go to the sofa avoiding",
                                  "bring stool the closet avoiding"])
def test_a_verb_with_nothing_after_it_is_a_clean_error(text: str) -> None:
    """Found by the 10,000-instruction fuzz: a trailing "avoid" indexed past the last token."""
    with pytest.raises(ParseError, match="what to avoid"):
        parse_instruction(text)
