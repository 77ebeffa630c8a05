"""What an operator watches: ``/healthz``, ``/readyz``, ``/metrics``, the access log, and the start-up checks.

- ``GET /healthz``: 200 ``{"status": "alive"}`` while the process serves requests (a liveness probe).
- ``GET /readyz``: 200 ``{"status": "ready"}`` when the process knows of no fault of its own (its database or its
  LISTEN connection lost), the database answers ``SELECT 1`` and its Alembic revision is the newest one this version
  ships; else 503 ``{"status": "unavailable", "reason": ...}`` with a short reason.
- ``GET /metrics``: the Prometheus text of :mod:`meeple.server.metrics`, only to the client addresses of
  ``--metrics-allow-ips`` (default: loopback). Behind a reverse proxy the address is the client's as found from
  trusted ``X-Forwarded-For`` (``--forwarded-allow-ips``); a request that came through a proxy but whose address
  stayed the proxy's own loopback is refused (403), so the proxy never opens the metrics to the internet.
- :class:`RedactingFormatter`: the log format, which replaces the value of every ``token=`` in a log line (and its
  traceback) by ``***`` (uvicorn logs the full request target, and a seat's token is a password).
- :func:`check_database`: the start-up checks of ``meeple serve`` (reachable, ``PRAGMA quick_check`` on SQLite,
  writable, migrated), each failure one readable line.

Rules: issue #32 "Safe on the open internet", item 11 (Operations); docs/deploy.md.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import sqlite3
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import Engine, text
from sqlalchemy.exc import SQLAlchemyError
from starlette.types import ASGIApp, Receive, Scope, Send

from meeple.core.errors import MeepleError
from meeple.i18n import M
from meeple.server.db import MIGRATIONS, make_engine, migrate, read_only_url, shown_url
from meeple.server.metrics import CONTENT_TYPE, Metrics, activate, deactivate

log = logging.getLogger("meeple.server")

READY_TIMEOUT = 3.0
"""Seconds ``/readyz`` waits for the database before answering 503."""
LOOPBACK = "127.0.0.1,::1"
"""The default of ``--metrics-allow-ips``: only this machine reads ``/metrics``."""
FORWARDING_HEADERS = (b"x-forwarded-for", b"forwarded")
_TOKEN = re.compile(r"(\btoken=)[^&\s\"']+")


class DatabaseUnusable(MeepleError, RuntimeError):
    """The database cannot serve: unreachable, damaged, read-only, or not migrated (the message says which)."""


def redact(line: str) -> str:
    """``line`` with the value of each ``token=`` replaced by ``***`` (``/t/x?token=abc&lang=fr`` → ``token=***``)."""
    return _TOKEN.sub(r"\1***", line)


class RedactingFormatter(logging.Formatter):
    """A log formatter whose whole output (message, traceback, stack) has its tokens redacted (:func:`redact`)."""

    def format(self, record: logging.LogRecord) -> str:
        """The formatted record, every ``token=`` value written ``***``."""
        return redact(super().format(record))


def log_config(access_log: bool = True) -> dict[str, Any]:
    """The ``log_config`` of uvicorn: one stderr handler, ISO timestamps, tokens redacted, the access log at INFO.

    Args:
        access_log: log each HTTP request and WebSocket handshake (``uvicorn.access`` and ``uvicorn.error`` at INFO).
    """
    level = "INFO" if access_log else "WARNING"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "default": {
                "()": RedactingFormatter,
                "format": "%(asctime)s %(levelname)s %(name)s: %(message)s",
                "datefmt": "%Y-%m-%dT%H:%M:%S%z",
            }
        },
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "default",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "uvicorn": {"level": "INFO"},
            "uvicorn.error": {"level": level},
            "uvicorn.access": {"level": level},
            "alembic": {"level": "WARNING"},  # not a line per migration check (/readyz)
        },
        "root": {"level": "INFO", "handlers": ["stderr"]},
    }


def networks(spec: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network] | None:
    """Parse ``--metrics-allow-ips``: comma-separated addresses or networks (CIDR); ``*`` (returns None) is anyone.

    Raises:
        ValueError: an entry that is not an address or a network (the message names it).
    """
    entries = [e.strip() for e in spec.split(",") if e.strip()]
    if "*" in entries:
        return None
    out = []
    for entry in entries:
        try:
            out.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(
                f"--metrics-allow-ips: {entry!r} is not an IP address or network (e.g. 10.0.0.0/8)"
            ) from None
    return out


def may_read_metrics(request: Request, allowed: list[ipaddress.IPv4Network | ipaddress.IPv6Network] | None) -> bool:
    """Whether ``request``'s client may read ``/metrics`` (see the module's docstring)."""
    if allowed is None:
        return True
    host = request.client.host if request.client else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    forwarded = any(name in FORWARDING_HEADERS for name, _ in request.scope.get("headers", ()))
    if forwarded and address.is_loopback:
        return False  # came through a proxy that was not trusted: the proxy's address says nothing of who asked
    return any(address in net for net in allowed)


@lru_cache(maxsize=1)
def head_revision() -> str | None:
    """The newest Alembic revision this version of meeple ships."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config).get_current_head()


