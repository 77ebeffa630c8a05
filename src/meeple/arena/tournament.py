"""Tournaments between bots: rotated seats on paired deals, run in parallel, stored and resumable.

Pairing: a *deal* is one game seed. The bot lineup is the list of bot specs, cycled to the number of seats when
there are more seats than bots (``[A, B, C]`` at 4 seats is ``A B C A``); for every deal the tournament plays every
rotation of that lineup (``max(players, bots)`` games), so every bot plays every seat on the same deals. With more
bots than seats, rotation ``r`` seats bots ``r, r+1, ...`` (mod the number of bots), which again puts every bot at
every seat once per deal. ``games`` is rounded up to a whole number of deals.

Seeds: deal ``d`` of a tournament with seed ``S`` is played with game seed ``deal_seed(S, d)``; the bot at seat ``i``
of rotation ``r`` gets seed ``bot_seed(deal seed, r, i)``. Results therefore depend only on the configuration, never
on the engine, the number of workers or the order in which games finish.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from meeple.bots import make_bot
from meeple.core.errors import InvalidParameterError
from meeple.core.records import GameRecord
from meeple.core.registry import game_class, load_game
from meeple.core.rng import derive_seed

if TYPE_CHECKING:
    from meeple.arena.store import ResultStore

Engine = Literal["multiprocessing", "ray"]


def deal_seed(seed: int, deal: int) -> int:
    """Return the game seed of deal ``deal`` of a tournament seeded ``seed``."""
    return (seed * 1_000_003 + deal * 7_919 + 1) % (1 << 31)


def bot_seed(game_seed: int, rotation: int, seat: int) -> int:
    """Return the seed of the bot at ``seat`` in rotation ``rotation`` of the deal whose game seed is ``game_seed``."""
    return derive_seed(game_seed, "bot", rotation, seat)


def unique_labels(specs: Sequence[str]) -> list[str]:
    """Return one label per spec: the spec itself, suffixed ``#2``, ``#3``... when a spec is repeated."""
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        out.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return out


