"""Stage 0a of the parser: human phrasings rewritten onto forms the later stages read.

People writing route instructions for a benchmark set the scene ("You are standing next to a
bed."), open scopes with the way they move ("As you leave the bedroom, ..."), number their stops
("Visit three places in order: 1. ..., 2. ..."), say partitives ("the second of the two chairs
closest to the fridge", "the larger of the two bathrooms"), negate a relative clause ("the
bedroom that does not have a desk"), forbid the gap between two things ("don't pass between
the sofa and the TV") and place things along the route ("the first bedroom you enter", "the
plant you pass", "pass through three different bedrooms"). Each rule (:mod:`.rewrites`,
:mod:`.route_rewrites`; tried in the order of :data:`RULES`) rewrites a token window onto the
phrasing the parser already reads, keeping the character spans so that a refusal still points
into the original text, and leaves marks that :func:`apply_marks` turns into modifiers after
the parse.
Scene-setting sentences are context, never stages: they are taken out of the token list and
returned, so the parse reports them (:attr:`~.model.InstructionParse.context`) instead of
dropping them. Hand-written for the same reason as :mod:`.normalise`.
"""

from __future__ import annotations

import re

from map2route.language.errors import ParseError
from map2route.language.parser import anaphor_forms as AF
from map2route.language.parser import annotator_rewrites as A
from map2route.language.parser import aside_rewrites as I
from map2route.language.parser import constraint_frames as CF
from map2route.language.parser import deed_reasons as DN
from map2route.language.parser import description_forms as DF
from map2route.language.parser import discourse_refs as DR
from map2route.language.parser import geometry_targets as GT
from map2route.language.parser import motion_frames as MF
from map2route.language.parser import note_fragments as NF
from map2route.language.parser import ordinal_forms as OF
from map2route.language.parser import reference_frames as RF
from map2route.language.parser import register_rewrites as H
from map2route.language.parser import relation_rewrites as RL
from map2route.language.parser import rewrites as R
from map2route.language.parser import route_frames as RTF
from map2route.language.parser import route_rewrites as RR
from map2route.language.parser import set_statements as SS
from map2route.language.parser import stage_rewrites as S
from map2route.language.parser import typed_forms as TF
from map2route.language.parser import walk_phrasings as WP
from map2route.language.parser import words as W
from map2route.language.parser.anaphoric_scopes import anaphoric_scopes
from map2route.language.parser.aside_restatements import restatements
from map2route.language.parser.carried_things import carried_things
from map2route.language.parser.contrast_positions import contrast_positions
from map2route.language.parser.contrasted_contents import contrasted_contents
from map2route.language.parser.corner_rooms import corner_of_that_room
from map2route.language.parser.correction_forms import correction_forms
from map2route.language.parser.counted_rooms import counted_rooms
from map2route.language.parser.destination_forms import destination_forms
from map2route.language.parser.errand_asides import errand_asides
from map2route.language.parser.errand_reach import errand_reach
from map2route.language.parser.errand_talk import errand_talk
from map2route.language.parser.event_scopes import event_scopes
from map2route.language.parser.finding_out import finding_out
from map2route.language.parser.heads import head_lexicon
from map2route.language.parser.here_to_me import here_to_me
from map2route.language.parser.house_walks import house_walks
from map2route.language.parser.introductions import introductions
from map2route.language.parser.its_relations import its_after_relation
from map2route.language.parser.kind_talk import kind_talk
from map2route.language.parser.learner_forms import learner_forms
from map2route.language.parser.leg_ends import leg_ends
from map2route.language.parser.leg_phrasings import leg_phrasings
from map2route.language.parser.leg_scopes import leg_scopes
from map2route.language.parser.loo_rooms import loo_as_room
from map2route.language.parser.manner_positions import manner_positions
from map2route.language.parser.mention_scenes import mention_scenes
from map2route.language.parser.model import (
    Clause,
    Modifier,
    RefExpr,
    place_in_room,
    room_then_object,
)
from map2route.language.parser.moves import discourse_moves
from map2route.language.parser.open_reasons import open_reasons
from map2route.language.parser.openers import openers
from map2route.language.parser.owned_rooms import refuse_owned_room
from map2route.language.parser.pass_then_goal import (
    back_at,
    back_in_room,
    on_your_way,
    pass_then_goal,
)
from map2route.language.parser.plural_antecedents import plural_antecedents
from map2route.language.parser.prohibitions import prohibitions
from map2route.language.parser.question_picks import question_picks
from map2route.language.parser.reason_moves import before_moves
from map2route.language.parser.reason_tails import reason_tails
from map2route.language.parser.rejections import unmarked_rejections
from map2route.language.parser.request_frames import request_frames
from map2route.language.parser.retractions import retractions
from map2route.language.parser.rewrites import Marks, Rewriter, Rule
from map2route.language.parser.robot_talk import robot_talk
from map2route.language.parser.room_contents import room_content_forms
from map2route.language.parser.room_picks import room_picks
from map2route.language.parser.room_places import room_place_forms
from map2route.language.parser.room_set_picks import room_set_picks
from map2route.language.parser.room_there import and_room_scope, room_there
from map2route.language.parser.route_order_clauses import route_order_clauses
from map2route.language.parser.route_order_scopes import route_order_scopes
from map2route.language.parser.rule_wording import rule_wording
from map2route.language.parser.run_on_frames import (
    item_rooms,
    last_step,
    run_on_fixes,
    run_on_starts,
    said_release,
    terse_reasons,
    terse_sentences,
)
from map2route.language.parser.said_around import said_around
from map2route.language.parser.said_reasons import said_reasons
from map2route.language.parser.said_repairs import said_repairs
from map2route.language.parser.same_kind_rooms import same_kind_rooms
from map2route.language.parser.scene_sets import scene_sets
from map2route.language.parser.scope_leads import scope_leads
from map2route.language.parser.scoped_rule_forms import scoped_rule_forms
from map2route.language.parser.set_intros import set_intros
from map2route.language.parser.set_picks import set_picks
from map2route.language.parser.short_sentences import short_sentences
from map2route.language.parser.spoken_boundaries import spoken_boundaries
from map2route.language.parser.spoken_frames import spoken_frames
from map2route.language.parser.stage_repairs import token_repairs
from map2route.language.parser.state_reasons import state_reasons
from map2route.language.parser.take_backs import take_backs
from map2route.language.parser.talk_around import talk_around
from map2route.language.parser.told_positions import told_positions
from map2route.language.parser.verb_forms import verb_forms
from map2route.language.tokens import Token

