"""Reference frames: the many ways people pick one thing or room, put onto the few forms the
later rewrites and the reference parser read.

People single a thing out by comparison ("the bed that's nearer the door", "the chair most
near to the window"), by a partitive ("out of the two fridges, ...", "the one of the two beds
that ...", "the bed, the one out of the two that ..."), by a negated relative ("the plant,
not the one by the window", "the bedroom that hasn't got a desk"), by the posture of a thing
("the racket leaning against the wall", "the bin tucked under the desk"), by a possessive
room ("the kitchen's fridge") and by correcting themselves ("no wait, the other one", "not
the big one, the small one"). Each is a frame with open word classes (the lexicons below), not
a sentence: a rule matches a frame, whatever fills its slots. Every word a rule takes out is
either said again in the form the parser reads (a rank, a relation, a negation, a head) or
recorded as context ("of the two": the size of the set the pick is made from), never dropped.

Runs as its own pass before the other phrase rules of :mod:`.human`; the rules that refer back
to the goal phrase (exclusions, appositions, corrections) are in :mod:`.reference_picks`.
"""

from __future__ import annotations

from map2route.language.inflection import singular_word
from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.reference_picks import (
    DETS,
    ENDS,
    after_head,
    apposed_one,
    cancel_then_goal,
    contrast,
    correction_one,
    dash_no,
    dash_sorry,
    goal_head,
    named_after,
    note,
    or_actually,
    sentence_start,
    take_back,
)
from map2route.language.parser.rewrites import Marks, Rewriter, Rule
from map2route.language.tokens import Token

_RELATIVE = ("that", "which", "who", "thats", "whichs")
_COPULA = ("is", "are", "'s", "s")

# --- lexicons -----------------------------------------------------------------------------
#: Comparison words the reference parser reads as a ranking ("the chair nearer the window").
_RANKS = ("nearer", "closer", "farther", "further", "nearest", "closest", "farthest",
          "furthest")
#: "more/most" + a plain degree word (non-native and spoken English): the inflected form.
_DEGREE = {("more", "near"): "nearer", ("more", "close"): "closer", ("more", "far"): "farther",
           ("most", "near"): "nearest", ("most", "close"): "closest",
           ("most", "far"): "farthest", ("more", "nearer"): "nearer",
           ("more", "closer"): "closer", ("most", "nearest"): "nearest",
           ("most", "closest"): "closest", ("least", "far"): "nearest",
           ("least", "near"): "farthest", ("least", "close"): "farthest",
           # "the most big bedroom", "the more small one": a size said the analytic way
           **{(d, a): f for a, (c, f) in {"big": ("bigger", "biggest"),
                                           "large": ("larger", "largest"),
                                           "small": ("smaller", "smallest"),
                                           "little": ("smaller", "smallest"),
                                           "tall": ("taller", "tallest"),
                                           "long": ("longer", "longest"),
                                           "short": ("shorter", "shortest")}.items()
              for d, f in (("more", c), ("most", f))}}
_FAR = ("farther", "further", "farthest", "furthest")
#: Typing slips of the ranking words; "closet" is a word of its own (a dresser), so each is
#: only read as the rank right after a head and before "to" / "from".
_RANK_TYPOS = {"closet": "closest", "nearst": "nearest", "neares": "nearest",
               "closests": "closest", "farest": "farthest", "furtherst": "furthest",
               "furthes": "furthest", "clostest": "closest", "colsest": "closest"}
#: Participles that say how a thing stands where it is; the place is in the preposition after
#: them ("leaning against the wall": next to the wall), so the participle only tells posture.
_POSTURES = frozenset((
    "propped", "sitting", "sat", "standing", "stood", "leaning", "leant", "leaned", "pushed",
    "placed", "lying", "laying", "laid", "resting", "rested", "tucked", "stacked", "piled",
    "set", "positioned", "stored", "kept", "parked", "located", "situated", "hanging", "hung",
    "mounted", "perched", "lined", "put", "shoved", "wedged", "jammed", "nestled", "sitted",
    "arranged", "installed", "left", "lying", "stashed", "squeezed", "slid", "slotted"))
