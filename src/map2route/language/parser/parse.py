"""``parse_instruction``: the parser's entry point, with its input limit."""

from __future__ import annotations

from map2route.language.errors import InstructionTooLongError, ParseError
from map2route.language.parser.annotator_rewrites import room_then_point
from map2route.language.parser.apposed_heads import merge_apposed_heads
from map2route.language.parser.aside_clauses import MAX_ASIDES, aside_at, asides_in
from map2route.language.parser.clauses import ClauseReader
from map2route.language.parser.coverage import (
    HARMLESS,
    IDIOM_HEADS,
    aside_texts,
    asides,
    unexplained,
)
from map2route.language.parser.errand_talk import through_then_stop
from map2route.language.parser.geometry_targets import group_centres
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.human import (
    apply_marks,
    merge_passed_on_the_way,
    merge_room_then_object,
)
from map2route.language.parser.leg_phrasings import leg_clauses
from map2route.language.parser.leg_scopes import leave_room_legs
from map2route.language.parser.lexical_frames import absent_why
from map2route.language.parser.loo_rooms import loo_room_refs
from map2route.language.parser.model import Clause, InstructionParse, Modifier, RefExpr
from map2route.language.parser.motion_targets import room_then_corner
from map2route.language.parser.openers import check_count
from map2route.language.parser.passes_told_after import merge_around_passes, refuse_unused
from map2route.language.parser.room_picks import room_picks_after
from map2route.language.parser.room_places import restated_rooms
from map2route.language.parser.room_then_thing import (
    plural_rules,
    room_then_thing,
    room_topic_rules,
    shared_legs,
)
from map2route.language.parser.speaker_place import to_speaker
from map2route.language.parser.speaker_return import back_to_speaker
from map2route.language.parser.speaker_tails import speaker_tails
from map2route.language.parser.stage_legs import tie_stage_legs
from map2route.language.parser.stage_repairs import (
    drop_restated,
    repair_stages,
)
from map2route.language.parser.stage_rewrites import merge_room_then_stop
from map2route.language.parser.state import ATTACHMENTS
from map2route.language.parser.terse_restated import drop_terse_restated
from map2route.language.parser.walk_phrasings import merge_stop_there
from map2route.language.tokens import tokenize
from map2route.language.vocabulary import ROOM_WORD_TYPES

#: The longest instruction :func:`parse_instruction` reads by default, in characters. The
#: parser is polynomial (see :mod:`.state`), so this bounds its time: about 0.1 s for a
#: 2,000-character instruction of clauses, well under 1 s for one long noun-phrase chain. The
#: longest instruction of the shipped episodes and human sets has 1,108 characters. Change it
#: with ``max_chars=`` or ``offline.max_instruction_chars`` in ``config/grounding.yaml``.
MAX_INSTRUCTION_CHARS = 2000


class Parser(ClauseReader):
    """The instruction parser: every stage over one instruction's state."""


def parse_instruction(text: str, *, attachment: str = "local",
                      max_chars: int = MAX_INSTRUCTION_CHARS) -> InstructionParse:
    """Parse ``text`` into clauses and referring expressions (no map needed).

    Args:
        text: the instruction.
        attachment: a key of :data:`~map2route.language.parser.state.ATTACHMENTS`.
        max_chars: refuse instructions longer than this many characters.

    Raises:
        ParseError: a clause could not be understood; its ``word`` names the culprit.
        InstructionTooLongError: ``text`` is longer than ``max_chars`` (nothing is cut off).
    """
    if attachment not in ATTACHMENTS:
        msg = f"unknown attachment policy {attachment!r}; use one of {sorted(ATTACHMENTS)}"
        raise ValueError(msg)
    if len(text) > max_chars:
        msg = (f"the instruction has {len(text):,} characters, more than the parser's limit "
               f"of {max_chars:,}; shorten it or split it into several routes, or raise the "
               "limit (offline.max_instruction_chars in config/grounding.yaml, or "
               "parse_instruction(..., max_chars=N))")
        raise InstructionTooLongError(msg)
    if not text.strip():
        raise ParseError("the instruction is empty")
    # an aside that names nothing on the map ("I'll be along in a minute") is set apart as
    # context, blanked to spaces so that every span still points into ``text``
    asides: list[str] = []
    read, first, every = speaker_tails(text), None, False  # ", I'm by X.": a sentence
    while True:
        try:
            parse = refuse_unused(_parse_text(read, attachment))  # H3: never a silent drop
            break
        except ParseError as err:
            first = first or err
            cut = aside_at(read, err.span) if err.span and len(asides) < MAX_ASIDES else None
            cuts = [cut] if cut else [] if every else asides_in(read)[:MAX_ASIDES - len(asides)]
            every = every or not cut  # the clause refused is not an aside: all asides, once
            if not cuts:
                raise first from None
            for lo, hi in sorted(cuts, reverse=True):
                asides.insert(0, read[lo:hi].strip(" -"))
                read = _blank(read, lo, hi)
    parse.instruction = text
    parse.context += [f"aside: {a}" for a in asides]
    return parse


