"""A table's pages: the table page, its board fragment, a seat's new invite link, and the moves played back.

A seat's page is opened by its cookie (or the session's account); without one the reader is a spectator. An invite
link ``?token=T`` sets the seat's cookie and is answered 303 without the token.

Rules: issue "Play online: the browser client"; issue #43 item 1 (``/tables/{id}/boards``); docs/web.md.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from meeple.core.registry import game_class
from meeple.core.state import SPECTATOR, State
from meeple.i18n import Message, Translator
from meeple.server.live import LiveTable
from meeple.server.seats import NO_SEAT, client_address, expired_cookie_header, seat_cookie, with_seat_cookie
from meeple.server.services import Services, ServicesDep
from meeple.web.games import companion_for, seat_name
from meeple.web.motion import MAX_BOARDS, frames
from meeple.web.pages.common import has_style, page_reader, read_table, render_page, seat_of, with_lang
from meeple.web.render import board_now, render_board

router = APIRouter(include_in_schema=False)


@router.get("/tables/{table_id}", response_class=HTMLResponse)
async def table_page(
    request: Request, services: ServicesDep, table_id: str, token: str | None = None, lang: str | None = None
) -> Response:
    """A seat's table (its cookie) or a spectator's; the script keeps it up to date.

    An invite link ``?token=T`` sets the seat's cookie (HttpOnly, SameSite=Strict, Secure over https) and is
    answered 303 to the same page without the token, so that the token leaves the address bar, the history and
    the logs (403 for a wrong token).
    """
    if token is not None:
        await read_table(services, table_id)
        if await seat_of(services, request, table_id, token) is None:
            raise HTTPException(403, page_reader(request, lang).message(NO_SEAT))
        target = with_lang(f"/tables/{table_id}", lang)
        return with_seat_cookie(RedirectResponse(target, status_code=303), request, table_id, token)
    reader, live, seat, board = await _view(services, request, table_id, lang)
    may_start, fill_at = await asyncio.to_thread(services.lobby.creator_choice, table_id, seat)
    bots_in = max(0, round(fill_at - services.tables.now())) if fill_at is not None else None
    page = render_page(
        "table.html",
        reader,
        request,
        may_start=may_start,
        bots_in=bots_in,
        table=table_id,
        game=live.game,
        title=game_class(live.game).title,
        seat_label=seat_name(seat, reader, None, [s.name for s in live.seats])
        if seat is not None
        else reader.gettext("spectator"),
        seat=seat,
        board=board,
        has_style=has_style(live.game),
    )
    return _expire_stale(page, request, table_id, seat)  # a stale cookie is sent no more


@router.get("/tables/{table_id}/board", response_class=HTMLResponse)
async def board_fragment(
    request: Request, services: ServicesDep, table_id: str, lang: str | None = None
) -> HTMLResponse:
    """The board of a seat (its cookie) or a spectator now: the fragment the script swaps in after each frame."""
    _reader, _live, seat, board = await _view(services, request, table_id, lang)
    return _expire_stale(HTMLResponse(board), request, table_id, seat)


@router.post("/tables/{table_id}/token", response_class=HTMLResponse)
async def new_link(request: Request, services: ServicesDep, table_id: str, lang: str | None = None) -> Response:
    """The seat's holder (its cookie) gets a new invite link; the old link and cookies stop working."""
    reader = page_reader(request, lang)
    live = await read_table(services, table_id)
    seat = await seat_of(services, request, table_id)
    if seat is None:
        stale = expired_cookie_header(request, table_id) if seat_cookie(table_id) in request.cookies else None
        raise HTTPException(403, "only the seat's holder may replace its link", headers=stale)
    token = await services.lobby.new_token(table_id, seat)  # the old token's connections close
    base = str(request.base_url).rstrip("/")
    links = [(seat, f"{base}/tables/{table_id}?token={token}")]
    page = render_page(
        "invite.html",
        reader,
        request,
        table=table_id,
        game=live.game,
        title=game_class(live.game).title,
        links=links,
        watch=f"{base}/tables/{table_id}",
    )
    return with_seat_cookie(page, request, table_id, token)


@router.get("/tables/{table_id}/boards")
async def boards(
    request: Request,
    services: ServicesDep,
    table_id: str,
    since: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    boards: Annotated[int, Query(ge=0, le=MAX_BOARDS)] = MAX_BOARDS,
    lang: Annotated[str | None, Query(max_length=8)] = None,
) -> JSONResponse:
    """The reader's moves after its version ``since``: each with its board then, its words and marks.

    ``{"version", "frames": [{"version", "actor", "own", "sentences", "marks", "board"}], "board"}``: ``board``
    is the board now, with the reader's moves (a ``since`` at the current version gives no frame). Only the last
    ``boards`` moves get their board (0: a page that shows the others' moves at once needs none). Bounds and what a
    reader may see of each board: :mod:`meeple.web.motion`.
    """
    reader = page_reader(request, lang)
    limiter = services.limiter
    limiter.hit("boards", client_address(request), "catch-ups of a table page")  # 429 past --boards-per-minute
    live = await read_table(services, table_id)
    seat = await seat_of(services, request, table_id)
    web = companion_for(live.game)
    seats = [s.name for s in live.seats]
    seen = live.state.observation(SPECTATOR if seat is None else seat)  # the game names its seats (ROB)

    def names(s: int) -> str:
        return web.seat_label(seen, s, reader, seat, seats)

    async with live.lock:

        def draw(state: State[Any], log: Sequence[tuple[int, Message]], words: str) -> str:
            return render_board(state, seat, list(log), reader, live, words=words)

        found = await asyncio.to_thread(frames, live.state, seat, since, web, names, reader, draw, boards)
        now = len(live.log_of(seat))
        current = await board_now(live, seat, reader, services.tables.rated)
    return JSONResponse({"version": now, "frames": [f.to_json() for f in found], "board": current})


async def _view(
    services: Services, request: Request, table_id: str, lang: str | None
) -> tuple[Translator, LiveTable, int | None, str]:
    """The reader's language, the table, the seat of its cookie, and that seat's board HTML.

    Without a cookie, or with one that no longer opens a seat, the reader is a spectator.
    """
    reader = page_reader(request, lang)
    live = await read_table(services, table_id)
    seat = await seat_of(services, request, table_id)
    async with live.lock:
        board = await board_now(live, seat, reader, services.tables.rated)
    return reader, live, seat, board


def _expire_stale(response: HTMLResponse, request: Request, table_id: str, seat: int | None) -> HTMLResponse:
    """``response``, deleting the request's seat cookie of ``table_id`` if it opened no seat (item 10)."""
    if seat is None and seat_cookie(table_id) in request.cookies:
        response.headers.append("set-cookie", expired_cookie_header(request, table_id)["set-cookie"])
    return response