#: Particles and adverbs between a posture participle and its preposition.
_POSTURE_FILL = ("up", "back", "right", "just", "over", "down", "in", "flat", "tight",
                 "neatly", "directly", "snugly", "away", "close")
#: Prepositions after a posture participle, as the reference parser reads them.
_POSTURE_PREPS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("on", "top", "of"), ("on",)), (("next", "to"), ("next", "to")),
    (("close", "to"), ("near",)), (("up", "to"), ("next", "to")),
    (("against",), ("next", "to")), (("beside",), ("beside",)), (("by",), ("by",)),
    (("near",), ("near",)), (("under",), ("under",)), (("underneath",), ("under",)),
    (("beneath",), ("under",)), (("below",), ("under",)), (("on",), ("on",)),
    (("onto",), ("on",)), (("upon",), ("on",)), (("in",), ("in",)), (("inside",), ("in",)),
    (("at",), ("at",)), (("along",), ("next", "to")), (("alongside",), ("next", "to")))
#: Words that open the object of a posture's preposition.
_OBJECT_LEADS = (*DETS, "it", "them", "its", "his", "her", "their", "my", "your")
#: Relations a negated relative may name ("that isn't by the window"), as
#: :func:`.rewrites.not_relation` reads them after "that is not".
_NEG_PREPS = (("next", "to"), ("close", "to"), ("under",), ("beneath",), ("beside",), ("on",),
              ("near",), ("by",))
#: Words that open a partitive frame at a sentence start ("Out of the two fridges, ...").
_FRAME_LEADS = (("out", "of"), ("from", "among"), ("from",), ("of",), ("among",),
                ("amongst",))
#: Verbs of choosing; after a partitive frame the pick is where to go.
_CHOOSE = ("pick", "choose", "select", "take")


# --- spelling -------------------------------------------------------------------------------
#: Contractions typed without their apostrophe, as the tokenizer splits the apostrophe ones
#: ("doesnt" -> "does not"). Not "its", "cant", "wont" alone: words of their own.
_BARE_CONTRACTIONS = {
    "thats": ("that", "is"), "doesnt": ("does", "not"), "dont": ("do", "not"),
    "isnt": ("is", "not"), "arent": ("are", "not"), "hasnt": ("has", "not"),
    "havent": ("have", "not"), "wasnt": ("was", "not"), "werent": ("were", "not"),
    "didnt": ("did", "not"), "whats": ("what", "is"), "theres": ("there", "is"),
    "shouldnt": ("should", "not"), "wouldnt": ("would", "not"), "couldnt": ("could", "not")}


def bare_contraction(rw: Rewriter, i: int) -> int | None:
    """"the bedroom that doesnt have a tv" -> "that does not have a tv"."""
    said = _BARE_CONTRACTIONS.get(rw.w(i))
    if said is None:
        return None
    rw.emit(*said, like=rw.toks[i])
    return i + 1


# --- comparison ---------------------------------------------------------------------------
def degree(rw: Rewriter, i: int) -> int | None:
    """"most near to the window" -> "nearest to the window"; "closest from" -> "closest to"
    (the superlative of nearness takes "to")."""
    if rw.w(i) in _RANKS and rw.w(i + 1) in ("off", "out") and rw.w(i + 2) in ("from", "to"):
        rw.out.append(rw.toks[i])  # "furthest off from the door": "off" only says distance
        return i + 2
    typo = _RANK_TYPOS.get(rw.w(i))
    if typo is not None and rw.w(i + 1) in ("to", "from") and after_head(rw, i):
        rw.emit(typo, like=rw.toks[i])  # "the chair closet to the window"
        return i + 1
    word = _DEGREE.get((rw.w(i), rw.w(i + 1)))
    if word is None:
        return None
    rw.emit(word, like=rw.toks[i])
    nxt = i + 2
    if word not in _FAR and rw.w(nxt) == "from":
        rw.emit("to", like=rw.toks[nxt])
        nxt += 1
    return nxt


