"""Table III's ToolCall grounder: the same API, called one function at a time (paper 000, V-C1).

Instead of writing a program, the LLM calls one API function per reply and reads its result
before the next, as function-calling agents do. The calls are JSON, not code:
``{"call": "entities", "args": ["chair"], "kwargs": {"room": "$bedroom"}, "as": "chairs"}``,
where ``"$name"`` is an earlier result. Each call is checked (a function of the API, plain
JSON literals with numbers bounded, earlier names only), run in process on a
:class:`~map2route.grounding.GroundingAPI` of the map, and answered with the result's text or
the error. A ``task`` call ends a round: the calls so far, written out as the equivalent
grounding program, go through CaG's sandbox and verifier; their issues come back as the
result, and the model may go on (that is a repair round). The protocol is in the prompt rather
than the OpenAI ``tools`` field so that it works on any chat endpoint, local ones included.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

from map2route.bench.map2route.compiled_grounding import ReplyError, parse_json_object
from map2route.grounding import (
    Grounding,
    GroundingAPI,
    GroundingError,
    GroundingIssue,
    api_reference,
    verify,
)
from map2route.grounding.grounder import Attempt, Executor, scene_brief

if TYPE_CHECKING:
    from map2route.semantic_map.model import SemanticMap

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
MAX_NUMBER = 1000.0  # in-process calls have no CPU limit: no laps=10**9
STEPS_PER_ROUND = 16


def toolcall_prompt() -> str:
    """The ToolCall variant's instructions: the API reference and the call protocol."""
    return ("You ground a route instruction on a semantic map by calling the functions below "
            "ONE AT A TIME. Each reply is exactly one JSON object: {\"call\": FUNCTION, "
            "\"args\": [...], \"kwargs\": {...}, \"as\": NAME}. Arguments are JSON values, or "
            "\"$NAME\" for the result of an earlier call saved with \"as\". I answer with the "
            "result. Build the legs with segment and the requirements with constraint/avoid, "
            "then finish with {\"call\": \"task\", \"args\": [[\"$leg1\", ...], [\"$c1\", ...]]}; "
            "I check the route and tell you what is wrong, if anything.\n\n"
            "Example: {\"call\": \"entities\", \"args\": [\"bed\"], \"as\": \"beds\"} then "
            "{\"call\": \"unique\", \"args\": [\"$beds\", \"the bed\"], \"as\": \"bed\"} then "
            "{\"call\": \"segment\", \"args\": [\"$bed\"], \"as\": \"leg\"} then "
            "{\"call\": \"task\", \"args\": [[\"$leg\"], []]}\n\n## API\n" + api_reference())


class ToolSession:
    """The values and the program of one episode's calls so far."""

    def __init__(self, m: SemanticMap, start_xy: tuple[float, float] | None) -> None:
        self.api = GroundingAPI(m, start_xy)
        self.functions = self.api.namespace()
        self.values: dict[str, Any] = {}
        self.lines: list[str] = []

    def _arg(self, raw: Any) -> tuple[Any, str]:
        """(value, source text) of one JSON argument."""
        if isinstance(raw, str) and raw.startswith("$"):
            name = raw[1:]
            if name not in self.values:
                known = ", ".join(sorted(self.values)) or "none yet"
                raise ReplyError(f"{raw!r} is not an earlier result (saved: {known})")
            return self.values[name], name
        if isinstance(raw, list):
            parts = [self._arg(x) for x in raw]
            return [v for v, _ in parts], "[" + ", ".join(s for _, s in parts) + "]"
        if isinstance(raw, bool) or raw is None or isinstance(raw, str):
            return raw, repr(raw)
        if isinstance(raw, int | float):
            if abs(raw) > MAX_NUMBER:
                raise ReplyError(f"number {raw} is out of range (|x| <= {MAX_NUMBER:g})")
            return raw, repr(raw)
        raise ReplyError(f"arguments are JSON strings, numbers, booleans, lists or $NAME, got {raw!r}")

    def statement(self, data: dict[str, Any]) -> tuple[str, str, list[Any], dict[str, Any], str]:
        """Check one call: (function, name to save as, args, kwargs, program line).

        Raises:
            ReplyError: an unknown function, a bad name or argument.
        """
        fn = data.get("call")
        if not isinstance(fn, str) or fn not in self.functions:
            raise ReplyError(f"unknown function {fn!r}; call one of the API functions")
        target = data.get("as", "")
        if target and (not isinstance(target, str) or not _NAME.fullmatch(target)
                       or target in self.functions):
            raise ReplyError(f"\"as\" must be a new variable name, got {target!r}")
        raw_args, raw_kwargs = data.get("args", []), data.get("kwargs", {})
        if not isinstance(raw_args, list) or not isinstance(raw_kwargs, dict):
            raise ReplyError("\"args\" must be a list and \"kwargs\" an object")
        args = [self._arg(a) for a in raw_args]
        kwargs = {}
        for k, v in raw_kwargs.items():
            if not _NAME.fullmatch(str(k)):
                raise ReplyError(f"bad keyword {k!r}")
            kwargs[str(k)] = self._arg(v)
        text = ", ".join([s for _, s in args] + [f"{k}={s}" for k, (_, s) in kwargs.items()])
        line = f"{target + ' = ' if target else ''}{fn}({text})"
        return (fn, target, [v for v, _ in args], {k: v for k, (v, _) in kwargs.items()}, line)

    def call(self, data: dict[str, Any]) -> str:
        """Run one non-``task`` call; the text to answer with."""
        fn, target, args, kwargs, line = self.statement(data)
        try:
            value = self.functions[fn](*args, **kwargs)
        except Exception as err:  # noqa: BLE001 - the model's call failed: tell it, go on
            return f"Error: {type(err).__name__}: {err}"
        if target:
            self.values[target] = value
        self.lines.append(line)
        shown = repr(value)
        return (f"{target} = {shown[:600]}" if target else shown[:600]) or "done"


