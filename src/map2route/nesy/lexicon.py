"""Word tables of the offline query parser (``queries.parse_query``): data, no logic.

Every table is matched on normalised tokens: lower case, hyphens split words, "n't" expanded
("don't" -> "do not", "won't" -> "will not", "cannot" -> "can not"). Agent and land-cover
phrases are also matched after a light plural stemmer ("paddocks" = "paddock"), and unknown
words of six letters or more are spelling-corrected against these tables (one edit, two from
nine letters; five-letter words by a swap of adjacent letters only), so neither plural forms nor
common typos need listing.
"""

from __future__ import annotations

from map2route.nesy.kb import Agent, Objective

#: Agent nouns and verbs with a weight: nouns 3, activity verbs 1, false friends 0.
AGENT_WORDS: dict[Agent, list[tuple[str, int]]] = {
    Agent.PEDESTRIAN: [(w, 3) for w in [
        "hiker", "pedestrian", "on foot", "by foot", "jogger", "runner", "walker", "backpacker",
        "trekker", "person walking", "someone walking", "surveyor on foot", "walking tour",
        "stroll", "rambler", "foot patrol", "mountaineer", "climber", "orienteer", "pilgrim",
        "dog walker", "hillwalker", "wanderer", "ped", "schoolchildren", "bushwalker",
        "wheelchair user"]] + [
        (w, 1) for w in ["hike", "hiking", "walk", "walking", "trekking", "trek", "wander",
                         "ramble", "stroll", "jog", "jogging", "run", "running", "tramp",
                         "march", "marching"]],
    Agent.CAR: [(w, 3) for w in [
        "car", "vehicle", "truck", "van", "suv", "jeep", "4x4", "ambulance", "fire engine",
        "fire truck", "sedan", "minibus", "bus", "pickup", "automobile", "lorry", "motorbike",
        "motorcycle", "convoy", "limousine", "limo", "taxi", "cab", "camper", "camper van",
        "hatchback", "tractor", "land rover", "landrover", "range rover", "humvee", "atv",
        "quad bike", "buggy", "dune buggy", "hgv", "minivan", "station wagon", "estate car",
        "squad car", "motorist", "ute", "wagon", "hearse", "campervan",
        "motorhome", "rv", "offroader", "four by four", "4wd", "awd", "rickshaw", "auto rickshaw",
        "autorickshaw", "tuk tuk", "two wheeler", "scooter", "moped", "tempo", "pickup truck",
        "police car", "patrol car", "police cruiser",
        "ground vehicle", "off roader", "utility vehicle", "rover", "wheeled rover",
        "land cruiser", "landcruiser", "hilux", "corolla", "prius", "golf cart", "tesla",
        "rally car", "impreza"]] + [(w, 2) for w in ["rally", "carsick", "wheeled"]] + [
        (w, 1) for w in [
        "drive", "driving", "driven", "drove", "ride", "driver", "motor", "wheels"]] + [
        (w, 0) for w in ["car park", "parking lot", "parking"]],
    Agent.DRONE: [(w, 3) for w in [
        "drone", "uav", "quadcopter", "unmanned aerial vehicle", "unmanned aerial", "uas",
        "multicopter", "aircraft", "octocopter", "hexacopter", "quadrotor", "suas", "octorotor", "hexarotor", "vtol", "rpas", "copter",
        "rotorcraft", "multirotor", "fixed wing", "unmanned aircraft"]] + [(w, 1) for w in [
        "fly", "flight", "flying", "overfly", "overflown", "overflies", "overflight",
        "airborne", "aerial", "flown", "hover"]],
    Agent.BOAT: [(w, 3) for w in [
        "boat", "kayak", "canoe", "vessel", "ferry", "ship", "dinghy", "sailboat", "motorboat",
        "raft", "pontoon", "yacht", "coast guard", "coastguard", "motor launch", "river patrol",
        "kayaker", "canoeist", "rower", "sailor", "speedboat", "tugboat", "barge", "steamer",
        "lifeboat", "jet ski", "jetski", "craft", "watercraft", "rib", "skiff", "punt",
        "catamaran", "trawler", "rowboat", "rowing boat", "houseboat", "narrowboat",
        "paddleboard", "paddle board", "zodiac", "airboat", "inflatable",
        "water taxi", "hydrofoil", "tinnie", "dory", "sampan",
        "longboat", "pirogue", "survey launch", "launch boat", "usv", "asv", "unmanned surface vehicle",
        "autonomous surface vessel", "surface vessel", "pedalo", "pedal boat", "paddle boat",
        "swan boat", "gondola", "paddleboarder", "paddle boarder", "stand up paddle",
        "dredger", "pleasure cruiser", "cabin cruiser", "river cruiser", "cruise ship",
        "police launch", "patrol boat", "scull", "sculler", "currach", "coracle",
        "kayaking", "kayakin", "canoeing", "rowing eight"]] + [(w, 1) for w in [
        "boating", "paddling", "paddle", "rowing", "sail", "sailing", "cruise", "harbour",
        "harbor", "upriver", "downriver", "buoy", "marina", "mooring", "afloat", "aboard",
        "moored", "jetty", "boathouse", "slipway", "berth", "row", "pier", "quay", "downstream", "upstream"]],
}