def copular_rank(rw: Rewriter, i: int) -> int | None:
    """"the bed that's nearer the door", "the plant which is the closest one to the sofa",
    "the stool that is more near the sink" -> "the bed nearer the door": a relative clause
    that only compares says the comparison (the relative words carry nothing more)."""
    if rw.w(i) not in _RELATIVE or not after_head(rw, i):
        return None
    k = i + 1 if rw.w(i) in ("thats", "whichs") else i + 2
    if rw.w(i) not in ("thats", "whichs") and rw.w(i + 1) not in _COPULA:
        return None
    k += 1 if rw.w(k) == "the" else 0
    ordinal = rw.w(k) in W.ORDINALS and rw.w(k + 1) in _RANKS
    rank = k + ordinal
    said = rw.w(rank)
    if (rw.w(rank), rw.w(rank + 1)) in _DEGREE:
        said = _DEGREE[(rw.w(rank), rw.w(rank + 1))]
        width = 2
    elif said in _RANKS:
        width = 1
    else:
        return None
    after = rank + width
    if rw.w(after) in ("one", "ones") and rw.w(after + 1) in ("to", "from", "away"):
        after += 1  # "the closest one to the sofa"
    if rw.w(after) not in ("to", "from", "away", "the", "a", "an", "you", "me") and \
            not rw.head_at(after):
        return None
    if ordinal:
        rw.out.append(rw.toks[k])
    rw.emit(said, like=rw.toks[rank])
    if said not in _FAR and rw.w(after) == "from":
        rw.emit("to", like=rw.toks[after])
        after += 1
    return after


#: Size words a copula may say of a thing ("the bedroom that's the biggest").
_SIZES = frozenset(W.LARGEST) | frozenset(W.SMALLEST) | frozenset(W.SIZE_ADJ) | \
    frozenset(w for w in W.COMPARATIVE if w not in _RANKS)


def copular_size(rw: Rewriter, i: int) -> int | None:
    """"the bedroom that's the biggest", "the bathroom which is smaller" -> "the biggest
    bedroom": a size said of the head by a copula is the size before it."""
    if rw.w(i) not in ("that", "which") or rw.w(i + 1) not in _COPULA:
        return None
    k = i + 2 + (1 if rw.w(i + 2) == "the" else 0)
    k += 1 if rw.w(k) in ("one", "ones") and rw.w(k - 1) in _SIZES else 0
    size = rw.w(k)
    if size not in _SIZES or rw.w(k + 1) not in ("", ",", *ENDS, "and", "then", "one"):
        return None
    end = k + 1 + (1 if rw.w(k + 1) == "one" else 0)
    texts = [t.text for t in rw.out]
    lex = head_lexicon()
    n = next((n for n in range(1, lex.max_len + 1) if len(texts) >= n and
              (hit := lex.match(texts[-n:])) is not None and hit[0] == n), 0)
    if not n or len(texts) <= n or texts[-n - 1] not in ("the", "a", "an"):
        return None  # only right after "the HEAD": the size goes between them
    rw.out.insert(len(rw.out) - n, rw.new(size, rw.toks[k]))
    return end


#: Size words a thing is told by ("the little table"), kept with its head.
SIZE_WORDS = frozenset({"little", "small", "big", "large", "tall", "long", "short", "tiny",
                        "huge"})


def sized_head(rw: Rewriter, k: int) -> int:
    """Length of a head at ``k``, with one size word before it ("little table": 2); 0 if
    none."""
    if rw.w(k) in SIZE_WORDS and rw.head_at(k + 1):
        return 1 + rw.head_at(k + 1)
    return rw.head_at(k)


def where_it_is(rw: Rewriter, i: int) -> int | None:
    """"nearest to where the laptop is" -> "nearest to the laptop": the place of a thing is
    the thing's place; "the room where the TV is" -> "the room with the TV"."""
    if rw.w(i) != "where" or rw.w(i + 1) not in DETS:
        return None
    n = sized_head(rw, i + 2)  # "where the (big) bed is"
    end = i + 2 + n
    if not n or rw.w(end) not in ("is", "are", "sits", "stands", "was", "'s"):
        return None
    if rw.w(i - 1) in ("to", "from", "near", "by"):
        rw.out.extend(rw.toks[i + 1:end])
        return end + 1
    before = head_lexicon().match([rw.w(i - 1)])
    if before is None or before[2] != "room" or rw.w(i - 3) == "of":
        return None  # (not "the corner of the kitchen where ...": the where is the corner's)
    end += 1 if rw.w(end + 1) in ("located", "placed", "kept", "standing", "sitting") else 0
    # "the room where the TV is" -> "the room with the TV": a room holds what is in it
    rw.emit("with", like=rw.toks[i])
    rw.out.extend(rw.toks[i + 1:end])
    return end + 1


