from __future__ import annotations

import pytest

from meeple.core.testing import check_game


def test_conformance_config_a_all_player_counts() -> None:
    report = check_game("capital_lux_2", seeds=range(2), player_counts=[1, 2, 3, 4], check_every=4)
    assert report.games == 8


def test_conformance_merchant_and_clerc_flags() -> None:
    flags = {"merchant_gold_covers_excess": True, "clerc_excludes_pink": False}
    check_game("capital_lux_2", seeds=[3], player_counts=[1, 3], params=flags, check_every=6)


@pytest.mark.parametrize("config", ["B", "C", "D"])
def test_conformance_provisional_presets(config: str) -> None:
    counts = [2, 4] if config in ("B", "D") else [1, 3]
    check_game(
        "capital_lux_2",
        seeds=[1],
        player_counts=counts,
        params={"config": config, "provisional_powers": True},
        check_every=5,
    )


def test_conformance_random_provisional_combinations() -> None:
    check_game(
        "capital_lux_2",
        seeds=range(4, 8),
        player_counts=[1, 2, 3, 4],
        params={"config": "random", "provisional_powers": True},
        check_every=8,
    )


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_finished_game_restores_from_its_own_snapshot(players: int) -> None:
    """Issue 41 item 19: ``state_from_json`` refused ``body.round`` 3 (the round counter after the third round) of
    every finished game; a finished game now restores exactly, and a finished game claiming another round does not."""
    from meeple.core import InvalidStateError, load_game
    from meeple.core.testing import random_position

    game = load_game("capital_lux_2", players=players)
    for seed in range(5):
        state = random_position(game, seed, 10_000)
        assert state.is_terminal()
        data = state.to_json()
        assert data["body"]["round"] == 3
        restored = game.state_from_json(data)
        assert restored.to_json() == data and restored.returns() == state.returns()
        forged = {**data, "body": {**data["body"], "round": 2}}
        with pytest.raises(InvalidStateError, match="body.round"):
            game.state_from_json(forged, check_history=False)
