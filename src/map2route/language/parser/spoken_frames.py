"""Stage 0, before everything else: the spoken and typed register around an instruction.

People who never read the parser wrap a simple route in talk. Speech adds fillers and hedges
("um", "kinda", "I guess", "right, so"), repeats a word after a pause ("the, um, the sofa"),
and says "you go to X" for "go to X"; typing adds shorthand ("need u at", "asap", "&", "n");
both wrap the request in a frame ("do you think you could", "your task is to", "let's", "it
would be great if you could", "I need you at") and end it with a closing ("that's it",
"thanks so much", "let me know when you're there"); and they set the scene or give a reason
("This house has two bathrooms.", ", I'm hungry", "since the floor is wet, ...").

The mechanism is a set of word classes read by position, not one rule per sentence:

* a *frame* is matched only where a clause opens (the start, after an end mark, a comma or
  ``and``/``then``, once the fillers before it are skipped) and is taken off, leaving the
  request it wraps; frames that say where to be ("I need you at X") become "go to X";
* a *hedge* opens or ends a clause ("maybe", "I guess"); a *closing* is a whole clause
  ("that's all", "thanks a lot"); both carry no route;
* a *reason* or *aside* (a statement with no route word in it, after a comma, in brackets,
  or a "since ..." clause before the request) and a *scene* sentence about the house are
  kept as context with their spans, so the places they name are still reported;
* a statement of where a thing is ("The fridge is in the kitchen.", "You see the toilet?")
  before a later sentence becomes the mention "there is a fridge in the kitchen", which the
  later stages already read (a later "go to it" refers back to it).

Nothing with a route word, a negation or a constraint word in it is ever taken off: those
clauses are left to the later stages (and to a refusal), since a wrong parse is worse than
one. Every frame, hedge and closing taken off is recorded as a ``said`` move (its words), so
the parse shows what it read as register.
"""

from __future__ import annotations

from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.move_words import _DESCRIBING
from map2route.language.tokens import Token

__all__ = ["spoken_frames"]

Context = list[tuple[str, tuple[int, int]]]

_ENDS = (".", "!", "?")
#: Tokens after which a clause opens.
_OPENS = frozenset({".", "!", "?", ",", ";", ":", "(", "and", "then", "but"})
#: Interjections skipped when finding where a clause opens ("okay so, ...").
_INTERJECTIONS = frozenset(W.FILLER_WORDS | {"so", "oh", "right", "now", "yeah", "yes",
                                            "hmm", "erm", "ah", "aha"})

#: Request frames: (words, replacement). The replacement is what the frame stands for: most
#: stand for nothing (the request follows), "I need you at X" stands for "go to X".
_ADJ_GOOD = ("great", "nice", "good", "awesome", "lovely", "helpful", "cool", "perfect",
             "amazing", "fantastic", "brilliant", "ideal")


