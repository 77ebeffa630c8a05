"""The account forms: sign up, log in, log out, change the password, log out everywhere.

The forms post to ``/signup``, ``/login`` and ``/logout`` (no script: the pages' CSP forbids inline ones), which
answer 303 back to the lobby with the session cookie set or removed, or the lobby again with the problem; the
profile's forms post to ``/password`` and ``/logout-everywhere``. Each calls what its REST route calls, with the same
bounds, quotas and status codes.

Rules: issue #34 "People at the table" (items 5 and 6); docs/web.md.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, TypeVar

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from meeple.i18n import Translator
from meeple.server.accounts import (
    MAX_PASSWORD,
    MAX_USERNAME,
    SESSION_COOKIE,
    AccountRefused,
    LogIn,
    NewAccount,
    PasswordChange,
)
from meeple.server.hashing import PasswordWorkBusy
from meeple.server.logins import remember_device
from meeple.server.quotas import QuotaExceeded, quota_address
from meeple.server.routes.accounts import revoke_account, session_response
from meeple.server.services import Services, ServicesDep, current_account
from meeple.web.pages.common import page_reader, with_lang
from meeple.web.pages.lobby import lobby_page
from meeple.web.pages.people import profile_page

T = TypeVar("T")

router = APIRouter(include_in_schema=False)


@router.post("/signup", response_class=HTMLResponse)
async def sign_up(
    request: Request,
    services: ServicesDep,
    username: Annotated[str, Form(max_length=4 * MAX_USERNAME)],
    password: Annotated[str, Form(max_length=MAX_PASSWORD)],
    email: Annotated[str, Form(max_length=254)] = "",
    lang: str | None = None,
) -> Response:
    """The lobby's sign-up form: an account, logged in at once (``POST /api/accounts``)."""
    reader = page_reader(request, lang)
    accounts = services.accounts
    try:
        services.limiter.hit("signup", _address(request), "accounts created")
        asked = NewAccount(username=username, password=password, email=email.strip() or None)
        account = await _hashed(services, request, reader, accounts.create, asked.username, asked.password, asked.email)
    except (ValidationError, AccountRefused, QuotaExceeded) as exc:
        status = 429 if isinstance(exc, QuotaExceeded) else exc.status if isinstance(exc, AccountRefused) else 422
        return await lobby_page(request, services, reader, problem(exc, reader), status)
    if isinstance(account, Response):
        return account
    token = await asyncio.to_thread(accounts.open_session, account.id)
    return await _back(services, request, lang, token, device=account.id)


@router.post("/login", response_class=HTMLResponse)
async def log_in(
    request: Request,
    services: ServicesDep,
    username: Annotated[str, Form(max_length=4 * MAX_USERNAME)],
    password: Annotated[str, Form(max_length=MAX_PASSWORD)],
    lang: str | None = None,
) -> Response:
    """The lobby's log-in form (``POST /api/session``): the same quotas, device cookie and 401."""
    reader = page_reader(request, lang)
    logins, accounts = services.logins, services.accounts
    try:
        asked = LogIn(username=username, password=password)
        attempt = await logins.begin(request, asked.username, _address(request))
    except (ValidationError, QuotaExceeded) as exc:
        return await _quota_or_422(services, request, reader, exc)
    check = accounts.authenticate
    account = await _hashed(services, request, reader, check, asked.username, asked.password, trusted=attempt.trusted)
    if isinstance(account, Response):
        return account
    if account is None:
        try:
            logins.failed(attempt)
        except QuotaExceeded as exc:
            return await _quota_or_422(services, request, reader, exc)
        return await lobby_page(request, services, reader, reader.gettext("wrong username or password"), 401)
    token = await asyncio.to_thread(accounts.open_session, account.id)
    return await _back(services, request, lang, token, device=account.id)


@router.post("/logout")
async def log_out(request: Request, services: ServicesDep, lang: str | None = None) -> Response:
    """The lobby's log-out button: the session ends (``DELETE /api/session``)."""
    token = request.cookies.get(SESSION_COOKIE)
    if token and len(token) <= 128:
        await asyncio.to_thread(services.accounts.close_session, token)
    return await _back(services, request, lang, None)