@dataclass(frozen=True)
class TournamentConfig:
    """What defines a tournament.

    Attributes:
        game: registered game name.
        bots: bot specs (``make_bot`` syntax), in lineup order.
        players: the number of seats.
        games: the number of games wanted (rounded up to whole deals, see :attr:`total_games`).
        seed: the tournament seed.
        params: variant flags (without ``players``).
    """

    game: str
    bots: tuple[str, ...]
    players: int
    games: int
    seed: int = 0
    params: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.bots:
            raise InvalidParameterError("a tournament needs at least one bot")
        if self.games < 1:
            raise InvalidParameterError(f"a tournament needs at least one game, not {self.games}")
        if "players" in self.params:
            raise InvalidParameterError("set the player count with players=, not in params")

    @property
    def labels(self) -> list[str]:
        """One unique label per bot of the lineup."""
        return unique_labels(self.bots)

    @property
    def rotations(self) -> int:
        """Games per deal: ``max(players, number of bots)``."""
        return max(self.players, len(self.bots))

    @property
    def deals(self) -> int:
        """Number of deals (seeds) played."""
        return math.ceil(self.games / self.rotations)

    @property
    def total_games(self) -> int:
        """Number of games actually played (``deals * rotations``)."""
        return self.deals * self.rotations

    def game_params(self) -> dict[str, Any]:
        """Return the full game parameters (``params_dict`` of the loaded game; validates them).

        Raises:
            InvalidParameterError: unknown game, bad parameters or player count.
        """
        return load_game(self.game, **{**self.params, "players": self.players}).params_dict()

    def key(self) -> str:
        """Return the identity of the tournament: a hash of everything but the number of games."""
        data = {
            "game": self.game,
            "bots": list(self.bots),
            "players": self.players,
            "seed": self.seed,
            "params": self.game_params(),
        }
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:32]

    def to_json(self) -> dict[str, Any]:
        """Return the configuration as a JSON-able dict."""
        return {
            "game": self.game,
            "bots": list(self.bots),
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "params": dict(self.params),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TournamentConfig:
        """Rebuild a configuration from :meth:`to_json` output."""
        return cls(
            game=str(data["game"]),
            bots=tuple(str(b) for b in data["bots"]),
            players=int(data["players"]),
            games=int(data["games"]),
            seed=int(data.get("seed", 0)),
            params=dict(data.get("params", {})),
        )


@dataclass(frozen=True)
class GameTask:
    """One game to play (picklable: sent to worker processes or Ray tasks).

    Attributes:
        game: registered game name.
        params: full game parameters (``players`` included).
        deal: deal index.
        rotation: rotation index.
        seed: the game seed.
        specs: bot spec per seat.
        labels: bot label per seat.
        bot_seeds: bot seed per seat.
        imports: modules to import first in the worker (so that games registered outside the built-ins exist there).
        tournament: the tournament key (stored in the record's meta).
    """

    game: str
    params: dict[str, Any]
    deal: int
    rotation: int
    seed: int
    specs: tuple[str, ...]
    labels: tuple[str, ...]
    bot_seeds: tuple[int, ...]
    imports: tuple[str, ...] = ()
    tournament: str = ""


@dataclass(frozen=True)
class GameResult:
    """The outcome of one tournament game.

    Attributes:
        deal: deal index.
        rotation: rotation index.
        seed: the game seed.
        labels: bot label per seat.
        specs: bot spec per seat.
        returns: ``state.returns()`` at the end.
        scores: ``state.scores()`` at the end.
        length: number of decisions.
        features: balance features (see :mod:`meeple.arena.balance`).
        record: the :class:`GameRecord` as JSON.
        seconds: wall time of the game.
    """

    deal: int
    rotation: int
    seed: int
    labels: tuple[str, ...]
    specs: tuple[str, ...]
    returns: tuple[float, ...]
    scores: tuple[float, ...]
    length: int
    features: dict[str, Any]
    record: dict[str, Any]
    seconds: float

    def comparable(self) -> tuple[Any, ...]:
        """Everything but the wall time (for engine-equivalence checks)."""
        return (
            self.deal,
            self.rotation,
            self.seed,
            self.labels,
            self.returns,
            self.scores,
            self.length,
            json.dumps(self.features, sort_keys=True),
            json.dumps(self.record["actions"]),
        )


def plan(config: TournamentConfig) -> list[GameTask]:
    """Return every game of the tournament, ordered by ``(deal, rotation)``.

    Raises:
        InvalidParameterError: unknown game or bot, bad parameters.
    """
    params = config.game_params()
    for spec in set(config.bots):
        make_bot(spec, config.game, seed=0)
    cls = game_class(config.game)
    imports = (cls.__module__,)
    k = len(config.bots)
    m = config.rotations
    lineup = [i % k for i in range(m)]
    labels = config.labels
    key = config.key()
    tasks = []
    for deal in range(config.deals):
        gseed = deal_seed(config.seed, deal)
        for rot in range(m):
            idx = [lineup[(seat + rot) % m] for seat in range(config.players)]
            tasks.append(
                GameTask(
                    game=config.game,
                    params=params,
                    deal=deal,
                    rotation=rot,
                    seed=gseed,
                    specs=tuple(config.bots[i] for i in idx),
                    labels=tuple(labels[i] for i in idx),
                    bot_seeds=tuple(bot_seed(gseed, rot, seat) for seat in range(config.players)),
                    imports=imports,
                    tournament=key,
                )
            )
    return tasks


def play_task(task: GameTask) -> GameResult:
    """Play one tournament game (a top-level function: it runs in worker processes and Ray tasks)."""
    from meeple.arena.balance import extract_features
    from meeple.arena.match import play_match

    for module in task.imports:
        importlib.import_module(module)
    start = time.perf_counter()
    bots = [make_bot(spec, task.game, seed=s) for spec, s in zip(task.specs, task.bot_seeds, strict=True)]
    result = play_match(
        task.game,
        task.params,
        task.seed,
        bots,
        labels=list(task.labels),
        tournament=task.tournament,
        deal=task.deal,
        rotation=task.rotation,
    )
    seconds = time.perf_counter() - start
    state = result.final_state
    record: GameRecord = result.record
    return GameResult(
        deal=task.deal,
        rotation=task.rotation,
        seed=task.seed,
        labels=task.labels,
        specs=task.specs,
        returns=tuple(float(x) for x in state.returns()),
        scores=tuple(float(x) for x in state.scores()),
        length=result.decisions,
        features=extract_features(state),
        record=record.to_json(),
        seconds=seconds,
    )


def run_tasks(
    tasks: Sequence[GameTask],
    jobs: int = 1,
    engine: Engine = "multiprocessing",
    ray_address: str | None = None,
    on_result: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play games, in this process (``jobs=1``), a process pool, or on Ray; return the results by ``(deal, rotation)``.

    Args:
        tasks: the games.
        jobs: worker processes (or Ray CPUs for a local Ray cluster).
        engine: ``"multiprocessing"`` or ``"ray"``.
        ray_address: join this Ray cluster instead of starting a local one.
        on_result: called in this process for each finished game, in completion order.

    Raises:
        InvalidParameterError: an unknown engine, or Ray not installed.
    """
    results: list[GameResult] = []

    def done(res: GameResult) -> None:
        results.append(res)
        if on_result is not None:
            on_result(res)

    if engine == "ray":
        from meeple.arena.ray_engine import run_on_ray

        run_on_ray(tasks, jobs, ray_address, done, play_task)
    elif engine != "multiprocessing":
        raise InvalidParameterError(f"unknown engine {engine!r}; use multiprocessing or ray")
    elif jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            done(play_task(task))
    else:
        _run_pool(tasks, jobs, done)
    results.sort(key=lambda r: (r.deal, r.rotation))
    return results


def _run_pool(tasks: Iterable[GameTask], jobs: int, done: Callable[[GameResult], None]) -> None:
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    queue = list(tasks)
    queue.reverse()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        running: set[Future[GameResult]] = set()
        while queue or running:
            while queue and len(running) < 2 * jobs:
                running.add(pool.submit(play_task, queue.pop()))
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for fut in finished:
                done(fut.result())


def run_tournament(
    config: TournamentConfig,
    store: ResultStore | None = None,
    jobs: int = 1,
    engine: Engine = "multiprocessing",
    ray_address: str | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    on_start: Callable[[int, int], None] | None = None,
) -> list[GameResult]:
    """Play (or resume) a tournament; return all its results, stored ones included, by ``(deal, rotation)``.

    Args:
        config: the tournament.
        store: where results are kept; games already in it are skipped (resume).
        jobs: parallel workers.
        engine: ``"multiprocessing"`` (default) or ``"ray"``.
        ray_address: an existing Ray cluster to join.
        on_result: called for each newly finished game.
        on_start: called once with ``(games to play, games already finished)``.

    Raises:
        InvalidParameterError: bad configuration or engine.
    """
    tasks = plan(config)
    previous: list[GameResult] = []
    tid = None
    if store is not None:
        tid = store.tournament_id(config)
        finished = store.finished(tid)
        tasks = [t for t in tasks if (t.deal, t.rotation) not in finished]
        previous = [r for r in store.results(tid) if r.deal < config.deals]
    if on_start is not None:
        on_start(len(tasks), len(previous))
    pending: list[GameResult] = []
    last_flush = time.perf_counter()

    def flush() -> None:
        nonlocal last_flush
        if store is not None and tid is not None and pending:
            store.add(tid, list(pending))
            pending.clear()
        last_flush = time.perf_counter()

    def collect(res: GameResult) -> None:
        pending.append(res)
        if len(pending) >= 50 or time.perf_counter() - last_flush > 5.0:
            flush()
        if on_result is not None:
            on_result(res)

    try:
        new = run_tasks(tasks, jobs=jobs, engine=engine, ray_address=ray_address, on_result=collect)
    finally:
        flush()
    out = previous + new
    out.sort(key=lambda r: (r.deal, r.rotation))
    return out
