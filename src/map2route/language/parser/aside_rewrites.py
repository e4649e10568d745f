"""Token rewrites of stage 0a (:mod:`.human`) for the asides and corrections of fresh set I.

People who never read the parser correct themselves with a verb ("No actually, make it the
dresser in there", "Actually, go to the dresser instead"), add reasons and states that do not
change the route ("The floor lamp is kinda wobbly, so keep your distance from it"; a reason
after a comma, ", it's a tight squeeze", ", the dog's asleep", and "and wait for me" are read as
discourse moves now: :mod:`.moves`), ask for a look at a thing's state ("check the fridge
is closed", "see whether I left the kettle on", "... and let me know"), set the scene inside a
sentence ("I'm in the kitchen, I need you to ..."), ask which room has a thing ("Which of the
living rooms has the newspaper? Go there.") and correct a partitive by negating it ("Not any of
the ones in the living rooms, I mean the one lying on the bed"). Each rule rewrites the window
onto a phrasing the parser already reads, keeping character spans (see :mod:`.rewrites`). What
a rule takes out is never dropped: it is recorded in :attr:`.rewrites.Rewriter.context`, and the
parse reports it as context (with the places it names). Where a window is not exactly one of
these forms the rule does not fire, and the words stay for the parser to read or refuse.
"""

from __future__ import annotations

from map2route.language.errors import ParseError
from map2route.language.inflection import singular_word
from map2route.language.parser import words as W
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.rewrites import Rewriter

_ENDS = (".", "!", "?", ";")
#: Words that start a self-correction ("no actually", "oh wait", "scratch that").
_FIX_LEADS = ("no", "nope", "actually", "wait", "sorry", "oops", "oh", "hmm", "scratch", "that",
              "i", "mean", "rather", "or", "on", "second", "thought", "change", "of", "plan",
              "plans", "hang", "on", ",")
#: Of those, the ones that make the run a correction ("oh ," alone is not one).
_FIX_CORE = ("no", "nope", "actually", "wait", "sorry", "oops", "scratch", "mean", "rather",
             "thought", "plan", "plans", "hang")
#: Verbs that put a new thing in the place of the last one ("make it the dresser").
_CHANGERS = (("make", "it"), ("make", "that"), ("change", "it", "to"), ("change", "that", "to"),
             ("switch", "it", "to"), ("switch", "that", "to"), ("let", "us", "make", "it"),
             ("let", "us", "do"), ("i", "meant"), ("i", "mean"))
#: A request said after a correction lead ("Actually, go to the dresser instead").
_GOAL_VERBS = (("go", "to"), ("head", "to"), ("walk", "to"), ("go", "for"), ("move", "to"))
#: Words that make a request after "actually" an addition, not a replacement.
_ADDITIONS = ("way", "also", "too", "well", "additionally")
_DETS = ("the", "a", "an", "that", "this")


def _sentence_start(rw: Rewriter, i: int) -> bool:
    k = i - 1
    while k >= 0 and rw.w(k) in W.FILLER_WORDS | {"so", "oh"}:
        k -= 1
    return k < 0 or rw.w(k) in _ENDS


def _aside(rw: Rewriter, a: int, b: int) -> None:
    """Record tokens ``a``..``b-1`` as context (taken out of the route, never dropped)."""
    toks = [t for t in rw.toks[a:b] if t.text != ","]
    if toks:
        rw.context.append((" ".join(t.text for t in toks), (toks[0].start, toks[-1].end)))


def _has_head(rw: Rewriter, a: int, b: int) -> bool:
    return any(rw.head_at(k) for k in range(a, b))


