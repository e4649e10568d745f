"""Stage 0, first of all: the talk people put around a request, read by construction.

People who never read the parser say more than the route. They head a request with a title
("Ticket 7: ...", "Morning run, ...", "Position check.", "First one's easy."), say how long to
wait once there ("wait there till I buzz you", "for a min", "til 6 when I'm home", "Give it
ten seconds or so, then ...", "out of the way while I cook"), close it ("That's the only
stop", "take your time, there's no hurry"), give reasons and asides about their own day and
other people ("kid says the tap's dripping again so ...", "plumber's coming at 4 and i want
him to see where it is", "pretty sure my phone's somewhere near it", "yes I know you can't
open it, shut up") and go or wait in everyday idioms ("off you pop to", "go hang out by",
"tuck yourself into", "park urself by", "stay put there", "go and fetch, well, go to").

Each is a construction over word classes, read by position (where a clause opens, what its
subject is), never one rule per sentence:

* a *header* is a title at a sentence's start: modifiers, a header noun (``ticket``,
  ``round``, ``check``, ...), a label ("7", "item 4") and politeness, ended by a colon, a
  full stop or a comma; it names no map thing;
* a *wait* is a duration or an "until" clause whose subject is not the walker, said in a
  sentence with a verb of staying; also "give it N seconds" and "out of the way (while ...)";
* a *talk* clause opens with the speaker ("I", "pretty sure", "think", "need to know",
  "yes I know") or another person or animal ("kid says", "plumber's coming", "the baby's
  asleep") and holds no request to the walker; it runs to the clause end, or up to a
  "so" + request ("so don't go in there at all"), which stays a route rule (a "there" in it
  is the room the talk named);
* a *go idiom* is rewritten onto the verb the later stages read ("go to", "wait").

Whatever is taken out is returned as context with its character span, so the map things it
names are still reported (never a stage, never a constraint) and things no map has stay in
the context by name. Nothing with a negation, a keep-away verb or a request to the walker in
it is taken out. Left to the later stages, which already read them: talk that names a map
thing the route has not named, said as a sentence of its own or before any request ("The
cat is asleep on the bed.": a mention, or a refusal naming the cat), the speaker's own
place ("I'm in the kitchen"), and a clause that names nothing at all
(:mod:`.aside_clauses` quotes it as said when it is all that stops a parse). Hand-written for the same reason as the rest of the parser: the tests are
closed word classes, each checked in ``test/language/test_talk_around.py``.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.aside_clauses import is_aside
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.motion_frames import MOTION_VERBS
from map2route.language.parser.motion_targets import _UNTIL_ME as _NOTED
from map2route.language.tokens import Token

__all__ = ["talk_around"]

Context = list[tuple[str, tuple[int, int]]]

_ENDS = frozenset({".", "!", "?"})
_CUTS = _ENDS | {",", ";", ":", "(", ")"}
#: Words that open a clause without adding to it.
_LEADS = frozenset(W.FILLER_WORDS | {"oh", "and", "but", "so", "cos", "coz", "because", "as",
                                     "also", "anyway", "like", "yeah", "yes", "ok", "okay",
                                     "lol", "haha", "well", "just", "plus"})
_NEGATORS = frozenset({"not", "n't", "never", "no", "dont", "don't", "nothing", "without"})
#: Requests to the walker: a clause with one is never talk.
_REQUEST = frozenset(W.MOVE_VERBS | {v[0] for v in MOTION_VERBS} | {"avoid", "keep", "stay", "steer", "stick", "hug", "go",
                                     "stop", "wait", "park", "head", "come", "give", "mind",
                                     "make", "take", "visit", "pass", "swing", "remain"})

# --- headers -------------------------------------------------------------------------------
_HEADER_NOUNS = frozenset({
    "ticket", "task", "job", "item", "run", "round", "check", "list", "sheet", "errand",
    "errands", "mission", "request", "one", "trip", "tour", "chore", "chores", "assignment",
    "order", "orders", "plan", "shift", "patrol", "drill", "test", "exercise", "challenge",
    "quest", "note", "memo", "update", "entry", "case", "number", "step"})
_HEADER_MODS = frozenset({
    "morning", "evening", "afternoon", "night", "daily", "little", "quick", "easy", "last",
    "first", "next", "final", "another", "new", "numbered", "position", "location", "simple",
    "small", "short", "tiny", "big", "main", "today's", "todays", "one", "more", "the", "a",
    "an", "your", "my", "this", "job", "routine", "spot", "sanity", "quick-fire", "bonus"})
_HEADER_TAILS = frozenset({"for", "me", "you", "us", "today", "now", "tonight", "please",
                           "pls", "promise", "then", "then,", "ok", "okay", "thanks"})
_EASY = frozenset({"easy", "simple", "quick", "short", "a", "doddle", "breeze", "piece",
                   "of", "cake", "an", "one"})


def _is_label(w: str) -> bool:
    return w.isdigit() or w in W.NUMBERS or w in W.ORDINALS or (len(w) == 1 and w.isalpha()) \
        or w.startswith("#")


def _header_end(words: list[str], k: int) -> int | None:
    """The index of the mark that ends a header opening at ``k``, if one does."""
    lex = head_lexicon()
    n = k
    noun = False
    while n < len(words):
        w = words[n]
        if w in (":", ".", "!") or w == "," and noun:
            break
        if lex.match(words[n:n + lex.max_len]) and w not in _HEADER_NOUNS:
            return None  # "Fridge check.": a terse request, not a title
        if w in _HEADER_NOUNS:
            noun = True
        elif noun and (_is_label(w) or w in _HEADER_TAILS or w == ","):
            pass
        elif noun and w in ("is", "'s") and all(
                x in _EASY for x in words[n + 1:_clause_end(words, n + 1, commas=False)]):
            n += 1  # "First one's easy."
            while n < len(words) and words[n] not in _ENDS:
                n += 1
            break
        elif noun and w in ("cos", "because", "since", "as"):
            # "numbered list cos apparently you like those:": a reason up to the colon
            m = n
            while m < len(words) and words[m] != ":":
                if words[m] in _REQUEST or words[m] in _NEGATORS or words[m] in _ENDS or \
                        lex.match(words[m:m + lex.max_len]):
                    return None
                m += 1
            n = m
            break
        elif not noun and (w in _HEADER_MODS or w.isalpha() and w not in _REQUEST and
                           w not in _NEGATORS and n - k < 2):
            pass
        else:
            return None
        n += 1
    if not noun or n >= len(words) or n - k > 8:
        return None
    return n


# --- waiting -------------------------------------------------------------------------------
_DWELL = frozenset({"wait", "stay", "remain", "hang", "sit", "stand", "park", "chill", "there",
                    "here", "quiet", "still", "tight", "put", "stop", "tuck", "parked"})
_UNITS = frozenset({"min", "mins", "minute", "minutes", "sec", "secs", "second", "seconds",
                    "moment", "moments", "bit", "while", "hour", "hours", "tick", "jiffy",
                    "mo", "few"})
_COUNTS = frozenset({"a", "an", "one", "two", "three", "five", "ten", "fifteen", "twenty",
                     "thirty", "few", "couple", "of", "some", "little", "half", "good"})
_NOT_WALKER = frozenset({"i", "we", "someone", "somebody", "he", "she", "they", "my", "our",
                         "the", "mum", "mom", "dad", "further", "later", "tomorrow", "noon",
                         "lunch", "lunchtime", "dinner", "tea", "bedtime", "then", "everyone",
                         "it"})
_TIMES = frozenset({"noon", "midday", "lunch", "lunchtime", "teatime", "dinner", "six",
                    "five", "four", "three", "two", "seven", "eight", "nine", "ten"})
_UNTIL = frozenset({"until", "till", "til", "'til"})


def _duration(words: list[str], k: int) -> int:
    """Length of a duration at ``k`` ("for a min", "for ten minutes or so", "for now")."""
    if words[k:k + 2] == ["for", "now"]:
        return 2
    if words[k:k + 1] != ["for"]:
        return 0
    n = k + 1
    while n < len(words) and (words[n] in _COUNTS or words[n].isdigit()) and n - k < 5:
        n += 1
    if n == k + 1 or n >= len(words) or words[n] not in _UNITS:
        return 0
    n += 1
    for tail in (["or", "so"], ["or", "two"], ["or", "so", "then"], ["tops"], ["max"]):
        if words[n:n + len(tail)] == tail:
            n += len(tail)
            break
    return n - k


def _clause_end(words: list[str], k: int, commas: bool = True) -> int:
    cuts = _CUTS if commas else _ENDS | {";"}
    while k < len(words) and words[k] not in cuts:
        k += 1
    return k


def _dwell_before(words: list[str], k: int) -> bool:
    """Whether a verb of staying is said in the sentence before ``k``."""
    while k > 0 and words[k - 1] not in _ENDS:
        k -= 1
        if words[k] in _DWELL:
            return True
    return False


# --- talk ----------------------------------------------------------------------------------
_PEOPLE = frozenset({
    "kid", "kids", "mum", "mom", "mummy", "dad", "daddy", "grandad", "granddad", "grandpa",
    "grandma", "gran", "granny", "nan", "nana", "baby", "cat", "dog", "puppy", "kitten",
    "plumber", "electrician", "builder", "cleaner", "postman", "courier", "delivery", "guy",
    "guests", "visitors", "people", "neighbour", "neighbor", "neighbours", "boss", "husband",
    "wife", "son", "daughter", "brother", "sister", "partner", "flatmate", "roommate",
    "friend", "mate", "grandson", "granddaughter", "grandkids", "grandchildren", "nephew",
    "niece", "uncle", "aunt", "auntie", "he", "she", "someone", "somebody", "everyone",
    "nobody", "grocery", "groceries", "shopping", "parcel", "package", "takeaway", "doctor",
    "nurse", "carer", "landlord", "bloke", "lady", "man", "woman", "hubby", "missus", "toddler",
    "teenager", "sis", "bro", "kiddo", "cleaners", "movers", "engineer", "repairman"})
_SPEAKER_VERBS = frozenset({
    "am", "will", "would", "had", "have", "think", "know", "want", "need", "reckon", "guess",
    "bet", "swear", "hope", "just", "only", "can", "could", "left", "really", "literally",
    "was", "promise", "wanna", "gotta", "might", "must", "should", "forgot", "lost",
    "dropped", "put", "heard", "saw", "found", "believe", "suspect", "feel", "wonder",
    "bought", "spilled", "spilt", "broke", "dunno", "do", "did", "trust", "love",
    "hate", "like", "get", "got", "keep", "tried", "try", "told", "said", "shall", "may"})
_PERSON_VERBS = frozenset({
    "'s", "is", "are", "was", "were", "says", "said", "reckons", "swears", "thinks", "has",
    "have", "had", "coming", "comes", "due", "will", "wants", "needs", "keeps", "left",
    "put", "just", "always", "might", "may", "should", "could", "can", "been", "knocked",
    "moved", "hid", "hides", "hiding", "sleeps", "sleeping", "asleep", "napping", "having"})
_SURE = (("pretty", "sure"), ("fairly", "sure"), ("quite", "sure"), ("almost", "sure"),
         ("pretty", "certain"), ("i", "think"), ("think",), ("reckon",), ("guess",),
         ("need", "to", "know"), ("want", "to", "see"), ("want", "to", "know"),
         ("wanna", "see"), ("wanna", "know"), ("just", "want"), ("just", "need"),
         ("do", "not", "ask"), ("shut", "up"), ("you", "are", "in", "timeout"),
         ("you", "are", "grounded"), ("you", "will", "figure", "it", "out"),
         ("you", "will", "work", "it", "out"), ("that", "way", "you"),
         ("no", "rush"), ("no", "hurry"), ("there", "is", "no", "rush"),
         ("there", "is", "no", "hurry"), ("take", "your", "time"), ("in", "your", "own", "time"),
         ("whenever", "you", "are", "ready"), ("i", "am", "not", "going", "anywhere"),
         ("that", "is", "the", "only", "stop"), ("that", "is", "your", "only", "stop"),
         ("that", "is", "the", "last", "stop"), ("that", "is", "all", "i"),
         ("that", "is", "it"), ("don't", "ask"), ("dont", "ask"), ("you", "know", "why"),
         ("you", "can", "not"), ("you", "cannot"), ("you", "ca", "n't"))
#: Subjects other than the walker: a negation after one is said of them.
_SUBJECTS = frozenset({"i", "we", "he", "she", "they", "it", "am", "will"})
#: Hedges that end a clause ("the remote's on the floor next to it i reckon").
_HEDGES = (("i", "reckon"), ("i", "think"), ("i", "guess"), ("i", "suppose"),
           ("i", "believe"), ("i", "bet"), ("i", "expect"), ("i", "imagine"))
#: Verbs of being placed: "the remote's on it", "my phone should be somewhere near it".
_PLACED = frozenset({"'s", "is", "are", "was", "were", "should", "might", "must", "may",
                     "could", "will", "sits", "lives", "stays", "lies", "hangs"})
#: Clauses after which a "so" opens the request ("kid says ... so just park by the sink").
_SO = frozenset({"so"})


def _opener(words: list[str], k: int) -> int:
    """Length of a talk opener at ``k`` (0 when none)."""
    if words[k + 1:k + 2] in (["mean"], ["meant"]):
        return 0  # "I mean the sink": a correction, read by the discourse stage
    for p in _SURE:
        if tuple(words[k:k + len(p)]) == p:
            return len(p)
    if words[k:k + 1] in (["i"], ["we"]) and words[k + 1:k + 2] and \
            words[k + 1] in _SPEAKER_VERBS:
        return 2
    n = k + (words[k:k + 1] in (["the"], ["my"], ["our"], ["your"], ["his"], ["her"]))
    m = n
    while m < len(words) and words[m] in _PEOPLE and m - n < 3:
        m += 1
    if m > n and m < len(words) and words[m] in _PERSON_VERBS:
        return m + 1 - k
    if m > n and words[m:m + 1] in (["at"], ["around"], ["about"], ["by"]) and \
            words[m + 1:m + 2] and (words[m + 1][:1].isdigit() or words[m + 1] in _TIMES):
        return m + 2 - k  # "grocery delivery at 5ish"
    if words[k:k + 1] == ["if"] and "i" in words[k:_clause_end(words, k)]:
        return 1  # "if that thing goes over I'm literally dead"
    return 0


def _request_to_walker(words: list[str]) -> bool:
    """Whether a clause asks the walker for something ("I need you at X", "I want you to go",
    "don't go in there", "keep away from ...")."""
    for n, w in enumerate(words):
        if w in _NEGATORS and any(x in _REQUEST for x in words[n + 1:n + 4]) and \
                not any(x in _SUBJECTS for x in words[max(0, n - 2):n]):
            return True  # "don't go in there"; not "I'm not going anywhere"
        if w in ("you", "u") and n and words[n - 1] in ("want", "need", "like", "get") and \
                words[n + 1:n + 2] and words[n + 1] not in ("there", "here"):
            return True  # "I need you at the fridge"
        if w in ("you", "u") and any(x in _REQUEST for x in words[n + 1:n + 5]):
            return True  # "I'd rather you didn't go near the TV stand"
    return False


def _talk_span(words: list[str], k: int) -> tuple[int, int] | None:
    """The talk clause opening at ``k`` (after its leads) and where it ends, if it is one."""
    n = _opener(words, k)
    if not n:
        return None
    b = k + n
    while b < len(words) and words[b] not in _CUTS:
        if words[b] in _SO and b + 1 < len(words) and (
                words[b + 1] in _REQUEST or words[b + 1] in _NEGATORS or
                words[b + 1] in ("just", "please", "pls", "do")):
            break  # "... so don't go in there at all": the rule stays
        b += 1
    lex = head_lexicon()
    while b + 1 < len(words) and words[b] == "," and words[b + 1] in ("but", "and", "or",
                                                                     "though"):
        # "That way you're out from under my feet, but handy when I want you."
        e = _clause_end(words, b + 1)
        more = words[b + 1:e]
        if set(more) & (_REQUEST | _NEGATORS) or \
                any(lex.match(more[n:n + lex.max_len]) for n in range(len(more))):
            break
        b = e
    if _request_to_walker(words[k:b]):
        return None
    return k, b


def _placed(words: list[str], k: int) -> tuple[int, int] | None:
    """"go to the fridge, the remote's on it": a clause after a request that says where a
    thing lies (a pronoun for the place, or "it" for the stop) is context, never a stage."""
    before = words[:k]
    start = max((n for n, w in enumerate(before) if w in _ENDS), default=-1) + 1
    if words[k] in ("it", "its"):
        start = 0  # "go find the teddy bear. its on the bed": the stop said before
    if not any(w in _REQUEST for w in before[start:]):
        return None
    b = _clause_end(words, k)
    clause = words[k:b]
    if not clause or set(clause) & (_NEGATORS | {"you", "u", "then", "and"}):
        return None
    lex = head_lexicon()
    if clause[0] == "there" and clause[1:2] and clause[1] in _PLACED and \
            {"it", "them", "there"} & set(clause[2:]):
        return k, b  # "stop at the dresser, there should be a mug on it"
    if clause[:1] == ["its"]:
        clause = ["it", "is", *clause[1:]]
    if clause[0] == "it" and clause[1:2] in (["is"], ["'s"]) and clause[2:3] and \
            clause[2] in ("on", "by", "under", "behind", "next", "near", "beside",
                          "somewhere"):
        return k, b  # "go find the teddy bear, it's on the bed"
    n = 1 if clause[0] in ("the", "my", "our", "your", "a") else 0
    hit = lex.match(clause[n:n + lex.max_len])
    m = n + (hit[0] if hit else 0)
    if hit is None and clause[n:n + 1] and clause[n].isalpha() and \
            clause[n] not in _REQUEST and n:
        m = n + 1  # "my phone's ...": a thing no map has, by name
    if m == n or clause[m:m + 1] == [] or clause[m] not in _PLACED:
        return None
    if not {"it", "there", "them", "here"} & set(clause[m:]):
        return None
    if set(words[b:b + 4]) & {"actually", "sorry", "no", "wait", "mean", "scratch"}:
        return None  # "the remote's on it I think - actually no, go to the remote"
    return k, b


def _rule_room(toks: list[Token], a: int, b: int) -> list[Token]:
    """The room the talk ``toks[a:b]`` names last, from its article to the talk's end ("the
    bedroom with the desk"), for a "there" in the rule after it."""
    lex = head_lexicon()
    words = [t.text for t in toks]
    for k in range(b - 1, a - 1, -1):
        hit = lex.match(words[k:k + lex.max_len])
        if hit is not None and hit[2] == "room" and hit[1] != "room":
            s = k - (words[k - 1] in ("the", "a") and k - 1 >= a)
            return toks[s:b]
    return []


