"""Ratings of accounts at rated tables, and what profiles and leaderboards show.

When a rated table's game ends, every seat's account gets a new openskill rating for that game, in the transaction
of the move that ended it (:meth:`meeple.server.tables.TableService._tx_move`): openskill's Plackett–Luce model,
as the tournaments rate bots (:mod:`meeple.arena.ratings`), every seat a one-player team, ranked by
:func:`meeple.core.rewards.finish_ranks` (the game's ``returns()`` with its ties and tie-breaks, then its points), for
any player count; a seat that forfeited ranks last (:mod:`meeple.server.endings`), and the ratings are settled as
soon as no later move can change them. ``tables.rated_at`` marks the table as rated in that same transaction, so a
retried or repeated end never rates twice. A rating is shown as ``rating = mu - 3 sigma`` (openskill's conservative
ordinal).

Profiles and leaderboards hold only public things: usernames, ratings, and finished games (whose records are
public). A live or waiting game is never listed there.

Rules: issue #34 "People at the table" (item 6).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, func, insert, select, update
from sqlalchemy.orm import Session

from meeple.server.db import AccountRow, RatingHistoryRow, RatingRow, SeatRow, TableRow

MU, SIGMA = 25.0, 25.0 / 3.0
"""openskill's default prior: every account starts at ``mu`` 25, ``sigma`` 25/3 (rating 0)."""
RECENT_GAMES = 20
"""Finished games listed on a profile."""
MAX_PAGE = 100
"""Leaderboard entries per page, at most."""
MAX_OFFSET = 100_000
"""The deepest leaderboard offset asked for."""


def ordinal(mu: float, sigma: float) -> float:
    """The shown rating: ``mu - 3 sigma`` (openskill's ordinal), rounded to 2 decimals."""
    return round(mu - 3.0 * sigma, 2)


def rating_json(row: RatingRow | Any) -> dict[str, Any]:
    """``{rating, mu, sigma, games, updated}`` of a ratings row."""
    return {
        "rating": ordinal(row.mu, row.sigma),
        "mu": round(row.mu, 4),
        "sigma": round(row.sigma, 4),
        "games": row.games,
        "updated": row.updated,
    }


