"""The REST routes of a game's end: ``POST /api/tables/{id}/rematch`` and ``POST /api/tables/{id}/resign``.

Each handler only translates: it reads the request, finds the seat it opens (``Authorization: Bearer TOKEN``, the
page's seat cookie or the account's session), calls the use case (:class:`meeple.server.rematch.Rematches`,
:meth:`meeple.server.tables.TableService.resign`) and turns its result into JSON, its domain error into a status.

Rules: issue #44, items 1 (rematch) and 4 (resign and abort); docs/server.md.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Request
from fastapi.responses import JSONResponse

from meeple.core.errors import MeepleError
from meeple.server.live import MoveRefused, TableNotFound
from meeple.server.protocol import SeatTaken
from meeple.server.replies import cut, request_reader
from meeple.server.routes.lobby import refused, seated
from meeple.server.routes.tables import seated_live
from meeple.server.seats import NO_SEAT, client_address
from meeple.server.services import ServicesDep

router = APIRouter()


@router.post(
    "/api/tables/{table_id}/rematch",
    status_code=201,
    response_model=SeatTaken,
    responses={
        200: {"description": "the rematch accepted (it was offered already)"},
        403: {"description": "no seat at this table, or none at the rematch"},
        409: {"description": "not finished, accepted already, started, lapsed or declined"},
        429: {"description": "quota reached (Retry-After)"},
    },
)
async def rematch(
    table_id: str, http: Request, services: ServicesDep, authorization: Annotated[str | None, Header()] = None
) -> JSONResponse:
    """A seat of a finished table offers its rematch, or accepts the one offered: ``{table, seat, token}``.

    201 when this request created the rematch (the same game, parameters, rated-ness and clock, seats rotated by
    one, bots kept, each human seat reserved for the same person), 200 when it accepted the one offered; the token
    is that of the seat taken at the rematch (and its seat cookie is set). The game starts when every human has
    accepted; the offer lapses after ``--rematch-seconds``. Everyone at the finished table is told (``rematch``).
    403 for no seat at this table; 404 for no table; 409 if the table is not finished, the seat accepted already,
    the rematch started, lapsed or was declined, or its players block one another; 429 past the table quotas.
    """
    reader = request_reader(http)
    try:
        await services.tables.read(table_id)
    except TableNotFound:
        raise HTTPException(404, f"no table {cut(table_id)!r}") from None
    seat = await services.seats.presented(http, table_id, authorization)
    if seat is None:
        raise HTTPException(403, reader.message(NO_SEAT))
    try:
        taken, created = await services.rematches.rematch(table_id, seat, client_address(http))
    except MeepleError as exc:  # a quota's 429 is the app's (QuotaExceeded)
        refused(exc, http, table_id)
    return seated(http, taken, 201 if created else 200)


@router.post(
    "/api/tables/{table_id}/resign",
    responses={403: {"description": "no seat at this table"}, 409: {"description": "not under way, or resigned"}},
)
async def resign(
    table_id: str, http: Request, services: ServicesDep, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """A seat resigns: 200 ``{"table", "seat", "status"}``.

    That seat is out: at two players the other wins at once (``status`` ``finished``, ``ended`` ``resigned``),
    otherwise the substitute bot finishes the seat's game for the others; at a rated table it ranks last, and before
    its own first move the table is aborted instead (``status`` ``aborted``, ``ended`` ``no_move``: nobody rated).
    The seat is named as for ``claim``. 403 for no seat; 404 for no table; 409 if the game is not under way or the
    seat resigned already.
    """
    live, seat = await seated_live(services, http, table_id, authorization)
    try:
        status = await services.tables.resign(live, seat)
    except MoveRefused as exc:
        raise HTTPException(409, request_reader(http).message(exc.message)) from None
    return {"table": table_id, "seat": seat, "status": status}
