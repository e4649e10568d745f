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

import contextlib
import math
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from map2route.errors import Map2RouteError
from map2route.grounding.api import api_reference
from map2route.grounding.config import ENDPOINT_ENV, GroundingConfig, load_config
from map2route.grounding.errors import GroundingError, GroundingIssue
from map2route.grounding.hybrid import AutoGrounder, HybridGrounder
from map2route.grounding.sandbox import ProgramResult, SandboxRunner, run_in_process, shared_runner
from map2route.grounding.verifier import VerifierLimits, program_limit_issues, verify
from map2route.grounding.vocabulary import nearest_names
from map2route.grounding.writer import write_program
from map2route.language.parser import (
    ATTACHMENTS,
    MAX_INSTRUCTION_CHARS,
    InstructionParse,
    InstructionTooLongError,
    ParseError,
    parse_instruction,
)
from map2route.llm import ChatClient

if TYPE_CHECKING:
    from map2route.routeir.model import RouteIR
    from map2route.semantic_map.model import SemanticMap

Proposer = Callable[[str, str | None, Sequence[GroundingIssue]], str]
#: The top-level keys of ``config/grounding.yaml``.
CONFIG_KEYS = frozenset({"grounder", "repair_rounds", "deadline_s", "limits", "sandbox",
                         "offline", "llm"})
#: A grounding call's wall-clock budget when the config does not set ``deadline_s``.
DEFAULT_DEADLINE_S = 60.0


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


def max_instruction_chars(cfg: GroundingConfig) -> int:
    """``offline.max_instruction_chars`` of a grounding config (validated positive on load)."""
    return cfg.offline.max_instruction_chars


class Executor:
    """Runs programs: the warm sandbox process (default) or, for trusted programs, in process."""

    def __init__(self, mode: str = "process", runner: SandboxRunner | None = None) -> None:
        if mode not in ("process", "inprocess"):
            msg = f"executor must be 'process' or 'inprocess', got {mode!r}"
            raise GroundingError(msg)
        self.mode = mode
        self._runner = runner

    def run(self, m: SemanticMap, source: str, start_xy: tuple[float, float] | None, *,
            instruction: str, grounder: str, timeout_s: float | None = None) -> ProgramResult:
        """Run one program; ``timeout_s`` tightens the sandbox's wall limit (a deadline's rest)."""
        if self.mode == "inprocess":
            with interrupt_after(timeout_s, "running the program"):
                return run_in_process(m, source, start_xy, instruction=instruction,
                                      grounder=grounder)
        runner = self._runner or shared_runner()
        return runner.run(m, source, start_xy, instruction=instruction, grounder=grounder,
                          wall_s=timeout_s)


# --- deadline ----------------------------------------------------------------------------------
class DeadlineExceeded(GroundingError):
    """A grounding call ran past its ``deadline_s`` (config/grounding.yaml)."""


class Deadline:
    """The wall-clock budget of one grounding call, all rounds together.

    Args:
        seconds: the budget; ``None`` means no deadline.
    """

    def __init__(self, seconds: float | None) -> None:
        if seconds is not None and not (seconds > 0 and math.isfinite(seconds)):
            msg = (f"deadline_s must be a positive number of seconds, got {seconds!r}; "
                   "set it in config/grounding.yaml")
            raise GroundingError(msg)
        self.seconds = seconds
        self._end = None if seconds is None else time.monotonic() + seconds

    def remaining(self) -> float | None:
        """Seconds left (never negative), or ``None`` without a deadline."""
        return None if self._end is None else max(0.0, self._end - time.monotonic())

    def expired(self) -> bool:
        left = self.remaining()
        return left is not None and left <= 0.0

    def error(self, instruction: str, during: str,
              issues: tuple[GroundingIssue, ...] = ()) -> DeadlineExceeded:
        issue = GroundingIssue("deadline", f"grounding took longer than deadline_s="
                               f"{self.seconds:g} s while {during}")
        shown = _short(instruction)
        msg = (f"could not ground {shown}: it took longer than deadline_s={self.seconds:g} s "
               f"(stopped while {during}). Raise deadline_s in config/grounding.yaml, or "
               "shorten or split the instruction.")
        return DeadlineExceeded(msg, (*issues, issue))


class _Interrupted(BaseException):
    """Raised by the alarm handler inside the interrupted code (BaseException so that no
    ``except Exception`` on the way swallows it)."""


