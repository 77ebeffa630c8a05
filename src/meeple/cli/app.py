"""The ``meeple`` typer application.

Commands live in the modules of :data:`COMMAND_MODULES`; each defines ``register(app: typer.Typer) -> None`` which
adds its command(s) to the app. To add a command, write such a module and append its name to the tuple.
"""

from __future__ import annotations

import importlib
from typing import Annotated

import typer

from meeple import __version__

COMMAND_MODULES: tuple[str, ...] = (
    "meeple.cli.play",
    "meeple.cli.simulate",
    "meeple.cli.replay",
    "meeple.cli.rules",
    "meeple.cli.tournament",
    "meeple.cli.bench",
    "meeple.cli.serve",
)
"""Modules whose ``register(app)`` adds commands, in help order."""


def _version(value: bool) -> None:
    if value:
        typer.echo(f"meeple {__version__}")
        raise typer.Exit()


def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """meeple: play, simulate and replay Citadels, Capitol, Capital Lux 2 and Caprice against bots."""


def build_app() -> typer.Typer:
    """Return a new app with every command of :data:`COMMAND_MODULES` registered."""
    app = typer.Typer(
        name="meeple",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode="rich",
    )
    app.callback()(_root)
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        module.register(app)
    return app


app = build_app()
"""The application (``typer.testing.CliRunner().invoke(app, [...])`` in tests)."""


def main() -> None:
    """Run the command line (the ``meeple`` console script)."""
    app()
