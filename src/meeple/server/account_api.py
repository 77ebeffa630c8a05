"""The REST routes of accounts, sessions, profiles and leaderboards (:mod:`.accounts`, :mod:`.ratings`).

- ``POST /api/accounts {username, password, email?}``: sign up (201), logged in at once (session cookie).
- ``POST /api/session {username, password}``: log in (session cookie); 401 for a wrong pair, whichever part.
- ``DELETE /api/session``: log out. ``GET /api/me``, ``PATCH /api/me {email}``, ``DELETE /api/me {password}``.
- ``POST /api/me/password {old, new}``: change the password (other sessions end). ``DELETE /api/sessions``: log out
  everywhere.
- ``GET /api/players/{username}``: a profile (ratings, latest finished games). ``GET /api/leaderboard/{game}``.

Rules: issue #34 "People at the table" (items 5 and 6); docs/server.md.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import JSONResponse
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from meeple.core.registry import registered_games
from meeple.i18n import M, Message, language_from_accept, translator
from meeple.server.accounts import (
    MAX_USERNAME,
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
    current_account,
)
from meeple.server.db import TableRow
from meeple.server.hashing import PasswordWork
from meeple.server.logins import LoginGate, remember_device
from meeple.server.quotas import Limiter, quota_address
from meeple.server.ratings import MAX_OFFSET, MAX_PAGE, leaderboard, ratings_of, recent_games
from meeple.server.tables import NOTIFY_CHANNEL, TableService

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


def add_account_routes(app: FastAPI, state: dict[str, Any]) -> None:
    """Add the routes of this module to ``app``; ``state`` holds ``accounts``, ``service`` and ``limiter``."""
    limiter: Limiter = state["limiter"]

    def accounts() -> Accounts:
        found: Accounts = state["accounts"]
        return found

    def passwords() -> PasswordWork:
        found: PasswordWork = state["passwords"]
        return found

    def logins() -> LoginGate:
        found: LoginGate = state["logins"]
        return found

    async def me_or_401(http: Request) -> Account:
        account = await current_account(http)
        if account is None:
            raise HTTPException(401, _text(http, M("log in first")))
        return account

    @app.post("/api/accounts", status_code=201, responses={409: {"description": "username taken"}, **_REFUSALS})
    async def sign_up(request: NewAccount, http: Request) -> JSONResponse:
        """Create an account and log in: 201 ``{username}``, the session cookie and the device cookie.

        422 for a username outside 3-24 characters ``[A-Za-z0-9_.-]``, a password outside 8-128 characters or too
        easy to guess (:mod:`.passwords`: the message says why), or a malformed e-mail address; 409 if the username
        is taken (whatever its case); 429 past ``--signups-per-minute`` per address.
        """
        limiter.hit("signup", _address(http), "accounts created")
        try:
            account = await passwords().run(accounts().create, request.username, request.password, request.email)
        except AccountRefused as exc:
            raise HTTPException(exc.status, _text(http, exc.message)) from None
        token = await asyncio.to_thread(accounts().open_session, account.id)
        response = session_response(http, {"username": account.username}, token, 201)
        await remember_device(state, response, http.url.scheme == "https", account.id)
        return response

    @app.post("/api/session", responses=_REFUSALS)
    async def log_in(request: LogIn, http: Request) -> JSONResponse:
        """Log in: ``{username}``, the session cookie and the device cookie; 401 for a wrong username or password.

        429 past ``--logins-per-minute`` attempts from one address, or failed ones for one username from that address,
        or past ``--logins-per-username`` attempts at the username (any address) from devices it never logged in from
        (:mod:`.logins`). A device that logged in before (its ``meeple_device`` cookie) is not held back by the
        latter, and its password check is served before the others.
        """
        attempt = await logins().begin(http, request.username, _address(http))
        check = accounts().authenticate
        account = await passwords().run(check, request.username, request.password, trusted=attempt.trusted)
        if account is None:
            logins().failed(attempt)
            raise HTTPException(401, _text(http, M("wrong username or password")))
        token = await asyncio.to_thread(accounts().open_session, account.id)
        response = session_response(http, {"username": account.username}, token)
        await remember_device(state, response, http.url.scheme == "https", account.id)
        return response

    @app.delete("/api/session", status_code=200)
    async def log_out(http: Request) -> JSONResponse:
        """Log out: the session ends on the server and its cookie is removed (also when no session was open)."""
        token = http.cookies.get(SESSION_COOKIE)
        if token and len(token) <= 128:
            await asyncio.to_thread(accounts().close_session, token)
        return session_response(http, {"username": None}, None)

    @app.get("/api/me", responses=_REFUSALS)
    async def me(http: Request) -> dict[str, Any]:
        """The logged-in account: ``{username, email, created, ratings: {game: {rating, mu, sigma, games}}}``."""
        account = await me_or_401(http)
        ratings = await asyncio.to_thread(_ratings, accounts(), account.id)
        return {"username": account.username, "email": account.email, "created": account.created, "ratings": ratings}

    @app.patch("/api/me", responses=_REFUSALS)
    async def change_me(request: MeUpdate, http: Request) -> dict[str, Any]:
        """Set (or with ``null`` remove) the account's e-mail address: ``{username, email}``; 422 if malformed."""
        account = await me_or_401(http)
        await asyncio.to_thread(accounts().set_email, account.id, request.email)
        return {"username": account.username, "email": request.email}

    @app.delete("/api/me", responses=_REFUSALS)
    async def delete_me(request: DeleteMe, http: Request) -> JSONResponse:
        """Delete the logged-in account, given its password again (401 if wrong).

        Its seats lose their name and binding (records and pages then show an anonymous seat), its ratings and
        sessions go; the username becomes free.
        """
        account = await me_or_401(http)
        limiter.hit("login", _address(http), "log-in attempts")
        seats = await asyncio.to_thread(bound_seats, state, account.id)
        try:
            tables = await passwords().run(accounts().delete, account, request.password, trusted=True)
        except AccountRefused as exc:
            raise HTTPException(exc.status, _text(http, exc.message)) from None
        await revoke_seats(state, seats)
        await _resync(state, tables)
        return session_response(http, {"deleted": account.username}, None)

    @app.post("/api/me/password", responses=_REFUSALS)
    async def change_password(request: PasswordChange, http: Request) -> JSONResponse:
        """Change the password, given the current one (401 if wrong): ``{username}`` and a new session cookie.

        Every other session of the account ends (a device logged in with the old password is logged out); this one
        is renewed, and so is the device cookie. 422 for a new password outside 8-128 characters or too easy to guess
        (the message says why); 429 past ``--logins-per-minute`` attempts per address (as a log-in); 503 when the
        password threads are busy (a logged-in session's work has the known devices' lane).
        """
        account = await me_or_401(http)
        limiter.hit("login", _address(http), "log-in attempts")
        try:
            change = accounts().change_password
            token = await passwords().run(change, account, request.old, request.new, trusted=True)
        except AccountRefused as exc:
            raise HTTPException(exc.status, _text(http, exc.message)) from None
        await revoke_account(state, account.id)
        response = session_response(http, {"username": account.username}, token)
        await remember_device(state, response, http.url.scheme == "https", account.id)
        return response

    @app.delete("/api/sessions", responses=_REFUSALS)
    async def log_out_everywhere(http: Request) -> JSONResponse:
        """Log out everywhere: every session of the account ends, this one too (its cookie is removed).

        ``{"closed": n}``, the number of sessions ended; 401 if not logged in.
        """
        account = await me_or_401(http)
        closed = await asyncio.to_thread(accounts().close_sessions, account.id)
        await revoke_account(state, account.id)
        return session_response(http, {"closed": closed}, None)

    _add_profile_routes(app, state)


