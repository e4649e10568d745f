"""A compositional parser of English route instructions (the offline grounder's front end).

No map is needed: the parser turns an instruction into an :class:`InstructionParse` of clauses
(goals, must-pass rooms, must-avoids, soft preferences, path shapes, conditionals) whose
arguments are :class:`RefExpr` referring expressions, nested as they nest in the sentence.
:mod:`map2route.grounding.writer` then writes a grounding program from it.

The stages, one module each (a class each over :class:`~.state.ParserState`, composed into
:class:`~.parse.Parser`):

0. :mod:`.spoken_frames` (the register around a request: frames, hedges, closings, typed
   shorthand, reasons and scene sentences kept as context), then :mod:`.reason_moves` (reasons and states after a request) and :mod:`.moves` (word tables
   in :mod:`.move_words`): every clause (a sentence, or a comma part of one) classified by its
   discourse move (request, statement, chatter, caution, hedge, elaboration, apposition,
   correction, dwell, frame, scope) from its structure; the moves that are no route content are
   taken out as context, the others attached to the head they modify. Then :mod:`.human` runs
   :mod:`.route_frames` (how the stops are laid out: lists, sequencers, returns, passes),
   :mod:`.reference_frames` (how one thing is picked: partitives, comparisons, negated and
   participle relatives, corrections) and the phrase rules in order (:mod:`.constraint_frames`:
   negators x predicates of keeping away, staying near, not entering; :mod:`.motion_frames`
   with :mod:`.motion_targets`: the ways to say go to / stop at / come back, read from word
   classes; :mod:`.walk_phrasings`, :mod:`.stage_rewrites`,
   :mod:`.relation_rewrites`, then the earlier rewrite modules), and :mod:`.normalise` and
   :mod:`.discourse`: tokens (:mod:`map2route.language.tokens`) with human phrasings,
   shorthand, fillers, form labels and self-corrections rewritten.
1. :mod:`.clauses`: split into clause spans and put the clauses in route order;
   :mod:`.conditions` reads ``if ... otherwise ...``.
2. :mod:`.scopes`: "while in the kitchen", "on the way to X", "after visiting X".
3. :mod:`.references` and :mod:`.modifiers`: noun phrases ``[det] [ordinal] [superlative]
   [adjectives] HEAD [post-modifiers]``, heads from :mod:`.heads`, read through a chart so
   that attachment is polynomial.
4. :mod:`.constraints`: a clause body as a goal, pass, avoid, near/far, relative, clearance or
   path-shape clause.

Before stage 0, passes that each read one area of human wording by word class rewrite or take
out what they read (each records it as context or a discourse note, never silently): errands
and corrections (:mod:`.errand_talk`, :mod:`.kind_talk`, :mod:`.rejections`), several
destinations and route order (:mod:`.destination_forms` with :mod:`.destination_picks`), how a
target is described (:mod:`.description_forms`), discourse across sentences
(:mod:`.discourse_refs`, :mod:`.animate_scenes`, :mod:`.speaker_place`), notes and work orders
(:mod:`.note_fragments`, :mod:`.prohibitions`, :mod:`.shared_scopes`), reasons and asides
(:mod:`.deed_reasons`, :mod:`.state_reasons`, :mod:`.finding_out`,
:mod:`.aside_restatements`, :mod:`.talk_around`), set-ups and picks from them
(:mod:`.set_picks`), self-corrections (:mod:`.retractions`), legs and passes
(:mod:`.leg_phrasings`), the robot named in the third person (:mod:`.robot_talk`), and rooms
said by what they share or as "in there" (:mod:`.same_kind_rooms`, :mod:`.room_there`,
:mod:`.here_to_me`), picks asked as a question and pointed at (:mod:`.question_picks`),
scopes that point back at a room or a leg (:mod:`.anaphoric_scopes`), errand verbs and rooms
told by how they are reached (:mod:`.errand_reach`), the wording of route rules
(:mod:`.rule_wording`), geometry targets (:mod:`.geometry_targets`), learner English and the
full stops speech leaves out (:mod:`.learner_forms`, :mod:`.spoken_boundaries`), headers and
openers (:mod:`.openers`, with :mod:`.speaker_scene` the one pattern of a speaker's or walker's
scene sentence), a set introduced and then picked from (:mod:`.set_intros`), legs named by
their ends, order or what happens on them (:mod:`.leg_ends`, :mod:`.leg_scopes`), manner and
position words (:mod:`.manner_positions`), reasons said after a request
(:mod:`.reason_tails`), rooms picked by "where", sharing, the far end or a count from a room
(:mod:`.room_picks`), a thing introduced and then pointed back at (:mod:`.introductions`),
walks through the house and rooms told by the room they open into (:mod:`.house_walks`), rules
scoped by an event of the route (:mod:`.event_scopes`), errand framings and asides around a
request (:mod:`.errand_asides`), a room said as where to go and then the thing in it
(:mod:`.room_then_thing`), contents denied or bounded by a count ("a pillow but no laptop",
"more than five chairs": :mod:`.contrasted_contents`), fragments ("Starting from the
kitchen.", a lone "Go.": :mod:`.short_sentences`), and a few closed two-word readings
(:mod:`.pass_then_goal`, :mod:`.its_relations`, :mod:`.loo_rooms`); the passes that try their
rules token by token share one scan (:mod:`.rule_scan`); corrections that point back are read inside
:mod:`.retractions` (:mod:`.contrast_repairs`). Last, :mod:`.parse` sets
apart an aside that names nothing on the map when it is all that stops a parse
(:mod:`.aside_clauses`), reported as context, repairs parses whose stages came out wrong
(:mod:`.stage_repairs`), and gives a return to a speaker who said where they are that place
(:mod:`.speaker_return`).

The words are data (``language/lexicons/instructions.yaml``, read by :mod:`.words`).
Attachment of post-modifiers inside nested phrases is ambiguous in English ("the chair
nearest to the bed in the bedroom"); :data:`ATTACHMENTS` lists the policies the grounder's
repair loop tries in turn.
"""

from __future__ import annotations

from map2route.language.errors import InstructionTooLongError, ParseError
from map2route.language.parser.model import (
    Clause,
    InstructionParse,
    Modifier,
    RefExpr,
    all_stages,
    match_stage,
    norm_text,
)
from map2route.language.parser.parse import MAX_INSTRUCTION_CHARS, Parser, parse_instruction
from map2route.language.parser.state import ATTACHMENTS
from map2route.language.tokens import Token, tokenize

__all__ = ["ATTACHMENTS", "MAX_INSTRUCTION_CHARS", "Clause", "InstructionParse",
           "InstructionTooLongError", "Modifier", "ParseError", "Parser", "RefExpr", "Token",
           "all_stages", "match_stage", "norm_text", "parse_instruction", "tokenize"]
