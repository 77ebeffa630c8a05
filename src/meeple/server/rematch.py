"""Rematch, resign and invitations declined: how people who played once play again (issue #44, items 1, 2 and 4).

**Rematch** (``POST /api/tables/{id}/rematch``, the end screen's "Rematch" button). A seat of a finished table asks:
the first ask creates the table's one rematch (``tables.rematch_of`` is unique), every later ask of another seat
accepts it. The rematch has the same game, parameters, rated-ness and clock (a rated one plays by the server's rated
rules of today), its seats rotated by one (:func:`meeple.server.offers.rematch_seat`: another seat moves first),
bots kept. Each human seat is reserved for the same person: the account bound to the old seat, or whoever holds the
old seat (its token, cookie or session). The game starts when every human has accepted; an offer not accepted by
everyone within ``--rematch-seconds`` lapses (``aborted``, ``ended: "lapsed"``). A rematch whose players block one
another is refused. Everyone at the finished table is told at once by a ``rematch`` message
(:func:`meeple.server.hub.rematch_messages`).

**Declining** (``DELETE /api/me/invitations/{table}``). An invited account declines a table's invitation: a rematch
ends at once (``aborted``, ``ended: "declined"``); at another table the seat becomes an ordinary open seat, which
anyone may take (docs/decisions.md).

**Resign** is :meth:`meeple.server.tables.TableService.resign` (a transaction of the table master, as a claim).
"""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from meeple.core.errors import MeepleError
from meeple.i18n import M
from meeple.server.accounts import Account
from meeple.server.db import AccountRow, SeatRow, TableRow
from meeple.server.lobby import Lobby, Seated, SeatRefused
from meeple.server.offers import rematch_seat
from meeple.server.protocol import ClockSpec, CreateTable, SeatRequest

NOT_INVITED = M("you are not invited to this table")


