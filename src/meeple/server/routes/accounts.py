"""The REST routes of accounts and sessions (:mod:`meeple.server.accounts`), and revoking an account's seats.

- ``POST /api/accounts {username, password, email?}``: sign up (201), logged in at once (session cookie).
- ``POST /api/session {username, password}``: log in (session cookie); 401 for a wrong pair, whichever part.
- ``DELETE /api/session``: log out. ``GET /api/me``, ``PATCH /api/me {email}``, ``DELETE /api/me {password}``.
- ``POST /api/me/password {old, new}``: change the password (other sessions end). ``DELETE /api/sessions``: log out
  everywhere.

Profiles and leaderboards are :mod:`.people`'s.

Rules: issue #34 "People at the table" (items 5 and 6); docs/server.md.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from meeple.i18n import M, Message, language_from_accept, translator
from meeple.server.accounts import (
    BANNED,
    SESSION_COOKIE,
    SESSION_DAYS,
    Account,
    AccountRefused,
    Accounts,
    DeleteMe,
    LogIn,
    MeUpdate,
    NewAccount,
    PasswordChange,
    account_seats,
)
from meeple.server.db import TableRow
from meeple.server.logins import remember_device
from meeple.server.quotas import QuotaExceeded, quota_address
from meeple.server.ratings import ratings_of
from meeple.server.services import Services, ServicesDep, current_account
from meeple.server.tables import NOTIFY_CHANNEL

router = APIRouter()

_REFUSALS: dict[int | str, dict[str, Any]] = {
    401: {"description": "not logged in, or a wrong username or password"},
    429: {"description": "quota reached (Retry-After)"},
    503: {"description": "the password checks are all busy (Retry-After)"},
}


def _address(http: Request) -> str:
    return quota_address(http.client.host) if http.client is not None else "unknown"


def _text(http: Request, message: Message | str) -> str:
    """``message`` in the request's language (``Accept-Language``)."""
    return translator(language_from_accept(http.headers.get("accept-language"))).message(message)


def session_response(http: Request, body: dict[str, Any], token: str | None, status: int = 200) -> JSONResponse:
    """``body`` as JSON, setting the session cookie to ``token`` (None: removing it).

    The cookie is HttpOnly, SameSite=Lax, for the whole site, Secure when the request came over https (as uvicorn
    saw it: behind a proxy named in ``--forwarded-allow-ips``, its ``X-Forwarded-Proto``).
    """
    response = JSONResponse(body, status_code=status)
    secure = http.url.scheme == "https"
    if token is None:
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=secure)
    else:
        response.set_cookie(
            SESSION_COOKIE,
            token,
            max_age=SESSION_DAYS * 86_400,
            path="/",
            httponly=True,
            samesite="lax",
            secure=secure,
        )
    return response


async def me_or_401(http: Request) -> Account:
    """The logged-in account of ``http``, else 401."""
    account = await current_account(http)
    if account is None:
        raise HTTPException(401, _text(http, M("log in first")))
    return account


@router.post("/api/accounts", status_code=201, responses={409: {"description": "username taken"}, **_REFUSALS})
async def sign_up(request: NewAccount, http: Request, services: ServicesDep) -> JSONResponse:
    """Create an account and log in: 201 ``{username}``, the session cookie and the device cookie.

    422 for a username outside 3-24 characters ``[A-Za-z0-9_.-]``, a password outside 8-128 characters or too
    easy to guess (:mod:`.passwords`: the message says why), or a malformed e-mail address; 409 if the username
    is taken (whatever its case); 403 if the address is a banned account's; 429 past ``--signups-per-minute`` per
    address. With ``--smtp`` an address given is sent a verification link (issue #44, item 5).
    """
    services.limiter.hit("signup", _address(http), "accounts created")
    try:
        account = await services.passwords.run(
            services.accounts.create, request.username, request.password, request.email
        )
    except AccountRefused as exc:
        raise HTTPException(exc.status, _text(http, exc.message)) from None
    token = await asyncio.to_thread(services.accounts.open_session, account.id)
    await send_first_link(services, account.id)
    response = session_response(http, {"username": account.username}, token, 201)
    await remember_device(services.logins, response, http.url.scheme == "https", account.id)
    return response