__all__ = ["Marks", "apply_marks", "human_forms", "merge_passed_on_the_way",
           "merge_room_then_object"]

#: The rewrite rules in the order they are tried (the first that fires at a token wins).
RULES: tuple[Rule, ...] = (
    I.whose_room, I.back_room, I.scene_clause, I.correction, I.negated_partitive, I.which_has,
    I.state_check, I.report_back, I.so_statement, I.too_close,
    I.until_in_there, I.thing_in_there,
    H.which_question, H.modal_lead, H.wish_at, H.though_tail, H.in_there, H.placed_in_corner,
    H.one_of_around, H.arrival_scope, H.with_the_count,
    RR.before_list, R.list_header, R.announced_list, R.sentence_marker, R.list_item, R.ordinal_item, R.leave_scope, R.negated_list,
    R.coordination, R.same_room,
    R.midpoint, R.corner, R.then_to, R.stand_next_to, R.find_and_go_there, R.nearby,
    R.not_in_room, R.while_walking, R.go_and_stand, R.serial_verb, R.does_not_have, R.has_no,
    R.not_relation, R.dont_pass_between, R.without_passing_between, R.partitive,
    R.shortest_distance, R.nothing_on_it,
    RR.counted_set, RR.first_few_met, RR.ordered_visits, RR.room_just_before, RR.in_order_of_distance,
    RR.route_order, RR.another, RR.destination, RR.current_room, RR.adjacent_room,
    RR.connected_to, RR.door_tail, RR.if_you_meet,
)

_ENDS = (".", "!", "?")
#: "the area between", "don't pass between": a gap between two things, not a room
_GAP = re.compile(r"(?:the\s+)?(?:area|space|gap)\s+between\b|"
                  r"without\s+[a-z]+\s+between\b|"
                  r"(?:do\s*n[o']t|never|not)\s+(?:[a-z]+\s+){1,4}?(?:in\s+)?between\b|"
                  # the negators of .constraint_frames ("no cutting between", "try not to
                  # walk between", "not between"): the gap, said with its verb
                  r"[a-z' ]*?\b(?:n[o']t|dont|never|no|without|avoid|from|didn't)\s+"
                  r"(?:[a-z]+\s+){0,5}?between\b")
