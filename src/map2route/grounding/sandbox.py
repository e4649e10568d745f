"""Run grounding programs safely: an AST whitelist, then a warm worker process with limits.

Threat model (see ``docs/grounding.md``): a program comes from an LLM or a user and is hostile.
It must not read or write files, open sockets, start processes, learn anything but the API's
answers, or exhaust the host's CPU or memory. Defence in depth:

1. :func:`check_program` rejects any syntax outside a small whitelist before anything runs: no
   imports, no attribute starting with ``_`` and no dunder name (so no
   ``__class__``/``__subclasses__`` walks), no ``exec``/``eval``/``open``/``getattr``-style
   names, no lambdas (but a plain one as an argument of ``where``), generators,
   ``while``, ``try``, ``class``, ``with``, ``global``, ``**``; string constants and integers are
   bounded; ``str.format`` (whose format specs reach attributes) is forbidden.
2. The program runs with only the API functions and a few pure builtins in scope (``range`` is
   capped), in a separate worker process (``python -m``, a clean environment) with ``RLIMIT_AS`` (memory),
   ``RLIMIT_CPU`` per run and a low recursion limit, and the host waits for it with a wall-clock
   timeout, killing and replacing the worker when it overruns.
3. The worker answers in JSON only (never pickle), so even a compromised worker cannot make
   the host run code; the host rebuilds the RouteIR from that data.
"""

from __future__ import annotations

import ast
import atexit
import json
import math
import os
import pickle
import re
import resource
import select
import signal
import struct
import subprocess
import sys
import threading
import time
import types
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from map2route.errors import Map2RouteError
from map2route.grounding.api import GroundingAPI
from map2route.grounding.errors import GroundingError, GroundingIssue, ProgramIssue
from map2route.routeir.model import routeir_from_json, routeir_to_json

if TYPE_CHECKING:
    from map2route.routeir.model import RouteIR
    from map2route.semantic_map.model import SemanticMap

#: Names a program may never mention, even though most are absent from its scope anyway.
FORBIDDEN_NAMES = frozenset({
    "exec", "eval", "compile", "open", "getattr", "setattr", "delattr", "hasattr", "globals",
    "locals", "vars", "dir", "type", "object", "breakpoint", "input", "help", "memoryview",
    "super", "classmethod", "staticmethod", "property", "id", "exit", "quit", "print",
    "bytearray", "bytes", "callable", "format", "iter", "next", "issubclass", "isinstance",
})
#: Attributes that reach frames, code or formatting machinery without a leading underscore.
FORBIDDEN_ATTRS = frozenset({
    "format", "format_map", "mro", "gi_frame", "gi_code", "gi_yieldfrom", "f_globals",
    "f_locals", "f_builtins", "f_back", "f_code", "tb_frame", "tb_next", "cr_frame", "cr_code",
    "ag_frame", "ag_code", "func_globals", "im_func", "im_self", "maketrans",
})
_ALLOWED_NODES: tuple[type[ast.AST], ...] = (
    ast.Module, ast.Expr, ast.Assign, ast.AugAssign, ast.If, ast.For, ast.Break, ast.Continue,
    ast.Pass, ast.FunctionDef, ast.Return, ast.arguments, ast.arg, ast.Call, ast.keyword,
    ast.Name, ast.Load, ast.Store, ast.Attribute, ast.Subscript, ast.Slice, ast.Constant,
    ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.SetComp, ast.DictComp,
    ast.comprehension, ast.BoolOp, ast.And, ast.Or, ast.BinOp, ast.Add, ast.Sub, ast.Mult,
    ast.Div, ast.FloorDiv, ast.Mod, ast.UnaryOp, ast.Not, ast.USub, ast.UAdd, ast.Compare,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot,
    ast.IfExp, ast.JoinedStr, ast.FormattedValue, ast.Assert,
)
_WHY_NOT = {
    "Import": "imports", "ImportFrom": "imports", "Lambda": "lambdas", "While": "while loops "
    "(loop with for over API results)", "Try": "try blocks", "ClassDef": "classes",
    "With": "with blocks", "Global": "global", "Nonlocal": "nonlocal", "Pow": "the ** operator",
    "GeneratorExp": "generator expressions (use a list comprehension)", "Yield": "yield",
    "YieldFrom": "yield", "Await": "await", "AsyncFunctionDef": "async code", "Raise": "raise",
    "Delete": "del", "NamedExpr": "the := operator", "Starred": "star-unpacking",
}
MAX_SOURCE_CHARS = 20_000
MAX_STR_CONSTANT = 400
MAX_INT_CONSTANT = 100_000
MAX_RANGE = 10_000
#: The largest answer the worker sends back (a RouteIR, its trace and issues, as JSON).
MAX_ANSWER_BYTES = 32 * 1024 * 1024
#: The longest issue message a program's own text can put in front of the host or an LLM.
MAX_ISSUE_CHARS = 500
_HEAP_REPR = re.compile(r"<[^<>]*? at 0x[0-9a-fA-F]+>")
_HEX_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")


