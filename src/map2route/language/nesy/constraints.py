"""Stage 3 of the NeSy-Route query parser: signed mentions -> permitted classes.

Each land-cover mention of each clause gets a sign (permitted, forbidden or neither) from
the cues stage 2 found; a retraction or a reply to a question can flip what came before.
Only the conditionally traversable classes of the agent can be permitted here; forbidding an
always-traversable class is :mod:`.surfaces`' job.
"""

from __future__ import annotations

from map2route.language.inflection import singular_word
from map2route.language.nesy.lexicon import (
    EXCEPTION_WORDS,
    ROAM_VERBS,
    ROUTE_PREPOSITIONS,
    SETTING_WORDS,
    phrases,
    words,
)
from map2route.language.nesy.references import (
    JOURNEY_NOUNS,
    MOTION_VERBS,
    REPLY_NO,
    RESTRICTS,
    answer_sign,
    cue_positions,
    find_mentions,
    governing,
    has_everything,
    heading_sign,
    is_narrowed,
    key_value_sign,
    motion_on,
    motion_onto_pronoun,
    nothing_forbidden,
    only_complement,
    permits_everything,
    postposed_cues,
    restricted_to,
    roam_everywhere,
)
from map2route.language.nesy.tokens import (
    COPULA,
    DETERMINER_CUES,
    ELLIPSIS,
    HEDGES,
    LAND_NOUNS,
    LIST_GLUE,
    NEGATOR_SET,
    find,
    split_clauses,
    strip_from_to,
)


def permissions(tokens: list[str], conditional: frozenset[int]) -> frozenset[int]:
    """The conditionally traversable classes (of ``conditional``) the query permits."""
    allowed: set[int] = set()
    denied: set[int] = set()
    last_sign = 0
    last_negated = False
    previous_allowed: set[int] = set()
    clauses = split_clauses(strip_from_to(tokens))
    for ci, (clause, question) in enumerate(clauses):
        mentions = find_mentions(clause)
        interjection = all(t in REPLY_NO or t in ",!" for t in clause) and \
            not clauses[ci - 1][1]  # "..., brilliant idea. No." (no question before it)
        if (any(find(clause, w) for w in _RETRACTIONS) or interjection) and ci and \
                not any(c in conditional for _b, _e, c in mentions):
            # "nah forget that, roads only": what the previous statement permitted is withdrawn
            denied |= previous_allowed
        before = set(allowed)
        # "Is the drone allowed over the houses? No.": the reply decides the question's terrain
        reply = answer_sign(clauses[ci + 1][0]) if question and ci + 1 < len(clauses) else 0
        every_at, every_end = has_everything(clause, mentions)
        cues = cue_positions(clause, everything=every_at >= 0)
        elliptic = [i for w in ELLIPSIS for i in find(clause, w)
                    if all(t in ",:()" or t in HEDGES for t in clause[i + len(w.split()):])]
        if not cues and last_sign and elliptic:
            cues = [(elliptic[0], last_sign)]
        elif not cues and last_sign and clause[-1] in _AUXILIARIES and mentions and \
                mentions[-1][1] >= len(clause) - 2:
            # "buildings are not forbidden; trees are.": the predicate is elided, and with it
            # the negation it carried
            cues = [(len(clause) - 1, -last_sign if last_negated else last_sign)]
        if cues and set(clause) & _ENDPOINT_WORDS and \
                all(clause[p] in ("not", "no") for p, _ in cues):
            continue  # "I start at the plaza, not the dirt lot" corrects a place
        if cues:
            last_sign = cues[-1][1]
            last_negated = bool(set(clause) & NEGATOR_SET)
        postposed = postposed_cues(clause, cues, mentions)
        segments = [0]
        for i, t in enumerate(clause):
            if t in (",", ":", "(", ")"):
                segments.append(i)
        seg_of = [sum(1 for s in segments[1:] if s <= i) for i in range(len(clause))]
        exceptions = [i for w in EXCEPTION_WORDS for i in find(clause, w)]
        moving = every_at >= 0 and bool(
            set(clause[max(0, every_at - 2):every_at]) & (ROAM_VERBS | ROUTE_PREPOSITIONS)) and \
            not set(clause[max(0, every_at - 4):every_at]) & (NEGATOR_SET | DETERMINER_CUES)
        # "no off-road driving on any conditionally traversable terrain is permitted"
        negated_at = any(clause[k] in ("no", "not", "never") and
                         not set(clause[k:every_at]) & {",", ":", ";", "("}
                         for k in range(max(0, every_at - 5), every_at))
        restricted = any(find(clause, w) for w in RESTRICTS)
        # "no other off-road terrain is opened"; "cross-country over the grassland";
        # "permitted off-road terrain: heathland only"
        if every_at >= 0 and (negated_at or is_narrowed(clause, every_end, mentions) or restricted):
            every_at, moving = -1, False
        if permits_everything(clause, mentions) or moving or (every_at >= 0 and (
                any(s > 0 and not every_at <= p < every_end and (
                    seg_of[p] == seg_of[every_at] or abs(p - every_at) <= 3) for p, s in cues) or
                any(i > every_at for i in exceptions))) or \
                only_complement(clause, cues, mentions, conditional) or \
                roam_everywhere(clause, restricted) or nothing_forbidden(clause):
            allowed |= set(conditional)
        confined = restricted_to(clause, mentions, {p for p, _ in cues})
        signed = _signed_mentions(clause, mentions, conditional, cues, postposed, segments,
                                  seg_of, reply=reply, confined=confined)
        for _pos, _end, cls, sign, _own in _share_postposed(clause, cues, postposed, signed):
            if cls not in conditional:
                continue
            if sign > 0:
                allowed.add(cls)
            elif sign < 0:
                denied.add(cls)
        previous_allowed = allowed - before
    return frozenset(allowed - denied)


