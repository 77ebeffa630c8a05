"""The table master: one authoritative loop per table, its cache, and the database transactions behind it.

A move is checked (token, turn, version, legality), applied, appended to the event log and committed in one
transaction, and only then broadcast (boardgame.io's ``master.ts``; architecture "Playing online"). The cache of a
table (:class:`~meeple.server.live.LiveTable`) can always be rebuilt from the database: every transaction first
brings it up to the table row's revision, so another process's moves (PostgreSQL) or a restart lose nothing.

Every transaction is retried on a transient database error (``retry.retrying``: a deadlock, a lock timeout, a lost
connection); locks are taken in one order (a table's row, then its presence rows; ``presence``); while the server
itself is degraded (``health``) nobody's time runs out.

Rules: issue "Play online: an authoritative game server" (guarantees); issue "Survive the database and the other
process".
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from sqlalchemy import JSON, Connection, Engine, bindparam, delete, func, insert, select, update
from sqlalchemy.orm import Session, aliased

from meeple.core.errors import IllegalActionError, InvalidActionError, InvalidParameterError
from meeple.core.registry import load_game
from meeple.core.rewards import finish_ranks
from meeple.core.undo import undo_in_turn
from meeple.i18n import M
from meeple.server import clock as clocks
from meeple.server import endings
from meeple.server.bots import BotPool, bot_seed
from meeple.server.db import AccountRow, EventRow, PresenceRow, SeatRow, TableRow, is_postgresql
from meeple.server.health import DATABASE, Health
from meeple.server.live import LiveTable, MoveRefused, SeatState, TableNotFound, TableRefused, check_move
from meeple.server.metrics import Metrics
from meeple.server.notify import Notifier, turn_notice
from meeple.server.offers import rematch_view
from meeple.server.policy import SeatPolicy
from meeple.server.presence import HEARTBEAT, STALE, Presence, close_dead, dead_tables, upsert, write_own
from meeple.server.protocol import CreateTable
from meeple.server.quotas import Quotas, address_key
from meeple.server.rated import ClaimRefused, RatedRules, check_rated, claim_wait
from meeple.server.results import PROVISIONAL_GAMES, record_ranks, seat_ratings
from meeple.server.retry import is_transient, one_line, retrying
from meeple.server.room import make_room
from meeple.server.undo import UNDO, apply_undo, undo_count

log = logging.getLogger("meeple.server")

NOTIFY_CHANNEL = "meeple_tables"
"""PostgreSQL channel on which a process announces that a table changed (payload: the table id)."""
REVOKE_PREFIX = "revoke:"
"""A notification ``revoke:<table> <seat>``: the seat's access was revoked; every process drops its connections."""
ROTATE_PREFIX = "rotate:"
"""A notification ``rotate:<table> <seat>``: the seat's token was replaced; every process drops the seat's
connections that a token or a seat cookie opened (issue #41, item 9)."""
INVITE_PREFIX = "invite:"
"""A notification ``invite:<table> <account,account...>``: those accounts were invited to the table; every process
tells their connections (issue #44, item 2)."""
BLOCKS_PREFIX = "blocks:"
"""A notification ``blocks:<account>``: that account's blocked players changed; every process reads them again for
its connections (their chat lines hidden; issue #44, item 6)."""
BOT_RETRY_MAX = 5.0
"""Seconds at most between two tries of a bot loop that met a database error."""
__all__ = ["HEARTBEAT", "NOTIFY_CHANNEL", "STALE", "UNUSED", "TableService", "hash_token"]


@dataclass(frozen=True)
class TableFilter:
    """The lobby's filters (``GET /api/tables?game=&players=&rated=``): each None keeps every table.

    Attributes:
        game: only tables of this game.
        players: only tables of this many seats.
        rated: only rated tables (True) or only unrated ones (False).
    """

    game: str | None = None
    players: int | None = None
    rated: bool | None = None

    def where(self, query: Any) -> Any:
        """``query`` (a select of :class:`TableRow` columns) keeping only the tables these filters let through."""
        if self.game is not None:
            query = query.where(TableRow.game == self.game)
        if self.rated is not None:
            query = query.where(TableRow.rated == self.rated)
        if self.players is not None:
            seats = select(func.count()).where(SeatRow.table_id == TableRow.id).scalar_subquery()
            query = query.where(seats == self.players)
        return query


LOBBY_SCAN = 1000
"""The newest tables (of the status asked for, before the time asked for) the lobby ranks, at most: its query reads
these rows through an index, however many tables were ever made."""
UNUSED = 600.0
"""Seconds after which a cached table nobody is connected to and no bot is playing leaves this process's memory
(it is rebuilt from the database when asked for again)."""


# The statements of every move, built once (bound parameters ``b_*``): building a statement costs more than running it.
_HEAD = select(
    TableRow.version, TableRow.rev, TableRow.status, TableRow.clock, TableRow.deadline, TableRow.live_at, TableRow.ended
).where(TableRow.id == bindparam("b_id"))
_HEAD_LOCKED = _HEAD.with_for_update()
_EVENTS_BETWEEN = (
    select(EventRow.action, EventRow.seat, EventRow.by_bot, EventRow.at)
    .where(
        EventRow.table_id == bindparam("b_id"),
        EventRow.version > bindparam("b_after"),
        EventRow.version <= bindparam("b_upto"),
    )
    .order_by(EventRow.version)
)
_SEEN_MOVE = select(EventRow.version).where(
    EventRow.table_id == bindparam("b_id"),
    EventRow.seat == bindparam("b_seat"),
    EventRow.move_id == bindparam("b_move_id"),
)
_INSERT_EVENT = insert(EventRow)
_DUE = select(TableRow.id).where(
    TableRow.status == "live", TableRow.deadline.is_not(None), TableRow.deadline <= bindparam("b_now")
)
"""The live tables whose deadline has come (:meth:`TableService.due_tables`: four times a second)."""


def _update_table(status: bool, deadline: bool) -> Any:
    """The table row's update of a change, writing ``status`` and ``deadline`` only if they are named.

    Each indexed column written costs its indexes' updates (SQLite updates an index when its column is set, even to
    the same value): a move changes neither, usually.
    """
    values: dict[str, Any] = {"version": bindparam("b_version"), "rev": bindparam("b_rev")}
    values["clock"] = bindparam("b_clock", type_=JSON)
    if status:
        values["status"] = bindparam("b_status")
    if deadline:
        values["deadline"] = bindparam("b_deadline")
    return update(TableRow).where(TableRow.id == bindparam("b_id")).values(**values)