def scrub_message(text: str) -> str:
    """``text`` without object reprs or heap addresses, cut to :data:`MAX_ISSUE_CHARS`.

    A program's assertion or exception text is under its control and may embed ``repr`` of
    API objects (``<bound method ... at 0x7f...>``); addresses tell an attacker about the host's
    memory layout and are noise to an LLM, so they never leave the sandbox.
    """
    prev = None
    while prev != text:
        prev, text = text, _HEAP_REPR.sub("<object>", text)
    text = _HEX_ADDRESS.sub("0x...", text)
    if len(text) > MAX_ISSUE_CHARS:
        text = text[:MAX_ISSUE_CHARS] + f"... ({len(text) - MAX_ISSUE_CHARS} more characters)"
    return text


def _private(name: str) -> bool:
    """Whether a name reaches Python internals: a dunder (``__builtins__``), or ``_`` alone.

    A program's own ``_s1_target`` (official scaffolds name their temporaries so) is a plain
    local; attributes stay barred from any leading underscore, so no handle internals leak.
    """
    return name.startswith("__") or name == "_"


def check_program(source: str) -> list[GroundingIssue]:
    """Every reason ``source`` may not run, as issues with line spans; empty means allowed."""
    return _checked(source)[1]


def _checked(source: str) -> tuple[ast.Module | None, list[GroundingIssue]]:
    """The parsed tree (None when it must not run) and the issues of :func:`check_program`."""
    if len(source) > MAX_SOURCE_CHARS:
        return None, [GroundingIssue("program_too_long",
                                     f"the program has {len(source)} characters; the limit is "
                                     f"{MAX_SOURCE_CHARS}")]
    try:
        tree = ast.parse(source, filename="<grounding program>", mode="exec")
    except SyntaxError as err:
        return None, [GroundingIssue("syntax_error", f"the program is not valid Python: {err.msg}",
                                     span=(err.lineno or 0, err.offset or 0))]
    issues: list[GroundingIssue] = []

    def bad(node: ast.AST, code: str, msg: str) -> None:
        issues.append(GroundingIssue(code, msg, span=(getattr(node, "lineno", 0),
                                                      getattr(node, "col_offset", 0))))

    # Official programs filter with ``where(items, lambda c: near_to(c, x))``: a lambda is
    # allowed there (as a direct argument of where) and nowhere else.
    where_lambdas = {id(a) for n in ast.walk(tree) if isinstance(n, ast.Call)
                     and isinstance(n.func, ast.Name) and n.func.id == "where"
                     for a in n.args if isinstance(a, ast.Lambda)}
    for node in ast.walk(tree):
        name = type(node).__name__
        if isinstance(node, ast.Lambda) and id(node) in where_lambdas:
            a = node.args
            if a.vararg or a.kwarg or a.defaults or a.kw_defaults or a.kwonlyargs or a.posonlyargs:
                bad(node, "forbidden_syntax", "a where(...) lambda takes plain arguments only")
            continue
        if not isinstance(node, _ALLOWED_NODES):
            bad(node, "forbidden_syntax", f"{_WHY_NOT.get(name, name)} not allowed in grounding "
                                          "programs")
            continue
        if isinstance(node, ast.Name) and (_private(node.id) or node.id in FORBIDDEN_NAMES):
            bad(node, "forbidden_name", f"the name {node.id!r} is not available to programs")
        elif isinstance(node, ast.Attribute) and (node.attr.startswith("_")
                                                  or node.attr in FORBIDDEN_ATTRS):
            bad(node, "forbidden_attribute", f"the attribute {node.attr!r} is not available "
                                             "to programs")
        elif isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, (bytes, complex)) or v is Ellipsis:
                bad(node, "forbidden_constant", f"{type(v).__name__} constants are not allowed")
            elif isinstance(v, str) and len(v) > MAX_STR_CONSTANT:
                bad(node, "forbidden_constant", f"string constants are limited to "
                                                f"{MAX_STR_CONSTANT} characters")
            elif isinstance(v, (int, float)) and not isinstance(v, bool) and \
                    (not math.isfinite(v) or abs(v) > MAX_INT_CONSTANT):
                bad(node, "forbidden_constant", f"numbers are limited to +-{MAX_INT_CONSTANT}")
        elif isinstance(node, ast.FunctionDef):
            if node.decorator_list:
                bad(node, "forbidden_syntax", "decorators are not allowed")
            if _private(node.name) or node.name in FORBIDDEN_NAMES:
                bad(node, "forbidden_name", f"the function name {node.name!r} is not allowed")
            if node.args.vararg or node.args.kwarg:
                bad(node, "forbidden_syntax", "*args/**kwargs are not allowed")
        elif isinstance(node, ast.arg) and _private(node.arg):
            bad(node, "forbidden_name", f"the argument name {node.arg!r} is not allowed")
        elif isinstance(node, ast.keyword) and node.arg is None:
            bad(node, "forbidden_syntax", "**kwargs are not allowed")
        elif isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            bad(node, "forbidden_syntax", "format specs in f-strings are not allowed")
    return (None if issues else tree), issues