#: (phrase, objective, weight); multi-word phrases win over their words ("shortest time").
OBJECTIVE_WORDS: list[tuple[str, Objective, int]] = [
    ("shortest time", Objective.FASTEST, 5), ("least time", Objective.FASTEST, 5),
    ("minimum time", Objective.FASTEST, 5), ("travel time", Objective.FASTEST, 4),
    ("least risky", Objective.SAFEST, 5), ("least dangerous", Objective.SAFEST, 5),
    ("minimum distance", Objective.SHORTEST, 5), ("minimum risk", Objective.SAFEST, 5),
    ("minimal risk", Objective.SAFEST, 5), ("time matters", Objective.FASTEST, 5),
    ("personal best", Objective.FASTEST, 4), ("as soon as possible", Objective.FASTEST, 5),
    ("least distance", Objective.SHORTEST, 5), ("minimal distance", Objective.SHORTEST, 5),
    ("most direct", Objective.SHORTEST, 5), ("as the crow flies", Objective.SHORTEST, 5),
    ("least effort", Objective.COMFORT, 5), ("lowest risk", Objective.SAFEST, 5),
    ("low risk", Objective.SAFEST, 5), ("time critical", Objective.FASTEST, 5),
    ("no time to lose", Objective.FASTEST, 5), ("fewest metres", Objective.SHORTEST, 5),
    ("fewest meters", Objective.SHORTEST, 5), ("fewest kilometres", Objective.SHORTEST, 5),
    ("least strain", Objective.COMFORT, 5), ("shortest distance", Objective.SHORTEST, 5),
    ("least exposure", Objective.SAFEST, 5), ("least amount of time", Objective.FASTEST, 5),
    ("least travel", Objective.SHORTEST, 4), ("minimise risk", Objective.SAFEST, 5),
    ("minimize risk", Objective.SAFEST, 5), ("in a hurry", Objective.FASTEST, 5),
    ("time is", Objective.FASTEST, 4), ("of the essence", Objective.FASTEST, 5),
    ("shortest possible time", Objective.FASTEST, 6), ("least possible time", Objective.FASTEST, 6),
    ("minimum possible time", Objective.FASTEST, 6), ("shortest amount of time", Objective.FASTEST, 6),
    ("threat exposure", Objective.SAFEST, 5), ("min distance", Objective.SHORTEST, 5),
    ("fewest miles", Objective.SHORTEST, 5), ("least mileage", Objective.SHORTEST, 5),
    ("time", Objective.FASTEST, 2), ("exposure", Objective.SAFEST, 2),
    *[(w, Objective.FASTEST, 3) for w in [
        "fastest", "quickest", "quickly", "fast", "quick", "hurry", "rush", "asap", "rapidly",
        "speed", "soonest", "speedy", "swift", "swiftest", "urgently", "faster", "quicker",
        "rapid", "urgent", "promptly", "hurried", "speediest", "pronto", "hastily"]],
    *[(w, Objective.COMFORT, 3) for w in [
        "comfortable", "comfort", "pleasant", "nicest", "smoothest", "smooth", "relaxed",
        "relaxing", "easiest", "calm", "gentle", "leisurely", "comfy", "comfiest",
        "effortless", "cosy", "cozy", "comfortably", "gentlest", "pleasantest", "easy",
        "scenic", "enjoyable", "agreeable", "smoothly", "calmest", "strain", "strenuous",
        "bumpy", "bumps", "exertion", "jolting", "jolts", "demanding", "sweaty", "sweat",
        "stress", "stressful", "stress free"]],
    *[(w, Objective.COMFORT, 2) for w in ["effort", "tiring"]],
    *[(w, Objective.SAFEST, 3) for w in [
        "safest", "safe", "safety", "risk", "risky", "danger", "dangerous", "hazard", "hazards",
        "secure", "hazardous", "safely", "safer", "cautious", "careful", "carefully",
        "securest", "riskless", "lowest risk", "threat", "threats", "perilous",
        "peril"]],
    *[(w, Objective.SHORTEST, 3) for w in [
        "shortest", "direct", "closest", "distance", "shorter", "shortcut", "directly",
        "nearest", "briefest"]],
]

