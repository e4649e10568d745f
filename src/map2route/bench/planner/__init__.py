"""Planner benchmarks: speed (:mod:`.speed`, ``map2route bench planner``) and the dev-split
tuning sweep of ``config/planner.yaml`` (:mod:`.tuning`)."""
