"""Blocking: an account hides another one's chat lines, never meets it in quick match and refuses its invitations.

``PUT /api/me/blocks/{username}`` blocks, ``DELETE`` unblocks, ``GET /api/me/blocks`` lists. What a block does:

- **Chat.** The blocked account's lines (from the seat bound to it) are not sent to the blocker's connections
  (:meth:`meeple.server.chat.ChatService.deliver`); the blocker's own are still sent to everyone.
- **Quick match.** Neither is seated at a quick-match table where the other sits (either blocked the other):
  :func:`apart_clause`.
- **Invitations.** A table that invites the blocker by name, created by the blocked account, is refused (409), and a
  rematch whose players block one another is refused (:mod:`meeple.server.rematch`).

Who blocks whom is private: the blocked account is never told, and no answer to anyone else says it. A block is
one way (as lichess's); an account blocks at most :data:`MAX_BLOCKS` accounts, and changes its list at most
``--blocks-per-minute`` times a minute.

Rules: issue #44, item 6 ("Block, report, moderate": blocking).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import ColumnElement, Engine, delete, exists, func, insert, select
from sqlalchemy.orm import Session

from meeple.core.errors import MeepleError
from meeple.i18n import M, Message
from meeple.server.db import AccountRow, BlockRow, SeatRow, TableRow
from meeple.server.quotas import Limiter

MAX_BLOCKS = 500
"""Accounts one account may block at most (a 409 past it says to unblock some first)."""


class BlockRefused(MeepleError):
    """A block that cannot be made: ``status`` 404 (no such account), 422 (yourself) or 409 (too many)."""

    def __init__(self, status: int, message: Message) -> None:
        super().__init__(message)
        self.status = status


def apart_clause(account_id: int) -> ColumnElement[bool]:
    """A ``tables`` clause: no seat of the table is bound to an account that blocks, or is blocked by, ``account_id``.

    Quick match seats nobody with someone they blocked, or who blocked them
    (:meth:`meeple.server.lobby.Lobby.match_seat`).
    """
    others = (
        select(BlockRow.blocked_id)
        .where(BlockRow.account_id == account_id)
        .union(select(BlockRow.account_id).where(BlockRow.blocked_id == account_id))
    )
    return ~exists(select(SeatRow.seat).where(SeatRow.table_id == TableRow.id, SeatRow.account_id.in_(others)))


class Blocks:
    """Who blocks whom: the use cases of ``/api/me/blocks`` and the question other code asks (:meth:`is_blocked`).

    Args:
        engine: the database.
        limiter: the quota ``blocks`` (changes of one account's list per minute).
        now: the clock (Unix seconds).
    """

    def __init__(self, engine: Engine, limiter: Limiter, now: Callable[[], float]) -> None:
        self.engine = engine
        self.limiter = limiter
        self.now = now

    def _target(self, s: Session, username: str) -> int:
        found = s.scalar(
            select(AccountRow.id).where(AccountRow.username_key == username.lower(), AccountRow.deleted.is_(None))
        )
        if found is None:
            raise BlockRefused(404, M("there is no player named {name!r}", name=username[:40]))
        return int(found)

    def block(self, account_id: int, username: str) -> str:
        """``account_id`` blocks ``username`` (any case); blocking again changes nothing. Returns the username.

        Raises:
            QuotaExceeded: past ``--blocks-per-minute`` changes of this account's list.
            BlockRefused: 404, no such account; 422, yourself; 409, :data:`MAX_BLOCKS` blocked already.
        """
        self.limiter.hit("blocks", f"account {account_id}", "changes of your blocked players")
        with Session(self.engine) as s, s.begin():
            target = self._target(s, username)
            if target == account_id:
                raise BlockRefused(422, M("you cannot block yourself"))
            if s.get(BlockRow, (account_id, target)) is None:
                count = s.scalar(select(func.count()).where(BlockRow.account_id == account_id)) or 0
                if count >= MAX_BLOCKS:
                    raise BlockRefused(
                        409, M("you block {count} players already, the most allowed: unblock some first", count=count)
                    )
                s.execute(insert(BlockRow).values(account_id=account_id, blocked_id=target, created=self.now()))
            return str(s.scalar(select(AccountRow.username).where(AccountRow.id == target)))

    def unblock(self, account_id: int, username: str) -> None:
        """``account_id`` unblocks ``username``; unblocking one not blocked changes nothing.

        Raises:
            QuotaExceeded: past ``--blocks-per-minute`` changes of this account's list.
            BlockRefused: 404, no such account.
        """
        self.limiter.hit("blocks", f"account {account_id}", "changes of your blocked players")
        with Session(self.engine) as s, s.begin():
            target = self._target(s, username)
            s.execute(delete(BlockRow).where(BlockRow.account_id == account_id, BlockRow.blocked_id == target))

    def listed(self, account_id: int) -> list[dict[str, object]]:
        """The accounts ``account_id`` blocks: ``[{"username", "since"}]`` (Unix seconds), oldest first."""
        with Session(self.engine) as s:
            rows = s.execute(
                select(AccountRow.username, BlockRow.created)
                .join(AccountRow, AccountRow.id == BlockRow.blocked_id)
                .where(BlockRow.account_id == account_id, AccountRow.deleted.is_(None))
                .order_by(BlockRow.created, AccountRow.username_key)
            )
            return [{"username": name, "since": at} for name, at in rows]

    def blocked_names(self, account_id: int) -> frozenset[str]:
        """The usernames (lower-cased) ``account_id`` blocks: whose chat lines its connections skip."""
        with Session(self.engine) as s:
            rows = s.scalars(
                select(AccountRow.username_key)
                .join(BlockRow, AccountRow.id == BlockRow.blocked_id)
                .where(BlockRow.account_id == account_id)
            )
            return frozenset(rows)

    def is_blocked(self, blocker: int, blocked: int) -> bool:
        """Whether account ``blocker`` blocks account ``blocked`` (one way)."""
        with Session(self.engine) as s:
            return s.get(BlockRow, (blocker, blocked)) is not None

    def apart(self, s: Session, accounts: list[int]) -> bool:
        """Whether any two of ``accounts`` are apart (one of them blocks another), read in the transaction ``s``."""
        if len(accounts) < 2:
            return False
        found = s.scalar(
            select(func.count()).where(BlockRow.account_id.in_(accounts), BlockRow.blocked_id.in_(accounts))
        )
        return bool(found)
