"""The ``map2route`` command line: one entry point, subcommands in sibling modules."""

from __future__ import annotations

import importlib
import os
import sys

import click

from map2route.cli.app import app
from map2route.errors import Map2RouteError

#: Modules that register subcommands on :data:`app` (each owns one area of the CLI).
COMMAND_MODULES = (
    "map2route.cli.scene_commands",
    "map2route.cli.grounding_commands",
    "map2route.cli.program_commands",
    "map2route.cli.streets_commands",
    "map2route.cli.episodes_commands",
    "map2route.cli.map2route_bench_commands",
    "map2route.cli.planner_commands",
    "map2route.cli.mapping_commands",
    "map2route.cli.mapping_bench_commands",
    "map2route.cli.nesy_commands",
    "map2route.cli.sim_commands",
    "map2route.cli.gazebo_commands",
)


def _load_commands() -> None:
    for name in COMMAND_MODULES:
        importlib.import_module(name)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; a :class:`Map2RouteError` becomes ``Error: ...`` and exit status 1."""
    _load_commands()
    try:
        app.main(args=argv, prog_name="map2route", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        return 130
    except click.ClickException as err:
        err.show()
        return err.exit_code
    except click.exceptions.Exit as err:
        return int(err.exit_code or 0)
    except Map2RouteError as err:
        click.echo(f"Error: {err}", err=True)
        return 1
    except KeyboardInterrupt:
        click.echo("Interrupted.", err=True)
        return 130
    except UnicodeDecodeError as err:
        click.echo(f"Error: an input file is not UTF-8 text (byte {err.start}: {err.reason}); "
                   "save it as UTF-8 and try again.", err=True)
        return 1
    except Exception as err:  # noqa: BLE001 - the last guard: no traceback reaches a user
        if os.environ.get("MAP2ROUTE_DEBUG"):
            raise
        click.echo(f"Error: internal error ({type(err).__name__}: {str(err)[:300]}). This is a "
                   "bug in map2route: please report it with the command you ran; set "
                   "MAP2ROUTE_DEBUG=1 to see the traceback.", err=True)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
