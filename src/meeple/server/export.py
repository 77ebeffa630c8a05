"""An account's data as one JSON document: ``GET /api/me/export`` (issue #44, item 8).

The document holds what the server keeps about the account and nothing of anyone's hidden information:

- ``account``: username, e-mail address and whether it is verified, when it was created, its language;
- ``ratings``: per game, as ``GET /api/me`` gives them;
- ``games``: every table one of its seats is bound to, oldest first: the table, game, parameters (public: the lobby
  shows them), status, when it was created, whether rated, its seat, the seats' public names, and for a finished
  game the record's link (the seed is in the record, public once the game is over). No seed, no hand, no token;
- ``chat``: every chat line its seats wrote: table, seat, text, time.

Sizes: at most :data:`MAX_GAMES` games and :data:`MAX_CHAT_LINES` chat lines (the newest), and the export is
rate-limited per address and account (``--exports-per-hour``).

Rules: issue #44 "People who come back", item 8; docs/server.md.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from meeple.server.accounts import Account, account_row
from meeple.server.db import AccountRow, ChatRow, SeatRow, TableRow
from meeple.server.ratings import ratings_of

FORMAT = "meeple-account-export/1"
"""The document's ``format``: its name and version."""
MAX_GAMES = 10_000
"""Games an export lists at most (the newest)."""
MAX_CHAT_LINES = 50_000
"""Chat lines an export lists at most (the newest)."""


def export_account(s: Session, account: Account, now: float) -> dict[str, Any]:
    """The export document of ``account`` (see the module's docstring), read in one session ``s``."""
    row = account_row(s, account.id)
    verified = row is not None and row.email is not None and row.email_verified is not None
    return {
        "format": FORMAT,
        "exported": now,
        "account": {
            "username": account.username,
            "email": account.email,
            "email_verified": verified,
            "created": account.created,
            "lang": row.lang if row is not None else None,
        },
        "ratings": ratings_of(s, account.id),
        "games": _games(s, account.id),
        "chat": _chat(s, account.id),
    }


def _games(s: Session, account_id: int) -> list[dict[str, Any]]:
    mine = list(
        s.execute(
            select(TableRow.id, TableRow.game, TableRow.params, TableRow.status, TableRow.created, TableRow.rated)
            .add_columns(SeatRow.seat)
            .join(SeatRow, SeatRow.table_id == TableRow.id)
            .where(SeatRow.account_id == account_id)
            .order_by(TableRow.created.desc(), TableRow.id)
            .limit(MAX_GAMES)
        )
    )
    tables = [str(r.id) for r in mine]
    players: dict[str, list[dict[str, Any]]] = {t: [] for t in tables}
    for chunk in range(0, len(tables), 500):
        rows = s.execute(
            select(SeatRow.table_id, SeatRow.seat, SeatRow.player, SeatRow.name, AccountRow.username)
            .outerjoin(AccountRow, AccountRow.id == SeatRow.account_id)
            .where(SeatRow.table_id.in_(tables[chunk : chunk + 500]))
            .order_by(SeatRow.table_id, SeatRow.seat)
        )
        for table_id, seat, player, name, username in rows:
            players[table_id].append({"seat": seat, "player": player, "name": name, "account": username})
    games = []
    for r in reversed(mine):
        game: dict[str, Any] = {
            "table": r.id,
            "game": r.game,
            "params": dict(r.params),
            "status": r.status,
            "created": r.created,
            "rated": bool(r.rated),
            "seat": r.seat,
            "players": players[str(r.id)],
        }
        if r.status == "finished":
            game["record"] = f"/api/tables/{r.id}/record"
        games.append(game)
    return games


def _chat(s: Session, account_id: int) -> list[dict[str, Any]]:
    rows = s.execute(
        select(ChatRow.table_id, ChatRow.seat, ChatRow.text, ChatRow.at)
        .join(SeatRow, (SeatRow.table_id == ChatRow.table_id) & (SeatRow.seat == ChatRow.seat))
        .where(SeatRow.account_id == account_id)
        .order_by(ChatRow.id.desc())
        .limit(MAX_CHAT_LINES)
    )
    return [{"table": t, "seat": seat, "text": text, "time": at} for t, seat, text, at in reversed(list(rows))]
