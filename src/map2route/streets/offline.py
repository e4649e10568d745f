"""The offline structured follower: rule-based sub-goals, counted lights and intersections,
landmarks grounded in POI names and tags. The default agent of ``map2route bench groke``.

It keeps, per instruction, where the current street segment began (the last turn). Events are
intersections met along the segment; intersection nodes closer than ``CLUSTER_M`` along the
street form one event (a wide avenue is one crossing, not two), and an event with a traffic
signal is a light. A sub-goal's count ("the second light") runs from the segment start, a
relative count ("the next light", "through two lights") from the current position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from map2route.language.directions import Action, Condition, SubGoal, decompose
from map2route.streets.geo import bearing_deg, haversine_m, heading_delta
from map2route.streets.graph import StreetGraph
from map2route.streets.landmarks import NAME_MATCH_MIN, poi_match_score
from map2route.streets.navigator import COMPLETED, IN_PROGRESS, Decision, Observation
from map2route.streets.view import straight_next, street_heading

#: Intersection nodes this close (m, adjacent panoramas) belong to one crossing event.
CLUSTER_M = 12.0
#: "Turn left" where the street itself bends left at least this much (deg) follows the bend.
BEND_TURN_DEG = 45.0
#: A branch leaving this little (deg) is a turn only when its street bends away right after.
SLIGHT_TURN_DEG = 10.0
_UNTIL_RE = re.compile(r"\b(?:until|till|keep going|several blocks|a while|all the way)\b")

_PAST_RE = re.compile(r"\b(?:past|after|behind|beyond|passing|crossing|through)\b")
_AFTER_TURNING_RE = re.compile(r"\b(?:after|into|past|from) (?:turning|the turn|you turn|your turn|"
                               r"making the turn|the corner)\b")
_RIGHT_AWAY_RE = re.compile(r"\b(?:immediately|right (?:after|behind|past|beyond)|"
                            r"just (?:after|behind|past|beyond))\b")

#: A "double light": two crossings at most this many nodes apart.
DOUBLE_NODES = 5
#: "Just before the light": this many nodes short of the crossing.
BEFORE_NODES = 2
#: "Stop just before the light": this many nodes short of it (a STOP; 2 and 4 lose on dev).
STOP_BEFORE_NODES = 3
#: A landmark "on the corner" lies within this many nodes of the crossing.
CORNER_NODES = 1
#: With nothing to go by, a STOP lands this fraction of the way down the block.
DEFAULT_FRACTION = 0.3
#: "Go through this light" while standing on one passes it.
PASS_UNDERFOOT = True
#: "Go on until you see X": views to walk through before giving X up.
UNTIL_VIEWS = 1
#: A turn link within this (deg) of the wanted heading is a turn; one farther off may be a
#: jog onto a divided road, with the turn at the crossing on its far side ...
JOG_TURN_DEG = 30.0
#: ... at most this far (m) on.
ACROSS_M = 15.0
#: Nodes a "few steps" stop walks on.
FEW_STEPS_NODES = 3
#: "Stop just past / just before the bank": this many nodes beyond / short of it.
PAST_NODES = 1
#: Nodes walked into the new street by a turn (so the street's direction is known).
ROLLOUT_NODES = 3
#: A link leaving a crossing this far (deg) from the street's direction is a side street.
BRANCH_MIN_DEG = 30.0
#: "Veer left" takes a branch leaving the street this much (deg) to that side. Up to 90: at
#: the small triangle parks a "slight left" branch leaves 80-90 degrees off (dev +2 -0
#: against 80; 85 the same, 100 -1).
VEER_MIN_DEG = 10.0
VEER_MAX_DEG = 90.0
#: A traffic signal this close (m) to a street node with no crossing node within
#: MIDBLOCK_CLEAR_NODES on the street is a light people count (0: off) ...
MIDBLOCK_SIGNAL_M = 10.0
MIDBLOCK_CLEAR_NODES = 5
#: ... or with crossing nodes that near which all have their own signal within
#: MIDBLOCK_SIGNAL_M, more than CLUSTER_M from this one (the second of a pair of lights ~15 m
#: apart where the graph has one crossing node; False: any crossing near it owns it).
MIDBLOCK_OWN_SIGNAL = True
#: A signal whose nearest street node is a crossing node lights another crossing (more than
#: CLUSTER_M from that node) only within this distance (m), not the whole light radius: it
#: is the other crossing's light (0: off; dev +2 -0 from 15 to 25 m, +3 -3 at 10-12 m).
OWNED_SIGNAL_M = 15.0
#: POIs this close (m) to a street node can ground a landmark there.
LANDMARK_RADIUS_M = 30.0
#: Landmark score needed to trust a POI match.
LANDMARK_MIN = 80.0


def _signals(graph: StreetGraph, node: int) -> set[int]:
    """Traffic-signal POIs within ``MIDBLOCK_SIGNAL_M`` of ``node``."""
    return {a.poi for a in graph.pois_near(node, MIDBLOCK_SIGNAL_M)
            if graph.pois[a.poi].is_traffic_signal}


def _poi_gap_m(graph: StreetGraph, a: int, b: int) -> float:
    """Distance (m) between POIs ``a`` and ``b`` (0 for the same one)."""
    pa, pb = graph.pois[a], graph.pois[b]
    return 0.0 if a == b else haversine_m(pa.lat, pa.lng, pb.lat, pb.lng)


@dataclass(frozen=True)
class Event:
    """An intersection event on the combined (walked + visible) street sequence."""

    start: int
    end: int
    light: bool
    t_junction: bool
    #: Side streets leave to the left / right (-1 / +1) at this crossing.
    branches: frozenset[int] = frozenset()
    #: A signal with no crossing node (a street the panorama graph does not join).
    midblock: bool = False


class OfflineAgent:
    """Structured follower over the local view (see the module docstring)."""

    name = "offline"

    def __init__(self) -> None:
        self.segment_start = 0
        self.goal_origin = 0
        self.last_action = ""
        #: Index in the path of the crossing the last move walked to (not through).
        self.reached = -1
        #: (feature, index in the path) of the crossing the last move went through.
        self.passed: tuple[str, int] | None = None

    def reset(self) -> None:
        """Start a new instruction."""
        self.segment_start = 0
        self.goal_origin = 0
        self.last_action = ""
        #: Index in the path of the crossing the last move walked to (not through).
        self.reached = -1
        self.passed = None

    def decompose(self, instruction: str) -> list[SubGoal]:
        """Rule-based sub-goals (:func:`map2route.streets.subgoals.decompose`)."""
        return decompose(instruction)

    # --- the street as a sequence -------------------------------------------------------------
    def _sequence(self, obs: Observation) -> tuple[list[int], list[float], int]:
        walked = list(obs.path[self.segment_start:])
        seq = walked + [v.node for v in obs.view.path[1:]]
        headings = [obs.graph.heading(a, b) for a, b in zip(seq, seq[1:], strict=False)]
        headings.append(headings[-1] if headings else obs.heading)
        return seq, headings, len(walked) - 1

    def _events(self, graph: StreetGraph, seq: list[int], headings: list[float],
                light_radius_m: float) -> list[Event]:
        events: list[Event] = []
        k = 0
        while k < len(seq):
            if not graph.is_intersection(seq[k]):
                if MIDBLOCK_SIGNAL_M > 0 and self._midblock_signal(graph, seq, k):
                    end = k
                    while end + 1 < len(seq) and self._midblock_signal(graph, seq, end + 1):
                        end += 1
                    events.append(Event(k, end, True, False, frozenset(), midblock=True))
                    k = end + 1
                    continue
                k += 1
                continue
            start, end, run = k, k, 0.0
            j = k + 1
            while j < len(seq):
                run += graph.distance_m(seq[j - 1], seq[j])
                if run > CLUSTER_M:
                    break
                if graph.is_intersection(seq[j]):
                    end = j
                j += 1
            light = self._lit(graph, seq[start:end + 1], light_radius_m)
            arrive = self._approach(graph, seq, headings, end)
            nxt = straight_next(graph, seq[end], arrive, seq[end - 1] if end > 0 else None)
            t_junction = nxt is None or abs(
                (graph.heading(seq[end], nxt) - arrive + 180) % 360 - 180) > 50
            events.append(Event(start, end, light, t_junction,
                                self._branches(graph, seq, headings, start, end)))
            k = end + 1
        if events and events[0].start == 0:
            events = events[1:]  # the intersection the segment starts from does not count
        return events

    @staticmethod
    def _lit(graph: StreetGraph, nodes: list[int], radius_m: float) -> bool:
        """A crossing (its ``nodes``) is a light when a traffic signal lies within
        ``radius_m``, unless that signal is another crossing's: its nearest street node is a
        crossing node more than ``CLUSTER_M`` away and it is over ``OWNED_SIGNAL_M`` off."""
        for n in nodes:
            for att in graph.pois_near(n, radius_m):
                if not graph.pois[att.poi].is_traffic_signal:
                    continue
                owner = int(graph.poi_node[att.poi])
                if (OWNED_SIGNAL_M <= 0 or att.distance_m <= OWNED_SIGNAL_M or owner < 0
                        or owner in nodes or not graph.is_intersection(owner)
                        or graph.distance_m(owner, n) <= CLUSTER_M):
                    return True
        return False

    @staticmethod
    def _midblock_signal(graph: StreetGraph, seq: list[int], k: int) -> bool:
        """A traffic signal by a street node that no crossing node near it on the street owns."""
        if graph.is_intersection(seq[k]) or not graph.has_signal(seq[k], MIDBLOCK_SIGNAL_M):
            return False
        mine = _signals(graph, seq[k])
        for node in seq[max(0, k - MIDBLOCK_CLEAR_NODES):k + MIDBLOCK_CLEAR_NODES + 1]:
            if not graph.is_intersection(node):
                continue
            # A crossing near it owns the signal unless it has its own, more than a
            # crossing's extent (CLUSTER_M) away.
            own = _signals(graph, node)
            if (not MIDBLOCK_OWN_SIGNAL or not own
                    or any(_poi_gap_m(graph, a, b) <= CLUSTER_M for a in mine for b in own)):
                return False
        return True

    def _branches(self, graph: StreetGraph, seq: list[int], headings: list[float], start: int,
                  end: int) -> frozenset[int]:
        """Sides (-1 left, +1 right) to which a street leaves the crossing ``seq[start..end]``."""
        approach = self._approach(graph, seq, headings, start)
        sides: set[int] = set()
        for pos in range(start, end + 1):
            near = {seq[pos - 1] if pos > 0 else -1, seq[pos + 1] if pos + 1 < len(seq) else -1}
            for link in graph.out_links[seq[pos]]:
                if link.target in near:
                    continue
                delta = heading_delta(link.heading, approach)
                if BRANCH_MIN_DEG <= abs(delta) <= 180 - BRANCH_MIN_DEG:
                    sides.add(1 if delta > 0 else -1)
        return frozenset(sides)

    @staticmethod
    def _of_kind(events: list[Event], feature: str, branch: str = "") -> list[Event]:
        if branch:
            side = -1 if branch == "left" else 1
            events = [e for e in events if side in e.branches]
        if feature == "light":
            return [e for e in events if e.light]
        if feature == "t":
            return [e for e in events if e.t_junction]
        return [e for e in events if not e.midblock]

    def _target(self, events: list[Event], cond: Condition, cur: int, *, standing_ok: bool,
                behind_ok: bool = False) -> Event | None:
        kind = self._of_kind(events, cond.feature or "intersection", cond.branch)
        count = max(cond.count, 1)
        if cond.relative:
            # "the next light", "through two lights": strictly ahead of where the sub-goal
            # began (it may take several views to get there).
            origin = min(cur, max(0, self.goal_origin - self.segment_start))
            ahead = [e for e in kind if e.start > origin]
            under = [e for e in kind if e.start <= origin <= e.end]
            if (cond.passing and count >= 2 and under
                    and self.reached == self.goal_origin):
                # "Go to the first major intersection and pass through two lights in
                # immediate succession": the light just walked to is the first of the two.
                ahead = under[:1] + ahead
            found = ahead[count - 1] if len(ahead) >= count else None
        elif len(kind) >= count and kind[count - 1].end >= cur:
            # "the second light": counted from the segment start...
            found = kind[count - 1]
        elif len(kind) >= count and behind_ok and count >= 2:
            # "Go through three lights. Stop a few steps after the third light": an ordinal
            # already walked past on this street is the one just passed, not the next.
            found = kind[count - 1]
        elif len(kind) >= count:
            # ... and when that one is behind us, the next.
            # Passing "this light" while standing on it passes the one underfoot.
            ahead = [e for e in kind
                     if e.end >= cur and (standing_ok or PASS_UNDERFOOT and cond.passing
                                          or e.start > cur)]
            found = ahead[0] if ahead else None
        else:
            found = None  # not in view yet: walk on
        if found is not None and cond.double:
            # "the double light": a second crossing right after belongs to this one.
            later = [e for e in kind if e.start > found.end]
            if later and later[0].start - found.end <= DOUBLE_NODES:
                found = Event(found.start, later[0].end, found.light or later[0].light,
                              later[0].t_junction, found.branches | later[0].branches)
        return found

    # --- landmarks ----------------------------------------------------------------------------
    def _landmark_position(self, obs: Observation, seq: list[int], cur: int, cond: Condition,
                           limit: int, *, named_beyond: bool = False) -> int | None:
        """Position in ``seq`` nearest the POI the clause names best (``None`` if none)."""
        if not cond.landmark:
            return None
        graph = obs.graph
        best: tuple[float, float, int] | None = None
        # Past ``limit`` only a name match counts ("the bank" may be any bank; "Chase" is one).
        last = len(seq) - 1 if named_beyond else min(limit, len(seq) - 1)
        for pos in range(cur, last + 1):
            for att in graph.pois_near(seq[pos], LANDMARK_RADIUS_M):
                poi = graph.pois[att.poi]
                if poi.is_traffic_signal:
                    continue
                score = poi_match_score(poi, cond.landmark)
                if score < LANDMARK_MIN or (pos > limit and score < NAME_MATCH_MIN):
                    continue
                key = (-score, att.distance_m, pos)
                if best is None or key < best:
                    best = key
        return None if best is None else best[2]

    def _disambiguate(self, obs: Observation, seq: list[int], events: list[Event],
                      cond: Condition, target: Event | None, cur: int) -> Event | None:
        """"The light with Bareburger on the corner": the landmark decides between the
        counted event and its neighbours (when the count is only "the"/"next")."""
        if target is None or not cond.landmark or cond.count > 1:
            return target
        kind = [e for e in self._of_kind(events, cond.feature) if e.end >= cur]
        k = kind.index(target) if target in kind else 0
        for e in [target] + kind[max(0, k - 1):k] + kind[k + 1:k + 2]:
            if self._landmark_position(obs, seq, max(e.start - CORNER_NODES, cur), cond,
                                       e.end + CORNER_NODES) is not None:
                return e
        return target

    # --- moves ----------------------------------------------------------------------------------
    def _walk_to(self, seq: list[int], cur: int, pos: int) -> tuple[int, ...]:
        return tuple(seq[cur + 1:pos + 1])

    def _turn_at(self, obs: Observation, seq: list[int], headings: list[float], event: Event,
                 side: int, cur: int) -> tuple[int, tuple[int, ...]] | None:
        """Best (position, target node) for a turn to ``side`` (-1 left, +1 right) at ``event``."""
        graph = obs.graph
        approach = self._approach(graph, seq, headings, event.start)
        desired = (approach + 90.0 * side) % 360.0
        best: tuple[float, int, tuple[int, ...]] | None = None
        last = min(event.end + 1, len(seq) - 1)
        for pos in range(max(event.start, cur), last + 1):
            for link in graph.out_links[seq[pos]]:
                delta = heading_delta(link.heading, approach)
                if pos + 1 < len(seq) and link.target == seq[pos + 1] and (
                        delta * side <= 0 or abs(delta) < BEND_TURN_DEG):
                    # The street ahead is a turn only where it bends that way sharply.
                    continue
                if pos > 0 and link.target == seq[pos - 1]:
                    continue
                if delta * side <= 0 or not SLIGHT_TURN_DEG <= abs(delta) <= 155:
                    continue
                # Judge the street the link leads into, not the link: roll out ~30 m.
                nodes = self._rollout(graph, seq[pos], link.target, desired)
                nodes = self._across(graph, seq[pos], nodes, desired, approach)
                end = nodes[-1]
                street = bearing_deg(graph.lat[seq[pos]], graph.lng[seq[pos]], graph.lat[end],
                                     graph.lng[end])
                turn = heading_delta(street, approach)
                if turn * side <= 0 or abs(delta) < 25 and abs(turn) < BEND_TURN_DEG:
                    # A slight branch is a turn only when its street bends away at once.
                    continue
                cost = abs(abs(turn) - 90) + 8.0 * (pos - event.start)
                if best is None or cost < best[0]:
                    best = (cost, pos, nodes)
        return None if best is None else (best[1], best[2])

    @staticmethod
    def _approach(graph: StreetGraph, seq: list[int], headings: list[float], pos: int) -> float:
        """Heading of travel into ``seq[pos]``: the street direction over the last 3 links."""
        return street_heading(graph, seq[max(0, pos - 3):pos + 1], headings[max(pos - 1, 0)])

    @staticmethod
    def _rollout(graph: StreetGraph, origin: int, first: int, heading: float
                 ) -> tuple[int, ...]:
        nodes = [first]
        prev, cur = origin, first
        for _ in range(ROLLOUT_NODES - 1):
            nxt = straight_next(graph, cur, heading, prev)
            # Stop short of the next crossing: standing on it would count it as passed.
            if nxt is None or nxt in nodes or nxt == origin or graph.is_intersection(nxt):
                break
            prev, cur = cur, nxt
            nodes.append(cur)
        return tuple(nodes)

    def _across(self, graph: StreetGraph, origin: int, nodes: tuple[int, ...], desired: float,
                approach: float) -> tuple[int, ...]:
        """A turn that first jogs across a divided road: when its link leaves more than
        ``JOG_TURN_DEG`` off the wanted heading, its roll-out stops one node in, and the only
        way on swings back along the street (within 45 degrees of it) to a crossing at most
        ``ACROSS_M`` on, the turn happens at that crossing, on the far side."""
        if len(nodes) != 1:
            return nodes
        first = nodes[0]
        if abs(heading_delta(graph.heading(origin, first), desired)) < JOG_TURN_DEG:
            return nodes  # already a proper turn
        onward = [lk for lk in graph.out_links[first] if lk.target != origin]
        if len(onward) != 1 or not graph.is_intersection(onward[0].target):
            return nodes
        far = onward[0].target
        if (graph.distance_m(first, far) > ACROSS_M
                or abs(heading_delta(onward[0].heading, approach)) > 45.0):
            return nodes
        best = min((lk for lk in graph.out_links[far] if lk.target not in (first, origin)),
                   key=lambda lk: abs(heading_delta(lk.heading, desired)), default=None)
        if best is None or abs(heading_delta(best.heading, desired)) >= JOG_TURN_DEG:
            return nodes
        return (first, far) + self._rollout(graph, far, best.target, desired)

    def _veer_at(self, obs: Observation, seq: list[int], headings: list[float], event: Event,
                 side: int, cur: int) -> tuple[int, tuple[int, ...]] | None:
        graph = obs.graph
        approach = self._approach(graph, seq, headings, event.start)
        for pos in range(max(event.start, cur), min(event.end + 1, len(seq) - 1) + 1):
            for link in graph.out_links[seq[pos]]:
                delta = heading_delta(link.heading, approach)
                if pos + 1 < len(seq) and link.target == seq[pos + 1]:
                    if delta * side > 0 and abs(delta) >= 10:
                        return None  # the street itself veers this way
                    continue
                if delta * side > 0 and VEER_MIN_DEG <= abs(delta) <= VEER_MAX_DEG:
                    return pos, self._rollout(graph, seq[pos], link.target, link.heading)
        return None

    def act(self, obs: Observation) -> Decision:
        """Execute the current sub-goal over the view (see the module docstring)."""
        goal = obs.subgoal
        if obs.retries == 0:
            self.goal_origin = len(obs.path) - 1
        seq, headings, cur = self._sequence(obs)
        events = self._events(obs.graph, seq, headings, obs.config.light_radius_m)
        view_end = len(seq) - 1
        # Do not walk into the look-ahead tail when a target is not yet visible.
        safe_end = events[-1].start if events else view_end
        cond = goal.condition
        if goal.action in (Action.TURN_LEFT, Action.TURN_RIGHT):
            return self._act_turn(obs, goal, seq, headings, cur, events, safe_end)
        if goal.action == Action.STOP:
            return self._act_stop(obs, cond, seq, cur, events, goal.text)
        # MOVE_FORWARD
        if cond.feature == "block" and cond.relation == "fraction":
            # "Go about 3/4 of the way down the block": stop inside it; a STOP that follows
            # with nothing else to go by stays here.
            anchor = 0 if self.last_action == "turn" else cur
            pos = self._fraction_pos(obs, seq, anchor, self._block_end(events, cur, view_end,
                                                                       goal.text),
                                     cond.fraction)
            decision = self._stop_at(obs, seq, cur, pos)
            self.last_action = "forward"
            return decision
        if cond.feature in ("light", "intersection", "t"):
            target = self._target(events, cond, cur, standing_ok=not cond.passing,
                                  behind_ok=True)
            target = self._disambiguate(obs, seq, events, cond, target, cur)
            if target is None and cond.feature == "t":
                # "Head to the end of the road": a street end that is not in view (u
                # crossings ahead) is not the one meant; stay rather than wander off.
                return Decision(COMPLETED, (), note="no street end in view")
            if target is None:
                return self._advance(seq, cur, safe_end, view_end)
            pos = min(target.end + 1, view_end) if cond.passing else target.start
            self.last_action = "forward"
            if not cond.passing:
                self.reached = len(obs.path) - 1 + max(pos - cur, 0)
            if cond.passing and pos > cur:
                # Remember the crossing just passed: "stop just past the light" means it.
                self.passed = (target.light and "light" or "intersection",
                               len(obs.path) - 1 + pos - cur)
            return Decision(COMPLETED, self._walk_to(seq, cur, max(pos, cur)))
        # "Continue until you see the church": the landmark may be blocks ahead.
        lm = self._landmark_position(obs, seq, cur, cond, view_end)
        if lm is None and obs.retries < UNTIL_VIEWS and _UNTIL_RE.search(goal.text):
            # "Keep going until you see Crunch": look a view further, but not forever.
            return self._advance(seq, cur, safe_end, view_end)
        if lm is None:
            return Decision(COMPLETED, (), note=f"landmark not seen: {goal.text[:40]}")
        if cond.relation == "past":
            lm = min(lm + 1, view_end)
        self.last_action = "forward"
        return Decision(COMPLETED, self._walk_to(seq, cur, lm))

    def _advance(self, seq: list[int], cur: int, safe_end: int, view_end: int) -> Decision:
        end = safe_end if safe_end > cur else view_end
        if end <= cur:
            return Decision(COMPLETED, (), note="dead end: sub-goal skipped")
        return Decision(IN_PROGRESS, self._walk_to(seq, cur, end))

    def _act_turn(self, obs: Observation, goal: SubGoal, seq: list[int], headings: list[float],
                  cur: int, events: list[Event], safe_end: int) -> Decision:
        side = -1 if goal.action == Action.TURN_LEFT else 1
        cond = goal.condition
        view_end = len(seq) - 1
        standing = [e for e in events if e.start <= cur <= e.end and not e.midblock]
        if cond.feature == "veer":
            cands = [e for e in events if e.end >= cur and not e.midblock][:2]
            for e in cands:
                hit = self._veer_at(obs, seq, headings, e, side, cur)
                if hit is not None:
                    return self._turn_moves(obs, seq, cur, hit)
            return Decision(COMPLETED, (), note="road veers by itself")
        target: Event | None = None
        if cond.feature in ("light", "intersection", "t"):
            target = self._target(events, cond, cur, standing_ok=True)
            # The street ends at a T, or at a fork whose branches both leave the street's
            # direction by more than the view follows (though one may leave the last link by
            # less, so the crossing is no T): the view stops there.
            last = len(seq) - 1
            blocked = straight_next(obs.graph, seq[last],
                                    self._approach(obs.graph, seq, headings, last),
                                    seq[last - 1] if last > 0 else None) is None
            dead_end = [e for e in events if e.end >= cur and (e.t_junction or blocked)
                        and e.end >= len(seq) - 2]
            if target is None and dead_end:
                # The street ends before the counted light: the turn can only be here.
                target = dead_end[0]
            target = self._disambiguate(obs, seq, events, cond, target, cur)
        elif cond.landmark:
            ahead = [e for e in events if e.end >= cur and not e.midblock]
            for e in ahead[:4]:
                if self._landmark_position(obs, seq, max(cur, e.start - CORNER_NODES), cond,
                                           e.end + CORNER_NODES) is not None:
                    target = e
                    break
            if target is None and ahead:
                target = standing[0] if standing else ahead[0]
        else:
            target = standing[0] if standing else next(
                (e for e in events if e.start > cur and not e.midblock), None)
        if target is None:
            return self._advance(seq, cur, safe_end, view_end)
        # The counted event may not offer the turn (a one-sided street); take the next that does.
        later = [e for e in events if e.start >= target.start]
        for e in later[:3]:
            hit = self._turn_at(obs, seq, headings, e, side, cur)
            if hit is not None:
                return self._turn_moves(obs, seq, cur, hit)
        if later and later[-1].start >= safe_end:
            return self._advance(seq, cur, safe_end, view_end)
        return Decision(COMPLETED, (), note=f"no {goal.action.value} found")

    def _turn_moves(self, obs: Observation, seq: list[int], cur: int,
                    hit: tuple[int, tuple[int, ...]]) -> Decision:
        pos, rollout = hit
        moves = self._walk_to(seq, cur, pos) + rollout
        # The new segment starts at the turn node, which sits in obs.path after these moves;
        # across a divided road (a crossing inside the roll-out) at the far-side crossing.
        across = max((k + 1 for k in range(1, len(rollout))
                      if obs.graph.is_intersection(rollout[k])), default=0)
        self.segment_start = len(obs.path) - 1 + (pos - cur) + across
        self.last_action = "turn"
        return Decision(COMPLETED, moves)

    def _act_stop(self, obs: Observation, cond: Condition, seq: list[int], cur: int,
                  events: list[Event], text: str) -> Decision:
        view_end = len(seq) - 1
        # Right after a turn the agent stands a few nodes into the new street (the turn's
        # roll-out); "stop a few steps after turning" counts from the corner.
        anchor = 0 if self.last_action == "turn" else cur
        ahead = [e for e in events if e.start > cur]
        next_start = self._block_end(events, cur, view_end,
                                     text if cond.feature == "block" else "")
        if self._just_passed(obs, cond, text):
            return Decision(COMPLETED, (), note="stop: the crossing just passed")
        if cond.feature in ("light", "intersection", "t") and cond.relation == "few":
            target = self._target(events, cond, cur, standing_ok=False, behind_ok=True)
            if target is not None:
                steps = int(cond.fraction) if cond.fraction >= 1 else FEW_STEPS_NODES
                return self._stop_at(obs, seq, cur, min(target.end + steps, view_end))
        elif cond.feature in ("light", "intersection", "t"):
            target = self._target(events, cond, cur, standing_ok=True)
            if target is not None:
                pos = target.start
                if cond.relation == "before":
                    pos = max(cur, pos - STOP_BEFORE_NODES)
                return Decision(COMPLETED, self._walk_to(seq, cur, pos))
        limit = ahead[1].start if len(ahead) > 1 else view_end
        # "Stop a couple of steps after turning, next to a school": the steps from the corner
        # say where; the school only confirms it.
        lm = None if (cond.relation == "few" and self.last_action == "turn"
                      and _AFTER_TURNING_RE.search(text)) else self._landmark_position(
            obs, seq, anchor, cond, limit, named_beyond=True)
        if lm is not None:
            if cond.relation == "past":
                lm = min(lm + PAST_NODES, view_end)
            elif cond.relation == "before":
                lm = max(anchor, lm - PAST_NODES)
            return self._stop_at(obs, seq, cur, lm)
        if cond.too_far and not cond.feature and cond.relation != "few":
            # Nothing else to go by: "if you reach X you've gone too far" puts the goal
            # just before X.
            far = self._landmark_position(obs, seq, anchor, Condition(landmark=cond.too_far),
                                          limit)
            if far is not None and far - BEFORE_NODES > anchor:
                return self._stop_at(obs, seq, cur, far - BEFORE_NODES)
        if cond.feature == "block" and cond.count > 0:
            # "Go 2.5 blocks": whole blocks end at crossings, then a fraction of the next.
            if len(ahead) < cond.count:
                return self._advance(seq, cur, ahead[-1].start if ahead else view_end, view_end)
            start = ahead[cond.count - 1].start
            end = ahead[cond.count].start if len(ahead) > cond.count else view_end
            return self._stop_at(obs, seq, cur, self._fraction_pos(obs, seq, start, end,
                                                                   cond.fraction))
        if cond.feature == "block":
            return self._stop_at(obs, seq, cur, self._fraction_pos(
                obs, seq, anchor, next_start, cond.fraction))
        if cond.relation == "few" or self.last_action == "turn":
            steps = int(cond.fraction) if cond.relation == "few" and cond.fraction >= 1 else (
                FEW_STEPS_NODES)
            if cond.relation == "few" and cond.fraction < 1 and _RIGHT_AWAY_RE.search(text):
                steps = 1  # "stop immediately after it", "right after the corner"
            return self._stop_at(obs, seq, cur, min(anchor + steps, view_end))
        if self.last_action == "forward" and not (
                cond.landmark and self.passed is not None
                and len(obs.path) - 1 - self.passed[1] <= PAST_NODES):
            return Decision(COMPLETED, ())  # "walk past the bank and stop": stop there
        # "Go through the light and stop at Fiat Cat", Fiat Cat not on the map: a stop
        # named by a landmark lies inside the block, not on the crossing just passed.
        # Nothing to go by: stop a little into the block.
        return self._stop_at(obs, seq, cur, self._fraction_pos(obs, seq, anchor, next_start,
                                                               DEFAULT_FRACTION))

    def _just_passed(self, obs: Observation, cond: Condition, text: str) -> bool:
        """"Go through the light and stop just past the light": a STOP past "the" light (no
        count) right after a move through one refers to that one, where the agent stands."""
        if (self.passed is None or self.last_action != "forward" or cond.relative
                or cond.count > 1 or cond.feature not in ("light", "intersection")
                or not (cond.passing or cond.relation == "few" or _PAST_RE.search(text))
                or re.search(r"\b(?:first|1st|second|2nd|third|3rd|fourth|4th|next|following)\b",
                              text)):
            return False
        feature, at = self.passed
        if cond.feature == "light" and feature != "light":
            return False
        return len(obs.path) - 1 - at <= PAST_NODES

    @staticmethod
    def _block_end(events: list[Event], cur: int, view_end: int, text: str) -> int:
        """Where the block ahead ends: the next crossing, or the next light when the text
        measures the block to a light ("halfway to the next light")."""
        ahead = [e for e in events if e.start > cur]
        if re.search(r"\blights?\b", text):
            lights = [e for e in ahead if e.light]
            if lights:
                return lights[0].start
        return ahead[0].start if ahead else view_end

    def _stop_at(self, obs: Observation, seq: list[int], cur: int, pos: int) -> Decision:
        """Walk on to ``pos``, or back along the street when the roll-out went past it.

        A "you've gone too far" landmark ahead caps ``pos`` a couple of nodes before it.
        """
        goal = obs.subgoal
        if goal.action == Action.STOP and goal.condition.too_far:
            check = Condition(landmark=goal.condition.too_far)
            far = self._landmark_position(obs, seq, max(cur, 0), check, len(seq) - 1)
            if far is not None and far <= pos:
                pos = max(far - BEFORE_NODES, min(cur, pos))
        if pos >= cur:
            return Decision(COMPLETED, self._walk_to(seq, cur, pos))
        back = tuple(reversed(seq[pos:cur]))
        links = zip((seq[cur],) + back, back, strict=False)
        if all(obs.graph.has_link(a, b) for a, b in links):
            return Decision(COMPLETED, back)
        return Decision(COMPLETED, ())

    @staticmethod
    def _fraction_pos(obs: Observation, seq: list[int], cur: int, end: int,
                      fraction: float) -> int:
        if end <= cur:
            return cur
        total = obs.graph.path_length_m(seq[cur:end + 1])
        run = 0.0
        for pos in range(cur + 1, end + 1):
            run += obs.graph.distance_m(seq[pos - 1], seq[pos])
            if run >= fraction * total:
                return pos
        return end
