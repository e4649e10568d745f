"""Reading NeSy-Route queries offline: agent, objective, permitted and forbidden land covers.

The parser runs in stages, one module each: :mod:`.tokens` (normalise, correct, singularise, cut
into clauses), :mod:`.references` (land-cover mentions and polarity cues),
:mod:`.constraints` (signed mentions -> permitted conditional classes), :mod:`.surfaces`
(property phrases such as "paved surface" -> permitted / excluded classes) and
:mod:`.reader` (agent, objective, and the stages together: :func:`read_query`). Word
tables are data files (``language/lexicons/nesy.yaml`` and ``nesy_grammar.yaml``) read by
:mod:`.lexicon`; :mod:`.wordnet` answers for nouns no table lists.

This package knows agents and objectives by name and classes by vector index; the caller
(:mod:`map2route.nesy.queries`) supplies the knowledge base's traversability.
"""

from __future__ import annotations

from map2route.language.nesy.reader import QueryReading, read_query

__all__ = ["QueryReading", "read_query"]