def _frames() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    out: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for modal in ("could", "can", "would", "will"):
        for adv in ("possibly", "perhaps", "maybe", "just", "quickly", "kindly", "please"):
            out.append(((modal, "you", adv), ()))
            out.append(((modal, "u", adv), ()))
            out.append(((modal, "you", "please", adv), ()))
    for think in ("think", "reckon", "suppose"):
        for modal in ("could", "can", "would"):
            out.append((("do", "you", think, "you", modal), ()))
            out.append((("you", think, "you", modal), ()))
    for poss in (("is", "it", "possible", "for", "you", "to"),
                 ("would", "it", "be", "possible", "for", "you", "to"),
                 ("would", "it", "be", "possible", "to"), ("is", "it", "possible", "to"),
                 ("is", "there", "any", "chance", "you", "could"),
                 ("any", "chance", "you", "could"), ("any", "chance", "you", "can")):
        out.append((poss, ()))
    for noun in ("task", "job", "mission", "assignment", "errand", "goal", "objective"):
        for own in ("your", "ur", "the"):
            out.append(((own, noun, "is", "to"), ()))
            out.append(((own, noun, "is", "simple", ":"), ()))
            out.append(((own, noun, ":"), ()))
            out.append(((own, noun, "for", "today", "is", "to"), ()))
    for plan in ("plan", "idea"):
        for tail in (("is", "to"), ("is", ":"), ("is", ","), ("is", "simple", ":"),
                     (":",)):
            out.append((("the", plan, *tail), ()))
        out.append((("here", "is", "the", plan, ":"), ()))
        out.append((("here", "is", "the", plan, ","), ()))
    for lead in (("let", "us"), ("lets",), ("we", "need", "to"), ("we", "need", "you", "to"),
                 ("we", "want", "you", "to"), ("we", "have", "to"), ("we", "should"),
                 ("we", "are", "going", "to"), ("i", "want", "us", "to"),
                 ("i", "am", "asking", "you", "to"), ("i", "am", "telling", "you", "to"),
                 ("i", "would", "like", "for", "you", "to"), ("i", "need", "for", "you", "to"),
                 ("it", "is", "time", "to"), ("time", "to"), ("you", "are", "going", "to"),
                 ("you", "gotta"), ("you", "got", "to"), ("i", "need", "u", "to"),
                 ("i", "want", "u", "to"), ("need", "you", "to"), ("need", "u", "to"),
                 ("want", "you", "to")):
        out.append((lead, ()))
    it: tuple[str, ...]
    for it in (("it", "would", "be"), ("it'd", "be"), ("it", "will", "be"),
               ("it", "would", "be", "really"), ("it'd", "be", "really"),
               ("it", "would", "be", "so"), ("it'd", "be", "so")):
        for adj in _ADJ_GOOD:
            for wish in (("if", "you", "could"), ("if", "you", "would"), ("if", "you", "can"),
                         ("if", "u", "could"), ("if", "you", "could", "please")):
                out.append(((*it, adj, *wish), ()))
            out.append(((*it, adj, "if", "you"), ("@past",)))
    for who in (("i", "need", "you"), ("i", "want", "you"), ("need", "you"), ("need", "u"),
                ("i", "need", "u"), ("want", "you"), ("i", "would", "like", "you"),
                ("we", "need", "you")):
        for prep in (("at",), ("over", "at"), ("by",), ("over", "by"), ("in",)):
            out.append(((*who, *prep), ("go", "to")))
    # "I'd love it if you went ...", "is it ok if you go ...": the verb after "if you" is
    # the request (in the past when the frame is a wish)
    for wish in (("i", "would", "love", "it"), ("i", "would", "appreciate", "it"),
                 ("i", "would", "be", "grateful"), ("i", "would", "be", "happy"),
                 ("is", "it", "ok"), ("is", "it", "okay"), ("is", "it", "alright"),
                 ("would", "it", "be", "ok"), ("would", "it", "be", "okay"),
                 ("would", "it", "be", "alright"), ("is", "it", "cool")):
        out.append(((*wish, "if", "you", "could"), ()))
        out.append(((*wish, "if", "you"), ("@past",)))
        out.append(((*wish, "if", "u"), ("@past",)))
    for gonna in (("gonna",), ("i", "am", "gonna"), ("i", "am", "going", "to"),
                  ("going", "to"), ("we", "are", "gonna"), ("we", "are", "going", "to")):
        out.append(((*gonna, "need", "you", "to"), ()))
        out.append(((*gonna, "need", "u", "to"), ()))
        out.append(((*gonna, "need", "you", "at"), ("go", "to")))
    for wonder in (("i", "was", "wondering"), ("i", "am", "wondering"), ("i", "wonder"),
                   ("was", "wondering"), ("just", "wondering")):
        for modal in ("could", "can", "would"):
            out.append(((*wonder, "if", "you", modal), ()))
    for ask in (("can", "i", "ask", "you", "to"), ("may", "i", "ask", "you", "to"),
                ("could", "i", "ask", "you", "to"), ("can", "i", "get", "you", "to"),
                ("could", "i", "get", "you", "to"),
                ("would", "it", "be", "too", "much", "trouble", "to"),
                ("would", "it", "be", "too", "much", "trouble", "for", "you", "to"),
                ("is", "it", "too", "much", "trouble", "to"),
                ("here", "'s", "the", "plan", ":"), ("here", "'s", "the", "plan", ","),
                ("here", "'s", "what", "i", "need", ":"), ("here", "is", "what", "i", "need", ":")):
        out.append((ask, ()))
    out.append((("off", "you", "go", "to"), ("go", "to")))
    out.append((("go", "ahead", "to"), ("go", "to")))
    out.append((("go", "on", "ahead", "to"), ("go", "to")))
    return sorted(out, key=lambda f: -len(f[0]))


FRAMES = _frames()
#: Past forms after "it'd be great if you ..." ("if you went to the desk" = "go to the desk").
_PAST = {"went": "go", "walked": "walk", "headed": "head", "came": "come", "moved": "move",
         "got": "get", "ran": "run", "popped": "pop", "made": "make", "visited": "visit",
         "returned": "return", "stopped": "stop", "drove": "drive", "rolled": "roll"}

#: Hedges that open a clause without adding to it.
HEDGE_LEADS: tuple[tuple[str, ...], ...] = (
    ("maybe",), ("perhaps",), ("possibly",), ("kinda",), ("kind", "of"), ("sort", "of"),
    ("sorta",), ("i", "guess"), ("i", "suppose"), ("i", "reckon"), ("i", "think"),
    ("basically",), ("literally",), ("honestly",), ("simply",), ("hmm",), ("right", ","),
    ("right", "so"), ("alright", "then"), ("ok", "then"), ("okay", "then"), ("so", "yeah"),
    ("yeah", "so"), ("um", "yeah"), ("uh", "yeah"), ("yeah",), ("yep",), ("now", "then"),
    ("like",), ("actually", ","), ("first", "things", "first", ","),
    ("long", "story", "short", ","), ("sorry", "to", "bother", "you", ",", "but"),
    ("sorry", "to", "bother", "you", ","), ("sorry", ","), ("excuse", "me", ","),
    ("quick", "favour", ","), ("quick", "favor", ","), ("quick", "one", ","),
    ("no", "rush", ",", "but"), ("no", "rush", "but"),
    *((("when", "you", "have", "a", t, ",")) for t in ("sec", "second", "minute", "min",
                                                        "moment", "chance")),
    *(((v, ",")) for v in ("buddy", "mate", "dude", "bro", "pal", "robot", "man", "friend")))
