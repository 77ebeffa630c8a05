"""Quotas per client address and the size limits of everything a stranger sends.

Every number is an option of ``meeple serve`` (docs/server.md lists them). Rates are counted in moving windows by
the ``limits`` library, in this process's memory (with several processes, each counts its own clients); counts of
what is open now (WebSockets) are kept here; live tables are counted in the database.

The client address is the peer's, or the last ``X-Forwarded-For`` hop when the peer is a proxy named in
``--forwarded-allow-ips`` (uvicorn's proxy-headers middleware rewrites it before the app sees the request).

Rules: issue "Safe on the open internet" (quotas per client address, sizes, flow control, expiry).
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import Any

from limits import RateLimitItemPerHour, RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from meeple.i18n import M, Message, Translator


def quota(default: Any, doc: str, *, low: float | None = None, high: float | None = None) -> Any:
    """A field of :class:`Quotas` that ``meeple serve`` takes as an option (issue #42, item 4: one name per quota).

    The option is the field's name in dashes (``max_tables`` is ``--max-tables``; a boolean ``rate_limits`` is
    ``--rate-limits/--no-rate-limits``), its help ``doc``, its range ``low``..``high`` (:func:`quota_options`).
    """
    return field(default=default, metadata={"doc": doc, "low": low, "high": high})


def quota_flag(name: str) -> str:
    """The ``meeple serve`` option of the quota ``name``: ``--`` and its words joined by dashes."""
    return "--" + name.replace("_", "-")


@dataclass(frozen=True)
class Quotas:
    """The limits of one server process (``meeple serve`` options in parentheses).

    Each field made with :func:`quota` is the option of its own name (``--`` and its words joined by dashes); the
    others are fixed sizes.

    Attributes:
        rate_limits: False lifts every rate and count below (``--no-rate-limits``: load tests on loopback); sizes
            stay.
        tables_per_minute: tables one address may create per minute (``--tables-per-minute``).
        max_tables_per_address: live and waiting tables one address may have created (``--max-tables-per-address``).
        max_tables: started tables in the database (``--max-tables``): live tables where a human has come (a
            connection or a move). Past it no table is created (429 "this server is full").
        max_unstarted_tables: unstarted tables in the database (``--max-unstarted-tables``): waiting tables, and live
            ones nobody has come to yet. They count apart from the started ones: when a new table finds them at
            this bound, the oldest is aborted to make room (its reason ``server_full``).
        no_start_minutes: a human seat that never came (no connection, no move) when it is to move makes its
            table aborted after this long (``--no-start-minutes``; lichess's ``noStart``): counted from the table's
            start or the last move, whichever is later (a turn-based table: at least its time per move).
        bot_cpu_per_address: CPU seconds an hour that the bots of one creator address's tables may think
            (``--bot-cpu-per-address``; :class:`meeple.server.bots.BotBudget`); past it they wait.
        max_sockets_per_address: WebSockets one address may hold open (``--max-sockets-per-address``).
        messages_per_minute: messages one WebSocket may send per minute; past it the connection is closed with
            1008 (``--messages-per-minute``).
        bad_tokens_per_minute: wrong seat tokens one address may present per minute (``--bad-tokens-per-minute``).
        body_bytes: the largest HTTP request body (413 beyond).
        message_bytes: the largest WebSocket message (closed with 1009 beyond).
        send_seconds: how long a frame may wait for a client that does not read before it is closed.
        idle_days: a live table nobody has moved at for this long ends as abandoned (``--idle-days``).
        lobby_per_address: tables of one creator address shown in the lobby (the newest), so that nobody floods
            the others out of view.
        joins_per_minute: open seats one address may take per minute (``POST /api/tables/{id}/join`` and
            ``POST /api/quickmatch``).
        chats_per_minute: chat lines one address may send per minute; past it a line is refused (``rate_limited``).
        waiting_hours: a table whose open seats nobody took for this long ends as abandoned.
        quickmatch_wait: seconds after which a quick-match table starts with bots in its open seats, unless its
            creator chose otherwise.
        logins_per_minute: log-in attempts one address may make per minute (``--logins-per-minute``); failed ones
            for one username from one address are limited to three times as many per hour. Past either, 429 for that
            address, even for the right password; other addresses are never held back by it (no lock-out).
        logins_per_username: log-in attempts at one username from devices it has not logged in from, per 10
            minutes, whatever their addresses (``--logins-per-username``; lichess's 10); a known device's failures
            are bounded by as many (:mod:`.logins`).
        signups_per_minute: accounts one address may create per minute (``--signups-per-minute``).
        reads_per_minute: pages and API reads (GET, HEAD) one address may make per minute; static files and the
            probes do not count (``--reads-per-minute``; :mod:`.reads`).
        min_password_score: the lowest zxcvbn score (0-4) of a password chosen at sign-up or at a password change
            (``--min-password-score``; :mod:`.passwords`; 0 accepts any password of 8-128 characters).
        my_tables_per_minute: "My tables" lists (``GET /api/me/tables``, the ``/me/tables`` page) one address, and
            one account, may ask for per minute (``--my-tables-per-minute``): each may load up to 100 tables.
        follows_per_minute: players one account, and one address, may follow per minute, and times they may change
            their presence setting (``--follows-per-minute``; :mod:`.friends`): each is a write.
        boards_per_minute: the moves played back one address may ask for per minute (``GET /tables/{id}/boards``,
            ``--boards-per-minute``): each replays the table and draws up to 24 boards (issue #43).
        resets_per_hour: password-reset requests (``POST /api/password-reset``) one address may make an hour, and
            reset e-mails one account may be sent an hour (``--resets-per-hour``; issue #44, item 5).
        verifications_per_hour: verification e-mails one account may ask for an hour (``--verifications-per-hour``:
            a new address, or ``POST /api/me/verification``).
        reports_per_hour: reports (``POST /api/reports``) one address, and one account, may send an hour
            (``--reports-per-hour``; issue #44, item 6).
        exports_per_hour: data exports (``GET /api/me/export``) one address, and one account, may ask for an hour
            (``--exports-per-hour``; issue #44, item 8): each reads every game and chat line of the account.
        blocks_per_minute: block or unblock requests one account may make per minute (``--blocks-per-minute``;
            :mod:`.blocks`).
        rematch_seconds: how long a rematch offer waits for every human of the finished table to accept before it
            lapses (``--rematch-seconds``; :mod:`.rematch`).
    """

    rate_limits: bool = quota(
        True,
        doc="Apply the quotas; --no-rate-limits lifts them (load tests on loopback); sizes stay bounded.",
    )
    tables_per_minute: int = quota(10, doc="Tables one address may create per minute.", low=1)
    max_tables_per_address: int = quota(20, doc="Live tables one address may have created.", low=1)
    max_tables: int = quota(2000, doc="Started tables in all (a human came); past it 429.", low=1)
    max_unstarted_tables: int = quota(
        1000,
        doc="Tables nobody has come to yet (waiting, or live and never opened); past it the oldest is aborted.",
        low=1,
    )
    no_start_minutes: float = quota(
        5.0,
        doc="A table whose player to move never came is aborted after this long (from the start or last move).",
        low=0.1,
        high=1440,
    )
    bot_cpu_per_address: float = quota(
        900.0,
        doc="CPU seconds an hour the bots of one creator address's tables may think; past it they wait.",
        low=1,
    )
    max_sockets_per_address: int = quota(32, doc="WebSocket connections one address may hold.", low=1)
    messages_per_minute: int = quota(240, doc="Messages one WebSocket may send per minute.", low=1)
    bad_tokens_per_minute: int = quota(10, doc="Wrong seat tokens one address may try per minute.", low=1)
    body_bytes: int = 16 * 1024
    message_bytes: int = 4 * 1024
    send_seconds: float = 30.0
    idle_days: float = quota(14.0, doc="A table nobody moved at for this long ends as abandoned.", low=0.001)
    lobby_per_address: int = 3
    joins_per_minute: int = quota(20, doc="Open seats one address may take per minute.", low=1)
    chats_per_minute: int = quota(20, doc="Chat lines one address may send per minute.", low=1)
    waiting_hours: float = quota(24.0, doc="A table whose open seats stay free this long is abandoned.", low=0.001)
    quickmatch_wait: float = quota(60.0, doc="Seconds before bots take a quick-match table's open seats.", low=0.0)
    logins_per_minute: int = quota(
        10,
        doc="Log-in attempts per address a minute (failures per username and address: 3x that an hour).",
        low=1,
    )
    logins_per_username: int = quota(
        10,
        doc="Log-in attempts at one username from devices it never logged in from, per 10 minutes, whatever"
        " their addresses.",
        low=1,
    )
    signups_per_minute: int = quota(5, doc="Accounts one address may create per minute.", low=1)
    min_password_score: int = quota(
        3,
        doc="The lowest strength (zxcvbn score, 0-4) of a new password; 0 accepts any of 8-128 characters.",
        low=0,
        high=4,
    )
    reads_per_minute: int = quota(
        300,
        doc="Pages and API reads (GET) one address may make per minute; static files and probes do not count.",
        low=1,
    )
    my_tables_per_minute: int = quota(
        30,
        doc='"My tables" lists one address, and one account, may ask per minute.',
        low=1,
    )
    follows_per_minute: int = quota(
        30,
        doc="Follows, and changes of the presence setting, one account and one address may make per minute.",
        low=1,
    )
    boards_per_minute: int = quota(
        600,
        doc="Catch-ups of a table page (the others' moves played back) one address may ask per minute.",
        low=1,
    )
    resets_per_hour: int = quota(
        5, doc="Password-reset requests one address may make an hour (and reset e-mails one account gets).", low=1
    )
    verifications_per_hour: int = quota(5, doc="Verification e-mails one account may ask for an hour.", low=1)
    reports_per_hour: int = quota(10, doc="Reports of players one address, and one account, may send an hour.", low=1)
    exports_per_hour: int = quota(10, doc="Data exports one address, and one account, may ask for an hour.", low=1)
    blocks_per_minute: int = quota(
        30,
        doc="Changes one account may make to its blocked players per minute (block or unblock).",
        low=1,
    )
    rematch_seconds: float = quota(
        300.0,
        doc="Seconds a rematch offer waits for every player to accept before it lapses.",
        low=10.0,
        high=86_400.0,
    )


class QuotaExceeded(Exception):
    """A client asked for more than its quota; ``retry_after`` is in whole seconds (HTTP 429 ``Retry-After``).

    ``text``, when set, is the message to show in the reader's language (``message`` is its English form).
    """

    def __init__(self, message: str, retry_after: int, reason: str, text: Message | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after
        self.reason = reason
        self.text = text

    def words(self, reader: Translator) -> str:
        """The message in ``reader``'s language (English when it has no translated form)."""
        return reader.message(self.text) if self.text is not None else self.message


QUOTA_WORDS = {
    "tables created": M("too many tables created: at most {n} {per}; try again in {seconds} s"),
    "seats taken": M("too many seats taken: at most {n} {per}; try again in {seconds} s"),
    "chat lines": M("too many chat lines: at most {n} {per}; try again in {seconds} s"),
    "log-in attempts": M("too many log-in attempts: at most {n} {per}; try again in {seconds} s"),
    "log-in attempts at this username": M(
        "too many log-in attempts at this username: at most {n} {per}; try again in {seconds} s"
    ),
    "failed log-ins for this username": M(
        "too many failed log-ins for this username: at most {n} {per}; try again in {seconds} s"
    ),
    "accounts created": M("too many accounts created: at most {n} {per}; try again in {seconds} s"),
    "lists of your tables": M("too many lists of your tables: at most {n} {per}; try again in {seconds} s"),
    "catch-ups of a table page": M("too many catch-ups of a table page: at most {n} {per}; try again in {seconds} s"),
    "reads": M("too many reads: at most {n} {per}; try again in {seconds} s"),
    "messages": M("too many messages: at most {n} {per}; try again in {seconds} s"),
    "wrong seat tokens": M("too many wrong seat tokens: at most {n} {per}; try again in {seconds} s"),
    "players followed": M("too many players followed: at most {n} {per}; try again in {seconds} s"),
    "presence changes": M("too many presence changes: at most {n} {per}; try again in {seconds} s"),
}
"""The words of each quota :meth:`Limiter.hit` counts, to render in the reader's language (issue #44, item 9: a 429
on a French page was in English)."""


def quota_text(what: str, amount: int, unit: str, multiples: int, wait: int) -> Message | None:
    """The translatable message of a quota ``what`` past ``amount`` per ``multiples`` ``unit`` (None: unknown words).

    Args:
        what: the words given to :meth:`Limiter.hit` ("tables created").
        amount: the quota.
        unit: ``minute`` or ``hour``.
        multiples: how many units the window spans.
        wait: the seconds to wait.
    """
    words = QUOTA_WORDS.get(what)
    if words is None:
        return None
    if multiples == 1:
        per = M("an hour") if unit == "hour" else M("a minute")
    else:
        per = M("per {n} hours", n=multiples) if unit == "hour" else M("per {n} minutes", n=multiples)
    return Message(words.msgid, {"n": amount, "per": per, "seconds": wait})


WRONG_TOKENS_KEPT = 100_000
"""Wrong token values remembered at most (the oldest go first), so that a repeated one is counted once a minute."""
IPV6_PREFIX = 56
"""Every IPv6 address of one /56 network counts as one client: ISPs delegate a /56 to each customer (RIPE-690), so
a /64 key gave one home 256 times every quota; a /56 groups fewer people than one shared IPv4 address (CGNAT)
already does (issue 41, item 3; docs/decisions.md)."""


def quota_address(host: str) -> str:
    """The client that ``host`` counts as for every per-address quota.

    An IPv4 address stays itself; an IPv4-mapped IPv6 address (``::ffff:1.2.3.4``) is its IPv4 address; any other
    IPv6 address is its /56 network (``2001:db8::/56``, :data:`IPV6_PREFIX`), so that a customer cannot multiply
    its quotas by the addresses and /64 networks it is given. Anything else (a test client's name, ``unknown``) stays
    as it is.
    """
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))
    return str(address)


def address_key(address: str) -> str:
    """The stored form of a client address (creator of a table): a short SHA-256, not the address itself."""
    return hashlib.sha256(address.encode("utf-8", "replace")).hexdigest()[:24]


def failure_key(username: str, address: str) -> str:
    """The key of failed log-ins: one username from one client address (the username's case does not count).

    Failures are counted per address so that nobody can lock an account out by failing on purpose from elsewhere;
    guessing spread over many addresses is bounded by the per-address quotas and the password workers.
    """
    return f"{username.lower()} {address}"


class Limiter:
    """The rate quotas of one process: moving windows per client address (and per connection for messages).

    Args:
        quotas: the limits.
    """

    def __init__(self, quotas: Quotas) -> None:
        self.quotas = quotas
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._items = {
            "tables": RateLimitItemPerMinute(max(1, quotas.tables_per_minute)),
            "bad_token": RateLimitItemPerMinute(max(1, quotas.bad_tokens_per_minute)),
            "messages": RateLimitItemPerMinute(max(1, quotas.messages_per_minute)),
            "joins": RateLimitItemPerMinute(max(1, quotas.joins_per_minute)),
            "chat": RateLimitItemPerMinute(max(1, quotas.chats_per_minute)),
            "login": RateLimitItemPerMinute(max(1, quotas.logins_per_minute)),
            "login_user": RateLimitItemPerHour(max(1, 3 * quotas.logins_per_minute)),
            "login_username": RateLimitItemPerMinute(max(1, quotas.logins_per_username), 10),
            "login_device": RateLimitItemPerMinute(max(1, quotas.logins_per_username), 10),
            "signup": RateLimitItemPerMinute(max(1, quotas.signups_per_minute)),
            "my_tables": RateLimitItemPerMinute(max(1, quotas.my_tables_per_minute)),
            "boards": RateLimitItemPerMinute(max(1, quotas.boards_per_minute)),
            "follows": RateLimitItemPerMinute(max(1, quotas.follows_per_minute)),
            "blocks": RateLimitItemPerMinute(max(1, quotas.blocks_per_minute)),
            "reads": RateLimitItemPerMinute(max(1, quotas.reads_per_minute)),
            "resets": RateLimitItemPerHour(max(1, quotas.resets_per_hour)),
            "reset_mails": RateLimitItemPerHour(max(1, quotas.resets_per_hour)),
            "verifications": RateLimitItemPerHour(max(1, quotas.verifications_per_hour)),
            "reports": RateLimitItemPerHour(max(1, quotas.reports_per_hour)),
            "exports": RateLimitItemPerHour(max(1, quotas.exports_per_hour)),
        }
        self.sockets: Counter[str] = Counter()
        """Open WebSockets per client address."""
        self._wrong: OrderedDict[str, float] = OrderedDict()
        """Wrong tokens counted in the last minute: ``address table sha256(token)`` -> when (monotonic seconds)."""

    def hit(self, kind: str, key: str, what: str) -> None:
        """Count one ``kind`` event (``tables``, ``bad_token``, ``joins``, ``chat``, ``login``...) of ``key``.

        Raises:
            QuotaExceeded: past the quota; ``what`` is the sentence that says which, e.g. "tables created".
        """
        if not self.quotas.rate_limits:
            return
        item = self._items[kind]
        if not self._limiter.hit(item, kind, key):
            reset = self._limiter.get_window_stats(item, kind, key).reset_time
            wait = max(1, math.ceil(reset - time.time()))
            unit = item.GRANULARITY.name
            per = f"an {unit}" if item.multiples == 1 and unit == "hour" else f"a {unit}"
            per = per if item.multiples == 1 else f"per {item.multiples} {unit}s"
            english = f"too many {what}: at most {item.amount} {per}; try again in {wait} s"
            raise QuotaExceeded(english, wait, kind, quota_text(what, item.amount, unit, item.multiples, wait))

    def count(self, kind: str, key: str) -> None:
        """Count one ``kind`` event of ``key`` without refusing anything (a window that only :meth:`blocked` reads)."""
        if self.quotas.rate_limits:
            self._limiter.hit(self._items[kind], kind, key)

    def wrong_token(self, address: str, table_id: str, token: str) -> None:
        """Count a wrong seat ``token`` of ``address`` at ``table_id``, once a minute per value (``bad_token``).

        The same wrong value again (a stale seat cookie sent with every board fetch) is not counted again within
        the minute: only new guesses use the quota up (issue #41, item 10).

        Raises:
            QuotaExceeded: past :attr:`Quotas.bad_tokens_per_minute` different wrong values.
        """
        now = time.monotonic()
        while self._wrong and (next(iter(self._wrong.values())) < now - 60 or len(self._wrong) > WRONG_TOKENS_KEPT):
            self._wrong.popitem(last=False)
        digest = hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()[:32]
        key = f"{address} {table_id} {digest}"
        if key in self._wrong:
            return
        self._wrong[key] = now
        self.hit("bad_token", address, "wrong seat tokens")

    def blocked(self, kind: str, key: str) -> int | None:
        """Seconds to wait if ``key`` has used its ``kind`` quota already (nothing is counted), else None."""
        if not self.quotas.rate_limits:
            return None
        item = self._items[kind]
        if self._limiter.test(item, kind, key):
            return None
        reset = self._limiter.get_window_stats(item, kind, key).reset_time
        return max(1, math.ceil(reset - time.time()))

    def open_socket(self, address: str) -> None:
        """Count a new WebSocket of ``address``.

        Raises:
            QuotaExceeded: it already holds :attr:`Quotas.max_sockets_per_address`.
        """
        if self.quotas.rate_limits and self.sockets[address] >= self.quotas.max_sockets_per_address:
            limit = self.quotas.max_sockets_per_address
            text = M("too many connections from one address: at most {n}", n=limit)
            raise QuotaExceeded(f"too many connections from one address: at most {limit}", 10, "sockets", text)
        self.sockets[address] += 1

    def close_socket(self, address: str) -> None:
        """A WebSocket of ``address`` closed."""
        self.sockets[address] -= 1
        if self.sockets[address] <= 0:
            del self.sockets[address]
