"""Which seat a request or a WebSocket opens: seat cookies, seat tokens, the session's account, the client address.

A seat is opened by its secret token (``Authorization: Bearer TOKEN``, ``?token=`` or an invite link), by the page's
seat cookie (``meeple_seat_<table>``, HttpOnly, SameSite=Strict), or by the session of the account the seat is bound
to. Wrong tokens are counted per client address (``bad_token``): past the quota even a right one is refused until
the window has passed, so guessing gains nothing by going on.

Rules: issue "Play online: an authoritative game server"; issue #34 (accounts' seats); issue #41, item 10 (stale
cookies deleted); issue #42, item 2 (this module); docs/server.md ("Seats and tokens").
"""

from __future__ import annotations

import asyncio
from typing import TypeVar

from fastapi import HTTPException, WebSocket
from fastapi.responses import Response
from starlette.requests import HTTPConnection

from meeple.i18n import M, language_from_accept, translator
from meeple.server.accounts import SESSION_COOKIE, Account, Accounts
from meeple.server.quotas import Limiter, QuotaExceeded, quota_address
from meeple.server.tables import TableService

R = TypeVar("R", bound=Response)

NO_SEAT = M("this token opens no seat at this table")
"""403 (and the WebSocket's ``bad_token``): a seat token, cookie or session that opens no seat of the table."""
SEAT_COOKIE_DAYS = 60
"""How long a browser keeps the seat cookie set by a join, a quick match or an invite link's page."""
SEATED_TABLES = 64
"""Seat cookies of a request read at most, for the tables quick match does not seat it at again."""


def seat_cookie(table_id: str) -> str:
    """The name of the cookie that holds a browser's seat token at ``table_id`` (HttpOnly, SameSite=Strict)."""
    return f"meeple_seat_{table_id}"