#: Hedges and tags that end a clause ("..., I guess", "..., okay?", "... asap").
HEDGE_TAILS: tuple[tuple[str, ...], ...] = (
    ("i", "guess"), ("i", "suppose"), ("i", "reckon"), ("okay",), ("ok",), ("alright",), ("yeah",), ("right",), ("yes",), ("please",),
    ("if", "you", "can"), ("if", "possible"), ("asap",), ("as", "soon", "as", "possible"),
    ("right", "away"), ("yeah", "yeah"), ("lol",), ("haha",), ("hehe",), ("lmao",),
    ("if", "that", "is", "ok"), ("if", "that", "is", "okay"), ("if", "that", "is", "alright"),
    ("if", "that", "is", "fine"), ("if", "that", "works"), ("if", "you", "do", "not", "mind"),
    *((("when", "you", "have", "a", t)) for t in ("sec", "second", "minute", "min", "moment",
                                                  "chance")),
    ("buddy",), ("mate",), ("dude",), ("bro",), ("pal",), ("my", "friend"))
#: Interjections inside a clause, between commas or not ("go to the fridge, you know, the
#: big one"; "go to the uh fridge").
_INSIDE = frozenset({"um", "uh", "umm", "uhm", "uhh", "er", "erm", "hmm", "like"})

#: Whole clauses that close an instruction.
_CLOSINGS: tuple[tuple[str, ...], ...] = tuple(sorted({
    ("that", "is", "it"), ("that", "is", "all"), ("that", "is", "everything"),
    ("that", "is", "all", "i", "need"), ("that", "is", "all", "for", "now"),
    ("that", "will", "be", "all"), ("that", "would", "be", "all"), ("that", "is", "about", "it"),
    ("nothing", "else"), ("nothing", "more"), ("that", "is", "it", "for", "now"),
    ("thanks",), ("thank", "you"), ("thx",), ("ty",), ("cheers",), ("thanks", "a", "lot"),
    ("thanks", "so", "much"), ("thank", "you", "so", "much"), ("thank", "you", "very", "much"),
    ("thanks", "in", "advance"), ("thanks", "a", "bunch"), ("thanks", "a", "million"),
    ("many", "thanks"), ("much", "appreciated"), ("appreciate", "it"),
    ("i", "appreciate", "it"), ("good", "luck"), ("bye",), ("see", "you"), ("ta",),
    ("you", "are", "the", "best"), ("please", "and", "thank", "you"),
    ("please", "and", "thanks"), ("please", "and", "thx"), ("love", "you"), ("great",), ("perfect",),
    ("let", "me", "know", "when", "you", "are", "there"),
    ("let", "me", "know", "when", "you", "get", "there"),
    ("let", "me", "know", "when", "you", "arrive"),
    ("let", "me", "know", "when", "you", "are", "done"),
    ("let", "me", "know", "once", "you", "are", "there"),
    ("tell", "me", "when", "you", "arrive"), ("tell", "me", "when", "you", "get", "there"),
    ("tell", "me", "when", "you", "are", "there"), ("let", "me", "know"),
    ("ping", "me", "when", "you", "are", "there"), ("text", "me", "when", "you", "are", "there"),
    *((("that", "would", "be", a)) for a in _ADJ_GOOD),
    *((("that", "would", "be", "really", a)) for a in _ADJ_GOOD),
    *((("that'd", "be", a)) for a in _ADJ_GOOD),
    *((("that", "will", "be", a)) for a in _ADJ_GOOD),
}, key=len, reverse=True))
#: Words of thanks, which may end a text with no comma before them.
_THANKS = frozenset({"thanks", "thx", "ty", "cheers", "thank"})
#: Words a closing may carry along ("that's it, thanks!", "thanks so much :)").
_CLOSING_GLUE = frozenset({",", "and", "ok", "okay", "so", "really", ":", ")", "(", "!"})
#: Greetings that open a clause ("yo, go to ...", "hiya", "hey there").
_GREETINGS = frozenset({"yo", "hiya", "heya", "howdy", "sup", "hey", "hi", "hello", "oi",
                        "greetings", "morning", "evening"})
#: Hedges read only where the instruction opens: later, "actually" starts a correction.
_FIRST_ONLY = frozenset({("actually", ","), ("actually",)})

#: Words that make a clause route content: never an aside, never a closing.
_ROUTE = frozenset(W.MOVE_VERBS | W.SHAPE_VERBS | W.PREF_VERBS | {
    "you", "u", "avoid", "away", "near", "close", "far", "not", "never", "no", "do",
    "between", "past", "through", "around", "round", "via", "back", "stay", "keep", "careful",
    "way", "blocking", "blocked", "block", "off", "limits", "bounds", "closed", "locked",
    "instead", "first", "then", "after", "before", "until", "while", "when", "if", "go",
    "corner", "middle", "center", "centre", "side", "left", "right", "clear", "distance",
    "room", "space", "skip", "only", "dont", "mind", "watch", "trip", "bump", "hit"})
