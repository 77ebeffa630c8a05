"""The HTTP protocol ``meeple serve`` runs uvicorn with: uvicorn's own (httptools or h11), with four guards.

Served without a proxy, a server must itself bound what a stranger's connection costs before the app sees it:

- **Connections in all** (``--max-connections``): a connection opened while :attr:`Framing.max_connections` are
  open (HTTP and WebSocket alike) is answered 503 and closed at once, so that sockets can never take the file
  descriptors the server needs for its database, its logs and its bot workers. The default is derived from the
  process's descriptor limit (``RLIMIT_NOFILE``, :func:`connection_budget`): :data:`RESERVED_FDS` are kept for the
  server itself, and as many as the listening backlog for a burst of connections accepted at once.
- **Header deadline** (``--header-timeout``): a request whose headers are not complete
  :attr:`Framing.header_seconds` after its first byte (or after the connection opened) is closed (slowloris).
- **Header size** (``--max-header-bytes``): request headers (request line included) larger than
  :attr:`Framing.header_bytes` are answered 431 and the connection is closed, read at most that far (plus one
  read of the socket) however slowly or quickly they come.
- **Body deadline** (``--body-timeout``): a request body not complete :attr:`Framing.body_seconds` after its
  headers is answered 408 (or, if the answer has begun, the connection is closed), whether the app reads it or not.

uvicorn picks httptools when it is installed and h11 otherwise; both get the same guards
(:class:`GuardedHttpTools`, :class:`GuardedH11`), and ``--http`` chooses one. Behind a reverse proxy
(docs/deploy.md) the proxy's own limits act first.

Rules: issue "Safe on the open internet" (slowloris; operations); issue 41, item 5 (connections and framing).
"""

from __future__ import annotations

import asyncio
import importlib.util
import resource
from dataclasses import dataclass
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0
"""Seconds a client has to send a request's headers."""
BODY_SECONDS = 10.0
"""Seconds a client has, after a request's headers, to send its body (16 KiB at most: ~1.6 KB/s is enough)."""
HEADER_BYTES = 32 * 1024
"""The largest request head (request line and headers), in bytes: room for a browser's ~180 cookies of this site."""
RESERVED_FDS = 128
"""File descriptors kept for the server itself, never for connections: its database (SQLite's file, WAL and
shared memory for each of up to 15 pooled connections; or PostgreSQL's sockets), logs, the bot workers' pipes, the
event loop. A busy server uses about 35 (``tests/server/test_framing.py`` measures it)."""
MAX_BACKLOG = 2048
"""The listening backlog at most (the kernel queue, and the most connections accepted in one burst)."""
MIN_CONNECTIONS = 16
"""The fewest connections a server is started for: below it, the descriptor limit is too low to serve anyone."""
HTTP_IMPLEMENTATIONS = ("auto", "httptools", "h11")
"""``--http``: ``auto`` is httptools when installed, else h11 (uvicorn's own choice)."""


@dataclass(frozen=True)
class Framing:
    """What one connection may cost before the app sees a request (``meeple serve`` options in parentheses).

    Attributes:
        header_seconds: seconds to send a request's headers, from its first byte (``--header-timeout``).
        body_seconds: seconds to send a request's body, from the end of its headers (``--body-timeout``).
        header_bytes: the largest request head in bytes, request line included (``--max-header-bytes``); 431 beyond.
        max_connections: connections open at once in this process, HTTP and WebSocket (``--max-connections``); a
            connection past it is answered 503 and closed. None: no cap (the in-process test client).
    """

    header_seconds: float = HEADER_SECONDS
    body_seconds: float = BODY_SECONDS
    header_bytes: int = HEADER_BYTES
    max_connections: int | None = None