#: Land-cover phrases per class index (vector order of kb.CLASS_NAMES). Paths, tracks and
#: lanes are roads (OSM highway=*), parks and gardens rangeland, wetland rangeland
#: (landcover.py's tag table).
CLASS_WORDS: dict[int, list[str]] = {
    0: ["bare land", "bare ground", "bare soil", "bare earth", "bare rock", "bare dirt",
        "bareland", "barren", "bare", "dirt", "sand", "gravel", "rock", "rocky", "mudflat",
        "scree", "desert", "bare patch", "wasteland", "boulder field", "clearing", "gravel lot",
        "sandy", "sandpit", "sand pit", "dune", "sand dune", "beach", "shingle", "mud", "mud flat",
        "quarry", "gravel pit", "rocky ground", "salt flat", "stony ground", "stones",
        "pebbles", "brownfield", "landfill", "construction site", "building site", "spoil",
        "spoil heap", "exposed ground", "exposed rock", "bare hillside", "rubble", "boulders",
        "boulder", "dust", "dusty", "badlands", "bedrock", "outcrop", "sandbank",
        "earthworks", "dirt lot", "unpaved lot", "bare earth patch", "barren land",
        "waste ground", "waste land", "derelict land", "sandstone", "limestone", "granite",
        "red dirt", "bare slope", "salt pan", "gibber", "gibber plain", "clear fell",
        "clearfell"],
    1: ["rangeland", "grassland", "grassy", "grass", "meadow", "pasture", "scrub", "shrubland",
        "shrub", "heath", "verge", "prairie", "savanna", "savannah", "scrubland", "lawn",
        "parkland", "moor", "moorland", "steppe", "bush", "bushland", "grassy field",
        "grass field", "common grassland", "heathland", "paddock", "bracken", "gorse",
        "heather", "brush", "brushland", "the common", "village green", "garden",
        "wetland", "marsh", "marshland", "bog", "fen", "grazing land", "rough grass",
        "long grass", "tall grass", "turf", "sward", "tundra", "rough pasture", "grass verge",
        "open grass", "water meadow", "reeds", "reed bed", "overgrown", "weeds", "sagebrush",
        "chaparral", "veld", "heaths", "greenery", "green space", "park", "the fell",
        "open fell", "fellside", "fell side", "spinifex", "tussock", "garrigue", "maquis",
        "machair", "pampas", "fynbos", "mulga", "saltmarsh", "salt marsh"],
    2: ["developed", "built up", "paved", "pavement", "plaza", "urban", "tarmac", "sidewalk",
        "square", "car park", "parking lot", "parking", "courtyard", "concrete", "asphalt",
        "industrial estate", "industrial area", "residential area", "campus", "playing field",
        "sports field", "sports pitch", "developed land", "developed area", "hardstanding",
        "forecourt", "yard", "schoolyard", "playground", "paved area", "town centre",
        "city centre", "built environment"],
    3: ["road", "street", "highway", "track", "trail", "footpath", "lane", "motorway",
        "dirt road", "gravel road", "bike path", "cycle path", "cycleway", "towpath",
        "path", "avenue", "boulevard", "dual carriageway", "carriageway", "freeway",
        "bridleway"],
    4: ["trees", "tree", "forest", "forested", "wood", "woodland", "wooded", "canopy",
        "tree cover", "jungle", "treetop", "grove", "thicket", "timber", "copse", "coppice",
        "spinney", "woodlot", "rainforest", "treeline", "tree line", "tree belt",
        "shelterbelt", "forestry", "conifer plantation", "pine forest", "pines", "pine",
        "birch", "oak", "oaks", "conifers", "evergreens", "plantation forest", "timberland",
        "tree canopy", "leafy", "arboretum", "mangrove", "tree stand", "scrub forest", "gums",
        "gum trees", "eucalyptus", "pine plantation", "spruce plantation"],
    5: ["water", "lake", "river", "sea", "bay", "pond", "stream", "creek", "canal", "harbour",
        "harbor", "channel", "estuary", "shallows", "reservoir", "lagoon", "marina", "fjord",
        "inlet", "ocean", "waterway", "loch", "brook", "open water", "strait"],
    6: ["farmland", "farm", "field", "crop", "cropland", "agricultural", "agriculture",
        "cultivated", "arable", "orchard", "plantation", "paddy", "vineyard", "farm land",
        "cornfield", "allotment", "ploughed field", "plowed field", "hayfield", "fallow",
        "fallow field", "wheat", "barley", "maize", "corn", "rice", "hay", "ploughed",
        "plowed", "tilled", "tilled land", "arable land", "market garden", "sugarcane",
        "soybean", "soy", "cotton", "potato", "potatoes", "vegetable", "vegetables",
        "tea plantation", "olive grove", "olive groves", "fruit farm", "croft", "smallholding",
        "farmed land", "farmyard", "agri", "cereal", "cereals", "rapeseed", "oilseed", "beet", "sunflower",
        "sunflowers", "planted", "farming", "stubble", "stubble field", "tillage", "silage",
        "polytunnel", "polytunnels", "plough", "the plow", "ploughland"],
    7: ["buildings", "building", "rooftop", "roof", "house", "structure", "built structure",
        "home", "block", "shed", "barn", "hut", "garage", "warehouse", "hangar", "factory",
        "factories", "church", "tower", "tower block", "office block", "apartment block",
        "block of flats", "apartments", "apartment", "offices", "greenhouse",
        "silo", "cabin", "cottage", "bungalow", "chalet", "skyscraper", "high rise",
        "rooftops", "roofs", "homes", "houses", "dwelling", "dwellings", "premises",
        "farm building", "farmhouse", "outbuilding", "outbuildings", "built form",
        "storage unit", "depot building", "residence", "residences", "mansion", "villa", "hall",
        "lecture hall", "dormitory", "dorm", "barracks"],
}