def correction(rw: Rewriter, i: int) -> int | None:
    """"No actually, make it the dresser in there." / "Actually, go to the dresser instead." /
    "Make that the dresser." -> "No wait, the dresser ...": a correction the discourse stage
    reads (the new thing takes the place of the goal phrase before it). "Oh actually, stop at
    the desk on your way" adds a stop: the lead is dropped."""
    if i == 0 or not (_sentence_start(rw, i) or rw.w(i - 1) == ","):
        return None
    k = i
    while k < len(rw.words) and rw.w(k) in _FIX_LEADS and not any(rw.at(k, *c) for c in _CHANGERS):
        if rw.w(k) in ("on", "of", "change", "hang", "that") and not (
                rw.at(k, "on", "second") or rw.at(k, "change", "of") or rw.at(k, "of", "plan") or
                rw.at(k, "of", "plans") or rw.at(k, "hang", "on") or
                rw.w(k - 1) in ("scratch", "hang")):
            break
        k += 1
    leads = [w for w in rw.words[i:k] if w in _FIX_CORE]
    if k > i and not leads:
        return None
    changer = max((len(c) for c in _CHANGERS if rw.at(k, *c)), default=0)
    goal = max((len(c) for c in _GOAL_VERBS if rw.at(k, *c)), default=0)
    end = rw.sentence_end(k)
    if changer and rw.w(k + changer) in _DETS and _has_head(rw, k + changer, end):
        if not leads and rw.words[k:k + 2] == ["i", "mean"]:
            return None  # "I mean the dresser": read by the discourse stage as it is
        rw.emit("no", "wait", like=rw.toks[i])
        return k + changer
    if not leads:
        return None
    rest = rw.words[k:end]
    if goal and rw.w(k + goal) in _DETS and "instead" in rest and _has_head(rw, k + goal, end):
        rw.emit("no", "wait", like=rw.toks[i])
        return k + goal
    if rest and (rest[0] in W.OPENERS or rest[0] in ("also", "additionally") or
                 rest[:3] == ["i", "need", "you"]) and \
            any(w in _ADDITIONS for w in rest) and "instead" not in rest:
        _aside(rw, i, k)
        return k
    return None


#: States a look at a thing asks about ("check the fridge is closed").
_STATES = ("closed", "open", "on", "off", "empty", "full", "locked", "unlocked", "clean",
           "dirty", "running", "working", "broken", "lit", "tidy", "messy", "shut", "unplugged",
           "fine", "ok", "okay", "alright", "there", "dry", "wet")
_STATE_ADVERBS = ("still", "really", "actually", "definitely", "properly", "all", "turned",
                  "switched", "plugged", "in", "left")
_LOOKS = (("check",), ("see",), ("verify",), ("confirm",), ("make", "sure"), ("find", "out"),
          ("look", "and", "see"), ("double", "check"))
_THAT = ("if", "whether", "that")
#: "see whether I left the kettle on": the speaker's doing, then the thing.
_LEFT = ("left", "turned", "switched", "shut", "closed", "locked", "put")
#: Words after which a look is a condition of the route, not an errand.
_BRANCHES = ("if", "otherwise", "else", "unless", "then")


def state_check(rw: Rewriter, i: int) -> int | None:
    """"(go) check the fridge is closed" / "see if the tissue box is empty" / "see whether I
    left the kettle on" -> "check the fridge" (go and look at it); the state is context. Not
    when the route branches on the answer ("check whether the TV is on; if it is, ...")."""
    n = max((len(p) for p in _LOOKS if rw.at(i, *p)), default=0)
    if not n:
        return None
    k = i + n
    if rw.w(k) in _THAT:
        k += 1
    end = rw.sentence_end(k)
    stop = next((x for x in range(k, end) if rw.w(x) in (",", "and", "or") and
                 not rw.at(x, "or", "not")), end)
    after = rw.words[stop:]
    if any(w in _BRANCHES for w in after[:1] + after[2:]) or \
            any(w in ("if", "otherwise", "else", "unless") for w in after):
        return None
    if rw.w(k) == "i" and rw.w(k + 1) in _LEFT and (
            rw.w(k + 2) in _DETS or rw.w(k + 2) in ("on", "off") and rw.w(k + 3) in _DETS):
        # "whether I left the kettle on", "if I turned off the stove"
        last = stop - (2 if rw.at(stop - 2, "or", "not") else 0)
        a = k + 2 + (1 if rw.w(k + 2) in ("on", "off") else 0)
        b = last - (1 if rw.w(last - 1) in ("on", "off", "open", "running") else 0)
        if (a, b) == (k + 2, last) or b <= a or not _has_head(rw, a, b) or \
                any(rw.w(x) in ("is", "are") for x in range(a, b)):
            return None  # no state said ("whether I left the keys in the kitchen")
        rw.emit("check", like=rw.toks[i])
        _aside(rw, k, stop)
        rw.out.extend(rw.toks[a:b])
        return stop
    if rw.w(k) not in _DETS:
        return None
    last = stop
    if rw.at(last - 2, "or", "not"):
        last -= 2
    if rw.w(last - 1) not in _STATES:
        return None
    s = last - 1
    while rw.w(s - 1) in _STATE_ADVERBS:
        s -= 1
    if rw.w(s - 1) not in ("is", "are", "'s", "was"):
        return None
    be = s - 1
    if be <= k + 1 or not _has_head(rw, k, be):
        return None
    rw.emit("check", like=rw.toks[i])
    rw.out.extend(rw.toks[k:be])
    _aside(rw, k, stop)
    return stop


