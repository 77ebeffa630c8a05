"""The forms of an account's invitations and blocks: decline an invitation, block or unblock a player (issue #44).

``POST /me/invitations/{table}/decline`` ("My tables" lists the invitations, each with "Take the seat", the lobby's
join, and "Decline"), ``POST /players/{username}/block`` and ``/unblock`` (a profile's button). They call the same
use cases as ``DELETE /api/me/invitations/{table}`` and ``PUT``/``DELETE /api/me/blocks/{username}``, then go back
to the page they came from (303).

Rules: issue #44, items 2 and 6; docs/web.md.
"""

from __future__ import annotations

import asyncio
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from meeple.i18n import M, Translator
from meeple.server.blocks import BlockRefused
from meeple.server.live import TableNotFound
from meeple.server.lobby import SeatRefused
from meeple.server.quotas import QuotaExceeded
from meeple.server.services import ServicesDep, current_account
from meeple.web.pages.common import page_reader, render_page, with_lang

router = APIRouter(include_in_schema=False)


def _refused(request: Request, reader: Translator, text: str, status: int, back: str) -> HTMLResponse:
    page = render_page("refused.html", reader, request, message=text, back=back)
    page.status_code = status
    return page


@router.post("/me/invitations/{table_id}/decline", response_class=HTMLResponse)
async def decline(request: Request, services: ServicesDep, table_id: str, lang: str | None = None) -> Response:
    """The "Decline" of "My tables": the invitation to ``table_id`` is declined, then "My tables" again."""
    reader = page_reader(request, lang)
    account = await current_account(request)
    if account is None:
        return _refused(request, reader, reader.message(M("log in first")), 401, "/")
    try:
        await services.rematches.decline_invitation(table_id, account)
    except (SeatRefused, TableNotFound):
        text = reader.message(M("you are not invited to this table"))
        return _refused(request, reader, text, 404, "/me/tables")
    return RedirectResponse(with_lang("/me/tables", lang), status_code=303)


async def _change(request: Request, services: ServicesDep, username: str, block: bool, lang: str | None) -> Response:
    reader = page_reader(request, lang)
    back = f"/players/{quote(username[:64], safe='')}"
    account = await current_account(request)
    if account is None:
        return _refused(request, reader, reader.message(M("log in first")), 401, back)
    try:
        if block:
            await asyncio.to_thread(services.blocks.block, account.id, username[:64])
        else:
            await asyncio.to_thread(services.blocks.unblock, account.id, username[:64])
    except BlockRefused as exc:
        return _refused(request, reader, reader.message(exc.message), exc.status, back)
    except QuotaExceeded as exc:
        services.refused(exc.reason)
        page = _refused(request, reader, exc.message, 429, back)
        page.headers["Retry-After"] = str(exc.retry_after)
        return page
    names = await asyncio.to_thread(services.blocks.blocked_names, account.id)
    await services.hub.blocks_changed(account.id, names)
    return RedirectResponse(with_lang(back, lang), status_code=303)


@router.post("/players/{username}/block", response_class=HTMLResponse)
async def block(request: Request, services: ServicesDep, username: str, lang: str | None = None) -> Response:
    """A profile's "Block this player", then the profile again."""
    return await _change(request, services, username, True, lang)


@router.post("/players/{username}/unblock", response_class=HTMLResponse)
async def unblock(request: Request, services: ServicesDep, username: str, lang: str | None = None) -> Response:
    """A profile's "Unblock", then the profile again."""
    return await _change(request, services, username, False, lang)