class ToolCallGrounder:
    """Ground by iterative API calls over an LLM client; CaG's sandbox and verifier judge it.

    Args:
        client: anything with ``complete(messages, temperature=, max_tokens=)``.
        rounds: repair rounds R (``task`` submissions after the first).
        steps: calls allowed in one round before it fails with ``no_task``.
    """

    name = "llm-toolcall"

    def __init__(self, client: Any, *, rounds: int, temperature: float,
                 max_tokens: int | None, executor: Executor,
                 steps: int = STEPS_PER_ROUND) -> None:
        self.client = client
        self.rounds = rounds
        self.steps = steps
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.executor = executor

    def ground(self, instruction: str, m: SemanticMap,
               start_xy: tuple[float, float] | None = None) -> Grounding:
        """Raises :class:`GroundingError` with the last round's issues when every round fails."""
        t0 = time.perf_counter()
        session = ToolSession(m, start_xy)
        messages = [{"role": "system", "content": toolcall_prompt()},
                    {"role": "user", "content": f"{scene_brief(m, start_xy)}\n\n"
                                                f"Instruction: {instruction}"}]
        attempts: list[Attempt] = []
        issues: tuple[GroundingIssue, ...] = ()
        for _ in range(self.rounds + 1):
            program, issues, elapsed, ir = "", (), 0.0, None
            for _step in range(self.steps):
                reply = self.client.complete(messages, temperature=self.temperature,
                                             max_tokens=self.max_tokens)
                messages.append({"role": "assistant", "content": reply})
                try:
                    data = parse_json_object(reply)
                    if data.get("call") == "task":
                        *_, line = session.statement(data)
                        program = "\n".join([*session.lines, line]) + "\n"
                        break
                    answer = session.call(data)
                except ReplyError as err:
                    answer = f"Error: {err}"
                messages.append({"role": "user", "content": answer})
            else:
                issues = (GroundingIssue("no_task", f"no task call within {self.steps} calls",
                                         span_kind="instruction"),)
            if program:
                result = self.executor.run(m, program, start_xy, instruction=instruction,
                                           grounder=self.name)
                issues, elapsed, ir = result.issues, result.elapsed_s, result.routeir
                if ir is not None and not issues:
                    issues = tuple(verify(m, ir, result.trace, start_xy))
            attempts.append(Attempt(program, issues, elapsed))
            if ir is not None and not issues:
                return Grounding(ir, program, attempts, self.name, time.perf_counter() - t0)
            messages.append({"role": "user", "content": (
                "The route failed verification:\n" + "\n".join(f"- {i.render()}" for i in issues)
                + "\nGo on calling functions to fix it, then call task again.")})
        lines = "\n  - ".join(i.render() for i in issues)
        msg = f"could not ground {instruction!r} after {len(attempts)} attempt(s):\n  - {lines}"
        raise GroundingError(msg, issues)
