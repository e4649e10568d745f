"""GROKE's heuristic baseline: regular expressions plus angles (18 % SR in the paper).

Regular expressions read, clause by clause, the turn phrases ("turn left", "make a right")
and where they happen: an ordinal of a light or intersection anywhere in the clause ("at the
second light", "head to the second light and make a left"), plus the lights or intersections
said to be passed since the last turn ("go through two lights", "through one light and turn
right at the next"). Each turn is taken at the N-th such node ahead (a light = an
intersection with a traffic signal; N = passed + 1 without an absolute ordinal) through the
link closest to 90 degrees on that side: angles only, no clustering of crossings, no
landmarks, no sub-goal for anything but turns. It stops a fixed number of nodes after the
last turn.
"""

from __future__ import annotations

import re

from map2route.language.directions import ORDINAL_WORDS, Action, Condition, SubGoal, normalise
from map2route.streets.geo import heading_delta
from map2route.streets.navigator import COMPLETED, IN_PROGRESS, Decision, Observation

_TURN_WORD_RE = re.compile(r"\b(?:turn|make a|take a|hang a|go)\s+(left|right)\b")
_ORDINAL_RE = re.compile(
    r"\b(first|second|third|fourth|1st|2nd|3rd|4th|next|following)\s+(?:\w+\s+)?"
    r"(light|signal|intersection|corner|street|block)")
_PASS_RE = re.compile(
    r"\b(?:through|past|pass|cross)\s+(?:the\s+)?(one|two|three|four|a|an|\d)?\s*"
    r"(?:more\s+)?(?:traffic\s+|stop\s*)?(lights?|signals?|intersections?)")
_NUMBERS = {"one": 1, "a": 1, "an": 1, "two": 2, "three": 3, "four": 4}
#: Nodes walked after the last turn before stopping (the median Map2Seq final leg).
STOP_AFTER_NODES = 7


class HeuristicAgent:
    """Regex + angles baseline (see the module docstring)."""

    name = "heuristic"

    def __init__(self) -> None:
        self.remaining = 0

    def reset(self) -> None:
        """Forget the intersection count of the previous instruction."""
        self.remaining = 0

    def decompose(self, instruction: str) -> list[SubGoal]:
        """One TURN per turn phrase, in order, then STOP."""
        goals = []
        passed = {"light": 0, "intersection": 0}
        for sentence in re.split(r"[.!?;]+", normalise(instruction)):
            turns = list(_TURN_WORD_RE.finditer(sentence))
            bounds = [0] + [m.end() for m in turns]
            if not turns:
                self._count_passes(sentence, passed)
                continue
            for j, turn in enumerate(turns):
                # The turn's context: from the previous turn phrase to the next one.
                end = turns[j + 1].start() if j + 1 < len(turns) else len(sentence)
                context = sentence[bounds[j]:end]
                self._count_passes(sentence[bounds[j]:turn.start()], passed)
                ordinal = _ORDINAL_RE.search(context)
                feature = ("light" if re.search(r"\b(?:lights?|signals?)\b", context)
                           else "intersection")
                ahead = passed["light"] + (passed["intersection"] if feature == "intersection"
                                           else 0)
                word = ordinal.group(1) if ordinal else ""
                count = ORDINAL_WORDS.get(word, 1)
                if not (word in ORDINAL_WORDS and count > ahead):
                    count += ahead
                goals.append(SubGoal(Action.TURN_LEFT if turn.group(1) == "left" else
                                     Action.TURN_RIGHT, context.strip(),
                                     Condition(feature=feature, count=count)))
                passed = {"light": 0, "intersection": 0}
        goals.append(SubGoal(Action.STOP, "stop", Condition()))
        return goals

    @staticmethod
    def _count_passes(text: str, passed: dict[str, int]) -> None:
        """Add "through two lights" / "past the intersection" to ``passed``."""
        for m in _PASS_RE.finditer(text):
            word = m.group(1) or "one"
            n = int(word) if word.isdigit() else _NUMBERS.get(word, 1)
            kind = "light" if m.group(2).startswith(("light", "signal")) else "intersection"
            passed[kind] += n

    def act(self, obs: Observation) -> Decision:
        """Turn at the N-th intersection with a matching link, else walk on."""
        view = obs.view
        nodes = [v.node for v in view.path]
        if obs.subgoal.action == Action.STOP:
            return Decision(COMPLETED, tuple(nodes[1:1 + STOP_AFTER_NODES]))
        if obs.retries == 0:
            self.remaining = max(obs.subgoal.condition.count, 1)
        side = -1 if obs.subgoal.action == Action.TURN_LEFT else 1
        lights = obs.subgoal.condition.feature == "light"
        for k, v in enumerate(view.path):
            if k == 0 or not (v.light if lights else v.intersection):
                continue
            self.remaining -= 1
            if self.remaining > 0:
                continue
            best = min(((abs(abs(heading_delta(c.heading, v.heading)) - 90), c.target)
                        for c in v.connections
                        if heading_delta(c.heading, v.heading) * side > 0
                        and abs(abs(heading_delta(c.heading, v.heading)) - 90) <= 45),
                       default=None)
            if best is not None:
                return Decision(COMPLETED, tuple(nodes[1:k + 1]) + (best[1],))
            self.remaining = 1  # no such turn here: try the next intersection
        if len(nodes) <= 1:
            return Decision(COMPLETED, (), note="dead end")
        return Decision(IN_PROGRESS, tuple(nodes[1:]))



