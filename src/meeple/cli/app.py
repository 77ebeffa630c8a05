"""The ``meeple`` typer application.

Commands live in the modules of :data:`COMMAND_MODULES`; each defines ``register(app: typer.Typer) -> None`` which
adds its command(s) to the app. To add a command, write such a module and append its name to the tuple.
"""

from __future__ import annotations

import importlib
import sys
from typing import Annotated

import typer

from meeple import __version__
from meeple.cli.common import fail
from meeple.cli.language import LANG_HELP, TranslatedCommand, TranslatedGroup, apply_language, take_lang
from meeple.i18n import UnknownLanguageError, tr

COMMAND_MODULES: tuple[str, ...] = (
    "meeple.cli.play",
    "meeple.cli.simulate",
    "meeple.cli.replay",
    "meeple.cli.rules",
    "meeple.cli.tournament",
    "meeple.cli.evaluate",
    "meeple.cli.bench",
    "meeple.cli.serve",
    "meeple.cli.admin",
)
"""Modules whose ``register(app)`` adds commands, in help order."""


def _version(value: bool) -> None:
    if value:
        typer.echo(f"meeple {__version__}")
        raise typer.Exit()


def _lang(value: str | None) -> str | None:
    try:
        apply_language(value)
    except UnknownLanguageError as exc:
        fail(tr(exc.message))
    return value


def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
    lang: Annotated[
        str | None, typer.Option("--lang", callback=_lang, is_eager=True, metavar="fr|en", help=LANG_HELP)
    ] = None,
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
        cls=TranslatedGroup,
    )
    app.callback()(_root)
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        module.register(app)
    for info in app.registered_commands:
        info.cls = TranslatedCommand
    return app


app = build_app()
"""The application (``typer.testing.CliRunner().invoke(app, [...])`` in tests)."""


def main(argv: list[str] | None = None) -> None:
    """Run the command line (the ``meeple`` console script).

    ``--lang`` may stand anywhere on the line (:func:`meeple.cli.language.take_lang` moves it to the front), so that
    even a command's ``--help`` is in that language.
    """
    lang, args = take_lang(sys.argv[1:] if argv is None else argv)
    try:
        apply_language(lang)
    except UnknownLanguageError as exc:
        try:
            fail(tr(exc.message))
        except typer.Exit as stop:
            raise SystemExit(stop.exit_code) from None
    app(args=args, prog_name="meeple")
