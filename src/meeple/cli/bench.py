"""``meeple bench``: engine speed per game, with ratios against a baseline measured in the same process."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from meeple.bench import baseline_ops_per_s, measure_game
from meeple.cli.common import fail, game_class_or_exit, parse_variants, stdout_console
from meeple.core.errors import MeepleError
from meeple.core.registry import registered_games


def bench(
    games: Annotated[list[str] | None, typer.Argument(help="Games to measure (default: all).")] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="Player count (default: the largest).")] = None,
    seconds: Annotated[float, typer.Option("--seconds", help="Measuring time per game (seconds).", min=0.1)] = 2.0,
    variant: Annotated[list[str] | None, typer.Option("--variant", "-V", help="A variant flag KEY=VALUE.")] = None,
) -> None:
    """Measure random-play decisions/s, games/s and clone()/s on one core, as ratios to a fixed baseline."""
    console = stdout_console()
    names = games or registered_games()
    params = parse_variants(variant)
    baseline = baseline_ops_per_s()
    table = Table(
        title=f"Engine speed (baseline: {baseline:,.0f} shuffle-and-scan ops/s)",
        caption="n: players; dec/s: random-play decisions per second; x base: dec/s over the baseline ops/s",
    )
    for col in ("game", "n", "dec/s", "x base", "games/s", "clones/s", "dec/game"):
        table.add_column(col, justify="right", no_wrap=True)
    with console.status("measuring..."):
        for name in names:
            cls = game_class_or_exit(name)
            n = players if players is not None else cls.max_players
            try:
                r = measure_game(name, n, params, seconds=seconds)
            except MeepleError as exc:
                fail(str(exc))
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


def register(app: typer.Typer) -> None:
    """Add the ``bench`` command to ``app``."""
    app.command("bench")(bench)