#: "You are standing next to a bed.": the verbs and places of a scene-setting sentence.
_SCENE_AFTER_YOU_ARE = ("standing", "sitting", "located", "currently", "now", "in", "at", "next",
                        "near", "by", "beside", "facing", "right", "inside", "starting", "just",
                        "parked", "stood", "sat", "waiting", "positioned", "placed",
                        "charging", "docked", "plugged", "resting", "idling", "lying")
_SCENE_AFTER_YOU = ("start", "begin", "find", "stand")
#: Verbs that make a "you are ..." sentence a request after all ("you are to go to ...").
_ROUTE_VERBS = ("go", "walk", "head", "move", "visit", "proceed", "navigate", "leave", "exit",
                "continue", "stop", "finish", "end", "reach", "avoid", "keep", "stay")


def _sentences(toks: list[Token]) -> list[list[Token]]:
    out: list[list[Token]] = [[]]
    for n, t in enumerate(toks):
        out[-1].append(t)
        # "1." of a numbered list is not a sentence end
        if t.text in _ENDS and not (n > 0 and toks[n - 1].text.isdigit() and
                                    t.text == "." and (n < 2 or toks[n - 2].text in
                                                       (":", ",", ".", ";"))):
            out.append([])
    return [s for s in out if s]


#: Words that open a spoken sentence without adding to it ("Hey, ...", "Okay so, ...").
_LEAD_FILLERS = W.FILLER_WORDS | {"so", ",", "and", "oh"}


def _lead(words: list[str]) -> int:
    """How many filler words open ``words`` ("okay so , i am ...": 3)."""
    k = 0
    while k < len(words) and words[k] in _LEAD_FILLERS:
        k += 1
    return k


def _scene_setting(words: list[str]) -> bool:
    """Whether a sentence only tells where the walker is ("You are standing next to a bed.",
    "Hey, I'm sitting on the sofa in the living room.") or announces a list ("Do the
    following in order.")."""
    words = words[_lead(words):]
    if words[:2] in (["i", "am"], ["we", "are"]):
        words = ["you", "are", *words[2:]]  # the speaker is where the route starts
    if words[:3] in (["do", "the", "following"], ["follow", "these", "steps"],
                     ["here", "is", "the"], ["here", "are", "the"]) and \
            not any(head_lexicon().match(words[k:k + 1]) for k in range(len(words))):
        return True
    if len(words) < 3 or any(w in _ROUTE_VERBS for w in words):
        return False
    if words[:2] == ["you", "are"] and words[2] in _SCENE_AFTER_YOU_ARE:
        return True
    if words[0] == "you" and words[1] in _SCENE_AFTER_YOU and words[1] != "find":
        return True
    return words[:3] in (["you", "find", "yourself"], ["your", "starting", "point"],
                         ["your", "starting", "position"], ["you", "have", "just"])


def _route_order_reference(words: list[str]) -> tuple[int, int] | None:
    """Token span of a reference relative to another place of the route that the parser does
    not resolve ("the room just after the bathroom"), if any."""
    for k, w in enumerate(words):
        if w in ("room", "area") and k + 2 < len(words) and \
                words[k + 1] in ("just", "right", "immediately", "directly") and \
                words[k + 2] == "after":
            b = k + 3
            b += 1 if words[b:b + 1] in (["the"], ["a"]) else 0
            hit = head_lexicon().match(words[b:b + head_lexicon().max_len])
            return k - 1 if k and words[k - 1] == "the" else k, b + (hit[0] if hit else 0)
    return None


