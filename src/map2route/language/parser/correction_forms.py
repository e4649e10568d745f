"""Self-corrections said in the orders people type them, put into the one order the discourse
stage reads ("No wait, the one in the bedroom" / "No wait, I meant the toilet in ...").

Run first in :func:`.human.human_forms`, on the tokens as typed:

* the markers in another order: "wait no, the one ...", "wait, no, ...", "ah no sorry, the
  other one" -> "no wait, ...";
* a correction said in two sentences, the first only rejecting ("No, wait, not that one. I meant
  the toilet in the bathroom with the hamper.") -> one ("No, wait, I meant the toilet ...");
* the marker said last ("The one in the bathroom off the bedroom, I mean.") -> first ("I mean
  the one in the bathroom off the bedroom.").

Nothing is dropped that says where to go: only the order of the markers changes, and the
rejection "not that one" is what the marker after it says again. Spans are kept.
"""

from __future__ import annotations

from map2route.language.tokens import Token

_ENDS = (".", "!", "?")
#: Words that only open a correction, in any order ("ah no sorry", "wait, no").
_MARKERS = frozenset({"no", "wait", "sorry", "ah", "oh", "oops", "nope", "hang", "on", ","})
#: The rejection a correction says before it names the right thing.
_REJECTIONS = (("not", "that", "one"), ("not", "that"), ("not", "this", "one"),
               ("not", "there"), ("wrong", "one"), ("that", "is", "wrong"))
#: A sentence that names the right thing after a rejection.
_MEANT = (("i", "meant"), ("i", "mean"))


def _opens(out: list[Token], k: int) -> bool:
    return k == 0 or out[k - 1].text in (*_ENDS, ";", ",")


def correction_forms(toks: list[Token]) -> list[Token]:
    """Put the self-corrections of ``toks`` into the order the discourse stage reads (see the
    module docstring)."""
    return _marker_last(_two_sentences(_marker_order(toks)))


def _marker_order(toks: list[Token]) -> list[Token]:
    """"wait no, the one ..." / "ah no sorry, ..." -> "no wait, ...": a run of correction
    markers holding "no" and another marker, at a sentence start or after a comma, whose
    first word is not "no"."""
    out: list[Token] = []
    i = 0
    words = [t.text for t in toks]
    while i < len(toks):
        if _opens(out, len(out)) and words[i] in _MARKERS and words[i] not in ("no", ",", "on"):
            k = i
            while k < len(words) and words[k] in _MARKERS and not (
                    words[k] == "on" and words[k - 1] != "hang"):
                k += 1
            run = [w for w in words[i:k] if w != ","]
            if "no" in run and len(run) > 1 and k < len(words) and words[k - 1] == ",":
                out += [Token("no", toks[i].start, toks[k - 1].end),
                        Token("wait", toks[i].start, toks[k - 1].end),
                        Token(",", toks[k - 1].start, toks[k - 1].end)]
                i = k
                continue
        out.append(toks[i])
        i += 1
    return out


def _two_sentences(toks: list[Token]) -> list[Token]:
    """"No, wait, not that one. I meant X." -> "No, wait, I meant X.": the rejection and the
    end of its sentence go, when that sentence is only markers and the rejection and the next
    opens with "I meant"."""
    words = [t.text for t in toks]
    for i in range(len(toks)):
        if not _opens(toks, i) or words[i] not in _MARKERS:
            continue
        k = i
        while k < len(words) and words[k] in _MARKERS:
            k += 1
        rej = next((r for r in _REJECTIONS if tuple(words[k:k + len(r)]) == r), None)
        if rej is None or "no" not in words[i:k] and "sorry" not in words[i:k]:
            continue
        end = k + len(rej)
        if end < len(words) and words[end] in _ENDS and any(
                tuple(words[end + 1:end + 1 + len(m)]) == m for m in _MEANT):
            return toks[:k] + toks[end + 1:]
    return toks


def _marker_last(toks: list[Token]) -> list[Token]:
    """"The one in the bathroom off the bedroom, I mean." -> "I mean the one in the bathroom
    off the bedroom.": a sentence that opens with "the one" and ends with ", I mean"."""
    words = [t.text for t in toks]
    out = list(toks)
    starts = [0] + [n + 1 for n, w in enumerate(words) if w in _ENDS]
    for s in reversed(starts):
        e = s
        while e < len(words) and words[e] not in _ENDS:
            e += 1
        if words[s:s + 2] != ["the", "one"] or e - s < 5 or \
                words[e - 3:e] not in (["," , "i", "mean"], [",", "i", "meant"]):
            continue
        out = out[:s] + out[e - 2:e] + out[s:e - 3] + out[e:]
    return out
