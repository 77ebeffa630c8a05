"""``meeple tournament GAME --bots ismcts:1000,heuristic,random --games 500 --players 4``; ``meeple tournament-report``.

Seats are rotated on paired deals (see :mod:`meeple.arena.tournament`); results go to a SQLite file (``--db``) so a
tournament can be resumed by re-running the same command, and re-analysed with ``meeple tournament-report --db``.
"""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from meeple.cli.common import (
    GameArg,
    VariantOpt,
    check_writable,
    fail,
    load_game_or_exit,
    parse_variants,
    stdout_console,
)
from meeple.core.errors import MeepleError
from meeple.i18n import _, known, tr

if TYPE_CHECKING:
    from meeple.arena.store import ResultStore
    from meeple.arena.tournament import GameResult, TournamentConfig

DbOpt = Annotated[Path | None, typer.Option("--db", help="SQLite file of results (resumes the same tournament).")]
ReportOpt = Annotated[
    Path | None, typer.Option("--report", help="Write a report file: .html (self-contained) or .md (Markdown).")
]


ARENA_MODULES = {"openskill": "openskill>=6.0", "sqlalchemy": "sqlalchemy>=2.0"}
"""What every tournament needs (ratings, the results store): dependencies of meeple itself, so a plain
``pip install meeple`` runs tournaments."""
REPORT_MODULES = {"matplotlib": "matplotlib>=3.9"}
"""What a written report needs (its plots): the ``arena`` extra."""


def require_arena(report: bool) -> None:
    """Exit with code 2, before any game is played, if a module the tournament needs is missing; say how to get it.

    Args:
        report: a report file is asked for (its plots need matplotlib, from the ``arena`` extra).
    """
    missing = [requirement for module, requirement in ARENA_MODULES.items() if importlib.util.find_spec(module) is None]
    if missing:
        fail(
            _("tournaments need {missing}, which meeple depends on: install it with pip install '{first}'").format(
                missing=", ".join(missing), first="' '".join(missing)
            )
        )
    wanted = REPORT_MODULES if report else {}
    missing = [requirement for module, requirement in wanted.items() if importlib.util.find_spec(module) is None]
    if missing:
        fail(
            _("a report needs {missing}: install it with pip install 'meeple[arena]'").format(
                missing=", ".join(missing)
            )
        )


