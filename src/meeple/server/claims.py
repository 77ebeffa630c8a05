"""``POST /api/tables/{id}/claim``: a player of a rated table claims against the seat to move, away too long.

The seat to move forfeits at once (it ranks last for the rating; the substitute bot finishes the game for the
others) instead of the others waiting for its grace: :func:`meeple.server.rated.claim_wait` says when a claim may be
made, :meth:`meeple.server.tables.TableService.claim` makes it.

Rules: issue 41, item 7 ("the waiting player may claim the game after a long stall"); docs/server.md, "Rated tables".
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Request
from fastapi.responses import JSONResponse

from meeple.i18n import M, language_from_accept, translator
from meeple.server.live import TableNotFound
from meeple.server.rated import ClaimRefused
from meeple.server.tables import TableService

SeatOf = Callable[[dict[str, Any], Request, str, str | None], Awaitable[int | None]]
"""How the app finds the seat a request opens (its token, session or cookie): ``app.presented_seat``."""


def add_claim_route(app: FastAPI, state: dict[str, Any], seat_of: SeatOf) -> None:
    """Add ``POST /api/tables/{table_id}/claim`` to ``app`` (``state``: the app's services; ``seat_of``: see above)."""

    @app.post(
        "/api/tables/{table_id}/claim",
        responses={403: {"description": "no seat at this table"}, 409: {"description": "no claim now (Retry-After)"}},
    )
    async def claim(
        table_id: str, http: Request, authorization: Annotated[str | None, Header()] = None
    ) -> JSONResponse:
        """A player of a rated table claims against the seat to move, away for ``--claim-after`` seconds of its turn.

        The seat is named by ``Authorization: Bearer TOKEN``, the page's seat cookie or the account's session. 200
        ``{"table", "forfeit": SEAT, "status"}``: that seat forfeits (ranks last for the rating, the substitute plays
        it; a seat that never moved aborts the table instead: ``status`` is then ``aborted``). 403 for no seat; 404
        for no table; 409 when no claim may be made, with ``Retry-After`` when it may be in a moment.
        """
        reader = translator(language_from_accept(http.headers.get("accept-language")))
        service: TableService = state["service"]
        try:
            live = await service.get(table_id)
        except TableNotFound:
            raise HTTPException(404, f"no table {table_id[:40]!r}") from None
        seat = await seat_of(state, http, table_id, authorization)
        if seat is None:
            raise HTTPException(403, reader.message(M("this token opens no seat at this table")))
        try:
            forfeited = await service.claim(live, seat)
        except ClaimRefused as exc:
            headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after is not None else None
            raise HTTPException(exc.status, reader.message(exc.message), headers=headers) from None
        return JSONResponse({"table": table_id, "forfeit": forfeited, "status": live.status})