def human_forms(toks: list[Token], text: str = ""
                ) -> tuple[list[Token], list[tuple[str, tuple[int, int]]], Marks]:
    """Rewrite human phrasings (see the module docstring); returns the tokens, the
    scene-setting sentences taken out as context (each with its character span), and where each room of a negated "that is
    not in a bedroom" starts (:func:`negate_rooms` marks those ``in_room`` modifiers).

    Raises:
        ParseError: a reference relative to another place of the route ("the room just
            after the bathroom"): the offline parser names it instead of reading it wrongly.
    """
    toks, said_why = said_reasons(toks, text)  # "Biscuit gets anxious", "floor still wet", "so X sees you"
    toks, framed = request_frames(toks)  # O: "Do this in order:", "I'm on X, ..., and I need you to"
    toks = mention_scenes(toks)  # "now then, I'm over by X - go", "I've lost my X somewhere near Y"
    toks = verb_forms(said_around(toks))  # polite frames, time tails, hedges; "sit by", "come back over here"
    toks, repaired = said_repairs(toks)  # N: "- no sorry, not the toilet, the sink": one form
    toks = room_place_forms(toks)  # N: "the corner where the bat is leaning", "opens off X"
    toks = room_content_forms(toks)  # O: "the bedroom where the settee ended up", "you know,"
    order = _route_order_reference([t.text for t in toks])
    if order is not None:
        a, b = toks[order[0]].start, toks[min(order[1], len(toks)) - 1].end
        msg = (f"did not understand the route-order reference {_text(toks, a, b)!r}: it "
               "is placed relative to another room of the route, which the offline parser "
               "does not read; name the place by what is near it or in it, or use the hybrid "
               "or llm grounder")
        raise ParseError(msg, _text(toks, a, b), (a, b))
    # discourse moves first: chatter, asides, cautions, appositions, corrections
    records: list[dict[str, str]] = []
    toks, counted = counted_rooms(toks)  # O: "you'll pass two bedrooms ... in the last one"
    toks = room_set_picks(toks)  # O: "both bathrooms ... the small one, then the other one"
    toks = route_order_clauses(contrast_positions(toks))  # M2: contrasts; M3: "the 2nd bedroom you'll walk into": one form
    toks, told = told_positions(toks)  # K3: "the back bedroom", "the fridge corner of X"
    toks, route_ctx = route_order_scopes(toks)  # K5: "in the first one", "my room"
    toks = plural_antecedents(toks)  # "the bigger of them" after "two beds": of the beds
    toks = short_sentences(toks)  # "Starting from the kitchen.", "Telly in the lounge. Go."
    toks, errand = errand_asides(toks)  # J4: "go check if X is full", "You'll be carrying ..."
    toks, walked = house_walks(toks)  # J5: "on through the house to X", "the room it opens into"
    toks, opened = openers(toks)  # I5: "Two stops for this one.", "Coming in through X:"
    toks, scened = scene_sets(toks)  # K2: "there are two Xs: one in A, one in B", "where I want you is X"
    toks, introduced = introductions(toks)  # J1: "the X I want is the one ...; go to it"
    toks, intros = set_intros(toks)  # I3: "you know the X?", "we've got two Xs", "N of them"
    toks, run_on = scoped_rule_forms(toks)  # N: "while you in R", "on leg two", "stay over by X"
    toks = leg_scopes(scope_leads(toks))  # I2: "on the way back to X", "the leg between A and B", "while you're doing it"
    toks = learner_forms(toks)  # H1: "move until the X", "next the X", "keep far of X"
    toks = room_picks(toks)  # I6: "the bedroom where is X", "the loo the bedrooms share"
    toks = spoken_boundaries(toks)  # H2: "... um dont go in X the floor is wet", "one go ..."
    toks, manner = manner_positions(toks)  # I4: "wait in front of it", "swing wide around X"
    toks, asked, picked = question_picks(toks)  # "Which bed is furthest from X? Go there."
    # "that bedroom", "between stops 1 and 2" (G3); before errand_reach rewrites "the X room",
    # so that it resolves to the room X was said to be in
    toks = corner_of_that_room(toks)  # "the corner of that room": the room just reached
    toks = anaphoric_scopes(event_scopes(toks))  # J3: "if you come in through R", "as you come out of R"
    toks, carried = carried_things(toks)  # "take this mug to the desk": the desk
    toks, reached = errand_reach(toks)  # G5: "water the plant", "the room you reach through X"
    toks, worded = rule_wording(toks)  # "a nice wide gap", "tight to", "don't try to fit between"
    toks = and_room_scope(room_there(here_to_me(same_kind_rooms(robot_talk(toks)))))  # F2
    toks = back_at(on_your_way(pass_then_goal(its_after_relation(toks))))  # "past X and over to Y"
    toks = back_in_room(toks)  # "the vase on the dresser back in this room": where it is
    toks = contrasted_contents(loo_as_room(toks))  # the loo: the bathroom; "has X but no Y"
    toks, talk = talk_around(toks)  # headers, waits, asides, go idioms
    # note forms first: "youre at the door go to ..." (the start's own sentence), "no wait"
    toks, legs = leg_phrasings(leg_ends(toks))  # H3: "the stretch from X to Y"; "both ways", "coming back", "hug the X side", "going in"
    toks, taken = take_backs(toks)  # K4: "don't go in X... oh, you'll have to", "(don't stop at it)"
    toks, retracted = retractions(token_repairs(toks))  # "No, hang on, I've got that backwards"
    toks = unmarked_rejections(NF.note_fragments(prohibitions(toks)))  # notes, asides
    toks, restated = restatements(toks)  # "don't run it over", "someone left it on X"
    toks, checked = finding_out(toks)  # "see whether ...", "back to me at the X"
    toks = terse_sentences(item_rooms(toks))
    toks = last_step(terse_reasons(run_on_starts(run_on_fixes(toks))))
    toks, states = state_reasons(toks)  # "keep away from X, paint's still wet"
    toks, tails = reason_tails(toks)  # I1: ", your wheels keep catching on them"
    toks, loose = open_reasons(toks)  # "you scuffed it last week", "Pretty sure I left ..."
    toks, released = said_release(toks)
    toks, heading = errand_talk(toks)  # "swing past", "the corner where", "the other one"
    toks, kinds = kind_talk(toks)  # "the ordinary chair", "Two of the beds have X on them"
    toks = correction_forms(toks)  # self-corrections in the order the discourse stage reads
    toks = OF.next_ones(toks)  # "the first bedroom ... and on into the next one"
    toks, listed = destination_forms(toks)  # errands, vias, partitives, corners, ...
    toks = TF.surface_articles(toks)  # ", floor's still wet": the reason's subject
    toks = AF.between_it(toks)  # "go to the couch but don't go between it and the TV"
    toks = DF.early_forms(toks)  # "The table: stay away from it.", "between them"
    toks = AF.room_outside(toks)  # "the living room just outside it": the room beside it
    toks, set_ups = set_picks(toks)  # "There are two chairs at X. Go to whichever one ..."
    toks, stated = SS.set_statements(toks)  # "Two of the Xs stand next to Y. Go to the one ..."
    toks, spoken = spoken_frames(toks, records)  # the register around the request first
    spoken = [*released, *spoken]
    toks, said = CF.polite_requests(toks)
    toks, reasons = before_moves(toks, records)
    toks, moved = discourse_moves(toks, records)
    context: list[tuple[str, tuple[int, int]]] = [
        *framed, *counted, *route_ctx, *run_on, *errand, *walked, *opened, *manner, *worded,
        *talk, *legs, *taken,
        *retracted, *restated,
        *checked, *states, *tails, *loose, *said_why, *heading, *kinds,
        *listed, *set_ups, *stated, *scened, *introduced, *intros, *spoken, *reasons, *moved,
        *reached, *asked, *carried, *told, *repaired]
    kept: list[Token] = []
    sents = _sentences(toks)
    scene = False
    for s in sents:
        body = [t for t in s if t.text not in _ENDS]
        words = [t.text for t in body]
        if len(sents) > 1 and (_scene_setting(words) or scene and WP.scene_follow_up(words)):
            scene = True
            body = body[_lead(words):]
            refuse_owned_room(body)
            context.append((" ".join(t.text for t in body), (body[0].start, body[-1].end)))
            continue
        scene = False
        owned = _owned_mention(s) if len(sents) > 1 else None
        kept.extend(s if owned is None else owned)
    marks = Marks(moves=records, said_as=said)
    marks.set_picks.update(picked)  # "Which room has X? Go there and stop at Y"
    frames = Rewriter(_without_ellipses(kept), marks)  # how the stops are laid out
    kept = frames.run(RTF.EARLY)
    kept, framed = RF.reference_frames(kept, marks)  # how one is picked
    context += framed
    early = Rewriter(kept, marks)
    kept = early.run((*GT.EARLY, *DF.GUARDS, *MF.EARLY, *WP.EARLY))
    rw = Rewriter(RL.on_top(kept), marks)
    # constraint frames first: they read a negator and a predicate as one phrasing
    out = rw.run((*GT.RULES, *DR.RULES, *DF.RULES, *DN.RULES, *CF.RULES, *MF.RULES, *WP.RULES, *S.RULES,
                  *RL.RULES, *A.RULES, *RULES))
    return out, context + frames.context + rw.context, marks


