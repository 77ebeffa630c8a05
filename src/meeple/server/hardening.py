"""The server's web hardening, in one ASGI middleware: security headers, Origin checks and request body sizes.

- Every HTTP answer carries a Content-Security-Policy (:data:`CSP`: our own scripts, styles and images only, no
  frames, no ``<base>``, forms to ourselves), ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``,
  ``X-Frame-Options: DENY``, and ``Cache-Control: no-store`` except on static files (pages and answers may hold a
  token); over https also ``Strict-Transport-Security``.
- A WebSocket handshake, or a request other than GET/HEAD/OPTIONS, whose ``Origin`` is a browser origin other than
  the server's own is refused with 403 before the app sees it: another site's page cannot move for a seat or create
  tables through its visitors. The server's own origins are configured (``--public-url``, ``--allow-origins``, by
  default this server's address: :func:`default_origins`); the ``Host`` a request names is one only behind a proxy
  (``--forwarded-allow-ips``), which passes its own site names alone. Served directly, a ``Host`` proves nothing: a
  page whose name an attacker re-points at the server (DNS rebinding) sends its own name as ``Host`` and ``Origin``.
  An ``Origin`` that is no origin at all (``http://a:b``: a port that is not a number) is refused too. A request
  without ``Origin`` (the terminal client, scripts) is let through.
- A request body larger than ``body_bytes`` is answered 413 without being passed on (it is read at most that far).

Rules: issue "Safe on the open internet" (sizes, web hardening, Origin checks); issue #41 (items 11 and 15: a bad
``Origin``, DNS rebinding); OWASP secure headers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"
)
"""The Content-Security-Policy of every answer (``connect-src 'self'`` covers the page's own ws:/wss: origin)."""
HSTS = "max-age=31536000"
"""Strict-Transport-Security over https: one year (no ``includeSubDomains``: the operator's other hosts are theirs)."""
ORIGIN_REFUSED = (
    b"cross-origin request refused: this page may only be used from its own site"
    b" (its operator names the site's addresses with --public-url or --allow-origins)"
)
"""The 403 of a request from another origin."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing: no Origin check (a cross-site GET only navigates)."""

_COMMON = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


def origin_of(url: str) -> str | None:
    """The origin ``scheme://host[:port]`` of ``url``, lower-cased, default ports dropped; None if it has none.

    None for a text that names no origin: no scheme or host, or a port that is not a number from 0 to 65535
    (``http://a:b``), which the Origin check refuses (issue #41, item 11).
    """
    try:
        parts = urlsplit(url.strip())
        port_number = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if not scheme or not host:
        return None
    if ":" in host:
        host = f"[{host}]"  # IPv6
    default = {"http": 80, "https": 443, "ws": 80, "wss": 443}.get(scheme)
    port = "" if port_number in (None, default) else f":{port_number}"
    return f"{scheme}://{host}{port}"


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
"""The names a browser on the server's own machine reaches it by."""


def default_origins(host: str, port: int, public: str | None = None) -> list[str]:
    """The origins a server accepts pages from when ``--allow-origins`` is not given.

    ``public`` (``--public-url``, or the address the invitations print) is one. Listening on loopback or on every
    interface (``0.0.0.0``, ``::``), ``http://localhost:PORT``, ``http://127.0.0.1:PORT`` and ``http://[::1]:PORT``
    are too, so ``meeple serve`` works out of the box in a browser on the same machine; listening on one address,
    ``http://ADDRESS:PORT`` is.

    Args:
        host: ``--host``.
        port: ``--port``.
        public: the address players use, if known.

    Returns:
        Origins as :func:`origin_of` writes them, without repeats.
    """
    bare = host.strip("[]")
    found: list[str] = []
    if public:
        found.append(public)
    if bare in ("", "0.0.0.0", "::", "localhost") or bare.startswith("127.") or bare == "::1":
        found += [f"http://{name}:{port}" for name in LOOPBACK_NAMES]
    if bare not in ("", "0.0.0.0", "::"):
        found.append(f"http://{f'[{bare}]' if ':' in bare else bare}:{port}")
    origins = [o for o in (origin_of(url) for url in found) if o is not None]
    return list(dict.fromkeys(origins))


def parse_origins(spec: str) -> list[str]:
    """Parse ``--allow-origins``: comma-separated ``scheme://host[:port]`` (http or https, no path).

    Raises:
        ValueError: an entry that is not such an origin (the message names it and says what is allowed).
    """
    out = []
    for entry in (e.strip() for e in spec.split(",")):
        if not entry:
            continue
        origin = origin_of(entry)
        if origin is None or not origin.startswith(("http://", "https://")) or urlsplit(entry).path not in ("", "/"):
            raise ValueError(
                f"--allow-origins: {entry[:80]!r} is not an origin: give scheme://host[:port], e.g. https://games.example.org"
            )
        out.append(origin)
    return out


class SecurityMiddleware:
    """Headers, Origin checks and body sizes for every request (see the module's docstring).

    Args:
        app: the ASGI app behind it.
        public_urls: the origins pages may come from (``--public-url``, ``--allow-origins``).
        body_bytes: the largest request body passed on (413 beyond).
        on_refused: called with a reason (``origin``, ``body_size``) for every request refused here (metrics).
        trust_host: the ``Host`` a request came to is an origin too: only behind a proxy that passes its own site
            names alone (``--forwarded-allow-ips``); served directly it would let DNS rebinding through.
    """

    def __init__(
        self,
        app: ASGIApp,
        public_urls: Iterable[str] = (),
        body_bytes: int = 16 * 1024,
        on_refused: Callable[[str], None] | None = None,
        trust_host: bool = False,
    ) -> None:
        self.app = app
        self.origins = {o for o in (origin_of(u) for u in public_urls) if o is not None}
        self.trust_host = trust_host
        self.body_bytes = body_bytes
        self.on_refused = on_refused

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check and pass on one ASGI connection (HTTP request or WebSocket)."""
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        unsafe = kind == "websocket" or scope["method"] not in SAFE_METHODS
        if unsafe and not self.same_origin(scope, headers):
            self._refused("origin")
            if kind == "websocket":
                await send({"type": "websocket.close", "code": 1008})  # before accept: an HTTP 403
            else:
                await _plain(send, 403, ORIGIN_REFUSED)
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        if scope["method"] not in SAFE_METHODS:
            try:
                body = await self._read_body(headers, receive)
            except _ClientGone:  # hung up (or timed out by the transport) before the whole body came: no request
                return
            if body is None:
                self._refused("body_size")
                await _plain(send, 413, f"request body too large: at most {self.body_bytes} bytes".encode())
                return
            receive = _replay(body)
        await self.app(scope, receive, _with_headers(send, scope.get("scheme") == "https", scope["path"]))

    def same_origin(self, scope: Scope, headers: dict[bytes, bytes]) -> bool:
        """True if the request comes from one of the server's own pages, or from no browser page at all.

        The ``Origin`` decides; a browser's ``Sec-Fetch-Site`` (Fetch Metadata) is the tie-breaker where ``Origin``
        says nothing: our own pages' ``Referrer-Policy: no-referrer`` makes a browser send ``Origin: null`` with their
        form posts, and ``Sec-Fetch-Site: same-origin`` beside it, while a sandboxed frame of another site sends
        ``null`` with ``cross-site``. A request with neither header is not a browser's (the terminal, scripts).
        """
        origin = headers.get(b"origin")
        site = headers.get(b"sec-fetch-site")
        if origin is None:
            return site is None or site in (b"same-origin", b"none")
        given = origin.decode("latin-1")
        if given == "null":
            return site == b"same-origin"
        wanted = origin_of(given)
        if wanted is None:
            return False  # not an origin (a port that is no number): refused, never a server error
        if wanted in self.origins:
            return True
        if not self.trust_host:
            return False
        host = headers.get(b"host", b"").decode("latin-1")
        scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
        return bool(host) and wanted == origin_of(f"{scheme}://{host}")

    async def _read_body(self, headers: dict[bytes, bytes], receive: Receive) -> bytes | None:
        """The whole body, or None once it passes ``body_bytes`` (by its Content-Length or as it arrives).

        Raises:
            _ClientGone: the connection closed before the body was complete (a part is never passed on as a whole).
        """
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.body_bytes):
            return None
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                raise _ClientGone
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.body_bytes:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    def _refused(self, reason: str) -> None:
        if self.on_refused is not None:
            self.on_refused(reason)


class _ClientGone(Exception):
    """The client's connection closed while its request body was being read."""


def _headers(scope: Scope) -> dict[bytes, bytes]:
    return {k.lower(): v for k, v in scope.get("headers", [])}


def _replay(body: bytes) -> Receive:
    """A ``receive`` that gives the app the body read already, then waits for the disconnect."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    return receive


def _with_headers(send: Send, https: bool, path: str) -> Send:
    """``send`` adding the security headers to the response start (static files may be cached)."""
    extra = list(_COMMON)
    if not path.startswith("/static/"):
        extra.append((b"cache-control", b"no-store"))
    if https:
        extra.append((b"strict-transport-security", HSTS.encode()))

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            given = {k.lower() for k, _ in headers}  # a page with its own policy (the API docs) keeps it
            message["headers"] = headers + [(k, v) for k, v in extra if k not in given]
        await send(message)

    return wrapped


async def _plain(send: Send, status: int, text: bytes) -> None:
    """A plain-text answer with the security headers (before the app saw the request)."""
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(text)).encode())]
    headers += [*_COMMON, (b"cache-control", b"no-store")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": text})
