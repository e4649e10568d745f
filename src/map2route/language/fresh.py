"""Score parses against hand-written expected structures (the fresh human-style sets).

A fresh set is a JSON file ``{"items": [...]}``; each item has an ``instruction``, the expected
``stages`` (``[kind, head]`` in route order), ``constraints`` (``{kind, head, scope}``) and
``refs`` (categories the parse must mention). :func:`score_item` says whether a parse is
structurally right, a refusal, or a silent drop (a parse returned while leaving expected content
out: the failure the language package must never produce).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from map2route.language.errors import ParseError
from map2route.language.parser import InstructionParse, Modifier, RefExpr, parse_instruction
from map2route.language.parser.coverage import HARMLESS, IDIOM_HEADS
from map2route.language.parser.heads import head_lexicon
from map2route.language.vocabulary import GROUPS


def _key(word: str) -> str:
    return word.replace("_", "").replace(" ", "").lower()


#: Group words ("lamp", "table") to the categories they cover, normalised: a parse that keeps
#: the group word where the set expects one member ("the lamp" -> ``floor_lamp`` on a map
#: whose only lamp there is a floor lamp) has lost nothing; the grounder picks the member.
_GROUP_MEMBERS: dict[str, frozenset[str]] = {
    _key(word): frozenset(_key(m) for m in members) for word, members in GROUPS.items()}


def _covers(got: str, want: str) -> bool:
    """Whether the parsed head ``got`` names the expected category ``want`` (both
    normalised): the same, or a group word covering it."""
    return got == want or want in _GROUP_MEMBERS.get(got, ()) or (got, want) in _SAME_PLACE


#: Heads that name the same places by another route: a ``door`` is one of the map's door
#: entries (``entities("door")``), which are its doorways, so "the door" answers to a set's
#: ``doorway`` (the word "doorway" itself is read as ``doorway``, never as ``door``); a
#: ``sink_basin`` is the basin part every ProcTHOR sink carries, at the sink's place
#: (:mod:`map2route.scenes.procthor`), so "the bathroom sink" (read as the basin) answers to a
#: set's ``sink``. A ``centroid`` ("the middle of the four chairs", "roughly in the middle of
#: those three") is the point the sets write ``midpoint`` for a middle of several things (the
#: midpoint of two is their centroid).
_SAME_PLACE = frozenset({("door", "doorway"), ("sinkbasin", "sink"), ("centroid", "midpoint")})


#: Geometry heads: a stop at "the point midway between the cart and the sofa" in the living
#: room, or in a corner of it, is recorded by the sets as the room it lies in.
_POINTS = ("midpoint", "corner", "centroid")


def _stage_names(stage: dict[str, Any], strict: bool = False) -> list[str]:
    """The normalised names a stage answers to: its head, and for a geometry head (not when
    ``strict``) the rooms the parse places it in (an ``in_room`` of the point)."""
    if not stage.get("refs"):
        return [""]
    ref = stage["refs"][0]
    out = [_key(ref["head"])]
    if ref["head"] in _POINTS and not strict:
        out += [_key(r["head"]) for m in ref.get("modifiers", []) if m["kind"] == "in_room"
                for r in m.get("refs", [])]
    return out


def _heads(ref: RefExpr) -> list[str]:
    out = [ref.head]
    for mod in ref.modifiers:
        if mod.kind == "between":
            out.append("between")
        if mod.kind == "in_corner":  # "the lamp in the corner (of the bedroom)"
            out.append("corner")
        for r in mod.refs:
            out.extend(_heads(r))
    return out


def _scope_heads(clause_json: dict[str, Any], stages: list[dict[str, Any]] | None = None,
                 strict: bool = False) -> list[str]:
    """The scopes of a constraint as ``in:X``, ``until:X``, ``during:X``, ``after:X``,
    ``this``. ``{"this": true}`` ("on the way there, ...") is the leg of the stage named last
    before the constraint, the same leg as ``until:`` that stage's head and as ``after:`` the
    stage before that one (not when ``strict``): all are written."""
    out: list[str] = []
    if (clause_json.get("temporal_scope") or {}).get("this") and stages:
        before = [st for st in stages if st.get("refs") and
                  st["span"][0] < clause_json["span"][0]]
        if before:
            head = _key(before[-1]["refs"][0]["head"])
            out += ["until:" + head, "during:" + head]
            # the leg to that stage is the leg after the stage before it
            k = stages.index(before[-1])
            if k and not strict:
                out += ["after:" + name for name in _stage_names(stages[k - 1])]
    out += _stage_legs(out, stages or [], clause_json)
    spatial = clause_json.get("spatial_scope")
    if spatial:
        out.append("in:" + _key(spatial["head"]))
    for k, v in (clause_json.get("temporal_scope") or {}).items():
        if isinstance(v, dict) and "head" in v:
            out.append(f"{k}:" + _key(v["head"]))
            out.append("during:" + _key(v["head"]))
            out += _stage_legs([f"{k}:" + _key(v["head"])], stages or [], clause_json)
        else:
            out.append(k)
    if not strict and stages:
        # the leg to the Nth stage is the leg after the one before it
        for sc in [sc for sc in out if sc.startswith("stage:")]:
            n = int(sc.partition(":")[2])
            if 1 < n <= len(stages) and stages[n - 2].get("refs") and \
                    "after:" + _key(stages[n - 2]["refs"][0]["head"]) not in out:
                out += ["after:" + name for name in _stage_names(stages[n - 2])]
    return out


def _stage_legs(scopes: list[str], stages: list[dict[str, Any]],
                clause_json: dict[str, Any]) -> list[str]:
    """``stage:N`` (sets L and M) for a leg scope: the leg that ends at the Nth stage
    (``until:`` its head, or the last stage said before "on the way there"); ``after:`` a
    stage is the leg to the stage after it. Of stages with one head, the last said before
    the constraint is meant."""
    heads = [_key(st["refs"][0]["head"]) if st.get("refs") else "" for st in stages]
    before = [k for k, st in enumerate(stages) if st["span"][0] < clause_json["span"][0]]
    out = []
    for sc in scopes:
        how, _, head = sc.partition(":")
        if how not in ("until", "after"):
            continue
        ks = [k for k, h in enumerate(heads) if h == head]
        ks = [k for k in ks if k in before] or ks
        if ks:
            out.append(f"stage:{ks[-1] + (1 if how == 'until' else 2)}")
    return out


#: Notation of the later sets (L on): a ``via`` stage is a ``pass``; a ``between_avoid``
#: constraint on ``A|B`` is an ``avoid`` of the gap between A and B; scope ``global`` is the
#: whole route (no scope, or the leg to the only stage).
_STAGE_KINDS = {"via": "pass"}


def _as_written(kind: str, head: str) -> str:
    """The constraint kind a parse can give for the gold's ``kind`` on ``head``: room kept
    around one object ("give the plant a wide berth", written ``clearance`` with a head by
    some writers and ``far`` by others) is ``far`` of that object, because the grounding
    API's clearance is route-wide and takes no object (docs/grounding.md, conventions)."""
    return "far" if kind == "clearance" and head else kind