# --- relatives ----------------------------------------------------------------------------
#: Finite verbs of posture in a relative ("the plant that sits by the window").
_POSTURE_VERBS = frozenset(("sits", "sit", "stands", "stand", "lies", "lie", "rests", "rest",
                            "leans", "lean", "hangs", "hang", "stays", "stay", "remains",
                            "perches"))
#: Verbs of facing: read as "facing", the form the reference parser knows.
_FACING = ("faces", "face", "faced", "facing")


def posture(rw: Rewriter, i: int) -> int | None:
    """"the racket leaning against the wall", "the bin tucked under the desk", "the desk
    pushed up against the window" -> the relation the preposition names ("next to the
    wall", "under the desk"); also in a relative, finite or passive ("that sits by", "which
    was pushed against", "that's been left next to"), before a comparison ("which stands
    closest to the fridge": the comparison) and of facing ("which faces the TV")."""
    k = i
    if rw.w(k) in _RELATIVE and after_head(rw, k):
        k += 1 if rw.w(k) in ("thats", "whichs") else 2 if rw.w(k + 1) in (
            *_COPULA, "was", "were") else 1
        k += 1 if rw.w(k) == "been" else 0
    elif not after_head(rw, i) and rw.w(i - 1) not in ("it", "them"):
        return None
    if k > i and rw.w(k) in _FACING and (rw.w(k + 1) in DETS or rw.head_at(k + 1)):
        rw.emit("facing", like=rw.toks[k])
        return k + 1
    if rw.w(k) not in _POSTURES and not (k > i and rw.w(k) in _POSTURE_VERBS):
        return None
    j = k + 1
    if rw.w(j) in _RANKS or (rw.w(j), rw.w(j + 1)) in _DEGREE:
        return j  # "which stands closest to the fridge": the comparison says it
    while j < k + 4:
        for said, read in _POSTURE_PREPS:
            obj = j + len(said)
            if not rw.at(j, *said):
                continue
            if said == ("against",) and rw.w(obj) in ("it", "them"):
                return None  # "a bat leaning against it": on it (walk_phrasings.propped_on)
            if rw.w(obj) in _OBJECT_LEADS or rw.head_at(obj):
                rw.emit(*read, like=rw.toks[j])
                return obj
        if rw.w(j) not in _POSTURE_FILL:
            return None
        j += 1
    return None


#: Verbs of having after a bare "not" (non-native: "the bedroom which not have a TV").
_HAVE = ("have", "has", "contain", "contains", "hold", "holds", "include", "includes")


def negated_relative(rw: Rewriter, i: int) -> int | None:
    """"that isn't next to", "thats not by", "that is not the one by the window" -> "that is
    not by the window" (read and negated by :func:`.rewrites.not_relation`; "not against":
    "not next to"); "that hasn't got a desk", "that's not got", "which not have", "which has
    not TV" -> "that does not have a desk"; "that's got" -> "that has"."""
    if rw.w(i) not in _RELATIVE or not after_head(rw, i):
        return None
    if rw.w(i + 1) == "not" and rw.w(i + 2) in _HAVE:
        rw.emit("that", "does", "not", "have", like=rw.toks[i])
        return i + 3
    k = i + 1 if rw.w(i) in ("thats", "whichs") else i + 2
    if rw.w(i) not in ("thats", "whichs") and rw.w(i + 1) not in (*_COPULA, "has", "have"):
        return None
    if rw.w(k) == "got" and rw.w(k - 1) in _COPULA:
        rw.emit("that", "has", like=rw.toks[i])  # "the chair that's got a pillow on it"
        return k + 1
    if rw.w(k) == "not" and (rw.w(k - 1) in ("has", "have") or rw.w(k + 1) == "got") and (
            rw.w(k + 1) == "got" or rw.w(k + 1) in ("a", "an", "any")):
        # "that hasn't got a desk", "that hasn't a desk" (British), "that's not got"
        rw.emit(rw.w(i), "does", "not", "have", like=rw.toks[i])
        return k + 2 if rw.w(k + 1) == "got" else k + 1
    if rw.w(k) == "not" and rw.w(k - 1) in ("has", "have") and rw.head_at(k + 1):
        rw.emit("without", like=rw.toks[i])  # "which has not TV"
        return k + 1
    if rw.w(k - 1) in ("has", "have") or rw.w(k) != "not":
        return None
    j = k + 1
    if rw.at(j, "the", "one") or rw.at(j, "the", "ones"):
        j += 2
    against = 1 + (rw.w(j) == "up") if rw.at(j, "against") or rw.at(j, "up", "against") else 0
    if not against and not any(rw.at(j, *p) for p in _NEG_PREPS) and \
            not (j > k + 1 and rw.w(j) == "in"):
        return None  # ("that is not in the kitchen" is read by rewrites.not_in_room)
    if j == k + 1 and not against and rw.w(i) not in ("thats", "whichs") and \
            rw.w(i + 1) == "is":
        return None  # already the form the parser reads
    rw.emit("that", "is", "not", like=rw.toks[i])
    if against:
        rw.emit("next", "to", like=rw.toks[j])
    return j + against