# --- go idioms -----------------------------------------------------------------------------
_OFF_VERBS = frozenset({"pop", "go", "trot", "toddle", "trundle", "hop", "run", "scoot", "nip",
                        "skip", "pootle", "scurry", "scamper", "totter", "jog", "get"})
_PARTS = frozenset({"over", "along", "across", "round", "around", "up", "down", "on", "off",
                    "back", "out", "it", "right", "straight", "in"})
_PREPS = frozenset({"to", "into", "by", "next", "beside", "near", "in", "behind", "under",
                    "against", "at", "up", "alongside", "opposite"})
_SELF = frozenset({"yourself", "urself", "yerself", "yaself", "ya", "itself", "you"})
_FETCH = frozenset({"fetch", "get", "grab", "bring", "collect", "pick"})
_HANG = frozenset({"out", "about", "around", "round"})
_GLAD = frozenset({"grateful", "obliged", "glad", "happy", "chuffed", "pleased", "thankful"})
_BESIDE = frozenset({"beside", "by", "near", "next", "to", "with", "close", "right"})
_QUIET = frozenset({"quiet", "still", "silent", "schtum", "shtum", "calm"})


def _idiom(words: list[str], k: int) -> tuple[int, list[str]] | None:
    """An everyday go/wait idiom at ``k``: how many words it spans and what it stands for."""
    w = words[k]
    nxt = words[k + 1:k + 6]
    if w == "off" and nxt[:1] in (["you"], ["u"]) and nxt[1:2] and nxt[1] in _OFF_VERBS:
        n = 3
        while k + n < len(words) and words[k + n] in _PARTS and n < 5:
            n += 1
        if words[k + n:k + n + 1] == ["to"]:
            return n + 1, ["go", "to"]
        return None
    if w == "run" and nxt[:2] == ["along", "to"]:
        return 3, ["go", "to"]
    if w == "take" and nxt[:2] == ["your", "time"] and nxt[2:3] and \
            nxt[2] in ("getting", "going", "heading", "walking", "coming") and nxt[3:4] == ["to"]:
        return 5, ["go", "to"]
    if w == "i" and nxt[:2] == ["would", "be"]:
        n = 3 + (words[k + 3:k + 4] in (["ever"], ["very"], ["so"], ["really"], ["most"]))
        n += words[k + n:k + n + 1] == ["so"]
        if words[k + n:k + n + 1] and words[k + n] in _GLAD and \
                words[k + n + 1:k + n + 3] == ["if", "you"]:
            modal = words[k + n + 3:k + n + 4] in (["could"], ["would"], ["can"])
            return (n + 4, ["could", "you"]) if modal else (n + 3, [])
        return None
    if w == "hang" and nxt[:1] and nxt[0] in _HANG:
        return 2, ["wait"]
    if w == "chill":
        return (2, ["wait"]) if nxt[:1] == ["out"] else (1, ["wait"])
    if w == "sit" and nxt[:1] == ["tight"]:
        return 2, ["wait"]
    if w in ("stay", "remain") and nxt[:1] == ["put"]:
        return 2, ["wait"]
    if w in ("stay", "remain") and nxt[:1] in (["there"], ["here"]):
        return 1, ["wait"]
    if w in ("keep", "stay", "be") and nxt[:1] and (nxt[0] in _QUIET or nxt[:3] in (
            ["nice", "and", "quiet"], ["nice", "and", "still"], ["really", "quiet"],
            ["very", "quiet"])):
        n = 2 if nxt[0] in _QUIET else 4
        return n, ["wait"]
    if w == "tuck" or w == "park" and nxt[:1] and nxt[0] in _SELF - {"you", "itself"}:
        n = 1 + (nxt[:1] != [] and nxt[0] in _SELF)
        n += words[k + n:k + n + 1] in (["in"], ["away"]) and \
            words[k + n + 1:k + n + 2] != [] and words[k + n + 1] in _PREPS
        if words[k + n:k + n + 1] in (["into"], ["in"]) and words[k + n + 1:k + n + 2] in \
                (["the"], ["a"]):
            return n + 1, (["go", "to"] if w == "tuck" else ["park", "yourself", "in"])
        if words[k + n:k + n + 1] and words[k + n] in _PREPS:
            return n, (["go"] if w == "tuck" else ["park", "yourself"])
        return None
    if w == "go" and nxt[:1] == ["find"] or w == "go" and nxt[:2] == ["and", "find"]:
        n = 2 if nxt[0] == "find" else 3
        if words[k + n:k + n + 1] and words[k + n] in ("the", "my", "our", "a"):
            return n, ["go", "to"]
    return None


