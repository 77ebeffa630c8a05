"""Root-parallel ISMCTS: one search per worker process on its own determinization, root statistics summed.

Root parallelism (Chaslot, Winands and van den Herik, "Parallel Monte-Carlo Tree Search", CG 2008; for ISMCTS,
Cowling et al. 2012 §VI): ``workers`` independent searches of the same information set, each with its share of the
iterations and its own seed, whose root edges are merged (visits and rewards summed) before the move is chosen.
Share 0 runs in the calling process on the bot's view; every other share runs in a worker process on a
determinization drawn by the caller (``SeatView.determinize``), so no process but the caller's ever holds the real
state: a worker sees only a world the seat cannot tell apart from it.

Reproducible for a fixed seed and worker count (with an iteration budget): the seeds and determinizations of the
shares follow from the move's seed, and the merge adds the shares in a fixed order.

Worker processes are started once per process and worker count (``forkserver``: safe beside threads, as in the
server) and reused by every bot; :func:`shutdown` stops them (also at exit).
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from meeple.core.errors import InvalidParameterError
from meeple.core.rng import Rng
from meeple.core.view import SeatView

WORKERS_ENV = "MEEPLE_SEARCH_WORKERS"
"""Environment variable that ``workers=auto`` reads: a count or ``cores``; unset, ``auto`` is 1 (the arena, the
server and the benchmarks run many games or tables at once). ``meeple play``, where a human waits for the bots,
sets it to ``cores`` unless it is set."""

Stats = dict[int, tuple[int, float]]
"""Root statistics of one share: action code -> (visits, summed reward)."""

_POOLS: dict[int, tuple[ProcessPoolExecutor, Any]] = {}
"""Worker pools by size, each with the semaphore its workers release when a share starts."""
_STARTED: Any = None
"""In a worker process: the start semaphore of its pool (set by :func:`_init_worker`)."""
START_WAIT = 5.0
"""Seconds the caller waits at most for the workers to start their shares before it starts its own."""


def resolve_workers(value: str | int) -> int:
    """Return the worker count of an ISMCTS ``workers`` option: a positive integer, ``cores`` or ``auto``.

    ``cores`` is the number of cores this process may use; ``auto`` is what :data:`WORKERS_ENV` says (1 if unset).

    Raises:
        InvalidParameterError: none of these.
    """
    if value == "auto":
        return resolve_workers(os.environ.get(WORKERS_ENV) or 1)
    if value == "cores":
        return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))
    try:
        workers = int(value)
    except ValueError:
        workers = 0
    if workers < 1:
        raise InvalidParameterError(f"ismcts workers must be a positive integer, cores or auto, not {value!r}")
    return workers


def split(iterations: int | None, workers: int) -> list[int | None]:
    """Split an iteration budget over ``workers`` shares (the first shares take the remainder); None stays None."""
    if iterations is None:
        return [None] * workers
    base, extra = divmod(iterations, workers)
    return [base + (1 if i < extra else 0) for i in range(workers)]


def share_seed(seed: int, share: int) -> int:
    """The seed of share ``share`` of a move whose search seed is ``seed`` (share 0 keeps it)."""
    return seed if share == 0 else (seed * 0x9E3779B1 + share * 0x85EBCA77) % (1 << 62)


def _init_worker(started: Any) -> None:
    global _STARTED
    _STARTED = started


def _started_share(worker: WorkerFn, *args: Any) -> tuple[Stats, int]:
    """Say that the share started, then run it (in a worker process)."""
    _STARTED.release()  # at once, in this thread (a queue's feeder thread would wait for the search to yield the GIL)
    return worker(*args)


def _pool(size: int) -> tuple[ProcessPoolExecutor, Any]:
    pool = _POOLS.get(size)
    if pool is None:
        context = multiprocessing.get_context("forkserver")
        started = context.Semaphore(0)
        executor = ProcessPoolExecutor(size, mp_context=context, initializer=_init_worker, initargs=(started,))
        pool = _POOLS[size] = (executor, started)
    return pool


def shutdown() -> None:
    """Stop every worker process started by parallel searches (they start again when needed)."""
    for executor, _ in _POOLS.values():
        executor.shutdown(wait=True, cancel_futures=True)
    _POOLS.clear()


atexit.register(shutdown)


ShareFn = Callable[[SeatView, int, "int | None", "int | None"], tuple[Stats, int]]
"""Runs one share in this process: ``(view, seed, iterations, proposal) -> (stats, iterations run)``."""
WorkerFn = Callable[..., tuple[Stats, int]]
"""Runs one share in a worker process: ``(options, world, seat, seed, iterations, proposal) -> (stats, iterations)``;
a module-level function, so that it pickles."""


def _wait_started(started: Any, futures: list[Future[tuple[Stats, int]]]) -> None:
    """Wait (blocked, without the GIL) until every submitted share has started in its worker.

    The executor's threads hand the shares to the workers; a search started at once in this thread would hold the
    GIL and delay them by up to a second (measured), leaving the workers idle while the time budget runs.
    """
    deadline = time.monotonic() + START_WAIT
    for future in futures:
        while time.monotonic() < deadline and not future.done():
            if started.acquire(timeout=0.05):
                break


def parallel_search(
    local: ShareFn,
    worker: WorkerFn,
    options: dict[str, Any],
    view: SeatView,
    seed: int,
    workers: int,
    iterations: int | None,
    proposal: int | None,
) -> tuple[Stats, int]:
    """Run ``workers`` shares of a search and return the summed root statistics and iterations.

    Args:
        local: runs share 0 here, on ``view``.
        worker: runs a share in a worker process, on a determinization drawn here.
        options: the searching bot's options, for ``worker``.
        view: the seat's view.
        seed: the move's search seed.
        workers: the number of shares (1: no process is used).
        iterations: the whole budget (None: each share searches for the bot's time limit).
        proposal: the code of the prior's move, tried first in every share (None: no prior).

    Raises:
        BrokenProcessPool: a worker process died; the pool is dropped, so the next search starts a new one.
    """
    shares = split(iterations, workers)
    futures: list[Future[tuple[Stats, int]]] = []
    if workers > 1:
        pool, started = _pool(workers - 1)
        for i in range(1, workers):
            if shares[i] == 0:
                continue  # fewer iterations than workers
            s = share_seed(seed, i)
            world = view.determinize(Rng(s ^ 0x2545F491))
            futures.append(pool.submit(_started_share, worker, options, world, view.seat, s, shares[i], proposal))
        _wait_started(started, futures)
    merged, total = local(view, seed, shares[0], proposal)
    for future in futures:
        try:
            stats, done = future.result()
        except BrokenProcessPool:
            _POOLS.pop(workers - 1, None)
            raise
        total += done
        for code, (n, w) in stats.items():
            n0, w0 = merged.get(code, (0, 0.0))
            merged[code] = (n0 + n, w0 + w)
    return merged, total
