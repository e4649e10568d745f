"""Contrasts said in any position, put into the one position the reference rules read.

The reference rules (:func:`.reference_frames.not_the_one`, the "I mean the one ..." reading
of the discourse stage) read a contrast or a narrowing said right after the head, after a
comma: "Go to the sofa, not the one by the window.", "Go to the sofa, I mean the one by the
door." People say the same words in other positions and forms, and each rule read only one;
this pass, run first in :func:`.human.human_forms` on the tokens as typed, puts every one of
them into the comma form, so that all the rules after it compose with it:

* the position: after a dash ("the sofa - not the one ..."), in brackets ("the sofa (not the
  one ...)"), or as its own sentence ("Go to the sofa. Not the one by the window.", "... the
  lamp. I mean the one in the bedroom.") -> after a comma;
* the form: "not that one ..." -> "not the one ..."; "not the sofa by the window" after "the
  sofa" (the head said again) -> "not the one by the window";
* the marker after the description: ", the one by the bed, I mean" -> ", I mean the one by
  the bed"; ", the one by the bed, not the other one" -> ", the one by the bed";
* the set said as the whole house: "Out of all the chairs in the house, ..." -> "Out of all
  the chairs, ..." (the house is the whole map).

A thing ruled out by a rank ("not the one nearest the TV", "instead of the one closest to the
door") is refused by name: the grounder has no negated rank, and the rules after this pass
would read "instead of" as a second stop.

Hand-written (no learned model), like the rest of the parser: each rewrite only moves or
respells the speaker's words (every new token keeps the span of the words it stands for), so
nothing that names a place is dropped.
"""

from __future__ import annotations

from map2route.language.errors import ParseError
from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

_ENDS = (".", "!", "?")
_DASHES = ("-", "\u2013", "\u2014", "--")
#: Openers of a contrast or a narrowing after the head ("<head>, not the one ...").
_OPENERS = (("but", "not", "the", "one"), ("and", "not", "the", "one"), ("not", "the", "one"),
            ("rather", "than", "the", "one"), ("instead", "of", "the", "one"),
            ("i", "mean", "the", "one"), ("i", "meant", "the", "one"))
#: Words that open a description after "not that one" / "not the <head>" ("by the window").
_DESC = frozenset({"by", "near", "next", "on", "in", "with", "under", "beneath", "beside",
                   "tucked", "that", "which", "at", "opposite", "behind", "against", "closest",
                   "nearest", "close", "right", "over", "up", "facing", "between"})
#: Ranks a thing cannot be ruled out by offline ("not the one nearest X").
_RANKS = frozenset({"nearest", "closest", "farthest", "furthest", "nearer", "closer",
                    "farther", "further", "biggest", "smallest", "largest"})


def _words(toks: list[Token]) -> list[str]:
    return [t.text for t in toks]


def _head_ending(words: list[str], k: int) -> tuple[int, str] | None:
    """(start, head) of the head that ends just before ``k`` ("the sofa" | "the one")."""
    if k > 0 and words[k - 1] in ("one", "ones"):
        return k - 1, "one"
    lex = head_lexicon()
    for n in range(lex.max_len, 0, -1):
        if k - n >= 0 and (hit := lex.match(words[k - n:k])) is not None and hit[0] == n \
                and hit[2] != "pronoun":
            return k - n, hit[1]
    return None


def _opener(words: list[str], k: int) -> int:
    """Length of the contrast opener at ``k`` (0: none)."""
    return next((len(p) for p in _OPENERS if tuple(words[k:k + len(p)]) == p), 0)


def _sentence_end(words: list[str], k: int) -> int:
    while k < len(words) and words[k] not in _ENDS:
        k += 1
    return k


def contrast_positions(toks: list[Token]) -> list[Token]:
    """Put the contrasts of ``toks`` into the comma form (see the module docstring).

    Raises:
        ParseError: a thing ruled out by a rank ("not the one nearest the TV").
    """
    _refuse_ranked(toks)
    toks = _respell(toks)
    toks = _positions(toks)
    toks = _markers_after(toks)
    return _whole_house(toks)


def _respell(toks: list[Token]) -> list[Token]:
    """"not that one" -> "not the one"; "not the sofa <desc>" after "the sofa" -> "not the one
    <desc>"; "instead of / rather than the one" -> "not the one"; "the one tucked under X" ->
    "the one under X"."""
    out: list[Token] = []
    words = _words(toks)
    i = 0
    while i < len(toks):
        if words[i:i + 2] in (["instead", "of"], ["rather", "than"]) and \
                words[i + 2:i + 4] == ["the", "one"] and words[i - 1] in (",", "(", *_DASHES, *_ENDS):
            # "instead of the one ..." after the head says what "not the one ..." says
            out.append(Token("not", toks[i].start, toks[i + 1].end))
            i += 2
            continue
        if words[i - 1:i + 1] == ["one", "tucked"] and words[i + 1] in ("under", "beneath"):
            # "the one tucked under the desk": where it is, "under the desk"
            out.append(Token(words[i + 1], toks[i].start, toks[i + 1].end))
            i += 2
            continue
        if words[i] == "not" and i + 2 < len(words) and words[i + 1] in ("that", "the") and \
                words[i - 1] in (",", "(", *_DASHES, *_ENDS, "but", "and"):
            if words[i + 1] == "that" and words[i + 2] == "one" and i + 3 < len(words) and \
                    words[i + 3] in _DESC:
                out += [toks[i], Token("the", toks[i + 1].start, toks[i + 1].end)]
                i += 2
                continue
            said = head_lexicon().match(words[i + 2:i + 2 + head_lexicon().max_len])
            before = _last_head(words, i)
            if said is not None and before is not None and said[1] == before and \
                    i + 2 + said[0] < len(words) and words[i + 2 + said[0]] in _DESC:
                end = i + 2 + said[0]
                out += [toks[i], Token("the", toks[i + 1].start, toks[i + 1].end),
                        Token("one", toks[i + 2].start, toks[end - 1].end)]
                i = end
                continue
        out.append(toks[i])
        i += 1
    return out