#: "I left my watch ...": verbs that say where the speaker's thing was left.
_LEFT_VERBS = ("left", "lost", "dropped", "forgot", "misplaced", "put", "placed", "set")
#: Words between "I" and such a verb ("I think I have left", "I must have dropped").
_LEFT_LEAD = ("have", "had", "just", "must", "might", "may", "probably", "think", "i", "guess",
              "believe", "somehow")
_OWNERS = ("my", "our", "his", "her", "their")
#: Hedges between the thing and where it is ("somewhere, I think it's in", "is probably on").
_WHERE_HEDGES = ("somewhere", ",", "i", "think", "believe", "guess", "suppose", "it", "is",
                 "was", "should", "be", "might", "may", "must", "probably", "maybe", "perhaps",
                 "likely", "pretty", "sure", "am", "still", "lying", "sitting", "over", "there",
                 "around")
_PLACE_PREPS = ("in", "on", "by", "near", "next", "beside", "under", "inside", "at", "behind",
                "underneath")
#: Words that make a sentence a request after all ("... in the bedroom, go get it").
_REQUEST_WORDS = W.MOVE_VERBS | set(_ROUTE_VERBS) | {"could", "can", "would", "please"}


def _owned_mention(sent: list[Token]) -> list[Token] | None:
    """"I left my watch somewhere, I think it's in the bedroom with the desk." -> "there is a
    watch in the bedroom with the desk.": the speaker's thing, introduced for a later "it"
    (a mention, never a stage and never dropped as chatter); also "my keys are on the bed".
    None when the sentence is not one."""
    body = [t for t in sent if t.text not in _ENDS]
    ends = [t for t in sent if t.text in _ENDS]
    words = [t.text for t in body]
    k = _lead(words)
    first = k
    if words[k:k + 1] == ["i"]:
        k += 1
        while k < len(words) and words[k] in _LEFT_LEAD:
            k += 1
        if words[k:k + 1] == [] or words[k] not in _LEFT_VERBS:
            return None
        k += 1
    if k >= len(words) or words[k] not in _OWNERS:
        return None
    det = k
    hit = head_lexicon().match(words[det + 1:det + 1 + head_lexicon().max_len])
    if hit is None:
        return None
    r = det + 1 + hit[0]
    if det == first and words[r:r + 1] not in (["is"], ["are"], ["was"], ["were"],
                                                ["should"], ["might"], ["must"]):
        return None  # "my watch" opening a sentence: only "my watch is ..."
    while r < len(words) and words[r] in _WHERE_HEDGES and words[r] not in _PLACE_PREPS:
        r += 1
    if r < len(words) and (words[r] not in _PLACE_PREPS or
                           any(w in _REQUEST_WORDS for w in words[r:])):
        return None
    out = [Token("there", body[first].start, body[first].end),
           Token("is", body[det].start, body[det].end),
           Token("a", body[det].start, body[det].end),
           *body[det + 1:det + 1 + hit[0]], *body[r:], *ends]
    return out


