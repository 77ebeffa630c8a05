"""The symbol draw, the third-symbol exchange (optional and mandatory), hidden symbols and their re-deal."""

from __future__ import annotations

import pytest

import meeple
from meeple.core import Rng
from meeple.games.caprice import ExchangeSymbol, KeepSymbol
from meeple.games.caprice.state import DRAW, PLACE, CapriceState
from tests.games.caprice.helpers import new_state


def token_totals(state: CapriceState) -> list[int]:
    totals = list(state.bag)
    for hand in state.symbols:
        for t in hand:
            totals[t] += 1
    if state.drawn >= 0:
        totals[state.drawn] += 1
    return totals


def test_optional_draw_goes_round_by_round_from_the_first_player() -> None:
    state = new_state(3, 4, first_player=1)
    assert state.phase == DRAW
    assert [len(h) for h in state.symbols] == [2, 2, 2]  # the first two rounds need no decision
    seen = []
    while state.phase == DRAW:
        seen.append(state.current_player())
        assert state.drawn >= 0
        state.apply_action(state.legal_actions()[0])  # keep
    assert seen == [1, 2, 0, 1, 2, 0]  # rounds 3 and 4, clockwise from the first player
    assert [len(h) for h in state.symbols] == [4, 4, 4]
    assert state.phase == PLACE and state.current_player() == 1
    assert sum(state.bag) == 20 - 12
    assert token_totals(state) == [5, 5, 5, 5]


def test_drawn_symbol_is_seen_by_its_drawer_only() -> None:
    state = new_state(3, 4, first_player=0)
    drawer = state.current_player()
    mine = state.observation(drawer)
    assert mine["drawn_symbol"] is not None and len(mine["symbols"]) == 2
    for seat in (1, 2, None):
        obs = state.observation(seat)
        assert obs["drawn_symbol"] is None
        assert obs["symbol_counts"] == [2, 2, 2]
        if seat is not None:
            assert obs["symbols"] == [["DR", "DT", "LR", "LT"][t] for t in state.symbols[seat]]
    assert state.observation(None)["symbols"] is None
    assert state.action_to_string(KeepSymbol(), perspective=1, actor=0) == "keep the drawn symbol"


def third_copy_state(hand: list[int], drawn: int, **params: object) -> CapriceState:
    state = new_state(2, 3, **params)
    assert state.phase == DRAW and state.current_player() == 0
    state.symbols[0] = list(hand)
    state.drawn = drawn
    state.bag = [5 - hand.count(t) - state.symbols[1].count(t) - (t == drawn) for t in range(4)]
    state.edited()
    assert token_totals(state) == [5, 5, 5, 5]
    return state


def test_optional_exchange_is_offered_only_for_a_third_copy() -> None:
    state = third_copy_state([0, 1], 0)
    assert state.legal_actions() == [KeepSymbol()]
    with pytest.raises(meeple.IllegalActionError):
        state.apply_action(ExchangeSymbol())
    state = third_copy_state([0, 0], 0)
    assert state.legal_actions() == [KeepSymbol(), ExchangeSymbol()]
    assert state.observation(0)["can_exchange"] is True
    assert state.observation(1)["can_exchange"] is False


def test_optional_keep_of_a_third_copy() -> None:
    state = third_copy_state([0, 0], 0)
    state.apply_action(KeepSymbol())
    assert state.symbols[0] == [0, 0, 0]
    assert state.exchanges[0] == []
    assert token_totals(state) == [5, 5, 5, 5]


def test_optional_exchange_sets_aside_redraws_and_returns_the_tokens() -> None:
    for seed in range(10):
        state = third_copy_state([2, 2], 2)
        state.rng = Rng(seed)
        state.apply_action(ExchangeSymbol())
        assert state.symbols[0][:2] == [2, 2]
        assert state.symbols[0][2] != 2  # drawn until another symbol came
        assert len(state.exchanges[0]) == 1
        slot, aside = state.exchanges[0][0]
        assert slot == 2 and aside >= 1
        assert token_totals(state) == [5, 5, 5, 5]  # the set-aside tokens are back in the bag
        assert state.observation(1)["exchanges"][0] == [{"draw": 3, "set_aside": aside}]
        assert "set_aside" not in str(state.observation(1)["symbols"])