def _fetch_fix(words: list[str], k: int) -> tuple[int, list[str]] | None:
    """"go and fetch, well, go to, I know you can't carry anything, the fridge": the errand
    verb taken back; returns the span up to the place and what it stands for."""
    if words[k] not in _FETCH or words[k + 1:k + 3] not in ([",", "well"], ["-", "well"]):
        return None
    n = k + 3
    n += words[n:n + 1] == [","]
    if words[n:n + 2] == ["not", words[k]]:
        n += 2 + (words[n + 2:n + 3] == [","])
    said_to = False
    if words[n:n + 1] == ["just"] and words[n + 1:n + 2] == ["go"]:
        return None  # "..., just go to the kettle": the request follows as it is
    if words[n:n + 2] == ["go", "to"]:
        n += 2
        said_to = True
        n += words[n:n + 1] == [","]
    if n < len(words) and _opener(words, n) and words[n] not in ("the", "my"):
        e = _clause_end(words, n)  # "I know you can't carry anything,": said with it
        n = e + (e < len(words) and words[e] == ",")
    if said_to and n < len(words) and words[n] not in ("the", "a", "my", "that"):
        return None
    return n - k, (["to"] if said_to else [])


def talk_around(toks: list[Token]) -> tuple[list[Token], Context]:
    """Take the talk around the request out of ``toks`` (see the module docstring); returns
    the tokens left and the talk, each with its character span."""
    context: Context = []
    toks = _idioms(toks, context)
    toks = _headers(toks, context)
    toks = _waits(toks, context)
    toks = _talks(toks, context)
    toks = _bare_dwell(toks, context)
    return toks, context


