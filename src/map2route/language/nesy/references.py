"""Stage 2 of the NeSy-Route query parser: what a clause refers to and the cues around it.

Finds the land-cover mentions of a clause (with WordNet for unknown nouns), the positive
and negative cues and their polarity, and the structures that decide which cue governs which
mention (postposed predicates, restrictions such as "stick to", "everything" phrases,
key-value headings).
"""

from __future__ import annotations

from map2route.language.inflection import singular_word
from map2route.language.nesy.lexicon import (
    EVERYTHING_SELF,
    EVERYTHING_WORDS,
    NEGATIVE_CUES,
    RESTRICT_AFTER,
    RESTRICT_BEFORE,
    ROAM_VERBS,
    ROUTE_PREPOSITIONS,
    WORDNET_CLASSES,
    words,
)
from map2route.language.nesy.tokens import (
    ADJECTIVES,
    CLASS_SORTED,
    COPULA,
    CUE_WORDS,
    DETERMINER_CUES,
    DEVELOPED,
    EXC_SORTED,
    EXCEPTION_FIRST,
    FALSE_FRIENDS_SORTED,
    FILLER,
    FLIPPABLE_SET,
    LAND_NOUNS,
    LIST_GLUE,
    NEG_SORTED,
    NEGATOR_SET,
    ONLY_GLUE,
    PARCEL_HEADS,
    POS_SORTED,
    RESTRICT_GLUE,
    ROAD,
    STRANDED_NEXT,
    SURFACE_CLASSES,
    TREE,
    find,
    find_stems,
    unknown_noun,
)
from map2route.language.nesy.wordnet import noun_category

_REPLY_OPENERS = words("reply_openers")
REPLY_NO = words("reply_no")
#: Restriction words before or after a list ("roads only", "only roads").
RESTRICTS = RESTRICT_AFTER + RESTRICT_BEFORE


def answer_sign(clause: list[str]) -> int:
    """Sign of a short reply to a question about terrain ("No.", "Yes, it may.", "It is.",
    "Also fine.", "Those are off limits."), 0 when the clause is no reply: a reply has at most
    six words and no land-cover mention, or opens with "no" and has at most eight words and
    no positive cue ("No, stick to the road.")."""
    if clause and clause[0] in REPLY_NO and len(clause) <= 8 and \
            not any(s > 0 for _, s in cue_positions(clause)):
        return -1  # "No, stick to the road."
    if not clause or len(clause) > 6 or find_mentions(clause):
        return 0
    cues = cue_positions(clause)
    if cues:
        return cues[0][1]
    return 1 if clause[0] in _REPLY_OPENERS else 0


def _match_cues(clause: list[str], tables: list[tuple[int, list[str]]]) -> list[tuple[int, int, int,
                                                                                      str]]:
    """(start, end, sign, phrase) of cue phrases, longest first, earlier tables first."""
    taken = [False] * len(clause)
    cues: list[tuple[int, int, int, str]] = []
    # the longest phrase wins across tables ("lifted the restrictions" over "restrictions")
    ordered = sorted(((sign, phrase) for sign, phrases in tables for phrase in phrases),
                     key=lambda sp: -len(sp[1].split()))
    for sign, phrase in ordered:
        n = len(phrase.split())
        for i in find(clause, phrase):
            if not any(taken[i:i + n]):
                for m in range(i, i + n):
                    taken[m] = True
                cues.append((i, i + n, sign, phrase))
    return sorted(cues)


def nothing_forbidden(clause: list[str]) -> set[int]:
    """Positions of prohibitions whose object is "nothing" ("avoid nothing", "nothing is off
    limits"): they permit everything."""
    out: set[int] = set()
    for i in find(clause, "nothing"):
        if i + 1 < len(clause) and clause[i + 1] in ("else", "more"):
            continue
        for phrase in FLIPPABLE_SET:
            for q in find(clause, phrase):
                if q + len(phrase.split()) == i or (
                        0 < q - i <= 3 and all(t in FILLER for t in clause[i + 1:q])):
                    out.add(q)
    return out


_DESCRIPTIVE_CUES = words("descriptive_cues")
_RESTRICTION_NOUNS = words("restriction_nouns")
_LIFTING = words("lifting")