def _bounded_range(*args: int) -> range:
    r = range(*args)
    if len(r) > MAX_RANGE:
        raise ProgramIssue(GroundingIssue("resource_limit", f"range(...) is limited to "
                                                            f"{MAX_RANGE} steps"))
    return r


SAFE_BUILTINS: dict[str, Any] = {
    "len": len, "min": min, "max": max, "sorted": sorted, "sum": sum, "abs": abs,
    "round": round, "any": any, "all": all, "enumerate": enumerate, "zip": zip,
    "reversed": reversed, "list": list, "tuple": tuple, "set": set, "dict": dict, "bool": bool,
    "int": int, "float": float, "str": str, "range": _bounded_range, "True": True,
    "False": False, "None": None,
}


@dataclass
class ProgramResult:
    """What running one program produced.

    Attributes:
        routeir: the RouteIR, or None when the program failed.
        trace: the selections the API recorded (for the verifier).
        issues: why it failed (empty on success).
        elapsed_s: wall time of the run.
    """

    routeir: RouteIR | None
    trace: list[dict[str, Any]] = field(default_factory=list)
    issues: tuple[GroundingIssue, ...] = ()
    elapsed_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.routeir is not None and not self.issues


def _line_of(err: BaseException) -> tuple[int, int] | None:
    tb = err.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<grounding program>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return None if line is None else (line, 0)