#: Class words that name a place holding several land covers ("the park": lawns, trees,
#: paths): a route through them is no permission, only a cue in their own phrase is
#: ("I don't mind going through the park").
SETTING_WORDS = {"park"}
#: Agent nouns that name more than one agent ("quad": quad bike or quadcopter): each reading
#: gets weight 2, so the activity verbs decide ("flying my quad" is a drone).
AMBIGUOUS_AGENT_WORDS: dict[str, tuple[Agent, ...]] = {
    "quad": (Agent.CAR, Agent.DRONE),
    "tanker": (Agent.CAR, Agent.BOAT),
}
#: Place nouns that turn a vehicle noun before them into a place ("bus stop", "ferry
#: terminal"): the vehicle noun then names no agent.
AGENT_PLACE_HEADS = {"stop", "station", "terminal", "rank", "ramp", "shelter", "depot", "garage",
                     "dealership", "showroom", "wash", "lane", "park", "stand", "port", "road",
                     "ticket", "timetable", "schedule"}
#: Phrases that contain a land-cover word but name no land cover ("rock hard", "field team").
CLASS_FALSE_FRIENDS = ["rock hard", "rock solid", "field team", "field teams", "field crew",
                       "field crews", "field hospital", "field vehicle", "field trip",
                       "field work", "field station", "field office", "field kit", "park ranger",
                       "park keeper", "off road", "offroad", "off roader", "off roading"]
#: Abbreviations and shorthand, expanded before matching (users in a hurry).
ABBREVIATIONS = {"veh": "vehicle", "vehs": "vehicles", "bldg": "building", "bldgs": "buildings",
                 "blds": "buildings", "stn": "station", "rd": "road", "rds": "roads",
                 "hwy": "highway", "ag": "agriculture", "+": "and", "dist": "distance"}
