"""Two grounders behind one interface, and the bounded repair loop they share (paper 000, IV-C).

A grounder proposes a program for an instruction; the loop runs it in the sandbox, verifies
the RouteIR, and on failure asks the grounder for a new program given the old one and its
structured issues: ``P(r+1) = f(I, P(r), E(r))`` for at most ``R`` rounds (3 by default).

- :class:`OfflineGrounder`: :mod:`~map2route.language.parser` +
  :mod:`~map2route.grounding.writer`; its repair tries other readings in turn: group words as
  their main category, low attachment, lenient definite references, high attachment.
- :class:`LLMGrounder`: any OpenAI-compatible chat endpoint through
  :class:`map2route.llm.ChatClient`; the prompt holds the API reference and worked examples.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from map2route.grounding.errors import GroundingError, GroundingIssue
from map2route.grounding.hybrid import HybridGrounder
from map2route.grounding.sandbox import ProgramResult, SandboxRunner, run_in_process, shared_runner
from map2route.grounding.verifier import verify
from map2route.language.parser import (
    ATTACHMENTS,
    MAX_INSTRUCTION_CHARS,
    InstructionParse,
    InstructionTooLongError,
    ParseError,
    parse_instruction,
)

if TYPE_CHECKING:
    from map2route.routeir.model import RouteIR
    from map2route.semantic_map.model import SemanticMap

Proposer = Callable[[str, str | None, Sequence[GroundingIssue]], str]


@dataclass
class Attempt:
    """One round: the program and what was wrong with it (empty: accepted)."""

    program: str
    issues: tuple[GroundingIssue, ...]
    elapsed_s: float


@dataclass
class Grounding:
    """A verified grounding: the RouteIR, the accepted program and every attempt."""

    routeir: RouteIR
    program: str
    attempts: list[Attempt]
    grounder: str
    elapsed_s: float
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def repairs(self) -> int:
        return len(self.attempts) - 1


class Grounder(Protocol):
    """Turns an instruction on a map into a verified :class:`Grounding`."""

    name: str

    def ground(self, instruction: str, m: SemanticMap,
               start_xy: tuple[float, float] | None = None) -> Grounding:
        """Raises :class:`GroundingError` with the last round's issues when all rounds fail."""
        ...


def load_config(path: str | Path | None = None) -> dict[str, Any]:
    """Read ``config/grounding.yaml`` (or ``path``).

    Raises:
        GroundingError: the file is missing or not a mapping.
    """
    import yaml

    from map2route.paths import config_dir

    p = Path(path) if path is not None else config_dir() / "grounding.yaml"
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        msg = f"cannot read grounding config {p}: {err}"
        raise GroundingError(msg) from err
    if not isinstance(data, dict):
        msg = f"grounding config {p} must be a mapping, got {type(data).__name__}"
        raise GroundingError(msg)
    return data


def max_instruction_chars(cfg: dict[str, Any]) -> int:
    """``offline.max_instruction_chars`` of a grounding config (the parser's default if unset).

    Raises:
        GroundingError: the value is not a positive whole number.
    """
    value = cfg.get("offline", {}).get("max_instruction_chars", MAX_INSTRUCTION_CHARS)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        msg = (f"offline.max_instruction_chars in the grounding config must be a positive "
               f"whole number, got {value!r}")
        raise GroundingError(msg)
    return value


class Executor:
    """Runs programs: the warm sandbox process (default) or, for trusted programs, in process."""

    def __init__(self, mode: str = "process", runner: SandboxRunner | None = None) -> None:
        if mode not in ("process", "inprocess"):
            msg = f"executor must be 'process' or 'inprocess', got {mode!r}"
            raise GroundingError(msg)
        self.mode = mode
        self._runner = runner

    def run(self, m: SemanticMap, source: str, start_xy: tuple[float, float] | None, *,
            instruction: str, grounder: str) -> ProgramResult:
        if self.mode == "inprocess":
            return run_in_process(m, source, start_xy, instruction=instruction, grounder=grounder)
        runner = self._runner or shared_runner()
        return runner.run(m, source, start_xy, instruction=instruction, grounder=grounder)


