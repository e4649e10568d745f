"""Stage 0a of the parser: human phrasings rewritten onto forms the later stages read.

People writing route instructions for a benchmark set the scene ("You are standing next to a
bed."), open scopes with the way they move ("As you leave the bedroom, ..."), number their stops
("Visit three places in order: 1. ..., 2. ..."), say partitives ("the second of the two chairs
closest to the fridge", "the larger of the two bathrooms"), negate a relative clause ("the
bedroom that does not have a desk") and forbid the gap between two things ("don't pass between
the sofa and the TV"). Each rule rewrites a token window onto the phrasing the parser already
reads, keeping the character spans so that a refusal still points into the original text.
Scene-setting sentences are context, never stages: they are taken out of the token list and
returned, so the parse reports them (:attr:`~.model.InstructionParse.context`) instead of
dropping them. Hand-written for the same reason as :mod:`.normalise`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from map2route.language.errors import ParseError
from map2route.language.inflection import singular_word
from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.model import Clause, Modifier, RefExpr
from map2route.language.tokens import Token

_ENDS = (".", "!", "?")
#: "the area between", "don't pass between": a gap between two things, not a room
_GAP = re.compile(r"(?:the\s+)?(?:area|space|gap)\s+between\b|"
                  r"without\s+[a-z]+\s+between\b|"
                  r"(?:do\s*n[o']t|never|not)\s+[a-z]+\s+between\b")
#: "You are standing next to a bed.": the verbs and places of a scene-setting sentence.
_SCENE_AFTER_YOU_ARE = ("standing", "sitting", "located", "currently", "now", "in", "at", "next",
                        "near", "by", "beside", "facing", "right", "inside", "starting")
_SCENE_AFTER_YOU = ("start", "begin", "find", "stand")
#: Verbs that make a "you are ..." sentence a request after all ("you are to go to ...").
_ROUTE_VERBS = ("go", "walk", "head", "move", "visit", "proceed", "navigate", "leave", "exit",
                "continue", "stop", "finish", "end", "reach", "avoid", "keep", "stay")
_LEAVE_VERBS = ("leave", "exit", "are leaving", "leaving", "exiting")
_BETWEEN_VERBS = ("pass", "walk", "go", "move", "cut", "squeeze", "drive", "travel", "come")
_COMPARATIVES = ("larger", "bigger", "smaller", "largest", "biggest", "smallest")
_SUPERLATIVES = ("closest", "nearest", "farthest", "furthest")
_LIST_NOUNS = ("places", "stops", "destinations", "locations", "things", "spots", "points",
               "objects", "targets")


def _sentences(toks: list[Token]) -> list[list[Token]]:
    out: list[list[Token]] = [[]]
    for n, t in enumerate(toks):
        out[-1].append(t)
        # "1." of a numbered list is not a sentence end
        if t.text in _ENDS and not (n > 0 and toks[n - 1].text.isdigit() and
                                    t.text == "." and (n < 2 or toks[n - 2].text in
                                                       (":", ",", ".", ";"))):
            out.append([])
    return [s for s in out if s]


def _scene_setting(words: list[str]) -> bool:
    """Whether a sentence only tells where the walker is ("You are standing next to a bed.")
    or announces a list ("Do the following in order.")."""
    if words[:3] in (["do", "the", "following"], ["follow", "these", "steps"],
                     ["here", "is", "the"], ["here", "are", "the"]) and \
            not any(head_lexicon().match(words[k:k + 1]) for k in range(len(words))):
        return True
    if len(words) < 3 or any(w in _ROUTE_VERBS for w in words):
        return False
    if words[:2] == ["you", "are"] and words[2] in _SCENE_AFTER_YOU_ARE:
        return True
    if words[0] == "you" and words[1] in _SCENE_AFTER_YOU and words[1] != "find":
        return True
    return words[:3] in (["you", "find", "yourself"], ["your", "starting", "point"],
                         ["your", "starting", "position"], ["you", "have", "just"])


_INDEFINITE = ("a", "an", "one", "two", "three", "some", "no")
_ON_IT = (("on", "it"), ("on", "top"), ("in", "it"), ("inside", "it"), ("next", "to", "it"))


def _np_at(words: list[str], k: int) -> int:
    """Length of ``[a|an|one|two] HEAD`` at ``k`` (0 if none)."""
    if k >= len(words) or words[k] not in _INDEFINITE:
        return 0
    hit = head_lexicon().match(words[k + 1:k + 1 + head_lexicon().max_len])
    return 1 + hit[0] if hit is not None else 0


def _coordination(words: list[str], k: int) -> tuple[list[tuple[int, int]], int, int] | None:
    """``a lamp, a book and a vase [on it]`` at ``k``: the item spans, where the shared tail
    ("on it") starts and where it ends; None unless two or more items are joined by
    ``and``/``nor``."""
    items: list[tuple[int, int]] = []
    n = _np_at(words, k)
    if not n:
        return None
    items.append((k, k + n))
    j = k + n
    while j < len(words):
        sep = 2 if words[j:j + 2] == [",", "and"] else 1
        if words[j] not in (",", "and", "nor"):
            break
        n = _np_at(words, j + sep)
        if not n:
            break
        items.append((j + sep, j + sep + n))
        last = words[j + sep - 1] in ("and", "nor")
        j = j + sep + n
        if last:
            break
    if len(items) < 2 or words[items[-1][0] - 1] not in ("and", "nor"):
        return None
    tail = next((len(t) for t in _ON_IT if tuple(words[j:j + len(t)]) == t), 0)
    return items, j, j + tail


def _sentence_opens_with(words: list[str], i: int, first: tuple[str, ...]) -> bool:
    """Whether the sentence holding token ``i`` opens with one of ``first``."""
    k = i
    while k > 0 and words[k - 1] not in (*_ENDS, ";"):
        k -= 1
    return words[k] in first


_ROUTE_ORDER_VERBS = ("pass", "enter", "reach", "meet", "encounter", "see", "cross", "visit")


def _route_order_reference(words: list[str]) -> tuple[int, int] | None:
    """Token span of a reference that needs the route to resolve ("the first bedroom you
    enter", "the plant you pass", "the room just before the bathroom"), if any."""
    for k, w in enumerate(words):
        if w == "you" and k > 0 and k + 1 < len(words) and words[k + 1] in _ROUTE_ORDER_VERBS \
                and words[k - 1] not in (",", ".", "and", "then", "if", "when", "while", "as",
                                         "until", "before", "after", "once", "whenever",
                                         "where", "that", "so"):
            if head_lexicon().match(words[k - 1:k]) is not None:
                a = k - 1
                while a > 0 and words[a - 1] not in ("the", "a", "an", ",", "."):
                    a -= 1
                return max(a - 1, 0), k + 2
        if w in ("room", "area") and k + 2 < len(words) and \
                words[k + 1] in ("just", "right", "immediately") and \
                words[k + 2] in ("before", "after"):
            b = k + 3
            b += 1 if words[b:b + 1] in (["the"], ["a"]) else 0
            hit = head_lexicon().match(words[b:b + head_lexicon().max_len])
            return k - 1 if k and words[k - 1] == "the" else k, b + (hit[0] if hit else 0)
    return None


@dataclass
class Marks:
    """What a rewrite leaves for after the parse: rooms of "not in a bedroom" (their start
    characters) and groups of coordinated ``with`` items that belong to one head."""

    negated_rooms: set[int] = field(default_factory=set)
    with_groups: list[list[int]] = field(default_factory=list)
    #: Start characters of geometry targets: "midpoint" or "corner".
    points: dict[int, str] = field(default_factory=dict)


def human_forms(toks: list[Token]) -> tuple[list[Token], list[str], Marks]:
    """Rewrite human phrasings (see the module docstring); returns the tokens and the
    scene-setting sentences taken out as context, and where each room of a negated "that is
    not in a bedroom" starts (:func:`negate_rooms` marks those ``in_room`` modifiers).

    Raises:
        ParseError: a reference that only the route can resolve ("the first bedroom you
            enter"): the offline parser names it instead of reading it wrongly.
    """
    order = _route_order_reference([t.text for t in toks])
    if order is not None:
        a, b = toks[order[0]].start, toks[min(order[1], len(toks)) - 1].end
        msg = (f"did not understand the route-order reference {_text(toks, a, b)!r}: it "
               "depends on the route taken, which the offline parser does not know; name the "
               "place by what is near it or in it, or use the hybrid or llm grounder")
        raise ParseError(msg, _text(toks, a, b), (a, b))
    context: list[str] = []
    kept: list[Token] = []
    sents = _sentences(toks)
    for s in sents:
        words = [t.text for t in s if t.text not in _ENDS]
        if len(sents) > 1 and _scene_setting(words):
            context.append(" ".join(words))
            continue
        kept.extend(s)
    marks = Marks()
    return _rewrite(kept, marks), context, marks


def _ellipsis_before(toks: list[Token], n: int) -> bool:
    """Whether the "." at ``n`` ended an ellipsis (its dropped dots sat right before it) and
    a self-correction follows."""
    return n + 1 < len(toks) and toks[n + 1].text in ("no", "sorry", "actually", "i", "or",
                                                      "wait", "oops")


def _text(toks: list[Token], a: int, b: int) -> str:
    return " ".join(t.text for t in toks if a <= t.start and t.end <= b)


def _rewrite(toks: list[Token], marks: Marks) -> list[Token]:  # noqa: C901 - over the ceiling; to be split
    # "the laundry hamper... no wait, the washer": an ellipsis is a pause, not three ends
    toks = [t for n, t in enumerate(toks)
            if not (t.text == "." and n + 1 < len(toks) and toks[n + 1].text == ".")]
    toks = [Token(",", t.start, t.end) if t.text == "." and n and toks[n - 1].end < t.start
            and t.end - t.start == 1 and _ellipsis_before(toks, n) else t
            for n, t in enumerate(toks)]
    words = [t.text for t in toks]
    out: list[Token] = []

    def at(k: int, *seq: str) -> bool:
        return tuple(words[k:k + len(seq)]) == seq

    def new(text: str, like: Token) -> Token:
        return Token(text, like.start, like.end)

    list_items = 0
    in_list = False
    i = 0
    while i < len(toks):
        t = toks[i]
        w = words[i]
        # "Visit three places in order: 1. the fridge, 2. the sofa" -> "go to the fridge, then
        # go to the sofa"
        count_word = words[i + 1] in W.NUMBERS or words[i + 1].isdigit() or \
            words[i + 1] in ("these", "following") if i + 1 < len(words) else False
        if w in W.MOVE_VERBS | {"visit"} and i + 2 < len(words) and count_word and \
                words[i + 2] in _LIST_NOUNS:
            k = i + 3
            while k < len(words) and words[k] in ("in", "this", "that", "order", "the",
                                                  "following", "as", "follows"):
                k += 1
            if k < len(words) and words[k] == ":":
                in_list = True
                i = k + 1
                continue
        if w.isdigit() and i + 1 < len(words) and words[i + 1] in (".", ")") and \
                (not out or out[-1].text in (":", ",", ".", ";", "and")) and \
                i + 2 < len(words) and words[i + 2] in W.OPENERS:
            i += 2  # "1. Go to the fridge. 2. ...": the marker of a whole sentence
            continue
        if w.isdigit() and i + 1 < len(words) and words[i + 1] in (".", ")") and \
                (not out or out[-1].text in (":", ",", ".", ";", "and") or
                 (in_list and words[i + 1] == ")")):
            while out and out[-1].text in (",", "and", ";"):
                out.pop()
            if list_items:
                out.append(new(",", t))
                out.append(new("then", t))
            out.extend([new("go", t), new("to", t)])
            list_items += 1
            i += 2
            continue
        # "As you leave the bedroom, ..." / "While still in the kitchen, ..." -> "while in"
        if w in ("as", "when", "while") and i + 2 < len(words) and \
                ((words[i + 1] == "you" and (words[i + 2] in _LEAVE_VERBS or
                                             at(i + 2, "are", "leaving"))) or
                 at(i + 1, "still", "in") or at(i + 1, "you", "are", "still", "in")):
            out.extend([new("while", t), new("in", t)])
            k = i + 1
            while k < len(words) and words[k] in ("you", "are", "still", "in", "leave",
                                                  "leaving", "exit", "exiting"):
                k += 1
            i = k
            continue
        # "a table with a lamp, a book and a vase on it": one table with three things on it;
        # "that has neither a desk nor a teddy bear": with no desk and with no teddy bear
        neither = w == "neither"
        if w in ("with", "without") or neither:
            co = _coordination(words, i + 1)
            if co is not None:
                items, tail_a, tail_b = co
                if neither:
                    while out and out[-1].text in ("has", "have", "that", "which", "with"):
                        out.pop()
                group: list[int] = []
                for n_item, (a, b) in enumerate(items):
                    if n_item:
                        out.append(new("and", toks[a - 1]))
                    # each "with" takes its item's span, so the parse can be regrouped
                    out.append(new("without" if w == "without" else "with", toks[a]))
                    group.append(toks[a].start)
                    if neither:
                        out.append(new("no", t))
                        out.extend(toks[a + 1:b])
                    else:
                        out.extend(toks[a:b])
                    out.extend(toks[tail_a:tail_b])
                marks.with_groups.append(group)
                i = tail_b
                continue
        # "in the same room as (both) the bear and the desk" -> "in the room with a bear and
        # with a desk"
        if w == "in" and at(i + 1, "the", "same", "room", "as"):
            k = i + 5 + (1 if words[i + 5:i + 6] == ["both"] else 0)
            items = []
            while k < len(words):
                det = 1 if words[k] in ("the", "a", "an") else 0
                hit = head_lexicon().match(words[k + det:k + det + head_lexicon().max_len])
                if hit is None:
                    break
                items.append((k + det, k + det + hit[0]))
                k += det + hit[0]
                if words[k:k + 1] in ([","], ["and"]):
                    k += 2 if words[k:k + 2] == [",", "and"] else 1
                else:
                    break
            if items and not (k < len(words) and words[k] in ("and", ",")):
                out.extend([t, new("the", toks[i + 1]), new("room", toks[i + 3])])
                group = []
                for n_item, (a, b) in enumerate(items):
                    if n_item:
                        out.append(new("and", toks[a - 1]))
                    out.extend([new("with", toks[a]), new("a", toks[a])])
                    out.extend(toks[a:b])
                    group.append(toks[a].start)
                marks.with_groups.append(group)
                i = k
                continue
        # "the midpoint between X and Y", "the point halfway between X and Y", "halfway between
        # X and Y" -> "the area between X and Y", made a midpoint after the parse
        k = i + (1 if w == "the" else 0)
        k += 1 if words[k:k + 1] in (["point"], ["spot"]) else 0
        if words[k:k + 2] in (["midpoint", "between"], ["halfway", "between"],
                              ["midway", "between"], ["middle", "between"]) or \
                (w == "the" and words[k:k + 3] in (["centre", "point", "between"],
                                                   ["center", "point", "between"])):
            k += 2 if words[k + 1] == "between" else 3
            out.extend([new("the", t), new("area", toks[k - 1]), new("between", toks[k - 1])])
            marks.points[t.start] = "midpoint"
            i = k
            continue
        # "the corner of the kitchen farthest from the door" -> "the kitchen farthest from
        # the door", made a corner after the parse
        if w == "the" and words[i + 1:i + 3] in (["corner", "of"], ["corner", "in"]):
            marks.points[t.start] = "corner"
            out.append(t)
            i += 3
            if words[i:i + 1] == ["the"]:
                i += 1
            continue
        # "go through the doorway and then to the statue": "then to X" is a new goal
        if w == "then" and at(i + 1, "to") and i > 0 and words[i - 1] in ("and", ","):
            out.extend([t, new("go", t)])
            i += 1
            continue
        # "and stand next to the toilet" -> "and go to the toilet"
        if w in ("stand", "wait", "stay", "stop") and i > 0 and words[i - 1] in ("and", ",", "then") \
                and (at(i + 1, "next", "to") or words[i + 1:i + 2] in (["by"], ["beside"])):
            out.extend([new("go", t), new("to", t)])
            i += 3 if words[i + 1] == "next" else 2
            continue
        # "find the plant in the kitchen and go there": one stage, not a second "it"
        if w == "and" and words[i + 1:i + 2] and words[i + 1] in ("go", "walk", "head") and \
                (at(i + 2, "there") or at(i + 2, "to", "it")) and \
                words[i + 3 if at(i + 2, "there") else i + 4:][:1] in ([], ["."], ["!"]) and \
                _sentence_opens_with(words, i, ("find", "locate", "look")):
            i += 3 if at(i + 2, "there") else 4
            continue
        # "There is a plunger nearby" (after naming a place): near that place
        if w == "nearby" and _sentence_opens_with(words, i, ("there",)):
            out.extend([new("near", t), new("it", t)])
            i += 1
            continue
        # "the plant that is not in a bedroom": in_room, negated after the parse
        if w in ("that", "which") and words[i + 1:i + 2] in (["is"], ["are"]) and \
                at(i + 2, "not", "in") and i + 4 < len(words):
            k = i + 4 + (1 if words[i + 4] in ("a", "an", "the", "any") else 0)
            if k < len(words):
                marks.negated_rooms.update((toks[i + 4].start, toks[k].start))
                out.append(new("in", toks[i + 3]))
                i += 4
                continue
        # "while you're walking through the living room" -> "while in the living room"
        if w in ("while", "as", "when", "whenever") and at(i + 1, "you", "are") and \
                i + 4 < len(words) and words[i + 3] in (
                    "walking", "going", "moving", "heading", "passing", "crossing") and \
                words[i + 4] in ("through", "across", "in", "inside"):
            out.extend([new("while", t), new("in", toks[i + 4])])
            i += 5
            continue
        # "go and stand in the middle between ..." / "go and wait by the sink": one stage
        if w in ("stand", "stop", "wait") and i > 1 and words[i - 1] == "and" and \
                words[i - 2] in ("go", "come", "walk") and \
                words[i + 1:i + 2] in (["in"], ["at"], ["by"], ["beside"], ["near"]):
            out.pop()  # the "and"
            out.append(new("to", toks[i + 1]))
            i += 2
            continue
        # "the bedroom that does not have a desk" / "that has no desk" -> "without a desk"
        if w in ("that", "which") and words[i + 1:i + 3] in (["does", "not"], ["do", "not"]) \
                and words[i + 3:i + 4] in (["have"], ["contain"], ["include"], ["hold"]):
            out.append(new("without", t))
            i += 4
            continue
        if w in ("that", "which") and (at(i + 1, "has", "no") or at(i + 1, "have", "no")):
            out.append(new("without", t))
            out.append(new("a", toks[i + 2]))
            i += 3
            continue
        # "don't pass between the sofa and the TV" -> "avoid the area between ..."
        if w in ("not", "never") and i + 2 < len(words) and words[i + 1] in _BETWEEN_VERBS \
                and words[i + 2] == "between":
            while out and out[-1].text in ("do", "please"):
                out.pop()
            out.extend([new("avoid", t), new("the", t), new("area", t)])
            i += 2
            continue
        # "avoid passing between the fridge and the counter" -> "avoid the area between ..."
        if w == "without" and i + 2 < len(words) and words[i + 1] in (
                "passing", "going", "walking", "moving", "cutting", "squeezing") and \
                words[i + 2] == "between":
            out.extend([new(",", t), new("avoiding", t), new("the", toks[i + 1]),
                        new("area", toks[i + 1])])
            i += 2
            continue
        if w == "avoid" and i + 2 < len(words) and words[i + 1] in (
                "passing", "going", "walking", "moving", "cutting", "squeezing") and \
                words[i + 2] == "between":
            out.extend([t, new("the", toks[i + 1]), new("area", toks[i + 1])])
            i += 2
            continue
        # "the second of the two chairs closest to X" -> "the second closest chair to X";
        # "the larger of the two bathrooms" -> "the larger bathroom"
        if w == "the" and i + 4 < len(words) and \
                (words[i + 1] in W.ORDINALS or words[i + 1] in _COMPARATIVES) and \
                at(i + 2, "of", "the"):
            k = i + 4
            if words[k] in W.NUMBERS or words[k] in ("both", "two"):
                k += 1
            if k < len(words):
                head = singular_word(words[k])
                rest = k + 1
                if words[i + 1] in W.ORDINALS and rest < len(words) and \
                        words[rest] in _SUPERLATIVES:
                    out.extend([t, toks[i + 1], toks[rest], new(head, toks[k])])
                    i = rest + 1
                    continue
                if words[i + 1] in _COMPARATIVES:
                    out.extend([t, toks[i + 1], new(head, toks[k])])
                    i = rest
                    continue
        out.append(t)
        i += 1
    return out


def merge_room_then_object(clauses: list[Clause], text: str) -> list[Clause]:
    """"Walk to the kitchen and stop at the fridge": one stage, the fridge in the kitchen.

    A room goal followed in the same sentence, after ``and``, by an object goal that names no
    room of its own is the way people say where the object is, not a stage of its own.
    """
    out: list[Clause] = []
    for c in clauses:
        prev = out[-1] if out else None
        if prev is not None and prev.kind == "goal" and c.kind == "goal" and prev.refs and \
                c.refs and prev.refs[0].head_kind == "pronoun" and \
                c.refs[0].head_kind == "pronoun" and \
                re.fullmatch(r"[\s,]*and\s*", text[prev.span[1]:c.span[0]].lower()):
            continue  # "walk there and stop next to it": one stage
        if prev is not None and prev.kind == "goal" and c.kind == "goal" and prev.refs and \
                c.refs and len(prev.refs) == 1 and len(c.refs) == 1 and \
                prev.refs[0].head_kind == "room" and not prev.refs[0].plural and \
                c.refs[0].head_kind in ("object", "group") and \
                not any(m.kind == "in_room" for m in c.refs[0].modifiers):
            between = text[prev.span[1]:c.span[0]].lower()
            if re.fullmatch(r"[\s,]*(?:and|,)\s*(?:then\s+)?[a-z\s]*", between) and \
                    not any(ch in between for ch in ".;!?"):
                room = prev.refs[0]
                c.refs[0].modifiers.insert(0, Modifier("in_room", [room], span=room.span))
                c.span = (prev.span[0], c.span[1])
                out[-1] = c
                continue
        out.append(c)
    return out


def apply_marks(clauses: list[Clause], marks: Marks) -> None:
    """Negate the ``in_room`` modifiers of "not in a bedroom" and move each coordinated
    ``with`` item to the head that took the first item of its group."""
    owners: dict[int, tuple[RefExpr, Modifier]] = {}

    def walk(ref: RefExpr) -> None:
        for mod in ref.modifiers:
            if mod.kind == "in_room" and mod.refs and mod.refs[0].span[0] in marks.negated_rooms:
                mod.negated = True
            if mod.kind == "with":
                owners.setdefault(mod.span[0], (ref, mod))
            for r in mod.refs:
                walk(r)

    stack = list(clauses)
    all_clauses: list[Clause] = []
    while stack:
        c = stack.pop()
        all_clauses.append(c)
        stack.extend(c.then)
        stack.extend(c.orelse)
        for r in [*c.refs, c.other, c.within]:
            if r is not None:
                walk(r)
    for c in all_clauses:
        ref = c.refs[0] if c.kind == "avoid" and c.refs else None
        gap = next((m for m in ref.modifiers if m.kind == "between" and len(m.refs) == 2),
                   None) if ref is not None else None
        if ref is not None and gap is not None and ref.head == "room" and \
                _GAP.match(ref.text.lower()):
            # "avoid the area between the sofa and the TV": an area, not a room
            ref.head, ref.head_kind, ref.modifiers = "between", "area", [gap]
    for c in all_clauses:
        for ref in c.refs:
            _make_point(ref, marks.points)
    for group in marks.with_groups:
        if group[0] not in owners:
            continue
        head = owners[group[0]][0]
        for start in group[1:]:
            if start in owners and owners[start][0] is not head:
                ref, mod = owners[start]
                ref.modifiers.remove(mod)
                head.modifiers.append(mod)


def _make_point(ref: RefExpr, points: dict[int, str]) -> None:
    """Turn a marked "the area between X and Y" into a midpoint and a marked "the ROOM
    farthest from X" into a corner of that room."""
    what = points.get(ref.span[0])
    if what == "midpoint":
        gap = next((m for m in ref.modifiers if m.kind == "between" and len(m.refs) == 2), None)
        if gap is not None:
            ref.head, ref.head_kind, ref.modifiers = "midpoint", "point", [gap]
    elif what == "corner" and ref.head_kind == "room":
        ranks = [m for m in ref.modifiers if m.kind == "rank" and m.refs]
        room = RefExpr(ref.text, ref.span, ref.head, ref.head_kind, ref.definite, False,
                       [m for m in ref.modifiers if m.kind != "rank"])
        ref.head, ref.head_kind = "corner", "point"
        ref.modifiers = [Modifier("in_room", [room], span=ref.span), *ranks]
