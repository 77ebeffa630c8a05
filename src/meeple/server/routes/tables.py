"""The REST routes of tables: the games, creating a table, listing and reading tables, records, replays, tokens, claims.

Rules: issue "Play online: an authoritative game server"; issue #41, item 7 (claims); docs/server.md.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Query, Request
from fastapi.responses import JSONResponse

from meeple.core.errors import MeepleError
from meeple.core.records import GameRecord
from meeple.core.registry import game_class, registered_games
from meeple.i18n import M
from meeple.server.clock import clock_view
from meeple.server.live import LiveTable, SeatState, TableNotFound, TableRefused
from meeple.server.lobby import SeatRefused
from meeple.server.protocol import (
    CreateTable,
    ReplayStep,
    SeatToken,
    TableCreated,
    TableStatus,
    TableSummary,
    TableView,
)
from meeple.server.rated import ClaimRefused
from meeple.server.replies import AcceptLanguage, LangQuery, cut, reader_of, request_reader
from meeple.server.seats import NO_SEAT, client_address
from meeple.server.services import Services, ServicesDep, current_account
from meeple.server.tables import TableFilter
from meeple.server.views import game_view, log_texts

router = APIRouter()

MAX_PLAYERS = 16
"""The largest player count the lobby's filter takes (no game seats more)."""


async def read_table(services: ServicesDep, table_id: str) -> LiveTable:
    """The table ``table_id`` (a finished one is read, not kept in memory), else 404."""
    try:
        return await services.tables.read(table_id)
    except TableNotFound as exc:
        raise HTTPException(404, str(exc) if isinstance(exc, TableRefused) else f"no table {cut(table_id)!r}") from None


@router.get("/api/games")
def games() -> list[dict[str, Any]]:
    """The games a table can be created for: player counts, variant flags and their ranges (``meeple rules``)."""
    return [
        {"game": name, "params": [p.to_json() for p in game_class(name).describe_params()]}
        for name in registered_games()
    ]


@router.post(
    "/api/tables",
    status_code=201,
    response_model=TableCreated,
    responses={413: {"description": "body too large"}, 429: {"description": "quota reached (Retry-After)"}},
)
async def create_table(request: CreateTable, http: Request, services: ServicesDep) -> dict[str, Any]:
    """Create a table: one secret token per human seat, shown only in this answer (422 for a bad request).

    Logged in (session cookie), the first ``human`` seat is bound to the account and named by its username: the
    session opens it on any device. ``rated: true`` needs a log-in (401) and seats ``["human", "open", ...]``.

    Quotas per client address: ``--tables-per-minute``, ``--max-tables-per-address`` live tables, and
    ``--max-tables`` in all (429 with ``Retry-After``).
    """
    account = await current_account(http)
    try:
        created = await services.lobby.create_table(request, client_address(http), account)
    except SeatRefused as exc:
        raise HTTPException(exc.status, request_reader(http).message(exc.message)) from None
    except MeepleError as exc:
        raise HTTPException(422, str(exc)) from None
    return {"table": created.table, "seats": [{"seat": s, "token": t} for s, t in created.tokens]}


@router.get("/api/tables", response_model=list[TableSummary])
async def list_tables(
    services: ServicesDep,
    limit: Annotated[int, Query(ge=1, le=200, description="tables per page")] = 50,
    before: Annotated[float | None, Query(description="only tables created before this (Unix seconds)")] = None,
    status: Annotated[TableStatus | None, Query(description="only tables of this status")] = None,
    game: Annotated[str | None, Query(max_length=64, description="only tables of this game")] = None,
    players: Annotated[int | None, Query(ge=1, le=MAX_PLAYERS, description="only tables of this many seats")] = None,
    rated: Annotated[bool | None, Query(description="only rated tables (true) or unrated ones (false)")] = None,
    lang: LangQuery = None,
    accept_language: AcceptLanguage = None,
) -> list[dict[str, Any]]:
    """The newest tables (game, parameters, seats, status): no secrets.

    At most ``--lobby-per-address`` tables of one creator are listed. Page back with ``before`` = the
    ``created`` of the last table of a page. A table with free open seats is ``waiting`` (``seats[s].open``);
    ``status=waiting`` lists only those. ``game``, ``players`` and ``rated`` keep the tables of that game, player
    count and rated-ness (issue #44, item 7; 422 for an unknown game). The names of bots and unnamed seats are in
    ``lang`` (else ``Accept-Language``, else English).
    """
    reader = reader_of(lang, accept_language)
    if game is not None and game not in registered_games():
        raise HTTPException(
            422,
            reader.message(
                M("no game {game!r}; the games: {games}", game=cut(game), games=", ".join(registered_games()))
            ),
        )
    which = TableFilter(game, players, rated) if (game, players, rated) != (None, None, None) else None
    rows = await services.listing.rows(limit, before, status, which)
    return [
        {
            "table": r.id,
            "game": r.game,
            "params": r.params,
            "status": r.status,
            "created": r.created,
            "clock": clock_view(r.clock),
            "rated": bool(r.rated),
            "grace": r.grace,
            "substitute": r.substitute,
            "ended": r.ended,
            "seats": [
                SeatState(
                    s.player,
                    s.bot_played,
                    s.reason,
                    online.get(s.seat, False),
                    name=s.name,
                    account=users.get(s.seat),
                    forfeit=s.forfeit,
                ).public(s.seat, reader)
                for s in seats
            ],
        }
        for r, seats, online, users in rows
    ]