def repair_loop(instruction: str, m: SemanticMap, start_xy: tuple[float, float] | None,
                propose: Proposer, *, executor: Executor, rounds: int = 3,
                grounder: str = "") -> Grounding:
    """Propose, run, verify; on issues propose again with them, at most ``rounds`` times.

    Raises:
        GroundingError: every round failed; carries the last round's issues.
    """
    t0 = time.perf_counter()
    attempts: list[Attempt] = []
    program: str | None = None
    issues: tuple[GroundingIssue, ...] = ()
    for _ in range(rounds + 1):
        try:
            program = propose(instruction, program, issues)
        except GroundingError as err:
            if not attempts:
                raise
            issues = tuple(err.issues) or issues
            break
        result = executor.run(m, program, start_xy, instruction=instruction, grounder=grounder)
        issues = result.issues
        if result.routeir is not None and not issues:
            issues = tuple(verify(m, result.routeir, result.trace, start_xy))
        attempts.append(Attempt(program, issues, result.elapsed_s))
        if not issues and result.routeir is not None:
            ir = result.routeir
            ir.metadata["repairs"] = len(attempts) - 1
            return Grounding(ir, program, attempts, grounder, time.perf_counter() - t0)
    first = attempts[0].issues if attempts else ()
    shown = list(first) + [i for i in issues if i not in first]
    lines = "\n  - ".join(i.render() for i in shown) or "no program was produced"
    msg = f"could not ground {instruction!r} after {len(attempts)} attempt(s):\n  - {lines}"
    raise GroundingError(msg, issues)


# --- offline -----------------------------------------------------------------------------------
class OfflineGrounder:
    """The default grounder: a compositional English parser that writes the program.

    Args:
        rounds: repair rounds R.
        executor: where programs run (the warm sandbox by default).
        max_chars: the longest instruction the parser reads (longer ones are refused).
    """

    name = "offline"

    def __init__(self, *, rounds: int = 3, executor: Executor | None = None,
                 max_chars: int = MAX_INSTRUCTION_CHARS) -> None:
        self.rounds = rounds
        self.executor = executor or Executor("process")
        self.max_chars = max_chars

    @classmethod
    def from_config(cls, cfg: dict[str, Any]) -> OfflineGrounder:
        sb = cfg.get("sandbox", {})
        mode = str(cfg.get("offline", {}).get("executor", "process"))
        runner = SandboxRunner(cpu_s=float(sb.get("cpu_s", 2.0)), wall_s=float(sb.get("wall_s", 5.0)),
                               memory_mb=int(sb.get("memory_mb", 512))) if mode == "process" else None
        return cls(rounds=int(cfg.get("repair_rounds", 3)), executor=Executor(mode, runner),
                   max_chars=max_instruction_chars(cfg))

    def _candidates(self, instruction: str) -> Iterator[tuple[str, InstructionParse, str]]:
        """Programs in the order the repair loop tries them, built lazily: (note, parse, program).

        Raises:
            GroundingError: no attachment policy could parse the instruction (names the word).
        """
        from map2route.grounding.writer import write_program

        first: InstructionParse | None = None
        first_error: ParseError | None = None
        seen: set[str] = set()

        def fresh(prog: str) -> bool:
            if prog in seen:
                return False
            seen.add(prog)
            return True

        parses: dict[str, InstructionParse] = {}
        for policy in ATTACHMENTS:
            try:
                parses[policy] = parse_instruction(instruction, attachment=policy,
                                                   max_chars=self.max_chars)
            except InstructionTooLongError as err:
                raise GroundingError(str(err)) from err
            except ParseError as err:
                first_error = first_error or err
                continue
            first = first or parses[policy]
            if policy == "local":
                prog = write_program(parses[policy])
                if fresh(prog):
                    yield "attachment=local", parses[policy], prog
                prog = write_program(parses[policy], narrow_groups=True)
                if fresh(prog):
                    yield "group words as their main category", parses[policy], prog
                continue
            if policy == "high" and first is not None:
                lenient = write_program(first, strict=False)
                if fresh(lenient):
                    yield "lenient definite references", first, lenient
            prog = write_program(parses[policy])
            if fresh(prog):
                yield f"attachment={policy}", parses[policy], prog
        if first is not None:
            return
        assert first_error is not None
        issue = GroundingIssue("not_understood", str(first_error), span=first_error.span,
                               span_kind="instruction",
                               candidates=(first_error.word,) if first_error.word else ())
        msg = f"could not understand {instruction!r}: {first_error}"
        raise GroundingError(msg, (issue,))

    def parse(self, instruction: str) -> InstructionParse:
        """The primary parse (what ``map2route parse`` shows)."""
        try:
            return parse_instruction(instruction, max_chars=self.max_chars)
        except InstructionTooLongError as err:
            raise GroundingError(str(err)) from err
        except ParseError as err:
            msg = f"could not understand {instruction!r}: {err}"
            raise GroundingError(msg) from err

    def ground(self, instruction: str, m: SemanticMap,
               start_xy: tuple[float, float] | None = None) -> Grounding:
        cands = self._candidates(instruction)
        tried: list[tuple[str, InstructionParse, str]] = []

        def propose(_i: str, _prev: str | None, issues: Sequence[GroundingIssue]) -> str:
            nxt = next(cands, None)
            if nxt is None:
                raise GroundingError("no other reading of the instruction", tuple(issues))
            tried.append(nxt)
            return nxt[2]

        try:
            g = repair_loop(instruction, m, start_xy, propose, executor=self.executor,
                            rounds=self.rounds, grounder=self.name)
        except GroundingError as err:
            notes = _refusal_notes(err, m, tried[0][1] if tried else None)
            if notes:
                raise GroundingError("\n  ".join([str(err), *notes]), err.issues) from err
            raise
        g.info["reading"] = tried[-1][0]
        g.info["parse"] = tried[-1][1]
        return g