def readiness(engine: Engine) -> str | None:
    """None if ``engine``'s database answers and is migrated to :func:`head_revision`; else a short reason."""
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
            revision = MigrationContext.configure(connection).get_current_revision()
    except (SQLAlchemyError, OSError) as exc:
        log.warning("/readyz: the database is unreachable: %s", _first_line(exc))
        return "database unreachable"  # the driver's details (addresses) go to the log, not to the internet
    if revision != head_revision():
        return f"database at revision {revision}, expected {head_revision()}: migrations not applied"
    return None


def ops_router(
    metrics: Metrics,
    engine: Callable[[], Engine | None],
    metrics_allow: str,
    faults: Callable[[], list[str]] = list,
) -> APIRouter:
    """``/healthz``, ``/readyz`` and ``/metrics`` (the app makes ``metrics`` current: :class:`CurrentMetrics`).

    Args:
        metrics: the app's metrics.
        engine: returns the database engine once the app has started (None before).
        metrics_allow: ``--metrics-allow-ips`` (:func:`networks`).
        faults: the faults the process itself knows of now (e.g. ``["database"]``, ``["listen"]``); any makes
            ``/readyz`` answer 503 without asking the database.

    Raises:
        ValueError: a bad ``metrics_allow``.
    """
    allowed = networks(metrics_allow)
    router = APIRouter()

    @router.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        """Liveness: the process answers."""
        return {"status": "alive"}

    @router.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        """Readiness: the database answers and is migrated (503 with a reason if not)."""
        found = engine()
        if found is None:
            return JSONResponse({"status": "unavailable", "reason": "starting"}, status_code=503)
        known = faults()
        if known:
            return JSONResponse({"status": "unavailable", "reason": f"degraded: {', '.join(known)}"}, status_code=503)
        try:
            reason = await asyncio.wait_for(asyncio.to_thread(readiness, found), READY_TIMEOUT)
        except TimeoutError:
            reason = f"database did not answer within {READY_TIMEOUT:g} s"
        if reason is not None:
            return JSONResponse({"status": "unavailable", "reason": reason}, status_code=503)
        return JSONResponse({"status": "ready"})

    @router.get("/metrics", include_in_schema=False)
    async def metrics_page(request: Request) -> Response:
        """Prometheus text, for the addresses of ``--metrics-allow-ips`` only (403 otherwise)."""
        if not may_read_metrics(request, allowed):
            metrics.refused("metrics")
            return JSONResponse({"detail": "/metrics is open only to --metrics-allow-ips"}, status_code=403)
        return Response(metrics.render(), media_type=CONTENT_TYPE)

    return router


class CurrentMetrics:
    """Pure ASGI middleware: :func:`meeple.server.metrics.refused` counts in this app's metrics during a request.

    Args:
        app: the ASGI app it wraps.
        metrics: the app's metrics.
    """

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the request with :attr:`metrics` current."""
        token = activate(self.metrics)
        try:
            await self.app(scope, receive, send)
        finally:
            deactivate(token)


def _first_line(exc: BaseException) -> str:
    """The first non-empty line of an exception's text (drivers write several), at most 200 characters."""
    inner = getattr(exc, "orig", None) or exc
    lines = [line.strip() for line in str(inner).splitlines() if line.strip()]
    return _one_line(lines[0] if lines else type(inner).__name__)