def _add_profile_routes(app: FastAPI, state: dict[str, Any]) -> None:
    def accounts() -> Accounts:
        found: Accounts = state["accounts"]
        return found

    @app.get("/api/players/{username}", responses={404: {"description": "no such player"}})
    async def player(username: str, http: Request) -> dict[str, Any]:
        """A player's profile: ``{username, created, ratings: {game: {...}}, games: [...]}``.

        ``games``: the latest finished games, newest first, each ``{table, game, created, rated, seat, players,
        record, replay}`` (links to the record and the replay page). Never a live or waiting game.
        """
        profile = await asyncio.to_thread(profile_of, accounts(), username) if len(username) <= MAX_USERNAME else None
        if profile is None:
            raise HTTPException(404, _text(http, M("no player {name!r}", name=username[:MAX_USERNAME])))
        return profile

    @app.get("/api/leaderboard/{game}", responses={404: {"description": "no such game"}})
    async def board(
        game: str,
        http: Request,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="entries per page")] = 50,
        offset: Annotated[int, Query(ge=0, le=MAX_OFFSET, description="entries skipped")] = 0,
    ) -> dict[str, Any]:
        """The best-rated accounts at ``game``, best ``rating`` (mu - 3 sigma) first; 404 for an unknown game.

        ``{game, total, limit, offset, entries: [{rank, username, rating, mu, sigma, games, updated}]}``.
        """
        if game not in registered_games():
            raise HTTPException(404, _text(http, M("no game {game!r}", game=game[:64])))
        total, entries = await asyncio.to_thread(_leaderboard, accounts(), game, limit, offset)
        return {"game": game, "total": total, "limit": limit, "offset": offset, "entries": entries}