def _bare_dwell(toks: list[Token], context: Context) -> list[Token]:
    """"That's the only stop, just wait there afterwards.": once the talk is out, a sentence
    that only says to wait at the stop before is the stop before (context), not a new stage;
    a closing kiss ("thx x") is talk too."""
    words = [t.text for t in toks]
    drop: set[int] = set()
    k = 0
    while k < len(words):
        while k < len(words) and words[k] in (",", ";"):
            k += 1  # the talk before it taken out
        e = _clause_end(words, k)
        body = [n for n in range(k, e) if words[n] not in _CUTS and words[n] not in _LEADS]
        said = [words[n] for n in body]
        if k and len(said) in (2, 4, 5) and said[0] in ("wait", "stay", "remain") and \
                said[1] in ("there", "here") and (said[2:] in ([], ["for", "me"]) or
                                                  said[-1] == "it" and
                                                  set(said[2:-1]) <= _BESIDE) and \
                any(w in _REQUEST for w in words[:k]) and words[k - 1] in _ENDS | {",", "?"}:
            _cut(toks, body[0], body[-1] + 1, context, "the stop before: ")
            drop.update(range(k, e + (e < len(words) and words[e] == ",")))
        while e < len(words) and words[e] not in _ENDS:
            e += 1  # the next sentence
        k = e + 1
    n = len(words)
    while n and words[n - 1] in _ENDS:
        n -= 1
    if n > 1 and set(words[n - 1]) == {"x"} and len(words[n - 1]) <= 4:
        _cut(toks, n - 1, n, context, "closing: ")
        drop.add(n - 1)
    return [t for k, t in enumerate(toks) if k not in drop]