def _execute(m: SemanticMap, source: str, start_xy: tuple[float, float] | None,
             instruction: str, grounder: str) -> tuple[RouteIR | None, list[dict[str, Any]],
                                                       list[GroundingIssue]]:
    """Check and run ``source`` here (the worker calls this); never raises for program faults."""

    tree, issues = _checked(source)
    if tree is None:
        return None, [], issues
    api = GroundingAPI(m, start_xy)
    scope: dict[str, Any] = {"__builtins__": SAFE_BUILTINS, **api.namespace()}
    try:
        code = compile(tree, "<grounding program>", "exec")
        exec(code, scope)  # noqa: S102 - the sandbox's purpose; source passed check_program
        ground = scope.get("ground")
        if api.result is None and isinstance(ground, types.FunctionType):
            # an official-style program defines ground() returning task(...) and never calls it
            ground()
        ir = api.build_routeir(instruction=instruction, grounder=grounder)
    except ProgramIssue as err:
        i = err.issue
        span = _line_of(err) or i.span
        return None, api.trace, [GroundingIssue(i.code, i.message, span=span,
                                                candidates=i.candidates)]
    except MemoryError:
        return None, api.trace, [GroundingIssue("memory_limit", "the program ran out of its "
                                                "memory budget; build smaller lists")]
    except RecursionError as err:
        return None, api.trace, [GroundingIssue("recursion_limit", "the program recursed too "
                                                "deeply; avoid recursive helpers",
                                                span=_line_of(err))]
    except Exception as err:  # noqa: BLE001 - any fault of the program becomes an issue
        return None, api.trace, [GroundingIssue("runtime_error",
                                                scrub_message(f"{type(err).__name__}: {err}"),
                                                span=_line_of(err))]
    return ir, api.trace, []


def run_in_process(m: SemanticMap, source: str, start_xy: tuple[float, float] | None = None, *,
                   instruction: str = "", grounder: str = "") -> ProgramResult:
    """Check and run a *trusted* program in this process (whitelist applies; no OS limits).

    For programs this package writes itself; anything from an LLM or a user goes through
    :class:`SandboxRunner`.
    """
    t0 = time.perf_counter()
    ir, trace, issues = _execute(m, source, start_xy, instruction, grounder)
    return ProgramResult(ir, trace, tuple(issues), time.perf_counter() - t0)


# --- the worker process ------------------------------------------------------------------------
def _send(stream: Any, payload: bytes) -> None:
    stream.write(struct.pack("<I", len(payload)) + payload)
    stream.flush()


def _recv(stream: Any) -> bytes:
    head = stream.read(4)
    if len(head) < 4:
        raise EOFError("pipe closed")
    (n,) = struct.unpack("<I", head)
    data = stream.read(n)
    if len(data) < n:
        raise EOFError("pipe closed")
    return bytes(data)


def worker_main(memory_mb: int) -> None:
    """Serve requests on stdin/stdout until stdin closes.

    Requests are pickled by the trusted host; answers are JSON so the host never unpickles
    what a program could have influenced.
    """

    import map2route.grounding.api  # noqa: F401, PLC0415 - the worker imports the API before it sets its limits
    import map2route.routeir.model  # noqa: F401, PLC0415 - the worker imports the API before it sets its limits

    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the answer stream
    sys.setrecursionlimit(400)
    try:
        _, hard_as = resource.getrlimit(resource.RLIMIT_AS)
        with open("/proc/self/status", encoding="ascii") as fh:
            vm = next((int(x.split()[1]) * 1024 for x in fh if x.startswith("VmSize:")), 0)
        limit = vm + memory_mb * 1024 * 1024
        if hard_as == resource.RLIM_INFINITY or limit < hard_as:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard_as))
    except (OSError, ValueError):
        pass
    maps: dict[str, SemanticMap] = {}
    while True:
        try:
            req = pickle.loads(_recv(stdin))  # noqa: S301 - from the trusted host only
        except (EOFError, OSError):
            return
        if req[0] == "load":
            maps.clear()
            maps[req[1]] = req[2]
            _send(stdout, b'{"ok": true}')
            continue
        _, key, source, start, instruction, grounder, cpu_s = req
        used = resource.getrusage(resource.RUSAGE_SELF)
        spent = used.ru_utime + used.ru_stime
        _, hard_cpu = resource.getrlimit(resource.RLIMIT_CPU)
        soft_cpu = int(math.ceil(spent + cpu_s))
        if hard_cpu == resource.RLIM_INFINITY or soft_cpu <= hard_cpu:
            resource.setrlimit(resource.RLIMIT_CPU, (soft_cpu, hard_cpu))
        t0 = time.perf_counter()
        too_big = {"routeir": None, "trace": [], "issues": [GroundingIssue(
            "memory_limit", f"the program's result is larger than its memory budget "
            f"({memory_mb} MB) or the {MAX_ANSWER_BYTES // 2**20} MB answer limit; build "
            "smaller labels and lists").to_dict()]}
        payload: bytes | None = None
        try:
            payload = _answer(maps[key], source, start, instruction, grounder, t0)
        except MemoryError:
            # Answered below, outside this handler: the exception's frames still hold what
            # the program built, and the answer needs that memory back.
            payload = None
        except (TypeError, ValueError) as err:
            payload = json.dumps({"routeir": None, "trace": [], "issues": [GroundingIssue(
                "runtime_error", scrub_message(f"result is not plain data: {err}")).to_dict()]}).encode()
        if payload is None or len(payload) > MAX_ANSWER_BYTES:
            payload = json.dumps(too_big).encode("utf-8")
        _send(stdout, payload)


