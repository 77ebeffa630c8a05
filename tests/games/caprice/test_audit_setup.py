"""Audit: the symbol draw and the third-copy exchange (caprice.md §4-5)."""

from __future__ import annotations

from meeple.core import Rng
from meeple.games.caprice import ExchangeSymbol, KeepSymbol
from meeple.games.caprice.state import DRAW, PLACE, CapriceState
from tests.games.caprice.helpers import new_state


def rewound(hands: list[list[int]], bag: list[int], draws: int, seed: int, **params: object) -> CapriceState:
    """A 2-player setup rewound to ``draws`` completed draws (seat 0 first), with the given hands and bag."""
    state = new_state(2, 0, **params)
    state.symbols = [list(h) for h in hands]
    state.exchanges = [[], []]
    state.bag = list(bag)
    state.draws = draws
    state.drawn = -1
    state.rng = Rng(seed)
    state.edited()
    return state


def test_mandatory_draws_alternate_and_set_aside_tokens_return_right_after_the_redraw() -> None:
    """Seat 0 (DR DR) may draw the only DR: it is set aside, seat 0 redraws, and the DR is back for seat 1."""
    seat1_got_the_dr = 0
    for seed in range(300):
        state = rewound([[0, 0], [1, 2]], [1, 0, 0, 3], 4, seed, third_symbol_exchange="mandatory")
        state._run_draws()
        assert state.phase == PLACE and [len(h) for h in state.symbols] == [4, 4]
        assert state.symbols[0].count(0) == 2  # never a third DR
        if state.exchanges[0][:1] == [[2, 1]]:
            assert state.symbols[0][2] == 3  # the redraw: the only other symbol in the bag
            seat1_got_the_dr += 0 in state.symbols[1]
        assert sum(state.bag) == 0 and sum(h.count(0) for h in state.symbols) == 3
    assert seat1_got_the_dr > 5


def test_optional_exchange_of_a_third_copy_on_the_fourth_draw() -> None:
    state = new_state(2, 3)
    state.apply_action(KeepSymbol())  # seat 0's third draw
    state.apply_action(KeepSymbol())  # seat 1's third draw
    assert state.phase == DRAW and state.current_player() == 0 and len(state.symbols[0]) == 3
    state.symbols[0] = [0, 1, 0]
    state.drawn = 0
    state.bag = [5 - 3 - state.symbols[1].count(0)] + [5 - (t == 1) - state.symbols[1].count(t) for t in (1, 2, 3)]
    state.edited()
    assert state.legal_actions() == [KeepSymbol(), ExchangeSymbol()]
    state.apply_action(ExchangeSymbol())
    assert state.symbols[0][:3] == [0, 1, 0] and state.symbols[0][3] != 0
    assert state.exchanges[0][0][0] == 3
    assert state.observation(1)["exchanges"][0][0]["draw"] == 4
    assert state.observation(1)["exchanges"][0] == [{"draw": 4, "set_aside": state.exchanges[0][0][1]}]


def test_optional_keep_at_the_fourth_draw_needs_no_exchange_when_not_a_third_copy() -> None:
    state = new_state(2, 3)
    state.apply_action(KeepSymbol())
    state.apply_action(KeepSymbol())
    state.symbols[0] = [0, 1, 0]
    state.drawn = 1  # a second DT: not a third copy
    state.edited()
    assert state.legal_actions() == [KeepSymbol()]
