"""Scoped route rules as people type and speak them, put onto the forms the scope rules read.

A route rule with a scope lead ("while you're in the living room keep away from the cart") is
read by :mod:`.scope_leads`, :mod:`.scopes` and :mod:`.stage_rewrites` in its plain forms. The
paradigm grid ``test/language/data/grid_scoped_rules.py`` showed four wordings of the same
parts that those refused, each rewritten here onto a plain form:

* the copula dropped after the lead's subject (English as a second language): "while you in
  living room keep away from cart" -> "while you are in living room ...", "when you inside
  the kitchen" -> "when you are inside the kitchen";
* a leg named by a cardinal after the noun: "on leg two", "for leg 2" -> "on the second leg"
  (read by :func:`.stage_rewrites.stage_leg`, tied to the leg that ends at the second stop);
* the telly's stand said as a plain "stand" in what a room has: "the bedroom with the telly on
  a stand" -> "... the telly on a tv stand" (the benchmark's ``tv_stand``; "stand" alone names
  nothing; "the room contains a television on a stand", a scene sentence, is left alone);
* "never" opening a rule after its lead: "in living room never squeeze between A and B",
  "whatever you do never get anywhere near X" -> "do not ..." (the negation the rules read
  there; "never" is read only where it opens the sentence);
* a whole-route lead that opens a sentence and runs into its rule without a comma ("At all
  times keep your distance from X", "The whole way keep ...", "Whatever you do keep ...") gets
  the comma that closes it, as the scope rules read it; "whatever you do" before a rule that
  is not a negation ("Whatever you do, keep away from X") -> "the whole way ,": the emphasis
  reader takes it only before a negator, and elsewhere its "do" was read as a stop;
* "stay over by X" in a sentence that holds a scope lead ("when you cut through the lounge
  stay over by the sofa") -> "stay near X": there it is a rule for the way, not a stop. In a
  sentence with no lead ("go to the sofa and stay over by it") it is left alone, where it may
  be a stop.

Tokens are replaced by tokens with the spans of the words they stand for (an inserted word
takes the span of the word beside it), so a later refusal still points into the text and no
word is dropped unseen. A short reason run on to a spoken rule without its comma ("... keep
your distance from the cart it fall down easy", "... stay near the telly wheel is broken") is
taken out as context, as the aside reader takes it out after a comma: only at the end of a
sentence that holds a rule, a pronoun or "wheel(s)" before one of a few verbs, five words at
most and none of them a determiner or a preposition (so it names no thing). The word lists are closed and small, so written by hand.
"""

from __future__ import annotations

from map2route.language.parser.introductions import sentence_span
from map2route.language.tokens import Token

__all__ = ["scoped_rule_forms"]

_ENDS = frozenset({".", "!", "?", ";"})
#: Lead introducers after which "you" is the lead's subject.
_INTRODUCERS = frozenset({"while", "whilst", "when", "as", "once", "whenever"})
#: Place words after which a dropped copula is restored ("you in", "you inside").
_PLACE = frozenset({"in", "inside", "within"})
#: Cardinals of a leg said after its noun, as ordinals.
_CARDINALS = {"one": "first", "1": "first", "two": "second", "2": "second",
              "three": "third", "3": "third", "four": "fourth", "4": "fourth",
              "five": "fifth", "5": "fifth"}
_TV = frozenset({"telly", "tv", "television", "tele", "telie"})
#: Words that say a sentence holds a scope lead (the rule in it is for part of the way).
_LEAD_WORDS = frozenset({"while", "whilst", "when", "whenever", "once", "as", "way", "leg",
                         "whole", "whatever", "times", "through", "thru"})


#: Verbs a rule opened by "never" takes.
_NEVER_VERBS = frozenset({"get", "go", "pass", "squeeze", "drive", "cut", "walk", "come", "run",
                          "roll", "enter", "touch", "bump", "stop", "move", "head"})
#: Whole-route leads that may open a sentence ("At all times, ...").
_WHOLE_LEADS = (("at", "all", "times"), ("the", "whole", "way"), ("the", "entire", "way"),
                ("the", "whole", "time"), ("whatever", "you", "do"), ("all", "the", "way"))
#: Words that open a rule after such a lead.
_RULE = frozenset({"keep", "stay", "avoid", "give", "steer", "mind", "hug", "stick", "remain",
                   "leave", "try"})


def _whole_lead(words: list[str], i: int) -> int:
    """Length of a whole-route lead at ``i`` that opens a sentence (or follows "and") and runs
    into a rule word without a comma, else 0."""
    if i and words[i - 1] not in (*_ENDS, ",", "and", "but", "so"):
        return 0
    n = max((len(s) for s in _WHOLE_LEADS if tuple(words[i:i + len(s)]) == s), default=0)
    comma = words[i + n:i + n + 1] == [","] and words[i:i + 3] == ["whatever", "you", "do"]
    k = i + n + comma
    return n + comma if n and k < len(words) and words[k] in _RULE and (
        not comma or words[k] != "try") else 0


