"""Every refused move gets a reason naming its rule, at every decision of every game (issue #36).

At sampled positions of random games, each illegal action code is asked for its reason: the reason must exist, must
not be the last resort ("this move is not possible now"), and must read the same in worlds the seat to move cannot
tell apart from the real one (``resample_from_infostate``): it never depends on another seat's hidden cards.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import meeple
from meeple.core.rng import Rng
from meeple.core.state import State

GAMES = [("citadels", 4), ("citadels", 3), ("capitol", 3), ("caprice", 2), ("capital_lux_2", 3), ("capital_lux_2", 1)]
LAST_RESORT = "this move is not possible now"


def _positions(name: str, players: int, seed: int, every: int) -> list[State[Any]]:
    state = meeple.load_game(name, players=players).new_initial_state(seed)
    rng = random.Random(seed * 31 + 7)
    out = []
    while not state.is_terminal():
        if len(state.history) % every == 0:
            out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_every_illegal_code_has_a_reason_that_leaks_nothing(name: str, players: int) -> None:
    game = meeple.load_game(name, players=players)
    codes = [game.action_from_code(i) for i in range(game.info.num_distinct_actions)]
    every = {"capital_lux_2": 9, "capitol": 11}.get(name, 5)
    kinds: Counter[str] = Counter()
    for k, state in enumerate(_positions(name, players, 1, every)):
        seat = state.current_player()
        legal = set(state.legal_actions())
        worlds = [state.resample_from_infostate(seat, Rng(1000 + k * 2 + j)) for j in range(2)]
        for action in codes:
            if action in legal:
                assert state.why_illegal(action) is None
                continue
            reason = state.why_illegal(action)
            assert reason is not None, f"{name} step {len(state.history)}: no reason for {action!r}"
            text = str(reason)
            assert text and text != LAST_RESORT, f"{name} step {len(state.history)}: {action!r}: {text!r}"
            for world in worlds:
                assert world.why_illegal(action) == reason, f"{name}: the reason for {action!r} leaks"
            kinds[type(action).__name__] += 1
    assert len(kinds) == len({type(a).__name__ for a in codes})  # every kind of move was asked about