def test_exchange_of_a_fourth_copy_after_keeping_three() -> None:
    state = new_state(2, 3)
    state.apply_action(KeepSymbol())  # seat 0's third draw
    state.apply_action(KeepSymbol())  # seat 1's third draw
    assert state.current_player() == 0 and len(state.symbols[0]) == 3
    state.symbols[0] = [3, 3, 3]
    state.drawn = 3
    state.bag = [5 - state.symbols[1].count(t) - (4 if t == 3 else 0) for t in range(4)]
    state.edited()
    assert state.legal_actions() == [KeepSymbol(), ExchangeSymbol()]
    state.apply_action(ExchangeSymbol())
    assert state.symbols[0][:3] == [3, 3, 3] and state.symbols[0][3] != 3
    assert token_totals(state) == [5, 5, 5, 5]


def test_redraw_never_takes_back_the_set_aside_tokens() -> None:
    state = new_state(2, 3)
    state.symbols[0] = [0, 0]
    state.bag = [0, 0, 0, 1]  # only one LT left after drawing the third DR
    state._receive(0, 2, 0, True)
    assert state.symbols[0] == [0, 0, 3]
    assert state.exchanges[0] == [[2, 1]]
    assert state.bag == [1, 0, 0, 0]


def test_mandatory_exchange_is_automatic_and_nobody_holds_three() -> None:
    exchanges = 0
    for seed in range(150):
        state = new_state(4, seed, third_symbol_exchange="mandatory")
        assert state.phase == PLACE  # no setup decisions in the mandatory variant
        assert [len(h) for h in state.symbols] == [4, 4, 4, 4]
        assert token_totals(state) == [5, 5, 5, 5] and sum(state.bag) == 4
        for seat, hand in enumerate(state.symbols):
            assert max(hand.count(t) for t in range(4)) <= 2
            for slot, aside in state.exchanges[seat]:
                assert aside >= 1
                pair = [t for t in range(4) if hand[:slot].count(t) >= 2]
                assert len(pair) == 1 and hand[slot] != pair[0]
                exchanges += 1
    assert exchanges > 10  # the rule really fires


def test_optional_setup_draws_can_keep_three_of_a_kind() -> None:
    kept = 0
    for seed in range(150):
        state = new_state(4, seed)
        while state.phase == DRAW:
            state.apply_action(KeepSymbol())
        kept += any(max(h.count(t) for t in range(4)) >= 3 for h in state.symbols)
    assert kept > 0


def test_resample_respects_the_public_exchange_record() -> None:
    varied = 0
    for seed in range(40):
        state = new_state(4, seed, third_symbol_exchange="mandatory")
        for k in range(3):
            other = state.resample_from_infostate(0, Rng(seed * 10 + k))
            assert isinstance(other, CapriceState)
            assert other.symbols[0] == state.symbols[0]
            assert token_totals(other) == [5, 5, 5, 5]
            assert other.observation(0) == state.observation(0)
            for seat, hand in enumerate(other.symbols):
                assert len(hand) == 4 and max(hand.count(t) for t in range(4)) <= 2
                for slot, _ in other.exchanges[seat]:
                    pair = [t for t in range(4) if hand[:slot].count(t) >= 2]
                    assert len(pair) == 1 and hand[slot] != pair[0]
            varied += other.symbols[1:] != state.symbols[1:]
    assert varied > 60  # the hidden hands really are re-dealt


def test_resample_during_the_draw_redeals_the_other_drawers_token() -> None:
    state = new_state(2, 8)
    assert state.current_player() == 0
    changed = 0
    for k in range(20):
        other = state.resample_from_infostate(1, Rng(k))
        assert isinstance(other, CapriceState)
        assert other.symbols[1] == state.symbols[1]
        assert token_totals(other) == [5, 5, 5, 5]
        assert other.observation(1) == state.observation(1)
        changed += other.drawn != state.drawn or other.symbols[0] != state.symbols[0]
        mine = state.resample_from_infostate(0, Rng(k))
        assert isinstance(mine, CapriceState)
        assert mine.drawn == state.drawn and mine.symbols[0] == state.symbols[0]
    assert changed > 5
