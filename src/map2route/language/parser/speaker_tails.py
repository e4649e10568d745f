"""Where the speaker is, said after a request behind a comma or a dash: "Fetch me the watch
from the bedroom - I'm by the fridge.", "Bring me the vase, I'm on the sofa in the lounge."

Said as a sentence of its own ("... I'm by the fridge.") the speaker's place is read already
(:mod:`.speaker_return`: a return to "me" stops there; otherwise it is context). Typed after a
comma or a dash it is the same sentence, so this pass, run on the text before the clause
readers, turns that one mark into a full stop. Only after a request in the same sentence
("Right now, I'm sitting on the bed." is a scene sentence of its own), and only when what
follows is the speaker's place and nothing else, to the sentence's end: "I'm" / "we're", a few
posture words ("sitting", "just", "over"), a word of place ("on", "in", "at", "by", "next to")
and no further comma or verb of going; "come find me, I'm by X" is read by :mod:`.openers`.
The text keeps its length, so every span still points into what was typed.

Hand-written: one regular expression over closed classes (speaker subjects, postures, place
prepositions), which a test checks by hand.
"""

from __future__ import annotations

import re

__all__ = ["speaker_tails"]

_TAIL = re.compile(
    r"(?<=\S)(?<!\bfind me)(?<!\bfind us)\s*([,\u2014\u2013]|\s-)"
    r"(?=\s*(?:i'm|i am|im|we're|we are)\s+"
    r"(?:(?:just|sitting|sat|standing|stood|over|right|lying|currently|now|still|waiting)\s+)*"
    r"(?:on|in|at|by|next\s+to|beside|near|over\s+by)\s"
    r"(?![^.!?;,]*\b(?:go|going|come|coming|head|heading|walk|walking|bring|then)\b)"
    r"[^.!?;,]*(?:[.!?;]|$))",
    re.IGNORECASE)


_SENTENCE_START = re.compile(r"[.!?;]\s")
#: A request before the tail: only then is "I'm <place>" said after it about the speaker.
_REQUEST = re.compile(r"\b(?:go|come|bring|fetch|get|take|head|walk|drive|roll|pop|nip|"
                      r"stop|wait|visit|find|carry|deliver|return|back|me)\b")


def speaker_tails(text: str) -> str:
    """``text`` with the comma or dash before a closing "I'm <place>" made a full stop (same
    length: spans still point into the original)."""
    def stop(m: re.Match[str]) -> str:
        mark = m.group(1)
        said = _SENTENCE_START.split(text[:m.start()])[-1].lower()
        if not _REQUEST.search(said):
            return m.group(0)  # "Right now, I'm sitting on the bed.": a scene, not a tail
        return m.group(0)[:m.start(1) - m.start(0)] + mark.replace(mark.strip() or mark, ".")
    return _TAIL.sub(stop, text)
