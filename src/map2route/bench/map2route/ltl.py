"""Table III's "CaG with LTL instead of RouteIR": the program ends in an LTL formula.

The LLM writes the same kind of grounding program (the same API selects the entities), but
instead of building RouteIR with ``task(...)`` it states the route as linear temporal logic
over its variables, as LTL-based methods do (Lang2LTL, LTLCodeGen): ``ltl("F(a & F b) & G !c")``.
The formula is compiled deterministically into the planner's input: nested eventualities are
the visiting order, ``G !x`` a must-avoid. What the fragment cannot say - Near, Far, Relative,
Path-Shape, Clearance, and scopes - is lost, which is what the ablation measures.

Grammar (whitespace free)::

    formula := term ('&' term)*
    term    := 'F' unit | 'G' '!' NAME | '(' formula ')' | NAME
    unit    := NAME | '(' formula ')'
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

_TOKEN = re.compile(r"\s*(?:(?P<op>[FG](?![A-Za-z0-9_])|[!&()])"
                    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<bad>\S))")
_OPS = {"F", "G"}


class LTLError(ValueError):
    """The program or its formula is outside the supported LTL fragment (one failed round)."""


@dataclass
class RouteSpec:
    """What the formula says: the places in visiting order and the places never to enter."""

    visits: list[str] = field(default_factory=list)
    avoid: list[str] = field(default_factory=list)


def _tokens(formula: str) -> list[str]:
    out: list[str] = []
    for mt in _TOKEN.finditer(formula):
        if mt.group("bad"):
            raise LTLError(f"unexpected {mt.group('bad')!r} in the formula; use F, G, !, &, "
                           "parentheses and variable names")
        out.append(mt.group("op") or mt.group("name"))
    return out


class _Parser:
    def __init__(self, formula: str) -> None:
        self.toks = _tokens(formula)
        self.i = 0

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, want: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise LTLError(f"expected {want or 'more'} at token {self.i + 1}, got {tok!r}")
        self.i += 1
        return tok

    def formula(self) -> RouteSpec:
        spec = self.term()
        while self.peek() == "&":
            self.take("&")
            more = self.term()
            spec.visits += more.visits
            spec.avoid += more.avoid
        return spec

    def term(self) -> RouteSpec:
        tok = self.peek()
        if tok == "F":
            self.take()
            return self.unit()
        if tok == "G":
            self.take()
            self.take("!")
            return RouteSpec(avoid=[self.name()])
        if tok == "(":
            self.take()
            spec = self.formula()
            self.take(")")
            return spec
        return RouteSpec(visits=[self.name()])

    def unit(self) -> RouteSpec:
        if self.peek() == "(":
            self.take()
            spec = self.formula()
            self.take(")")
            return spec
        return RouteSpec(visits=[self.name()])

    def name(self) -> str:
        tok = self.take()
        if tok in _OPS or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", tok):
            raise LTLError(f"expected a variable name, got {tok!r}")
        return tok


def parse_ltl(formula: str) -> RouteSpec:
    """The visiting order and must-avoids of a formula of the supported fragment.

    Raises:
        LTLError: a syntax error, or no place to visit.
    """
    p = _Parser(formula)
    spec = p.formula()
    if p.peek() is not None:
        raise LTLError(f"unexpected {p.peek()!r} after the formula")
    if not spec.visits:
        raise LTLError("the formula visits nothing; use F name for each place to reach")
    return spec


def compile_ltl_program(program: str) -> str:
    """Replace the program's final ``ltl("...")`` call by the equivalent ``task(...)``.

    Raises:
        LTLError: not Python, no final ``ltl`` call with one string, or a bad formula.
    """
    try:
        tree = ast.parse(program)
    except SyntaxError as err:
        raise LTLError(f"the program is not valid Python (line {err.lineno}: {err.msg})") from None
    last = tree.body[-1] if tree.body else None
    if not (isinstance(last, ast.Expr) and isinstance(last.value, ast.Call)
            and isinstance(last.value.func, ast.Name) and last.value.func.id == "ltl"
            and len(last.value.args) == 1 and isinstance(last.value.args[0], ast.Constant)
            and isinstance(last.value.args[0].value, str)):
        raise LTLError('the program must end with one ltl("FORMULA") call (a string formula)')
    spec = parse_ltl(last.value.args[0].value)
    lines = program.splitlines()
    body = "\n".join(lines[:last.lineno - 1])
    legs = ", ".join(f"segment({v})" for v in spec.visits)
    cons = ", ".join(f"avoid({a})" for a in spec.avoid)
    return f"{body}\ntask([{legs}], [{cons}])\n"


LTL_EXAMPLES = (
    ("Go to the chair nearest to the bed in the bedroom, then the fridge, never entering the bathroom.",
     "bedroom = unique(rooms('bedroom'), 'the bedroom')\n"
     "bed = unique(entities('bed', room=bedroom), 'the bed in the bedroom')\n"
     "chair = kth_nearest(entities('chair', room=bedroom), bed, 1)\n"
     "fridge = unique(entities('fridge'), 'the fridge')\n"
     "bathroom = unique(rooms('bathroom'), 'the bathroom')\n"
     'ltl("F(chair & F fridge) & G !bathroom")\n'),
)


def ltl_rules() -> str:
    """What the LTL variant's prompt says instead of the RouteIR construction rules."""
    examples = "\n\n".join(f"Instruction: {i}\n```python\n{p}```" for i, p in LTL_EXAMPLES)
    return ("Do NOT call segment, constraint, avoid or task. Select the places with the API, "
            "then end the program with exactly one ltl(\"FORMULA\") call: linear temporal logic "
            "over your variable names with F (eventually), G (always), ! (not), & (and) and "
            "parentheses. F(a & F b) visits a then b; G !c never enters c. Reply with one "
            f"```python fenced block and nothing else.\n\n## LTL examples\n{examples}\n")
