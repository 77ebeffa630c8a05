"""Server-side bots: they think in worker processes, beside the event loop, and see only their seat's ``SeatView``.

A bot is rebuilt for every move from its spec and a seed derived from the table's secret seed, the seat and the
version (``derive_seed``), so a restarted server plays the same moves and a bot never holds the table's seed.

The server, not the bot, bounds a move: a search still running after :attr:`BotPool.move_seconds` of wall-clock
time is stopped (its worker process terminated and replaced, by pebble's process pool) and the move is played by
the fallback bot, with a log line. A worker whose server died (SIGKILL) exits within a second or two.

Tables share the workers fairly between the addresses that created them: each creator address has a *lane* of
:func:`lane_width` moves at once (the rest of its moves wait in the lane, not in the pool's queue), so a move asked
for by anyone else waits for at most one move of each other creator, however many tables that creator has. And each
creator address has a budget of bot CPU (:class:`BotBudget`, ``meeple serve --bot-cpu-per-address``): the CPU
seconds its tables' bots think are charged to it, and past the budget its bots wait until it has room again
(:mod:`meeple.server.tables` shows the wait at the table), so that they think at the budget's pace and never slow
other people's tables. The operator's tables (created on the command line: no creator) have neither. A bot that
answers at once (:func:`is_search` False) never waits behind a search: with every worker busy it plays in a thread.

Rules: issue "Play online" (bots); issue "Safe on the open internet" (bots cannot starve the server, clean
processes); issue 41, item 2 (a bot-CPU budget per creator address); architecture "Playing online" (bots run beside
the loop, fed their SeatView).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from pebble import ProcessPool

from meeple.bots.factory import make_bot
from meeple.bots.levels import LEVEL_NAMES, level_spec
from meeple.core.errors import MeepleError
from meeple.core.registry import load_game
from meeple.core.rng import derive_seed
from meeple.core.view import SeatView
from meeple.server.metrics import Metrics

log = logging.getLogger("meeple.server")

FALLBACK = "medium"
"""The bot that plays a move whose bot ran out of time or failed (the heuristic bot: milliseconds per move)."""
STOP_SECONDS = 5.0
"""Seconds :meth:`BotPool.close` waits for the workers to exit after terminating them."""


def choose_action(
    game: str, params: dict[str, Any], snapshot: dict[str, Any], seat: int, spec: str, seed: int
) -> dict[str, Any]:
    """Return the JSON action the bot ``spec`` plays for ``seat`` in the snapshot (run in a worker process).

    Args:
        game: registered game name.
        params: the game's parameters.
        snapshot: ``state.to_json()`` of the table (never leaves the server).
        seat: the seat to move.
        spec: a bot spec of :func:`meeple.bots.make_bot`.
        seed: the bot's seed for this move (:func:`bot_seed`).
    """
    state = load_game(game, **params).state_from_json(snapshot, check_history=False)
    bot = make_bot(spec, game, seed)
    return bot.select_action(SeatView(state, seat)).to_json()


def timed_action(
    game: str, params: dict[str, Any], snapshot: dict[str, Any], seat: int, spec: str, seed: int
) -> tuple[dict[str, Any], float]:
    """:func:`choose_action` and the CPU seconds its thread spent on it (a worker's search is one thread's work)."""
    start = time.thread_time()
    action = choose_action(game, params, snapshot, seat, spec, seed)
    return action, time.thread_time() - start


def is_search(spec: str, game: str, players: int | None = None) -> bool:
    """Whether the bot ``spec`` searches (ISMCTS: up to ``--bot-move-seconds`` a move) rather than answers at once.

    ``random`` and ``heuristic``, and the levels that are one of them for ``game`` at ``players`` (with or without
    noise: ``easy``, ``medium``), answer in milliseconds; anything else is taken for a search.
    """
    kind = spec.split(":", 1)[0].strip().lower()
    if kind in LEVEL_NAMES:
        try:
            kind = level_spec(kind, game, players).split(":", 1)[0]
        except MeepleError:
            return True
    return kind not in ("random", "heuristic", "noisy")


BUDGET_WINDOW = 3600.0
"""Seconds over which :class:`BotBudget` spreads a creator address's bot CPU budget (an hour)."""


