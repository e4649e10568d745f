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
from map2route.language.parser import words as W
from map2route.language.parser.clauses import _STOP

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
#: Words that fixed phrases and politeness use without adding to the route ("stay well clear
#: of obstacles", "in terms of straight-line distance").
HARMLESS: frozenset[str] = lexicon.words("instructions", "coverage_harmless")
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


_REASON_OPENERS = ("because", "since", "cause", "cuz")
_ASIDE_VERBS = ("is", "are", "was", "were", "sleeps", "sleeping", "resting", "napping",
                "needs", "has", "likes", "hates")
_HEDGES = (("i", "guess"), ("i", "think"), ("i", "suppose"), ("i", "believe"))


def _it_is_one(words: list[str], i: int) -> bool:
    """", it's the great big one in the bedroom": an apposition that says which thing, not
    an aside (its words are read or refused, never passed over as a reason)."""
    return words[i:i + 2] == ["it", "is"] and "one" in words[i + 3:i + 8] and \
        words[i + 2] in ("the", "that")


def asides(p: ParserState) -> set[int]:
    """Tokens of asides that give a reason or a hedge, not a route ("because she is napping
    on it", ", the floor is wet", ", he's resting", "i guess"): reported as context."""
    out: set[int] = set()
    words = p.words
    n = len(words)
    for i, w in enumerate(words):
        starts_part = i == 0 or words[i - 1] in (",", ".", ";", "!", "?", "and")
        end = i
        if w in _REASON_OPENERS:
            end = i + 1
        elif starts_part and (w in W.NARRATORS or w in ("it", "the", "this")) and (
                any(words[k] in _ASIDE_VERBS for k in range(i + 1, min(i + 4, n)))) and \
                not any(words[k] in W.OPENERS and words[k] not in ("is", "be")
                        for k in range(i, min(i + 4, n))) and w != "the" and not _it_is_one(words, i):
            end = i + 1
        elif starts_part and w == "the" and any(words[k] in ("is", "are", "sleeps")
                                                for k in range(i + 2, min(i + 4, n))):
            end = i + 1
        elif any(tuple(words[i:i + len(h)]) == h for h in _HEDGES):
            out.update((i, i + 1))
            continue
        if end == i:
            continue
        while end < n and words[end] not in (",", ".", ";", "!", "?"):
            end += 1
        if not any(k in p.used for k in range(i, end)) or w in _REASON_OPENERS:
            out.update(range(i, end))
    return out


def unexplained(p: ParserState, clauses: list[Clause],
                aside: set[int]) -> list[tuple[str, tuple[int, int]]]:
    """The content words of ``p``'s instruction that the parse neither used nor explained
    (``aside``: the token indices of its asides, :func:`asides`), merged into spans:
    ``[(text, (start, end)), ...]`` in reading order."""
    unknown = set(p.unknown)
    flagged: list[int] = []
    n = len(p.words)
    for i in range(n):
        word = p.words[i]
        if i in p.used and not (word in unknown and (word in NEGATIONS or
                                                     word in MEANING_WORDS)):
            continue
        if i in aside:
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
        if word not in HARMLESS and word not in _STOP and word not in W.OPENERS and \
                word not in IDIOM_HEADS and word.isalpha():
            flagged.append(i)  # any other word left unread: not explained either
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


def aside_texts(p: ParserState) -> list[str]:
    """The asides of :func:`asides` as text, one entry per run of tokens."""
    out: list[str] = []
    prev = -2
    for i in sorted(asides(p)):
        if i == prev + 1 and out:
            out[-1] += " " + p.words[i]
        else:
            out.append(p.words[i])
        prev = i
    return out