#: What says that the goal head is not "the one ..." after it ("but not", "rather than").
_EXCLUDING = (("but", "not"), ("and", "not"), ("not",), ("rather", "than"), ("instead", "of"),
              ("as", "opposed", "to"))


def not_the_one(rw: Rewriter, i: int) -> int | None:
    """"the plant, not the one by the window" / "the plant but not the one by the window" /
    "the bin beside the desk rather than the one near the door" -> "the plant that is not
    by the window" ("not the one with a desk": "without a desk"; "not the one in the
    kitchen": "that is not in the kitchen"): an exclusion said after the head is a negated
    relation of that head."""
    k = i + (1 if rw.w(i) == "," else 0)
    n = next((len(p) for p in _EXCLUDING if rw.at(k, *p)), 0)
    if not n or not rw.at(k + n, "the", "one") or not after_head(rw, i):
        return None
    at = goal_head(rw)
    if at is None:
        return None
    j = k + n + 2
    if at[0] + at[1] != len(rw.out) and rw.w(k) == "not":
        return None  # "the chair by the desk, not the one by the bed": which head is meant
    end = next((x for x in range(j, len(rw.words)) if rw.w(x) in (",", *ENDS)), len(rw.words))
    if rw.at(end, ",", "the", "other"):
        return None  # "..., not the one with X, the other one": read by the moves stage
    if rw.w(j) == "with" and (rw.w(j + 1) in DETS or rw.head_at(j + 1)):
        word = ["without"]
    elif any(rw.at(j, *p) for p in _NEG_PREPS) or rw.at(j, "in", "the"):
        word = ["that", "is", "not"]
    else:
        return None
    if at[0] + at[1] != len(rw.out):
        # "the bin that's beside the desk rather than the one near the door": the head's own
        # description comes first; the exclusion joins it with "and"
        word = ["and", *word]
    rw.emit(*word, like=rw.toks[k])
    return j + (1 if word[-1] == "without" else 0)


def possessive_room(rw: Rewriter, i: int) -> int | None:
    """"the kitchen's fridge" -> "the fridge in the kitchen": a room owns what is in it; "the
    teddy bear's bedroom" -> "the bedroom with the teddy bear"."""
    if rw.w(i) not in ("the", "that", "this") or not rw.head_at(i + 1):
        return None
    n = rw.head_at(i + 1)
    hit = head_lexicon().match(rw.words[i + 1:i + 1 + n])
    if hit is not None and hit[2] in ("object", "group") and rw.w(i + 1 + n) == "'s":
        # "the teddy bear's bedroom" -> "the bedroom with the teddy bear": a room is the one
        # of the thing in it
        room = head_lexicon().match(rw.words[i + 2 + n:i + 5 + n])
        if room is not None and room[2] == "room":
            end = i + 2 + n + room[0]
            rw.emit("the", like=rw.toks[i])
            rw.out.extend(rw.toks[i + 2 + n:end])
            rw.emit("with", like=rw.toks[i + 1 + n])
            rw.out.extend(rw.toks[i:i + 1 + n])
            return end
    if hit is None or hit[2] != "room" or rw.w(i + 1 + n) != "'s":
        return None
    thing = i + 2 + n
    m = rw.head_at(thing)
    if not m:
        return None
    rw.emit("the", like=rw.toks[i])
    rw.out.extend(rw.toks[thing:thing + m])
    rw.emit("in", like=rw.toks[i + 1 + n])
    rw.out.extend(rw.toks[i:i + 1 + n])
    return thing + m