def _cut(toks: list[Token], a: int, b: int, context: Context, label: str = "") -> None:
    """Report ``toks[a:b]`` as context (``label`` is for the reader of this code only)."""
    del label
    if a < b:
        context.append((" ".join(t.text for t in toks[a:b]),
                        (toks[a].start, toks[b - 1].end)))


def _idioms(toks: list[Token], context: Context) -> list[Token]:
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        got = _idiom(words, k)
        fix = None if got else _fetch_fix(words, k)
        if fix is not None:
            n, said = fix
            m = k + n
            if out and out[-1].text == "and" and len(out) > 1 and out[-2].text == "go":
                out.pop()
            _cut(toks, k, m, context, "said: ")
            out.extend(Token(w, toks[k].start, toks[k].end) for w in said)
            k = m
            continue
        if got is None:
            out.append(toks[k])
            k += 1
            continue
        n, said = got
        a, b = toks[k].start, toks[k + n - 1].end
        out.extend(Token(w, a, b) for w in said)
        k += n
    return out


def _headers(toks: list[Token], context: Context) -> list[Token]:
    words = [t.text for t in toks]
    out: list[Token] = []
    k = 0
    while k < len(toks):
        if words[k] in ("stop", "item", "errand", "task", "job", "step") and \
                words[k + 1:k + 2] == ["number"] and words[k + 2:k + 3] and \
                _is_label(words[k + 2]) and words[k + 3:k + 4] == [","]:
            # "Stop number one, the kettle." -> "stop one: the kettle."
            out.extend([toks[k], toks[k + 2], Token(":", toks[k + 3].start, toks[k + 3].end)])
            k += 4
            continue
        if k == 0 or words[k - 1] in _ENDS:
            s = k
            while s < len(words) and words[s] in ("ok", "okay", "right", "so", "now"):
                s += 1
            end = _header_end(words, s) if s < len(words) else None
            rest = [w for w in words[(end or 0) + 1:] if w not in _CUTS]
            if end is not None and rest:
                _cut(toks, k, end, context, "header: ")
                colon = end + 1
                while colon < len(words) and words[colon] not in _ENDS | {":"}:
                    colon += 1
                start = words[end + 1:end + 3] == ["you", "are"] or \
                    words[end + 1:end + 2] in (["starting"], ["beginning"])
                if words[end] == "," and colon < len(words) and words[colon] == ":" and start:
                    # "Morning run, you're starting at the fridge: 1) ...": the start's
                    # own sentence, then the list
                    if words[end + 1] != "you":
                        t = toks[end + 1]
                        out.extend([Token("you", t.start, t.end), Token("are", t.start, t.end)])
                    out.extend(toks[end + 1:colon])
                    out.append(Token(".", toks[colon].start, toks[colon].end))
                    k = colon + 1
                    continue
                k = end + 1
                continue
        out.append(toks[k])
        k += 1
    return out