def _signed_mentions(clause: list[str], mentions: list[tuple[int, int, int]],
                     conditional: frozenset[int], cues: list[tuple[int, int]],
                     postposed: frozenset[int], segments: list[int], seg_of: list[int], *,
                     reply: int,
                     confined: set[int]) -> list[tuple[int, int, int, int, bool]]:
    """Each mention of a clause with the sign the clause gives it: (pos, end, cls, sign, own
    cue). Rules in order, the first that applies decides (see the comments)."""
    ellipsis_segs = {seg_of[i] for w in ELLIPSIS for i in find(clause, w)}
    previous: tuple[int, int] | None = None  # (end, sign) of the last mention
    last_mention_sign = 0
    signed: list[tuple[int, int, int, int, bool]] = []  # (pos, end, cls, sign, own cue)
    for pos, end, cls in mentions:
        if cls not in conditional:
            previous = None
            signed.append((pos, end, cls, 0, False))
            continue
        # 1) a cue in the mention's own comma segment: the one before it, else after it;
        # 2) "over / through / across / cross X"; 3) a list shares the sign of its first
        # item ("over grassland, farmland and bare ground"); 4) the nearest cue in the clause
        same = [(p, s) for p, s in cues if seg_of[p] == seg_of[pos]]
        window = [t for k, t in enumerate(clause[max(0, pos - 3):pos], max(0, pos - 3))
                  if seg_of[k] == seg_of[pos]]
        key_value = key_value_sign(clause, cues, mentions, seg_of, pos, segments)
        if reply:
            sign = reply
        elif pos in confined:
            sign = 1
        elif key_value:
            sign = key_value
        elif _landmark(clause, pos, end) or _only_at_endpoint(
                [t for k, t in enumerate(clause) if seg_of[k] == seg_of[pos]]):
            # "the forest on the left", "the wood next to the garden", "rangeland may
            # only be entered at the destination"
            sign = 0
        elif same:
            sign = governing(same, pos, postposed)
        elif heading_sign(clause, cues, mentions, pos):
            # "Not permitted: crossing any further cropland"
            sign = heading_sign(clause, cues, mentions, pos)
        elif seg_of[pos] in ellipsis_segs and seg_of[pos] > 0 and (
                last_mention_sign or any(p < pos for p, _ in cues)):
            # "gravel and dirt fine, grassland too": the segment repeats the one before
            sign = last_mention_sign or [s for p, s in cues if p < pos][-1]
        elif end - pos == 1 and singular_word(clause[pos]) in SETTING_WORDS:
            sign = 0  # "a route through the park" says where, not what is permitted
        elif ROUTE_PREPOSITIONS & set(window) or motion_onto_pronoun(clause, end) or \
                motion_on(window):
            sign = 1
        elif previous is not None and previous[1] != 0 and \
                set(clause[previous[0]:pos]) <= LIST_GLUE | LAND_NOUNS:
            sign = previous[1]
        elif cues:
            sign = governing(cues, pos, postposed)
        else:
            sign = 0
        previous = (end, sign)
        last_mention_sign = sign or last_mention_sign
        own = bool(reply or pos in confined or key_value or any(p < pos for p, _ in same))
        signed.append((pos, end, cls, sign, own))
    return signed


