"""The pages of getting an account back, managing it and reporting a player (issue #44, items 5, 6 and 8).

- ``/forgot``: ask for a password-reset link by username or e-mail address (``POST /api/password-reset``); the
  answer is the same whoever is asked about.
- ``/reset/{token}``: the reset link's form: a new password (``POST /api/password-reset/{token}``), then the
  profile, logged in.
- ``/verify/{token}``: confirm the address a verification link was sent to (``POST /api/verification/{token}``).
- ``/me/account``: the account's settings: the e-mail address (add, change, remove; its verification and a new
  link), the data export (``GET /api/me/export``) and deleting the account (``DELETE /api/me``).
- ``/players/{username}/report``: report a player to the operator (``POST /api/reports``).

Forms post without script (the pages' CSP forbids inline ones) and answer with a page or a 303. Every use case is the
REST route's (:mod:`meeple.server.recovery`, :class:`meeple.server.accounts.Accounts`).

Rules: issue #44 "People who come back"; docs/web.md.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, BackgroundTasks, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from meeple.i18n import LANGUAGES, M, Message, Translator
from meeple.server.accounts import MAX_EMAIL, MAX_PASSWORD, MAX_USERNAME, AccountRefused, MeUpdate, NewPassword
from meeple.server.hashing import PasswordWorkBusy
from meeple.server.logins import remember_device
from meeple.server.moderation import MAX_REASON
from meeple.server.quotas import QuotaExceeded
from meeple.server.recovery import BAD_LINK, RESET_MINUTES, TOKEN_CHARS
from meeple.server.routes.accounts import (
    bound_seats,
    revoke_account,
    revoke_seats,
    send_first_link,
    session_response,
)
from meeple.server.seats import client_address
from meeple.server.services import Services, current_account, services_of
from meeple.web.pages.common import page_reader, render_page

Render = Callable[..., HTMLResponse]
ReaderOf = Callable[[Request, str | None], Translator]


class AccountPages:
    """The router of these pages (:attr:`router`), its handlers the methods below.

    Args:
        render: ``render(template, reader, request, **context)``: the web app's page renderer.
        reader_of: ``reader_of(request, lang)``: the page's language.
    """

    def __init__(self, render: Render, reader_of: ReaderOf) -> None:
        self.render = render
        self.reader_of = reader_of
        self.router = APIRouter(include_in_schema=False)
        self.router.add_api_route("/forgot", self.forgot, methods=["GET"], response_class=HTMLResponse)
        self.router.add_api_route("/forgot", self.ask, methods=["POST"], response_class=HTMLResponse)
        self.router.add_api_route("/reset/{token}", self.reset_form, methods=["GET"], response_class=HTMLResponse)
        self.router.add_api_route("/reset/{token}", self.reset, methods=["POST"], response_class=HTMLResponse)
        self.router.add_api_route("/verify/{token}", self.verify_form, methods=["GET"], response_class=HTMLResponse)
        self.router.add_api_route("/verify/{token}", self.verify, methods=["POST"], response_class=HTMLResponse)
        self.router.add_api_route("/me/account", self.settings, methods=["GET"], response_class=HTMLResponse)
        self.router.add_api_route("/me/email", self.change_email, methods=["POST"], response_class=HTMLResponse)
        self.router.add_api_route("/me/verification", self.resend, methods=["POST"], response_class=HTMLResponse)
        self.router.add_api_route("/me/delete", self.delete, methods=["POST"], response_class=HTMLResponse)
        self.router.add_api_route("/players/{username}/report", self.report_form, methods=["GET"])
        self.router.add_api_route("/players/{username}/report", self.report, methods=["POST"])

    def page(self, request: Request, reader: Translator, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        """Render the template ``name`` with ``context``, answered with ``status``."""
        found = self.render(name, reader, request, **context)
        found.status_code = status
        return found

    def words(self, reader: Translator, exc: Exception) -> str:
        """What was wrong, in the reader's language (never the input itself)."""
        if isinstance(exc, ValidationError):
            where = {str(part) for e in exc.errors() for part in e["loc"]}
            if "password" in where:
                return reader.gettext("A password has 8 to 128 characters.")
            return reader.gettext("An e-mail address looks like name@example.org (at most 254 characters).")
        if isinstance(exc, QuotaExceeded):
            return exc.words(reader)[:300]
        message = getattr(exc, "message", None)
        return reader.message(message) if isinstance(message, Message) else str(exc)[:300]

    def status_of(self, exc: Exception) -> int:
        """The HTTP status of a refusal."""
        if isinstance(exc, AccountRefused):
            return exc.status
        return 429 if isinstance(exc, QuotaExceeded) else 503 if isinstance(exc, PasswordWorkBusy) else 422

    async def forgot(self, request: Request, lang: str | None = None) -> HTMLResponse:
        """The form that asks for a password-reset link."""
        return self.page(request, self.reader_of(request, lang), "forgot.html", sent=False)

    async def ask(
        self,
        request: Request,
        later: BackgroundTasks,
        who: Annotated[str, Form(max_length=MAX_EMAIL)] = "",
        lang: str | None = None,
    ) -> HTMLResponse:
        """Ask for the link (``POST /api/password-reset``): the same page whatever the name or address.

        The page is answered before the accounts are looked up (a background task).
        """
        reader = self.reader_of(request, lang)
        services = services_of(request.app)
        who = who.strip()
        if not who or ("@" not in who and len(who) > MAX_USERNAME):
            problem = reader.gettext("Give your username or your e-mail address.")
            return self.page(request, reader, "forgot.html", 422, sent=False, error=problem)
        try:
            services.limiter.hit("resets", client_address(request), "password-reset requests")
        except QuotaExceeded as exc:
            return self.page(request, reader, "forgot.html", 429, sent=False, error=self.words(reader, exc))
        later.add_task(asyncio.to_thread, services.recovery.request_reset, who)
        return self.page(request, reader, "forgot.html", 202, sent=True, mail=services.notifier is not None)

    async def reset_form(self, request: Request, token: str, lang: str | None = None) -> HTMLResponse:
        """The reset link's form (404 with the reason when the link is not valid)."""
        reader = self.reader_of(request, lang)
        info = await asyncio.to_thread(services_of(request.app).recovery.link, token, "reset")
        if info is None:
            return self.page(request, reader, "reset.html", 404, info=None, error=reader.message(BAD_LINK))
        return self.page(request, reader, "reset.html", info=info, token=token, minutes=RESET_MINUTES)

    async def reset(
        self,
        request: Request,
        token: str,
        password: Annotated[str, Form(max_length=MAX_PASSWORD)],
        lang: str | None = None,
    ) -> Response:
        """Set the new password (``POST /api/password-reset/{token}``), then the profile, logged in."""
        reader = self.reader_of(request, lang)
        services = services_of(request.app)
        info = await asyncio.to_thread(services.recovery.link, token[: TOKEN_CHARS + 1], "reset")
        try:
            asked = NewPassword(password=password)
            services.limiter.hit("login", client_address(request), "log-in attempts")
            run = services.passwords.run
            account, session = await run(services.recovery.reset, token, asked.password, trusted=True)
        except (ValidationError, AccountRefused, QuotaExceeded, PasswordWorkBusy) as exc:
            context = {"info": info, "token": token, "minutes": RESET_MINUTES}
            problem = self.words(reader, exc)
            return self.page(request, reader, "reset.html", self.status_of(exc), error=problem, **context)
        await revoke_account(services, account.id)
        return await _logged_in(request, services, session, account.id, f"/players/{account.username}", lang)

    async def verify_form(self, request: Request, token: str, lang: str | None = None) -> HTMLResponse:
        """The verification link's page: a button confirms (a mail scanner's visit verifies nothing)."""
        reader = self.reader_of(request, lang)
        info = await asyncio.to_thread(services_of(request.app).recovery.link, token, "verify")
        if info is None:
            return self.page(request, reader, "verify.html", 404, info=None, error=reader.message(BAD_LINK))
        return self.page(request, reader, "verify.html", info=info, token=token, done=False)

    async def verify(self, request: Request, token: str, lang: str | None = None) -> HTMLResponse:
        """Confirm the address (``POST /api/verification/{token}``)."""
        reader = self.reader_of(request, lang)
        services = services_of(request.app)
        info = await asyncio.to_thread(services.recovery.link, token[: TOKEN_CHARS + 1], "verify")
        try:
            services.limiter.hit("login", client_address(request), "log-in attempts")
            await asyncio.to_thread(services.recovery.verify, token)
        except (AccountRefused, QuotaExceeded) as exc:
            problem = self.words(reader, exc)
            return self.page(request, reader, "verify.html", self.status_of(exc), info=None, error=problem)
        return self.page(request, reader, "verify.html", info=info, done=True)

    async def settings(self, request: Request, lang: str | None = None) -> Response:
        """The account's settings (the lobby when logged out)."""
        return await self._settings(request, self.reader_of(request, lang), lang)

    async def _settings(
        self, request: Request, reader: Translator, lang: str | None, status: int = 200, **context: Any
    ) -> Response:
        me = await current_account(request)
        if me is None:
            return RedirectResponse("/" + (f"?lang={lang}" if lang in LANGUAGES else ""), status_code=303)
        mail = services_of(request.app).notifier is not None
        return self.page(request, reader, "account.html", status, me=me, mail=mail, **context)

    async def change_email(
        self, request: Request, email: Annotated[str, Form(max_length=MAX_EMAIL)] = "", lang: str | None = None
    ) -> Response:
        """Add, change or (empty) remove the address (``PATCH /api/me``): a new one is sent a verification link."""
        reader = self.reader_of(request, lang)
        services = services_of(request.app)
        me = await current_account(request)
        if me is None:
            return await self._settings(request, reader, lang)
        try:
            asked = MeUpdate(email=email.strip() or None)
            changed = await asyncio.to_thread(services.accounts.set_email, me.id, asked.email)
        except (ValidationError, AccountRefused) as exc:
            return await self._settings(request, reader, lang, self.status_of(exc), error=self.words(reader, exc))
        if changed:
            await send_first_link(services, me.id)
        return await self._settings(request, reader, lang, notice=_notice(reader, changed, asked.email, services))

    async def resend(self, request: Request, lang: str | None = None) -> Response:
        """Send a new verification link (``POST /api/me/verification``)."""
        reader = self.reader_of(request, lang)
        me = await current_account(request)
        if me is None:
            return await self._settings(request, reader, lang)
        try:
            sent = await asyncio.to_thread(services_of(request.app).recovery.send_verification, me.id)
        except QuotaExceeded as exc:
            return await self._settings(request, reader, lang, 429, error=self.words(reader, exc))
        notice = reader.gettext("A new link is on its way.") if sent else reader.gettext("No link was sent.")
        return await self._settings(request, reader, lang, notice=notice)

    async def delete(
        self, request: Request, password: Annotated[str, Form(max_length=MAX_PASSWORD)] = "", lang: str | None = None
    ) -> Response:
        """Delete the account, given its password again (``DELETE /api/me``), then the lobby, logged out."""
        reader = self.reader_of(request, lang)
        services = services_of(request.app)
        me = await current_account(request)
        if me is None:
            return await self._settings(request, reader, lang)
        try:
            services.limiter.hit("login", client_address(request), "log-in attempts")
            seats = await asyncio.to_thread(bound_seats, services, me.id)
            await services.passwords.run(services.accounts.delete, me, password, trusted=True)
        except (AccountRefused, QuotaExceeded, PasswordWorkBusy) as exc:
            return await self._settings(request, reader, lang, self.status_of(exc), error=self.words(reader, exc))
        await revoke_seats(services, seats)
        return await _logged_in(request, services, None, None, "/", lang)

    async def report_form(
        self, request: Request, username: str, table: str | None = None, lang: str | None = None
    ) -> Response:
        """The form that reports ``username`` to the operator (the lobby when logged out; 404 for no such player)."""
        reader = self.reader_of(request, lang)
        me = await current_account(request)
        if me is None:
            return RedirectResponse("/" + (f"?lang={lang}" if lang in LANGUAGES else ""), status_code=303)
        found = await self._player(request, username)
        if found is None:
            missing = reader.message(M("no account named {name}", name=username[:40]))
            return self.page(request, reader, "report.html", 404, username=username[:MAX_USERNAME], error=missing)
        return self.page(request, reader, "report.html", username=found, table=(table or "")[:32], sent=False)

    async def report(
        self,
        request: Request,
        username: str,
        reason: Annotated[str, Form(max_length=4 * MAX_REASON)] = "",
        table: Annotated[str, Form(max_length=32)] = "",
        lang: str | None = None,
    ) -> Response:
        """Send the report (``POST /api/reports``): the same bounds, quota and refusals."""
        reader = self.reader_of(request, lang)
        services = services_of(request.app)
        me = await current_account(request)
        found = await self._player(request, username)
        if me is None or found is None:
            return await self.report_form(request, username, None, lang)
        try:
            services.limiter.hit("reports", client_address(request), "reports")
            services.limiter.hit("reports", f"account {me.id}", "reports")
            report = services.moderation.report
            await asyncio.to_thread(report, me.id, found, table.strip() or None, reason)
        except (AccountRefused, QuotaExceeded) as exc:
            context = {"username": found, "table": table, "sent": False, "error": self.words(reader, exc)}
            return self.page(request, reader, "report.html", self.status_of(exc), **context)
        return self.page(request, reader, "report.html", 201, username=found, sent=True)

    async def _player(self, request: Request, username: str) -> str | None:
        """The username of the live account ``username`` (any case), or None."""
        if len(username) > MAX_USERNAME:
            return None
        account = await asyncio.to_thread(services_of(request.app).accounts.by_username, username)
        return account.username if account is not None else None


def _notice(reader: Translator, changed: bool, email: str | None, services: Services) -> str:
    """What the settings page says after an address was saved."""
    if not changed:
        return reader.gettext("Nothing changed.")
    if email is None:
        return reader.gettext("Your e-mail address was removed.")
    if services.notifier is None:
        return reader.gettext("Saved. This server sends no e-mail.")
    return reader.gettext("Saved. Open the link we sent to {email} to confirm it.").format(email=email)


async def _logged_in(
    request: Request, services: Services, session: str | None, device: int | None, path: str, lang: str | None
) -> Response:
    """303 to ``path`` setting (or with None removing) the session cookie, and the device cookie of ``device``."""
    target = path + (f"?lang={lang}" if lang in LANGUAGES else "")
    cookies = session_response(request, {}, session)
    redirect = RedirectResponse(target, status_code=303)
    for value in cookies.headers.getlist("set-cookie"):
        redirect.headers.append("set-cookie", value)
    if device is not None:
        await remember_device(services.logins, redirect, request.url.scheme == "https", device)
    return redirect


router = AccountPages(render_page, page_reader).router
"""The router of these pages, included by ``create_web_app`` (:data:`meeple.web.app.PAGES`)."""
