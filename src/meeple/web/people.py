"""The browser pages of accounts: the lobby's log-in, sign-up and log-out forms, profiles and leaderboards.

The forms post to ``/login``, ``/signup`` and ``/logout`` (no script: the pages' CSP forbids inline ones), which
answer 303 back to the lobby with the session cookie set or removed, or the lobby again with the problem. A profile
(``/players/{username}``) shows an account's ratings and latest finished games with links to their replays; a
leaderboard (``/leaderboard/{game}``) its game's best-rated accounts, a page at a time. Both show only what the API's
``GET /api/players/{username}`` and ``GET /api/leaderboard/{game}`` give anyone.

Rules: issue #34 "People at the table" (items 5 and 6); docs/web.md.
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

from fastapi import FastAPI, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError
from sqlalchemy.orm import Session

from meeple.core.registry import game_class, registered_games
from meeple.i18n import LANGUAGES, Translator
from meeple.server.accounts import (
    MAX_PASSWORD,
    MAX_USERNAME,
    SESSION_COOKIE,
    AccountRefused,
    Accounts,
    LogIn,
    NewAccount,
    PasswordChange,
)
from meeple.server.hashing import PasswordWorkBusy
from meeple.server.logins import LoginGate, remember_device
from meeple.server.quotas import Limiter, QuotaExceeded, quota_address
from meeple.server.ratings import MAX_PAGE, leaderboard
from meeple.server.routes.accounts import revoke_account, session_response
from meeple.server.routes.people import public_profile
from meeple.server.services import current_account, services_of

PAGE = 25
"""Leaderboard entries per page."""
MAX_PAGES = 400
"""The deepest leaderboard page asked for (10,000 entries)."""

Render = Callable[..., HTMLResponse]
T = TypeVar("T")

LobbyError = Callable[[Request, Translator, str, int], Awaitable[HTMLResponse]]


def day(timestamp: float) -> str:
    """A Unix time as an ISO date (``2026-11-25``, UTC): the same in every language."""
    return datetime.datetime.fromtimestamp(timestamp, datetime.UTC).date().isoformat()


def add_people_pages(
    app: FastAPI, render: Render, reader_of: Callable[..., Translator], lobby_error: LobbyError
) -> None:
    """Add the account forms' routes, the profile and the leaderboard pages to the web ``app``.

    Args:
        app: the web app (its services: :func:`meeple.server.services.services_of`).
        render: ``render(template, reader, request, **context)`` (meeple.web.app's page renderer).
        reader_of: ``reader_of(request, lang)``: the page's language.
        lobby_error: the lobby again with a problem and an HTTP status.
    """

    def accounts() -> Accounts:
        return services_of(app).accounts

    def limiter() -> Limiter:
        return services_of(app).limiter

    def logins() -> LoginGate:
        return services_of(app).logins

    async def hashed(
        request: Request, reader: Translator, call: Callable[..., T], *args: object, trusted: bool = False
    ) -> T | Response:
        """``call(*args)`` on the password threads (:mod:`meeple.server.hashing`), or the lobby with a 503."""
        try:
            return await services_of(app).passwords.run(call, *args, trusted=trusted)
        except PasswordWorkBusy as exc:
            services_of(app).refused("password_busy")
            page = await lobby_error(request, reader, reader.message(exc.message), 503)
            page.headers["Retry-After"] = str(exc.retry_after)
            return page

    async def back(
        request: Request, lang: str | None, token: str | None, path: str = "/", device: int | None = None
    ) -> Response:
        """303 to ``path`` setting (or removing) the session cookie, and the device cookie of account ``device``."""
        target = path + (f"?lang={lang}" if lang in LANGUAGES else "")
        response = session_response(request, {}, token)
        redirect = RedirectResponse(target, status_code=303)
        for value in response.headers.getlist("set-cookie"):
            redirect.headers.append("set-cookie", value)
        if device is not None:
            await remember_device(logins(), redirect, request.url.scheme == "https", device)
        return redirect

    def problem(exc: Exception, reader: Translator) -> str:
        """What was wrong with a form, in the reader's language (never the input itself)."""
        if isinstance(exc, ValidationError):
            where = {str(part) for e in exc.errors() for part in e["loc"]}
            if "username" in where:
                return reader.gettext("A username has 3 to 24 characters: letters A-Z or a-z, digits, _ . or -.")
            if where & {"password", "old", "new"}:
                return reader.gettext("A password has 8 to 128 characters.")
            return reader.gettext("An e-mail address looks like name@example.org (at most 254 characters).")
        if isinstance(exc, AccountRefused):
            return reader.message(exc.message)
        if isinstance(exc, QuotaExceeded):
            return exc.words(reader)[:300]
        return str(getattr(exc, "message", exc))[:300]

    @app.post("/signup", response_class=HTMLResponse, include_in_schema=False)
    async def sign_up(
        request: Request,
        username: Annotated[str, Form(max_length=4 * MAX_USERNAME)],
        password: Annotated[str, Form(max_length=MAX_PASSWORD)],
        email: Annotated[str, Form(max_length=254)] = "",
        lang: str | None = None,
    ) -> Response:
        """The lobby's sign-up form: an account, logged in at once (``POST /api/accounts``)."""
        reader = reader_of(request, lang)
        try:
            limiter().hit("signup", _address(request), "accounts created")
            asked = NewAccount(username=username, password=password, email=email.strip() or None)
            account = await hashed(request, reader, accounts().create, asked.username, asked.password, asked.email)
        except (ValidationError, AccountRefused, QuotaExceeded) as exc:
            status = 429 if isinstance(exc, QuotaExceeded) else exc.status if isinstance(exc, AccountRefused) else 422
            return await lobby_error(request, reader, problem(exc, reader), status)
        if isinstance(account, Response):
            return account
        token = await asyncio.to_thread(accounts().open_session, account.id)
        return await back(request, lang, token, device=account.id)

    @app.post("/login", response_class=HTMLResponse, include_in_schema=False)
    async def log_in(
        request: Request,
        username: Annotated[str, Form(max_length=4 * MAX_USERNAME)],
        password: Annotated[str, Form(max_length=MAX_PASSWORD)],
        lang: str | None = None,
    ) -> Response:
        """The lobby's log-in form (``POST /api/session``): the same quotas, device cookie and 401."""
        reader = reader_of(request, lang)
        try:
            asked = LogIn(username=username, password=password)
            attempt = await logins().begin(request, asked.username, _address(request))
        except (ValidationError, QuotaExceeded) as exc:
            return await _quota_or_422(request, reader, exc)
        check = accounts().authenticate
        account = await hashed(request, reader, check, asked.username, asked.password, trusted=attempt.trusted)
        if isinstance(account, Response):
            return account
        if account is None:
            try:
                logins().failed(attempt)
            except QuotaExceeded as exc:
                return await _quota_or_422(request, reader, exc)
            return await lobby_error(request, reader, reader.gettext("wrong username or password"), 401)
        token = await asyncio.to_thread(accounts().open_session, account.id)
        return await back(request, lang, token, device=account.id)

    async def _quota_or_422(request: Request, reader: Translator, exc: Exception) -> Response:
        if isinstance(exc, QuotaExceeded):
            services_of(app).refused(exc.reason)
            page = await lobby_error(request, reader, problem(exc, reader), 429)
            page.headers["Retry-After"] = str(exc.retry_after)
            return page
        return await lobby_error(request, reader, problem(exc, reader), 422)

    @app.post("/logout", include_in_schema=False)
    async def log_out(request: Request, lang: str | None = None) -> Response:
        """The lobby's log-out button: the session ends (``DELETE /api/session``)."""
        token = request.cookies.get(SESSION_COOKIE)
        if token and len(token) <= 128:
            await asyncio.to_thread(accounts().close_session, token)
        return await back(request, lang, None)

    async def profile_page(
        request: Request, reader: Translator, username: str, error: str | None = None, status: int = 200
    ) -> HTMLResponse:
        found = await public_profile(services_of(app), username)
        if found is None:
            raise HTTPException(404, "no such player")
        me = await current_account(request)
        page = render("profile.html", reader, request, profile=found, me=me, day=day, title_of=_title, error=error)
        page.status_code = status
        return page

    @app.get("/players/{username}", response_class=HTMLResponse, include_in_schema=False)
    async def profile(request: Request, username: str, lang: str | None = None) -> HTMLResponse:
        """A player's profile: ratings per game, latest finished games with their replays (404: no such player).

        One's own profile also has the password change and log-out-everywhere forms.
        """
        return await profile_page(request, reader_of(request, lang), username)

    @app.post("/password", response_class=HTMLResponse, include_in_schema=False)
    async def change_password(
        request: Request,
        old: Annotated[str, Form(max_length=MAX_PASSWORD)],
        new: Annotated[str, Form(max_length=MAX_PASSWORD)],
        lang: str | None = None,
    ) -> Response:
        """The profile's password form (``POST /api/me/password``): the same bounds, quota and 401."""
        reader = reader_of(request, lang)
        me = await current_account(request)
        if me is None:
            return await lobby_error(request, reader, reader.gettext("log in first"), 401)
        try:
            asked = PasswordChange(old=old, new=new)
            limiter().hit("login", _address(request), "log-in attempts")
            passwords = services_of(app).passwords
            token = await passwords.run(accounts().change_password, me, asked.old, asked.new, trusted=True)
        except (ValidationError, AccountRefused, QuotaExceeded, PasswordWorkBusy) as exc:
            return await _refusal(request, reader, me.username, exc)
        await revoke_account(services_of(app), me.id)
        return await back(request, lang, token, f"/players/{me.username}", device=me.id)

    @app.post("/logout-everywhere", include_in_schema=False)
    async def log_out_everywhere(request: Request, lang: str | None = None) -> Response:
        """The profile's button: every session of the account ends (``DELETE /api/sessions``)."""
        me = await current_account(request)
        if me is not None:
            await asyncio.to_thread(accounts().close_sessions, me.id)
            await revoke_account(services_of(app), me.id)
        return await back(request, lang, None)

    async def _refusal(request: Request, reader: Translator, username: str, exc: Exception) -> Response:
        if isinstance(exc, PasswordWorkBusy):
            services_of(app).refused("password_busy")
            page = await profile_page(request, reader, username, reader.message(exc.message), 503)
            page.headers["Retry-After"] = str(exc.retry_after)
            return page
        if isinstance(exc, QuotaExceeded):
            return await profile_page(request, reader, username, problem(exc, reader), 429)
        status = exc.status if isinstance(exc, AccountRefused) else 422
        return await profile_page(request, reader, username, problem(exc, reader), status)

    @app.get("/leaderboard/{game}", response_class=HTMLResponse, include_in_schema=False)
    async def board(request: Request, game: str, page: int = 1, lang: str | None = None) -> HTMLResponse:
        """A game's leaderboard, :data:`PAGE` accounts a page (``?page=``, 1 to :data:`MAX_PAGES`)."""
        reader = reader_of(request, lang)
        if game not in registered_games():
            raise HTTPException(404, "no such game")
        if not 1 <= page <= MAX_PAGES:
            raise HTTPException(422, f"page is 1..{MAX_PAGES}")
        total, entries = await asyncio.to_thread(_board, accounts(), game, page)
        me = await current_account(request)
        pages = max(1, -(-total // PAGE))
        return render(
            "leaderboard.html",
            reader,
            request,
            game=game,
            title=_title(game),
            entries=entries,
            page=page,
            pages=pages,
            games=[(g, _title(g)) for g in registered_games()],
            me=me,
        )


def _address(request: Request) -> str:
    return quota_address(request.client.host) if request.client is not None else "unknown"


def _title(game: str) -> str:
    return str(game_class(game).title)


def _board(accounts: Accounts, game: str, page: int) -> tuple[int, list[dict[str, Any]]]:
    with Session(accounts.engine) as s:
        return leaderboard(s, game, min(PAGE, MAX_PAGE), (page - 1) * PAGE)
