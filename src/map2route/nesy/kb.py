"""NeSy-Route knowledge base: land-cover classes, agent traversability, objective rankings.

Implements section 3.1 of NeSy-Route (arXiv 2603.16307): the eight OpenEarthMap classes in the
official vector order, Table 1 (always / conditionally / never traversable per agent), Table 2
(preference rankings per agent and objective), the vectors ``V_trav`` and ``V_pref`` (Eq. 3) and
the cost map ``W(p)`` of Eq. 1.

Conventions (official evaluation code): vector index ``i`` is class ``c_i`` in the order
Bareland, Rangeland, Developed, Road, Tree, Water, Agriculture, Building; mask label ids 1-8 map
to index ``id - 1`` and label 0 is unlabelled (never traversable here: it has no class).

``V_pref`` numbering (the paper fixes only "higher value = higher priority"): the ranking of
Table 2 restricted to the traversable classes, as dense tiers 1..K with the least preferred
traversable tier = 1; non-traversable classes get 0. So ``W = K - V_pref + 1`` is 1 on the most
preferred terrain and grows by 1 per tier.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from map2route.nesy.errors import NesyError

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: Number of land-cover classes L.
NUM_CLASSES = 8
#: Official vector order; index i is class c_i, mask label id i + 1.
CLASS_NAMES: tuple[str, ...] = (
    "bareland", "rangeland", "developed", "road", "tree", "water", "agriculture", "building",
)
#: Human-readable names as the paper writes them.
CLASS_TITLES: tuple[str, ...] = (
    "Bareland", "Rangeland", "Developed space", "Road", "Tree", "Water", "Agriculture land",
    "Building",
)
#: OpenEarthMap's colour for each class (RGB), used for label previews.
CLASS_COLOURS: tuple[tuple[int, int, int], ...] = (
    (128, 0, 0), (0, 255, 36), (148, 148, 148), (255, 255, 255),
    (34, 97, 38), (0, 69, 255), (75, 181, 73), (222, 31, 7),
)
UNLABELLED = 0
#: Impassable cost in the official uint16 cost map.
IMPASSABLE = 65535


class Agent(enum.Enum):
    """The four agents of Table 1."""

    PEDESTRIAN = "pedestrian"
    CAR = "car"
    DRONE = "drone"
    BOAT = "boat"


class Objective(enum.Enum):
    """The four routing objectives of Table 2."""

    FASTEST = "fastest"
    COMFORT = "comfort"
    SAFEST = "safest"
    SHORTEST = "shortest"


class Traversability(enum.Enum):
    """The three traversability levels of section 3.1."""

    ALWAYS = "always"
    CONDITIONAL = "conditional"
    NEVER = "never"


def _classes(*ids: int) -> frozenset[int]:
    return frozenset(ids)


#: The paper's Table 2 cell for pedestrian/fastest (all equal), kept for comparison.
PAPER_PEDESTRIAN_FASTEST: tuple[tuple[int, ...], ...] = ((0, 1, 2, 3, 4, 6),)

#: Table 1: (T_A, T_C, T_N) per agent, as class indices.
TRAVERSABILITY: dict[Agent, tuple[frozenset[int], frozenset[int], frozenset[int]]] = {
    Agent.PEDESTRIAN: (_classes(2, 3), _classes(0, 1, 4, 6), _classes(5, 7)),
    Agent.CAR: (_classes(2, 3), _classes(0, 1, 6), _classes(4, 5, 7)),
    Agent.DRONE: (_classes(0, 1, 2, 3, 5, 6), _classes(4, 7), _classes()),
    Agent.BOAT: (_classes(5), _classes(), _classes(0, 1, 2, 3, 4, 6, 7)),
}

#: Table 2: each ranking is a tuple of tiers, most preferred first; a tier holds equal classes.
#: One deliberate difference from the paper's Table 2: pedestrian/fastest. The paper makes
#: every class equal there; the release's prompts (``evaluation/task{1,2,3}/prompts.py``,
#: shipped with the released ground truth) rank developed > road > agriculture > rangeland >
#: bareland > tree, the comfort/safest order. We follow the release (docs/nesy.md says why).
PREFERENCE_RANKINGS: dict[tuple[Agent, Objective], tuple[tuple[int, ...], ...]] = {
    (Agent.PEDESTRIAN, Objective.FASTEST): ((2,), (3,), (6,), (1,), (0,), (4,)),
    (Agent.PEDESTRIAN, Objective.COMFORT): ((2,), (3,), (6,), (1,), (0,), (4,)),
    (Agent.PEDESTRIAN, Objective.SAFEST): ((2,), (3,), (6,), (1,), (0,), (4,)),
    (Agent.PEDESTRIAN, Objective.SHORTEST): ((0, 1, 2, 3, 4, 6),),
    (Agent.CAR, Objective.FASTEST): ((3,), (2,), (6,), (1,), (0,)),
    (Agent.CAR, Objective.COMFORT): ((3,), (2,), (6,), (1,), (0,)),
    (Agent.CAR, Objective.SAFEST): ((3,), (2,), (6,), (1,), (0,)),
    (Agent.CAR, Objective.SHORTEST): ((0, 1, 2, 3, 6),),
    (Agent.DRONE, Objective.FASTEST): ((0, 1, 2, 3, 5, 6, 7), (4,)),
    (Agent.DRONE, Objective.COMFORT): ((0, 1, 2, 3, 6, 7), (5,), (4,)),
    (Agent.DRONE, Objective.SAFEST): ((0, 1, 2, 3, 6), (4, 5, 7)),
    (Agent.DRONE, Objective.SHORTEST): ((0, 1, 2, 3, 5, 6, 7), (4,)),
    (Agent.BOAT, Objective.FASTEST): ((5,),),
    (Agent.BOAT, Objective.COMFORT): ((5,),),
    (Agent.BOAT, Objective.SAFEST): ((5,),),
    (Agent.BOAT, Objective.SHORTEST): ((5,),),
}


@dataclass(frozen=True)
class Vectors:
    """The symbolic vectors of one query: ``V_trav`` in {0,1}^L and ``V_pref`` in {0..K}^L."""

    trav: tuple[int, ...]
    pref: tuple[int, ...]

    def to_json(self) -> dict[str, list[int]]:
        return {"V_trav": list(self.trav), "V_pref": list(self.pref)}


def class_index(name: str) -> int:
    """Index of a class given its name (``"road"``) or title (``"Agriculture land"``).

    Raises:
        NesyError: for an unknown name, with the valid names.
    """
    key = name.strip().lower().replace(" ", "_")
    for i, (n, t) in enumerate(zip(CLASS_NAMES, CLASS_TITLES, strict=True)):
        if key in (n, t.lower().replace(" ", "_")):
            return i
    msg = f"unknown land-cover class {name!r}; use one of {', '.join(CLASS_NAMES)}"
    raise NesyError(msg)


def traversability(agent: Agent, cls: int) -> Traversability:
    """Table 1 level of class index ``cls`` for ``agent``."""
    always, conditional, _never = TRAVERSABILITY[agent]
    if cls in always:
        return Traversability.ALWAYS
    if cls in conditional:
        return Traversability.CONDITIONAL
    return Traversability.NEVER


def traversable_classes(agent: Agent, allowed: frozenset[int] | set[int] = frozenset()) -> set[int]:
    """``T_A`` plus the conditionally traversable classes the query explicitly permits.

    Raises:
        NesyError: if ``allowed`` names a class that is not conditionally traversable.
    """
    always, conditional, _never = TRAVERSABILITY[agent]
    extra = set(allowed) - set(conditional)
    if extra:
        names = ", ".join(CLASS_NAMES[i] for i in sorted(extra))
        ok = ", ".join(CLASS_NAMES[i] for i in sorted(conditional)) or "none"
        msg = (f"a {agent.value} cannot be permitted {names}: only its conditionally traversable "
               f"classes ({ok}) can be allowed")
        raise NesyError(msg)
    return set(always) | set(allowed)


def derive_vectors(agent: Agent, objective: Objective,
                   allowed: frozenset[int] | set[int] = frozenset(),
                   present: frozenset[int] | set[int] | None = None,
                   excluded: frozenset[int] | set[int] = frozenset()) -> Vectors:
    """``f_KB(sigma) -> (V_trav, V_pref)`` (Eq. 3).

    Args:
        agent: the agent of Table 1.
        objective: the objective of Table 2.
        allowed: conditionally traversable classes the query permits.
        present: when given (Task 2), only these classes count: the others get 0 in both vectors.
        excluded: classes the query forbids, always traversable ones included: the release's
            gold vectors drop them ("restricted to a continuous paved surface" leaves a car
            the road only).

    Returns:
        The vectors; ``V_pref`` uses dense tiers over the traversable classes (module docstring).
    """
    trav_set = traversable_classes(agent, allowed) - set(excluded)
    if present is not None:
        trav_set &= set(present)
    tiers = [[c for c in tier if c in trav_set]
             for tier in PREFERENCE_RANKINGS[(agent, objective)]]
    tiers = [t for t in tiers if t]
    pref = [0] * NUM_CLASSES
    for rank, tier in enumerate(tiers):
        for c in tier:
            pref[c] = len(tiers) - rank
    trav = [1 if c in trav_set else 0 for c in range(NUM_CLASSES)]
    return Vectors(tuple(trav), tuple(pref))


def class_costs(vectors: Vectors) -> NDArray[np.uint16]:
    """Per-class cost of Eq. 1 as a uint16 table: ``max(V_pref) - V_pref[c] + 1``, or 65535.

    As the official scorer: a class is traversable when ``V_trav[c] == 1`` exactly, and the
    maximum runs over all eight entries of ``V_pref``.
    """
    pref = np.asarray(vectors.pref, dtype=np.int64)
    trav = np.asarray(vectors.trav, dtype=np.int64) == 1
    top = int(pref.max()) if pref.size else 0
    costs = np.full(NUM_CLASSES, IMPASSABLE, dtype=np.uint16)
    costs[trav] = (top - pref[trav] + 1).astype(np.uint16)
    return costs


def cost_map(labels: NDArray[np.integer], vectors: Vectors) -> NDArray[np.uint16]:
    """The cost map ``W(p)`` of Eq. 1 for a mask of label ids 0-8 (0 = unlabelled = impassable).

    Args:
        labels: (rows, cols) mask of label ids; index = id - 1.
        vectors: the query's vectors.

    Returns:
        (rows, cols) uint16, 65535 where impassable.

    Raises:
        NesyError: if the mask holds label ids outside 0-8.
    """
    lab = np.asarray(labels)
    if lab.size and (int(lab.min()) < 0 or int(lab.max()) > NUM_CLASSES):
        msg = (f"mask label ids must be 0-{NUM_CLASSES} (0 = unlabelled), found "
               f"{int(lab.min())}..{int(lab.max())}; convert the mask to OpenEarthMap ids first")
        raise NesyError(msg)
    table = np.concatenate([[IMPASSABLE], class_costs(vectors)]).astype(np.uint16)
    return table[lab.astype(np.intp)]