@router.get("/api/tables/{table_id}", response_model=TableView)
async def get_table(
    table_id: str, services: ServicesDep, lang: LangQuery = None, accept_language: AcceptLanguage = None
) -> dict[str, Any]:
    """The spectator's view of a table: exactly what a spectator's WebSocket is sent (texts in ``lang``)."""
    live = await read_table(services, table_id)
    reader = reader_of(lang, accept_language)
    async with live.lock:
        view = game_view(live.state, None, live.log_of(None), reader)
        return {
            "table": live.id,
            "game": live.game,
            "params": live.params,
            "status": live.status,
            "created": live.created,
            "clock": clock_view(live.clock),
            "rated": live.rated,
            "grace": live.grace,
            "substitute": live.substitute,
            "ended": live.ended,
            "seats": live.public_seats(reader),
            "version": view["version"],
            "observation": view["observation"],
            "log": log_texts(live.log_of(None), reader),
            "returns": view["returns"],
        }


@router.get("/api/tables/{table_id}/record", responses={409: {"description": "the game is not over"}})
async def record(table_id: str, services: ServicesDep) -> dict[str, Any]:
    """The ``meeple-record/1`` record (game, params, seed, actions) of a finished game; 409 while it runs."""
    live = await read_table(services, table_id)
    if not live.over:  # live, or waiting for players: its deal is dealt and secret
        raise HTTPException(409, "the game is not over: its record (seed and hidden moves) is secret until then")
    labels = [s.name or s.player for s in live.seats]
    return GameRecord.from_state(live.state, players=labels, table=live.id).to_json()


@router.get("/api/tables/{table_id}/replay", response_model=ReplayStep)
async def replay(
    table_id: str,
    services: ServicesDep,
    version: Annotated[int, Query(ge=0, description="actions applied")] = 0,
    seat: Annotated[int | None, Query(ge=0, description="a seat's view; omitted: the full view")] = None,
    lang: LangQuery = None,
    accept_language: AcceptLanguage = None,
) -> dict[str, Any]:
    """A finished game after ``version`` actions, from ``seat``'s view or the full view; 409 while it runs."""
    live = await read_table(services, table_id)
    if not live.over:  # live, or waiting for players: its deal is dealt and secret
        raise HTTPException(409, "the game is not over: replays open when it ends")
    total = len(live.state.history)
    if version > total or (seat is not None and seat >= len(live.seats)):
        raise HTTPException(422, f"version is 0..{total} and seat 0..{len(live.seats) - 1} (or omitted)")
    record = GameRecord.from_state(live.state)
    everyone = range(len(live.seats))
    state = await asyncio.to_thread(record.replay, version)
    return {
        "table": live.id,
        "version": version,
        "versions": total,
        "seat": seat,
        "observation": dict(state.observation(seat)),
        "seat_observations": None if seat is not None else [dict(state.observation(s)) for s in everyone],
        "log": log_texts(state.history_messages(seat), reader_of(lang, accept_language)),
    }


@router.post("/api/tables/{table_id}/token", response_model=SeatToken)
async def rotate_token(
    table_id: str, http: Request, services: ServicesDep, authorization: Annotated[str | None, Header()] = None
) -> Any:
    """A seat's holder replaces its token: the new one is in the answer; the old link and cookie stop working.

    The seat is named by ``Authorization: Bearer TOKEN``, the page's seat cookie, or the session of the account
    it is bound to. The seat's connections that a token or a seat cookie opened are closed (1008), in every
    process; those an account's session opened stay.
    """
    await read_table(services, table_id)
    seat = await services.seats.holder(http, table_id, authorization)
    return {"seat": seat, "token": await services.lobby.new_token(table_id, seat)}


async def seated_live(
    services: Services, http: Request, table_id: str, authorization: str | None
) -> tuple[LiveTable, int]:
    """The live table ``table_id`` and the seat the request opens at it (token, seat cookie or session).

    Raises:
        HTTPException: 404 for no such table; 403 (in the reader's language) when the request opens no seat there.
    """
    try:
        live = await services.tables.get(table_id)
    except TableNotFound:
        raise HTTPException(404, f"no table {cut(table_id)!r}") from None
    seat = await services.seats.presented(http, table_id, authorization)
    if seat is None:
        raise HTTPException(403, request_reader(http).message(NO_SEAT))
    return live, seat


@router.post(
    "/api/tables/{table_id}/claim",
    responses={403: {"description": "no seat at this table"}, 409: {"description": "no claim now (Retry-After)"}},
)
async def claim(
    table_id: str, http: Request, services: ServicesDep, authorization: Annotated[str | None, Header()] = None
) -> JSONResponse:
    """A player of a rated table claims against the seat to move, away for ``--claim-after`` seconds of its turn.

    The seat is named by ``Authorization: Bearer TOKEN``, the page's seat cookie or the account's session. 200
    ``{"table", "forfeit": SEAT, "status"}``: that seat forfeits (ranks last for the rating, the substitute plays
    it; a seat that never moved aborts the table instead: ``status`` is then ``aborted``). 403 for no seat; 404
    for no table; 409 when no claim may be made, with ``Retry-After`` when it may be in a moment.
    """
    reader = request_reader(http)
    live, seat = await seated_live(services, http, table_id, authorization)
    try:
        forfeited = await services.tables.claim(live, seat)
    except ClaimRefused as exc:
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after is not None else None
        raise HTTPException(exc.status, reader.message(exc.message), headers=headers) from None
    return JSONResponse({"table": table_id, "forfeit": forfeited, "status": live.status})