@router.post("/api/session", responses=_REFUSALS)
async def log_in(request: LogIn, http: Request, services: ServicesDep) -> JSONResponse:
    """Log in: ``{username}``, the session cookie and the device cookie; 401 for a wrong username or password.

    429 past ``--logins-per-minute`` attempts from one address, or failed ones for one username from that address,
    or past ``--logins-per-username`` attempts at the username (any address) from devices it never logged in from
    (:mod:`.logins`). A device that logged in before (its ``meeple_device`` cookie) is not held back by the
    latter, and its password check is served before the others. 403 for a banned account (``meeple admin ban``).
    """
    attempt = await services.logins.begin(http, request.username, _address(http))
    check = services.accounts.authenticate
    account = await services.passwords.run(check, request.username, request.password, trusted=attempt.trusted)
    if account is None:
        services.logins.failed(attempt)
        raise HTTPException(401, _text(http, M("wrong username or password")))
    if account.banned:
        raise HTTPException(403, _text(http, BANNED))
    token = await asyncio.to_thread(services.accounts.open_session, account.id)
    response = session_response(http, {"username": account.username}, token)
    await remember_device(services.logins, response, http.url.scheme == "https", account.id)
    return response


@router.delete("/api/session", status_code=200)
async def log_out(http: Request, services: ServicesDep) -> JSONResponse:
    """Log out: the session ends on the server and its cookie is removed (also when no session was open)."""
    token = http.cookies.get(SESSION_COOKIE)
    if token and len(token) <= 128:
        await asyncio.to_thread(services.accounts.close_session, token)
    return session_response(http, {"username": None}, None)


@router.get("/api/me", responses=_REFUSALS)
async def me(http: Request, services: ServicesDep) -> dict[str, Any]:
    """The logged-in account: ``{username, email, email_verified, created, ratings}``.

    ``ratings``: ``{game: {rating, mu, sigma, games}}``.
    """
    account = await me_or_401(http)
    ratings = await asyncio.to_thread(_ratings, services.accounts, account.id)
    return {
        "username": account.username,
        "email": account.email,
        "email_verified": account.verified,
        "created": account.created,
        "ratings": ratings,
    }


@router.patch("/api/me", responses=_REFUSALS)
async def change_me(request: MeUpdate, http: Request, services: ServicesDep) -> dict[str, Any]:
    """Set (or with ``null`` remove) the account's e-mail address: ``{username, email, email_verified}``.

    A new address is not verified until its owner opens the link sent to it (with ``--smtp``); the same address
    again keeps its state (past ``--verifications-per-hour`` no link is sent: ``POST /api/me/verification`` later).
    422 if malformed; 403 if it is a banned account's.
    """
    account = await me_or_401(http)
    try:
        changed = await asyncio.to_thread(services.accounts.set_email, account.id, request.email)
    except AccountRefused as exc:
        raise HTTPException(exc.status, _text(http, exc.message)) from None
    if changed:
        await send_first_link(services, account.id)
    verified = account.verified and not changed and request.email is not None
    return {"username": account.username, "email": request.email, "email_verified": verified}


async def send_first_link(services: Services, account_id: int) -> None:
    """Send a new address its verification link (issue #44); past the hourly quota none (the change stays)."""
    with contextlib.suppress(QuotaExceeded):
        await asyncio.to_thread(services.recovery.send_verification, account_id)


@router.delete("/api/me", responses=_REFUSALS)
async def delete_me(request: DeleteMe, http: Request, services: ServicesDep) -> JSONResponse:
    """Delete the logged-in account, given its password again (401 if wrong).

    Its seats lose their name and binding (records and pages then show an anonymous seat), its ratings and
    sessions go; the username becomes free.
    """
    account = await me_or_401(http)
    services.limiter.hit("login", _address(http), "log-in attempts")
    seats = await asyncio.to_thread(bound_seats, services, account.id)
    try:
        tables = await services.passwords.run(services.accounts.delete, account, request.password, trusted=True)
    except AccountRefused as exc:
        raise HTTPException(exc.status, _text(http, exc.message)) from None
    await revoke_seats(services, seats)
    await _resync(services, tables)
    return session_response(http, {"deleted": account.username}, None)


