"""Resampled histories are cached per state and player and extended by the new steps (issue "Faster search")."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.core import Rng, load_game
from meeple.core.state import State


def _expected(state: State[Any], player: int) -> list[tuple[int, Any]]:
    return [(p, a if p == player else state._redacted(a, p, player)) for p, a in state.history]


@pytest.mark.parametrize(("game", "players"), [("citadels", 4), ("capitol", 3), ("capital_lux_2", 2)])
def test_the_cache_follows_the_history(game: str, players: int) -> None:
    state = load_game(game, players=players).new_initial_state(2)
    rng = Rng(2)
    for step in range(120):
        if state.is_terminal():
            break
        if step % 17 == 0:
            for player in range(players):
                world = state.resample_from_infostate(player, Rng(step))
                assert world.history == _expected(state, player)
                assert world.history is not state.resample_from_infostate(player, Rng(step)).history
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    # a history replaced (a snapshot loaded into this object) or a position edited by hand is not served stale
    fresh = load_game(game, players=players).new_initial_state(3)
    state.history = list(fresh.history)
    assert state.resample_from_infostate(0, Rng(1)).history == _expected(state, 0)
    state.edited()
    assert "_redacted_cache" not in state.__dict__