#: Words that open a statement's subject ("I'm hungry", "the cat is asleep", "it's wet").
_SUBJECTS = frozenset({"i", "it", "that", "this", "my", "our", "the", "he", "she", "they",
                       "we", "his", "her", "their", "there", "a"})
#: Subjects that stand for a thing named before: what they say may pick which one.
_REFERENTS = frozenset({"it", "that", "this", "they", "these", "those"})
#: Finite verbs of such a statement.
_FINITE = frozenset({"am", "is", "are", "was", "were", "'s", "need", "needs", "want", "have",
                     "has", "had", "left", "dropped", "lost", "think", "feel", "like", "love",
                     "sleeps", "sleeping", "smells"})
#: Reasons that open a sentence before the request ("Since the floor is wet, ...").
_REASON_OPENERS = frozenset({"since", "because", "cause", "cos", "coz", "cuz"})
#: Requests of manner that change no route ("so be quiet"): kept as context.
_MANNER = (("be", "quiet"), ("be", "gentle"), ("be", "quick"), ("quietly",), ("hurry",),
           ("hurry", "up"), ("no", "rush"), ("take", "your", "time"))
#: Nouns for the whole home ("This house has two bathrooms.").
_HOME = frozenset({"house", "home", "place", "apartment", "flat", "map", "building", "scene"})
#: Words of a later sentence that may stand for what a set-up sentence named ("This house
#: has two bathrooms. Go to the one with ..."): the set-up is then left to the later stages.
_ANAPHORS = frozenset({"one", "ones", "it", "them", "there", "that", "those", "other",
                       "another", "both", "either", "which", "smaller", "bigger", "larger",
                       "first", "second", "third", "last", "smallest", "biggest", "largest"})
#: Neutral descriptions of a room or thing ("The kitchen is pretty small.").
_DEGREE = frozenset({"pretty", "quite", "very", "really", "kind", "of", "a", "bit", "so",
                     "super", "rather", "fairly", "kinda", "little", "tad"})
_NEUTRAL_ADJ = frozenset({"small", "big", "large", "tiny", "huge", "messy", "tidy", "clean",
                          "dark", "bright", "cozy", "cosy", "nice", "new", "old", "narrow",
                          "wide", "long", "spacious", "cramped", "cluttered", "empty", "full",
                          "modern", "lovely", "quiet", "warm", "cold", "busy"})
_PLACE_PREPS = frozenset({"in", "on", "by", "near", "next", "beside", "under", "inside",
                          "behind", "against", "opposite"})
_DETS = frozenset({"the", "a", "an", "this", "that", "my", "your", "our"})


def _said(records: list[dict[str, str]], words: list[str]) -> None:
    """Record register words taken off, so the parse shows what it read as talk."""
    text = " ".join(w for w in words if w not in (",", ":"))
    if text:
        records.append({"move": "said", "text": text, "about": ""})


def _record(ctx: Context, toks: list[Token]) -> None:
    body = [t for t in toks if t.text not in (",", ".", "!", "?", "(", ")", ";", ":")]
    if body:
        ctx.append((" ".join(t.text for t in body), (body[0].start, body[-1].end)))


def _open(words: list[str], k: int) -> bool:
    """Whether a clause opens at ``k`` (interjections before it skipped)."""
    j = k - 1
    while j >= 0 and words[j] in _INTERJECTIONS:
        j -= 1
    return j < 0 or words[j] in _OPENS


def _at(words: list[str], k: int, seq: tuple[str, ...]) -> bool:
    return tuple(words[k:k + len(seq)]) == seq


def _boundary(words: list[str], k: int) -> bool:
    """Whether a clause ends right before ``k``."""
    return k >= len(words) or words[k] in (*_ENDS, ",", ";", ")", ":", "and", "then",
                                           "please", "pls", "plz", "thx", "thanks")


def _heads_in(words: list[str]) -> bool:
    lex = head_lexicon()
    return any(lex.match(words[k:k + lex.max_len]) for k in range(len(words)))


def _symbols(toks: list[Token]) -> list[Token]:
    """Typed shorthand: "&", "+" and a lone "n" between clauses are "and"; emoticons go."""
    out: list[Token] = []
    words = [t.text for t in toks]
    k = 0
    while k < len(toks):
        w = words[k]
        nxt = words[k + 1] if k + 1 < len(words) else ""
        if w == "ya" and k and words[k - 1] in ("could", "can", "would", "will", "do"):
            out.append(Token("you", toks[k].start, toks[k].end))  # "could ya go"
        elif w in ("&", "+") or (w == "n" and k and (nxt in W.OPENERS or nxt in _THANKS or
                                                 nxt in ("stay", "keep", "avoid", "then"))):
            out.append(Token("and", toks[k].start, toks[k].end))
        elif w in (":", ";") and nxt in (")", "(", "d", "p") and \
                (k + 2 >= len(words) or words[k + 2] in (*_ENDS, ",")) and \
                toks[k + 1].start == toks[k].end:
            k += 2
            continue
        else:
            out.append(toks[k])
        k += 1
    return out


