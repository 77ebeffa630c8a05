"""Server-side bots: they think in worker processes, beside the event loop, and see only their seat's ``SeatView``.

A bot is rebuilt for every move from its spec and a seed derived from the table's secret seed, the seat and the
version (``derive_seed``), so a restarted server plays the same moves and a bot never holds the table's seed.

The server, not the bot, bounds a move: a search still running after :attr:`BotPool.move_seconds` of wall-clock
time is stopped (its worker process terminated and replaced, by pebble's process pool) and the move is played by
the fallback bot, with a log line. Tables share the workers in the order their moves were asked for, and a table
asks for one move at a time, so one slow table cannot hold the others back for more than one move each. A worker
whose server died (SIGKILL) exits within a second or two.

Rules: issue "Play online" (bots); issue "Safe on the open internet" (bots cannot starve the server, clean
processes); architecture "Playing online" (bots run beside the loop, fed their SeatView).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from pebble import ProcessPool

from meeple.bots.factory import make_bot
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
    """

    def __init__(self, workers: int, move_seconds: float = 10.0, fallback: str = FALLBACK) -> None:
        self.workers = workers
        self.move_seconds = move_seconds
        self.fallback = fallback
        self.pending = 0
        """Moves asked for and not yet answered (queued or thinking)."""
        self.timeouts = 0
        """Moves stopped at the cap and played by the fallback bot."""
        self._pool: ProcessPool | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._closed = False
        self.metrics = Metrics()
        """Where the seconds of each bot move are measured (the app gives its own: ``/metrics``)."""

    def _schedule(self, args: tuple[Any, ...]) -> Future[dict[str, Any]]:
        if self.workers > 0:
            try:
                return self._processes().schedule(choose_action, args=args, timeout=self.move_seconds)
            except RuntimeError:  # a worker killed while it held the pool's channel breaks the pool: a new one
                log.warning("the bot pool broke (a worker was killed): starting a new one")
                self._stop_processes()
                return self._processes().schedule(choose_action, args=args, timeout=self.move_seconds)
        if self._threads is None:
            self._threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="meeple-bot")
        return self._threads.submit(choose_action, *args)

    async def choose(
        self, game: str, params: dict[str, Any], snapshot: dict[str, Any], seat: int, spec: str, seed: int
    ) -> dict[str, Any]:
        """Return the bot's JSON action without blocking the event loop.

        A bot that thinks past :attr:`move_seconds`, or fails (an error, a worker killed by the system), is replaced
        for this move by :attr:`fallback`, run in a thread of this process; if that fails too, a random legal move
        is played. So a move is always answered, in at most about ``move_seconds`` plus the fallback's time.

        Raises:
            RuntimeError: the pool is closed (the server is stopping).
        """
        if self._closed:
            raise RuntimeError("the bot pool is closed")
        args = (game, params, snapshot, seat, spec, seed)
        self.pending += 1
        asked = time.perf_counter()
        try:
            future = self._schedule(args)
            try:
                # the thread mode cannot stop a thread: the event loop stops waiting for it instead
                limit = None if self.workers > 0 else self.move_seconds
                return await asyncio.wait_for(asyncio.wrap_future(future), limit)
            except TimeoutError:
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
            return await asyncio.to_thread(fallback_action, game, params, snapshot, seat, self.fallback, seed)
        finally:
            self.pending -= 1
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