def _ellipsis_before(toks: list[Token], n: int) -> bool:
    """Whether the "." at ``n`` ended an ellipsis (its dropped dots sat right before it) and
    a self-correction follows."""
    return n + 1 < len(toks) and toks[n + 1].text in ("no", "sorry", "actually", "i", "or",
                                                      "wait", "oops")


def _text(toks: list[Token], a: int, b: int) -> str:
    return " ".join(t.text for t in toks if a <= t.start and t.end <= b)


def _without_ellipses(toks: list[Token]) -> list[Token]:
    """"the laundry hamper... no wait, the washer": an ellipsis is a pause, not three ends."""
    toks = [t for n, t in enumerate(toks)
            if not (t.text == "." and n + 1 < len(toks) and toks[n + 1].text == ".")]
    return [Token(",", t.start, t.end) if t.text == "." and n and toks[n - 1].end < t.start
            and t.end - t.start == 1 and _ellipsis_before(toks, n) else t
            for n, t in enumerate(toks)]


def merge_room_then_object(clauses: list[Clause], text: str) -> list[Clause]:
    """"Walk to the kitchen and stop at the fridge": one stage, the fridge in the kitchen.

    A room goal followed in the same sentence, after ``and``, by an object goal that names no
    room of its own is the way people say where the object is, not a stage of its own.
    """
    out: list[Clause] = []
    for c in clauses:
        prev = out[-1] if out else None
        if prev is not None and prev.kind == "goal" and c.kind == "goal" and prev.refs and \
                c.refs and prev.refs[0].head_kind == "pronoun" and \
                c.refs[0].head_kind == "pronoun" and \
                re.fullmatch(r"[\s,]*and\s*", text[prev.span[1]:c.span[0]].lower()):
            continue  # "walk there and stop next to it": one stage
        if prev is not None and room_then_object(prev, c):
            between = text[prev.span[1]:c.span[0]].lower()
            if re.fullmatch(r"[\s,\-\u2013\u2014]*"
                            r"(?:(?:you|u|encountered|reached)\s[a-z\s]*?)?"
                            r"(?:[a-z]+ing\s[a-z\s]*,\s*)?(?:and|n|,)\s*"
                            r"(?:then\s+)?[a-z\s]*",
                            between) and \
                    not any(ch in between for ch in ".;!?") and \
                    not re.search(r"\bonly\b", between) and \
                    not re.search(r"\bafter\s+that\b|\bafterwards\b", between):
                # "..., and only then to the sofa"; "the bedroom next door, and after that
                # go to the dog bed": an order word keeps two stops (as room_then_thing's
                # _APART does)
                out[-1] = place_in_room(prev, c)
                continue
        out.append(c)
    return out