def _blank(text: str, lo: int, hi: int) -> str:
    """``text`` with the aside ``[lo, hi)`` and one mark beside it turned to spaces."""
    if text[lo:lo + 1] == "-" and text[hi:hi + 1] in (".", "!", "?"):
        pass  # "A - B. C" without B: its own dash goes with it, the stop stays
    elif lo > 0 and text[lo - 1] in ",;:\u2014\u2013":
        lo -= 1  # "A, B, C" without B: "A , C"
    elif hi < len(text) and text[hi] in ".!?,;:":
        hi += 1  # the aside's own mark goes with it
    return text[:lo] + " " * (hi - lo) + text[hi:]


def _parse_text(text: str, attachment: str) -> InstructionParse:
    """One parse of ``text`` (see :func:`parse_instruction`)."""
    p = Parser(text, attachment)
    clauses = p.clauses()
    for place, t in p.absent:
        if t not in p.used:
            # "the laptop in the dining room": never drop a place silently
            raise ParseError(f"did not understand {place!r} in {text!r}: {absent_why(place)}",
                             place, p.span(t, t + len(place.split())))
    if not clauses:
        raise ParseError(f"found no route clause in {text!r}: say where to go, e.g. "
                         "'go to the sofa'")
    aside = asides(p)  # reported as context: neither unexplained nor unused
    left = unexplained(p, clauses, aside)
    if left:
        # no silent drops: a parse that leaves content out is a refusal naming that content
        words, span = left[0]
        others = "".join(f", {w!r}" for w, _ in left[1:])
        raise ParseError(f"did not understand {words!r}{others} in {text!r}: the offline "
                         "parser would leave it out of the route; rephrase it, or use the "
                         "hybrid or llm grounder", words, span)
    skipped = [w for w in dict.fromkeys(p.unknown) if w not in HARMLESS and w not in IDIOM_HEADS]
    if skipped:
        # an unknown describing word ("the elongated dresser") may pick another thing than
        # its head alone would: a parse without it drops content, so it is a refusal
        word = skipped[0]
        at = text.lower().find(word)
        raise ParseError(f"did not understand {word!r} in {text!r}: a describing word the "
                         "offline parser cannot check on the map; leave it out if the thing "
                         "is the only one of its kind there, or use the hybrid or llm grounder",
                         word, (at, at + len(word)) if at >= 0 else (0, len(text)))
    clauses = merge_room_then_object(merge_around_passes(clauses, text), text)  # H3
    apply_marks(clauses, p.marks)
    room_picks_after(clauses, text)  # I6: "the first bedroom u hit coming out of the kitchen"
    clauses = group_centres(clauses, text, p.marks)
    clauses = room_then_point(restated_rooms(clauses, text), text)
    clauses = room_then_corner(clauses, text)
    clauses = merge_passed_on_the_way(clauses, text, p.marks)
    clauses = merge_apposed_heads(clauses, text)  # "the sofa in X, the sofa by the window"
    clauses = merge_room_then_stop(clauses, text, p.marks)
    clauses = through_then_stop(merge_stop_there(clauses, text), text)
    clauses = shared_legs(room_topic_rules(plural_rules(room_then_thing(clauses, text), text),
                                           text), text)  # J2
    context_refs = loo_room_refs(text, [r for sp in p.context_spans
                                        for r in _context_refs(text, sp)])
    clauses = leg_clauses(to_speaker(clauses, text, p.context), text, context_refs)
    clauses = leave_room_legs(clauses, text)  # I2: "as you leave the kitchen": the leg out of it
    clauses = repair_stages(clauses, text, context_refs, p.context_spans)
    clauses, restated = drop_restated(clauses, text)  # "X? like, X", "go to X and wait there"
    clauses, terse = drop_terse_restated(clauses, text)  # "Fridge please. Go to the fridge."
    restated += terse
    tie_stage_legs(clauses, p.marks)
    clauses = back_to_speaker(clauses, text, context_refs)  # "I'm on the couch ... back to me"
    check_count(clauses, p.context, p.context_spans, text)  # I5: "Two stops." + three
    _refuse_orphan_pronouns(clauses, text)
    # words of an aside are reported in context (aside_texts), so they are not unused: a
    # consumer reading ``unknown_words`` must not take a reported reason for a dropped word
    unused = [w for w in p.unused_words() if w in p.unknown or any(
        p.words[i] == w and i not in p.used and i not in aside for i in range(len(p.words)))]
    return InstructionParse(text, clauses, unused, attachment,
                            [*p.context, *restated, *aside_texts(p)], context_refs,
                            list(p.marks.moves))


