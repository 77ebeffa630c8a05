"""The server's storage: SQLAlchemy 2 models, the engine, and the Alembic migrations applied at start-up.

The truth of a table is its row (game, parameters, secret seed, seats) and its event log (one row per applied
action, in order): the state is rebuilt by replaying the log (architecture "Playing online"). SQLite is the embedded
default; PostgreSQL (``postgresql+psycopg://...``) serves several processes.

Serialising moves: on SQLite every write transaction starts with ``BEGIN IMMEDIATE`` (the database's one write
lock); on PostgreSQL the table row is locked with ``SELECT ... FOR UPDATE``. Either way a move reads the table's
version inside the lock, so two moves at one version cannot both commit.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    create_engine,
    event,
    false,
    func,
    select,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from meeple.core.errors import InvalidParameterError

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
LOCK_TIMEOUT_MS = 3000
"""PostgreSQL ``lock_timeout``: a transaction waiting this long for a row lock fails and is retried (retry.py)."""
STATEMENT_TIMEOUT_MS = 10000
"""PostgreSQL ``statement_timeout``: no statement of the server runs longer."""
IDLE_IN_TRANSACTION_MS = 5000
"""PostgreSQL ``idle_in_transaction_session_timeout``: a process frozen in a transaction (SIGSTOP, a stuck thread)
loses its session and its locks after this long, so it cannot hold a table (retry.RETRY_BUDGET is longer)."""
CONNECT_TIMEOUT_S = 3
"""libpq ``connect_timeout``: an unreachable database fails a connection attempt after this long."""
_MIGRATION_LOCK = 0x6D656570  # PostgreSQL advisory lock taken while migrating ("meep")


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


class TableRow(Base):
    """A game table: what is needed to rebuild its state (with :class:`EventRow`), its seats' clocks and status."""

    __tablename__ = "tables"
    __table_args__ = (
        Index("ix_tables_created", "created"),
        Index("ix_tables_status_created", "status", "created"),
    )
    """The lobby reads the newest tables (of a status) through these (:meth:`TableService.list_rows`)."""

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    """The deal seed: the game master's secret until the game is over."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``waiting``, ``live``, ``finished``, ``abandoned`` (nobody moved for ``--idle-days``) or ``aborted`` (never
    played: :mod:`meeple.server.endings`)."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    """The number of actions applied (the length of the event log)."""
    rev: Mapped[int] = mapped_column(Integer, default=0)
    """Bumped by every change other processes must see (a move, a seat bot-played or returned, a connection)."""
    created: Mapped[float] = mapped_column(Float)
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """``{"spec": ClockSpec, "banks": [...], "turn_seat": s, "turn_started": t}`` or None."""
    grace: Mapped[float | None] = mapped_column(Float, nullable=True)
    substitute: Mapped[str] = mapped_column(String(64))
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    """When the table must be looked at again (a clock or a grace period runs out; a bot's move is overdue)."""
    creator: Mapped[str | None] = mapped_column(String(24), nullable=True, index=True)
    """:func:`meeple.server.quotas.address_key` of the address that created the table (None: the operator's)."""
    quickmatch: Mapped[str | None] = mapped_column(String(80), nullable=True, index=True)
    """``"<game>/<players>"`` for a quick-match table (``POST /api/quickmatch``), else None."""
    fill_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When a waiting quick-match table starts with bots in its open seats (None: it waits for players)."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """A rated table: only account holders sit at it, and its end updates their ratings (:mod:`.ratings`)."""
    rated_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When its result updated the ratings (None: not yet, or not rated): a game is rated once."""
    live_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When the game went live (created live, or its last open seat taken, or started early): the no-start window
    counts from then (:mod:`meeple.server.endings`)."""
    ended: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """Why an ``aborted`` table ended (``no_show``, ``server_full``...: :data:`meeple.server.endings.ABORTS`)."""
    ended_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When the table was aborted (None: it was not)."""
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True, unique=True)
    """The finished table this one is the rematch of (one rematch per table: unique), or None (issue #44, item 1)."""
    lapse_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    """When a waiting rematch lapses unless every human accepted (:mod:`meeple.server.rematch`), else None."""