_STOP_AT = re.compile(r"[\s,]*and\s*(?:then\s+)?(?:stop|wait|stand|halt|pause)\s+"
                      r"(?:at|by|beside|near|next\s+to)\s*")


def merge_passed_on_the_way(clauses: list[Clause], text: str, marks: Marks) -> list[Clause]:
    """"Walk to the sofa and stop at the plant you pass": one stage, the plant met on the way
    to the sofa (the goal becomes the ``toward`` of the plant's ``route`` ranking)."""
    out: list[Clause] = []
    for c in clauses:
        prev = out[-1] if out else None
        route = next((m for m in c.refs[0].modifiers if m.kind == "rank" and m.rank == "route"
                      and not m.refs), None) if c.kind == "goal" and len(c.refs) == 1 else None
        if prev is not None and route is not None and prev.kind == "goal" and \
                len(prev.refs) == 1 and c.refs[0].span[0] in marks.passed and \
                prev.refs[0].head_kind in ("object", "group", "room") and \
                not prev.refs[0].plural and \
                _STOP_AT.fullmatch(text[prev.span[1]:c.refs[0].span[0]].lower()):
            route.refs.append(prev.refs[0])
            c.span = (prev.span[0], c.span[1])
            out[-1] = c
            continue
        out.append(c)
    return out


def apply_marks(clauses: list[Clause], marks: Marks) -> None:
    """Negate the ``in_room`` modifiers of "not in a bedroom", give each reference its own
    marks (:func:`_reference_marks`) and move each coordinated ``with`` item to the head that
    took the first item of its group.

    Raises:
        ParseError: a reference ranked both along the route and by another measure.
    """
    owners: dict[int, tuple[RefExpr, Modifier]] = {}

    def walk(ref: RefExpr) -> None:
        _reference_marks(ref, marks)
        for mod in ref.modifiers:
            if mod.kind == "in_room" and mod.refs and mod.refs[0].span[0] in marks.negated_rooms:
                mod.negated = True
            if mod.kind == "with":
                owners.setdefault(mod.span[0], (ref, mod))
            for r in mod.refs:
                walk(r)

    stack = list(clauses)
    all_clauses: list[Clause] = []
    while stack:
        c = stack.pop()
        all_clauses.append(c)
        stack.extend(c.then)
        stack.extend(c.orelse)
        for r in [*c.refs, c.other, c.within]:
            if r is not None:
                walk(r)
    for c in all_clauses:
        ref = c.refs[0] if c.kind == "avoid" and c.refs else None
        gap = next((m for m in ref.modifiers if m.kind == "between" and len(m.refs) == 2),
                   None) if ref is not None else None
        if ref is not None and gap is not None and ref.head == "room" and \
                _GAP.match(ref.text.lower()):
            # "avoid the area between the sofa and the TV": an area, not a room
            ref.head, ref.head_kind, ref.modifiers = "between", "area", [gap]
    for c in all_clauses:
        for ref in c.refs:
            _make_point(ref, marks.points)
    for group in marks.with_groups:
        if group[0] not in owners:
            continue
        head = owners[group[0]][0]
        for start in group[1:]:
            if start in owners and owners[start][0] is not head:
                ref, mod = owners[start]
                ref.modifiers.remove(mod)
                head.modifiers.append(mod)