class Rematches:
    """The use cases of rematches and invitations over the :class:`Lobby`'s transactions.

    Args:
        lobby: the lobby (its locks, seats and announcements; :attr:`Lobby.blocks`).
    """

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.service = lobby.service

    # ------------------------------------------------------------------ transactions (run in a thread)
    def _offer(self, s: Session, old: TableRow, seat: int, address: str) -> tuple[TableRow, Seated]:
        """Create the rematch of ``old`` offered by its ``seat``; the offerer's new seat is taken at once."""
        olds = list(s.scalars(select(SeatRow).where(SeatRow.table_id == old.id).order_by(SeatRow.seat)))
        n = len(olds)
        accounts = [r.account_id for r in olds if r.account_id is not None]
        if self.lobby.blocks.apart(s, accounts):
            raise SeatRefused(409, M("no rematch can be offered to the players of this table"))
        offerer = olds[seat]
        bound = _account(s, offerer.account_id)
        specs: list[str | SeatRequest] = ["open"] * n
        for r in olds:
            mine = r.seat == seat
            if r.player != "human":
                specs[rematch_seat(r.seat, n)] = r.player
            elif mine and bound is None:
                specs[rematch_seat(r.seat, n)] = SeatRequest(player="human", name=r.name)
            elif mine:
                specs[rematch_seat(r.seat, n)] = "human"
        request = _same_table(old, specs)
        new_id, tokens = self.service.insert_table(s, request, address, account=bound)
        new = self.lobby._locked(s, new_id)
        new.rematch_of = old.id
        if new.status == "waiting":
            new.lapse_at = self.service.now() + self.service.quotas.rematch_seconds
        for r in olds:
            if r.player == "human":
                row = s.get(SeatRow, (new_id, rematch_seat(r.seat, n)))
                assert row is not None
                row.reserved_from = r.seat
                row.invited = r.account_id if r.seat != seat else None
        s.flush()
        return new, Seated(new_id, tokens[0][0], tokens[0][1])

    def _accept(self, s: Session, old: TableRow, new: TableRow, seat: int) -> tuple[Seated, bool]:
        """``seat`` of ``old`` takes its reserved seat of the rematch ``new``; True if the rematch starts."""
        if new.status != "waiting":
            why = M("the rematch has started") if new.status == "live" else M("the rematch offer is over")
            raise SeatRefused(409, why)
        mine = s.scalars(select(SeatRow).where(SeatRow.table_id == new.id, SeatRow.reserved_from == seat)).first()
        if mine is None:
            raise SeatRefused(403, M("your seat has no place at the rematch"))
        if mine.player != "open":
            raise SeatRefused(409, M("you have accepted this rematch already"))
        old_seat = s.get(SeatRow, (old.id, seat))
        assert old_seat is not None
        named = _account(s, old_seat.account_id)
        name = named[1] if named is not None else old_seat.name
        token = self.lobby.seat(s, new, mine, name, old_seat.account_id)
        left = s.scalar(select(func.count()).where(SeatRow.table_id == new.id, SeatRow.player == "open"))
        started = not left
        if started:
            self.lobby._go_live(s, new)
            new.lapse_at = None
        self.lobby._changed(s, new)
        return Seated(new.id, mine.seat, token), started

    def ask(self, table_id: str, seat: int, address: str) -> tuple[Seated, bool, bool]:
        """``seat`` of the finished ``table_id`` offers or accepts its rematch: ``(seat taken, created, started)``.

        Raises:
            TableNotFound: no such table.
            SeatRefused: 409, the table is not finished, the seat accepted already, the rematch started or is over,
                its players block one another; 403, the seat has no place in it (not a human's).
            QuotaExceeded: the offerer's address has as many tables as allowed.
        """
        with Session(self.service.engine) as s, s.begin():
            old = self.lobby._locked(s, table_id)
            if old.status != "finished":
                raise SeatRefused(409, M("only a finished game can be played again"))
            new = s.scalars(select(TableRow).where(TableRow.rematch_of == table_id)).first()
            if new is None:
                old_seat = s.get(SeatRow, (table_id, seat))
                if old_seat is None or old_seat.player != "human":
                    raise SeatRefused(403, M("your seat has no place at the rematch"))
                new, seated = self._offer(s, old, seat, address)
                created, started = True, new.status == "live"  # no other human: it starts at once
            else:
                new = self.lobby._locked(s, new.id)
                seated, started = self._accept(s, old, new, seat)
                created = False
            self.lobby._changed(s, old)  # its players are told (the rematch message)
            return seated, created, started

    def lapse(self) -> list[str]:
        """End every waiting rematch whose offer lapsed (``aborted``, ``lapsed``); return the finished tables' ids."""
        now = self.service.now()
        with Session(self.service.engine) as s, s.begin():
            rows = list(
                s.scalars(
                    select(TableRow).where(
                        TableRow.status == "waiting", TableRow.lapse_at.is_not(None), TableRow.lapse_at <= now
                    )
                )
            )
            return [self._end(s, row, "lapsed", now) for row in rows]

    def _end(self, s: Session, row: TableRow, why: str, now: float) -> str:
        """End the waiting rematch ``row`` as ``aborted`` for ``why``; its finished table is told. Returns that id."""
        row.status, row.ended, row.ended_at, row.lapse_at, row.deadline = "aborted", why, now, None, None
        self.lobby._changed(s, row)
        old = self.lobby._locked(s, str(row.rematch_of))
        self.lobby._changed(s, old)
        return old.id

    def decline(self, table_id: str, account_id: int) -> list[str]:
        """``account_id`` declines its invitation to the waiting ``table_id``; return the tables whose players to tell.

        Raises:
            TableNotFound: no such table.
            SeatRefused: 404, no invitation of this account waits at this table.
        """
        with Session(self.service.engine) as s, s.begin():
            row = self.lobby._locked(s, table_id)
            mine = s.scalars(
                select(SeatRow).where(
                    SeatRow.table_id == table_id, SeatRow.invited == account_id, SeatRow.player == "open"
                )
            ).first()
            if mine is None or row.status != "waiting":
                raise SeatRefused(404, NOT_INVITED)
            if row.rematch_of is not None:
                return [table_id, self._end(s, row, "declined", self.service.now())]
            mine.invited = None
            self.lobby._changed(s, row)
            return [table_id]

    # ------------------------------------------------------------------ async: the use cases both fronts call
    async def rematch(self, table_id: str, seat: int, address: str) -> tuple[Seated, bool]:
        """Offer or accept the rematch of a finished table (:meth:`ask`); returns the seat and whether it was created.

        Both tables' connections are told; a rematch every human accepted starts (its bots and clock).
        """
        seated, created, started = await asyncio.to_thread(self.ask, table_id, seat, address)
        await self.lobby.announce(table_id, started=False)
        await self.lobby.announce(seated.table, started)
        return seated, created

    async def lapse_due(self) -> None:
        """Let every lapsed rematch offer end, and tell the finished tables' players (the sweeper asks)."""
        for table_id in await asyncio.to_thread(self.lapse):
            await self.lobby.announce(table_id, started=False)

    async def decline_invitation(self, table_id: str, account: Account) -> None:
        """``account`` declines its invitation to ``table_id`` (:meth:`decline`); the tables' players are told."""
        for changed in await asyncio.to_thread(self.decline, table_id, account.id):
            await self.lobby.announce(changed, started=False)

    def invitations(self, account_id: int) -> list[dict[str, Any]]:
        """The waiting tables where a seat is reserved for ``account_id``: ``GET /api/me/invitations``.

        ``[{"table", "game", "seat", "by" (the creator's username, or None), "rated", "rematch_of", "lapse_at",
        "created"}]``, newest first, at most 100. Public facts only: no token (the seat is taken with ``join`` or
        ``rematch``), no seed.
        """
        creator = (
            select(AccountRow.username)
            .join(SeatRow, SeatRow.account_id == AccountRow.id)
            .where(SeatRow.table_id == TableRow.id, SeatRow.player == "human", SeatRow.joined.is_(None))
            .order_by(SeatRow.seat)
            .limit(1)
            .scalar_subquery()
        )
        stmt = (
            select(TableRow, SeatRow.seat, creator.label("by"))
            .join(SeatRow, SeatRow.table_id == TableRow.id)
            .where(SeatRow.invited == account_id, SeatRow.player == "open", TableRow.status == "waiting")
            .order_by(TableRow.created.desc())
            .limit(100)
        )
        with Session(self.service.engine) as s:
            return [
                {
                    "table": row.id,
                    "game": row.game,
                    "seat": seat,
                    "by": by,
                    "rated": row.rated,
                    "rematch_of": row.rematch_of,
                    "lapse_at": row.lapse_at,
                    "created": row.created,
                }
                for row, seat, by in s.execute(stmt)
            ]


def _account(s: Session, account_id: int | None) -> tuple[int, str] | None:
    """``(id, username)`` of a live account, or None (no account, or deleted)."""
    if account_id is None:
        return None
    row = s.get(AccountRow, account_id)
    return (row.id, row.username) if row is not None and row.deleted is None else None


def _same_table(old: TableRow, seats: list[str | SeatRequest]) -> CreateTable:
    """A request for a table like ``old``: game, parameters, rated-ness, clock, grace and substitute, new ``seats``.

    A rated table takes the server's rated rules (its clock, grace and substitute are left out).

    Raises:
        MeepleError: the old table's game or parameters are no longer accepted (the message says why).
    """
    params = dict(old.params)
    if old.rated:
        return CreateTable(game=old.game, params=params, seats=seats, rated=True)
    clock = ClockSpec(**old.clock["spec"]) if old.clock is not None else None
    try:
        return CreateTable(
            game=old.game, params=params, seats=seats, clock=clock, grace=old.grace, substitute=old.substitute
        )
    except ValueError as exc:  # pragma: no cover - a table stored by an older release
        raise MeepleError(f"this table cannot be played again: {exc}") from None