def _scope_found(scope: str, scopes: list[str], strict: bool) -> bool:
    """Whether the parse's ``scopes`` hold the gold ``scope``: the same, or (not when
    ``strict``) the same kind of scope on a group word covering its head, as stage heads are
    matched ("until you've got to the table" for ``until:dining_table``)."""
    want = _key(scope).replace("_", "")
    if want in scopes:
        return True
    how, _, head = want.partition(":")
    return not strict and bool(head) and any(
        s.partition(":")[0] == how and _covers(s.partition(":")[2], head) for s in scopes)


def _pair_room(clause_json: dict[str, Any]) -> str:
    """The room both ends of a between-avoidance are said to be in ("between the sofa and the
    TV in the living room", the room carried to both ends by the parser), or ""."""
    refs = clause_json.get("refs") or []
    pair = [m for m in (refs[0].get("modifiers") or []) if m["kind"] == "between"] \
        if len(refs) == 1 and refs[0].get("head") == "between" else []
    if not pair or len(pair[0].get("refs") or []) != 2:
        return ""
    rooms = set()
    for end in pair[0]["refs"]:
        said = [m["refs"][0]["head"] for m in end.get("modifiers") or []
                if m["kind"] == "in_room" and not m.get("negated") and m.get("refs")]
        if len(said) != 1:
            return ""
        rooms.add(_key(said[0]))
    return rooms.pop().replace("_", "") if len(rooms) == 1 else ""