def _reference_marks(ref: RefExpr, marks: Marks) -> None:
    """The marks of one reference: its place along the route ("the first bedroom you enter":
    a ``route`` ranking), "different" from earlier ones, the destination, and negated
    relations ("that is not near the bed")."""
    start = ref.span[0]
    if start in marks.route_order:
        if any(m.kind == "rank" for m in ref.modifiers):
            msg = (f"did not understand {ref.text!r}: it is ranked both along the route and "
                   "by another measure; say one of them, or use the hybrid or llm grounder")
            raise ParseError(msg, ref.text, ref.span)
        k = marks.route_order[start]
        ref.modifiers.insert(0, Modifier("rank", rank="route" if k else "before", k=max(k, 1),
                                         span=ref.span))
    if start in marks.ordered and not any(m.kind == "ordered" for m in ref.modifiers):
        rank, count = marks.ordered[start]
        ref.plural = True
        ref.modifiers.append(Modifier("ordered", rank=rank, count=count or None, span=ref.span))
    if start in marks.empty and not any(m.kind == "empty" for m in ref.modifiers):
        ref.modifiers.append(Modifier("empty", span=ref.span))
    if start in marks.different and not any(m.kind == "different" for m in ref.modifiers):
        ref.modifiers.append(Modifier("different", span=ref.span))
    how = marks.target.get(start)
    if how == "bare" and ref.head == "room" and not ref.modifiers:
        ref.head, ref.head_kind = "target", "target"
    elif how is not None and not any(m.kind == "target" for m in ref.modifiers):
        ref.modifiers.append(Modifier("target", span=ref.span))
    for mod in ref.modifiers:
        if mod.span[0] in marks.negated and mod.kind in ("on", "near", "next_to"):
            mod.negated = True


def _make_point(ref: RefExpr, points: dict[int, str]) -> None:
    """Turn a marked "the area between X and Y" into a midpoint and a marked "the ROOM
    farthest from X" into a corner of that room."""
    what = points.get(ref.span[0])
    if what == "midpoint":
        gap = next((m for m in ref.modifiers if m.kind == "between" and len(m.refs) == 2), None)
        if gap is not None:
            rooms = [m for m in ref.modifiers if m.kind == "in_room"]  # "in the kitchen, ..."
            others = [m for m in ref.modifiers if m is not gap and m.kind != "in_room"]
            if others:
                # "between the armchair and the table in the living room that has a window":
                # a clause after the second thing is said of the last noun, never dropped
                last = gap.refs[1]
                while any(m.refs for m in last.modifiers):
                    last = [m for m in last.modifiers if m.refs][-1].refs[-1]
                last.modifiers.extend(others)
            ref.head, ref.head_kind, ref.modifiers = "midpoint", "point", [gap, *rooms]
    elif what == "centroid" and ref.head_kind == "room":
        room = ref.clone()
        ref.head, ref.head_kind = "centroid", "point"
        ref.modifiers = [Modifier("in_room", [room], span=ref.span)]
    elif what == "corner" and ref.head_kind == "room":
        ranks = [m for m in ref.modifiers if m.kind == "rank" and m.refs]
        room = RefExpr(ref.text, ref.span, ref.head, ref.head_kind, ref.definite, False,
                       [m for m in ref.modifiers if m.kind != "rank"])
        ref.head, ref.head_kind = "corner", "point"
        ref.modifiers = [Modifier("in_room", [room], span=ref.span), *ranks]
