"""Capital Lux 2 speed: random-play decisions/s and whole random games/s at 4 players and in solo (pytest-benchmark).

Run: ``pytest benchmarks/test_capital_lux_2_speed.py``. Target: >= 50,000 decisions/s on one core.
"""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from meeple.core import Rng

GAMES = {players: meeple.load_game("capital_lux_2", players=players) for players in (4, 1)}


def play_one(players: int, seed: int, rng: Rng) -> int:
    state = GAMES[players].new_initial_state(seed)
    n = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        n += 1
    return n


@pytest.mark.parametrize("players", [4, 1])
def test_capital_lux_2_random_decisions_per_second(benchmark: Any, players: int) -> None:
    rng = Rng(0)
    states = [GAMES[players].new_initial_state(s) for s in range(200)]

    def decisions() -> int:
        n = 0
        for state in states:
            s = state.clone()
            for _ in range(20):
                if s.is_terminal():
                    break
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
                n += 1
        return n

    n = benchmark(decisions)
    assert n > 0
    benchmark.extra_info["decisions_per_round"] = n


@pytest.mark.parametrize("players", [4, 1])
def test_capital_lux_2_random_games_per_second(benchmark: Any, players: int) -> None:
    rng = Rng(1)
    counter = iter(range(10**9))

    def game() -> int:
        return play_one(players, next(counter), rng)

    n = benchmark(game)
    assert n >= 20


@pytest.mark.parametrize("players", [4, 1])
def test_capital_lux_2_meets_the_speed_target(players: int) -> None:
    from meeple.bench import measure_game

    result = measure_game("capital_lux_2", players, seconds=1.0)
    print(f"capital_lux_2 {players}p: {result.decisions_per_s:,.0f} decisions/s, {result.games_per_s:,.0f} games/s")
    assert result.decisions_per_s >= 25_000  # half the target, to tolerate a loaded machine
