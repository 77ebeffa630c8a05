"""``meeple bench``: engine speed per game, with ratios against a baseline measured in the same process."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from meeple.bench import baseline_ops_per_s, measure_game, measure_move_time
from meeple.cli.common import fail, game_class_or_exit, parse_variants, stdout_console
from meeple.core.errors import MeepleError
from meeple.core.registry import registered_games
from meeple.i18n import _


def bench(
    games: Annotated[list[str] | None, typer.Argument(help="Games to measure (default: all).")] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="Player count (default: the largest).")] = None,
    seconds: Annotated[float, typer.Option("--seconds", help="Measuring time per game (seconds).", min=0.1)] = 2.0,
    variant: Annotated[list[str] | None, typer.Option("--variant", "-V", help="A variant flag KEY=VALUE.")] = None,
    bot: Annotated[
        str | None,
        typer.Option("--bot", help="Time this bot's moves instead (e.g. hard, ismcts:500): seconds per move."),
    ] = None,
    moves: Annotated[int, typer.Option("--moves", help="With --bot: moves to time per game.", min=1)] = 20,
) -> None:
    """Measure random-play decisions/s, games/s and clone()/s on one core, as ratios to a fixed baseline.

    With ``--bot``: the seconds per move of that bot at seat 0 (the other seats play the heuristic bot), to check a
    difficulty level's budget against real response times.
    """
    console = stdout_console()
    names = games or registered_games()
    params = parse_variants(variant)
    if bot is not None:
        _bench_bot(names, players, params, bot, moves)
        return
    baseline = baseline_ops_per_s()
    table = Table(
        title=_("Engine speed (baseline: {ops:,.0f} shuffle-and-scan ops/s)").format(ops=baseline),
        caption=_("n: players; dec/s: random-play decisions per second; x base: dec/s over the baseline ops/s"),
    )
    for col in (_("game"), "n", _("dec/s"), _("x base"), _("games/s"), _("clones/s"), _("dec/game")):
        table.add_column(col, justify="right", no_wrap=True)
    with console.status(_("measuring...")):
        for name in names:
            cls = game_class_or_exit(name)
            n = players if players is not None else cls.max_players
            try:
                r = measure_game(name, n, params, seconds=seconds)
            except MeepleError as exc:
                fail(exc)
            table.add_row(
                name,
                str(n),
                f"{r.decisions_per_s:,.0f}",
                f"{r.decisions_per_s / baseline:.2f}",
                f"{r.games_per_s:,.1f}",
                f"{r.clones_per_s:,.0f}",
                f"{r.mean_decisions:.0f}",
            )
    console.print(table)


def _bench_bot(names: list[str], players: int | None, params: dict[str, str], bot: str, moves: int) -> None:
    console = stdout_console()
    table = Table(
        title=_("Seconds per move of {bot} (seat 0; the other seats: heuristic)").format(bot=bot),
        caption=_("moves with a single legal action are not timed"),
    )
    for col in (_("game"), "n", _("moves"), _("mean s"), _("p90 s"), _("max s")):
        table.add_column(col, justify="right", no_wrap=True)
    with console.status(_("timing {bot}...").format(bot=bot)):
        for name in names:
            cls = game_class_or_exit(name)
            n = players if players is not None else cls.max_players
            try:
                r = measure_move_time(name, n, bot, params, max_moves=moves)
            except MeepleError as exc:
                fail(exc)
            table.add_row(name, str(n), str(r.moves), f"{r.mean_s:.2f}", f"{r.p90_s:.2f}", f"{r.max_s:.2f}")
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add the ``bench`` command to ``app``."""
    app.command("bench")(bench)
