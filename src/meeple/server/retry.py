"""Database faults the server rides out: which errors a retry may cure, and retrying a transaction until it does.

A move carries its ``move_id``, so a transaction whose commit was lost with its connection can be run again: the
second run finds the ``move_id`` in the log and applies nothing (``TableService._tx_move``). A bot move carries the
version it was chosen at, so its second run is refused as stale. Every transaction of the table master is therefore
safe to retry.

Transient (retried): a deadlock or a serialization failure (SQLSTATE ``40P01``, ``40001``), a lock or statement
timeout (``55P03``, ``57014``), a session ended by ``idle_in_transaction_session_timeout`` (``25P03``), a server
shutting down or restarting (class ``57P``), a lost or refused connection (class ``08``, or no SQLSTATE at all),
SQLite's "database is locked". Anything else (a bug, a constraint violation) is not retried.

Rules: issue "Survive the database and the other process" (retry, never die).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

log = logging.getLogger("meeple.server")

T = TypeVar("T")

RETRY_BUDGET = 8.0
"""Seconds a transaction is retried before its caller is told (``server_error``): longer than
``idle_in_transaction_session_timeout`` (db.py), so that a table held by a frozen process is free again in time."""
FIRST_DELAY = 0.05
"""Seconds before the first retry; each next wait doubles, up to :data:`MAX_DELAY`."""
MAX_DELAY = 1.0

_CONTENTION = {"40001", "40P01", "55P03", "57014", "25P03"}
"""SQLSTATEs of a transaction that lost a race or a timeout: the database itself is fine."""


def _sqlstate(exc: DBAPIError) -> str | None:
    code = getattr(exc.orig, "sqlstate", None)
    return code if isinstance(code, str) else None


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot be reached (a lost, refused or shut-down connection)."""
    if not isinstance(exc, DBAPIError):
        return False
    if exc.connection_invalidated:
        return True
    code = _sqlstate(exc)
    if code is None:
        return isinstance(exc, (OperationalError, InterfaceError)) and "locked" not in str(exc.orig)
    return code.startswith(("08", "57P"))


def is_transient(exc: BaseException) -> bool:
    """Whether running the failed transaction again may succeed (see the module's list)."""
    if not isinstance(exc, DBAPIError):
        return False
    if is_outage(exc):
        return True
    code = _sqlstate(exc)
    if code is not None:
        return code in _CONTENTION
    return isinstance(exc, OperationalError)  # SQLite: "database is locked"


def one_line(exc: BaseException) -> str:
    """A short, single-line description of a database error for the log (no traceback, no SQL)."""
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    text = " ".join(str(orig).split())
    return f"{type(orig).__name__}: {text[:160]}"


async def retrying(
    call: Callable[[], Awaitable[T]],
    what: str,
    on_outage: Callable[[], None] | None = None,
    budget: float | None = None,
) -> T:
    """Await ``call()`` until it succeeds, retrying transient database errors for up to ``budget`` seconds.

    The waits (50 ms doubling to 1 s) are ``asyncio.sleep``: no thread is held while waiting.

    Args:
        call: makes and awaits one attempt (a transaction).
        what: names the work in the log line of a retry (``"move at table X"``).
        on_outage: called when an attempt failed because the database is unreachable (the server is degraded).
        budget: seconds after which the last error is raised (default :data:`RETRY_BUDGET`).

    Raises:
        Exception: the last error, once it is not transient or the budget is spent.
    """
    end = time.monotonic() + (RETRY_BUDGET if budget is None else budget)
    delay = FIRST_DELAY
    while True:
        try:
            return await call()
        except Exception as exc:
            if not is_transient(exc):
                raise
            if on_outage is not None and is_outage(exc):
                on_outage()
            if time.monotonic() + delay > end:
                raise
            log.debug("%s: %s; retrying in %.2f s", what, one_line(exc), delay)
            await asyncio.sleep(delay)
            delay = min(2 * delay, MAX_DELAY)