def _repairs(toks: list[Token], records: list[dict[str, str]]) -> list[Token]:
    """Spoken repairs: "the, um, the sofa" says "the" once; "come back after" is "come
    back"; "then you go to" is "then go to"."""
    words = [t.text for t in toks]
    drop: set[int] = set()
    for k, w in enumerate(words):
        if w in ("the", "a", "to") and k + 1 < len(words):
            j = k + 1
            while j < len(words) and (words[j] == "," or words[j] in _INSIDE):
                j += 1
            if j > k + 1 and j < len(words) and words[j] == w:
                drop.update(range(k, j))
                _said(records, words[k:j])
        if w == "you" and words[k + 1:k + 2] == ["know"] and k and words[k - 1] == "," and \
                _boundary(words, k + 2) and words[k + 3:k + 4] not in (["the"], ["a"]):
            drop.update(range(k - 1, k + 2))  # ", you know, the big one"
            _said(records, ["you", "know"])
        if w == "after" and words[k - 1:k] == ["back"] and _boundary(words, k + 1):
            drop.add(k)
            _said(records, ["after"])
        if w in ("you", "u") and _open(words, k) and k + 1 < len(words) and \
                words[k + 1] in W.MOVE_VERBS and words[k + 1] not in ("see", "find") and \
                not _at(words, k + 1, ("get", "there")):
            drop.add(k)
            _said(records, [w])
        if w == "like" and k + 1 < len(words) and words[k + 1] in W.MOVE_VERBS and \
                k and words[k - 1] in ("then", "and", ",", "so", "just"):
            drop.add(k)
            _said(records, [w])
    return [t for k, t in enumerate(toks) if k not in drop]


def _closings(toks: list[Token], ctx: Context, records: list[dict[str, str]]) -> list[Token]:
    """Whole clauses that close the instruction ("that's it", "thanks so much", "let me know
    when you're there"): thanks are recorded as said, requests to report as context."""
    words = [t.text for t in toks]
    drop: set[int] = set()
    k = 0
    while k < len(words):
        hit = None
        if k == 0 or words[k - 1] in _OPENS or words[k - 1] in _CLOSING_GLUE or k - 1 in drop:
            hit = next((c for c in _CLOSINGS if _at(words, k, c) and
                        _boundary(words, k + len(c)) and words[k + len(c):k + len(c) + 1]
                        not in (["and"], ["then"])), None)
            if hit is not None and any(w in _ROUTE for w in hit if w not in ("you", "u")) \
                    and hit[0] not in ("let", "tell", "ping", "text"):
                hit = None
        if hit is None and k and all(w in _ENDS for w in words[k + 1:]):
            # "... then come back thx": thanks end the text even without a comma
            hit = next((c for c in _CLOSINGS if c[0] in _THANKS and _at(words, k, c) and
                        all(w in _ENDS for w in words[k + len(c):])), None)
        if hit is None:
            k += 1
            continue
        e = k + len(hit)
        a = k
        while a > 0 and words[a - 1] in ("and", ",", "so") and a - 1 not in drop:
            a -= 1
        if a == 0 and e < len(words) and words[e] not in _ENDS:
            k += 1  # a closing cannot open a request ("thanks, go to ...": its comma stays)
            continue
        if hit[0] in ("let", "tell", "ping", "text"):
            _record(ctx, toks[k:e])
        else:
            _said(records, words[k:e])
        drop.update(range(a, e))
        while e < len(words) and words[e] in ("!", ")", ",") and \
                (e + 1 >= len(words) or words[e + 1] in (*_ENDS, "!")):
            drop.add(e)
            e += 1
        k = e
    # the end mark of a sentence that was all closing goes with it
    kept = [k for k in range(len(toks)) if k not in drop]
    gone = {k for n, k in enumerate(kept) if n and words[k] in _ENDS and
            words[kept[n - 1]] in _ENDS and kept[n - 1] + 1 < k}
    return [t for k, t in enumerate(toks) if k not in drop and k not in gone]


#: Adverbs a speaker slips into a frame ("I *just* need you at ...", "could you *maybe*").
_FRAME_ADVERBS = frozenset({"just", "really", "kinda", "simply", "actually", "also"})


def _frame_at(words: list[str], k: int
              ) -> tuple[tuple[tuple[str, ...], tuple[str, ...]] | None, int]:
    """The longest frame at ``k`` that wraps a request (adverbs inside it skipped) and how
    many tokens it spans."""
    for f in FRAMES:
        q, ok = k, True
        for n, w in enumerate(f[0]):
            while n and q < len(words) and words[q] in _FRAME_ADVERBS and words[q] != w:
                q += 1
            if q >= len(words) or words[q] != w:
                ok = False
                break
            q += 1
        if ok and _wraps_request(words, q, f):
            return f, q - k
    return None, 0


def _wraps_request(words: list[str], k: int,
                   frame: tuple[tuple[str, ...], tuple[str, ...]]) -> bool:
    """Whether a frame ending before ``k`` wraps a request ("we need to *go* ..."), not the
    speaker's own errand ("we need to clean it tomorrow"): a verb follows it, or it says
    where to be itself ("I need you at the sofa")."""
    if frame[1] and frame[1] != ("@past",):
        return True
    nxt = words[k] if k < len(words) else ""
    if frame[1] == ("@past",):
        return nxt in _PAST or nxt in W.OPENERS
    return nxt in W.OPENERS or nxt in ("stay", "keep", "avoid", "please", "just", "u", "you")