def check_database(url: str) -> None:
    """The start-up checks of ``meeple serve``: the database is reachable, intact, migrated and writable.

    On SQLite, ``PRAGMA quick_check`` must answer ``ok``. The migrations are applied here, so the server then starts
    on a database at the newest revision; then a write is tried and rolled back.

    Raises:
        DatabaseUnusable: the first check that failed, as one line (the password of a URL is hidden).
        InvalidParameterError: ``url`` is not an SQLite or PostgreSQL URL.
    """
    if read_only_url(url):
        raise DatabaseUnusable(
            M(
                "the database URL {db} opens it read-only (mode=ro): the server writes to its database",
                db=shown_url(url),
            )
        )
    try:
        engine = make_engine(url)
    except OSError as exc:  # the folder of an SQLite file cannot be created
        error = _first_line(exc)
        raise DatabaseUnusable(M("cannot open the database {db}: {error}", db=shown_url(url), error=error)) from None
    shown = shown_url(url)
    try:
        with engine.connect() as connection:
            if engine.dialect.name == "sqlite":
                rows = [str(r[0]) for r in connection.exec_driver_sql("PRAGMA quick_check").fetchall()]
                if rows != ["ok"]:
                    damage = _one_line(" ".join(rows))
                    raise DatabaseUnusable(
                        M("the database {db} is damaged (PRAGMA quick_check: {damage})", db=shown, damage=damage)
                    )
            else:
                connection.execute(text("SELECT 1"))
    except DatabaseUnusable:
        engine.dispose()
        raise
    except (SQLAlchemyError, sqlite3.Error, OSError) as exc:
        engine.dispose()
        raise _unusable(shown, exc) from None
    try:
        migrate(engine)
        _try_a_write(engine)
    except (SQLAlchemyError, sqlite3.Error, OSError) as exc:
        raise _unusable(shown, exc) from None
    finally:
        engine.dispose()


def _try_a_write(engine: Engine) -> None:
    """Write to the database and roll it back: a read-only one fails here, not later with a traceback.

    Migrating a database already at the newest revision writes nothing, so a read-only URL or file
    (``sqlite:///file:PATH?mode=ro&uri=true``, a read-only PostgreSQL role) would pass it and fail at the server's
    first write (issue #41, item 15).

    Raises:
        SQLAlchemyError: the write was refused.
    """
    with engine.connect() as connection:
        transaction = connection.begin()
        try:
            connection.execute(text("UPDATE alembic_version SET version_num = version_num"))
        finally:
            transaction.rollback()


_SQLITE_DAMAGED = {"SQLITE_CORRUPT", "SQLITE_NOTADB"}
_SQLITE_READ_ONLY = {"SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM"}
_POSTGRESQL_READ_ONLY = {"25006", "42501"}  # read_only_sql_transaction, insufficient_privilege


def _unusable(shown: str, exc: BaseException) -> DatabaseUnusable:
    """The one-line error of a database that failed to open or migrate: damaged, read-only, or unreachable."""
    error = _first_line(exc)
    inner = getattr(exc, "orig", None) or exc
    name = str(getattr(inner, "sqlite_errorname", ""))
    if name.startswith(tuple(_SQLITE_DAMAGED)):
        return DatabaseUnusable(M("the database {db} is damaged ({error})", db=shown, error=error))
    if getattr(inner, "sqlstate", None) in _POSTGRESQL_READ_ONLY:
        advice = M(
            "cannot write the database {db} ({error}): the server needs a role that may write, in a read-write"
            " transaction",
            db=shown,
            error=error,
        )
        return DatabaseUnusable(advice)
    if name.startswith(tuple(_SQLITE_READ_ONLY)):
        advice = M(
            "cannot write the database {db} ({error}): check the permissions of the file and its folder",
            db=shown,
            error=error,
        )
        return DatabaseUnusable(advice)
    return DatabaseUnusable(M("cannot open the database {db}: {error}", db=shown, error=error))


def _one_line(text: str, limit: int = 160) -> str:
    """``text`` on one line (runs of white space made one space), cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