def _refusal_notes(err: GroundingError, m: SemanticMap,
                   parse: InstructionParse | None) -> list[str]:
    """Lines that make a refusal actionable: the words not understood, the nearest names this
    map has for each, and the words read by fuzzy matching (so a wrong guess shows)."""
    from map2route.grounding.vocabulary import nearest_names

    notes: list[str] = []
    words = [c for i in err.issues if i.code == "not_understood" for c in i.candidates[:1]]
    if parse is not None:
        words += [w for w in parse.unknown_words if w not in words]
    if words:
        notes.append(f"words not understood: {', '.join(repr(w) for w in words)}")
        for w in words[:3]:
            near = ", ".join(repr(n) for n in nearest_names(w, m))
            notes.append(f"nearest names in this map for {w!r}: {near}")
    if parse is not None:
        fuzzy = [(r.fuzzy, r.head) for r in _all_refs(parse) if r.fuzzy]
        notes.extend(f"read {f!r} as {h.replace('_', ' ')!r} (closest known word)"
                     for f, h in fuzzy)
    return notes


def _all_refs(parse: InstructionParse) -> list[Any]:
    out: list[Any] = []

    def walk(r: Any) -> None:
        out.append(r)
        for mod in r.modifiers:
            for x in mod.refs:
                walk(x)

    for r in parse.references():
        walk(r)
    return out


# --- LLM ---------------------------------------------------------------------------------------
_FENCE = re.compile(r"```(?:python|py)?\s*\n(.*?)```", re.DOTALL)

WORKED_EXAMPLES: tuple[tuple[str, str], ...] = (
    ("Go to the chair nearest to the bed in the bedroom with two windows.",
     "bedroom = unique(where(rooms('bedroom'), has('window', exactly=2)), 'the bedroom with two windows')\n"
     "bed = unique(entities('bed', room=bedroom), 'the bed in the bedroom')\n"
     "chair = kth_nearest(entities('chair', room=bedroom), bed, 1)\n"
     "task([segment(chair, label='the chair nearest to the bed')])\n"),
    ("Visit the sofa, then the desk, staying far from the windows while crossing the bedroom.",
     "sofa = unique(entities('sofa'), 'the sofa')\n"
     "desk = unique(entities('desk'), 'the desk')\n"
     "bedroom = unique(rooms('bedroom'), 'the bedroom')\n"
     "legs = [segment(sofa), segment(desk)]\n"
     "far = constraint('far', entities('window', room=bedroom), within=bedroom, label='far from the windows')\n"
     "task(legs, [far])\n"),
    ("If the kitchen contains a lamp, go to the lamp; otherwise circle the table clockwise. Avoid the bathroom.",
     "kitchen = unique(rooms('kitchen'), 'the kitchen')\n"
     "lamps = entities('lamp', room=kitchen)\n"
     "if count(lamps) > 0:\n"
     "    leg = segment(unique(lamps, 'the lamp'))\n"
     "else:\n"
     "    leg = segment(shape=circle(unique(entities('table'), 'the table'), 'clockwise'))\n"
     "task([leg], [avoid(unique(rooms('bathroom'), 'the bathroom'))])\n"),
    ("On the way to the fridge, stay closer to the counter than to the table.",
     "fridge = unique(entities('fridge'), 'the fridge')\n"
     "leg = segment(fridge)\n"
     "rel = constraint('relative', unique(entities('counter_top'), 'the counter'), "
     "other=unique(entities('dining_table'), 'the table'), during=leg)\n"
     "task([leg], [rel])\n"),
)


def system_prompt() -> str:
    """The LLM's instructions: rules, the API reference (from docstrings) and worked examples."""
    from map2route.grounding.api import api_reference

    examples = "\n\n".join(f"Instruction: {i}\n```python\n{p}```" for i, p in WORKED_EXAMPLES)
    return (
        "You write grounding programs: short Python that calls ONLY the functions below to "
        "turn a route instruction into a route over a semantic map. Rules: no imports, no "
        "names or attributes starting with '_', no lambdas, no while loops, no try, no classes. "
        "Use unique(...) for every 'the X' so a wrong reading fails loudly; rank with "
        "kth_nearest/kth_farthest/kth_largest; build legs with segment(...) in route order and "
        "requirements with constraint(...)/avoid(...); end with exactly one task(...) call. "
        "Reply with one ```python fenced block and nothing else.\n\n"
        f"## API\n{api_reference()}\n## Worked examples\n{examples}\n")


