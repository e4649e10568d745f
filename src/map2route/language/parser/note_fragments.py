"""Note-form fragments that amend the stop before them, and a fixture word naming its room.

Writers who dictate in notes put the way to a stop in a sentence of its own after the stop
("Loo with the plunger in it. Via the lounge. No bedrooms.", "The fridge. Through the
kitchen.", "Sofa. By way of the kitchen, please."): the fragment says how to get to the stop
just named, so it is joined onto that sentence ("..., via the lounge."), which the stage rules
already read as a via before the stop. Left as a sentence of its own, the via was read as a
stop after the goal, and "by way of X." was dropped without a word.

They also name a room by its fixture when what follows says what is in the room ("the loo with
the plunger in it", "the lav that has the sink in it"): a toilet does not hold a plunger, the
room does, so the word is read as the bathroom. Without such a phrase "the loo" stays the
toilet.

Work orders name a stop by a bare label and "is" ("Target is the alarm clock ...", "Stop one
is the painting ..., stop two is the kettle"): the label gets the article the stage rules read
("The target is ...") or, numbered, the colon of a list item ("Stop one: the painting").

A constraint's scope may name the stop or leg by that number or letter ("On the way to stop
two keep away from ...", "on leg (a) don't cut between ...", "During leg one ..."): it becomes
the ordinal the scope rules read ("the second stop", "the first leg").

A scope opener said in the perfect ("Until you've got to the table, ...", "Once you've left
the counter, ...", "After you have passed the fridge, ...") says what the present does ("until
you get to", "once you leave"): "have" and the participle become the present verb, one token
over both spans; "till you" is "until you".

Hand-written (five token-window rules keeping the character spans, so a refusal still points
into the original text) for the same reason as :mod:`.normalise`: the windows are short and
closed, and each must keep every word accounted for.
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["fixture_rooms", "label_stops", "note_fragments", "numbered_legs", "perfect_openers",
           "trailing_vias"]

_ENDS = (".", "!", "?", ";")
#: How a note-form fragment says the way to the stop before it.
_VIA_LEADS = (("via",), ("through",), ("by", "way", "of"), ("going", "through"),
              ("passing", "through"))
#: Words a fragment may end on before its full stop.
_TAILS = (",", "please", "thanks")
#: Fixture words that are also everyday names of the room they are in.
_ROOM_FIXTURES = {"loo": "bathroom", "lav": "bathroom", "lavatory": "bathroom",
                  "wc": "bathroom", "w.c": "bathroom"}
#: What follows such a word when it says what the room holds: "with", "that has (got)", ...
_HOLDS = (("with",), ("that", "has"), ("that", "has", "got"), ("which", "has"),
          ("that", "'s", "got"), ("that", "is", "got"))
_INSIDE = (("in", "it"), ("in", "there"), ("inside",), ("inside", "it"))


def _sentences(words: list[str]) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence, its end mark included in the span."""
    out, start = [], 0
    for k, w in enumerate(words):
        if w in _ENDS:
            out.append((start, k + 1))
            start = k + 1
    if start < len(words):
        out.append((start, len(words)))
    return out


def _via_fragment(words: list[str]) -> bool:
    """Whether ``words`` (one sentence, end mark off) is only a via lead and one place."""
    lex = head_lexicon()
    for lead in _VIA_LEADS:
        if tuple(words[:len(lead)]) != lead:
            continue
        k = len(lead)
        k += k < len(words) and words[k] in ("the", "a", "your", "that")
        hit = lex.match(words[k:k + lex.max_len])
        if hit is None:
            # a place the map may not have ("the hallway"): still a via, which the later
            # stages name in a refusal rather than drop
            if k < len(words) and words[k].isalpha():
                k += 1
            else:
                return False
        else:
            k += hit[0]
        return k > len(lead) and all(w in _TAILS for w in words[k:])
    return False


def trailing_vias(toks: list[Token]) -> list[Token]:
    """"The fridge. Via the living room." -> "The fridge, via the living room.": a sentence
    that is only a via lead and a place joins the sentence before it (whose end mark becomes
    a comma)."""
    words = [t.text for t in toks]
    sents = _sentences(words)
    out = list(toks)
    for prev, (a, b) in zip(sents, sents[1:], strict=False):
        body_end = b - (words[b - 1] in _ENDS)
        if words[prev[1] - 1] == "." and _via_fragment(words[a:body_end]):
            end = toks[prev[1] - 1]
            out[prev[1] - 1] = Token(",", end.start, end.end)
    return out


def fixture_rooms(toks: list[Token]) -> list[Token]:
    """"the loo with the plunger in it" -> "the bathroom with ...": a word that names both a
    fixture and its room, followed in its sentence by what the room holds ("with X in it",
    "that has X in there"), is the room."""
    words = [t.text for t in toks]
    out = list(toks)
    for k, w in enumerate(words):
        room = _ROOM_FIXTURES.get(w)
        if room is None:
            continue
        nxt = words[k + 1:]
        hold = next((h for h in _HOLDS if tuple(nxt[:len(h)]) == h), None)
        if hold is None:
            continue
        rest = nxt[len(hold):]
        end = next((i for i, x in enumerate(rest) if x in _ENDS or x == ","), len(rest))
        seg = rest[:end]
        if any(tuple(seg[i:i + len(s)]) == s for s in _INSIDE for i in range(1, len(seg))):
            out[k] = Token(room, toks[k].start, toks[k].end)
    return out


