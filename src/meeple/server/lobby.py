"""Open seats, joining, starting early and quick match: how strangers meet at a table.

A table created with ``"open"`` seats is ``waiting``: anyone may take a free seat under a name
(``POST /api/tables/{id}/join``). Its game, clocks and bots start when the last open seat is taken, or when its
creator starts it now with bots in the open seats (``POST /api/tables/{id}/start``). A quick-match table
(``POST /api/quickmatch``) is the oldest waiting one of a game and player count, or a new one; unless its creator
starts it earlier, bots take its open seats after :attr:`Quotas.quickmatch_wait` seconds. A table whose open seats
nobody took for :attr:`Quotas.waiting_hours` ends as ``abandoned``.

Every change here is one transaction on the table's row (locked on PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` holds
the write lock), bumps its revision and notifies the other processes, as a move does (:mod:`meeple.server.tables`).

Rules: issue #34 "People at the table" (items 2 and 3).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Engine, bindparam, func, insert, select, update
from sqlalchemy.orm import Session

from meeple.core.errors import MeepleError
from meeple.core.registry import load_game
from meeple.i18n import M, Message
from meeple.server.accounts import Account
from meeple.server.blocks import Blocks, apart_clause
from meeple.server.clock import is_turn_based
from meeple.server.db import PresenceRow, SeatRow, TableRow
from meeple.server.hub import Hub
from meeple.server.live import TableNotFound
from meeple.server.names import look_alike, skeleton
from meeple.server.notify import InvitationNotice
from meeple.server.presence import STALE
from meeple.server.protocol import CreateTable, SeatRequest
from meeple.server.quotas import Limiter
from meeple.server.seats import Seats
from meeple.server.tables import NOTIFY_CHANNEL, TableService, hash_token

log = logging.getLogger("meeple.server")

START_PROCESS = "start"
"""The ``process`` of the presence rows written when a table starts: an away human's grace counts from the start."""
TURN_BASED_WAITING = 7 * 86_400.0
"""Seconds at least that a turn-based table waits for its open seats to be taken (a week)."""
QUICKMATCH_GRACE = 120.0
"""Seconds a quick-match seat's human may be away on their turn before the substitute bot plays it (strangers
leave; nobody waits forever)."""
_FILL_DUE = select(TableRow.id).where(
    TableRow.status == "waiting", TableRow.fill_at.is_not(None), TableRow.fill_at <= bindparam("b_now")
)
"""Waiting quick-match tables whose wait is over (:meth:`Lobby.due`), built once."""
_QUICKMATCH_LOCK = 0x71756963  # PostgreSQL advisory lock namespace of quick match ("quic")
RATED_LOG_IN = M("log in to play at a rated table")
"""Why a guest is refused a seat at a rated table (401)."""


@dataclass(frozen=True)
class Match:
    """A quick-match request: ``game`` and ``players``, the seat's ``name``, ``rated``, the ``account`` seated.

    ``account`` is ``(id, username)`` of a logged-in player (None: a guest).
    """

    game: str
    players: int
    name: str
    rated: bool = False
    account: tuple[int, str] | None = None


class SeatRefused(MeepleError):
    """A seat cannot be taken or a table started; ``status`` is the HTTP status (403 or 409)."""

    def __init__(self, status: int, message: Message) -> None:
        super().__init__(message)
        self.status = status


def quickmatch_lock(key: str) -> int:
    """The second key of a quick match's PostgreSQL advisory lock, a signed 32-bit value.

    ``pg_advisory_xact_lock(int, int)`` takes two signed ``int4``: an unsigned value was out of range for half the
    keys, and their quick matches failed with 500 (issue #41, item 16).

    Args:
        key: the quick match's key (``game/players`` or ``game/players/rated``).

    Returns:
        The first four bytes of the key's SHA-256 as a signed integer, in -2**31 .. 2**31 - 1.
    """
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big", signed=True)


@dataclass(frozen=True)
class Seated:
    """A seat taken (:meth:`Lobby.join`, :meth:`Lobby.quick_match`): its table, number and secret token."""

    table: str
    seat: int
    token: str


