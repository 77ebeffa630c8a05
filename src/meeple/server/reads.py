"""Reads that cost: a quota of reads per client address, and the lobby's listing cached for a moment.

A read is not free: a replay view costs ~23 ms of a core, a board ~10 ms, and the lobby ranked every table ever
made. Three bounds:

- **Reads per address** (``--reads-per-minute``, :class:`ReadQuota`): every GET or HEAD of a page or of the API
  counts, except static files (``/static/``, a game's stylesheet) and the operator's probes (``/healthz``,
  ``/readyz``, ``/metrics``). Past the quota the answer is 429 with ``Retry-After``: JSON ``{"detail"}`` for the API,
  a page in the reader's language for pages (``?lang=``, the ``lang`` cookie, ``Accept-Language``). The board a
  table page fetches after each move counts, so a page left open on a game still updates.
- **The lobby's listing** (:class:`Listing`): one query, bounded and indexed (``TableService.list_rows`` ranks at
  most the :data:`~meeple.server.tables.LOBBY_SCAN` newest tables), whose rows are kept :data:`LISTING_SECONDS` and
  shared by every reader of the same page meanwhile. A change this process makes to a table as the lobby shows it
  (a new table, a seat taken, a game over, a player connected) is seen at once; another process's within
  :data:`LISTING_SECONDS`.
- **Finished tables** are read from the database and not kept in memory (``TableService.read``).

Rules: issue 41, item 6 (reads that cost).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

from meeple.i18n import M, Translator, language_from_accept, translator
from meeple.server.quotas import Limiter, QuotaExceeded, quota_address
from meeple.server.tables import TableFilter, TableService

Scope = MutableMapping[str, Any]
AsgiMessage = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[AsgiMessage]]
Send = Callable[[AsgiMessage], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
Page = Callable[[Scope, Translator, str], bytes]
"""``page(scope, reader, text)``: the HTML of a page saying ``text`` (the web client's layout)."""

READS_PER_MINUTE = 300
"""Reads one address may make per minute (``--reads-per-minute``): 5 a second on average."""
FREE_PREFIXES = ("/static/", "/games/")
"""Paths whose GETs are not counted: static files (a game's stylesheet under ``/games/``)."""
FREE_PATHS = frozenset({"/healthz", "/readyz", "/metrics", "/favicon.ico"})
"""The operator's probes (a load balancer's checks must never be throttled) and the browser's icon request."""
LISTING_SECONDS = 1.5
"""How long the lobby's rows are shared before they are read again."""
LISTING_ENTRIES = 64
"""Different lobby pages kept at once (their ``limit``, ``before``, ``status`` and filters); the oldest go first."""


def reader_of(scope: Scope) -> Translator:
    """The language of a request: ``?lang=``, else the ``lang`` cookie, else ``Accept-Language``, else English."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
    cookies = SimpleCookie()
    try:
        cookies.load(headers.get("cookie", ""))
    except Exception:  # noqa: BLE001 - a malformed Cookie header names no language
        cookies = SimpleCookie()
    choices = [*query.get("lang", [])[:1], cookies["lang"].value if "lang" in cookies else None]
    for candidate in choices:
        if candidate:
            try:
                return translator(candidate)
            except ValueError:
                continue
    return translator(language_from_accept(headers.get("accept-language")))


class ReadQuota:
    """Count every read of a page or of the API per client address; 429 past :attr:`Quotas.reads_per_minute`.

    Args:
        app: the ASGI app behind it.
        limiter: the process's quotas (the ``reads`` window).
        on_refused: called with ``reads`` for every read refused (metrics).
    """

    def __init__(self, app: ASGIApp, limiter: Limiter, on_refused: Callable[[str], None] | None = None) -> None:
        self.app = app
        self.limiter = limiter
        self.on_refused = on_refused

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Count one request (a read) or pass it on untouched (anything else)."""
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD") and counted(scope["path"]):
            client = scope.get("client")
            address = quota_address(client[0]) if client else "unknown"
            try:
                self.limiter.hit("reads", address, "reads")
            except QuotaExceeded as exc:
                if self.on_refused is not None:
                    self.on_refused(exc.reason)
                await _refuse(scope, send, exc.retry_after)
                return
        await self.app(scope, receive, send)


def counted(path: str) -> bool:
    """Whether a GET of ``path`` counts as a read (pages and API; not static files, not the probes)."""
    return path not in FREE_PATHS and not path.startswith(FREE_PREFIXES)


async def _refuse(scope: Scope, send: Send, wait: int) -> None:
    """429 with ``Retry-After``: JSON for the API, the web client's page (if it has one) for pages."""
    reader = reader_of(scope)
    text = reader.message(M("too many requests from your address; try again in {seconds} s", seconds=wait))
    page: Page | None = getattr(getattr(scope.get("app"), "state", None), "refusal_page", None)
    if scope["path"].startswith("/api/") or page is None:
        body, kind = json.dumps({"detail": text}).encode(), b"application/json"
    else:
        body, kind = page(scope, reader, text), b"text/html; charset=utf-8"
    headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
    headers.append((b"retry-after", str(wait).encode()))
    await send({"type": "http.response.start", "status": 429, "headers": headers})
    await send({"type": "http.response.body", "body": body if scope["method"] == "GET" else b""})


@dataclass
class _Entry:
    task: asyncio.Task[Any]
    generation: int
    at: float


class Listing:
    """The lobby's rows (:meth:`TableService.list_rows`), shared for :data:`LISTING_SECONDS` by every reader.

    Concurrent readers of one page wait for one query; a page is read again once it is older than
    :data:`LISTING_SECONDS` or once this process changed a table as the lobby shows it
    (``TableService.listing_generation``).

    Args:
        service: the tables.
        seconds: how long rows are shared.
    """

    def __init__(self, service: TableService, seconds: float = LISTING_SECONDS) -> None:
        self.service = service
        self.seconds = seconds
        self.queries = 0
        """Queries run (the others were answered from the shared rows)."""
        self._pages: dict[tuple[int, float | None, str | None, TableFilter | None], _Entry] = {}

    async def rows(
        self, limit: int, before: float | None = None, status: str | None = None, which: TableFilter | None = None
    ) -> Any:
        """The rows of one lobby page: ``TableService.list_rows(limit, before, status, which)``, shared."""
        key = (limit, before, status, which)
        now = time.monotonic()
        generation = self.service.listing_generation
        entry = self._pages.get(key)
        fresh = entry is not None and entry.generation == generation and now - entry.at < self.seconds
        if entry is None or not fresh or (entry.task.done() and entry.task.exception() is not None):
            self.queries += 1
            query = asyncio.to_thread(self.service.list_rows, limit, before, status, which)
            task = asyncio.ensure_future(query)
            entry = _Entry(task, generation, now)
            self._pages.pop(key, None)
            self._pages[key] = entry
            while len(self._pages) > LISTING_ENTRIES:
                self._pages.pop(next(iter(self._pages)))
        return await asyncio.shield(entry.task)