def _ratings(accounts: Accounts, account_id: int) -> dict[str, dict[str, Any]]:
    with Session(accounts.engine) as s:
        return ratings_of(s, account_id)


def profile_of(accounts: Accounts, username: str) -> dict[str, Any] | None:
    """The public profile of ``username`` (``GET /api/players/{username}``), or None: no such live account."""
    account = accounts.by_username(username)
    if account is None:
        return None
    with Session(accounts.engine) as s:
        return {
            "username": account.username,
            "created": account.created,
            "ratings": ratings_of(s, account.id),
            "games": recent_games(s, account.id),
        }


def _leaderboard(accounts: Accounts, game: str, limit: int, offset: int) -> tuple[int, list[dict[str, Any]]]:
    with Session(accounts.engine) as s:
        return leaderboard(s, game, limit, offset)


def bound_seats(state: dict[str, Any], account_id: int) -> list[tuple[str, int]]:
    """The ``(table, seat)`` pairs bound to ``account_id`` (blocking: call it in a thread)."""
    service: TableService = state["service"]
    with Session(service.engine) as s:
        return account_seats(s, account_id)


async def revoke_seats(state: dict[str, Any], seats: list[tuple[str, int]]) -> None:
    """Revoke every other way into ``seats``: new tokens nobody is told, their open connections dropped.

    An account's sessions ended (log out everywhere, a password change, a deletion): a seat token minted with a
    stolen session, or a WebSocket it opened, must not outlive them. The account's own devices come back through
    its (new) session; a deleted account's seats are left to the substitute bots. Every process drops its
    connections (``revoke:`` notifications on PostgreSQL).
    """
    if not seats:
        return
    service: TableService = state["service"]
    await asyncio.to_thread(service.revoke_seats, seats)
    hub = state.get("hub")
    if hub is not None:
        for table_id, seat in seats:
            hub.drop_seat(table_id, seat)


async def revoke_account(state: dict[str, Any], account_id: int) -> None:
    """:func:`revoke_seats` for every seat bound to ``account_id``."""
    await revoke_seats(state, await asyncio.to_thread(bound_seats, state, account_id))


async def _resync(state: dict[str, Any], tables: list[str]) -> None:
    """The seats of ``tables`` changed outside a move (a deleted account): bump their revision, tell everyone."""
    if not tables:
        return
    service: TableService = state["service"]

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
