"""Property: the 24 pieces and the 20 symbol tokens are conserved through random play."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.core import Rng
from meeple.games.caprice.state import CapriceState


def check_invariants(state: CapriceState) -> None:
    for p in range(4):
        on_board = sum(t.count(p) for t in state.towers)
        assert on_board + state.supply[p] == 6
        held = sum(h.count(p) for h in state.symbols) + (state.drawn == p)
        assert held + state.bag[p] == 5
    assert all(len(t) <= 4 for t in state.towers)
    assert state.full == sum(len(t) == 4 for t in state.towers)
    assert state.placements == sum(len(t) for t in state.towers)
    assert state.marker == -1 or state.towers[state.marker]
    assert all(len(h) <= 4 for h in state.symbols)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    exchange=st.sampled_from(["optional", "mandatory"]),
    order=st.sampled_from(["best", "manual"]),
    choices=st.integers(0, 2**31),
)
def test_pieces_and_tokens_are_conserved(seed: int, players: int, exchange: str, order: str, choices: int) -> None:
    game = meeple.load_game("caprice", players=players, third_symbol_exchange=exchange, symbol_order=order)
    state = game.new_initial_state(seed)
    assert isinstance(state, CapriceState)
    rng = Rng(choices)
    check_invariants(state)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        check_invariants(state)
    assert state.full >= 5
    assert all(len(h) == 4 for h in state.symbols)
    assert sorted(state.returns()) == [0.0] * (players - 1) + [1.0]