def _refuse_orphan_pronouns(clauses: list[Clause], text: str) -> None:
    """A stage or rule whose target is "it" / "there" with nothing named before it to point
    at ("My feeling is that the sofa is best. Go to it."): grounding would take it for the
    robot's own place, a route of 0 m that looks like an answer, so it is a refusal naming
    the pronoun."""
    seen = False
    for c in sorted(clauses, key=lambda c: c.span[0]):
        refs = [*c.refs, *([c.other] if c.other is not None else [])]
        if refs and refs[0].head_kind == "pronoun" and not seen:
            word = refs[0].text
            raise ParseError(f"did not understand what {word!r} points back at in {text!r}: "
                             "nothing before it names a place or thing the route can use; "
                             f"name it instead (e.g. 'go to the sofa')", word, refs[0].span)
        seen = seen or any(r.head_kind != "pronoun" for r in refs)


#: Words that end a scene-setting sentence without naming a place ("... right now").
_TIME_TAILS = (("right", "now"), ("now",), ("at", "the", "moment"), ("currently",),
               ("at", "the", "minute"), ("as", "we", "speak"))


def _context_refs(text: str, span: tuple[int, int]) -> list[RefExpr]:
    """The places a context sentence names ("I'm sitting on the sofa in the living room" ->
    the sofa in the living room), read as the target of "go to ..." from its first head on
    (spans into ``text``); where that is not one reading, each head on its own."""
    toks = [t for t in tokenize(text[span[0]:span[1]]) if t.text not in (".", "!", "?")]
    lex = head_lexicon()
    words = [t.text for t in toks]
    first = next((k for k in range(len(words)) if lex.match(words[k:k + lex.max_len]) or
                  _fuzzy_after_det(words, k)), None)
    if first is None:
        return []
    while first > 0 and words[first - 1] in ("the", "a", "an", "my", "our", "your", "this",
                                             "that", "one", "front"):
        first -= 1
    end = len(words)
    for tail in _TIME_TAILS:
        if tuple(words[end - len(tail):end]) == tail:
            end -= len(tail)
            break
    if end <= first:
        return []
    a, b = span[0] + toks[first].start, span[0] + toks[end - 1].end
    lead = "go to "
    try:
        got = parse_instruction(lead + text[a:b])
    except ParseError:
        got = None
    if got is not None and not got.context and all(c.kind == "goal" for c in got.clauses):
        return [_shifted(r, a - len(lead)) for c in got.clauses for r in c.refs]
    out = []
    k = first
    while k < end:
        hit = lex.match(words[k:k + lex.max_len])
        if hit is None:
            hit = _fuzzy_after_det(words, k)
        if hit is None:
            k += 1
            continue
        n, head, kind, plural = hit
        ta, tb = span[0] + toks[k].start, span[0] + toks[k + n - 1].end
        room = ROOM_WORD_TYPES.get(words[k]) if n > 1 and kind != "room" else None
        mods = [] if room is None else [  # "the kitchen table": still in the kitchen
            Modifier("in_room", [RefExpr(words[k], (ta, span[0] + toks[k].end), room, "room")])]
        out.append(RefExpr(text[ta:tb], (ta, tb), head, kind, plural=plural, modifiers=mods))
        k += n
    return out


def _fuzzy_after_det(words: list[str], k: int) -> tuple[int, str, str, bool] | None:
    """A misspelt or run-together head after a determiner ("the basketball"), as a match."""
    if k == 0 or words[k - 1] not in ("the", "a", "an") or len(words[k]) < 5 or \
            not words[k].isalpha():
        return None
    got = head_lexicon().fuzzy(words[k])
    return (1, got[0], got[1], False) if got is not None else None


def _shifted(ref: RefExpr, delta: int) -> RefExpr:
    """``ref`` with every span moved by ``delta`` characters."""
    out = ref.clone()
    out.span = (ref.span[0] + delta, ref.span[1] + delta)
    out.modifiers = [Modifier(m.kind, [_shifted(r, delta) for r in m.refs], m.rank, m.k,
                              m.count, m.negated, (m.span[0] + delta, m.span[1] + delta),
                              m.floating) for m in ref.modifiers]
    return out