def new_ratings(before: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """The openskill Plackett–Luce ``(mu, sigma)`` of each seat after a game it finished at ``ranks`` (1 = first).

    Args:
        before: each seat's ``(mu, sigma)`` before the game.
        ranks: each seat's 1-based rank; equal ranks are ties.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = model.rate(teams, ranks=[float(r) for r in ranks])
    return [(team[0].mu, team[0].sigma) for team in rated]


def rate_table(conn: Connection, table_id: str, game: str, ranks: Sequence[int], now: float) -> bool:
    """Update the ratings of the accounts seated at the finished rated table ``table_id`` (once).

    Runs inside the caller's transaction (the move that ended the game). A seat bound to no account (its account was
    deleted) plays with the prior and its update is dropped. Returns False (nothing changed) if the table was rated
    already.
    """
    marked = conn.execute(
        update(TableRow).where(TableRow.id == table_id, TableRow.rated_at.is_(None)).values(rated_at=now)
    )
    if marked.rowcount != 1:
        return False
    seats = dict(conn.execute(select(SeatRow.seat, SeatRow.account_id).where(SeatRow.table_id == table_id)).all())
    accounts = [seats.get(s) for s in range(len(ranks))]
    known = {a for a in accounts if a is not None}
    stored = {
        r.account_id: r
        for r in conn.execute(select(RatingRow).where(RatingRow.game == game, RatingRow.account_id.in_(known)))
    }
    before = [(stored[a].mu, stored[a].sigma) if a in stored else (MU, SIGMA) for a in accounts]
    for account, (mu, sigma), rank in zip(accounts, new_ratings(before, ranks), ranks, strict=True):
        if account is None:
            continue
        history = {"account_id": account, "game": game, "table_id": table_id, "at": now, "rank": rank}
        conn.execute(insert(RatingHistoryRow).values(mu=mu, sigma=sigma, **history))
        if account in stored:
            conn.execute(
                update(RatingRow)
                .where(RatingRow.account_id == account, RatingRow.game == game)
                .values(mu=mu, sigma=sigma, games=RatingRow.games + 1, updated=now)
            )
        else:
            values = {"account_id": account, "game": game, "mu": mu, "sigma": sigma, "games": 1, "updated": now}
            conn.execute(insert(RatingRow).values(**values))
    return True


def close_unrated(conn: Connection, table_id: str, now: float) -> bool:
    """Mark the rated table ``table_id`` as settled without rating anyone (aborted, or every seat forfeited).

    Runs inside the caller's transaction. Returns False if it was settled already.
    """
    marked = conn.execute(
        update(TableRow).where(TableRow.id == table_id, TableRow.rated_at.is_(None)).values(rated_at=now)
    )
    return bool(marked.rowcount == 1)


def ratings_of(s: Session | Connection, account_id: int) -> dict[str, dict[str, Any]]:
    """``{game: {rating, mu, sigma, games, updated}}`` of an account (games it has played rated)."""
    rows = s.execute(select(RatingRow).where(RatingRow.account_id == account_id).order_by(RatingRow.game))
    return {r.game: rating_json(r) for (r,) in rows}


def recent_games(s: Session, account_id: int, limit: int = RECENT_GAMES) -> list[dict[str, Any]]:
    """The account's latest finished games, newest first: table, game, when, its seat, rated, players' names.

    ``rank`` (the account's) and each player's ``rank``: the final rank (1 = first, ties share one; at a rated table
    a forfeited seat ranks last), None for a game finished before ranks were kept (issue #44, item 7).

    Only finished games: a live or waiting table is never shown on a profile.
    """
    mine = (
        select(TableRow.id, TableRow.game, TableRow.created, TableRow.rated, SeatRow.seat, SeatRow.rank)
        .join(SeatRow, SeatRow.table_id == TableRow.id)
        .where(SeatRow.account_id == account_id, TableRow.status == "finished")
        .order_by(TableRow.created.desc(), TableRow.id)
        .limit(limit)
    )
    games: list[dict[str, Any]] = [
        {"table": str(t), "game": g, "created": c, "rated": bool(r), "seat": seat, "rank": rank}
        for t, g, c, r, seat, rank in s.execute(mine)
    ]
    if not games:
        return games
    names: dict[str, list[dict[str, Any]]] = {str(g["table"]): [] for g in games}
    rows = s.execute(
        select(SeatRow.table_id, SeatRow.seat, SeatRow.player, SeatRow.name, AccountRow.username, SeatRow.rank)
        .outerjoin(AccountRow, AccountRow.id == SeatRow.account_id)
        .where(SeatRow.table_id.in_(list(names)))
        .order_by(SeatRow.table_id, SeatRow.seat)
    )
    for table_id, seat, player, name, username, rank in rows:
        names[table_id].append({"seat": seat, "player": player, "name": name, "account": username, "rank": rank})
    for g in games:
        g["players"] = names[str(g["table"])]
        g["record"] = f"/api/tables/{g['table']}/record"
        g["replay"] = f"/tables/{g['table']}/replay-view"
    return games


def leaderboard(s: Session, game: str, limit: int, offset: int) -> tuple[int, list[dict[str, Any]]]:
    """The accounts rated at ``game``, best rating first: ``(total, entries)``; each entry has its 1-based rank."""
    live = AccountRow.deleted.is_(None)
    total = s.scalar(
        select(func.count())
        .select_from(RatingRow)
        .join(AccountRow, AccountRow.id == RatingRow.account_id)
        .where(RatingRow.game == game, live)
    )
    stmt = (
        select(AccountRow.username, RatingRow)
        .join(AccountRow, AccountRow.id == RatingRow.account_id)
        .where(RatingRow.game == game, live)
        .order_by((RatingRow.mu - 3.0 * RatingRow.sigma).desc(), RatingRow.games.desc(), AccountRow.username_key)
        .limit(limit)
        .offset(offset)
    )
    entries = [
        {"rank": offset + i + 1, "username": username, **rating_json(row)}
        for i, (username, row) in enumerate(s.execute(stmt))
    ]
    return int(total or 0), entries