#: Report-back tails: "and let me know", "and tell me they're still there".
_REPORTS = (("let", "me", "know"), ("tell", "me"), ("report", "back"), ("report", "to", "me"),
            ("let", "us", "know"), ("give", "me", "a", "shout"), ("text", "me"))


def report_back(rw: Rewriter, i: int) -> int | None:
    """"... and then come back here and let me know" / "and tell me they're still there":
    telling the speaker is not a place; the tail (to the end of its sentence or clause) is
    context."""
    k = i
    if rw.w(k) == "and":
        k += 1
    if rw.w(k) == "then":
        k += 1
    n = max((len(p) for p in _REPORTS if rw.at(k, *p)), default=0)
    if not n or (k == i and rw.w(i - 1) not in (",", "")):
        return None
    end = k + n
    while end < len(rw.words) and rw.w(end) not in (*_ENDS, ","):
        end += 1
    if any(rw.w(x) in W.MOVE_VERBS and rw.w(x) != "back" for x in range(k + n, end)) and \
            _has_head(rw, k + n, end):
        return None  # "tell me when you get to the kitchen": a place of the route
    if rw.out and rw.out[-1].text == ",":
        rw.out.pop()
    _aside(rw, k, end)
    return end


_PLACE_WORDS = ("in", "on", "at", "by", "near", "next", "beside", "behind", "under", "inside",
                "between", "one", "ones", "where", "which", "that")


#: Words that describe which thing is meant ("it's big", "it's the second one"): never an aside.
_DESCRIBING = frozenset(W.SIZE_ADJ) | frozenset(W.COMPARATIVE) | W.RANK_WORDS | W.FILLER_ADJ | \
    (frozenset(W.NUMBERS) - {"a", "an"}) | frozenset(W.ORDINALS)


def _states_only(rw: Rewriter, a: int, b: int) -> bool:
    """Whether tokens ``a``..``b-1`` say a state and nothing that picks a thing or a place (no
    head, place word, route verb, size, rank, colour or number)."""
    return a < b and not _has_head(rw, a, b) and not any(
        rw.w(x) in _PLACE_WORDS or rw.w(x) in W.OPENERS or rw.w(x) in _DESCRIBING or
        not rw.w(x).isalpha() for x in range(a, b))


def so_statement(rw: Rewriter, i: int) -> int | None:
    """"The floor lamp in the living room is kinda wobbly, so keep your distance from it" ->
    "There is a floor lamp in the living room. Keep your distance from it": the thing is
    mentioned (for the "it"), its state is context."""
    if rw.w(i) not in ("the", "that", "this") or not _sentence_start(rw, i) or \
            not rw.head_at(i + 1):
        return None
    end = rw.sentence_end(i)
    so = next((x for x in range(i, end) if rw.at(x, ",", "so")), None)
    if so is None:
        return None
    be = max((x for x in range(i + 2, so) if rw.w(x) in ("is", "are", "'s")), default=None)
    if be is None or not _states_only(rw, be + 1, so):
        return None
    if not any(rw.w(x) in ("it", "them", "there") for x in range(so + 2, end)):
        return None
    rw.emit("there", "is", like=rw.toks[i])
    rw.emit("a", like=rw.toks[i])
    rw.out.extend(rw.toks[i + 1:be])
    rw.emit(".", like=rw.toks[so])
    _aside(rw, i, so)
    return so + 2


#: "I'm in the kitchen, I need you to ...": a scene said before the request, in one sentence.
_SCENE_VERBS = ("sitting", "standing", "lying", "currently", "still", "just", "right", "now",
                "here", "over")
_SCENE_PREPS = ("in", "on", "at", "by", "near", "next", "beside", "inside")
_REQUESTS = (("i", "need", "you"), ("i", "want", "you"), ("can", "you"), ("could", "you"),
             ("would", "you"), ("will", "you"), ("please",), ("i", "would", "like", "you"))