def _waits(toks: list[Token], context: Context) -> list[Token]:
    words = [t.text for t in toks]
    drop: set[int] = set()
    for k in range(len(words)):
        if k in drop:
            continue
        n = 0
        if _duration(words, k) and (_dwell_before(words, k) or k and words[k - 1] in _CUTS):
            n = _duration(words, k)
        elif words[k] in _UNTIL and words[k + 1:k + 2] and \
                (words[k + 1] in _NOT_WALKER or words[k + 1] in _PEOPLE or
                 words[k + 1].isdigit() or words[k + 1] in W.NUMBERS) and \
                _dwell_before(words, k) and \
                tuple(words[k:_clause_end(words, k)]) not in _NOTED:
            n = _clause_end(words, k) - k
            s0 = k
            while s0 and words[s0 - 1] not in _ENDS:
                s0 -= 1
            if 0 < k - s0 <= 4 and words[k - 1] in ("there", "here") and \
                    words[s0] in _DWELL | {"just", "and"}:
                # "Wait there until I say so.": the stop before, all of it
                n, k = n + k - s0, s0
        elif words[k:k + 2] == ["give", "it"] and _duration(["for", *words[k + 2:]], 0) and \
                (k == 0 or words[k - 1] in _CUTS):
            n = _duration(["for", *words[k + 2:]], 0) + 1
        elif words[k:k + 4] == ["out", "of", "the", "way"] and k and \
                words[k - 1] in (",", "and") and _dwell_before(words, k):
            e = k + 4
            if words[e:e + 1] in (["while"], ["as"], ["when"]) and \
                    words[e + 1:e + 2] in (["i"], ["we"]):
                e = _clause_end(words, e)
            n = e - k
        elif words[k] in ("keep", "stay", "get") and words[k + 1:k + 2] == ["out"] and (
                words[k + 2:k + 5] in (["from", "under", "my"], ["from", "under", "our"],
                                       ["from", "under", "everyone"]) or
                words[k + 2:k + 4] in (["of", "my"], ["of", "the"], ["of", "our"])) and \
                words[k + 4:k + 6] != [] and \
                {"way", "feet", "hair"} & set(words[k + 3:k + 7]):
            e = k + 3
            while e < len(words) and words[e] not in ("way", "feet", "hair"):
                e += 1
            n = e + 1 - k if e + 1 >= len(words) or words[e + 1] in _CUTS | {"and"} else 0
        elif words[k] in ("afterwards", "afterward") and k > 1 and \
                words[k - 1] in ("there", "here") and words[k - 2] in _DWELL:
            n = 1
        if n:
            a = k - (k > 0 and words[k - 1] == "," and
                     (k + n >= len(words) or words[k + n] in _CUTS))
            _cut(toks, k, k + n, context, "how long to stay: " if words[k] != "out"
                 else "why to stay: ")
            drop.update(range(a, k + n))
    return [t for k, t in enumerate(toks) if k not in drop]


