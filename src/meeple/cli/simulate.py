"""``meeple simulate GAME -n 1000 --players 4 --bots heuristic,random``: bot-only games and a summary table."""

from __future__ import annotations

import math
import statistics
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from meeple.arena.ratings import wilson
from meeple.arena.simulate import GameOutcome, SimulationSummary, run_games, summarize
from meeple.cli.common import (
    GAME_OPTIONS,
    BotsOpt,
    GameArg,
    PlayersOpt,
    RecordOpt,
    VariantOpt,
    cycle,
    fail,
    load_game_or_exit,
    parse_bots,
    stdout_console,
)
from meeple.core.errors import MeepleError
from meeple.core.records import GameRecord, write_records
from meeple.i18n import _, known, ngettext, tr


def summary_table(summary: SimulationSummary) -> Table:
    """Return the per-seat and per-bot table of a :class:`SimulationSummary`."""
    table = Table(title=ngettext("{n} game", "{n} games", summary.games).format(n=summary.games), title_justify="left")
    columns = ("", _("bot"), _("games"), _("wins"), _("shared"), _("win %"), _("95% CI"), _("mean score"))
    for i, name in enumerate(columns):
        table.add_column(name, justify="left" if i < 2 else "right")
    rows = [(_("seat {seat}").format(seat=s), summary.labels[s], st) for s, st in enumerate(summary.seats)]
    rows += [(_("all seats"), label, st) for label, st in summary.bots.items()]
    for i, (who, label, st) in enumerate(rows):
        table.add_row(
            who,
            label,
            str(st.games),
            str(st.wins),
            str(st.shared_wins),
            f"{100 * st.win_rate:.1f}",
            "{:.1f}–{:.1f}".format(*(100 * x for x in wilson(st.wins, st.games))),
            f"{st.mean_score:.2f}",
            end_section=i == len(summary.seats) - 1,
        )
    return table


def margin_summary(margins: list[int]) -> str:
    """Describe solo margins (own score minus the game-run opponent's, in points): mean, spread, median.

    Args:
        margins: one margin per game, non-empty.

    Returns:
        One line; from 2 games on it adds the standard deviation, the 95% interval of the mean (normal
        approximation) and the median.

    >>> for part in margin_summary([10, 20, 30]).split("; "):
    ...     print(part)
    mean margin +20.00 points over 3 games (own score minus opponent's)
    sd 10.0, 95% interval of the mean +8.7 to +31.3, median +20.0
    """
    mean = statistics.fmean(margins)
    text = _("mean margin {mean:+.2f} points over {n} games (own score minus opponent's)").format(
        mean=mean, n=len(margins)
    )
    if len(margins) < 2:
        return text
    sd = statistics.stdev(margins)
    half = 1.96 * sd / math.sqrt(len(margins))
    median = statistics.median(margins)
    spread = _("sd {sd:.1f}, 95% interval of the mean {low:+.1f} to {high:+.1f}, median {median:+.1f}").format(
        sd=sd, low=mean - half, high=mean + half, median=median
    )
    return f"{text}; {spread}"


def print_summary(console: Console, summary: SimulationSummary) -> None:
    """Print the summary table, then ties, mean lengths and speed (speed on its own last line)."""
    console.print(summary_table(summary))
    if len(summary.seats) > 1 and len(set(summary.labels)) > 1:
        console.print(
            _(
                "Seats are not rotated: each seat keeps its bot in every game (the seat advantage is in the bot "
                "rows). `meeple tournament` rotates seats on paired deals. Intervals: 95% Wilson, a win counted "
                "whole (shared wins included)."
            ),
            soft_wrap=True,
        )
    if summary.solo_margins:
        outcome = _("Shared wins (ties): {ties} games; lost to the game-run opponent: {lost} games")
    else:
        outcome = _("Shared wins (ties): {ties} games; no winner: {lost} games")
    console.print(outcome.format(ties=summary.ties, lost=summary.no_winner))
    if summary.mean_rounds is not None:
        console.print(_("Mean length: {n:.2f} rounds").format(n=summary.mean_rounds))
    console.print(_("Mean length: {n:.2f} decisions").format(n=summary.mean_decisions))
    if summary.solo_margins:
        margins = summary.solo_margins
        console.print(_("Solo: {summary}").format(summary=margin_summary(margins)))
        table = Table(title=_("Solo rating (rulebook scale)"))
        table.add_column(_("rating"))
        table.add_column(_("games"), justify="right")
        table.add_column(_("share"), justify="right")
        for label, count in summary.solo_ratings.items():
            table.add_row(known(label), str(count), f"{count / len(margins):.0%}")
        console.print(table)
    speed = _("Speed: {rate:.1f} games/s ({seconds:.2f} s)")
    console.print(speed.format(rate=summary.games_per_second, seconds=summary.seconds))


