"""Helpers shared by the commands: option types, argument parsing, game loading and clean error exits.

Every error a user can provoke from the command line ends with a one-line message on stderr and exit code 2 (usage
error), never a traceback: use :func:`fail` and :func:`load_game_or_exit`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from meeple.bots import has_heuristic_bot, make_bot
from meeple.core.errors import MeepleError
from meeple.core.game import Game
from meeple.core.registry import game_class, load_game
from meeple.i18n import _, tr

USAGE_ERROR = 2
"""Exit code of a bad command line (unknown game, bad ``--variant``, bad ``--players``...)."""

GameArg = Annotated[str, typer.Argument(help="Registered game name (see `meeple games`).", show_default=False)]
PlayersOpt = Annotated[
    int | None, typer.Option("--players", "-p", help="Number of players (default: the game's default).")
]
BotsOpt = Annotated[
    str | None,
    typer.Option(
        "--bots",
        "-b",
        help="Comma-separated bot kinds, e.g. heuristic,random; cycled over the bot seats "
        "(default: heuristic if the game has one, else random).",
    ),
]
SeedOpt = Annotated[int | None, typer.Option("--seed", "-s", help="Seed of the game (default: a random seed).")]
VariantOpt = Annotated[
    list[str] | None,
    typer.Option("--variant", "-V", help="A variant flag KEY=VALUE (repeatable); see `meeple rules GAME`."),
]
RecordOpt = Annotated[
    Path | None, typer.Option("--record", "-r", help="Save the game record(s) to this JSON Lines file.")
]


PIPE_WIDTH = 200
"""Columns of a table written to a file or a pipe (rich would cut it at 80); ``COLUMNS`` overrides it."""


def _width(stream: Any) -> int | None:
    """None (rich's own choice) on a terminal or with ``COLUMNS`` set; else :data:`PIPE_WIDTH`."""
    isatty = getattr(stream, "isatty", None)
    if os.environ.get("COLUMNS") or (isatty is not None and isatty()):
        return None
    return PIPE_WIDTH


def stdout_console() -> Console:
    """Return a console on the current ``sys.stdout`` (so that test runners can capture it).

    Emoji codes are off: bot specs such as ``ismcts:100:rollout=heuristic`` contain ``:100:``. Written to a file or a
    pipe, lines are up to :data:`PIPE_WIDTH` columns wide, not cut at 80.
    """
    return Console(highlight=False, emoji=False, width=_width(sys.stdout))


def stderr_console() -> Console:
    """Return a console on the current ``sys.stderr``."""
    return Console(stderr=True, highlight=False, emoji=False, width=_width(sys.stderr))


def fail(message: str | Exception, code: int = USAGE_ERROR) -> NoReturn:
    """Print ``Error: message`` on stderr, in the current language, and exit with ``code`` (2 by default).

    ``message`` is a text already in the current language, or an exception: a :class:`MeepleError`'s message is
    translated (``meeple.i18n.tr``), another exception's text is shown as it is.
    """
    text = tr(message.message) if isinstance(message, MeepleError) else str(message)
    label = _("Error:")
    stderr_console().print(f"[bold red]{escape(label)}[/] {escape(text)}", soft_wrap=True)
    raise typer.Exit(code)


def check_writable(path: Path, option: str) -> None:
    """Exit with a one-line error unless a file can be written at ``path`` (checked before any long work).

    Args:
        path: the file an option names (``--report``, ``--record``).
        option: the option, for the message.
    """
    if path.is_dir():
        fail(_("{option} {path} is a directory; give a file name").format(option=option, path=path))
    if not path.parent.is_dir():
        fail(
            _("{option} {path}: the folder {folder} does not exist").format(
                option=option, path=path, folder=path.parent
            )
        )
    existed = path.exists()
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        fail(
            _("{option} {path} cannot be written: {error}").format(option=option, path=path, error=exc.strerror or exc)
        )
    if not existed:
        path.unlink(missing_ok=True)


def parse_variants(items: Sequence[str] | None) -> dict[str, str]:
    """Parse ``KEY=VALUE`` strings (from repeated ``--variant`` options) into a dict.

    Exits with code 2 on an item without ``=`` or with an empty key, or on a key given twice.
    """
    out: dict[str, str] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            fail(_("--variant expects KEY=VALUE, not {item!r}").format(item=item))
        if key in out:
            fail(_("--variant {key} is given twice").format(key=key))
        if key == "players":
            fail(_("set the player count with --players, not --variant"))
        out[key] = value.strip()
    return out


GAME_OPTIONS: dict[str, Any] = {"allow_extra_args": True, "ignore_unknown_options": True}
"""Context settings of the commands that take a game's variant flags as options (``--config B``)."""


def variant_options(args: Sequence[str]) -> list[str]:
    """Turn extra command-line options into ``KEY=VALUE`` variant items.

    Every variant flag of a game is also an option: ``--config B``, ``--end-draw=refill_to_six``,
    ``--provisional-powers`` (a flag alone means true) and ``--no-provisional-powers`` (false). Exits with code 2 on
    anything that is not such an option.
    """
    out: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("--") or len(arg) < 3:
            fail(
                _(
                    "unexpected argument {arg!r}; game options are written --name value (see `meeple rules GAME`)"
                ).format(arg=arg)
            )
        name, eq, value = arg[2:].partition("=")
        if not eq:
            if i + 1 < len(args) and not args[i + 1].startswith("--"):
                value = args[i + 1]
                i += 1
            elif name.startswith("no-"):
                name, value = name[3:], "false"
            else:
                value = "true"
        out.append(f"{name}={value}")
        i += 1
    return out


def variant_words(game: Game[Any]) -> str:
    """The game's variant flags that differ from their defaults, in words (the play header).

    Example: ``"great wall: yes; quick game: 7"``; with every flag at its default, a sentence saying so. ``players``
    is left out (the header names the seats).
    """
    defaults = {p.name: p.default for p in game.describe_params()}
    parts = []
    for name, value in game.params_dict().items():
        default = defaults.get(name)
        if isinstance(value, list | tuple):
            same = isinstance(default, list | tuple) and list(value) == list(default)
        else:
            same = value == default
        if name == "players" or same:
            continue
        if isinstance(value, bool):
            shown = _("yes") if value else _("no")
        elif isinstance(value, list | tuple):
            shown = ", ".join(str(v) for v in value)
        else:
            shown = str(value)
        parts.append(f"{name.replace('_', ' ')}: {shown}")
    return "; ".join(parts) if parts else _("none: every flag at its default (see `meeple rules GAME`)")


def parse_bots(text: str | None, game_name: str) -> list[str]:
    """Split a comma-separated ``--bots`` value; default: ``heuristic`` if the game has one, else ``random``.

    Every kind is checked with :func:`meeple.bots.make_bot`; exits with code 2 on an unknown kind.
    """
    specs = [s.strip() for s in (text or "").split(",") if s.strip()]
    if not specs:
        specs = [default_bot(game_name)]
    for spec in specs:
        try:
            make_bot(spec, game_name, seed=0)
        except MeepleError as exc:
            fail(exc)
    return specs


def default_bot(game_name: str) -> str:
    """Return ``"heuristic"`` if ``game_name`` has a heuristic bot, else ``"random"``."""
    return "heuristic" if has_heuristic_bot(game_name) else "random"


def cycle(specs: Sequence[str], count: int) -> list[str]:
    """Return ``count`` items taken from ``specs`` in order, cycling (``specs`` must not be empty)."""
    return [specs[i % len(specs)] for i in range(count)]


def game_class_or_exit(name: str) -> type[Game[Any]]:
    """Return the registered game class ``name``; exits with code 2 (listing the games) if unknown."""
    try:
        return game_class(name)
    except MeepleError as exc:
        fail(exc)


def load_game_or_exit(
    name: str, players: int | None, variants: Sequence[str] | None, extra: Sequence[str] = ()
) -> Game[Any]:
    """Load ``name`` with ``--players``, ``--variant`` values and variant options; exit 2 with a message on error.

    ``extra`` holds the variant flags written as options (``--config B``, see :func:`variant_options`).
    """
    params: dict[str, Any] = dict(parse_variants([*(variants or ()), *variant_options(extra)]))
    if players is not None:
        params["players"] = players
    game_class_or_exit(name)
    try:
        return load_game(name, **params)
    except MeepleError as exc:
        fail(exc)


def seat_label(seat: int, labels: Sequence[str]) -> str:
    """Return ``"Seat 2 (heuristic)"`` style labels (just ``"Seat 2"`` without a label)."""
    label = labels[seat] if 0 <= seat < len(labels) else ""
    if label == "human":
        label = _("human")
    return _("Seat {seat} ({label})").format(seat=seat, label=label) if label else _("Seat {seat}").format(seat=seat)