def _talks(toks: list[Token], context: Context) -> list[Token]:
    words = [t.text for t in toks]
    drop: set[int] = set()
    swap: dict[int, list[Token]] = {}
    k = 0
    while k < len(words):
        hedge = next((len(h) for h in _HEDGES if tuple(words[k:k + len(h)]) == h and
                      (k + len(h) == len(words) or words[k + len(h)] in _CUTS)), 0)
        c0 = k
        while c0 and words[c0 - 1] not in _CUTS:
            c0 -= 1
        if not {"it", "them", "there"} & set(words[c0:k]):
            hedge = 0  # only after a clause placing a thing by a pronoun
        lead = k + 1 + (words[k + 1:k + 2] == ["that"])
        purpose = words[k] == "so" and words[lead:lead + 1] in (["i"], ["we"]) and \
            bool({"can", "could", "will", "may", "might"} & set(words[lead + 1:lead + 3]))
        if (hedge or purpose) and k:
            b = k + hedge if hedge else _clause_end(words, k)
            _cut(toks, k, b, context, "aside: ")
            drop.update(range(k, b))
            k = b
            continue
        if not (k == 0 or words[k - 1] in _CUTS or words[k - 1] in ("and", "but", "cos",
                                                                      "because", "so")):
            k += 1
            continue
        s = k
        while s < len(words) and words[s] in _LEADS and not _opener(words, s):
            s += 1
        got = _talk_span(words, s) if s < len(words) else None
        if got is None and s < len(words) and (words[k - 1:k] == [","] or words[s] == "its"):
            got = _placed(words, s)
            lo = s
            while lo and words[lo - 1] in _CUTS:
                lo -= 1
            ends = [head_lexicon().match(words[j:lo]) for j in range(max(0, lo - 3), lo)]
            if got is not None and words[s] in ("it", "its") and not any(
                    h is not None and h[0] == lo - j
                    for j, h in zip(range(max(0, lo - 3), lo), ends, strict=True)):
                got = None  # "pass the laptop on the way, it's on the desk": not the stop
            if got is not None and words[s] in ("it", "its"):
                # "go find the teddy bear, it's on the bed": a description of the stop,
                # which picks it: read as "the teddy bear on the bed", never set apart
                lo = s
                while lo and words[lo - 1] in _CUTS:
                    lo -= 1
                n = s + (1 if words[s] == "its" else 2)
                _cut(toks, s, n, context, "said as")
                drop.update(range(lo, n))
                k = n
                continue
        if got is None:
            k += 1
            continue
        a, b = got
        lex = head_lexicon()
        said = {h[1] for n in range(k) if (h := lex.match(words[n:n + lex.max_len]))}
        new = {h[1] for n in range(a, b) if (h := lex.match(words[n:n + lex.max_len]))} - said
        asked = any(w in _REQUEST for w in words[:k])
        rule = b < len(words) and words[b] in _SO  # "kid says ... so just park by the sink"
        apart = (k == 0 or words[k - 1] in _ENDS | {"("}) and words[a] not in ("it", "its")
        person = words[a] in _PEOPLE or words[a + 1:a + 2] and words[a + 1] in _PEOPLE
        here = words[a:a + 2] in (["i", "am"], ["we", "are"]) and words[a + 2:a + 3] and \
            words[a + 2] in ("in", "at", "on", "by", "near", "next", "sat", "sitting", "lying",
                             "standing", "stood", "beside", "inside", "upstairs", "outside")
        sure = any(tuple(words[a:a + len(p)]) == p for p in _SURE) and \
            tuple(words[a:b]) not in (*_HEDGES, ("think",), ("reckon",), ("guess",))
        if new and not rule and (not asked or apart or person) or here or \
                is_aside(words[a:_clause_end(words, a)]) and not sure:
            # "The cat sleeps on the chair. Keep away from it.": a mention; an aside that
            # names nothing is left to .aside_clauses, which quotes it as said
            k += 1
            continue
        rest = [w for n, w in enumerate(words) if (n < k or n >= b) and n not in drop and
                w not in _CUTS and w not in _LEADS]
        if not any(w in _REQUEST or head_lexicon().match([w]) for w in rest):
            k += 1
            continue  # all talk: nothing left to route
        _cut(toks, k, b, context, "aside: ")
        room = _rule_room(toks, a, b)
        if b < len(words) and words[b] in _SO and room:
            e = _clause_end(words, b)
            for n in range(b, e):
                if words[n] == "there" and n and words[n - 1] in ("in", "into", "inside"):
                    swap[n] = [Token(t.text, t.start, t.end) for t in room]
        lo = k - (k > 0 and (words[k - 1] == "," and (b >= len(words) or words[b] in _CUTS) or
                             words[k - 1] in ("and", "but", "because", "cos", "coz", "since")))
        drop.update(range(lo, b + (b < len(words) and words[b] in _SO)))
        k = b
    out: list[Token] = []
    for n, t in enumerate(toks):
        if n in drop:
            continue
        out.extend(swap.get(n, [t]))
    return out