#: Words that may open the request a hedge softens ("maybe *go* ...", "I guess *just* ...").
_REQUEST_OPENS = frozenset(W.OPENERS | {
    "just", "please", "could", "can", "would", "will", "you", "u", "i", "we", "let",
    "lets", "your", "ur", "stay", "keep", "avoid", "do", "try", "come"} |
    {h[0] for h in HEDGE_LEADS})


def _hedges_request(words: list[str], k: int) -> bool:
    """Whether a hedge ending before ``k`` softens a request: "maybe go to the bed", not
    "the fridge, maybe the big one" (a description, left to the later stages)."""
    while k < len(words) and (words[k] == "," or words[k] in _INTERJECTIONS):
        k += 1
    return k < len(words) and words[k] in _REQUEST_OPENS


def _leads(toks: list[Token], records: list[dict[str, str]]) -> list[Token]:
    """Request frames and hedges where a clause opens ("do you think you could", "your
    task is to", "I need you at" -> "go to", "maybe", "I guess")."""
    out: list[Token] = []
    words = [t.text for t in toks]
    k = 0
    past = False
    while k < len(toks):
        if _open(words, k):
            frame, n = _frame_at(words, k)
            if frame is not None:
                _said(records, words[k:k + n])
                past = frame[1] == ("@past",)
                if frame[1] and not past:
                    out.extend(Token(w, toks[k].start, toks[k + n - 1].end) for w in frame[1])
                k += n
                continue
            if words[k] in _GREETINGS and k + 1 < len(words) and \
                    _hedges_request(words, k + 1 + (words[k + 1:k + 2] == ["there"])):
                n = 1 + (words[k + 1:k + 2] == ["there"])
                _said(records, words[k:k + n])
                k += n
                continue
            if words[k] == "mind" and words[k + 1:k + 2] and words[k + 1].endswith("ing") and \
                    words[k + 1] in W.MOVE_VERBS:
                _said(records, ["mind"])  # "Mind going to the toilet?": would you mind
                out.append(Token("would", toks[k].start, toks[k].end))
                out.append(Token("you", toks[k].start, toks[k].end))
                out.append(Token("mind", toks[k].start, toks[k].end))
                k += 1
                continue
            hedge = next((h for h in HEDGE_LEADS if _at(words, k, h) and
                          (h not in _FIRST_ONLY or all(w in _INTERJECTIONS or w == ","
                                                       for w in words[:k]))), None)
            if hedge is None and _at(words, k, ("actually",)) and \
                    all(w in _INTERJECTIONS or w == "," for w in words[:k]):
                hedge = ("actually",)
            if hedge is not None and k + len(hedge) < len(words) and \
                    _hedges_request(words, k + len(hedge)):
                _said(records, words[k:k + len(hedge)])
                k += len(hedge)
                continue
        if past and words[k] in _PAST:
            out.append(Token(_PAST[words[k]], toks[k].start, toks[k].end))
            past = False
            k += 1
            continue
        past = False
        out.append(toks[k])
        k += 1
    return out


def _request_before(words: list[str], k: int) -> bool:
    """Whether the clause before ``k`` (past one comma) is a request: it opens with a verb."""
    a = k - 1
    commas = 0
    while a >= 0 and words[a] not in (*_ENDS, ";", "and", "then"):
        if words[a] == ",":
            commas += 1
            if commas > 1 or a < k - 1:
                break
        a -= 1
    a += 1
    while a < k and (words[a] in _INTERJECTIONS or words[a] in (",", "just", "please")):
        a += 1
    return a < k and (words[a] in W.OPENERS or words[a] in ("stay", "keep", "avoid"))


def _tails(toks: list[Token], records: list[dict[str, str]]) -> list[Token]:
    """Hedges and tags that end a clause ("..., I guess", "... asap", "..., right?")."""
    words = [t.text for t in toks]
    drop: set[int] = set()
    for k in range(len(words)):
        if k == 0 or k in drop:
            continue
        for tail in HEDGE_TAILS:
            e = k + len(tail)
            if not _at(words, k, tail) or not _boundary(words, e) or \
                    words[e:e + 1] in (["and"], ["then"]):
                continue
            if tail in (("right",), ("yes",), ("yeah",), ("alright",), ("okay",), ("ok",)) \
                    and words[k - 1] != ",":
                continue  # "turn right": only a tag after its comma
            if tail[0] == "i" and words[k - 1] in ("and", "then", "so", "because", "that"):
                continue
            if not _request_before(words, k):
                continue  # "He left his book on the table, I believe.": a statement's own
            drop.update(range(k, e))
            if words[k - 1] == ",":
                drop.add(k - 1)
            _said(records, list(tail))
            break
    return [t for k, t in enumerate(toks) if k not in drop]