def scene_brief(m: SemanticMap, start_xy: tuple[float, float] | None) -> str:
    """What the LLM may know about the scene: room types and object categories with counts."""
    rooms: dict[str, int] = {}
    for r in m.rooms:
        rooms[r.type.snake] = rooms.get(r.type.snake, 0) + 1
    cats: dict[str, int] = {}
    for o in m.objects:
        cats[o.category] = cats.get(o.category, 0) + 1
    start = ""
    if start_xy is not None:
        r0 = m.room_at(*start_xy)
        start = f"\nThe robot starts in a {r0.type.snake}." if r0 is not None else ""
    return ("Rooms: " + ", ".join(f"{k} x{v}" for k, v in sorted(rooms.items())) +
            "\nObject categories: " + ", ".join(f"{k} x{v}" for k, v in sorted(cats.items())) +
            f"\nWindows: {len(m.windows)}, doors: {len(m.doors)}.{start}")


def extract_program(reply: str) -> str:
    """The program in an LLM reply: the first fenced block, else the whole reply."""
    mt = _FENCE.search(reply)
    return (mt.group(1) if mt else reply).strip() + "\n"


class LLMGrounder:
    """Ground with an LLM over an OpenAI-compatible endpoint; same sandbox, verifier, repair.

    Args:
        client: a :class:`map2route.llm.ChatClient`.
        rounds: repair rounds R.
        temperature, max_tokens: sampling settings.
        executor: where programs run (always the sandbox process unless a test says otherwise).
    """

    name = "llm"

    def __init__(self, client: Any, *, rounds: int = 3, temperature: float = 0.0,
                 max_tokens: int | None = 1200, executor: Executor | None = None) -> None:
        self.client = client
        self.rounds = rounds
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.executor = executor or Executor("process")
        self.calls = 0

    @classmethod
    def from_config(cls, cfg: dict[str, Any]) -> LLMGrounder:
        from map2route.llm import ChatClient

        llm = dict(cfg.get("llm") or {})
        temperature = float(llm.pop("temperature", 0.0))
        max_tokens = llm.pop("max_tokens", 1200)
        sb = cfg.get("sandbox", {})
        runner = SandboxRunner(cpu_s=float(sb.get("cpu_s", 2.0)), wall_s=float(sb.get("wall_s", 5.0)),
                               memory_mb=int(sb.get("memory_mb", 512)))
        return cls(ChatClient.from_config(llm), rounds=int(cfg.get("repair_rounds", 3)),
                   temperature=temperature,
                   max_tokens=None if max_tokens is None else int(max_tokens),
                   executor=Executor("process", runner))

    def ground(self, instruction: str, m: SemanticMap,
               start_xy: tuple[float, float] | None = None) -> Grounding:
        messages: list[dict[str, str]] = [
            {"role": "system", "content": system_prompt()},
            {"role": "user", "content": f"{scene_brief(m, start_xy)}\n\nInstruction: {instruction}"},
        ]

        def propose(_i: str, prev: str | None, issues: Sequence[GroundingIssue]) -> str:
            if prev is not None:
                messages.append({"role": "assistant", "content": f"```python\n{prev}```"})
                problems = "\n".join(f"- {i.render()}" for i in issues)
                messages.append({"role": "user", "content": (
                    "That program failed verification:\n" + problems +
                    "\nFix it and reply with the whole corrected program in one ```python block.")})
            self.calls += 1
            reply = self.client.complete(messages, temperature=self.temperature,
                                         max_tokens=self.max_tokens)
            return extract_program(reply)

        g = repair_loop(instruction, m, start_xy, propose, executor=self.executor,
                        rounds=self.rounds, grounder=self.name)
        g.info["llm_calls"] = len(g.attempts)
        return g


def make_grounder(name: str = "offline", *, config: dict[str, Any] | None = None) -> Grounder:
    """Build the grounder ``name`` (``offline``, ``llm`` or ``hybrid``) from ``config/grounding.yaml``.

    Raises:
        GroundingError: unknown name or bad config.
    """
    cfg = config if config is not None else load_config()
    if name == "offline":
        return OfflineGrounder.from_config(cfg)
    if name == "llm":
        return LLMGrounder.from_config(cfg)
    if name == "hybrid":
        return HybridGrounder(OfflineGrounder.from_config(cfg), LLMGrounder.from_config(cfg))
    msg = f"unknown grounder {name!r}; use 'offline', 'llm' or 'hybrid'"
    raise GroundingError(msg)