#: Bare labels a work order names its stop by ("Target is the X").
_LABELS = ("target", "destination", "goal", "stop", "objective")
_NUMBERS = ("one", "two", "three", "four", "five", "six", "1", "2", "3", "4", "5", "6", "a", "b",
            "c", "d")


def label_stops(toks: list[Token]) -> list[Token]:
    """"Target is the X" -> "The target is the X"; "Stop one is the X" -> "Stop one: the X":
    a label without an article at a sentence start (or after a comma or "and"), then "is"."""
    words = [t.text for t in toks]
    out: list[Token] = []
    for k, t in enumerate(toks):
        at_start = k == 0 or words[k - 1] in (*_ENDS, ",", "and", ":")
        if at_start and words[k] in _LABELS and k + 1 < len(words):
            if words[k + 1] == "is":
                out.append(Token("the", t.start, t.start))
            elif (words[k + 1] in _NUMBERS and k + 2 < len(words) and words[k + 2] == "is"
                  and k + 3 < len(words) and words[k + 3] in ("the", "a", "your", "that")):
                out.extend(toks[k:k + 2])
                out.append(Token(":", toks[k + 2].start, toks[k + 2].end))
                out.extend(toks[k + 3:])
                return label_stops(out)
        out.append(t)
    return out


_ORDINALS = {"one": "first", "two": "second", "three": "third", "four": "fourth",
             "five": "fifth", "1": "first", "2": "second", "3": "third", "4": "fourth",
             "5": "fifth", "a": "first", "b": "second", "c": "third", "d": "fourth",
             "e": "fifth"}
#: Words before a numbered stop or leg that make it a scope, not a label ("to stop two").
_SCOPE_WORDS = ("to", "on", "during", "for", "along", "of")


def numbered_legs(toks: list[Token]) -> list[Token]:
    """"on the way to stop two" -> "on the way to the second stop"; "on leg (a)" -> "on the
    first leg": a stop or leg named by its number or letter after a scope word; "on the way
    to number 2 / item 2 / 2" -> "... the second stop" (the item of a numbered list; a bare
    digit only right after "the way to")."""
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        w = words[k]
        if w.isdigit() and w in _ORDINALS and words[max(k - 3, 0):k] == ["the", "way", "to"] \
                and (k + 1 == len(words) or not words[k + 1].isalnum()
                     or words[k + 1] in ("stay", "keep", "go", "avoid", "do", "don't")):
            out += [Token("the", toks[k].start, toks[k].start),
                    Token(_ORDINALS[w], toks[k].start, toks[k].end),
                    Token("stop", toks[k].end, toks[k].end)]
            k += 1
            continue
        if w in ("stop", "leg", "number", "item") and k > 0 and words[k - 1] in _SCOPE_WORDS:
            j = k + 1
            paren = j < len(words) and words[j] == "("
            j += paren
            num = words[j] if j < len(words) else ""
            closed = not paren or (j + 1 < len(words) and words[j + 1] == ")")
            letter = num.isalpha() and len(num) == 1
            if num in _ORDINALS and closed and (not letter or paren or w == "leg"):
                end = toks[j + paren].end
                out.append(Token("the", toks[k].start, toks[k].start))
                out.append(Token(_ORDINALS[num], toks[k].start, end))
                out.append(Token("leg" if w == "leg" else "stop", end, end))
                k = j + 1 + paren
                continue
        out.append(toks[k])
        k += 1
    return out


def note_fragments(toks: list[Token]) -> list[Token]:
    """The five rules of this module, in the order :func:`~.human.human_forms` needs them."""
    return perfect_openers(trailing_vias(fixture_rooms(numbered_legs(label_stops(toks)))))


#: Scope openers that may be said in the perfect.
_OPENER_WORDS = frozenset({"until", "till", "til", "once", "after", "when", "before"})
#: Participles of moving to, through or away from a place, and their present.
_PRESENT = {"got": "get", "gotten": "get", "reached": "reach", "left": "leave",
            "passed": "pass", "gone": "go", "arrived": "arrive", "entered": "enter",
            "crossed": "cross", "come": "come", "walked": "walk", "made": "make",
            "visited": "visit", "exited": "exit"}


def perfect_openers(toks: list[Token]) -> list[Token]:
    """"until you've got to the table" -> "until you get to the table": after a scope opener
    and "you", "have" and a participle of moving are one present verb (spans of both)."""
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        if (words[k] == "you" and k > 0 and words[k - 1] in _OPENER_WORDS
                and k + 2 < len(words) and words[k + 1] in ("have", "'ve")
                and words[k + 2] in _PRESENT):
            out.append(toks[k])
            out.append(Token(_PRESENT[words[k + 2]], toks[k + 1].start, toks[k + 2].end))
            k += 3
            continue
        if words[k] in ("till", "til") and k + 1 < len(words) and words[k + 1] == "you":
            out.append(Token("until", toks[k].start, toks[k].end))  # "Till you get to X, ..."
            k += 1
            continue
        out.append(toks[k])
        k += 1
    return out
