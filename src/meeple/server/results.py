"""Results: each seat's final rank, kept when a game finishes, and the statistics a profile shows from them.

When a game ends (in the transaction of the move that ended it: :meth:`meeple.server.tables.TableService._tx_move`)
every seat's final rank is stored (``seats.rank``): the game's :func:`~meeple.core.rewards.finish_ranks` (its
result, ties and tie-breaks, then its points), and at a rated table the rating's ranks (a forfeited seat last:
:func:`meeple.server.endings.rating_ranks`). A profile's statistics per game (``GET /api/players/{username}``) count
the account's finished games, its wins (rank 1, shared wins too) and its average rank, and give its rating after
each rated game (``rating_history``, written by :func:`meeple.server.ratings.rate_table`) for the chart.

Only finished games count: a live or waiting game is never in a profile. A seat's rating on the table's badges
(:func:`seat_ratings`) is its account's current rating at the table's game, shown at rated tables, marked
provisional while the account has played fewer than :data:`PROVISIONAL_GAMES` rated games of that game.

Rules: issue #44 "People who come back", item 7 (something to look at).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, case, func, select, update
from sqlalchemy.orm import Session

from meeple.server.db import RatingHistoryRow, RatingRow, SeatRow, TableRow
from meeple.server.endings import rating_ranks
from meeple.server.live import LiveTable
from meeple.server.ratings import ordinal

PROVISIONAL_GAMES = 5
"""A rating is provisional (marked ``?`` on the badges) while its account has played fewer rated games of the game."""
OVER = ("finished", "abandoned", "aborted")
"""The statuses of a table whose game is over (its id may be shown on a profile)."""
HISTORY_POINTS = 100
"""The latest ratings per game a profile's chart draws, at most."""


def final_ranks(live: LiveTable, finish: Sequence[int]) -> list[int]:
    """Each seat's final rank (1 = first): ``finish``, or at a rated table the rating's ranks (forfeits last)."""
    if not live.rated:
        return list(finish)
    ranks = rating_ranks([seat.forfeit is not None for seat in live.seats], finish)
    return list(finish) if ranks is None else ranks


def record_ranks(s: Connection, live: LiveTable, finish: Sequence[int]) -> None:
    """Store every seat's :func:`final_ranks` (``seats.rank``), in the transaction that finished the game."""
    for seat, rank in enumerate(final_ranks(live, finish)):
        s.execute(update(SeatRow).where(SeatRow.table_id == live.id, SeatRow.seat == seat).values(rank=rank))


def seat_ratings(s: Connection, game: str, accounts: Sequence[int | None]) -> list[tuple[float, int] | None]:
    """Each seat's ``(rating, rated games)`` at ``game``: its account's rating (the prior, 0 games, if none yet).

    None for a seat bound to no account.
    """
    known = [a for a in accounts if a is not None]
    rows = s.execute(
        select(RatingRow.account_id, RatingRow.mu, RatingRow.sigma, RatingRow.games).where(
            RatingRow.game == game, RatingRow.account_id.in_(known)
        )
    )
    found = {a: (ordinal(mu, sigma), games) for a, mu, sigma, games in rows}
    return [None if a is None else found.get(a, (0.0, 0)) for a in accounts]


def statistics(s: Session, account_id: int) -> dict[str, dict[str, Any]]:
    """``{game: {games, wins, ranked, average_rank, history}}`` of an account's finished games.

    ``games``: finished games; ``wins``: those it ranked first (a shared first place too); ``ranked``: those whose
    rank was kept (games finished before ranks were kept have none); ``average_rank``: the mean rank of those
    (None without any), rounded to 2 decimals; ``history``: its rating after each of its latest
    :data:`HISTORY_POINTS` rated games, oldest first, ``[{"at", "rating", "rank", "table"}]``.
    """
    mine = (
        select(
            TableRow.game,
            func.count(),
            func.sum(case((SeatRow.rank == 1, 1), else_=0)),
            func.count(SeatRow.rank),
            func.avg(SeatRow.rank),
        )
        .join(SeatRow, SeatRow.table_id == TableRow.id)
        .where(SeatRow.account_id == account_id, TableRow.status == "finished")
        .group_by(TableRow.game)
        .order_by(TableRow.game)
    )
    stats: dict[str, dict[str, Any]] = {}
    for game, games, wins, ranked, average in s.execute(mine):
        mean = None if average is None else round(float(average), 2)
        stats[game] = {"games": games, "wins": int(wins or 0), "ranked": ranked, "average_rank": mean, "history": []}
    for game, entry in stats.items():
        entry["history"] = history(s, account_id, game)
    return stats


def history(s: Session, account_id: int, game: str, limit: int = HISTORY_POINTS) -> list[dict[str, Any]]:
    """The account's rating at ``game`` after each of its latest ``limit`` rated games, oldest first.

    Only games that are over: a rating settled while its game goes on (a two-player forfeit) would name a live table.
    """
    over = TableRow.status.in_(OVER)  # a rating settled early (a forfeit) shows once its game is over
    rows = s.execute(
        select(RatingHistoryRow)
        .join(TableRow, TableRow.id == RatingHistoryRow.table_id)
        .where(RatingHistoryRow.account_id == account_id, RatingHistoryRow.game == game, over)
        .order_by(RatingHistoryRow.at.desc(), RatingHistoryRow.id.desc())
        .limit(limit)
    )
    points = [{"at": r.at, "rating": ordinal(r.mu, r.sigma), "rank": r.rank, "table": r.table_id} for (r,) in rows]
    return points[::-1]
