"""The parser's bounds: polynomial attachment (issue 16, item 1) and the instruction length limit.

These tests count work, not seconds: the number of noun-phrase reads (:meth:`ReferenceReader.np`,
hits and misses of the chart) is what blew up before the chart (45 s for 38 modifiers), and a
count is the same on a loaded CI machine as on an idle one. Wall-clock time per instruction is
measured by ``make bench`` (``map2route bench fuzz-parser``: median, p99, max and the count over
1 s, on 10,000 fuzzed instructions), where a speed target belongs.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from map2route.language.parser import (
    MAX_INSTRUCTION_CHARS,
    InstructionTooLongError,
    ParseError,
    parse_instruction,
)
from map2route.language.parser.references import ReferenceReader

#: Noun-phrase reads allowed per word of the instruction. With the chart, a chain of n modifiers
#: takes about 2n reads (linear; measured 0.65 per word at most on the fuzzed instructions below);
#: without it the reads grow exponentially with the chain.
READS_PER_WORD = 3


@contextmanager
def _counting_np_reads() -> Iterator[list[int]]:
    """Count :meth:`ReferenceReader.np` calls (chart hits and misses) inside the block."""
    count = [0]
    original = ReferenceReader.np

    def counted(self: ReferenceReader, *args: object, **kwargs: object) -> object:
        count[0] += 1
        return original(self, *args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ReferenceReader, "np", counted)
        yield count


@pytest.fixture
def np_reads() -> Iterator[list[int]]:
    with _counting_np_reads() as count:
        yield count


def _chain(n: int) -> str:
    """"go to the chair next to the bed far from the desk next to the bed ...": ``n`` modifiers
    alternating a kind nested phrases keep (next to) with one they do not (far from)."""
    mods = ("next to the bed", "far from the desk")
    return "go to the chair " + " ".join(mods[k % 2] for k in range(n))


def test_a_chain_of_38_post_modifiers_parses_in_linear_work_and_whole(np_reads: list[int]) -> None:
    text = _chain(38)
    p = parse_instruction(text)
    assert np_reads[0] <= 2 * 38 + 4, f"{np_reads[0]} noun-phrase reads for 38 modifiers"
    [goal] = p.clauses
    ref = goal.refs[0]
    assert ref.head == "chair" and ref.text == text[len("go to "):]
    # local attachment: each "next to" nests in the phrase before it, each "far from" goes to
    # the chair, so the chair carries the 19 far-from modifiers and the first next-to
    kinds = [m.kind for m in ref.modifiers]
    assert kinds.count("far_from") == 19 and kinds[0] == "next_to"
    assert p.unknown_words == []


@pytest.mark.parametrize("policy", ["local", "low", "high"])
def test_every_attachment_policy_is_polynomial(policy: str, np_reads: list[int]) -> None:
    # doubling the chain at most doubles the reads (linear), at every attachment policy
    reads = []
    for n in (20, 40, 80):
        np_reads[0] = 0
        parse_instruction(_chain(n), attachment=policy)
        reads.append(np_reads[0])
    assert reads[1] <= 2 * reads[0] + 2 and reads[2] <= 2 * reads[1] + 2, reads


def test_an_instruction_over_the_limit_is_refused_by_name() -> None:
    text = "go to the sofa. " * (MAX_INSTRUCTION_CHARS // 16 + 1)
    with pytest.raises(InstructionTooLongError) as err:
        parse_instruction(text)
    msg = str(err.value)
    assert f"{len(text):,} characters" in msg and f"{MAX_INSTRUCTION_CHARS:,}" in msg
    assert "offline.max_instruction_chars" in msg and "max_chars" in msg
    # a raised limit reads it whole: nothing is cut off silently
    p = parse_instruction(text, max_chars=len(text))
    assert len([c for c in p.clauses if c.kind == "goal"]) == text.count("sofa")


def test_the_limit_is_inclusive() -> None:
    text = "go to the sofa"
    assert parse_instruction(text, max_chars=len(text)).clauses[0].kind == "goal"
    with pytest.raises(InstructionTooLongError):
        parse_instruction(text, max_chars=len(text) - 1)


_NOUNS = ["chair", "bed", "sofa", "desk", "lamp", "table", "bedroom", "kitchen", "living room",
          "fridge", "toilet", "window", "tv stand", "plant", "wall", "door"]
_MODS = ["next to", "in", "on", "near", "far from", "nearest to", "closest to", "with",
         "that is next to", "which is in", "and near", "second nearest to", "away from",
         "in the corner of", "between the sofa and"]
_VERBS = ["go to", "visit", "avoid", "stay close to", "pass through", "head to",
          "keep away from", "stay closer to", "if the kitchen has a", "circle", "then"]
_GLUE = [", then ", ". ", " and then ", ", ", " than ", " otherwise ", " "]


@st.composite
def instructions(draw: st.DrawFn) -> str:
    """Clauses whose noun phrases carry long chains of mixed post-modifiers, and word soup."""
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        words = [draw(st.sampled_from(_VERBS)), "the", draw(st.sampled_from(_NOUNS))]
        for _ in range(draw(st.integers(0, 30))):
            words += [draw(st.sampled_from(_MODS)), "the", draw(st.sampled_from(_NOUNS))]
        parts.append(" ".join(words))
    glue = draw(st.sampled_from(_GLUE))
    return glue.join(parts)[:MAX_INSTRUCTION_CHARS]


@seed(16)
@settings(max_examples=150, deadline=None, derandomize=False,
          suppress_health_check=[HealthCheck.too_slow])
@given(text=instructions())
def test_fuzzed_instructions_each_parse_in_linear_work(text: str) -> None:
    # hypothesis runs the examples inside one test call: a counter per example, not a fixture
    with _counting_np_reads() as count:
        try:
            parse_instruction(text)
        except ParseError:
            pass  # a refusal is a fine answer; unbounded work is not
    words = len(text.split())
    assert count[0] <= READS_PER_WORD * words + 4, f"{count[0]} reads for {words} words: {text[:120]!r}"
