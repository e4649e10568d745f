"""The mapping benchmark: simulate, build and score semantic maps over scenes and noise levels.

:mod:`.sweep` runs the pipeline (resumable); :mod:`.downstream` re-grounds Map2Route episodes
on a built map and scores them with the Map2Route metrics.
"""
