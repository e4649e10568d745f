"""Language shared by map2route's parsers: word tables as data files and rule stages.

:mod:`.nesy` reads NeSy-Route queries (agent, objective, permitted and forbidden land covers).
"""

from __future__ import annotations
