"""A table's end on its page: resign (or abort) while it is live, and the rematch once it is finished (issue #44).

``GET /tables/{id}/endgame`` is the fragment the table page shows under its board (its script fetches it again when
a ``rematch`` message or a new status comes); ``POST /tables/{id}/resign`` and ``POST /tables/{id}/rematch`` are its
forms, calling the same use cases as the REST routes (:meth:`meeple.server.tables.TableService.resign`,
:class:`meeple.server.rematch.Rematches`). A seat is the page's seat cookie or the session's account.

Rules: issue #44, items 1 (rematch: "a Rematch button on the end screen shows who has accepted") and 4; docs/web.md.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from meeple.core.errors import MeepleError
from meeple.i18n import Translator
from meeple.server.live import LiveTable, MoveRefused
from meeple.server.lobby import SeatRefused
from meeple.server.people import PeopleTranslator
from meeple.server.quotas import QuotaExceeded
from meeple.server.seats import NO_SEAT, client_address, with_seat_cookie
from meeple.server.services import ServicesDep
from meeple.web.pages.common import page_reader, read_table, render_page, seat_of, with_lang

router = APIRouter(include_in_schema=False)


def endgame_context(live: LiveTable, seat: int | None, reader: Translator) -> dict[str, Any]:
    """What the end fragment shows ``seat`` (None: a spectator) of ``live``: public facts and its own choices."""
    reader = PeopleTranslator(reader)  # a page counts seats from 1
    mine = live.seats[seat] if seat is not None else None
    human = mine is not None and mine.is_human
    resign = live.status == "live" and human and mine is not None and not mine.resigned
    resigned = [live.name_of(i, reader) for i, s in enumerate(live.seats) if s.resigned]
    rematch = _rematch_words(live, reader)
    view = live.rematch or {}
    return {
        "table": live.id,
        "resign": resign,
        "abort": resign and live.rated and mine is not None and mine.moved is None,
        "two": len(live.seats) == 2,
        "rated": live.rated,
        "resigned_by": ", ".join(resigned) if resigned else None,
        "finished": live.status == "finished",
        "rematch": rematch,
        "may_offer": human and live.status == "finished",
        "may_accept": seat is not None and seat in view.get("waiting_for", []),
        "mine": seat is not None and seat in view.get("accepted", []),
    }


def _rematch_words(live: LiveTable, reader: Translator) -> dict[str, Any] | None:
    """The rematch as the fragment says it: the seats of the finished table named in ``reader``'s language."""
    view = live.rematch
    if view is None:
        return None
    offered = view.get("offered_by")
    return {
        **view,
        "offered_by": live.name_of(offered, reader) if offered is not None else "",
        "accepted": [live.name_of(s, reader) for s in view.get("accepted", [])],
        "waiting_for": [live.name_of(s, reader) for s in view.get("waiting_for", [])],
    }


@router.get("/tables/{table_id}/endgame", response_class=HTMLResponse)
async def endgame(request: Request, services: ServicesDep, table_id: str, lang: str | None = None) -> HTMLResponse:
    """The end fragment of a table for the request's seat: resign while live, the rematch once finished."""
    reader = page_reader(request, lang)
    live = await read_table(services, table_id)
    seat = await seat_of(services, request, table_id)
    async with live.lock:
        context = endgame_context(live, seat, reader)
    return render_page("endgame.html", reader, request, **context)


def _refused(request: Request, reader: Translator, text: str, status: int) -> HTMLResponse:
    page = render_page("refused.html", reader, request, message=text, back=request.url.path.rsplit("/", 1)[0])
    page.status_code = status
    return page


@router.post("/tables/{table_id}/rematch", response_class=HTMLResponse)
async def rematch(request: Request, services: ServicesDep, table_id: str, lang: str | None = None) -> Response:
    """The end screen's "Rematch" (offer) or "Accept the rematch": then the rematch's page, its seat cookie set."""
    reader = page_reader(request, lang)
    await read_table(services, table_id)  # 404 for no table
    seat = await seat_of(services, request, table_id)
    if seat is None:
        return _refused(request, reader, reader.message(NO_SEAT), 403)
    try:
        taken, _ = await services.rematches.rematch(table_id, seat, client_address(request))
    except QuotaExceeded as exc:
        services.refused(exc.reason)
        page = _refused(request, reader, exc.message, 429)
        page.headers["Retry-After"] = str(exc.retry_after)
        return page
    except SeatRefused as exc:
        return _refused(request, reader, reader.message(exc.message), exc.status)
    except MeepleError as exc:
        return _refused(request, reader, reader.message(exc.message), 422)
    target = with_lang(f"/tables/{taken.table}", lang)
    return with_seat_cookie(RedirectResponse(target, status_code=303), request, taken.table, taken.token)


@router.post("/tables/{table_id}/resign", response_class=HTMLResponse)
async def resign(request: Request, services: ServicesDep, table_id: str, lang: str | None = None) -> Response:
    """The table page's "Resign" (or "Abort" before a rated seat's first move): then the table page again."""
    reader = page_reader(request, lang)
    live = await read_table(services, table_id)
    seat = await seat_of(services, request, table_id)
    if seat is None:
        return _refused(request, reader, reader.message(NO_SEAT), 403)
    try:
        await services.tables.resign(await services.tables.get(live.id), seat)
    except MoveRefused as exc:
        return _refused(request, reader, reader.message(exc.message), 409)
    return RedirectResponse(with_lang(f"/tables/{table_id}", lang), status_code=303)