class SeatRow(Base):
    """A seat: who plays it, the hash of its secret token, and whether its human is replaced by a bot."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(String(80))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    bot_played: Mapped[bool] = mapped_column(Boolean, default=False)
    reason: Mapped[str | None] = mapped_column(String(8), nullable=True)
    name: Mapped[str | None] = mapped_column(String(24), nullable=True)
    """The name its human gave (cleaned: :func:`meeple.server.people.clean_name`), or None."""
    joined: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When a stranger took this open seat (None: seated by the table's creator)."""
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True, index=True)
    """The account this seat is bound to (its holder's session opens it, :mod:`.accounts`), or None (a guest)."""
    arrived: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When its human first connected or moved (None: never): a seat nobody ever opened is never bot-played."""
    moved: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When its human made their first move of their own (None: never; a substitute's moves do not count)."""
    forfeit: Mapped[str | None] = mapped_column(String(8), nullable=True)
    """Why this seat of a rated table ranks last for the rating (``time``, ``away``, ``claim``...), or None."""
    rank: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Its final rank once the game finished (1 = first; ties share a rank; a rated table's forfeits last), or None."""
    invited: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True, index=True)
    """The account an open seat is reserved for (an invitation, or a rematch's seat), or None: anyone may take it."""
    reserved_from: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """A rematch's open seat: the seat of the finished table whose holder it is reserved for (guests too), or None."""


class EventRow(Base):
    """One applied action: the table's event log, the truth every process and restart rebuilds from."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("table_id", "seat", "move_id", name="uq_events_move_id"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The table's version after this action (1 for the first)."""
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    move_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    by_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    at: Mapped[float] = mapped_column(Float)