class BotBudget:
    """CPU seconds of bot thinking per creator address: a leaky bucket that holds the budget and drains in an hour.

    Each bot move's CPU seconds are poured into its creator's bucket; the bucket drains at ``seconds`` per
    :data:`BUDGET_WINDOW`. While it holds ``seconds`` or more the address's bots wait (:meth:`wait`) until it has
    drained below again, so an address can think ``seconds`` at once and then ``seconds`` an hour. (The ``limits``
    library counts whole hits in windows; a float CPU charge with an exact "resume at" needs the bucket itself.)
    Counted in this process's memory, like every quota.

    Args:
        seconds: the budget: CPU seconds an hour per creator address (``--bot-cpu-per-address``); 0 or less: none.
        now: the clock (monotonic seconds), replaceable in tests.
    """

    def __init__(self, seconds: float, now: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.now = now
        self._buckets: dict[str, tuple[float, float]] = {}

    @property
    def limited(self) -> bool:
        """Whether there is a budget at all."""
        return self.seconds > 0

    def _level(self, owner: str, now: float) -> float:
        level, at = self._buckets.get(owner, (0.0, now))
        return max(0.0, level - (now - at) * self.seconds / BUDGET_WINDOW)

    def charge(self, owner: str | None, cpu: float) -> None:
        """Pour the CPU seconds of one bot move of ``owner``'s tables into its bucket (None: the operator's)."""
        if owner is None or not self.limited:
            return
        now = self.now()
        self._buckets[owner] = (self._level(owner, now) + max(0.0, cpu), now)
        if len(self._buckets) > 10_000:  # forget the emptied buckets of addresses gone quiet
            self._buckets = {k: (v, t) for k, (v, t) in self._buckets.items() if self._level(k, now) > 0}

    def wait(self, owner: str | None) -> float:
        """Seconds ``owner``'s bots must wait before their next move (0: its budget has room)."""
        if owner is None or not self.limited:
            return 0.0
        over = self._level(owner, self.now()) - self.seconds
        return 0.0 if over < 0 else over * BUDGET_WINDOW / self.seconds + 0.05

    def used(self, owner: str | None) -> float:
        """CPU seconds in ``owner``'s bucket now."""
        return 0.0 if owner is None or not self.limited else self._level(owner, self.now())


def lane_width(workers: int) -> int:
    """Bot moves one creator address may have asked for at once: half the workers (at least one).

    The others wait in the address's lane, so the pool's queue never holds more than this per address.
    """
    return max(1, workers // 2)


@dataclass
class _Lane:
    """The moves of one creator address at the pool: how many are asked for or waiting (its semaphore's users)."""

    gate: asyncio.Semaphore
    users: int = 0


def bot_seed(table_seed: int, seat: int, version: int) -> int:
    """The seed of the bot playing ``seat`` at table ``version`` (one-way: it does not reveal the table's seed)."""
    return derive_seed(table_seed, "server-bot", seat, version)


def watch_parent(parent: int) -> None:
    """Worker initializer: exit as soon as the server process ``parent`` is gone (checked every half second).

    A SIGKILLed server cannot stop its workers; without this, a worker in the middle of a search would run on.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="meeple-parent-watch", daemon=True).start()


class BotPool:
    """Runs bots off the event loop, each move within a wall-clock cap.

    Args:
        workers: worker processes (0: one thread, for tests and tiny hosts; bots then share the server's core, and
            a move past the cap is answered by the fallback bot but its thread cannot be stopped).
        move_seconds: wall-clock seconds a bot may think about one move (from when a worker starts it).
        fallback: the bot spec that plays a move whose bot timed out or failed.
        budget: the bot CPU budget per creator address (default: none).
        fair: give each creator address its own lane (:func:`lane_width`); False (``--no-rate-limits``): one queue.
    """

    def __init__(
        self,
        workers: int,
        move_seconds: float = 10.0,
        fallback: str = FALLBACK,
        budget: BotBudget | None = None,
        fair: bool = True,
        metrics: Metrics | None = None,
    ) -> None:
        self.workers = workers
        self.move_seconds = move_seconds
        self.fallback = fallback
        self.budget = budget or BotBudget(0.0)
        """CPU seconds of bot thinking per creator address (:meth:`choose` charges it)."""
        self.fair = fair
        self._lanes: dict[str | None, _Lane] = {}
        self.in_pool = 0
        """Moves handed to the workers and not answered yet (running or queued)."""
        self.pending = 0
        """Moves asked for and not yet answered (queued or thinking)."""
        self.timeouts = 0
        """Moves stopped at the cap and played by the fallback bot."""
        self._pool: ProcessPool | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._closed = False
        self.metrics = metrics or Metrics()
        """Where the seconds of each bot move are measured (the app gives its own: ``/metrics``)."""

    def _schedule(self, args: tuple[Any, ...]) -> Future[tuple[dict[str, Any], float]]:
        if self.workers > 0:
            try:
                return self._processes().schedule(timed_action, args=args, timeout=self.move_seconds)
            except RuntimeError:  # a worker killed while it held the pool's channel breaks the pool: a new one
                log.warning("the bot pool broke (a worker was killed): starting a new one")
                self._stop_processes()
                return self._processes().schedule(timed_action, args=args, timeout=self.move_seconds)
        if self._threads is None:
            self._threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="meeple-bot")
        return self._threads.submit(timed_action, *args)

    @contextlib.asynccontextmanager
    async def lane(self, owner: str | None) -> AsyncIterator[None]:
        """Hold one of ``owner``'s :func:`lane_width` places at the pool (waiting for one if they are all taken)."""
        if not self.fair:
            yield
            return
        lane = self._lanes.get(owner)
        if lane is None:
            lane = self._lanes[owner] = _Lane(asyncio.Semaphore(lane_width(self.workers)))
        lane.users += 1
        try:
            async with lane.gate:
                yield
        finally:
            lane.users -= 1
            if lane.users == 0:
                self._lanes.pop(owner, None)

    async def choose(
        self,
        game: str,
        params: dict[str, Any],
        snapshot: dict[str, Any],
        seat: int,
        spec: str,
        seed: int,
        owner: str | None = None,
    ) -> dict[str, Any]:
        """Return the bot's JSON action without blocking the event loop.

        The move waits in ``owner``'s lane (the creator address of the table; None: the operator's), and its CPU
        seconds are charged to ``owner``'s :attr:`budget` (a search stopped at the cap is charged the cap).

        A bot that thinks past :attr:`move_seconds`, or fails (an error, a worker killed by the system), is replaced
        for this move by :attr:`fallback`, run in a thread of this process; if that fails too, a random legal move
        is played. So a move is always answered, in at most about ``move_seconds`` plus the fallback's time.

        Raises:
            RuntimeError: the pool is closed (the server is stopping).
        """
        if self._closed:
            raise RuntimeError("the bot pool is closed")
        async with self.lane(owner):
            action, cpu = await self._choose((game, params, snapshot, seat, spec, seed))
        self.budget.charge(owner, cpu)
        return action

    async def _choose(self, args: tuple[Any, ...]) -> tuple[dict[str, Any], float]:
        """:meth:`choose` without the lane: the action and the CPU seconds it cost.

        A bot that answers at once (:func:`is_search` False: random, heuristic) never waits behind another table's
        search: when every worker is busy it is played in a thread of this process (milliseconds).
        """
        game, params, snapshot, seat, spec, seed = args
        busy = self.workers > 0 and self.in_pool >= self.workers
        if busy and not is_search(spec, game, params.get("players")):
            return await asyncio.to_thread(timed_action, *args)
        self.pending += 1
        self.in_pool += 1
        asked = time.perf_counter()
        try:
            future = self._schedule(args)
            spent = 0.0  # what a failed search cost: the cap when it was stopped there
            try:
                # the thread mode cannot stop a thread: the event loop stops waiting for it instead
                limit = None if self.workers > 0 else self.move_seconds
                action, cpu = await asyncio.wait_for(asyncio.wrap_future(future), limit)
                return action, cpu
            except TimeoutError:
                spent = self.move_seconds
                self.timeouts += 1
                log.warning(
                    "bot %s passed %.3g s at seat %s (%s): the %s bot plays this move",
                    spec,
                    self.move_seconds,
                    seat,
                    game,
                    self.fallback,
                )
            except asyncio.CancelledError:
                future.cancel()
                raise
            except Exception as exc:  # noqa: BLE001 - a failing bot or dead worker must not stop the table
                log.warning(
                    "bot %s failed at seat %s (%s: %s): the %s bot plays this move",
                    spec,
                    seat,
                    type(exc).__name__,
                    exc,
                    self.fallback,
                )
            action, cpu = await asyncio.to_thread(timed_fallback, game, params, snapshot, seat, self.fallback, seed)
            return action, spent + cpu
        finally:
            self.pending -= 1
            self.in_pool -= 1
            self.metrics.bot_answered(game, time.perf_counter() - asked)

    def _processes(self) -> ProcessPool:
        if self._pool is None:
            # spawn: a forked child of a process running threads (uvicorn, the database) can deadlock
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPool(
                max_workers=self.workers, context=context, initializer=watch_parent, initargs=(os.getpid(),)
            )
        return self._pool

    def _stop_processes(self) -> None:
        if self._pool is not None:
            self._pool.stop()  # type: ignore[no-untyped-call]
            try:
                self._pool.join(STOP_SECONDS)
            except (TimeoutError, RuntimeError):
                log.warning("bot workers still running %s s after they were stopped", STOP_SECONDS)
            self._pool = None

    def close(self) -> None:
        """Stop the workers at once (running searches are abandoned: the table's deadline makes a move asked again)."""
        self._closed = True
        self._stop_processes()
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None


def timed_fallback(
    game: str, params: dict[str, Any], snapshot: dict[str, Any], seat: int, spec: str, seed: int
) -> tuple[dict[str, Any], float]:
    """:func:`fallback_action` and the CPU seconds of its thread."""
    start = time.thread_time()
    action = fallback_action(game, params, snapshot, seat, spec, seed)
    return action, time.thread_time() - start


def fallback_action(
    game: str, params: dict[str, Any], snapshot: dict[str, Any], seat: int, spec: str, seed: int
) -> dict[str, Any]:
    """The fallback bot's JSON action, or a random legal action if it fails too (run in a thread)."""
    try:
        return choose_action(game, params, snapshot, seat, spec, seed)
    except Exception:  # noqa: BLE001 - the last resort must answer
        log.exception("fallback bot %s failed at seat %s (%s): a random legal move is played", spec, seat, game)
    state = load_game(game, **params).state_from_json(snapshot, check_history=False)
    legal = SeatView(state, seat).legal_actions()
    return legal[random.Random(seed).randrange(len(legal))].to_json()
