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
