"""The root ``map2route`` command group and the shared ``bench`` group.

Each subcommand lives in its own module under :mod:`map2route.cli` and registers itself on
these groups at import. Heavy imports happen inside command functions so ``--help`` is fast.
"""

from __future__ import annotations

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="map2route")
def app() -> None:
    """map2route: language-grounded route planning over semantic maps."""


@app.group()
def bench() -> None:
    """Benchmarks: planner speed, Map2Route, GROKE street following, rosbag scoring, mapping."""