@router.post("/password", response_class=HTMLResponse)
async def change_password(
    request: Request,
    services: ServicesDep,
    old: Annotated[str, Form(max_length=MAX_PASSWORD)],
    new: Annotated[str, Form(max_length=MAX_PASSWORD)],
    lang: str | None = None,
) -> Response:
    """The profile's password form (``POST /api/me/password``): the same bounds, quota and 401."""
    reader = page_reader(request, lang)
    me = await current_account(request)
    if me is None:
        return await lobby_page(request, services, reader, reader.gettext("log in first"), 401)
    try:
        asked = PasswordChange(old=old, new=new)
        services.limiter.hit("login", _address(request), "log-in attempts")
        change = services.accounts.change_password
        token = await services.passwords.run(change, me, asked.old, asked.new, trusted=True)
    except (ValidationError, AccountRefused, QuotaExceeded, PasswordWorkBusy) as exc:
        return await _refusal(services, request, reader, me.username, exc)
    await revoke_account(services, me.id)
    return await _back(services, request, lang, token, f"/players/{me.username}", device=me.id)


@router.post("/logout-everywhere")
async def log_out_everywhere(request: Request, services: ServicesDep, lang: str | None = None) -> Response:
    """The profile's button: every session of the account ends (``DELETE /api/sessions``)."""
    me = await current_account(request)
    if me is not None:
        await asyncio.to_thread(services.accounts.close_sessions, me.id)
        await revoke_account(services, me.id)
    return await _back(services, request, lang, None)


def problem(exc: Exception, reader: Translator) -> str:
    """What was wrong with an account form, in the reader's language (never the input itself)."""
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


async def _hashed(
    services: Services,
    request: Request,
    reader: Translator,
    call: Callable[..., T],
    *args: object,
    trusted: bool = False,
) -> T | Response:
    """``call(*args)`` on the password threads (:mod:`meeple.server.hashing`), or the lobby with a 503."""
    try:
        return await services.passwords.run(call, *args, trusted=trusted)
    except PasswordWorkBusy as exc:
        services.refused("password_busy")
        page = await lobby_page(request, services, reader, reader.message(exc.message), 503)
        page.headers["Retry-After"] = str(exc.retry_after)
        return page


async def _back(
    services: Services,
    request: Request,
    lang: str | None,
    token: str | None,
    path: str = "/",
    device: int | None = None,
) -> Response:
    """303 to ``path`` setting (or removing) the session cookie, and the device cookie of account ``device``."""
    response = session_response(request, {}, token)
    redirect = RedirectResponse(with_lang(path, lang), status_code=303)
    for value in response.headers.getlist("set-cookie"):
        redirect.headers.append("set-cookie", value)
    if device is not None:
        await remember_device(services.logins, redirect, request.url.scheme == "https", device)
    return redirect


async def _quota_or_422(services: Services, request: Request, reader: Translator, exc: Exception) -> Response:
    """The lobby with a log-in's problem: 429 (``Retry-After``) past a quota, else 422."""
    if isinstance(exc, QuotaExceeded):
        services.refused(exc.reason)
        page = await lobby_page(request, services, reader, problem(exc, reader), 429)
        page.headers["Retry-After"] = str(exc.retry_after)
        return page
    return await lobby_page(request, services, reader, problem(exc, reader), 422)


async def _refusal(services: Services, request: Request, reader: Translator, username: str, exc: Exception) -> Response:
    """The profile with a password change's problem: 503 busy, 429 a quota, the refusal's own status, else 422."""
    if isinstance(exc, PasswordWorkBusy):
        services.refused("password_busy")
        page = await profile_page(request, services, reader, username, reader.message(exc.message), 503)
        page.headers["Retry-After"] = str(exc.retry_after)
        return page
    if isinstance(exc, QuotaExceeded):
        return await profile_page(request, services, reader, username, problem(exc, reader), 429)
    status = exc.status if isinstance(exc, AccountRefused) else 422
    return await profile_page(request, services, reader, username, problem(exc, reader), status)


def _address(request: Request) -> str:
    """The request's client address as the quotas count it."""
    return quota_address(request.client.host) if request.client is not None else "unknown"