def _statement(words: list[str]) -> bool:
    """Whether ``words`` is a statement that asks nothing of the route: a subject and a
    finite verb near its start, and no route word, negation or constraint word."""
    if len(words) < 3 or words[0] not in _SUBJECTS:
        return False  # ", I think": a hedge of the clause before, not a statement
    speaker = words[0] in ("i", "we") and not _heads_in(words) and \
        not any(w in _PLACE_PREPS or w in ("here", "there", "you", "u") for w in words)
    if words[0] in _REFERENTS and any(w in _DESCRIBING and w not in ("where", "left")
                                      for w in words):
        return False  # "it's big", "it's in the living room": which one, not an aside
    for n, w in enumerate(words):
        if w == "left" and n and words[n - 1] in ("i", "we", "he", "she", "they"):
            continue  # "where I left my phone": a verb, not a direction
        if w == "back" and n and words[n - 1] in ("my", "his", "her", "our"):
            continue  # "my back hurts": a body, not a return
        if w in _ROUTE and not (speaker and w in W.MOVE_VERBS):
            return False  # "I need to check something": the speaker's errand, no route
    # an "-s" verb only after a new subject: "it tips over easily" is a statement about the
    # thing named before, which the discourse moves record as such
    return any(w in _FINITE or (words[0] not in _REFERENTS and _finite_s(w))
               for w in words[1:5])


def _finite_s(w: str) -> bool:
    """A verb in ``-s`` ("my back hurts", "the dog bites"): not a plural head."""
    return len(w) > 3 and w.isalpha() and w.endswith("s") and not w.endswith("ss") and \
        head_lexicon().match([w]) is None


def _named_before(words: list[str], k: int) -> set[str]:
    lex = head_lexicon()
    out = set()
    for q in range(k):
        hit = lex.match(words[q:q + lex.max_len])
        if hit is not None:
            out.add(hit[1])
    return out


def _clean_aside(words: list[str], a: int, e: int) -> bool:
    """An aside may name a thing only as where something of the speaker's is ("that's where
    the laptop is") or one named before; a new place said otherwise may change the route."""
    seen = _named_before(words, a)
    lex = head_lexicon()
    new = [hit[1] for q in range(a, e) if (hit := lex.match(words[q:q + lex.max_len]))
           and hit[1] not in seen]
    return not new or "where" in words[a:e] or words[e - 1] in ("is", "are", "there")


def _asides(toks: list[Token], ctx: Context) -> list[Token]:
    """Reasons and asides kept as context: a statement after a comma (", I'm hungry"), in
    brackets ("(I think the door is open)"), after a "since" before the request, a manner
    ("so be quiet") or a sentence about the home ("This house has two bathrooms.")."""
    words = [t.text for t in toks]
    drop: set[int] = set()
    sents = _sentence_bounds(words)
    for a, e in sents:
        body_e = e - 1 if words[e - 1] in _ENDS else e
        body = words[a:body_e]
        if len(sents) > 1 and body and (
                (body[0] in ("this", "the", "our", "my") and body[1:2] and
                 body[1] in _HOME and body[2:3] in (["has"], ["have"], ["is"]) and
                 not any(w in _ROUTE for w in body) and not set(words[e:]) & _ANAPHORS)
                or _plain_description(body) or _counted_here(body, words[e:]) or
                (_where_someone_is(body) and not set(words[e:]) & _ANAPHORS)):
            _record(ctx, toks[a:e])
            drop.update(range(a, e))
            continue
        k = a
        while k < body_e:
            w = words[k]
            if w == "(":
                c = next((q for q in range(k + 1, body_e + 1) if q < len(words) and
                          words[q] == ")"), None)
                inner = words[k + 1:c] if c is not None else []
                if inner[:2] in (["i", "think"], ["i", "guess"], ["i", "believe"]):
                    inner = inner[2:]
                if c is not None and _statement(inner) and _clean_aside(words, k + 1, c):
                    _record(ctx, toks[k + 1:c])
                    drop.update(range(k, c + 1))
                    k = c + 1
                    continue
            if w in _REASON_OPENERS and k > a and words[k - 1] not in (",", "and"):
                c = next((q for q in range(k + 1, body_e) if words[q] in (",", ";")), body_e)
                if c == body_e and _statement(words[k + 1:c]) and \
                        _clean_aside(words, k + 1, c):
                    # "go to the desk because that's where the laptop is": kept with its
                    # places, so they are reported
                    _record(ctx, toks[k:c])
                    drop.update(range(k, c))
                    k = c
                    continue
            if (w == "," and k > a) or (k == a and w in _REASON_OPENERS):
                s = k + 1
                c = next((q for q in range(s, body_e) if words[q] in (",", ";")), body_e)
                inner = words[s:c]
                manner = next((m for m in _MANNER if tuple(inner[inner[:1] == ["so"]:]) == m),
                              None)
                if w == "," and (manner is not None or (
                        _statement(inner) and _clean_aside(words, s, c))):
                    _record(ctx, toks[s:c])
                    drop.update(range(k, c))
                    k = c
                    continue
                if w in _REASON_OPENERS and c < body_e and _statement(inner) and \
                        not _heads_in(inner):
                    _record(ctx, toks[k:c])
                    drop.update(range(k, c + 1))
                    k = c + 1
                    continue
            k += 1
    return [t for k, t in enumerate(toks) if k not in drop]


_BEING = frozenset({"sitting", "standing", "lying", "waiting", "parked", "located", "right",
                    "currently", "now", "still", "just", "over", "here", "there", "somewhere"})


