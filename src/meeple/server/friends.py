"""Friends and presence: an account follows others (one way, as lichess does) and sees who of them is online.

- **Follow** (``PUT /api/me/friends/{username}``) and **unfollow** (``DELETE``): one way, no consent asked (the
  followed player is not told); an account follows at most :data:`MAX_FOLLOWS` others, and follows at most
  ``--follows-per-minute`` times a minute (per account and per address).
- **Online** (``GET /api/me/friends``, a profile's ``online``): a page viewed or the API called with the account's
  session in the last :data:`ONLINE_SECONDS` (``accounts.seen_at``, written at most once a minute:
  :data:`meeple.server.accounts.PRESENCE_EVERY`), or a live connection to one of its seats (the ``presence`` rows
  every process writes for its own connections, :mod:`meeple.server.presence`). Both are in the database, so every
  process sees a friend that another process serves.
- **Their table**: a friend's live table (the one they are connected to, else their newest live one), unless they
  hide it (``PUT /api/me/presence {"hide_table": true}``). It is the table's id and game, which any spectator may
  open: never a seat's token, a hand or the seed.

Rules: issue #44 "People who come back", item 3 (friends and presence).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, and_, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from meeple.core.errors import MeepleError
from meeple.i18n import M, Message
from meeple.server.accounts import MAX_USERNAME, Account
from meeple.server.db import AccountRow, BlockRow, FollowRow, PresenceRow, SeatRow, TableRow
from meeple.server.presence import STALE
from meeple.server.quotas import Limiter

MAX_FOLLOWS = 500
"""Accounts one account may follow at most (lichess allows 400)."""
ONLINE_SECONDS = 300.0
"""A player is online if they viewed a page or had a live connection in this many last seconds (issue #44)."""


class FriendRefused(MeepleError):
    """A follow refused: ``status`` is the HTTP status (404 no such player, 409 too many, 422 yourself)."""

    def __init__(self, status: int, message: Message) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Friend:
    """One followed account as its follower sees it (``GET /api/me/friends``).

    Attributes:
        username: the followed account's username.
        online: a page view or a live connection in the last :data:`ONLINE_SECONDS`.
        table: the live table it plays at (``{"table", "game"}``), None if none or hidden by its player.
        since: when it was followed (Unix seconds).
    """

    username: str
    online: bool
    table: dict[str, str] | None
    since: float

    def to_json(self) -> dict[str, Any]:
        """``{"username", "online", "table", "since"}``."""
        return {"username": self.username, "online": self.online, "table": self.table, "since": self.since}


class Friends:
    """The use cases of friends and presence (follow, unfollow, list, hide one's table, who is online).

    Args:
        engine: the database.
        limiter: the quotas (``follows`` per account and per address).
        now: the clock (Unix seconds).
        presence_cutoff: ``presence_cutoff(now, stale)``: presence rows seen after it count (a process cut off from
            the database does not take the others' rows for stale: :meth:`meeple.server.health.Health`).
    """

    def __init__(
        self,
        engine: Engine,
        limiter: Limiter,
        now: Callable[[], float],
        presence_cutoff: Callable[[float, float], float],
    ) -> None:
        self.engine = engine
        self.limiter = limiter
        self.now = now
        self.presence_cutoff = presence_cutoff

    async def follow(self, account: Account, username: str, address: str) -> Friend:
        """``account`` follows ``username`` (again: nothing changes); the friend as :meth:`friends` lists it.

        Raises:
            FriendRefused: 404 no such account, 422 oneself, 409 past :data:`MAX_FOLLOWS`.
            QuotaExceeded: past ``--follows-per-minute`` for the account or the address.
        """
        self.limiter.hit("follows", address, "players followed")
        self.limiter.hit("follows", f"account {account.id}", "players followed")
        return await asyncio.to_thread(self._follow, account, username)

    def _follow(self, account: Account, username: str) -> Friend:
        try:
            target, since = self._store_follow(account, username)
        except IntegrityError:  # the same follow stored at this moment by another request: it is there now
            target, since = self._store_follow(account, username)
        with Session(self.engine) as s:
            blocks_me = s.get(BlockRow, (target.id, account.id)) is not None
        return self._entries([(target.id, target.username, target.hide_table, since, blocks_me)])[0]

    def _store_follow(self, account: Account, username: str) -> tuple[AccountRow, float]:
        with Session(self.engine, expire_on_commit=False) as s, s.begin():
            target = _live_account(s, username)
            if target is None:
                raise FriendRefused(404, M("no player {name!r}", name=username[:MAX_USERNAME]))
            if target.id == account.id:
                raise FriendRefused(422, M("you cannot follow yourself"))
            known = s.scalar(select(FollowRow.created).where(_pair(account.id, target.id)))
            if known is None:
                count = s.scalar(select(func.count()).where(FollowRow.follower_id == account.id)) or 0
                if count >= MAX_FOLLOWS:
                    raise FriendRefused(409, M("you follow {n} players already: the most", n=MAX_FOLLOWS))
                known = self.now()
                s.add(FollowRow(follower_id=account.id, followee_id=target.id, created=known))
            return target, float(known)

    async def unfollow(self, account: Account, username: str) -> bool:
        """``account`` stops following ``username``; False if it did not follow it.

        Raises:
            FriendRefused: 404 no such account.
        """
        return await asyncio.to_thread(self._unfollow, account, username)

    def _unfollow(self, account: Account, username: str) -> bool:
        with Session(self.engine) as s, s.begin():
            target = _live_account(s, username)
            if target is None:
                raise FriendRefused(404, M("no player {name!r}", name=username[:MAX_USERNAME]))
            gone = s.execute(delete(FollowRow).where(_pair(account.id, target.id)))
            return bool(getattr(gone, "rowcount", 0))

    async def friends(self, account: Account) -> list[Friend]:
        """The accounts ``account`` follows: online ones first, then by username (case ignored)."""
        return await asyncio.to_thread(self._friends, account.id)

    def _friends(self, account_id: int) -> list[Friend]:
        """The list of :meth:`friends`, as ``account_id`` may see it.

        A followed account that blocks ``account_id`` shows neither presence nor table (:mod:`meeple.server.blocks`):
        it reads as offline, as if it hid its table.
        """
        blocks_me = and_(BlockRow.account_id == AccountRow.id, BlockRow.blocked_id == account_id)
        with Session(self.engine) as s:
            rows = s.execute(
                select(AccountRow.id, AccountRow.username, AccountRow.hide_table, FollowRow.created, BlockRow.created)
                .join(FollowRow, FollowRow.followee_id == AccountRow.id)
                .outerjoin(BlockRow, blocks_me)
                .where(FollowRow.follower_id == account_id, AccountRow.deleted.is_(None))
                .order_by(AccountRow.username_key)
            )
            found = [(r[0], r[1], bool(r[2]), float(r[3]), r[4] is not None) for r in rows]
        entries = self._entries(found)
        return sorted(entries, key=lambda f: not f.online)

    def _entries(self, rows: Sequence[tuple[int, str, bool, float, bool]]) -> list[Friend]:
        """Each row ``(id, username, hides its table, followed since, blocks the follower)`` as a :class:`Friend`."""
        seen = [r[0] for r in rows if not r[4]]
        online = self.online(seen)
        tables = self.live_tables([r[0] for r in rows if not r[2] and not r[4]])
        return [Friend(name, online.get(i, False), tables.get(i), since) for i, name, _hide, since, _ in rows]

    def online(self, account_ids: Sequence[int]) -> dict[int, bool]:
        """Whether each account is online: a page view or a live connection in the last :data:`ONLINE_SECONDS`."""
        if not account_ids:
            return {}
        now = self.now()
        with Session(self.engine) as s:
            seen = set(
                s.scalars(
                    select(AccountRow.id).where(
                        AccountRow.id.in_(account_ids), AccountRow.seen_at > now - ONLINE_SECONDS
                    )
                )
            )
            seen |= set(s.scalars(_connected(account_ids, self.presence_cutoff(now, STALE))))
        return {a: a in seen for a in account_ids}

    def live_tables(self, account_ids: Sequence[int]) -> dict[int, dict[str, str]]:
        """Each account's live table, ``{"table", "game"}``: the one it is connected to, else its newest live one."""
        if not account_ids:
            return {}
        cutoff = self.presence_cutoff(self.now(), STALE)
        connected = (
            select(func.count())
            .where(
                PresenceRow.table_id == SeatRow.table_id,
                PresenceRow.seat == SeatRow.seat,
                PresenceRow.connections > 0,
                PresenceRow.seen_at > cutoff,
            )
            .scalar_subquery()
        )
        with Session(self.engine) as s:
            rows = s.execute(
                select(SeatRow.account_id, TableRow.id, TableRow.game)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.account_id.in_(account_ids), TableRow.status == "live")
                .order_by(connected.desc(), TableRow.created.desc())
            )
            found: dict[int, dict[str, str]] = {}
            for account_id, table_id, game in rows:
                if account_id is not None:
                    found.setdefault(account_id, {"table": table_id, "game": game})
        return found

    async def set_hide_table(self, account: Account, hide: bool, address: str) -> bool:
        """Hide (or show) the live table ``account`` plays at from its followers; returns ``hide``.

        Raises:
            QuotaExceeded: past ``--follows-per-minute`` changes for the account or the address (a write each).
        """
        self.limiter.hit("follows", f"presence {address}", "presence changes")
        self.limiter.hit("follows", f"presence {account.id}", "presence changes")

        def write() -> bool:
            with Session(self.engine) as s, s.begin():
                s.execute(update(AccountRow).where(AccountRow.id == account.id).values(hide_table=hide))
            return hide

        return await asyncio.to_thread(write)

    async def hides_table(self, account: Account) -> bool:
        """Whether ``account`` hides its live table from its followers."""

        def read() -> bool:
            with Session(self.engine) as s:
                return bool(s.scalar(select(AccountRow.hide_table).where(AccountRow.id == account.id)))

        return await asyncio.to_thread(read)

    async def follows(self, account: Account, username: str) -> bool:
        """Whether ``account`` follows ``username`` (a profile's Follow or Unfollow button)."""

        def read() -> bool:
            with Session(self.engine) as s:
                target = _live_account(s, username)
                if target is None:
                    return False
                return s.scalar(select(FollowRow.created).where(_pair(account.id, target.id))) is not None

        return await asyncio.to_thread(read)


def _pair(follower: int, followee: int) -> Any:
    return and_(FollowRow.follower_id == follower, FollowRow.followee_id == followee)


def _live_account(s: Session, username: str) -> AccountRow | None:
    """The live account named ``username`` (any case), or None (none, deleted, or too long to be one)."""
    if len(username) > MAX_USERNAME:
        return None
    return s.scalar(select(AccountRow).where(AccountRow.username_key == username.lower(), AccountRow.deleted.is_(None)))


def _connected(account_ids: Sequence[int], cutoff: float) -> Any:
    """The accounts among ``account_ids`` with a live connection to one of their seats (any process's row)."""
    return (
        select(SeatRow.account_id)
        .join(PresenceRow, and_(PresenceRow.table_id == SeatRow.table_id, PresenceRow.seat == SeatRow.seat))
        .where(
            SeatRow.account_id.in_(account_ids),
            PresenceRow.connections > 0,
            PresenceRow.seen_at > cutoff,
        )
        .distinct()
    )