def cue_positions(clause: list[str], *, everything: bool = False) -> list[tuple[int, int]]:
    """(position, +1 / -1) of polarity cues after composition.

    A negator composes with the next cue when only filler words lie between: with a
    prohibition it permits ("not forbidden", "no obstacle", "can not avoid"), with a
    permission it forbids ("do not use", "is not okay"). Exception words ("except", "unless",
    "other than") take the sign opposite to the statement they qualify: the cue before them,
    else an "everything" word (negative), else the cue after them.
    """
    raw = _match_cues(clause, [(0, EXC_SORTED), (-1, NEG_SORTED), (1, POS_SORTED)])
    # "(conditionally) traversable classes" describes terrain, it permits nothing
    # ("Traversable terrain includes A, B" still permits: only a quantified phrase describes)
    raw = [c for c in raw if not (c[3] in _DESCRIPTIVE_CUES and c[1] < len(clause) and
                                   clause[c[1]] in _TERRAIN_HEADS and
                                   set(clause[max(0, c[0] - 3):c[0]]) &
                                   _DESCRIBING_QUANTIFIERS)]
    composed: list[tuple[int, int, int, str]] = []
    i = 0
    while i < len(raw):
        p, e, s, ph = raw[i]
        if ph in NEGATOR_SET and i + 1 < len(raw):
            q, e2, s2, ph2 = raw[i + 1]
            if q - e <= 3 and all(t in FILLER for t in clause[e:q]) and s2 != 0 and (
                    s2 > 0 or ph2 in FLIPPABLE_SET):
                composed.append((p, e2, -s2, ph + " " + ph2))
                i += 2
                continue
        composed.append((p, e, s, ph))
        i += 1
    nothing = nothing_forbidden(clause)
    composed = [(p, e, 1 if p in nothing else s, ph) for p, e, s, ph in composed]
    # "restrictions over the woods were lifted": a later lifting verb cancels the restriction
    lifted = [p for p, _e, _s, ph in composed if ph in _LIFTING]
    restricting = [p for p, _e, _s, ph in composed if ph in _RESTRICTION_NOUNS]
    composed = [(p, e, 1 if (ph in _RESTRICTION_NOUNS and any(q > p for q in lifted)) or
                 (ph in _LIFTING and any(q < p for q in restricting)) else s, ph)
                for p, e, s, ph in composed]
    out: list[tuple[int, int]] = []
    for k, (p, _e, s, _ph) in enumerate(composed):
        if s == 0:
            before = [c[2] for c in composed[:k] if c[2] != 0]
            after = [c[2] for c in composed[k + 1:] if c[2] != 0]
            if before:
                s = -before[-1]
            elif everything:
                s = -1
            elif after:
                s = -after[0]
            else:
                s = -1
        out.append((p, s))
    return out


def find_mentions(clause: list[str]) -> list[tuple[int, int, int]]:
    """(start, end, class index) of land-cover mentions, longest phrase first, no overlaps.

    Phrases match on plural stems; in a noun compound of two mentions ("farm buildings",
    "forest road") the head, the last one, names the class.
    """
    stems = [singular_word(t) for t in clause]
    taken = [False] * len(clause)
    for friend in FALSE_FRIENDS_SORTED:
        for i in find_stems(stems, friend):
            for m in range(i, i + len(friend)):
                taken[m] = True
    found: list[tuple[int, int, int]] = []
    for phrase, cls in CLASS_SORTED:
        n = len(phrase)
        for i in find_stems(stems, phrase):
            if not any(taken[i:i + n]):
                for m in range(i, i + n):
                    taken[m] = True
                found.append((i, i + n, cls))
    # a noun no table lists, by what WordNet says it is a kind of ("veld" is a grassland)
    for i, t in enumerate(clause):
        if not taken[i] and unknown_noun(t):
            known = noun_category(singular_word(t), WORDNET_CLASSES)
            if known is not None:
                taken[i] = True
                found.append((i, i + 1, known))
    found.sort()
    out: list[tuple[int, int, int]] = []
    for mention in found:
        if out and out[-1][1] == mention[0]:
            # a compound: the head names the class, except after an adjective ("bare yard"),
            # before a way ("forest trails" are about the forest) and when a surface noun
            # qualifies developed space ("gravel forecourt")
            # "grassland bareland farmland" is a list: a "-land" word is no modifier
            if clause[out[-1][1] - 1].endswith("land"):
                out.append(mention)
                continue
            if clause[out[-1][1] - 1] in ADJECTIVES or mention[2] == ROAD or (
                    mention[2] == DEVELOPED and out[-1][2] in SURFACE_CLASSES) or (
                    # "pine plantation" is forest, "wheat paddocks" are crops
                    out[-1][2] == TREE and singular_word(clause[mention[1] - 1]) == "plantation") or (
                    singular_word(clause[mention[1] - 1]) in PARCEL_HEADS and mention[1] - mention[0] == 1):
                continue
            # the compound spans both words ("farm fields")
            mention = (out.pop()[0], mention[1], mention[2])
        out.append(mention)
    # a class word naming a facility is a place name ("the beach hotel", "the farm shop")
    out = [m for m in out if not (m[1] < len(clause) and clause[m[1]] in _FACILITY_NOUNS)]
    return _identities(clause, out)