def across_from(rw: Rewriter, i: int) -> int | None:
    """"across from the sofa" -> "opposite the sofa"."""
    if rw.at(i, "across", "from") and (rw.w(i + 2) in DETS or rw.head_at(i + 2)):
        rw.emit("opposite", like=rw.toks[i])
        return i + 2
    return None


# --- partitives ---------------------------------------------------------------------------
def partitive_frame(rw: Rewriter, i: int) -> int | None:
    """"Out of the two fridges, go ...", "Of the two bathrooms go to ...", "From all the
    chairs, pick the one ..." -> "Of the two fridges, go ..." (read by
    :func:`.stage_rewrites.of_the_set`, which records the set as context); the comma that
    closes the frame is said when it was left out, and "pick the one" is where to go."""
    if not sentence_start(rw, i):
        return None
    lead = next((p for p in _FRAME_LEADS if rw.at(i, *p)), None)
    if lead is None:
        return None
    k = i + len(lead)
    body = k
    k += 1 if rw.w(k) in ("all", "both") else 0
    k += 1 if rw.w(k) in ("the", "those", "these", "of") else 0
    k += 1 if rw.w(k) in ("the", "those", "these") else 0
    k += 1 if rw.w(k) in W.NUMBERS or rw.w(k) == "both" else 0
    n = rw.head_at(k)
    hit = head_lexicon().match(rw.words[k:k + n]) if n else None
    counted = any(rw.w(x) in W.NUMBERS or rw.w(x) in ("both", "all") for x in range(body, k))
    if hit is None or not (hit[3] or counted):
        return None
    end = k + n
    if rw.w(end) == "in" and rw.w(end + 1) == "the" and rw.head_at(end + 2):
        end += 2 + rw.head_at(end + 2)
    verb = end + (1 if rw.w(end) == "," else 0)
    choose = rw.w(verb) in _CHOOSE and rw.w(verb + 1) == "the"
    if not (rw.w(verb) in W.OPENERS or choose):
        return None
    if lead == ("of",) and rw.w(end) == "," and not choose:
        return None  # already the form the later rules read
    if lead in (("of",), ("among",), ("amongst",)):
        rw.out.append(rw.toks[i])  # read as it is by of_the_set
    else:
        rw.emit("of", like=rw.toks[i])
    rw.out.extend(rw.toks[body:end])
    rw.emit(",", like=rw.toks[end - 1])
    if choose:
        rw.emit("go", "to", like=rw.toks[verb])
        return verb + 1
    return verb


def partitive_one(rw: Rewriter, i: int) -> int | None:
    """"the one out of the two that's closer", "the one of the two beds that ...", "one of
    the two beds that ...", "the bed, the one out of the two that ..." (the apposition already
    read as "the bed that is out of the two that ...") -> "the bed that ..." / "the one that
    ...": the size of the set ("of the two") is recorded as context, the pick keeps its head."""
    relative = rw.w(i) in ("that", "which") and rw.w(i + 1) == "is" and after_head(rw, i)
    k = i + 2 if relative else i + (1 if rw.w(i) == "the" else 0)
    if not relative and (rw.w(k) != "one" or
                         k == i and rw.w(i - 1) in ("the", "any", "which", "no")):
        return None
    j = k + (0 if relative else 1)
    if rw.at(j, "out", "of"):
        j += 2
    elif rw.w(j) == "of":
        j += 1
    else:
        return None
    if rw.w(j) not in ("the", "those", "these"):
        return None
    j += 1
    counted = rw.w(j) in W.NUMBERS or rw.w(j) == "both"
    j += counted
    n = rw.head_at(j)
    if not counted:
        return None  # "one of the beds" is a bed: read by the other rules
    if rw.w(j + n) not in ("that", "which", "who", "thats", ",", *_RANKS, "in", "by", "next",
                           "near", "with", "on", *ENDS):
        return None
    note(rw, k if relative else k + 1, j + n)
    if relative:
        return j + n + (1 if rw.w(j + n) == "," else 0)
    rw.emit("the", like=rw.toks[i])
    if n:
        head = rw.words[j:j + n]
        rw.emit(*head[:-1], singular_word(head[-1]), like=rw.toks[j + n - 1])
    else:
        rw.emit("one", like=rw.toks[k])
    return j + n


