"""Citadels speed: random-play decisions/s, whole random games/s and clone()/s at 4 players (issue 2 §7).

Targets: >= 50,000 decisions/s and >= 340 four-player random games/s (20 x ~17 games/s) on one core.
Run: ``pytest benchmarks/test_citadels_speed.py -s`` (add ``--benchmark-timer=time.process_time`` on a loaded
machine: CPU time of this process instead of wall time).
"""

from __future__ import annotations

from typing import Any

from meeple import load_game
from meeple.core import Rng

GAME = load_game("citadels", players=4)
GAME7 = load_game("citadels", players=7)


def _play_random(seed: int, game: Any = GAME) -> int:
    state = game.new_initial_state(seed)
    rng = Rng(seed)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
    return steps


def test_random_decisions_per_second(benchmark: Any) -> None:
    seeds = iter(range(10**9))
    decisions: list[int] = []

    def run() -> int:
        n = sum(_play_random(next(seeds)) for _ in range(5))
        decisions.append(n)
        return n

    benchmark.pedantic(run, rounds=10, iterations=1)
    per_second = sum(decisions) / sum(benchmark.stats.stats.data)
    benchmark.extra_info["decisions_per_second"] = per_second
    print(f"\ncitadels 4p: {per_second:,.0f} random-play decisions/s")


def test_random_games_per_second(benchmark: Any) -> None:
    seeds = iter(range(10**9))
    benchmark(lambda: _play_random(next(seeds)))
    games = 1.0 / benchmark.stats.stats.mean
    benchmark.extra_info["games_per_second"] = games
    print(f"\ncitadels 4p: {games:,.1f} random games/s")


def test_clone_per_second(benchmark: Any) -> None:
    state = GAME.new_initial_state(3)
    rng = Rng(3)
    for _ in range(60):  # a mid-game position
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    benchmark(state.clone)
    clones = 1.0 / benchmark.stats.stats.mean
    benchmark.extra_info["clones_per_second"] = clones
    print(f"\ncitadels 4p: {clones:,.0f} clone()/s")


def test_random_decisions_per_second_7_players(benchmark: Any) -> None:
    seeds = iter(range(10**9))
    decisions: list[int] = []

    def run() -> int:
        n = sum(_play_random(next(seeds), GAME7) for _ in range(3))
        decisions.append(n)
        return n

    benchmark.pedantic(run, rounds=10, iterations=1)
    per_second = sum(decisions) / sum(benchmark.stats.stats.data)
    games = 3 * len(decisions) / sum(benchmark.stats.stats.data)
    benchmark.extra_info["decisions_per_second"] = per_second
    print(f"\ncitadels 7p: {per_second:,.0f} random-play decisions/s, {games:,.1f} games/s")
