"""The REST routes of the lobby: ``POST /api/tables/{id}/join``, ``/start``, ``/wait`` and ``POST /api/quickmatch``.

Each handler only translates: it reads the request, calls the use case of :class:`meeple.server.lobby.Lobby` (the
one the pages call too) and turns its result into JSON and its domain error into a status code.

Rules: issue #34 "People at the table" (items 2 and 3); issue #42, item 3; docs/server.md ("The lobby").
"""

from __future__ import annotations

from typing import Annotated, Any, NoReturn

from fastapi import APIRouter, Header, HTTPException, Request
from fastapi.responses import JSONResponse

from meeple.core.errors import MeepleError
from meeple.server.live import TableNotFound
from meeple.server.lobby import NameNeeded, Seated, SeatRefused
from meeple.server.once import MAX_KEY, request_key
from meeple.server.protocol import JoinTable, QuickMatch, SeatTaken, StartTable
from meeple.server.replies import cut, request_reader
from meeple.server.seats import client_address, held_token, seated_tables, with_seat_cookie
from meeple.server.services import ServicesDep, current_account

router = APIRouter()

REFUSALS: dict[int | str, dict[str, Any]] = {
    409: {"description": "full, started or over"},
    429: {"description": "quota reached (Retry-After)"},
}


def seated(http: Request, seat: Seated, status: int = 201) -> JSONResponse:
    """The answer giving a seat's token, which also sets the page's seat cookie (HttpOnly, SameSite=Strict)."""
    response = JSONResponse({"table": seat.table, "seat": seat.seat, "token": seat.token}, status_code=status)
    return with_seat_cookie(response, http, seat.table, seat.token)


def refused(exc: MeepleError, http: Request, table_id: str = "") -> NoReturn:
    """Raise the HTTP answer of a lobby's domain error: its status, its message in ``Accept-Language``.

    A guest without a name gets pydantic's shape (``detail: [{loc: ["body", "name"], ...}]``); no such table 404;
    another bad request (a game, a player count, a bot) 422.
    """
    if isinstance(exc, NameNeeded):
        problem = {"loc": ["body", "name"], "msg": "a name is needed unless you are logged in", "type": "missing"}
        raise HTTPException(422, [problem])
    if isinstance(exc, TableNotFound):
        raise HTTPException(404, f"no table {cut(table_id)!r}")
    if isinstance(exc, SeatRefused):
        raise HTTPException(exc.status, request_reader(http).message(exc.message))
    raise HTTPException(422, str(exc))


@router.post("/api/tables/{table_id}/join", status_code=201, response_model=SeatTaken, responses=REFUSALS)
async def join(
    table_id: str,
    request: JoinTable,
    http: Request,
    services: ServicesDep,
    authorization: Annotated[str | None, Header()] = None,
) -> JSONResponse:
    """Take the first free open seat of a waiting table under ``name``: 201 ``{table, seat, token}``.

    Logged in, the seat is bound to the account and named by its username (``name`` may be left out); a rated
    table seats only logged-in players (401), each once (409).

    The answer also sets the seat's cookie. 409 if the table is full, started or over, or if the request
    already holds a seat there (its cookie or ``Authorization``); 404 for no such table; 429 past
    ``joins_per_minute`` per address. The last open seat taken starts the game, its clocks and its bots.
    """
    held = held_token(http, table_id, authorization)
    account = await current_account(http)
    try:
        seat = await services.lobby.join(table_id, request.name, account, client_address(http), held)
    except MeepleError as exc:
        refused(exc, http, table_id)
    return seated(http, seat)


@router.post("/api/tables/{table_id}/start", responses={403: {"description": "not the creator"}, **REFUSALS})
async def start(
    table_id: str,
    http: Request,
    services: ServicesDep,
    request: StartTable | None = None,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """The creator (a seat not taken through ``join``) starts a waiting table now, a bot in each open seat.

    Named by ``Authorization: Bearer TOKEN`` or the page's seat cookie. ``bot`` (default ``medium``) is a level
    the server allows. 403 for another seat or a wrong token, 409 if the table is not waiting.
    """
    seat = await services.seats.holder(http, table_id, authorization)
    try:
        await services.lobby.start_table(table_id, seat, (request or StartTable()).bot)
    except MeepleError as exc:
        refused(exc, http, table_id)
    return {"table": table_id, "status": "live"}


@router.post("/api/tables/{table_id}/wait", responses={403: {"description": "not the creator"}, **REFUSALS})
async def keep_waiting(
    table_id: str, http: Request, services: ServicesDep, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """The creator of a quick-match table waits for players: no bots take its seats at the end of the wait.

    The table still ends as abandoned if its seats are not taken within the day.
    """
    seat = await services.seats.holder(http, table_id, authorization)
    try:
        await services.lobby.wait_for_players(table_id, seat)
    except SeatRefused as exc:
        refused(exc, http, table_id)
    return {"table": table_id, "status": "waiting"}


@router.post("/api/quickmatch", status_code=201, response_model=SeatTaken, responses=REFUSALS)
async def quickmatch(
    request: QuickMatch,
    http: Request,
    services: ServicesDep,
    idempotency_key: Annotated[str | None, Header(max_length=4 * MAX_KEY)] = None,
) -> JSONResponse:
    """A seat at the oldest waiting quick-match table of ``game`` and ``players``, or at a new one.

    201 ``{table, seat, token}`` (and the seat's cookie). Two such requests meet at one table; unless its
    creator starts it or chooses to wait, bots take the open seats after a minute. 422 for an unknown game or
    player count; 429 past ``joins_per_minute``, or the quotas of table creation when a table is opened.
    Logged in, the seat is bound to the account (``name`` may be left out) and tables where it sits already are
    skipped. ``rated: true`` (log-in needed, else 401) meets only logged-in players at rated tables: no bots
    take their seats, they wait for players (and end as abandoned after ``--waiting-hours``).

    ``Idempotency-Key`` (1-64 characters ``A-Z a-z 0-9 _ -``, else 422): the same key from the same address within
    10 minutes, for the same body and account, gets the first request's seat again, never a second one (issue #44,
    item 9).
    """
    account = await current_account(http)
    who = (request.name, account)
    address = client_address(http)
    try:
        key = request_key(idempotency_key, address, account, request.model_dump()) if idempotency_key else None
        seat = await services.once.run(
            key,
            lambda: services.lobby.quick_match(
                request.game, request.players, request.rated, who, address, seated_tables(http)
            ),
        )
    except MeepleError as exc:
        refused(exc, http)
    return seated(http, seat)