#: Subjects and verbs of a short reason run on to a rule ("it fall down easy").
_WHY_SUBJECTS = frozenset({"it", "wheel", "wheels", "they"})
_WHY_VERBS = frozenset({"is", "are", "fall", "falls", "tips", "wobbles", "breaks", "keeps"})
#: Words of a rule before such a reason.
_RULE_WORDS = frozenset({"keep", "stay", "avoid", "give", "not", "near", "between", "over"})
#: Words a run-on reason may not hold: they would open a thing or a place.
_NAMING = frozenset({"the", "a", "an", "to", "by", "in", "on", "at", "near", "from", "my",
                     "your", "this", "that", "(", ")", "-", ":"})


#: Words after which such a clause is no run-on reason but the sentence's own ("after that
#: it's fine", "so it is", "if it is free"): a reason runs on from the rule's object.
_NOT_BEFORE = frozenset({*_ENDS, ",", "and", "but", "(", "-", ":", "that", "this", "then", "so",
                         "because", "cause", "as", "if", "when", "since", "after", "before",
                         "until", "where", "whether", "or", "though", "what", "once", "while",
                         # a pronoun after a preposition is its object ("the telly on it isn't")
                         "on", "in", "at", "by", "with", "of", "to", "from", "under", "behind",
                         "near", "for", "about", "over", "into", "onto", "beside", "against"})


def _run_on_reason(words: list[str], i: int) -> int:
    """End of a short reason run on to a rule without its comma at ``i`` (see the module
    docstring), else 0."""
    if not i or words[i] not in _WHY_SUBJECTS or i + 1 >= len(words) or \
            words[i + 1] not in _WHY_VERBS or \
            words[i - 1] in _NOT_BEFORE:
        return 0
    a, b = sentence_span(words, i)
    if b - i > 5 or _NAMING & set(words[i:b]) or not _RULE_WORDS & set(words[a:i]):
        return 0
    return b


def _sentence_has_lead(words: list[str], i: int) -> bool:
    a, b = sentence_span(words, i)
    return any(w in _LEAD_WORDS for w in words[a:b]) or words[a] in ("in", "inside")


def scoped_rule_forms(toks: list[Token]
                      ) -> tuple[list[Token], list[tuple[str, tuple[int, int]]]]:
    """Rewrite the scoped-rule wordings of the module docstring; returns the tokens and the
    run-on reasons taken out (each as context, with its character span)."""
    words = [t.text for t in toks]
    out: list[Token] = []
    context: list[tuple[str, tuple[int, int]]] = []
    i = 0
    while i < len(toks):
        w, t = words[i], toks[i]
        prev = words[i - 1] if i else ""
        nxt = words[i + 1] if i + 1 < len(words) else ""
        # "while you in living room" -> "while you are in living room"
        if w in ("you", "u") and prev in _INTRODUCERS and nxt in _PLACE:
            out += [t, Token("are", t.start, t.end)]
        # "on leg two" -> "on the second leg"
        elif w in ("on", "for", "during") and nxt == "leg" and \
                i + 2 < len(words) and words[i + 2] in _CARDINALS:
            num = toks[i + 2]
            out += [t, Token("the", num.start, num.end),
                    Token(_CARDINALS[words[i + 2]], num.start, num.end),
                    Token("leg", toks[i + 1].start, toks[i + 1].end)]
            i += 3
            continue
        # "the telly on a stand" -> "the telly on a tv stand"
        elif w == "stand" and prev in ("a", "the", "its", "her", "his") and i >= 5 and \
                words[i - 2] == "on" and words[i - 3] in _TV and \
                {"with", "has", "got"} & set(words[i - 6:i - 3]):
            out += [Token("tv", t.start, t.end), t]
        # "never squeeze between A and B" -> "do not squeeze between A and B"
        elif w == "never" and nxt in _NEVER_VERBS:
            out += [Token("do", t.start, t.end), Token("not", t.start, t.end)]
        # "At all times keep ..." -> "At all times, keep ..."
        elif n := _whole_lead(words, i):
            lead = toks[i:i + n]
            if words[i] == "whatever" and words[i + n] != "try":
                # the emphasis is read before a negator only: here it says the whole way
                lead = [Token(x, t.start, toks[i + n - 1].end) for x in ("the", "whole", "way")]
            out += [*lead, Token(",", toks[i + n - 1].end, toks[i + n - 1].end)]
            i += n
            continue
        # "... the cart it fall down easy": the reason taken out, as after a comma
        elif end := _run_on_reason(words, i):
            context.append((" ".join(words[i:end]), (t.start, toks[end - 1].end)))
            i = end
            continue
        # "stay over by X" in a scoped sentence -> "stay near X"
        elif w == "stay" and nxt == "over" and words[i + 2:i + 3] == ["by"] and \
                _sentence_has_lead(words, i):
            out += [t, Token("near", toks[i + 1].start, toks[i + 2].end)]
            i += 3
            continue
        else:
            out.append(t)
        i += 1
    return out, context
