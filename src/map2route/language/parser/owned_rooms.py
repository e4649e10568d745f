"""A room named by its owner in a scene-setting sentence ("I'm at the desk in my room. Go to
the front door ...").

Scene sentences are taken out as context (:func:`.human.human_forms`), so the start they say
is reported, not read onto the map; "my room" there was kept as a plain room and the owner's
word left unread: the start was reported without the room that picks it, a silent loss. The map
does not say whose room is whose (the same reason "Go to my room" is refused by
:func:`.aside_rewrites.whose_room`), so the sentence is refused naming the words.

Hand-written, like the rest of the parser: one closed check on the sentence's tokens.
"""

from __future__ import annotations

from map2route.language.errors import ParseError
from map2route.language.tokens import Token

__all__ = ["refuse_owned_room"]

_OWNERS = ("my", "your", "his", "her", "our", "their")


def refuse_owned_room(body: list[Token]) -> None:
    """Raise the whose-room refusal where a scene sentence names "my room" or the like.

    Raises:
        ParseError: naming the owner and "room".
    """
    for a, b in zip(body, body[1:], strict=False):
        if a.text in _OWNERS and b.text in ("room", "rooms"):
            text = f"{a.text} {b.text}"
            msg = (f"did not understand {text!r}: the map does not say whose room is whose; "
                   "name the room by its type or what is in it (e.g. 'the bedroom with the "
                   "desk')")
            raise ParseError(msg, text, (a.start, b.end))
