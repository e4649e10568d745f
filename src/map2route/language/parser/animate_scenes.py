"""Sentences about people and pets in the house: scene and reason, never a stop.

People set the scene of a request with who is where: "The kids are asleep in the bedroom.",
"Grandma is napping in the bedroom.", "Mom's in the kitchen cooking.", "We have guests in the
living room.", "The cat sleeps on the arm chair.", and give reasons the same way after a
request: "Stay out of the bathroom, someone's in there.", "..., my husband is on a call." Such a
sentence names a place for a later "it" / "there" ("Avoid it.", "Don't go in there.", "Keep
away from it") but is never a stop and never a constraint of its own.

:func:`animate_statement` reads a closed class of subjects (people and pets, with their
determiners or possessives) and rewrites the sentence onto "there is a PLACE." (a mention, the
referent a later pronoun resolves to), reporting the whole sentence as context; without a place
("someone's in there", "my sister is sleeping") the words are context only. A pet's own bed
("the dog is asleep on his bed") is the dog bed. Said as the last sentence, after the request,
such a statement is not read here (the person or pet may be what the route is about), so the
parse still refuses it, naming the subject.

:func:`thing_state` reads the same kind of sentence about a thing ("The washing machine just
finished.", "The bathroom is occupied.", "There's a spill by the sink."): a state, which says
neither which one nor where to go, is a mention of the thing and context. Hand-written for the same reason as the rest
of the parser: the class of subjects is closed and each construction is checked by a test.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.rewrites import Rewriter
from map2route.language.tokens import Token

__all__ = ["animate_statement", "thing_state"]

_ENDS = (".", "!", "?", ";")
#: People and pets a request may speak of.
_ANIMATE = frozenset({
    "kids", "kid", "children", "child", "baby", "babies", "toddler", "grandma", "grandpa",
    "granny", "grandmother", "grandfather", "mom", "mum", "mommy", "dad", "daddy", "mother",
    "father", "parents", "wife", "husband", "sister", "brother", "son", "daughter", "cat", "cats",
    "dog", "dogs", "puppy", "kitten", "guest", "guests", "friend", "friends", "someone",
    "somebody", "people", "roommate", "roommates", "partner", "boyfriend", "girlfriend",
    "neighbor", "neighbour", "visitors", "family", "aunt", "uncle", "nanny", "everyone"})
_PETS = frozenset({"cat", "cats", "dog", "dogs", "puppy", "kitten"})
_LEADS = frozenset({"the", "my", "our", "your", "his", "her", "their", "a", "some", "little"})
_VERBS = frozenset({"is", "are", "'s", "was", "were", "sleeps", "sleep", "naps", "nap", "sits",
                    "lies", "lays", "plays", "works", "has", "have"})
_PREPS = frozenset({"in", "on", "at", "by", "near", "inside", "beside", "under"})
_OWNERS = frozenset({"his", "her", "its", "their"})
_PLACE_DETS = frozenset({"the", "a", "an", "my", "our", "your", *_OWNERS})


def _subject(rw: Rewriter, i: int) -> int:
    """The token after an animate subject at ``i`` ("the kids", "my wife", "we have guests"),
    or 0."""
    k = i
    if rw.at(k, "we", "have") or rw.at(k, "there", "are") or rw.at(k, "there", "is"):
        k += 2
    while rw.w(k) in _LEADS:
        k += 1
    if rw.w(k) not in _ANIMATE:
        return 0
    return k + 1


def animate_statement(rw: Rewriter, i: int) -> int | None:
    """"Grandma is napping in the bedroom." -> "there is a bedroom ." (the sentence reported as
    context); "..., someone's in there." -> context only (see the module docstring)."""
    first = not rw.out or rw.out[-1].text in _ENDS
    after_comma = bool(rw.out) and rw.out[-1].text == ","
    if not first and not after_comma and rw.w(i - 1) not in ("bc", "because", "cause", "since"):
        return None
    k = _subject(rw, i)
    if not k:
        return None
    pet = rw.w(k - 1) in _PETS
    if rw.w(k) not in _VERBS and not (rw.at(i, "we", "have") or rw.at(i, "there")):
        return None
    end = rw.sentence_end(k)
    if first and not any(w not in _ENDS for w in rw.words[end:]):
        # said last, after the request, a person or pet may be what the route is about
        # ("Go to the fridge. The cat is sleeping on the bed."): left to refuse, naming it
        return None
    stop = next((q for q in range(k, end) if rw.w(q) == "," and
                 rw.w(q + 1) in ("so", "and", "then", "please")), end)
    lex = head_lexicon()
    place: tuple[int, int, int] | None = None  # (prep, head start, head end)
    q = k
    while q < stop:
        w = rw.w(q)
        if w in W.MOVE_VERBS or w in ("avoid", "stay", "keep", "do", "don't", "never", "go"):
            return None  # a request after all
        hit = lex.match(rw.words[q:q + lex.max_len])
        if hit is not None:
            if rw.w(q - 1) in _PLACE_DETS and rw.w(q - 2) in _PREPS:
                # the place said last is where they are ("on the phone in the living room");
                # other things ("watching TV") stay in the sentence reported as context
                place = (q - 2, q, q + hit[0])
            q += hit[0]
            continue
        q += 1
    like = rw.toks[i]
    said = [t for t in rw.toks[i:stop] if t.text != ","]
    if said:
        rw.context.append((" ".join(t.text for t in said), (said[0].start, said[-1].end)))
    if after_comma and place is None:
        rw.out.pop()  # ", someone's in there": the reason goes, the request stays as said
        return stop
    if place is None:
        return stop + (1 if stop < len(rw.toks) and rw.w(stop) in _ENDS else 0)
    _, a, b = place
    head = rw.words[a:b]
    if pet and rw.w(a - 1) in _OWNERS and head == ["bed"]:
        head = ["dog", "bed"]  # "the dog is asleep on his bed": the pet's own bed
    if after_comma:
        rw.out.pop()
        rw.emit(".", like=rw.toks[i])
    rw.emit("there", "is", "a", like=like)
    rw.out.extend(rw.new(w, rw.toks[a]) for w in head)
    if stop < end:
        rw.emit(".", like=rw.toks[stop])
        nxt = stop + 1
        while rw.w(nxt) in ("so", "and", "then", "please"):
            nxt += 1
        return nxt
    return stop


#: Words that make a statement about a thing say which one, or where to go, after all.
_NOT_STATES = frozenset({"one", "ones", "destination", "goal", "target", "start", "where",
                         "which", "that", "who", "whose", "first", "second", "last", "only",
                         "biggest", "smallest", "closest", "nearest", "farthest", "furthest",
                         "not", "no", "avoid", "stay", "keep", "go", "do", "don't", "never",
                         "near", "next", "close", "far", "between", "behind", "beside",
                         # "the bathroom is off limits": a keep-out (constraint_frames)
                         "limits", "bounds", "avoided", "forbidden", "allowed", "banned"})
_STATE_LEADS = frozenset({"is", "'s", "was", "just", "has", "are", "were"})
#: "The sofa is big, so go to it": a size or rank says which one (the big sofa), not a state.
_PICKS = frozenset(W.SIZE_ADJ) | frozenset(W.COMPARATIVE) | W.RANK_WORDS | frozenset(W.ORDINALS)


def thing_state(rw: Rewriter, i: int) -> int | None:
    """"The washing machine just finished.", "The bathroom is occupied.", "The TV is on in the
    living room.", "There's a spill by the sink." (a sentence of its own, before the request)
    -> "there is a washing machine ." (a mention for a later "it"; the sentence reported as
    context): a state of a thing, which says neither which one nor where to go."""
    if rw.out and rw.out[-1].text not in _ENDS:
        return None
    lex = head_lexicon()
    k, spill = i, False
    if rw.at(k, "there", "is") or rw.at(k, "there", "'s"):
        k, spill = k + 2, True
    elif rw.w(k) in ("the", "a", "an", "my", "our"):
        k += 1
    hit = lex.match(rw.words[k:k + lex.max_len])
    end = rw.sentence_end(i)
    if end >= len(rw.toks) or rw.w(end) == "?" or \
            not any(w not in _ENDS for w in rw.words[end + 1:]):
        return None  # said last, a statement may be what the route is about
    if spill:
        # "there's broken glass by the dining table": something unnamed by a thing
        q = end - 1
        thing = None
        while q > k:
            h = lex.match(rw.words[q:q + lex.max_len])
            if h is not None and q + h[0] == end and rw.w(q - 1) in _PLACE_DETS and \
                    rw.w(q - 2) in _PREPS:
                thing = (q, q + h[0])
                break
            q -= 1
        said = rw.words[k:q - 2] if thing is not None else []
        if thing is None or not said or any(lex.match([w]) or w in _NOT_STATES or
                                            w in W.MOVE_VERBS for w in said):
            return None
        head = rw.toks[thing[0]:thing[1]]
        tail: list[Token] = []
    else:
        if hit is None or rw.w(k + hit[0]) not in _STATE_LEADS:
            return None
        head = rw.toks[k:k + hit[0]]
        q = k + hit[0]
        tail = []
        while q < end:
            h = lex.match(rw.words[q:q + lex.max_len])
            if h is not None:
                if rw.w(q - 1) not in _PLACE_DETS or rw.w(q - 2) not in ("in", "on") or \
                        q + h[0] != end or tail:
                    return None
                tail = rw.toks[q - 2:q + h[0]]  # "... in the living room": where it is
                break
            if rw.w(q) in _NOT_STATES or rw.w(q) in _PICKS or rw.w(q) in W.MOVE_VERBS or \
                    rw.w(q) == ",":
                return None
            q += 1
        if q == k + hit[0] + 1 and not tail:
            return None  # "The sofa is." says nothing
    said_toks = rw.toks[i:end]
    rw.context.append((" ".join(t.text for t in said_toks),
                       (said_toks[0].start, said_toks[-1].end)))
    rw.emit("there", "is", "a", like=rw.toks[i])
    rw.out.extend([*head, *tail])
    return end