#: Self-corrections: what follows replaces what came before ("fastest... actually no, safest").
CORRECTION_MARKERS = phrases("correction_markers")
#: Retractions of the previous statement ("could cut across the sand? nah, forget that").
_RETRACTIONS = phrases("retractions")
#: Words of a route's start or end: a bare "not" beside them corrects a place.
_ENDPOINT_WORDS = words("endpoint_words")
#: Objective words that name a burden: negated they still ask for the objective ("no
#: bumps", "not too strenuous").
BURDENS = words("burdens")
_AUXILIARIES = words("auxiliaries")
_MOTION_OR_JOURNEY = MOTION_VERBS | JOURNEY_NOUNS
_BEFORE_LANDMARK = phrases("before_landmark")
_SIDES = words("sides")


def _only_at_endpoint(segment: list[str]) -> bool:
    return "only" in segment and bool(set(segment) & (_ENDPOINT_WORDS | {"end", "goal"}))


def _landmark(clause: list[str], pos: int, end: int) -> bool:
    """A mention that only says where something is: after a locative preposition ("the wood
    next to the garden"), before a side ("pass the forest on the left"), or the destination of
    a motion ("flight across the vineyard to the house")."""
    start = pos - 1 if pos and clause[pos - 1] in ("the", "a", "an", "some") else pos
    if start >= 2 and clause[start - 1] in ("to", "towards", "toward") and (
            clause[start - 2] in _MOTION_OR_JOURNEY or clause[start - 2].endswith("land")
            or any(t in ROUTE_PREPOSITIONS for t in clause[max(0, start - 6):start - 1])):
        return True
    for phrase in _BEFORE_LANDMARK:
        n = len(phrase.split())
        if start >= n and clause[start - n:start] == phrase.split():
            return True
    tail = clause[end:end + 4]
    return len(tail) >= 3 and tail[0] in ("on", "to") and (
        tail[1] in _SIDES or (tail[1] in ("the", "your", "our", "its") and tail[2] in _SIDES))


def _share_postposed(clause: list[str], cues: list[tuple[int, int]], postposed: frozenset[int],
                     signed: list[tuple[int, int, int, int, bool]]
                     ) -> list[tuple[int, int, int, int, bool]]:
    """A predicate after a list is said of the whole list ("dirt, scrub, forest and crops are
    all fair game"): items without a cue of their own before them take its sign."""
    out = list(signed)
    k = 0
    while k < len(out):
        j = k
        while j + 1 < len(out) and \
                set(clause[out[j][1]:out[j + 1][0]]) <= LIST_GLUE | LAND_NOUNS:
            j += 1
        last_end = out[j][1]
        # a list ends in a conjunction ("dirt, scrub and crops"); "the park, the woods are
        # okay" is two statements
        between = set(clause[out[j - 1][1]:out[j][0]]) if j > k else set()
        if "," in between and not {"and", "or"} & between:
            k = j
            continue
        first = out[k][0]
        # "no A, B or C may be crossed", "no off-road terrain such as A, B or C may be used"
        head = clause[max(0, first - 7):first]
        negated = bool(first) and (clause[first - 1] in ("no", "neither", "not", "nor") or (
            bool(set(head) & {"no", "neither"}) and
            bool(set(clause[max(0, first - 3):first]) & {"as", "like", "including"})))
        verdict = next((-s if negated else s for p, s in cues if p in postposed and p >= last_end and
                        set(clause[last_end:p]) <= COPULA | LAND_NOUNS | {"all", "both"}), 0)
        if verdict and j > k:
            for m in range(k, j + 1):
                pos, end, cls, sign, own = out[m]
                if not own:
                    out[m] = (pos, end, cls, verdict, own)
        k = j + 1
    return out


