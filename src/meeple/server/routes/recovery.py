"""The REST routes of getting an account back, reports and the data export (issue #44, items 5, 6 and 8).

- ``POST /api/password-reset {username | email}``: 202 whatever happens (no enumeration); with ``--smtp`` the
  account's verified address is sent a one-time link to ``/reset/{token}``.
- ``GET /api/password-reset/{token}``: whose link it is (``{username, expires}``), 404 if not valid.
- ``POST /api/password-reset/{token} {password}``: the new password; every session ends, this one opens.
- ``POST /api/me/verification``: send the account's address a verification link again.
- ``POST /api/verification/{token}``: the address is verified.
- ``POST /api/reports {username, table?, reason}``: report an account (logged in).
- ``GET /api/me/export``: the account's data as one JSON document.

The use cases are :mod:`meeple.server.recovery`'s, :mod:`meeple.server.moderation`'s and
:mod:`meeple.server.export`'s; these routes read the request and translate results and refusals.

Rules: issue #44 "People who come back"; docs/server.md.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, BackgroundTasks, HTTPException, Path, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, StringConstraints
from sqlalchemy.orm import Session

from meeple.server.accounts import MAX_USERNAME, AccountRefused, NewPassword, ResetAsk
from meeple.server.export import export_account
from meeple.server.logins import remember_device
from meeple.server.moderation import MAX_REASON
from meeple.server.recovery import BAD_LINK, TOKEN_CHARS
from meeple.server.routes.accounts import _address, _text, me_or_401, revoke_account, session_response
from meeple.server.services import ServicesDep

router = APIRouter()

LinkToken = Annotated[str, Path(max_length=TOKEN_CHARS, description="the link's token (from the e-mail)")]

_REFUSALS: dict[int | str, dict[str, Any]] = {
    401: {"description": "not logged in"},
    404: {"description": "no such account, table or valid link"},
    429: {"description": "quota reached (Retry-After)"},
}


class ReportRequest(BaseModel):
    """``POST /api/reports``: who, at which table (optional), and why."""

    model_config = ConfigDict(extra="forbid")

    username: Annotated[str, StringConstraints(min_length=1, max_length=4 * MAX_USERNAME)]
    table: Annotated[str, StringConstraints(min_length=1, max_length=32)] | None = None
    reason: Annotated[str, StringConstraints(min_length=1, max_length=4 * MAX_REASON)]


@router.post("/api/password-reset", status_code=202, responses=_REFUSALS)
async def ask_reset(request: ResetAsk, http: Request, services: ServicesDep, later: BackgroundTasks) -> dict[str, Any]:
    """Ask for a password-reset link: 202 ``{"mail": bool}`` whatever the username or address (no enumeration).

    The accounts are looked up after the answer is sent (a background task), so that its time says nothing either.
    ``mail`` says whether this server sends e-mail at all (``--smtp``); without it the operator gives reset links
    (``meeple admin reset-password USER``). 429 past ``--resets-per-hour`` requests per address.
    """
    services.limiter.hit("resets", _address(http), "password-reset requests")
    who = request.username if request.username is not None else str(request.email)
    later.add_task(asyncio.to_thread, services.recovery.request_reset, who)
    return {"mail": services.notifier is not None}


@router.get("/api/password-reset/{token}", responses=_REFUSALS)
async def reset_link(token: LinkToken, http: Request, services: ServicesDep) -> dict[str, Any]:
    """Whose valid reset link this is: ``{username, expires}`` (Unix seconds); 404 if used, lapsed or unknown."""
    info = await asyncio.to_thread(services.recovery.link, token, "reset")
    if info is None:
        raise HTTPException(404, _text(http, BAD_LINK))
    return {"username": info.username, "expires": info.expires}


@router.post("/api/password-reset/{token}", responses=_REFUSALS)
async def reset_password(token: LinkToken, request: NewPassword, http: Request, services: ServicesDep) -> JSONResponse:
    """Set a new password through a reset link: ``{username}`` and a session cookie; every other session ends.

    404 if the link is not valid (used, lapsed, never sent); 422 for a password outside 8-128 characters or too
    easy to guess (the link stays valid); 429 past ``--logins-per-minute`` per address.
    """
    services.limiter.hit("login", _address(http), "log-in attempts")
    try:
        account, token_ = await services.passwords.run(services.recovery.reset, token, request.password, trusted=True)
    except AccountRefused as exc:
        raise HTTPException(exc.status, _text(http, exc.message)) from None
    await revoke_account(services, account.id)
    response = session_response(http, {"username": account.username}, token_)
    await remember_device(services.logins, response, http.url.scheme == "https", account.id)
    return response


@router.post("/api/me/verification", status_code=202, responses=_REFUSALS)
async def send_verification(http: Request, services: ServicesDep) -> dict[str, Any]:
    """Send the account's address a new verification link: 202 ``{"sent": bool}``.

    ``sent`` is false without ``--smtp``, without an address, or when it is verified already; 429 past
    ``--verifications-per-hour`` for the account.
    """
    account = await me_or_401(http)
    sent = await asyncio.to_thread(services.recovery.send_verification, account.id)
    return {"sent": sent}


@router.post("/api/verification/{token}", responses=_REFUSALS)
async def verify(token: LinkToken, http: Request, services: ServicesDep) -> dict[str, Any]:
    """Verify the address a link was sent to: ``{username, email_verified: true}``; 404 if not valid.

    A link is void once used, after 24 hours, or once its account's address changed.
    """
    services.limiter.hit("login", _address(http), "log-in attempts")
    try:
        username = await asyncio.to_thread(services.recovery.verify, token)
    except AccountRefused as exc:
        raise HTTPException(exc.status, _text(http, exc.message)) from None
    return {"username": username, "email_verified": True}


@router.post("/api/reports", status_code=201, responses=_REFUSALS)
async def report(request: ReportRequest, http: Request, services: ServicesDep) -> dict[str, Any]:
    """Report an account to the operator: 201 ``{"report": id}``; with ``table``, its latest chat lines are kept.

    401 if not logged in; 404, no such account or table; 422, an empty reason (once cleaned) or one over 500
    characters, or oneself; 429 past ``--reports-per-hour`` per address or per account.
    """
    account = await me_or_401(http)
    services.limiter.hit("reports", _address(http), "reports")
    services.limiter.hit("reports", f"account {account.id}", "reports")
    moderation = services.moderation
    try:
        found = await asyncio.to_thread(moderation.report, account.id, request.username, request.table, request.reason)
    except AccountRefused as exc:
        raise HTTPException(exc.status, _text(http, exc.message)) from None
    return {"report": found}


@router.get("/api/me/export", responses=_REFUSALS)
async def export(http: Request, services: ServicesDep) -> Response:
    """The account's data as one JSON document (``meeple-account-export/1``: :mod:`meeple.server.export`).

    A download (``Content-Disposition: attachment``); 401 if not logged in; 429 past ``--exports-per-hour`` per
    address or per account.
    """
    account = await me_or_401(http)
    services.limiter.hit("exports", _address(http), "data exports")
    services.limiter.hit("exports", f"account {account.id}", "data exports")

    def read() -> dict[str, Any]:
        with Session(services.engine) as s:
            return export_account(s, account, services.tables.now())

    document = await asyncio.to_thread(read)
    body = json.dumps(document, ensure_ascii=False, indent=1)
    name = f"meeple-{account.username}.json"
    return Response(
        body,
        media_type="application/json",
        headers={"content-disposition": f'attachment; filename="{name}"', "cache-control": "no-store"},
    )