def _thing_room(clause_json: dict[str, Any]) -> str:
    """The room a keep-away rule's one thing is said to be in ("stay away from the couch in
    that lounge", "don't run over the box in the living room"), or ""."""
    refs = clause_json.get("refs") or []
    if clause_json.get("kind") not in ("far", "avoid") or len(refs) != 1 or \
            refs[0].get("head") == "between":
        return ""
    said = [m["refs"][0] for m in refs[0].get("modifiers") or []
            if m["kind"] == "in_room" and not m.get("negated") and m.get("refs")]
    if len(said) != 1 or said[0].get("head_kind") != "room" or said[0].get("head") == "room":
        return ""
    return _key(said[0]["head"]).replace("_", "")


def _constraint_found(w: dict[str, Any], got: list[tuple[str, list[str], list[str]]],
                      n_stages: int, strict: bool = False) -> bool:
    kind = _as_written(w["kind"], str(w.get("head") or ""))
    wanted = [_key(h) for h in str(w["head"]).split("|")]
    if kind == "between_avoid":
        kind, wanted = "avoid", ["between", *wanted]
    scope = w.get("scope")
    for k, hs, sc in got:
        if k != kind or not all(any(_covers(h, x) for h in hs) for x in wanted):
            continue
        scopes = [s.replace("_", "") for s in sc]
        if scope is None:
            return True
        if scope == "global":
            if "global" in scopes:
                return True
            leg = all(s == "this" or s.startswith(("until:", "during:", "stage:1", "after:"))
                      for s in scopes)
            if not scopes or (n_stages == 1 and leg):
                return True
            continue
        if _scope_found(scope, scopes, strict):
            return True
    return False


@dataclass
class ItemScore:
    """One item's verdict."""

    item_id: str
    right: bool
    refused: bool
    silent_drop: bool
    refusal_span: str = ""
    problems: list[str] = field(default_factory=list)


def mentioned(parse: InstructionParse) -> set[str]:
    """Every head (nested ones too) the parse refers to, normalised, the places that end a
    constraint's leg ("until you reach the bathroom") and those of context sentences ("I'm
    sitting on the sofa") included."""
    refs = [*parse.references(), *parse.context_refs]
    stack = list(parse.clauses)
    while stack:
        c = stack.pop()
        refs.extend(v for v in (c.during or {}).values() if isinstance(v, RefExpr))
        stack.extend([*c.then, *c.orelse])
    return {_key(h) for r in refs for h in _heads(r)}