def tournament(
    game: GameArg,
    bots: Annotated[
        str,
        typer.Option("--bots", "-b", help="Comma-separated bot specs, e.g. ismcts:1000,heuristic,random or hard,easy."),
    ] = "heuristic,random",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games (rounded up to whole deals).")] = 100,
    players: Annotated[int | None, typer.Option("--players", "-p", help="Number of seats.")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Parallel workers.")] = 1,
    db: DbOpt = None,
    report: ReportOpt = None,
    engine: Annotated[str, typer.Option("--engine", help="multiprocessing or ray.")] = "multiprocessing",
    ray_address: Annotated[
        str | None, typer.Option("--ray-address", help="Join this Ray cluster (default: start a local one).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Tournament seed.")] = 0,
    variant: VariantOpt = None,
) -> None:
    """Play a tournament between bots with rotated seats on paired deals; print ratings and balance tables."""
    require_arena(report is not None)
    from meeple.arena.report import build_report, rich_tables, summary_text, write_report
    from meeple.arena.tournament import TournamentConfig, run_tournament

    loaded = load_game_or_exit(game, players, variant)
    specs = [s.strip() for s in bots.split(",") if s.strip()]
    if not specs:
        fail(_("--bots needs at least one bot spec"))
    if engine not in ("multiprocessing", "ray"):
        fail(_("unknown engine {engine!r}; use multiprocessing or ray").format(engine=engine))
    try:
        config = TournamentConfig(
            game=game,
            bots=tuple(specs),
            players=loaded.num_players,
            games=games,
            seed=seed,
            params=dict(parse_variants(variant)),
        )
        from meeple.arena.tournament import plan

        plan(config)  # validates bots and parameters before anything starts
    except MeepleError as exc:
        fail(exc)
    if report is not None:
        check_writable(report, "--report")  # before the first game, not after the last
    store = None if db is None else _open_store(db)
    console = stdout_console()
    console.print(
        _(
            "{game}: {n} games ({deals} deals x {rotations} rotations), {players} players, bots {bots}, "
            "engine {engine}, jobs {jobs}"
        ).format(
            game=known(loaded.title),
            n=config.total_games,
            deals=config.deals,
            rotations=config.rotations,
            players=config.players,
            bots=", ".join(config.labels),
            engine=engine,
            jobs=jobs,
        )
    )
    try:
        with Progress(
            TextColumn(_("playing")),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        ) as progress:
            bar = progress.add_task(_("games"), total=config.total_games)

            def started(todo: int, done: int) -> None:
                if done:
                    console.print(
                        _("Resuming: {done} games already in {file}, {todo} to play").format(
                            done=done, file=db, todo=todo
                        )
                    )
                progress.update(bar, completed=done)

            results = run_tournament(
                config,
                store=store,
                jobs=jobs,
                engine="ray" if engine == "ray" else "multiprocessing",
                ray_address=ray_address,
                on_result=lambda _res: progress.advance(bar),
                on_start=started,
            )
    except MeepleError as exc:
        fail(exc)
    finally:
        if store is not None:
            store.close()
    rep = build_report(config, results)
    for line in summary_text(rep):
        console.print(line)
    for table in rich_tables(rep):
        console.print(table)
    if report is not None:
        try:
            console.print(_("Report written to {file}").format(file=write_report(rep, report)))
        except OSError as exc:
            kept = db if db is not None else _keep_results(config, results)
            fail(
                _(
                    "cannot write the report to {file}: {error}; the results are kept in {kept} "
                    "(meeple tournament-report --db {kept} --report FILE writes the report again)"
                ).format(file=report, error=exc.strerror or exc, kept=kept),
                code=1,
            )


def _open_store(db: Path) -> ResultStore:
    """Open the ``--db`` results file, or exit with one ``Error:`` line saying why it cannot be used."""
    from meeple.arena.store import ResultStore

    try:
        return ResultStore(db)
    except MeepleError as exc:
        fail(f"--db: {tr(exc.message)}")


def _keep_results(config: TournamentConfig, results: list[GameResult]) -> Path:
    """Store results that no --db holds in a SQLite file of the temporary folder; return its path.

    The file is named after the tournament's configuration, so a second failed run adds only the games it lacks.
    """
    path = Path(tempfile.gettempdir()) / f"meeple-tournament-{config.key()[:12]}.sqlite"
    with _open_store(path) as store:
        tid = store.tournament_id(config)
        done = store.finished(tid)
        store.add(tid, [r for r in results if (r.deal, r.rotation) not in done])
    return path


def tournament_report(
    db: Annotated[Path, typer.Option("--db", help="SQLite file written by `meeple tournament --db`.")],
    report: ReportOpt = None,
    index: Annotated[
        int | None, typer.Option("--tournament", "-t", help="Which tournament of the file (default: the last one).")
    ] = None,
) -> None:
    """Print (and optionally write) the report of a stored tournament; lists the tournaments of the file."""
    require_arena(report is not None)
    from meeple.arena.report import build_report, rich_tables, summary_text, write_report

    if not db.exists():
        fail(_("no such file: {file}").format(file=db))
    if report is not None:
        check_writable(report, "--report")
    console = stdout_console()
    with _open_store(db) as store:
        stored = store.tournaments()
        if not stored:
            fail(_("{file} holds no tournament").format(file=db))
        for i, t in enumerate(stored):
            cfg = t.config
            line = _("[{i}] {game} {players}p bots {bots} seed {seed}: {n} games").format(
                i=i, game=cfg.game, players=cfg.players, bots=",".join(cfg.bots), seed=cfg.seed, n=t.finished
            )
            console.print(escape(line))
        pick = len(stored) - 1 if index is None else index
        if not 0 <= pick < len(stored):
            fail(_("--tournament must be between 0 and {last}").format(last=len(stored) - 1))
        chosen = stored[pick]
        results = store.results(chosen.id)
    rep = build_report(chosen.config, results)
    for line in summary_text(rep):
        console.print(line)
    for table in rich_tables(rep):
        console.print(table)
    if report is not None:
        try:
            console.print(_("Report written to {file}").format(file=write_report(rep, report)))
        except OSError as exc:
            problem = _("cannot write the report to {file}: {error} (the results stay in {db})")
            fail(problem.format(file=report, error=exc.strerror or exc, db=db), code=1)


def register(app: typer.Typer) -> None:
    """Add the ``tournament`` and ``tournament-report`` commands to ``app``."""
    app.command("tournament")(tournament)
    app.command("tournament-report")(tournament_report)
