"""Chat at a table, over its WebSocket: bounded, rate-limited, stored with the table, never in its game record.

A seat or a spectator sends ``{"type": "chat", "text"}`` (at most :data:`~meeple.server.people.MAX_CHAT` characters,
control characters removed: :mod:`meeple.server.people`); everyone at the table receives ``{"type": "chat", "seat",
"name", "text", "time"}``, and a new connection first receives the table's :data:`RECENT` latest lines. A connection
may mute spectators' lines (``{"type": "mute", "spectators": true}``) for its own view. Lines are counted per client
address (:attr:`Quotas.chats_per_minute`); past the quota a line is refused with ``rate_limited`` and the connection
stays.

A chat frame is built from the line and the seat's public name only: it holds nothing of the game. Several processes
(PostgreSQL): the process that stores a line NOTIFYs ``chat:<table>``; every process then sends its connections the
lines they have not had, in the order of their ids. A reader keeps the highest id it was sent, so the lines of a table
must become visible in id order: on PostgreSQL a line is stored under an advisory lock of its table, taken before the
id is drawn and held until the commit (ids of concurrent transactions would otherwise commit out of order, and a line
committed after a higher id was read would never be sent: issue #41, item 17). SQLite's one write lock does the same.

Rules: issue #34 "People at the table" (item 4).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, func, insert, select

from meeple.i18n import M, Translator
from meeple.server.db import ChatRow, is_postgresql
from meeple.server.live import LiveTable
from meeple.server.people import spectator_name
from meeple.server.protocol import ChatSend, MuteMessage
from meeple.server.quotas import Limiter, QuotaExceeded
from meeple.server.tables import NOTIFY_CHANNEL

log = logging.getLogger("meeple.server")

RECENT = 30
"""Chat lines a new connection is sent on arrival (the newest)."""
CHAT_PREFIX = "chat:"
"""Prefix of the NOTIFY payload announcing a new chat line of a table (``chat:<table id>``)."""
_CHAT_LOCK = 0x63686174  # PostgreSQL advisory lock namespace of the chat lines of a table ("chat")
DELIVER_BATCH = 100
"""Chat lines read from the database at once when catching connections up (as many reads as needed)."""


def chat_lock(table_id: str) -> int:
    """The second key of a table's chat advisory lock: the first four bytes of its SHA-256, a signed 32-bit value."""
    return int.from_bytes(hashlib.sha256(table_id.encode()).digest()[:4], "big", signed=True)


@dataclass(frozen=True)
class ChatEntry:
    """A stored chat line."""

    id: int
    seat: int | None
    text: str
    at: float


def chat_frame(live: LiveTable, entry: ChatEntry, reader: Translator) -> dict[str, Any]:
    """The ``chat`` frame of ``entry`` for a receiver reading ``reader``'s language (names of unnamed seats)."""
    if entry.seat is None or not 0 <= entry.seat < len(live.seats):
        name = spectator_name(reader)
    else:
        name = live.name_of(entry.seat, reader)
    return {"type": "chat", "seat": entry.seat, "name": name, "text": entry.text, "time": entry.at}


def blocked_line(live: LiveTable, entry: ChatEntry, conn: Any) -> bool:
    """Whether ``entry`` was written from a seat bound to an account the receiver ``conn`` blocks (not sent to it).

    Issue #44, item 6: a blocked player's lines are hidden from whoever blocks them (:mod:`meeple.server.blocks`).
    """
    blocked = getattr(conn, "blocked", None)
    if not blocked or entry.seat is None or not 0 <= entry.seat < len(live.seats):
        return False
    account = live.seats[entry.seat].account
    return account is not None and account.lower() in blocked


