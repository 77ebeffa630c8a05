"""The server's Prometheus metrics (``GET /metrics``, the text exposition format of ``prometheus-client``).

Each app has its own :class:`Metrics` on its own ``CollectorRegistry`` (tests build many apps in one process; a
``meeple serve`` process runs one). Every name starts with ``meeple_``:

- ``meeple_moves_total{game, by_bot}``: moves committed by this process (``by_bot`` is ``"true"`` or ``"false"``).
- ``meeple_move_seconds{game}``: histogram of the move transaction (check, apply, append to the log, commit), seconds.
- ``meeple_live_tables``: tables this process holds in memory whose game is not over.
- ``meeple_connections{kind}``: open WebSocket connections of this process (``seat`` or ``spectator``).
- ``meeple_bot_queue``: bot moves asked of the bot workers and not yet answered (waiting or thinking).
- ``meeple_bot_seconds{game}``: histogram of the wall-clock seconds from asking a bot move to its answer.
- ``meeple_bot_timeouts_total``: bot moves stopped at the wall-clock cap (``--bot-move-seconds``) and played by the
  fallback bot.
- ``meeple_refused_total{reason}``: requests and connections refused by a limit (:func:`refused`);
  ``password_busy`` counts the 503s of a full password queue (:mod:`meeple.server.hashing`).
- ``meeple_password_pending``: password checks and hashes accepted and not finished (running or waiting).

Rules: issue #32 "Safe on the open internet", item 11 (Operations); docs/deploy.md (who may read ``/metrics``).
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The ``Content-Type`` of :meth:`Metrics.render` (the Prometheus text format)."""
MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Upper bounds (seconds) of the move-transaction histogram: a move commits in milliseconds on a healthy database."""
BOT_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
"""Upper bounds (seconds) of the bot-move histogram: from a random bot's milliseconds to a capped search."""
REFUSAL_REASONS = (
    "origin",  # 403: a browser page of another site (a form POST, a WebSocket handshake)
    "body_size",  # 413: a request body past the limit
    "tables",  # 429: tables created per minute by one address
    "live_tables",  # 429: live tables of one address
    "max_tables",  # 429: live tables in all
    "bad_token",  # 429: wrong seat tokens per minute by one address
    "sockets",  # 429: WebSockets held by one address
    "messages",  # close 1008: messages per minute on one WebSocket
    "message_size",  # close 1009: a WebSocket message past the limit
    "not_reading",  # a WebSocket closed because its client stopped reading
    "metrics",  # 403: /metrics asked from an address not in --metrics-allow-ips
    "my_tables",  # 429: "My tables" lists per minute by one address or account
    "password_busy",  # 503: the password threads and their queue are full (--password-hash-workers, -queue)
)
"""Reasons shown at 0 before the first refusal (any other reason is counted too, under its own label)."""