@contextlib.contextmanager
def interrupt_after(seconds: float | None, during: str) -> Iterator[None]:
    """Interrupt the block after ``seconds`` with :class:`DeadlineExceeded`.

    Pure-Python work such as parsing cannot be cancelled from outside, so this uses
    ``SIGALRM``; signals reach only the main thread, so elsewhere (a ROS callback thread) the
    block runs to its end and the repair loop checks the deadline between steps instead. An
    alarm already set by someone else is left alone (no interruption then either).
    """
    usable = (seconds is not None and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread()
              and signal.getitimer(signal.ITIMER_REAL)[0] == 0.0)
    if not usable:
        yield
        return
    assert seconds is not None

    def on_alarm(_sig: int, _frame: object) -> None:
        raise _Interrupted

    previous = signal.signal(signal.SIGALRM, on_alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-3))
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0.0)
    except _Interrupted:
        raise DeadlineExceeded(f"deadline passed while {during}") from None
    finally:
        signal.signal(signal.SIGALRM, previous)


def _short(instruction: str, limit: int = 120) -> str:
    return repr(instruction if len(instruction) <= limit else instruction[:limit] + "...")


def repair_loop(instruction: str, m: SemanticMap, start_xy: tuple[float, float] | None,
                propose: Proposer, *, executor: Executor, rounds: int = 3,
                grounder: str = "", deadline: Deadline | None = None,
                limits: VerifierLimits | None = None) -> Grounding:
    """Propose, run, verify; on issues propose again with them, at most ``rounds`` times.

    Args:
        deadline: the call's wall-clock budget; checked before every step, and what is left
            of it bounds each program run (and, through the proposer, each LLM request).
        limits: the verifier's size limits (:class:`VerifierLimits`; defaults when ``None``).

    Raises:
        GroundingError: every round failed; the message lists every round's issues and
            ``issues`` holds the last round's. A proposer failure after the first round (an
            LLM server error mid-repair) keeps the earlier rounds in the message.
        DeadlineExceeded: the deadline passed (also listing the rounds so far).
    """
    t0 = time.perf_counter()
    deadline = deadline or Deadline(None)
    attempts: list[Attempt] = []
    program: str | None = None
    issues: tuple[GroundingIssue, ...] = ()
    failure = ""
    for _ in range(rounds + 1):
        if deadline.expired():
            raise _with_rounds(deadline.error(instruction, "proposing a program", issues),
                               attempts)
        try:
            with interrupt_after(deadline.remaining(), "proposing a program"):
                program = propose(instruction, program, issues)
        except DeadlineExceeded:
            raise _with_rounds(deadline.error(instruction, "proposing a program", issues),
                               attempts) from None
        except GroundingError as err:
            if not attempts:
                raise
            issues = tuple(err.issues) or issues
            break
        except Map2RouteError as err:
            left = deadline.remaining()
            if left is not None and left < 0.05:  # the LLM request ran out of the call's budget
                raise _with_rounds(deadline.error(instruction, f"proposing a program ({err})",
                                                  issues), attempts) from err
            if not attempts:
                raise
            failure = f"round {len(attempts) + 1} could not propose a program: {err}"
            break
        if deadline.expired():
            raise _with_rounds(deadline.error(instruction, "proposing a program", issues),
                               attempts)
        too_long = program_limit_issues(program, limits)
        if too_long:
            issues = tuple(too_long)
            attempts.append(Attempt(program, issues, 0.0))
            continue
        try:
            result = executor.run(m, program, start_xy, instruction=instruction,
                                  grounder=grounder, timeout_s=deadline.remaining())
        except DeadlineExceeded:
            raise _with_rounds(deadline.error(instruction, "running the program", issues),
                               attempts) from None
        issues = result.issues
        if result.routeir is not None and not issues:
            issues = tuple(verify(m, result.routeir, result.trace, start_xy, limits=limits))
        attempts.append(Attempt(program, issues, result.elapsed_s))
        if not issues and result.routeir is not None:
            ir = result.routeir
            ir.metadata["repairs"] = len(attempts) - 1
            ir.metadata["scene_fingerprint"] = m.fingerprint
            return Grounding(ir, program, attempts, grounder, time.perf_counter() - t0)
    lines = _round_lines(attempts)
    if failure:
        lines.append(failure)
    elif not attempts:
        lines.append("no program was produced")
    body = "\n  - ".join(lines)
    msg = f"could not ground {_short(instruction)} after {len(attempts)} attempt(s):\n  - {body}"
    raise GroundingError(msg, issues)


def _round_lines(attempts: Sequence[Attempt]) -> list[str]:
    """Every round's issues, one per line (a round that repeats the last is said briefly)."""
    lines: list[str] = []
    prev: tuple[GroundingIssue, ...] | None = None
    for n, a in enumerate(attempts, 1):
        if a.issues == prev:
            lines.append(f"round {n}: the same issues again")
            continue
        prefix = f"round {n}: " if len(attempts) > 1 else ""
        lines.extend(f"{prefix}{i.render()}" for i in a.issues)
        prev = a.issues
    return lines


def _with_rounds(err: DeadlineExceeded, attempts: Sequence[Attempt]) -> DeadlineExceeded:
    lines = _round_lines(attempts)
    if not lines:
        return err
    body = "\n  - ".join(lines)
    return DeadlineExceeded(f"{err}\n  - {body}", err.issues)