def descriptor_limit() -> int:
    """This process's soft ``RLIMIT_NOFILE`` (``ulimit -n``); an unlimited one counts as 2**20."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return 1 << 20 if soft == resource.RLIM_INFINITY else int(soft)


def connection_budget(limit: int | None = None, asked: int | None = None) -> tuple[int, int]:
    """The connection cap and the listening backlog for a descriptor limit.

    A burst of connections is accepted before any of them is looked at (libuv accepts until the kernel queue is
    empty), so the backlog is kept small beside the limit: ``limit // 8`` (16 to :data:`MAX_BACKLOG`). The cap is
    what remains once :data:`RESERVED_FDS` and the backlog are set aside.

    Args:
        limit: the descriptor limit (default: :func:`descriptor_limit`).
        asked: the cap the operator asked for (``--max-connections``); None for the most the limit allows.

    Returns:
        ``(max_connections, backlog)``.

    Raises:
        ValueError: the limit leaves fewer than :data:`MIN_CONNECTIONS` connections, or ``asked`` is more than it
            leaves (the message says how many it allows and how to raise it).
    """
    limit = descriptor_limit() if limit is None else limit
    backlog = max(16, min(MAX_BACKLOG, limit // 8))
    most = limit - RESERVED_FDS - backlog
    if most < MIN_CONNECTIONS:
        raise ValueError(
            f"the file descriptor limit ({limit}, ulimit -n) leaves no room for connections: the server keeps"
            f" {RESERVED_FDS} for itself and {backlog} for the listening queue; raise it (ulimit -n, systemd's"
            f" LimitNOFILE=) to at least {RESERVED_FDS + backlog + MIN_CONNECTIONS}"
        )
    if asked is not None and not 1 <= asked <= most:
        raise ValueError(
            f"--max-connections is 1 to {most} with a file descriptor limit of {limit} (ulimit -n), not {asked}:"
            f" the server keeps {RESERVED_FDS} descriptors for itself and {backlog} for the listening queue;"
            " raise the limit (systemd's LimitNOFILE=) for more"
        )
    return (asked if asked is not None else most), backlog


def _answer(status: int, reason: str, text: str, extra: str = "") -> bytes:
    """A complete plain-text HTTP/1.1 answer that closes the connection (written before the app saw anything)."""
    body = text.encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: {len(body)}\r\n"
        f"x-content-type-options: nosniff\r\ncache-control: no-store\r\n{extra}connection: close\r\n\r\n"
    )
    return head.encode() + body


class _Guards:
    """The guards of :class:`GuardedHttpTools` and :class:`GuardedH11` (the HTTP protocol classes they mix into).

    Counted and timed per connection: whether it was refused, its header and body timers, the bytes of the
    request head so far.
    """

    framing: ClassVar[Framing] = Framing()
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    server_state: Any
    cycle: Any

    def _guard_open(self, transport: asyncio.Transport) -> bool:
        """Count a new connection; past the cap answer 503 and close it (False: refused)."""
        self._refused = False
        self._header_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._head_bytes = 0
        cap = self.framing.max_connections
        if cap is not None and len(self.server_state.connections) >= cap:
            self._refused = True
            transport.write(_answer(503, "Service Unavailable", "the server is full; try again", "retry-after: 5\r\n"))
            transport.close()
            return False
        return True

    def _arm_header(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.framing.header_seconds, self._too_slow)

    def _arm_body(self) -> None:
        if self._body_timer is None:
            self._body_timer = self.loop.call_later(self.framing.body_seconds, self._body_too_slow)

    def _disarm_header(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _disarm_body(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _disarm(self) -> None:
        self._disarm_header()
        self._disarm_body()

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def _body_too_slow(self) -> None:
        self._body_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_started:
            seconds = f"{self.framing.body_seconds:g}"
            self.transport.write(
                _answer(408, "Request Timeout", f"the request body did not arrive within {seconds} s of its headers")
            )
        self.transport.close()

    def _too_large(self) -> None:
        """Answer 431 and close: the request head passed :attr:`Framing.header_bytes`."""
        self._disarm()
        if not self.transport.is_closing():
            limit = self.framing.header_bytes
            self.transport.write(
                _answer(431, "Request Header Fields Too Large", f"request headers too large: at most {limit} bytes")
            )
            self.transport.close()


class _HeadTooLarge(Exception):
    """Raised inside httptools' callbacks to stop parsing a request head past its bound."""


def _count_head(protocol: _Guards, size: int) -> None:
    """Count ``size`` bytes of a request head httptools parsed; past the bound stop parsing (431)."""
    protocol._head_bytes += size
    if protocol._head_bytes > protocol.framing.header_bytes:
        raise _HeadTooLarge


