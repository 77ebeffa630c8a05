"""Balance extractors of the built-in games: public information only, expected questions, no errors."""

from __future__ import annotations

import random
from typing import Any

import pytest

from meeple.arena.balance import extract_features
from meeple.core import game_class, game_spec, load_game, registered_games

CASES: list[tuple[str, int, dict[str, Any], set[str], set[str]]] = [
    ("citadels", 4, {}, {"turn position", "character", "district built", "city size"}, set()),
    ("capitol", 3, {}, {"turn position", "auction tile won", "auction tiles won (count)"}, set()),
    ("capital_lux_2", 3, {}, {"turn position", "power tile used most"}, {"configuration", "blue tile"}),
    ("capital_lux_2", 1, {}, {"turn position", "power tile used most"}, {"configuration", "solo rating"}),
    ("caprice", 3, {}, {"turn position", "ended the game"}, set()),
]


def _random_game(name: str, players: int, params: dict[str, Any], seed: int) -> Any:
    state = load_game(name, players=players, **params).new_initial_state(seed)
    rnd = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rnd.randrange(len(legal))])
    return state


@pytest.mark.parametrize(("name", "players", "params", "seat_q", "game_q"), CASES)
def test_extractor(name: str, players: int, params: dict[str, Any], seat_q: set[str], game_q: set[str]) -> None:
    if name not in registered_games():
        pytest.skip(f"{name} is not registered yet")
    assert game_spec(name).balance is not None
    for seed in (1, 2):
        state = _random_game(name, players, params, seed)
        feats = extract_features(state)
        assert "error" not in feats, feats
        assert seat_q <= set(feats["seat"]) and game_q <= set(feats["game"])
        for per_seat in feats["seat"].values():
            assert len(per_seat) == players and all(isinstance(labels, list) and labels for labels in per_seat)


def test_capitol_tiles_add_up() -> None:
    if "capitol" not in registered_games():
        pytest.skip("capitol is not registered yet")
    state = _random_game("capitol", 3, {}, 4)
    counts = extract_features(state)["seat"]["auction tiles won (count)"]
    won = sum(int(c[0]) for c in counts)
    removed = sum(state.observation(None)["tiles_removed"].values())
    assert 0 < won <= 12 and won + removed <= 12


def test_solo_margin_value() -> None:
    if "capital_lux_2" not in registered_games() or game_class("capital_lux_2").min_players > 1:
        pytest.skip("capital_lux_2 solo is not available")
    state = _random_game("capital_lux_2", 1, {}, 3)
    feats = extract_features(state)
    assert feats["values"]["solo margin (player - ROB)"] == state.observation(None)["rob"]["margin"]