@dataclass(frozen=True)
class Created:
    """A table created (:meth:`Lobby.create_table`): its id and ``(seat, token)`` of each human seat."""

    table: str
    tokens: list[tuple[int, str]]


class NameNeeded(SeatRefused):
    """A guest asked for a seat without a name (422); a logged-in player's name is the username."""

    def __init__(self) -> None:
        super().__init__(422, M("give a name, or log in"))


class Lobby:
    """The use cases of strangers meeting at a table, and their transactions over a :class:`TableService`.

    The async methods (:meth:`create_table`, :meth:`join`, :meth:`quick_match`, :meth:`start_table`,
    :meth:`wait_for_players`, :meth:`new_token`) are the one implementation both fronts call: plain values in, a
    plain result out, or a domain error (:class:`SeatRefused`, :class:`TableNotFound`,
    :class:`meeple.server.quotas.QuotaExceeded`, :class:`meeple.core.errors.MeepleError` for a bad request); the
    REST routes translate it into a status code and JSON, the pages into a page with the error. A new use case
    (rematch, invitation...) is added here once (docs/architecture.md).

    Args:
        service: the tables.
        hub: the tables' connections (a new token closes the old one's).
        seats: which seat a token opens (a join from a seat's holder is refused).
        limiter: the quotas (``tables``, ``joins`` per address).
        blocks: who blocks whom (quick match keeps them apart; their invitations are refused).
    """

    def __init__(self, service: TableService, hub: Hub, seats: Seats, limiter: Limiter, blocks: Blocks) -> None:
        self.service = service
        self.hub = hub
        self.seats = seats
        self.limiter = limiter
        self.blocks = blocks

    # ------------------------------------------------------------------ transactions (run in a thread)
    def _locked(self, s: Session, table_id: str) -> TableRow:
        stmt = select(TableRow).where(TableRow.id == table_id)
        if self.service.postgres:
            stmt = stmt.with_for_update()
        row = s.scalars(stmt).first()
        if row is None:
            raise TableNotFound(f"no table {table_id!r}")
        return row

    def _changed(self, s: Session, row: TableRow) -> None:
        self.service.listing_changed()
        row.rev += 1
        if self.service.postgres:
            s.execute(select(func.pg_notify(NOTIFY_CHANNEL, row.id)))

    def _go_live(self, s: Session, row: TableRow) -> None:
        """The game starts now: status ``live``, looked at at once (first bot, clock), grace counted from now."""
        now = self.service.now()
        row.status, row.deadline, row.fill_at, row.live_at = "live", now, None, now
        humans = s.scalars(select(SeatRow.seat).where(SeatRow.table_id == row.id, SeatRow.player == "human"))
        for seat in humans:
            values = {"table_id": row.id, "seat": seat, "process": START_PROCESS, "connections": 0, "seen_at": now}
            s.execute(insert(PresenceRow).values(**values))

    def _take_seat(
        self, s: Session, row: TableRow, name: str, account: tuple[int, str] | None = None
    ) -> tuple[int, str, bool]:
        """Seat ``name`` at the first free open seat of ``row``, bound to ``account`` if given.

        A seat reserved for ``account`` (an invitation, a rematch) is taken first; a seat reserved for someone else
        is never taken. Returns the seat, its token, and whether the game started.
        """
        if row.status != "waiting":
            why = M("this table has started: no seat is free") if row.status == "live" else M("this table is over")
            raise SeatRefused(409, why)
        if row.rated and account is None:
            raise SeatRefused(401, RATED_LOG_IN)
        if account is not None:
            mine = select(SeatRow.seat).where(SeatRow.table_id == row.id, SeatRow.account_id == account[0])
            if s.scalars(mine).first() is not None:
                raise SeatRefused(409, M("you already hold a seat at this table"))
        open_seats = list(
            s.scalars(
                select(SeatRow).where(SeatRow.table_id == row.id, SeatRow.player == "open").order_by(SeatRow.seat)
            )
        )
        me = account[0] if account is not None else None
        free = [seat for seat in open_seats if seat.invited == me and me is not None]
        free += [seat for seat in open_seats if seat.invited is None and seat.reserved_from is None]
        if not free:
            if open_seats:
                raise SeatRefused(409, M("the free seats of this table are reserved for invited players"))
            raise SeatRefused(409, M("this table is full"))
        seat = free[0]
        token = self.seat(s, row, seat, name, me)
        started = len(open_seats) == 1
        if started:
            self._go_live(s, row)
        self._changed(s, row)
        return seat.seat, token, started

    def seat(self, s: Session, row: TableRow, seat: SeatRow, name: str | None, account_id: int | None) -> str:
        """Give the open ``seat`` of ``row`` to ``name`` (bound to ``account_id``); return its new secret token."""
        token = secrets.token_urlsafe(24)
        seat.player, seat.name, seat.token_hash, seat.joined = "human", name, hash_token(token), self.service.now()
        seat.account_id = account_id
        return token

    def take_seat(self, table_id: str, name: str, account: tuple[int, str] | None = None) -> tuple[int, str, bool]:
        """Take the first free open seat of a waiting table; return ``(seat, token, started)``.

        ``account``: ``(id, username)`` of a logged-in player: the seat is bound to it.

        Raises:
            TableNotFound: no such table.
            SeatRefused: 409, the table is full, started or over, or the account sits there already; 401, a guest at
                a rated table.
        """
        with Session(self.service.engine) as s, s.begin():
            return self._take_seat(s, self._locked(s, table_id), name, account)

    def start(self, table_id: str, seat: int | None, bot: str) -> None:
        """Start a waiting table now, ``bot:<bot>`` in each open seat.

        Args:
            table_id: the table.
            seat: the seat of the creator asking (a seat not taken through ``join``); None: the server (a
                quick-match table's wait is over).
            bot: the bot level (checked against the server's policy).

        Raises:
            TableNotFound: no such table.
            SeatRefused: 403 (not a creator's seat) or 409 (not waiting).
            InvalidParameterError: a bot outside the server's policy.
        """
        with Session(self.service.engine) as s, s.begin():
            row = self._locked(s, table_id)
            self.service.policy.check_bot(bot, row.game, "bot")
            if seat is not None:
                mine = s.get(SeatRow, (table_id, seat))
                if mine is None or mine.player != "human" or mine.joined is not None:
                    raise SeatRefused(403, M("only the table's creator may start it before its seats are taken"))
            if row.status != "waiting":
                raise SeatRefused(409, M("this table is not waiting for players"))
            if row.rated:
                raise SeatRefused(409, M("a rated table starts when logged-in players have taken all its seats"))
            s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.player == "open")
                .values(player=f"bot:{bot}")
            )
            self._go_live(s, row)
            self._changed(s, row)

    def creator_choice(self, table_id: str, seat: int | None) -> tuple[bool, float | None]:
        """What ``seat`` may choose at a waiting table: ``(may start it now, when bots take its seats or None)``.

        ``(False, None)`` unless the table is waiting and ``seat`` is one of its creator's (not taken by ``join``).
        The second value is the quick-match wait's end (None: no bots are due, or the creator chose to wait).
        """
        if seat is None:
            return False, None
        with Session(self.service.engine) as s:
            row = s.get(TableRow, table_id)
            mine = s.get(SeatRow, (table_id, seat))
            if row is None or row.status != "waiting" or mine is None or mine.player != "human" or mine.joined:
                return False, None
            return True, row.fill_at

    def keep_waiting(self, table_id: str, seat: int) -> None:
        """The creator of a quick-match table chooses to wait for players (no bots at the end of the wait).

        Raises:
            TableNotFound: no such table.
            SeatRefused: 403 (not a creator's seat) or 409 (not waiting).
        """
        with Session(self.service.engine) as s, s.begin():
            row = self._locked(s, table_id)
            mine = s.get(SeatRow, (table_id, seat))
            if mine is None or mine.player != "human" or mine.joined is not None:
                raise SeatRefused(403, M("only the table's creator may choose to wait"))
            if row.status != "waiting":
                raise SeatRefused(409, M("this table is not waiting for players"))
            row.fill_at = None
            self._changed(s, row)

    def match_seat(self, match: Match, address: str | None, exclude: Sequence[str] = ()) -> tuple[str, int, str, bool]:
        """A seat at the oldest waiting quick-match table of ``match.game`` and ``match.players``, or at a new one.

        ``exclude``: tables not to join (those the asker holds a seat at already: nobody plays against themselves);
        a logged-in player's own tables are skipped too, and those where an account sits that blocks, or is blocked
        by, this player (:func:`meeple.server.blocks.apart_clause`). A rated match meets only at rated quick-match
        tables (their key ends ``/rated``), which no bots fill.

        Returns:
            ``(table, seat, token, started)``.

        Raises:
            InvalidParameterError: an unknown game or player count.
            QuotaExceeded: a new table is needed and ``address`` (or the server) has as many as allowed.
        """
        n = load_game(match.game, players=match.players).num_players
        key = f"{match.game}/{n}" + ("/rated" if match.rated else "")
        account = match.account
        with Session(self.service.engine) as s, s.begin():
            if self.service.postgres:  # two requests for the same key meet: the second waits for the first's commit
                s.execute(select(func.pg_advisory_xact_lock(_QUICKMATCH_LOCK, quickmatch_lock(key))))
            stmt = (
                select(TableRow)
                .where(TableRow.quickmatch == key, TableRow.status == "waiting", TableRow.id.not_in(list(exclude)))
                .order_by(TableRow.created)
                .limit(1)
            )
            if account is not None:
                mine = select(SeatRow.table_id).where(SeatRow.account_id == account[0])
                stmt = stmt.where(TableRow.id.not_in(mine), apart_clause(account[0]))
            row = s.scalars(stmt.with_for_update() if self.service.postgres else stmt).first()
            if row is not None:
                seat, token, started = self._take_seat(s, row, match.name, account)
                return row.id, seat, token, started
            seats: list[str | SeatRequest] = [SeatRequest(player="human", name=match.name), *["open"] * (n - 1)]
            request = CreateTable(game=match.game, params={"players": n}, seats=seats, rated=match.rated)
            if not match.rated:  # a rated table plays by the server's rated rules (meeple.server.rated)
                request.grace = QUICKMATCH_GRACE
            table_id, tokens = self.service.insert_table(s, request, address, quickmatch=key, account=account)
            return table_id, tokens[0][0], tokens[0][1], False

    def due(self) -> list[str]:
        """Waiting quick-match tables whose wait is over (bots take their open seats; the sweeper asks 4 times a s)."""
        with self.service.engine.connect() as s:
            return list(s.scalars(_FILL_DUE, {"b_now": self.service.now()}))

    def expire(self) -> list[str]:
        """End as ``abandoned`` every table waiting for :attr:`Quotas.waiting_hours`; return their ids.

        A turn-based table (:func:`meeple.server.clock.is_turn_based`) waits at least :data:`TURN_BASED_WAITING`
        seconds: its players come by once a day or so (docs/decisions.md).
        """
        now = self.service.now()
        cutoff = now - self.service.quotas.waiting_hours * 3600
        slow_cutoff = min(cutoff, now - TURN_BASED_WAITING)
        with Session(self.service.engine) as s, s.begin():
            found = s.scalars(select(TableRow).where(TableRow.status == "waiting", TableRow.created < cutoff))
            rows = [r for r in found if not is_turn_based(r.clock) or r.created < slow_cutoff]
            ids = [row.id for row in rows]
            for row in rows:
                row.status, row.fill_at, row.deadline = "abandoned", None, None
                self._changed(s, row)
        for table_id in ids:
            log.info("table %s ended as abandoned: its open seats were not taken", table_id)
        return ids

    # ------------------------------------------------------------------ async: run, then tell the table
    async def announce(self, table_id: str, started: bool) -> None:
        """Tell this process's connections of ``table_id`` what changed; a started table's bots and clock start."""
        self.service.listing_changed()  # after the commit: the lobby's shared rows are read again
        live = self.service.tables.get(table_id)
        if live is not None:
            await self.service.sync(live)
        if started:
            await self.service.evaluate(table_id)

    # ------------------------------------------------------------------ the use cases (both fronts call these)
    async def create_table(self, request: CreateTable, address: str, account: Account | None) -> Created:
        """Create a table (``POST /api/tables``, the lobby's form); a bot or a clock may start at once.

        Logged in, the first ``human`` seat is bound to ``account`` and named by its username.

        Raises:
            QuotaExceeded: past ``--tables-per-minute``, ``--max-tables-per-address`` or ``--max-tables``.
            SeatRefused: 401, a guest asked for a rated table.
            MeepleError: a bad request (game, parameters, seats, clock): 422.
        """
        self.limiter.hit("tables", address, "tables created")
        if request.rated and account is None:
            raise SeatRefused(401, RATED_LOG_IN)
        for seat in request.seats:
            if not isinstance(seat, str) and seat.name:
                await self.guest_name_free(seat.name, account)
        invited = await asyncio.to_thread(self.invitees, request, account)
        table_id, tokens = await asyncio.to_thread(self.service.create, request, address, _bound(account), invited)
        await self.service.evaluate(table_id)  # a bot may have the first move; a clock may start
        if invited:
            accounts = sorted(set(invited.values()))
            await self.hub.invited(table_id, accounts)
            await self.mail_invitations(table_id, request.game, accounts, account)
        return Created(table_id, tokens)

    async def mail_invitations(self, table_id: str, game: str, accounts: list[int], by: Account | None) -> None:
        """E-mail the invited ``accounts`` that are away (no connection in any process), with ``--smtp``."""
        notifier = self.service.notifier
        if notifier is None:
            return
        here = {c.account_id for live in list(self.service.tables.values()) for c in live.conns}
        for account_id in await asyncio.to_thread(self.away, [a for a in accounts if a not in here]):
            notifier.submit(InvitationNotice(table_id, game, account_id, by.username if by is not None else None))

    def away(self, accounts: list[int]) -> list[int]:
        """Those of ``accounts`` with no seat connected in any process (the presence rows, fresh within ``STALE``)."""
        if not accounts:
            return []
        cutoff = self.service.now() - STALE
        stmt = (
            select(SeatRow.account_id)
            .join(PresenceRow, (PresenceRow.table_id == SeatRow.table_id) & (PresenceRow.seat == SeatRow.seat))
            .where(SeatRow.account_id.in_(accounts), PresenceRow.connections > 0, PresenceRow.seen_at > cutoff)
        )
        with self.service.engine.connect() as s:
            connected = set(s.scalars(stmt))
        return [a for a in accounts if a not in connected]

    def invitees(self, request: CreateTable, account: Account | None) -> dict[int, int]:
        """The accounts invited to the seats of ``request``: ``{seat: account id}`` (issue #44, item 2).

        Raises:
            SeatRefused: 401, a guest invites (log in first); 422, no such player, the creator invites themselves or
                one player twice; 409, the invited player blocks the creator (their invitations are refused).
        """
        names = request.seat_invites()
        if not any(names):
            return {}
        if account is None:
            raise SeatRefused(401, M("log in to invite a player by name"))
        invited: dict[int, int] = {}
        for seat, name in enumerate(names):
            if name is None:
                continue
            found = self.seats.accounts.by_username(name) if self.seats.accounts is not None else None
            if found is None:
                raise SeatRefused(422, M("seats: there is no player named {name!r} to invite", name=name))
            if found.id == account.id:
                raise SeatRefused(422, M("seats: you sit at your own table already: invite someone else"))
            if found.id in invited.values():
                raise SeatRefused(422, M("seats: {name} is invited to one seat only", name=found.username))
            if self.blocks.is_blocked(found.id, account.id):
                raise SeatRefused(409, M("{name} does not take invitations from you", name=found.username))
            invited[seat] = found.id
        return invited

    async def join(
        self, table_id: str, name: str | None, account: Account | None, address: str, held: str | None = None
    ) -> Seated:
        """Take the first free open seat of a waiting table (``POST /api/tables/{id}/join``, the lobby's "Join").

        Args:
            table_id: the table.
            name: a guest's name (a logged-in player's is the username).
            account: the logged-in player, if any (the seat is bound to it).
            address: the client's address (quota ``joins``).
            held: a seat token the request presents for this table (one that opens a seat is refused: 409).

        Raises:
            QuotaExceeded: past ``--joins-per-minute``, or too many wrong tokens.
            TableNotFound: no such table (404).
            SeatRefused: 409 (full, started, over, or a seat held already), 401 (a guest at a rated table), 422
                (:class:`NameNeeded`).
        """
        self.limiter.hit("joins", address, "seats taken")
        if held and await self.seats.check_token(table_id, held, address) is not None:
            raise SeatRefused(409, M("you already hold a seat at this table"))
        chosen = _seat_name(name, account)
        await self.guest_name_free(chosen, account)
        seat, token, started = await asyncio.to_thread(self.take_seat, table_id, chosen, _bound(account))
        await self.announce(table_id, started)
        return Seated(table_id, seat, token)

    async def quick_match(
        self,
        game: str,
        players: int,
        rated: bool,
        who: tuple[str | None, Account | None],
        address: str,
        exclude: Sequence[str] = (),
    ) -> Seated:
        """A seat at the oldest waiting quick-match table of ``game`` and ``players``, or at a new one.

        Args:
            game: the game.
            players: the player count.
            rated: a rated table (logged-in players only).
            who: ``(name, account)``: a guest's name, the logged-in player.
            address: the client's address (quotas ``joins``, and those of a new table).
            exclude: tables this browser sits at already (its seat cookies).

        Raises:
            QuotaExceeded: past ``--joins-per-minute`` or the quotas of table creation.
            SeatRefused: 401 (a guest asked for a rated table), 422 (:class:`NameNeeded`).
            MeepleError: an unknown game or player count: 422.
        """
        self.limiter.hit("joins", address, "seats taken")
        name, account = who
        if rated and account is None:
            raise SeatRefused(401, RATED_LOG_IN)
        match = Match(game, players, _seat_name(name, account), rated, _bound(account))
        await self.guest_name_free(match.name, account)
        table_id, seat, token, started = await asyncio.to_thread(self.match_seat, match, address, exclude)
        await self.announce(table_id, started)
        return Seated(table_id, seat, token)

    async def guest_name_free(self, name: str, account: Account | None) -> None:
        """Refuse a guest's ``name`` that is, or looks like, an account's username (issue #44, item 9).

        A logged-in player's own username (or a look-alike of it) is theirs to use.

        Raises:
            SeatRefused: 422, naming the account it looks like.
        """
        accounts = self.seats.accounts
        if accounts is None or (account is not None and skeleton(name) == skeleton(account.username)):
            return
        taken = await asyncio.to_thread(_look_alike, accounts.engine, name)
        if taken is not None:
            message = M(
                "the name {name!r} is, or looks like, the username {username!r} of an account: log in, or choose"
                " another name",
                name=name,
                username=taken,
            )
            raise SeatRefused(422, message)

    async def start_table(self, table_id: str, seat: int, bot: str) -> None:
        """The creator's seat starts its waiting table now, ``bot`` in each open seat (:meth:`start`)."""
        await asyncio.to_thread(self.start, table_id, seat, bot)
        await self.announce(table_id, started=True)

    async def wait_for_players(self, table_id: str, seat: int) -> None:
        """The creator's seat of a quick-match table waits for players: no bots fill it (:meth:`keep_waiting`)."""
        await asyncio.to_thread(self.keep_waiting, table_id, seat)
        await self.announce(table_id, started=False)

    async def new_token(self, table_id: str, seat: int) -> str:
        """A seat's new token (``POST /api/tables/{id}/token``, the page's "new link"); the old one's connections close.

        Raises:
            TableNotFound: no such table.
        """
        return await self.hub.rotate_token(table_id, seat)


def _look_alike(engine: Engine, name: str) -> str | None:
    with Session(engine) as s:
        return look_alike(s, name)


def _bound(account: Account | None) -> tuple[int, str] | None:
    """``(id, username)`` of a logged-in player, the seat's binding (None: a guest)."""
    return (account.id, account.username) if account is not None else None


def _seat_name(name: str | None, account: Account | None) -> str:
    """The name a new seat gets: a logged-in player's username, else the guest's ``name``.

    Raises:
        NameNeeded: a guest without a name.
    """
    if account is not None:
        return account.username
    if not name:
        raise NameNeeded()
    return name