def _answer(m: SemanticMap, source: str, start: tuple[float, float] | None, instruction: str,
            grounder: str, t0: float) -> bytes:
    """The worker's JSON answer for one program."""

    ir, trace, issues = _execute(m, source, start, instruction, grounder)
    out = {"routeir": None if ir is None else routeir_to_json(ir), "trace": trace,
           "issues": [i.to_dict() for i in issues], "elapsed_s": time.perf_counter() - t0}
    return json.dumps(out).encode("utf-8")


class SandboxRunner:
    """A warm worker process that runs untrusted programs under CPU, memory and wall limits.

    The worker is ``python -m map2route.grounding.sandbox`` talking length-prefixed frames on
    its stdin/stdout. Use as a context manager or call :meth:`close`; one program at a time.

    Args:
        cpu_s: CPU seconds one program may use.
        wall_s: wall seconds the host waits for one program.
        memory_mb: memory (address space) a program may add to the worker.
    """

    def __init__(self, *, cpu_s: float = 2.0, wall_s: float = 5.0, memory_mb: int = 512) -> None:
        self.cpu_s = cpu_s
        self.wall_s = wall_s
        self.memory_mb = memory_mb
        self._proc: subprocess.Popen[bytes] | None = None
        self._map_key: str | None = None
        self._lock = threading.Lock()

    def __enter__(self) -> SandboxRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The worker's process id (None before the first run)."""
        return None if self._proc is None else self._proc.pid

    def _start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k in ("PATH", "PYTHONPATH", "HOME", "LANG")}
        env["OMP_NUM_THREADS"] = env["OPENBLAS_NUM_THREADS"] = "1"
        # The worker runs with cwd=/, so a relative PYTHONPATH would not find this very package;
        # put the folder that holds it first so host and worker run the same code.
        here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env["PYTHONPATH"] = os.pathsep.join([here, *filter(None, [env.get("PYTHONPATH")])])
        self._proc = subprocess.Popen(  # noqa: S603 - our own interpreter and module
            [sys.executable, "-m", "map2route.grounding.sandbox", str(self.memory_mb)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=env, cwd="/", close_fds=True)
        self._map_key = None

    def close(self) -> None:
        """Stop the worker (the next run starts a fresh one)."""
        proc, self._proc, self._map_key = self._proc, None, None
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()
            proc.wait(timeout=2.0)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait(timeout=2.0)
        if proc.stdout:
            proc.stdout.close()

    def _kill(self) -> int | None:
        proc, self._proc, self._map_key = self._proc, None, None
        if proc is None:
            return None
        if proc.poll() is None:
            proc.kill()
        code = proc.wait(timeout=5.0)
        for s in (proc.stdin, proc.stdout):
            if s:
                s.close()
        return code

    def _read(self, timeout_s: float) -> bytes | None:
        assert self._proc is not None and self._proc.stdout is not None
        ready, _, _ = select.select([self._proc.stdout], [], [], timeout_s)
        if not ready:
            return None
        return _recv(self._proc.stdout)

    @staticmethod
    def _map_key_of(m: SemanticMap) -> str:
        return f"{m.name}|{id(m)}|{len(m.objects)}|{m.grid}"

    def run(self, m: SemanticMap, source: str, start_xy: tuple[float, float] | None = None, *,
            instruction: str = "", grounder: str = "",
            wall_s: float | None = None) -> ProgramResult:
        """Check ``source`` here, run it in the worker, return the RouteIR or the issues.

        Args:
            wall_s: a tighter wall limit for this run (what is left of a grounding deadline);
                the runner's own ``wall_s`` bounds it either way.

        Raises:
            GroundingError: the worker could not load the map at all.
        """


        t0 = time.perf_counter()
        issues = check_program(source)
        if issues:
            return ProgramResult(None, [], tuple(issues), time.perf_counter() - t0)
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._start()
            assert self._proc is not None and self._proc.stdin is not None
            key = self._map_key_of(m)
            timed_out = False
            limit = self.wall_s
            raw: bytes | None = None
            try:
                if self._map_key != key:
                    _send(self._proc.stdin, pickle.dumps(("load", key, m)))
                    if self._read(60.0) is None:
                        self._kill()
                        msg = "the grounding sandbox worker did not load the map within 60 s"
                        raise GroundingError(msg)
                    self._map_key = key
                _send(self._proc.stdin, pickle.dumps(("run", key, source, start_xy,
                                                      instruction, grounder, self.cpu_s)))
                limit = self.wall_s if wall_s is None else max(0.0, min(wall_s, self.wall_s))
                raw = self._read(limit)
                timed_out = raw is None
            except (EOFError, OSError):
                raw = None
            if raw is None:
                code = self._kill()
                return ProgramResult(None, [], (self._limit_issue(timed_out, code, limit),),
                                     time.perf_counter() - t0)
        try:
            data = json.loads(raw.decode("utf-8"))
            ir = None if data["routeir"] is None else routeir_from_json(data["routeir"])
            found = tuple(GroundingIssue.from_dict({**d, "message": scrub_message(str(d["message"]))})
                          for d in data["issues"])
            trace = list(data["trace"])
        except (ValueError, KeyError, TypeError, Map2RouteError) as err:
            found = (GroundingIssue("runtime_error", f"the sandbox answered malformed data: {err}"),)
            ir, trace = None, []
        return ProgramResult(ir, trace, found, time.perf_counter() - t0)

    def _limit_issue(self, timed_out: bool, exitcode: int | None, limit: float) -> GroundingIssue:
        if timed_out:
            return GroundingIssue("wall_timeout", f"the program ran longer than {limit:g} s "
                                  "and was stopped; avoid large nested loops")
        if exitcode in (-signal.SIGXCPU, -signal.SIGKILL):
            return GroundingIssue("cpu_limit", f"the program used more than {self.cpu_s:g} s of "
                                  "CPU and was stopped; avoid large nested loops")
        return GroundingIssue("worker_crashed", f"the sandbox worker died (exit code {exitcode}) "
                              "while running the program; it was restarted")


_SHARED: SandboxRunner | None = None
_SHARED_LOCK = threading.Lock()


def shared_runner() -> SandboxRunner:
    """The process-wide warm runner (started on first use, stopped at exit)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:

            _SHARED = SandboxRunner()
            atexit.register(_SHARED.close)
        return _SHARED


if __name__ == "__main__":
    worker_main(int(sys.argv[1]) if len(sys.argv) > 1 else 512)