class ChatService:
    """Stores chat lines and sends them to this process's connections.

    Args:
        engine: the server's database.
        limiter: counts lines per client address (``chat``).
        now: the clock (Unix seconds).
        on_refused: called with the reason of a refused line (``chat``), if given.
    """

    def __init__(self, engine: Engine, limiter: Limiter, now: Any, on_refused: Any = None) -> None:
        self.engine = engine
        self.limiter = limiter
        self.now = now
        self.on_refused = on_refused
        """Called with ``"chat"`` when a line is refused past its quota (the server's refusal counter)."""
        self.postgres = is_postgresql(engine)

    def post(self, table_id: str, seat: int | None, text: str) -> None:
        """Store a line (and tell the other processes).

        On PostgreSQL the table's chat lock is held from before the line's id is drawn until the commit, so a table's
        lines commit in id order (see the module's docstring).
        """
        with self.engine.begin() as s:
            if self.postgres:
                s.execute(select(func.pg_advisory_xact_lock(_CHAT_LOCK, chat_lock(table_id))))
            s.execute(insert(ChatRow).values(table_id=table_id, seat=seat, text=text, at=self.now()))
            if self.postgres:
                s.execute(select(func.pg_notify(NOTIFY_CHANNEL, CHAT_PREFIX + table_id)))

    def recent(self, table_id: str, limit: int = RECENT) -> list[ChatEntry]:
        """The newest ``limit`` lines of a table, oldest first."""
        with self.engine.connect() as s:
            rows = s.execute(
                select(ChatRow.id, ChatRow.seat, ChatRow.text, ChatRow.at)
                .where(ChatRow.table_id == table_id)
                .order_by(ChatRow.id.desc())
                .limit(limit)
            )
            return [ChatEntry(*r) for r in reversed(list(rows))]

    def since(self, table_id: str, after: int, limit: int = DELIVER_BATCH) -> list[ChatEntry]:
        """The lines of a table after id ``after``, oldest first (at most ``limit``)."""
        with self.engine.connect() as s:
            rows = s.execute(
                select(ChatRow.id, ChatRow.seat, ChatRow.text, ChatRow.at)
                .where(ChatRow.table_id == table_id, ChatRow.id > after)
                .order_by(ChatRow.id)
                .limit(limit)
            )
            return [ChatEntry(*r) for r in rows]

    async def arrive(self, live: LiveTable, conn: Any) -> None:
        """Send a new connection the table's recent lines (none if the database cannot say now: the game goes on)."""
        try:
            entries = await asyncio.to_thread(self.recent, live.id)
        except Exception as exc:  # noqa: BLE001 - chat is not worth a connection: it stays, without the history
            log.warning("table %s: no chat history for a new connection (%s)", live.id, str(exc).splitlines()[0:1])
            entries = []
        for entry in entries:
            if not blocked_line(live, entry, conn):
                conn.send(chat_frame(live, entry, conn.translator))
        conn.chat_seen = max([conn.chat_seen, *(e.id for e in entries)])
        conn.chat_ready = True
        await self.deliver(live)  # a line stored while the history was read

    async def deliver(self, live: LiveTable) -> None:
        """Send every connection of ``live`` in this process the lines it has not had (muted ones skipped)."""
        while True:
            conns = [c for c in live.conns if c.chat_ready]  # one still reading its history is caught up then
            if not conns:
                return
            entries = await asyncio.to_thread(self.since, live.id, min(c.chat_seen for c in conns))
            for conn in conns:
                for entry in entries:
                    if entry.id <= conn.chat_seen:
                        continue
                    conn.chat_seen = entry.id
                    if (entry.seat is None and conn.muted) or blocked_line(live, entry, conn):
                        continue
                    conn.send(chat_frame(live, entry, conn.translator))
            if len(entries) < DELIVER_BATCH:  # a longer burst is read on, batch after batch
                return

    async def handle(self, message: ChatSend | MuteMessage, live: LiveTable, conn: Any) -> None:
        """A ``chat`` or ``mute`` message of ``conn``; a line past the address's quota is refused."""
        if isinstance(message, MuteMessage):
            conn.muted = message.spectators
            return
        try:
            self.limiter.hit("chat", conn.address, "chat lines")
        except QuotaExceeded as exc:
            if self.on_refused is not None:
                self.on_refused(exc.reason)
            text = conn.translator.message(M("too many chat lines: try again in {seconds} s", seconds=exc.retry_after))
            conn.send({"type": "error", "code": "rate_limited", "message": text, "move_id": None})
            return
        await asyncio.to_thread(self.post, live.id, conn.seat, message.text)
        await self.deliver(live)
