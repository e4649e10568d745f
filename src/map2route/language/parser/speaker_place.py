"""A carrying request's way back to the speaker: "bring me the remote", "bring it here".

People who ask for something from where they sit set the scene first and then ask for it to
be brought: "I'm on the couch. Can you bring me the remote?", "I'm at the desk. Bring me a
pen.", "I'm in the bathroom. Bring the soap bottle from the kitchen here.", "I'm sitting in
the living room. Go get my phone ... and bring it here." The scene sentence sets where the
route starts (:mod:`.human`: the speaker is where the route starts), so the way back to the
speaker is a stop at ``start``, as "come back to me" already reads. This pass, run on the parsed
clauses, gives a carrying verb with a recipient that stop: after the thing ("bring me X"), or
in place of a "here" / "it" read as the recipient's place ("bring it here").

It reads a closed class (the speaker's "I am" / "we are" opening a context sentence; carrying
verbs; the recipient words "me", "us", "here", "to me") and no sentence patterns, so it is
written by hand like the rest of the parser: the constructions are few and each is checked by
a test. Without a speaker's scene sentence nothing changes.
"""

from __future__ import annotations

import re

from map2route.language.parser.model import Clause, RefExpr
from map2route.language.parser.speaker_scene import SPEAKER, WALKER, scene

__all__ = ["to_speaker"]

#: A context sentence that says where the speaker (or the walker) is, after spoken fillers.
_SPEAKER = scene(SPEAKER + "|" + WALKER, anchored=True)
#: Verbs of carrying something to someone.
_CARRY = ("bring", "fetch", "get", "grab", "take", "carry")
#: "bring me the remote", "bring it here", "bring the salt over to me": a recipient said
#: ("take me to the sofa" is a walk with the speaker, no recipient).
_TO_ME = re.compile(
    r"^(?:can\s+you\s+|could\s+you\s+|please\s+|go\s+)?(?:" + "|".join(_CARRY) + r")\s+"
    r"(?:me|us)\b(?!\s+(?:to|over|into|in|toward|towards|around|through)\b)|"
    r"\b(?:to\s+me|to\s+us|(?:over\s+|back\s+)?here|back\s+to\s+me)\s*[.!?]*\s*$")


def _speaker_scene(context: list[str]) -> bool:
    """Whether a context sentence says where the speaker is ("I'm on the couch")."""
    return any((m := _SPEAKER.match(text.lower())) is not None and
               m.group(1) not in ("you are", "you're", "ur") for text in context)


def to_speaker(clauses: list[Clause], text: str, context: list[str]) -> list[Clause]:
    """The clauses with the stop back at the speaker (``start``) that a carrying request with
    a recipient implies (see the module docstring)."""
    if not _speaker_scene(context):
        return clauses
    out: list[Clause] = []
    for n, c in enumerate(clauses):
        said = text[c.span[0]:c.span[1]].lower()
        if c.kind != "goal" or len(c.refs) != 1 or _TO_ME.search(said) is None:
            out.append(c)
            continue
        ref = c.refs[0]
        if ref.head_kind in ("here", "pronoun"):
            # "bring the salt shaker over here", "bring it here": back to the speaker
            c.refs = [_start(ref)]
            out.append(c)
            continue
        out.append(c)
        nxt = clauses[n + 1] if n + 1 < len(clauses) else None
        if ref.head_kind != "start" and not (
                nxt is not None and nxt.kind == "goal" and nxt.refs and
                nxt.refs[0].head_kind in ("start", "here")):
            # "bring me the remote": to the remote, then back to the speaker
            out.append(Clause("goal", c.span, c.text, [_start(ref)]))
    return out


def _start(said: RefExpr) -> RefExpr:
    """The route's start (where the speaker is), standing where ``said`` was said."""
    return RefExpr(said.text, said.span, "start", "start")
