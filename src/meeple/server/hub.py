"""Connections of this process and what they are sent: a ``state`` frame whenever the receiver's view changed.

Each connection has an outgoing queue drained by its own writer task, so a slow client never holds a table. A frame
is sent to a receiver only when something it can see changed (its observation, legal actions, log, the seats or the
clock): a step of another seat that the receiver cannot see sends it nothing, so frames do not count hidden steps.

With PostgreSQL a :class:`Listener` thread LISTENs for other processes' changes and brings the affected tables up to
date before their connections are sent the news. While it is not listening the process is degraded (``health``);
when it listens again every table is brought up to date and every live table is made due (:meth:`Hub.recovered`).

Rules: issue "Play online" (the protocol, reconnect, more than one process); architecture "Playing online".
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections import deque
from typing import Any

from sqlalchemy import Engine

from meeple.i18n import DEFAULT_LANGUAGE, Translator, translator
from meeple.server.blocks import Blocks
from meeple.server.chat import CHAT_PREFIX, ChatService
from meeple.server.clock import clock_view
from meeple.server.health import LISTEN
from meeple.server.live import LiveTable
from meeple.server.people import PeopleTranslator
from meeple.server.protocol import HelloMessage, SlimStateMessage
from meeple.server.retry import is_transient, one_line, retrying
from meeple.server.tables import (
    BLOCKS_PREFIX,
    INVITE_PREFIX,
    NOTIFY_CHANNEL,
    REVOKE_PREFIX,
    ROTATE_PREFIX,
    TableService,
)
from meeple.server.views import game_view, log_texts, perspective_of

log = logging.getLogger("meeple.server")


VIEWS = ("full", "web")
"""What a connection's ``state`` frames hold (``?view=`` of the WebSocket): ``full``, everything (docs/server.md);
``web``, the slim frame of the browser client (:data:`SLIM_FIELDS`), which fetches the board it draws once per frame."""
SLIM_FIELDS = tuple(SlimStateMessage.model_fields)
"""The fields of a ``web`` state frame: enough to know that the board changed and whose turn it is (issue #33)."""

MAX_PENDING = 64
"""Messages other than state frames (errors, hello) a connection may have waiting; past it the client is closed."""
REVOKED = "access to this seat was revoked: log in again"
"""The close reason (1008) of a seat's connection when the account's sessions ended."""
REPLACED = "this seat's token was replaced: use the new link"
"""The close reason (1008) of a connection opened with a seat's token or cookie when the token was replaced."""

_encode = json.JSONEncoder(separators=(",", ":")).encode
"""A message as compact JSON (``json.dumps`` with these separators builds an encoder per call: one, made once)."""


class Connection:
    """One WebSocket of a seat (or a spectator, ``seat=None``) and what it was last sent.

    Flow control: at most the newest ``state`` frame waits to be sent (a newer one replaces it, taking over its
    log lines and its place in the order), with at most :data:`MAX_PENDING` other messages, so a client that reads
    slowly costs a bounded amount of memory; one that reads nothing for ``send_seconds`` is disconnected. Messages
    go out in the order they were queued, a merged frame at the place of the first frame it merged.

    Args:
        sender: an object with ``async send_text(str)`` (the WebSocket).
        seat: the receiver's seat, None for a spectator.
        lang: the receiver's language.
        send_seconds: how long one message may wait for the client to read before the connection is closed.
        view: what its state frames hold, one of :data:`VIEWS` (``web``: only :data:`SLIM_FIELDS`).
    """

    def __init__(
        self,
        sender: Any,
        seat: int | None,
        lang: str = DEFAULT_LANGUAGE,
        send_seconds: float = 30.0,
        view: str = "full",
    ) -> None:
        if view not in VIEWS:
            raise ValueError(f"view is one of {', '.join(VIEWS)}, not {view!r}")
        self.sender = sender
        self.seat = seat
        self.view = view
        self.translator: Translator = translator(lang)
        """The receiver's language: texts of moves, log lines and errors (issue "French and English everywhere");
        a ``web`` connection's texts count seats from 1, as its page does (:class:`PeopleTranslator`)."""
        if view == "web":
            self.translator = PeopleTranslator(self.translator)
        self.send_seconds = send_seconds
        self.pending: deque[dict[str, Any]] = deque()
        self.frame: dict[str, Any] | None = None
        """The newest state frame not yet sent."""
        self.frame_after = 0
        """How many of the ``pending`` messages were queued before ``frame`` (they go out first)."""
        self.wake = asyncio.Event()
        self.closed = False
        self.dropped = False
        """Disconnected by the server for not reading (:meth:`drop`), or revoked (:meth:`revoke`)."""
        self.revoked: str | None = None
        """Why the seat's access was revoked (the socket is closed with 1008 and this reason: :meth:`revoke`)."""
        self.by_token = False
        """Opened with a seat token or a seat cookie (not an account's session): a new token closes it."""
        self.busy_since: float | None = None
        """When the message being sent now started (monotonic seconds), None between messages."""
        self.reader: asyncio.Task[Any] | None = None
        """The task reading this connection's messages: cancelled when the client stops reading."""
        self.sent_log = 0
        self.undos = 0
        """How many of the table's undos (``LiveTable.takebacks``) this connection was told about."""
        self.last: dict[str, Any] | None = None
        self.writer: asyncio.Task[None] | None = None
        self.address = ""
        """The client's address (quotas of chat lines)."""
        self.muted = False
        """Spectators' chat lines are not sent to this connection (its ``mute`` message)."""
        self.chat_seen = 0
        """The id of the last chat line this connection was sent (or skipped)."""
        self.chat_ready = False
        """The table's recent chat lines were sent: new lines may follow (:class:`meeple.server.chat.ChatService`)."""
        self.account_id: int | None = None
        """The account whose session opened this connection (None: a guest, or a seat token): its invitations."""
        self.blocked: frozenset[str] = frozenset()
        """Usernames (lower-cased) this connection's account blocks: their chat lines are not sent to it."""
        self.rematch_sent: dict[str, Any] | None = None
        """The table's rematch as this connection was last told it (:func:`rematch_messages`)."""

    def start(self) -> None:
        """Start the writer task."""
        self.writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.pending or self.frame is not None:
                if self.frame is not None and self.frame_after <= 0:
                    message, self.frame = self.frame, None
                else:
                    message = self.pending.popleft()
                    self.frame_after -= 1
                # no timer per message: Hub.drop_stuck looks at busy_since every few seconds
                self.busy_since = time.monotonic()
                try:
                    await self.sender.send_text(_encode(message))
                except Exception:  # noqa: BLE001 - the reader notices the closed socket and unregisters
                    return
                finally:
                    self.busy_since = None
            if self.closed:
                return

    def stuck(self, now: float) -> bool:
        """True if one message has waited for this client to read for more than ``send_seconds`` (monotonic ``now``)."""
        return self.busy_since is not None and now - self.busy_since > self.send_seconds

    def drop(self) -> None:
        """Give up on a client that does not read: stop its reader (which unregisters it)."""
        self.closed = self.dropped = True
        if self.reader is not None:
            self.reader.cancel()

    def revoke(self, reason: str = REVOKED) -> None:
        """The seat's access was revoked (the account's sessions ended, its token replaced): stop the reader.

        The reader then closes the socket with 1008 and ``reason``.
        """
        self.revoked = reason
        self.drop()

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; a ``state`` frame replaces the one still waiting, if any (their logs joined)."""
        if self.closed:
            return
        if message.get("type") == "state":
            waiting = self.frame
            if waiting is not None and "log" in message:
                if message["log_start"] > waiting["log_start"]:
                    # the waiting frame's lines up to where the new one starts (after an undo it may start earlier)
                    kept = waiting["log"][: message["log_start"] - waiting["log_start"]]
                    message = {**message, "log": kept + message["log"], "log_start": waiting["log_start"]}
            else:
                self.frame_after = len(self.pending)
            self.frame = message
        elif len(self.pending) >= MAX_PENDING:
            log.info("a client left %d messages unread: disconnected", MAX_PENDING)
            self.drop()
            return
        else:
            self.pending.append(message)
        self.wake.set()

    def close(self) -> None:
        """Stop the writer after the waiting messages."""
        self.closed = True
        self.wake.set()


def state_frames(live: LiveTable, conns: list[Connection], force: set[Connection] | None = None) -> None:
    """Queue a ``state`` message to each connection of ``conns`` whose view changed (or that is in ``force``).

    The game part of a frame is computed once per receiver seat; the log part is what each connection has not had.
    A ``web`` connection is sent only the :data:`SLIM_FIELDS` of the same frame, when the same change happened (its
    board shows the log, seats and clock too). Nothing is sent while the table's cache is stale (a failed transaction
    it could not rebuild from yet).
    """
    if live.stale:
        return
    common: dict[str, Any] = {
        "status": live.status,
        "clock": clock_view(live.clock),
        "ended": live.ended,
        "bots_wait": live.bots_wait,
    }
    if live.status != "live":
        common["legal_actions"] = []  # a waiting, abandoned or aborted game takes no moves
    views: dict[tuple[int, str, str], dict[str, Any]] = {}
    seats: dict[tuple[str, str], list[dict[str, Any]]] = {}  # the seats' payloads are the same from every seat
    for conn in conns:
        key = (perspective_of(conn.seat), conn.translator.lang, conn.view)  # a web view's texts count seats from 1
        if key not in views:
            game = game_view(live.state, conn.seat, live.log_of(conn.seat), conn.translator)
            named = seats.get(key[1:])
            if named is None:
                named = seats[key[1:]] = live.public_seats(conn.translator)
            views[key] = {**game, **common, "seats": named}
        frame = views[key]
        notes = _undone(live, conn)
        if frame == conn.last and (force is None or conn not in force):
            continue
        if conn.view == "web":
            whole = {"type": "state", "table": live.id, "seat": conn.seat, **frame}
            conn.send({k: whole[k] for k in SLIM_FIELDS})
            conn.last = frame
            continue
        lines = live.log_of(conn.seat)
        start = min([conn.sent_log, *notes]) if conn.last is not None else 0
        log = log_texts(lines[start:], conn.translator)
        conn.send({"type": "state", "table": live.id, "seat": conn.seat, **frame, "log": log, "log_start": start})
        conn.last = frame
        conn.sent_log = len(lines)


def broadcast(live: LiveTable) -> None:
    """Send a table's change to each of its connections (the table service's ``on_change``; in the event loop).

    Called after every committed change, the state up to date; a table nobody watches costs one test.
    """
    if live.conns:
        state_frames(live, list(live.conns))
        rematch_messages(live, list(live.conns))


def rematch_messages(live: LiveTable, conns: list[Connection]) -> None:
    """Tell each connection of a finished table of its rematch when it changed: a ``rematch`` message.

    ``{"type": "rematch", "table": the finished table, **rematch_view}`` (:func:`meeple.server.offers.rematch_view`):
    who offered, who accepted, the rematch's id and status. Public: the same for every receiver (issue #44, item 1).
    """
    if live.rematch is None:
        return
    for conn in conns:
        if conn.rematch_sent != live.rematch:
            conn.rematch_sent = live.rematch
            conn.send({"type": "rematch", "of": live.id, **live.rematch})


def _undone(live: LiveTable, conn: Connection) -> list[int]:
    """Tell ``conn`` of the undos it has not heard of whose takeback changed its view; return where its log was cut.

    Each such undo is sent as ``{"type": "undone", "seat"}`` (before the state frame that shows it); the numbers
    returned are how many lines of the receiver's log each one kept, so that its next frame's log starts there. A
    new connection (nothing sent yet) hears of no past undo.
    """
    news, conn.undos = live.takebacks[conn.undos :] if conn.last is not None else [], len(live.takebacks)
    p = perspective_of(conn.seat)
    cuts = []
    for note in news:
        if p in note.seen:
            conn.send({"type": "undone", "seat": note.seat})
            cuts.append(note.kept[p])
    return cuts


class Hub:
    """This process's connections per table (each change reaches them through :func:`broadcast`).

    Args:
        service: the table service (built with ``on_change=broadcast``).
        send_seconds: how long a frame may wait for a client that does not read.
        chat: the table chat (None: no chat lines are delivered).
        blocks: who blocks whom (None: nobody's chat is hidden).
    """

    def __init__(
        self,
        service: TableService,
        send_seconds: float = 30.0,
        chat: ChatService | None = None,
        blocks: Blocks | None = None,
    ) -> None:
        self.service = service
        self.blocks = blocks
        """Who blocks whom (a connection's account skips its blocked players' chat lines)."""
        self.send_seconds = send_seconds
        """How long a frame may wait for a client that does not read (:class:`Connection`)."""
        self.chat = chat
        """The table chat."""

    def changed(self, live: LiveTable) -> None:
        """Send the change to every connection of the table (:func:`broadcast`)."""
        broadcast(live)

    async def join(self, live: LiveTable, conn: Connection) -> None:
        """Register a connection and send it the full current view (the whole log)."""
        conn.start()
        live.conns.add(conn)
        hello = HelloMessage(
            table=live.id, seat=conn.seat, game=live.game, params=live.params, lang=conn.translator.lang
        )
        conn.send(hello.model_dump())
        state_frames(live, [conn], force={conn})
        rematch_messages(live, [conn])

    async def invited(self, table_id: str, accounts: list[int]) -> None:
        """Tell ``accounts`` connected anywhere that they are invited to ``table_id``: an ``invitation`` message.

        This process's connections opened by those accounts' sessions are told now; on PostgreSQL the other
        processes are told through ``invite:<table> <id,id...>`` (issue #44, item 2).
        """
        self.tell_invited(table_id, accounts)
        if self.service.postgres:
            payload = f"{INVITE_PREFIX}{table_id} {','.join(str(a) for a in accounts)}"
            await asyncio.to_thread(self.service.notify, payload)

    def tell_invited(self, table_id: str, accounts: list[int]) -> None:
        """Send ``{"type": "invitation", "table", "game", "by"}`` to this process's connections of ``accounts``.

        ``by`` is the username of the table's creator (public, as its seat shows). No token: the invited account
        takes its seat with ``join`` (its session binds the seat).
        """
        wanted = set(accounts)
        if not wanted:
            return
        invitation: dict[str, Any] | None = None
        for live in list(self.service.tables.values()):
            for conn in list(live.conns):
                if conn.account_id in wanted:
                    if invitation is None:
                        invitation = self._invitation(table_id)
                    if invitation is not None:
                        conn.send(invitation)

    async def blocks_changed(self, account_id: int, names: frozenset[str]) -> None:
        """``account_id`` now blocks ``names``: its connections here and in the other processes skip their chat."""
        self.set_blocked(account_id, names)
        if self.service.postgres:
            await asyncio.to_thread(self.service.notify, f"{BLOCKS_PREFIX}{account_id}")

    def set_blocked(self, account_id: int, names: frozenset[str]) -> None:
        """Give this process's connections of ``account_id`` the blocked ``names``."""
        for live in list(self.service.tables.values()):
            for conn in live.conns:
                if conn.account_id == account_id:
                    conn.blocked = names

    async def reread_blocks(self, account_id: int) -> None:
        """Another process changed ``account_id``'s blocks: read them again for its connections here (if any)."""
        if self.blocks is None or not any(
            c.account_id == account_id for live in list(self.service.tables.values()) for c in live.conns
        ):
            return
        self.set_blocked(account_id, await asyncio.to_thread(self.blocks.blocked_names, account_id))

    def _invitation(self, table_id: str) -> dict[str, Any] | None:
        """The ``invitation`` message of ``table_id`` (None: it is not in this process's memory nor readable now)."""
        found = self.service.table_facts(table_id)
        if found is None:
            return None
        game, by = found
        return {"type": "invitation", "table": table_id, "game": game, "by": by}

    def leave(self, live: LiveTable, conn: Connection) -> None:
        """Unregister a connection; a finished table nobody watches leaves this process's cache."""
        live.conns.discard(conn)
        conn.close()
        if not live.conns and live.status != "live":
            self.service.tables.pop(live.id, None)

    def drop_stuck(self) -> int:
        """Disconnect every client that left a message unread for its ``send_seconds``; return how many."""
        now = time.monotonic()
        stuck = [c for live in list(self.service.tables.values()) for c in list(live.conns) if c.stuck(now)]
        for conn in stuck:
            log.info("a client read nothing for %g s: disconnected", conn.send_seconds)
            conn.drop()
        return len(stuck)

    def drop_seat(self, table_id: str, seat: int, tokens_only: bool = False) -> int:
        """Disconnect this process's connections of ``seat`` at ``table_id`` (its access was revoked); how many.

        They may reconnect with whatever still opens the seat (the account's new session, the new token).
        ``tokens_only``: only those a token or a seat cookie opened (the token was replaced; a session still opens
        the seat).
        """
        live = self.service.tables.get(table_id)
        if live is None:
            return 0
        gone = [c for c in list(live.conns) if c.seat == seat and (c.by_token or not tokens_only)]
        for conn in gone:
            conn.revoke(REPLACED if tokens_only else REVOKED)
        return len(gone)

    async def rotate_token(self, table_id: str, seat: int) -> str:
        """Give ``seat`` a new token (returned) and close its connections that a token or a seat cookie opened.

        Here and, through ``rotate:`` notifications, in every other process: the old token's connection (a thief's)
        does not outlive it (issue #41, item 9). Those the account's session opened stay.
        """
        token = await asyncio.to_thread(self.service.rotate_token, table_id, seat)
        self.drop_seat(table_id, seat, tokens_only=True)
        return token

    def resend(self, live: LiveTable, conn: Connection) -> None:
        """Send the current state again to one connection (a repeated move, a stale version, ``sync``)."""
        state_frames(live, [conn], force={conn})

    async def refresh(self, table_id: str) -> None:
        """Another process changed a table (or its chat: ``chat:<id>``): tell this process's connections."""
        if table_id.startswith(BLOCKS_PREFIX):
            who = table_id.removeprefix(BLOCKS_PREFIX)
            if who.isdigit():
                await self.reread_blocks(int(who))
            return
        if table_id.startswith(INVITE_PREFIX):
            table, _, ids = table_id.removeprefix(INVITE_PREFIX).partition(" ")
            self.tell_invited(table, [int(i) for i in ids.split(",") if i.isdigit()])
            return
        for prefix in (REVOKE_PREFIX, ROTATE_PREFIX):
            if table_id.startswith(prefix):
                table, _, seat = table_id.removeprefix(prefix).partition(" ")
                if seat.isdigit():
                    self.drop_seat(table, int(seat), tokens_only=prefix == ROTATE_PREFIX)
                return
        if table_id.startswith(CHAT_PREFIX):
            live = self.service.tables.get(table_id.removeprefix(CHAT_PREFIX))
            if live is not None and self.chat is not None:
                try:
                    await self.chat.deliver(live)
                except Exception:  # noqa: BLE001 - the next line's notification delivers this one too
                    log.exception("chat of table %s could not be delivered", live.id)
            return
        live = self.service.tables.get(table_id)
        if live is None:
            return
        try:
            await self.service.sync(live)  # bots are started by the process that committed the change
        except Exception as exc:  # noqa: BLE001 - a failed refresh is retried at the next notification or use
            if not is_transient(exc):
                log.exception("refresh of table %s failed", table_id)
            else:
                log.warning("refresh of table %s failed: %s", table_id, one_line(exc))

    async def recovered(self, outage: tuple[float, float] | None) -> None:
        """The database or the LISTEN connection is back: catch up, wake every live table, credit the clocks.

        Every table this process holds is brought up to date; every live table is made due (bots restart, clocks
        and grace periods are looked at); running clocks are credited with ``outage`` (``clock.credit_outage``).
        """
        service = self.service
        await asyncio.gather(*(self.refresh(table_id) for table_id in list(service.tables)))  # news first
        try:
            if outage is not None:
                await service.credit_outage(*outage)
            await retrying(lambda: asyncio.to_thread(service.wake_all), "wake of the live tables")
        except Exception as exc:  # noqa: BLE001 - the next recovery or the watchdog tries again
            log.warning("waking the tables after an outage failed: %s", one_line(exc))


class Listener:
    """A thread LISTENing on PostgreSQL's :data:`NOTIFY_CHANNEL`; each notification refreshes its table.

    Args:
        engine: the (PostgreSQL) engine; its URL gives the connection.
        hub: the hub to refresh.
        loop: the event loop the hub runs in.
    """

    def __init__(self, engine: Engine, hub: Hub, loop: asyncio.AbstractEventLoop) -> None:
        self.conninfo = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.health = hub.service.health
        self.tasks: set[asyncio.Task[None]] = set()
        self.hub = hub
        self.loop = loop
        self.stopping = threading.Event()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, name="meeple-listen", daemon=True)

    def start(self) -> None:
        """Start listening (returns once the LISTEN is in place, or after 10 s)."""
        self.thread.start()
        self.ready.wait(10)

    def stop(self) -> None:
        """Stop the thread (within a second)."""
        self.stopping.set()

    def _run(self) -> None:
        import psycopg
        from psycopg import sql

        attempt = 0
        while not self.stopping.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True, connect_timeout=3) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(NOTIFY_CHANNEL)))
                    self.ready.set()
                    outage = self.health.ok(LISTEN)
                    if attempt:  # what changed while not listening
                        self.loop.call_soon_threadsafe(self._recovered, outage)
                    attempt = 0
                    while not self.stopping.is_set():
                        for note in conn.notifies(timeout=1.0):
                            self.loop.call_soon_threadsafe(self._schedule, note.payload)
            except Exception as exc:  # noqa: BLE001 - reconnect after a lost connection, one log line each time
                self.health.fail(LISTEN)
                attempt += 1
                wait = min(2.0, 0.25 * 2**attempt)
                log.warning("LISTEN connection: %s; reconnect attempt %d in %.1f s", one_line(exc), attempt, wait)
                self.stopping.wait(wait)

    def _recovered(self, outage: tuple[float, float] | None) -> None:
        task = self.loop.create_task(self.hub.recovered(outage))
        self.tasks.add(task)  # a reference until it is done (the loop keeps only weak ones)
        task.add_done_callback(self.tasks.discard)

    def _schedule(self, table_id: str) -> None:
        self.loop.create_task(self.hub.refresh(table_id))