#: What may follow "the only one" in an apposition: its description.
_DESCRIBE = ("that", "which", "with", "without", "in", "on", "by", "near", "next", "beside",
             "under", "at", "closest", "nearest", "farthest", "furthest")


def rank_of_the(rw: Rewriter, i: int) -> int | None:
    """"the nearer of the two sinks", "the closest of the chairs", "the bigger of both
    bedrooms" -> "the nearer sink" (the set recorded as context); "the bigger of the two" is
    left to :func:`.rewrites.partitive`."""
    if rw.w(i) != "the" or rw.w(i + 1) not in _RANKS and rw.w(i + 1) not in _SIZES or \
            rw.w(i + 2) != "of":
        return None
    if rw.w(i + 3) == "both":
        k = i + 4
    elif rw.w(i + 3) == "the" and rw.w(i + 1) in _RANKS:
        k = i + 4 + (1 if rw.w(i + 4) in W.NUMBERS or rw.w(i + 4) == "both" else 0)
    else:
        return None  # "the bigger of the two bathrooms": rewrites.partitive
    n = rw.head_at(k)
    if not n:
        return None
    note(rw, i + 2, k + n)
    rw.out.extend(rw.toks[i:i + 2])
    head = rw.words[k:k + n]
    rw.emit(*head[:-1], singular_word(head[-1]), like=rw.toks[k + n - 1])
    return k + n


def without_anything(rw: Rewriter, i: int) -> int | None:
    """"the table without anything on it" -> "with nothing on it" (read by
    :func:`.rewrites.nothing_on_it`)."""
    if rw.w(i) == "without" and rw.w(i + 1) in ("anything", "any", "stuff") and \
            rw.w(i + 2 + (rw.w(i + 1) == "any")) in ("on", "in", "inside"):
        rw.emit("with", "nothing", like=rw.toks[i])
        return i + 2 + (1 if rw.w(i + 1) == "any" else 0)
    return None


def whichever_of(rw: Rewriter, i: int) -> int | None:
    """"whichever of the two sinks is closer" -> "whichever sink is closer"; the size of the
    set is recorded as context."""
    if rw.w(i) == "whichever" and rw.head_at(i + 1):
        return _whichever_bare(rw, i)
    owner = rw.at(i + 1, "of", "its")  # "whichever of its two windows": the room's own
    if rw.w(i) not in ("whichever", "which") or not (rw.at(i + 1, "of", "the") or owner):
        return None
    k = i + 3 + (1 if rw.w(i + 3) in W.NUMBERS or rw.w(i + 3) == "two" else 0)
    n = rw.head_at(k)
    if not n or rw.w(k + n) not in ("is", "are", "'s"):
        return None
    note(rw, i + 1, k + n)
    rw.out.append(rw.toks[i])
    head = rw.words[k:k + n]
    rw.emit(*head[:-1], singular_word(head[-1]), like=rw.toks[k + n - 1])
    if owner:
        rw.emit("in", "it", like=rw.toks[i + 2])
    return k + n


def _whichever_bare(rw: Rewriter, i: int) -> int | None:
    """"whichever bedroom is closer and ..." -> "the closer bedroom and ...": a comparison
    with nothing to compare to is from where the walker is (as "the closer bathroom")."""
    n = rw.head_at(i + 1)
    k = i + 1 + n
    if rw.w(k) not in ("is", "'s", "are"):
        return None
    r = k + 1 + (1 if rw.w(k + 1) == "the" else 0)
    if rw.w(r) not in _RANKS and rw.w(r) not in _SIZES or \
            rw.w(r + 1) not in ("", ",", *ENDS, "and", "then"):
        return None
    rw.emit("the", like=rw.toks[i])
    rw.out.append(rw.toks[r])
    rw.emit(*rw.words[i + 1:k], like=rw.toks[r])  # the phrase spans up to the comparison
    return r + 1


