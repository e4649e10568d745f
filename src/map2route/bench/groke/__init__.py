"""GROKE on Map2Seq: follow street instructions with an agent, score NE/SR/nDTW/SDTW, read quality.

:func:`.run.run_bench` follows a split, :func:`.run.write_outputs` writes its files; agents are
built by name with :func:`map2route.bench.registry.make_agent`.
"""
