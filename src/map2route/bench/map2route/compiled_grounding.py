"""Table III's grounders whose reply is compiled into a grounding program (paper 000, V-C).

Schema and Direct ID ask the LLM for JSON instead of a program; the LTL variant asks for a
program that ends in an LTL formula instead of RouteIR (:mod:`.ltl`). Each reply is compiled
deterministically into a grounding program, and from there they share CaG's pipeline: the
same sandbox, verifier and repair rounds (a reply outside the format is one failed round, with
the problem sent back like a verifier issue), then the same planner.

- **Schema**: a schema-constrained intent graph. Each referent is a node
  ``{"category": ..., "room": ..., "nearest_to": node, "farthest_from": node}`` (a node with
  only ``room`` is the room); stages, must-avoids and Near/Far/Relative preferences point at
  nodes. Compiled with ``entities``/``rooms``/``kth_nearest``/``unique``.
- **Direct ID**: the LLM sees a simplified map listing (every room, object and window with its
  id) and picks ids: ``{"stages": ["o:chair_3"], "avoid": ["r:2"], ...}``.

Neither format carries temporal or spatial scopes, nor path shapes: that is the point of the
ablation (what a direct prediction can and cannot express).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from map2route.bench.map2route.ltl import LTLError, compile_ltl_program, ltl_rules
from map2route.grounding import Grounding, GroundingError, GroundingIssue, api_reference, verify
from map2route.grounding.grounder import Attempt, Executor, extract_program, scene_brief

if TYPE_CHECKING:
    from map2route.semantic_map.model import SemanticMap

_JSON = re.compile(r"\{.*\}", re.DOTALL)
PREFERENCES = ("near", "far")

SCHEMA_PROMPT = """You ground route instructions on a semantic map. Reply with ONE JSON object and nothing else:
{"stages": [NODE, ...], "avoid": [NODE, ...], "near": [NODE, ...], "far": [NODE, ...],
 "relative": [[NODE_CLOSER, NODE_FARTHER], ...]}
A NODE is {"category": OBJECT_CATEGORY, "room": ROOM_TYPE, "nearest_to": NODE, "farthest_from": NODE}
with every key optional except that a node needs "category" or "room"; a node with only "room" is that room.
"stages" are the places to visit, in order. "avoid" must never be entered. "near"/"far" are places to stay
close to / away from on the way; "relative" pairs: stay closer to the first than to the second.
Use the category and room names listed for the scene (snake_case).
Example: "Go to the chair nearest the bed in the bedroom, avoiding the kitchen, staying far from the windows"
{"stages": [{"category": "chair", "room": "bedroom", "nearest_to": {"category": "bed", "room": "bedroom"}}],
 "avoid": [{"room": "kitchen"}], "near": [], "far": [{"category": "window"}], "relative": []}
"""

DIRECT_ID_PROMPT = """You ground route instructions on a semantic map. The map lists every room (r:ID),
object (o:ID) and window (w:ID). Reply with ONE JSON object of ids from the listing and nothing else:
{"stages": [ID, ...], "avoid": [ID, ...], "near": [ID, ...], "far": [ID, ...], "relative": [[ID_CLOSER, ID_FARTHER], ...]}
"stages" are the places to visit, in order. "avoid" must never be entered. "near"/"far" are places to
stay close to / away from on the way; "relative" pairs: stay closer to the first than to the second.
Example: {"stages": ["o:chair_1", "r:0"], "avoid": ["r:1"], "near": [], "far": ["w:window_0"], "relative": []}
"""


class ReplyError(ValueError):
    """The reply is not JSON of the expected format (one failed round)."""


def map_listing(m: SemanticMap, start_xy: tuple[float, float] | None) -> str:
    """Direct ID's simplified map: one line per room, object and window, with its id."""
    lines = [f"r:{r.id} {r.type.snake}" for r in m.rooms]
    lines += [f"o:{o.id} {o.category}" + (f" in r:{o.room_id}" if o.room_id is not None else "")
              for o in m.objects]
    lines += [f"w:{w.id} window of r:{w.room_id}" for w in m.windows]
    start = ""
    if start_xy is not None:
        r0 = m.room_at(*start_xy)
        start = f"\nThe robot starts in r:{r0.id}." if r0 is not None else ""
    return "Map:\n" + "\n".join(lines) + start


