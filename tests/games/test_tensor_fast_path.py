"""A game's direct tensor encoder (read from the state, for speed) equals the encoding of the seat's observation on
every decision of many games, for every seat: so it shows a seat nothing its observation does not."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from meeple.core.registry import BUILTIN_GAMES, load_game
from meeple.core.rng import Rng


def _params(name: str, players: int) -> dict[str, Any]:
    return {"players": players, "variant_2p_ffg": True} if name == "citadels" and players == 2 else {"players": players}


@pytest.mark.parametrize(
    ("name", "players", "flags"),
    [("citadels", n, {}) for n in range(2, 8)]
    + [("citadels", 4, {"deck": "en", "great_wall": True}), ("citadels", 3, {"variant_3p_ffg": True})]
    + [(name, 3, {}) for name in sorted(BUILTIN_GAMES) if name != "citadels"]
    + [("caprice", 2, {"symbol_order": "manual"}), ("caprice", 4, {"third_symbol_exchange": "mandatory"})],
)
def test_the_fast_tensor_equals_the_encoded_observation_for_every_seat(
    name: str, players: int, flags: dict[str, Any]
) -> None:
    game = load_game(name, **_params(name, players), **flags)
    buffer = np.zeros((players, game.observation_tensor_size()), np.float32)
    for seed in range(6):
        state = game.new_initial_state(seed)
        rng = Rng(seed)
        while not state.is_terminal():
            for seat in range(players):
                reference = np.asarray(state.encoded_observation_values(seat), np.float32)
                assert np.array_equal(state.observation_tensor(seat), reference), (seed, len(state.history), seat)
                state.write_observation_tensor(seat, buffer[seat])
                assert np.array_equal(buffer[seat], reference)
            codes = state.legal_action_codes()
            state.apply_action(codes[rng.randrange(len(codes))])
