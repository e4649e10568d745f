"""The root ``map2route`` command group and the shared ``bench`` group.

Each subcommand lives in its own module under :mod:`map2route.cli` and registers itself on
these groups at import. Heavy imports happen inside command functions so ``--help`` is fast.
"""

from __future__ import annotations

import math
from typing import Any

import click


class FiniteFloat(click.ParamType):
    """A float that is a real number: ``nan`` and ``inf`` are usage errors, not map positions."""

    name = "float"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number (metres)", param, ctx)
        return number


#: The ``type=`` for coordinates and other real-valued options.
FINITE_FLOAT = FiniteFloat()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="map2route")
def app() -> None:
    """map2route: language-grounded route planning over semantic maps."""


@app.group()
def bench() -> None:
    """Benchmarks: planner speed, Map2Route, GROKE street following, rosbag scoring, mapping."""
