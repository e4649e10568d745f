"""Language: what grounding, streets, nesy and the episode generator share about English.

- :mod:`~map2route.language.tokens`: tokenising with character spans.
- :mod:`~map2route.language.inflection`: singular/plural (the ``inflect`` library).
- :mod:`~map2route.language.numbers`: number and ordinal words.
- :mod:`~map2route.language.lexicon`: word lists as data (``language/lexicons/*.yaml``).
- :mod:`~map2route.language.vocabulary`: words for the benchmark's categories and rooms.
- :mod:`~map2route.language.parser`: the instruction parser, by stage (clauses ->
  references -> constraints).
- :mod:`~map2route.language.directions`: street directions split into sub-goals (GROKE).

The package sits at the bottom of the layers: it imports nothing of map2route but
``map2route.errors`` and package data.
"""

from __future__ import annotations