def with_seat_cookie(response: R, request: HTTPConnection, table_id: str, token: str) -> R:
    """``response`` setting the seat's cookie of ``table_id``: HttpOnly, SameSite=Strict, Secure over https.

    It lasts :data:`SEAT_COOKIE_DAYS` days; set by a join, a quick match, a new link, or an invite link's page.
    """
    response.set_cookie(
        seat_cookie(table_id),
        token,
        max_age=SEAT_COOKIE_DAYS * 86_400,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return response


def expired_cookie_header(request: HTTPConnection, table_id: str) -> dict[str, str]:
    """The ``Set-Cookie`` header that deletes the seat cookie of ``table_id`` (attributes as it was set).

    Sent when the cookie opens no seat (its token was replaced, its account's sessions ended): a stale cookie is not
    sent again with every page and board fetch, each counted as a wrong token (issue #41, item 10).
    """
    response = Response()
    response.delete_cookie(
        seat_cookie(table_id), httponly=True, samesite="strict", secure=request.url.scheme == "https"
    )
    return {"set-cookie": response.headers["set-cookie"]}


def client_address(connection: HTTPConnection) -> str:
    """The client's address as every per-address quota counts it (:func:`meeple.server.quotas.quota_address`).

    It is the peer's, or the last ``X-Forwarded-For`` hop as uvicorn resolved it for a proxy named in
    ``--forwarded-allow-ips``; an IPv6 address stands for its /56 network, an IPv4-mapped one for its IPv4 address.
    """
    return quota_address(connection.client.host) if connection.client is not None else "unknown"


def no_seat(http: HTTPConnection, table_id: str | None = None) -> HTTPException:
    """403 :data:`NO_SEAT`, in the request's ``Accept-Language`` (else English).

    With ``table_id``, a seat cookie of that table the request carried opens nothing: the answer deletes it.
    """
    text = translator(language_from_accept(http.headers.get("accept-language"))).message(NO_SEAT)
    stale = table_id is not None and seat_cookie(table_id) in http.cookies
    return HTTPException(403, text, headers=expired_cookie_header(http, table_id) if stale and table_id else None)


def held_token(http: HTTPConnection, table_id: str, authorization: str | None) -> str | None:
    """The seat token a request presents: ``Authorization: Bearer TOKEN``, else the page's seat cookie."""
    if authorization:
        return authorization.removeprefix("Bearer ").strip()
    return http.cookies.get(seat_cookie(table_id))


def seated_tables(http: HTTPConnection, limit: int = SEATED_TABLES) -> list[str]:
    """The tables whose seat cookie this browser holds (at most ``limit``): quick match does not seat it there again."""
    prefix = seat_cookie("")
    return [name.removeprefix(prefix) for name in list(http.cookies)[:limit] if name.startswith(prefix)]


class Seats:
    """Which account and which seat a connection opens, wrong tokens counted per address.

    Args:
        tables: the table service (its seats' tokens and accounts).
        limiter: the quotas (``bad_token``: wrong tokens per address and minute).
        accounts: the accounts (sessions), or None for a server without them (no session opens anything).
    """

    def __init__(self, tables: TableService, limiter: Limiter, accounts: Accounts | None) -> None:
        self.tables = tables
        self.limiter = limiter
        self.accounts = accounts

    async def account(self, connection: HTTPConnection) -> Account | None:
        """The account whose session cookie ``connection`` (a request or a WebSocket) carries, or None."""
        token = connection.cookies.get(SESSION_COOKIE)
        if not token or self.accounts is None or len(token) > 128:
            return None
        return await asyncio.to_thread(self.accounts.account_of, token)

    async def check_token(self, table_id: str, token: str, address: str) -> int | None:
        """The seat ``token`` opens at ``table_id``, or None; wrong tokens are counted per address.

        Raises:
            QuotaExceeded: ``address`` presented too many wrong tokens this minute (even a right one is then refused
                until the window has passed, so guessing gains nothing by going on).
        """
        wait = self.limiter.blocked("bad_token", address)
        if wait is not None:
            text = M("too many wrong seat tokens; try again in {seconds} s", seconds=wait)
            raise QuotaExceeded(f"too many wrong seat tokens; try again in {wait} s", wait, "bad_token", text)
        seat = await asyncio.to_thread(self.tables.seat_of_token, table_id, token)
        if seat is None:
            self.limiter.wrong_token(address, table_id, token)  # a value already counted this minute is not again
        return seat

    async def account_seat(self, connection: HTTPConnection, table_id: str) -> int | None:
        """The seat at ``table_id`` bound to the account whose session ``connection`` carries, or None."""
        account = await self.account(connection)
        if account is None:
            return None
        return await asyncio.to_thread(self.tables.seat_of_account, table_id, account.id)

    async def presented(self, http: HTTPConnection, table_id: str, authorization: str | None) -> int | None:
        """The seat a request opens: ``Authorization: Bearer TOKEN``, else the session's account, else the cookie.

        The session comes before the cookie: a cookie left over from a revoked token (the account logged out
        everywhere or changed its password) is not counted as a wrong token while the session opens the seat.

        Raises:
            QuotaExceeded: too many wrong tokens from the address (:meth:`check_token`).
        """
        address = client_address(http)
        if authorization:
            return await self.check_token(table_id, authorization.removeprefix("Bearer ").strip(), address)
        seat = await self.account_seat(http, table_id)
        token = http.cookies.get(seat_cookie(table_id))
        if seat is None and token:
            seat = await self.check_token(table_id, token, address)
        return seat

    async def holder(self, http: HTTPConnection, table_id: str, authorization: str | None) -> int:
        """The seat a request opens (:meth:`presented`), else 403 :data:`NO_SEAT` (a stale cookie is deleted)."""
        seat = await self.presented(http, table_id, authorization)
        if seat is None:
            raise no_seat(http, None if authorization else table_id)
        return seat

    async def of_socket(self, websocket: WebSocket, table_id: str, token: str | None) -> tuple[int | None, bool]:
        """The seat a WebSocket opens and whether a token opened it: ``?token=``, else the session, else the cookie.

        Returns:
            ``(seat, by_token)``: ``seat`` None for a spectator; -1 for a token (or cookie) that opens nothing.

        Raises:
            QuotaExceeded: too many wrong tokens from the address.
        """
        seat: int | None = None
        if token is None:  # no ?token=: the session's seat, else the page's seat cookie (a revoked one is not tried)
            seat = await self.account_seat(websocket, table_id)
            if seat is None:
                token = websocket.cookies.get(seat_cookie(table_id))
        if token is None:
            return seat, False
        found = await self.check_token(table_id, token, client_address(websocket))
        return (-1 if found is None else found), True
