"""Server-side bots: they think in a process pool, beside the event loop, and see only their seat's ``SeatView``.

A bot is rebuilt for every move from its spec and a seed derived from the table's secret seed, the seat and the
version (``derive_seed``), so a restarted server plays the same moves and a bot never holds the table's seed.

Rules: issue "Play online" (bots); architecture "Playing online" (bots run beside the loop, fed their SeatView).
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from meeple.bots.factory import make_bot
from meeple.core.registry import load_game
from meeple.core.rng import derive_seed
from meeple.core.view import SeatView
from meeple.server.metrics import Metrics


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


class BotPool:
    """Runs bots off the event loop.

    Args:
        workers: worker processes (0: one thread, for tests and tiny hosts; bots then share the server's core).
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: Executor | None = None
        self.metrics = Metrics()
        """Where the bot queue and bot seconds are measured (the app gives its own: ``/metrics``)."""

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.workers > 0:
                # spawn: a forked child of a process running threads (uvicorn, the database) can deadlock
                context = multiprocessing.get_context("spawn")
                self._executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
            else:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="meeple-bot")
        return self._executor

    async def choose(
        self, game: str, params: dict[str, Any], snapshot: dict[str, Any], seat: int, spec: str, seed: int
    ) -> dict[str, Any]:
        """Return the bot's JSON action without blocking the event loop (raises what the bot raises).

        A pool broken by a dead worker (killed by the system, out of memory) is replaced and the move asked again
        once.
        """
        loop = asyncio.get_running_loop()
        args = (game, params, snapshot, seat, spec, seed)
        with self.metrics.bot_thinking(game):
            try:
                return await loop.run_in_executor(self._pool(), choose_action, *args)
            except BrokenExecutor:
                self.close()
                return await loop.run_in_executor(self._pool(), choose_action, *args)

    def close(self) -> None:
        """Stop the workers (running moves are abandoned: the table's deadline makes another process retry)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