# --- offline -----------------------------------------------------------------------------------
class OfflineGrounder:
    """The default grounder: a compositional English parser that writes the program.

    Args:
        rounds: repair rounds R.
        executor: where programs run (the warm sandbox by default).
        max_chars: the longest instruction the parser reads (longer ones are refused).
        deadline_s: wall-clock budget of one :meth:`ground` or :meth:`parse` call (``None``:
            unbounded).
        limits: the verifier's size limits.
    """

    name = "offline"

    def __init__(self, *, rounds: int = 3, executor: Executor | None = None,
                 max_chars: int = MAX_INSTRUCTION_CHARS,
                 deadline_s: float | None = DEFAULT_DEADLINE_S,
                 limits: VerifierLimits | None = None) -> None:
        self.rounds = rounds
        self.executor = executor or Executor("process")
        self.max_chars = max_chars
        Deadline(deadline_s)  # validates the value now rather than at the first call
        self.deadline_s = deadline_s
        self.limits = limits

    @classmethod
    def from_config(cls, cfg: GroundingConfig) -> OfflineGrounder:
        mode = cfg.offline.executor
        runner = _sandbox_runner(cfg) if mode == "process" else None
        return cls(rounds=cfg.repair_rounds, executor=Executor(mode, runner),
                   max_chars=cfg.offline.max_instruction_chars, deadline_s=cfg.deadline_s,
                   limits=cfg.limits)

    def _candidates(self, instruction: str) -> Iterator[tuple[str, InstructionParse, str]]:
        """Programs in the order the repair loop tries them, built lazily: (note, parse, program).

        Raises:
            GroundingError: no attachment policy could parse the instruction (names the word).
        """

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
        deadline = Deadline(self.deadline_s)
        try:
            with interrupt_after(deadline.remaining(), "parsing the instruction"):
                return parse_instruction(instruction, max_chars=self.max_chars)
        except InstructionTooLongError as err:
            raise GroundingError(str(err)) from err
        except DeadlineExceeded:
            raise deadline.error(instruction, "parsing the instruction") from None
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
                            rounds=self.rounds, grounder=self.name,
                            deadline=Deadline(self.deadline_s), limits=self.limits)
        except DeadlineExceeded:
            raise
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
                 max_tokens: int | None = 1200, executor: Executor | None = None,
                 deadline_s: float | None = DEFAULT_DEADLINE_S,
                 limits: VerifierLimits | None = None) -> None:
        self.client = client
        self.rounds = rounds
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.executor = executor or Executor("process")
        Deadline(deadline_s)
        self.deadline_s = deadline_s
        self.limits = limits
        self.calls = 0

    @classmethod
    def from_config(cls, cfg: GroundingConfig) -> LLMGrounder:

        return cls(ChatClient.from_config(cfg.llm.client), rounds=cfg.repair_rounds,
                   temperature=cfg.llm.temperature, max_tokens=cfg.llm.max_tokens,
                   executor=Executor("process", _sandbox_runner(cfg)),
                   deadline_s=cfg.deadline_s, limits=cfg.limits)

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
                                         max_tokens=self.max_tokens,
                                         timeout_s=deadline.remaining())
            return extract_program(reply)

        deadline = Deadline(self.deadline_s)
        g = repair_loop(instruction, m, start_xy, propose, executor=self.executor,
                        rounds=self.rounds, grounder=self.name, deadline=deadline,
                        limits=self.limits)
        g.info["llm_calls"] = len(g.attempts)
        return g


def _sandbox_runner(cfg: GroundingConfig) -> SandboxRunner:
    """The sandbox worker with the config's limits."""
    sb = cfg.sandbox
    return SandboxRunner(cpu_s=sb.cpu_s, wall_s=sb.wall_s, memory_mb=sb.memory_mb)


def make_grounder(name: str = "offline", *, config: GroundingConfig | None = None) -> Grounder:
    """Build the grounder ``name`` (``auto``, ``offline``, ``llm`` or ``hybrid``) from
    ``config/grounding.yaml``. ``auto`` is the hybrid grounder when the configuration names an
    LLM endpoint (:attr:`GroundingConfig.endpoint_configured`) and the offline one otherwise.

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
    if name == "auto":
        if cfg.endpoint_configured:
            return AutoGrounder(make_grounder("hybrid", config=cfg),
                                f"an LLM endpoint is configured ({cfg.llm.base_url})")
        return AutoGrounder(OfflineGrounder.from_config(cfg), "no LLM endpoint is configured "
                            f"(set llm.base_url in a config file or {ENDPOINT_ENV})")
    msg = f"unknown grounder {name!r}; use 'auto', 'offline', 'llm' or 'hybrid'"
    raise GroundingError(msg)
