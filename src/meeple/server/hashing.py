"""The password work of a server (argon2 in :mod:`.accounts`) on its own small, bounded set of threads.

A password check costs ~0.3 s of a core and 64 MiB (argon2id, RFC 9106's low-memory profile). Run on the event
loop's default executor, a log-in flood from many addresses (per-address quotas do not stop a botnet) would queue
the tables' database work behind it and hold one 64 MiB buffer per default worker. Here at most ``workers`` checks
run at once (``--password-hash-workers``) and at most ``queue`` more wait (``--password-hash-queue``); past that a
request is refused at once with :class:`PasswordWorkBusy` (HTTP 503 with ``Retry-After``), never queued without
bound.

The work comes in two lanes. Requests from a *known device* (a log-in carrying the account's device cookie, or a
request of a logged-in session: :mod:`.logins`) wait in a lane of their own, bounded the same way, and a free thread
always takes the oldest call of that lane first: a flood from other addresses fills the ordinary lane only, so a
player's own device waits at most for the checks already running, never behind the flood. The threads (and so the
memory) are shared: at most ``workers`` run, whatever the lane.

Rules: issue #34 "People at the table", item 5 (accounts); issue 41, item 4 (the log-in queue); docs/server.md.
"""

from __future__ import annotations

import asyncio
import collections
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from meeple.i18n import M, Message

T = TypeVar("T")

RETRY_AFTER = 2
"""Seconds a refused client is told to wait (``Retry-After``): a few checks' time."""


class PasswordWorkBusy(Exception):
    """Every password worker is busy and the queue is full: answer 503 with ``Retry-After: retry_after``."""

    def __init__(self, retry_after: int = RETRY_AFTER) -> None:
        self.retry_after = retry_after
        self.message: Message = M(
            "the server is busy checking passwords; try again in {seconds} s", seconds=retry_after
        )
        super().__init__(str(self.message))


@dataclass
class _Lane:
    """Calls of one lane that are accepted and not finished (``pending``), the waiting ones in order."""

    waiting: collections.deque[_Call[Any]] = field(default_factory=collections.deque)
    pending: int = 0


@dataclass
class _Call(Generic[T]):
    call: Callable[..., T]
    args: tuple[object, ...]
    future: Future[T] = field(default_factory=Future)


class PasswordWork:
    """A bounded pool of threads for the password work (sign-up, log-in, password change, account deletion).

    Args:
        workers: threads that hash at once (at least 1).
        queue: calls that may wait for a free thread, in each lane (0: none wait).

    Attributes:
        pending: calls accepted and not finished (running or waiting), both lanes, at most ``workers + 2 * queue``.
        trusted_pending: those of the known devices' lane.
        running: calls running on a thread now; ``peak`` the most seen at once.
        refused: calls refused since start (also counted in ``meeple_refused_total{reason="password_busy"}``).
    """

    def __init__(self, workers: int = 2, queue: int = 8) -> None:
        if workers < 1 or queue < 0:
            raise ValueError(f"password workers must be >= 1 and the queue >= 0, not {workers} and {queue}")
        self.workers = workers
        self.queue = queue
        self.running = 0
        self.peak = 0
        self.refused = 0
        self._lock = threading.Lock()
        self._trusted = _Lane()
        self._ordinary = _Lane()
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="meeple-password")

    @property
    def pending(self) -> int:
        """Calls accepted and not finished, both lanes."""
        return self._trusted.pending + self._ordinary.pending

    @property
    def trusted_pending(self) -> int:
        """Calls of the known devices' lane accepted and not finished."""
        return self._trusted.pending

    async def run(self, call: Callable[..., T], *args: object, trusted: bool = False) -> T:
        """``call(*args)`` on a password thread; its result.

        ``trusted``: a known device's call (its own lane, served first). A call is counted until its thread finishes
        it, even if the request awaiting it went away (a client that hangs up frees no thread).

        Raises:
            PasswordWorkBusy: ``workers + queue`` calls of that lane are already pending.
        """
        lane = self._trusted if trusted else self._ordinary
        job: _Call[T] = _Call(call, args)
        with self._lock:
            if lane.pending >= self.workers + self.queue:
                self.refused += 1
                raise PasswordWorkBusy()
            lane.pending += 1
            lane.waiting.append(job)
        try:
            self._executor.submit(self._next)  # one turn of a thread per call: it takes the first call waiting
        except RuntimeError:  # shut down
            with self._lock:
                lane.waiting.remove(job)
                lane.pending -= 1
            raise PasswordWorkBusy() from None
        return await asyncio.wrap_future(job.future)

    def _next(self) -> None:
        """Run the first waiting call, the known devices' lane first."""
        with self._lock:
            lane = self._trusted if self._trusted.waiting else self._ordinary
            job = lane.waiting.popleft()
            self.running += 1
            self.peak = max(self.peak, self.running)
        result: Any = None
        error: BaseException | None = None
        started = False
        try:
            started = job.future.set_running_or_notify_cancel()
            if started:
                try:
                    result = job.call(*job.args)
                except BaseException as exc:  # noqa: BLE001 - handed to the awaiting request
                    error = exc
        finally:
            with self._lock:  # counted free before the request hears of it: its next look sees the thread free
                self.running -= 1
                lane.pending -= 1
        if started:
            if error is not None:
                job.future.set_exception(error)
            else:
                job.future.set_result(result)

    def close(self) -> None:
        """Stop the threads (calls still waiting are cancelled)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            for lane in (self._trusted, self._ordinary):
                while lane.waiting:
                    lane.waiting.popleft().future.cancel()
