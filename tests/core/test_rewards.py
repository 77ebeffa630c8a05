"""The reward kinds against played games: the declared (measured) bounds hold and are tight, the ``unit`` scale puts
every kind in [-1, 1], and the utility types are what the games' sums say (issue "For researchers, round three")."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.arena.match import play_match
from meeple.bots import make_bot
from meeple.core import InvalidParameterError
from meeple.core.registry import BUILTIN_GAMES, game_class, game_spec, load_game
from meeple.core.rewards import (
    REWARDS,
    check_reward_scale,
    final_rewards,
    reward_bound,
    reward_range,
    score_bounds,
    utility,
)
from meeple.core.rng import derive_seed
from meeple.core.state import State


def _configs() -> list[tuple[str, int, dict[str, Any]]]:
    out = []
    for name in sorted(BUILTIN_GAMES):
        for players in range(1, game_class(name).max_players + 1):
            for flags in ({}, {"variant_2p_ffg": True}):
                try:
                    load_game(name, players=players, **flags)
                except InvalidParameterError:
                    continue
                out.append((name, players, flags))
                break
    return out


CONFIGS = _configs()
LINEUPS = ("strong", "random", "heuristic", "weak")


def _lineup(kind: str, players: int, odd: int) -> list[str]:
    """A strong seat among weak ones gives the largest scores and margins; the reverse the lowest."""
    if kind in ("random", "heuristic"):
        return [kind] * players
    strong, weak = ("heuristic", "random") if kind == "strong" else ("random", "heuristic")
    return [strong if s == odd % players else weak for s in range(players)]


def _games(
    name: str, players: int, flags: dict[str, Any], count: int, lineups: tuple[str, ...] = LINEUPS
) -> list[State[Any]]:
    params = load_game(name, players=players, **flags).params_dict()
    out = []
    for i in range(count):
        seed = 7_000 + i
        specs = _lineup(lineups[i % len(lineups)], players, i // len(lineups))
        bots = [make_bot(spec, name, seed=derive_seed(seed, "bot", s)) for s, spec in enumerate(specs)]
        out.append(play_match(name, params, seed, bots).final_state)
    return out


def test_every_game_and_player_count_is_measured() -> None:
    assert len(CONFIGS) == 16  # Citadels 2-7 (2 with variant_2p_ffg), Capitol 2-4, Capital Lux 2 1-4, Caprice 2-4
    for name, players, _flags in CONFIGS:
        spec = game_spec(name)
        assert spec.score_bound[players] > 0 and spec.margin_bound[players] > 0
        assert spec.margin_bound[players] <= spec.score_bound[players] or players == 1  # a margin needs the points
        assert spec.longest_game[players] > 0


@pytest.mark.parametrize(("name", "players", "flags"), CONFIGS, ids=[f"{n}-{p}" for n, p, _ in CONFIGS])
def test_played_games_stay_inside_the_declared_bounds_and_the_unit_scale_inside_minus_one_one(
    name: str, players: int, flags: dict[str, Any]
) -> None:
    games = _games(name, players, flags, 8 if name != "caprice" else 4)
    game = games[0].game
    score_bound, margin_bound = score_bounds(game)
    for state in games:
        scores = final_rewards(state, "score")
        margins = final_rewards(state, "score_margin")
        assert all(0 <= s <= score_bound for s in scores), (scores, score_bound)
        assert all(abs(m) <= margin_bound for m in margins), (margins, margin_bound)
        assert len(state.history) <= game_spec(name).longest_game[players] * 2
        for kind in REWARDS:
            raw, unit = final_rewards(state, kind), final_rewards(state, kind, "unit")
            low, high = reward_range(kind, game, "unit")
            assert all(-1.0 <= low <= r <= high <= 1.0 for r in unit), (kind, unit)
            assert unit == pytest.approx([r / reward_bound(kind, game) for r in raw])
            raw_low, raw_high = reward_range(kind, game)
            assert all(raw_low <= r <= raw_high for r in raw)


@pytest.mark.parametrize("name", ["capital_lux_2", "capitol", "caprice", "citadels"])
def test_the_score_bounds_are_tight_within_three_times_the_largest_score_eight_games_reach(name: str) -> None:
    # The bounds before were 200 or 400 points for games whose largest score seen is 25 (Caprice) to 121.
    for _name, players, flags in (c for c in CONFIGS if c[0] == name):
        seen = max(max(final_rewards(state, "score")) for state in _games(name, players, flags, 8, ("strong",)))
        assert game_spec(name).score_bound[players] <= 3 * seen, (players, seen)


def test_the_utility_types_match_what_the_rewards_of_played_games_sum_to() -> None:
    assert utility("win", 3) == ("constant_sum", 1.0)
    assert utility("rank", 4) == ("constant_sum", 2.0)
    assert utility("score_margin", 2) == ("zero_sum", 0.0)
    assert utility("score_margin", 3) == ("general_sum", None)
    assert utility("score", 2) == ("general_sum", None)
    assert utility("win", 1) == ("general_sum", None)  # solo: beating ROB or not
    for name, players, flags in CONFIGS:
        if players == 1:
            continue
        for state in _games(name, players, flags, 2):
            for kind in REWARDS:
                for scale in ("raw", "unit"):
                    kind_of_sum, total = utility(kind, players)
                    if total is not None:
                        assert sum(final_rewards(state, kind, scale)) == pytest.approx(total), (name, kind, scale)


def test_a_bad_scale_and_a_game_without_bounds_are_refused_clearly() -> None:
    with pytest.raises(InvalidParameterError, match="reward_scale must be one of raw, unit, not 'percent'"):
        check_reward_scale("percent")
    state = load_game("caprice", players=2).new_initial_state(0)
    with pytest.raises(InvalidParameterError, match="reward_scale must be one of"):
        final_rewards(state, "score", "percent")
    from tests.core.toy_game import ToyAuction  # registers the toy game, which declares no bounds

    toy = ToyAuction(players=2)
    with pytest.raises(InvalidParameterError, match="declares no score bound for 2 players"):
        score_bounds(toy)
    assert reward_range("win", toy, "unit") == (0.0, 1.0)  # the win and rank kinds need no bound
