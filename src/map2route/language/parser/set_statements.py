"""A statement about a set of things, then a pick of "the one" from it: "Two of the armchairs
in this house each stand right next to a floor lamp. Go to the one that is not in a bedroom."
-> "Go to the armchair right next to a floor lamp that is not in a bedroom."

Run first in :func:`.human.human_forms`, on the tokens as typed. The statement says which set
"the one" is picked from: its thing and where those things stand. Its words are moved into the
pick (spans kept); the statement itself is reported as context. Only when the next sentence
picks with "the one" and the statement is "N of the Xs [in this house] [each|both] stand /
sit / are PLACE": anything else is left as it is.
"""

from __future__ import annotations

from map2route.language.inflection import singular_word
from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

_ENDS = (".", "!", "?")
_VERBS = ("stand", "stands", "sit", "sits", "are", "is", "lie", "lies", "stay", "standing",
          "sitting", "placed", "located", "set")
_PLACES = ("next", "near", "by", "beside", "in", "on", "against", "under", "close", "facing",
           "opposite", "right", "directly", "just")
_HOUSE = (("in", "this", "house"), ("in", "the", "house"), ("in", "this", "home"),
          ("in", "the", "home"), ("here",))


def set_statements(toks: list[Token]) -> tuple[list[Token], list[tuple[str, tuple[int, int]]]]:
    """Fold a set statement into the "the one" that picks from it (see the module docstring);
    returns the tokens and the statements taken out as context."""
    words = [t.text for t in toks]
    lex = head_lexicon()
    s = 0
    while s < len(words):
        e = s
        while e < len(words) and words[e] not in _ENDS:
            e += 1
        k = s
        if (words[k] in W.NUMBERS or words[k].isdigit()) and words[k + 1:k + 3] == ["of", "the"]:
            k += 3
            m = lex.match(words[k:e])
            if m is not None and m[2] in ("object", "group"):
                head = [*words[k:k + m[0] - 1], singular_word(words[k + m[0] - 1])]
                k += m[0]
                k += next((len(h) for h in _HOUSE if tuple(words[k:k + len(h)]) == h), 0)
                k += words[k] in ("each", "both", "all") if k < e else 0
                if k < e and words[k] in _VERBS and k + 1 < e and words[k + 1] in _PLACES:
                    place = toks[k + 1:e]
                    nxt = e + 1
                    one = next((q for q in range(nxt, len(words) - 1)
                                if words[q] == "the" and words[q + 1] == "one"), None)
                    stop = next((q for q in range(nxt, len(words)) if words[q] in _ENDS),
                                len(words))
                    if one is not None and one < stop:
                        ones = toks[one + 1]
                        named = [toks[one]] + [Token(w, ones.start, ones.end) for w in head]
                        rest = one + 2
                        if words[rest:rest + 1] and words[rest] in ("that", "which"):
                            # "the one that is not in a bedroom": its own relative first,
                            # then "and that is" the statement's place (each on the thing)
                            end = next((q for q in range(rest, stop) if words[q] == ","), stop)
                            said_as = [Token(w, place[0].start, place[0].end)
                                       for w in ("and", "that", "is")]
                            picked = named + toks[rest:end] + said_as + place
                            rest = end
                        else:
                            picked = named + place
                        said = toks[s:e]
                        context = [(" ".join(t.text for t in said),
                                    (said[0].start, said[-1].end))]
                        out = toks[:s] + toks[nxt:one] + picked + toks[rest:]
                        return out, context
        s = e + 1
    return toks, []