_FACILITY_NOUNS = words("facility_nouns")


#: Copulas of "X is Y" ("the festival field is hard standing grassland").
_IS = words("is")
#: Words that end a description "X is <description> Y" (a preposition makes Y another place).
_NOT_DESCRIPTION = words("not_description")


def _identities(clause: list[str], mentions: list[tuple[int, int, int]]
                ) -> list[tuple[int, int, int]]:
    """"X is (a) Y" with two mentions describes X as Y: the predicate names the class, so the
    subject is dropped ("the festival field is grassland" is about grassland)."""
    out: list[tuple[int, int, int]] = []
    for k, m in enumerate(mentions):
        nxt = mentions[k + 1] if k + 1 < len(mentions) else None
        if nxt is not None and m[1] < len(clause) and clause[m[1]] in _IS and \
                nxt[0] - m[1] <= 4 and not any(
                    t in _NOT_DESCRIPTION or not t.isalpha() or t in CUE_WORDS
                    for t in clause[m[1] + 1:nxt[0]]):
            continue
        out.append(m)
    return out


def governing(cues: list[tuple[int, int]], pos: int, postposed: frozenset[int] = frozenset()
               ) -> int:
    """Sign of the cue that governs a mention: the last one before it, else the first after.

    A cue postposed to an earlier mention ("trees ok buildings not ok": "ok" belongs to
    "trees") does not govern a later one when another cue can.
    """
    before = [(p, s) for p, s in cues if p < pos]
    free = [(p, s) for p, s in before if p not in postposed]
    after = [(p, s) for p, s in cues if p > pos]
    if free:
        return free[-1][1]
    if after:
        return after[0][1]
    return before[-1][1]


def postposed_cues(clause: list[str], cues: list[tuple[int, int]],
               mentions: list[tuple[int, int, int]]) -> frozenset[int]:
    """Positions of cues that directly follow a mention, copulas aside ("the forest is fine")."""
    ends = {e for _, e, _ in mentions}
    starts = {b for b, _, _ in mentions}
    out = set()
    for p, _s in cues:
        k = p
        while k > 0 and clause[k - 1] in COPULA | LAND_NOUNS:
            k -= 1
        determiner = clause[p] in DETERMINER_CUES and p + 1 < len(clause) and (
            p + 1 in starts or clause[p + 1] in ("the", "a", "an", "any"))
        if k in ends and clause[p] not in EXCEPTION_FIRST and not determiner:
            out.add(p)
    return frozenset(out)


MOTION_VERBS = ROAM_VERBS | words("motion_verbs")


def motion_on(window: list[str]) -> bool:
    """"drive on dirt", "walk on the grass": a motion verb with "on" before the mention."""
    return any(t == "on" and k and window[k - 1] in MOTION_VERBS or
               (t == "on" and k > 1 and window[k - 2] in MOTION_VERBS and
                window[k - 1] in ("out", "about", "around"))
               for k, t in enumerate(window))


def motion_onto_pronoun(clause: list[str], end: int) -> bool:
    """"the grassland ... I'll walk on it": a route word or "on" before a pronoun later in the
    clause, not negated, refers back to the mention; so does a route word left without an
    object ("the field is hard, drive across if it helps")."""
    for k in range(end, len(clause)):
        nxt = clause[k + 1] if k + 1 < len(clause) else ""
        pronoun = clause[k] in (*ROUTE_PREPOSITIONS, "on") and nxt in ("it", "them")
        stranded = clause[k] in ROUTE_PREPOSITIONS and nxt in STRANDED_NEXT
        if (pronoun or stranded) and \
                not set(clause[max(end, k - 4):k]) & (DETERMINER_CUES | NEGATOR_SET):
            return True
    return False


