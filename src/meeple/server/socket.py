"""The WebSocket of a seat or a spectator: ``/api/tables/{table_id}/ws`` (the protocol: docs/server.md).

A connection is opened by ``?token=``, else the page's seat cookie, else the session of the account the seat is
bound to (:class:`meeple.server.seats.Seats`); each message in is bounded in size and rate, then handled: a move
goes to the move master (:meth:`meeple.server.tables.TableService.submit`), a chat line to the chat, a keepalive
gets a pong. While the database is down, a new connection is closed with 1013 ("try again later").

Rules: issue "Play online: an authoritative game server"; docs/server.md ("The WebSocket").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from pydantic import TypeAdapter, ValidationError
from sqlalchemy.exc import DBAPIError

from meeple.i18n import M, UnknownLanguageError, language_from_accept, translator
from meeple.server.hub import VIEWS, Connection, Hub
from meeple.server.live import LiveTable, MoveRefused, TableNotFound
from meeple.server.notify import remember_lang
from meeple.server.protocol import (
    AckMessage,
    ChatSend,
    ClientMessage,
    KeepaliveMessage,
    MoveMessage,
    MuteMessage,
    ReturnMessage,
    UndoMessage,
)
from meeple.server.quotas import QuotaExceeded
from meeple.server.replies import cut, validation_text
from meeple.server.retry import is_transient, one_line
from meeple.server.seats import NO_SEAT, client_address
from meeple.server.services import Services, ServicesDep
from meeple.server.tables import TableService

log = logging.getLogger("meeple.server")

router = APIRouter()

_CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(ClientMessage)
TRY_AGAIN_LATER = 1013
"""The WebSocket close code of a connection that cannot be served now (RFC 6455 registry: "Try Again Later")."""

Asked = tuple[str | None, str | None, str | None]
"""What a connection asked for in its address: ``(token, lang, view)``."""


@router.websocket("/api/tables/{table_id}/ws")
async def socket(
    websocket: WebSocket,
    table_id: str,
    services: ServicesDep,
    token: str | None = None,
    lang: str | None = None,
    view: str | None = None,
) -> None:
    """A seat's or a spectator's connection; see docs/server.md.

    The seat is named by ``?token=``, else the page's seat cookie, else the session of the account it is bound to.

    The texts it is sent are in ``?lang=`` (``en``, ``fr``), else the handshake's ``Accept-Language``, else
    English; an unknown ``lang`` gets a ``bad_message`` error naming the languages, then English. ``?view=web``
    makes its state frames slim (the browser client's: version, seat to move, status); another ``view`` than
    ``full``/``web`` gets a ``bad_message`` error naming them, then full frames. An address holding
    ``--max-sockets-per-address`` connections already is refused (HTTP 429 at the handshake).
    """
    address = client_address(websocket)
    try:
        services.limiter.open_socket(address)
    except QuotaExceeded as exc:
        services.refused(exc.reason)
        headers = {"Retry-After": str(exc.retry_after)}
        await websocket.send_denial_response(JSONResponse({"detail": exc.message}, 429, headers=headers))
        return
    try:
        await _open(websocket, services, table_id, (token, lang, view))
    finally:
        services.limiter.close_socket(address)


async def _open(websocket: WebSocket, services: Services, table_id: str, asked: Asked) -> None:
    """Accept the connection and serve it; a database outage closes it with 1013 ("try again later")."""
    await websocket.accept()
    try:
        await _welcome(websocket, services, table_id, asked)
    except DBAPIError as exc:
        if not is_transient(exc):
            raise
        log.warning("WebSocket of table %s closed (1013): %s", cut(table_id), one_line(exc))
        with contextlib.suppress(Exception):
            await websocket.close(code=TRY_AGAIN_LATER, reason="database unavailable; try again")


async def _welcome(websocket: WebSocket, services: Services, table_id: str, asked: Asked) -> None:
    """The connection's seat, checked, then its messages (the database may fail: the caller closes 1013)."""
    token, lang, view = asked
    reader = translator(language_from_accept(websocket.headers.get("accept-language")))
    if lang is not None:
        try:
            reader = translator(lang)
        except UnknownLanguageError as exc:
            await websocket.send_json({"type": "error", "code": "bad_message", "message": reader.message(exc.message)})
    if view is not None and view not in VIEWS:
        wrong = M(
            "view is one of {views}, not {view!r}: full frames are sent", views=", ".join(VIEWS), view=cut(view, 40)
        )
        await websocket.send_json({"type": "error", "code": "bad_message", "message": reader.message(wrong)})
        view = None
    try:
        live = await services.tables.get(table_id)
    except TableNotFound:
        no_table = reader.message(M("no table {table!r}", table=cut(table_id)))
        await websocket.send_json({"type": "error", "code": "bad_message", "message": no_table})
        await websocket.close(code=4404)
        return
    try:
        seat, by_token = await services.seats.of_socket(websocket, table_id, token)
    except QuotaExceeded as exc:
        services.refused(exc.reason)
        await websocket.send_json({"type": "error", "code": "bad_token", "message": exc.message})
        await websocket.close(code=1008)
        return
    if seat == -1:
        await websocket.send_json({"type": "error", "code": "bad_token", "message": reader.message(NO_SEAT)})
        await websocket.close(code=4401)
        return
    key = f"{client_address(websocket)}#{id(websocket)}"
    await _serve(websocket, services, live, seat, reader.lang, key, view or "full", by_token)


async def _know_account(services: Services, websocket: WebSocket, conn: Connection) -> None:
    """Note the account whose session opened ``websocket`` (its invitations) and whom it blocks (their chat)."""
    account = await services.seats.account(websocket)
    if account is not None:
        conn.account_id = account.id
        conn.blocked = await asyncio.to_thread(services.blocks.blocked_names, account.id)


async def _serve(
    websocket: WebSocket,
    services: Services,
    live: LiveTable,
    seat: int | None,
    lang: str,
    key: str,
    view: str = "full",
    by_token: bool = False,
) -> None:
    """Serve one connection (``view``: :data:`meeple.server.hub.VIEWS`): its messages in, bounded in size and rate.

    A message over the size bound closes the connection with 1009, more than the quota of messages with 1008.
    ``by_token``: a token or a seat cookie opened the seat (a new token closes the connection).
    """
    hub, service, limiter = services.hub, services.tables, services.limiter
    conn = Connection(websocket, seat, lang, hub.send_seconds, view)
    conn.by_token = by_token
    conn.reader = asyncio.current_task()
    conn.address = key.rsplit("#", 1)[0]
    await _know_account(services, websocket, conn)
    if seat is not None:
        if service.notifier is not None:  # the language of its turn e-mails, if an account holds the seat
            with contextlib.suppress(Exception):
                await asyncio.to_thread(remember_lang, service.engine, live.id, seat, lang)
        try:
            await service.presence(live, seat, +1)
        except BaseException:
            service.connections.change(live.id, seat, -1)  # the heartbeat writes the count back
            raise
    async with live.lock:
        await hub.join(live, conn)
    try:
        if hub.chat is not None:
            await hub.chat.arrive(live, conn)
        while True:
            try:
                event = await websocket.receive()
            except RuntimeError:  # a failed send closed the socket (starlette's WebSocketDisconnected)
                break
            if event["type"] == "websocket.disconnect":
                break
            text = event.get("text")
            if text is None:
                text = (event.get("bytes") or b"").decode("utf-8", "replace")
            if len(text) > limiter.quotas.message_bytes:
                services.refused("message_size")
                await websocket.close(code=1009, reason=f"a message has at most {limiter.quotas.message_bytes} bytes")
                break
            try:
                limiter.hit("messages", key, "messages")
            except QuotaExceeded as exc:
                services.refused(exc.reason)
                await websocket.close(code=1008, reason=cut(exc.message, 100))
                break
            try:
                await _handle(text, hub, service, live, conn)
            except Exception as exc:  # noqa: BLE001 - a database or server fault: say so, keep the connection
                _server_error(live, conn, exc, None)
    except WebSocketDisconnect:
        pass
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if not conn.dropped or task is None:
            raise
        task.uncancel()  # our own cancellation: the client stopped reading (Connection.drop), or was revoked
        if conn.revoked:
            with contextlib.suppress(Exception):
                await websocket.close(code=1008, reason=conn.revoked)
        else:
            services.refused("not_reading")
    finally:
        hub.leave(live, conn)
        if seat is not None:
            # shielded: a cancelled handler (shutdown, a test client) still records that the seat's connection went;
            # otherwise the cache would call the seat connected until the table's next change (turn e-mails)
            with contextlib.suppress(Exception):
                await asyncio.shield(service.presence(live, seat, -1))


def _server_error(live: LiveTable, conn: Connection, exc: Exception, move_id: str | None) -> None:
    """Answer ``server_error`` (naming the move, if any) for a message the server could not handle.

    The log gets one line for a database fault, a traceback for anything else.
    """
    if is_transient(exc):
        log.warning("table %s: move %s not committed: %s", live.id, move_id, one_line(exc))
    else:
        log.error("table %s: a message could not be handled", live.id, exc_info=exc)
    message = M("the server could not handle this message now (nothing was changed); try again")
    text = conn.translator.message(message)
    conn.send({"type": "error", "code": "server_error", "message": text, "move_id": move_id})


async def _handle(text: str, hub: Hub, service: TableService, live: LiveTable, conn: Connection) -> None:
    try:
        message = _CLIENT_MESSAGE.validate_json(text)
    except ValidationError as exc:
        problems = "; ".join(
            f"{cut('.'.join(map(str, e['loc']))) or 'message'}: {validation_text(e, conn.translator)}"
            for e in exc.errors()[:5]
        )
        conn.send({"type": "error", "code": "bad_message", "message": problems})
        return
    if isinstance(message, MoveMessage | UndoMessage):
        await _play(message, hub, service, live, conn)
        return
    if isinstance(message, ChatSend | MuteMessage):
        if hub.chat is not None:
            await hub.chat.handle(message, live, conn)
        return
    if isinstance(message, ReturnMessage):
        if conn.seat is not None:
            await service.take_back(live, conn.seat)
        return
    if isinstance(message, KeepaliveMessage):
        conn.send({"type": "pong"})
        return
    async with live.lock:
        hub.resend(live, conn)


async def _play(
    message: MoveMessage | UndoMessage, hub: Hub, service: TableService, live: LiveTable, conn: Connection
) -> None:
    """A seat's move or undo: ``ack`` once committed, else the refusal and the current state (docs/server.md)."""
    if conn.seat is None:
        refused = conn.translator.message(M("a spectator cannot move"))
        conn.send({"type": "error", "code": "spectator", "message": refused, "move_id": None})
        return
    try:
        if isinstance(message, UndoMessage):
            applied = await service.undo(live, conn.seat, message.version, message.move_id)
        else:
            applied = await service.submit(live, conn.seat, message.action, message.version, message.move_id)
    except MoveRefused as exc:
        text = conn.translator.message(exc.message)
        conn.send({"type": "error", "code": exc.code, "message": text, "move_id": message.move_id})
        async with live.lock:  # then the current state, to act on
            hub.resend(live, conn)
        return
    except Exception as exc:  # noqa: BLE001 - not committed (the retries gave up): the client resends it
        _server_error(live, conn, exc, message.move_id)
        return
    async with live.lock:
        if not applied:  # a repeated move_id: the current state, then its acknowledgement
            hub.resend(live, conn)
        conn.send(ack_message(live, conn.seat, message.move_id))


def ack_message(live: LiveTable, seat: int, move_id: str) -> dict[str, Any]:
    """The ``ack`` of ``seat``'s move ``move_id`` (``protocol.AckMessage``).

    Its ``version`` is the seat's own (the length of its redacted log), so it tells the seat nothing its state frames
    do not (tests/server/test_leaks.py).
    """
    return AckMessage(move_id=move_id, version=len(live.log_of(seat))).model_dump()
