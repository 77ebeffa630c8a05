"""ISMCTS speed: iterations per second on every registered game (and the toy game), at 2 and 4 players.

Run with ``pytest benchmarks/test_ismcts_speed.py``; ``extra_info["iterations_per_s"]`` holds the number reported in
docs/bots.md. The position searched is the first position with at least two legal moves after a few random moves.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
import tests.core.toy_game  # noqa: F401  (registers toy_auction)

from meeple.bots.ismcts import ISMCTSBot
from meeple.core import InvalidParameterError, SeatView, game_class, load_game, registered_games

ITERATIONS = 200
GAMES = sorted(set(registered_games()) | {"toy_auction"})


def _position(game_name: str, players: int) -> Any:
    game = load_game(game_name, players=players)
    state = game.new_initial_state(1)
    rnd = random.Random(1)
    for _ in range(6):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[rnd.randrange(len(legal))])
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("game_name", GAMES)
def test_ismcts_iterations_per_second(benchmark: Any, game_name: str, players: int) -> None:
    cls = game_class(game_name)
    if not cls.min_players <= players <= cls.max_players:
        pytest.skip(f"{game_name} is not played by {players}")
    try:
        state = _position(game_name, players)
    except InvalidParameterError as exc:
        pytest.skip(str(exc))
    view = SeatView(state, state.current_player())

    times: list[float] = []

    def search() -> int:
        bot = ISMCTSBot(seed=0, iterations=ITERATIONS)
        start = time.perf_counter()
        bot.select_action(view)
        times.append(time.perf_counter() - start)
        return bot.last_iterations

    assert benchmark.pedantic(search, rounds=3, iterations=1) == ITERATIONS
    rate = ITERATIONS * len(times) / sum(times)
    benchmark.extra_info["iterations_per_s"] = round(rate, 1)
    print(f"\nISMCTS {game_name} {players}p: {rate:.0f} iterations/s")


HARD_SEARCHES = [
    ("capitol", 2, "ismcts:50:rollout=heuristic:depth=30"),
    ("citadels", 4, "ismcts:50:rollout=heuristic:depth=30"),
    ("capital_lux_2", 1, "ismcts:200:rollout=policy"),
    ("capital_lux_2", 2, "ismcts:200"),
    ("caprice", 2, "ismcts:200"),
]
"""The searches of the ``hard`` levels (without the prior, which adds one heuristic move), at fewer iterations."""


@pytest.mark.parametrize(("game_name", "players", "spec"), HARD_SEARCHES)
def test_hard_search_iterations_per_second(benchmark: Any, game_name: str, players: int, spec: str) -> None:
    from meeple.bots import make_bot

    state = _position(game_name, players)
    view = SeatView(state, state.current_player())
    times: list[float] = []
    counts: list[int] = []

    def search() -> None:
        bot = make_bot(spec, game_name, seed=0)
        assert isinstance(bot, ISMCTSBot)
        start = time.perf_counter()
        bot.select_action(view)
        times.append(time.perf_counter() - start)
        counts.append(bot.last_iterations)

    benchmark.pedantic(search, rounds=3, iterations=1)
    rate = sum(counts) / sum(times)
    benchmark.extra_info["iterations_per_s"] = round(rate, 1)
    print(f"\n{spec} {game_name} {players}p: {rate:.0f} iterations/s")


@pytest.mark.parametrize(
    ("game_name", "players"), [("caprice", 2), ("citadels", 4), ("capitol", 4), ("capital_lux_2", 4)]
)
def test_root_parallel_speedup(benchmark: Any, game_name: str, players: int) -> None:
    """Iterations/s of a 2-second search with 2 root-parallel workers, as a ratio to 1 worker in the same process.

    The worker process is warmed up first (started, game imported); each count is the median of three searches.
    Issue "Faster search": target >= 1.8x on two cores.
    """
    import statistics

    state = _position(game_name, players)
    view = SeatView(state, state.current_player())
    ISMCTSBot(seed=1, time_limit=1.0, workers=2).search_root(view, 1)
    rates: dict[int, list[float]] = {1: [], 2: []}

    def searches() -> None:
        for workers in (1, 2):
            bot = ISMCTSBot(seed=5, time_limit=2.0, workers=workers)
            start = time.perf_counter()
            _, done = bot.search_root(view, 7 + len(rates[workers]))
            rates[workers].append(done / (time.perf_counter() - start))

    benchmark.pedantic(searches, rounds=3, iterations=1)
    one, two = statistics.median(rates[1]), statistics.median(rates[2])
    benchmark.extra_info |= {"one_worker_per_s": round(one), "two_workers_per_s": round(two), "ratio": two / one}
    print(f"\nroot-parallel {game_name} {players}p: {one:.0f} -> {two:.0f} iterations/s ({two / one:.2f}x)")