_QUANTIFIERS = words("quantifiers")
JOURNEY_NOUNS = words("journey_nouns")
_NEAR_OR_JOURNEY = words("near_words") | JOURNEY_NOUNS
#: Words before "(conditionally) traversable classes" that make it a description.
_DESCRIBING_QUANTIFIERS = _QUANTIFIERS | words("describing_extra")
_NEGATIVE_WORDS = {p for p in NEGATIVE_CUES if " " not in p}
_TERRAIN_HEADS = words("terrain_heads")


def has_everything(clause: list[str], mentions: list[tuple[int, int, int]]) -> tuple[int, int]:
    """Span of the first "everything" phrase in the clause, or (-1, -1): a listed phrase, or a
    quantifier before a terrain noun with up to three words between ("all conditional
    classes", "any drivable terrain")."""
    hits = [(i, i + len(w.split())) for w in EVERYTHING_WORDS for i in find(clause, w)]
    mentioned = {k for b, e, _ in mentions for k in range(b, e)}
    for i, t in enumerate(clause):
        if t in _QUANTIFIERS:
            for k in range(i + 1, min(i + 5, len(clause))):
                if clause[k] in _TERRAIN_HEADS:
                    hits.append((i, k + 1))
                    break
                if k in mentioned or not clause[k].isalpha() or clause[k] in _NEGATIVE_WORDS:
                    break
    return min(hits) if hits else (-1, -1)


def only_complement(clause: list[str], cues: list[tuple[int, int]],
                     mentions: list[tuple[int, int, int]], conditional: frozenset[int]) -> bool:
    """"only the grassland is off limits" / "the only thing to avoid is X": all else permitted."""
    for oi in find(clause, "only"):
        # "avoid only the bog"
        if oi and clause[oi - 1] not in NEGATOR_SET and any(
                s < 0 and 0 < oi - p <= 3 and not set(clause[p:oi]) & {",", ":", "(", ")"}
                for p, s in cues):
            return True
        neg_after = [p for p, s in cues if p > oi and s < 0]
        if not neg_after or any(t in ",:()" for t in clause[oi:neg_after[0]]):
            continue
        if set(clause[oi + 1:neg_after[0]]) <= ONLY_GLUE:
            return True
        first = next((m for m in mentions if m[0] > oi), None)
        if first is not None and first[0] - oi <= 3 and first[2] in conditional and \
                not any(oi < p < neg_after[0] and s > 0 for p, s in cues) and \
                neg_after[0] > first[0]:
            return True
    return False


def restricted_to(clause: list[str], mentions: list[tuple[int, int, int]],
                   cue_at: set[int]) -> set[int]:
    """Starts of the mentions a restriction names ("stick to the pavement and lawns",
    "grass only", "only where it is grass"): the agent is confined to them, so they are
    permitted. A list goes on past a comma only to a mention with no cue of its own ("stick
    to roads, the woods are too dense" names only the roads)."""
    starts = {b: (b, e) for b, e, _ in mentions}
    ends = {e: (b, e) for b, e, _ in mentions}
    out: set[int] = set()
    for phrase in RESTRICT_BEFORE:
        for i in find(clause, phrase):
            k = i + len(phrase.split())
            while k < len(clause) and k - i <= 5 and k not in starts and \
                    clause[k] in RESTRICT_GLUE:
                k += 1
            while k in starts:
                out.add(k)
                k = starts[k][1]
                comma = False
                while k < len(clause) and clause[k] in LIST_GLUE and k not in starts:
                    comma |= clause[k] == ","
                    k += 1
                if comma and k in starts:
                    seg_end = next((m for m in range(k, len(clause)) if clause[m] in ",:()"),
                                   len(clause))
                    if any(k < c < seg_end for c in cue_at):
                        break
    for phrase in RESTRICT_AFTER:
        for i in find(clause, phrase):
            k = i
            while k in ends:
                b = ends[k][0]
                out.add(b)
                k = b
                while k > 0 and clause[k - 1] in LIST_GLUE and k not in ends:
                    k -= 1
                # "empty fields, streets only": a comma without "and / or" ends the list
                if "," in clause[k:b] and not {"and", "or"} & set(clause[k:b]):
                    break
    return out