def _httptools_protocol() -> type[asyncio.Protocol]:
    """The guarded httptools protocol of uvicorn (httptools is imported only when it is used)."""
    import httptools
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class GuardedHttpTools(_Guards, HttpToolsProtocol):
        """uvicorn's httptools protocol, guarded (see the module's docstring)."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            """Count the connection (503 past the cap) and start its header deadline."""
            if self._guard_open(transport):
                super().connection_made(transport)
                self._in_head = True
                self._head_raw = 0
                self._arm_header()

        def data_received(self, data: bytes) -> None:
            """Parse ``data``; a head still incomplete past the size bound is answered 431."""
            if self._refused:
                return
            in_head = self._in_head
            super().data_received(data)
            if in_head and self._in_head and not self.transport.is_closing():
                self._head_raw += len(data)  # a head arriving in pieces: httptools buffers it meanwhile
                if self._head_raw > self.framing.header_bytes:
                    self._too_large()

        def send_400_response(self, msg: str) -> None:
            """Answer a parse error as uvicorn does (400); 431 when the error was a head past its bound."""
            if self._head_bytes > self.framing.header_bytes:
                self._too_large()
            else:
                super().send_400_response(msg)

        def on_message_begin(self) -> None:
            """A request starts: its header deadline runs, its head is counted."""
            super().on_message_begin()
            self._in_head = True
            self._head_bytes = 16  # the method, the version and the request line's separators
            self._head_raw = 0
            self._arm_header()

        def on_url(self, url: bytes) -> None:
            """Count the request line's target."""
            _count_head(self, len(url))
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            """Count one header."""
            _count_head(self, len(name) + len(value) + 4)
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            """The head arrived in time and within its size: the body's deadline runs (none for an upgrade)."""
            self._in_head = False
            self._disarm_header()
            if not (self.parser.should_upgrade() and self._should_upgrade()):
                self._arm_body()
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            """The body arrived in time."""
            self._disarm_body()
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            """A WebSocket takes the connection over: this protocol's timers stop."""
            self._disarm()
            super().handle_websocket_upgrade()

        def connection_lost(self, exc: Exception | None) -> None:
            """Forget the timers of a closed connection (a refused one was never counted)."""
            self._disarm()
            if not self._refused:
                super().connection_lost(exc)

    _ = httptools  # imported above so that a missing httptools fails here, not at the first request
    return GuardedHttpTools


class GuardedH11(_Guards, H11Protocol):
    """uvicorn's h11 protocol, guarded (see the module's docstring): h11's states say where a request stands."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the connection (503 past the cap) and start its header deadline."""
        if self._guard_open(transport):
            super().connection_made(transport)
            self._arm_header()

    def data_received(self, data: bytes) -> None:
        """Check the size of a head still being received, then let h11 parse; time the phase it is in."""
        if self._refused:
            return
        if self.conn.their_state is h11.IDLE:
            head = self.conn.trailing_data[0] + data
            end = head.find(b"\r\n\r\n")
            if (end if end >= 0 else len(head)) > self.framing.header_bytes:
                self._too_large()
                return
        super().data_received(data)
        if self.transport.is_closing():
            self._disarm()
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            if self.conn.trailing_data[0]:
                self._arm_header()  # the next request's head has begun
        elif state is h11.SEND_BODY:
            self._disarm_header()
            self._arm_body()
        else:  # the request is complete (DONE), or the connection switched protocol or must close
            self._disarm()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        """A WebSocket takes the connection over: this protocol's timers stop."""
        self._disarm()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the timers of a closed connection (a refused one was never counted)."""
        self._disarm()
        if not self._refused:
            super().connection_lost(exc)


def http_protocol(framing: Framing, http: str = "auto") -> type[asyncio.Protocol]:
    """The guarded HTTP protocol class for uvicorn's ``http`` option.

    Args:
        framing: the bounds.
        http: ``auto`` (httptools if installed, else h11), ``httptools`` or ``h11``.

    Raises:
        ValueError: another ``http``, or ``httptools`` when it is not installed.
    """
    if http not in HTTP_IMPLEMENTATIONS:
        raise ValueError(f"--http is one of {', '.join(HTTP_IMPLEMENTATIONS)}, not {http!r}")
    has_httptools = importlib.util.find_spec("httptools") is not None
    if http == "httptools" and not has_httptools:
        raise ValueError("--http httptools: httptools is not installed (pip install httptools), use h11 or auto")
    base = _httptools_protocol() if http == "httptools" or (http == "auto" and has_httptools) else GuardedH11
    return type(base.__name__, (base,), {"framing": framing})


def uvicorn_options(framing: Framing | None = None, http: str = "auto", backlog: int = MAX_BACKLOG) -> dict[str, Any]:
    """The protocol options of ``uvicorn.Config`` that ``meeple serve`` uses.

    Args:
        framing: the bounds (default: :class:`Framing`'s, without a connection cap).
        http: the HTTP implementation (:func:`http_protocol`).
        backlog: the listening backlog (:func:`connection_budget`).
    """
    framing = framing or Framing()
    return {
        "http": http_protocol(framing, http),
        "h11_max_incomplete_event_size": framing.header_bytes,
        "backlog": backlog,
    }