def _where_someone_is(body: list[str]) -> bool:
    """ "You're on the couch right now.", "We're in the living room.": where the walker or
    the speaker is, a scene sentence (its places reported as context)."""
    if body[:2] not in (["you", "are"], ["i", "am"], ["we", "are"]):
        return False
    rest = body[2:]
    k = 0
    while k < len(rest) and rest[k] in _BEING:
        k += 1
    if k >= len(rest) or rest[k] not in _PLACE_PREPS:
        return False
    tail = [w for w in rest[k:] if w not in ("right", "now", "currently", "at", "the",
                                               "moment")]
    return _heads_in(rest[k:]) and not any(w in _ROUTE for w in tail)


def _counted_here(body: list[str], later: list[str]) -> bool:
    """ "There are two sofas here.": how many of a thing the home has, a scene sentence when
    no later word may stand for one of them ("go to the other one" keeps it a set-up)."""
    if body[:2] not in (["there", "are"], ["there", "is"]) or set(later) & _ANAPHORS:
        return False
    k = 2
    if k >= len(body) or not (body[k] in W.NUMBERS or body[k].isdigit()):
        return False
    hit = head_lexicon().match(body[k + 1:k + 1 + head_lexicon().max_len])
    if hit is None:
        return False
    rest = body[k + 1 + hit[0]:]
    return rest in ([], ["here"], ["in", "the", "house"], ["in", "this", "house"],
                    ["in", "the", "flat"], ["in", "the", "apartment"], ["in", "here"])


def _plain_description(body: list[str]) -> bool:
    """ "The kitchen is pretty small.": a thing or room, ``is``, and neutral adjectives."""
    if body[:1] not in (["the"], ["this"], ["our"], ["my"]):
        return False
    lex = head_lexicon()
    hit = lex.match(body[1:1 + lex.max_len])
    if hit is None or body[1 + hit[0]:2 + hit[0]] not in (["is"], ["are"], ["'s"]):
        return False
    rest = body[2 + hit[0]:]
    return bool(rest) and rest[-1] in _NEUTRAL_ADJ and \
        all(w in _DEGREE or w in _NEUTRAL_ADJ or w == "and" for w in rest)


def _sentence_bounds(words: list[str]) -> list[tuple[int, int]]:
    out = []
    a = 0
    for k, w in enumerate(words):
        if w in _ENDS:
            out.append((a, k + 1))
            a = k + 1
    if a < len(words):
        out.append((a, len(words)))
    return [(a, e) for a, e in out if e > a]


def _mentions(toks: list[Token], records: list[dict[str, str]]) -> list[Token]:
    """ "The fridge is in the kitchen. Go to it." and "You see the toilet? Go there." say
    where a thing is before the request that refers to it: the mention "there is a fridge
    in the kitchen", which the later stages read (never a stage of its own)."""
    words = [t.text for t in toks]
    sents = _sentence_bounds(words)
    if len(sents) < 2:
        return toks
    lex = head_lexicon()
    out: list[Token] = []
    for n, (a, e) in enumerate(sents):
        sent = toks[a:e]
        body = [t.text for t in sent if t.text not in _ENDS]
        k = 0
        while k < len(body) and body[k] in _INTERJECTIONS | {","}:
            k += 1
        see: tuple[str, ...] | None = next(
            (p for p in (("do", "you", "see"), ("you", "see"), ("see",), ("can", "you", "see"))
             if _at(body, k, p)), None)
        if n == len(sents) - 1 or (see is None and body[k:k + 1] != ["the"]):
            out.extend(sent)
            continue
        d = k + (len(see) if see else 0)
        if body[d:d + 1] not in (["the"], ["a"], ["that"]):
            out.extend(sent)
            continue
        hit = lex.match(body[d + 1:d + 1 + lex.max_len])
        if hit is None:
            out.extend(sent)
            continue
        r = d + 1 + hit[0]
        rest = body[r:]
        if see is not None:
            ok = not rest and words[e - 1] == "?"
            rest_toks: list[Token] = []
        else:
            ok = rest[:1] in (["is"], ["are"]) and len(rest) > 1 and rest[1] in _PLACE_PREPS \
                and not any(w in _ROUTE for w in rest)
            rest_toks = [t for t in sent if t.text not in _ENDS][r + 1:]
        if not ok:
            out.extend(sent)
            continue
        first, head = sent[k], sent[d + 1:r]
        _said(records, body[k:d + 1])
        out.extend([Token("there", first.start, first.end), Token("is", first.start, first.end),
                    Token("a", sent[d].start, sent[d].end), *head, *rest_toks,
                    Token(".", sent[-1].start, sent[-1].end)])
    return out


def spoken_frames(toks: list[Token], records: list[dict[str, str]]
                  ) -> tuple[list[Token], Context]:
    """The register around the instruction taken off (see the module docstring); returns
    the tokens and the reasons, asides and scene sentences kept as context."""
    ctx: Context = []
    toks = _symbols(toks)
    toks = _repairs(toks, records)
    toks = _closings(toks, ctx, records)
    toks = _leads(toks, records)
    toks = _tails(toks, records)
    toks = _asides(toks, ctx)
    toks = _mentions(toks, records)
    return toks, ctx
