"""Tokenising instructions: lower-case words and punctuation with character spans.

Hand-written (one regular expression) rather than spaCy's tokenizer: the parsers need only
words, digits, apostrophes and hyphens with their spans in the original text, and a spaCy
pipeline would add a model download and ~0.5 s of start-up for no better split.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from map2route.language import lexicon

#: Contractions and joined forms (``don't`` -> ``do not``), from ``lexicons/tokens.yaml``.
CONTRACTIONS: dict[str, str] = lexicon.table("tokens", "contractions")

_TOKEN_RE = re.compile(r"[a-z0-9]+(?:['\-.][a-z0-9]+)*'?|[,;.:!?()&+]|(?<=\s)(?:[-\u2013\u2014]+|/)(?=\s)")
#: An abbreviation spelt with dots: single letters, two or more ("t.v", "w.c").
_ABBREV_RE = re.compile(r"[a-z](?:\.[a-z])+")
#: a distance typed without its space ("40cm", "0.5m", "2ft"): the number and the unit
_GLUED_UNIT_RE = re.compile(
    r"(\d+(?:\.\d+)?)(mm|cm|m|ft|metres?|meters?|centimetres?|centimeters?|feet|foot|yards?)")


@dataclass
class Token:
    """A lower-case word or punctuation mark with its character span in the instruction."""

    text: str
    start: int
    end: int


def tokenize(text: str) -> list[Token]:
    """Lower-case tokens with spans; contractions expanded into several tokens with one span.

    Hyphenated words are split into their parts ("tv-stand" -> "tv", "stand"); a possessive
    ``'s`` becomes its own token; typed "&" and "+" are tokens (read as "and" by
    :mod:`~map2route.language.parser.spoken_frames`) and a dash with spaces round it, which
    sets off an aside, is a comma, as is a spaced slash between items ("fridge / sofa / bed":
    "sofa bed" is one name); a dash right after a mark that already parts the words (a
    bullet after "Do these in order:") is dropped. A distance typed without its space ("40cm",
    "0.5m") is two tokens, the number and the unit.
    """
    out: list[Token] = []
    abbrev_end = -1
    for mt in _TOKEN_RE.finditer(text.lower().replace("\u2019", "'")):
        word = mt.group(0)
        if out and _line_end(text, out[-1], mt.start()):
            out.append(Token(".", out[-1].end, out[-1].end))  # a line of a note ends there
        if word == "." and mt.start() == abbrev_end:
            continue  # the closing dot of "T.V.": no sentence ends there
        if word[0] in "-\u2013\u2014/":
            if not out or out[-1].text not in (",", ";", ":", ".", "!", "?", "("):
                out.append(Token(",", mt.start(), mt.end()))  # a spaced dash sets off an aside
        elif _ABBREV_RE.fullmatch(word):
            # "t.v", "w.c", "c.d": letters written with dots are the word they spell
            out.append(Token(word.replace(".", ""), mt.start(), mt.end()))
            abbrev_end = mt.end()
        elif word in CONTRACTIONS:
            for part in CONTRACTIONS[word].split(" "):
                out.append(Token(part, mt.start(), mt.end()))
        elif "-" in word:
            pos = mt.start()
            for part in word.split("-"):
                out.append(Token(part, pos, pos + len(part)))
                pos += len(part) + 1
        elif (glued := _GLUED_UNIT_RE.fullmatch(word)) is not None:
            cut = mt.start() + glued.end(1)
            out.append(Token(glued.group(1), mt.start(), cut))
            out.append(Token(glued.group(2), cut, mt.end()))
        elif word.endswith("'s") and len(word) > 2:
            out.append(Token(word[:-2], mt.start(), mt.end() - 2))
            out.append(Token("'s", mt.end() - 2, mt.end()))
        else:
            out.append(Token(word.rstrip("'"), mt.start(), mt.end()))
    return _you_are(_stutters(out))


_STUTTERED = frozenset({"the", "a", "an", "to", "in", "on", "that", "this", "my"})


def _stutters(toks: list[Token]) -> list[Token]:
    """"it's in the, the bathroom" -> "it's in the bathroom": a short word said twice round a
    comma is a speaker's stutter; the one kept spans both."""
    out: list[Token] = []
    for t in toks:
        if len(out) >= 2 and out[-1].text == "," and out[-2].text == t.text and \
                t.text in _STUTTERED:
            first = out[-2]
            del out[-2:]
            out.append(Token(t.text, first.start, t.end))
        else:
            out.append(t)
    return out


#: After a sentence-initial "ur" / "your" these say it is "you are" ("ur in the kitchen rn",
#: "your at the fridge"): a place or a posture follows, never a thing the walker owns.
_YOU_ARE_NEXT = frozenset(("in", "at", "next", "near", "by", "beside", "inside", "standing",
                           "sitting", "parked", "facing", "located", "currently", "now",
                           "starting", "already", "still", "stood", "sat", "waiting"))


#: Nouns after "your starting": the possessive of the benchmark's start ("If your starting
#: room contains a fridge"), not "you are starting".
_START_NOUNS = frozenset(("room", "position", "point", "spot", "place", "location", "area",
                          "pose"))


def _starting_place(toks: list[Token], k: int) -> bool:
    return toks[k].text == "starting" and k + 1 < len(toks) and toks[k + 1].text in _START_NOUNS


def _you_are(toks: list[Token]) -> list[Token]:
    """A sentence-initial "ur" / "your" before a place or posture is "you are" (typed
    "you're"): read as the possessive, "ur in the kitchen" would ask for a stop there."""
    out: list[Token] = []
    for n, t in enumerate(toks):
        opens = not out or out[-1].text in (".", "!", "?", ";", ":", "(", "when", "while",
                                            "once", "if", "as", "until", "because", "since")
        if opens and t.text in ("ur", "your", "yore") and n + 1 < len(toks) and \
                toks[n + 1].text in _YOU_ARE_NEXT and not _starting_place(toks, n + 1):
            out += [Token("you", t.start, t.end), Token("are", t.start, t.end)]
        else:
            out.append(t)
    return out


#: Words that leave a line unfinished ("Go to the sofa and\nthen the bed").
_OPEN_ENDS = frozenset({"and", "or", "then", "the", "a", "an", "to", "of", "with", "in", "on",
                        "at", "by", "from", "into", "next", "but", "that", "which", "your"})


def _line_end(text: str, last: Token, start: int) -> bool:
    """Whether a line break between ``last`` and ``start`` ends a line of a note: the line has
    no mark of its own and the next begins as a new line does (a capital, a bullet, a
    number), not a sentence wrapped in the middle."""
    gap = text[last.end:start]
    if "\n" not in gap or last.text in (",", ";", ".", ":", "!", "?", "(") or \
            last.text in _OPEN_ENDS or start >= len(text):
        return False
    head = text[start]
    return head.isupper() or head.isdigit() or head in "-*\u2022\u2013\u2014"


def words(text: str) -> list[str]:
    """The token texts of ``text``: ``words("Don't go") == ["do", "not", "go"]``."""
    return [t.text for t in tokenize(text)]