#: Phrases that restrict the agent to what they name: the named classes are permitted, the
#: rest are not ("stick to the pavement and lawns", "grass only", "only where it is grass").
RESTRICT_BEFORE = ["stick to", "sticking to", "keep to", "keeping to", "restricted to",
                   "confined to", "limited to", "only on", "only in", "only over", "only across",
                   "only through", "only where", "only via", "only along", "keep within"]
#: Postposed: "<list> only".
RESTRICT_AFTER = ["only"]
#: Verbs of moving or searching that turn "everywhere / anywhere" into a permission
#: ("search everywhere", "roam anywhere").
ROAM_VERBS = {"go", "search", "roam", "explore", "wander", "walk", "drive", "fly", "travel",
              "cover", "sweep", "comb", "cross", "head", "move", "look", "hike", "run", "range"}

#: Pure negators: they also compose with the next cue ("not forbidden" = permitted,
#: "do not use" = forbidden).
NEGATORS = [
    "not", "no", "never", "nor", "neither", "do not", "does not", "did not", "must not",
    "may not", "can not", "could not", "should not", "will not", "would not", "shall not",
    "is not", "are not", "was not", "must never", "need not", "neither may", "nor may",
    "no longer", "not anymore",
]
#: Negative cues a negator turns positive ("it is not prohibited", "no obstacle").
FLIPPABLE_NEGATIVES = [
    "forbidden", "prohibited", "banned", "off limits", "barred", "disallowed", "restricted",
    "out of bounds", "avoid", "problem", "obstacle", "issue", "restriction", "restrictions",
    "concern", "mind", "excluded", "closed", "worries", "worry", "off the table", "a problem", "an obstacle", "an issue",
]
NEGATIVE_CUES = [
    *NEGATORS, *FLIPPABLE_NEGATIVES,
    "not allowed", "not permitted", "rather not", "stay off", "stay out", "stay away",
    "keep away", "keep off", "keep out", "keep clear", "stay clear", "staying clear",
    "staying off", "staying out", "clear of", "avoiding", "avoided", "without",
    "restricted to", "only on", "stick to", "sticking to", "keeping to", "keep to",
    "must avoid", "refuses", "refuse", "too dense", "stay away from", "keep off of",
    "not cleared", "protected", "excluding", "steer clear", "steering clear", "no go",
    "out of the question", "not an option", "impassable", "untraversable", "trespass",
    "trespassing", "private", "skip", "shun", "bypass", "go around", "steer around",
    "keep away from", "hands off", "confined to", "limited to",
    "keep within", "nowhere", "nothing else", "none", "keep well away",
    "give a wide berth", "wide berth", "no entry", "dislike", "hate",
    "prefer not", "unsafe for", "unsuitable", "off bounds", "exclude", "exclusion", "veto",
    "vetoed", "denied", "too dangerous", "too risky", "too hazardous", "too steep",
    "too wet", "too boggy", "unsafe", "too muddy", "too rough", "deny", "not ok", "not okay", "nope",
    "prohibit", "prohibits", "forbid", "forbids", "ban", "bans", "cancel", "cancelled",
    "canceled", "scratch", "revoke", "revoked", "withdraw", "withdrawn", "rescind", "rescinded",
    "nogo", "no fly", "no fly zone", "exclusion zone",
    # inflected forms (cues match whole words)
    "avoids", "forbidding", "prohibiting", "banning", "excludes", "denies", "skipping",
    "skipped", "bypassing", "bypassed", "shunned", "refused", "refusing", "restricting",
    "disallow", "disallows",
]
#: Words that invert the polarity of the statement they attach to: "no terrain except X"
#: permits X, "anything except X" forbids it; their sign is set per clause.
EXCEPTION_WORDS = ["except", "unless", "apart from", "other than", "save for", "except for",
                   "but not", "aside from", "with the exception of"]
