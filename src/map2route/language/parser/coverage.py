"""No silent drops: the content words a parse left unexplained, as spans of the instruction.

The parser marks every token it understood (:meth:`.state.ParserState.mark`). Function words
and the fixed phrases of some clauses ("stay well clear of obstacles", "follow the walls") may
go unmarked without changing the route, but a head word (a category, room or group word), a
word the parser found unknown, or a word that turns a meaning around (a negation, an ordinal,
"both", "neither", "except") must not: a parse that leaves one out would route to something the
instruction did not say. :func:`unexplained` returns those words grouped into spans;
:func:`~.parse.parse_instruction` refuses a parse that has any, naming the first span (the
hybrid grounder then asks the LLM instead).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from map2route.language import lexicon

if TYPE_CHECKING:
    from map2route.language.parser.model import Clause
    from map2route.language.parser.state import ParserState

#: Words that change what is meant however few they are (``lexicons/instructions.yaml``).
MEANING_WORDS: frozenset[str] = lexicon.words("instructions", "coverage_meaning_words")
#: Negations: left unread only where the clause that holds them is itself negative.
NEGATIONS: frozenset[str] = lexicon.words("instructions", "coverage_negations")
#: Head words that fixed phrases use without naming a landmark ("follow the walls",
#: "clear of obstacles and furniture", "start by going to ...").
IDIOM_HEADS: frozenset[str] = lexicon.words("instructions", "coverage_idiom_heads")
#: Clause kinds that read a negation themselves ("do not enter", "never go near").
_NEGATIVE_KINDS = frozenset({"avoid", "far"})
#: Words a span may bridge between two unexplained words ("the desk nor a teddy bear").
_BRIDGE = frozenset({"the", "a", "an", "of", "and", "or", "to", "that", "is", "are"})


def _clause_kind_at(clauses: list[Clause], pos: int) -> str:
    """The kind of the innermost clause whose character span holds ``pos``."""
    best = ""
    best_len = 1 << 30
    stack = list(clauses)
    while stack:
        c = stack.pop()
        stack.extend(c.then)
        stack.extend(c.orelse)
        a, b = c.span
        if a <= pos < b and b - a < best_len:
            best, best_len = c.kind, b - a
    return best


def unexplained(p: ParserState, clauses: list[Clause]) -> list[tuple[str, tuple[int, int]]]:
    """The content words of ``p``'s instruction that the parse neither used nor explained,
    merged into spans: ``[(text, (start, end)), ...]`` in reading order."""
    unknown = set(p.unknown)
    flagged: list[int] = []
    n = len(p.words)
    for i in range(n):
        word = p.words[i]
        if i in p.used and not (word in NEGATIONS and word in unknown):
            continue
        if not word[:1].isalpha():
            continue
        if word in NEGATIONS:
            if _clause_kind_at(clauses, p.toks[i].start) not in _NEGATIVE_KINDS:
                flagged.append(i)
            continue
        if word in MEANING_WORDS or word in unknown:
            flagged.append(i)
            continue
        hit = p.lex.match(p.words[i:i + p.lex.max_len])
        if hit is not None and word not in IDIOM_HEADS and \
                not (word == "safe" and p.w(i + 1) == "distance"):
            flagged.extend(k for k in range(i, i + hit[0]) if k not in p.used)
    spans: list[list[int]] = []
    for i in sorted(set(flagged)):
        if spans and all(p.words[k] in _BRIDGE or k in flagged
                         for k in range(spans[-1][1] + 1, i)) and i - spans[-1][1] <= 4:
            spans[-1][1] = i
        else:
            spans.append([i, i])
    out = []
    for a, b in spans:
        start, end = p.toks[a].start, p.toks[b].end
        out.append((p.text[start:end], (start, end)))
    return out
