"""``meeple rules GAME`` (rules summary and variant flags) and ``meeple games`` (the registered games)."""

from __future__ import annotations

from typing import Any

import typer
from rich.markdown import Markdown
from rich.table import Table

from meeple.cli.common import GameArg, game_class_or_exit, stdout_console
from meeple.core.game import Game
from meeple.core.params import ParamSpec
from meeple.core.registry import game_class, registered_games
from meeple.i18n import _, known, tr


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return ",".join(str(v) for v in value)
    return str(value)


def _allowed(spec: ParamSpec) -> str:
    """The choices, or the checked range in the reader's language (``2..7``, ``at most 64 characters; ...``)."""
    if spec.choices is not None:
        return " | ".join(_value(c) for c in spec.choices)
    return tr(spec.allowed) if spec.allowed is not None else spec.type_name


def params_table(cls: type[Game[Any]], as_options: bool = False) -> Table:
    """Return a table of the game's parameters: name, allowed values, default and description.

    Args:
        cls: the game class.
        as_options: name each flag as the option that sets it (``--quick-game``), as ``meeple play GAME --help``.
    """
    if as_options:
        title = _("{game}: variant flags, as options (--name VALUE)").format(game=known(cls.title))
    else:
        title = _("{game}: variant flags (--variant NAME=VALUE)").format(game=known(cls.title))
    table = Table(title=title, title_justify="left")
    table.add_column(_("name"), style="bold", no_wrap=True)
    table.add_column(_("allowed values"), max_width=28)
    table.add_column(_("default"), max_width=10)
    table.add_column(_("description"), ratio=1)
    for spec in cls.describe_params():
        allowed = _allowed(spec)
        doc = known(spec.doc) if spec.doc else ""
        if spec.name == "players":
            allowed = f"{cls.min_players}..{cls.max_players}"
            doc = (doc + " " + _("(set with --players)")).strip()
        name = spec.name
        if as_options:
            name = "--players" if spec.name == "players" else "--" + spec.name.replace("_", "-")
        table.add_row(name, allowed, _value(spec.default), doc)
    return table


def rules(game: GameArg) -> None:
    """Print the rules summary of GAME and its variant flags."""
    cls = game_class_or_exit(game)
    console = stdout_console()
    console.print(Markdown(tr(cls.rules_summary_message())))
    console.print()
    console.print(_("Players: {low} to {high}").format(low=cls.min_players, high=cls.max_players))
    console.print(params_table(cls))


def games() -> None:
    """List the registered games with their player counts."""
    table = Table(title=_("Registered games"), title_justify="left")
    table.add_column(_("name"), style="bold")
    table.add_column(_("title"))
    table.add_column(_("players"))
    for name in registered_games():
        cls = game_class(name)
        table.add_row(name, known(cls.title), f"{cls.min_players}-{cls.max_players}")
    stdout_console().print(table)


def register(app: typer.Typer) -> None:
    """Add the ``rules`` and ``games`` commands to ``app``."""
    app.command("rules")(rules)
    app.command("games")(games)