def is_narrowed(clause: list[str], after: int, mentions: list[tuple[int, int, int]]) -> bool:
    """"no restrictions on the farmland", "cross-country over the grassland": an everything
    phrase followed by a preposition and a mention names that terrain only."""
    return after < len(clause) and clause[after] in ("on", "over", "across", "for", "in",
                                                      "through") and \
        any(after < b <= after + 3 for b, _, _ in mentions)


def permits_everything(clause: list[str], mentions: list[tuple[int, int, int]]) -> bool:
    """A phrase that permits everything on its own ("go anywhere", "no restrictions"), not
    negated and not narrowed ("do not go anywhere near the woods")."""
    hits = [(i, i + len(w.split())) for w in EVERYTHING_SELF for i in find(clause, w)]
    # "no terrain restrictions", "no off road limits"
    hits += [(i, k + 1) for i, t in enumerate(clause) if t == "no"
             for k in range(i + 2, min(i + 4, len(clause)))
             if clause[k] in _LIMIT_NOUNS and all(w.isalpha() for w in clause[i + 1:k])]
    for i, after in hits:
        if (after < len(clause) and clause[after] in ("near", "close")) or \
                set(clause[max(0, i - 3):i]) & NEGATOR_SET:
            continue
        # "no restrictions on the farmland" frees the farmland, not all terrain
        if is_narrowed(clause, after, mentions):
            continue
        return True
    return False


_LIMIT_NOUNS = words("limit_nouns")


def roam_everywhere(clause: list[str], restricted: bool) -> bool:
    """"search everywhere", "roam anywhere": a verb of moving before "everywhere" permits all
    conditional terrain, unless negated ("do not go anywhere near the woods") or the clause
    restricts (``restricted``: "go whatever way, roads and sidewalks only")."""
    if restricted:
        return False
    for w in ("everywhere", "anywhere", "wherever", "anything", "whatever"):
        for i in find(clause, w):
            # "anywhere near the woods"; "whatever way is fastest" is about the route
            if i + 1 < len(clause) and clause[i + 1] in _NEAR_OR_JOURNEY:
                continue
            # "go through literally anything", "go over whatever"
            if set(clause[max(0, i - 3):i]) & (ROAM_VERBS | ROUTE_PREPOSITIONS) and \
                    not set(clause[max(0, i - 4):i]) & (NEGATOR_SET | DETERMINER_CUES):
                return True
    return False


def heading_sign(clause: list[str], cues: list[tuple[int, int]],
                  mentions: list[tuple[int, int, int]], pos: int) -> int:
    """Sign of a bare verdict heading a list ("Not permitted: A, B"): the last colon before
    the mention, with cues and no mention between it and the previous comma or colon."""
    colon = next((k for k in range(pos - 1, -1, -1) if clause[k] == ":"), -1)
    if colon < 0:
        return 0
    start = next((k + 1 for k in range(colon - 1, -1, -1) if clause[k] in ",:()"), 0)
    if any(start <= b < colon for b, _, _ in mentions):
        return 0
    heading = [s for p, s in cues if start <= p < colon]
    return heading[-1] if heading else 0


def key_value_sign(clause: list[str], cues: list[tuple[int, int]],
                    mentions: list[tuple[int, int, int]], seg_of: list[int], pos: int,
                    segments: list[int]) -> int:
    """"Trees: no", "Overfly buildings: prohibited": a mention in the segment before a colon
    whose next segment is a bare verdict (cues and filler only, no mention) takes the
    verdict's sign, whatever route word stands before the mention."""
    seg = seg_of[pos]
    if seg + 1 >= len(segments) or clause[segments[seg + 1]] != ":" or \
            any(seg_of[p] == seg for p, _ in cues if p > pos):
        return 0
    nxt = seg + 1
    if any(seg_of[b] == nxt for b, _, _ in mentions):
        return 0
    verdict = [(p, s) for p, s in cues if seg_of[p] == nxt]
    return verdict[0][1] if verdict else 0


