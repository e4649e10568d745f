"""The parser's bounds: polynomial attachment (issue 16, item 1) and the instruction length limit."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from map2route.language.parser import (
    MAX_INSTRUCTION_CHARS,
    InstructionTooLongError,
    ParseError,
    parse_instruction,
)

#: Per-instruction bound. The parser takes about 10 ms for these; 1 s leaves room for a loaded
#: machine (before the chart, the 38-modifier chain took 45 s).
BOUND_S = 1.0


def _chain(n: int) -> str:
    """"go to the chair next to the bed far from the desk next to the bed ...": ``n`` modifiers
    alternating a kind nested phrases keep (next to) with one they do not (far from)."""
    mods = ("next to the bed", "far from the desk")
    return "go to the chair " + " ".join(mods[k % 2] for k in range(n))


def test_a_chain_of_38_post_modifiers_parses_fast_and_whole() -> None:
    text = _chain(38)
    t0 = time.perf_counter()
    p = parse_instruction(text)
    elapsed = time.perf_counter() - t0
    assert elapsed < BOUND_S, f"{elapsed:.2f} s for 38 modifiers"
    [goal] = p.clauses
    ref = goal.refs[0]
    assert ref.head == "chair" and ref.text == text[len("go to "):]
    # local attachment: each "next to" nests in the phrase before it, each "far from" goes to
    # the chair, so the chair carries the 19 far-from modifiers and the first next-to
    kinds = [m.kind for m in ref.modifiers]
    assert kinds.count("far_from") == 19 and kinds[0] == "next_to"
    assert p.unknown_words == []


@pytest.mark.parametrize("policy", ["local", "low", "high"])
def test_every_attachment_policy_is_polynomial(policy: str) -> None:
    t0 = time.perf_counter()
    parse_instruction(_chain(60), attachment=policy)
    assert time.perf_counter() - t0 < BOUND_S


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
def test_fuzzed_instructions_each_parse_well_under_a_second(text: str) -> None:
    t0 = time.perf_counter()
    try:
        parse_instruction(text)
    except ParseError:
        pass  # a refusal is a fine answer; a slow one is not
    elapsed = time.perf_counter() - t0
    assert elapsed < BOUND_S, f"{elapsed:.2f} s for {len(text)} characters: {text[:120]!r}"