@router.post("/api/me/password", responses=_REFUSALS)
async def change_password(request: PasswordChange, http: Request, services: ServicesDep) -> JSONResponse:
    """Change the password, given the current one (401 if wrong): ``{username}`` and a new session cookie.

    Every other session of the account ends (a device logged in with the old password is logged out); this one
    is renewed, and so is the device cookie. 422 for a new password outside 8-128 characters or too easy to guess
    (the message says why); 429 past ``--logins-per-minute`` attempts per address (as a log-in); 503 when the
    password threads are busy (a logged-in session's work has the known devices' lane).
    """
    account = await me_or_401(http)
    services.limiter.hit("login", _address(http), "log-in attempts")
    try:
        change = services.accounts.change_password
        token = await services.passwords.run(change, account, request.old, request.new, trusted=True)
    except AccountRefused as exc:
        raise HTTPException(exc.status, _text(http, exc.message)) from None
    await revoke_account(services, account.id)
    response = session_response(http, {"username": account.username}, token)
    await remember_device(services.logins, response, http.url.scheme == "https", account.id)
    return response


@router.delete("/api/sessions", responses=_REFUSALS)
async def log_out_everywhere(http: Request, services: ServicesDep) -> JSONResponse:
    """Log out everywhere: every session of the account ends, this one too (its cookie is removed).

    ``{"closed": n}``, the number of sessions ended; 401 if not logged in.
    """
    account = await me_or_401(http)
    closed = await asyncio.to_thread(services.accounts.close_sessions, account.id)
    await revoke_account(services, account.id)
    return session_response(http, {"closed": closed}, None)


def _ratings(accounts: Accounts, account_id: int) -> dict[str, dict[str, Any]]:
    with Session(accounts.engine) as s:
        return ratings_of(s, account_id)


def bound_seats(services: Services, account_id: int) -> list[tuple[str, int]]:
    """The ``(table, seat)`` pairs bound to ``account_id`` (blocking: call it in a thread)."""
    with Session(services.engine) as s:
        return account_seats(s, account_id)


async def revoke_seats(services: Services, seats: list[tuple[str, int]]) -> None:
    """Revoke every other way into ``seats``: new tokens nobody is told, their open connections dropped.

    An account's sessions ended (log out everywhere, a password change, a deletion): a seat token minted with a
    stolen session, or a WebSocket it opened, must not outlive them. The account's own devices come back through
    its (new) session; a deleted account's seats are left to the substitute bots. Every process drops its
    connections (``revoke:`` notifications on PostgreSQL).
    """
    if not seats:
        return
    await asyncio.to_thread(services.tables.revoke_seats, seats)
    for table_id, seat in seats:
        services.hub.drop_seat(table_id, seat)


async def revoke_account(services: Services, account_id: int) -> None:
    """:func:`revoke_seats` for every seat bound to ``account_id``."""
    await revoke_seats(services, await asyncio.to_thread(bound_seats, services, account_id))


async def _resync(services: Services, tables: list[str]) -> None:
    """The seats of ``tables`` changed outside a move (a deleted account): bump their revision, tell everyone."""
    if not tables:
        return
    service = services.tables

    def bump() -> None:
        with Session(service.engine) as s, s.begin():
            s.execute(update(TableRow).where(TableRow.id.in_(tables)).values(rev=TableRow.rev + 1))
            if service.postgres:
                for table_id in tables:
                    s.execute(select(func.pg_notify(NOTIFY_CHANNEL, table_id)))

    await asyncio.to_thread(bump)
    for table_id in tables:
        live = service.tables.get(table_id)
        if live is not None:
            await service.sync(live)
