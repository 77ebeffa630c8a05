"""Speed measurements of the engines, reported as ratios against a baseline run in the same process.

The baseline is a fixed pure-Python workload (shuffling and scanning a 65-card deck, as a card game does), so a
ratio such as "decisions per second / baseline operations per second" compares engines across machines.
Used by ``meeple bench`` and the files in ``benchmarks/``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from meeple.core.registry import load_game
from meeple.core.rng import Rng, derive_seed
from meeple.core.state import State


@dataclass(frozen=True)
class SpeedResult:
    """Throughput of one game with one parameter set.

    Attributes:
        game: registered game name.
        players: player count.
        decisions_per_s: random-play decisions (``legal_actions`` + ``apply_action``) per second.
        games_per_s: complete random games (from ``new_initial_state``) per second.
        clones_per_s: ``clone()`` calls per second on mid-game states.
        mean_decisions: mean number of decisions per game.
    """

    game: str
    players: int
    decisions_per_s: float
    games_per_s: float
    clones_per_s: float
    mean_decisions: float


def baseline_ops_per_s(seconds: float = 0.5, clock: Callable[[], float] = time.perf_counter) -> float:
    """Return operations per second of the baseline workload (one op = shuffle a 65-card deck and scan it).

    Args:
        seconds: minimum measuring time (seconds of ``clock``).
        clock: wall time by default; ``time.process_time`` counts this process's CPU time only (on shared cores,
            to compare with other CPU-time rates of the same process).
    """
    rng = random.Random(0)
    deck = list(range(65))
    ops = 0
    start = clock()
    while True:
        for _ in range(200):
            rng.shuffle(deck)
            sum(1 for c in deck if c & 1)
        ops += 200
        elapsed = clock() - start
        if elapsed >= seconds:
            return ops / elapsed


def measure_game(
    game_name: str,
    players: int,
    params: Mapping[str, Any] | None = None,
    seconds: float = 2.0,
    seed: int = 0,
) -> SpeedResult:
    """Play random games of a game for about ``seconds`` and return its throughput.

    Args:
        game_name: registered game.
        players: player count.
        params: other parameters (variant flags).
        seconds: measuring time per quantity (seconds); the total is about twice that.
        seed: first seed; game ``i`` uses ``seed + i``.

    Raises:
        InvalidParameterError: unknown game or parameters.
    """
    game = load_game(game_name, **{**(params or {}), "players": players})
    rng = Rng(seed)
    games = decisions = 0
    snapshots: list[State[Any]] = []
    start = time.perf_counter()
    while True:
        state = game.new_initial_state(seed + games)
        n = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            n += 1
            if n == 40 and len(snapshots) < 50:
                snapshots.append(state.clone())
        decisions += n
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    clones = 0
    start = time.perf_counter()
    pool = snapshots or [game.new_initial_state(seed)]
    while True:
        for s in pool:
            s.clone()
        clones += len(pool)
        clone_elapsed = time.perf_counter() - start
        if clone_elapsed >= seconds / 4:
            break
    return SpeedResult(
        game=game_name,
        players=players,
        decisions_per_s=decisions / elapsed,
        games_per_s=games / elapsed,
        clones_per_s=clones / clone_elapsed,
        mean_decisions=decisions / games,
    )


@dataclass(frozen=True)
class MoveTimeResult:
    """Thinking time of one bot, per move, over one game.

    Attributes:
        game: registered game name.
        players: player count.
        bot: the bot spec measured (seat 0; the other seats play the heuristic bot, or random without one).
        moves: moves timed (moves with a single legal action are not counted: bots answer them at once).
        mean_s: mean seconds per timed move.
        p90_s: 90th percentile of the seconds per move.
        max_s: slowest move, in seconds.
    """

    game: str
    players: int
    bot: str
    moves: int
    mean_s: float
    p90_s: float
    max_s: float


def measure_move_time(
    game_name: str,
    players: int,
    bot_spec: str,
    params: Mapping[str, Any] | None = None,
    seed: int = 0,
    max_moves: int = 30,
) -> MoveTimeResult:
    """Time ``bot_spec``'s moves at seat 0 of one game, to check a level's budget against real response times.

    Args:
        game_name: registered game name.
        players: player count.
        bot_spec: any :func:`meeple.bots.make_bot` spec (``hard``, ``ismcts:500`` ...).
        params: game parameters other than ``players``.
        seed: seed of the game and the bots.
        max_moves: stop after timing this many moves (the rest of the game is not played).

    Returns:
        The per-move times (all zero if the bot never had a real choice).

    Raises:
        InvalidParameterError: unknown game, parameters or bot.
    """
    from meeple.bots import has_heuristic_bot, make_bot
    from meeple.core.view import SeatView

    game = load_game(game_name, players=players, **dict(params or {}))
    other = "heuristic" if has_heuristic_bot(game_name) else "random"
    specs = [bot_spec if s == 0 else other for s in range(players)]
    bots = [make_bot(spec, game_name, seed=derive_seed(seed, "bot", s)) for s, spec in enumerate(specs)]
    state = game.new_initial_state(seed)
    times: list[float] = []
    while not state.is_terminal() and len(times) < max_moves:
        seat = state.current_player()
        view = SeatView(state, seat)
        forced = len(state.legal_actions()) == 1
        start = time.perf_counter()
        action = bots[seat].select_action(view)
        if seat == 0 and not forced:
            times.append(time.perf_counter() - start)
        state.apply_action(action, seat)
    ordered = sorted(times) or [0.0]
    return MoveTimeResult(
        game=game_name,
        players=players,
        bot=bot_spec,
        moves=len(times),
        mean_s=sum(times) / len(times) if times else 0.0,
        p90_s=ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
        max_s=ordered[-1],
    )
