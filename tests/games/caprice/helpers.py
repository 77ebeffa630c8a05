from __future__ import annotations

from typing import Any

import meeple
from meeple.games.caprice.data import MAX_HEIGHT, PIECES_PER_TYPE, TOKENS_PER_TYPE
from meeple.games.caprice.rules import codes
from meeple.games.caprice.state import MOVE, PLACE, CapriceState


def new_state(players: int = 2, seed: int = 0, **params: Any) -> CapriceState:
    params.setdefault("first_player", 0)
    state = meeple.load_game("caprice", players=players, **params).new_initial_state(seed)
    assert isinstance(state, CapriceState)
    return state


def position(
    towers: list[str],
    players: int = 2,
    player: int = 0,
    marker: str | None = None,
    symbols: list[str] | None = None,
    seed: int = 0,
    **params: Any,
) -> CapriceState:
    """A play position: towers as 'DR LT ...' bottom to top for A..F; the supply holds the rest."""
    params.setdefault("third_symbol_exchange", "mandatory")
    state = new_state(players, seed, **params)
    state.towers = [codes(t.split()) for t in towers]
    state.supply = [PIECES_PER_TYPE - sum(t.count(p) for t in state.towers) for p in range(4)]
    assert min(state.supply) >= 0
    state.full = sum(1 for t in state.towers if len(t) == MAX_HEIGHT)
    state.placements = sum(len(t) for t in state.towers)
    state.marker = "ABCDEF".index(marker) if marker else -1
    state.player = player
    state.phase = PLACE
    state.placed = -1
    if symbols is not None:
        hands = [codes(s.split()) for s in symbols]
        state.symbols = hands
        state.bag = [TOKENS_PER_TYPE - sum(h.count(t) for h in hands) for t in range(4)]
    state.edited()
    return state


def in_move_phase(state: CapriceState) -> bool:
    return state.phase == MOVE


def texts(state: CapriceState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]
