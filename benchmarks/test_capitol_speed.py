"""Capitol speed: random-play decisions/s and whole random games/s at 4 players (pytest-benchmark).

Run: ``pytest benchmarks/test_capitol_speed.py``. Target: >= 50,000 decisions/s on one core.
"""

from __future__ import annotations

from typing import Any

import meeple
from meeple.core import Rng

GAME = meeple.load_game("capitol", players=4)


def play_one(seed: int, rng: Rng) -> int:
    state = GAME.new_initial_state(seed)
    n = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        n += 1
    return n


def test_capitol_random_decisions_per_second(benchmark: Any) -> None:
    rng = Rng(0)
    states = [GAME.new_initial_state(s) for s in range(200)]

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


def test_capitol_random_games_per_second(benchmark: Any) -> None:
    rng = Rng(1)
    counter = iter(range(10**9))

    def game() -> int:
        return play_one(next(counter), rng)

    n = benchmark(game)
    assert n >= 100


def test_capitol_meets_the_speed_target() -> None:
    from meeple.bench import measure_game

    result = measure_game("capitol", 4, seconds=1.0)
    print(f"capitol 4p: {result.decisions_per_s:,.0f} decisions/s, {result.games_per_s:,.0f} games/s")
    assert result.decisions_per_s >= 25_000  # half the target, to tolerate a loaded machine