#: Words that single out one of a set by comparing ("the bigger bedroom of the two").
_PICKING = frozenset(_RANKS) | frozenset(W.SIZE_ADJ) | frozenset(W.COMPARATIVE) | W.RANK_WORDS


def of_the_two_after(rw: Rewriter, i: int) -> int | None:
    """"the bigger bedroom of the two", "the bed closest to the door of the two" -> the pick
    without the set ("of the two" recorded as context): the comparison already picks."""
    if not rw.at(i, "of", "the") or not (rw.w(i + 2) in W.NUMBERS or rw.w(i + 2) == "both"):
        return None
    end = i + 3
    if rw.w(end) in ("one", "ones"):
        end += 1
    if rw.w(end) not in ("", ",", *ENDS, "and", "then"):
        return None
    texts = [t.text for t in rw.out]
    start = len(texts)
    while start > 0 and texts[start - 1] not in (*ENDS, ","):
        start -= 1
    if not any(w in _PICKING for w in texts[start:]) or not after_head(rw, i):
        return None
    note(rw, i, end)
    return end


def elliptic_pick(rw: Rewriter, i: int) -> int | None:
    """"Among the three bedrooms, go to the biggest." -> "... go to the biggest one": after a
    partitive frame a bare superlative picks from the set (:func:`.stage_rewrites.of_the_set`
    reads "one" as its head)."""
    if rw.w(i - 1) != "the" or rw.w(i) not in _PICKING or \
            rw.w(i + 1) not in ("", ",", *ENDS, "and", "then"):
        return None
    texts = [t.text for t in rw.out]
    start = len(texts)
    while start > 0 and texts[start - 1] not in ENDS:
        start -= 1
    lead = texts[start:start + 2]
    if lead[:1] not in (["of"], ["among"], ["amongst"], ["between"]) or "," not in texts[start:]:
        return None
    rw.out.append(rw.toks[i])
    rw.emit("one", like=rw.toks[i])
    return i + 1


def one_and_only(rw: Rewriter, i: int) -> int | None:
    """"the one and only sofa" -> "the only sofa"."""
    if rw.at(i, "one", "and", "only") and rw.w(i - 1) == "the" and rw.head_at(i + 3):
        rw.out.append(rw.toks[i + 2])
        return i + 3
    return None


def only_one(rw: Rewriter, i: int) -> int | None:
    """"the chair, the only one by the window" -> "the chair by the window" (as "the only
    chair" is "the chair": a unique pick; "the only one" is recorded as context)."""
    if rw.w(i - 1) != "," or not rw.at(i, "the", "only", "one") or \
            not (rw.w(i + 3) in _DESCRIBE or rw.w(i + 3) in _POSTURES):
        return None
    if not rw.out or rw.out[-1].text != "," or not after_head(rw, i - 1):
        return None
    rw.out.pop()
    note(rw, i, i + 3)
    if rw.w(i + 3) in _POSTURES:
        rw.emit("that", "is", like=rw.toks[i + 2])
    return i + 3


#: The rules of this pass, in the order they are tried (the first that fires wins).
RULES: tuple[Rule, ...] = (
    degree, negated_relative, copular_rank, copular_size, where_it_is, rank_of_the,
    without_anything, posture, not_the_one,
    possessive_room, across_from, partitive_frame, partitive_one, whichever_of,
    of_the_two_after, elliptic_pick, one_and_only, only_one, contrast,
    correction_one, cancel_then_goal, dash_sorry, dash_no, or_actually, take_back, apposed_one)


def reference_frames(toks: list[Token], marks: Marks
                     ) -> tuple[list[Token], list[tuple[str, tuple[int, int]]]]:
    """Run :data:`RULES` over ``toks`` (after :func:`named_after`); returns the tokens and
    the context the rules recorded."""
    toks, notes = named_after(toks)
    toks = Rewriter(toks, marks).run((bare_contraction,))
    rw = Rewriter(toks, marks)
    out = rw.run(RULES)
    return out, notes + rw.context
