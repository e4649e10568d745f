"""The word tables of :mod:`.moves` (the discourse-move grammar): which words open, lead,
soften or end a clause. Kept apart so the grammar module stays readable; nothing here decides
a move by itself."""

from __future__ import annotations

from map2route.language import lexicon
from map2route.language.parser import words as W
from map2route.language.vocabulary import ABSENT_PLACES, ABSENT_THINGS

#: The moves a clause can make.
MOVES = ("request", "statement", "mention", "chatter", "caution", "hedge", "elaboration",
         "apposition", "correction", "dwell", "frame", "scope", "lead")
#: Moves whose clause is taken out of the route and recorded as context.
CONTEXT_MOVES = frozenset({"statement", "chatter", "elaboration", "dwell"})

_ENDS = (".", "!", "?", ";")
#: Words that open a clause without adding to it (politeness, chatter, conjunctions).
_LEADS = frozenset(W.FILLER_WORDS | {"so", "and", "but", "oh", "well", "just", "then", "now",
                                     "also", "yes", "alright", "anyway", "okay", "ok"})
#: Two-word leads ("you know", "I guess").
_LEAD_PAIRS = (("you", "know"), ("i", "guess"), ("i", "think"), ("i", "suppose"),
               ("i", "believe"), ("mind", "you"))
#: Openers of a scope or condition, or words that change a meaning: never an aside.
_SCOPES = frozenset({"when", "while", "once", "until", "till", "til", "as", "if", "before",
                     "after", "unless", "whenever", "on", "in", "inside", "within", "during", "otherwise", "else",
                     "except", "from", "without", "first", "second", "third", "last",
                     "lastly", "finally", "next", "instead", "not", "no", "never", "only",
                     "either", "neither", "both", "each", "every", "all", "of", "for"})
#: Words that make a clause part of the route even without a head.
_ROUTE_WORDS = frozenset(W.MOVE_VERBS | W.SHAPE_VERBS | {
    "here", "back", "home", "start", "started", "around", "round", "through", "past", "via",
    "straight", "forward", "away", "inside", "outside", "into", "upstairs", "downstairs",
    "clockwise", "counterclockwise", "avoid", "stay", "keep", "near", "close", "far",
    "between", "towards", "toward", "along", "across", "corner", "centre", "center", "middle",
    "halfway", "midway", "stop", "wait", "never"})
#: Verbs that carry no route of their own ("could you *do* a round for me", "*be* quick").
_LIGHT_VERBS = frozenset({"do", "be", "help", "hurry"})
#: Things and places no map has ("the piano", "the garage"): a clause naming one is route
#: content to refuse by name, never chatter ("Do these in order: the piano, then ...").
_ABSENT = frozenset(w for w in ABSENT_THINGS | ABSENT_PLACES if " " not in w)
#: Words after which a route word is a noun ("a little round").
_NOUN_LEADS = frozenset({"a", "an", "little", "quick", "short", "small", "nice"})
_VERBS = W.OPENERS | _ROUTE_WORDS
#: Subjects of a statement.
_PRONOUNS = frozenset({"it", "that", "this", "they", "he", "she", "there", "these", "those",
                       "we", "i"})
#: Pronouns that stand for the thing named before ("it's big": which one).
_REFERENTS = frozenset({"it", "that", "this", "they", "these", "those"})
_OWNERS = frozenset({"its", "their", "his", "her", "my", "our", "your"})
#: Owners whose thing is a part of one named before ("its door"), not a new landmark.
_PARTS = frozenset({"its", "their"})
#: Finite verbs a statement's subject takes (any other verb in ``-s`` counts too).
_FINITE = frozenset({"is", "are", "was", "were", "will", "would", "has", "have", "had", "does",
                     "did", "can", "could", "should", "might", "must", "may", "left", "lost",
                     "put", "dropped", "forgot", "saw", "found", "think", "guess"})
#: Verbs of a noun-phrase subject ("the garbage can *is* right next to the toilet").
_SUBJECT_VERBS = frozenset({"is", "'s", "are", "was", "were", "has", "have", "looks", "seems",
                            "sticks", "tips", "sits", "stands", "lies", "wobbles", "falls",
                            "blocks", "gets", "tends"})
#: Requests that open with the speaker or a modal ("can you", "I need you", "let's").
_ASKS = (("can", "you"), ("could", "you"), ("would", "you"), ("will", "you"), ("please",),
         ("i", "need", "you", "to"), ("i", "want", "you", "to"), ("let", "us"))
#: A statement about the walker that asks nothing ("you'll see it", "you're done").
_YOU_STATES = frozenset({"see", "done", "notice", "miss", "fine", "good", "finished", "set"})
#: Cautions: a warning about a thing is a request to keep clear of it.
_CAUTIONS = (("be", "careful", "with"), ("be", "careful", "around"), ("be", "careful", "near"),
             ("be", "careful", "of"), ("careful", "with"), ("careful", "around"),
             ("careful", "near"), ("careful", "of"), ("watch", "out", "for"),
             ("look", "out", "for"), ("beware", "of"), ("be", "wary", "of"), ("wary", "of"),
             ("mind",))
#: What "mind" warns about when it is a caution ("Mind the basketball"), not "mind you, ..."
MIND_OBJECTS = frozenset({"the", "that", "those", "these", "this", "my", "our", "his", "her",
                          "their", "all"})
#: Softeners of a request ("try not to", "try to").
_HEDGES = (("try", "not", "to"), ("try", "to"), ("do", "try", "to"), ("try", "and"))
#: Objects of "give it some room": keeping clear said as giving space.
_SPACE = frozenset({"room", "space", "berth", "distance", "clearance"})
#: Words that make a clause a negative constraint ("don't", "keep away", "careful").
_NEGATIVE = frozenset({"not", "never", "avoid", "away", "clear", "careful", "beware", "far"})
#: Words that open a description after "the one" ("with a plant", "that is", "on the wall").
_PREP_OPEN = frozenset({"with", "in", "on", "by", "near", "next", "beside", "under", "at",
                        "that", "which", "behind", "inside", "against", "closest", "nearest",
                        "farthest", "furthest", "to", "from", "right", "just", "without"})
#: Prepositions that place a head ("in the bedroom with the arm chair").
_PLACE_PREPS = frozenset({"in", "on", "by", "near", "beside", "under", "inside", "behind",
                          "next"})
#: Staying at the place just reached ("and wait there", "stay there for me").
_DWELL = frozenset({"wait", "stay", "remain", "stop", "stand", "hang", "park"})
_DWELL_TAIL = frozenset({"there", "here", "for", "me", "us", "a", "bit", "moment", "second",
                         "minute", "while", "then", "please", "around", "out"})
#: Nouns that give a thing a role in the route ("your final destination is ...").
_ROLE_NOUNS = frozenset({"stop", "stops", "destination", "destinations", "goal", "target",
                         "end", "finish", "final", "route", "path"})
#: Words that refer back to the clause before ("give *it* some room").
_BACK = frozenset({"it", "them", "that", "this", "one", "there"})
_IDIOMS = lexicon.words("instructions", "coverage_idiom_heads")
#: Words that say which thing or where ("it's big", "it's the second one", "it's by the
#: window"): a statement with one of them describes, it is not an aside.
_DESCRIBING = frozenset(W.SIZE_ADJ) | frozenset(W.COMPARATIVE) | W.RANK_WORDS | \
    (frozenset(W.NUMBERS) - {"a", "an", "one"}) | frozenset(W.ORDINALS) | \
    frozenset({"in", "on", "at", "by", "near", "next", "beside", "behind", "under", "inside",
               "between", "left", "right", "corner", "where", "which"})
