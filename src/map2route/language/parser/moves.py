"""Stage 0 of the parser: a grammar of discourse moves, clause by clause.

People who never read the parser wrap a route in talk: they greet and ask ("Hey, can you ...",
"Could you do a little round for me?"), give reasons and states (", it tips over easily", ", its
door sticks out", ", that's fine"), restate what they said ("Well, the garbage can is right next
to the toilet anyway, but the toilet is where I want you."), warn ("Careful with the plunger",
", give it some room"), hedge ("Try not to ...", "Just don't ..."), elaborate a head in an
apposition (", the one hanging on the wall", ", you know, in the bedroom with the arm chair")
and correct it (", I mean the one pulled up to the desk"). The phrase rewrites of
:mod:`.aside_rewrites` and :mod:`.register_rewrites` match one writer's words; this module
reads the *move* instead, from the structure of each clause (a sentence, or a comma part of
one) and not from its verbs and fillers:

* where the clause is cut (sentence and comma boundaries) and what opens it (a subject and a
  finite verb: a statement; a verb: a request; ``when``/``if``/...: a scope or condition);
* whether it names a map category or room, and whether that head is *new* (not named before
  in the instruction, nor a part of one, "its door");
* whether it holds a route word (a movement verb, ``here``/``back``/``through``, ...);
* what it refers back to (``it``/``them``, "the one").

Each clause gets one of the moves of :data:`MOVES`. A *statement* that names nothing new, and
*chatter* that names nothing at all, are taken out of the route and recorded as context (with
their spans, so the parse reports the places they name: a clause that names a map category is
never dropped). A *caution* becomes the constraint it asks for ("keep away from"), a *hedge*
loses its softener, an *elaboration* of a constraint ("don't squeeze between A and B, go
around the other side of the table"; ", give it some room") is context attached to that
constraint, an *apposition* is attached to the head before it as a post-modifier, a
*correction* with "the one" replaces the modifiers of that head (a sentence "Not X, I mean Y"
replaces the vaguer reference of the sentence before), a *dwell* at the place just reached
("and wait there") is context, a *frame* ("Of the two bathrooms, ...") names what a later
"one" stands for, a leading room said without its comma gets it back, and a comma splice of a
*mention* (a statement that names something new) and a request is cut into two sentences.
Stops said with ordinals ("First stop, the fridge.") are read first (:func:`_stops`).
Everything else (requests, scopes, conditions, mentions of new things) is left to the later
stages as it was. The leads of a clause are dropped only with the clause they open.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from map2route.language.inflection import singular_word
from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.move_words import (
    _ABSENT,
    _ASKS,
    _BACK,
    _CAUTIONS,
    _DESCRIBING,
    _DWELL,
    _DWELL_TAIL,
    _ENDS,
    _FINITE,
    _HEDGES,
    _IDIOMS,
    _LEAD_PAIRS,
    _LEADS,
    _LIGHT_VERBS,
    _NEGATIVE,
    _NOUN_LEADS,
    _OWNERS,
    _PARTS,
    _PLACE_PREPS,
    _PREP_OPEN,
    _PRONOUNS,
    _REFERENTS,
    _ROLE_NOUNS,
    _ROUTE_WORDS,
    _SCOPES,
    _SPACE,
    _SUBJECT_VERBS,
    _VERBS,
    _YOU_STATES,
    CONTEXT_MOVES,
    MIND_OBJECTS,
    MOVES,
)
from map2route.language.tokens import Token
from map2route.language.vocabulary import GROUPS

__all__ = ["MOVES", "Clause", "discourse_moves", "moves_of"]



@dataclass
class Clause:
    """A clause of the instruction: tokens ``a``..``b-1`` of the stream, and its move."""

    a: int
    b: int
    move: str = "request"
    #: Where the clause's core starts (after its leads).
    core: int = 0
    heads: list[str] = field(default_factory=list)
    #: Heads not named before in the instruction (nor owned: "its door").
    new_heads: list[str] = field(default_factory=list)
    #: The head named last before the clause.
    seen_last: str = ""
    #: For a recorded move, the head it is about (:func:`_about`).
    about: str = ""


def _heads(words: list[str], a: int, b: int) -> list[tuple[int, int, str]]:
    """(start, length, head) of each head word in ``words[a:b]``."""
    lex = head_lexicon()
    out = []
    k = a
    while k < b:
        hit = lex.match(words[k:min(b, k + lex.max_len)])
        if hit is not None:
            out.append((k, hit[0], hit[1]))
            k += hit[0]
        else:
            k += 1
    return out


def _known(head: str, seen: set[str]) -> bool:
    """Whether ``head`` was named before: itself, a member of it ("table" after "the dining
    table") or the group it belongs to."""
    if head in seen or head in _IDIOMS:
        return True
    members = {m.replace(" ", "_") for m in GROUPS.get(head, ())}
    return bool(members & seen) or any(s.endswith("_" + head) for s in seen)


def _lead_end(words: list[str], a: int, b: int) -> int:
    k = a
    while k < b:
        if words[k] in _LEADS or words[k] == ",":
            k += 1
        elif any(tuple(words[k:k + len(p)]) == p for p in _LEAD_PAIRS):
            k += 2
        else:
            break
    return k


def _finite(w: str) -> bool:
    return w in _FINITE or (len(w) > 3 and w.endswith("s") and w.isalpha() and
                            not w.endswith("ss") and head_lexicon().match([w]) is None and
                            w not in W.OPENERS)


def _subject_end(words: list[str], k: int, b: int) -> int | None:
    """Where a statement's finite verb is, if the clause at ``k`` opens with a subject (a
    pronoun, "its door", "the garbage can")."""
    w = words[k] if k < b else ""
    if w in _PRONOUNS and k + 1 < b and _finite(words[k + 1]):
        if w in ("that", "this") and head_lexicon().match(words[k + 1:k + 4]) is not None:
            return None
        return k + 1
    if (w in _OWNERS or w in ("the", "that", "this")) and k + 1 < b:
        lex = head_lexicon()
        headless = not _heads(words, k + 1, b)
        for n in range(1, 5):
            v = k + 1 + n
            if v < b and words[v] in _SUBJECT_VERBS and \
                    (lex.match(words[k + 1:v]) is not None or w in _OWNERS or headless):
                # "the garbage can is ...", "its door sticks out", "the cat's asleep" (a
                # subject that is no map category, in a clause that names none)
                return v
    return None


def _ask(words: list[str], k: int) -> int:
    return max((len(p) for p in _ASKS if tuple(words[k:k + len(p)]) == p), default=0)


def _route(body: list[str]) -> set[str]:
    """The route words of a clause (a route word after "a little" is a noun)."""
    return {x for n, x in enumerate(body) if x in _ROUTE_WORDS and
            not (n and body[n - 1] in _NOUN_LEADS)}


def _at(body: list[str], seqs: tuple[tuple[str, ...], ...]) -> int:
    return max((len(p) for p in seqs if tuple(body[:len(p)]) == p), default=0)


def classify(words: list[str], c: Clause, prev: Clause | None, prev_words: list[str],
             seen: set[str], nxt: list[str] | None = None) -> str:
    """The move of clause ``c`` of ``words`` (one of :data:`MOVES`).

    ``prev`` is the clause before it in the same sentence (None at a sentence start),
    ``prev_words`` that clause's words, ``seen`` the heads named before ``c`` and ``nxt``
    the words of the clause after it in the sentence (None at its end).
    """
    k, b = c.core, c.b
    if k >= b:
        return "lead"
    body = words[k:b]
    w = body[0]
    if _at(body, _CAUTIONS) and c.heads and (w != "mind" or body[1:2] and
                                             body[1] in MIND_OBJECTS):
        return "caution"  # "careful with the plunger", "watch out for the cart"
    if _at(body, _HEDGES):
        return "hedge"  # "try not to get close to ..."
    if prev is None and body[:2] == ["of", "the"] and c.heads and len(c.heads) == 1 and \
            not set(body) & _VERBS:
        return "frame"  # "Of the two bathrooms, go to the bigger one"
    # a clause with a conjunction or sequence lead is a clause of its own ("then the one in
    # the kitchen" is another stop), never an apposition
    joined = not set(words[c.a:c.core]) & {"and", "but", "then", "so", "also", "now"}
    if prev is not None and prev.move in ("request", "apposition") and w in _PLACE_PREPS and \
            c.heads and not set(body) & (_VERBS - {"next"}) and _ends_in_head(words, prev) and joined and \
            (nxt is None or nxt[:1] == ["and"]):
        # (not "..., and in the bedroom, keep away from the bed": a scope of what follows)
        return "apposition"  # "the bat on the side table, you know, in the bedroom with ..."
    if prev is not None and w == "not" and body[-1] in ("one", "ones") and not c.heads and \
            not set(body[1:]) & _VERBS and set(prev_words) & {"other", "another", "different"}:
        return "elaboration"  # "the TV in the other living room, not the long one": the
        # contrast "other" already draws
    if w in _SCOPES:
        return "scope"
    if prev is not None and body[:2] in (["the", "one"], ["the", "ones"]) and joined and \
            prev.move in ("request", "apposition") and len(body) > 2:
        return "apposition"  # ", the one hanging on the wall"
    if prev is not None and prev.move == "request" and \
            body[:3] in (["i", "mean", "the"], ["i", "meant", "the"]) and \
            body[3:4] in (["one"], ["ones"]) and len(body) > 4:
        return "correction"  # ", I mean the one pulled up to the desk"
    if prev is not None and _dwells(body) and not set(prev_words) & _PASSES:
        return "dwell"  # ", and wait there", "and stay there for me" (not after a pass:
        # "go through the kitchen, and stop there" makes the kitchen a stop)
    route = _route(body)
    verb = _subject_end(words, k, b)
    if verb is not None and set(body) & _ROLE_NOUNS:
        return "request"  # "your final destination is the desk lamp": a stage, said
    if verb is not None:
        if w in _REFERENTS and set(words[verb + 1:b]) & _DESCRIBING:
            return "request"  # "it's big", "it's in the living room": which one it is
        if c.new_heads:
            return "mention"  # "I left my phone by the bed": left to the mention readers
        if not route or _restates(c):
            return "statement"  # ", it tips over easily", "the toilet is where I want you"
        return "request"
    if set(body) & _ABSENT:
        return "request"  # a thing no map has: refused by name later, never chatter
    if w == "you" and not c.heads and not route - _LIGHT_VERBS and \
            any(x in _YOU_STATES for x in body):
        return "chatter"  # "you'll see it", "then you're done"
    rest = body[_at(body, _ASKS):]
    if not c.heads and rest and rest[0] in _LIGHT_VERBS and not route - _LIGHT_VERBS and \
            not set(rest) & (_BACK | {"to", "into", "toward", "towards"}):
        return "chatter"  # "could you do a little round for me", "be quick"
    if prev is not None and _elaborates(body, c, prev_words, seen):
        return "elaboration"
    return "request"


def _dwells(body: list[str]) -> bool:
    """"wait there", "stay here for me": staying at the place just reached."""
    return bool(body) and body[0] in _DWELL and all(x in _DWELL_TAIL for x in body[1:]) and \
        any(x in ("there", "here", "for") for x in body[1:])


def _ends_in_head(words: list[str], c: Clause) -> bool:
    """Whether clause ``c`` ends in a noun phrase's head ("... on the side table")."""
    hs = _heads(words, c.core, c.b)
    return bool(hs) and hs[-1][0] + hs[-1][1] == c.b


def _restates(c: Clause) -> bool:
    """"the toilet is where you stop": a statement whose one head was named before, last
    (a route word in it restates that stage)."""
    return bool(c.heads) and not c.new_heads and set(c.heads) == {c.seen_last}


def _elaborates(body: list[str], c: Clause, prev_words: list[str], seen: set[str]) -> bool:
    """Whether ``c`` says again, or how, the negative constraint of the clause before it
    ("careful with the plunger, give it some room"; "don't squeeze between A and B, go around
    the other side of the table"): it names nothing new and stops nowhere."""
    if not set(prev_words) & _NEGATIVE or c.new_heads:
        return False
    if set(body) & {"stop", "wait", "end", "finish", "back", "here", "then", "first", "not",
                    "never", "do"}:
        return False
    if body[0] in ("i", "no", "sorry", "actually", "rather"):
        return False  # "Not the bathroom, I mean the other bedroom": a correction
    if body[0] in ("give", "leave", "allow") and set(body) & _SPACE and set(body) & _BACK:
        return True
    return bool(c.heads) and all(_known(h, seen) for h in c.heads) and \
        bool(set(body) & {"around", "other", "side", "instead"})


def _sentences(words: list[str]) -> list[tuple[int, int]]:
    """Sentence spans, each without its end mark (an ellipsis "..." is a pause)."""
    out = []
    a = 0
    for k, w in enumerate(words):
        if w in _ENDS and not (w == "." and (words[k + 1:k + 2] == ["."] or
                                             words[k - 1:k] == ["."])):
            out.append((a, k))
            a = k + 1
    if a < len(words):
        out.append((a, len(words)))
    return out


def _clauses(words: list[str], a: int, b: int) -> list[Clause]:
    """Comma parts of the sentence ``a``..``b``."""
    out = []
    s = a
    for k in range(a, b + 1):
        if k == b or words[k] == ",":
            if k > s:
                out.append(Clause(s, k))
            s = k + 1
    return out


def moves_of(toks: list[Token]) -> list[tuple[str, str]]:
    """(clause text, move) of every clause of ``toks``, in reading order (for tests and
    reports)."""
    words = [t.text for t in _stops(toks)[0]]
    return [(" ".join(words[c.a:c.b]), c.move) for c in _read(words)]


def _read(words: list[str]) -> list[Clause]:
    """Every clause of ``words`` with its move."""
    out: list[Clause] = []
    seen: set[str] = set()
    last = ""
    for sa, sb in _sentences(words):
        prev: Clause | None = None
        parts = _clauses(words, sa, sb)
        for n, c in enumerate(parts):
            c.core = _lead_end(words, c.a, c.b)
            hs = _heads(words, c.core, c.b)
            c.heads = [h for _, _, h in hs]
            c.new_heads = [h for s, _, h in hs if not _known(h, seen) and
                           not (s > 0 and words[s - 1] in _PARTS)]
            c.seen_last = last
            nxt = words[parts[n + 1].a:parts[n + 1].b] if n + 1 < len(parts) else None
            c.move = classify(words, c, prev, words[prev.core:prev.b] if prev else [], seen, nxt)
            c.about = _about(c, prev) if c.move in RECORDED else ""
            for _, _, h in hs:
                seen.add(h)
                last = h
            out.append(c)
            if c.move != "lead":
                prev = c
    return out


#: Moves recorded in :attr:`.model.InstructionParse.discourse` (requests, scopes, mentions and
#: leads are the route's own reading, not recorded).
RECORDED = frozenset({"statement", "chatter", "caution", "hedge", "elaboration", "apposition",
                      "correction", "dwell", "frame"})


def _about(c: Clause, prev: Clause | None) -> str:
    """The head a recorded clause is about: its own first head for a statement, a caution, a
    hedge or a frame; for an elaboration, a dwell or a correction the first head of the clause
    before (the thing that clause is about: "careful with the plunger by the door, give *it*
    some room"); for an apposition the head it follows; else the head named last before it;
    none for chatter."""
    if c.move == "chatter":
        return ""
    if c.move in ("statement", "caution", "hedge", "frame") and c.heads:
        return c.heads[0]
    if prev is not None and prev.about and prev.move in ("correction", "apposition") and \
            c.move in ("elaboration", "dwell"):
        return prev.about  # "the chair ..., I mean the one by the desk, and wait there"
    if prev is not None and prev.heads:
        if c.move in ("elaboration", "dwell", "correction"):
            return prev.heads[0]
        if c.move == "apposition":
            return prev.heads[-1]
    return c.seen_last


def discourse_moves(toks: list[Token], records: list[dict[str, str]] | None = None
                    ) -> tuple[list[Token], list[tuple[str, tuple[int, int]]]]:
    """Classify every clause by its move and consume the moves that are not route content.

    Each clause of a move in :data:`RECORDED` is appended to ``records`` (its move, its words
    and the head it is about). Returns the tokens left for the route (appositions and
    corrections attached to their heads, cautions and hedges rewritten as the constraint they ask for, a mention spliced to
    a request cut into its own sentence, "in there" in a constraint read as the room named
    last) and the clauses taken out as context (text and character span).
    """
    toks, stop_context = _stops(toks)
    words = [t.text for t in toks]
    ed = _Edit(toks, words)
    ed.context.extend(stop_context)
    clauses = _read(words)
    by_sentence: dict[tuple[int, int], list[Clause]] = {}
    spans = _sentences(words)
    for c in clauses:
        sent = next(sp for sp in spans if sp[0] <= c.a < sp[1] + 1)
        by_sentence.setdefault(sent, []).append(c)
        if records is not None and c.move in RECORDED:
            records.append({"move": c.move, "text": " ".join(words[c.core:c.b]),
                            "about": c.about})
    for (sa, sb), parts in by_sentence.items():
        prev: Clause | None = None
        for c in parts:
            _consume(ed, c, prev)
            if c.move != "lead":
                prev = c
        content = [c for c in parts if c.move != "lead"]
        if content and all(c.move in CONTEXT_MOVES for c in content):
            # nothing of the sentence is route: its leads and end mark go too
            ed.drop.update(range(sa, min(sb + 1, len(words))))
        for x, y in zip(content, content[1:], strict=False):
            if x.move == "mention" and y.move == "request" and words[x.b:x.b + 1] == [","] \
                    and (words[y.core] in W.MOVE_VERBS or _at(words[y.core:y.b], _ASKS)):
                # "I left my phone by the bed, go to that bed": two sentences
                ed.replace[x.b] = [Token(".", toks[x.b].start, toks[x.b].end)]
    for n, (sa, sb) in enumerate(spans):
        if n and not any(x in ed.drop for x in range(*spans[n - 1])):
            _correct_sentence(ed, spans[n - 1], (sa, sb))
    _in_there(ed, spans)
    return ed.tokens(), ed.context


#: Nouns of a stop in a list said with ordinals ("First stop, the fridge.", "your second stop
#: is the toilet").
_STOP_NOUNS = frozenset({"stop", "destination", "place", "spot", "goal", "location", "target"})
_STOP_LINKS = (("is",), ("will", "be"), ("should", "be"), (":",), (",",), ("is", "at"))


def _stops(toks: list[Token]) -> tuple[list[Token], list[tuple[str, tuple[int, int]]]]:
    """"First stop, the fridge. Second stop, the TV." / "Your first stop is the TV stand, and
    your second stop is the toilet." -> "go to the fridge. go to the TV."; a later "the second
    stop" is that stop: "on the way to the second stop", said after it, is "on the way" (the
    leg to the stop named last), anywhere else the stop's words."""
    words = [t.text for t in toks]
    out: list[Token] = []
    named: dict[int, list[Token]] = {}
    context: list[tuple[str, tuple[int, int]]] = []
    k = 0
    while k < len(words):
        q = k + (1 if words[k] in ("your", "the", "my", "our") else 0)
        starts = k == 0 or words[k - 1] in (*_ENDS, ",", "and", "then", ":")
        ordinal = W.ORDINALS.get(words[q], 0) if q < len(words) else 0
        if starts and ordinal and words[q + 1:q + 2] and words[q + 1] in _STOP_NOUNS:
            link = _at(words[q + 2:], _STOP_LINKS)
            a = q + 2 + link
            if link and a < len(words) and words[a] in ("the", "a", "an", "that", "this"):
                end = a
                while end < len(words) and words[end] not in (*_ENDS, ",", ";", "and"):
                    end += 1
                item = toks[a:end]
                hs = _heads(words, a, end)
                if hs:
                    named[ordinal] = toks[a:hs[0][0] + hs[0][1]]
                    context.append((" ".join(words[k:a]), (toks[k].start, toks[a - 1].end)))
                    out.extend(Token(x, toks[k].start, toks[k].start) for x in ("go", "to"))
                    out.extend(item)
                    k = end
                    continue
        ordinal = W.ORDINALS.get(words[k + 1], 0) if k + 1 < len(words) else 0
        if words[k] == "the" and ordinal in named and words[k + 2:k + 3] and \
                words[k + 2] in _STOP_NOUNS:
            last = max(named)
            if ordinal == last and len(out) >= 3 and \
                    [t.text for t in out[-3:]] == ["the", "way", "to"]:
                context.append((" ".join(words[k - 1:k + 3]), (toks[k - 1].start,
                                                               toks[k + 2].end)))
                out.pop()
            else:
                out.extend(Token(t.text, toks[k].start, toks[k + 2].end)
                           for t in named[ordinal])
            k += 3
            continue
        out.append(toks[k])
        k += 1
    return out, context


@dataclass
class _Edit:
    """Edits to a token stream: tokens dropped, tokens replaced, context recorded."""

    toks: list[Token]
    words: list[str]
    drop: set[int] = field(default_factory=set)
    replace: dict[int, list[Token]] = field(default_factory=dict)
    context: list[tuple[str, tuple[int, int]]] = field(default_factory=list)

    def record(self, a: int, b: int) -> None:
        body = [t for t in self.toks[a:b] if t.text != ","]
        if body:
            self.context.append((" ".join(t.text for t in body), (body[0].start, body[-1].end)))

    def put(self, k: int, *texts: str) -> None:
        t = self.toks[k]
        self.replace[k] = [Token(x, t.start, t.end) for x in texts]

    def tokens(self) -> list[Token]:
        out: list[Token] = []
        for k, t in enumerate(self.toks):
            if k in self.replace:
                out.extend(self.replace[k])
            elif k not in self.drop:
                out.append(t)
        return out


def _consume(ed: _Edit, c: Clause, prev: Clause | None) -> None:
    """Apply clause ``c``'s move to the token stream."""
    words = ed.words
    k = c.core
    if c.move in CONTEXT_MOVES:
        ed.record(c.core, c.b)
        ed.drop.update(range(c.a, c.b))
        if c.a > 0 and words[c.a - 1] == ",":
            ed.drop.add(c.a - 1)
        elif c.b < len(words) and words[c.b] == ",":
            ed.drop.add(c.b)
        return
    if c.move == "caution":
        n = _at(words[k:c.b], _CAUTIONS)
        ed.put(k, "keep", "away", "from")
        ed.drop.update(range(k + 1, k + n))
        return
    if c.move == "hedge":
        n = _at(words[k:c.b], _HEDGES)
        if words[k + n - 2:k + n] == ["not", "to"]:
            ed.put(k, "do", "not")
            ed.drop.update(range(k + 1, k + n))
        else:
            ed.drop.update(range(k, k + n))
        ed.record(k, k + 1)
        return
    if c.move == "frame":
        _frame(ed, c)
        return
    if c.move == "request":
        _arrival(ed, c)
        _dwell_tail(ed, c)
        return
    if c.move == "scope":
        _scope_boundary(ed, c)
        return
    if c.move == "apposition" and prev is not None and c.a > 0 and words[c.a - 1] == ",":
        # the commas and leads ("you know") between the head and its apposition go
        ed.record(prev.b, c.core)
        ed.drop.update(range(prev.b, c.core))
        if ed.words[c.core:c.core + 2] in (["the", "one"], ["the", "ones"]):
            # ", the one with a plant on it" -> " with a plant on it" on the head before
            _describe(ed, c.core, c.core + 1, c.b)
        if c.b < len(words) and words[c.b] == "," and words[c.b + 1:c.b + 2] == ["and"]:
            ed.drop.add(c.b)
        return
    if c.move == "correction" and prev is not None and c.a > 0:
        # "the chair that isn't at a table, I mean the one pulled up to the desk": the
        # description after "the one" takes the place of the one said of the head before
        hs = _heads(words, prev.core, prev.b)
        if not hs:
            return
        end = hs[0][0] + hs[0][1]
        if end < prev.b:
            ed.record(end, prev.b)
            ed.drop.update(range(end, prev.b))
        ed.record(c.core, c.core + 2)
        ed.drop.update({c.a - 1, *range(c.a, c.core + 3)})
        _describe(ed, c.core + 2, c.core + 3, c.b)
        if c.b < len(words) and words[c.b] == "," and words[c.b + 1:c.b + 2] == ["and"]:
            ed.drop.add(c.b)


#: Arriving said without a place ("when you come in"): the room of the stage named before.
_ARRIVALS = (("when", "you", "come", "in"), ("as", "you", "come", "in"),
             ("when", "you", "get", "in"), ("as", "you", "go", "in"), ("when", "you", "go", "in"),
             ("as", "you", "enter"), ("when", "you", "enter"), ("on", "your", "way", "in"),
             ("when", "you", "walk", "in"), ("as", "you", "walk", "in"),
             ("once", "you", "are", "in"), ("when", "you", "arrive"), ("as", "you", "arrive"))
_PASSES = frozenset({"past", "through", "by", "via"})


def _arrival(ed: _Edit, c: Clause) -> None:
    """"Go past the arm chair when you come in": a pass said with an arrival that names no
    place is on the way to the stage named before (read as "on the way, go past ..."; the
    arrival words are context)."""
    words = ed.words
    if c.core >= c.b or not set(words[c.core:c.b]) & _PASSES or c.core in ed.replace:
        return
    for k in range(c.core + 1, c.b):
        n = _at(words[k:c.b], _ARRIVALS)
        if n and k + n == c.b:
            first = ed.toks[c.core]
            ed.replace[c.core] = [Token(x, first.start, first.start)
                                  for x in ("on", "the", "way", ",")] + [first]
            ed.record(k, c.b)
            ed.drop.update(range(k, c.b))
            return


def _dwell_tail(ed: _Edit, c: Clause) -> None:
    """"go there and wait for me": a request that ends by staying at the place it reached
    (not after a pass, and only with "for me"/"for us": "go to the sofa and stop there" is
    left to the later stages)."""
    words = ed.words
    body = words[c.core:c.b]
    if set(body) & _PASSES:
        return
    for k in range(c.core + 1, c.b - 1):
        if words[k] == "and" and _dwells(words[k + 1:c.b]) and \
                ("for" in words[k + 1:c.b]) and k + 1 not in ed.replace:
            ed.record(k + 1, c.b)
            ed.drop.update(range(k, c.b))
            return


def _scope_boundary(ed: _Edit, c: Clause) -> None:
    """"in the kitchen don't go near the counter": a leading room said without its comma
    ends where the request's verb starts (the comma is put back; the scope rules read it)."""
    words = ed.words
    if words[c.core] not in ("in", "inside", "within"):
        return
    r = c.core + 1
    if words[r:r + 1] in (["the"], ["a"], ["that"], ["this"]):
        r += 1
    while r < c.b and words[r] in _ROOM_ADJS:
        r += 1
    hit = head_lexicon().match(words[r:r + head_lexicon().max_len])
    if hit is None or hit[2] != "room":
        return
    v = r + hit[0]
    if v < c.b and v not in ed.replace and words[v] in _REQUEST_VERBS:
        t = ed.toks[v]
        ed.replace[v] = [Token(",", t.start, t.start), t]


#: Verbs that open a request after a leading room ("in the kitchen *keep* away from ...";
#: not "next", "then": "inside the bedroom next to the room you start in").
_REQUEST_VERBS = (W.MOVE_VERBS | W.PREF_VERBS | W.SHAPE_VERBS | {"do"}) - {
    "back", "finally", "not", "never", "be", "on", "next", "then", "first", "when", "while",
    "once", "after", "before", "if", "else", "otherwise"}
_ROOM_ADJS = frozenset(W.FILLER_ADJ | set(W.SIZE_ADJ) | set(W.COMPARATIVE) | W.RANK_WORDS)


def _correct_sentence(ed: _Edit, before: tuple[int, int], sent: tuple[int, int]) -> None:
    """"Go to the plant in the room you get into from the smallest bedroom. Not the bathroom,
    I mean the other bedroom.": a sentence that only says "(not X,) I mean Y" puts Y in the
    place of the reference of the sentence before that Y makes precise: one of the same kind
    (a room for a room), the least specific first (the bare "room", a group word), else the
    last one; that reference and its words up to its clause's end, and the "not X", are
    context."""
    words = ed.words
    sa, sb = sent
    k = _fix_end(words, sa, sb)
    x = k
    if words[k:k + 1] == ["not"]:
        comma = next((q for q in range(k, sb) if words[q] == ","), None)
        if comma is None or set(words[k + 1:comma]) & _VERBS:
            return
        x = _fix_end(words, comma + 1, sb)
    if words[x:x + 2] not in (["i", "mean"], ["i", "meant"]) or \
            words[x + 2:x + 3] not in (["the"], ["a"], ["that"]) or \
            words[x + 3:x + 4] in (["one"], ["ones"]):
        return  # ("I mean the one by the sink": a fragment the discourse stage reads)
    new = _heads(words, x + 2, sb)
    if not new or set(words[x + 2:sb]) & _VERBS or any(q in ed.drop for q in range(sa, sb)):
        return
    lex = head_lexicon()
    kind = lex.match(words[new[0][0]:new[0][0] + new[0][1]])
    ba, bb = before
    olds = [(s0, n0, h) for s0, n0, h in _heads(words, ba, bb)
            if (m := lex.match(words[s0:s0 + n0])) is not None and kind is not None and
            (m[2] == "room") == (kind[2] == "room")]
    if not olds:
        return
    room = kind is not None and kind[2] == "room"
    vague = [o for o in olds if o[2] in ("room", *GROUPS)]
    # a room: the vaguest one said ("the room you get into from ..."); a thing: the first
    # one, the target of the request ("go to the armchair by the window")
    s0, _, _ = vague[-1] if room and vague else (olds[-1] if room else olds[0])
    det = s0
    while det > ba and words[det - 1] in _ROOM_ADJS | {"the", "a", "an", "that", "this"}:
        det -= 1
    stops = {",", ";"} if room else {",", ";", "and", "then", "to", "through", "past", "via"}
    end = next((q for q in range(s0, bb) if words[q] in stops or
                (not room and q > s0 and words[q] in W.MOVE_VERBS)), bb)
    ed.record(det, end)
    ed.drop.update(range(det, end))
    if x > k:
        ed.record(k, x)  # "not the bathroom"
    ed.drop.update(range(sa, x + 2))
    t = ed.toks[det]
    ed.replace[det] = [Token(w, t.start, t.end) for w in words[x + 2:sb]]
    ed.drop.update(range(x + 2, sb + (1 if sb < len(words) else 0)))


#: Words that open a self-correction before "I mean" ("Sorry, I mean ...", "No wait, ...").
_FIX_WORDS = frozenset({"sorry", "no", "nope", "actually", "oops", "wait", "rather", "or",
                        "hmm", "er", "uh", "um", "oh", ","})


def _fix_end(words: list[str], a: int, b: int) -> int:
    k = _lead_end(words, a, b)
    while k < b and words[k] in _FIX_WORDS:
        k = _lead_end(words, k + 1, b)
    return k


def _describe(ed: _Edit, the: int, one: int, end: int) -> None:
    """Drop "the one" at ``the``/``one``; a participle after it ("hanging on the wall") gets
    "that is" so that it reads as a relative clause of the head before."""
    ed.drop.update({the, one})
    nxt = ed.words[one + 1] if one + 1 < end else ""
    if nxt not in _PREP_OPEN:
        ed.put(one, "that", "is")


def _frame(ed: _Edit, c: Clause) -> None:
    """"Of the two bathrooms, go to the bigger one": the frame names the head "one" stands
    for; it is read as "the bigger bathroom" and the frame is context."""
    words = ed.words
    hs = _heads(words, c.core, c.b)
    s, n, _ = hs[0]
    sent_end = next((x for x in range(c.b, len(words)) if words[x] in _ENDS), len(words))
    one = next((x for x in range(c.b, sent_end) if words[x] == "one"), None)
    if one is None or words[one - 1] in ("that", "this", "each", "every", "any", "no"):
        return
    ed.record(c.core, c.b)
    ed.drop.update(range(c.a, c.b + (1 if words[c.b:c.b + 1] == [","] else 0)))
    head = words[s:s + n]
    ed.put(one, *head[:-1], singular_word(head[-1]))


#: Clauses that keep clear of something ("keep away from", "careful with", "don't go near").
_KEEP = frozenset({"away", "clear", "avoid", "far", "distance", "berth", "not", "never", "careful",
                   "beware", "wary"})
#: "the bedroom that does not have a TV": a "not" that describes a room, keeping clear of nothing.
_HAS = (['have'], ['contain'], ['include'], ['hold'])
#: "while you do it": a scope that only points at the action of its own clause.
_SAME_ACTION = (("while", "you", "do", "it"), ("while", "you", "do", "that"),
                ("while", "you", "are", "at", "it"), ("as", "you", "do", "it"),
                ("when", "you", "do", "it"), ("while", "doing", "it"),
                ("while", "doing", "that"), ("as", "you", "go"), ("while", "you", "go"))


def _in_there(ed: _Edit, spans: list[tuple[int, int]]) -> None:
    """"keep away from the plunger in there" -> "... while you are in the bathroom": in a
    clause that keeps clear of a thing, "in there" is where the walker will be, the room named
    last before it (in its sentence or the one before); "once you're in that room, ..." is that
    room too. "while you do it" after "in there" adds nothing (context)."""
    words = ed.words
    for n, (sa, sb) in enumerate(spans):
        for k in range(sa, sb):
            if k in ed.drop or k in ed.replace:
                continue
            m = 2 if words[k:k + 2] == ["in", "there"] else (
                3 if words[k:k + 3] in (["in", "that", "room"], ["in", "that", "same"]) else 0)
            if not m:
                continue
            m += 1 if words[k:k + 4] == ["in", "that", "same", "room"] else 0
            clause_a = max((x for x in range(sa, k) if words[x] in (",", ";")), default=sa - 1)
            subject = words[max(sa, k - 2):k] in (["you", "are"], ["you", "get"], ["we", "are"])
            scoped = subject and words[k - 3:k - 2] in (["once"], ["when"], ["while"], ["as"],
                                                        ["whenever"])
            if subject and not scoped:
                continue  # "until you're in there": read by the scope rules
            keeps = any(w in _KEEP and words[x + 1:x + 2] not in _HAS  # not "that does not have"
                        for x, w in enumerate(words[:k]) if x > clause_a)
            if not (scoped or keeps):
                continue
            room = _last_room(words, k, spans[max(0, n - 1)][0])
            if room is None:
                continue
            if not scoped and words[k + 1] == "that":
                continue  # "the sofa in that room": left to the reference rules
            if scoped:
                ed.put(k, "in", "the", *room)
            else:
                ed.put(k, "while", "you", "are", "in", "the", *room)
            ed.drop.update(range(k + 1, k + m))
            tail = k + m
            q = _at(words[tail:sb], _SAME_ACTION)
            if q and not scoped:
                ed.record(tail, tail + q)
                ed.drop.update(range(tail, tail + q))


def _last_room(words: list[str], k: int, floor: int) -> list[str] | None:
    """The words of the room named last before ``k`` (not before token ``floor``)."""
    lex = head_lexicon()
    for x in range(k - 1, floor - 1, -1):
        hit = lex.match(words[x:x + lex.max_len])
        if hit is not None and hit[2] == "room" and hit[1] != "room":
            return words[x:x + hit[0]]
    return None