def _last_head(words: list[str], k: int) -> str | None:
    """The head that ends just before the boundary words before ``k``."""
    j = k
    while j > 0 and words[j - 1] in (",", "(", *_DASHES, *_ENDS, "but", "and"):
        j -= 1
    hit = _head_ending(words, j)
    return hit[1] if hit is not None else None


def _positions(toks: list[Token]) -> list[Token]:
    """A contrast after a dash, in brackets or as its own sentence -> after a comma."""
    words = _words(toks)
    out: list[Token] = []
    skip: set[int] = set()
    for i, t in enumerate(toks):
        if i in skip:
            continue
        w = words[i]
        if w in (*_DASHES, "(", *_ENDS) and _head_ending(words, i) is not None and \
                (_opener(words, i + 1) or w in (*_DASHES, "(") and words[i + 1:i + 3] == ["the", "one"]):
            end = _sentence_end(words, i + 1)
            if w == "(":
                close = next((x for x in range(i + 1, end) if words[x] == ")"), None)
                if close is None:
                    out.append(t)
                    continue
                skip.add(close)
            elif w in _ENDS:
                # its own sentence: only a contrast that is the whole sentence, after a
                # sentence with a move
                start = max((x + 1 for x in range(i) if words[x] in _ENDS), default=0)
                if not _opener(words, i + 1) or "," in words[i + 1:end] or \
                        not any(x in W.MOVE_VERBS for x in words[start:i]) or end >= len(words):
                    out.append(t)
                    continue
            out.append(Token(",", t.start, t.end))
            continue
        out.append(t)
    return out


def _markers_after(toks: list[Token]) -> list[Token]:
    """", the one D, I mean" -> ", I mean the one D"; ", the one D, not the other one" -> ",
    the one D"."""
    words = _words(toks)
    for i in range(len(toks) - 2):
        if words[i] != "," or words[i + 1:i + 3] != ["the", "one"] or \
                _head_ending(words, i) is None:
            continue
        end = _sentence_end(words, i + 1)
        comma = next((x for x in range(i + 3, end) if words[x] == ","), None)
        if comma is None:
            continue
        tail = words[comma + 1:end]
        if tail in (["i", "mean"], ["i", "meant"]):
            return _markers_after(toks[:i + 1] + toks[comma + 1:end] + toks[i + 1:comma]
                                  + toks[end:])
        if tail in (["not", "the", "other", "one"], ["not", "the", "other"]):
            return _markers_after(toks[:comma] + toks[end:])
    return toks


def _ranked_at(words: list[str], i: int) -> int | None:
    """Where the rank word of a contrast that opens at ``i`` sits ("not that one nearest",
    "instead of the one closest", "not the sofa nearest" after "the sofa"); None if none."""
    k = i + (1 if words[i] in ("but", "and") else 0)
    if words[k:k + 2] in (["rather", "than"], ["instead", "of"]) and words[k + 2:k + 4] == \
            ["the", "one"]:
        k += 4
    elif words[k:k + 1] == ["not"] and k + 2 < len(words) and words[k + 1] in ("the", "that"):
        said = head_lexicon().match(words[k + 2:k + 2 + head_lexicon().max_len])
        if words[k + 2] == "one":
            k += 3
        elif said is not None and said[1] == _last_head(words, i):
            k += 2 + said[0]
        else:
            return None
    else:
        return None
    if k < len(words) and words[k] == "the":
        k += 1
    return k if k < len(words) and words[k] in _RANKS else None


def _refuse_ranked(toks: list[Token]) -> None:
    words = _words(toks)
    for i in range(1, len(words)):
        if words[i - 1] not in (",", "(", *_DASHES, *_ENDS) or _last_head(words, i) is None:
            continue
        k = _ranked_at(words, i)
        if k is None:
            continue
        end = k
        while end < len(words) and words[end] not in (",", ")", *_ENDS):
            end += 1
        said = " ".join(words[i:end])
        msg = (f"did not understand {said!r}: a thing ruled out by how near or how big it is "
               "is not read by the offline parser; say which one you mean (e.g. 'the sofa by "
               "the door'), or use the hybrid or llm grounder")
        raise ParseError(msg, said, (toks[i].start, toks[end - 1].end))


def _whole_house(toks: list[Token]) -> list[Token]:
    """"Out of all the chairs in the house, ..." -> "Out of all the chairs, ..."."""
    words = _words(toks)
    for i in range(len(words) - 4):
        if words[i:i + 3] == ["in", "the", "house"] and words[i + 3] == "," and \
                words[i + 4] not in ("which", "what", "whichever") and \
                ("of" in words[max(0, i - 6):i]) and _head_ending(words, i) is not None:
            start = max((x + 1 for x in range(i) if words[x] in _ENDS), default=0)
            if words[start] in ("out", "of", "from", "among"):
                return toks[:i] + toks[i + 3:]
    return toks
