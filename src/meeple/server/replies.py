"""How the server words an answer to a client: its language, errors cut short, and the app's error handlers.

An error quotes a client's input at most :data:`CUT` characters; a pydantic problem reads in the client's language
when it is one of meeple's messages. The handlers turn the domain's exceptions into status codes: 422 (a bad field,
never echoing the input), 429 (a quota, ``Retry-After``), 503 (the password threads or the database busy).

Rules: issue "Play online: an authoritative game server"; issue #42, item 4; docs/server.md ("Errors").
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError

from meeple.core.errors import MeepleError
from meeple.i18n import Translator, UnknownLanguageError, language_from_accept, translator
from meeple.server.hashing import PasswordWorkBusy
from meeple.server.health import DATABASE
from meeple.server.quotas import QuotaExceeded
from meeple.server.retry import is_outage, is_transient, one_line
from meeple.server.services import Refusals, maybe_services

log = logging.getLogger("meeple.server")

CUT = 40
"""Characters of a client's input quoted back in an error message, at most."""
RETRY_AFTER = 2
"""Seconds a client is told to wait (``Retry-After``) when the database is down."""

LangQuery = Annotated[str | None, Query(description="language of the texts: en or fr (default: Accept-Language)")]
AcceptLanguage = Annotated[str | None, Header(include_in_schema=False)]


def cut(text: str, limit: int = CUT) -> str:
    """``text`` cut to ``limit`` characters (an error quotes a client's input only this far)."""
    return text if len(text) <= limit else text[:limit] + "…"


def reader_of(lang: str | None, accept_language: str | None) -> Translator:
    """The reader's language: ``lang`` if given (422 if unknown), else the ``Accept-Language`` header, else English."""
    if lang is not None:
        try:
            return translator(lang)
        except UnknownLanguageError as exc:
            raise HTTPException(422, str(exc)) from None
    return translator(language_from_accept(accept_language))


def request_reader(http: Request) -> Translator:
    """The language of a request's ``Accept-Language`` header (else English)."""
    return translator(language_from_accept(http.headers.get("accept-language")))


def validation_text(error: Any, reader: Translator) -> str:
    """One problem of a pydantic validation error, in ``reader``'s language when it is one of meeple's messages.

    A refused name or chat line (:class:`meeple.server.people.TextRefused`) reads in the page's or connection's
    language; other problems are pydantic's English words, cut to 200 characters.
    """
    raised = (error.get("ctx") or {}).get("error")
    if isinstance(raised, MeepleError):
        return reader.message(raised.message)
    return cut(str(error["msg"]), 200)


def add_error_handlers(app: FastAPI, refused: Refusals) -> None:
    """The app's answers to a bad request (422), a quota (429), busy password threads and database errors (503)."""

    async def invalid(request: Request, exc: Exception) -> JSONResponse:
        """422 naming each bad field, never echoing the input (at most five problems, each cut short)."""
        assert isinstance(exc, RequestValidationError)
        problems = [
            {"loc": [cut(str(part)) for part in e["loc"][:6]], "msg": cut(str(e["msg"]), 200), "type": e["type"]}
            for e in exc.errors()[:5]
        ]
        return JSONResponse({"detail": problems}, status_code=422)

    async def too_many(request: Request, exc: Exception) -> JSONResponse:
        """429 with ``Retry-After`` (the message in ``Accept-Language`` where it has a translated form)."""
        assert isinstance(exc, QuotaExceeded)
        refused(exc.reason)
        headers = {"Retry-After": str(exc.retry_after)}
        return JSONResponse({"detail": exc.words(request_reader(request))}, status_code=429, headers=headers)

    async def busy(request: Request, exc: Exception) -> JSONResponse:
        """503 with ``Retry-After``: the password threads and their queue are full (:mod:`.hashing`)."""
        assert isinstance(exc, PasswordWorkBusy)
        refused("password_busy")
        text = request_reader(request).message(exc.message)
        return JSONResponse({"detail": text}, status_code=503, headers={"Retry-After": str(exc.retry_after)})

    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(QuotaExceeded, too_many)
    app.add_exception_handler(PasswordWorkBusy, busy)
    app.add_exception_handler(DBAPIError, database_error)


async def database_error(request: Request, exc: Exception) -> JSONResponse:
    """A REST request met a database error: 503 with ``Retry-After`` if it is transient, else 500.

    Transient: the database is down, a lock timed out (retry.py). One log line, no traceback, for those.
    """
    if not is_transient(exc):
        log.error("%s %s: %s", request.method, request.url.path, one_line(exc))
        return JSONResponse({"detail": "internal server error"}, status_code=500)
    services = maybe_services(request.app)
    if services is not None and is_outage(exc):
        services.tables.health.fail(DATABASE)
    log.warning("%s %s: 503, %s", request.method, request.url.path, one_line(exc))
    detail = "the database is unavailable; try again shortly"
    return JSONResponse({"detail": detail}, status_code=503, headers={"Retry-After": str(RETRY_AFTER)})