class PresenceRow(Base):
    """Open connections of a seat in one server process, refreshed by that process's heartbeat."""

    __tablename__ = "presence"
    __table_args__ = (Index("ix_presence_process", "process"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    process: Mapped[str] = mapped_column(String(32), primary_key=True)
    connections: Mapped[int] = mapped_column(Integer)
    seen_at: Mapped[float] = mapped_column(Float)


class ChatRow(Base):
    """One chat line of a table: stored with the table, never in its game record."""

    __tablename__ = "chat"
    __table_args__ = (Index("ix_chat_table", "table_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The sender's seat; None for a spectator."""
    text: Mapped[str] = mapped_column(String(500))
    at: Mapped[float] = mapped_column(Float)


class AccountRow(Base):
    """A player's account: a unique username and an argon2 password hash (:mod:`meeple.server.accounts`)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(40))
    """As typed at sign-up (3-24 characters ``[A-Za-z0-9_.-]``); ``~deleted-<id>`` once deleted."""
    username_key: Mapped[str] = mapped_column(String(40), unique=True)
    """``username`` lower-cased: usernames are unique whatever their case."""
    skeleton: Mapped[str | None] = mapped_column(String(40), nullable=True, index=True)
    """``username``'s look-alike form (:func:`meeple.server.names.skeleton`): no guest may take a name of this form."""
    password_hash: Mapped[str] = mapped_column(String(255))
    """argon2id (PHC string); empty once deleted (nothing opens it)."""
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    lang: Mapped[str | None] = mapped_column(String(8), nullable=True)
    """The language its player last used at a table of theirs (``en``, ``fr``): its turn e-mails are in it."""
    created: Mapped[float] = mapped_column(Float)
    deleted: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When its owner deleted it (a tombstone: its games are anonymised), or None."""
    email_verified: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When its owner opened the verification link of ``email`` (None: not verified; a new address is not)."""
    banned: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When the operator banned it (``meeple admin ban``): it cannot log in; None: not banned."""
    seen_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When its player last viewed a page or called the API with a session (written at most once a minute)."""
    hide_table: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Its player hides the live table they play at from the accounts that follow them (:mod:`.friends`)."""


class SessionRow(Base):
    """A log-in session: the SHA-256 of its random cookie token (never the token itself)."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float, index=True)
    last_seen: Mapped[float] = mapped_column(Float)


class MailDayRow(Base):
    """Turn e-mails sent to one recipient address on one UTC day, shared by every server process.

    Keyed by :func:`meeple.server.notify.mailbox_key` (a SHA-256: the address itself is not repeated here); one row
    per address ever mailed, its ``day`` and ``sent`` started again on the first e-mail of a new day.
    """

    __tablename__ = "mail_days"

    address_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    day: Mapped[str] = mapped_column(String(10))
    """The UTC day ``YYYY-MM-DD`` that ``sent`` counts."""
    sent: Mapped[int] = mapped_column(Integer)


class RatingRow(Base):
    """An account's openskill rating at one game (:mod:`meeple.server.ratings`)."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    """Rated games played."""
    updated: Mapped[float] = mapped_column(Float)


class LinkRow(Base):
    """A one-time link sent to an account: a password reset or an e-mail verification (:mod:`.recovery`).

    Only the SHA-256 of its random token is stored; the link is used once (its row is deleted) and lapses at
    ``expires``.
    """

    __tablename__ = "account_links"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    purpose: Mapped[str] = mapped_column(String(8))
    """``reset`` (a new password) or ``verify`` (the e-mail address)."""
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    """The address a ``verify`` link confirms (a later change of address makes it void)."""
    created: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float, index=True)


class ReportRow(Base):
    """A player's report of another account (``POST /api/reports``), with the table's chat at that moment."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    """The reported account."""
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    reason: Mapped[str] = mapped_column(String(500))
    chat: Mapped[list[Any]] = mapped_column(JSON)
    """The table's latest chat lines (``[{line, seat, name, text, time}]``), empty without a table."""
    created: Mapped[float] = mapped_column(Float, index=True)


class ModerationRow(Base):
    """One action of the operator (``meeple admin``): who did what to whom, and when."""

    __tablename__ = "moderation_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Float)
    actor: Mapped[str] = mapped_column(String(64))
    """Who acted (``--as``, else the operating-system user running ``meeple admin``)."""
    action: Mapped[str] = mapped_column(String(16))
    """``ban``, ``unban``, ``delete-chat``, ``reset-password``."""
    target: Mapped[str] = mapped_column(String(80))
    detail: Mapped[str] = mapped_column(String(500), default="")
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The account acted on (a ban's seats are dropped by every process that reads this row)."""


class BannedMailboxRow(Base):
    """A mailbox (:func:`meeple.server.notify.mailbox_key`) of a banned account: no new account may give it."""

    __tablename__ = "banned_mailboxes"

    address_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    at: Mapped[float] = mapped_column(Float)


class FollowRow(Base):
    """One account follows another (one way, as lichess's follows: :mod:`meeple.server.friends`)."""

    __tablename__ = "follows"
    __table_args__ = (Index("ix_follows_followee", "followee_id"),)

    follower_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    followee_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    created: Mapped[float] = mapped_column(Float)


class RatingHistoryRow(Base):
    """An account's rating at one game after one rated table (:func:`meeple.server.ratings.rate_table`)."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_account", "account_id", "game", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    game: Mapped[str] = mapped_column(String(64))
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    at: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rank: Mapped[int] = mapped_column(Integer)
    """The account's rank at that table for the rating (1 = first; forfeits last)."""


class BlockRow(Base):
    """One account blocking another (:mod:`meeple.server.blocks`): chat hidden, no quick match, no invitations."""

    __tablename__ = "blocks"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    """Who blocks."""
    blocked_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True, index=True)
    """Who is blocked."""
    created: Mapped[float] = mapped_column(Float)


class KeyRow(Base):
    """A secret of the server shared by its processes (the device cookies' signing key: :mod:`.logins`)."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
    """URL-safe random text (``secrets.token_urlsafe``); never sent to anyone."""
    created: Mapped[float] = mapped_column(Float)


def is_postgresql(engine: Engine) -> bool:
    """Whether ``engine`` talks to PostgreSQL (row locks and LISTEN/NOTIFY) rather than SQLite."""
    return engine.dialect.name == "postgresql"


_URL_PASSWORD = re.compile(r"^([\w+.-]+://[^:/@?#]*:)[^/?#]*@")
_QUERY_PASSWORD = re.compile(r"([?&]password=)[^&]*", re.IGNORECASE)


def shown_url(url: str) -> str:
    """``url`` as ``meeple serve`` may print or log it: a password written ``***`` (issue #41, item 12).

    The password of the user part (``postgresql+psycopg://meeple:***@host/db``: up to the last ``@`` before the
    path, in case one was not percent-encoded) and a ``password=`` query parameter (libpq's) are hidden; the rest is
    left as written, also in a URL that is not a valid one.
    """
    return _QUERY_PASSWORD.sub(r"\1***", _URL_PASSWORD.sub(r"\1***@", url.strip()))


def make_engine(url: str, pool_size: int = 8) -> Engine:
    """Return an engine for ``url`` (``sqlite:///path`` or ``postgresql+psycopg://...``), tuned for the server.

    SQLite: write-ahead log, ``synchronous=NORMAL`` (a commit survives a killed process; a power cut may lose the
    last commits, never corrupt the file), a 30 s busy timeout, and ``BEGIN IMMEDIATE`` for every transaction.

    PostgreSQL: ``pool_size`` connections (and twice as many more at peaks), each with the :data:`LOCK_TIMEOUT_MS`,
    :data:`STATEMENT_TIMEOUT_MS` and :data:`IDLE_IN_TRANSACTION_MS` timeouts and a :data:`CONNECT_TIMEOUT_S` connect
    timeout.

    Raises:
        InvalidParameterError: not an SQLite or PostgreSQL URL, or the PostgreSQL driver is not installed.
    """
    try:
        parsed = make_url(url)
    except Exception as exc:  # noqa: BLE001 - SQLAlchemy raises ArgumentError or ValueError
        reason = str(exc).replace(url, shown_url(url))
        raise InvalidParameterError(f"--db {shown_url(url)!r} is not a database URL: {reason}") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        path = sqlite_file(parsed)
        if path is not None:
            prepare_sqlite_file(path)
        engine = create_engine(parsed, connect_args={"check_same_thread": False, "timeout": 30})
        _tune_sqlite(engine)
        return engine
    if backend == "postgresql":
        try:
            return create_engine(
                parsed,
                pool_size=pool_size,
                max_overflow=2 * pool_size,
                pool_pre_ping=True,
                connect_args={"connect_timeout": CONNECT_TIMEOUT_S, "options": postgresql_options()},
            )
        except ModuleNotFoundError as exc:
            raise InvalidParameterError(
                f"PostgreSQL needs its driver: pip install 'meeple[postgres]' ({exc.name} is missing)"
            ) from None
    raise InvalidParameterError(f"--db {shown_url(url)!r}: the server stores tables in SQLite or PostgreSQL only")


def sqlite_file(url: URL) -> Path | None:
    """The file an SQLite ``url`` may create, or None when it creates nothing.

    A plain ``sqlite:///PATH`` may create ``PATH``. An SQLite URI (``sqlite:///file:PATH?mode=ro&uri=true``) names
    its file after ``file:``; with ``mode=ro`` or ``mode=rw`` SQLite creates nothing, and neither does meeple (a
    read-only URL once left a folder named ``file:`` behind: issue #41, item 15). In-memory databases create none.
    """
    database = url.database or ""
    if not database or database == ":memory:":
        return None
    if str(url.query.get("uri", "")).lower() not in ("true", "1", "yes", "on") or not database.startswith("file:"):
        return Path(database).expanduser()
    parts = urlsplit(database)
    options = parse_qs(parts.query)
    mode = str(url.query.get("mode", "")) or (options.get("mode") or [""])[0]
    if mode in ("ro", "rw", "memory") or not parts.path or parts.path == ":memory:":
        return None
    return Path(unquote(parts.path)).expanduser()


def read_only_url(url: str) -> bool:
    """Whether ``url`` is an SQLite URI that opens its file read-only (``mode=ro``); False for anything else."""
    try:
        parsed = make_url(url)
    except Exception:  # noqa: BLE001 - not a URL: make_engine says so
        return False
    if parsed.get_backend_name() != "sqlite" or not (parsed.database or "").startswith("file:"):
        return False
    options = parse_qs(urlsplit(parsed.database or "").query)
    return str(parsed.query.get("mode", "")) == "ro" or (options.get("mode") or [""])[0] == "ro"


def prepare_sqlite_file(path: Path) -> None:
    """Create ``path``'s missing folders (mode 0700) and the empty database file itself (mode 0600), if missing.

    The file holds every table's secret seed and the accounts' password hashes: only the server's user reads it
    (SQLite gives its ``-wal`` and ``-shm`` files the file's mode). A file or folder that exists keeps its mode
    (issue #41, item 14).

    Raises:
        OSError: a folder or the file cannot be created.
    """
    missing = [folder for folder in (path.parent, *path.parent.parents) if not folder.exists()]
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):
            folder.mkdir(mode=0o700)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


def postgresql_options() -> str:
    """The libpq ``options`` of every server connection: the lock, statement and idle-in-transaction timeouts."""
    return (
        f"-c lock_timeout={LOCK_TIMEOUT_MS} -c statement_timeout={STATEMENT_TIMEOUT_MS}"
        f" -c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS}"
    )


def _tune_sqlite(engine: Engine) -> None:
    """Pragmas and ``BEGIN IMMEDIATE`` (SQLAlchemy's documented recipe for pysqlite transactions)."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself (below)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def migrate(engine: Engine) -> None:
    """Apply the Alembic migrations of :data:`MIGRATIONS` up to the newest (idempotent; safe for two processes)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if is_postgresql(engine):
            # another process may be migrating: wait for it however long it takes (no lock or statement timeout)
            connection.exec_driver_sql("SET LOCAL lock_timeout = 0")
            connection.exec_driver_sql("SET LOCAL statement_timeout = 0")
            connection.execute(select(func.pg_advisory_xact_lock(_MIGRATION_LOCK)))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