class Metrics:
    """One app's metrics on a registry of its own.

    Args:
        registry: where to register (default: a new ``CollectorRegistry``).
    """

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry or CollectorRegistry()
        r = self.registry
        self.moves = Counter("meeple_moves", "Moves committed by this process.", ["game", "by_bot"], registry=r)
        self.move_seconds = Histogram(
            "meeple_move_seconds",
            "Seconds of a move's transaction (check, apply, log, commit).",
            ["game"],
            buckets=MOVE_BUCKETS,
            registry=r,
        )
        self._move_series: dict[tuple[str, bool], tuple[Any, Any]] = {}
        self.live_tables = Gauge("meeple_live_tables", "Live tables held in this process's memory.", registry=r)
        self.connections = Gauge("meeple_connections", "Open WebSocket connections.", ["kind"], registry=r)
        self.bot_seconds = Histogram(
            "meeple_bot_seconds",
            "Wall-clock seconds from asking a bot move to its answer.",
            ["game"],
            buckets=BOT_BUCKETS,
            registry=r,
        )
        self.refusals = Counter("meeple_refused", "Requests or connections refused, by reason.", ["reason"], registry=r)
        self.password_pending = Gauge(
            "meeple_password_pending", "Password checks or hashes running or waiting.", registry=r
        )
        for reason in REFUSAL_REASONS:
            self.refusals.labels(reason=reason)
        for kind in ("seat", "spectator"):
            self.connections.labels(kind=kind)
        self.emails = Counter(
            "meeple_emails",
            "Turn e-mails by outcome (sent, failed, dropped, no_address, capped, bad_address).",
            ["outcome"],
            registry=r,
        )

    def watch(self, tables: Callable[[], Iterable[Any]], bots: Any) -> None:
        """Read the gauges of tables, connections and bots when scraped (so they cannot drift).

        Args:
            tables: returns the process's ``LiveTable`` objects (status and connections).
            bots: the ``BotPool`` (its ``pending`` and ``timeouts``).
        """
        self.registry.register(_BotCollector(bots))

        def live() -> float:
            return float(sum(1 for t in tables() if t.status == "live"))

        def connected(spectator: bool) -> Callable[[], float]:
            return lambda: float(sum(1 for t in tables() for c in list(t.conns) if (c.seat is None) == spectator))

        self.live_tables.set_function(live)
        self.connections.labels(kind="seat").set_function(connected(False))
        self.connections.labels(kind="spectator").set_function(connected(True))

    def watch_passwords(self, passwords: Any) -> None:
        """Read ``meeple_password_pending`` from ``passwords`` (a ``PasswordWork``) when scraped."""
        self.password_pending.set_function(lambda: float(passwords.pending))

    def move(self, game: str, by_bot: bool, seconds: float) -> None:
        """Count a committed move of ``game`` whose transaction took ``seconds``.

        Every move comes here: the labelled series are looked up once per game and kind (``labels`` takes a lock
        and builds a key each call).
        """
        series = self._move_series.get((game, by_bot))
        if series is None:
            count = self.moves.labels(game=game, by_bot="true" if by_bot else "false")
            series = self._move_series[game, by_bot] = (count, self.move_seconds.labels(game=game))
        series[0].inc()
        series[1].observe(seconds)

    def bot_answered(self, game: str, seconds: float) -> None:
        """Record a bot move of ``game`` answered ``seconds`` after it was asked (by its bot or the fallback)."""
        self.bot_seconds.labels(game=game).observe(seconds)

    def refused(self, reason: str) -> None:
        """Count a request or connection refused for ``reason`` (a short ``snake_case`` word)."""
        self.refusals.labels(reason=reason).inc()

    def render(self) -> bytes:
        """The registry in Prometheus text format (:data:`CONTENT_TYPE`)."""
        return generate_latest(self.registry)


class _BotCollector(Collector):
    """``meeple_bot_queue`` and ``meeple_bot_timeouts_total``, read from a ``BotPool`` when scraped."""

    def __init__(self, bots: Any) -> None:
        self.bots = bots

    def collect(self) -> Iterator[Metric]:
        """The two families, as the pool counts them now."""
        yield GaugeMetricFamily(
            "meeple_bot_queue", "Bot moves asked and not yet answered.", value=float(self.bots.pending)
        )
        yield CounterMetricFamily(
            "meeple_bot_timeouts", "Bot moves stopped at the time cap.", value=float(self.bots.timeouts)
        )


_current: contextvars.ContextVar[Metrics | None] = contextvars.ContextVar("meeple_metrics", default=None)
_started: list[Metrics] = []


def activate(metrics: Metrics) -> contextvars.Token[Metrics | None]:
    """Make ``metrics`` the one :func:`refused` counts in, in this context (the ops middleware, per request)."""
    return _current.set(metrics)


def deactivate(token: contextvars.Token[Metrics | None]) -> None:
    """Undo :func:`activate`."""
    _current.reset(token)


def started(metrics: Metrics) -> None:
    """Record that an app with ``metrics`` started serving (its lifespan began)."""
    _started.append(metrics)


def stopped(metrics: Metrics) -> None:
    """Record that an app with ``metrics`` stopped serving."""
    if metrics in _started:
        _started.remove(metrics)


def current() -> Metrics | None:
    """The metrics of the request being handled, else of the app started last in this process, else None."""
    found = _current.get()
    if found is not None:
        return found
    return _started[-1] if _started else None


def refused(reason: str) -> None:
    """Count one refusal (413, 429, 403, WebSocket close 1008 or 1009...) in ``meeple_refused_total{reason}``.

    The count goes to the app handling the current request, else to the app started last in this process (a
    ``meeple serve`` process runs one app); outside any app it is dropped.

    Args:
        reason: a short ``snake_case`` word, e.g. ``"body_too_large"``, ``"rate_limited"``, ``"forbidden_origin"``.
    """
    metrics = current()
    if metrics is not None:
        metrics.refused(reason)
