"""Query writer and offline parser: round trip, held-out human-style sets, LLM self-check."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from map2route.nesy.errors import NesyError
from map2route.nesy.kb import TRAVERSABILITY, Agent, Objective, class_index, derive_vectors
from map2route.nesy.queries import QuerySpec, llm_write_query, parse_query, write_query

DATA = Path(__file__).parent / "data"


def _specs(n: int, seed: int) -> list[QuerySpec]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        agent = rng.choice(list(Agent))
        cond = sorted(TRAVERSABILITY[agent][1])
        allowed = frozenset(c for c in cond if rng.random() < 0.5)
        trav = sorted(TRAVERSABILITY[agent][0] | allowed)
        out.append(QuerySpec(agent, rng.choice(list(Objective)), allowed, rng.choice(trav),
                             rng.choice(trav)))
    return out


def test_template_queries_parse_back() -> None:
    rng = random.Random(7)
    for spec in _specs(400, 3):
        query = write_query(spec, rng)
        assert parse_query(query).vectors() == spec.vectors(), query


@pytest.mark.parametrize("name", ["heldout_queries.jsonl", "heldout_queries_v2.jsonl",
                                  "heldout_queries_v3.jsonl", "heldout_queries_v4.jsonl",
                                  "heldout_queries_v5.jsonl", "heldout_queries_v6.jsonl",
                                  "heldout_queries_v7.jsonl", "heldout_queries_v8.jsonl",
                                  "heldout_queries_v9.jsonl", "heldout_queries_v10.jsonl",
                                  "heldout_queries_v11.jsonl", "heldout_queries_v12.jsonl",
                                  "heldout_queries_v13a.jsonl", "heldout_queries_v13b.jsonl",
                                  "heldout_queries_v14.jsonl", "heldout_queries_v15.jsonl",
                                  "heldout_queries_v16.jsonl", "heldout_queries_v17.jsonl"])
def test_heldout_queries(name: str) -> None:
    rows = [json.loads(line) for line in (DATA / name).read_text().splitlines() if line]
    tm = fm = 0
    for row in rows:
        gt = derive_vectors(Agent(row["agent"]), Objective(row["objective"]),
                            {class_index(c) for c in row["allowed"]})
        got = parse_query(row["query"]).vectors()
        tm += got.trav == gt.trav
        fm += got == gt
    assert 100 * tm / len(rows) >= 99.0
    assert 100 * fm / len(rows) >= 95.0


def test_start_and_end_are_not_permissions() -> None:
    p = parse_query("A hiker walks from the forest edge to the farmland, fastest route, "
                    "staying on roads otherwise.")
    assert p.agent is Agent.PEDESTRIAN and p.objective is Objective.FASTEST
    assert p.allowed == frozenset()


def test_unknown_agent_is_flagged() -> None:
    p = parse_query("Get there.")
    assert not p.agent_found and not p.objective_found


def test_llm_writer_self_check() -> None:
    from map2route.llm import ChatClient
    from map2route.llm.testing import ScriptedChatServer

    spec = QuerySpec(Agent.DRONE, Objective.SAFEST, frozenset({7}), 3, 2)
    good = json.dumps({"agent": "drone", "objective": "safest", "allowed": ["building"]})
    wrong = json.dumps({"agent": "drone", "objective": "safest", "allowed": []})
    replies = ["A drone flies over roofs.", wrong, "A drone may overfly buildings, safely.", good]
    with ScriptedChatServer(replies) as server:
        client = ChatClient(server.url, "test-model")
        query = llm_write_query(client, spec)
        assert query == "A drone may overfly buildings, safely."
        assert len(server.requests) == 4
    with ScriptedChatServer(lambda body: wrong) as server:
        client = ChatClient(server.url, "test-model")
        with pytest.raises(NesyError, match="self-inferred vectors"):
            llm_write_query(client, spec, attempts=2)


@pytest.mark.parametrize(("query", "agent", "allowed"), [
    # a negator composes with the next cue: a negated prohibition permits, a negated
    # permission forbids
    ("On foot, quickest. It is not forbidden to cross the paddocks.", Agent.PEDESTRIAN,
     {"rangeland"}),
    ("Drive there, shortest. Don't use the grass, don't use the fields.", Agent.CAR, set()),
    # exceptions take the sign opposite to what they qualify
    ("drone, shortest, anything but buildings", Agent.DRONE, {"tree"}),
    ("Walkers may not leave the roads unless it is to cross the grassland.", Agent.PEDESTRIAN,
     {"rangeland"}),
    # "only X is off limits" permits the rest
    ("Pedestrian, shortest: only the grassland is off limits.", Agent.PEDESTRIAN,
     {"bareland", "tree", "agriculture"}),
    # plural stems, spelling correction, compounds ("farm buildings" are buildings)
    ("Pedestrain, quickest route, the forrest is ok but the feilds are not.", Agent.PEDESTRIAN,
     {"tree"}),
    ("A drone, shortest, cleared to cross over the copse, not over the farm buildings.",
     Agent.DRONE, {"tree"}),
    # a predicate after a mention governs only that mention; ellipsis repeats the polarity
    ("drone shortest path, trees ok buildings not ok", Agent.DRONE, {"tree"}),
    ("Hiker, safest. Rocky ground is no problem; grassy slopes too. No forest.",
     Agent.PEDESTRIAN, {"bareland", "rangeland"}),
])
def test_parser_mechanisms(query: str, agent: Agent, allowed: set[str]) -> None:
    p = parse_query(query)
    assert p.agent is agent
    assert p.allowed == frozenset(class_index(c) for c in allowed), query


@pytest.mark.parametrize(("query", "agent", "allowed"), [
    # abbreviations and "+" ("veh", "bldgs")
    ("veh, safest, gravel+grass ok", Agent.CAR, {"bareland", "rangeland"}),
    ("UAV, fastest, bldgs ok, no trees", Agent.DRONE, {"building"}),
    # five-letter words are corrected by a swap of adjacent letters only
    ("A drnoe, shortest, over the trees is fine", Agent.DRONE, {"tree"}),
    ("walker, fastest, the feild is fine", Agent.PEDESTRIAN, {"agriculture"}),
    # an ambiguous agent noun is settled by the verbs
    ("Flying the quad up to the ridge, quickest, trees fine", Agent.DRONE, {"tree"}),
    ("Quad, shortest, ride across the grassland", Agent.CAR, {"rangeland"}),
    # a vehicle noun before a place noun is a place
    ("Walk to the taxi rank, shortest, the meadow is ok", Agent.PEDESTRIAN, {"rangeland"}),
    # words that name no land cover ("field team", "rock hard")
    ("The field team walks to camp, fastest, grass is fine", Agent.PEDESTRIAN, {"rangeland"}),
    ("Jeep, safest, the ground is rock hard so the pasture is fine", Agent.CAR, {"rangeland"}),
    # "X is Y": the predicate names the class
    ("Jeep, fastest. The old farm is all meadow now and it may drive on it.", Agent.CAR,
     {"rangeland"}),
    # a restriction permits what it names
    ("Walker, safest, keep to the pavements and the meadows.", Agent.PEDESTRIAN, {"rangeland"}),
    ("Jeep, fastest, gravel only.", Agent.CAR, {"bareland"}),
    ("Car, shortest, off road only where there is pasture", Agent.CAR, {"rangeland"}),
    ("Walker, shortest, stick to roads, the woods are too dense", Agent.PEDESTRIAN, set()),
    # a route word without an object refers back to the mention
    ("Van, fastest, the barley has been harvested, drive across if it saves time", Agent.CAR,
     {"agriculture"}),
    ("Van, fastest, the barley has not been harvested, do not drive across", Agent.CAR, set()),
    # a comma segment with "too / as well" repeats the segment before
    ("Walker, fastest: forest fine, heath as well, no farmland", Agent.PEDESTRIAN,
     {"tree", "rangeland"}),
    # "search everywhere" permits all; "do not go anywhere near" does not
    ("Search team on foot, fastest, comb everywhere: woods, crops, moor.", Agent.PEDESTRIAN,
     {"bareland", "rangeland", "tree", "agriculture"}),
    ("Walker, quickest, do not go anywhere near the woods", Agent.PEDESTRIAN, set()),
    # a prohibition of "nothing" permits all
    ("Hiker, fastest, nothing is off limits.", Agent.PEDESTRIAN,
     {"bareland", "rangeland", "tree", "agriculture"}),
    ("Drone, shortest, avoid nothing except the houses", Agent.DRONE, {"tree"}),
    # "is possible" permits, "is not possible" forbids
    ("Car fastest, is possible to drive on the sand, is not possible on the crops", Agent.CAR,
     {"bareland"}),
    # a park is a setting: only a cue in its own phrase makes it a permission
    ("Jogger, fastest route through the park, the woods are okay", Agent.PEDESTRIAN, {"tree"}),
    ("Walker, fastest, I don't mind cutting through the park", Agent.PEDESTRIAN, {"rangeland"}),
])
def test_parser_mechanisms_v7(query: str, agent: Agent, allowed: set[str]) -> None:
    p = parse_query(query)
    assert p.agent is agent
    assert p.allowed == frozenset(class_index(c) for c in allowed), query


@pytest.mark.parametrize(("query", "agent", "allowed"), [
    # a line break ends a statement: bullet lists and "key: value" lines
    ("Route request:\n- agent: walker\n- ok: woodland, grass\n- not ok: crops, bare rock",
     Agent.PEDESTRIAN, {"tree", "rangeland"}),
    ("Vehicle: van\nAllowed off-road: dirt\nForbidden: cropland", Agent.CAR, {"bareland"}),
    # a verdict after a colon decides its key, whatever route word the key holds
    ("Mission: UAV relay\nOverfly trees: permitted\nOverfly buildings: prohibited", Agent.DRONE,
     {"tree"}),
    ("* Drone\n* Buildings: yes\n* Trees: no", Agent.DRONE, {"building"}),
    # a short reply to a question decides the question's terrain
    ("Is the drone allowed over the houses? No. Over the forest? Yes. Shortest path.",
     Agent.DRONE, {"tree"}),
    ("May the hiker cross the cornfield? It is fine. And the moorland? It is. Fastest.",
     Agent.PEDESTRIAN, {"agriculture", "rangeland"}),
    ("Could the ute go over the sand? No worries, it can. Quickest way?", Agent.CAR,
     {"bareland"}),
    ("Can a car drive over grass? No. Over fields? Nope. Fastest.", Agent.CAR, set()),
    # a surface noun before developed space names the surface ("gravel forecourt")
    ("Estate car, comfort, it may go over the gravel forecourt.", Agent.CAR, {"bareland"}),
    # "every land cover", "clearance to overfly everything", "access ... is granted"
    ("Drone, shortest. Every land cover may be overflown.", Agent.DRONE, {"tree", "building"}),
    ("The drone has clearance to overfly everything on the map.", Agent.DRONE,
     {"tree", "building"}),
    ("Access to the sand dunes is granted to pedestrians, fastest.", Agent.PEDESTRIAN,
     {"bareland"}),
    # regional vehicle nouns
    ("Auto-rickshaw to the station, fastest, only on roads.", Agent.CAR, set()),
    ("Tinnie across the billabong, safest way.", Agent.BOAT, set()),
])
def test_parser_mechanisms_v8(query: str, agent: Agent, allowed: set[str]) -> None:
    p = parse_query(query)
    assert p.agent is agent
    assert p.allowed == frozenset(class_index(c) for c in allowed), query


@pytest.mark.parametrize(("query", "objective"), [
    # a negated objective word states no objective; "no risk" still asks for safety
    ("Walkers, not in a hurry, want the most pleasant walk.", Objective.COMFORT),
    ("Hiker, no rush, but take no risks.", Objective.SAFEST),
    # "too risky to enter" describes terrain, not the goal
    ("Team on foot, quickly please; the woods are too risky to enter.", Objective.FASTEST),
    # a manner adverb weighs less than a stated goal; ties go to the first named
    ("Pedestrian, shortest. Any terrain a person can safely walk on is fine.",
     Objective.SHORTEST),
    ("Kindly route the scooter safely to the hospital.", Objective.SAFEST),
])
def test_objective_mechanisms_v8(query: str, objective: Objective) -> None:
    assert parse_query(query).objective is objective


MECHANISMS_V10 = [
    # a spaced dash ends a statement; before a short verdict it reads as a colon
    ("Walker, shortest. No crossing fields or woods - pavements only.", Agent.PEDESTRIAN, set()),
    ("Hiker, fastest. Forest - yes. Crops - no.", Agent.PEDESTRIAN, {"tree"}),
    # an object pronoun inside a phrasal cue ("keep him off")
    ("Hiker, fastest. Woods are fine but keep him off the moor.", Agent.PEDESTRIAN, {"tree"}),
    # an inflected word is not a typo of its stem ("camped" is no "camper")
    ("We camped by the lake; hiking out, fastest, the meadow is fine.", Agent.PEDESTRIAN,
     {"rangeland"}),
    # cue words are spelling-corrected at one edit
    ("Car, fastest, grassland is forbiden, dirt is alowed.", Agent.CAR, {"bareland"}),
    # the longest cue wins across tables ("restrictions were lifted" is no restriction)
    ("Drone, fastest. Restrictions over the woods were lifted.", Agent.DRONE, {"tree"}),
    # "all conditional classes", "any drivable terrain except X", "no terrain restrictions"
    ("Pedestrian, safest, all conditional classes permitted.", Agent.PEDESTRIAN,
     {"bareland", "rangeland", "tree", "agriculture"}),
    ("Car, fastest. Any drivable terrain except the fields is allowed.", Agent.CAR,
     {"bareland", "rangeland"}),
    ("Walker, fastest, no terrain restrictions.", Agent.PEDESTRIAN,
     {"bareland", "rangeland", "tree", "agriculture"}),
    ("Walker, fastest, no restrictions on the heath.", Agent.PEDESTRIAN, {"rangeland"}),
    # a predicate after a list is said of the whole list
    ("Walker, comfort: sand, heath, woods and crops are all fair game.", Agent.PEDESTRIAN,
     {"bareland", "rangeland", "tree", "agriculture"}),
    # landmarks: beside a locative, or with a side
    ("Walk past the woods on the right to the cafe, fastest.", Agent.PEDESTRIAN, set()),
    ("Walker, fastest, the meadow next to the farm is fine.", Agent.PEDESTRIAN, {"rangeland"}),
    # an elided predicate takes its negation with it
    ("Drone, shortest. Trees are not forbidden; buildings are.", Agent.DRONE, {"tree"}),
    ("Drone, shortest. Buildings are not allowed; trees are.", Agent.DRONE, {"tree"}),
    # a tied agent noun goes to the agent for which the named terrain is conditional
    ("Quad, safest, rooftops are fine.", Agent.DRONE, {"building"}),
    ("Quad, shortest, the sand is fine.", Agent.CAR, {"bareland"}),
    # a verdict heading a list
    ("Walker, fastest. Not permitted: crossing farmland or heath.", Agent.PEDESTRIAN, set()),
    ("Walker, fastest. Permitted: crossing the heath.", Agent.PEDESTRIAN, {"rangeland"}),
    # "without restriction" permits
    ("The jeep drives over gravel and pasture without restriction.", Agent.CAR,
     {"bareland", "rangeland"}),
    # moving through "anything", "drive on X", a compound keeps its list place
    ("Hiker, fastest, I'll go through anything.", Agent.PEDESTRIAN,
     {"bareland", "rangeland", "tree", "agriculture"}),
    ("Van, shortest, we drive on gravel, farm fields.", Agent.CAR, {"bareland", "agriculture"}),
    # a bare "not" beside a start or end corrects a place
    ("Walker, fastest. I start at the plaza, not the meadow. Gravel is fine.", Agent.PEDESTRIAN,
     {"bareland"}),
]


@pytest.mark.parametrize(("query", "agent", "objective"), [
    ("Time is of the essence for the walker.", Agent.PEDESTRIAN, Objective.FASTEST),
    ("USV, min dist to the buoy.", Agent.BOAT, Objective.SHORTEST),
    ("Military ground vehicle, minimise threat exposure.", Agent.CAR, Objective.SAFEST),
    ("Police cruiser to the station, quickest.", Agent.CAR, Objective.FASTEST),
    ("Pedalo ride for the kids, as calm as possible.", Agent.BOAT, Objective.COMFORT),
])
def test_agent_and_objective_words_v10(query: str, agent: Agent, objective: Objective) -> None:
    p = parse_query(query)
    assert (p.agent, p.objective) == (agent, objective), query


MECHANISMS_V11 = [
    # "no A, B or C may be crossed": the determiner negates the verdict for the whole list
    ("Van, safest. No gravel, pasture or crops may be crossed.", Agent.CAR, set()),
    # a class word naming a facility is a place ("the beach hotel")
    ("Walk to the beach hotel, fastest, no effort please. The grass is fine.",
     Agent.PEDESTRIAN, {"rangeland"}),
    # permission only at the destination is no permission
    ("Walker, shortest. Crops are fine, and heath may only be entered at the destination.",
     Agent.PEDESTRIAN, {"agriculture"}),
]


@pytest.mark.parametrize("query", ["Walker, the least strenuous way home.",
                                   "Low stress flight for the drone to the crop fields.",
                                   "Car to town, no bumps please.",
                                   "Walker, minimal physical strain."])
def test_burden_words_ask_for_comfort(query: str) -> None:
    assert parse_query(query).objective is Objective.COMFORT


MECHANISMS_V12 = [
    # "let ... cross any terrain": moving over an everything phrase permits all
    ("Hiker, shortest. The rules let him cross any natural terrain.", Agent.PEDESTRIAN,
     {"bareland", "rangeland", "tree", "agriculture"}),
    # "I don't care" after a list permits it; a list needs no commas
    ("Walker, shortest: grass, dirt, woods, I don't care.", Agent.PEDESTRIAN,
     {"rangeland", "bareland", "tree"}),
    ("Truck, safest. grassland bareland farmland all good", Agent.CAR,
     {"rangeland", "bareland", "agriculture"}),
    # a retraction withdraws what the previous statement permitted
    ("SUV, fastest. Could cut across the sand? Nah, forget that, roads only.", Agent.CAR,
     set()),
    # a tied agent noun ("tanker") goes to the agent for which the terrain is conditional
    ("Fuel tanker, safest, the gravel is allowed.", Agent.CAR, {"bareland"}),
]


def test_objective_self_correction() -> None:
    p = parse_query("Walk to the hospital, fastest... actually no, the safest one.")
    assert p.objective is Objective.SAFEST


MECHANISMS_V13 = [
    # "traversable class" describes terrain; a negated everything phrase permits nothing
    ("Walker, safest. The woods are fine; every other conditionally traversable class "
     "(bare land, grass, crops) is forbidden.", Agent.PEDESTRIAN, {"tree"}),
    ("Hiker, fastest. Crops may be crossed, and no other off-road terrain is opened.",
     Agent.PEDESTRIAN, {"agriculture"}),
    # a pair of spaced dashes encloses an aside
    ("Jeep, shortest. All off-road terrain - sand, grass and crops - is open.", Agent.CAR,
     {"bareland", "rangeland", "agriculture"}),
    # an everything phrase narrowed by a preposition and a mention names that terrain only
    ("Jeep, quickest, go cross-country over the grassland.", Agent.CAR, {"rangeland"}),
    # a list joined by land nouns shares its postposed verdict
    ("Walker, comfort: bare land, grass, the tree area and farm land are not to be used.",
     Agent.PEDESTRIAN, set()),
    # a bare "No." after a sarcastic statement retracts it
    ("Sure, let me drive the van across the sheep fields, brilliant idea. No. Roads only.",
     Agent.CAR, set()),
    # "pine plantation" is forest; a vehicle in a from/to phrase is a place
    ("Walk from the ute to the dam, shortest, the pine plantation is fine.", Agent.PEDESTRIAN,
     {"tree"}),
    # the head of "ambulance boat" names the agent
    ("River ambulance boat to the jetty, safest.", Agent.BOAT, set()),
]


MECHANISMS_V14 = [
    # a real English word is no typo ("follow" is not "fallow")
    ("A minivan must follow the safest route, using only roads.", Agent.CAR, set()),
    # a restriction in the clause narrows an everything phrase
    ("Walker, shortest. Permitted off-road terrain: heathland only.", Agent.PEDESTRIAN,
     {"rangeland"}),
    # a parcel head takes its modifier's class ("wheat paddocks" are crops)
    ("Hiker, safest. The scrub is OK. Not the wheat paddocks.", Agent.PEDESTRIAN,
     {"rangeland"}),
    # the destination of a motion is no permission
    ("Camera drone, smooth flight across the vineyard to the house, avoid trees, houses are "
     "fine.", Agent.DRONE, {"building"}),
    # a short "No, ..." answers the question before it
    ("Car, safest. Can I cut across the grazing land? No, stick to the road.", Agent.CAR, set()),
    # land nouns continue a list ("gravel plain, heath and cropland")
    ("Rally car, safest, crossing gravel plain, heath and cropland where required.", Agent.CAR,
     {"bareland", "rangeland", "agriculture"}),
]


MECHANISMS_V15 = [
    # "whatever way" is about the route, and a restriction narrows moving "anywhere"
    ("Walking, go whatever way is fastest, roads and sidewalks only.", Agent.PEDESTRIAN, set()),
    # a negation a few words before an everything phrase
    ("Car, safest. No off-road driving on any conditionally traversable terrain is permitted.",
     Agent.CAR, set()),
]


def test_shortest_possible_time_is_fastest() -> None:
    assert parse_query("Rescue car, in the shortest possible time.").objective is \
        Objective.FASTEST


MECHANISMS_V16 = [
    # a comma without "and / or" ends the list a restriction names
    ("Walk back to the hotel, safest. Not through any woods or empty fields, streets only.",
     Agent.PEDESTRIAN, set()),
    # examples after a negated head ("no off-road terrain such as A or B may be used")
    ("Jogger, fastest. No off-road terrain such as bare land, grass or farmland may be used.",
     Agent.PEDESTRIAN, set()),
    # an unquantified "traversable terrain includes" permits what it lists
    ("Walker, comfort. Traversable terrain includes roads, grassland and farmland.",
     Agent.PEDESTRIAN, {"rangeland", "agriculture"}),
]


@pytest.mark.parametrize(("query", "agent", "allowed"),
                         MECHANISMS_V16 + MECHANISMS_V10 + MECHANISMS_V11 + MECHANISMS_V12 + MECHANISMS_V13 + MECHANISMS_V14 + MECHANISMS_V15)
def test_parser_mechanisms_v10_to_v16(query: str, agent: Agent, allowed: set[str]) -> None:
    """General mechanisms added for held-out sets v10-v16, each on a hand-made query."""
    p = parse_query(query)
    assert p.agent is agent
    assert p.allowed == frozenset(class_index(c) for c in allowed), query