def scene_clause(rw: Rewriter, i: int) -> int | None:
    """"um so I'm in the kitchen, I need you to go to the bed" -> context "i am in the
    kitchen", then the request."""
    if not rw.at(i, "i", "am") and not rw.at(i, "we", "are") or not _sentence_start(rw, i):
        return None
    k = i + 2
    while rw.w(k) in _SCENE_VERBS:
        k += 1
    if rw.w(k) not in _SCENE_PREPS:
        return None
    end = rw.sentence_end(k)
    comma = next((x for x in range(k, end) if rw.w(x) == ","), None)
    if comma is None or not _has_head(rw, k, comma) or any(
            rw.w(x) in W.MOVE_VERBS for x in range(k, comma)):
        return None
    after = comma + 1
    if not (any(rw.at(after, *r) for r in _REQUESTS) or rw.w(after) in W.OPENERS):
        return None
    _aside(rw, i, comma)
    return after


def which_has(rw: Rewriter, i: int) -> int | None:
    """"Which of the living rooms has the newspaper? Go there." -> "Go to the living room
    that has the newspaper.": the question names the room, the next sentence points at it."""
    if rw.w(i) != "which" or not _sentence_start(rw, i):
        return None
    k = i + 1
    if rw.at(k, "of", "the"):
        k += 2
    size = rw.head_at(k)
    v = k + size
    if not size or rw.w(v) not in ("has", "have", "contains", "contain", "holds"):
        return None
    q = rw.sentence_end(v)
    if rw.w(q) != "?" or not _has_head(rw, v + 1, q):
        return None
    end = rw.sentence_end(q + 1)
    for x in range(q + 1, end):
        if rw.w(x) in ("there", "it") or rw.at(x, "that", "one"):
            m = 2 if rw.w(x) == "that" else 1
            rw.out.extend(rw.toks[q + 1:x])
            if rw.w(x) == "there" and rw.w(x - 1) not in ("to", "at", "into"):
                rw.emit("to", like=rw.toks[x])
            rw.emit("the", like=rw.toks[x])
            last = v - 1
            rw.out.extend(rw.toks[k:last])
            rw.out.append(rw.new(singular_word(rw.w(last)), rw.toks[last]))
            rw.emit("that", like=rw.toks[v])
            rw.emit("has", like=rw.toks[v])
            rw.out.extend(rw.toks[v + 1:q])
            return x + m
        if rw.w(x) == ",":
            break
    return None


def negated_partitive(rw: Rewriter, i: int) -> int | None:
    """"Not any of the ones in the living rooms, I mean the one lying on the bed." -> "I mean
    the one that is not in the living rooms that is lying on the bed": a correction that says
    which rooms it is not in, then which one it is (both kept)."""
    if rw.w(i) != "not" or not _sentence_start(rw, i):
        return None
    k = i + 1
    if rw.w(k) in ("any", "one") and rw.w(k + 1) == "of":
        k += 2
    if not (rw.at(k, "the", "ones") or rw.at(k, "the", "one") or rw.w(k) in ("those", "that")):
        return None
    k += 2 if rw.w(k) == "the" else (2 if rw.at(k, "that", "one") else 1)
    if rw.w(k) != "in":
        return None
    end = rw.sentence_end(k)
    comma = next((x for x in range(k, end) if rw.w(x) == ","), None)
    if comma is None or not _has_head(rw, k, comma):
        return None
    j = comma + 1
    while rw.w(j) in ("i", "mean", "but", "rather", "just", "only", "it", "is", "'s", "actually"):
        j += 1
    if not rw.at(j, "the", "one") or j + 2 >= end:
        return None
    room = k + 1 + (1 if rw.w(k + 1) in ("a", "an", "the", "any") else 0)
    hit = head_lexicon().match(rw.words[room:room + head_lexicon().max_len])
    if hit is None or hit[2] != "room" or room + hit[0] != comma:
        return None
    rw.emit("i", "mean", "the", "one", like=rw.toks[i])
    # "that is not in the living rooms", as :func:`.rewrites.not_in_room` reads it
    rw.marks.negated_rooms.update((rw.toks[k + 1].start, rw.toks[room].start))
    rw.out.extend(rw.toks[k:comma])
    if rw.w(j + 2) not in ("that", "which"):
        rw.emit("that", "is", like=rw.toks[comma])
    rw.out.extend(rw.toks[j + 2:end])
    return end


