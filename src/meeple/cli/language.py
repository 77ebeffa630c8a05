"""The command line's language: ``--lang`` anywhere on the line, the locale by default, translated help screens.

``meeple --lang fr ...`` (or ``--lang fr`` after the command: :func:`take_lang` moves it to the front before click
reads the line) sets the language of everything the command prints: help, board, moves, messages. Without it, the
locale decides (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), English as the fallback.

Help texts stay English in the code (docstrings and ``help=``): ``tools/catalogs.py extract`` reads them from the
command tree into the catalogs, and :class:`TranslatedGroup` / :class:`TranslatedCommand` translate them while a
help screen is drawn.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import typer.rich_utils as rich_utils
from typer.core import TyperCommand, TyperGroup

from meeple.i18n import LANGUAGES, known, language_from_environment, normalize_language, set_language

_PANEL_TITLES = {
    "ARGUMENTS_PANEL_TITLE": "Arguments",
    "OPTIONS_PANEL_TITLE": "Options",
    "COMMANDS_PANEL_TITLE": "Commands",
    "ERRORS_PANEL_TITLE": "Error",
    "ABORTED_TEXT": "Aborted.",
    "DEFAULT_STRING": "[default: {}]",
    "REQUIRED_LONG_STRING": "[required]",
}
"""typer's own help words, translated with the rest (msgids listed here for extraction: see :func:`help_words`)."""


def help_words() -> list[str]:
    """Return typer's help words that meeple translates (the catalogs' template adds them)."""
    return list(_PANEL_TITLES.values())


def apply_language(lang: str | None) -> str:
    """Make ``lang`` (or the locale's language when ``None``) the current language, typer's words included.

    Returns:
        The language code in force.

    Raises:
        UnknownLanguageError: an unknown language (the message lists those meeple speaks).
    """
    code = normalize_language(lang) if lang else language_from_environment()
    set_language(code)
    for name, text in _PANEL_TITLES.items():
        setattr(rich_utils, name, known(text))
    return code


def take_lang(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """Return the ``--lang`` value found anywhere in ``argv`` and ``argv`` with it moved to the front.

    ``["play", "citadels", "--lang", "fr"]`` gives ``("fr", ["--lang", "fr", "play", "citadels"])``. Words after
    ``--`` are left alone. The last ``--lang`` wins.
    """
    rest: list[str] = []
    found: str | None = None
    items = list(argv)
    i = 0
    while i < len(items):
        arg = items[i]
        if arg == "--":
            rest += items[i:]
            break
        if arg == "--lang" and i + 1 < len(items):
            found = items[i + 1]
            i += 2
            continue
        if arg.startswith("--lang="):
            found = arg.partition("=")[2]
            i += 1
            continue
        rest.append(arg)
        i += 1
    return found, (["--lang", found, *rest] if found is not None else rest)


@contextmanager
def _translated(command: Any) -> Iterator[None]:
    """Translate the help texts of ``command``, its parameters and (for a group) its commands, then restore them."""
    saved: list[tuple[Any, str, Any]] = []

    def swap(obj: Any, attr: str) -> None:
        value = getattr(obj, attr, None)
        if isinstance(value, str) and value:
            saved.append((obj, attr, value))
            setattr(obj, attr, known(value))

    swap(command, "help")
    swap(command, "short_help")
    swap(command, "epilog")
    for param in command.params:
        swap(param, "help")
    for sub in getattr(command, "commands", {}).values():  # a group: the command list shows their help
        swap(sub, "help")
        swap(sub, "short_help")
    try:
        yield
    finally:
        for obj, attr, value in reversed(saved):
            setattr(obj, attr, value)


class TranslatedCommand(TyperCommand):
    """A typer command whose help screen is in the current language.

    A command that takes a game's variant flags as options (``meeple play GAME --help``) also lists that game's
    flags, when the game is named before ``--help``.
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:  # noqa: D102
        ctx.meta["meeple.args"] = list(args)  # --help is handled while parsing: keep what came with it
        return list(super().parse_args(ctx, args))

    def format_help(self, ctx: Any, formatter: Any) -> None:  # noqa: D102
        with _translated(self):
            super().format_help(ctx, formatter)
        if self.context_settings.get("allow_extra_args"):
            _print_game_flags(ctx.meta.get("meeple.args", ()))


def _print_game_flags(args: Sequence[str]) -> None:
    """Print the variant flags of the first registered game named in ``args``, written as options."""
    from meeple.cli.rules import params_table
    from meeple.core.registry import game_class, registered_games

    games = set(registered_games())
    name = next((a for a in args if a in games), None)
    if name is None:
        return
    from meeple.cli.common import stdout_console

    stdout_console().print(params_table(game_class(name), as_options=True))


class TranslatedGroup(TyperGroup):
    """The ``meeple`` group: its help screen (command list included) is in the current language."""

    def format_help(self, ctx: Any, formatter: Any) -> None:  # noqa: D102
        with _translated(self):
            super().format_help(ctx, formatter)


LANG_HELP = "Language of everything printed: " + ", ".join(LANGUAGES) + " (default: from the locale, else en)."
