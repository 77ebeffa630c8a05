"""The password work of a server (argon2 in :mod:`.accounts`) on its own small, bounded set of threads.

A password check costs ~0.3 s of a core and 64 MiB (argon2id, RFC 9106's low-memory profile). Run on the event
loop's default executor, a log-in flood from many addresses (per-address quotas do not stop a botnet) would queue
the tables' database work behind it and hold one 64 MiB buffer per default worker. Here at most ``workers`` checks
run at once (``--password-hash-workers``) and at most ``queue`` more wait (``--password-hash-queue``); past that a
request is refused at once with :class:`PasswordWorkBusy` (HTTP 503 with ``Retry-After``), never queued without
bound.

Rules: issue #34 "People at the table", item 5 (accounts); docs/server.md (limits).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

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


class PasswordWork:
    """A bounded pool of threads for the password work (sign-up, log-in, password change, account deletion).

    Args:
        workers: threads that hash at once (at least 1).
        queue: calls that may wait for a free thread (0: none wait).

    Attributes:
        pending: calls accepted and not finished (running or waiting), at most ``workers + queue``.
        running: calls running on a thread now; ``peak`` the most seen at once.
        refused: calls refused since start (also counted in ``meeple_refused_total{reason="password_busy"}``).
    """

    def __init__(self, workers: int = 2, queue: int = 8) -> None:
        if workers < 1 or queue < 0:
            raise ValueError(f"password workers must be >= 1 and the queue >= 0, not {workers} and {queue}")
        self.workers = workers
        self.queue = queue
        self.pending = 0
        self.running = 0
        self.peak = 0
        self.refused = 0
        self._lock = threading.Lock()
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="meeple-password")

    async def run(self, call: Callable[..., T], *args: object) -> T:
        """``call(*args)`` on a password thread; its result.

        A call is counted until its thread finishes it, even if the request awaiting it went away (a client that
        hangs up frees no thread, so it frees no place in the queue either).

        Raises:
            PasswordWorkBusy: ``workers + queue`` calls are already pending.
        """
        with self._lock:
            if self.pending >= self.workers + self.queue:
                self.refused += 1
                raise PasswordWorkBusy()
            self.pending += 1
        try:
            future: Future[T] = self._executor.submit(self._call, call, args)
        except RuntimeError:  # shut down
            self._done(None)
            raise PasswordWorkBusy() from None
        future.add_done_callback(self._done)
        return await asyncio.wrap_future(future)

    def _call(self, call: Callable[..., T], args: tuple[object, ...]) -> T:
        with self._lock:
            self.running += 1
            self.peak = max(self.peak, self.running)
        try:
            return call(*args)
        finally:
            with self._lock:
                self.running -= 1

    def _done(self, _future: object) -> None:
        with self._lock:
            self.pending -= 1

    def close(self) -> None:
        """Stop the threads (calls still waiting are cancelled)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