_UPDATE_TABLE = {
    (status, deadline): _update_table(status, deadline) for status in (False, True) for deadline in (False, True)
}
"""By (status changed, deadline changed)."""
_UPDATE_SEAT = (
    update(SeatRow)
    .where(SeatRow.table_id == bindparam("b_id"), SeatRow.seat == bindparam("b_seat"))
    .values(
        bot_played=bindparam("b_bot_played"),
        reason=bindparam("b_reason"),
        arrived=bindparam("b_arrived"),
        moved=bindparam("b_moved"),
        forfeit=bindparam("b_forfeit"),
    )
)


def _turn_running(clock: dict[str, Any] | None, now: float) -> bool:
    """Whether a clocked turn runs and its time is not up (such a table waits for its move: it is not idle)."""
    deadline = clocks.turn_deadline(clock) if clock is not None else None
    return deadline is not None and deadline > now


def hash_token(token: str) -> str:
    """The stored form of a seat token (SHA-256): the database never holds a token itself."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class RowHead:
    """The columns of a table row that change during play, as read (and locked) by a transaction."""

    version: int
    rev: int
    status: str
    clock: dict[str, Any] | None
    deadline: float | None
    live_at: float | None = None
    ended: str | None = None


class TableService:
    """Creates tables, serialises their moves through the database, and tells listeners what changed.

    Args:
        engine: the SQLAlchemy engine (migrated).
        bots: where bots think.
        process: this process's id (presence rows).
        allow_seed: accept a ``seed`` in ``POST /api/tables`` (tests and tournaments; a seeded deal is known to its
            creator, so a public server leaves this off).
        now: the clock (Unix seconds), replaceable in tests.
        heartbeat_engine: the engine of the heartbeat, with connections of its own so that stuck transactions
            cannot starve it (default: ``engine``).
        policy: the seats and bots a new table may have (:mod:`meeple.server.policy`).
        quotas: live tables per creator address and in all, idle expiry, the lobby's share per address, the
            no-start window.
        rated: the rules of rated tables (:mod:`meeple.server.rated`).
    """

    def __init__(
        self,
        engine: Engine,
        bots: BotPool,
        process: str | None = None,
        allow_seed: bool = False,
        now: Callable[[], float] = time.time,
        heartbeat_engine: Engine | None = None,
        policy: SeatPolicy | None = None,
        quotas: Quotas | None = None,
        rated: RatedRules | None = None,
        metrics: Metrics | None = None,
        notifier: Notifier | None = None,
        on_change: Callable[[LiveTable], Any] | None = None,
    ) -> None:
        self.engine = engine
        self.heartbeat_engine = heartbeat_engine or engine
        self.health = Health(now)
        """This process's faults and outages (``degraded``: a readiness probe answers 503 while it holds)."""
        self.connections = Presence()
        self.bots = bots
        self.process = process or secrets.token_hex(8)
        self.allow_seed = allow_seed
        self.now = now
        self.policy = policy or SeatPolicy()
        self.quotas = quotas or Quotas()
        self.rated = rated or RatedRules()
        self.tables: dict[str, LiveTable] = {}
        self.ended_elsewhere: list[str] = []
        """Tables another table's transaction ended (evicted for room): the sweeper tells their connections."""
        self.postgres = is_postgresql(engine)
        self.on_change = on_change
        """Called (in the event loop) after every committed change of a table (the app's: :func:`hub.broadcast`)."""
        self.metrics = metrics or Metrics()
        """Where moves are counted (the app gives its own: ``/metrics``)."""
        self.notifier = notifier
        """Sends turn e-mails (``meeple serve --smtp``); None: no turn is even looked at for one."""
        self.listing_generation = 0
        """Bumped when this process changes a table as the lobby shows it (:class:`meeple.server.reads.Listing`)."""
        self._listed: weakref.WeakKeyDictionary[LiveTable, tuple[Any, ...]] = weakref.WeakKeyDictionary()

    def listing_changed(self, live: LiveTable | None = None) -> None:
        """Note a change the lobby shows, so that its shared rows are read again.

        ``live``: a table whose status or seats may have changed (nothing is noted if they did not); None: a table
        created, joined, started or ended outside a cached table.
        """
        if live is not None:
            shown = (live.status, tuple((s.player, s.name, s.bot_played, s.connected, s.account) for s in live.seats))
            if self._listed.get(live) == shown:
                return
            self._listed[live] = shown
        self.listing_generation += 1

    @property
    def degraded(self) -> bool:
        """Whether this process cannot reach its database or hear the other processes now (``health``)."""
        return self.health.degraded

    async def _run(self, what: str, call: Callable[..., Any], *args: Any) -> Any:
        """Run the blocking ``call(*args)`` in a thread, retried on transient database errors (``retry``)."""
        return await retrying(lambda: asyncio.to_thread(call, *args), what, lambda: self.health.fail(DATABASE))

    # ------------------------------------------------------------------ creation and lookup
    def create(
        self,
        request: CreateTable,
        address: str | None = None,
        account: tuple[int, str] | None = None,
        invited: dict[int, int] | None = None,
    ) -> tuple[str, list[tuple[int, str]]]:
        """Create a table; return its id and the ``(seat, token)`` of each human seat.

        A table with ``"open"`` seats is created ``waiting``: its game, clocks and bots start when the last open seat
        is taken (:mod:`meeple.server.lobby`).

        Args:
            request: the table asked for.
            address: the client address that asks (None: the operator, on the command line; no quota).
            account: ``(id, username)`` of the logged-in creator: the first ``human`` seat is bound to that account
                and named by its username (:mod:`meeple.server.accounts`).
            invited: ``{seat: account id}``: open seats reserved for invited accounts (issue #44, item 2).

        Raises:
            InvalidParameterError: unknown game, bad parameters, a bad seat or bot spec, a rated table that is not
                one logged-in ``human`` seat and ``open`` seats (the message says which).
            QuotaExceeded: ``address`` has :attr:`Quotas.max_tables_per_address` live tables, or the server
                :attr:`Quotas.max_tables`.
        """
        with Session(self.engine) as s, s.begin():
            created = self.insert_table(s, request, address, account=account, invited=invited)
        self.listing_changed()
        return created

    def insert_table(
        self,
        s: Session,
        request: CreateTable,
        address: str | None,
        quickmatch: str | None = None,
        account: tuple[int, str] | None = None,
        invited: dict[int, int] | None = None,
    ) -> tuple[str, list[tuple[int, str]]]:
        """:meth:`create` inside the transaction ``s``; ``quickmatch`` is the key of a quick-match table."""
        invited = invited or {}
        params = dict(request.params)
        params.setdefault("players", len(request.seats))
        game = load_game(request.game, **params)
        n = game.num_players
        if len(request.seats) != n:
            raise InvalidParameterError(f"seats: {len(request.seats)} seats given for {n} players; give one per player")
        specs, names = request.seat_specs(), request.seat_names()
        if request.rated:
            check_rated(specs, account)
            request = self.rated.apply(request)  # the server's clock, grace and substitute
        else:
            self.policy.check_grace(request.grace)
        self.policy.check_table(specs, request.substitute, request.game)
        bound = specs.index("human") if account is not None and "human" in specs else None
        if bound is not None and account is not None:
            names[bound] = account[1]
        if request.seed is not None and not self.allow_seed:
            raise InvalidParameterError("seed: this server deals its own secret seeds (start it with --allow-seed)")
        seed = request.seed if request.seed is not None else secrets.randbelow(1 << 62)
        table_id = secrets.token_urlsafe(9)
        tokens = [(i, secrets.token_urlsafe(24)) for i, p in enumerate(specs) if p == "human"]
        hashes = {i: hash_token(t) for i, t in tokens}
        now = self.now()
        clock = clocks.new_clock(request.clock, n) if request.clock is not None else None
        creator = address_key(address) if address is not None else None
        if creator is not None and self.quotas.rate_limits:
            evicted = make_room(s, self.quotas, creator, now, NOTIFY_CHANNEL if self.postgres else None)
            self.ended_elsewhere.extend(evicted)
        waiting = "open" in specs
        row = TableRow(
            id=table_id,
            game=request.game,
            params=game.params_dict(),
            seed=seed,
            status="waiting" if waiting else "live",
            version=0,
            rev=0,
            created=now,
            clock=clock,
            grace=request.grace,
            substitute=request.substitute,
            deadline=None if waiting else now,  # looked at at once: a bot may have the first move, a clock may start
            creator=creator,
            quickmatch=quickmatch,
            fill_at=now + self.quotas.quickmatch_wait if quickmatch is not None and not request.rated else None,
            rated=request.rated,
            live_at=None if waiting else now,
        )
        s.add(row)
        s.flush()
        for i, player in enumerate(specs):
            s.add(
                SeatRow(
                    table_id=table_id,
                    seat=i,
                    player=player,
                    token_hash=hashes.get(i),
                    bot_played=False,
                    name=names[i],
                    account_id=account[0] if account is not None and i == bound else None,
                    invited=invited.get(i) if player == "open" else None,
                )
            )
        s.flush()
        return table_id, tokens

    def notify(self, payload: str) -> None:
        """Send ``payload`` to every process on :data:`NOTIFY_CHANNEL` (PostgreSQL; nothing on SQLite)."""
        if self.postgres:
            with self.engine.begin() as s:
                s.execute(select(func.pg_notify(NOTIFY_CHANNEL, payload)))

    def table_facts(self, table_id: str) -> tuple[str, str | None] | None:
        """``(game, the creator's username or None)`` of ``table_id``, or None for no such table (public facts)."""
        with Session(self.engine) as s:
            game = s.scalar(select(TableRow.game).where(TableRow.id == table_id))
            if game is None:
                return None
            by = s.scalar(
                select(AccountRow.username)
                .join(SeatRow, SeatRow.account_id == AccountRow.id)
                .where(SeatRow.table_id == table_id, SeatRow.player == "human", SeatRow.joined.is_(None))
                .order_by(SeatRow.seat)
                .limit(1)
            )
            return str(game), by

    def seat_of_account(self, table_id: str, account_id: int) -> int | None:
        """The seat at ``table_id`` bound to ``account_id`` (the lowest), or None."""
        with Session(self.engine) as s:
            stmt = select(SeatRow.seat).where(SeatRow.table_id == table_id, SeatRow.account_id == account_id)
            return s.scalar(stmt.order_by(SeatRow.seat).limit(1))

    def rotate_token(self, table_id: str, seat: int) -> str:
        """Give ``seat`` a new secret token and return it; the old one stops opening the seat.

        With PostgreSQL every process is told (``rotate:<table> <seat>``) to drop the seat's connections that a token
        or a seat cookie opened (:meth:`meeple.server.hub.Hub.rotate_token` drops this process's).
        """
        token = secrets.token_urlsafe(24)
        with Session(self.engine) as s, s.begin():
            s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(token_hash=hash_token(token))
            )
            if self.postgres:
                s.execute(select(func.pg_notify(NOTIFY_CHANNEL, f"{ROTATE_PREFIX}{table_id} {seat}")))
        return token

    def revoke_seats(self, seats: list[tuple[str, int]]) -> None:
        """Give each ``(table, seat)`` a new token nobody is told (the old tokens and cookies stop opening it).

        With PostgreSQL every process is told (``revoke:<table> <seat>``) to drop the seat's connections. The
        account bound to the seat still opens it with a session. Used when an account's sessions end (issue #34).
        """
        if not seats:
            return
        with Session(self.engine) as s, s.begin():
            for table_id, seat in seats:
                s.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                    .values(token_hash=hash_token(secrets.token_urlsafe(24)))
                )
                if self.postgres:
                    s.execute(select(func.pg_notify(NOTIFY_CHANNEL, f"{REVOKE_PREFIX}{table_id} {seat}")))

    def seat_of_token(self, table_id: str, token: str) -> int | None:
        """The seat whose token is ``token`` at ``table_id``, or None (compared by hash, in constant time)."""
        wanted = hash_token(token)
        with Session(self.engine) as s:
            rows = s.scalars(select(SeatRow).where(SeatRow.table_id == table_id, SeatRow.token_hash.is_not(None)))
            for row in rows:
                if row.token_hash is not None and secrets.compare_digest(row.token_hash, wanted):
                    return row.seat
        return None

    def list_rows(
        self,
        limit: int = 200,
        before: float | None = None,
        status: str | None = None,
        which: TableFilter | None = None,
    ) -> list[tuple[TableRow, list[SeatRow], dict[int, bool], dict[int, str]]]:
        """The newest tables with their seats, which seats are connected, and the usernames of the bound seats.

        At most :attr:`Quotas.lobby_per_address` tables of one creator address are listed (the newest), so that
        one address cannot flood the others out of view; ``before`` (Unix seconds) pages back; ``status`` keeps
        only the tables of that status (``waiting``: those with free open seats); ``which`` keeps those of a game,
        a player count, rated or not (issue #44, item 7). Only the :data:`LOBBY_SCAN` newest such tables are
        ranked (read through ``ix_tables_created`` or ``ix_tables_status_created``): the cost of a page does not
        grow with the tables ever made.
        """
        now = self.now()
        with Session(self.engine) as s:
            recent = select(TableRow.id, TableRow.created, TableRow.creator)
            if before is not None:
                recent = recent.where(TableRow.created < before)
            if status is not None:
                recent = recent.where(TableRow.status == status)
            if which is not None:
                recent = which.where(recent)
            newest = recent.order_by(TableRow.created.desc()).limit(LOBBY_SCAN).subquery()
            rank = (
                func.row_number()
                .over(partition_by=func.coalesce(newest.c.creator, newest.c.id), order_by=newest.c.created.desc())
                .label("rank")
            )
            sub = select(newest.c.id, newest.c.created, rank).subquery()
            shown = (
                select(sub.c.id)
                .where(sub.c.rank <= self.quotas.lobby_per_address)
                .order_by(sub.c.created.desc())
                .limit(limit)
            )
            ids = list(s.scalars(shown))
            rows = list(s.scalars(select(TableRow).where(TableRow.id.in_(ids)).order_by(TableRow.created.desc())))
            seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
            usernames: dict[str, dict[int, str]] = {i: {} for i in ids}
            listed = select(SeatRow, AccountRow.username).outerjoin(AccountRow, AccountRow.id == SeatRow.account_id)
            for seat, username in s.execute(listed.where(SeatRow.table_id.in_(ids)).order_by(SeatRow.seat)):
                seats[seat.table_id].append(seat)
                if username is not None:
                    usernames[seat.table_id][seat.seat] = username
            online: dict[str, dict[int, bool]] = {i: {} for i in ids}
            cutoff = self.health.presence_cutoff(now, STALE)
            for p in s.scalars(select(PresenceRow).where(PresenceRow.table_id.in_(ids))):
                if p.connections > 0 and p.seen_at > cutoff:
                    online[p.table_id][p.seat] = True
            s.expunge_all()
        return [(r, seats[r.id], online[r.id], usernames[r.id]) for r in rows]

    async def read(self, table_id: str) -> LiveTable:
        """The table for a reader who does not stay (an HTTP request), as :meth:`get` gives it.

        A finished or abandoned table that is not in memory already is read from the database and not kept there
        (a WebSocket's :meth:`get` keeps it).

        Raises:
            TableNotFound: no such table.
        """
        if table_id in self.tables:
            return await self.get(table_id)
        live: LiveTable = await self._run(f"load of table {table_id}", self._load, table_id)
        if live.over:
            return live
        live = self.tables.setdefault(table_id, live)
        live.used = self.now()
        return live

    async def get(self, table_id: str) -> LiveTable:
        """The table, loaded (or brought up to date) from the database.

        Raises:
            TableNotFound: no such table.
        """
        live = self.tables.get(table_id)
        if live is None:
            live = await self._run(f"load of table {table_id}", self._load, table_id)
            live = self.tables.setdefault(table_id, live)
            live.used = self.now()
            return live
        live.used = self.now()
        async with live.lock:
            await self._run(f"read of table {table_id}", self._read_sync, live)
        return live

    def _load(self, table_id: str) -> LiveTable:
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            if row is None:
                raise TableNotFound(f"no table {table_id!r}")
            session.expunge(row)
        try:
            game = load_game(row.game, **row.params)  # the parameters' ranges, before anything is built from them
        except InvalidParameterError as exc:
            self._refuse_stored(table_id, exc)
        with self.engine.connect() as s:
            live = LiveTable(
                id=row.id,
                game=row.game,
                params=dict(row.params),
                seed=row.seed,
                created=row.created,
                grace=row.grace,
                substitute=row.substitute,
                state=game.new_initial_state(row.seed),
                seats=[],
                stale=True,
                health=self.health,
                rated=bool(row.rated),
                creator=row.creator,
                ended_at=row.ended_at,
                no_start=self.quotas.no_start_minutes * 60 if row.creator is not None else None,
            )
            self._sync(s, live, self._lock_row(s, table_id, lock=False))
        return live

    def _refuse_stored(self, table_id: str, error: InvalidParameterError) -> NoReturn:
        """End a stored table whose parameters are refused (stored by an older version) as ``abandoned``; raise.

        Its row, seats and moves stay (nothing is deleted); it is no longer due, so no process loads it again.

        Raises:
            TableRefused: always, saying why.
        """
        with self.engine.begin() as conn:
            ended = conn.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.status.in_(("live", "waiting")))
                .values(status="abandoned", deadline=None, rev=TableRow.rev + 1)
            ).rowcount
            if ended and self.postgres:
                conn.execute(select(func.pg_notify(NOTIFY_CHANNEL, table_id)))
        if ended:
            log.warning("table %s ended as abandoned: its stored parameters are refused (%s)", table_id, error)
        raise TableRefused(f"table {table_id!r} cannot be loaded: {error}")

    # ------------------------------------------------------------------ catching up with the database
    def _read_sync(self, live: LiveTable) -> None:
        with self.engine.connect() as s:
            self._sync(s, live, self._lock_row(s, live.id, lock=False))

    def _sync(self, s: Connection, live: LiveTable, row: RowHead) -> None:
        """Bring ``live`` up to ``row``: replay new events, reload seats, clock and presence if the row changed."""
        if live.stale:
            live.state = load_game(live.game, **live.params).new_initial_state(live.seed)
            live.version = 0
            live.logs.clear()
            live.by_bot, live.takebacks = [], []
        if row.version > live.version:
            # bounded by the row's version: a read without the row lock may see later commits here
            events = s.execute(_EVENTS_BETWEEN, {"b_id": live.id, "b_after": live.version, "b_upto": row.version})
            for action, seat, by_bot, at in events:
                live.moved_at = at
                count = undo_count(action)
                if count is not None:  # an undo: the last ``count`` actions are taken back (server/undo.py)
                    apply_undo(live, seat, count)
                    continue
                live.state.apply_action(action)
                live.by_bot.append(bool(by_bot))
            live.version = row.version
        if live.stale or row.rev != live.rev:
            self._sync_seats(s, live)
            if row.status in ("finished", "abandoned", "aborted"):  # its rematch, if one was offered
                live.rematch = rematch_view(s, live.id)
            live.clock = row.clock
            live.status = row.status
            live.live_at, live.ended = row.live_at, row.ended
            live.rev = row.rev
        live.stale = False

    def _sync_seats(self, s: Connection, live: LiveTable) -> None:
        invitee = aliased(AccountRow)
        rows = list(
            s.execute(
                select(
                    invitee.username.label("invited"),
                    SeatRow.seat,
                    SeatRow.player,
                    SeatRow.bot_played,
                    SeatRow.reason,
                    SeatRow.name,
                    AccountRow.username,
                    SeatRow.arrived,
                    SeatRow.moved,
                    SeatRow.forfeit,
                    SeatRow.account_id,
                )
                .outerjoin(AccountRow, AccountRow.id == SeatRow.account_id)
                .outerjoin(invitee, invitee.id == SeatRow.invited)
                .where(SeatRow.table_id == live.id)
                .order_by(SeatRow.seat)
            )
        )
        presence = list(
            s.execute(
                select(PresenceRow.seat, PresenceRow.connections, PresenceRow.seen_at).where(
                    PresenceRow.table_id == live.id
                )
            )
        )
        now = self.now()
        cutoff = self.health.presence_cutoff(now, STALE)
        ratings = seat_ratings(s, live.game, [r.account_id for r in rows]) if live.rated else [None] * len(rows)
        seats = []
        for r, rating in zip(rows, ratings, strict=True):
            mine = [p for p in presence if p.seat == r.seat]
            connected = any(p.connections > 0 and p.seen_at > cutoff for p in mine)
            away = max([p.seen_at for p in mine], default=live.created)
            seat = SeatState(
                r.player,
                r.bot_played,
                r.reason,
                connected,
                away,
                r.name,
                r.username,
                r.arrived,
                r.moved,
                r.forfeit,
                invited=r.invited if r.player == "open" else None,
            )
            if rating is not None:
                seat.rating, seat.provisional = rating[0], rating[1] < PROVISIONAL_GAMES
            seats.append(seat)
        live.seats = seats

    def _lock_row(self, s: Connection, table_id: str, lock: bool = True) -> RowHead:
        """The table row's changing columns, locked for this transaction unless ``lock`` is False.

        PostgreSQL takes a row lock; SQLite's ``BEGIN IMMEDIATE`` holds the database's write lock already. Core
        statements, not the ORM: this runs for every move.
        """
        stmt = _HEAD_LOCKED if lock and self.postgres else _HEAD
        found = s.execute(stmt, {"b_id": table_id}).one_or_none()
        if found is None:
            raise TableNotFound(f"no table {table_id!r}")
        return RowHead(*found)

    def _finish_change(self, s: Connection, live: LiveTable, row: RowHead) -> None:
        """Write the cache's version, changed seats, clock, status and deadline, bump the revision, notify others."""
        if self.notifier is not None and (notice := turn_notice(live)) is not None:
            live.notices.append(notice)  # decided in this transaction (clock["mailed"]); sent once it committed
        rev = row.rev + 1
        deadline = live.deadline(self.now())
        moved = (live.status != row.status, deadline != row.deadline)  # the row holds the database's values
        values = {"b_version": live.version, "b_rev": rev, "b_status": live.status, "b_clock": live.clock}
        s.execute(_UPDATE_TABLE[moved], {"b_id": live.id, "b_deadline": deadline, **values})
        for i in sorted(live.seats_dirty):
            seat = live.seats[i]
            values = {"b_bot_played": seat.bot_played, "b_reason": seat.reason, "b_forfeit": seat.forfeit}
            s.execute(
                _UPDATE_SEAT, {"b_id": live.id, "b_seat": i, "b_arrived": seat.arrived, "b_moved": seat.moved, **values}
            )
        live.seats_dirty.clear()
        if self.postgres:
            s.execute(select(func.pg_notify(NOTIFY_CHANNEL, live.id)))
        row.rev = rev
        row.deadline = deadline
        row.status = live.status
        live.rev = rev

    def _guarded(self, live: LiveTable, work: Callable[[Connection, RowHead], Any]) -> Any:
        """Run ``work`` in one locked transaction; if anything fails, the cache is rebuilt at its next use.

        A stale cache is rebuilt first, outside the transaction: replaying a long log must not hold the table's lock
        (nor run into ``idle_in_transaction_session_timeout``).
        """
        if live.stale:
            self._read_sync(live)
        try:
            with self.engine.begin() as s:
                row = self._lock_row(s, live.id)
                self._sync(s, live, row)
                return work(s, row)
        except (MoveRefused, ClaimRefused):
            raise  # refused before anything changed
        except BaseException:
            live.notices.clear()  # the turn's decision was rolled back with it
            live.stale = True  # the cache may hold what was rolled back: rebuild it from the database now
            with contextlib.suppress(Exception):
                self._read_sync(live)
            raise

    # ------------------------------------------------------------------ moves
    def _tx_move(
        self,
        live: LiveTable,
        seat: int,
        action: int | dict[str, Any],
        version: int,
        move_id: str | None,
        by_bot: bool,
    ) -> bool:
        """The move transaction; returns False for a repeated ``move_id`` (nothing applied), True once applied.

        ``version`` is the sender's view version (a human) or the table's version (a bot).
        """

        def work(s: Connection, row: RowHead) -> bool:
            if move_id is not None:
                seen = s.scalar(_SEEN_MOVE, {"b_id": live.id, "b_seat": seat, "b_move_id": move_id})
                if seen is not None:
                    return False
            check_move(live, seat, version, by_bot)
            try:
                live.state.apply_action(action, player=seat)
            except (IllegalActionError, InvalidActionError) as exc:
                raise MoveRefused("illegal_action", exc.message) from None
            now = self.now()
            applied = live.state.history[-1][1]
            live.by_bot.append(by_bot)
            live.version += 1
            live.moved_at = now
            event = {"version": live.version, "seat": seat, "action": applied.to_json(), "move_id": move_id}
            s.execute(_INSERT_EVENT, {"table_id": live.id, "by_bot": by_bot, "at": now, **event})
            if not by_bot:
                endings.arrive(live, seat, now, moved=True)
                if live.seats[seat].bot_played:
                    self._return_seat(live, seat, now)
            if live.state.is_terminal():
                live.status = "finished"
                # in this transaction: the ratings change exactly when the game is seen to end (forfeits last)
                finish = finish_ranks(live.state)
                endings.settle(s, live, now, finish)
                record_ranks(s, live, finish)
            if live.clock is not None:
                clocks.pass_turn(live.clock, live.clocked_seat(), now)
            self._finish_change(s, live, row)
            return True

        started = time.perf_counter()
        applied = bool(self._guarded(live, work))
        if applied:
            self.metrics.move(live.game, by_bot, time.perf_counter() - started)  # committed: counted
        return applied

    def _return_seat(self, live: LiveTable, seat: int, now: float) -> None:
        """The human of a bot-played seat takes it back (a move, a ``return`` message, or a reconnection)."""
        state = live.seats[seat]
        state.bot_played, state.reason = False, None
        live.seats_dirty.add(seat)
        if live.clock is not None:
            clocks.refill_on_return(live.clock, seat)
            clocks.pass_turn(live.clock, live.clocked_seat(), now)

    async def submit(
        self,
        live: LiveTable,
        seat: int,
        action: int | dict[str, Any],
        version: int,
        move_id: str | None = None,
        by_bot: bool = False,
    ) -> bool:
        """Check, apply, log and commit one move, then announce the change (False: a repeated ``move_id``).

        Raises:
            MoveRefused: ``game_over``, ``not_your_turn``, ``stale_version`` or ``illegal_action``; nothing changed.
        """
        async with live.lock:
            what = f"move at table {live.id}"
            applied = await self._run(what, self._tx_move, live, seat, action, version, move_id, by_bot)
            if applied:
                self._changed(live)
        return bool(applied)

    async def undo(self, live: LiveTable, seat: int, version: int, move_id: str | None = None) -> bool:
        """Take back ``seat``'s moves to its previous decision of the running turn; announce it (False: repeated id).

        The engine decides (:func:`meeple.core.undo.undo_in_turn`: within the seat's own turn, never across a
        reveal), outside the transaction; the transaction then writes the undo event ``{"undo": k}`` if the table
        has not moved meanwhile (server/undo.py).

        Raises:
            MoveRefused: ``not_your_turn``, ``stale_version``, ``game_over``, ``not_started``, or ``cannot_undo``
                with the engine's reason; nothing changed.
        """
        async with live.lock:
            await self._run(f"read of table {live.id}", self._read_sync, live)
            if move_id is not None and await self._run(f"read of table {live.id}", self._seen, live.id, seat, move_id):
                return False  # a resent undo already applied: acknowledged again, not applied twice
            check_move(live, seat, version, False)
            at = live.version
            earlier, reason = await asyncio.to_thread(undo_in_turn, live.state, seat, list(live.by_bot))
            if earlier is None:
                raise MoveRefused("cannot_undo", reason or "")

            def work(s: Connection, row: RowHead) -> bool:
                if move_id is not None and s.scalar(
                    _SEEN_MOVE, {"b_id": live.id, "b_seat": seat, "b_move_id": move_id}
                ):
                    return False
                if live.version != at:
                    raise MoveRefused("stale_version", M("the table moved on while your undo was checked"))
                count = len(live.state.history) - len(earlier.history)
                live.version += 1
                live.moved_at = now = self.now()  # a take-back is a move of its seat: the table is not idle
                event = {"version": live.version, "seat": seat, "action": {UNDO: count}, "move_id": move_id}
                s.execute(_INSERT_EVENT, {"table_id": live.id, "by_bot": False, "at": now, **event})
                apply_undo(live, seat, count, earlier)
                self._finish_change(s, live, row)
                return True

            applied = await self._run(f"undo at table {live.id}", self._guarded, live, work)
            if applied:
                self._changed(live)
        return bool(applied)

    def _seen(self, table_id: str, seat: int, move_id: str) -> bool:
        """Whether ``seat``'s message ``move_id`` (a move or an undo) is in the table's log already."""
        with self.engine.connect() as s:
            return s.scalar(_SEEN_MOVE, {"b_id": table_id, "b_seat": seat, "b_move_id": move_id}) is not None

    async def take_back(self, live: LiveTable, seat: int) -> None:
        """A human takes their bot-played seat back (the ``return`` message); nothing happens if it is not."""

        def work(s: Connection, row: RowHead) -> bool:
            if not live.seats[seat].bot_played or live.seats[seat].resigned:
                return False
            self._return_seat(live, seat, self.now())
            self._finish_change(s, live, row)
            return True

        async with live.lock:
            changed = await self._run(f"return at table {live.id}", self._guarded, live, work)
            if changed:
                self._changed(live)

    # ------------------------------------------------------------------ presence
    async def presence(self, live: LiveTable, seat: int, delta: int) -> None:
        """One connection of ``seat`` opened (+1) or closed (-1) in this process; an away seat's human returns.

        The count changes in memory at once; if the database cannot be written, the heartbeat writes it later.

        Raises:
            Exception: the database error, once retries gave up (the count is still changed in memory).
        """
        self.connections.change(live.id, seat, delta)
        key = (live.id, seat)

        def work(s: Connection, row: RowHead) -> int:
            now = self.now()
            count = self.connections.counts.get(key, 0)
            upsert(s, self.process, live.id, seat, count, now)
            self._sync_seats(s, live)
            if delta > 0:
                endings.arrive(live, seat, now)  # came: from now on its clock and grace may bring the substitute
            if delta > 0 and live.seats[seat].bot_played and live.seats[seat].reason == "away":
                self._return_seat(live, seat, now)
            self._finish_change(s, live, row)
            return count

        async with live.lock:
            count = await self._run(f"presence at table {live.id}", self._guarded, live, work)
            if self.connections.counts.get(key, 0) == count:
                self.connections.written(live.id, seat)
            self._changed(live)

    def heartbeat(self) -> list[str]:
        """Write this process's presence; close the rows of dead processes; return the tables that changed.

        Runs on :attr:`heartbeat_engine`, in a thread of its own (app.py). Another process's rows are judged only
        once this process has reached the database for ``health.SETTLE`` seconds (``health.presence_cutoff``).
        """
        now = self.now()
        write_own(self.heartbeat_engine, self.connections, self.process, now)
        if self.health.settle_until() is not None:
            return []
        cutoff = self.health.presence_cutoff(now, STALE)
        changed = []
        for table_id in dead_tables(self.heartbeat_engine, self.process, cutoff):
            if close_dead(self.heartbeat_engine, table_id, self.process, cutoff, now, NOTIFY_CHANNEL):
                changed.append(table_id)
        return changed

    def forget_presence(self) -> None:
        """Remove this process's presence rows (at shutdown: its connections are gone)."""
        with Session(self.engine) as s, s.begin():
            s.execute(delete(PresenceRow).where(PresenceRow.process == self.process))

    # ------------------------------------------------------------------ clocks, grace periods and bots
    def due_tables(self) -> list[str]:
        """Live tables whose deadline has come (a prebuilt Core statement: the sweeper asks four times a second)."""
        with self.engine.connect() as s:
            return list(s.scalars(_DUE, {"b_now": self.now()}))

    def expire_idle(self) -> list[str]:
        """End as ``abandoned`` every live table nobody has moved at for :attr:`Quotas.idle_days`; return their ids.

        An abandoned game is over: no move is accepted, its bots stop, and its record and replay open. A table whose
        running turn still has time on its clock is not idle: a turn-based table waits for its move (up to 14 days)
        however long ago the last one was, and its clock's end brings the substitute's move.
        """
        now = self.now()
        cutoff = now - self.quotas.idle_days * 86_400
        last_move = select(func.max(EventRow.at)).where(EventRow.table_id == TableRow.id).scalar_subquery()
        idle = (TableRow.status == "live", func.coalesce(last_move, TableRow.created) < cutoff)
        with Session(self.engine) as s:
            found = s.execute(select(TableRow.id, TableRow.clock).where(*idle)).all()
        ids = sorted(t for t, clock in found if not _turn_running(clock, now))
        for table_id in ids:  # one short transaction each, in id order like every multi-table lock (no deadlock)
            with Session(self.engine) as s, s.begin():
                s.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id, TableRow.status == "live")
                    .values(status="abandoned", deadline=None, rev=TableRow.rev + 1)
                )
                if self.postgres:
                    s.execute(select(func.pg_notify(NOTIFY_CHANNEL, table_id)))
            log.info("table %s ended as abandoned: no move for %g days", table_id, self.quotas.idle_days)
        if ids:
            self.listing_changed()
        return ids

    def evict_unused(self) -> list[str]:
        """Drop from this process's memory the tables nobody uses; return their ids.

        A table goes when it is over or unused for :data:`UNUSED` seconds, with no connection, no bot thinking and
        no transaction under way (the database has it all: it is rebuilt when asked for again).
        """
        now = self.now()
        gone = []
        for table_id, live in list(self.tables.items()):
            busy = live.conns or live.lock.locked() or (live.bot_task is not None and not live.bot_task.done())
            if not busy and (live.status != "live" or now - live.used > UNUSED):
                del self.tables[table_id]
                gone.append(table_id)
        return gone

    def wake_all(self) -> None:
        """Make every live table due now: bots to restart, clocks and grace periods to check.

        At start-up, and when the database or LISTEN is back. The rows are locked in id order, the order of every
        multi-row lock.
        """
        live = select(TableRow.id).where(TableRow.status == "live").order_by(TableRow.id)
        if self.postgres:
            live = live.with_for_update()
        with Session(self.engine) as s, s.begin():
            s.execute(update(TableRow).where(TableRow.id.in_(live.scalar_subquery())).values(deadline=self.now()))

    async def credit_outage(self, start: float, end: float) -> None:
        """Credit the running turn of every clocked table this process holds with an outage ``[start, end]``."""
        for live in list(self.tables.values()):
            if live.clock is None or live.status != "live":
                continue

            def work(s: Connection, row: RowHead, live: LiveTable = live) -> bool:
                if live.clock is None or not clocks.credit_outage(live.clock, start, end):
                    return False
                self._finish_change(s, live, row)
                return True

            async with live.lock:
                if await self._run(f"clock credit at table {live.id}", self._guarded, live, work):
                    self._changed(live)

    def _tx_evaluate(self, live: LiveTable) -> bool:
        """Abort a table whose seat to move never came; replace a timed-out or away human by the substitute bot.

        Resets the deadline. True if something changed.
        """

        def work(s: Connection, row: RowHead) -> bool:
            now = self.now()
            changed = any([endings.arrive(live, i, now) for i, seat in enumerate(live.seats) if seat.connected])
            settled = self.health.settle_until() is None  # no replacement while the server itself recovers
            if live.status == "live" and settled:
                if (at := live.no_show_at(now)) is not None and at <= now:
                    endings.abort(s, live, "no_show", now)
                    log.info("table %s aborted: seat %s never came to the table", live.id, live.mover())
                    changed = True
                else:
                    changed = self._replace(s, live, now) or changed
            if live.clock is not None and live.clock["turn_seat"] != live.clocked_seat():
                clocks.pass_turn(live.clock, live.clocked_seat(), now)  # the first turn of a new table
                changed = True
            if changed or row.deadline != live.deadline(now):
                self._finish_change(s, live, row)
            return changed

        return bool(self._guarded(live, work))

    def _replace(self, s: Connection, live: LiveTable, now: float) -> bool:
        """The substitute takes the seat to move if its clock ran out or its human is away past ``grace``.

        Never a seat whose human never came. At a rated table the seat forfeits (:func:`endings.forfeit`).
        """
        m = live.mover()
        if m is None or live.bot_to_move() is not None:
            return False
        seat = live.seats[m]
        if not seat.is_human or seat.arrived is None:
            return False
        clock_out = live.clock is not None and (d := clocks.turn_deadline(live.clock)) is not None and d <= now
        away_out = live.grace is not None and not seat.connected and live.away_until(m) <= now
        if not (clock_out or away_out):
            return False
        reason = "time" if clock_out else "away"
        self._substitute(live, m, reason, now)
        if endings.forfeit(s, live, m, reason, now):
            log.info("table %s aborted: rated seat %s left before its first move", live.id, m)
        return True

    def _substitute(self, live: LiveTable, m: int, reason: str, now: float) -> None:
        """The substitute bot plays seat ``m`` from now on (``reason``: ``time`` or ``away``)."""
        seat = live.seats[m]
        seat.bot_played, seat.reason = True, reason
        log.info("table %s: seat %s is played by the substitute (%s)", live.id, m, seat.reason)
        live.seats_dirty.add(m)
        if live.clock is not None:
            if reason == "time":
                clocks.time_out(live.clock)
            else:
                clocks.pass_turn(live.clock, live.clocked_seat(), now)

    async def claim(self, live: LiveTable, seat: int) -> int:
        """``seat`` claims against the seat to move of a rated table, away too long: that seat forfeits now.

        Returns the forfeited seat (the table is aborted if it had not moved yet: ``live.status``).

        Raises:
            ClaimRefused: the claim cannot be made now (:func:`meeple.server.rated.claim_wait`).
        """

        def work(s: Connection, row: RowHead) -> int:
            now = self.now()
            mover = claim_wait(live, seat, self.rated, now)
            self._substitute(live, mover, "away", now)
            if endings.forfeit(s, live, mover, "claim", now):
                log.info("table %s aborted: a claim against seat %s, which never moved", live.id, mover)
            self._finish_change(s, live, row)
            return mover

        async with live.lock:
            forfeited = await self._run(f"claim at table {live.id}", self._guarded, live, work)
            self._changed(live)
        return int(forfeited)

    async def resign(self, live: LiveTable, seat: int) -> str:
        """``seat`` resigns: it is out, played by the substitute to the end (issue #44, item 4).

        At two players the other wins at once: the table ends ``finished`` (``ended: "resigned"``). At a rated table
        the seat ranks last (:func:`endings.forfeit`, reason ``resign``), and before its own first move the table is
        aborted instead (``no_move``: nobody rated). Returns the table's status afterwards.

        Raises:
            MoveRefused: ``game_over`` (the table is not live) or ``resigned`` (the seat resigned already, or is no
                human's).
        """

        def work(s: Connection, row: RowHead) -> str:
            now = self.now()
            state = live.seats[seat]
            if live.status != "live":
                raise MoveRefused("game_over", M("the game is not under way: there is nothing to resign"))
            if not state.is_human or state.resigned:
                raise MoveRefused("resigned", M("this seat has resigned already"))
            if not endings.forfeit(s, live, seat, "resign", now):  # True: a rated seat that never moved aborted it
                self._substitute(live, seat, "resign", now)
                if len(live.seats) == 2:
                    live.status, live.ended, live.ended_at = "finished", "resigned", now
                    s.execute(update(TableRow).where(TableRow.id == live.id).values(ended="resigned", ended_at=now))
            log.info("table %s: seat %s resigned (%s)", live.id, seat, live.status)
            self._finish_change(s, live, row)
            return live.status

        async with live.lock:
            status = await self._run(f"resignation at table {live.id}", self._guarded, live, work)
            self._changed(live)
        return str(status)

    async def evaluate(self, table_id: str) -> None:
        """Look at a due table: clocks, grace periods, and a bot whose move is owed."""
        try:
            live = await self.get(table_id)
        except TableNotFound:
            return
        async with live.lock:
            changed = await self._run(f"evaluation of table {live.id}", self._tx_evaluate, live)
            if changed:
                self._changed(live)
            else:
                self.start_bot(live)

    async def sync(self, live: LiveTable) -> None:
        """Bring a cached table up to the database (another process changed it) and announce it."""
        async with live.lock:
            await self._run(f"read of table {live.id}", self._read_sync, live)
            self.listing_changed(live)
            if self.on_change is not None:
                self.on_change(live)

    async def announce_ended(self) -> None:
        """Tell the connections of the tables another transaction aborted (to make room) that they ended."""
        ended, self.ended_elsewhere = self.ended_elsewhere, []
        for table_id in ended:
            live = self.tables.get(table_id)
            if live is not None:
                await self.sync(live)

    def _changed(self, live: LiveTable) -> None:
        """Announce a committed change; called with ``live.lock`` held, so frames see one consistent state."""
        self.listing_changed(live)
        if self.on_change is not None:
            self.on_change(live)
        self._mail(live)
        self.start_bot(live)

    def _mail(self, live: LiveTable) -> None:
        """Hand the turn e-mails the committed transaction decided to the notifier (it queues; never blocks)."""
        notices, live.notices = live.notices, []
        if self.notifier is not None:
            for notice in notices:
                self.notifier.submit(notice)

    def start_bot(self, live: LiveTable) -> None:
        """Start the table's bot loop if a bot must move and none is thinking in this process."""
        if live.bot_to_move() is not None and (live.bot_task is None or live.bot_task.done()):
            live.bot_task = asyncio.get_running_loop().create_task(self._bot_loop(live))

    async def _bot_loop(self, live: LiveTable) -> None:
        """Let bots play while a bot is to move (each move checked and committed like a human's).

        A database error (after the transaction's own retries) does not end the loop: it waits (0.5 s doubling to
        :data:`BOT_RETRY_MAX`) and tries again. A bot that raises ends it; the watchdog (``BOT_WATCHDOG``) retries.
        """
        failures = 0
        while True:
            try:
                if not await self._bot_step(live):
                    return
                failures = 0
            except Exception as exc:
                if not is_transient(exc):
                    raise
                failures += 1
                wait = min(BOT_RETRY_MAX, 0.25 * 2**failures)
                log.warning("bot loop of table %s: %s; trying again in %.1f s", live.id, one_line(exc), wait)
                await asyncio.sleep(wait)

    async def _bot_step(self, live: LiveTable) -> bool:
        """One bot move at ``live`` (False: no bot is to move, or the bot failed).

        While the bot CPU budget of the table's creator address is used up, the move waits until it has room
        (``live.bots_wait`` tells the table).
        """
        if await self._budget_wait(live):
            return True
        async with live.lock:
            await self._run(f"read of table {live.id}", self._read_sync, live)
            spec = live.bot_to_move()
            if spec is None:
                return False
            seat = live.mover()
            assert seat is not None
            version = live.version
            snapshot = live.state.to_json()
        try:
            action = await self.bots.choose(
                live.game, live.params, snapshot, seat, spec, bot_seed(live.seed, seat, version), live.creator
            )
        except Exception:  # noqa: BLE001 - a failing bot must not kill the table; the watchdog retries
            log.exception("bot %s failed at table %s version %s", spec, live.id, version)
            return False
        try:
            async with live.lock:
                what = f"bot move at table {live.id}"
                applied = await self._run(what, self._tx_move, live, seat, action, version, None, True)
                if applied:
                    self.listing_changed(live)
                if applied and self.on_change is not None:
                    self.on_change(live)
                self._mail(live)
        except MoveRefused as exc:
            log.debug("bot move at table %s dropped: %s", live.id, exc)
        return True

    async def _budget_wait(self, live: LiveTable) -> bool:
        """Wait while the bot CPU budget of ``live``'s creator is used up; True if it waited (look again after).

        The table is told when its bots start and stop waiting (``bots_wait`` in its frames), and its deadline moves
        past the wait so that no other process asks its bot meanwhile.
        """
        wait = self.bots.budget.wait(live.creator)
        if wait <= 0 and live.bots_wait is None:
            return False
        until = self.now() + wait if wait > 0 else None
        if until is None or live.bots_wait is None or abs(until - live.bots_wait) > 1:  # starts, ends, moves: tell
            live.bots_wait = until

            def work(s: Connection, row: RowHead) -> bool:
                self._finish_change(s, live, row)
                return True

            async with live.lock:
                await self._run(f"bot wait at table {live.id}", self._guarded, live, work)
                if self.on_change is not None:
                    self.on_change(live)
            if until is not None:
                used = self.bots.budget.used(live.creator)
                log.info("table %s: its creator's bot budget is used (%.0f s): bots wait %.1f s", live.id, used, wait)
        if wait > 0:
            await asyncio.sleep(wait)
        return wait > 0