def parse_json_object(reply: str) -> dict[str, Any]:
    """The JSON object in a reply (a fenced or bare ``{...}``).

    Raises:
        ReplyError: no object, or invalid JSON.
    """
    found = _JSON.search(reply)
    if found is None:
        raise ReplyError("the reply holds no JSON object; reply with one {...} object")
    try:
        data = json.loads(found.group(0))
    except json.JSONDecodeError as err:
        raise ReplyError(f"the reply is not valid JSON ({err.msg} at char {err.pos})") from None
    if not isinstance(data, dict):
        raise ReplyError("the reply must be a JSON object")
    return data


def parse_reply(reply: str) -> dict[str, Any]:
    """The Schema or Direct ID object in a reply.

    Raises:
        ReplyError: no object, invalid JSON, or a key of the wrong type.
    """
    data = parse_json_object(reply)
    stages = data.get("stages")
    if not isinstance(stages, list) or not stages:
        raise ReplyError('"stages" must be a non-empty list')
    for key in ("avoid", *PREFERENCES, "relative"):
        if not isinstance(data.get(key, []), list):
            raise ReplyError(f'"{key}" must be a list')
    for pair in data.get("relative", []):
        if not isinstance(pair, list) or len(pair) != 2:
            raise ReplyError('each "relative" entry must be a list of two')
    return data


