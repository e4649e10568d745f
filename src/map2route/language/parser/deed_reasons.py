"""Reasons said after a keep-away request that the reason rule of :mod:`.constraint_frames`
does not take: the speaker's own deed ("keep away from the sink, I literally just bleached
it", "we've only just painted it") and where a thing or a mess lies ("it's hanging on the
floor", "the lid is lying on the floor", "there's laundry all over the floor round it").

A reason says why, never where: like the other reasons it is context (reported with its span,
never a stage). The place words of the second kind ("on the floor", "round it") would make the
general rule take it for a place of the route, so it is read here only when the place is the
floor (or ground, carpet) and what follows it is only "round/around/near it". Both are read only
after a comma that ends a request with a keep-away word, and only to the end of the sentence.

Hand-written, like the rest of the parser, so that the spans are kept and a form that does not
match exactly is left for the later stages to read or refuse.
"""

from __future__ import annotations

from map2route.language.parser.rewrites import Rewriter, Rule

__all__ = ["RULES", "deed_reason", "floor_reason"]

_ENDS = (".", "!", "?", ";")
#: Words of a keep-away request a reason may follow.
_KEEP = frozenset({"avoid", "away", "clear", "not", "never", "off", "out", "far", "berth",
                   "distance", "room", "space", "clearance", "mind"})
_SPEAKERS = frozenset({"i", "we"})
_AUXES = frozenset({"have", "had", "'ve", "'d", "has"})
#: Adverbs of a deed ("literally just", "only just", "honestly").
_ADVERBS = frozenset({"just", "literally", "only", "honestly", "really", "already", "recently",
                      "freshly", "actually", "basically", "seriously"})
#: Deeds whose past form does not end in -ed.
_IRREGULAR = frozenset({"made", "done", "spilt", "swept", "hung", "laid", "set", "put",
                        "washed", "wiped", "shut"})
_OBJECTS = frozenset({"it", "them", "that", "this", "everything"})
_TIMES = frozenset({"today", "earlier", "already", "now", "again", "too"})
_FLOORS = frozenset({"floor", "ground", "carpet"})
_FLOOR_PREPS = (("on",), ("over",), ("all", "over"), ("across",), ("all", "across"))
_AROUND = frozenset({"round", "around", "near", "by", "under", "beside"})
#: Subjects of a state said after the request.
_SUBJECTS = frozenset({"it", "they", "there", "the", "its", "his", "her", "my", "our", "their"})
_COPULAS = frozenset({"is", "are", "'s", "was", "were"})


def _after_keep(rw: Rewriter) -> bool:
    """Whether the sentence read so far holds a keep-away word."""
    for t in reversed(rw.out):
        if t.text in _ENDS:
            return False
        if t.text in _KEEP:
            return True
    return False


def _note(rw: Rewriter, a: int, end: int) -> int:
    rw.context.append((" ".join(rw.words[a:end]), (rw.toks[a].start, rw.toks[end - 1].end)))
    return end


def deed_reason(rw: Rewriter, i: int) -> int | None:
    """", I literally just bleached it." -> context."""
    if rw.w(i) != "," or rw.w(i + 1) not in _SPEAKERS or not _after_keep(rw):
        return None
    k = i + 2
    while rw.w(k) in _AUXES | _ADVERBS:
        k += 1
    verb = rw.w(k)
    if not (verb.isalpha() and (verb.endswith("ed") or verb in _IRREGULAR)):
        return None
    k += 1
    k += rw.w(k) in _OBJECTS
    while rw.w(k) in _TIMES:
        k += 1
    if rw.w(k) not in ("", *_ENDS):
        return None
    return _note(rw, i + 1, k)


def floor_reason(rw: Rewriter, i: int) -> int | None:
    """", it's hanging on the floor." / ", there's laundry all over the floor round it." ->
    context."""
    if rw.w(i) != "," or rw.w(i + 1) not in _SUBJECTS or not _after_keep(rw):
        return None
    end = rw.sentence_end(i + 1)
    words = rw.words[i + 1:end]
    if not set(words[:4]) & _COPULAS:
        return None
    for q in range(len(words) - 1):
        prep = next((p for p in _FLOOR_PREPS if tuple(words[q:q + len(p)]) == p), None)
        if prep is None:
            continue
        f = q + len(prep)
        f += words[f:f + 1] == ["the"]
        if words[f:f + 1] and words[f] in _FLOORS:
            rest = words[f + 1:]
            if not rest or (len(rest) == 2 and rest[0] in _AROUND and rest[1] in _OBJECTS):
                return _note(rw, i + 1, end)
        return None
    return None


RULES: tuple[Rule, ...] = (deed_reason, floor_reason)
