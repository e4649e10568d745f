"""A thing the robot carries, said with where it goes: "take this mug to the desk", "Take the
tray over to the dining table", "carry my cup back to the kitchen counter", "go deliver this to
the side table", "run these over to the sofa".

What is carried is no stop: the speaker hands it over, so the route goes to where it is taken.
This pass rewrites the verb and the carried thing into "go to" (or "go into" / "go onto") and
reports the carried words as context, with their span, so a map thing named in them ("this
mug") is mentioned, never a stage and never dropped. The carried thing is read so only when
the speaker holds it: a pointing or owning determiner ("this", "these", "my", "your", "our")
or, after "the", words that name nothing of the map ("the tray", "the shopping"). "Take the
mug to the desk" names a mug of the map, which may have to be fetched first, and is left to
the readers that make it a stop; "take me / yourself to X" is a ride (:mod:`.errand_reach`).

Hand-written: the carry verbs, determiners and the "over / back to" particles are closed
classes; the carried words between them are any, up to four.
"""

from __future__ import annotations

from map2route.language.parser.heads import head_lexicon
from map2route.language.tokens import Token

__all__ = ["carried_things"]

Context = list[tuple[str, tuple[int, int]]]

_ENDS = frozenset({".", "!", "?", ";"})
_VERBS = frozenset({"take", "carry", "bring", "deliver", "run", "ferry", "cart", "lug"})
#: Words after which a carry opens a request ("please take ...", "go deliver ...").
_OPENERS = frozenset({",", ":", "-", "and", "then", "please", "pls", "plz", "go", "can",
                      "could", "would", "will", "you", "u", "just", "first", "next", "finally",
                      "now", "also", "kindly", "ok", "okay", "so", "quickly", "come"})
#: Determiners that say the speaker holds the thing ("this mug", "my cup").
_HELD = frozenset({"this", "these", "that", "those", "my", "your", "our", "his", "her"})
_PREPS = (("over", "to"), ("back", "to"), ("up", "to"), ("down", "to"), ("across", "to"),
          ("round", "to"), ("through", "to"), ("back", "into"), ("over", "into"), ("into",),
          ("onto",), ("to",))
#: Words that end the carried phrase without a place ("take this and go ...").
_STOPS = frozenset({"and", "then", ",", "but", "or", "me", "yourself", "us", "it", "them",
                    "a", "an", "with", "from", "in", "on", "at", "by", "for"})


def _prep(words: list[str], k: int) -> tuple[str, ...] | None:
    hits = [p for p in _PREPS if tuple(words[k:k + len(p)]) == p]
    return max(hits, key=len) if hits else None


def _carry_at(words: list[str], k: int) -> tuple[int, int] | None:
    """For a carry at ``k``: (end of the carried words, end of the place preposition)."""
    if words[k] not in _VERBS or not (k == 0 or words[k - 1] in _ENDS or
                                      words[k - 1] in _OPENERS):
        return None
    if any(w in ("not", "never", "dont", "don't") for w in words[max(0, k - 3):k]):
        return None
    det = k + 1
    if det >= len(words) or words[det] not in (*_HELD, "the"):
        return None
    end = det + 1
    while end < len(words) and end <= det + 4 and _prep(words, end) is None:
        if words[end] in _ENDS or words[end] in _STOPS:
            return None
        end += 1
    prep = _prep(words, end)
    if prep is None or end == det + 1 and words[det] not in ("this", "these", "that", "those"):
        return None  # "take this to X": the pronoun is what is carried; "take my to" is not
    place = end + len(prep)
    if words[place:place + 1] not in (["the"], ["my"], ["our"], ["your"], ["that"], ["this"]):
        return None
    lex = head_lexicon()
    carried = words[det + 1:end]
    named = any(lex.match(carried[n:]) is not None for n in range(len(carried)))
    if words[det] == "the" and named:
        return None  # "take the mug to the desk": a mug of the map, maybe fetched first
    return end, place


def carried_things(toks: list[Token]) -> tuple[list[Token], Context]:
    """Rewrite "take this mug to X" -> "go to X", the carried words reported as context."""
    words = [t.text for t in toks]
    out: list[Token] = []
    ctx: Context = []
    k = 0
    while k < len(toks):
        hit = _carry_at(words, k)
        if hit is None:
            out.append(toks[k])
            k += 1
            continue
        end, place = hit
        ctx.append((" ".join(words[k:end]), (toks[k].start, toks[end - 1].end)))
        last = words[place - 1]
        out += [Token("go", toks[k].start, toks[k].end),
                Token(last if last in ("into", "onto") else "to", toks[end].start,
                      toks[place - 1].end)]
        k = place
    return out, ctx