POSITIVE_CUES = [
    "may", "can", "could", "allowed", "allow", "permitted", "permit", "fine", "ok", "okay",
    "acceptable", "cleared", "open to", "is open", "are open", "free to", "able to",
    "welcome", "no problem", "be used", "use", "using", "yes", "authorised", "authorized",
    "approved", "fair game", "permission", "handle", "is fine", "are fine", "go ahead",
    "anything goes", "goes", "passable", "accessible", "traversable", "unrestricted",
    "walkable", "drivable", "driveable", "navigable", "crossable", "permissible", "if you like",
    "if you want", "if you wish", "if need be", "if needed", "if necessary", "when needed",
    "happy to", "feel free", "by all means", "alright", "all right", "good to go", "no issue",
    "in a pinch", "you like", "you want", "you wish", "you please", "as needed", "is good", "are good", "sanctioned", "tolerated",
    "licensed", "green light", "legal", "on the table", "no objection",
    "go for it", "cut through", "cut across", "is possible", "are possible", "possible to",
    "be possible", "fine by me", "granted", "is granted", "clearance", "cleared for",
    "without restriction", "without restrictions", "without any restriction", "without limits",
    "without limitation", "with no restriction", "with no restrictions", "freely",
    "let", "lets", "opened", "reopened", "do not care", "does not care", "not bothered", "all good",
    "allows", "allowing", "permits", "permitting", "authorise", "authorize", "authorises",
    "authorizes", "authorising", "authorizing", "approve", "approves", "tolerate", "tolerates",
    "accept", "accepts", "accepted",
    "lifted the restrictions", "lifted the restriction", "restrictions lifted",
    "restriction lifted", "restrictions have been lifted", "restrictions were lifted",
    "restrictions waived", "waived", "lifted", "stand", "stands", "still stand", "suspended",
    "relaxed",

]
#: Prepositions and motion verbs that make a bare mention a permission ("over the woods").
ROUTE_PREPOSITIONS = {"over", "through", "across", "via", "into", "above", "onto", "along",
                      "cross", "crossing", "crosses", "traverse", "traversing", "enter",
                      "entering", "overfly", "overflying", "cut", "cutting", "pass",
                      "passing", "wade", "wading", "traverses"}
#: "All conditional terrain": needs a positive cue or an exception in the clause.
EVERYTHING_WORDS = ["everything", "anything", "any terrain", "all terrain", "all terrains",
                    "unrestricted", "every terrain type", "all land cover", "every terrain",
                    "anything goes", "no restrictions", "no restriction",
                    "every kind of terrain", "anywhere", "anywhere else", "the rest",
                    "all other terrain", "any other terrain", "all off road", "any off road",
                    "off road terrain", "whatever terrain", "any surface", "all surfaces",
                    "any ground", "all ground", "any land cover", "cross country",
                    "everywhere", "all kinds of terrain", "any kind of terrain", "elsewhere",
                    "every land cover", "all land covers", "every surface", "every type of terrain",
                    "all land cover types", "every class", "all classes", "whatever"]
#: Phrases that permit all conditional terrain on their own.
EVERYTHING_SELF = ["anything goes", "no restrictions", "no restriction", "unrestricted",
                   "where you like", "wherever you like", "where you want", "wherever you want",
                   "wherever", "go anywhere", "free rein", "free to roam", "no limits",
                   "any way you like", "all terrain allowed", "cross country"]

#: WordNet hypernyms (first lemma of the synset) that name an agent or a land-cover class,
#: for nouns no table above lists ("currach" is a boat, "veld" a grassland): see wordnet.py.
#: Only the most frequent sense of a word is read, nearest hypernym first.
WORDNET_AGENTS: dict[str, Agent] = {
    "vessel": Agent.BOAT, "boat": Agent.BOAT, "ship": Agent.BOAT,
    "motor_vehicle": Agent.CAR, "car": Agent.CAR, "truck": Agent.CAR, "bus": Agent.CAR,
    "tractor": Agent.CAR, "armored_vehicle": Agent.CAR, "self-propelled_vehicle": Agent.CAR,
    "aircraft": Agent.DRONE,
}
WORDNET_CLASSES: dict[str, int] = {
    "barren": 0, "desert": 0, "soil": 0, "rock": 0, "talus": 0,
    "grassland": 1, "plain": 1, "shrub": 1,
    "forest": 4, "tree": 4,
    "cultivated_land": 6, "field": 6, "farm": 6,
    "building": 7,
}