def back_room(rw: Rewriter, i: int) -> int | None:
    """"the back bedroom", "the front living room": the map has no front or back, so the word
    is read like "main" (a room of that type; the grounder picks among them as for "the
    bedroom")."""
    if rw.w(i) not in ("back", "front") or rw.w(i - 1) not in ("the", "a", "that", "my", "our"):
        return None
    hit = head_lexicon().match(rw.words[i + 1:i + 1 + head_lexicon().max_len])
    if hit is None or hit[2] != "room" or hit[1] == "room":
        return None
    return i + 1


_OWNER_WORDS = ("my", "your", "his", "her", "our", "their")


def whose_room(rw: Rewriter, i: int) -> int | None:
    """"Go to my room" as the goal: the map does not say whose room is whose (people mean
    their bedroom, not the room they are in); refused, naming the words. Inside a reference
    ("the bed in your room", "next to my room") it stays the room here, as before."""
    if rw.w(i) in _OWNER_WORDS and rw.w(i + 1) in ("room", "rooms") and \
            rw.w(i - 1) in ("to", "into") and (rw.w(i - 2) in W.MOVE_VERBS or
                                               rw.w(i - 2) in ("me", "us", "way")):
        a, b = rw.toks[i].start, rw.toks[i + 1].end
        text = f"{rw.w(i)} {rw.w(i + 1)}"
        msg = (f"did not understand {text!r}: the map does not say whose room is whose; name "
               "the room by its type or what is in it (e.g. 'the bedroom with the desk')")
        raise ParseError(msg, text, (a, b))
    return None


def too_close(rw: Rewriter, i: int) -> int | None:
    """"don't get too close to the toilet" -> "don't get close to the toilet" (said negated,
    "too" adds nothing)."""
    if rw.w(i) == "too" and rw.w(i + 1) in ("close", "near") and \
            rw.w(i - 1) in ("get", "go", "come", "walk", "be", "stand", "drive", "move") and \
            rw.w(i - 2) in ("not", "never", "n't"):
        return i + 1
    return None


def until_in_there(rw: Rewriter, i: int) -> int | None:
    """"Go to the alarm clock in the bedroom. Avoid the dog bed until you're in there." ->
    "until you are in the bedroom": the room named last, in this sentence or the one before."""
    if rw.w(i) not in ("until", "till", "til"):
        return None
    n = 0
    # "until you get there" is the goal, which may be a thing: left to the scope rules
    for p in (("you", "are", "in", "there"), ("you", "get", "in", "there"),
              ("you", "are", "inside", "there"), ("you", "get", "inside", "there")):
        if rw.at(i + 1, *p):
            n = len(p)
            break
    if not n:
        return None
    room = last_room(rw, i)
    if room is None:
        return None
    rw.out.append(rw.toks[i])
    rw.emit("you", "are", "in", "the", like=rw.toks[i + n])
    rw.out.extend(rw.new(w, rw.toks[i + n]) for w in room)
    return i + 1 + n


def thing_in_there(rw: Rewriter, i: int) -> int | None:
    """"make it the dresser in there" (after "the desk in the bedroom") -> "the dresser in the
    bedroom": "in there" after a thing is the room named last, in this sentence or the one
    before; left as it is when none was named."""
    if not rw.at(i, "in", "there") or rw.w(i + 2) not in ("", *_ENDS, ",", "please"):
        return None
    lex = head_lexicon()
    hits = [lex.match(rw.words[k:i]) for k in range(max(0, i - 3), i)]
    if not any(h is not None and h[2] != "room" and k + h[0] == i
               for k, h in zip(range(max(0, i - 3), i), hits, strict=True)):
        return None
    room = last_room(rw, i)
    if room is None:
        return None
    rw.out.append(rw.toks[i])
    rw.emit("the", like=rw.toks[i + 1])
    rw.out.extend(rw.new(w, rw.toks[i + 1]) for w in room)
    return i + 2


def last_room(rw: Rewriter, i: int, sentences: int = 2) -> list[str] | None:
    """The words of the room named last before ``i``, in its sentence or the ``sentences``
    - 1 before it."""
    lex = head_lexicon()
    left = sentences
    for k in range(i - 1, -1, -1):
        if rw.w(k) in _ENDS:
            left -= 1
            if not left:
                return None
            continue
        hit = lex.match(rw.words[k:k + lex.max_len])
        if hit is not None and hit[2] == "room" and hit[1] != "room":
            return rw.words[k:k + hit[0]]
    return None