class _Writer:
    """Builds a grounding program one line at a time (names ``n0``, ``n1``, ...)."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def bind(self, expr: str) -> str:
        name = f"n{len(self.lines)}"
        self.lines.append(f"{name} = {expr}")
        return name


def _node(w: _Writer, node: Any) -> str:
    """Compile a Schema node into a program name bound to one entity."""
    if not isinstance(node, dict):
        raise ReplyError(f"a node must be an object with category/room, got {node!r}")
    unknown = set(node) - {"category", "room", "nearest_to", "farthest_from"}
    if unknown:
        raise ReplyError(f"unknown node key(s) {sorted(unknown)}; use category, room, "
                         "nearest_to, farthest_from")
    category, room = node.get("category"), node.get("room")
    if not isinstance(category, str | None) or not isinstance(room, str | None):
        raise ReplyError("category and room must be strings")
    if category is None and room is None:
        raise ReplyError(f"a node needs a category or a room: {node!r}")
    room_name = None
    if room is not None:
        room_name = w.bind(f"unique(rooms({room!r}), {'the ' + room.replace('_', ' ')!r})")
        if category is None:
            return room_name
    assert category is not None
    pool = w.bind(f"entities({category!r}, room={room_name})" if room_name
                  else f"entities({category!r})")
    for key, rank in (("nearest_to", "kth_nearest"), ("farthest_from", "kth_farthest")):
        if node.get(key) is not None:
            ref = _node(w, node[key])
            return w.bind(f"{rank}({pool}, {ref}, 1)")
    return w.bind(f"unique({pool}, {'the ' + category.replace('_', ' ')!r})")


_POOLS = {"o": "entities()", "r": "rooms()", "w": "entities('window')"}


def _by_id(w: _Writer, ref: Any) -> str:
    """Compile a Direct ID reference (``o:ID``, ``r:ID``, ``w:ID``) into a program name."""
    if not isinstance(ref, str) or ref[:2] not in ("o:", "r:", "w:"):
        raise ReplyError(f"ids look like o:ID, r:ID or w:ID from the listing, got {ref!r}")
    pool = _POOLS[ref[0]]
    return w.bind(f"unique([e for e in {pool} if e.ref == {ref!r}], {ref!r})")


def compile_reply(data: dict[str, Any], mode: str) -> str:
    """The grounding program for a parsed Schema or Direct ID reply.

    Raises:
        ReplyError: a malformed node or id.
    """
    w = _Writer()

    def ref(x: Any) -> str:
        return _node(w, x) if mode == "schema" else _by_id(w, x)

    legs = [f"segment({ref(s)})" for s in data["stages"]]
    cons = [f"avoid({ref(a)})" for a in data.get("avoid", [])]
    cons += [f"constraint({kind!r}, {ref(x)})" for kind in PREFERENCES for x in data.get(kind, [])]
    cons += [f"constraint('relative', {ref(a)}, other={ref(b)})"
             for a, b in data.get("relative", [])]
    w.lines.append(f"task([{', '.join(legs)}], [{', '.join(cons)}])")
    return "\n".join(w.lines) + "\n"


def ltl_prompt() -> str:
    """The LTL variant's instructions: CaG's selection API, an LTL formula instead of task()."""
    return ("You write grounding programs: short Python that calls ONLY the functions below to "
            "select the places a route instruction names on a semantic map. Rules: no imports, "
            "no names or attributes starting with '_', no lambdas, no while loops, no try, no "
            "classes. Use unique(...) for every 'the X' so a wrong reading fails loudly; rank "
            f"with kth_nearest/kth_farthest/kth_largest.\n{ltl_rules()}\n## API\n"
            f"{api_reference()}")


def compile_any(reply: str, mode: str) -> str:
    """The grounding program for a reply in ``mode`` (``schema``, ``direct_id``, ``ltl``).

    Raises:
        ReplyError: the reply is outside the mode's format.
    """
    if mode == "ltl":
        try:
            return compile_ltl_program(extract_program(reply))
        except LTLError as err:
            raise ReplyError(str(err)) from None
    return compile_reply(parse_reply(reply), mode)


MODES = ("schema", "direct_id", "ltl")


class CompiledGrounder:
    """Schema, Direct ID or LTL over an LLM client, with CaG's sandbox, verifier and repair.

    Args:
        client: anything with ``complete(messages, temperature=, max_tokens=)``.
        mode: one of :data:`MODES`.
    """

    def __init__(self, client: Any, *, mode: str, rounds: int, temperature: float,
                 max_tokens: int | None, executor: Executor) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        self.client = client
        self.mode = mode
        self.name = f"llm-{mode}"
        self.rounds = rounds
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.executor = executor

    def ground(self, instruction: str, m: SemanticMap,
               start_xy: tuple[float, float] | None = None) -> Grounding:
        """Raises :class:`GroundingError` with the last round's issues when every round fails."""
        t0 = time.perf_counter()
        system = {"schema": SCHEMA_PROMPT, "direct_id": DIRECT_ID_PROMPT}.get(self.mode) \
            or ltl_prompt()
        scene = map_listing(m, start_xy) if self.mode == "direct_id" else scene_brief(m, start_xy)
        messages = [{"role": "system", "content": system},
                    {"role": "user", "content": f"{scene}\n\nInstruction: {instruction}"}]
        attempts: list[Attempt] = []
        issues: Sequence[GroundingIssue] = ()
        for _ in range(self.rounds + 1):
            reply = self.client.complete(messages, temperature=self.temperature,
                                         max_tokens=self.max_tokens)
            program = ""
            try:
                program = compile_any(reply, self.mode)
            except ReplyError as err:
                issues = (GroundingIssue("bad_reply", str(err), span_kind="instruction"),)
                elapsed = 0.0
            else:
                result = self.executor.run(m, program, start_xy, instruction=instruction,
                                           grounder=self.name)
                issues = result.issues
                elapsed = result.elapsed_s
                if result.routeir is not None and not issues:
                    issues = tuple(verify(m, result.routeir, result.trace, start_xy))
                if result.routeir is not None and not issues:
                    attempts.append(Attempt(program, (), elapsed))
                    return Grounding(result.routeir, program, attempts, self.name,
                                     time.perf_counter() - t0)
            attempts.append(Attempt(program, tuple(issues), elapsed))
            messages.append({"role": "assistant", "content": reply})
            messages.append({"role": "user", "content": (
                "That reply failed:\n" + "\n".join(f"- {i.render()}" for i in issues) +
                ("\nReply with the whole corrected program in one ```python block." if
                 self.mode == "ltl" else "\nReply with the whole corrected JSON object."))})
        lines = "\n  - ".join(i.render() for i in issues)
        msg = f"could not ground {instruction!r} after {len(attempts)} attempt(s):\n  - {lines}"
        raise GroundingError(msg, tuple(issues))
