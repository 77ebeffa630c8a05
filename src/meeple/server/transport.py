"""The HTTP protocol ``meeple serve`` runs uvicorn with: uvicorn's own, plus a deadline for a request's headers.

uvicorn waits for a request's headers for ever, so a client that opens sockets and sends its headers a byte at a
time (slowloris) holds them as long as it likes. Here a request whose headers are not complete
:data:`HEADER_SECONDS` after its first byte (or after the connection opened) is closed. Behind a reverse proxy
(docs/deploy.md) the proxy's own timeouts do this first.

Rules: issue "Safe on the open internet" (slowloris; operations).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADER_SECONDS = 10.0
"""Seconds a client has to send a request's headers."""


class HeaderDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol that closes a connection whose request headers come too slowly."""

    header_seconds = HEADER_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the connection and its first header deadline."""
        super().connection_made(transport)
        self._header_deadline: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        if getattr(self, "_header_deadline", None) is None:
            self._header_deadline = self.loop.call_later(self.header_seconds, self._too_slow)

    def _disarm(self) -> None:
        deadline = getattr(self, "_header_deadline", None)
        if deadline is not None:
            deadline.cancel()
            self._header_deadline = None

    def on_message_begin(self) -> None:
        """A request starts (the first on a connection, or the next on a kept-alive one): its deadline runs."""
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        """The headers arrived in time."""
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the deadline of a closed connection."""
        self._disarm()
        super().connection_lost(exc)

    def _too_slow(self) -> None:
        self._header_deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def uvicorn_options(header_seconds: float = HEADER_SECONDS) -> dict[str, Any]:
    """The protocol options of ``uvicorn.run`` that ``meeple serve`` uses (``header_seconds``: the deadline)."""
    protocol = type("HeaderDeadline", (HeaderDeadlineProtocol,), {"header_seconds": header_seconds})
    return {"http": protocol}