def score_item(item: dict[str, Any], parse: InstructionParse | None,
               error: ParseError | None = None, strict: bool = False) -> ItemScore:
    """Compare ``parse`` (or the refusal ``error``) with ``item``'s expected structure;
    ``strict``: a geometry stop does not answer to the room it lies in, nor "on the way
    there" to ``after:`` the stage before (see docs/grounding.md, sets J and K)."""
    iid = str(item.get("id", "?"))
    if parse is None:
        span = getattr(error, "word", "") or ""
        return ItemScore(iid, bool(item.get("refuse") or item.get("refuse_ok")), True, False,
                         str(span),
                         [f"refused: {error}"])
    problems: list[str] = []
    js = _resolve_pronouns(parse.to_json())
    got_stages = [(s["kind"], _key(s["refs"][0]["head"]) if s.get("refs") else "")
                  for s in js["stages"]]
    # a stop at the place a scene sentence names ("I'm on the couch. ... come back to me":
    # the couch, :mod:`.parser.speaker_return`) answers to a set's ``start``: under the sets'
    # convention the speaker's place is where the route starts
    named_start = {tuple(r.span) for r in parse.context_refs}
    names = [_stage_names(s, strict) + (["start"] if s.get("refs") and tuple(
        s["refs"][0]["span"]) in named_start else []) for s in js["stages"]]
    want_stages = [(_STAGE_KINDS.get(k, k), _key(h)) for k, h in item["stages"]]
    if len(got_stages) != len(want_stages) or not all(
            gk == wk and any(_covers(gh, wh) for gh in nm) for (gk, _), nm, (wk, wh) in
            zip(got_stages, names, want_stages, strict=False)):
        problems.append(f"stages {got_stages} != {want_stages}")
    got_cons = []
    one_each = []  # a constraint on "the table and its chairs": one per thing (sets L on)
    for c in js["constraints"]:
        if c["kind"] == "mention":
            continue
        heads = [_key(h) for r in c.get("refs", []) for h in
                 _heads(_ref_from_json(r))]
        scopes = _scope_heads(c, js["stages"], strict)
        room = "" if strict else _pair_room(c) or _thing_room(c)
        if room and (not scopes or scopes == ["in:" + room]):
            # "don't pass between A and B in R" and "in R, don't pass between A and B": the
            # gap between two things in R lies in R, so a whole-route rule and one scoped to R
            # are one rule; sets write it both ways (W08: whole route; AH08: in the room).
            # So is keeping away from (or off) one thing said to be in R: away from R the rule
            # asks nothing ("stay away from the couch in that lounge": AQ12 gold in:living_room)
            scopes = ["in:" + room, "global"]
        got_cons.append((c["kind"], heads, scopes))
        refs = c.get("refs", [])
        if c["kind"] in ("far", "near", "avoid") and len(refs) > 1 and "between" not in heads:
            one_each += [(c["kind"], [_key(h) for h in _heads(_ref_from_json(r))], scopes)
                         for r in refs]
        else:
            one_each.append(got_cons[-1])
    want = list(item["constraints"])
    if len(got_cons) < len(want) == len(one_each):
        got_cons = one_each
    if len(got_cons) != len(want):
        problems.append(f"{len(got_cons)} constraints, expected {len(want)}: {got_cons}")
    else:
        for w in want:
            if not _constraint_found(w, got_cons, len(got_stages), strict):
                problems.append(f"constraint {w} not found in {got_cons}")
    seen = mentioned(parse)
    missing = [c for c in item.get("refs", []) if not any(_covers(h, _key(c)) for h in seen)]
    if missing:
        problems.append(f"references missing: {missing}")
    left = [w for w in parse.unknown_words if w not in HARMLESS and w not in IDIOM_HEADS]
    drop = bool(missing) or bool(left)
    if left:
        problems.append(f"unused words: {parse.unknown_words}")
    return ItemScore(iid, not problems and not item.get("refuse"), False, drop, "", problems)


def _resolve_pronouns(js: dict[str, Any]) -> dict[str, Any]:
    """Give a top-level ``it``/``there`` the head of the latest mention or stage before it,
    as the grounding writer does ("There is a plunger nearby; do not touch it.")."""
    clauses = sorted([*js["stages"], *js["constraints"]], key=lambda c: c["span"][0])
    last = ""
    for c in clauses:
        for r in c.get("refs", []):
            if r["head_kind"] == "pronoun" and last:
                r["head"] = last
            elif r["head_kind"] != "pronoun" and c["kind"] in ("mention", "goal", "pass", "circle"):
                last = r["head"]
    return js