def simulate(
    ctx: typer.Context,
    game: GameArg,
    n: Annotated[int, typer.Option("-n", "--games", min=1, help="Number of games.")] = 100,
    players: PlayersOpt = None,
    bots: BotsOpt = None,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed of the first game (game i: seed + i).")] = 0,
    variant: VariantOpt = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes.")] = 1,
    record: RecordOpt = None,
) -> None:
    """Play N games between bots and print wins per seat and per bot, scores, lengths and speed.

    Every variant flag of the game is also an option: --config B, --provisional-powers, --quick-game 7 ...
    (see `meeple rules GAME`).
    """
    loaded = load_game_or_exit(game, players, variant, ctx.args)
    labels = cycle(parse_bots(bots, game), loaded.num_players)
    params = loaded.params_dict()
    console = stdout_console()
    intro = _("{game}: {n} games, {players} players: {bots}; seeds {seed}..").format(
        game=known(loaded.title), n=n, players=loaded.num_players, bots=", ".join(labels), seed=seed
    )
    console.print(escape(intro), soft_wrap=True)
    saver = _open_records(record, seed)
    start = time.perf_counter()
    log = _ProgressLines(console, n, start)
    try:
        with Progress(
            TextColumn(_("simulating")),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        ) as progress:
            task = progress.add_task(_("games"), total=n)

            def finished(batch: list[GameOutcome]) -> None:
                progress.advance(task, len(batch))
                log.advance(len(batch))
                if saver is not None:
                    saver.add(batch)

            outcomes = run_games(
                game,
                params,
                labels,
                n,
                base_seed=seed,
                jobs=jobs,
                keep_records=saver is not None,
                on_progress=finished,
            )
    except (MeepleError, _RecordFileError) as exc:
        fail((tr(exc.message) if isinstance(exc, MeepleError) else str(exc)) + _saved_text(saver))
    except KeyboardInterrupt:
        fail(_("interrupted after {done} of {n} games").format(done=log.done, n=n) + _saved_text(saver), 130)
    summary = summarize(outcomes, labels, time.perf_counter() - start)
    print_summary(console, summary)
    if saver is not None:
        saved = _("Saved {n} game records to {file}").format(n=saver.written, file=saver.path)
        console.print(escape(saved), soft_wrap=True)


class _ProgressLines:
    """Plain progress lines for a console that is not a terminal (a log file), where the progress bar does not show.

    One line each time another tenth of the games is done: ``simulated 40/200 games in 312 s``.
    """

    def __init__(self, console: Console, total: int, start: float) -> None:
        self.console, self.total, self.start = console, total, start
        self.done = 0
        self.shown = 0

    def advance(self, k: int) -> None:
        self.done += k
        if self.console.is_terminal:
            return
        tenth = 10 * self.done // self.total
        if tenth > self.shown:
            self.shown = tenth
            elapsed = time.perf_counter() - self.start
            self.console.print(
                _("simulated {done}/{total} games in {seconds:.0f} s").format(
                    done=self.done, total=self.total, seconds=elapsed
                )
            )


class _RecordSaver:
    """Write the records of finished games to a JSON Lines file as they come, in seed order.

    A game whose earlier seeds are still being played waits in memory; the file always holds the games of seeds
    ``first .. first + written - 1``, so an interrupted or failed run keeps every game before the first gap.
    """

    def __init__(self, path: Path, first_seed: int) -> None:
        self.path = path
        self.first = first_seed
        self.written = 0
        self.waiting: dict[int, GameRecord] = {}
        write_records(path, [])  # create or empty the file now: a bad path fails before any game is played

    def add(self, batch: list[GameOutcome]) -> None:
        for outcome in batch:
            if outcome.record is not None:
                self.waiting[outcome.seed] = outcome.record
        ready: list[GameRecord] = []
        while self.first + self.written + len(ready) in self.waiting:
            ready.append(self.waiting.pop(self.first + self.written + len(ready)))
        if ready:
            try:
                self.written += write_records(self.path, ready, append=True)
            except OSError as exc:  # a full disk, a file removed...
                problem = _("cannot write the records to {file}: {error}").format(
                    file=self.path, error=exc.strerror or exc
                )
                raise _RecordFileError(problem) from exc


class _RecordFileError(Exception):
    """The ``--record`` file could not be written while the games ran."""


def _saved_text(saver: _RecordSaver | None) -> str:
    """Return what an interrupted or failed run saved, to end its error message ("" without ``--record``)."""
    if saver is None:
        return ""
    if not saver.written:
        return "; " + _("no game record was saved to {file}").format(file=saver.path)
    last = saver.first + saver.written - 1
    return "; " + _("the records of seeds {first}..{last} ({n} games) are saved in {file}").format(
        first=saver.first, last=last, n=saver.written, file=saver.path
    )


def _open_records(path: Path | None, first_seed: int) -> _RecordSaver | None:
    """Return the record saver of ``--record``, or None; exit with a clear error if the file cannot be written."""
    if path is None:
        return None
    try:
        return _RecordSaver(path, first_seed)
    except OSError as exc:
        fail(_("cannot write the records to {file}: {error}").format(file=path, error=exc.strerror or exc))


def register(app: typer.Typer) -> None:
    """Add the ``simulate`` command to ``app``."""
    app.command("simulate", context_settings=GAME_OPTIONS)(simulate)
