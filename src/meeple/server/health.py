"""The server's own health: whether this process reaches its database and hears the other processes.

While a process is *degraded* (its database unreachable, its LISTEN connection lost) its players cannot move and it
cannot see the other processes' presence, so nothing may be held against them: the time of its outages is not
counted in a grace period, a clock's running turn is credited with it (``clock.credit_outage``), and for
:data:`SETTLE` seconds after an outage the process neither replaces anybody by a bot nor takes another process's
connections for dead (their heartbeats had no way to come through).

A readiness probe (``/readyz``) reads :attr:`Health.degraded` (``TableService.degraded``).

Rules: issue "Survive the database and the other process" (presence that a fault cannot fake).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable

log = logging.getLogger("meeple.server")

SETTLE = 15.0
"""Seconds after an outage during which no seat is replaced for time or absence, and no other process's presence
is judged: long enough for every live process to send a heartbeat (presence.STALE)."""

DATABASE = "database"
"""A fault: the database cannot be reached."""
LISTEN = "listen"
"""A fault: the LISTEN connection (news of the other processes) is lost."""


class Health:
    """This process's faults now and its outages in the recent past (thread-safe: the LISTEN thread reports too).

    Args:
        now: the clock (Unix seconds), replaceable in tests.
    """

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self.now = now
        self._lock = threading.Lock()
        self._faults: dict[str, float] = {}
        self._since: float | None = None  # the start of the outage under way
        self.outages: deque[tuple[float, float]] = deque(maxlen=256)
        """Past outages ``(start, end)`` in Unix seconds, oldest first."""

    @property
    def degraded(self) -> bool:
        """Whether a fault is under way (the database unreachable or the LISTEN connection lost)."""
        return bool(self._faults)

    @property
    def faults(self) -> list[str]:
        """The faults under way (:data:`DATABASE`, :data:`LISTEN`)."""
        return sorted(self._faults)

    def fail(self, fault: str) -> None:
        """Report a fault (idempotent: the outage starts at its first report)."""
        with self._lock:
            if fault in self._faults:
                return
            now = self.now()
            self._faults[fault] = now
            if self._since is None:
                self._since = now
        log.warning("degraded: %s unreachable; players' time stops until it is back", fault)

    def ok(self, fault: str) -> tuple[float, float] | None:
        """Report a fault over; return the outage ``(start, end)`` if it was the last fault under way."""
        with self._lock:
            if fault not in self._faults:
                return None
            since = self._faults.pop(fault)
            still = sorted(self._faults)
            outage = None
            if not still and self._since is not None:
                outage = (self._since, self.now())
                self._since = None
                self.outages.append(outage)
        if outage is None:
            log.warning("%s is back after %.1f s; still degraded: %s", fault, self.now() - since, ", ".join(still))
        else:
            log.warning("recovered: %s is back after an outage of %.1f s", fault, outage[1] - outage[0])
        return outage

    def paused(self, start: float, end: float) -> float:
        """Seconds of ``[start, end]`` during which this process was degraded (past outages and the one under way)."""
        spans = list(self.outages)
        since = self._since
        if since is not None:
            spans.append((since, end))
        return sum(max(0.0, min(b, end) - max(a, start)) for a, b in spans)

    def settle_until(self) -> float | None:
        """When the settling after the last outage ends (None if none is recent or under way)."""
        if self._since is not None:
            return self.now() + SETTLE
        if self.outages:
            end = self.outages[-1][1] + SETTLE
            if end > self.now():
                return end
        return None

    def presence_cutoff(self, now: float, stale: float) -> float:
        """Presence rows refreshed after this time count as alive.

        That is ``now - stale``, or, while degraded or settling, ``stale`` before the last outage began: a heartbeat
        that could not come through is not a death.
        """
        cutoff = now - stale
        since = self._since
        if since is not None:
            return min(cutoff, since - stale)
        if self.outages and self.outages[-1][1] + SETTLE > now:
            return min(cutoff, self.outages[-1][0] - stale)
        return cutoff