def _ref_from_json(js: dict[str, Any]) -> RefExpr:
    mods = [Modifier(m["kind"], [_ref_from_json(r) for r in m.get("refs", [])])
            for m in js.get("modifiers", [])]
    return RefExpr(js["text"], tuple(js["span"]), js["head"], js["head_kind"],  # type: ignore[arg-type]
                   modifiers=mods)



def route_summary(parse: InstructionParse) -> list[tuple[str, ...]]:
    """A parse in brief, as the human-style tests compare it: ``(kind, head)`` of each stage in
    route order, then ``(kind, head, first scope)`` of each constraint (mentions left out;
    pronouns resolved; scopes as in strict scoring)."""
    js = _resolve_pronouns(parse.to_json())

    def head(clause: dict[str, Any]) -> str:
        # a clause without references ("follow the walls", "keep clear of obstacles") has ""
        return str(clause["refs"][0]["head"]) if clause.get("refs") else ""

    out: list[tuple[str, ...]] = [(s["kind"], head(s)) for s in js["stages"]]
    for c in js["constraints"]:
        if c["kind"] == "mention":
            continue
        scopes = _scope_heads(c, js["stages"], strict=True)
        out.append((c["kind"], head(c), scopes[0] if scopes else ""))
    return out


def read_parse(text: str) -> InstructionParse:
    """``text``'s parse, checked to leave no content word unread.

    Raises:
        ParseError: the parser refused ``text``.
        ValueError: the parse left content words unread (a silent drop); names them.
    """
    parse = parse_instruction(text)
    unread = [w for w in parse.unknown_words if w not in HARMLESS and w not in IDIOM_HEADS]
    if unread:
        msg = f"the parse of {text!r} leaves {unread} unread: a silent drop"
        raise ValueError(msg)
    return parse


def read_route(text: str) -> list[tuple[str, ...]]:
    """:func:`route_summary` of :func:`read_parse` (same errors)."""
    return route_summary(read_parse(text))


def score_set(path: Path, strict: bool = False) -> list[ItemScore]:
    """Parse every item of the fresh set at ``path`` and score it (``strict``: see
    :func:`score_item`)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for item in data["items"]:
        try:
            parse = parse_instruction(item["instruction"])
        except ParseError as err:
            out.append(score_item(item, None, err, strict))
            continue
        out.append(score_item(item, parse, strict=strict))
    return out


def summary(scores: list[ItemScore]) -> dict[str, Any]:
    """Counts and percentages of right, refused and silently dropping parses."""
    n = len(scores)
    right = sum(s.right for s in scores)
    return {"items": n, "right": right, "right_pct": round(100 * right / max(n, 1), 1),
            "refused": sum(s.refused for s in scores),
            "silent_drops": sum(s.silent_drop for s in scores)}


def score_refs(path: Path) -> dict[str, Any]:
    """Parse each real referring expression of ``path`` (``real_refs_easy.json``'s format) as
    "Go to EXPR." and count heads read right (against the gold category, read through the
    same head lexicon), refusals and silent drops (a parse returned with unused words)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    lex = head_lexicon()
    n = right = refused = drops = 0
    for inst in data:
        for ref in inst["references"]:
            n += 1
            gold_hit = lex.match(ref["category"].lower().split())
            gold = _key(gold_hit[1] if gold_hit else ref["category"])
            try:
                parse = parse_instruction(f"Go to {ref['expression']}.")
            except ParseError:
                refused += 1
                continue
            if [w for w in parse.unknown_words if w not in HARMLESS and w not in IDIOM_HEADS]:
                drops += 1
            stages = [c for c in parse.clauses if c.refs]
            if stages and _key(stages[0].refs[0].head) == gold:
                right += 1
    return {"expressions": n, "head_right": right,
            "head_right_pct": round(100 * right / max(n, 1), 1), "refused": refused,
            "silent_drops": drops}
