"""Engine speed of every game: random-play decisions/s, whole random games/s and clone()/s (pytest-benchmark).

One parametrized file for every registered game (a new game is measured with no change here), at its largest player
count, plus Citadels at 4 players (issue 2 §7) and Capital Lux 2 solo. Targets: >= 50,000 decisions/s for every
game; Citadels at 4 players >= 340 random games/s (20 x ~17 games/s). Each test also records the ratio to the
baseline workload of ``test_baseline.py`` measured in the same process (``extra_info["x_baseline"]``).

Run: ``pytest benchmarks -s`` (add ``--benchmark-timer=time.process_time`` on a loaded machine).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

import meeple
from meeple.bench import baseline_ops_per_s
from meeple.core import Rng, State, game_class
from meeple.core.testing import random_position

CASES = [(name, game_class(name).max_players) for name in meeple.registered_games()]
CASES += [("citadels", 4), ("capital_lux_2", 1)]


@cache
def baseline() -> float:
    return baseline_ops_per_s(1.0)


def mean_seconds(benchmark: Any) -> float | None:
    """The mean time of one benchmark round, or None when benchmarks are disabled (--benchmark-disable)."""
    return None if benchmark.stats is None else float(benchmark.stats.stats.mean)


def play_random(game: meeple.Game[Any], seed: int) -> int:
    state = game.new_initial_state(seed)
    rng = Rng(seed)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
    return steps


def random_decisions_per_second(benchmark: Any, game: meeple.Game[Any]) -> float | None:
    """Benchmark rounds of three random games; return decisions/s (None when benchmarks are disabled)."""
    seeds = iter(range(10**9))
    decisions: list[int] = []

    def run() -> int:
        n = sum(play_random(game, next(seeds)) for _ in range(3))
        decisions.append(n)
        return n

    benchmark.pedantic(run, rounds=8, iterations=1)
    mean = mean_seconds(benchmark)
    return None if mean is None else sum(decisions) / (mean * len(decisions))


def mid_game(game: meeple.Game[Any], seed: int, steps: int) -> State[Any]:
    return random_position(game, seed, steps)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_decisions_per_second(benchmark: Any, name: str, players: int) -> None:
    per_second = random_decisions_per_second(benchmark, meeple.load_game(name, players=players))
    if per_second is None:
        return
    benchmark.extra_info["decisions_per_second"] = per_second
    benchmark.extra_info["x_baseline"] = per_second / baseline()
    print(f"\n{name} {players}p: {per_second:,.0f} decisions/s ({per_second / baseline():.2f} x baseline)")


def liars_poker_steps_per_second(seconds: float) -> float:
    """Random-play steps/s of OpenSpiel's pure-Python ``python_liars_poker`` (chance steps included).

    The yardstick of issue "Faster search and faster engines": a Python game of the field's standard library.
    """
    import random
    import time

    import pyspiel
    from open_spiel.python.games import liars_poker  # noqa: F401 - registers python_liars_poker

    game = pyspiel.load_game("python_liars_poker")
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


@pytest.mark.parametrize("name", meeple.registered_games())
def test_random_play_against_liars_poker(benchmark: Any, name: str) -> None:
    """Random-play decisions/s at 4 players as a ratio to OpenSpiel's ``python_liars_poker`` steps/s.

    Issue "Faster search and faster engines" targets: the pure-Python package >= 1.3x its ratio at the time of the
    issue (0.8-1.4x), Capitol >= 1.5x; the compiled build (setup.py) >= 2x. The yardstick runs before and after
    the game, in the same process.
    """
    pytest.importorskip("open_spiel")
    before = liars_poker_steps_per_second(1.0)
    per_second = random_decisions_per_second(benchmark, meeple.load_game(name, players=4))
    after = liars_poker_steps_per_second(1.0)
    if per_second is None:
        return
    ratio = per_second / ((before + after) / 2)
    benchmark.extra_info |= {"decisions_per_second": per_second, "x_liars_poker": ratio}
    print(f"\n{name} 4p: {per_second:,.0f} decisions/s, {ratio:.2f} x python_liars_poker")


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_games_per_second(benchmark: Any, name: str, players: int) -> None:
    game = meeple.load_game(name, players=players)
    seeds = iter(range(10**9))
    benchmark(lambda: play_random(game, next(seeds)))
    mean = mean_seconds(benchmark)
    if mean is None:
        return
    games = 1.0 / mean
    benchmark.extra_info["games_per_second"] = games
    print(f"\n{name} {players}p: {games:,.1f} random games/s")


@pytest.mark.parametrize(("name", "players"), CASES)
def test_clone_per_second(benchmark: Any, name: str, players: int) -> None:
    state = mid_game(meeple.load_game(name, players=players), 3, 40)
    copy = benchmark(state.clone)
    assert copy.to_json() == state.to_json()
    mean = mean_seconds(benchmark)
    if mean is None:
        return
    clones = 1.0 / mean
    benchmark.extra_info["clones_per_second"] = clones
    print(f"\n{name} {players}p: {clones:,.0f} clone()/s")


@pytest.mark.parametrize(("name", "players"), [(n, 4) for n in meeple.registered_games()])
@pytest.mark.parametrize("stage", [0.1, 0.9])
def test_resample_per_second(benchmark: Any, name: str, players: int, stage: float) -> None:
    """``resample_from_infostate`` of the seat to move, early (10% of a random game) and late (90%).

    Issue "Faster search": late in a game it should cost about what it costs early (the redacted history is cached
    per state and player and extended by the new steps).
    """
    game = meeple.load_game(name, players=players)
    length = len(random_position(game, 5, game.info.max_game_length).history)
    state = random_position(game, 5, int(length * stage))
    seat = state.current_player()
    rng = Rng(1)
    benchmark(lambda: state.resample_from_infostate(seat, rng))
    seconds = mean_seconds(benchmark)
    if seconds is not None:
        benchmark.extra_info |= {"resamples_per_s": round(1 / seconds), "x_baseline": 1 / seconds / baseline()}