#: GROKE's heuristic baseline direction phrases, searched one by one.
_PAPER_PHRASES = {
    "left": ("turn left", "go left", "take a left", "left at", "left on", "hang a left",
             "bear left", "veer left"),
    "right": ("turn right", "go right", "take a right", "right at", "right on",
              "hang a right", "bear right", "veer right"),
    "forward": ("go straight", "continue straight", "straight ahead", "keep going",
                "walk forward", "move forward", "continue forward", "go forward",
                "head straight", "straight", "continue", "keep straight", "walk past", "pass",
                "cross"),
}
_PAPER_RES = tuple((name, re.compile(rf"\b{re.escape(p)}\b"))
                   for name, phrases in _PAPER_PHRASES.items() for p in phrases)
#: A link within this many degrees of the heading counts as going on (GROKE's tolerance).
_FORWARD_TOLERANCE_DEG = 100.0


def paper_directions(instruction: str) -> list[str]:
    """Every direction phrase of the instruction in reading order (``forward`` when none).

    Overlapping phrases all count, as in GROKE's baseline (each pattern is searched on its own).
    """
    text = instruction.lower()
    found = sorted((m.start(), name) for name, rx in _PAPER_RES for m in rx.finditer(text))
    return [name for _, name in found] or ["forward"]


def _relative(delta: float) -> str:
    """GROKE's four sectors: forward within 45 degrees, left/right to 135, else back."""
    if -45 <= delta <= 45:
        return "forward"
    if -135 <= delta < -45:
        return "left"
    if 45 < delta <= 135:
        return "right"
    return "back"


class OracleLengthHeuristicAgent:
    """GROKE's heuristic baseline (paper: 18 % SR), which is *told the answer's length*.

    Direction phrases (left / right / forward) are read in order. The walk goes node by node:
    at an intersection (more than two neighbours) it takes the link in the next wanted
    direction when there is one (and moves on to the following direction), else the link
    closest to straight on; between intersections it goes straight on. The walk ends when the
    path holds as many nodes as the reference route: the benchmark passes that count
    (``told_reference_length``) to :func:`map2route.streets.navigator.follow`. It is an
    oracle-length baseline, labelled as such, not a follower; our own :class:`HeuristicAgent`
    stops by its own rule.
    """

    name = "heuristic-oracle-length"
    told_reference_length = True

    def __init__(self) -> None:
        self.directions: list[str] = []

    def reset(self) -> None:
        """Forget the previous instruction's directions."""
        self.directions = []

    def decompose(self, instruction: str) -> list[SubGoal]:
        """One walk sub-goal; the direction phrases are kept for :meth:`act`."""
        self.directions = paper_directions(normalise(instruction))
        return [SubGoal(Action.MOVE_FORWARD, " ".join(self.directions), Condition())]

    def act(self, obs: Observation) -> Decision:
        """Walk up to ``max_steps`` nodes by the baseline rule (the oracle length cuts it)."""
        graph = obs.graph
        node, heading = obs.path[-1], obs.heading
        wanted = 0
        moves: list[int] = []
        for _ in range(obs.config.max_steps):
            options = []
            for link in graph.out_links[node]:
                side = _relative(heading_delta(link.heading, heading))
                if side != "back":
                    options.append((link, side))
            if not options:
                break
            chosen = None
            if graph.is_intersection(node):
                want = self.directions[wanted] if wanted < len(self.directions) else "forward"
                chosen = next((lk for lk, side in options if side == want), None)
                if chosen is not None:
                    wanted += 1
            if chosen is None:
                ahead = [(abs(heading_delta(lk.heading, heading)), lk.target, lk)
                         for lk, _ in options
                         if abs(heading_delta(lk.heading, heading)) < _FORWARD_TOLERANCE_DEG]
                chosen = min(ahead)[2] if ahead else options[0][0]
            moves.append(chosen.target)
            node, heading = chosen.target, chosen.heading
        return Decision(COMPLETED, tuple(moves))
